//! Assignments of review items to experts (by name, or balanced by
//! [`engine::review::auto_assignments`]), an expert's queue, and the drafts
//! they autosave.

use engine::accounts::Role;
use engine::review::{
    auto_assignments, check_draft, reassignments, ManageFilter, ManageList, QueueEntry,
};
use sqlx::{Any, Transaction};

use super::{invalid, item_row, not_found, records};
use crate::events::Change;
use crate::users::User;
use crate::{now, Db, DbError, Result};

/// The expert accounts named (each must exist and be an expert), or every
/// expert account when `names` is `None`; by id, without repeats.
async fn experts(db: &Db, names: Option<&[String]>) -> Result<Vec<User>> {
    let users = crate::users::list(db).await?;
    let mut chosen: Vec<User> = match names {
        None => users
            .into_iter()
            .filter(|u| u.role == Role::Expert)
            .collect(),
        Some(names) => {
            let mut chosen = Vec::with_capacity(names.len());
            for name in names {
                let name = name.trim();
                match users.iter().find(|u| u.name == name) {
                    Some(u) if u.role == Role::Expert => chosen.push(u.clone()),
                    Some(_) => {
                        return Err(DbError::Invalid(format!("{name} is not an expert account")))
                    }
                    None => return Err(DbError::Invalid(format!("no account named {name}"))),
                }
            }
            chosen
        }
    };
    chosen.sort_by_key(|u| u.id);
    chosen.dedup_by_key(|u| u.id);
    Ok(chosen)
}

/// Assigns item `item_id` to the experts named, besides any it has. Refused
/// for a final item or a name that is not an expert account. Returns the
/// assignments made.
pub async fn assign(db: &Db, item_id: i64, names: &[String]) -> Result<usize> {
    let chosen = experts(db, Some(names)).await?;
    let item = item_row(db, item_id).await?;
    if item.final_label.is_some() {
        return Err(DbError::Conflict(format!(
            "review item {item_id} is final; it takes no more experts"
        )));
    }
    let mut tx = crate::begin_write(db).await?;
    let made = insert_assignments(&mut tx, chosen.iter().map(|u| (item_id, u.id))).await?;
    tx.commit().await?;
    if made > 0 {
        db.notify(Change::ReviewChanged { item_id }).await;
    }
    Ok(made)
}

async fn insert_assignments(
    tx: &mut Transaction<'_, Any>,
    pairs: impl Iterator<Item = (i64, i64)>,
) -> Result<usize> {
    let at = now();
    let mut made = 0;
    for (item_id, expert_id) in pairs {
        let done = sqlx::query(
            "INSERT INTO review_assignments (item_id, expert_id, assigned_at) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING",
        )
        .bind(item_id)
        .bind(expert_id)
        .bind(&at)
        .execute(&mut **tx)
        .await?;
        made += usize::try_from(done.rows_affected()).unwrap_or(0);
    }
    Ok(made)
}

/// Gives every open item of the dataset with fewer than
/// [`super::EXPERTS_PER_ITEM`] experts the experts it lacks, taken from the experts
/// named (or every expert account), as [`engine::review::auto_assignments`]
/// balances them. Needs at least two experts. Returns the assignments made.
pub async fn auto_assign(db: &Db, dataset_name: &str, names: Option<&[String]>) -> Result<usize> {
    let pool: Vec<i64> = experts(db, names).await?.iter().map(|u| u.id).collect();
    let items = records(db, dataset_name).await?;
    let pairs = auto_assignments(&items, &pool).map_err(invalid)?;
    let mut tx = crate::begin_write(db).await?;
    let made = insert_assignments(&mut tx, pairs.into_iter()).await?;
    tx.commit().await?;
    if made > 0 {
        db.notify(Change::ReviewChanged { item_id: 0 }).await;
    }
    Ok(made)
}

/// The items of the dataset assigned to `expert`, by id, with the status the
/// expert may see (`todo` until they have submitted;
/// [`engine::review::queue`]).
pub async fn queue(db: &Db, dataset_name: &str, expert: &User) -> Result<Vec<QueueEntry>> {
    let items = records(db, dataset_name).await?;
    Ok(engine::review::queue(&items, expert.id))
}

/// Keeps `draft` (any text, up to [`super::MAX_DRAFT_BYTES`]) as the
/// expert's draft for the item, replacing the previous one.
pub async fn save_draft(db: &Db, id: i64, expert: &User, draft: &str) -> Result<()> {
    check_draft(draft).map_err(invalid)?;
    let done = sqlx::query(
        "UPDATE review_assignments SET draft = $1, draft_at = $2 WHERE item_id = $3 AND expert_id = $4",
    )
    .bind(draft)
    .bind(now())
    .bind(id)
    .bind(expert.id)
    .execute(db.pool())
    .await?;
    if done.rows_affected() == 0 {
        return Err(not_found(id));
    }
    Ok(())
}

/// One page of the management list over the items of the datasets named
/// ([`engine::review::ManageList::of`]): for a [`super::Manager`] only.
pub async fn manage_list(
    db: &Db,
    _manager: &super::Manager,
    dataset_names: &[String],
    filter: &ManageFilter,
    page: usize,
) -> Result<ManageList> {
    let mut items = Vec::new();
    for name in dataset_names {
        items.extend(records(db, name).await?);
    }
    Ok(ManageList::of(&items, filter, page))
}

/// What [`reassign`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reassigned {
    /// Items handed over.
    pub moved: usize,
    /// Items left with the expert: every expert of the pool already sits on
    /// them.
    pub stranded: Vec<i64>,
}

/// Hands every item of the datasets named that account `from` has still to
/// label to the experts named (or every other expert account), as
/// [`engine::review::reassignments`] balances them, in one transaction:
/// `from`'s open assignment (with its draft and unclear flag) is removed
/// and the new expert's made. What `from` submitted stays. Refused when no
/// account is named `from` or no other expert is left to take over; an item
/// `from` submits meanwhile is not moved.
pub async fn reassign(
    db: &Db,
    _manager: &super::Manager,
    dataset_names: &[String],
    from: &str,
    to: Option<&[String]>,
) -> Result<Reassigned> {
    let leaver = crate::users::by_name(db, from.trim())
        .await?
        .ok_or_else(|| DbError::Invalid(format!("from: no account named {}", from.trim())))?;
    let pool: Vec<i64> = experts(db, to)
        .await
        .map_err(|e| match e {
            DbError::Invalid(m) => DbError::Invalid(format!("to: {m}")),
            e => e,
        })?
        .iter()
        .map(|u| u.id)
        .filter(|&id| id != leaver.id)
        .collect();
    if pool.is_empty() {
        return Err(DbError::Invalid(format!(
            "to: no other expert account to take over {}'s items",
            leaver.name
        )));
    }
    let mut items = Vec::new();
    for name in dataset_names {
        items.extend(records(db, name).await?);
    }
    let plan = reassignments(&items, leaver.id, &pool);
    let at = now();
    let mut tx = crate::begin_write(db).await?;
    let mut moved = 0;
    for &(item_id, to) in &plan.moves {
        let gone = sqlx::query(
            "DELETE FROM review_assignments
             WHERE item_id = $1 AND expert_id = $2 AND submitted_at IS NULL",
        )
        .bind(item_id)
        .bind(leaver.id)
        .execute(&mut *tx)
        .await?;
        if gone.rows_affected() == 0 {
            continue;
        }
        sqlx::query(
            "INSERT INTO review_assignments (item_id, expert_id, assigned_at) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING",
        )
        .bind(item_id)
        .bind(to)
        .bind(&at)
        .execute(&mut *tx)
        .await?;
        moved += 1;
    }
    tx.commit().await?;
    if moved > 0 {
        db.notify(Change::ReviewChanged { item_id: 0 }).await;
    }
    Ok(Reassigned {
        moved,
        stranded: plan.stranded,
    })
}

#[cfg(test)]
mod tests {
    use super::super::create_case_check_items;
    use super::super::testing::fixture;
    use super::*;

    #[tokio::test]
    async fn auto_assignment_balances_the_load_and_never_repeats_an_expert() {
        let (db, dataset, admin, experts) = fixture(&["甲", "乙", "丙"]).await;
        let made = create_case_check_items(&db, &dataset, &admin)
            .await
            .expect("items");
        assert_eq!(made.created, 36);
        assert_eq!(
            auto_assign(&db, &dataset.name, None).await.expect("assign"),
            72
        );
        assert_eq!(
            auto_assign(&db, &dataset.name, None).await.expect("again"),
            0,
            "every item has its two experts"
        );
        for expert in &experts {
            assert_eq!(
                queue(&db, &dataset.name, expert)
                    .await
                    .expect("queue")
                    .len(),
                24
            );
        }
        let pairs: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT item_id, COUNT(DISTINCT expert_id) FROM review_assignments GROUP BY item_id",
        )
        .fetch_all(db.pool())
        .await
        .expect("pairs");
        assert!(pairs.iter().all(|&(_, n)| n == 2));
        let names = ["甲".to_owned()];
        assert!(matches!(
            auto_assign(&db, &dataset.name, Some(&names)).await,
            Err(DbError::Invalid(_))
        ));
        let admin_name = ["admin".to_owned(), "甲".to_owned()];
        assert!(matches!(
            auto_assign(&db, &dataset.name, Some(&admin_name)).await,
            Err(DbError::Invalid(message)) if message.contains("not an expert")
        ));
    }

    #[tokio::test]
    async fn an_expert_who_leaves_hands_over_only_what_they_had_not_labelled() {
        use super::super::testing::pass;
        use super::super::testing::rescore;
        use super::super::{submit, Manager};
        use engine::review::ItemStatus;

        let (db, dataset, admin, experts) = fixture(&["甲", "乙", "丙"]).await;
        create_case_check_items(&db, &dataset, &admin)
            .await
            .expect("items");
        let pair = ["甲".to_owned(), "乙".to_owned()];
        auto_assign(&db, &dataset.name, Some(&pair))
            .await
            .expect("assign");
        let mine = queue(&db, &dataset.name, &experts[0]).await.expect("queue");
        assert_eq!(mine.len(), 36);
        let done = mine[0].id;
        submit(
            &db,
            done,
            &experts[0],
            &pass(),
            "",
            None,
            Some(30),
            rescore(),
        )
        .await
        .expect("submit");
        let manager = Manager::of(admin.clone()).expect("admin manages");
        let names = [dataset.name.clone()];
        let only_me = ["甲".to_owned()];
        assert!(matches!(
            reassign(&db, &manager, &names, "甲", Some(&only_me)).await,
            Err(DbError::Invalid(m)) if m.starts_with("to:")
        ));
        assert!(matches!(
            reassign(&db, &manager, &names, "nobody", None).await,
            Err(DbError::Invalid(m)) if m.starts_with("from:")
        ));
        let not_an_expert = ["admin".to_owned()];
        assert!(matches!(
            reassign(&db, &manager, &names, "甲", Some(&not_an_expert)).await,
            Err(DbError::Invalid(m)) if m == "to: admin is not an expert account"
        ));
        // 乙 is already on every item: only 丙 can take them over.
        let r = reassign(&db, &manager, &names, "甲", None)
            .await
            .expect("reassign");
        assert_eq!((r.moved, r.stranded.len()), (35, 0));
        let left = queue(&db, &dataset.name, &experts[0]).await.expect("queue");
        assert_eq!(
            left.iter().map(|e| e.id).collect::<Vec<_>>(),
            [done],
            "the label stays"
        );
        assert_eq!(
            queue(&db, &dataset.name, &experts[2])
                .await
                .expect("queue")
                .len(),
            35
        );
        let per_item: Vec<(i64,)> =
            sqlx::query_as("SELECT COUNT(*) FROM review_assignments GROUP BY item_id")
                .fetch_all(db.pool())
                .await
                .expect("counts");
        assert!(per_item.iter().all(|&(n,)| n == 2));
        // The list pages and filters what was stored.
        let filter = ManageFilter {
            expert: Some("丙".into()),
            ..Default::default()
        };
        let list = manage_list(&db, &manager, &names, &filter, 1)
            .await
            .expect("list");
        assert_eq!((list.matching, list.pages, list.rows.len()), (35, 1, 35));
        let submitted = ManageFilter {
            status: Some(ItemStatus::Submitted),
            ..Default::default()
        };
        let list = manage_list(&db, &manager, &names, &submitted, 1)
            .await
            .expect("list");
        assert_eq!(list.rows.iter().map(|r| r.id).collect::<Vec<_>>(), [done]);
        assert!(!list.rows[0].created_at.is_empty());
        // A second run has nothing left to move.
        let again = reassign(&db, &manager, &names, "甲", None)
            .await
            .expect("again");
        assert_eq!(again.moved, 0);
    }
}
