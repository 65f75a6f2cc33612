//! The user-simulator fidelity study (Table 13; migration
//! `0015_fidelity.sql`): the probes of a dataset version, one per case, and
//! its one study (the simulator's replies and the DCG judge's decisions),
//! stored with the review items its replies are labelled as in one
//! transaction. Probes are fixed once the replies exist.

use engine::accounts::Replacer;
use serde_json::Value;

use crate::datasets::DatasetInfo;
use crate::events::Change;
use crate::review::items::{insert_items_on, NewItem};
use crate::review::Created;
use crate::{now, Db, DbError, Result};

/// One probe to store: its case and the engine's probe as JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct NewProbe {
    pub case_id: String,
    pub probe: String,
}

/// One reply to label: its case, condition (wire form) and the review
/// item's input (with its sheet).
#[derive(Debug, Clone, PartialEq)]
pub struct ReplyItem {
    pub case_id: String,
    pub condition: String,
    pub input: Value,
}

/// A stored study.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredStudy {
    pub id: i64,
    pub user_model: String,
    /// The result file (JSON Lines).
    pub items: String,
    pub created_at: String,
}

fn fixed(dataset: &DatasetInfo) -> DbError {
    DbError::Conflict(format!(
        "the fidelity study of dataset {} version {} has its replies already; its probes can no \
         longer change",
        dataset.name, dataset.version
    ))
}

/// Stores `probes` by `author` on version `dataset`, replacing the probe of
/// each case they name, all or none; refused once the study's replies
/// exist, and (forbidden) when a probe to replace is another's and `by` is
/// no admin ([`Replacer::may_replace`]: a probe is its author's). Returns
/// how many were new (the rest replaced one).
pub async fn store_probes(
    db: &Db,
    dataset: &DatasetInfo,
    probes: &[NewProbe],
    author: Option<i64>,
    by: Replacer,
) -> Result<Created> {
    let mut tx = crate::begin_write(db).await?;
    let study: Option<i64> =
        sqlx::query_scalar("SELECT id FROM fidelity_runs WHERE dataset_id = $1")
            .bind(dataset.id)
            .fetch_optional(&mut *tx)
            .await?;
    if study.is_some() {
        return Err(fixed(dataset));
    }
    let mut outcome = Created::default();
    let at = now();
    for p in probes {
        let existed: Option<(i64, Option<i64>)> = sqlx::query_as(
            "SELECT id, author_id FROM fidelity_probes WHERE dataset_id = $1 AND case_id = $2",
        )
        .bind(dataset.id)
        .bind(&p.case_id)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some((_, written_by)) = existed {
            by.may_replace(written_by).map_err(|_| {
                DbError::Forbidden(format!(
                    "the probe of case {} {}; only its author or an admin may change it",
                    p.case_id,
                    if written_by.is_some() {
                        "was written by another expert"
                    } else {
                        "was imported from a file"
                    }
                ))
            })?;
        }
        sqlx::query(
            "INSERT INTO fidelity_probes (dataset_id, case_id, probe, author_id, updated_at)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (dataset_id, case_id) DO UPDATE
             SET probe = excluded.probe, author_id = excluded.author_id,
                 updated_at = excluded.updated_at",
        )
        .bind(dataset.id)
        .bind(&p.case_id)
        .bind(&p.probe)
        .bind(author)
        .bind(&at)
        .execute(&mut *tx)
        .await?;
        match existed {
            Some(_) => outcome.existing += 1,
            None => outcome.created += 1,
        }
    }
    tx.commit().await?;
    db.notify(Change::ReviewChanged { item_id: 0 }).await;
    Ok(outcome)
}

/// The probes (JSON) of version `dataset_id`, by case id.
pub async fn probes(db: &Db, dataset_id: i64) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar(
        "SELECT probe FROM fidelity_probes WHERE dataset_id = $1 ORDER BY case_id",
    )
    .bind(dataset_id)
    .fetch_all(db.pool())
    .await?)
}

/// Stores the study of version `dataset` (its result file `items`, made by
/// `user_model`) and one review item per reply of `replies`, in the order
/// given (the queue's order), in one transaction; refused when the version
/// has its study already.
pub async fn store_study(
    db: &Db,
    dataset: &DatasetInfo,
    user_model: &str,
    items: &str,
    replies: Vec<ReplyItem>,
    by: Option<i64>,
) -> Result<Created> {
    let mut tx = crate::begin_write(db).await?;
    let inserted = sqlx::query(
        "INSERT INTO fidelity_runs (dataset_id, user_model, items, uploaded_by, created_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (dataset_id) DO NOTHING",
    )
    .bind(dataset.id)
    .bind(user_model)
    .bind(items)
    .bind(by)
    .bind(now())
    .execute(&mut *tx)
    .await?;
    if inserted.rows_affected() == 0 {
        return Err(DbError::Conflict(format!(
            "dataset {} version {} has its fidelity study already",
            dataset.name, dataset.version
        )));
    }
    let new = replies
        .into_iter()
        .map(|r| NewItem::of_sheet(r.case_id, r.condition, user_model.to_owned(), r.input))
        .collect();
    let outcome = insert_items_on(&mut tx, dataset, new, by).await?;
    tx.commit().await?;
    db.notify(Change::ReviewChanged { item_id: 0 }).await;
    Ok(outcome)
}

/// Whether version `dataset_id` has its study (without reading it).
pub async fn has_study(db: &Db, dataset_id: i64) -> Result<bool> {
    Ok(
        sqlx::query_scalar::<_, i64>("SELECT id FROM fidelity_runs WHERE dataset_id = $1")
            .bind(dataset_id)
            .fetch_optional(db.pool())
            .await?
            .is_some(),
    )
}

/// The study of version `dataset_id`, if it has one.
pub async fn study(db: &Db, dataset_id: i64) -> Result<Option<StoredStudy>> {
    let row: Option<(i64, String, String, String)> = sqlx::query_as(
        "SELECT id, user_model, items, created_at FROM fidelity_runs WHERE dataset_id = $1",
    )
    .bind(dataset_id)
    .fetch_optional(db.pool())
    .await?;
    Ok(row.map(|(id, user_model, items, created_at)| StoredStudy {
        id,
        user_model,
        items,
        created_at,
    }))
}
