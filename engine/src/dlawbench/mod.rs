//! The DLawBench benchmark (`docs/benchmarks/dlawbench.md` Part A): a
//! lawyer model interviews a simulated client in one of four narrative
//! styles, then writes a memo; a judge panel (same-vendor judges recuse)
//! decides, fact by fact and rubric item by rubric item, what it elicited
//! and resolved. [`DLawBench`] puts it behind the engine's one benchmark
//! interface ([`crate::benchmark::Suite`]).
//!
//! - [`dataset`]: the dataset file (§A1): cases with fact pairs (client
//!   belief vs court record) and Inquiry and Issue-resolution rubrics;
//!   parsing with line- and field-named errors; the dataset page's
//!   statistics (§A1.2a).
//! - [`run`]: the run file (§A3): header with the judge panel, sessions
//!   with dialogue, memo and one seat per judge; validation against the
//!   case (rubric lengths, fact ids, statuses, recusal by vendor); entry
//!   keys; the trusted stored form.
//! - [`score`]: per-judge rates, the panel median, session values with
//!   task failures and unavailable sessions, run scores per jurisdiction,
//!   style and domain, the score document (§A4).
//! - [`leaderboard`]: the §A6 views: the main and per-jurisdiction tables,
//!   style sensitivity, the domain table, diagnostics; CSV and LaTeX.
//! - [`drilldown`]: the sessions behind a leaderboard cell, and one
//!   session's detail (fact pairs, dialogue, memo, each judge, the panel).
//! - [`exports`]: the drill-down's tables for the one export writer.
//! - [`query`]: browsing cases: what storage lists them by, the case
//!   list's row and filter.
//! - [`prompts`]: our versioned lawyer, client and judge prompts (→C-D1),
//!   their rendering, and reading the lawyer's action and the judges'
//!   replies.
//!
//! Pure: depends on serde and serde_json, and on the
//! shared modules [`crate::core`], [`crate::metrics`], [`crate::names`],
//! [`crate::spreadsheet`], [`crate::vendor`] and [`crate::vocab`]: the entry
//! key and the error types of [`crate::core`], the judge seat, the median
//! and the entry settings of [`crate::core::panel`]; no other benchmark.
//!
//! # Example
//!
//! ```
//! use engine::benchmark::{Benchmark, Suite};
//! use engine::dlawbench::DLawBench;
//! use engine::dlawbench::score::{Metric, View};
//!
//! let dataset = DLawBench::parse_dataset(r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#).unwrap();
//! let mut file = String::from(r#"{"kind": "run", "benchmark": "dlawbench", "model": "M", "run": 1, "judges": [{"model": "J"}]}"#);
//! for style in ["cooperative", "dependent", "withdrawn", "adversarial"] {
//!     file.push_str(&format!("\n{{\"kind\": \"session\", \"case_id\": \"C\", \"style\": \"{style}\", \"status\": \"submitted\", \"turns_used\": 1, \"memo\": \"m\", \"panel\": [{{\"judge\": \"J\", \"recused\": false, \"decisions\": {{\"inquiry\": [1], \"issue\": [0], \"covered\": [\"F1\"], \"correct\": [\"F1\"], \"claims_total\": 4, \"claims_grounded\": 3}}}}]}}"));
//! }
//! let run = DLawBench::parse_run(file.as_bytes(), &dataset).unwrap();
//! let meta = DLawBench::meta(&run);
//! assert_eq!((meta.benchmark, meta.run), (Benchmark::Dlawbench, 1));
//! assert_eq!(DLawBench::read_stored(&DLawBench::to_stored(&run)).unwrap(), run);
//! let scores = DLawBench::score(&run, &dataset);
//! let doc = DLawBench::summarise(vec![(meta.entry_key, scores)], &dataset);
//! let resolution = doc.entries[0].overall(Metric::Resolution, View::NullAsZero).unwrap();
//! assert_eq!((resolution.mean, resolution.std), (0.5, None));
//! ```

use std::io::BufRead;

use crate::benchmark::{Benchmark, RunMeta, Suite};

pub mod client_style;
pub mod dataset;
pub mod drilldown;
pub mod exports;
pub mod leaderboard;
pub mod prompts;
pub mod query;
pub mod review;
pub mod run;
pub mod score;

use crate::core::entry::EntryKey;
use crate::core::errors::{DatasetErrors, RunErrors};
use dataset::Case;
use run::Run;
use score::{EntryScores, RunScores, ScoreDocument};

/// The DLawBench benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DLawBench;

impl Suite for DLawBench {
    const BENCHMARK: Benchmark = Benchmark::Dlawbench;
    type Case = Case;
    type Run = Run;
    type Scores = RunScores;
    type Entry = EntryScores;
    type Document = ScoreDocument;

    fn parse_dataset(text: &str) -> Result<Vec<Case>, DatasetErrors> {
        dataset::parse_dataset(text)
    }

    fn parse_run(reader: impl BufRead, cases: &[Case]) -> Result<Run, RunErrors> {
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
            benchmark: Benchmark::Dlawbench,
            model: run.header.model.clone(),
            run: run.header.run,
            family: run.header.family.map(|f| f.as_str().to_owned()),
            entry_key: run.header.entry_key(),
            unavailable: run.unavailable(),
            created_at: run.header.created_at.clone(),
        }
    }

    fn score(run: &Run, cases: &[Case]) -> RunScores {
        score::score_run(run, cases)
    }

    fn summarise_entry(key: EntryKey, runs: &[RunScores], cases: &[Case]) -> EntryScores {
        score::summarise_entry(key, runs, score::single_jurisdiction(cases))
    }

    fn document(entries: Vec<EntryScores>, cases: &[Case]) -> ScoreDocument {
        score::document(entries, cases)
    }

    fn withhold(run: &mut Run, open: &[crate::review::OpenDecision]) -> usize {
        review::withhold(run, open)
    }
}
