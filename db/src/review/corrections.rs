//! Seed corrections adopted by review (the experts agree on a corrected
//! case, or an adjudicator adopts one): saved as the next revision of the
//! case and a new dataset version, on the transaction of the label that
//! adopts them, unless the case has been corrected since the item was made.

use engine::lexpilot::dataset::Case;
use engine::review::ItemRecord;
use sqlx::AnyConnection;

use super::case_on;
use crate::revisions::{Correcting, Prepared, Rescore, Revision, Saved};
use crate::users::User;
use crate::{Db, DbError, Result};

/// How a seed item's case stands against the newest version of dataset
/// `dataset_name` (id `newest_version_id`, read once by the caller): the case
/// as the item shows it, and (when it has been corrected since) the newer
/// revision.
pub(super) async fn seed_case_change(
    tx: &mut AnyConnection,
    db: &Db,
    dataset_name: &str,
    item: &ItemRecord,
    newest_version_id: i64,
) -> Result<(Case, Option<Revision>)> {
    let shown = case_on(tx, db, item.dataset_id, &item.case_id)
        .await?
        .ok_or_else(|| DbError::Invalid("the case of this item is no longer stored".into()))?;
    let current = case_on(tx, db, newest_version_id, &item.case_id).await?;
    if current.as_ref() == Some(&shown) {
        return Ok((shown, None));
    }
    let newer = crate::revisions::history_on(tx, dataset_name, &item.case_id)
        .await?
        .pop();
    match newer {
        Some(newer) => Ok((shown, Some(newer))),
        None => Err(DbError::Conflict(format!(
            "case {} is no longer in dataset {dataset_name}",
            item.case_id
        ))),
    }
}

/// A seed correction review adopts: `corrected`, the case of `item` in
/// dataset `dataset_name`, by `author`, for the reason `why`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Adopting<'a> {
    pub dataset_name: &'a str,
    pub item: &'a ItemRecord,
    pub corrected: &'a Case,
    pub author: &'a User,
    pub why: &'a str,
}

/// Saves `corrected` as the next revision of the seed item's case, on `tx`
/// (which holds the write lock). `Ok(Err(newer))` when the case has been
/// corrected since the item was made: nothing is written, since the experts'
/// case was made from the older one.
pub(super) async fn apply_seed_correction(
    tx: &mut AnyConnection,
    db: &Db,
    adopting: Adopting<'_>,
    rescore: &Rescore,
) -> Result<std::result::Result<Saved, Box<Revision>>> {
    let Adopting {
        dataset_name,
        item,
        corrected,
        author,
        why,
    } = adopting;
    let newest = crate::revisions::newest_version(tx, dataset_name).await?;
    let (_, newer) = seed_case_change(tx, db, dataset_name, item, newest.id).await?;
    if let Some(newer) = newer {
        return Ok(Err(Box::new(newer)));
    }
    crate::revisions::check_correction(corrected, why)?;
    let base = crate::revisions::current_revision_on(tx, dataset_name, &item.case_id).await?;
    let correcting = Correcting {
        dataset_name,
        corrected,
        base_revision: base,
        author,
        reason: why,
    };
    match crate::revisions::correct_in(tx, db, correcting, rescore).await? {
        Prepared::Saved(saved) => Ok(Ok(saved)),
        Prepared::Stale(newer) => Ok(Err(newer)),
    }
}
