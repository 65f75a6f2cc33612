//! Review items: their creation from the current dataset version (one per
//! seed case, one per case, or a sample of stored judge verdicts), the judge
//! verdicts they keep back from drill-downs, and an item as one viewer may
//! see it.

use engine::lexpilot::dataset::Case;
use engine::lexpilot::run::Task;
use engine::review::{
    draw_judge_sample, judge_decisions, neighbours, Flag, ItemGuide, JudgeCandidate, JudgeSample,
    ReviewKind,
};
use serde_json::{json, Value};

use super::{
    as_viewer, case_of, not_found, queue, record, to_json, ItemStatus, Revealed, Submission,
};
use crate::datasets::DatasetInfo;
use crate::events::Change;
use crate::users::User;
use crate::{now, Db, DbError, Result};

/// What a creation did: items new, and items that existed already.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Created {
    pub created: usize,
    pub existing: usize,
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

    fn of_candidate(task: Task, candidate: JudgeCandidate) -> Self {
        let decision = candidate.decision;
        NewItem {
            kind: ReviewKind::JudgeVerdict,
            case_id: decision.case_id,
            run_id: Some(candidate.run_id),
            model: Some(candidate.model),
            run_number: Some(candidate.run_number),
            task: Some(task),
            target: decision.target,
            judge_label: Some(decision.judge_label),
            input: decision.input,
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

/// Judge-verdict items: a sample of the judge's decisions in the stored runs
/// of `dataset` for one task ([`engine::review::judge_decisions`], which
/// says what the expert sees of each and which judge label is kept apart),
/// drawn by [`engine::review::draw_judge_sample`] over (model, decision)
/// pairs, up to `per_model` per model and `cap` in all, reproducibly from
/// `seed`.
pub async fn create_judge_items(
    db: &Db,
    dataset: &DatasetInfo,
    sample: JudgeSample,
    by: &User,
) -> Result<Created> {
    let cases = crate::cases::all(db, dataset.id).await?;
    let runs = crate::runs::all_items(db, dataset.id).await?;
    let mut candidates = Vec::new();
    for stored in runs {
        let (run_id, model, run_number) = (stored.id, stored.model, stored.run_number);
        // Runs are validated when stored; read back as kept.
        let run = engine::lexpilot::run::Run::from_stored_jsonl(&stored.items)
            .map_err(|e| DbError::Corrupt(format!("stored run {model} {run_number}: {e}")))?;
        candidates.extend(
            judge_decisions(&run, &cases, sample.task)
                .into_iter()
                .map(|decision| JudgeCandidate {
                    run_id,
                    model: model.clone(),
                    run_number,
                    decision,
                }),
        );
    }
    let items = draw_judge_sample(candidates, &sample)
        .into_iter()
        .map(|candidate| NewItem::of_candidate(sample.task, candidate))
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
) -> Result<Vec<engine::lexpilot::drilldown::HiddenVerdict>> {
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
            Some(engine::lexpilot::drilldown::HiddenVerdict {
                run: u32::try_from(run).ok()?,
                case_id,
                target,
            })
        })
        .collect())
}

/// Item `id` as `viewer` may see it ([`engine::review::ItemRecord::visibility`]).
/// An expert sees only items assigned to them (any other id is "not found",
/// whether it exists or not), and the judge's label, the other experts'
/// labels and the final label only once they have submitted their own. An
/// adjudicator sees everything (but their own items only once submitted).
pub async fn item_for_viewer(db: &Db, id: i64, viewer: &User) -> Result<ItemView> {
    let (row, item) = record(db, id).await?;
    let seen = item
        .visibility(&as_viewer(viewer))
        .ok_or_else(|| not_found(id))?;
    let case = case_of(db, item.dataset_id, &item.case_id).await?;
    let order: Vec<i64> = if seen.assigned {
        queue(db, &row.dataset_name, viewer)
            .await?
            .iter()
            .map(|e| e.id)
            .collect()
    } else {
        sqlx::query_scalar("SELECT id FROM review_items WHERE dataset_name = ? ORDER BY id")
            .bind(&row.dataset_name)
            .fetch_all(db.pool())
            .await?
    };
    let (previous, next) = neighbours(&order, id);
    let guide = ItemGuide::of(item.kind, item.task, case.as_ref());
    let input = serde_json::from_str(&row.input)
        .map_err(|e| DbError::Corrupt(format!("review item input: {e}")))?;
    Ok(ItemView {
        id,
        kind: item.kind,
        case_id: item.case_id,
        task: item.task,
        target: item.target,
        case,
        input,
        flags: guide.flags,
        labels: guide.labels,
        claims: guide.claims,
        mine: seen.mine,
        draft: seen.draft,
        status: seen.status,
        revealed: seen.revealed,
        previous,
        next,
    })
}

#[cfg(test)]
mod tests {
    use super::super::testing::{fixture, rescore};
    use super::super::{auto_assign, queue, submit};
    use super::*;

    #[tokio::test]
    async fn judge_items_need_stored_runs_and_keep_the_judge_label_apart() {
        let (db, dataset, admin, experts) = fixture(&["甲", "乙"]).await;
        let cases = crate::cases::all(&db, dataset.id).await.expect("cases");
        for model in 0..2 {
            let text = engine::lexpilot::synthetic::run_file(&cases, model, 1, 2);
            let run = engine::lexpilot::run::parse_run(&text, &cases).expect("a valid run");
            let scores = engine::lexpilot::score::score_run(&run, &cases);
            let new = crate::runs::NewRun::of::<engine::benchmark::LexPilot>(&run, &scores)
                .expect("a run to store");
            crate::runs::store_all(
                &db,
                dataset.id,
                &[new],
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
        submit(&db, id, &experts[0], &label, "", None, rescore())
            .await
            .expect("submit");
        let mine = item_for_viewer(&db, id, &experts[0]).await.expect("item");
        assert!(mine
            .mine
            .is_some_and(|m| m.label.starts_with("[\"dismissed\"")));
        assert!(mine.revealed.is_some_and(|r| r.judge_label.is_some()));
    }
}
