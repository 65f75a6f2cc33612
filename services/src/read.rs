//! Read models: the figures pages and the API show, derived from stored runs
//! and cached in the application state (never a process-wide static, so two
//! applications in one process never see each other's figures).
//!
//! - [`Snapshot`]: one dataset version at one generation of that version
//!   (`db::generations`, bumped in every transaction that changes its runs
//!   or scores): the score document (means ± std from the kept scores,
//!   composed from per-model slots, [`slots`]: after a write only the
//!   written model's entries are summarised again),
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
//! - **Blind review** ([`Sight`]): figures for anyone but those who manage
//!   review leave out every judge decision open for blind review
//!   ([`engine::review::OpenDecision`]): the runs that hold one are scored
//!   again without it, and the document, the views' counts, the resampling
//!   data and so every interval, comparison and export are built from those
//!   scores. Drill-downs get the stored runs in full and keep back the open
//!   decisions themselves. With nothing open both sights share one snapshot.
//!
//! Every cache is keyed by (dataset version, its generation, decisions left
//! out), a slot by (version, model, the model's generation, its decisions
//! left out), and bounded: a stored, replaced or re-scored run changes the
//! generations of its model and version, and a review item opened or
//! settled the decisions left out, so the next request recomputes, whatever
//! ids SQLite reuses; a write on another version or benchmark changes
//! nothing here. Each figure is built once at a time ([`crate::flights`]);
//! requests that need it meanwhile wait for it rather than build it too.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use db::datasets::DatasetInfo;
use db::Db;
use engine::benchmark::{DLawBench, LexPilot, Suite};
use engine::core::entry::EntryKey;
use engine::lexpilot::dataset::Case;
use engine::lexpilot::leaderboard::{column_metric, View};
use engine::lexpilot::run::Run;
use engine::lexpilot::score::{compare_entries, EntrySample, Metric, RunScores, ScoreDocument};
use engine::metrics::PairedBootstrap;
use engine::plawbench::PLawBench;
use engine::review::OpenDecision;
use engine::vocab::Class;

use crate::error::{Error, Result};
use crate::flights::Flights;
use crate::ingest::{blocking, Hosted};

mod slots;
pub use slots::EntryIntervals;
use slots::{compose, Composed, EntryCells, Slot, Slots};

/// Resamples per interval or comparison.
pub const RESAMPLES: usize = 1000;
/// The seed of every resampling, so a figure is the same on every request.
pub const SEED: u64 = 20_261_129;
/// The confidence level of intervals.
pub const LEVEL: f64 = 0.95;
/// Snapshots kept (public and full figures at the current generation, and
/// the two before while requests that started on them finish).
const SNAPSHOTS: usize = 4;
/// Models' parsed runs kept.
const MODELS: usize = 8;

/// Whose figures a read is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sight {
    /// Everyone's: judge decisions open for blind review are left out
    /// ([`engine::review::OpenDecision`] states the rule).
    Public,
    /// Those who manage review (admins): every decision counted.
    Full,
}

impl Sight {
    /// The figures `user` (or an anonymous visitor) gets: full for those
    /// who manage review, public for everyone else.
    pub fn of(user: Option<&db::users::User>) -> Sight {
        if user.is_some_and(|u| u.allows(engine::accounts::Permission::ManageReview)) {
            Sight::Full
        } else {
            Sight::Public
        }
    }
}

/// The judge decisions a snapshot leaves out, by run id; empty for full
/// figures, and whenever nothing is open.
pub type Withheld = BTreeMap<i64, Vec<OpenDecision>>;

/// What a snapshot is of: (dataset version id, generation, decisions left
/// out).
#[derive(Debug, Clone, PartialEq)]
struct Key(i64, i64, Arc<Withheld>);

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
    /// Each run's scores as the document counts them, by run id (shared
    /// with the run's slot).
    run_scores: HashMap<i64, Arc<RunScores>>,
    /// The judge decisions open for blind review these figures leave out.
    withheld: Arc<Withheld>,
    /// How many decisions the figures leave out (0 for full figures).
    pub left_out: usize,
    /// What else each entry's runs give (resampling data, intervals), in
    /// the document's order: kept with the entry's slot, read once when first
    /// needed and shared by every snapshot that has the entry.
    cells: Vec<Arc<EntryCells>>,
    /// Every entry's resampling data, once all are read.
    samples: std::sync::OnceLock<Vec<Arc<EntrySample>>>,
}

impl Snapshot {
    fn key(&self) -> Key {
        Key(self.dataset.id, self.generation, Arc::clone(&self.withheld))
    }

    /// The scores of run `run_id` as the document counts them (without its
    /// decisions under blind review in public figures); `None` for a run
    /// not in the snapshot.
    pub fn run_scores(&self, run_id: i64) -> Option<&RunScores> {
        self.run_scores.get(&run_id).map(Arc::as_ref)
    }

    /// The resampling data of entry `entry` (its position in the document),
    /// once read.
    pub fn sample(&self, entry: usize) -> Option<&EntrySample> {
        self.cells.get(entry)?.sample.get().map(Arc::as_ref)
    }

    /// Every entry's resampling data in the document's order, once all are
    /// read ([`ReadModels::sampled`]); empty before.
    pub fn samples(&self) -> Vec<&EntrySample> {
        self.samples
            .get()
            .map_or_else(Vec::new, |all| all.iter().map(Arc::as_ref).collect())
    }

    /// The paper's other results over this snapshot
    /// ([`engine::lexpilot::paper`]); the figures over causes and focal
    /// points need the resampling data ([`ReadModels::sampled`]); Figure 4
    /// (b) averages over the entries `figure_4b` names.
    pub fn paper(
        &self,
        figure_4b: engine::lexpilot::paper::Figure4bModels,
    ) -> engine::lexpilot::paper::PaperViews {
        engine::lexpilot::paper::PaperViews::of(
            &self.document,
            &self.samples(),
            &self.cases,
            &self.targeted,
            figure_4b,
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
pub type Intervals = Vec<Arc<EntryIntervals>>;

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
    /// Each run's scores with its entry key, in upload order (what the
    /// document summarises; some views count from them): the kept scores,
    /// or in public figures without the run's decisions under blind review.
    pub run_scores: Vec<(EntryKey, S::Scores)>,
    /// The judge decisions open for blind review these figures leave out.
    withheld: Arc<Withheld>,
    /// How many decisions the figures leave out (0 for full figures).
    pub left_out: usize,
    /// The stored runs in full with their entry keys, in upload order; read
    /// when first needed, at the same generation.
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
        Key(self.dataset.id, self.generation, Arc::clone(&self.withheld))
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
    models: Vec<((Generation, String), Arc<ModelRuns>)>,
    slots: Slots,
    /// Each benchmark's reference rows, at the count of its data changes
    /// they were read at ([`ReadModels::reference`]).
    reference: HashMap<engine::benchmark::Benchmark, (u64, Arc<ReferenceRows>)>,
}

/// A benchmark's reference rows with their origins (published first).
pub type ReferenceRows = Vec<(engine::reference::ReferenceRow, String)>;

/// (dataset version id, the model's generation there): what a model's
/// stored runs are of.
type Generation = (i64, i64);

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
    /// Builds under way: concurrent readers of the same cold figures wait
    /// for one build ([`crate::flights`]).
    building: Flights<Building>,
    counters: Arc<Counters>,
}

/// What the read models did since start: a test's window on what a request
/// cost ([`ReadModels::stats`]).
#[derive(Debug, Default)]
struct Counters {
    sample_runs_read: AtomicU64,
    interval_sets_built: AtomicU64,
}

/// What the read models built and read since start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// Model slots built: one per model whose runs changed since last read.
    pub slots_built: u64,
    /// Runs read back in full for resampling data.
    pub sample_runs_read: u64,
    /// Entries whose intervals of a view were computed.
    pub interval_sets_built: u64,
}

/// What a build is of: (what, dataset version id, generation or 0, detail).
type Building = (&'static str, i64, i64, String);

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

    /// `benchmark`'s reference rows, read again only after a change of
    /// that benchmark's data ([`Db::data_changes_for`]: an import of
    /// reference figures is one, through this process or another), so a
    /// leaderboard request does not read them each time.
    pub async fn reference(
        &self,
        db: &Db,
        benchmark: engine::benchmark::Benchmark,
    ) -> Result<Arc<ReferenceRows>> {
        // Counted before reading: a change meanwhile leaves an older key,
        // and the next request reads again.
        let at = db.data_changes_for(Some(benchmark.as_str()));
        let kept = self.with(|c| {
            c.reference
                .get(&benchmark)
                .filter(|(seen, _)| *seen == at)
                .map(|(_, rows)| Arc::clone(rows))
        });
        if let Some(rows) = kept {
            return Ok(rows);
        }
        let rows = Arc::new(db::reference::rows(db, benchmark).await?);
        self.with(|c| c.reference.insert(benchmark, (at, Arc::clone(&rows))));
        Ok(rows)
    }

    fn cached(&self, key: &Key) -> Option<Arc<Snapshot>> {
        self.with(|c| c.snapshots.iter().find(|s| s.key() == *key).cloned())
    }

    /// The judge decisions figures for `sight` leave out on `dataset`: those
    /// open for blind review in public figures, none in full ones.
    async fn withheld(db: &Db, dataset: &DatasetInfo, sight: Sight) -> Result<Arc<Withheld>> {
        Ok(Arc::new(match sight {
            Sight::Public => db::review::open_decisions(db, dataset.id).await?,
            Sight::Full => Withheld::new(),
        }))
    }

    /// Version `dataset_id`'s figures for a sight leaving out `withheld`,
    /// composed from its models' slots at one generation of the version
    /// (each slot built only when its model's generation has moved), with
    /// the version's cases and that generation.
    async fn composed<S: Hosted>(
        &self,
        db: &Db,
        dataset_id: i64,
        withheld: &Arc<Withheld>,
    ) -> Result<(i64, Arc<Vec<S::Case>>, Composed<S>)> {
        let cases = S::cases(db, dataset_id).await?;
        loop {
            let generation = db::generations::dataset_generation(db, dataset_id).await?;
            let models = db::generations::model_generations(db, dataset_id).await?;
            let mut slots = Vec::with_capacity(models.len());
            for (model, model_generation) in models {
                let slot = self
                    .slot::<S>(db, dataset_id, &model, model_generation, withheld, &cases)
                    .await?;
                slots.push(slot);
            }
            if db::generations::dataset_generation(db, dataset_id).await? != generation {
                continue;
            }
            let for_work = Arc::clone(&cases);
            let composed = blocking(move || compose(&slots, &for_work)).await?;
            return Ok((generation, cases, composed));
        }
    }

    /// `model`'s slot on version `dataset_id` at its `generation` (read
    /// before its runs, so a slot is never older than its key) for a sight
    /// leaving out `withheld`, built if need be.
    async fn slot<S: Hosted>(
        &self,
        db: &Db,
        dataset_id: i64,
        model: &str,
        generation: i64,
        withheld: &Arc<Withheld>,
        cases: &Arc<Vec<S::Case>>,
    ) -> Result<Arc<Slot<S>>> {
        let kept = || self.with(|c| c.slots.find::<S>(dataset_id, model, generation, withheld));
        if let Some(hit) = kept() {
            return Ok(hit);
        }
        let scores = db::runs::scores_of_model(db, dataset_id, model).await?;
        let ids: Vec<i64> = scores
            .iter()
            .map(|s| s.run_id)
            .filter(|id| withheld.contains_key(id))
            .collect();
        let withheld_runs = db::runs::items_of(db, dataset_id, &ids).await?;
        let (withheld, cases) = (Arc::clone(withheld), Arc::clone(cases));
        let slot = Arc::new(
            blocking(move || {
                Slot::<S>::build(generation, &withheld, scores, withheld_runs, &cases)
            })
            .await??,
        );
        self.with(|c| c.slots.keep(dataset_id, model, Arc::clone(&slot)));
        Ok(slot)
    }

    /// What was built and read since start (a test's window on what a
    /// write or a request costs).
    pub fn stats(&self) -> Stats {
        Stats {
            slots_built: self.with(|c| c.slots.built()),
            sample_runs_read: self.counters.sample_runs_read.load(Ordering::Relaxed),
            interval_sets_built: self.counters.interval_sets_built.load(Ordering::Relaxed),
        }
    }

    /// The snapshot of `dataset` at the current generation for `sight`,
    /// built (once) if need be: the score document from the kept scores
    /// (in public figures, those of runs with decisions under blind review
    /// scored again without them). The resampling data is read when first
    /// needed ([`ReadModels::intervals`], [`ReadModels::compare`]).
    pub async fn snapshot(
        &self,
        db: &Db,
        dataset: &DatasetInfo,
        sight: Sight,
    ) -> Result<Arc<Snapshot>> {
        let withheld = Self::withheld(db, dataset, sight).await?;
        let generation = generation_of(db, dataset).await?;
        let key = |generation| Key(dataset.id, generation, Arc::clone(&withheld));
        if let Some(hit) = self.cached(&key(generation)) {
            return Ok(hit);
        }
        let _building = self
            .building
            .enter(("lexpilot", dataset.id, 0, String::new()))
            .await;
        let generation = generation_of(db, dataset).await?;
        if let Some(hit) = self.cached(&key(generation)) {
            return Ok(hit);
        }
        let (generation, cases, composed, targeted) = loop {
            let (generation, cases, composed) =
                self.composed::<LexPilot>(db, dataset.id, &withheld).await?;
            let targeted = crate::targeted::scores(db, dataset.id).await?;
            if generation_of(db, dataset).await? == generation {
                break (generation, cases, composed, targeted);
            }
        };
        let snapshot = Snapshot {
            document: composed.document.with_dataset(dataset.name.clone()),
            dataset: dataset.clone(),
            generation,
            cases,
            entry_runs: composed.entry_runs,
            cells: composed.cells,
            targeted,
            run_scores: composed
                .runs
                .into_iter()
                .map(|(id, _, scores)| (id, scores))
                .collect(),
            withheld,
            left_out: composed.left_out,
            samples: std::sync::OnceLock::new(),
        };
        let snapshot = Arc::new(snapshot);
        self.with(|c| keep(&mut c.snapshots, Arc::clone(&snapshot), SNAPSHOTS));
        Ok(snapshot)
    }

    /// The snapshot of `dataset` for `sight` with its resampling data: read
    /// at the snapshot's generation (without the decisions it leaves out),
    /// or, when a write came in between, a newer snapshot with its own.
    pub async fn sampled(
        &self,
        db: &Db,
        dataset: &DatasetInfo,
        sight: Sight,
    ) -> Result<Arc<Snapshot>> {
        loop {
            let snapshot = self.snapshot(db, dataset, sight).await?;
            if snapshot.samples.get().is_some() {
                return Ok(snapshot);
            }
            let all: Vec<usize> = (0..snapshot.cells.len()).collect();
            match self.sample_entries(db, &snapshot, &all).await {
                Ok(()) => {}
                // A run was replaced meanwhile: the next snapshot is newer.
                Err(Error::Conflict(_)) => continue,
                Err(e) => return Err(e),
            }
            let samples = snapshot
                .cells
                .iter()
                .filter_map(|cell| cell.sample.get().cloned())
                .collect();
            let _ = snapshot.samples.set(samples);
            return Ok(snapshot);
        }
    }

    /// Reads the resampling data of `entries` of `snapshot` (positions in
    /// its document) that it lacks: only those entries' runs, once each,
    /// without the decisions the snapshot leaves out. A conflict when a run
    /// of one was replaced meanwhile (a newer snapshot has it).
    pub async fn sample_entries(
        &self,
        db: &Db,
        snapshot: &Arc<Snapshot>,
        entries: &[usize],
    ) -> Result<()> {
        for &entry in entries {
            let (Some(cell), Some(ids)) =
                (snapshot.cells.get(entry), snapshot.entry_runs.get(entry))
            else {
                continue;
            };
            cell.sample
                .get_or_try_init(|| async {
                    let stored = db::runs::items_of(db, snapshot.dataset.id, ids).await?;
                    if stored.len() != ids.len() {
                        return Err(Error::Conflict("a run was replaced".into()));
                    }
                    self.counters
                        .sample_runs_read
                        .fetch_add(ids.len() as u64, Ordering::Relaxed);
                    let (cases, withheld) =
                        (Arc::clone(&snapshot.cases), Arc::clone(&snapshot.withheld));
                    blocking(move || -> Result<Arc<EntrySample>> {
                        let runs = stored
                            .into_iter()
                            .map(|s| {
                                let mut run =
                                    LexPilot::read_stored(&s.items).map_err(Error::internal)?;
                                if let Some(open) = withheld.get(&s.id) {
                                    LexPilot::withhold(&mut run, open);
                                }
                                Ok(run)
                            })
                            .collect::<Result<Vec<Run>>>()?;
                        Ok(Arc::new(EntrySample::new(&runs, &cases)))
                    })
                    .await?
                })
                .await?;
        }
        Ok(())
    }

    /// The 95% bootstrap interval of each of `columns` of `view` (those that
    /// have one), per entry of `snapshot` (from [`ReadModels::sampled`]).
    pub async fn intervals(
        &self,
        snapshot: &Arc<Snapshot>,
        view: &View,
        columns: Vec<String>,
    ) -> Result<Arc<Intervals>> {
        let of = (view.task, view.setup);
        let kept =
            || -> Option<Intervals> { snapshot.cells.iter().map(|c| c.intervals_of(of)).collect() };
        if let Some(all) = kept() {
            return Ok(Arc::new(all));
        }
        let what = format!("{:?}/{:?}", view.task, view.setup);
        let _building = self
            .building
            .enter(("intervals", snapshot.dataset.id, snapshot.generation, what))
            .await;
        if let Some(all) = kept() {
            return Ok(Arc::new(all));
        }
        // Only the entries without them: after a write, the new entry's.
        let missing: Vec<Arc<EntryCells>> = snapshot
            .cells
            .iter()
            .filter(|c| c.intervals_of(of).is_none())
            .cloned()
            .collect();
        self.counters
            .interval_sets_built
            .fetch_add(missing.len() as u64, Ordering::Relaxed);
        let view = view.clone();
        blocking(move || {
            use rayon::prelude::*;
            missing.par_iter().for_each(|cell| {
                let intervals: EntryIntervals =
                    cell.sample
                        .get()
                        .map_or_else(EntryIntervals::new, |sample| {
                            columns
                                .iter()
                                .filter_map(|col| {
                                    let (metric, class) = column_metric(&view, col)?;
                                    let ci = sample.ci(metric, class, RESAMPLES, SEED, LEVEL)?;
                                    Some((col.clone(), ci))
                                })
                                .collect()
                        });
                // An entry whose data was not read yet gets none, as before;
                // it is not kept, so it is computed once read.
                if cell.sample.get().is_some() {
                    cell.keep_intervals(of, Arc::new(intervals));
                }
            });
        })
        .await?;
        Ok(Arc::new(
            snapshot
                .cells
                .iter()
                .map(|c| c.intervals_of(of).unwrap_or_default())
                .collect(),
        ))
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
    /// generation for `sight`, built (once) if need be from the kept
    /// scores (as [`ReadModels::snapshot`] does for LexPilot).
    pub async fn plaw_snapshot(
        &self,
        db: &Db,
        dataset: &DatasetInfo,
        sight: Sight,
    ) -> Result<Arc<PlawSnapshot>> {
        self.suite_snapshot::<PLawBench>(db, dataset, sight).await
    }

    /// The PLawBench snapshot of `dataset` for `sight` with the stored runs
    /// read back in full (drill-downs keep back what is under blind review
    /// themselves): at the snapshot's generation, or, when a write came in
    /// between, a newer snapshot with its own.
    pub async fn plaw_runs(
        &self,
        db: &Db,
        dataset: &DatasetInfo,
        sight: Sight,
    ) -> Result<(Arc<PlawSnapshot>, Arc<PlawRuns>)> {
        self.suite_runs::<PLawBench>(db, dataset, sight).await
    }

    /// The snapshot of DLawBench version `dataset` at the current
    /// generation for `sight`, as [`ReadModels::plaw_snapshot`].
    pub async fn dlaw_snapshot(
        &self,
        db: &Db,
        dataset: &DatasetInfo,
        sight: Sight,
    ) -> Result<Arc<DlawSnapshot>> {
        self.suite_snapshot::<DLawBench>(db, dataset, sight).await
    }

    /// The DLawBench snapshot of `dataset` with its stored runs read back,
    /// as [`ReadModels::plaw_runs`] does for PLawBench.
    pub async fn dlaw_runs(
        &self,
        db: &Db,
        dataset: &DatasetInfo,
        sight: Sight,
    ) -> Result<(Arc<DlawSnapshot>, Arc<DlawRuns>)> {
        self.suite_runs::<DLawBench>(db, dataset, sight).await
    }

    async fn suite_snapshot<S: Snapshotted>(
        &self,
        db: &Db,
        dataset: &DatasetInfo,
        sight: Sight,
    ) -> Result<Arc<SuiteSnapshot<S>>> {
        let withheld = Self::withheld(db, dataset, sight).await?;
        let cached = |generation| {
            let key = Key(dataset.id, generation, Arc::clone(&withheld));
            self.with(|c| S::cache(c).iter().find(|s| s.key() == key).cloned())
        };
        let generation = generation_of(db, dataset).await?;
        if let Some(hit) = cached(generation) {
            return Ok(hit);
        }
        let _building = self
            .building
            .enter((S::BENCHMARK.as_str(), dataset.id, 0, String::new()))
            .await;
        let generation = generation_of(db, dataset).await?;
        if let Some(hit) = cached(generation) {
            return Ok(hit);
        }
        let (generation, items, composed) = self.composed::<S>(db, dataset.id, &withheld).await?;
        let snapshot = SuiteSnapshot {
            document: S::named(composed.document, &dataset.name),
            dataset: dataset.clone(),
            generation,
            items,
            run_scores: composed
                .runs
                .into_iter()
                .map(|(_, key, scores)| (key, S::Scores::clone(&scores)))
                .collect(),
            withheld,
            left_out: composed.left_out,
            runs: tokio::sync::OnceCell::new(),
        };
        let snapshot = Arc::new(snapshot);
        self.with(|c| keep(S::cache(c), Arc::clone(&snapshot), SNAPSHOTS));
        Ok(snapshot)
    }

    async fn suite_runs<S: Snapshotted>(
        &self,
        db: &Db,
        dataset: &DatasetInfo,
        sight: Sight,
    ) -> Result<(Arc<SuiteSnapshot<S>>, Arc<SuiteRuns<S>>)> {
        loop {
            let snapshot = self.suite_snapshot::<S>(db, dataset, sight).await?;
            let read = snapshot
                .runs
                .get_or_try_init(|| async {
                    let stored = db::runs::all_items(db, snapshot.dataset.id).await?;
                    if generation_of(db, &snapshot.dataset).await? != snapshot.generation {
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

    /// The stored runs of `model` on `dataset` read back in full, by run
    /// number (a drill-down keeps back what is under blind review itself);
    /// empty when it has none.
    pub async fn model_runs(
        &self,
        db: &Db,
        dataset: &DatasetInfo,
        model: &str,
    ) -> Result<Arc<ModelRuns>> {
        let generation = db::generations::model_generation(db, dataset.id, model).await?;
        let key = ((dataset.id, generation), model.to_owned());
        let cached = || {
            self.with(|c| {
                c.models
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| Arc::clone(v))
            })
        };
        if let Some(hit) = cached() {
            return Ok(hit);
        }
        let _building = self
            .building
            .enter(("model runs", dataset.id, generation, model.to_owned()))
            .await;
        if let Some(hit) = cached() {
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
        // Keep it only if none of the model's runs was stored meanwhile.
        if db::generations::model_generation(db, dataset.id, model).await? == generation {
            self.with(|c| keep(&mut c.models, (key, Arc::clone(&runs)), MODELS));
        }
        Ok(runs)
    }
}

/// How many judge decisions of runs on `dataset` are open for blind review
/// (what public figures leave out, and full figures count).
pub async fn under_review(db: &Db, dataset: &DatasetInfo) -> Result<usize> {
    Ok(db::review::open_decisions(db, dataset.id)
        .await?
        .values()
        .map(Vec::len)
        .sum())
}

/// The generation of version `dataset`: it moves whenever anything its
/// figures derive from does (`db::generations`).
async fn generation_of(db: &Db, dataset: &DatasetInfo) -> Result<i64> {
    Ok(db::generations::dataset_generation(db, dataset.id).await?)
}
