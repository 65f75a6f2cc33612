//! The one path from run files to stored, scored runs, for every caller:
//! `POST /api/runs`, the upload page (check, then store), benchmark jobs,
//! the demo loader, and, for re-scoring on a corrected dataset version,
//! case corrections and the review that adopts one ([`rescore`]).
//!
//! 1. The dataset version's benchmark picks the engine's rules
//!    ([`engine::benchmark::Suite`], with where its cases are stored:
//!    [`Hosted`]); a benchmark this server does not host is refused naming
//!    it.
//! 2. [`check`] parses and validates each file against the version's cases
//!    and scores it: every error with line and field, or the run and its
//!    scores. Nothing is stored.
//! 3. [`store`] does the same and stores every run in one transaction
//!    (`db::runs::store_all`): all of them, or none when any file is invalid
//!    or refused (409 for a run already stored, unless replacing).
//! 4. [`plan`] is the dry run of that store: the same store-time checks on
//!    the same state (`db::runs::plan_all`: a run already stored, one the
//!    account may not replace, a model and run given twice), nothing
//!    written, and what `--replace` or `--first-run` would change.
//!
//! Scoring happens here, with the engine; storage only keeps what it is
//! given.

use std::future::Future;
use std::sync::Arc;

use db::datasets::DatasetInfo;
use db::revisions::Rescore;
use db::runs::{Disposition, NewRun, OnDuplicate, Planned, RunInfo};
use db::Db;
use engine::benchmark::{Benchmark, DLawBench, LexPilot, Suite};
use engine::core::errors::DatasetErrors;
use engine::plawbench::PLawBench;

use crate::error::{Error, Result};

/// A run file as a caller got it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunFile {
    /// What to call it in messages (the uploaded file's name).
    pub name: String,
    pub bytes: Vec<u8>,
}

impl RunFile {
    pub fn new(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> RunFile {
        RunFile {
            name: name.into(),
            bytes: bytes.into(),
        }
    }

    /// The file with its header's model and family replaced by those the
    /// uploader gave beside it ([`engine::benchmark::HeaderOverride`]).
    pub fn with_header(self, changes: &engine::benchmark::HeaderOverride) -> RunFile {
        if changes.is_empty() {
            return self;
        }
        RunFile {
            bytes: changes.apply(&self.bytes),
            name: self.name,
        }
    }
}

/// A valid run of benchmark `S` with its scores on the version checked.
pub struct Scored<S: Suite> {
    pub run: S::Run,
    pub scores: S::Scores,
}

/// What checking one file found.
pub struct Checked<S: Suite> {
    pub name: String,
    pub outcome: std::result::Result<Scored<S>, DatasetErrors>,
}

/// A benchmark this server hosts: the engine's rules for it, and where its
/// datasets' cases are stored.
pub trait Hosted: Suite {
    /// Every case (or item) of dataset version `dataset_id`.
    fn cases(
        db: &Db,
        dataset_id: i64,
    ) -> impl Future<Output = db::Result<Arc<Vec<Self::Case>>>> + Send;
}

impl Hosted for LexPilot {
    fn cases(
        db: &Db,
        dataset_id: i64,
    ) -> impl Future<Output = db::Result<Arc<Vec<Self::Case>>>> + Send {
        db::cases::all(db, dataset_id)
    }
}

impl Hosted for PLawBench {
    fn cases(
        db: &Db,
        dataset_id: i64,
    ) -> impl Future<Output = db::Result<Arc<Vec<Self::Case>>>> + Send {
        db::items::all(db, dataset_id)
    }
}

impl Hosted for DLawBench {
    fn cases(
        db: &Db,
        dataset_id: i64,
    ) -> impl Future<Output = db::Result<Arc<Vec<Self::Case>>>> + Send {
        db::items::all(db, dataset_id)
    }
}

/// The version's benchmark, if this server hosts it.
pub fn hosted(dataset: &DatasetInfo) -> Result<Benchmark> {
    match dataset.benchmark() {
        Some(b) if b.hosted() => Ok(b),
        Some(b) => Err(Error::Invalid(b.not_hosted())),
        None => Err(Error::internal(format!(
            "dataset {} version {} names an unknown benchmark {:?}",
            dataset.name, dataset.version, dataset.benchmark
        ))),
    }
}

/// Parses, validates and scores `file` against `cases` (a version's). A
/// dataset file, or a run of another benchmark, is refused with one error
/// saying so ([`engine::benchmark::misfiled`]).
pub fn score_file<S: Suite>(cases: &[S::Case], file: &RunFile) -> Checked<S> {
    if let Some(error) = engine::benchmark::misfiled(&file.bytes, S::BENCHMARK) {
        return Checked {
            name: file.name.clone(),
            outcome: Err(DatasetErrors(vec![error])),
        };
    }
    let outcome = S::parse_run(&file.bytes[..], cases).map(|run| {
        let scores = S::score(&run, cases);
        Scored { run, scores }
    });
    Checked {
        name: file.name.clone(),
        outcome,
    }
}

/// Checks every file against dataset version `dataset` of benchmark `S`
/// (see the module docs); stores nothing. A version of another benchmark is
/// refused.
pub async fn check<S: Hosted>(
    db: &Db,
    dataset: &DatasetInfo,
    files: &[RunFile],
) -> Result<Vec<Checked<S>>> {
    if hosted(dataset)? != S::BENCHMARK {
        return Err(Error::Invalid(format!(
            "dataset {} is a {} dataset, not {}",
            dataset.name,
            dataset.benchmark,
            S::BENCHMARK.as_str()
        )));
    }
    let cases = S::cases(db, dataset.id).await?;
    let files = files.to_vec();
    blocking(move || files.iter().map(|f| score_file::<S>(&cases, f)).collect()).await
}

/// Checks every file and stores them all in one transaction, or nothing:
/// the first invalid file is [`Error::InvalidFile`] (422, every line and
/// field), a run stored already [`Error::Conflict`] (409) unless `replace`.
/// The version's benchmark picks the rules. Returns the stored runs with
/// the scores of each, in file order.
pub async fn store(
    db: &Db,
    dataset: &DatasetInfo,
    files: &[RunFile],
    uploaded_by: Option<i64>,
    on_duplicate: OnDuplicate,
) -> Result<Vec<(RunInfo, serde_json::Value)>> {
    match hosted(dataset)? {
        Benchmark::Lexpilot => {
            store_as::<LexPilot>(db, dataset, files, uploaded_by, on_duplicate).await
        }
        Benchmark::Plawbench => {
            store_as::<PLawBench>(db, dataset, files, uploaded_by, on_duplicate).await
        }
        Benchmark::Dlawbench => {
            store_as::<DLawBench>(db, dataset, files, uploaded_by, on_duplicate).await
        }
    }
}

async fn store_as<S: Hosted>(
    db: &Db,
    dataset: &DatasetInfo,
    files: &[RunFile],
    uploaded_by: Option<i64>,
    on_duplicate: OnDuplicate,
) -> Result<Vec<(RunInfo, serde_json::Value)>> {
    let checked = check::<S>(db, dataset, files).await?;
    let mut runs = Vec::with_capacity(checked.len());
    for file in checked {
        match file.outcome {
            Ok(scored) => runs.push(scored),
            Err(errors) => return Err(Error::InvalidFile(file.name, errors)),
        }
    }
    store_scored::<S>(db, dataset, &runs, uploaded_by, on_duplicate).await
}

/// Stores runs already checked against `dataset` ([`check`]), in one
/// transaction.
pub async fn store_scored<S: Suite>(
    db: &Db,
    dataset: &DatasetInfo,
    runs: &[Scored<S>],
    uploaded_by: Option<i64>,
    on_duplicate: OnDuplicate,
) -> Result<Vec<(RunInfo, serde_json::Value)>> {
    let new = runs
        .iter()
        .map(|r| NewRun::of::<S>(&r.run, &r.scores))
        .collect::<db::Result<Vec<_>>>()?;
    let stored = db::runs::store_all(db, dataset.id, &new, uploaded_by, on_duplicate).await?;
    stored
        .into_iter()
        .zip(runs)
        .map(|(info, r)| {
            let scores = serde_json::to_value(&r.scores).map_err(Error::internal)?;
            Ok((info, scores))
        })
        .collect()
}

/// What storing a batch would do ([`plan`]): each run's disposition, and
/// what the store's options would change.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct StorePlan {
    /// Every run, in batch order.
    pub runs: Vec<Planned>,
    /// What `--replace` / `?replace=true` or `--first-run` / `?first_run=`
    /// would change, one sentence each.
    pub hints: Vec<String>,
}

impl StorePlan {
    /// The plan, or the error the store would answer (the first refused
    /// run's, as `db::runs::store_all` gives it) with the hints after it.
    pub fn or_refusal(self) -> Result<StorePlan> {
        match db::runs::refusal(&self.runs) {
            None => Ok(self),
            Some(refused) => {
                let with_hints = |m: String| {
                    std::iter::once(m)
                        .chain(self.hints.iter().cloned())
                        .collect::<Vec<_>>()
                        .join("; ")
                };
                Err(match Error::from(refused) {
                    Error::Conflict(m) => Error::Conflict(with_hints(m)),
                    Error::Forbidden(m) => Error::Forbidden(with_hints(m)),
                    other => other,
                })
            }
        }
    }

    /// One line per run (`model M run N: new`, `… replaces the stored run`).
    pub fn lines(&self) -> Vec<String> {
        self.runs
            .iter()
            .map(|p| {
                let what = match &p.disposition {
                    Disposition::New => "new".to_owned(),
                    Disposition::Replaces { .. } => "replaces the stored run".to_owned(),
                    Disposition::AlreadyStored { .. } => {
                        "already stored (refused without replacement)".to_owned()
                    }
                    Disposition::Forbidden { why, .. } => format!("refused: it {why}"),
                    Disposition::GivenTwice => {
                        "refused: an earlier run of this import has the same number".to_owned()
                    }
                };
                format!("model {} run {}: {what}", p.model, p.run_number)
            })
            .collect()
    }
}

/// The dry run of storing runs `keys` (model, run number) on `dataset`:
/// `db::runs::plan_all`'s answer, nothing written, with the hints of what
/// replacement would change and, when the runs are numbered from
/// `first_run` (evalscope imports), which `--first-run` would store them
/// all as new runs.
pub async fn plan(
    db: &Db,
    dataset: &DatasetInfo,
    keys: &[(String, u32)],
    on_duplicate: OnDuplicate,
    first_run: Option<u32>,
) -> Result<StorePlan> {
    let runs = db::runs::plan_all(db, dataset.id, keys, on_duplicate).await?;
    let mut hints = Vec::new();
    let stored: Vec<&Planned> = runs
        .iter()
        .filter(|p| matches!(p.disposition, Disposition::AlreadyStored { .. }))
        .collect();
    if !stored.is_empty() {
        hints.push(format!(
            "with replacement (--replace, ?replace=true) it would replace the stored {}",
            stored
                .iter()
                .map(|p| format!("model {} run {}", p.model, p.run_number))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let collides = runs.iter().any(|p| {
        matches!(
            p.disposition,
            Disposition::AlreadyStored { .. }
                | Disposition::Replaces { .. }
                | Disposition::Forbidden { .. }
        )
    });
    if let (Some(first), true) = (first_run, collides) {
        let mut free = 1;
        for (model, _) in keys {
            free = free.max(db::runs::next_run_number(db, dataset.id, model).await?);
        }
        let last = keys
            .iter()
            .map(|(_, run)| run.saturating_sub(first))
            .max()
            .unwrap_or(0)
            .saturating_add(free);
        hints.push(format!(
            "with --first-run {free} (?first_run={free}) it would store them as new runs {free} to {last} instead"
        ));
    }
    let mut twice: Vec<String> = runs
        .iter()
        .filter(|p| p.disposition == Disposition::GivenTwice)
        .map(|p| format!("model {} run {}", p.model, p.run_number))
        .collect();
    twice.dedup();
    if !twice.is_empty() {
        hints.push(format!(
            "{} {} given by two files or folders of this import; --first-run numbers every folder alike, so import them one at a time, the later with a --first-run above the runs the earlier stores",
            twice.join(", "),
            if twice.len() == 1 { "is" } else { "are" }
        ));
    }
    Ok(StorePlan { runs, hints })
}

/// Re-validates and re-scores stored runs of benchmark `benchmark` on a new
/// dataset version (a case correction): what `db::revisions` calls inside
/// the correction's transaction.
pub fn rescore(benchmark: Benchmark) -> &'static Rescore {
    match benchmark {
        Benchmark::Lexpilot => &rescore_as::<LexPilot>,
        Benchmark::Dlawbench | Benchmark::Plawbench => &|_, _| None,
    }
}

fn rescore_as<S: Suite<Case = engine::lexpilot::dataset::Case>>(
    items: &str,
    cases: &[engine::lexpilot::dataset::Case],
) -> Option<String> {
    let run = S::parse_run(items.as_bytes(), cases).ok()?;
    serde_json::to_string(&S::score(&run, cases)).ok()
}

/// Runs CPU-heavy work off the async threads.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| Error::internal(format!("a background computation failed: {e}")))
}
