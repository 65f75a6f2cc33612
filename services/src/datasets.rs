//! The one path from dataset files to a stored dataset version, for every
//! caller: `lexpilot import`, `POST /api/datasets` and the upload page's
//! dataset form (admins).
//!
//! 1. [`read`] parses and validates the files by the benchmark's rules: one
//!    dataset file, or for PLawBench its official release's data files
//!    (`engine::plawbench::release`); the cases, or every error naming its
//!    file, line and field; and the warnings, each naming its file.
//! 2. [`import`] stores the cases as a version in one transaction
//!    (`db::datasets`): identical content under the same name changes
//!    nothing, other content is the next version; or, for a dry run,
//!    answers what the import would do on the same state, nothing written
//!    (`db::datasets::plan_import`).

use std::future::Future;

use db::datasets::{ImportOutcome, ImportSource};
use db::Db;
use engine::benchmark::{Benchmark, DLawBench, LexPilot};
use engine::core::errors::{DatasetErrors, DatasetWarning};
use engine::plawbench::release::{parse_release, ReleaseFile};
use engine::plawbench::PLawBench;

use crate::error::{Error, Result};
use crate::ingest::{Hosted, RunFile};

/// A dataset read: its cases, or every error (one a line, each naming its
/// file); and its warnings (one each, naming its file).
pub type Read<C> = (std::result::Result<Vec<C>, String>, Vec<String>);

/// A hosted benchmark's datasets: how a file is read and how a version is
/// stored.
pub trait DatasetSuite: Hosted {
    /// What a dataset file holds (a noun for messages).
    const CASES: &'static str;

    /// Reads and validates a dataset file (a line that is not UTF-8 is an
    /// error of that line).
    fn read_dataset(bytes: &[u8]) -> std::result::Result<Vec<Self::Case>, DatasetErrors>;

    /// [`DatasetSuite::read_dataset`] with the warnings beside its answer:
    /// what a benchmark's heuristics suspect without refusing the file (none
    /// unless the benchmark has such checks).
    fn check_dataset(
        bytes: &[u8],
    ) -> (
        std::result::Result<Vec<Self::Case>, DatasetErrors>,
        Vec<DatasetWarning>,
    ) {
        (Self::read_dataset(bytes), Vec::new())
    }

    /// Reads a dataset that comes as a benchmark's own release of several
    /// files (PLawBench's): `None` when `files` are not such a release (the
    /// default: the benchmark has none).
    fn read_release(_files: &[RunFile]) -> Option<Read<Self::Case>> {
        None
    }

    /// The hash that decides whether two imports hold the same content.
    fn content_hash(cases: &[Self::Case]) -> db::Result<String>;

    /// Stores validated cases as a dataset version, in one transaction.
    fn import(
        db: &Db,
        src: ImportSource<'_>,
        cases: &[Self::Case],
    ) -> impl Future<Output = db::Result<ImportOutcome>> + Send;
}

impl DatasetSuite for LexPilot {
    const CASES: &'static str = "cases";

    fn read_dataset(bytes: &[u8]) -> std::result::Result<Vec<Self::Case>, DatasetErrors> {
        engine::lexpilot::dataset::parse_dataset_reader(bytes)
    }

    fn check_dataset(
        bytes: &[u8],
    ) -> (
        std::result::Result<Vec<Self::Case>, DatasetErrors>,
        Vec<DatasetWarning>,
    ) {
        let check = engine::lexpilot::dataset::check_dataset_reader(bytes);
        (check.cases, check.warnings)
    }

    fn content_hash(cases: &[Self::Case]) -> db::Result<String> {
        Ok(db::datasets::content_hash(cases))
    }

    fn import(
        db: &Db,
        src: ImportSource<'_>,
        cases: &[Self::Case],
    ) -> impl Future<Output = db::Result<ImportOutcome>> + Send {
        db::datasets::import(db, src, cases)
    }
}

impl DatasetSuite for PLawBench {
    const CASES: &'static str = "items";

    /// The workbench's items or evalscope's dataset records.
    fn read_dataset(bytes: &[u8]) -> std::result::Result<Vec<Self::Case>, DatasetErrors> {
        match std::str::from_utf8(bytes) {
            Ok(text) => engine::plawbench::dataset::parse_any(text),
            Err(_) => engine::plawbench::dataset::parse_dataset_reader(bytes),
        }
    }

    /// The official release (`docs/benchmarks/plawbench.md` §B1.2): its data
    /// files, when more than one file is given or one named as a release
    /// file is; one file of another name is a dataset file of the line
    /// format.
    fn read_release(files: &[RunFile]) -> Option<Read<Self::Case>> {
        if let [one] = files {
            // One file of another name is a dataset file of the line format.
            ReleaseFile::of_path(&one.name)?;
        }
        let named: Vec<(&str, &[u8])> = files
            .iter()
            .map(|f| (f.name.as_str(), f.bytes.as_slice()))
            .collect();
        Some(match parse_release(&named) {
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
    }

    fn content_hash(cases: &[Self::Case]) -> db::Result<String> {
        db::datasets::items_hash(cases)
    }

    fn import(
        db: &Db,
        src: ImportSource<'_>,
        cases: &[Self::Case],
    ) -> impl Future<Output = db::Result<ImportOutcome>> + Send {
        db::datasets::import_items(db, src, Benchmark::Plawbench, cases)
    }
}

impl DatasetSuite for DLawBench {
    const CASES: &'static str = "cases";

    fn read_dataset(bytes: &[u8]) -> std::result::Result<Vec<Self::Case>, DatasetErrors> {
        engine::dlawbench::dataset::parse_dataset_reader(bytes)
    }

    fn content_hash(cases: &[Self::Case]) -> db::Result<String> {
        db::datasets::items_hash(cases)
    }

    fn import(
        db: &Db,
        src: ImportSource<'_>,
        cases: &[Self::Case],
    ) -> impl Future<Output = db::Result<ImportOutcome>> + Send {
        db::datasets::import_items(db, src, Benchmark::Dlawbench, cases)
    }
}

/// Every problem of file `name`, one a line naming the file, the same
/// problem on many lines said once ([`engine::findings::collapse`]).
pub fn each_problem(name: &str, errors: &DatasetErrors) -> String {
    engine::findings::collapse(&errors.0)
        .iter()
        .map(|group| format!("{name}: {group}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The cases of dataset file `name`, or its errors each naming the file (a
/// file of no case is refused).
pub fn cases_of<S: DatasetSuite>(
    name: &str,
    cases: std::result::Result<Vec<S::Case>, DatasetErrors>,
) -> std::result::Result<Vec<S::Case>, String> {
    match cases {
        Ok(cases) if cases.is_empty() => Err(format!("{name}: the file holds no {}", S::CASES)),
        Ok(cases) => Ok(cases),
        Err(errors) => Err(each_problem(name, &errors)),
    }
}

/// One dataset file read by [`DatasetSuite::check_dataset`]: its cases or
/// errors, and its warnings (`NAME: warning: line L …`).
pub fn read_file<S: DatasetSuite>(file: &RunFile) -> Read<S::Case> {
    let (cases, warnings) = S::check_dataset(&file.bytes);
    let warnings = warnings
        .iter()
        .map(|w| format!("{}: warning: {w}", file.name))
        .collect();
    (cases_of::<S>(&file.name, cases), warnings)
}

/// Reads `files` as a dataset of `S`: the benchmark's release when they are
/// one ([`DatasetSuite::read_release`]), else one dataset file; several
/// files of a benchmark without a release are refused.
pub fn read<S: DatasetSuite>(files: &[RunFile]) -> Read<S::Case> {
    if let Some(release) = S::read_release(files) {
        return release;
    }
    match files {
        [one] => read_file::<S>(one),
        [] => (
            Err(format!(
                "no {} dataset file was given",
                S::BENCHMARK.as_str()
            )),
            Vec::new(),
        ),
        _ => (
            Err(format!("a {} dataset is one file", S::BENCHMARK.as_str())),
            Vec::new(),
        ),
    }
}

/// Whether the files are a benchmark's release (their dataset's default
/// name is then the benchmark's, not the file's).
pub fn is_release(benchmark: Benchmark, files: &[RunFile]) -> bool {
    benchmark == Benchmark::Plawbench
        && (files.len() > 1
            || files
                .iter()
                .any(|f| ReleaseFile::of_path(&f.name).is_some()))
}

/// The name a dataset gets when none is given: the one file's name without
/// its extension, or `PLawBench` for its release.
pub fn default_name(benchmark: Benchmark, files: &[RunFile]) -> Option<String> {
    match files {
        [one] if !is_release(benchmark, files) => {
            let base = one.name.rsplit(['/', '\\']).next().unwrap_or(&one.name);
            let stem = match base.rsplit_once('.') {
                Some((stem, _)) if !stem.is_empty() => stem,
                _ => base,
            };
            (!stem.is_empty()).then(|| stem.to_owned())
        }
        _ if is_release(benchmark, files) => Some("PLawBench".to_owned()),
        _ => None,
    }
}

/// What an import did, or for a dry run would do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    /// The new version (its number and id as the import would give them,
    /// for a dry run), or the stored one of identical content.
    pub outcome: ImportOutcome,
    /// What the files' heuristics suspect (the import goes ahead).
    pub warnings: Vec<String>,
    /// A dry run: nothing was written.
    pub checked_only: bool,
}

/// How a dataset is imported.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// The dataset's name ([`default_name`] when `None`).
    pub name: Option<String>,
    /// Where it came from, as kept with the version (the files' names when
    /// empty).
    pub source: String,
    /// Synthetic demo data, marked so in the UI.
    pub synthetic: bool,
    /// A dry run: every check the import runs, nothing written.
    pub check: bool,
}

/// Reads `files` as a dataset of `benchmark` and stores it as a version in
/// one transaction (or, with `options.check`, answers what that would do).
/// Invalid files are [`Error::InvalidDataset`] with every error naming file,
/// line and field; nothing is stored then.
pub async fn import(
    db: &Db,
    benchmark: Benchmark,
    files: &[RunFile],
    options: ImportOptions,
) -> Result<Imported> {
    match benchmark {
        Benchmark::Lexpilot => import_as::<LexPilot>(db, files, options).await,
        Benchmark::Plawbench => import_as::<PLawBench>(db, files, options).await,
        Benchmark::Dlawbench => import_as::<DLawBench>(db, files, options).await,
    }
}

async fn import_as<S: DatasetSuite>(
    db: &Db,
    files: &[RunFile],
    options: ImportOptions,
) -> Result<Imported> {
    let owned = files.to_vec();
    let (cases, warnings) = crate::ingest::blocking(move || read::<S>(&owned)).await?;
    let cases =
        cases.map_err(|errors| Error::InvalidDataset(format!("{errors}\nnothing was imported")))?;
    let name = match options.name.clone() {
        Some(name) => name,
        None => default_name(S::BENCHMARK, files).ok_or_else(|| {
            Error::Invalid("cannot derive a dataset name from the file name; give a name".into())
        })?,
    };
    let options = ImportOptions {
        name: Some(name),
        source: if options.source.is_empty() {
            files
                .iter()
                .map(|f| f.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            options.source
        },
        ..options
    };
    let outcome = store::<S>(db, &options, &cases)
        .await
        .map_err(|e| match e {
            Error::Invalid(m) => Error::Invalid(format!("{m}\nnothing was imported")),
            Error::Conflict(m) => Error::Conflict(format!("{m}\nnothing was imported")),
            other => other,
        })?;
    Ok(Imported {
        outcome,
        warnings,
        checked_only: options.check,
    })
}

/// Stores `cases` read by [`read`] as a version named `options.name` in one
/// transaction, or with `options.check` answers what that would do with
/// nothing written: the same checks on the same state (a name of another
/// benchmark's dataset, identical content stored already).
pub async fn store<S: DatasetSuite>(
    db: &Db,
    options: &ImportOptions,
    cases: &[S::Case],
) -> Result<ImportOutcome> {
    let name = options
        .name
        .as_deref()
        .ok_or_else(|| Error::internal("a dataset stored without a name"))?;
    let src = ImportSource {
        name,
        source: &options.source,
        synthetic: options.synthetic,
    };
    Ok(if options.check {
        let hash = S::content_hash(cases)?;
        db::datasets::plan_import(db, src, S::BENCHMARK, &hash, cases.len()).await?
    } else {
        S::import(db, src, cases).await?
    })
}
