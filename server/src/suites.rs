//! What the command line needs of each benchmark this server hosts, beyond
//! the engine's rules and where the ingest finds their cases
//! ([`services::ingest::Hosted`]): reading a dataset file, storing a
//! dataset version, a line about a valid run, and the score document (as
//! JSON and as a terminal table). [`for_benchmark!`] runs one generic
//! function for the benchmark a command names.

use std::future::Future;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use db::datasets::{ImportOutcome, ImportSource};
use db::Db;
use engine::benchmark::{Benchmark, DLawBench, LexPilot};
use engine::lexpilot::dataset::{DatasetErrors, DatasetWarning};
use engine::plawbench::PLawBench;
use services::ingest::Hosted;

/// A dataset read from a release's files: the cases or every error (each
/// line naming its file), and the warnings (each naming its file).
pub type Release<C> = (Result<Vec<C>, String>, Vec<String>);

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

    /// Reads a dataset that comes as several files or a folder (a benchmark's
    /// own release, such as PLawBench's): the cases, or every error naming
    /// its file, line and field; and the warnings, each naming its file.
    /// `None` when `paths` is one file for [`CliSuite::check_dataset`] (the
    /// default: the benchmark has no such release).
    fn read_release(_paths: &[PathBuf]) -> Option<anyhow::Result<Release<Self::Case>>> {
        None
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
    fn document_text(doc: Self::Document, dataset: &str) -> serde_json::Result<String>;

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

    fn document_text(doc: Self::Document, dataset: &str) -> serde_json::Result<String> {
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

    /// The official release (`docs/benchmarks/plawbench.md` §B1.2): its
    /// folder (the release's data files in it, the rest left alone) or its
    /// data files named one by one; one file of another name is a dataset
    /// file of the line format.
    fn read_release(paths: &[PathBuf]) -> Option<anyhow::Result<Release<Self::Case>>> {
        use engine::plawbench::release::{parse_release, ReleaseFile};
        let is_release = |p: &Path| ReleaseFile::of_path(&p.to_string_lossy()).is_some();
        if let [one] = paths {
            if !one.is_dir() && !is_release(one) {
                return None;
            }
        }
        let read = || -> anyhow::Result<Release<Self::Case>> {
            let mut files = Vec::new();
            for path in paths {
                if path.is_dir() {
                    let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                        .with_context(|| format!("cannot read {}", path.display()))?
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| p.is_file() && is_release(p))
                        .collect();
                    if found.is_empty() {
                        return Ok((
                            Err(format!(
                                "{}: no data file of the PLawBench release in this folder (expected {})",
                                path.display(),
                                ReleaseFile::ALL.map(ReleaseFile::file_name).join(", ")
                            )),
                            Vec::new(),
                        ));
                    }
                    found.sort();
                    files.extend(found);
                } else {
                    files.push(path.clone());
                }
            }
            let mut read = Vec::with_capacity(files.len());
            for file in &files {
                let bytes = std::fs::read(file)
                    .with_context(|| format!("cannot read {}", file.display()))?;
                read.push((file.display().to_string(), bytes));
            }
            Ok(match parse_release(&read) {
                Ok(release) => (
                    Ok(release.items),
                    release
                        .warnings
                        .iter()
                        .map(|(file, w)| format!("{file}: warning: {w}"))
                        .collect(),
                ),
                Err(errors) => (Err(errors.to_string()), Vec::new()),
            })
        };
        Some(read())
    }

    fn import(
        db: &Db,
        src: ImportSource<'_>,
        cases: &[Self::Case],
    ) -> impl Future<Output = db::Result<ImportOutcome>> + Send {
        db::datasets::import_items(db, src, Benchmark::Plawbench, cases)
    }

    fn document_text(doc: Self::Document, dataset: &str) -> serde_json::Result<String> {
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

    fn document_text(doc: Self::Document, dataset: &str) -> serde_json::Result<String> {
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
