//! The LexPilot benchmark (`docs/formats.md`): 432 Chinese civil cases,
//! each with a complete and an underspecified consultation, and three tasks
//! scored per case class. [`LexPilot`] puts it behind the engine's one
//! benchmark interface ([`crate::benchmark::Suite`]).
//!
//! - [`dataset`]: the dataset file (§2): types, streaming parser and
//!   validation with line- and field-named errors.
//! - [`run`]: the run file (§3): types, streaming parser and validation
//!   against a dataset, with line- and field-named errors; the trusted
//!   reader of stored runs.
//! - [`entries`]: which runs form one leaderboard entry, for every caller.
//! - [`score`]: a run's scores per task and class (§4) and the score document
//!   of leaderboard entries (§5); bootstrap samples of entries.
//! - [`leaderboard`]: leaderboard tables per task, and their CSV and LaTeX forms.
//! - [`paper`]: the paper's other results as views (Tables 3, 4, 15, 16, 17;
//!   Figures 3 and 4), exported the same way.
//! - [`drilldown`]: the items behind one leaderboard cell, per case and run,
//!   with the gold and, for LJP, the confusion matrix of verdicts.
//! - [`model`]: a model's page (its runs grouped into entries, per-run
//!   score tables) and one score of two entries compared.
//! - [`exports`]: the drill-down, compare and model pages' tables as
//!   [`crate::core::table::Table`]s, for the one export writer.
//! - [`stats`]: dataset statistics (the paper's Table 1), overall and per class.
//! - [`query`]: case filters, summaries and paging for browsing.
//! - [`synthetic`]: seeded synthetic dataset and run files for benchmarks.
//! - [`targeted`]: the Targeted vs Off-target experiment (Table 4,
//!   Appendix E.7): dialogue validation and its acceptance rule, the result
//!   file, and its scores.

use std::io::BufRead;

use crate::benchmark::{Benchmark, RunMeta, Suite};

pub mod dataset;
pub mod drilldown;
pub mod entries;
pub mod exports;
pub mod fidelity;
pub mod leaderboard;
pub mod model;
pub mod paper;
pub mod query;
pub mod run;
pub mod score;
pub mod stats;
pub mod synthetic;
pub mod targeted;

use crate::core::entry::EntryKey;
use crate::core::errors::{DatasetErrors, RunErrors};
use dataset::Case;
use run::Run;
use score::{EntryScores, RunScores, ScoreDocument};

/// The LexPilot benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LexPilot;

impl Suite for LexPilot {
    const BENCHMARK: Benchmark = Benchmark::Lexpilot;
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
        run.to_jsonl()
    }

    fn read_stored(stored: &str) -> Result<Run, String> {
        Run::from_stored_jsonl(stored)
    }

    fn meta(run: &Run) -> RunMeta {
        RunMeta {
            benchmark: Benchmark::Lexpilot,
            model: run.header.model.clone(),
            run: run.header.run,
            family: run.header.family.map(|f| f.as_str().to_owned()),
            entry_key: run.header.entry_key(),
            unavailable: run.unavailable().total(),
            created_at: run.header.created_at.clone(),
        }
    }

    fn score(run: &Run, cases: &[Case]) -> RunScores {
        score::score_run(run, cases)
    }

    fn group(runs: &[(EntryKey, RunScores)]) -> Vec<entries::Entry> {
        entries::group_runs(runs.iter().map(|(key, scores)| (key, scores.parts())))
    }

    fn summarise_entry(key: EntryKey, runs: &[RunScores], cases: &[Case]) -> EntryScores {
        score::summarise_entry(key, runs, cases)
    }

    fn document(entries: Vec<EntryScores>, cases: &[Case]) -> ScoreDocument {
        score::document(entries, cases)
    }

    fn withhold(run: &mut Run, open: &[crate::review::OpenDecision]) -> usize {
        crate::review::withhold_decisions(run, open)
    }
}
