//! LexPilot Workbench storage: one SQLite file (WAL, foreign keys on) or a
//! PostgreSQL database, through sqlx's Any driver, created and migrated on
//! open. SQL only: every query lives in a named function in the module of
//! the entity it concerns, written once with `$N` placeholders (both
//! dialects read them), and maps rows to the engine's types; rules and
//! scoring are the engine's. Writes that belong together share a
//! transaction; those decided by what they read first take the write lock
//! when they start (`begin_write`); a lock held too long is
//! [`DbError::Busy`]. Depends on `engine` for the domain types, never on the
//! UI or the runtime.
//!
//! - [`datasets`]: dataset versions (with their benchmark) and their import.
//! - [`cases`]: LexPilot's filtered, paged case listing, single-case reads,
//!   and the handle's bounded cache of parsed versions.
//! - [`items`]: the same for the items of the other benchmarks' datasets.
//! - [`runs`]: runs stored once, scored on every version they are linked to;
//!   the generation counter caches of derived figures are keyed by.
//! - [`generations`]: the same counter scoped to a dataset version and to
//!   one model's runs on it.
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
//! - [`copy`]: every table of one database copied into another, empty one
//!   (SQLite and PostgreSQL either way), and two compared row by row.

pub mod cases;
pub mod copy;
pub mod datasets;
pub mod events;
pub mod fidelity;
pub mod generations;
pub mod items;
pub mod jobs;
pub mod reference;
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
use std::sync::{Arc, Mutex, Once};

use sqlx::any::{AnyArguments, AnyConnectOptions, AnyPoolOptions};
use sqlx::{Any, AnyPool, Arguments, Encode, Executor, Type};

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
/// `SQLITE_BUSY` and `SQLITE_LOCKED` with their extended codes; PostgreSQL's
/// lock timeout, serialization failure and deadlock) or that no pooled
/// connection came free in time.
fn is_busy(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut => true,
        sqlx::Error::Database(d) => d.code().is_some_and(|code| match code.parse::<i32>() {
            Ok(sqlite) => matches!(sqlite & 0xff, 5 | 6),
            Err(_) => matches!(&*code, "55P03" | "40001" | "40P01"),
        }),
        _ => false,
    }
}

/// `location` (a `--db` value) as it may be shown: a URL's password
/// replaced by `***`.
pub fn shown(location: &Path) -> String {
    let text = location.to_string_lossy();
    match url::Url::parse(&text) {
        Ok(mut url) if Backend::of(&text) == Backend::Postgres && url.password().is_some() => {
            let _ = url.set_password(Some("***"));
            url.to_string()
        }
        _ => text.into_owned(),
    }
}

/// Which database a [`Db`] is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The backend a `--db` value names: a `postgres://` (or
    /// `postgresql://`) URL, or else a SQLite file path.
    pub fn of(location: &str) -> Backend {
        if location.starts_with("postgres://") || location.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
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
    pool: AnyPool,
    backend: Backend,
    /// The parsed cases of the dataset versions read last, by (id, content
    /// hash). A version never changes once imported (a change is a new
    /// version), so an entry never goes stale; at most [`CASE_CACHE_VERSIONS`]
    /// are kept, the least recently used leaving first.
    cases: Arc<Mutex<CaseCache>>,
    /// Changes committed through this handle (and its clones), for live pages.
    changes: tokio::sync::broadcast::Sender<events::Change>,
    /// How many changes of the data were announced ([`Db::data_changes`]).
    data_changes: Arc<std::sync::Mutex<events::DataChanges>>,
    /// The task that carries other processes' changes into this handle's
    /// feed, and this handle's origin id in the changes it sends them
    /// (stopped when the last clone of the handle goes); none for a private
    /// in-memory database, which nothing else can write.
    feed: Option<Arc<events::CrossProcessFeed>>,
}

impl Db {
    /// Opens the database at `location` and applies pending migrations: a
    /// `postgres://` URL, or else the path of a SQLite file (created if
    /// missing).
    pub async fn open(location: &Path) -> Result<Db> {
        let text = location.to_str().unwrap_or_default();
        match Backend::of(text) {
            Backend::Postgres => Self::connect(text, Backend::Postgres, 16, true).await,
            Backend::Sqlite => {
                let url = sqlite_url(location)?;
                Self::connect(&url, Backend::Sqlite, 8, true).await
            }
        }
    }

    /// Opens a private in-memory SQLite database (one connection), for
    /// tests and tools.
    pub async fn open_in_memory() -> Result<Db> {
        Self::connect("sqlite::memory:", Backend::Sqlite, 1, false).await
    }

    async fn connect(url: &str, backend: Backend, max: u32, shared: bool) -> Result<Db> {
        static DRIVERS: Once = Once::new();
        DRIVERS.call_once(sqlx::any::install_default_drivers);
        let options = AnyConnectOptions::from_str(url)?;
        let pool = AnyPoolOptions::new()
            .max_connections(max)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL lets readers go on while one writer commits;
                        // NORMAL syncs at checkpoints, which WAL makes safe.
                        // (Foreign keys and the 5 s busy timeout are sqlx's
                        // defaults for every SQLite connection.)
                        conn.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        match backend {
            Backend::Sqlite => sqlx::migrate!("../migrations/sqlite").run(&pool).await?,
            Backend::Postgres => sqlx::migrate!("../migrations/postgres").run(&pool).await?,
        }
        let changes = tokio::sync::broadcast::channel(events::CAPACITY).0;
        let data_changes = Arc::default();
        let feed = match backend {
            Backend::Postgres => Some(Arc::new(
                events::CrossProcessFeed::listen(url, changes.clone(), Arc::clone(&data_changes))
                    .await?,
            )),
            Backend::Sqlite if shared => Some(Arc::new(
                events::CrossProcessFeed::poll(&pool, changes.clone(), Arc::clone(&data_changes))
                    .await?,
            )),
            Backend::Sqlite => None,
        };
        Ok(Db {
            pool,
            backend,
            cases: Arc::default(),
            changes,
            data_changes,
            feed,
        })
    }

    /// A fresh, migrated, empty database for a test: a new database on the
    /// PostgreSQL server [`TEST_PG_ENV`] names when that is set, else the
    /// SQLite file `sqlite` (created), else a private in-memory one. Running
    /// the same tests with and without the variable runs them on both
    /// backends.
    #[doc(hidden)]
    pub async fn open_for_test(sqlite: Option<&Path>) -> Result<Db> {
        match (test_server(), sqlite) {
            (Some(server), _) => Db::open(Path::new(&fresh_pg_database(&server).await?)).await,
            (None, Some(path)) => Db::open(path).await,
            (None, None) => Db::open_in_memory().await,
        }
    }

    /// Where a test's fresh database is, as `--db` takes it: a new database
    /// on [`TEST_PG_ENV`]'s server when that is set, else `sqlite`.
    #[doc(hidden)]
    pub async fn location_for_test(sqlite: &Path) -> Result<String> {
        match test_server() {
            Some(server) => fresh_pg_database(&server).await,
            None => Ok(sqlite.to_string_lossy().into_owned()),
        }
    }

    /// Which database this is on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub fn pool(&self) -> &AnyPool {
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

/// A transaction that holds the database's write lock from its start, so
/// that nothing it reads can change before it commits: for writes decided by
/// what they read first (a correction against a revision, an adjudication
/// that applies one). On SQLite that is `BEGIN IMMEDIATE` (waiting up to the
/// busy timeout for another writer); on PostgreSQL a transaction-scoped
/// advisory lock that every such transaction takes, on whichever server.
pub(crate) async fn begin_write(db: &Db) -> Result<sqlx::Transaction<'static, Any>> {
    match db.backend {
        Backend::Sqlite => Ok(db.pool.begin_with("BEGIN IMMEDIATE").await?),
        Backend::Postgres => {
            let mut tx = db.pool.begin().await?;
            tx.execute("SET LOCAL lock_timeout = '5s'").await?;
            tx.execute("SELECT pg_advisory_xact_lock(7010)").await?;
            Ok(tx)
        }
    }
}

/// Appends ` AND` a case-insensitive (ASCII-folded) substring test of
/// `column` for `term`, the meaning the engine's filters give `q`. SQLite
/// tests with `instr`; PostgreSQL with `LIKE` on the ASCII-folded column, the
/// expression its trigram index (`*_search_trgm`) serves, so that a
/// Chinese search reads the index instead of every row.
pub(crate) fn push_search(sql: &mut Sql<'_>, backend: Backend, column: &str, term: &str) {
    match backend {
        Backend::Sqlite => {
            sql.push(&format!(" AND instr(lower({column}), lower("))
                .bind(term.to_owned())
                .push(")) > 0");
        }
        Backend::Postgres => {
            let mut pattern = String::with_capacity(term.len() + 2);
            pattern.push('%');
            for c in term.chars() {
                if matches!(c, '%' | '_' | '\\') {
                    pattern.push('\\');
                }
                pattern.push(c.to_ascii_lowercase());
            }
            pattern.push('%');
            sql.push(&format!(" AND {} LIKE ", ascii_lower(column)))
                .bind(pattern)
                .push(" ESCAPE '\\'");
        }
    }
}

/// PostgreSQL's expression for `column` with ASCII letters lowered and
/// nothing else changed (its `lower()` would fold other scripts too, which
/// SQLite's and the engine's filters do not).
pub(crate) fn ascii_lower(column: &str) -> String {
    format!("translate({column}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')")
}

/// A stored yes/no: an INTEGER 0/1 on SQLite, a BOOLEAN on PostgreSQL,
/// read as either (the Any driver decodes `bool` from a boolean only). Bind
/// a plain `bool`, which both take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag(pub bool);

impl From<Flag> for bool {
    fn from(flag: Flag) -> bool {
        flag.0
    }
}

impl Type<Any> for Flag {
    fn type_info() -> sqlx::any::AnyTypeInfo {
        <bool as Type<Any>>::type_info()
    }

    fn compatible(ty: &sqlx::any::AnyTypeInfo) -> bool {
        <bool as Type<Any>>::compatible(ty) || <i64 as Type<Any>>::compatible(ty)
    }
}

impl<'r> sqlx::Decode<'r, Any> for Flag {
    fn decode(value: sqlx::any::AnyValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        match <bool as sqlx::Decode<Any>>::decode(value.clone()) {
            Ok(b) => Ok(Flag(b)),
            Err(_) => <i64 as sqlx::Decode<Any>>::decode(value).map(|n| Flag(n != 0)),
        }
    }
}

/// The variable that points tests at a PostgreSQL server (a `postgres://`
/// URL whose user may create databases); see [`Db::open_for_test`].
pub const TEST_PG_ENV: &str = "LEXPILOT_TEST_PG";

fn test_server() -> Option<String> {
    std::env::var(TEST_PG_ENV)
        .ok()
        .filter(|url| !url.is_empty())
}

/// Creates a new, empty database on the PostgreSQL server at `server` and
/// returns its URL (the server's with the database name replaced).
async fn fresh_pg_database(server: &str) -> Result<String> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    let name = format!(
        "lexpilot_test_{}_{}_{nanos}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let mut url = url::Url::parse(server)
        .map_err(|e| DbError::Invalid(format!("{TEST_PG_ENV} is not a URL: {e}")))?;
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(server).await?;
    // Test processes run one after another and leave their databases; the
    // first database a process makes drops those of processes that are gone
    // (each is about 10 MB, and a full pass makes some 200).
    static SWEPT: tokio::sync::OnceCell<()> = tokio::sync::OnceCell::const_new();
    SWEPT
        .get_or_init(|| async {
            let names: Vec<String> = sqlx::query_scalar(
                "SELECT datname::text FROM pg_database WHERE datname LIKE 'lexpilot_test_%'",
            )
            .fetch_all(&mut conn)
            .await
            .unwrap_or_default();
            for old in names {
                let pid = old.split('_').nth(2).unwrap_or_default();
                if !Path::new("/proc").join(pid).exists() {
                    let _ = conn
                        .execute(&*format!("DROP DATABASE IF EXISTS {old} WITH (FORCE)"))
                        .await;
                }
            }
        })
        .await;
    conn.execute(&*format!("CREATE DATABASE {name}")).await?;
    sqlx::Connection::close(conn).await?;
    url.set_path(&name);
    Ok(url.to_string())
}

/// The `sqlite://` URL of the file at `path`, created if missing.
fn sqlite_url(path: &Path) -> Result<String> {
    let text = path.to_str().ok_or_else(|| {
        DbError::Invalid(format!("the database path {} is not UTF-8", path.display()))
    })?;
    let encoded: String = text
        .chars()
        .map(|c| match c {
            '%' | '?' | '#' => format!("%{:02X}", c as u32),
            c => c.to_string(),
        })
        .collect();
    Ok(format!("sqlite://{encoded}?mode=rwc"))
}

/// SQL with numbered placeholders (`$1`, `$2`, …, which both SQLite and
/// PostgreSQL read) and their arguments, built piece by piece: for queries
/// whose conditions depend on a filter.
pub(crate) struct Sql<'q> {
    pub(crate) text: String,
    pub(crate) args: AnyArguments<'q>,
    count: usize,
}

impl<'q> Sql<'q> {
    pub(crate) fn new(text: &str) -> Self {
        Sql {
            text: text.to_owned(),
            args: AnyArguments::default(),
            count: 0,
        }
    }

    pub(crate) fn push(&mut self, text: &str) -> &mut Self {
        self.text.push_str(text);
        self
    }

    /// Appends the next placeholder, bound to `value`.
    pub(crate) fn bind<T: Encode<'q, Any> + Type<Any> + 'q>(&mut self, value: T) -> &mut Self {
        self.count += 1;
        self.text.push_str(&format!("${}", self.count));
        // Encoding into the Any driver's buffer only moves the value: the
        // types bound here (integers, text) cannot fail.
        self.args
            .add(value)
            .expect("an integer or text binds to the Any driver");
        self
    }
}

/// The current time as stored: RFC 3339 UTC with seconds.
pub(crate) fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shown_url_hides_its_password_only() {
        let shown = |s: &str| shown(Path::new(s));
        assert_eq!(
            shown("postgres://lab:s3cr@t:x@db.lab:5432/lexpilot?sslmode=require"),
            "postgres://lab:***@db.lab:5432/lexpilot?sslmode=require"
        );
        assert_eq!(
            shown("postgres://lab@db/lexpilot"),
            "postgres://lab@db/lexpilot"
        );
        assert_eq!(shown("data/lexpilot:1.db"), "data/lexpilot:1.db");
        assert_eq!(Backend::of("postgresql://x/y"), Backend::Postgres);
        assert_eq!(Backend::of("postgres.db"), Backend::Sqlite);
    }

    #[test]
    fn sqlite_urls_keep_odd_file_names() {
        assert_eq!(
            sqlite_url(Path::new("/tmp/a b?#%.db")).expect("url"),
            "sqlite:///tmp/a b%3F%23%25.db?mode=rwc"
        );
    }

    #[tokio::test]
    async fn a_sqlite_file_opens_under_an_odd_name_and_in_wal_mode() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("实验 #1?.db");
        let db = Db::open(&path).await.expect("opens");
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(db.pool())
            .await
            .expect("mode");
        assert_eq!(mode, "wal");
        let keys: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
            .fetch_one(db.pool())
            .await
            .expect("keys");
        assert_eq!(keys, 1);
        assert!(path.exists(), "the file is where it was named");
    }
}
