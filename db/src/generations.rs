//! Generations scoped to one dataset version and to one model's runs on it
//! (migration `0018_scoped_generations.sql`): counters that the transaction
//! changing what they count bumps as it commits, so that figures derived
//! from a version, or from one model's runs on it, can be cached against
//! them, also across servers sharing the database.
//!
//! - Storing or replacing runs bumps each stored run's model and its
//!   version ([`bump`], from [`crate::runs::store_all`]).
//! - A new version, and the re-scored runs a correction links to it, bump
//!   the version and every model scored on it ([`bump_version`], from
//!   [`crate::datasets`] and [`crate::revisions`]).
//! - A Targeted vs Off-target result bumps its version only (no model's
//!   runs change; [`crate::targeted`]).
//!
//! A dataset version id names one version of one benchmark's dataset, so a
//! write on one benchmark never moves another's counters. Every bump of a
//! model also bumps its version, so a reader checks one row
//! ([`dataset_generation`]) and, only when it has moved, the models'
//! ([`model_generations`]). A counter never goes back; one never bumped
//! reads 0. The global counter ([`crate::runs::generation`]) is still
//! bumped beside these until its last reader goes.

use sqlx::AnyConnection;

use crate::{Db, Result};

/// Bumps the generation of dataset version `dataset_id` and of each of
/// `models` on it (a model named twice is bumped once), inside the
/// transaction that changes those models' runs or scores there.
pub(crate) async fn bump(conn: &mut AnyConnection, dataset_id: i64, models: &[&str]) -> Result<()> {
    bump_dataset(conn, dataset_id).await?;
    let mut seen: Vec<&str> = Vec::with_capacity(models.len());
    for &model in models {
        if seen.contains(&model) {
            continue;
        }
        seen.push(model);
        sqlx::query(
            "INSERT INTO model_generations (dataset_id, model, value) VALUES ($1, $2, 1)
             ON CONFLICT (dataset_id, model)
             DO UPDATE SET value = model_generations.value + 1",
        )
        .bind(dataset_id)
        .bind(model)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Bumps the generation of dataset version `dataset_id` and of every model
/// it scores runs of or has a counter for, inside the transaction that
/// makes the version or re-scores its runs.
pub(crate) async fn bump_version(conn: &mut AnyConnection, dataset_id: i64) -> Result<()> {
    bump_dataset(conn, dataset_id).await?;
    sqlx::query("UPDATE model_generations SET value = value + 1 WHERE dataset_id = $1")
        .bind(dataset_id)
        .execute(&mut *conn)
        .await?;
    // The models without a counter yet (the `WHERE` also keeps SQLite from
    // reading `ON CONFLICT` as a join's `ON`).
    sqlx::query(
        "INSERT INTO model_generations (dataset_id, model, value)
         SELECT DISTINCT dataset_id, model, 1 FROM run_scores WHERE dataset_id = $1
         ON CONFLICT (dataset_id, model) DO NOTHING",
    )
    .bind(dataset_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

async fn bump_dataset(conn: &mut AnyConnection, dataset_id: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO dataset_generations (dataset_id, value) VALUES ($1, 1)
         ON CONFLICT (dataset_id) DO UPDATE SET value = dataset_generations.value + 1",
    )
    .bind(dataset_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The generation of dataset version `dataset_id`: it moves whenever
/// anything the version's figures are derived from does (0 if it never
/// has).
pub async fn dataset_generation(db: &Db, dataset_id: i64) -> Result<i64> {
    let value: Option<i64> =
        sqlx::query_scalar("SELECT value FROM dataset_generations WHERE dataset_id = $1")
            .bind(dataset_id)
            .fetch_optional(db.pool())
            .await?;
    Ok(value.unwrap_or(0))
}

/// The generation of each model with a counter on dataset version
/// `dataset_id`, by model name: a model's moves whenever its runs or their
/// scores there do. A model not listed reads 0.
pub async fn model_generations(db: &Db, dataset_id: i64) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query_as(
        "SELECT model, value FROM model_generations WHERE dataset_id = $1 ORDER BY model",
    )
    .bind(dataset_id)
    .fetch_all(db.pool())
    .await?)
}

/// The generation of `model` on dataset version `dataset_id` (0 if it
/// never moved): what a reader of that model's runs alone keys on.
pub async fn model_generation(db: &Db, dataset_id: i64, model: &str) -> Result<i64> {
    let value: Option<i64> = sqlx::query_scalar(
        "SELECT value FROM model_generations WHERE dataset_id = $1 AND model = $2",
    )
    .bind(dataset_id)
    .bind(model)
    .fetch_optional(db.pool())
    .await?;
    Ok(value.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn scored(db: &Db, dataset_id: i64, model: &str, run_id: i64) {
        sqlx::query(
            "INSERT INTO runs (id, dataset_id, model, run_number, entry_key, items, unavailable,
                               created_at)
             VALUES ($1, $2, $3, 1, '{}', '', 0, 'now')",
        )
        .bind(run_id)
        .bind(dataset_id)
        .bind(model)
        .execute(db.pool())
        .await
        .expect("run");
        let mut conn = db.pool().acquire().await.expect("conn");
        crate::runs::link(&mut conn, run_id, dataset_id, model, 1, "{}")
            .await
            .expect("linked");
    }

    #[tokio::test]
    async fn a_version_bump_moves_every_model_with_runs_or_a_counter() {
        let db = Db::open_for_test(None).await.expect("db");
        let cases =
            engine::lexpilot::dataset::parse_dataset(&engine::lexpilot::synthetic::dataset_file(1))
                .expect("cases");
        let src = crate::datasets::ImportSource {
            name: "d",
            source: "test",
            synthetic: true,
        };
        let id = crate::datasets::import(&db, src, &cases)
            .await
            .expect("import")
            .dataset()
            .id;
        assert_eq!(dataset_generation(&db, id).await.expect("read"), 1);
        assert_eq!(dataset_generation(&db, id + 1).await.expect("read"), 0);
        scored(&db, id, "a", 1).await;
        // (One connection at a time: a test's in-memory database has one.)
        let bumped = |models: &'static [&'static str], version: bool| {
            let db = db.clone();
            async move {
                let mut conn = db.pool().acquire().await.expect("conn");
                if version {
                    bump_version(&mut conn, id).await.expect("bump");
                } else {
                    bump(&mut conn, id, models).await.expect("bump");
                }
            }
        };
        // "gone" has a counter but no runs any more; "a" runs but no counter.
        bumped(&["gone", "gone"], false).await;
        let models = |v: &[(&str, i64)]| {
            v.iter()
                .map(|(m, n)| ((*m).to_owned(), *n))
                .collect::<Vec<_>>()
        };
        assert_eq!(dataset_generation(&db, id).await.expect("read"), 2);
        assert_eq!(
            model_generations(&db, id).await.expect("read"),
            models(&[("gone", 1)])
        );
        bumped(&[], true).await;
        assert_eq!(dataset_generation(&db, id).await.expect("read"), 3);
        assert_eq!(
            model_generations(&db, id).await.expect("read"),
            models(&[("a", 1), ("gone", 2)])
        );
        bumped(&[], true).await;
        assert_eq!(
            model_generations(&db, id).await.expect("read"),
            models(&[("a", 2), ("gone", 3)])
        );
        assert!(model_generations(&db, id + 1)
            .await
            .expect("read")
            .is_empty());
    }
}
