//! LexPilot Workbench storage: one SQLite file through sqlx (WAL, foreign
//! keys on), created and migrated on open. SQL only: every query lives in a
//! named function in the module of the entity it concerns, and maps rows to
//! the engine's types; rules and scoring are the engine's. Writes that belong
//! together share a transaction, which takes the write lock when it starts
//! (`BEGIN IMMEDIATE`); a lock held too long is [`DbError::Busy`]. Depends on
//! `engine` for the domain types, never on the UI or the runtime.
//!
//! - [`datasets`]: dataset versions (with their benchmark) and their import.
//! - [`cases`]: LexPilot's filtered, paged case listing, single-case reads,
//!   and the handle's bounded cache of parsed versions.
//! - [`items`]: the same for the items of the other benchmarks' datasets.
//! - [`runs`]: runs stored once, scored on every version they are linked to;
//!   the generation counter caches of derived figures are keyed by.
//! - [`review`]: expert review by entity: items, assignments, labels,
//!   adjudication, dashboard and export queries.
//! - [`revisions`]: corrections of cases as revisions, each a new dataset
//!   version with the runs re-scored (by the caller) and linked.
//! - [`targeted`]: results of the Targeted vs Off-target experiment
//!   (Table 4), beside the runs and bumping the same generation.
//! - [`users`]: accounts with argon2 password hashes.
//! - [`sessions`]: server-side sessions and sign-in throttling.
//! - [`tokens`]: API tokens for scripts.
//! - [`statutes`]: the imported articles of Chinese law, and reading a
//!   statute package's SQLite file.
//! - [`jobs`]: benchmark endpoints and jobs started from the browser.
//! - [`events`]: a feed of committed changes, for pages that update live.

pub mod cases;
pub mod datasets;
pub mod events;
pub mod fidelity;
pub mod items;
pub mod jobs;
pub mod review;
pub mod revisions;
pub mod runs;
pub mod sessions;
pub mod statutes;
pub mod targeted;
pub mod tokens;
pub mod users;

use std::path::Path;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

/// The error of this layer. `NotFound` and `Conflict` carry a message fit for a
/// user; the others are internal and are logged, not shown.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// The account may not do this to this record (its role may in general).
    #[error("{0}")]
    Forbidden(String),
    #[error("invalid: {0}")]
    Invalid(String),
    /// Another writer held the database for longer than the busy timeout (or
    /// every pooled connection was in use): nothing was written, and the same
    /// request may simply be sent again.
    #[error("the database is busy; try again in a moment")]
    Busy(#[source] sqlx::Error),
    #[error("database error: {0}")]
    Sqlx(#[source] sqlx::Error),
    #[error("migration error: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

pub type Result<T, E = DbError> = std::result::Result<T, E>;

/// sqlx's error, as [`DbError`] carries it (for callers that match on it
/// without depending on sqlx).
pub use sqlx::Error as SqlxError;

impl From<sqlx::Error> for DbError {
    fn from(e: sqlx::Error) -> Self {
        if is_busy(&e) {
            DbError::Busy(e)
        } else {
            DbError::Sqlx(e)
        }
    }
}

/// Whether `e` says the database was locked by another writer (SQLite's
/// `SQLITE_BUSY` and `SQLITE_LOCKED` with their extended codes) or that no
/// pooled connection came free in time.
fn is_busy(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut => true,
        sqlx::Error::Database(d) => d
            .code()
            .and_then(|code| code.parse::<i32>().ok())
            .is_some_and(|code| matches!(code & 0xff, 5 | 6)),
        _ => false,
    }
}

/// How many dataset versions' parsed cases a handle keeps.
pub const CASE_CACHE_VERSIONS: usize = 4;

/// A dataset version's id and content hash.
type CaseKey = (i64, String);

/// The parsed cases (or items) of recently read versions, least recently
/// used first; each holds an `Arc<Vec<T>>` of its benchmark's case type.
type CaseCache = Vec<(CaseKey, Arc<dyn std::any::Any + Send + Sync>)>;

/// A handle on the database: cheap to clone, one pool per process.
#[derive(Debug, Clone)]
pub struct Db {
    pool: SqlitePool,
    /// The parsed cases of the dataset versions read last, by (id, content
    /// hash). A version never changes once imported (a change is a new
    /// version), so an entry never goes stale; at most [`CASE_CACHE_VERSIONS`]
    /// are kept, the least recently used leaving first.
    cases: Arc<Mutex<CaseCache>>,
    /// Changes committed through this handle (and its clones), for live pages.
    changes: tokio::sync::broadcast::Sender<events::Change>,
    /// How many changes of the data were announced ([`Db::data_changes`]).
    data_changes: Arc<std::sync::atomic::AtomicU64>,
    /// A file other processes may write to (not a private in-memory database).
    shared: bool,
}

impl Db {
    /// Opens (creating if needed) the SQLite file at `path` and applies pending migrations.
    pub async fn open(path: &Path) -> Result<Db> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        Self::connect(options, 8, true).await
    }

    /// Opens a private in-memory database (one connection), for tests and tools.
    pub async fn open_in_memory() -> Result<Db> {
        let options = SqliteConnectOptions::from_str("sqlite::memory:")?.foreign_keys(true);
        Self::connect(options, 1, false).await
    }

    async fn connect(options: SqliteConnectOptions, max: u32, shared: bool) -> Result<Db> {
        let pool = SqlitePoolOptions::new()
            .max_connections(max)
            .connect_with(options)
            .await?;
        sqlx::migrate!("../migrations").run(&pool).await?;
        Ok(Db {
            pool,
            cases: Arc::default(),
            changes: tokio::sync::broadcast::channel(events::CAPACITY).0,
            data_changes: Arc::default(),
            shared,
        })
    }

    /// A probe of commits made by any other connection to the database file
    /// (another process, such as the command line, or another pooled
    /// connection), on a connection of its own; `None` for a private
    /// in-memory database, which nothing else can write.
    pub async fn commit_probe(&self) -> Result<Option<CommitProbe>> {
        if !self.shared {
            return Ok(None);
        }
        let conn = self.pool.acquire().await?.detach();
        Ok(Some(CommitProbe { conn, last: None }))
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    fn cached_cases<T: Send + Sync + 'static>(&self, key: &CaseKey) -> Option<Arc<Vec<T>>> {
        let mut cache = self.cases.lock().ok()?;
        let at = cache.iter().position(|(k, _)| k == key)?;
        let hit = cache.remove(at);
        let cases = Arc::clone(&hit.1);
        cache.push(hit);
        cases.downcast::<Vec<T>>().ok()
    }

    fn cache_cases<T: Send + Sync + 'static>(&self, key: CaseKey, cases: Arc<Vec<T>>) {
        if let Ok(mut cache) = self.cases.lock() {
            cache.retain(|(k, _)| *k != key);
            if cache.len() >= CASE_CACHE_VERSIONS {
                cache.remove(0);
            }
            cache.push((key, cases));
        }
    }
}

/// See [`Db::commit_probe`].
#[derive(Debug)]
pub struct CommitProbe {
    conn: sqlx::SqliteConnection,
    last: Option<i64>,
}

impl CommitProbe {
    /// Whether another connection committed since the last call (never on
    /// the first). SQLite's `PRAGMA data_version` tells, reading only the
    /// shared index of the write-ahead log.
    pub async fn changed(&mut self) -> Result<bool> {
        let version: i64 = sqlx::query_scalar("PRAGMA data_version")
            .fetch_one(&mut self.conn)
            .await?;
        let changed = self.last.is_some_and(|last| last != version);
        self.last = Some(version);
        Ok(changed)
    }
}

/// A transaction that takes SQLite's write lock at its start (`BEGIN
/// IMMEDIATE`, waiting up to the busy timeout for another writer), so that
/// nothing it reads can change before it commits: for writes decided by what
/// they read first (a correction against a revision, an adjudication that
/// applies one).
pub(crate) async fn begin_write(db: &Db) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>> {
    Ok(db.pool.begin_with("BEGIN IMMEDIATE").await?)
}

/// The current time as stored: RFC 3339 UTC with seconds.
pub(crate) fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}
