//! What the command line needs of each benchmark this server hosts, beyond
//! the engine's rules, where the ingest finds their cases
//! ([`services::ingest::Hosted`]) and how a dataset is read and stored
//! ([`services::datasets::DatasetSuite`], the same path as the API's): the
//! score document (as JSON and as a terminal table). [`for_benchmark!`] runs
//! one generic function for the benchmark a command names.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use engine::benchmark::{Benchmark, DLawBench, LexPilot};
use engine::plawbench::PLawBench;
use services::datasets::DatasetSuite;
use services::ingest::RunFile;

/// The files a dataset's paths name, read: for PLawBench a folder is its
/// release's data files in it (the rest left alone), or a message when it
/// holds none; a file is itself, named by its path.
pub fn dataset_files(
    benchmark: Benchmark,
    paths: &[PathBuf],
) -> anyhow::Result<Result<Vec<RunFile>, String>> {
    use engine::plawbench::release::ReleaseFile;
    let is_release = |p: &Path| ReleaseFile::of_path(&p.to_string_lossy()).is_some();
    let mut files = Vec::new();
    for path in paths {
        if benchmark == Benchmark::Plawbench && path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("cannot read {}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && is_release(p))
                .collect();
            if found.is_empty() {
                return Ok(Err(format!(
                    "{}: no data file of the PLawBench release in this folder (expected {})",
                    path.display(),
                    ReleaseFile::ALL.map(ReleaseFile::file_name).join(", ")
                )));
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    let mut read = Vec::with_capacity(files.len());
    for file in &files {
        let bytes =
            std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
        read.push(RunFile::new(file.display().to_string(), bytes));
    }
    Ok(Ok(read))
}

/// A hosted benchmark at the command line.
pub trait CliSuite: DatasetSuite {
    /// The score document (from [`engine::benchmark::Suite::summarise`]),
    /// named after the dataset, as pretty-printed JSON with the document's
    /// key order.
    fn document_text(doc: Self::Document, dataset: &str) -> serde_json::Result<String>;

    /// The same as tables for the terminal.
    fn report(doc: Self::Document, dataset: &str) -> String;
}

impl CliSuite for LexPilot {
    fn document_text(doc: Self::Document, dataset: &str) -> serde_json::Result<String> {
        serde_json::to_string_pretty(&doc.with_dataset(dataset))
    }

    fn report(doc: Self::Document, dataset: &str) -> String {
        crate::report::render(&doc.with_dataset(dataset))
    }
}

impl CliSuite for PLawBench {
    fn document_text(doc: Self::Document, dataset: &str) -> serde_json::Result<String> {
        serde_json::to_string_pretty(&doc.with_dataset(dataset))
    }

    fn report(doc: Self::Document, dataset: &str) -> String {
        crate::report::render_plawbench(&doc.with_dataset(dataset))
    }
}

impl CliSuite for DLawBench {
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
