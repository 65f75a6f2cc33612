//! A feed of committed changes. Writers announce what they committed
//! (`Db::notify`, called after the transaction commits, never before); pages
//! that show that data live ([`Db::subscribe`]) refetch when it arrives. It
//! is a convenience for open pages, not a log, and a subscriber that falls
//! behind is told to refetch everything.
//!
//! On SQLite the feed is per process (other processes' commits are seen by
//! polling, [`Db::commit_probe`]). On PostgreSQL it crosses processes: every
//! change is also sent with `NOTIFY` on [`CHANNEL`], and each server's
//! [`CrossProcessFeed`] `LISTEN`s there and puts the other servers' changes
//! into its own feed, so a page served by one server follows a write made
//! through another.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::Db;

/// The PostgreSQL notification channel of the change feed.
pub const CHANNEL: &str = "lexpilot_changes";

/// A change as it travels between servers: with the id of the handle that
/// sent it, so that a server skips its own (it announced them already).
#[derive(Debug, Serialize, Deserialize)]
struct Envelope {
    origin: u64,
    change: Change,
}

/// The data changes committed so far ([`Db::data_changes`]): all of them,
/// and of those the ones of one benchmark ([`Change::benchmark`]) per
/// benchmark, so that a page of one benchmark stays fresh while another's
/// runs are stored
/// ([`Db::data_changes_for`]). One lock keeps the two consistent: a reader
/// never sees a count that went back.
#[derive(Debug, Default)]
pub(crate) struct DataChanges {
    all: u64,
    scoped: HashMap<String, u64>,
}

impl DataChanges {
    /// Counts `change` (a job's progress is none: pages show a job's runs
    /// when they are stored), or, for `None`, a change of unknown scope
    /// (the feed lost changes) that makes every page stale.
    pub(crate) fn count(counts: &Mutex<DataChanges>, change: Option<&Change>) {
        if matches!(change, Some(Change::JobProgress { .. })) {
            return;
        }
        let mut counts = counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.all += 1;
        if let Some(benchmark) = change.and_then(Change::benchmark) {
            *counts.scoped.entry(benchmark.to_owned()).or_default() += 1;
        }
    }
}

/// The task that listens on [`CHANNEL`] for one [`Db`] handle (and its
/// clones); it stops when dropped.
#[derive(Debug)]
pub(crate) struct CrossProcessFeed {
    origin: u64,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for CrossProcessFeed {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl CrossProcessFeed {
    /// Starts listening on the PostgreSQL server at `url`; other handles'
    /// changes go to `changes`, counted in `data_changes` as
    /// [`Db::notify`] counts them. A lost connection is reopened (sqlx's
    /// listener does that), and since changes sent meanwhile are lost, the
    /// feed then counts one data change so that caches start again.
    pub(crate) async fn listen(
        url: &str,
        changes: tokio::sync::broadcast::Sender<Change>,
        data_changes: Arc<Mutex<DataChanges>>,
    ) -> crate::Result<CrossProcessFeed> {
        let origin = rand::random::<u64>();
        let mut listener = sqlx::postgres::PgListener::connect(url).await?;
        listener.listen(CHANNEL).await?;
        let task = tokio::spawn(async move {
            loop {
                match listener.try_recv().await {
                    Ok(Some(note)) => {
                        let Ok(envelope) = serde_json::from_str::<Envelope>(note.payload()) else {
                            tracing::warn!("an unreadable change notification: {}", note.payload());
                            continue;
                        };
                        if envelope.origin == origin {
                            continue;
                        }
                        DataChanges::count(&data_changes, Some(&envelope.change));
                        let _ = changes.send(envelope.change);
                    }
                    Ok(None) => {
                        tracing::warn!("the change feed's connection was lost; reconnecting");
                        DataChanges::count(&data_changes, None);
                    }
                    Err(e) => {
                        tracing::warn!("the change feed stopped: {e}");
                        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                    }
                }
            }
        });
        Ok(CrossProcessFeed { origin, task })
    }
}

/// How many changes a slow subscriber may fall behind before it is told it lagged.
pub const CAPACITY: usize = 64;

/// One committed change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// Runs were stored (or replaced) for a dataset version.
    RunsStored {
        dataset_id: i64,
        /// The benchmark of the dataset (`lexpilot`, `plawbench`, …): pages
        /// of another benchmark need not refetch.
        benchmark: String,
        /// The models of the stored runs.
        models: Vec<String>,
    },
    /// A corrected case made a new dataset version.
    CaseCorrected { dataset_id: i64, case_id: String },
    /// A review item was created, assigned, labelled or adjudicated; 0 when a
    /// batch of items changed at once (creation, auto-assignment). Carries no
    /// label: who may see one is decided when the page refetches.
    ReviewChanged { item_id: i64 },
    /// Articles of law were imported (citations on pages resolve anew).
    StatutesImported { import_id: i64 },
    /// Reference figures of a benchmark were imported (its leaderboards
    /// show them).
    ReferenceImported { benchmark: String },
    /// A benchmark job was created, progressed or changed status. Carries no
    /// settings: the page refetches what its viewer may see.
    JobProgress {
        job_id: i64,
        status: crate::jobs::JobStatus,
    },
}

impl Change {
    /// The name of the server-sent event that carries this change.
    pub fn event_name(&self) -> &'static str {
        match self {
            Self::RunsStored { .. } => "runs",
            Self::CaseCorrected { .. } => "cases",
            Self::ReviewChanged { .. } => "review",
            Self::StatutesImported { .. } => "statutes",
            Self::ReferenceImported { .. } => "reference",
            Self::JobProgress { .. } => "jobs",
        }
    }

    /// The one benchmark whose pages show what this change touched, if it
    /// is one benchmark's: stored runs and reference figures.
    pub fn benchmark(&self) -> Option<&str> {
        match self {
            Self::RunsStored { benchmark, .. } | Self::ReferenceImported { benchmark } => {
                Some(benchmark)
            }
            _ => None,
        }
    }

    /// Whether a page of `benchmark` shows what this change touched: stored
    /// runs or reference figures of another benchmark concern it not; every
    /// other change does.
    pub fn concerns(&self, benchmark: &str) -> bool {
        self.benchmark().is_none_or(|of| of == benchmark)
    }
}

impl Db {
    /// A receiver of every change committed from now on.
    pub fn subscribe(&self) -> tokio::sync::broadcast::Receiver<Change> {
        self.changes.subscribe()
    }

    /// Announces a committed change, to this process's pages and, on
    /// PostgreSQL, to every other server's. Having no subscriber is not an
    /// error; nor is a notification that cannot be sent (it is logged: the
    /// other servers' pages then catch up on their next change).
    pub(crate) fn notify(&self, change: Change) {
        DataChanges::count(&self.data_changes, Some(&change));
        if let Some(feed) = &self.feed {
            let envelope = Envelope {
                origin: feed.origin,
                change: change.clone(),
            };
            if let Ok(payload) = serde_json::to_string(&envelope) {
                let pool = self.pool.clone();
                tokio::spawn(async move {
                    let sent = sqlx::query("SELECT pg_notify($1, $2)")
                        .bind(CHANNEL)
                        .bind(payload)
                        .execute(&pool)
                        .await;
                    if let Err(e) = sent {
                        tracing::warn!("a change was not sent to the other servers: {e}");
                    }
                });
            }
        }
        let _ = self.changes.send(change);
    }

    /// How many changes of the stored data (runs, cases, review; not a job's
    /// progress) were committed through this handle and its clones. It goes
    /// up before the writer returns, so a cache keyed on it is stale for
    /// every request that comes after the write.
    pub fn data_changes(&self) -> u64 {
        self.data_changes_for(None)
    }

    /// The changes a page of `benchmark` shows (`None`: a page of every
    /// benchmark): every change but the ones of other benchmarks (their
    /// stored runs and reference figures).
    /// Never goes down; like [`Db::data_changes`] it goes up before the
    /// writer returns.
    pub fn data_changes_for(&self, benchmark: Option<&str>) -> u64 {
        let counts = self.data_changes.lock().unwrap_or_else(|e| e.into_inner());
        let others: u64 = match benchmark {
            None => 0,
            Some(b) => counts
                .scoped
                .iter()
                .filter(|(of, _)| of.as_str() != b)
                .map(|(_, n)| n)
                .sum(),
        };
        counts.all - others
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(benchmark: &str) -> Change {
        Change::RunsStored {
            dataset_id: 1,
            benchmark: benchmark.to_owned(),
            models: vec!["m".to_owned()],
        }
    }

    /// Every scope's count, in the order lexpilot, plawbench, dlawbench,
    /// every benchmark.
    fn counts(db: &Db) -> [u64; 4] {
        [
            db.data_changes_for(Some("lexpilot")),
            db.data_changes_for(Some("plawbench")),
            db.data_changes_for(Some("dlawbench")),
            db.data_changes(),
        ]
    }

    #[tokio::test]
    async fn a_benchmark_s_pages_count_its_changes_and_the_shared_ones_only() {
        let db = Db::open_in_memory().await.expect("db");
        assert_eq!(counts(&db), [0, 0, 0, 0]);
        db.notify(runs("plawbench"));
        assert_eq!(counts(&db), [0, 1, 0, 1]);
        db.notify(Change::ReferenceImported {
            benchmark: "lexpilot".to_owned(),
        });
        assert_eq!(counts(&db), [1, 1, 0, 2]);
        // A review or a correction shows on every benchmark's pages.
        db.notify(Change::ReviewChanged { item_id: 3 });
        assert_eq!(counts(&db), [2, 2, 1, 3]);
        // A job's progress is no change of the data pages show.
        db.notify(Change::JobProgress {
            job_id: 1,
            status: crate::jobs::JobStatus::Running,
        });
        assert_eq!(counts(&db), [2, 2, 1, 3]);
        db.notify(runs("dlawbench"));
        db.notify(runs("dlawbench"));
        assert_eq!(counts(&db), [2, 2, 3, 5]);
    }
}
