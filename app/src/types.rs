//! DTOs that cross from the server to the browser. Domain types (cases,
//! statistics, filters) come from `engine` unchanged.

use engine::accounts::Role;
use engine::dataset::Case;
use engine::query::{CaseSummary, Page};
use engine::stats::DatasetStats;
use serde::{Deserialize, Serialize};

/// The signed-in user as pages see them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UserView {
    pub name: String,
    pub role: Role,
}

/// The dataset version a page shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DatasetView {
    pub name: String,
    pub version: i64,
    pub synthetic: bool,
    pub case_count: i64,
    pub imported_at: String,
}

/// The overview page: dataset statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Overview {
    pub dataset: DatasetView,
    pub stats: DatasetStats,
}

/// The case list page: one page of summaries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseList {
    pub dataset: DatasetView,
    pub page: Page<CaseSummary>,
}

/// The case page: one case and its neighbours in dataset order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseDetail {
    pub dataset: DatasetView,
    pub case: Case,
    /// 1-based position in the dataset.
    pub position: i64,
    pub previous: Option<String>,
    pub next: Option<String>,
}

/// The leaderboard page: every entry's scores on the current dataset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Leaderboard {
    pub dataset: DatasetView,
    pub scores: engine::score::ScoreDocument,
}

/// One run file as the upload page checked it: its errors (each with line and
/// field), or its headline scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunFileReport {
    pub name: String,
    pub errors: Vec<engine::dataset::DatasetError>,
    pub summary: Option<RunSummary>,
}

/// The overall scores of a valid run file, and whether it would replace a stored run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    pub model: String,
    pub run: u32,
    pub lca_macro_f1: Option<f64>,
    pub dcg_accuracy: Option<f64>,
    pub ljp_qwk: Vec<(engine::vocab::LjpSetup, Option<f64>)>,
    pub unavailable: usize,
    pub already_stored: bool,
}

/// A file picked in the browser: its name and text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UploadFile {
    pub name: String,
    pub text: String,
}
