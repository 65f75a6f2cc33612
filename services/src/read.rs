//! Read models: the figures pages and the API show, derived from stored runs
//! and cached in the application state (never a process-wide static, so two
//! applications in one process never see each other's figures).
//!
//! - [`Snapshot`]: one dataset version at one generation
//!   (`db::runs::generation`, bumped in every transaction that changes runs
//!   or versions): the score document (means ± std from the kept scores,
//!   runs grouped into entries by `engine::lexpilot::entries::group_runs`),
//!   which runs each entry has, and, read when first needed
//!   ([`ReadModels::sampled`]), every entry's resampling data at that same
//!   generation from exactly those runs, so a cell's mean and its interval
//!   always come from the same runs. Resampling data and intervals are kept
//!   per entry in the document's order; entry keys need not be unique.
//! - [`ReadModels::intervals`]: the 95% bootstrap interval of every cell of a
//!   leaderboard view; [`ReadModels::compare`]: the paired bootstrap of two
//!   entries; [`ReadModels::model_runs`]: a model's stored runs read back
//!   (for drill-downs).
//!
//! - [`SuiteSnapshot`]: the same for a version of a benchmark kept in the
//!   generic item table: [`PlawSnapshot`] ([`ReadModels::plaw_snapshot`],
//!   its §B4.4 document) and [`DlawSnapshot`] ([`ReadModels::dlaw_snapshot`],
//!   its §A4.7 document), and, read when a drill-down first needs them
//!   ([`ReadModels::plaw_runs`], [`ReadModels::dlaw_runs`]), the stored runs.
//!
//! Every cache is keyed by (dataset version, generation) and bounded: a
//! stored, replaced or re-scored run changes the generation, so the next
//! request recomputes, whatever ids SQLite reuses. One snapshot is built at a
//! time; requests that need it meanwhile wait for it rather than build it too.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use db::datasets::DatasetInfo;
use db::Db;
use engine::benchmark::{DLawBench, LexPilot, Suite};
use engine::lexpilot::dataset::Case;
use engine::lexpilot::entries::group_runs;
use engine::lexpilot::leaderboard::{column_metric, View};
use engine::lexpilot::run::{EntryKey, Run, Task};
use engine::lexpilot::score::{
    compare_entries, summarise_entries, EntrySample, Metric, RunScores, ScoreDocument,
};
use engine::metrics::PairedBootstrap;
use engine::plawbench::PLawBench;
use engine::vocab::{Class, LjpSetup};

use crate::error::{Error, Result};
use crate::ingest::{blocking, Hosted};

/// Resamples per interval or comparison.
pub const RESAMPLES: usize = 1000;
/// The seed of every resampling, so a figure is the same on every request.
pub const SEED: u64 = 20_261_129;
/// The confidence level of intervals.
pub const LEVEL: f64 = 0.95;
/// Snapshots kept (the current generation, and the one before while
/// requests that started on it finish).
const SNAPSHOTS: usize = 2;
/// Views' intervals kept.
const INTERVALS: usize = 16;
/// Models' parsed runs kept.
const MODELS: usize = 8;

/// (dataset version id, generation).
type Key = (i64, i64);

/// Every entry's runs ready for resampling, in the document's order.
pub type Samples = Vec<EntrySample>;

/// A dataset version's figures at one generation; see the module docs.
pub struct Snapshot {
    pub dataset: DatasetInfo,
    pub generation: i64,
    pub cases: Arc<Vec<Case>>,
    /// The §5 score document, named after the dataset.
    pub document: ScoreDocument,
    /// The ids of each entry's runs, in the document's order.
    entry_runs: Vec<Vec<i64>>,
    /// The Targeted vs Off-target results on this version, at the same
    /// generation (Table 4).
    pub targeted: Vec<engine::lexpilot::targeted::TargetedScores>,
    /// The entries' resampling data, read (once, when first needed) at the
    /// same generation as the document.
    samples: tokio::sync::OnceCell<Arc<Samples>>,
}

impl Snapshot {
    fn key(&self) -> Key {
        (self.dataset.id, self.generation)
    }

    /// The resampling data of entry `entry` (its position in the document),
    /// once read.
    pub fn sample(&self, entry: usize) -> Option<&EntrySample> {
        self.samples.get()?.get(entry)
    }

    /// Every entry's resampling data in the document's order, once read
    /// ([`ReadModels::sampled`]); empty before.
    pub fn samples(&self) -> &[EntrySample] {
        self.samples.get().map_or(&[], |s| s.as_slice())
    }

    /// The paper's other results over this snapshot
    /// ([`engine::lexpilot::paper`]); the figures over causes and focal
    /// points need the resampling data ([`ReadModels::sampled`]).
    pub fn paper(&self) -> engine::lexpilot::paper::PaperViews {
        engine::lexpilot::paper::PaperViews::of(
            &self.document,
            self.samples(),
            &self.cases,
            &self.targeted,
        )
    }

    /// The position in the document of the first entry of `model`.
    pub fn entry_of(&self, model: &str) -> Option<usize> {
        self.document.entries.iter().position(|e| e.model == model)
    }

    /// The entries' keys, in the document's order.
    pub fn keys(&self) -> impl Iterator<Item = &EntryKey> {
        self.document.entries.iter().map(|e| &e.key)
    }
}

/// Per entry, in the document's order, the interval of each column of a
/// view that has one.
pub type Intervals = Vec<HashMap<String, (f64, f64)>>;

/// A model's stored runs on a version, read back, with their entry keys.
pub type ModelRuns = Vec<(EntryKey, Run)>;

/// A dataset version's figures at one generation, for a benchmark whose
/// items are kept in the generic item table (PLawBench, DLawBench).
pub struct SuiteSnapshot<S: Suite> {
    pub dataset: DatasetInfo,
    pub generation: i64,
    pub items: Arc<Vec<S::Case>>,
    /// The benchmark's score document, named after the dataset.
    pub document: S::Document,
    /// Each run's kept scores with its entry key, in upload order (what the
    /// document summarises; some views count from them).
    pub run_scores: Vec<(EntryKey, S::Scores)>,
    /// The stored runs with their entry keys, in upload order; read when
    /// first needed, at the same generation.
    runs: tokio::sync::OnceCell<Arc<SuiteRuns<S>>>,
}

/// Stored runs of benchmark `S` read back, each with its entry key.
pub type SuiteRuns<S> = Vec<(EntryKey, <S as Suite>::Run)>;

/// A PLawBench version's figures: its §B4.4 document.
pub type PlawSnapshot = SuiteSnapshot<PLawBench>;
/// PLawBench runs read back.
pub type PlawRuns = SuiteRuns<PLawBench>;
/// A DLawBench version's figures: its §A4.7 document.
pub type DlawSnapshot = SuiteSnapshot<DLawBench>;
/// DLawBench runs read back.
pub type DlawRuns = SuiteRuns<DLawBench>;

impl<S: Suite> SuiteSnapshot<S> {
    fn key(&self) -> Key {
        (self.dataset.id, self.generation)
    }
}

/// A benchmark with a [`SuiteSnapshot`]: how its document is named, and
/// where its snapshots are cached.
trait Snapshotted: Hosted<Scores: Clone> + Sized {
    fn named(document: Self::Document, dataset: &str) -> Self::Document;
    fn cache(caches: &mut Caches) -> &mut Vec<Arc<SuiteSnapshot<Self>>>;
}

impl Snapshotted for PLawBench {
    fn named(document: Self::Document, dataset: &str) -> Self::Document {
        document.with_dataset(dataset)
    }

    fn cache(caches: &mut Caches) -> &mut Vec<Arc<SuiteSnapshot<Self>>> {
        &mut caches.plaw
    }
}

impl Snapshotted for DLawBench {
    fn named(document: Self::Document, dataset: &str) -> Self::Document {
        document.with_dataset(dataset)
    }

    fn cache(caches: &mut Caches) -> &mut Vec<Arc<SuiteSnapshot<Self>>> {
        &mut caches.dlaw
    }
}

#[derive(Default)]
struct Caches {
    snapshots: Vec<Arc<Snapshot>>,
    plaw: Vec<Arc<PlawSnapshot>>,
    dlaw: Vec<Arc<DlawSnapshot>>,
    intervals: Vec<((Key, Task, LjpSetup), Arc<Intervals>)>,
    models: Vec<((Key, String), Arc<ModelRuns>)>,
}

/// Keeps `entry` as the newest of `list`, which holds at most `bound`.
fn keep<T>(list: &mut Vec<T>, entry: T, bound: usize) {
    if list.len() >= bound {
        list.remove(0);
    }
    list.push(entry);
}

/// The read models of one application; cheap to clone (one cache shared).
#[derive(Clone, Default)]
pub struct ReadModels {
    caches: Arc<Mutex<Caches>>,
    building: Arc<tokio::sync::Mutex<()>>,
}

impl std::fmt::Debug for ReadModels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadModels").finish_non_exhaustive()
    }
}

impl ReadModels {
    fn with<T>(&self, f: impl FnOnce(&mut Caches) -> T) -> T {
        let mut caches = self.caches.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut caches)
    }

    fn cached(&self, key: Key) -> Option<Arc<Snapshot>> {
        self.with(|c| c.snapshots.iter().find(|s| s.key() == key).cloned())
    }

    /// The snapshot of `dataset` at the current generation, built (once) if
    /// need be: the score document from the kept scores. The resampling
    /// data is read when first needed ([`ReadModels::intervals`],
    /// [`ReadModels::compare`]).
    pub async fn snapshot(&self, db: &Db, dataset: &DatasetInfo) -> Result<Arc<Snapshot>> {
        let generation = db::runs::generation(db).await?;
        if let Some(hit) = self.cached((dataset.id, generation)) {
            return Ok(hit);
        }
        let _building = self.building.lock().await;
        let generation = db::runs::generation(db).await?;
        if let Some(hit) = self.cached((dataset.id, generation)) {
            return Ok(hit);
        }
        let (generation, cases, scores, targeted) = {
            let mut generation = generation;
            loop {
                let (at, cases, scores) =
                    at_one_generation::<LexPilot>(db, dataset.id, generation).await?;
                let targeted = crate::targeted::scores(db, dataset.id).await?;
                generation = db::runs::generation(db).await?;
                if generation == at {
                    break (at, cases, scores, targeted);
                }
            }
        };
        let dataset = dataset.clone();
        let snapshot = blocking(move || -> Result<Snapshot> {
            let run_ids: Vec<i64> = scores.iter().map(|s| s.run_id).collect();
            let (keys, run_scores): (Vec<EntryKey>, Vec<RunScores>) =
                kept_scores::<LexPilot>(scores)?.into_iter().unzip();
            let entries = group_runs(keys.iter().zip(run_scores.iter().map(RunScores::parts)));
            let entry_runs = entries
                .iter()
                .map(|e| e.runs.iter().map(|&i| run_ids[i]).collect())
                .collect();
            let document =
                summarise_entries(entries, &run_scores, &cases).with_dataset(dataset.name.clone());
            Ok(Snapshot {
                dataset,
                generation,
                cases,
                document,
                entry_runs,
                targeted,
                samples: tokio::sync::OnceCell::new(),
            })
        })
        .await??;
        let snapshot = Arc::new(snapshot);
        self.with(|c| keep(&mut c.snapshots, Arc::clone(&snapshot), SNAPSHOTS));
        Ok(snapshot)
    }

    /// The snapshot of `dataset` with its resampling data: read at the
    /// snapshot's generation, or, when a write came in between, a newer
    /// snapshot with its own.
    pub async fn sampled(&self, db: &Db, dataset: &DatasetInfo) -> Result<Arc<Snapshot>> {
        loop {
            let snapshot = self.snapshot(db, dataset).await?;
            if snapshot.samples.initialized() {
                return Ok(snapshot);
            }
            let read = snapshot
                .samples
                .get_or_try_init(|| async {
                    let items = db::runs::all_items(db, snapshot.dataset.id).await?;
                    if db::runs::generation(db).await? != snapshot.generation {
                        return Err(Error::Conflict("stale".into()));
                    }
                    let snapshot = Arc::clone(&snapshot);
                    blocking(move || -> Result<Arc<Samples>> {
                        let mut runs: HashMap<i64, Run> = HashMap::with_capacity(items.len());
                        for stored in items {
                            let run =
                                LexPilot::read_stored(&stored.items).map_err(Error::internal)?;
                            runs.insert(stored.id, run);
                        }
                        let samples = snapshot
                            .entry_runs
                            .iter()
                            .map(|ids| {
                                let entry = ids
                                    .iter()
                                    .map(|id| {
                                        runs.remove(id).ok_or_else(|| {
                                            Error::internal(format!(
                                                "run {id} is scored but has no items"
                                            ))
                                        })
                                    })
                                    .collect::<Result<Vec<Run>>>()?;
                                Ok(EntrySample::new(&entry, &snapshot.cases))
                            })
                            .collect::<Result<Samples>>()?;
                        Ok(Arc::new(samples))
                    })
                    .await?
                })
                .await;
            match read {
                Ok(_) => return Ok(snapshot),
                // A write came in between: the next snapshot is newer.
                Err(Error::Conflict(_)) => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// The 95% bootstrap interval of each of `columns` of `view` (those that
    /// have one), per entry of `snapshot` (from [`ReadModels::sampled`]).
    pub async fn intervals(
        &self,
        snapshot: &Arc<Snapshot>,
        view: &View,
        columns: Vec<String>,
    ) -> Result<Arc<Intervals>> {
        let key = (snapshot.key(), view.task, view.setup);
        if let Some(hit) = self.with(|c| {
            c.intervals
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| Arc::clone(v))
        }) {
            return Ok(hit);
        }
        let (snapshot_for_work, view) = (Arc::clone(snapshot), view.clone());
        let computed = Arc::new(
            blocking(move || {
                snapshot_for_work
                    .samples
                    .get()
                    .map(|s| s.as_slice())
                    .unwrap_or_default()
                    .iter()
                    .map(|sample| {
                        columns
                            .iter()
                            .filter_map(|col| {
                                let (metric, class) = column_metric(&view, col)?;
                                let ci = sample.ci(metric, class, RESAMPLES, SEED, LEVEL)?;
                                Some((col.clone(), ci))
                            })
                            .collect()
                    })
                    .collect::<Intervals>()
            })
            .await?,
        );
        self.with(|c| keep(&mut c.intervals, (key, Arc::clone(&computed)), INTERVALS));
        Ok(computed)
    }

    /// The paired bootstrap of entry `a` against entry `b` of `snapshot` (their
    /// positions in its document; from [`ReadModels::sampled`]) for each of
    /// `metrics`, over all cases or one class.
    pub async fn compare(
        &self,
        snapshot: &Arc<Snapshot>,
        a: usize,
        b: usize,
        metrics: Vec<Metric>,
        class: Option<Class>,
    ) -> Result<Vec<(Metric, Option<PairedBootstrap>)>> {
        let snapshot = Arc::clone(snapshot);
        blocking(move || {
            let (Some(sa), Some(sb)) = (snapshot.sample(a), snapshot.sample(b)) else {
                return Vec::new();
            };
            metrics
                .into_iter()
                .map(|m| (m, compare_entries(sa, sb, m, class, RESAMPLES, SEED, LEVEL)))
                .collect()
        })
        .await
    }

    /// The snapshot of PLawBench version `dataset` at the current
    /// generation, built (once) if need be from the kept scores.
    pub async fn plaw_snapshot(&self, db: &Db, dataset: &DatasetInfo) -> Result<Arc<PlawSnapshot>> {
        self.suite_snapshot::<PLawBench>(db, dataset).await
    }

    /// The PLawBench snapshot of `dataset` with its stored runs read back: at
    /// the snapshot's generation, or, when a write came in between, a newer
    /// snapshot with its own.
    pub async fn plaw_runs(
        &self,
        db: &Db,
        dataset: &DatasetInfo,
    ) -> Result<(Arc<PlawSnapshot>, Arc<PlawRuns>)> {
        self.suite_runs::<PLawBench>(db, dataset).await
    }

    /// The snapshot of DLawBench version `dataset` at the current
    /// generation, built (once) if need be from the kept scores.
    pub async fn dlaw_snapshot(&self, db: &Db, dataset: &DatasetInfo) -> Result<Arc<DlawSnapshot>> {
        self.suite_snapshot::<DLawBench>(db, dataset).await
    }

    /// The DLawBench snapshot of `dataset` with its stored runs read back,
    /// as [`ReadModels::plaw_runs`] does for PLawBench.
    pub async fn dlaw_runs(
        &self,
        db: &Db,
        dataset: &DatasetInfo,
    ) -> Result<(Arc<DlawSnapshot>, Arc<DlawRuns>)> {
        self.suite_runs::<DLawBench>(db, dataset).await
    }

    async fn suite_snapshot<S: Snapshotted>(
        &self,
        db: &Db,
        dataset: &DatasetInfo,
    ) -> Result<Arc<SuiteSnapshot<S>>> {
        let cached = |key: Key| self.with(|c| S::cache(c).iter().find(|s| s.key() == key).cloned());
        let generation = db::runs::generation(db).await?;
        if let Some(hit) = cached((dataset.id, generation)) {
            return Ok(hit);
        }
        let _building = self.building.lock().await;
        let generation = db::runs::generation(db).await?;
        if let Some(hit) = cached((dataset.id, generation)) {
            return Ok(hit);
        }
        let (generation, items, scores) =
            at_one_generation::<S>(db, dataset.id, generation).await?;
        let dataset = dataset.clone();
        let snapshot = blocking(move || -> Result<SuiteSnapshot<S>> {
            let run_scores = kept_scores::<S>(scores)?;
            let document = S::named(S::summarise(run_scores.clone(), &items), &dataset.name);
            Ok(SuiteSnapshot {
                dataset,
                generation,
                items,
                document,
                run_scores,
                runs: tokio::sync::OnceCell::new(),
            })
        })
        .await??;
        let snapshot = Arc::new(snapshot);
        self.with(|c| keep(S::cache(c), Arc::clone(&snapshot), SNAPSHOTS));
        Ok(snapshot)
    }

    async fn suite_runs<S: Snapshotted>(
        &self,
        db: &Db,
        dataset: &DatasetInfo,
    ) -> Result<(Arc<SuiteSnapshot<S>>, Arc<SuiteRuns<S>>)> {
        loop {
            let snapshot = self.suite_snapshot::<S>(db, dataset).await?;
            let read = snapshot
                .runs
                .get_or_try_init(|| async {
                    let stored = db::runs::all_items(db, snapshot.dataset.id).await?;
                    if db::runs::generation(db).await? != snapshot.generation {
                        return Err(Error::Conflict("stale".into()));
                    }
                    blocking(move || {
                        stored
                            .into_iter()
                            .map(|s| {
                                let run = S::read_stored(&s.items).map_err(Error::internal)?;
                                Ok((s.entry_key, run))
                            })
                            .collect::<Result<SuiteRuns<S>>>()
                            .map(Arc::new)
                    })
                    .await?
                })
                .await;
            match read {
                Ok(runs) => {
                    let runs = Arc::clone(runs);
                    return Ok((snapshot, runs));
                }
                // A write came in between: the next snapshot is newer.
                Err(Error::Conflict(_)) => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// The stored runs of `model` on `dataset` read back, by run number; empty
    /// when it has none.
    pub async fn model_runs(
        &self,
        db: &Db,
        dataset: &DatasetInfo,
        model: &str,
    ) -> Result<Arc<ModelRuns>> {
        let generation = db::runs::generation(db).await?;
        let key = ((dataset.id, generation), model.to_owned());
        if let Some(hit) = self.with(|c| {
            c.models
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| Arc::clone(v))
        }) {
            return Ok(hit);
        }
        let stored = db::runs::entry_runs(db, dataset.id, model).await?;
        let runs = Arc::new(
            blocking(move || {
                stored
                    .into_iter()
                    .map(|s| {
                        Ok((
                            s.entry_key,
                            LexPilot::read_stored(&s.items).map_err(Error::internal)?,
                        ))
                    })
                    .collect::<Result<ModelRuns>>()
            })
            .await??,
        );
        // Keep it only if nothing was stored meanwhile.
        if db::runs::generation(db).await? == generation {
            self.with(|c| keep(&mut c.models, (key, Arc::clone(&runs)), MODELS));
        }
        Ok(runs)
    }
}

/// The cases of version `dataset_id` and every kept score on it, read until
/// the generation is the same before and after (then the scores are those
/// of that generation), starting from `generation`.
async fn at_one_generation<S: Hosted>(
    db: &Db,
    dataset_id: i64,
    mut generation: i64,
) -> Result<(i64, Arc<Vec<S::Case>>, Vec<db::runs::StoredScores>)> {
    loop {
        let cases = S::cases(db, dataset_id).await?;
        let scores = db::runs::scores(db, dataset_id).await?;
        let after = db::runs::generation(db).await?;
        if after == generation {
            return Ok((generation, cases, scores));
        }
        generation = after;
    }
}

/// Kept scores read back as benchmark `S`'s, with their entry keys.
fn kept_scores<S: Suite>(
    scores: Vec<db::runs::StoredScores>,
) -> Result<Vec<(EntryKey, S::Scores)>> {
    scores
        .into_iter()
        .map(|s| {
            let parsed: S::Scores = serde_json::from_str(&s.scores)
                .map_err(|e| Error::internal(format!("stored scores of run {}: {e}", s.run_id)))?;
            Ok((s.entry_key, parsed))
        })
        .collect()
}
