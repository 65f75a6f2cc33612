//! Figures that need every stored item, not only the kept per-run scores:
//! bootstrap intervals of leaderboard cells and paired comparisons of two
//! entries. Parsing every run and resampling is costly, so the work runs on
//! a blocking thread and its results are cached per process against the
//! dataset's run generation ([`db::runs::generation`]): a stored run makes
//! the next request recompute, nothing else does.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use db::{Db, DbError};
use engine::leaderboard::{column_metric, View};
use engine::metrics::PairedBootstrap;
use engine::run::{EntryKey, Task};
use engine::score::{compare_entries, EntrySample, Metric};
use engine::vocab::{Class, LjpSetup};

/// Resamples per interval or comparison.
pub const RESAMPLES: usize = 1000;
/// The seed of every resampling, so a figure is the same on every request.
pub const SEED: u64 = 20_261_129;
/// The confidence level of intervals.
pub const LEVEL: f64 = 0.95;

/// The entries of a dataset, in the order of the score document's entries.
pub struct Entries {
    pub keys: Vec<EntryKey>,
    pub samples: Vec<EntrySample>,
}

type Generation = (i64, i64, i64);
type Intervals = Arc<Vec<HashMap<String, (f64, f64)>>>;

#[derive(Default)]
struct Cache {
    entries: Option<(Generation, Arc<Entries>)>,
    intervals: HashMap<(Generation, Task, LjpSetup), Intervals>,
}

static CACHE: Mutex<Option<Cache>> = Mutex::new(None);

fn with_cache<T>(f: impl FnOnce(&mut Cache) -> T) -> T {
    let mut guard = CACHE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    f(guard.get_or_insert_with(Cache::default))
}

async fn generation(db: &Db, dataset_id: i64) -> Result<Generation, DbError> {
    let (count, newest) = db::runs::generation(db, dataset_id).await?;
    Ok((dataset_id, count, newest))
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, DbError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| DbError::Invalid(format!("a background computation failed: {e}")))
}

/// Every entry of the dataset with its runs ready for resampling.
pub async fn entries(db: &Db, dataset_id: i64) -> Result<Arc<Entries>, DbError> {
    Ok(entries_at(db, dataset_id).await?.1)
}

/// [`entries`] with the run generation they were built at, so that figures
/// cached against it need not ask the database again.
async fn entries_at(db: &Db, dataset_id: i64) -> Result<(Generation, Arc<Entries>), DbError> {
    let generation = generation(db, dataset_id).await?;
    if let Some(hit) = with_cache(|c| {
        c.entries
            .as_ref()
            .filter(|(g, _)| *g == generation)
            .map(|(_, e)| e.clone())
    }) {
        return Ok((generation, hit));
    }
    let cases = db::cases::all(db, dataset_id).await?;
    let stored = db::runs::all_items(db, dataset_id).await?;
    let built = blocking(move || -> Result<Entries, DbError> {
        let mut groups: Vec<(EntryKey, Vec<engine::run::Run>)> = Vec::new();
        for run in stored {
            // Stored runs were validated against these cases when uploaded.
            let parsed = engine::run::parse_run(&run.items, &cases)
                .map_err(|e| DbError::Corrupt(format!("a stored run: {e}")))?;
            match groups.iter_mut().find(|(k, _)| *k == run.entry_key) {
                Some((_, runs)) => runs.push(parsed),
                None => groups.push((run.entry_key, vec![parsed])),
            }
        }
        Ok(Entries {
            samples: groups
                .iter()
                .map(|(_, runs)| EntrySample::new(runs, &cases))
                .collect(),
            keys: groups.into_iter().map(|(k, _)| k).collect(),
        })
    })
    .await??;
    let built = Arc::new(built);
    with_cache(|c| {
        c.intervals.retain(|(g, ..), _| *g == generation);
        c.entries = Some((generation, built.clone()));
    });
    Ok((generation, built))
}

/// Per entry, the 95% bootstrap interval of each column of `view` that has
/// one (keyed by column key).
pub async fn intervals(
    db: &Db,
    dataset_id: i64,
    view: &View,
    columns: Vec<String>,
) -> Result<Intervals, DbError> {
    let (generation, entries) = entries_at(db, dataset_id).await?;
    let key = (generation, view.task, view.setup);
    if let Some(hit) = with_cache(|c| c.intervals.get(&key).cloned()) {
        return Ok(hit);
    }
    let view = view.clone();
    let computed: Intervals = Arc::new(
        blocking(move || {
            entries
                .samples
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
                .collect()
        })
        .await?,
    );
    with_cache(|c| {
        c.intervals.insert(key, computed.clone());
    });
    Ok(computed)
}

/// The paired bootstrap of entry `a` against entry `b` (indices into
/// [`Entries`]) for each of `metrics`, over all cases or one class.
pub async fn compare(
    db: &Db,
    dataset_id: i64,
    a: usize,
    b: usize,
    metrics: Vec<Metric>,
    class: Option<Class>,
) -> Result<Vec<(Metric, Option<PairedBootstrap>)>, DbError> {
    let entries = entries(db, dataset_id).await?;
    blocking(move || {
        let (Some(sa), Some(sb)) = (entries.samples.get(a), entries.samples.get(b)) else {
            return Vec::new();
        };
        metrics
            .into_iter()
            .map(|m| (m, compare_entries(sa, sb, m, class, RESAMPLES, SEED, LEVEL)))
            .collect()
    })
    .await
}
