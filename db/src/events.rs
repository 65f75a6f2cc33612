//! A feed of committed changes. Writers announce what they committed
//! (`Db::notify`, called after the transaction commits, never before); pages
//! that show that data live ([`Db::subscribe`]) refetch when it arrives. It
//! is a convenience for open pages, not a log, and a subscriber that falls
//! behind is told to refetch everything.
//!
//! The feed crosses processes, so a page served by one process follows a
//! write made through another (the command line, another server), scoped
//! as the writer announced it:
//! - on PostgreSQL every change is also sent with `NOTIFY` on [`CHANNEL`],
//!   and each server's [`CrossProcessFeed`] `LISTEN`s there;
//! - on a SQLite file every data change is also appended to the table
//!   `change_log`, and each process's feed reads the rows other handles
//!   appended whenever `PRAGMA data_version` moved (checked every [`POLL`]).
//!
//! Either way a handle skips its own changes (it announced them already), so
//! a process's own writes never look like someone else's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sqlx::AnyPool;

use crate::{Backend, Db};

/// How often a process on a SQLite file looks for changes other processes
/// appended to the change log.
pub const POLL: Duration = Duration::from_millis(250);

/// How many rows of the SQLite change log are kept: far more than any
/// process falls behind in one [`POLL`].
const LOG_KEPT: i64 = 4096;

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

/// The task that brings other processes' changes into one [`Db`] handle's
/// feed (and its clones'), and the handle's origin id in the changes it
/// sends them; it stops when dropped.
#[derive(Debug)]
pub(crate) struct CrossProcessFeed {
    origin: u64,
    backend: Backend,
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
        let origin = new_origin();
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
        Ok(CrossProcessFeed {
            origin,
            backend: Backend::Postgres,
            task,
        })
    }

    /// Starts reading the change log of the SQLite file `pool` is on: every
    /// [`POLL`], when another connection committed since the last look
    /// (`PRAGMA data_version`, on a connection of its own), the rows
    /// appended since go, but this handle's own, to `changes`, counted in
    /// `data_changes`. Rows that were pruned before they were read, or a
    /// log that cannot be read, count as one change of unknown scope.
    pub(crate) async fn poll(
        pool: &AnyPool,
        changes: tokio::sync::broadcast::Sender<Change>,
        data_changes: Arc<Mutex<DataChanges>>,
    ) -> crate::Result<CrossProcessFeed> {
        let origin = new_origin();
        let mut conn = pool.acquire().await?.detach();
        let mut last: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM change_log")
            .fetch_one(&mut conn)
            .await?;
        let task = tokio::spawn(async move {
            let mut version = None;
            let mut failing = false;
            let mut tick = tokio::time::interval(POLL);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let rows = match appended(&mut conn, &mut version, last).await {
                    Ok(rows) => {
                        failing = false;
                        rows
                    }
                    Err(e) => {
                        if !failing {
                            tracing::warn!("other processes' changes cannot be read: {e}");
                            DataChanges::count(&data_changes, None);
                        }
                        failing = true;
                        continue;
                    }
                };
                for (seq, from, text) in rows {
                    if seq != last + 1 {
                        DataChanges::count(&data_changes, None);
                    }
                    last = seq;
                    if from == origin as i64 {
                        continue;
                    }
                    match serde_json::from_str::<Change>(&text) {
                        Ok(change) => {
                            DataChanges::count(&data_changes, Some(&change));
                            let _ = changes.send(change);
                        }
                        Err(_) => {
                            tracing::warn!("an unreadable change in the log: {text}");
                            DataChanges::count(&data_changes, None);
                        }
                    }
                }
            }
        });
        Ok(CrossProcessFeed {
            origin,
            backend: Backend::Sqlite,
            task,
        })
    }

    /// Passes `change`, committed through this handle, to the other
    /// processes; a failure is logged, not returned (the change is
    /// committed; other processes' pages catch up on their next change).
    async fn send(&self, pool: &AnyPool, change: &Change) {
        let sent = match self.backend {
            Backend::Postgres => {
                let envelope = Envelope {
                    origin: self.origin,
                    change: change.clone(),
                };
                let Ok(payload) = serde_json::to_string(&envelope) else {
                    return;
                };
                sqlx::query("SELECT pg_notify($1, $2)")
                    .bind(CHANNEL)
                    .bind(payload)
                    .execute(pool)
                    .await
                    .map(drop)
            }
            // A job's progress stays in the process that runs the job.
            Backend::Sqlite if matches!(change, Change::JobProgress { .. }) => Ok(()),
            Backend::Sqlite => append(pool, self.origin, change).await,
        };
        if let Err(e) = sent {
            tracing::warn!("a change was not passed to the other processes: {e}");
        }
    }
}

/// A handle's origin id: random, and positive as a signed 64-bit integer
/// (the change log's column).
fn new_origin() -> u64 {
    rand::random::<u64>() >> 1
}

/// The change log's rows after `last` (seq, origin, change), if another
/// connection committed since `version` was read (which it updates).
async fn appended(
    conn: &mut sqlx::AnyConnection,
    version: &mut Option<i64>,
    last: i64,
) -> sqlx::Result<Vec<(i64, i64, String)>> {
    let now: i64 = sqlx::query_scalar("PRAGMA data_version")
        .fetch_one(&mut *conn)
        .await?;
    if *version == Some(now) {
        return Ok(Vec::new());
    }
    let rows =
        sqlx::query_as("SELECT seq, origin, change FROM change_log WHERE seq > $1 ORDER BY seq")
            .bind(last)
            .fetch_all(&mut *conn)
            .await?;
    *version = Some(now);
    Ok(rows)
}

/// Appends `change` to the SQLite change log as `origin`'s, now and then
/// dropping the rows older than the newest [`LOG_KEPT`].
async fn append(pool: &AnyPool, origin: u64, change: &Change) -> sqlx::Result<()> {
    let text = serde_json::to_string(change).unwrap_or_default();
    let seq: i64 =
        sqlx::query_scalar("INSERT INTO change_log (origin, change) VALUES ($1, $2) RETURNING seq")
            .bind(origin as i64)
            .bind(text)
            .fetch_one(pool)
            .await?;
    if seq % 256 == 0 {
        sqlx::query("DELETE FROM change_log WHERE seq <= $1")
            .bind(seq - LOG_KEPT)
            .execute(pool)
            .await?;
    }
    Ok(())
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
    /// A dataset version was imported (pages of its benchmark show it).
    DatasetImported { dataset_id: i64, benchmark: String },
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
            Self::DatasetImported { .. } => "datasets",
            Self::CaseCorrected { .. } => "cases",
            Self::ReviewChanged { .. } => "review",
            Self::StatutesImported { .. } => "statutes",
            Self::ReferenceImported { .. } => "reference",
            Self::JobProgress { .. } => "jobs",
        }
    }

    /// The one benchmark whose pages show what this change touched, if it
    /// is one benchmark's: stored runs, a dataset version, reference figures.
    pub fn benchmark(&self) -> Option<&str> {
        match self {
            Self::RunsStored { benchmark, .. }
            | Self::DatasetImported { benchmark, .. }
            | Self::ReferenceImported { benchmark } => Some(benchmark),
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

    /// Announces a committed change, to this process's pages and to every
    /// other process's on the same database (returning once it is passed
    /// on, so that a command that exits next has announced its changes).
    /// Having no subscriber is not an error; nor is a change that cannot be
    /// passed on (it is logged: the other processes' pages then catch up on
    /// their next change).
    pub(crate) async fn notify(&self, change: Change) {
        DataChanges::count(&self.data_changes, Some(&change));
        if let Some(feed) = &self.feed {
            feed.send(&self.pool, &change).await;
        }
        let _ = self.changes.send(change);
    }

    /// How many changes of the stored data (runs, cases, review; not a job's
    /// progress) were committed through this handle and its clones, or came
    /// from other processes through the feed. It goes up before the writer
    /// returns, so a cache keyed on it is stale for every request that
    /// comes after the write.
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
        db.notify(runs("plawbench")).await;
        assert_eq!(counts(&db), [0, 1, 0, 1]);
        db.notify(Change::ReferenceImported {
            benchmark: "lexpilot".to_owned(),
        })
        .await;
        assert_eq!(counts(&db), [1, 1, 0, 2]);
        // A review or a correction shows on every benchmark's pages.
        db.notify(Change::ReviewChanged { item_id: 3 }).await;
        assert_eq!(counts(&db), [2, 2, 1, 3]);
        // A job's progress is no change of the data pages show.
        db.notify(Change::JobProgress {
            job_id: 1,
            status: crate::jobs::JobStatus::Running,
        })
        .await;
        assert_eq!(counts(&db), [2, 2, 1, 3]);
        db.notify(runs("dlawbench")).await;
        db.notify(runs("dlawbench")).await;
        assert_eq!(counts(&db), [2, 2, 3, 5]);
    }

    /// Polls until `holds` of `db`'s counts, for at most two seconds.
    async fn counts_when(db: &Db, holds: impl Fn([u64; 4]) -> bool) -> [u64; 4] {
        let deadline = std::time::Instant::now() + Duration::from_secs(2);
        loop {
            let now = counts(db);
            if holds(now) || std::time::Instant::now() > deadline {
                return now;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    #[tokio::test]
    async fn another_process_s_changes_arrive_scoped_and_a_process_s_own_do_not_come_back() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("shared.db");
        // Two handles on one file stand for two processes: each has its
        // own pool, feed and origin.
        let a = Db::open(&file).await.expect("a");
        let b = Db::open(&file).await.expect("b");
        let mut b_feed = b.subscribe();

        a.notify(runs("plawbench")).await;
        assert_eq!(counts(&a), [0, 1, 0, 1]);
        let seen = counts_when(&b, |c| c != [0, 0, 0, 0]).await;
        assert_eq!(
            seen,
            [0, 1, 0, 1],
            "B counts A's PLawBench runs as PLawBench's"
        );
        assert_eq!(b_feed.recv().await.expect("event"), runs("plawbench"));

        // Several polls later A has not counted its own change again: its
        // LexPilot pages stay cached (before the change log, SQLite's
        // data_version moved every page's epoch after any write).
        tokio::time::sleep(POLL * 3).await;
        assert_eq!(counts(&a), [0, 1, 0, 1]);
        assert_eq!(counts(&b), [0, 1, 0, 1]);

        // A change that concerns every benchmark, from B to A.
        b.notify(Change::ReviewChanged { item_id: 7 }).await;
        let seen = counts_when(&a, |c| c[3] == 2).await;
        assert_eq!(seen, [1, 2, 1, 2]);
        // A dataset of one benchmark is that benchmark's change.
        crate::datasets::announce(&b, 1, engine::benchmark::Benchmark::Dlawbench).await;
        let seen = counts_when(&a, |c| c[3] == 3).await;
        assert_eq!(seen, [1, 2, 2, 3]);
        tokio::time::sleep(POLL * 2).await;
        assert_eq!(counts(&b), [1, 2, 2, 3], "B's own changes counted once");

        // A job's progress stays in its process.
        a.notify(Change::JobProgress {
            job_id: 1,
            status: crate::jobs::JobStatus::Running,
        })
        .await;
        let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM change_log")
            .fetch_one(a.pool())
            .await
            .expect("count");
        assert_eq!(rows, 3);
    }
}
