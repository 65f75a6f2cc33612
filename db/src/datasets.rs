//! Dataset versions, each of one benchmark. An import is one transaction:
//! all cases or none. LexPilot's cases (`engine::lexpilot::dataset`) go to
//! their own table ([`import`]); the other benchmarks' items to the generic
//! one ([`import_items`], read by [`crate::items`]). Each benchmark's pages
//! show its newest version ([`current`]).

use engine::benchmark::Benchmark;
use engine::core::paging::Listed;
use engine::lexpilot::dataset::{to_jsonl, Case};
use engine::lexpilot::query::search_text;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::FromRow;

use crate::{now, Db, Result};

/// A stored dataset version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, FromRow)]
pub struct DatasetInfo {
    pub id: i64,
    pub name: String,
    pub version: i64,
    pub content_hash: String,
    #[sqlx(try_from = "crate::Flag")]
    pub synthetic: bool,
    pub source: String,
    pub case_count: i64,
    pub created_at: String,
    /// The benchmark whose cases these are ([`engine::benchmark::Benchmark`]).
    pub benchmark: String,
}

impl DatasetInfo {
    /// The benchmark of the version; `None` for a name this build does not know.
    pub fn benchmark(&self) -> Option<engine::benchmark::Benchmark> {
        engine::benchmark::Benchmark::parse(&self.benchmark)
    }
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportOutcome {
    /// A new version was stored.
    Created(DatasetInfo),
    /// The same content was already stored under this name: nothing changed.
    Unchanged(DatasetInfo),
}

impl ImportOutcome {
    pub fn dataset(&self) -> &DatasetInfo {
        match self {
            ImportOutcome::Created(d) | ImportOutcome::Unchanged(d) => d,
        }
    }
}

/// Where a dataset came from and how to label it.
#[derive(Debug, Clone)]
pub struct ImportSource<'a> {
    pub name: &'a str,
    pub source: &'a str,
    pub synthetic: bool,
}

/// The hash that decides whether two imports are the same content: SHA-256 of
/// the cases in their canonical JSON Lines form, so layout changes don't count.
pub fn content_hash(cases: &[Case]) -> String {
    hex::encode(Sha256::digest(to_jsonl(cases).as_bytes()))
}

/// The same for the items of another benchmark: SHA-256 of their JSON, one
/// line each.
pub fn items_hash<T: Serialize>(items: &[T]) -> Result<String> {
    let mut hasher = Sha256::new();
    for item in items {
        hasher.update(serde_json::to_string(item).map_err(invalid)?.as_bytes());
        hasher.update(b"\n");
    }
    Ok(hex::encode(hasher.finalize()))
}

fn invalid(e: serde_json::Error) -> crate::DbError {
    crate::DbError::Invalid(e.to_string())
}

pub(crate) const COLUMNS: &str =
    "id, name, version, content_hash, synthetic, source, case_count, created_at, benchmark";

/// Stores validated `cases` as a dataset version in one transaction: a no-op if
/// the same content is stored under `src.name`, else the next version.
pub async fn import(db: &Db, src: ImportSource<'_>, cases: &[Case]) -> Result<ImportOutcome> {
    engine::names::check_name(src.name)
        .map_err(|message| crate::DbError::Invalid(format!("the dataset name {message}")))?;
    let mut tx = crate::begin_write(db).await?;
    let outcome = import_in(&mut tx, src, cases).await?;
    tx.commit().await?;
    Ok(match outcome {
        Ok(existing) => ImportOutcome::Unchanged(existing),
        Err(dataset_id) => {
            announce(db, dataset_id, Benchmark::Lexpilot).await;
            ImportOutcome::Created(by_id(db, dataset_id).await?)
        }
    })
}

/// Tells the change feed that version `dataset_id` of `benchmark` is in.
pub(crate) async fn announce(db: &Db, dataset_id: i64, benchmark: Benchmark) {
    db.notify(crate::events::Change::DatasetImported {
        dataset_id,
        benchmark: benchmark.as_str().to_owned(),
    })
    .await;
}

/// [`import`] inside a transaction the caller commits: `Ok` with the stored
/// version of identical content, or `Err` with the id of the new version.
pub(crate) async fn import_in(
    tx: &mut sqlx::AnyConnection,
    src: ImportSource<'_>,
    cases: &[Case],
) -> Result<std::result::Result<DatasetInfo, i64>> {
    let hash = content_hash(cases);
    let dataset_id = match new_version(tx, &src, Benchmark::Lexpilot, &hash, cases.len()).await? {
        Ok(existing) => return Ok(Ok(existing)),
        Err(id) => id,
    };
    for (position, case) in cases.iter().enumerate() {
        let data = serde_json::to_string(case).map_err(invalid)?;
        let case_pk: i64 = sqlx::query_scalar(
            "INSERT INTO cases (dataset_id, position, case_id, cause, class, plaintiff_type, seed, search_text, data)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
        )
        .bind(dataset_id)
        .bind(i64::try_from(position).unwrap_or(i64::MAX))
        .bind(&case.case_id)
        .bind(&case.cause)
        .bind(case.class.as_str())
        .bind(case.plaintiff_type.as_str())
        .bind(case.seed)
        .bind(search_text(case))
        .bind(data)
        .fetch_one(&mut *tx)
        .await?;
        for claim in &case.claims {
            sqlx::query("INSERT INTO case_claims (case_pk, verdict) VALUES ($1, $2)")
                .bind(case_pk)
                .bind(claim.verdict.as_str())
                .execute(&mut *tx)
                .await?;
        }
        for point in &case.focal_points {
            sqlx::query("INSERT INTO case_focal_points (case_pk, point_type) VALUES ($1, $2)")
                .bind(case_pk)
                .bind(point.r#type.as_str())
                .execute(&mut *tx)
                .await?;
        }
    }
    Ok(Err(dataset_id))
}

/// Stores validated `items` of `benchmark` (any but LexPilot, whose cases
/// [`import`] stores) as a dataset version in one transaction: a no-op if
/// the same content is stored under `src.name`, else the next version.
pub async fn import_items<T: Listed + Serialize>(
    db: &Db,
    src: ImportSource<'_>,
    benchmark: Benchmark,
    items: &[T],
) -> Result<ImportOutcome> {
    engine::names::check_name(src.name)
        .map_err(|message| crate::DbError::Invalid(format!("the dataset name {message}")))?;
    if benchmark == Benchmark::Lexpilot {
        return Err(crate::DbError::Invalid(
            "LexPilot cases are imported as cases, not items".to_owned(),
        ));
    }
    let hash = items_hash(items)?;
    let mut tx = crate::begin_write(db).await?;
    let dataset_id = match new_version(&mut tx, &src, benchmark, &hash, items.len()).await? {
        Ok(existing) => return Ok(ImportOutcome::Unchanged(existing)),
        Err(id) => id,
    };
    for (position, item) in items.iter().enumerate() {
        sqlx::query(
            "INSERT INTO items (dataset_id, position, item_id, facet, category, search_text, data)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(dataset_id)
        .bind(i64::try_from(position).unwrap_or(i64::MAX))
        .bind(item.item_id())
        .bind(item.facet())
        .bind(item.category())
        .bind(item.search_text())
        .bind(serde_json::to_string(item).map_err(invalid)?)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    announce(db, dataset_id, benchmark).await;
    Ok(ImportOutcome::Created(by_id(db, dataset_id).await?))
}

/// What importing content `hash` (`count` cases or items of `benchmark`)
/// as `src` would do, found by the import's own checks on the same state
/// inside a transaction that is rolled back: nothing is written. A new
/// version is answered as the import would number it.
pub async fn plan_import(
    db: &Db,
    src: ImportSource<'_>,
    benchmark: Benchmark,
    hash: &str,
    count: usize,
) -> Result<ImportOutcome> {
    engine::names::check_name(src.name)
        .map_err(|message| crate::DbError::Invalid(format!("the dataset name {message}")))?;
    let mut tx = crate::begin_write(db).await?;
    let outcome = match new_version(&mut tx, &src, benchmark, hash, count).await? {
        Ok(existing) => ImportOutcome::Unchanged(existing),
        Err(id) => ImportOutcome::Created(
            sqlx::query_as(&format!("SELECT {COLUMNS} FROM datasets WHERE id = $1"))
                .bind(id)
                .fetch_one(&mut *tx)
                .await?,
        ),
    };
    tx.rollback().await?;
    Ok(outcome)
}

/// The version of `src.name` with content `hash` if one is stored (`Ok`),
/// else a new version's row, numbered after the newest of that name
/// (`Err` with its id); the generation is bumped for a new one.
async fn new_version(
    tx: &mut sqlx::AnyConnection,
    src: &ImportSource<'_>,
    benchmark: Benchmark,
    hash: &str,
    count: usize,
) -> Result<std::result::Result<DatasetInfo, i64>> {
    let existing: Option<DatasetInfo> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM datasets WHERE name = $1 AND content_hash = $2"
    ))
    .bind(src.name)
    .bind(hash)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(existing) = existing {
        if existing.benchmark != benchmark.as_str() {
            return Err(crate::DbError::Conflict(format!(
                "dataset {} is a {} dataset, not {}",
                src.name,
                existing.benchmark,
                benchmark.as_str()
            )));
        }
        return Ok(Ok(existing));
    }
    let other: Option<String> = sqlx::query_scalar(
        "SELECT benchmark FROM datasets WHERE name = $1 AND benchmark <> $2 LIMIT 1",
    )
    .bind(src.name)
    .bind(benchmark.as_str())
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(other) = other {
        return Err(crate::DbError::Conflict(format!(
            "dataset {} is a {other} dataset; a {} dataset needs another name",
            src.name,
            benchmark.as_str()
        )));
    }
    let version: i64 =
        sqlx::query_scalar("SELECT COALESCE(MAX(version), 0) + 1 FROM datasets WHERE name = $1")
            .bind(src.name)
            .fetch_one(&mut *tx)
            .await?;
    let dataset_id: i64 = sqlx::query_scalar(
        "INSERT INTO datasets (name, version, content_hash, synthetic, source, case_count,
                               created_at, benchmark)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(src.name)
    .bind(version)
    .bind(hash)
    .bind(src.synthetic)
    .bind(src.source)
    .bind(i64::try_from(count).unwrap_or(i64::MAX))
    .bind(now())
    .bind(benchmark.as_str())
    .fetch_one(&mut *tx)
    .await?;
    crate::runs::bump_generation(tx).await?;
    crate::generations::bump_version(tx, dataset_id).await?;
    Ok(Err(dataset_id))
}

/// The dataset version `benchmark`'s pages and the API show: its newest.
pub async fn current(db: &Db, benchmark: Benchmark) -> Result<Option<DatasetInfo>> {
    Ok(sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM datasets WHERE benchmark = $1 ORDER BY id DESC LIMIT 1"
    ))
    .bind(benchmark.as_str())
    .fetch_optional(db.pool())
    .await?)
}

pub async fn by_id(db: &Db, id: i64) -> Result<DatasetInfo> {
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM datasets WHERE id = $1"))
        .bind(id)
        .fetch_optional(db.pool())
        .await?
        .ok_or_else(|| crate::DbError::NotFound(format!("no dataset with id {id}")))
}

/// Every stored version, newest first.
pub async fn list(db: &Db) -> Result<Vec<DatasetInfo>> {
    Ok(
        sqlx::query_as(&format!("SELECT {COLUMNS} FROM datasets ORDER BY id DESC"))
            .fetch_all(db.pool())
            .await?,
    )
}
