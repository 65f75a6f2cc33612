//! The PLawBench benchmark (`docs/benchmarks/plawbench.md`): 280 practical
//! legal items in four tasks, each answered by the model and graded against
//! a rubric by an LLM judge (or a panel), as evalscope runs it.
//! [`PLawBench`] puts it behind the engine's one benchmark interface
//! ([`crate::benchmark::Suite`]).
//!
//! - [`dataset`]: the dataset file (§B1.1): tasks, items, rubric sections
//!   kept as released; parsing with line- and field-named errors; the
//!   converter from evalscope's dataset records.
//! - [`release`]: the official release's four files as released (§B1.2),
//!   with what they lack derived by documented rules and warned about.
//! - [`run`]: the run file (§B3): header with the judge panel, rubric items
//!   with one judgement per judge; validation against the dataset; entry
//!   keys; the trusted stored form.
//! - [`score`]: clamping (§B2.4), per-judge and panel item scores, run
//!   scores and the official columns (§B4.1–§B4.3), the score document
//!   (§B4.4).
//! - [`leaderboard`]: the §B7 views: the official ranking (grouped by
//!   Family or sorted by a column), the evalscope view of one entry, Task 2
//!   by category; their CSV and LaTeX forms; the column keys of URLs.
//! - [`drilldown`]: the items behind a leaderboard cell, per item and run,
//!   with the cell's value recomputed from them; one item's detail (prompt,
//!   response, per section and judge the raw and clamped points).
//! - [`exports`]: the drill-down's tables for the one export writer.
//! - [`judge`]: the verbatim prompts of Appendix 1, model and judge prompt
//!   rendering (§B2.1, §B2.2), and reading judge replies in strict or
//!   lenient mode (§B2.3).
//! - [`evalscope`]: an evalscope output folder (predictions, reviews, report,
//!   task config) turned into run files, with the reconciliation report
//!   (§B6).
//! - [`query`]: browsing items (what storage lists them by, the list's
//!   summary rows) and the dataset's statistics.
//! - [`synthetic`]: seeded synthetic dataset, run and evalscope files at
//!   the official scale, for benchmarks and property tests.
//! - [`json`]: JSON values that keep key order and number form, and Python's
//!   `json.dumps(..., ensure_ascii=False, indent=2)` of them.
//!
//! Pure: depends on serde, serde_json, regex and sha2, and on the shared
//! modules [`crate::core`], [`crate::metrics`], [`crate::names`],
//! [`crate::spreadsheet`] and [`crate::vocab`]: the entry key
//! ([`crate::core::entry::EntryKey`]) and the error types
//! ([`crate::core::errors::DatasetErrors`]) every benchmark shares, the
//! judge panel's rules ([`crate::core::panel`]) and the LaTeX escaping of
//! the leaderboard tables ([`crate::core::table::latex_escape`]); no other
//! benchmark.
//!
//! # Example
//!
//! ```
//! use engine::benchmark::{Benchmark, Suite};
//! use engine::plawbench::PLawBench;
//!
//! let dataset = PLawBench::parse_dataset(concat!(
//!     r#"{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "我要离婚。", "rubric": "1.(+10 分) 报警记录？", "max_points": 10}"#, "\n",
//! )).unwrap();
//! let file = concat!(
//!     r#"{"kind": "run", "benchmark": "plawbench", "model": "M", "run": 1, "judges": [{"model": "J"}], "judge_parse": "lenient"}"#, "\n",
//!     r#"{"kind": "rubric", "item_id": "legal_consultation-1", "task": "legal_consultation", "judgements": [{"judge": "J", "awarded": 7}]}"#, "\n",
//! );
//! let run = PLawBench::parse_run(file.as_bytes(), &dataset).unwrap();
//! let meta = PLawBench::meta(&run);
//! assert_eq!((meta.benchmark, meta.run), (Benchmark::Plawbench, 1));
//! assert_eq!(PLawBench::read_stored(&PLawBench::to_stored(&run)).unwrap(), run);
//! let scores = PLawBench::score(&run, &dataset);
//! let doc = PLawBench::summarise(vec![(meta.entry_key, scores)], &dataset);
//! assert_eq!(doc.entries[0].task1, Some(Some(engine::metrics::MeanStd { mean: 0.7, std: None })));
//! ```

use std::io::BufRead;

use crate::benchmark::{Benchmark, RunMeta, Suite};

pub mod dataset;
pub mod drilldown;
pub mod evalscope;
pub mod exports;
pub mod json;
pub mod judge;
pub mod leaderboard;
pub mod query;
pub mod release;
pub mod review;
pub mod run;
pub mod score;
pub mod synthetic;

use crate::core::entry::EntryKey;
use crate::core::errors::{DatasetErrors, RunErrors};
use dataset::Item;
use run::Run;
use score::{EntryScores, RunScores, ScoreDocument};

/// The PLawBench benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PLawBench;

impl Suite for PLawBench {
    const BENCHMARK: Benchmark = Benchmark::Plawbench;
    type Case = Item;
    type Run = Run;
    type Scores = RunScores;
    type Entry = EntryScores;
    type Document = ScoreDocument;

    fn parse_dataset(text: &str) -> Result<Vec<Item>, DatasetErrors> {
        dataset::parse_dataset(text)
    }

    fn parse_run(reader: impl BufRead, cases: &[Item]) -> Result<Run, RunErrors> {
        run::parse_run_reader(reader, cases)
    }

    fn to_stored(run: &Run) -> String {
        run.to_stored()
    }

    fn read_stored(stored: &str) -> Result<Run, String> {
        Run::read_stored(stored)
    }

    fn meta(run: &Run) -> RunMeta {
        RunMeta {
            benchmark: Benchmark::Plawbench,
            model: run.header.model.clone(),
            run: run.header.run,
            family: run.header.family.map(|f| f.as_str().to_owned()),
            entry_key: run.header.entry_key(),
            unavailable: run.unavailable(),
            created_at: run.header.created_at.clone(),
        }
    }

    fn score(run: &Run, cases: &[Item]) -> RunScores {
        score::score_run(run, cases)
    }

    fn summarise_entry(key: EntryKey, runs: &[RunScores], _: &[Item]) -> EntryScores {
        score::summarise_entry(key, runs)
    }

    fn document(entries: Vec<EntryScores>, cases: &[Item]) -> ScoreDocument {
        score::document(entries, cases)
    }

    fn withhold(run: &mut Run, open: &[crate::review::OpenDecision]) -> usize {
        review::withhold(run, open)
    }
}
