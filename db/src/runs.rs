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
    let header = &run.header;
    let mut tx = db.pool().begin().await?;
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
    .await?;
    tx.commit().await?;
    Ok(RunInfo {
        id,
        model: header.model.clone(),
        run_number: i64::from(header.run),
        family: header.family.map(|f| f.as_str().to_owned()),
        unavailable,
        created_at,
    })
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

/// How many runs a dataset has.
pub async fn count(db: &Db, dataset_id: i64) -> Result<i64> {
    Ok(
        sqlx::query_scalar("SELECT COUNT(*) FROM runs WHERE dataset_id = ?")
            .bind(dataset_id)
            .fetch_one(db.pool())
            .await?,
    )
}
