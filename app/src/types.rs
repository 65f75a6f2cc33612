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
