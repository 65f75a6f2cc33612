//! Expert review: review items, their assignment to experts, drafts, labels,
//! adjudication, the dashboard's figures and the export of every label.
//!
//! **Blindness is enforced here.** Before an expert has submitted their own
//! label for an item, nothing this module returns to them carries the judge's
//! label or another expert's label or comment: [`item_for_viewer`] reveals
//! them only once the viewer has submitted, [`queue`] gives statuses only,
//! and [`dashboard`] computes an expert's figures over the items they have
//! submitted. What shows every label asks for proof: [`adjudication_queue`]
//! an [`Adjudicator`] (an admin, or an expert an admin designated, who still
//! labels their own items blind and never adjudicates them), [`export`] a
//! [`Manager`] (an admin).
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

use std::collections::{BTreeMap, BTreeSet, HashMap};

use engine::accounts::{Permission, Role};
use engine::dataset::Case;
use engine::review::{
    agreed, apply_correction, canonical_label, dashboard_rows, disagreements, flag_spans,
    sample_stratified, submission_is_blind, unit_space, Correction, DashboardRow, DcgDecision,
    ExportChange, ExportItem, ExportLabel, Flag, ReviewKind, ReviewedItem, SEED_LABELS,
};
use engine::run::{parse_run, Task};
use engine::vocab::Class;
use serde_json::{json, Value};
use sqlx::{Sqlite, SqliteConnection, Transaction};

use crate::datasets::DatasetInfo;
use crate::events::Change;
use crate::revisions::{CorrectionOutcome, Prepared};
use crate::users::User;
use crate::{now, Db, DbError, Result};

/// How many experts auto-assignment gives each item.
pub const EXPERTS_PER_ITEM: usize = 2;
/// The largest draft kept, in bytes.
pub const MAX_DRAFT_BYTES: usize = 256 * 1024;
/// The longest comment or reason, in characters.
pub const MAX_COMMENT_CHARS: usize = 10_000;
/// The judge sample of the paper (Appendix E.3.1): 10 verdicts of each model,
/// 100 per task.
pub const DEFAULT_PER_MODEL: usize = 10;
/// See [`DEFAULT_PER_MODEL`].
pub const DEFAULT_CAP: usize = 100;
/// The seed used when none is given.
pub const DEFAULT_SEED: u64 = 2026;

/// What a creation did: items new, and items that existed already.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Created {
    pub created: usize,
    pub existing: usize,
}

/// How to draw judge verdicts for review.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JudgeSample {
    pub task: Task,
    /// Verdicts drawn per model.
    pub per_model: usize,
    /// Verdicts drawn in all.
    pub cap: usize,
    pub seed: u64,
}

/// Proof that an account may adjudicate: an admin, or an expert an admin
/// designated ([`crate::users::set_adjudicator`]). It opens the adjudication
/// queue, which shows every label of the items waiting there. A designated
/// expert never adjudicates an item assigned to them, and stays blind on
/// their own items until they submit, like any expert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjudicator(User);

impl Adjudicator {
    /// The account, if it may adjudicate.
    pub fn of(user: User) -> Option<Self> {
        user.allows(Permission::Adjudicate)
            .then_some(Adjudicator(user))
    }

    pub fn user(&self) -> &User {
        &self.0
    }

    /// Whether this adjudicator may decide an item with these assignments:
    /// not when they are one of its experts.
    fn may_decide(&self, assignments: &[&AssignmentRow]) -> bool {
        !assignments.iter().any(|a| a.expert_id == self.0.id)
    }
}

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

/// Whether `viewer` sees every label of an item with these assignments: an
/// adjudicator does, except on an item assigned to them that they have not
/// submitted yet (there they are blind like any expert).
fn sees_all(viewer: &User, assignments: &[&AssignmentRow]) -> bool {
    viewer.allows(Permission::Adjudicate)
        && !assignments
            .iter()
            .any(|a| a.expert_id == viewer.id && a.submitted_at.is_none())
}

/// Where an item stands, for one viewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ItemStatus {
    /// The viewer has not submitted (for an adjudicator: not every expert has).
    Todo,
    /// Submitted; waiting for the other expert(s).
    Submitted,
    /// Every expert submitted and they disagree: waiting for an adjudicator.
    Adjudication,
    /// The item has its final label.
    Final,
}

impl ItemStatus {
    /// `todo`, `submitted`, `adjudication` or `final`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Todo => "todo",
            Self::Submitted => "submitted",
            Self::Adjudication => "adjudication",
            Self::Final => "final",
        }
    }
}

/// One item of an expert's queue.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueEntry {
    pub id: i64,
    pub kind: ReviewKind,
    pub case_id: String,
    pub task: Option<Task>,
    pub target: Option<String>,
    pub status: ItemStatus,
}

/// An expert's submitted label.
#[derive(Debug, Clone, PartialEq)]
pub struct Submission {
    pub expert: String,
    pub label: String,
    pub comment: String,
    /// The corrected case of a seed correction.
    pub proposal: Option<Case>,
    pub submitted_at: String,
    /// The label agreement counts ([`engine::review::submission_is_blind`]):
    /// the same as `label` unless the expert revised after the reveal.
    pub blind_label: String,
    /// The corrected case of the blind label.
    pub blind_proposal: Option<Case>,
}

impl Submission {
    /// Whether the expert changed their label (or correction) after seeing
    /// another expert's.
    pub fn revised_after_reveal(&self) -> bool {
        self.label != self.blind_label || self.proposal != self.blind_proposal
    }
}

/// What is shown once the viewer has submitted (and always to adjudicators).
#[derive(Debug, Clone, PartialEq)]
pub struct Revealed {
    /// The other experts' submitted labels.
    pub others: Vec<Submission>,
    pub judge_label: Option<String>,
    pub final_label: Option<String>,
    pub final_proposal: Option<Case>,
    pub final_reason: Option<String>,
    /// `agreed` or `adjudicated`.
    pub final_source: Option<String>,
}

/// A review item as one viewer may see it.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemView {
    pub id: i64,
    pub kind: ReviewKind,
    pub case_id: String,
    pub task: Option<Task>,
    pub target: Option<String>,
    /// The case as it stood in the dataset version the item was made on.
    pub case: Option<Case>,
    /// What the expert reviews besides the case (a judge verdict's input).
    pub input: Value,
    /// Pre-flags of the case, for seed dialogues and case checks.
    pub flags: Vec<Flag>,
    /// The label space of one unit.
    pub labels: Vec<String>,
    /// For an LJP judge verdict, the claims a label gives verdicts for; else 0.
    pub claims: usize,
    /// The viewer's own label, once submitted.
    pub mine: Option<Submission>,
    /// The viewer's autosaved draft.
    pub draft: Option<String>,
    pub status: ItemStatus,
    /// `None` until the viewer has submitted; adjudicators always get it.
    pub revealed: Option<Revealed>,
    /// The neighbours in the viewer's queue (for an adjudicator who is not
    /// assigned: among all items).
    pub previous: Option<i64>,
    pub next: Option<i64>,
}

/// An item waiting for an adjudicator.
#[derive(Debug, Clone, PartialEq)]
pub struct AdjudicationEntry {
    pub id: i64,
    pub kind: ReviewKind,
    pub case_id: String,
    pub task: Option<Task>,
    pub target: Option<String>,
    pub submissions: Vec<Submission>,
    pub judge_label: Option<String>,
    /// For a seed dialogue: the case has been corrected since the item was
    /// made, so no expert's corrected case can be applied over it (the
    /// experts may agree and the item still wait here).
    pub case_changed: bool,
    /// For a seed dialogue: the case as the item shows it, which the
    /// experts' corrected cases change.
    pub case: Option<Case>,
}

/// What an adjudication did besides recording the final label.
#[derive(Debug, Clone, PartialEq)]
pub struct Adjudicated {
    /// The correction it applied (a seed dialogue adjudicated `correct`), in
    /// the same transaction: its revision and the new dataset version.
    pub correction: Option<CorrectionOutcome>,
}

/// What a submission did besides recording the label.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Submitted {
    /// Every expert has submitted and they agree: the item is final.
    pub final_label: Option<String>,
    /// The correction the agreement applied (every expert proposed the same
    /// corrected seed case), in the same transaction.
    pub correction: Option<CorrectionOutcome>,
}

/// One expert's progress: labels submitted, items assigned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpertProgress {
    pub expert: String,
    pub done: usize,
    pub assigned: usize,
}

/// The agreement dashboard.
#[derive(Debug, Clone, PartialEq)]
pub struct Dashboard {
    /// Figures per kind and task, over all classes and per class.
    pub rows: Vec<DashboardRow>,
    /// Items whose experts disagreed (adjudicators only; empty for experts).
    pub disagreements: Vec<i64>,
    pub progress: Vec<ExpertProgress>,
    /// Items of the dataset.
    pub items: usize,
    /// Items with a final label.
    pub items_final: usize,
    /// Items waiting for an adjudicator.
    pub items_in_adjudication: usize,
}

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
}

const ITEM_SELECT: &str = "SELECT i.id, i.dataset_id, i.dataset_name, i.kind, i.case_id,
        i.model, i.run_number, i.task, i.target, i.judge_label, i.input, i.final_label,
        i.final_proposal, i.final_source, i.final_reason, u.name AS final_by, i.final_at
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
}

const ASSIGNMENT_SELECT: &str = "SELECT a.item_id, a.expert_id, u.name AS expert, a.label,
        a.comment, a.proposal, a.draft, a.submitted_at, a.blind_label, a.blind_proposal
     FROM review_assignments a JOIN users u ON u.id = a.expert_id";

impl AssignmentRow {
    fn submission(&self) -> Result<Option<Submission>> {
        let (Some(label), Some(submitted_at)) = (&self.label, &self.submitted_at) else {
            return Ok(None);
        };
        let proposal = parse_case(self.proposal.as_deref())?;
        let (blind_label, blind_proposal) = match &self.blind_label {
            Some(blind) => (blind.clone(), parse_case(self.blind_proposal.as_deref())?),
            None => (label.clone(), proposal.clone()),
        };
        Ok(Some(Submission {
            expert: self.expert.clone(),
            label: label.clone(),
            comment: self.comment.clone().unwrap_or_default(),
            proposal,
            submitted_at: submitted_at.clone(),
            blind_label,
            blind_proposal,
        }))
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

/// Where an item stands: `final` with a final label, `adjudication` when at
/// least two experts are assigned and all submitted (without agreeing, or it
/// would be final), `submitted` when some did, else `todo`.
fn item_status(item: &ItemRow, assignments: &[&AssignmentRow]) -> ItemStatus {
    let submitted = assignments
        .iter()
        .filter(|a| a.submitted_at.is_some())
        .count();
    if item.final_label.is_some() {
        ItemStatus::Final
    } else if assignments.len() >= EXPERTS_PER_ITEM && submitted == assignments.len() {
        ItemStatus::Adjudication
    } else if submitted > 0 {
        ItemStatus::Submitted
    } else {
        ItemStatus::Todo
    }
}

/// The status `viewer` sees: `todo` until they have submitted.
fn status_for(viewer_submitted: bool, overall: ItemStatus) -> ItemStatus {
    if viewer_submitted {
        overall
    } else {
        ItemStatus::Todo
    }
}

fn not_found(id: i64) -> DbError {
    DbError::NotFound(format!("no review item {id}"))
}

async fn item_row(db: &Db, id: i64) -> Result<ItemRow> {
    item_row_on(&mut *db.pool().acquire().await?, id).await
}

async fn item_row_on(conn: &mut SqliteConnection, id: i64) -> Result<ItemRow> {
    sqlx::query_as(&format!("{ITEM_SELECT} WHERE i.id = ?"))
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| not_found(id))
}

async fn item_rows(db: &Db, dataset_name: &str) -> Result<Vec<ItemRow>> {
    Ok(sqlx::query_as(&format!(
        "{ITEM_SELECT} WHERE i.dataset_name = ? ORDER BY i.id"
    ))
    .bind(dataset_name)
    .fetch_all(db.pool())
    .await?)
}

async fn assignments_of(db: &Db, item_id: i64) -> Result<Vec<AssignmentRow>> {
    assignments_on(&mut *db.pool().acquire().await?, item_id).await
}

async fn assignments_on(conn: &mut SqliteConnection, item_id: i64) -> Result<Vec<AssignmentRow>> {
    Ok(sqlx::query_as(&format!(
        "{ASSIGNMENT_SELECT} WHERE a.item_id = ? ORDER BY a.expert_id"
    ))
    .bind(item_id)
    .fetch_all(&mut *conn)
    .await?)
}

/// Every assignment of the items of a dataset, by item, experts in id order.
async fn assignments_by_item(
    db: &Db,
    dataset_name: &str,
) -> Result<HashMap<i64, Vec<AssignmentRow>>> {
    let rows: Vec<AssignmentRow> = sqlx::query_as(&format!(
        "{ASSIGNMENT_SELECT} JOIN review_items i ON i.id = a.item_id
         WHERE i.dataset_name = ? ORDER BY a.item_id, a.expert_id"
    ))
    .bind(dataset_name)
    .fetch_all(db.pool())
    .await?;
    let mut by_item: HashMap<i64, Vec<AssignmentRow>> = HashMap::new();
    for row in rows {
        by_item.entry(row.item_id).or_default().push(row);
    }
    Ok(by_item)
}

/// The case `case_id` of dataset version `dataset_id`, if it is there.
async fn case_of(db: &Db, dataset_id: i64, case_id: &str) -> Result<Option<Case>> {
    case_on(&mut *db.pool().acquire().await?, db, dataset_id, case_id).await
}

/// [`case_of`] read on `conn`. `dataset_id` must be a committed version.
async fn case_on(
    conn: &mut SqliteConnection,
    db: &Db,
    dataset_id: i64,
    case_id: &str,
) -> Result<Option<Case>> {
    let cases = crate::cases::all_on(conn, db, dataset_id).await?;
    Ok(cases.iter().find(|c| c.case_id == case_id).cloned())
}

/// An item to insert.
struct NewItem {
    kind: ReviewKind,
    case_id: String,
    run_id: Option<i64>,
    model: Option<String>,
    run_number: Option<i64>,
    task: Option<Task>,
    target: Option<String>,
    judge_label: Option<String>,
    input: Value,
}

impl NewItem {
    fn of_case(kind: ReviewKind, case: &Case) -> Self {
        NewItem {
            kind,
            case_id: case.case_id.clone(),
            run_id: None,
            model: None,
            run_number: None,
            task: None,
            target: None,
            judge_label: None,
            input: json!({}),
        }
    }
}

/// Inserts `items` (skipping those whose natural key exists) in one transaction.
async fn insert_items(
    db: &Db,
    dataset: &DatasetInfo,
    items: Vec<NewItem>,
    created_by: &User,
) -> Result<Created> {
    let mut tx = crate::begin_write(db).await?;
    let mut outcome = Created::default();
    let at = now();
    for item in items {
        let id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO review_items (dataset_id, dataset_name, kind, case_id, run_id, model,
                 run_number, task, target, judge_label, input, created_by, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT DO NOTHING RETURNING id",
        )
        .bind(dataset.id)
        .bind(&dataset.name)
        .bind(item.kind.as_str())
        .bind(&item.case_id)
        .bind(item.run_id)
        .bind(&item.model)
        .bind(item.run_number)
        .bind(item.task.map(Task::as_str))
        .bind(&item.target)
        .bind(&item.judge_label)
        .bind(to_json(&item.input)?)
        .bind(created_by.id)
        .bind(&at)
        .fetch_optional(&mut *tx)
        .await?;
        match id {
            Some(_) => outcome.created += 1,
            None => outcome.existing += 1,
        }
    }
    tx.commit().await?;
    if outcome.created > 0 {
        db.notify(Change::ReviewChanged { item_id: 0 });
    }
    Ok(outcome)
}

/// One seed-dialogue item per seed case of `dataset` (the expert approves the
/// seed pair or proposes a corrected case).
pub async fn create_seed_items(db: &Db, dataset: &DatasetInfo, by: &User) -> Result<Created> {
    let cases = crate::cases::all(db, dataset.id).await?;
    let items = cases
        .iter()
        .filter(|c| c.seed)
        .map(|c| NewItem::of_case(ReviewKind::SeedDialogue, c))
        .collect();
    insert_items(db, dataset, items, by).await
}

/// One case-check item per case of `dataset` (the four checks of Appendix B).
pub async fn create_case_check_items(db: &Db, dataset: &DatasetInfo, by: &User) -> Result<Created> {
    let cases = crate::cases::all(db, dataset.id).await?;
    let items = cases
        .iter()
        .map(|c| NewItem::of_case(ReviewKind::CaseCheck, c))
        .collect();
    insert_items(db, dataset, items, by).await
}

/// Which judge decision of a run a candidate is: run number, case, target.
type CandidateKey = (i64, String, String);

/// Judge-verdict items: a sample of the judge's decisions in the stored runs
/// of `dataset` for one task, drawn by
/// [`engine::review::sample_stratified`] over (model, decision) pairs, up to
/// `per_model` per model and `cap` in all, reproducibly from `seed`.
///
/// The decisions, and the judge label stored with each (never shown to an
/// expert before they submit):
///
/// - **LCA**: each (case, consultation) item with a label; the label,
///   `predict` or `ask`. The expert sees the model's reply.
/// - **DCG**: each case item with at least one request; `accepted` when the
///   judge accepted at least one request (the item's hit,
///   [`engine::run::DcgItem::hit`]), else `rejected`. The expert sees the
///   case's focal points, key facts and missing facts, and the request texts
///   (without the judge's per-request decisions).
/// - **LJP**: each (case, setup) item with predictions; the JSON array of the
///   predicted verdict per claim. The expert sees the claims (id and text),
///   the model's reply and the dialogue.
pub async fn create_judge_items(
    db: &Db,
    dataset: &DatasetInfo,
    sample: JudgeSample,
    by: &User,
) -> Result<Created> {
    let cases = crate::cases::all(db, dataset.id).await?;
    let runs: Vec<(i64, String, i64, String)> = sqlx::query_as(
        "SELECT id, model, run_number, items FROM runs WHERE dataset_id = ? ORDER BY id",
    )
    .bind(dataset.id)
    .fetch_all(db.pool())
    .await?;
    let mut candidates: BTreeMap<(String, CandidateKey), NewItem> = BTreeMap::new();
    for (run_id, model, run_number, text) in runs {
        let run = parse_run(&text, &cases)
            .map_err(|e| DbError::Corrupt(format!("stored run {model} {run_number}: {e}")))?;
        let mut add = |case_id: &str, target: Option<&str>, label: String, input: Value| {
            let key = (
                run_number,
                case_id.to_owned(),
                target.unwrap_or_default().to_owned(),
            );
            candidates.insert(
                (model.clone(), key),
                NewItem {
                    kind: ReviewKind::JudgeVerdict,
                    case_id: case_id.to_owned(),
                    run_id: Some(run_id),
                    model: Some(model.clone()),
                    run_number: Some(run_number),
                    task: Some(sample.task),
                    target: target.map(str::to_owned),
                    judge_label: Some(label),
                    input,
                },
            );
        };
        match sample.task {
            Task::Lca => {
                for item in &run.lca {
                    if let Some(label) = item.label {
                        add(
                            &item.case_id,
                            Some(item.consultation.as_str()),
                            label.as_str().to_owned(),
                            json!({
                                "consultation": item.consultation,
                                "response": item.response,
                            }),
                        );
                    }
                }
            }
            Task::Dcg => {
                for item in run.dcg.iter().filter(|i| !i.requests.is_empty()) {
                    let (Some(hit), Some(case)) =
                        (item.hit(), cases.iter().find(|c| c.case_id == item.case_id))
                    else {
                        continue;
                    };
                    let requests: Vec<&Option<String>> =
                        item.requests.iter().map(|r| &r.text).collect();
                    add(
                        &item.case_id,
                        None,
                        DcgDecision::from_accepted(hit).as_str().to_owned(),
                        json!({
                            "focal_points": case.focal_points,
                            "key_facts": case.key_facts,
                            "missing_facts": case.missing_facts,
                            "requests": requests,
                        }),
                    );
                }
            }
            Task::Ljp => {
                for item in &run.ljp {
                    let (Some(predictions), Some(case)) = (
                        &item.predictions,
                        cases.iter().find(|c| c.case_id == item.case_id),
                    ) else {
                        continue;
                    };
                    let claims: Vec<Value> = case
                        .claims
                        .iter()
                        .map(|c| json!({"id": c.id, "text": c.text}))
                        .collect();
                    add(
                        &item.case_id,
                        Some(item.setup.as_str()),
                        to_json(predictions)?,
                        json!({
                            "setup": item.setup,
                            "claims": claims,
                            "response": item.response,
                            "dialogue": item.dialogue,
                        }),
                    );
                }
            }
        }
    }
    let keys: Vec<(String, CandidateKey)> = candidates.keys().cloned().collect();
    let drawn = sample_stratified(&keys, sample.per_model, sample.cap, sample.seed);
    let items = drawn
        .into_iter()
        .filter_map(|key| candidates.remove(&key))
        .collect();
    insert_items(db, dataset, items, by).await
}

/// The judge verdicts of `model` on `task` that are open for review on the
/// dataset `dataset_name` (made into review items, not final yet): what a
/// drill-down keeps back from everyone but admins, so that an expert cannot
/// look up the judge's label of an item before labelling it.
pub async fn open_judge_verdicts(
    db: &Db,
    dataset_name: &str,
    model: &str,
    task: Task,
) -> Result<Vec<engine::drilldown::HiddenVerdict>> {
    let rows: Vec<(i64, String, Option<String>)> = sqlx::query_as(
        "SELECT run_number, case_id, target FROM review_items
         WHERE kind = 'judge_verdict' AND final_label IS NULL
           AND dataset_name = ? AND model = ? AND task = ?",
    )
    .bind(dataset_name)
    .bind(model)
    .bind(task.as_str())
    .fetch_all(db.pool())
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(run, case_id, target)| {
            Some(engine::drilldown::HiddenVerdict {
                run: u32::try_from(run).ok()?,
                case_id,
                target,
            })
        })
        .collect())
}

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
        db.notify(Change::ReviewChanged { item_id });
    }
    Ok(made)
}

async fn insert_assignments(
    tx: &mut Transaction<'_, Sqlite>,
    pairs: impl Iterator<Item = (i64, i64)>,
) -> Result<usize> {
    let at = now();
    let mut made = 0;
    for (item_id, expert_id) in pairs {
        let done = sqlx::query(
            "INSERT INTO review_assignments (item_id, expert_id, assigned_at) VALUES (?, ?, ?)
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
/// [`EXPERTS_PER_ITEM`] experts the experts it lacks, taken from the experts
/// named (or every expert account): each time the one with the fewest
/// assignments on this dataset so far (ties to the older account), never
/// twice the same on one item. Needs at least two experts. Returns the
/// assignments made.
pub async fn auto_assign(db: &Db, dataset_name: &str, names: Option<&[String]>) -> Result<usize> {
    let pool = experts(db, names).await?;
    if pool.len() < EXPERTS_PER_ITEM {
        return Err(DbError::Invalid(format!(
            "auto-assignment needs at least {EXPERTS_PER_ITEM} expert accounts; {} {}",
            pool.len(),
            if pool.len() == 1 {
                "is given"
            } else {
                "are given"
            }
        )));
    }
    let items = item_rows(db, dataset_name).await?;
    let assignments = assignments_by_item(db, dataset_name).await?;
    let mut load: BTreeMap<i64, usize> = pool.iter().map(|u| (u.id, 0)).collect();
    for rows in assignments.values() {
        for a in rows {
            if let Some(n) = load.get_mut(&a.expert_id) {
                *n += 1;
            }
        }
    }
    let mut pairs = Vec::new();
    for item in items.iter().filter(|i| i.final_label.is_none()) {
        let mut have: BTreeSet<i64> = assignments
            .get(&item.id)
            .map(|rows| rows.iter().map(|a| a.expert_id).collect())
            .unwrap_or_default();
        while have.len() < EXPERTS_PER_ITEM {
            let Some((&expert, _)) = load
                .iter()
                .filter(|(id, _)| !have.contains(id))
                .min_by_key(|&(&id, &n)| (n, id))
            else {
                break;
            };
            have.insert(expert);
            *load.entry(expert).or_default() += 1;
            pairs.push((item.id, expert));
        }
    }
    let mut tx = crate::begin_write(db).await?;
    let made = insert_assignments(&mut tx, pairs.into_iter()).await?;
    tx.commit().await?;
    if made > 0 {
        db.notify(Change::ReviewChanged { item_id: 0 });
    }
    Ok(made)
}

/// The items of the dataset assigned to `expert`, by id, with the status the
/// expert may see (`todo` until they have submitted).
pub async fn queue(db: &Db, dataset_name: &str, expert: &User) -> Result<Vec<QueueEntry>> {
    let items = item_rows(db, dataset_name).await?;
    let assignments = assignments_by_item(db, dataset_name).await?;
    let mut queue = Vec::new();
    for item in &items {
        let Some(rows) = assignments.get(&item.id) else {
            continue;
        };
        let Some(mine) = rows.iter().find(|a| a.expert_id == expert.id) else {
            continue;
        };
        let all: Vec<&AssignmentRow> = rows.iter().collect();
        queue.push(QueueEntry {
            id: item.id,
            kind: item.kind()?,
            case_id: item.case_id.clone(),
            task: item.task()?,
            target: item.target.clone(),
            status: status_for(mine.submitted_at.is_some(), item_status(item, &all)),
        });
    }
    Ok(queue)
}

/// Item `id` as `viewer` may see it. An expert sees only items assigned to
/// them (any other id is "not found", whether it exists or not), and the
/// judge's label, the other experts' labels and the final label only once
/// they have submitted their own. An adjudicator sees everything.
pub async fn item_for_viewer(db: &Db, id: i64, viewer: &User) -> Result<ItemView> {
    let item = item_row(db, id).await?;
    let rows = assignments_of(db, id).await?;
    let privileged = sees_all(viewer, &rows.iter().collect::<Vec<_>>());
    let mine = rows.iter().find(|a| a.expert_id == viewer.id);
    if mine.is_none() && !privileged {
        return Err(not_found(id));
    }
    let kind = item.kind()?;
    let task = item.task()?;
    let case = case_of(db, item.dataset_id, &item.case_id).await?;
    let submitted = mine.is_some_and(|a| a.submitted_at.is_some());
    let all: Vec<&AssignmentRow> = rows.iter().collect();
    let overall = item_status(&item, &all);
    let status = if mine.is_some() {
        status_for(submitted, overall)
    } else {
        overall
    };
    let revealed = if submitted || privileged {
        let others = rows
            .iter()
            .filter(|a| a.expert_id != viewer.id)
            .map(AssignmentRow::submission)
            .filter_map(Result::transpose)
            .collect::<Result<Vec<_>>>()?;
        Some(Revealed {
            others,
            judge_label: item.judge_label.clone(),
            final_label: item.final_label.clone(),
            final_proposal: parse_case(item.final_proposal.as_deref())?,
            final_reason: item.final_reason.clone(),
            final_source: item.final_source.clone(),
        })
    } else {
        None
    };
    let order: Vec<i64> = if mine.is_some() {
        queue(db, &item.dataset_name, viewer)
            .await?
            .iter()
            .map(|e| e.id)
            .collect()
    } else {
        sqlx::query_scalar("SELECT id FROM review_items WHERE dataset_name = ? ORDER BY id")
            .bind(&item.dataset_name)
            .fetch_all(db.pool())
            .await?
    };
    let at = order.iter().position(|&i| i == id);
    let flags = match (kind, &case) {
        (ReviewKind::SeedDialogue | ReviewKind::CaseCheck, Some(case)) => flag_spans(case),
        _ => Vec::new(),
    };
    let claims = match (task, &case) {
        (Some(Task::Ljp), Some(case)) => case.claims.len(),
        _ => 0,
    };
    let input = serde_json::from_str(&item.input)
        .map_err(|e| DbError::Corrupt(format!("review item input: {e}")))?;
    Ok(ItemView {
        id,
        kind,
        case_id: item.case_id.clone(),
        task,
        target: item.target.clone(),
        case,
        input,
        flags,
        labels: unit_space(kind, task)
            .unwrap_or_default()
            .into_iter()
            .map(str::to_owned)
            .collect(),
        claims,
        mine: mine.map(AssignmentRow::submission).transpose()?.flatten(),
        draft: mine.and_then(|a| a.draft.clone()),
        status,
        revealed,
        previous: at
            .and_then(|p| p.checked_sub(1))
            .and_then(|p| order.get(p).copied()),
        next: at.and_then(|p| order.get(p + 1).copied()),
    })
}

/// Keeps `draft` (any text, up to [`MAX_DRAFT_BYTES`]) as the expert's draft
/// for the item, replacing the previous one.
pub async fn save_draft(db: &Db, id: i64, expert: &User, draft: &str) -> Result<()> {
    if draft.len() > MAX_DRAFT_BYTES {
        return Err(DbError::Invalid(format!(
            "a draft holds at most {} KiB",
            MAX_DRAFT_BYTES / 1024
        )));
    }
    let done = sqlx::query(
        "UPDATE review_assignments SET draft = ?, draft_at = ? WHERE item_id = ? AND expert_id = ?",
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

fn check_comment(comment: &str, what: &str) -> Result<()> {
    if comment.chars().count() > MAX_COMMENT_CHARS {
        return Err(DbError::Invalid(format!(
            "a {what} holds at most {MAX_COMMENT_CHARS} characters"
        )));
    }
    Ok(())
}

/// The corrected case of a seed correction: `proposal` (the JSON of a whole
/// case) with its consultations, key facts, missing facts and claims applied
/// to `case` and checked with the dataset's rules.
fn corrected_case(case: &Case, proposal: &str) -> Result<Case> {
    let proposed: Case = serde_json::from_str(proposal)
        .map_err(|e| DbError::Invalid(format!("the corrected case is not a valid case: {e}")))?;
    if proposed.case_id != case.case_id {
        return Err(DbError::Invalid(format!(
            "the corrected case is {}, not {}",
            proposed.case_id, case.case_id
        )));
    }
    let correction = Correction {
        consultations: Some(proposed.consultations),
        key_facts: Some(proposed.key_facts),
        missing_facts: Some(proposed.missing_facts),
        claims: Some(proposed.claims),
    };
    let corrected =
        apply_correction(case, &correction).map_err(|e| DbError::Invalid(e.to_string()))?;
    if corrected == *case {
        return Err(DbError::Invalid(
            "the corrected case changes nothing; label the seed approve instead".into(),
        ));
    }
    Ok(corrected)
}

/// The label in its stored form, and the corrected case of a seed correction.
fn checked_label(
    kind: ReviewKind,
    task: Option<Task>,
    case: Option<&Case>,
    label: &str,
    proposal: Option<&str>,
) -> Result<(String, Option<Case>)> {
    let claims = case.map_or(0, |c| c.claims.len());
    let label =
        canonical_label(kind, task, claims, label).map_err(|e| DbError::Invalid(e.to_string()))?;
    let proposal = proposal.filter(|p| !p.trim().is_empty());
    let proposal = match (kind, label.as_str(), proposal) {
        (ReviewKind::SeedDialogue, "correct", Some(p)) => {
            let case = case.ok_or_else(|| {
                DbError::Invalid("the case of this item is no longer stored".into())
            })?;
            Some(corrected_case(case, p)?)
        }
        (ReviewKind::SeedDialogue, "correct", None) => {
            return Err(DbError::Invalid(
                "a correction needs the corrected case (proposal)".into(),
            ))
        }
        (_, _, Some(_)) => {
            return Err(DbError::Invalid(
                "only a seed dialogue correction takes a corrected case (proposal)".into(),
            ))
        }
        (_, _, None) => None,
    };
    Ok((label, proposal))
}

/// Records `expert`'s label (and comment; and for a seed correction the
/// corrected case, JSON) for item `id`, replacing an earlier submission, and
/// keeps it in the history. Refused for an item not assigned to the expert
/// (not found), a final item, or a label outside the item's label space
/// ([`engine::review::canonical_label`]; a seed correction is checked with
/// [`engine::review::apply_correction`] and must change something).
///
/// When every expert has submitted and they agree, the item becomes final.
/// If they agree on a corrected seed case, the correction is saved in the
/// same transaction (a case revision by the expert who submitted last and a
/// new dataset version, [`crate::revisions`]), unless the case has been
/// corrected since the item was made: then nothing is applied over the newer
/// revision and the item waits for an adjudicator.
pub async fn submit(
    db: &Db,
    id: i64,
    expert: &User,
    label: &str,
    comment: &str,
    proposal: Option<&str>,
) -> Result<Submitted> {
    let item = item_row(db, id).await?;
    if !assignments_of(db, id)
        .await?
        .iter()
        .any(|a| a.expert_id == expert.id)
    {
        return Err(not_found(id));
    }
    let kind = item.kind()?;
    let task = item.task()?;
    let case = case_of(db, item.dataset_id, &item.case_id).await?;
    let (label, proposal) = checked_label(kind, task, case.as_ref(), label, proposal)?;
    check_comment(comment, "comment")?;
    let proposal = proposal.as_ref().map(to_json).transpose()?;

    let mut tx = crate::begin_write(db).await?;
    let at = now();
    let before = assignments_on(&mut tx, id).await?;
    let first_submission = before
        .iter()
        .any(|a| a.expert_id == expert.id && a.submitted_at.is_none());
    let others_submitted = before
        .iter()
        .any(|a| a.expert_id != expert.id && a.submitted_at.is_some());
    let blind = submission_is_blind(first_submission, others_submitted);
    let done = sqlx::query(
        "UPDATE review_assignments
         SET label = ?, comment = ?, proposal = ?, submitted_at = ?, draft = NULL, draft_at = NULL,
             blind_label = CASE WHEN ? THEN ? ELSE blind_label END,
             blind_proposal = CASE WHEN ? THEN ? ELSE blind_proposal END
         WHERE item_id = ? AND expert_id = ?
           AND (SELECT final_label FROM review_items WHERE id = ?) IS NULL",
    )
    .bind(&label)
    .bind(comment)
    .bind(&proposal)
    .bind(&at)
    .bind(blind)
    .bind(&label)
    .bind(blind)
    .bind(&proposal)
    .bind(id)
    .bind(expert.id)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() == 0 {
        return Err(DbError::Conflict(format!(
            "review item {id} is final; its labels can no longer change"
        )));
    }
    insert_history(
        &mut tx,
        id,
        expert,
        "submit",
        &label,
        comment,
        proposal.as_deref(),
        &at,
    )
    .await?;
    let rows = assignments_on(&mut tx, id).await?;
    // Agreement is decided on the blind labels: a revision made after seeing
    // another expert's label never makes an item agreed.
    let mut submitted = Vec::with_capacity(rows.len());
    for row in &rows {
        if let Some(label) = &row.blind_label {
            submitted.push((label.as_str(), parse_case(row.blind_proposal.as_deref())?));
        }
    }
    let mut outcome = Submitted::default();
    let mut saved = None;
    if rows.len() >= EXPERTS_PER_ITEM && submitted.len() == rows.len() {
        let pairs: Vec<(&str, Option<&Case>)> =
            submitted.iter().map(|(l, p)| (*l, p.as_ref())).collect();
        if let Some(agreement) = agreed(kind, task, &pairs) {
            let applicable = match &agreement.proposal {
                None => true,
                Some(corrected) => {
                    let names: Vec<&str> = rows.iter().map(|a| a.expert.as_str()).collect();
                    let mut why = format!("seed review #{id}, agreed by {}", names.join(", "));
                    let comments: Vec<&str> = rows
                        .iter()
                        .filter_map(|a| a.comment.as_deref().map(str::trim))
                        .filter(|c| !c.is_empty())
                        .collect();
                    if !comments.is_empty() {
                        why.push_str(": ");
                        why.push_str(&comments.join(" / "));
                    }
                    match apply_seed_correction(&mut tx, db, &item, corrected, expert, &why).await?
                    {
                        Ok(s) => {
                            saved = Some(s);
                            true
                        }
                        Err(_changed) => false,
                    }
                }
            };
            if applicable {
                sqlx::query(
                    "UPDATE review_items SET final_label = ?, final_proposal = ?,
                         final_source = 'agreed', final_reason = NULL, final_by = NULL, final_at = ?
                     WHERE id = ?",
                )
                .bind(&agreement.label)
                .bind(agreement.proposal.as_ref().map(to_json).transpose()?)
                .bind(&at)
                .bind(id)
                .execute(&mut *tx)
                .await?;
                outcome.final_label = Some(agreement.label);
            }
        }
    }
    tx.commit().await?;
    db.notify(Change::ReviewChanged { item_id: id });
    if let Some(saved) = saved {
        outcome.correction = Some(saved.announce(db).await?);
    }
    Ok(outcome)
}

/// How a seed item's case stands against the newest dataset version (id
/// `newest_version_id`, read once by the caller): the case as the item shows
/// it, and (when it has been corrected since) the newer revision.
async fn seed_case_change(
    tx: &mut SqliteConnection,
    db: &Db,
    item: &ItemRow,
    newest_version_id: i64,
) -> Result<(Case, Option<crate::revisions::Revision>)> {
    let shown = case_on(tx, db, item.dataset_id, &item.case_id)
        .await?
        .ok_or_else(|| DbError::Invalid("the case of this item is no longer stored".into()))?;
    let current = case_on(tx, db, newest_version_id, &item.case_id).await?;
    if current.as_ref() == Some(&shown) {
        return Ok((shown, None));
    }
    let newer = crate::revisions::history_on(tx, &item.dataset_name, &item.case_id)
        .await?
        .pop();
    match newer {
        Some(newer) => Ok((shown, Some(newer))),
        None => Err(DbError::Conflict(format!(
            "case {} is no longer in dataset {}",
            item.case_id, item.dataset_name
        ))),
    }
}

/// Saves `corrected` as the next revision of the seed item's case, on `tx`
/// (which holds the write lock). `Ok(Err(newer))` when the case has been
/// corrected since the item was made: nothing is written, since the experts'
/// case was made from the older one.
async fn apply_seed_correction(
    tx: &mut SqliteConnection,
    db: &Db,
    item: &ItemRow,
    corrected: &Case,
    author: &User,
    why: &str,
) -> Result<std::result::Result<crate::revisions::Saved, Box<crate::revisions::Revision>>> {
    let newest = crate::revisions::newest_version(tx, &item.dataset_name).await?;
    let (_, newer) = seed_case_change(tx, db, item, newest.id).await?;
    if let Some(newer) = newer {
        return Ok(Err(Box::new(newer)));
    }
    crate::revisions::check_correction(corrected, why)?;
    let base = crate::revisions::current_revision_on(tx, &item.dataset_name, &item.case_id).await?;
    match crate::revisions::correct_in(tx, db, &item.dataset_name, corrected, base, author, why)
        .await?
    {
        Prepared::Saved(saved) => Ok(Ok(saved)),
        Prepared::Stale(newer) => Ok(Err(newer)),
    }
}

#[expect(clippy::too_many_arguments, reason = "one column each")]
async fn insert_history(
    tx: &mut Transaction<'_, Sqlite>,
    item_id: i64,
    author: &User,
    action: &str,
    label: &str,
    comment: &str,
    proposal: Option<&str>,
    at: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO review_label_history
             (item_id, author_id, author, action, label, comment, proposal, at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(item_id)
    .bind(author.id)
    .bind(&author.name)
    .bind(action)
    .bind(label)
    .bind(comment)
    .bind(proposal)
    .bind(at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The items of the dataset waiting for an adjudicator (every expert
/// submitted, they disagree), by id, with every label; for a designated
/// expert, without the items assigned to them.
pub async fn adjudication_queue(
    db: &Db,
    dataset_name: &str,
    adjudicator: &Adjudicator,
) -> Result<Vec<AdjudicationEntry>> {
    let items = item_rows(db, dataset_name).await?;
    let assignments = assignments_by_item(db, dataset_name).await?;
    let mut conn = db.pool().acquire().await?;
    let newest = crate::revisions::newest_version(&mut conn, dataset_name).await?;
    let mut queue = Vec::new();
    for item in &items {
        let rows: Vec<&AssignmentRow> = assignments
            .get(&item.id)
            .map(|rows| rows.iter().collect())
            .unwrap_or_default();
        if item_status(item, &rows) != ItemStatus::Adjudication || !adjudicator.may_decide(&rows) {
            continue;
        }
        let kind = item.kind()?;
        let (case, case_changed) = if kind == ReviewKind::SeedDialogue {
            let (shown, newer) = seed_case_change(&mut conn, db, item, newest.id).await?;
            (Some(shown), newer.is_some())
        } else {
            (None, false)
        };
        queue.push(AdjudicationEntry {
            id: item.id,
            kind,
            case_id: item.case_id.clone(),
            task: item.task()?,
            target: item.target.clone(),
            submissions: rows
                .iter()
                .map(|a| a.submission())
                .filter_map(Result::transpose)
                .collect::<Result<Vec<_>>>()?,
            judge_label: item.judge_label.clone(),
            case_changed,
            case,
        });
    }
    Ok(queue)
}

/// Records the final label of an item whose experts disagreed (or revises an
/// earlier adjudication), with the reason, and keeps it in the history.
///
/// The label is checked as an expert's is. For a seed dialogue it is
/// `approve`, or `correct` to adopt the experts' corrected case (when they
/// proposed one, or the same one), or `correct:NAME` to adopt expert NAME's;
/// a correction is saved in the same transaction as the final label (a case
/// revision by the adjudicator and a new dataset version), so either both
/// are stored or neither. Refused without a reason; for an item that is not
/// waiting for adjudication (not every expert has submitted, or they agreed);
/// for a designated expert, on an item assigned to them (forbidden); and for
/// a correction when the case has been corrected since the item was made
/// (nothing is applied over the newer revision: adjudicate `approve` and
/// correct the case on its page).
pub async fn adjudicate(
    db: &Db,
    id: i64,
    adjudicator: &Adjudicator,
    label: &str,
    reason: &str,
) -> Result<Adjudicated> {
    if reason.trim().is_empty() {
        return Err(DbError::Invalid("an adjudication needs a reason".into()));
    }
    check_comment(reason, "reason")?;
    let mut tx = crate::begin_write(db).await?;
    let item = item_row_on(&mut tx, id).await?;
    let rows = assignments_on(&mut tx, id).await?;
    let all: Vec<&AssignmentRow> = rows.iter().collect();
    if !adjudicator.may_decide(&all) {
        return Err(DbError::Forbidden(format!(
            "you are one of the experts of review item {id}; another adjudicator decides it"
        )));
    }
    let status = item_status(&item, &all);
    let adjudicable = status == ItemStatus::Adjudication
        || (status == ItemStatus::Final && item.final_source.as_deref() == Some("adjudicated"));
    if !adjudicable {
        return Err(DbError::Conflict(match status {
            ItemStatus::Final => {
                format!("the experts agree on review item {id}; there is nothing to adjudicate")
            }
            _ => format!("review item {id} is still waiting for its experts' labels"),
        }));
    }
    let kind = item.kind()?;
    let task = item.task()?;
    let (label, proposal) = if kind == ReviewKind::SeedDialogue {
        seed_adjudication(label, &rows)?
    } else {
        let case = case_on(&mut tx, db, item.dataset_id, &item.case_id).await?;
        checked_label(kind, task, case.as_ref(), label, None)?
    };
    let saved = match &proposal {
        None => None,
        Some(corrected) => {
            let why = format!("seed review #{id}: {}", reason.trim());
            match apply_seed_correction(&mut tx, db, &item, corrected, adjudicator.user(), &why)
                .await?
            {
                Ok(saved) => Some(saved),
                Err(newer) => {
                    return Err(DbError::Conflict(format!(
                        "case {} has been corrected since this item was made (revision {}{}: {}); \
                         the experts' corrected case was made from the older one, so nothing was \
                         saved. Adjudicate approve, and correct the case on its page.",
                        item.case_id,
                        newer.revision,
                        newer
                            .author
                            .as_deref()
                            .map(|a| format!(" by {a}"))
                            .unwrap_or_default(),
                        newer.reason
                    )))
                }
            }
        }
    };
    let proposal = proposal.as_ref().map(to_json).transpose()?;
    let at = now();
    sqlx::query(
        "UPDATE review_items SET final_label = ?, final_proposal = ?,
             final_source = 'adjudicated', final_reason = ?, final_by = ?, final_at = ?
         WHERE id = ?",
    )
    .bind(&label)
    .bind(&proposal)
    .bind(reason)
    .bind(adjudicator.user().id)
    .bind(&at)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    insert_history(
        &mut tx,
        id,
        adjudicator.user(),
        "adjudicate",
        &label,
        reason,
        proposal.as_deref(),
        &at,
    )
    .await?;
    tx.commit().await?;
    db.notify(Change::ReviewChanged { item_id: id });
    let correction = match saved {
        Some(saved) => Some(saved.announce(db).await?),
        None => None,
    };
    Ok(Adjudicated { correction })
}

/// A seed dialogue's adjudicated label: `approve`, `correct` (the experts'
/// one corrected case) or `correct:NAME` (expert NAME's).
fn seed_adjudication(label: &str, rows: &[AssignmentRow]) -> Result<(String, Option<Case>)> {
    let label = label.trim();
    if label == "approve" {
        return Ok((label.to_owned(), None));
    }
    let mut proposals: Vec<(String, Case)> = Vec::new();
    for a in rows {
        if let Some(case) = parse_case(a.proposal.as_deref())? {
            proposals.push((a.expert.clone(), case));
        }
    }
    let chosen = match label.split_once(':') {
        None if label == "correct" => {
            let mut distinct: Vec<&Case> = Vec::new();
            for (_, case) in &proposals {
                if !distinct.contains(&case) {
                    distinct.push(case);
                }
            }
            match distinct.as_slice() {
                [] => {
                    return Err(DbError::Invalid(
                        "no expert proposed a corrected case; adjudicate approve".into(),
                    ))
                }
                [one] => (*one).clone(),
                _ => {
                    return Err(DbError::Invalid(
                        "the experts proposed different corrected cases; adjudicate \
                         correct:NAME to adopt expert NAME's"
                            .into(),
                    ))
                }
            }
        }
        Some(("correct", name)) => proposals
            .iter()
            .find(|(expert, _)| expert == name.trim())
            .map(|(_, case)| case.clone())
            .ok_or_else(|| {
                DbError::Invalid(format!("{} proposed no corrected case", name.trim()))
            })?,
        _ => {
            return Err(DbError::Invalid(format!(
                "unknown label \"{label}\"; expected one of {}, or correct:NAME",
                SEED_LABELS.join(", ")
            )))
        }
    };
    Ok(("correct".to_owned(), Some(chosen)))
}

/// The agreement dashboard of the dataset for `viewer`. An adjudicator's is
/// computed over every item (but a designated expert's own items only once
/// they have submitted them), with the list of disagreements; an expert's
/// over the items they have submitted only, without that list, so that no
/// figure depends on a label they may not see yet. Progress counts are
/// everyone's.
pub async fn dashboard(db: &Db, dataset_name: &str, viewer: &User) -> Result<Dashboard> {
    let privileged = viewer.allows(Permission::Adjudicate);
    let items = item_rows(db, dataset_name).await?;
    let assignments = assignments_by_item(db, dataset_name).await?;
    let mut classes: HashMap<i64, HashMap<String, Class>> = HashMap::new();
    for dataset_id in items.iter().map(|i| i.dataset_id).collect::<BTreeSet<_>>() {
        let cases = crate::cases::all(db, dataset_id).await?;
        classes.insert(
            dataset_id,
            cases.iter().map(|c| (c.case_id.clone(), c.class)).collect(),
        );
    }
    let mut reviewed = Vec::new();
    let (mut items_final, mut items_in_adjudication) = (0, 0);
    let mut progress: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for item in &items {
        let rows: Vec<&AssignmentRow> = assignments
            .get(&item.id)
            .map(|rows| rows.iter().collect())
            .unwrap_or_default();
        match item_status(item, &rows) {
            ItemStatus::Final => items_final += 1,
            ItemStatus::Adjudication => items_in_adjudication += 1,
            _ => {}
        }
        for a in &rows {
            let entry = progress.entry(a.expert.clone()).or_default();
            entry.1 += 1;
            if a.submitted_at.is_some() {
                entry.0 += 1;
            }
        }
        let visible = sees_all(viewer, &rows)
            || rows
                .iter()
                .any(|a| a.expert_id == viewer.id && a.submitted_at.is_some());
        let Some(&class) = classes
            .get(&item.dataset_id)
            .and_then(|c| c.get(&item.case_id))
        else {
            continue;
        };
        if !visible {
            continue;
        }
        let submissions = rows
            .iter()
            .filter_map(|a| a.submission().transpose())
            .map(|s| s.map(|s| (s.blind_label, s.blind_proposal)))
            .collect::<Result<Vec<_>>>()?;
        reviewed.push(ReviewedItem {
            id: item.id,
            kind: item.kind()?,
            task: item.task()?,
            class,
            assigned: rows.len(),
            submissions,
            judge_label: item.judge_label.clone(),
            final_label: item.final_label.clone(),
        });
    }
    Ok(Dashboard {
        rows: dashboard_rows(&reviewed),
        disagreements: if privileged {
            disagreements(&reviewed)
        } else {
            Vec::new()
        },
        progress: progress
            .into_iter()
            .map(|(expert, (done, assigned))| ExpertProgress {
                expert,
                done,
                assigned,
            })
            .collect(),
        items: items.len(),
        items_final,
        items_in_adjudication,
    })
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
        });
    }
    let history: Vec<(i64, String, String, String, String, String)> = sqlx::query_as(
        "SELECT item_id, author, action, label, comment, at FROM review_label_history
         ORDER BY item_id, id",
    )
    .fetch_all(db.pool())
    .await?;
    let mut changes: HashMap<i64, Vec<ExportChange>> = HashMap::new();
    for (item_id, author, action, label, comment, at) in history {
        changes.entry(item_id).or_default().push(ExportChange {
            author,
            action,
            label,
            comment,
            at,
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

#[cfg(test)]
mod tests {
    use engine::dataset::parse_dataset;
    use engine::review::CaseCheck;

    use super::*;
    use crate::datasets::{import, ImportSource};

    /// A database with 36 synthetic cases (each a seed), an admin and the
    /// experts named.
    async fn fixture(experts: &[&str]) -> (Db, DatasetInfo, User, Vec<User>) {
        let db = Db::open_in_memory().await.expect("database");
        let cases = parse_dataset(&engine::synthetic::dataset_file(1)).expect("cases");
        let src = ImportSource {
            name: "synthetic",
            source: "test",
            synthetic: true,
        };
        let dataset = import(&db, src, &cases)
            .await
            .expect("import")
            .dataset()
            .clone();
        let admin = crate::users::create(&db, "admin", Role::Admin, "password-1")
            .await
            .expect("admin");
        let mut users = Vec::new();
        for name in experts {
            users.push(
                crate::users::create(&db, name, Role::Expert, "password-1")
                    .await
                    .expect("expert"),
            );
        }
        (db, dataset, admin, users)
    }

    fn pass() -> String {
        serde_json::to_string(&CaseCheck::all_pass()).expect("json")
    }

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
    async fn labels_stay_hidden_until_the_viewer_submits_and_final_items_are_frozen() {
        let (db, dataset, admin, experts) = fixture(&["甲", "乙"]).await;
        create_case_check_items(&db, &dataset, &admin)
            .await
            .expect("items");
        auto_assign(&db, &dataset.name, None).await.expect("assign");
        let id = queue(&db, &dataset.name, &experts[0]).await.expect("queue")[0].id;
        submit(&db, id, &experts[0], &pass(), "都没问题", None)
            .await
            .expect("submit");
        let before = item_for_viewer(&db, id, &experts[1]).await.expect("item");
        assert_eq!(before.revealed, None);
        assert_eq!(before.status, ItemStatus::Todo);
        assert!(before.case.is_some());
        let first = item_for_viewer(&db, id, &experts[0]).await.expect("item");
        assert_eq!(first.status, ItemStatus::Submitted);
        assert!(first.revealed.is_some_and(|r| r.others.is_empty()));
        let as_admin = item_for_viewer(&db, id, &admin).await.expect("item");
        assert_eq!(
            as_admin.revealed.map(|r| r.others.len()),
            Some(1),
            "adjudicators see every label"
        );

        submit(&db, id, &experts[1], &pass(), "", None)
            .await
            .expect("submit");
        let after = item_for_viewer(&db, id, &experts[1]).await.expect("item");
        assert_eq!(after.status, ItemStatus::Final);
        let revealed = after.revealed.expect("revealed");
        assert_eq!(revealed.others[0].comment, "都没问题");
        assert_eq!(revealed.final_source.as_deref(), Some("agreed"));
        assert!(matches!(
            submit(&db, id, &experts[1], &pass(), "", None).await,
            Err(DbError::Conflict(_))
        ));
        let adjudicator = Adjudicator::of(admin).expect("an admin adjudicates");
        assert!(matches!(
            adjudicate(&db, id, &adjudicator, &pass(), "重新判断").await,
            Err(DbError::Conflict(message)) if message.contains("nothing to adjudicate")
        ));
        assert_eq!(Adjudicator::of(experts[0].clone()), None);
    }

    #[tokio::test]
    async fn a_third_expert_gives_fleiss_kappa_and_seed_corrections_are_adopted_by_name() {
        let (db, dataset, admin, experts) = fixture(&["甲", "乙", "丙"]).await;
        create_seed_items(&db, &dataset, &admin)
            .await
            .expect("items");
        let names: Vec<String> = ["甲", "乙", "丙"].map(String::from).to_vec();
        let first = item_rows(&db, &dataset.name).await.expect("items")[0].id;
        assert_eq!(assign(&db, first, &names).await.expect("assign"), 3);
        let view = item_for_viewer(&db, first, &experts[0])
            .await
            .expect("item");
        let case = view.case.expect("the seed case");
        let mut edited = case.clone();
        edited.consultations.underspecified[0]
            .content
            .push_str("请问怎么办？");
        let mut other = case.clone();
        other.consultations.underspecified[0]
            .content
            .push_str("麻烦您看看。");
        let json = |c: &Case| serde_json::to_string(c).expect("json");
        submit(&db, first, &experts[0], "correct", "", Some(&json(&edited)))
            .await
            .expect("correct");
        submit(&db, first, &experts[1], "correct", "", Some(&json(&other)))
            .await
            .expect("correct");
        submit(&db, first, &experts[2], "approve", "", None)
            .await
            .expect("approve");

        let adjudicator = Adjudicator::of(admin.clone()).expect("admin");
        let waiting = adjudication_queue(&db, &dataset.name, &adjudicator)
            .await
            .expect("queue");
        assert_eq!(waiting.len(), 1);
        assert_eq!(waiting[0].submissions.len(), 3);
        assert!(matches!(
            adjudicate(&db, first, &adjudicator, "correct", "取乙的版本").await,
            Err(DbError::Invalid(message)) if message.contains("correct:NAME")
        ));
        adjudicate(&db, first, &adjudicator, "correct:乙", "取乙的版本")
            .await
            .expect("adjudicated");
        let done = item_for_viewer(&db, first, &admin).await.expect("item");
        let revealed = done.revealed.expect("revealed");
        assert_eq!(revealed.final_label.as_deref(), Some("correct"));
        assert_eq!(revealed.final_proposal, Some(other));

        let board = dashboard(&db, &dataset.name, &admin).await.expect("board");
        let seed_row = &board.rows[0];
        assert_eq!(seed_row.n_pairs, 1);
        // One unit, three raters (correct, correct, approve): P̄_e ≠ 1, so defined.
        assert!(seed_row.fleiss_kappa.is_some());
        assert_eq!(board.disagreements, [first]);
        assert_eq!(board.items_final, 1);
        let expert_board = dashboard(&db, &dataset.name, &experts[0])
            .await
            .expect("board");
        assert!(expert_board.disagreements.is_empty());
        assert_eq!(Manager::of(experts[0].clone()), None);
        let manager = Manager::of(admin.clone()).expect("an admin manages review");
        let exported = export(&db, &manager).await.expect("export");
        assert_eq!(exported.len(), 36);
        assert_eq!(exported[0].history.len(), 4);
        assert_eq!(exported[0].final_by.as_deref(), Some("admin"));
    }

    /// Case-check item ids of `dataset`, the first `n`.
    async fn first_items(db: &Db, dataset: &DatasetInfo, n: usize) -> Vec<i64> {
        item_rows(db, &dataset.name).await.expect("items")[..n]
            .iter()
            .map(|i| i.id)
            .collect()
    }

    fn failing_check() -> String {
        let mut check = CaseCheck::all_pass();
        check.anonymization.outcome = engine::review::CheckOutcome::Fail;
        check.anonymization.comment = "第3轮有手机号".into();
        serde_json::to_string(&check).expect("json")
    }

    #[tokio::test]
    async fn a_designated_expert_adjudicates_other_items_but_never_their_own() {
        let (db, dataset, admin, experts) = fixture(&["甲", "乙", "丙"]).await;
        create_case_check_items(&db, &dataset, &admin)
            .await
            .expect("items");
        let ids = first_items(&db, &dataset, 2).await;
        let (other, own) = (ids[0], ids[1]);
        assign(&db, other, &["甲".into(), "乙".into()])
            .await
            .expect("assign");
        assign(&db, own, &["甲".into(), "丙".into()])
            .await
            .expect("assign");
        assert_eq!(
            Adjudicator::of(experts[2].clone()),
            None,
            "not yet designated"
        );
        assert!(matches!(
            crate::users::set_adjudicator(&db, "admin", true).await,
            Err(DbError::Invalid(message)) if message.contains("only an expert")
        ));
        let designated = crate::users::set_adjudicator(&db, "丙", true)
            .await
            .expect("designate");
        assert!(designated.adjudicator);
        let reread = crate::users::by_name(&db, "丙").await.expect("read");
        assert_eq!(reread.as_ref(), Some(&designated), "the flag is stored");
        let adjudicator = Adjudicator::of(designated.clone()).expect("designated");
        assert_eq!(
            Manager::of(designated.clone()),
            None,
            "no export for experts"
        );

        // Blind on their own item until they submit, though 甲 has submitted.
        submit(&db, own, &experts[0], &pass(), "", None)
            .await
            .expect("submit");
        let blind = item_for_viewer(&db, own, &designated).await.expect("item");
        assert_eq!(blind.revealed, None);
        assert_eq!(blind.status, ItemStatus::Todo);
        // Another's item: they see every label, as an adjudicator.
        submit(&db, other, &experts[0], &pass(), "", None)
            .await
            .expect("submit");
        let seen = item_for_viewer(&db, other, &designated)
            .await
            .expect("item");
        assert_eq!(seen.revealed.map(|r| r.others.len()), Some(1));

        submit(&db, other, &experts[1], &failing_check(), "有手机号", None)
            .await
            .expect("submit");
        submit(&db, own, &designated, &failing_check(), "有手机号", None)
            .await
            .expect("submit");
        let waiting: Vec<i64> = adjudication_queue(&db, &dataset.name, &adjudicator)
            .await
            .expect("queue")
            .iter()
            .map(|e| e.id)
            .collect();
        assert_eq!(waiting, [other], "their own item is not in their queue");
        assert!(matches!(
            adjudicate(&db, own, &adjudicator, &pass(), "我看没问题").await,
            Err(DbError::Forbidden(_))
        ));
        adjudicate(&db, other, &adjudicator, &failing_check(), "确有手机号")
            .await
            .expect("adjudicated by the designated expert");
        let admin_queue =
            adjudication_queue(&db, &dataset.name, &Adjudicator::of(admin).expect("admin"))
                .await
                .expect("queue");
        assert_eq!(admin_queue.iter().map(|e| e.id).collect::<Vec<_>>(), [own]);

        let withdrawn = crate::users::set_adjudicator(&db, "丙", false)
            .await
            .expect("withdraw");
        assert_eq!(Adjudicator::of(withdrawn), None);
    }

    /// The seed item of the first seed case, assigned to the two experts, and
    /// its case with `extra` appended to the first underspecified turn.
    async fn seed_item(db: &Db, dataset: &DatasetInfo, admin: &User, extra: &str) -> (i64, Case) {
        create_seed_items(db, dataset, admin).await.expect("items");
        let id = item_rows(db, &dataset.name).await.expect("items")[0].id;
        assign(db, id, &["甲".into(), "乙".into()])
            .await
            .expect("assign");
        let case = case_of(
            db,
            dataset.id,
            &item_row(db, id).await.expect("row").case_id,
        )
        .await
        .expect("case")
        .expect("stored");
        let mut edited = case;
        edited.consultations.underspecified[0]
            .content
            .push_str(extra);
        (id, edited)
    }

    /// An admin corrects case `case_id` directly (revision 2).
    async fn correct_on_its_page(db: &Db, dataset: &DatasetInfo, case_id: &str, admin: &User) {
        let mut direct = case_of(db, dataset.id, case_id)
            .await
            .expect("case")
            .expect("stored");
        direct.key_facts[0].text.push_str("（管理员核对）");
        crate::revisions::correct_case(db, &dataset.name, &direct, 1, admin, "补充要点")
            .await
            .expect("direct correction");
    }

    async fn versions(db: &Db) -> i64 {
        sqlx::query_scalar("SELECT COUNT(*) FROM datasets")
            .fetch_one(db.pool())
            .await
            .expect("count")
    }

    #[tokio::test]
    async fn two_experts_agreeing_on_a_seed_correction_save_it_with_the_final_label() {
        let (db, dataset, admin, experts) = fixture(&["甲", "乙"]).await;
        let (id, edited) = seed_item(&db, &dataset, &admin, "（补充：合同于2023年签订）").await;
        let json = serde_json::to_string(&edited).expect("json");
        let first = submit(&db, id, &experts[0], "correct", "补充签订时间", Some(&json))
            .await
            .expect("submit");
        assert_eq!(first, Submitted::default());
        let second = submit(&db, id, &experts[1], "correct", "", Some(&json))
            .await
            .expect("submit");
        assert_eq!(second.final_label.as_deref(), Some("correct"));
        let Some(CorrectionOutcome::Saved {
            revision,
            dataset: v2,
            ..
        }) = second.correction
        else {
            panic!("the agreed correction is saved: {second:?}");
        };
        assert_eq!((revision, v2.version), (2, 2));
        let stored = case_of(&db, v2.id, &edited.case_id).await.expect("case");
        assert_eq!(stored.as_ref(), Some(&edited));
        let history = crate::revisions::history(&db, &dataset.name, &edited.case_id)
            .await
            .expect("history");
        assert_eq!(history[1].author.as_deref(), Some("乙"));
        assert!(
            history[1].reason.contains("agreed by 甲, 乙"),
            "{}",
            history[1].reason
        );
        assert!(history[1].reason.contains("补充签订时间"));

        // A correction that changes nothing is refused at submission.
        let (db, dataset, admin, experts) = fixture(&["甲", "乙"]).await;
        let (id, _) = seed_item(&db, &dataset, &admin, "").await;
        let unchanged = case_of(&db, dataset.id, &edited.case_id)
            .await
            .expect("case")
            .expect("stored");
        assert!(matches!(
            submit(&db, id, &experts[0], "correct", "", Some(&serde_json::to_string(&unchanged).expect("json"))).await,
            Err(DbError::Invalid(message)) if message.contains("changes nothing")
        ));
    }

    #[tokio::test]
    async fn a_seed_correction_over_a_newer_revision_stores_nothing() {
        let (db, dataset, admin, experts) = fixture(&["甲", "乙"]).await;
        let (id, mine) = seed_item(&db, &dataset, &admin, "（甲的补充）").await;
        let mut theirs = mine.clone();
        theirs.consultations.underspecified[0]
            .content
            .push_str("（乙的补充）");
        let json = |c: &Case| serde_json::to_string(c).expect("json");
        submit(&db, id, &experts[0], "correct", "", Some(&json(&mine)))
            .await
            .expect("submit");
        submit(&db, id, &experts[1], "correct", "", Some(&json(&theirs)))
            .await
            .expect("submit");
        // Meanwhile the case is corrected on its page.
        correct_on_its_page(&db, &dataset, &mine.case_id, &admin).await;
        assert_eq!(versions(&db).await, 2);

        let adjudicator = Adjudicator::of(admin.clone()).expect("admin");
        let waiting = adjudication_queue(&db, &dataset.name, &adjudicator)
            .await
            .expect("queue");
        assert!(waiting[0].case_changed);
        assert!(matches!(
            adjudicate(&db, id, &adjudicator, "correct:甲", "取甲的版本").await,
            Err(DbError::Conflict(message)) if message.contains("revision 2 by admin")
        ));
        assert_eq!(versions(&db).await, 2, "no dataset version was made");
        let row = item_row(&db, id).await.expect("row");
        assert_eq!(row.final_label, None, "nor the final label stored");
        let adjudications: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM review_label_history WHERE action = 'adjudicate'",
        )
        .fetch_one(db.pool())
        .await
        .expect("count");
        assert_eq!(adjudications, 0);
        adjudicate(&db, id, &adjudicator, "approve", "改在案例页修改")
            .await
            .expect("approve");

        // Two experts agreeing on a correction made from the older case: the
        // item waits for an adjudicator instead.
        let (db, dataset, admin, experts) = fixture(&["甲", "乙"]).await;
        let (id, mine) = seed_item(&db, &dataset, &admin, "（补充）").await;
        correct_on_its_page(&db, &dataset, &mine.case_id, &admin).await;
        submit(&db, id, &experts[0], "correct", "", Some(&json(&mine)))
            .await
            .expect("submit");
        let outcome = submit(&db, id, &experts[1], "correct", "", Some(&json(&mine)))
            .await
            .expect("submit");
        assert_eq!(outcome, Submitted::default());
        assert_eq!(versions(&db).await, 2);
        let waiting =
            adjudication_queue(&db, &dataset.name, &Adjudicator::of(admin).expect("admin"))
                .await
                .expect("queue");
        assert_eq!(waiting.len(), 1);
        assert!(waiting[0].case_changed);
    }

    #[tokio::test]
    async fn judge_items_need_stored_runs_and_keep_the_judge_label_apart() {
        let (db, dataset, admin, experts) = fixture(&["甲", "乙"]).await;
        let cases = crate::cases::all(&db, dataset.id).await.expect("cases");
        for model in 0..2 {
            let text = engine::synthetic::run_file(&cases, model, 1, 2);
            let run = parse_run(&text, &cases).expect("a valid run");
            let scores = engine::score::score_run(&run, &cases);
            crate::runs::store(
                &db,
                dataset.id,
                &run,
                &scores,
                None,
                crate::runs::OnDuplicate::Refuse,
            )
            .await
            .expect("stored");
        }
        let sample = JudgeSample {
            task: Task::Ljp,
            per_model: 3,
            cap: 5,
            seed: 1,
        };
        let made = create_judge_items(&db, &dataset, sample, &admin)
            .await
            .expect("items");
        assert_eq!(made.created, 5);
        auto_assign(&db, &dataset.name, None).await.expect("assign");
        let id = queue(&db, &dataset.name, &experts[0]).await.expect("queue")[0].id;
        let view = item_for_viewer(&db, id, &experts[0]).await.expect("item");
        assert!(view.claims >= 1);
        assert!(view.input["claims"].is_array());
        assert!(view.input.get("predictions").is_none());
        assert_eq!(view.revealed, None);
        let label = vec!["dismissed"; view.claims].join(",");
        submit(&db, id, &experts[0], &label, "", None)
            .await
            .expect("submit");
        let mine = item_for_viewer(&db, id, &experts[0]).await.expect("item");
        assert!(mine
            .mine
            .is_some_and(|m| m.label.starts_with("[\"dismissed\"")));
        assert!(mine.revealed.is_some_and(|r| r.judge_label.is_some()));
    }
}
