//! Expert review storage: review items, their assignment to experts, drafts,
//! labels, adjudication, the dashboard's figures and the export of every
//! label. Only SQL, the mapping of rows and the lookup of accounts live here:
//! the review rules (who sees what, what a label must be, where an item
//! stands, who may adjudicate and what a decision adopts, what a
//! judge-verdict item shows, who gets assigned, how the dashboard counts) are
//! in [`engine::review`], over the [`ItemRecord`]s and [`AssignmentRecord`]s
//! this module reads.
//!
//! One file per entity:
//!
//! - `items.rs`: creation of items from the current dataset version (seed
//!   dialogues, case checks, a sample of judge verdicts, a sample of
//!   PLawBench rubric verdicts stratified by task), the judge verdicts
//!   kept back from drill-downs and the decisions left out of public
//!   figures ([`open_decisions`]), and an item as one viewer may see it
//!   ([`item_for_viewer`]).
//! - `assignments.rs`: assignment to experts (by name, or balanced), an
//!   expert's [`queue`], drafts.
//! - `labels.rs`: [`submit`]: an expert's label, its blind label, the
//!   agreement it may complete, the label history.
//! - `adjudication.rs`: the [`adjudication_queue`] and [`adjudicate`].
//! - `corrections.rs`: seed corrections adopted by review, saved as case
//!   revisions in the same transaction as the label that adopts them.
//! - `dashboard.rs`: the agreement [`dashboard()`] and the [`export`] of
//!   every label.
//!
//! This file holds the rows, their mapping to records and the reads the
//! others share.
//!
//! **Blindness is enforced here**, by returning only what the engine's rules
//! reveal. Before an expert has submitted their own label for an item,
//! nothing this module returns to them carries the judge's label or another
//! expert's label or comment: [`item_for_viewer`] reveals them only once the
//! viewer has submitted ([`ItemRecord::visibility`]), [`queue`] gives
//! statuses only, and [`dashboard()`] computes an expert's figures
//! over the items they have submitted. What shows every label asks for proof:
//! [`adjudication_queue`] an [`Adjudicator`] (an admin, or an expert an admin
//! designated, who still labels their own items blind and never adjudicates
//! them), [`export`] a [`Manager`] (an admin).
//!
//! **Life of an item.** Created by an admin from the current dataset version
//! (one per seed case, one per case, or a stratified sample of stored judge
//! verdicts); assigned to two experts (or more, explicitly); each saves
//! drafts and submits, and may revise until the item is final. Once every
//! expert has submitted, an item whose *blind* labels agree is final at once
//! (`agreed`); otherwise it waits for an adjudicator, who records the final
//! label with a reason (`adjudicated`, revisable). A blind label is one given
//! before any other expert's label could be seen
//! ([`engine::review::submission_is_blind`]): revising to match another
//! expert after the reveal is kept, for the adjudicator to read, but the item
//! still goes to adjudication and agreement figures count the blind label.
//! Every submission and adjudication is kept in the label history.
//!
//! Items, queues and figures are per dataset *name*: a correction of a case
//! makes a new dataset version, and items made on an earlier version stay in
//! their queues (showing the case as it was when the item was made).
//!
//! Every write is one transaction and is announced on the change feed as
//! [`crate::events::Change::ReviewChanged`].

mod adjudication;
mod assignments;
mod corrections;
mod dashboard;
pub(crate) mod items;
mod labels;
#[cfg(test)]
mod testing;

use std::collections::HashMap;

use engine::lexpilot::dataset::Case;
use engine::lexpilot::run::Task;
use engine::review::{AssignmentRecord, FinalSource, ItemRecord, ReviewKind, Viewer};
use sqlx::AnyConnection;

use crate::users::User;
use crate::{Db, DbError, Result};

pub use adjudication::{
    adjudicate, adjudication_queue, Adjudicated, AdjudicationEntry, Adjudicator,
};
pub use assignments::{assign, auto_assign, manage_list, queue, reassign, save_draft, Reassigned};
pub use dashboard::{dashboard, export, Manager};
pub use engine::review::{
    Dashboard, ExpertProgress, ItemStatus, JudgeSample, QueueEntry, Revealed, Submission,
    DEFAULT_CAP, DEFAULT_PER_MODEL, DEFAULT_SEED, EXPERTS_PER_ITEM, MAX_COMMENT_CHARS,
    MAX_DRAFT_BYTES,
};
pub use items::{
    create_case_check_items, create_client_style_items, create_judge_items, create_rubric_items,
    create_seed_items, item_for_viewer, open_client_styles, open_decisions, open_judge_verdicts,
    open_rubric_verdicts, Created, ItemView, RubricSample, StyleSample,
};
pub use labels::{flag_unclear, submit, Submitted, MAX_SECONDS, MAX_UNCLEAR_CHARS};

#[derive(Debug, Clone, sqlx::FromRow)]
struct ItemRow {
    id: i64,
    dataset_id: i64,
    dataset_name: String,
    kind: String,
    case_id: String,
    model: Option<String>,
    run_number: Option<i64>,
    task: Option<String>,
    target: Option<String>,
    judge_label: Option<String>,
    input: String,
    final_label: Option<String>,
    final_proposal: Option<String>,
    final_source: Option<String>,
    final_reason: Option<String>,
    final_by: Option<String>,
    final_at: Option<String>,
    created_at: String,
}

const ITEM_SELECT: &str = "SELECT i.id, i.dataset_id, i.dataset_name, i.kind, i.case_id,
        i.model, i.run_number, i.task, i.target, i.judge_label, i.input, i.final_label,
        i.final_proposal, i.final_source, i.final_reason, u.name AS final_by, i.final_at,
        i.created_at
     FROM review_items i LEFT JOIN users u ON u.id = i.final_by";

impl ItemRow {
    fn kind(&self) -> Result<ReviewKind> {
        ReviewKind::parse(&self.kind)
            .ok_or_else(|| DbError::Corrupt(format!("review item kind {:?}", self.kind)))
    }

    fn task(&self) -> Result<Option<Task>> {
        self.task
            .as_deref()
            .map(|t| Task::parse(t).ok_or_else(|| DbError::Corrupt(format!("review task {t:?}"))))
            .transpose()
    }

    /// The item as the rules read it, with its assignments.
    fn record(&self, assignments: Vec<AssignmentRecord>) -> Result<ItemRecord> {
        let final_source = self
            .final_source
            .as_deref()
            .map(|s| {
                FinalSource::parse(s)
                    .ok_or_else(|| DbError::Corrupt(format!("review final source {s:?}")))
            })
            .transpose()?;
        let kind = self.kind()?;
        let sheet = if kind == ReviewKind::RubricVerdict {
            let input: serde_json::Value = serde_json::from_str(&self.input)
                .map_err(|e| DbError::Corrupt(format!("review item input: {e}")))?;
            let sheet = serde_json::from_value(input.get("sheet").cloned().unwrap_or_default())
                .map_err(|e| DbError::Corrupt(format!("review item {} sheet: {e}", self.id)))?;
            Some(sheet)
        } else {
            None
        };
        Ok(ItemRecord {
            id: self.id,
            dataset_id: self.dataset_id,
            kind,
            sheet,
            case_id: self.case_id.clone(),
            task: self.task()?,
            target: self.target.clone(),
            judge_label: self.judge_label.clone(),
            final_label: self.final_label.clone(),
            final_proposal: parse_case(self.final_proposal.as_deref())?,
            final_source,
            final_reason: self.final_reason.clone(),
            assignments,
            created_at: self.created_at.clone(),
        })
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
struct AssignmentRow {
    item_id: i64,
    expert_id: i64,
    expert: String,
    label: Option<String>,
    comment: Option<String>,
    proposal: Option<String>,
    draft: Option<String>,
    submitted_at: Option<String>,
    blind_label: Option<String>,
    blind_proposal: Option<String>,
    seconds: Option<i64>,
    unclear: Option<String>,
}

const ASSIGNMENT_SELECT: &str = "SELECT a.item_id, a.expert_id, u.name AS expert, a.label,
        a.comment, a.proposal, a.draft, a.submitted_at, a.blind_label, a.blind_proposal,
        a.seconds, a.unclear
     FROM review_assignments a JOIN users u ON u.id = a.expert_id";

impl AssignmentRow {
    /// The assignment as the rules read it.
    fn record(self) -> Result<AssignmentRecord> {
        Ok(AssignmentRecord {
            expert_id: self.expert_id,
            proposal: parse_case(self.proposal.as_deref())?,
            blind_proposal: parse_case(self.blind_proposal.as_deref())?,
            expert: self.expert,
            label: self.label,
            comment: self.comment,
            draft: self.draft,
            submitted_at: self.submitted_at,
            blind_label: self.blind_label,
            seconds: self.seconds.and_then(|s| u32::try_from(s).ok()),
            unclear: self.unclear,
        })
    }
}

fn parse_case(json: Option<&str>) -> Result<Option<Case>> {
    json.map(|j| {
        serde_json::from_str(j).map_err(|e| DbError::Corrupt(format!("stored proposal: {e}")))
    })
    .transpose()
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| DbError::Invalid(e.to_string()))
}

/// An input the engine's rules refused ([`engine::review::InputError`]):
/// invalid, with its message.
fn invalid(e: engine::review::InputError) -> DbError {
    DbError::Invalid(e.to_string())
}

/// The account as the review rules see it.
fn as_viewer(user: &User) -> Viewer {
    Viewer {
        id: user.id,
        standing: user.standing(),
    }
}

fn not_found(id: i64) -> DbError {
    DbError::NotFound(format!("no review item {id}"))
}

async fn item_row(db: &Db, id: i64) -> Result<ItemRow> {
    item_row_on(&mut *db.pool().acquire().await?, id).await
}

async fn item_row_on(conn: &mut AnyConnection, id: i64) -> Result<ItemRow> {
    sqlx::query_as(&format!("{ITEM_SELECT} WHERE i.id = $1"))
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| not_found(id))
}

async fn item_rows(db: &Db, dataset_name: &str) -> Result<Vec<ItemRow>> {
    Ok(sqlx::query_as(&format!(
        "{ITEM_SELECT} WHERE i.dataset_name = $1 ORDER BY i.id"
    ))
    .bind(dataset_name)
    .fetch_all(db.pool())
    .await?)
}

async fn assignments_on(conn: &mut AnyConnection, item_id: i64) -> Result<Vec<AssignmentRecord>> {
    let rows: Vec<AssignmentRow> = sqlx::query_as(&format!(
        "{ASSIGNMENT_SELECT} WHERE a.item_id = $1 ORDER BY a.expert_id"
    ))
    .bind(item_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.into_iter().map(AssignmentRow::record).collect()
}

/// Item `id` (its row, and its record with every assignment).
async fn record(db: &Db, id: i64) -> Result<(ItemRow, ItemRecord)> {
    record_on(&mut *db.pool().acquire().await?, id).await
}

/// [`record`] read on `conn`.
async fn record_on(conn: &mut AnyConnection, id: i64) -> Result<(ItemRow, ItemRecord)> {
    let row = item_row_on(conn, id).await?;
    let record = row.record(assignments_on(conn, id).await?)?;
    Ok((row, record))
}

/// Every item of the dataset with its assignments, by id, experts in id order.
pub async fn records(db: &Db, dataset_name: &str) -> Result<Vec<ItemRecord>> {
    let items = item_rows(db, dataset_name).await?;
    let rows: Vec<AssignmentRow> = sqlx::query_as(&format!(
        "{ASSIGNMENT_SELECT} JOIN review_items i ON i.id = a.item_id
         WHERE i.dataset_name = $1 ORDER BY a.item_id, a.expert_id"
    ))
    .bind(dataset_name)
    .fetch_all(db.pool())
    .await?;
    with_assignments(items, rows)
}

/// The items of `kind` on version `dataset_id` with their assignments, as
/// [`records`] gives them (a page that needs one kind of one version reads
/// only those).
pub async fn records_of_kind(
    db: &Db,
    dataset_id: i64,
    kind: ReviewKind,
) -> Result<Vec<ItemRecord>> {
    let items: Vec<ItemRow> = sqlx::query_as(&format!(
        "{ITEM_SELECT} WHERE i.dataset_id = $1 AND i.kind = $2 ORDER BY i.id"
    ))
    .bind(dataset_id)
    .bind(kind.as_str())
    .fetch_all(db.pool())
    .await?;
    let rows: Vec<AssignmentRow> = sqlx::query_as(&format!(
        "{ASSIGNMENT_SELECT} JOIN review_items i ON i.id = a.item_id
         WHERE i.dataset_id = $1 AND i.kind = $2 ORDER BY a.item_id, a.expert_id"
    ))
    .bind(dataset_id)
    .bind(kind.as_str())
    .fetch_all(db.pool())
    .await?;
    with_assignments(items, rows)
}

/// `items` as records, each with its rows of `rows`.
fn with_assignments(items: Vec<ItemRow>, rows: Vec<AssignmentRow>) -> Result<Vec<ItemRecord>> {
    let mut by_item: HashMap<i64, Vec<AssignmentRecord>> = HashMap::new();
    for row in rows {
        by_item.entry(row.item_id).or_default().push(row.record()?);
    }
    items
        .iter()
        .map(|item| item.record(by_item.remove(&item.id).unwrap_or_default()))
        .collect()
}

/// The case `case_id` of dataset version `dataset_id`, if it is there.
async fn case_of(db: &Db, dataset_id: i64, case_id: &str) -> Result<Option<Case>> {
    case_on(&mut *db.pool().acquire().await?, db, dataset_id, case_id).await
}

/// [`case_of`] read on `conn`. `dataset_id` must be a committed version.
async fn case_on(
    conn: &mut AnyConnection,
    db: &Db,
    dataset_id: i64,
    case_id: &str,
) -> Result<Option<Case>> {
    let cases = crate::cases::all_on(conn, db, dataset_id).await?;
    Ok(cases.iter().find(|c| c.case_id == case_id).cloned())
}
