//! The agreement dashboard of one viewer ([`engine::review::Dashboard::of`]
//! over the dataset's item records and the classes of their cases), and the
//! export of every label of every item for a [`Manager`].

use std::collections::{BTreeSet, HashMap};

use engine::accounts::Permission;
use engine::review::{Dashboard, ExportChange, ExportItem, ExportLabel};
use engine::vocab::Class;

use super::{
    as_viewer, parse_case, records, AssignmentRow, ItemRow, ASSIGNMENT_SELECT, ITEM_SELECT,
};
use crate::users::User;
use crate::{Db, Result};

/// Proof that an account manages review (an admin): the key to the export of
/// every label of every item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manager(User);

impl Manager {
    /// The account, if it may manage review.
    pub fn of(user: User) -> Option<Self> {
        user.allows(Permission::ManageReview)
            .then_some(Manager(user))
    }
}

/// The agreement dashboard of the dataset for `viewer`. An adjudicator's is
/// computed over every item (but a designated expert's own items only once
/// they have submitted them), with the list of disagreements; an expert's
/// over the items they have submitted only, without that list, so that no
/// figure depends on a label they may not see yet. Progress counts are
/// everyone's. See [`engine::review::Dashboard::of`].
pub async fn dashboard(db: &Db, dataset_name: &str, viewer: &User) -> Result<Dashboard> {
    let items = records(db, dataset_name).await?;
    let mut classes: HashMap<i64, HashMap<String, Class>> = HashMap::new();
    for dataset_id in items.iter().map(|i| i.dataset_id).collect::<BTreeSet<_>>() {
        let cases = crate::cases::all(db, dataset_id).await?;
        classes.insert(
            dataset_id,
            cases.iter().map(|c| (c.case_id.clone(), c.class)).collect(),
        );
    }
    Ok(Dashboard::of(&as_viewer(viewer), &items, |item| {
        classes
            .get(&item.dataset_id)
            .and_then(|c| c.get(&item.case_id))
            .copied()
    }))
}

/// Every review item of every dataset, by id, with every expert's label, the
/// final label and the label history: what the export writes.
pub async fn export(db: &Db, _manager: &Manager) -> Result<Vec<ExportItem>> {
    let items: Vec<ItemRow> = sqlx::query_as(&format!("{ITEM_SELECT} ORDER BY i.id"))
        .fetch_all(db.pool())
        .await?;
    let versions: HashMap<i64, i64> = sqlx::query_as("SELECT id, version FROM datasets")
        .fetch_all(db.pool())
        .await?
        .into_iter()
        .collect();
    let assignments: Vec<AssignmentRow> =
        sqlx::query_as(&format!("{ASSIGNMENT_SELECT} ORDER BY a.item_id, u.name"))
            .fetch_all(db.pool())
            .await?;
    let mut labels: HashMap<i64, Vec<ExportLabel>> = HashMap::new();
    for a in assignments {
        labels.entry(a.item_id).or_default().push(ExportLabel {
            expert: a.expert,
            label: a.label,
            comment: a.comment,
            proposal: parse_case(a.proposal.as_deref())?,
            submitted_at: a.submitted_at,
            blind_label: a.blind_label,
            seconds: a.seconds.and_then(|s| u32::try_from(s).ok()),
            unclear: a.unclear,
        });
    }
    type HistoryRow = (i64, String, String, String, String, String, Option<i64>);
    let history: Vec<HistoryRow> = sqlx::query_as(
        "SELECT item_id, author, action, label, comment, at, seconds FROM review_label_history
         ORDER BY item_id, id",
    )
    .fetch_all(db.pool())
    .await?;
    let mut changes: HashMap<i64, Vec<ExportChange>> = HashMap::new();
    for (item_id, author, action, label, comment, at, seconds) in history {
        changes.entry(item_id).or_default().push(ExportChange {
            author,
            action,
            label,
            comment,
            at,
            seconds: seconds.and_then(|s| u32::try_from(s).ok()),
        });
    }
    items
        .into_iter()
        .map(|item| {
            Ok(ExportItem {
                item_id: item.id,
                dataset: match versions.get(&item.dataset_id) {
                    Some(version) => format!("{}@{version}", item.dataset_name),
                    None => item.dataset_name.clone(),
                },
                kind: item.kind()?,
                task: item.task()?,
                target: item.target.clone(),
                case_id: item.case_id.clone(),
                model: item.model.clone(),
                run: item.run_number,
                judge_label: item.judge_label.clone(),
                labels: labels.remove(&item.id).unwrap_or_default(),
                final_label: item.final_label.clone(),
                final_proposal: parse_case(item.final_proposal.as_deref())?,
                final_source: item.final_source.clone(),
                final_reason: item.final_reason.clone(),
                final_by: item.final_by.clone(),
                final_at: item.final_at.clone(),
                history: changes.remove(&item.id).unwrap_or_default(),
            })
        })
        .collect()
}
