//! Which benchmark a dataset or run belongs to, and the one interface every
//! benchmark's rules sit behind.
//!
//! - [`Benchmark`]: `lexpilot`, `dlawbench` or `plawbench` (the shared
//!   contract, `docs/benchmarks/*.md` §0.3). A run header names it in
//!   `"benchmark"`; absent means `lexpilot`, so every LexPilot file stays
//!   valid. A dataset is named its benchmark when it is imported.
//! - [`Suite`]: what the workbench needs of a benchmark: read a dataset file,
//!   parse and validate a run file against its dataset, read a stored run
//!   back without validating it again, the facts storage keeps of a run
//!   ([`RunMeta`]), score a run, summarise stored scores into the
//!   benchmark's score document, and leave out of a run the judge decisions
//!   open for blind review ([`Suite::withhold`]). Storage and the runtime are written against
//!   it; pages, leaderboard views and drill-downs use the benchmark's own
//!   types.
//! - [`LexPilot`]: the LexPilot benchmark ([`crate::lexpilot`]);
//!   [`PLawBench`]: the PLawBench benchmark ([`crate::plawbench`]);
//!   [`DLawBench`]: the DLawBench benchmark ([`crate::dlawbench`]), whose
//!   rules are all here but which the server does not host yet
//!   ([`Benchmark::hosted`]).
//!
//! # Example
//!
//! ```
//! use engine::benchmark::{Benchmark, LexPilot, Suite};
//!
//! let dataset = LexPilot::parse_dataset(&engine::lexpilot::synthetic::dataset_file(1)).unwrap();
//! let file = engine::lexpilot::synthetic::run_file(&dataset, 0, 1, 1);
//! let run = LexPilot::parse_run(file.as_bytes(), &dataset).unwrap();
//! let meta = LexPilot::meta(&run);
//! assert_eq!((meta.run, meta.benchmark), (1, Benchmark::Lexpilot));
//! // What storage keeps reads back as the same run, without validation.
//! assert_eq!(LexPilot::read_stored(&LexPilot::to_stored(&run)).unwrap(), run);
//! let scores = LexPilot::score(&run, &dataset);
//! let doc = LexPilot::summarise(vec![(meta.entry_key, scores)], &dataset);
//! assert_eq!(doc.entries.len(), 1);
//! ```

use std::io::BufRead;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::lexpilot::dataset::DatasetErrors;
use crate::lexpilot::run::{EntryKey, RunErrors};
use crate::review::OpenDecision;
use crate::vocab::vocabulary;

vocabulary! {
    /// The benchmarks the workbench knows.
    Benchmark, kind "benchmark" {
        /// LexPilot: proactive legal consultation (`docs/formats.md`).
        Lexpilot = "lexpilot", zh "LexPilot 主动法律咨询", en "LexPilot";
        /// DLawBench: multi-turn consultations with simulated clients.
        Dlawbench = "dlawbench", zh "DLawBench 多轮法律咨询", en "DLawBench";
        /// PLawBench: rubric-judged practical-law items.
        Plawbench = "plawbench", zh "PLawBench 实务法律评测", en "PLawBench";
    }
}

/// LexPilot: what a run header or a stored record that names no benchmark
/// belongs to (§0.3).
///
/// ```
/// use engine::benchmark::Benchmark;
/// assert_eq!(Benchmark::default(), Benchmark::Lexpilot);
/// ```
impl Default for Benchmark {
    fn default() -> Self {
        Benchmark::Lexpilot
    }
}

impl Benchmark {
    /// Whether this server can validate and score the benchmark's files.
    ///
    /// ```
    /// use engine::benchmark::Benchmark;
    /// assert!(Benchmark::Lexpilot.hosted());
    /// assert!(Benchmark::Plawbench.hosted());
    /// assert!(Benchmark::Dlawbench.hosted());
    /// ```
    pub fn hosted(self) -> bool {
        matches!(
            self,
            Benchmark::Lexpilot | Benchmark::Dlawbench | Benchmark::Plawbench
        )
    }

    /// The error for a dataset or run of a benchmark this server does not
    /// host, naming the value and what is hosted.
    pub fn not_hosted(self) -> String {
        format!(
            "benchmark \"{}\" is not hosted by this server yet; it hosts: {}",
            self.as_str(),
            Benchmark::ALL
                .into_iter()
                .filter(|b| b.hosted())
                .map(Benchmark::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

impl Benchmark {
    /// The benchmark a run file's header names in `"benchmark"`: `Lexpilot`
    /// when the header says none (formats.md §3 files), `None` when the first
    /// line is no JSON object or names no benchmark this build knows (the
    /// engine then refuses the file naming the field).
    ///
    /// ```
    /// use engine::benchmark::Benchmark;
    /// assert_eq!(Benchmark::declared(b"{\"kind\": \"run\", \"benchmark\": \"plawbench\"}\n{}"), Some(Benchmark::Plawbench));
    /// assert_eq!(Benchmark::declared(b"{\"kind\": \"run\", \"model\": \"M\"}"), Some(Benchmark::Lexpilot));
    /// assert_eq!(Benchmark::declared(b"{\"benchmark\": \"chess\"}"), None);
    /// assert_eq!(Benchmark::declared(b"not json"), None);
    /// ```
    pub fn declared(file: &[u8]) -> Option<Benchmark> {
        let first = file.split(|&b| b == b'\n').next()?;
        let header: serde_json::Map<String, serde_json::Value> =
            serde_json::from_slice(first).ok()?;
        match header.get("benchmark") {
            None => Some(Benchmark::Lexpilot),
            Some(value) => value.as_str().and_then(Benchmark::parse),
        }
    }
}

/// What storage keeps of a run besides its items and scores, the same for
/// every benchmark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunMeta {
    pub benchmark: Benchmark,
    /// The evaluated model.
    pub model: String,
    /// The repetition, from 1.
    pub run: u32,
    /// The model's group (`legal`, `open`, `closed`).
    pub family: Option<String>,
    /// The leaderboard entry the run belongs to.
    pub entry_key: EntryKey,
    /// How many items could not be labelled.
    pub unavailable: usize,
    /// When the run was made, as its header says.
    pub created_at: Option<String>,
}

/// One benchmark's rules (see the [module documentation](self)).
pub trait Suite: 'static {
    /// Which benchmark this is.
    const BENCHMARK: Benchmark;
    /// One line of the dataset.
    type Case: Clone + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// A parsed run.
    type Run: Send + Sync + 'static;
    /// What scoring one run gives, kept with the run.
    type Scores: Serialize + DeserializeOwned + Send + Sync + 'static;
    /// The score document of every entry of a dataset.
    type Document: Serialize + Send + 'static;

    /// Reads and validates a dataset file; every error with line and field.
    fn parse_dataset(text: &str) -> Result<Vec<Self::Case>, DatasetErrors>;
    /// Parses and validates a run file against its dataset, line by line
    /// from `reader`; every error with line and field (a header naming
    /// another benchmark included).
    fn parse_run(reader: impl BufRead, cases: &[Self::Case]) -> Result<Self::Run, RunErrors>;
    /// The run as storage keeps it.
    fn to_stored(run: &Self::Run) -> String;
    /// Reads back what [`Suite::to_stored`] wrote, trusting it (it was
    /// validated when stored): no checks against the dataset.
    fn read_stored(stored: &str) -> Result<Self::Run, String>;
    /// What storage keeps of the run besides items and scores.
    fn meta(run: &Self::Run) -> RunMeta;
    /// Scores the run against the cases it was validated on.
    fn score(run: &Self::Run, cases: &[Self::Case]) -> Self::Scores;
    /// The score document of stored runs' scores, grouped by entry in order
    /// of first appearance.
    fn summarise(runs: Vec<(EntryKey, Self::Scores)>, cases: &[Self::Case]) -> Self::Document;
    /// Leaves out of the run the judge decisions `open` names (of this run,
    /// open for blind review), as if it never had them; how many it left
    /// out ([`OpenDecision`] states the rule).
    fn withhold(run: &mut Self::Run, open: &[OpenDecision]) -> usize;

    /// The run's scores for public figures: scored again without the
    /// decisions `open` names ([`Suite::withhold`]), with how many were left
    /// out. They depend on the visible decisions alone.
    fn score_withholding(
        mut run: Self::Run,
        open: &[OpenDecision],
        cases: &[Self::Case],
    ) -> (Self::Scores, usize) {
        let left_out = Self::withhold(&mut run, open);
        (Self::score(&run, cases), left_out)
    }
}

pub use crate::dlawbench::DLawBench;
pub use crate::lexpilot::LexPilot;
pub use crate::plawbench::PLawBench;
