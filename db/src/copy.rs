//! Moving a deployment from one database to another (`lexpilot db copy`),
//! SQLite and PostgreSQL either way, and comparing two of them row by row
//! (`lexpilot db verify`).
//!
//! Nothing here names a table: the application tables, their columns,
//! primary keys and foreign keys are read from each database's catalog
//! (sqlx's `_sqlx_migrations` and the engines' own tables left out), so a
//! table or column a migration adds is copied and compared with no change
//! here. Tables are copied parents first (a topological order of their
//! foreign keys), columns by name, each value converted to the target
//! column's type: a yes/no flag is an INTEGER 0/1 on SQLite and a BOOLEAN on
//! PostgreSQL; integers, reals, text, blobs and NULLs go as they are.
//!
//! A copy reads the source in one snapshot and writes the target in one
//! transaction, which first checks that the target holds nothing but what a
//! newly migrated database holds (so a failure at any row leaves it so); on
//! PostgreSQL it then moves every identity sequence past the copied ids. A
//! comparison reads both sides in key order and tells, per table, `same` or
//! the first row and column that differ.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use futures_util::TryStreamExt;
use sqlx::any::{AnyArguments, AnyRow, AnyTypeInfoKind};
use sqlx::{Any, AnyConnection, Arguments, Decode, Row, ValueRef};

use crate::{Backend, Db, DbError};

/// The most parameters one statement may bind: PostgreSQL's protocol limit,
/// and SQLite's `SQLITE_MAX_VARIABLE_NUMBER` (its default since 3.32).
fn bind_limit(backend: Backend) -> usize {
    match backend {
        Backend::Postgres => 65_535,
        Backend::Sqlite => 32_766,
    }
}

/// About how much text and blob data one multi-row INSERT carries, so that
/// tables of large documents (run files) are not held in memory whole.
const BATCH_BYTES: usize = 8 << 20;

/// One database of a copy or a comparison, with the name messages give it
/// (its location as [`crate::shown`] prints it, password hidden).
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    pub db: &'a Db,
    pub name: &'a str,
}

/// Why a copy or a comparison stopped. Every variant names the database it
/// concerns; a copy that stops has written nothing to its target.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error("{location}: {error}")]
    Db { location: String, error: DbError },
    /// The target holds rows a new database does not: (table, rows) each.
    #[error(
        "the target {location} is not empty: {}; copy only into a new database (nothing was written)",
        listed(.tables)
    )]
    NotEmpty {
        location: String,
        tables: Vec<(String, u64)>,
    },
    #[error("{source_name} and {target} have different tables or columns: {difference}")]
    Schema {
        source_name: String,
        target: String,
        difference: String,
    },
    #[error(
        "{location}: the foreign keys of tables {tables} form a cycle, which has no copy order"
    )]
    Cycle { location: String, tables: String },
    /// A table whose rows could not be read.
    #[error("{location}: table {table}: {error}")]
    Read {
        location: String,
        table: String,
        error: String,
    },
    /// A value that the target column cannot take, or a row it refused.
    #[error("{location}: table {table}, row {key}: {error}")]
    Row {
        location: String,
        table: String,
        key: String,
        error: String,
    },
}

fn listed(tables: &[(String, u64)]) -> String {
    tables
        .iter()
        .map(|(table, rows)| format!("{table} holds {rows} row{}", plural(*rows)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl Side<'_> {
    fn error(&self, error: impl Into<DbError>) -> CopyError {
        CopyError::Db {
            location: self.name.to_owned(),
            error: error.into(),
        }
    }

    fn backend(&self) -> Backend {
        self.db.backend()
    }
}

/// What a copy did: the rows of each table, in the order they were copied.
#[derive(Debug, Clone, PartialEq)]
pub struct CopyReport {
    pub tables: Vec<(String, u64)>,
    pub elapsed: Duration,
}

impl CopyReport {
    pub fn total(&self) -> u64 {
        self.tables.iter().map(|(_, rows)| rows).sum()
    }
}

/// The table `table  rows`, one line per table and a total, then the time.
impl fmt::Display for CopyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<(&str, String)> = self
            .tables
            .iter()
            .map(|(table, rows)| (table.as_str(), rows.to_string()))
            .chain([("total", self.total().to_string())])
            .collect();
        let name_width = rows.iter().map(|(t, _)| t.len()).max().unwrap_or(0).max(5);
        let rows_width = rows.iter().map(|(_, n)| n.len()).max().unwrap_or(0).max(4);
        writeln!(f, "{:<name_width$}  {:>rows_width$}", "table", "rows")?;
        for (table, n) in &rows {
            writeln!(f, "{table:<name_width$}  {n:>rows_width$}")?;
        }
        writeln!(
            f,
            "copied {} tables in {:.2} s",
            self.tables.len(),
            self.elapsed.as_secs_f64()
        )
    }
}

/// One table compared: its rows on each side, and the first difference.
#[derive(Debug, Clone, PartialEq)]
pub struct TableCheck {
    pub table: String,
    pub rows: (u64, u64),
    /// `None` when both sides hold the same rows.
    pub difference: Option<String>,
}

/// What a comparison found, table by table (in copy order).
#[derive(Debug, Clone, PartialEq)]
pub struct VerifyReport {
    pub tables: Vec<TableCheck>,
    pub elapsed: Duration,
}

impl VerifyReport {
    /// Whether every table holds the same rows on both sides.
    pub fn same(&self) -> bool {
        self.tables.iter().all(|t| t.difference.is_none())
    }
}

/// The table `table  rows  check`: the rows (`a / b` when the counts
/// differ) and `same` or the first difference; then the verdict and time.
impl fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counts = |(a, b): (u64, u64)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a} / {b}")
            }
        };
        let rows: Vec<(&str, String, &str)> = self
            .tables
            .iter()
            .map(|t| {
                let check = t.difference.as_deref().unwrap_or("same");
                (t.table.as_str(), counts(t.rows), check)
            })
            .collect();
        let name_width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(5);
        let rows_width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0).max(4);
        writeln!(
            f,
            "{:<name_width$}  {:>rows_width$}  check",
            "table", "rows"
        )?;
        for (table, n, check) in &rows {
            writeln!(f, "{table:<name_width$}  {n:>rows_width$}  {check}")?;
        }
        let differing = self
            .tables
            .iter()
            .filter(|t| t.difference.is_some())
            .count();
        let verdict = match differing {
            0 => format!("all {} tables the same", self.tables.len()),
            1 => "1 table differs".to_owned(),
            n => format!("{n} tables differ"),
        };
        writeln!(f, "{verdict} ({:.2} s)", self.elapsed.as_secs_f64())
    }
}

/// Whether two `--db` values name the same database: the same SQLite file
/// (however the path is written), or the same PostgreSQL server (host and
/// port) and database, whoever connects.
pub fn same_place(a: &Path, b: &Path) -> bool {
    fn place(location: &Path) -> String {
        let text = location.to_string_lossy();
        match Backend::of(&text) {
            Backend::Postgres => match url::Url::parse(&text) {
                Ok(url) => format!(
                    "{}:{}{}",
                    url.host_str().unwrap_or("localhost").to_ascii_lowercase(),
                    url.port().unwrap_or(5432),
                    url.path()
                ),
                Err(_) => text.into_owned(),
            },
            Backend::Sqlite => absolute(location).to_string_lossy().into_owned(),
        }
    }
    place(a) == place(b)
}

/// `path` with symbolic links resolved where it exists (else made absolute).
fn absolute(path: &Path) -> PathBuf {
    path.canonicalize()
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_owned())
}

/// What a column holds, from its declared type.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Class {
    Integer,
    /// BOOLEAN (PostgreSQL's flags; SQLite has none in this schema).
    Flag,
    Real,
    Text,
    Blob,
    /// A type the copy does not convert, as declared.
    Other(String),
}

impl Class {
    /// The class of a column declared `declared`, by SQLite's affinity rules
    /// and PostgreSQL's type names.
    fn of(declared: &str) -> Class {
        let lower = declared.to_ascii_lowercase();
        if lower.starts_with("bool") {
            Class::Flag
        } else if lower.contains("int") {
            Class::Integer
        } else if lower.contains("char") || lower.contains("clob") || lower.contains("text") {
            Class::Text
        } else if lower.contains("real") || lower.contains("floa") || lower.contains("doub") {
            Class::Real
        } else if lower.contains("blob") || lower == "bytea" {
            Class::Blob
        } else {
            Class::Other(declared.to_owned())
        }
    }

    fn name(&self) -> &str {
        match self {
            Class::Integer => "integer",
            Class::Flag => "boolean",
            Class::Real => "real",
            Class::Text => "text",
            Class::Blob => "blob",
            Class::Other(declared) => declared,
        }
    }
}

#[derive(Debug, Clone)]
struct Column {
    name: String,
    class: Class,
}

/// An application table as a catalog describes it.
#[derive(Debug, Clone)]
struct Table {
    name: String,
    columns: Vec<Column>,
    /// The primary key's columns, in key order; empty when it has none.
    key: Vec<String>,
    /// The other tables its foreign keys reference.
    parents: BTreeSet<String>,
}

impl Table {
    fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
    }
}

/// An identifier quoted for both dialects.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The application tables of the database `conn` is on, by name.
async fn catalog(conn: &mut AnyConnection, backend: Backend) -> Result<Vec<Table>, sqlx::Error> {
    type ColumnRow = (String, String, String, i64);
    let (columns, keys): (Vec<ColumnRow>, Vec<(String, String)>) = match backend {
        Backend::Sqlite => (
            // `pk` is the column's position in the primary key (0: not in it).
            sqlx::query_as(
                "SELECT m.name, p.name, p.type, p.pk
                 FROM sqlite_master m JOIN pragma_table_info(m.name) p
                 WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                   AND m.name <> '_sqlx_migrations'
                 ORDER BY m.name, p.cid",
            )
            .fetch_all(&mut *conn)
            .await?,
            sqlx::query_as(
                "SELECT DISTINCT m.name, f.\"table\"
                 FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f
                 WHERE m.type = 'table'",
            )
            .fetch_all(&mut *conn)
            .await?,
        ),
        Backend::Postgres => (
            sqlx::query_as(
                "SELECT c.table_name::text, c.column_name::text, c.data_type::text,
                        COALESCE(k.ordinal_position, 0)::bigint
                 FROM information_schema.tables t
                 JOIN information_schema.columns c
                   ON c.table_schema = t.table_schema AND c.table_name = t.table_name
                 LEFT JOIN information_schema.table_constraints p
                   ON p.table_schema = t.table_schema AND p.table_name = t.table_name
                  AND p.constraint_type = 'PRIMARY KEY'
                 LEFT JOIN information_schema.key_column_usage k
                   ON k.constraint_schema = p.constraint_schema
                  AND k.constraint_name = p.constraint_name
                  AND k.table_name = c.table_name AND k.column_name = c.column_name
                 WHERE t.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
                   AND t.table_name <> '_sqlx_migrations' AND c.is_generated = 'NEVER'
                 ORDER BY c.table_name, c.ordinal_position",
            )
            .fetch_all(&mut *conn)
            .await?,
            sqlx::query_as(
                "SELECT DISTINCT t.relname::text, p.relname::text
                 FROM pg_constraint c
                 JOIN pg_class t ON t.oid = c.conrelid
                 JOIN pg_class p ON p.oid = c.confrelid
                 WHERE c.contype = 'f' AND t.relnamespace = current_schema()::regnamespace",
            )
            .fetch_all(&mut *conn)
            .await?,
        ),
    };
    let mut tables: BTreeMap<String, (Table, Vec<(i64, String)>)> = BTreeMap::new();
    for (table, column, declared, key_position) in columns {
        let entry = tables.entry(table.clone()).or_insert_with(|| {
            let empty = Table {
                name: table,
                columns: Vec::new(),
                key: Vec::new(),
                parents: BTreeSet::new(),
            };
            (empty, Vec::new())
        });
        if key_position > 0 {
            entry.1.push((key_position, column.clone()));
        }
        entry.0.columns.push(Column {
            class: Class::of(&declared),
            name: column,
        });
    }
    for (child, parent) in keys {
        if child != parent {
            if let Some((table, _)) = tables.get_mut(&child) {
                table.parents.insert(parent);
            }
        }
    }
    Ok(tables
        .into_values()
        .map(|(mut table, mut key)| {
            key.sort();
            table.key = key.into_iter().map(|(_, column)| column).collect();
            table
        })
        .collect())
}

/// `tables` parents first (Kahn's algorithm, by name among those ready), so
/// that every row's foreign keys point at rows copied before it. A table
/// that references itself is copied in key order, which puts a parent row
/// first wherever it has the smaller key.
fn copy_order(tables: Vec<Table>, location: &str) -> Result<Vec<Table>, CopyError> {
    let mut waiting: BTreeMap<String, Table> =
        tables.into_iter().map(|t| (t.name.clone(), t)).collect();
    let mut ordered: Vec<Table> = Vec::with_capacity(waiting.len());
    while !waiting.is_empty() {
        let ready: Vec<String> = waiting
            .values()
            .filter(|t| t.parents.iter().all(|p| !waiting.contains_key(p)))
            .map(|t| t.name.clone())
            .collect();
        if ready.is_empty() {
            return Err(CopyError::Cycle {
                location: location.to_owned(),
                tables: waiting.keys().cloned().collect::<Vec<_>>().join(", "),
            });
        }
        for name in ready {
            ordered.extend(waiting.remove(&name));
        }
    }
    Ok(ordered)
}

/// A stored value as both backends read it: flags as integers 0 and 1.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl Value {
    /// Reads column `index` of `row` by the kind of the value the driver
    /// decoded (SQLite gives each value its own storage class).
    fn read(row: &AnyRow, index: usize) -> Result<Value, sqlx::Error> {
        let raw = row.try_get_raw(index)?;
        if raw.is_null() {
            return Ok(Value::Null);
        }
        let kind = raw.type_info().kind();
        let decoded = match kind {
            AnyTypeInfoKind::Null => Ok(Value::Null),
            AnyTypeInfoKind::Bool => {
                <bool as Decode<Any>>::decode(raw).map(|b| Value::Integer(b.into()))
            }
            AnyTypeInfoKind::SmallInt | AnyTypeInfoKind::Integer | AnyTypeInfoKind::BigInt => {
                <i64 as Decode<Any>>::decode(raw).map(Value::Integer)
            }
            AnyTypeInfoKind::Real | AnyTypeInfoKind::Double => {
                <f64 as Decode<Any>>::decode(raw).map(Value::Real)
            }
            AnyTypeInfoKind::Text => <String as Decode<Any>>::decode(raw).map(Value::Text),
            AnyTypeInfoKind::Blob => <Vec<u8> as Decode<Any>>::decode(raw).map(Value::Blob),
        };
        decoded.map_err(|source| sqlx::Error::ColumnDecode {
            index: index.to_string(),
            source,
        })
    }

    fn read_row(row: &AnyRow) -> Result<Vec<Value>, sqlx::Error> {
        (0..row.len()).map(|i| Value::read(row, i)).collect()
    }

    /// The bytes it adds to a batch, roughly.
    fn size(&self) -> usize {
        match self {
            Value::Text(s) => s.len(),
            Value::Blob(b) => b.len(),
            _ => 8,
        }
    }

    /// Binds the value as a column of class `class` takes it: NULL typed as
    /// the column, 0/1 as a boolean, an integer as a real; any other pair is
    /// refused with the reason.
    fn bind<'q>(&'q self, args: &mut AnyArguments<'q>, class: &Class) -> Result<(), String> {
        let added = match (class, self) {
            (Class::Integer, Value::Null) => args.add(None::<i64>),
            (Class::Flag, Value::Null) => args.add(None::<bool>),
            (Class::Real, Value::Null) => args.add(None::<f64>),
            (Class::Text, Value::Null) => args.add(None::<&str>),
            (Class::Blob, Value::Null) => args.add(None::<&[u8]>),
            (Class::Integer, Value::Integer(n)) => args.add(*n),
            (Class::Flag, Value::Integer(n @ (0 | 1))) => args.add(*n == 1),
            (Class::Real, Value::Integer(n)) => args.add(*n as f64),
            (Class::Real, Value::Real(x)) => args.add(*x),
            (Class::Text, Value::Text(s)) => args.add(s.as_str()),
            (Class::Blob, Value::Blob(b)) => args.add(b.as_slice()),
            (class, value) => {
                return Err(format!(
                    "{value} does not go into a column of type {}",
                    class.name()
                ))
            }
        };
        added.map_err(|e| e.to_string())
    }
}

/// The value as messages show it: text quoted and cut at 60 characters.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 60;
        match self {
            Value::Null => f.write_str("NULL"),
            Value::Integer(n) => write!(f, "{n}"),
            Value::Real(x) => write!(f, "{x:?}"),
            Value::Text(s) if s.chars().count() > SHOWN => {
                let cut: String = s.chars().take(SHOWN).collect();
                write!(f, "{:?}…", cut)
            }
            Value::Text(s) => write!(f, "{s:?}"),
            Value::Blob(b) => write!(f, "a blob of {} bytes", b.len()),
        }
    }
}

/// How messages name a row: its primary key (`id=3`, `item_id=4, expert_id=2`),
/// or for a table without one, every column.
fn key_of(table: &Table, columns: &[&str], row: &[Value]) -> String {
    let named: Vec<&str> = if table.key.is_empty() {
        columns.to_vec()
    } else {
        table.key.iter().map(String::as_str).collect()
    };
    named
        .iter()
        .filter_map(|name| {
            let at = columns.iter().position(|c| c == name)?;
            Some(format!("{name}={}", row[at]))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `SELECT` of `columns` of `table`, ordered the same way on both backends
/// when `ordered`: by primary key, or by every column for a table without
/// one; text by its bytes (PostgreSQL's "C" collation, SQLite's default) and
/// NULLs first.
fn select(table: &Table, columns: &[&str], backend: Backend, ordered: bool) -> String {
    let list: Vec<String> = columns.iter().map(|c| quoted(c)).collect();
    let mut sql = format!("SELECT {} FROM {}", list.join(", "), quoted(&table.name));
    if ordered {
        let by: Vec<&str> = if table.key.is_empty() {
            columns.to_vec()
        } else {
            table.key.iter().map(String::as_str).collect()
        };
        let terms: Vec<String> = by
            .iter()
            .map(|name| {
                let text = table.column(name).is_some_and(|c| c.class == Class::Text);
                let collate = if text && backend == Backend::Postgres {
                    " COLLATE \"C\""
                } else {
                    ""
                };
                format!("{}{collate} NULLS FIRST", quoted(name))
            })
            .collect();
        sql.push_str(" ORDER BY ");
        sql.push_str(&terms.join(", "));
    }
    sql
}

/// A read-only transaction on `db` that sees one snapshot from its first
/// read to its end (SQLite: any transaction under WAL; PostgreSQL:
/// REPEATABLE READ).
async fn begin_read(db: &Db) -> Result<sqlx::Transaction<'static, Any>, sqlx::Error> {
    match db.backend() {
        Backend::Sqlite => db.pool().begin().await,
        Backend::Postgres => {
            db.pool()
                .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                .await
        }
    }
}

async fn count(conn: &mut AnyConnection, table: &str) -> Result<u64, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {}", quoted(table)))
        .fetch_one(conn)
        .await?;
    Ok(n.max(0) as u64)
}

/// Every row of `table`'s `columns`, in [`select`]'s order.
async fn all_rows(
    conn: &mut AnyConnection,
    backend: Backend,
    table: &Table,
    columns: &[&str],
) -> Result<Vec<Vec<Value>>, sqlx::Error> {
    let sql = select(table, columns, backend, true);
    let mut rows = sqlx::query(&sql).fetch(conn);
    let mut out = Vec::new();
    while let Some(row) = rows.try_next().await? {
        out.push(Value::read_row(&row)?);
    }
    Ok(out)
}

/// Every application table of `side` with its rows, in copy order.
pub async fn row_counts(side: Side<'_>) -> Result<Vec<(String, u64)>, CopyError> {
    let mut tx = begin_read(side.db).await.map_err(|e| side.error(e))?;
    let tables = catalog(&mut tx, side.backend())
        .await
        .map_err(|e| side.error(e))?;
    let mut counts = Vec::with_capacity(tables.len());
    for table in copy_order(tables, side.name)? {
        let rows = count(&mut tx, &table.name)
            .await
            .map_err(|e| side.error(e))?;
        counts.push((table.name, rows));
    }
    Ok(counts)
}

/// How the source's tables and columns differ from the target's, if they do.
fn schema_difference(source: &[Table], target: &[Table]) -> Option<String> {
    let names =
        |tables: &[Table]| -> BTreeSet<String> { tables.iter().map(|t| t.name.clone()).collect() };
    let (ours, theirs) = (names(source), names(target));
    if let Some(table) = ours.difference(&theirs).next() {
        return Some(format!("table {table} is only in the source"));
    }
    if let Some(table) = theirs.difference(&ours).next() {
        return Some(format!("table {table} is only in the target"));
    }
    for table in source {
        let Some(other) = target.iter().find(|t| t.name == table.name) else {
            continue;
        };
        for column in &table.columns {
            if other.column(&column.name).is_none() {
                return Some(format!(
                    "column {}.{} is only in the source",
                    table.name, column.name
                ));
            }
        }
        for column in &other.columns {
            if table.column(&column.name).is_none() {
                return Some(format!(
                    "column {}.{} is only in the target",
                    table.name, column.name
                ));
            }
        }
    }
    None
}

/// Copies every application table of `from` into `to`, in one transaction
/// on `to`. Both must be migrated to the same schema (as [`Db::open`]
/// leaves them). Refused, before anything is written, when `to` holds a row
/// that a newly migrated database does not (the rows migrations insert, such
/// as the generation counter's, are replaced by the source's). The source is
/// read in one snapshot, so servers may still be reading it, but what they
/// write after the copy began is not copied.
pub async fn copy(from: Side<'_>, to: Side<'_>) -> Result<CopyReport, CopyError> {
    let started = Instant::now();
    let mut source = begin_read(from.db).await.map_err(|e| from.error(e))?;
    let source_tables = catalog(&mut source, from.backend())
        .await
        .map_err(|e| from.error(e))?;
    let mut target = crate::begin_write(to.db).await.map_err(|e| to.error(e))?;
    let target_tables = catalog(&mut target, to.backend())
        .await
        .map_err(|e| to.error(e))?;
    if let Some(difference) = schema_difference(&source_tables, &target_tables) {
        return Err(CopyError::Schema {
            source_name: from.name.to_owned(),
            target: to.name.to_owned(),
            difference,
        });
    }
    let tables = copy_order(target_tables, to.name)?;
    if let Some(unsupported) = tables.iter().find_map(|t| {
        t.columns
            .iter()
            .find(|c| matches!(c.class, Class::Other(_)))
            .map(|c| format!("{}.{} ({})", t.name, c.name, c.class.name()))
    }) {
        return Err(to.error(DbError::Invalid(format!(
            "column {unsupported} has a type the copy does not convert"
        ))));
    }
    if to.backend() == Backend::Postgres {
        // Writers wait until the copy commits; readers go on.
        let names: Vec<String> = tables.iter().map(|t| quoted(&t.name)).collect();
        sqlx::query(&format!(
            "LOCK TABLE {} IN EXCLUSIVE MODE",
            names.join(", ")
        ))
        .execute(&mut *target)
        .await
        .map_err(|e| to.error(e))?;
    }
    let seeded = seeded_tables(to, &mut target, &tables).await?;
    for table in tables.iter().rev().filter(|t| seeded.contains(&t.name)) {
        sqlx::query(&format!("DELETE FROM {}", quoted(&table.name)))
            .execute(&mut *target)
            .await
            .map_err(|e| to.error(e))?;
    }
    let mut report = Vec::with_capacity(tables.len());
    for table in &tables {
        let rows = copy_table(from, &mut source, to, &mut target, table).await?;
        tracing::debug!(table = %table.name, rows, "copied");
        report.push((table.name.clone(), rows));
    }
    if to.backend() == Backend::Postgres {
        move_sequences(&mut target).await.map_err(|e| to.error(e))?;
    }
    // SQLite needs nothing of the kind: a rowid table's next id is one past
    // its largest, and an AUTOINCREMENT table's sqlite_sequence follows the
    // ids inserted.
    target.commit().await.map_err(|e| to.error(e))?;
    source.rollback().await.map_err(|e| from.error(e))?;
    Ok(CopyReport {
        tables: report,
        elapsed: started.elapsed(),
    })
}

/// The tables of the target that hold exactly what a newly migrated
/// database holds in them, and are not empty (the rows that migrations
/// insert); refused with every table holding more or other rows.
async fn seeded_tables(
    to: Side<'_>,
    target: &mut AnyConnection,
    tables: &[Table],
) -> Result<BTreeSet<String>, CopyError> {
    let fresh = Db::open_in_memory().await.map_err(|e| to.error(e))?;
    let mut seeded = BTreeSet::new();
    let mut filled = Vec::new();
    for table in tables {
        let rows = count(target, &table.name).await.map_err(|e| to.error(e))?;
        if rows == 0 {
            continue;
        }
        let columns: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).collect();
        let mut conn = fresh.pool().acquire().await.map_err(|e| to.error(e))?;
        let new_rows = all_rows(&mut conn, Backend::Sqlite, table, &columns)
            .await
            .map_err(|e| to.error(e))?;
        let rows_here = all_rows(target, to.backend(), table, &columns)
            .await
            .map_err(|e| to.error(e))?;
        if rows_here == new_rows {
            seeded.insert(table.name.clone());
        } else {
            filled.push((table.name.clone(), rows));
        }
    }
    if filled.is_empty() {
        Ok(seeded)
    } else {
        Err(CopyError::NotEmpty {
            location: to.name.to_owned(),
            tables: filled,
        })
    }
}

/// Copies `table`'s rows from `source` to `target` in multi-row INSERTs,
/// each within the bind limit and about [`BATCH_BYTES`]; the rows copied.
async fn copy_table(
    from: Side<'_>,
    source: &mut AnyConnection,
    to: Side<'_>,
    target: &mut AnyConnection,
    table: &Table,
) -> Result<u64, CopyError> {
    let columns: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).collect();
    let per_batch = (bind_limit(to.backend()) / columns.len().max(1)).max(1);
    let sql = select(table, &columns, from.backend(), !table.key.is_empty());
    let mut rows = sqlx::query(&sql).fetch(source);
    let mut batch: Vec<Vec<Value>> = Vec::new();
    let mut bytes = 0;
    let mut copied = 0;
    let read_error = |e: sqlx::Error| CopyError::Read {
        location: from.name.to_owned(),
        table: table.name.clone(),
        error: e.to_string(),
    };
    loop {
        let row = rows.try_next().await.map_err(read_error)?;
        let done = row.is_none();
        if let Some(row) = row {
            let values = Value::read_row(&row).map_err(read_error)?;
            bytes += values.iter().map(Value::size).sum::<usize>();
            batch.push(values);
        }
        if !batch.is_empty() && (done || batch.len() >= per_batch || bytes >= BATCH_BYTES) {
            insert_batch(to, target, table, &columns, &batch).await?;
            copied += batch.len() as u64;
            batch.clear();
            bytes = 0;
        }
        if done {
            return Ok(copied);
        }
    }
}

/// `INSERT INTO table (columns) VALUES (…), (…)` for `rows` rows.
fn insert_sql(table: &Table, columns: &[&str], rows: usize, backend: Backend) -> String {
    let list: Vec<String> = columns.iter().map(|c| quoted(c)).collect();
    // Explicit ids go into identity columns even where they are GENERATED
    // ALWAYS (this schema's are BY DEFAULT, which take them anyway).
    //
    // SQLite reads `$N` as a named parameter and looks each name up among
    // those before it, which makes preparing a statement of 30,000 of them
    // take seconds; an anonymous `?` is numbered as it comes.
    let (overriding, placeholder): (&str, fn(usize) -> String) = match backend {
        Backend::Postgres => (" OVERRIDING SYSTEM VALUE", |n| format!("${n}")),
        Backend::Sqlite => ("", |_| "?".to_owned()),
    };
    let mut sql = format!(
        "INSERT INTO {} ({}){overriding} VALUES ",
        quoted(&table.name),
        list.join(", ")
    );
    let mut n = 0;
    for row in 0..rows {
        if row > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for column in 0..columns.len() {
            if column > 0 {
                sql.push_str(", ");
            }
            n += 1;
            sql.push_str(&placeholder(n));
        }
        sql.push(')');
    }
    sql
}

/// Inserts `rows` in one statement, under a savepoint. When the target
/// refuses it, the rows are tried one by one (each under its own savepoint)
/// so that the error names the row it refused.
async fn insert_batch(
    to: Side<'_>,
    target: &mut AnyConnection,
    table: &Table,
    columns: &[&str],
    rows: &[Vec<Value>],
) -> Result<(), CopyError> {
    let bound = |rows| bind_rows(to, table, columns, rows);
    let sql = insert_sql(table, columns, rows.len(), to.backend());
    let batch_error = match under_savepoint(target, &sql, bound(rows)?).await {
        Ok(()) => return Ok(()),
        Err(Ok(e)) => e,
        Err(Err(e)) => return Err(to.error(e)),
    };
    let one = insert_sql(table, columns, 1, to.backend());
    for row in rows.chunks(1) {
        match under_savepoint(target, &one, bound(row)?).await {
            Ok(()) => {}
            Err(Ok(e)) => return Err(row_error(to, table, columns, &row[0], e.to_string())),
            Err(Err(e)) => return Err(to.error(e)),
        }
    }
    // Refused together but not one by one (a limit of the statement).
    Err(CopyError::Row {
        location: to.name.to_owned(),
        table: table.name.clone(),
        key: format!(
            "{} and the {} after it",
            key_of(table, columns, &rows[0]),
            rows.len() - 1
        ),
        error: batch_error.to_string(),
    })
}

/// The arguments of an INSERT of `rows`, each value as its column takes it.
fn bind_rows<'q>(
    to: Side<'_>,
    table: &Table,
    columns: &[&str],
    rows: &'q [Vec<Value>],
) -> Result<AnyArguments<'q>, CopyError> {
    let mut args = AnyArguments::default();
    for row in rows {
        for (value, column) in row.iter().zip(&table.columns) {
            value.bind(&mut args, &column.class).map_err(|why| {
                row_error(
                    to,
                    table,
                    columns,
                    row,
                    format!("column {}: {why}", column.name),
                )
            })?;
        }
    }
    Ok(args)
}

/// `table`'s row `row` refused by `to` for `error`.
fn row_error(
    to: Side<'_>,
    table: &Table,
    columns: &[&str],
    row: &[Value],
    error: String,
) -> CopyError {
    CopyError::Row {
        location: to.name.to_owned(),
        table: table.name.clone(),
        key: key_of(table, columns, row),
        error,
    }
}

/// Runs `sql` with `args` under a savepoint, rolled back to when the
/// statement fails: `Err(Ok(statement's error))`, or `Err(Err(_))` when the
/// savepoint itself fails.
async fn under_savepoint(
    conn: &mut AnyConnection,
    sql: &str,
    args: AnyArguments<'_>,
) -> Result<(), Result<sqlx::Error, sqlx::Error>> {
    sqlx::query("SAVEPOINT lexpilot_copy")
        .execute(&mut *conn)
        .await
        .map_err(Err)?;
    match sqlx::query_with(sql, args).execute(&mut *conn).await {
        Ok(_) => sqlx::query("RELEASE SAVEPOINT lexpilot_copy")
            .execute(&mut *conn)
            .await
            .map(drop)
            .map_err(Err),
        Err(e) => {
            sqlx::query("ROLLBACK TO SAVEPOINT lexpilot_copy")
                .execute(&mut *conn)
                .await
                .map_err(Err)?;
            Err(Ok(e))
        }
    }
}

/// Moves the sequence behind every identity (or serial) column of the
/// current schema to its column's largest value, or back to its start for an
/// empty table, so that the next row inserted gets a fresh id.
async fn move_sequences(conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
    let columns: Vec<(String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text FROM information_schema.columns
         WHERE table_schema = current_schema()
           AND pg_get_serial_sequence(quote_ident(table_name), column_name) IS NOT NULL",
    )
    .fetch_all(&mut *conn)
    .await?;
    for (table, column) in columns {
        // pg_get_serial_sequence reads its first argument as SQL does a
        // table name (quoted), its second as the column's name itself.
        sqlx::query(&format!(
            "SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(MAX({c}), 1), MAX({c}) IS NOT NULL)
             FROM {t}",
            c = quoted(&column),
            t = quoted(&table)
        ))
        .bind(quoted(&table))
        .bind(&column)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Compares every application table of `a` and `b`: the same tables, the
/// same columns, and row by row in key order the same values (a flag's 1
/// and `true` are equal, so are an INTEGER and a BIGINT of one number). Each
/// side is read in one snapshot.
pub async fn verify(a: Side<'_>, b: Side<'_>) -> Result<VerifyReport, CopyError> {
    let started = Instant::now();
    let mut left = begin_read(a.db).await.map_err(|e| a.error(e))?;
    let mut right = begin_read(b.db).await.map_err(|e| b.error(e))?;
    let left_tables = copy_order(
        catalog(&mut left, a.backend())
            .await
            .map_err(|e| a.error(e))?,
        a.name,
    )?;
    let right_tables = catalog(&mut right, b.backend())
        .await
        .map_err(|e| b.error(e))?;
    let mut checks = Vec::new();
    for table in &left_tables {
        let rows_a = count(&mut left, &table.name)
            .await
            .map_err(|e| a.error(e))?;
        let Some(other) = right_tables.iter().find(|t| t.name == table.name) else {
            checks.push(TableCheck {
                table: table.name.clone(),
                rows: (rows_a, 0),
                difference: Some(format!("no such table in {}", b.name)),
            });
            continue;
        };
        let rows_b = count(&mut right, &table.name)
            .await
            .map_err(|e| b.error(e))?;
        let difference = match column_difference(table, other, a.name, b.name) {
            Some(difference) => Some(difference),
            None => first_difference(a, &mut left, b, &mut right, table, other).await?,
        };
        checks.push(TableCheck {
            table: table.name.clone(),
            rows: (rows_a, rows_b),
            difference,
        });
    }
    for table in right_tables
        .iter()
        .filter(|t| !left_tables.iter().any(|l| l.name == t.name))
    {
        let rows_b = count(&mut right, &table.name)
            .await
            .map_err(|e| b.error(e))?;
        checks.push(TableCheck {
            table: table.name.clone(),
            rows: (0, rows_b),
            difference: Some(format!("no such table in {}", a.name)),
        });
    }
    Ok(VerifyReport {
        tables: checks,
        elapsed: started.elapsed(),
    })
}

fn column_difference(left: &Table, right: &Table, a: &str, b: &str) -> Option<String> {
    let missing = |from: &Table, to: &Table| {
        from.columns
            .iter()
            .find(|c| to.column(&c.name).is_none())
            .map(|c| c.name.clone())
    };
    if let Some(column) = missing(left, right) {
        return Some(format!("column {column} is not in {b}"));
    }
    missing(right, left).map(|column| format!("column {column} is not in {a}"))
}

/// The first row (in key order) where `table` differs between the sides,
/// described; `None` when every row is the same.
async fn first_difference(
    a: Side<'_>,
    left: &mut AnyConnection,
    b: Side<'_>,
    right: &mut AnyConnection,
    table: &Table,
    other: &Table,
) -> Result<Option<String>, CopyError> {
    let columns: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).collect();
    let read_error = |side: Side<'_>, e: sqlx::Error| CopyError::Read {
        location: side.name.to_owned(),
        table: table.name.clone(),
        error: e.to_string(),
    };
    let sql_a = select(table, &columns, a.backend(), true);
    // The other side's key (the same columns, unless its schema differs).
    let sql_b = select(other, &columns, b.backend(), true);
    let mut rows_a = sqlx::query(&sql_a).fetch(left);
    let mut rows_b = sqlx::query(&sql_b).fetch(right);
    loop {
        let next_a = rows_a.try_next().await.map_err(|e| read_error(a, e))?;
        let next_b = rows_b.try_next().await.map_err(|e| read_error(b, e))?;
        let (row_a, row_b) = match (next_a, next_b) {
            (None, None) => return Ok(None),
            (Some(row), None) => {
                let row = Value::read_row(&row).map_err(|e| read_error(a, e))?;
                let key = key_of(table, &columns, &row);
                return Ok(Some(format!("{key}: only in {}", a.name)));
            }
            (None, Some(row)) => {
                let row = Value::read_row(&row).map_err(|e| read_error(b, e))?;
                let key = key_of(table, &columns, &row);
                return Ok(Some(format!("{key}: only in {}", b.name)));
            }
            (Some(x), Some(y)) => (
                Value::read_row(&x).map_err(|e| read_error(a, e))?,
                Value::read_row(&y).map_err(|e| read_error(b, e))?,
            ),
        };
        let keys = (
            key_of(table, &columns, &row_a),
            key_of(table, &columns, &row_b),
        );
        if keys.0 != keys.1 {
            return Ok(Some(format!(
                "{}: only in {} (where {} has {})",
                keys.0, a.name, b.name, keys.1
            )));
        }
        if let Some(at) = (0..columns.len()).find(|&i| row_a[i] != row_b[i]) {
            return Ok(Some(format!(
                "{}, column {}: {} vs {}",
                keys.0, columns[at], row_a[at], row_b[at]
            )));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(name: &str, parents: &[&str]) -> Table {
        Table {
            name: name.to_owned(),
            columns: Vec::new(),
            key: Vec::new(),
            parents: parents.iter().map(|p| (*p).to_owned()).collect(),
        }
    }

    #[test]
    fn parents_come_before_their_children_and_a_cycle_is_refused() {
        let tables = vec![
            table("review_items", &["datasets", "runs", "users"]),
            table("users", &[]),
            table("runs", &["datasets", "users"]),
            table("datasets", &[]),
            table("generation", &[]),
        ];
        let order: Vec<String> = copy_order(tables, "x.db")
            .expect("an order")
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(
            order,
            ["datasets", "generation", "users", "runs", "review_items"]
        );
        let cycle = copy_order(vec![table("a", &["b"]), table("b", &["a"])], "x.db");
        assert!(
            matches!(&cycle, Err(CopyError::Cycle { tables, .. }) if tables == "a, b"),
            "{cycle:?}"
        );
    }

    #[test]
    fn declared_types_map_to_what_a_column_takes() {
        for (declared, class) in [
            ("INTEGER", Class::Integer),
            ("bigint", Class::Integer),
            ("boolean", Class::Flag),
            ("TEXT", Class::Text),
            ("character varying", Class::Text),
            ("double precision", Class::Real),
            ("REAL", Class::Real),
            ("BLOB", Class::Blob),
            ("bytea", Class::Blob),
            ("jsonb", Class::Other("jsonb".to_owned())),
        ] {
            assert_eq!(Class::of(declared), class, "{declared}");
        }
    }

    #[test]
    fn values_bind_as_the_target_column_takes_them() {
        let mut args = AnyArguments::default();
        let (one, two, text) = (
            Value::Integer(1),
            Value::Integer(2),
            Value::Text("x".to_owned()),
        );
        assert!(one.bind(&mut args, &Class::Flag).is_ok());
        assert!(one.bind(&mut args, &Class::Real).is_ok());
        assert!(Value::Null.bind(&mut args, &Class::Blob).is_ok());
        assert_eq!(
            two.bind(&mut args, &Class::Flag),
            Err("2 does not go into a column of type boolean".to_owned())
        );
        assert_eq!(
            text.bind(&mut args, &Class::Integer),
            Err("\"x\" does not go into a column of type integer".to_owned())
        );
        assert_eq!(args.len(), 3);
    }

    #[test]
    fn a_place_is_the_same_however_it_is_written() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("lexpilot.db");
        std::fs::write(&file, b"").expect("file");
        let dotted = dir.path().join(".").join("lexpilot.db");
        assert!(same_place(&file, &dotted));
        assert!(!same_place(&file, &dir.path().join("other.db")));
        let url = |s: &str| PathBuf::from(s);
        assert!(same_place(
            &url("postgres://a:secret@DB.lab/lexpilot"),
            &url("postgresql://b@db.lab:5432/lexpilot?sslmode=require")
        ));
        assert!(!same_place(
            &url("postgres://a@db.lab/lexpilot"),
            &url("postgres://a@db.lab/lexpilot2")
        ));
        assert!(!same_place(
            &url("postgres://a@db.lab/lexpilot"),
            &url("postgres://a@db.lab:5433/lexpilot")
        ));
    }

    #[test]
    fn reports_print_aligned_tables() {
        let report = CopyReport {
            tables: vec![
                ("datasets".to_owned(), 3),
                ("review_items".to_owned(), 1250),
            ],
            elapsed: Duration::from_millis(1500),
        };
        assert_eq!(
            report.to_string(),
            "table         rows\n\
             datasets         3\n\
             review_items  1250\n\
             total         1253\n\
             copied 2 tables in 1.50 s\n"
        );
        let checks = VerifyReport {
            tables: vec![
                TableCheck {
                    table: "users".to_owned(),
                    rows: (4, 4),
                    difference: None,
                },
                TableCheck {
                    table: "sessions".to_owned(),
                    rows: (2, 3),
                    difference: Some("token_hash=\"ab\": only in b.db".to_owned()),
                },
            ],
            elapsed: Duration::from_millis(20),
        };
        assert!(!checks.same());
        assert_eq!(
            checks.to_string(),
            "table      rows  check\n\
             users         4  same\n\
             sessions  2 / 3  token_hash=\"ab\": only in b.db\n\
             1 table differs (0.02 s)\n"
        );
    }
}
