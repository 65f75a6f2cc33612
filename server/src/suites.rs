//! What the command line needs of each benchmark this server hosts, beyond
//! the engine's rules and where the ingest finds their cases
//! ([`services::ingest::Hosted`]): reading a dataset file, storing a
//! dataset version, a line about a valid run, and the score document (as
//! JSON and as a terminal table). [`for_benchmark!`] runs one generic
//! function for the benchmark a command names.

use std::future::Future;

use db::datasets::{ImportOutcome, ImportSource};
use db::Db;
use engine::benchmark::{Benchmark, DLawBench, LexPilot};
use engine::lexpilot::dataset::{DatasetErrors, DatasetWarning};
use engine::plawbench::PLawBench;
use services::ingest::Hosted;

/// A hosted benchmark at the command line.
pub trait CliSuite: Hosted {
    /// What a dataset file holds (a noun for messages).
    const CASES: &'static str;

    /// Reads and validates a dataset file (a line that is not UTF-8 is an
    /// error of that line).
    fn read_dataset(bytes: &[u8]) -> Result<Vec<Self::Case>, DatasetErrors>;

    /// [`CliSuite::read_dataset`] with the warnings beside its answer: what a
    /// benchmark's heuristics suspect without refusing the file (none unless
    /// the benchmark has such checks).
    fn check_dataset(
        bytes: &[u8],
    ) -> (Result<Vec<Self::Case>, DatasetErrors>, Vec<DatasetWarning>) {
        (Self::read_dataset(bytes), Vec::new())
    }

    /// Stores validated cases as a dataset version, in one transaction.
    fn import(
        db: &Db,
        src: ImportSource<'_>,
        cases: &[Self::Case],
    ) -> impl Future<Output = db::Result<ImportOutcome>> + Send;

    /// The score document (from [`engine::benchmark::Suite::summarise`]),
    /// named after the dataset, as pretty-printed JSON with the document's
    /// key order.
    fn document(doc: Self::Document, dataset: &str) -> serde_json::Result<String>;

    /// The same as tables for the terminal.
    fn report(doc: Self::Document, dataset: &str) -> String;
}

impl CliSuite for LexPilot {
    const CASES: &'static str = "cases";

    fn read_dataset(bytes: &[u8]) -> Result<Vec<Self::Case>, DatasetErrors> {
        engine::lexpilot::dataset::parse_dataset_reader(bytes)
    }

    fn check_dataset(
        bytes: &[u8],
    ) -> (Result<Vec<Self::Case>, DatasetErrors>, Vec<DatasetWarning>) {
        let check = engine::lexpilot::dataset::check_dataset_reader(bytes);
        (check.cases, check.warnings)
    }

    fn import(
        db: &Db,
        src: ImportSource<'_>,
        cases: &[Self::Case],
    ) -> impl Future<Output = db::Result<ImportOutcome>> + Send {
        db::datasets::import(db, src, cases)
    }

    fn document(doc: Self::Document, dataset: &str) -> serde_json::Result<String> {
        serde_json::to_string_pretty(&doc.with_dataset(dataset))
    }

    fn report(doc: Self::Document, dataset: &str) -> String {
        crate::report::render(&doc.with_dataset(dataset))
    }
}

impl CliSuite for PLawBench {
    const CASES: &'static str = "items";

    /// The workbench's items or evalscope's dataset records.
    fn read_dataset(bytes: &[u8]) -> Result<Vec<Self::Case>, DatasetErrors> {
        match std::str::from_utf8(bytes) {
            Ok(text) => engine::plawbench::dataset::parse_any(text),
            Err(_) => engine::plawbench::dataset::parse_dataset_reader(bytes),
        }
    }

    fn import(
        db: &Db,
        src: ImportSource<'_>,
        cases: &[Self::Case],
    ) -> impl Future<Output = db::Result<ImportOutcome>> + Send {
        db::datasets::import_items(db, src, Benchmark::Plawbench, cases)
    }

    fn document(doc: Self::Document, dataset: &str) -> serde_json::Result<String> {
        serde_json::to_string_pretty(&doc.with_dataset(dataset))
    }

    fn report(doc: Self::Document, dataset: &str) -> String {
        crate::report::render_plawbench(&doc.with_dataset(dataset))
    }
}

impl CliSuite for DLawBench {
    const CASES: &'static str = "cases";

    fn read_dataset(bytes: &[u8]) -> Result<Vec<Self::Case>, DatasetErrors> {
        engine::dlawbench::dataset::parse_dataset_reader(bytes)
    }

    fn import(
        db: &Db,
        src: ImportSource<'_>,
        cases: &[Self::Case],
    ) -> impl Future<Output = db::Result<ImportOutcome>> + Send {
        db::datasets::import_items(db, src, Benchmark::Dlawbench, cases)
    }

    fn document(doc: Self::Document, dataset: &str) -> serde_json::Result<String> {
        serde_json::to_string_pretty(&doc.with_dataset(dataset))
    }

    fn report(doc: Self::Document, dataset: &str) -> String {
        crate::report::render_dlawbench(&doc.with_dataset(dataset))
    }
}

/// Runs `$body` with `$suite` the type of the benchmark `$benchmark` (every
/// benchmark is hosted).
#[macro_export]
macro_rules! for_benchmark {
    ($benchmark:expr, $suite:ident => $body:expr) => {
        match $benchmark {
            engine::benchmark::Benchmark::Lexpilot => {
                type $suite = engine::benchmark::LexPilot;
                $body
            }
            engine::benchmark::Benchmark::Plawbench => {
                type $suite = engine::plawbench::PLawBench;
                $body
            }
            engine::benchmark::Benchmark::Dlawbench => {
                type $suite = engine::dlawbench::DLawBench;
                $body
            }
        }
    };
}
