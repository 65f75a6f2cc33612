//! Results of the Targeted vs Off-target experiment (Table 4; migration
//! `0014_targeted.sql`): one row per model and repetition on a dataset
//! version, the result file and its scores as the engine made them. Stored
//! in one transaction that bumps the generation, so the paper page's cached
//! snapshot sees them.

use engine::core::entry::EntryKey;

use crate::runs::{bump_generation, OnDuplicate};
use crate::{now, Db, DbError, Result};

/// A validated, scored result file to store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTargetedRun {
    pub model: String,
    pub run: u32,
    pub entry_key: EntryKey,
    /// The result file as JSON Lines.
    pub items: String,
    /// The engine's `TargetedScores`, as JSON.
    pub scores: String,
    pub created_at: Option<String>,
}

/// One stored result.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetedRunInfo {
    pub id: i64,
    pub model: String,
    pub run_number: i64,
    pub created_at: String,
}

/// Stores the result files on version `dataset_id`: all, or none when one
/// is refused (a stored model and run number without replacement, or one
/// given twice).
pub async fn store_all(
    db: &Db,
    dataset_id: i64,
    runs: &[NewTargetedRun],
    uploaded_by: Option<i64>,
    on_duplicate: OnDuplicate,
) -> Result<Vec<TargetedRunInfo>> {
    let mut tx = crate::begin_write(db).await?;
    let mut stored: Vec<TargetedRunInfo> = Vec::with_capacity(runs.len());
    for run in runs {
        let run_number = i64::from(run.run);
        let duplicate = || {
            DbError::Conflict(format!(
                "the Targeted vs Off-target result of model {} run {} is already stored",
                run.model, run.run
            ))
        };
        if stored
            .iter()
            .any(|r| r.model == run.model && r.run_number == run_number)
        {
            return Err(DbError::Conflict(format!(
                "model {} run {} is given twice",
                run.model, run.run
            )));
        }
        let existing: Option<(i64, Option<i64>)> = sqlx::query_as(
            "SELECT id, uploaded_by FROM targeted_runs
             WHERE dataset_id = $1 AND model = $2 AND run_number = $3",
        )
        .bind(dataset_id)
        .bind(&run.model)
        .bind(run_number)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some((old, uploader)) = existing {
            if on_duplicate == OnDuplicate::Refuse {
                return Err(duplicate());
            }
            on_duplicate.check(&run.model, run.run, uploader)?;
            sqlx::query("DELETE FROM targeted_runs WHERE id = $1")
                .bind(old)
                .execute(&mut *tx)
                .await?;
        }
        let created_at = run.created_at.clone().unwrap_or_else(now);
        let key =
            serde_json::to_string(&run.entry_key).map_err(|e| DbError::Invalid(e.to_string()))?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO targeted_runs (dataset_id, model, run_number, entry_key, items, scores,
                                        uploaded_by, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        )
        .bind(dataset_id)
        .bind(&run.model)
        .bind(run_number)
        .bind(key)
        .bind(&run.items)
        .bind(&run.scores)
        .bind(uploaded_by)
        .bind(&created_at)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| match &e {
            sqlx::Error::Database(d) if d.is_unique_violation() => duplicate(),
            _ => DbError::from(e),
        })?;
        stored.push(TargetedRunInfo {
            id,
            model: run.model.clone(),
            run_number,
            created_at,
        });
    }
    if !stored.is_empty() {
        bump_generation(&mut tx).await?;
        // The version's figures (the paper page's Table 4) change; no
        // model's runs do.
        crate::generations::bump(&mut tx, dataset_id, &[]).await?;
    }
    tx.commit().await?;
    if !stored.is_empty() {
        db.notify(crate::events::Change::RunsStored {
            dataset_id,
            benchmark: engine::benchmark::Benchmark::Lexpilot.as_str().to_owned(),
            models: stored.iter().map(|r| r.model.clone()).collect(),
        })
        .await;
    }
    Ok(stored)
}

/// The kept scores (JSON) of every result on version `dataset_id`, in the
/// order they were stored.
pub async fn scores(db: &Db, dataset_id: i64) -> Result<Vec<String>> {
    Ok(
        sqlx::query_scalar("SELECT scores FROM targeted_runs WHERE dataset_id = $1 ORDER BY id")
            .bind(dataset_id)
            .fetch_all(db.pool())
            .await?,
    )
}

/// The run number after the highest stored result of `model` on the
/// dataset version (1 when it has none).
pub async fn next_run_number(db: &Db, dataset_id: i64, model: &str) -> Result<u32> {
    crate::runs::next_run_in(db, "targeted_runs", dataset_id, model).await
}
