//! DTOs that cross from the server to the browser. Domain types (cases,
//! statistics, filters) come from `engine` unchanged.

use engine::accounts::Role;
use engine::lexpilot::dataset::Case;
use engine::lexpilot::query::{CaseSummary, Page};
use engine::lexpilot::stats::DatasetStats;
use serde::{Deserialize, Serialize};

/// The signed-in user as pages see them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UserView {
    pub name: String,
    pub role: Role,
    /// An expert designated to adjudicate review items.
    #[serde(default)]
    pub adjudicator: bool,
}

impl UserView {
    /// What the account may do (pages only hide; the server decides).
    pub fn allows(&self, permission: engine::accounts::Permission) -> bool {
        engine::accounts::Standing {
            role: self.role,
            adjudicator: self.adjudicator,
        }
        .allows(permission)
    }
}

#[cfg(feature = "ssr")]
impl From<db::users::User> for UserView {
    fn from(u: db::users::User) -> Self {
        UserView {
            name: u.name,
            role: u.role,
            adjudicator: u.adjudicator,
        }
    }
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

/// One leaderboard view (a task, for LJP a setup, a sort), built on the server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeaderboardView {
    pub dataset: DatasetView,
    /// Cases in the dataset.
    pub cases: usize,
    pub table: engine::lexpilot::leaderboard::Table,
    /// Per row of the table, per column, the 95% bootstrap interval of the
    /// entry's mean over resampled cases (`None` for derived columns).
    pub intervals: Vec<Vec<Option<(f64, f64)>>>,
    /// The per-class bar chart of the view, as SVG markup (empty without rows).
    pub chart: String,
}

/// The model page: every stored run of one model, per entry (runs made in
/// the same setting), with per-run scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelView {
    pub dataset: DatasetView,
    pub model: String,
    pub entries: Vec<ModelEntryView>,
}

/// One entry of a model: its setting, its runs, and per task a table with
/// one row per run and a last row with the entry's mean ± std.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelEntryView {
    /// What sets the entry apart (judge, user model, other header fields).
    pub setting: Vec<(String, String)>,
    pub family: Option<engine::lexpilot::run::Family>,
    pub runs: Vec<RunRow>,
    /// (task, table) for each task the entry's runs contain.
    pub tables: Vec<(
        engine::lexpilot::run::Task,
        engine::lexpilot::leaderboard::Table,
    )>,
}

/// One stored run as the model page lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRow {
    pub run: i64,
    pub created_at: String,
    pub uploaded_by: Option<String>,
    pub unavailable: i64,
}

/// The compare page: two entries and the paired bootstrap per score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareView {
    pub dataset: DatasetView,
    /// Every entry's model name, for the pickers.
    pub models: Vec<String>,
    pub a: Option<String>,
    pub b: Option<String>,
    pub class: Option<engine::vocab::Class>,
    pub rows: Vec<CompareRow>,
    pub resamples: usize,
}

/// One score compared: A's and B's means over all cases (or the class), the
/// difference A − B with its 95% interval and two-sided p-value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareRow {
    pub metric: String,
    pub a: Option<f64>,
    pub b: Option<f64>,
    pub result: Option<engine::metrics::PairedBootstrap>,
}

/// One run file as the upload page checked it: its errors (each with line and
/// field), or its headline scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunFileReport {
    pub name: String,
    pub errors: Vec<engine::lexpilot::dataset::DatasetError>,
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
