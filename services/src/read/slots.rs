//! Per-model slots: what a version's figures are composed of, so that the
//! cost of a write is the cost of the model it touches (issue 40).
//!
//! A [`Slot`] holds one model's runs on one dataset version at that model's
//! generation (`db::generations`): each run's counted scores (in public
//! figures, without its decisions under blind review) and the model's
//! entries, grouped and summarised alone ([`Suite::group`],
//! [`Suite::summarise_entry`]). A version's document is its slots' entries
//! in order of their first run ([`compose`]), which equals summarising
//! every run at once (`engine/tests/adapter_props.rs`). After a run is
//! stored only its model's generation moves, so only its slot is built
//! again; every other slot is reused as it is.

use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use db::runs::{StoredRun, StoredScores};
use engine::benchmark::Suite;
use engine::core::entry::EntryKey;
use engine::lexpilot::run::Task;
use engine::lexpilot::score::EntrySample;
use engine::vocab::LjpSetup;

use super::Withheld;
use crate::error::{Error, Result};

/// One run of a slot: its id, entry key and the scores figures count.
pub(super) struct SlotRun<S: Suite> {
    pub id: i64,
    pub key: EntryKey,
    /// Shared with every composed snapshot that counts the run.
    pub scores: Arc<S::Scores>,
}

/// What is derived from one entry's runs beyond its summary, read or
/// computed when first needed and kept with the entry's slot, so that it
/// stays warm while other models' runs come and go: LexPilot's resampling
/// data and bootstrap intervals (the other benchmarks have none yet).
#[derive(Default)]
pub struct EntryCells {
    /// The entry's runs gathered per case for resampling.
    pub sample: tokio::sync::OnceCell<Arc<EntrySample>>,
    /// The 95% interval of each column of a leaderboard view, by view.
    pub intervals: Mutex<HashMap<(Task, LjpSetup), Arc<EntryIntervals>>>,
}

/// One entry's interval of each column of a view that has one.
pub type EntryIntervals = HashMap<String, (f64, f64)>;

impl EntryCells {
    /// The intervals of the view `(task, setup)`, if computed.
    pub fn intervals_of(&self, view: (Task, LjpSetup)) -> Option<Arc<EntryIntervals>> {
        let kept = self.intervals.lock().unwrap_or_else(|e| e.into_inner());
        kept.get(&view).cloned()
    }

    /// Keeps the intervals of the view `(task, setup)`.
    pub fn keep_intervals(&self, view: (Task, LjpSetup), intervals: Arc<EntryIntervals>) {
        let mut kept = self.intervals.lock().unwrap_or_else(|e| e.into_inner());
        kept.insert(view, intervals);
    }
}

/// One model's runs and entries on a version at one model generation.
pub(super) struct Slot<S: Suite> {
    /// The model's generation the slot was read at.
    generation: i64,
    /// The open decisions of the model's runs it leaves out.
    withheld: Withheld,
    /// The model's runs, in upload order.
    pub runs: Vec<SlotRun<S>>,
    /// Its entries, in order of their first run: positions in `runs`
    /// (ascending) and the summary.
    pub entries: Vec<(Vec<usize>, S::Entry)>,
    /// What else each entry's runs give, as `entries`.
    pub cells: Vec<Arc<EntryCells>>,
    /// How many decisions it leaves out.
    pub left_out: usize,
}

impl<S: Suite> Slot<S> {
    /// Builds the slot from the model's kept scores (in upload order) and
    /// the items of its runs that hold decisions in `withheld` (only its
    /// own runs' are kept).
    pub fn build(
        generation: i64,
        withheld: &Withheld,
        scores: Vec<StoredScores>,
        withheld_runs: Vec<StoredRun>,
        cases: &[S::Case],
    ) -> Result<Slot<S>> {
        let own: Withheld = scores
            .iter()
            .filter_map(|s| withheld.get_key_value(&s.run_id))
            .map(|(id, open)| (*id, open.clone()))
            .collect();
        let mut items: HashMap<i64, String> =
            withheld_runs.into_iter().map(|r| (r.id, r.items)).collect();
        let mut left_out = 0;
        let runs = scores
            .into_iter()
            .map(|s| {
                let kept: S::Scores = serde_json::from_str(&s.scores).map_err(|e| {
                    Error::internal(format!("stored scores of run {}: {e}", s.run_id))
                })?;
                let scores = match own.get(&s.run_id) {
                    None => kept,
                    Some(open) => {
                        let stored = items.remove(&s.run_id).ok_or_else(|| {
                            Error::internal(format!("run {} is scored but has no items", s.run_id))
                        })?;
                        let run = S::read_stored(&stored).map_err(Error::internal)?;
                        let (scores, n) = S::score_withholding(run, open, cases);
                        left_out += n;
                        scores
                    }
                };
                Ok(SlotRun {
                    id: s.run_id,
                    key: s.entry_key,
                    scores: Arc::new(scores),
                })
            })
            .collect::<Result<Vec<SlotRun<S>>>>()?;
        // The model's own runs only (a write builds one slot), so the copy
        // the suite's grouping takes costs a few runs.
        let keyed: Vec<(EntryKey, S::Scores)> = runs
            .iter()
            .map(|r| (r.key.clone(), S::Scores::clone(&r.scores)))
            .collect();
        let entries: Vec<(Vec<usize>, S::Entry)> = S::group(&keyed)
            .into_iter()
            .map(|entry| {
                let scores: Vec<S::Scores> =
                    entry.runs.iter().map(|&i| keyed[i].1.clone()).collect();
                let summary = S::summarise_entry(entry.key, &scores, cases);
                (entry.runs, summary)
            })
            .collect();
        Ok(Slot {
            generation,
            withheld: own,
            cells: entries.iter().map(|_| Arc::default()).collect(),
            runs,
            entries,
            left_out,
        })
    }

    /// Whether the slot is the model's figures at `generation` for a sight
    /// that leaves out `withheld`.
    fn holds(&self, generation: i64, withheld: &Withheld) -> bool {
        self.generation == generation
            && self
                .runs
                .iter()
                .filter(|r| withheld.contains_key(&r.id))
                .count()
                == self.withheld.len()
            && self
                .withheld
                .iter()
                .all(|(id, open)| withheld.get(id) == Some(open))
    }
}

/// A version's figures composed from its slots.
pub(super) struct Composed<S: Suite> {
    /// The score document (not yet named after its dataset).
    pub document: S::Document,
    /// The ids of each entry's runs, in the document's order.
    pub entry_runs: Vec<Vec<i64>>,
    /// What else each entry's runs give, in the document's order.
    pub cells: Vec<Arc<EntryCells>>,
    /// Every run's id, entry key and counted scores (shared with its
    /// slot), in upload order.
    pub runs: Vec<(i64, EntryKey, Arc<S::Scores>)>,
    /// How many decisions the figures leave out.
    pub left_out: usize,
}

/// The document of `slots`' entries in order of their first run, as
/// [`Suite::summarise`] of all their runs would make it.
pub(super) fn compose<S: Suite>(slots: &[Arc<Slot<S>>], cases: &[S::Case]) -> Composed<S> {
    let mut entries: Vec<(i64, &Slot<S>, usize)> = slots
        .iter()
        .flat_map(|slot| {
            slot.entries
                .iter()
                .enumerate()
                .map(move |(e, (runs, _))| (slot.runs[runs[0]].id, slot.as_ref(), e))
        })
        .collect();
    entries.sort_by_key(|&(first, ..)| first);
    let entry_runs = entries
        .iter()
        .map(|&(_, slot, e)| slot.entries[e].0.iter().map(|&i| slot.runs[i].id).collect())
        .collect();
    let summaries = entries
        .iter()
        .map(|&(_, slot, e)| slot.entries[e].1.clone())
        .collect();
    let cells = entries
        .iter()
        .map(|&(_, slot, e)| Arc::clone(&slot.cells[e]))
        .collect();
    let mut runs: Vec<(i64, EntryKey, Arc<S::Scores>)> = slots
        .iter()
        .flat_map(|slot| {
            slot.runs
                .iter()
                .map(|r| (r.id, r.key.clone(), Arc::clone(&r.scores)))
        })
        .collect();
    runs.sort_by_key(|&(id, ..)| id);
    Composed {
        document: S::document(summaries, cases),
        entry_runs,
        cells,
        runs,
        left_out: slots.iter().map(|s| s.left_out).sum(),
    }
}

/// Slots kept per (dataset version, model): the newest few (a public and a
/// full sight of the current generation fit).
const SLOTS_PER_MODEL: usize = 2;

/// The slots of every version and model, of any benchmark (a version id
/// names one benchmark, so each list holds one benchmark's slots).
#[derive(Default)]
pub(super) struct Slots {
    kept: HashMap<(i64, String), Vec<Arc<dyn Any + Send + Sync>>>,
    built: AtomicU64,
}

impl Slots {
    /// The slot of `model` on version `dataset_id` at `generation` for a
    /// sight leaving out `withheld`, if kept.
    pub fn find<S: Suite>(
        &self,
        dataset_id: i64,
        model: &str,
        generation: i64,
        withheld: &Withheld,
    ) -> Option<Arc<Slot<S>>> {
        self.kept
            .get(&(dataset_id, model.to_owned()))?
            .iter()
            .filter_map(|slot| Arc::clone(slot).downcast::<Slot<S>>().ok())
            .find(|slot| slot.holds(generation, withheld))
    }

    /// Keeps `slot` as the newest of its model's.
    pub fn keep<S: Suite>(&mut self, dataset_id: i64, model: &str, slot: Arc<Slot<S>>) {
        self.built.fetch_add(1, Ordering::Relaxed);
        let list = self.kept.entry((dataset_id, model.to_owned())).or_default();
        list.retain(|s| {
            s.downcast_ref::<Slot<S>>()
                .is_some_and(|s| s.generation >= slot.generation)
        });
        if list.len() >= SLOTS_PER_MODEL {
            list.remove(0);
        }
        list.push(slot);
    }

    /// How many slots were built since start.
    pub fn built(&self) -> u64 {
        self.built.load(Ordering::Relaxed)
    }
}
