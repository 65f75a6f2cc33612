//! DTOs that cross from the server to the browser. Domain types (cases,
//! statistics, filters) come from `engine` unchanged.

use engine::accounts::Role;
use engine::core::paging::Page;
use engine::lexpilot::dataset::Case;
use engine::lexpilot::query::CaseSummary;
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

/// The overview page: the hosted benchmarks, and LexPilot's dataset
/// statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Overview {
    pub benchmarks: Vec<BenchmarkCard>,
    pub dataset: DatasetView,
    pub stats: DatasetStats,
}

/// One hosted benchmark on the landing page: its current dataset (if any)
/// and how many runs are stored on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchmarkCard {
    pub benchmark: engine::benchmark::Benchmark,
    pub dataset: Option<DatasetView>,
    pub runs: i64,
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
    /// The statute citations in the case's texts.
    #[serde(default)]
    pub marks: engine::statutes::MarkMap,
}

/// How a page's figures stand to blind review
/// ([`engine::review::OpenDecision`]): everyone's leave out the judge
/// decisions under blind review; a review manager's count them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlindReview {
    /// Decisions under blind review these figures leave out.
    pub left_out: usize,
    /// For a review manager, whose figures count every decision: those
    /// under blind review, which everyone else's figures leave out.
    pub counted: usize,
}

/// One leaderboard view (a task, for LJP a setup, a sort), built on the server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeaderboardView {
    pub dataset: DatasetView,
    pub blind: BlindReview,
    /// Cases in the dataset.
    pub cases: usize,
    pub table: engine::lexpilot::leaderboard::Table,
    /// Per row of the table, per column, the 95% bootstrap interval of the
    /// entry's mean over resampled cases (`None` for derived columns).
    pub intervals: Vec<Vec<Option<(f64, f64)>>>,
    /// The per-class bar chart of the view, as SVG markup (empty without rows).
    pub chart: String,
    /// Published (or a lab's own) reference figures of the view, one line
    /// per model and origin, cells in `table.columns` order: shown below the
    /// entries, never ranked or counted in a column's best.
    #[serde(default)]
    pub reference: Vec<engine::reference::ReferenceLine>,
}

/// The model page: every stored run of one model, per entry (runs made in
/// the same setting), with per-run scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelView {
    pub dataset: DatasetView,
    pub blind: BlindReview,
    pub model: String,
    pub entries: Vec<ModelEntryView>,
}

pub use engine::lexpilot::model::{CompareRow, ModelEntry as ModelEntryView, RunRow};

/// The compare page: two entries and the paired bootstrap per score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareView {
    pub dataset: DatasetView,
    pub blind: BlindReview,
    /// Every entry's model name, for the pickers.
    pub models: Vec<String>,
    pub a: Option<String>,
    pub b: Option<String>,
    pub class: Option<engine::vocab::Class>,
    pub rows: Vec<CompareRow>,
    pub resamples: usize,
}

/// One run file as the upload page checked it: its errors (each with line and
/// field), or its headline scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunFileReport {
    pub name: String,
    pub errors: Vec<engine::core::errors::DatasetError>,
    /// A valid LexPilot run's scores.
    pub summary: Option<RunSummary>,
    /// A valid PLawBench run's scores.
    #[serde(default)]
    pub plaw: Option<PlawRunSummary>,
    /// A valid DLawBench run's scores.
    #[serde(default)]
    pub dlaw: Option<DlawRunSummary>,
}

/// The headline scores of a valid DLawBench run file (null-as-zero).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DlawRunSummary {
    pub model: String,
    pub run: u32,
    pub sessions: usize,
    /// The styles the run has, of the four.
    pub styles: usize,
    pub elicitation: Option<f64>,
    pub resolution: Option<f64>,
    pub fidelity: Option<f64>,
    pub failures: usize,
    pub unavailable: usize,
    pub already_stored: bool,
}

/// The official scores of a valid PLawBench run file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlawRunSummary {
    pub model: String,
    pub run: u32,
    pub overall: Option<f64>,
    pub task1: Option<f64>,
    pub task2: Option<f64>,
    pub task3: Option<f64>,
    pub unavailable: usize,
    pub truncated: usize,
    pub already_stored: bool,
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

/// The PLawBench dataset page: its statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlawDatasetView {
    pub dataset: DatasetView,
    pub stats: engine::plawbench::query::Stats,
    /// Stored runs on the version.
    pub runs: i64,
}

/// The PLawBench item list: one page of summaries, and the categories to
/// filter by.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlawItemList {
    pub dataset: DatasetView,
    pub page: Page<engine::plawbench::query::ItemSummary>,
    pub categories: Vec<String>,
}

/// One PLawBench item with its neighbours in dataset order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlawItemView {
    pub dataset: DatasetView,
    pub item: engine::plawbench::dataset::Item,
    /// From 1.
    pub position: i64,
    pub previous: Option<String>,
    pub next: Option<String>,
}

/// The PLawBench leaderboard: the official ranking, each entry's evalscope
/// view, and Task 2 by category with its chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlawBoard {
    pub dataset: DatasetView,
    pub blind: BlindReview,
    pub items: std::collections::BTreeMap<engine::plawbench::dataset::Task, usize>,
    pub table: engine::plawbench::leaderboard::Table,
    /// Per row of the table, the entry's evalscope view.
    pub evalscope: Vec<engine::plawbench::leaderboard::EvalscopeView>,
    pub categories: engine::plawbench::leaderboard::CategoryTable,
    /// Task 2 accuracy per category and entry, as SVG.
    pub chart: String,
    /// The official ranking's published (or a lab's own) figures, one line
    /// per model and origin, cells in `table.columns` order: shown below
    /// the entries, never ranked.
    #[serde(default)]
    pub reference: Vec<engine::reference::ReferenceLine>,
}

/// The items behind one PLawBench leaderboard cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlawCellView {
    pub dataset: DatasetView,
    pub model: String,
    pub setting: Option<String>,
    pub drill: engine::plawbench::drilldown::CellDrilldown,
    /// The page of rows shown, from 1, and how many pages there are.
    pub page: u32,
    pub pages: u32,
    /// How the citations in every answer of the entry (all its runs) stand
    /// against the imported statutes, and how many runs that counts over.
    pub citations: engine::statutes::CitationCheck,
    pub citation_runs: usize,
}

/// One PLawBench item as one run of an entry answered it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlawItemRunView {
    pub dataset: DatasetView,
    pub setting: Option<String>,
    pub detail: engine::plawbench::drilldown::ItemDetail,
    /// The statute citations in the answer.
    #[serde(default)]
    pub marks: engine::statutes::MarkMap,
}

/// The DLawBench dataset page: its §A1.2a statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DlawDatasetView {
    pub dataset: DatasetView,
    pub stats: engine::dlawbench::dataset::Stats,
    /// Stored runs on the version.
    pub runs: i64,
}

/// The DLawBench case list: one page of summaries, and the domains to
/// filter by (jurisdiction, domain key).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DlawCaseList {
    pub dataset: DatasetView,
    pub page: Page<engine::dlawbench::query::CaseSummary>,
    pub domains: Vec<(engine::dlawbench::dataset::Jurisdiction, String)>,
}

/// One DLawBench case with its neighbours in dataset order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DlawCaseView {
    pub dataset: DatasetView,
    pub case: engine::dlawbench::dataset::Case,
    /// From 1.
    pub position: i64,
    pub previous: Option<String>,
    pub next: Option<String>,
}

/// The DLawBench leaderboard in one view (null-as-zero or valid-only):
/// the main and per-jurisdiction tables, style sensitivity with a chart
/// per ability, the domain table and the diagnostics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DlawBoard {
    pub dataset: DatasetView,
    pub blind: BlindReview,
    pub cases: std::collections::BTreeMap<engine::dlawbench::dataset::Jurisdiction, usize>,
    pub view: engine::dlawbench::score::View,
    pub main: engine::dlawbench::leaderboard::Table,
    pub jurisdictions: Vec<engine::dlawbench::leaderboard::Table>,
    /// The published (or a lab's own) figures of `main`, then of each of
    /// `jurisdictions`: shown below each table's entries, never ranked.
    #[serde(default)]
    pub reference: Vec<Vec<engine::reference::ReferenceLine>>,
    pub styles: engine::dlawbench::leaderboard::StyleTable,
    /// Per ability, the four styles' bars per entry, as SVG.
    pub style_charts: Vec<(engine::dlawbench::score::Metric, String)>,
    /// Figure 5: per ability, the four styles' mean over entries, as SVG.
    pub style_summary_chart: String,
    pub domains: engine::dlawbench::leaderboard::DomainTable,
    pub diagnostics: engine::dlawbench::leaderboard::DiagnosticsView,
    /// Table 22: median vs mean aggregation per metric, every run pooled.
    pub aggregation: engine::dlawbench::leaderboard::AggregationTable,
}

/// The sessions behind one DLawBench leaderboard cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DlawCellView {
    pub dataset: DatasetView,
    pub model: String,
    pub setting: Option<String>,
    pub cell: engine::dlawbench::drilldown::CellSessions,
    /// How the citations in everything the entry's lawyer wrote (all its
    /// runs: turns and memos) stand against the imported statutes, and how
    /// many runs that counts over.
    pub citations: engine::statutes::CitationCheck,
    pub citation_runs: usize,
}

/// One session of one run of a DLawBench entry, in full.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DlawSessionView {
    pub dataset: DatasetView,
    pub model: String,
    pub setting: Option<String>,
    pub run: u32,
    pub index: usize,
    pub detail: engine::dlawbench::drilldown::SessionDetail,
    /// The statute citations in the memo and the dialogue.
    #[serde(default)]
    pub marks: engine::statutes::MarkMap,
}
