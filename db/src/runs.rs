//! Stored runs. A store is one transaction; a second run with the same model
//! and run number on the same dataset is refused unless replacement is asked
//! for explicitly.

use engine::run::{EntryKey, Run};
use engine::score::RunScores;
use serde::{Deserialize, Serialize};

use crate::{now, Db, DbError, Result};

/// A stored run without its items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    pub id: i64,
    pub model: String,
    pub run_number: i64,
    pub family: Option<String>,
    pub unavailable: i64,
    pub created_at: String,
}

/// Whether an upload may take the place of a stored run with the same model
/// and run number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnDuplicate {
    Refuse,
    Replace,
}

fn json<T: Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| DbError::Invalid(e.to_string()))
}

/// Stores `run` (validated against dataset `dataset_id`) with its scores.
pub async fn store(
    db: &Db,
    dataset_id: i64,
    run: &Run,
    scores: &RunScores,
    uploaded_by: Option<i64>,
    on_duplicate: OnDuplicate,
) -> Result<RunInfo> {
    let mut stored = store_all(db, dataset_id, &[(run, scores)], uploaded_by, on_duplicate).await?;
    stored
        .pop()
        .ok_or_else(|| DbError::Corrupt("a store returned no run".into()))
}

/// Stores several runs in one transaction: all of them, or none when any is
/// refused (a duplicate without replacement, or two runs of the batch with the
/// same model and run number).
pub async fn store_all(
    db: &Db,
    dataset_id: i64,
    runs: &[(&Run, &RunScores)],
    uploaded_by: Option<i64>,
    on_duplicate: OnDuplicate,
) -> Result<Vec<RunInfo>> {
    let mut tx = crate::begin_write(db).await?;
    let mut stored: Vec<RunInfo> = Vec::with_capacity(runs.len());
    for (run, scores) in runs {
        let header = &run.header;
        if stored
            .iter()
            .any(|r| r.model == header.model && r.run_number == i64::from(header.run))
        {
            return Err(DbError::Conflict(format!(
                "model {} run {} is given twice",
                header.model, header.run
            )));
        }
        let existing: Option<i64> = sqlx::query_scalar(
            "SELECT id FROM runs WHERE dataset_id = ? AND model = ? AND run_number = ?",
        )
        .bind(dataset_id)
        .bind(&header.model)
        .bind(i64::from(header.run))
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(id) = existing {
            if on_duplicate == OnDuplicate::Refuse {
                return Err(DbError::Conflict(format!(
                    "model {} run {} is already stored; upload it with replacement to overwrite it",
                    header.model, header.run
                )));
            }
            sqlx::query("DELETE FROM runs WHERE id = ?")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        let unavailable = i64::try_from(run.unavailable().total()).unwrap_or(i64::MAX);
        let created_at = header.created_at.clone().unwrap_or_else(now);
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO runs (dataset_id, model, run_number, family, entry_key, items, scores,
                               unavailable, uploaded_by, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(dataset_id)
        .bind(&header.model)
        .bind(i64::from(header.run))
        .bind(header.family.map(|f| f.as_str()))
        .bind(json(&header.entry_key())?)
        .bind(run.to_jsonl())
        .bind(json(scores)?)
        .bind(unavailable)
        .bind(uploaded_by)
        .bind(&created_at)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| match &e {
            sqlx::Error::Database(d) if d.is_unique_violation() => DbError::Conflict(format!(
                "model {} run {} is already stored; upload it with replacement to overwrite it",
                header.model, header.run
            )),
            _ => DbError::from(e),
        })?;
        stored.push(RunInfo {
            id,
            model: header.model.clone(),
            run_number: i64::from(header.run),
            family: header.family.map(|f| f.as_str().to_owned()),
            unavailable,
            created_at,
        });
    }
    tx.commit().await?;
    if !stored.is_empty() {
        db.notify(crate::events::Change::RunsStored {
            dataset_id,
            models: stored.iter().map(|r| r.model.clone()).collect(),
        });
    }
    Ok(stored)
}

/// Whether `model` run `run_number` is stored for the dataset.
pub async fn exists(db: &Db, dataset_id: i64, model: &str, run_number: u32) -> Result<bool> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM runs WHERE dataset_id = ? AND model = ? AND run_number = ?",
    )
    .bind(dataset_id)
    .bind(model)
    .bind(i64::from(run_number))
    .fetch_one(db.pool())
    .await?;
    Ok(n > 0)
}

/// The runs of a dataset in upload order.
pub async fn list(db: &Db, dataset_id: i64) -> Result<Vec<RunInfo>> {
    let rows: Vec<(i64, String, i64, Option<String>, i64, String)> = sqlx::query_as(
        "SELECT id, model, run_number, family, unavailable, created_at FROM runs
         WHERE dataset_id = ? ORDER BY id",
    )
    .bind(dataset_id)
    .fetch_all(db.pool())
    .await?;
    Ok(rows
        .into_iter()
        .map(
            |(id, model, run_number, family, unavailable, created_at)| RunInfo {
                id,
                model,
                run_number,
                family,
                unavailable,
                created_at,
            },
        )
        .collect())
}

/// Every run's entry key and scores, in upload order: what the leaderboard summarises.
pub async fn scores(db: &Db, dataset_id: i64) -> Result<Vec<(EntryKey, RunScores)>> {
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT entry_key, scores FROM runs WHERE dataset_id = ? ORDER BY id")
            .bind(dataset_id)
            .fetch_all(db.pool())
            .await?;
    rows.into_iter()
        .map(|(key, scores)| {
            let corrupt = |e: serde_json::Error| DbError::Corrupt(format!("stored run: {e}"));
            Ok((
                serde_json::from_str(&key).map_err(corrupt)?,
                serde_json::from_str(&scores).map_err(corrupt)?,
            ))
        })
        .collect()
}

/// One stored run of an entry: its entry key and the run as stored (a run
/// file, which `engine::run::parse_run` reads against the dataset's cases).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRun {
    pub entry_key: EntryKey,
    pub items: String,
}

/// The runs of `model` on a dataset, by run number: what a leaderboard row's
/// drill-down shows. Empty when the model has no run there.
pub async fn entry_runs(db: &Db, dataset_id: i64, model: &str) -> Result<Vec<StoredRun>> {
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT entry_key, items FROM runs
         WHERE dataset_id = ? AND model = ? ORDER BY run_number, id",
    )
    .bind(dataset_id)
    .bind(model)
    .fetch_all(db.pool())
    .await?;
    stored_runs(rows)
}

fn stored_runs(rows: Vec<(String, String)>) -> Result<Vec<StoredRun>> {
    rows.into_iter()
        .map(|(key, items)| {
            Ok(StoredRun {
                entry_key: serde_json::from_str(&key)
                    .map_err(|e| DbError::Corrupt(format!("stored run: {e}")))?,
                items,
            })
        })
        .collect()
}

/// How many runs a dataset has.
pub async fn count(db: &Db, dataset_id: i64) -> Result<i64> {
    Ok(
        sqlx::query_scalar("SELECT COUNT(*) FROM runs WHERE dataset_id = ?")
            .bind(dataset_id)
            .fetch_one(db.pool())
            .await?,
    )
}

/// Every stored run of a dataset with its entry key, in upload order (the
/// order [`scores`] gives, so entries group the same way).
pub async fn all_items(db: &Db, dataset_id: i64) -> Result<Vec<StoredRun>> {
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT entry_key, items FROM runs WHERE dataset_id = ? ORDER BY id")
            .bind(dataset_id)
            .fetch_all(db.pool())
            .await?;
    stored_runs(rows)
}

/// A value that changes whenever a dataset's stored runs change (the number
/// of runs and the newest id; a replacement is a new id), so that figures
/// derived from the runs can be cached against it.
pub async fn generation(db: &Db, dataset_id: i64) -> Result<(i64, i64)> {
    Ok(
        sqlx::query_as("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM runs WHERE dataset_id = ?")
            .bind(dataset_id)
            .fetch_one(db.pool())
            .await?,
    )
}

/// One stored run of a model, with its entry key and kept scores.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRun {
    pub info: RunInfo,
    pub entry_key: EntryKey,
    pub scores: RunScores,
    /// The account that uploaded it, when known.
    pub uploaded_by: Option<String>,
}

/// The runs of `model` on a dataset, by run number.
pub async fn model_runs(db: &Db, dataset_id: i64, model: &str) -> Result<Vec<ModelRun>> {
    type Row = (
        i64,
        String,
        i64,
        Option<String>,
        i64,
        String,
        String,
        String,
        Option<String>,
    );
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT r.id, r.model, r.run_number, r.family, r.unavailable, r.created_at,
                r.entry_key, r.scores, u.name
         FROM runs r LEFT JOIN users u ON u.id = r.uploaded_by
         WHERE r.dataset_id = ? AND r.model = ? ORDER BY r.run_number, r.id",
    )
    .bind(dataset_id)
    .bind(model)
    .fetch_all(db.pool())
    .await?;
    let corrupt = |e: serde_json::Error| DbError::Corrupt(format!("stored run: {e}"));
    rows.into_iter()
        .map(
            |(id, model, run_number, family, unavailable, created_at, key, scores, by)| {
                Ok(ModelRun {
                    info: RunInfo {
                        id,
                        model,
                        run_number,
                        family,
                        unavailable,
                        created_at,
                    },
                    entry_key: serde_json::from_str(&key).map_err(corrupt)?,
                    scores: serde_json::from_str(&scores).map_err(corrupt)?,
                    uploaded_by: by,
                })
            },
        )
        .collect()
}
