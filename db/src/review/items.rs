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
    /// The viewer's "unclear" flag on the item (their comment).
    pub unclear: Option<String>,
}

/// An item to insert.
pub(crate) struct NewItem {
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
    /// A rubric-verdict item scored on the sheet in `input` without a judge
    /// label (a fidelity reply: `target` its condition, `model` the user
    /// model).
    pub(crate) fn of_sheet(case_id: String, target: String, model: String, input: Value) -> Self {
        NewItem {
            kind: ReviewKind::RubricVerdict,
            case_id,
            run_id: None,
            model: Some(model),
            run_number: None,
            task: None,
            target: Some(target),
            judge_label: None,
            input,
        }
    }

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
    let outcome = insert_items_on(&mut tx, dataset, items, Some(created_by.id)).await?;
    tx.commit().await?;
    if outcome.created > 0 {
        db.notify(Change::ReviewChanged { item_id: 0 }).await;
    }
    Ok(outcome)
}

/// Inserts `items` on `conn` (in the caller's transaction), skipping those
/// whose natural key exists; the caller notifies.
pub(crate) async fn insert_items_on(
    conn: &mut sqlx::AnyConnection,
    dataset: &DatasetInfo,
    items: Vec<NewItem>,
    created_by: Option<i64>,
) -> Result<Created> {
    let mut outcome = Created::default();
    let at = now();
    for item in items {
        let id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO review_items (dataset_id, dataset_name, kind, case_id, run_id, model,
                 run_number, task, target, judge_label, input, created_by, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
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
        .bind(created_by)
        .bind(&at)
        .fetch_optional(&mut *conn)
        .await?;
        match id {
            Some(_) => outcome.created += 1,
            None => outcome.existing += 1,
        }
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

/// How to draw rubric verdicts for review: PLawBench's per task
/// ([`engine::plawbench::review::draw_rubric_sample`]), DLawBench's panel
/// decisions per style ([`engine::dlawbench::review::draw_panel_sample`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RubricSample {
    /// Verdicts drawn per task (PLawBench) or per style (DLawBench).
    pub per_task: usize,
    /// Verdicts drawn in all.
    pub cap: usize,
    /// The seed of the draw.
    pub seed: u64,
}

/// Rubric-verdict items: a sample of the judged items of the stored runs of
/// `dataset`, PLawBench's stratified by task ([`engine::plawbench::review`]
/// says what the expert sees of each, its score sheet, and which judge
/// points are kept apart) or DLawBench's sessions stratified by style, each
/// rubric item a 0/1 mark against the panel's majority
/// ([`engine::dlawbench::review`]).
pub async fn create_rubric_items(
    db: &Db,
    dataset: &DatasetInfo,
    sample: RubricSample,
    by: &User,
) -> Result<Created> {
    use engine::benchmark::{Benchmark, DLawBench, PLawBench, Suite};
    /// The dataset the stored runs are judged against.
    enum Reference {
        Plaw(std::sync::Arc<Vec<engine::plawbench::dataset::Item>>),
        Dlaw(std::sync::Arc<Vec<engine::dlawbench::dataset::Case>>),
    }
    let reference = match Benchmark::parse(&dataset.benchmark) {
        Some(Benchmark::Plawbench) => Reference::Plaw(crate::items::all(db, dataset.id).await?),
        Some(Benchmark::Dlawbench) => Reference::Dlaw(crate::items::all(db, dataset.id).await?),
        _ => {
            return Err(DbError::Invalid(format!(
                "rubric verdicts are PLawBench's and DLawBench's; dataset {} is {}",
                dataset.name, dataset.benchmark
            )))
        }
    };
    let runs = crate::runs::all_items(db, dataset.id).await?;
    let mut candidates = Vec::new();
    for stored in runs {
        let (run_id, model, run_number) = (stored.id, stored.model, stored.run_number);
        let corrupt = |e: String| DbError::Corrupt(format!("stored run {model} {run_number}: {e}"));
        let decisions = match &reference {
            Reference::Plaw(items) => {
                let run =
                    PLawBench::read_stored(&stored.items).map_err(|e| corrupt(e.to_string()))?;
                engine::plawbench::review::judge_decisions(&run, items)
            }
            Reference::Dlaw(cases) => {
                let run =
                    DLawBench::read_stored(&stored.items).map_err(|e| corrupt(e.to_string()))?;
                engine::dlawbench::review::judge_decisions(&run, cases)
            }
        };
        candidates.extend(decisions.into_iter().map(|decision| JudgeCandidate {
            run_id,
            model: model.clone(),
            run_number,
            decision,
        }));
    }
    let drawn =
        engine::review::draw_per_target(candidates, sample.per_task, sample.cap, sample.seed);
    let items = drawn
        .into_iter()
        .map(|candidate| {
            let decision = candidate.decision;
            NewItem {
                kind: ReviewKind::RubricVerdict,
                case_id: decision.case_id,
                run_id: Some(candidate.run_id),
                model: Some(candidate.model),
                run_number: Some(candidate.run_number),
                task: None,
                target: decision.target,
                judge_label: Some(decision.judge_label),
                input: decision.input,
            }
        })
        .collect();
    insert_items(db, dataset, items, by).await
}

/// Which sessions a simulated-client-style batch draws from, and how many.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StyleSample {
    /// The lawyer model of the run(s) to draw from; `None` for every
    /// stored run.
    pub model: Option<String>,
    /// Its run number; `None` for every run of `model`.
    pub run_number: Option<i64>,
    /// Sessions per style ([`engine::dlawbench::client_style::plan`]).
    pub per_style: Option<usize>,
    /// Sessions in all.
    pub cap: Option<usize>,
    /// The seed of the draw.
    pub seed: u64,
}

/// Simulated-client-style items: sessions of the stored DLawBench runs of
/// `dataset` (every run, or the one named) whose client simulator spoke,
/// drawn stratified by style ([`engine::dlawbench::client_style`] says what
/// the expert reads; the simulated style is kept as the judge label).
/// Refused, with the message in `lang`, without a stored run, for a run
/// not stored, or for a sample larger than the sessions allow.
pub async fn create_client_style_items(
    db: &Db,
    dataset: &DatasetInfo,
    sample: StyleSample,
    lang: engine::lang::Lang,
    by: &User,
) -> Result<Created> {
    use engine::benchmark::{DLawBench, Suite};
    use engine::dlawbench::client_style::{draw_segments, plan, segments, SampleError};
    let refuse = |e: SampleError| DbError::Invalid(e.message(lang));
    let cases: std::sync::Arc<Vec<engine::dlawbench::dataset::Case>> =
        crate::items::all(db, dataset.id).await?;
    let runs = crate::runs::all_items(db, dataset.id).await?;
    if runs.is_empty() {
        return Err(refuse(SampleError::NoRun));
    }
    let chosen: Vec<_> = runs
        .iter()
        .filter(|r| sample.model.as_deref().is_none_or(|m| m == r.model))
        .filter(|r| sample.run_number.is_none_or(|n| n == r.run_number))
        .collect();
    if chosen.is_empty() {
        let named = match (&sample.model, sample.run_number) {
            (Some(m), Some(n)) => format!("{m} #{n}"),
            (Some(m), None) => m.clone(),
            (None, Some(n)) => format!("#{n}"),
            (None, None) => String::new(),
        };
        return Err(refuse(SampleError::UnknownRun {
            named,
            stored: runs
                .iter()
                .map(|r| format!("{} #{}", r.model, r.run_number))
                .collect(),
        }));
    }
    let mut candidates = Vec::new();
    for stored in chosen {
        let run = DLawBench::read_stored(&stored.items).map_err(|e| {
            DbError::Corrupt(format!(
                "stored run {} {}: {e}",
                stored.model, stored.run_number
            ))
        })?;
        candidates.extend(
            segments(&run, &cases)
                .into_iter()
                .map(|decision| JudgeCandidate {
                    run_id: stored.id,
                    model: stored.model.clone(),
                    run_number: stored.run_number,
                    decision,
                }),
        );
    }
    let available: Vec<_> = engine::dlawbench::dataset::Style::ALL
        .iter()
        .map(|&style| {
            let n = candidates
                .iter()
                .filter(|c| c.decision.judge_label == style.as_str())
                .count();
            (style, n)
        })
        .collect();
    let (per_style, cap) = plan(&available, sample.per_style, sample.cap).map_err(refuse)?;
    let items = draw_segments(candidates, per_style, cap, sample.seed)
        .into_iter()
        .map(|drawn| {
            let (candidate, key) = (drawn.candidate, drawn.key);
            NewItem {
                kind: ReviewKind::ClientStyle,
                case_id: candidate.decision.case_id,
                run_id: Some(candidate.run_id),
                model: Some(candidate.model),
                run_number: Some(candidate.run_number),
                task: None,
                target: Some(key),
                judge_label: Some(candidate.decision.judge_label),
                input: candidate.decision.input,
            }
        })
        .collect();
    insert_items(db, dataset, items, by).await
}

/// The rubric verdicts of `model` open for review on the dataset
/// `dataset_name` (made into review items, not final yet), as (run number,
/// item or case id, target: PLawBench's task, DLawBench's style): what the
/// PLawBench and DLawBench drill-downs keep back from everyone but admins.
pub async fn open_rubric_verdicts(
    db: &Db,
    dataset_name: &str,
    model: &str,
) -> Result<Vec<(u32, String, Option<String>)>> {
    open_items(db, "rubric_verdict", "target", dataset_name, model).await
}

/// The items of `kind` of `model` not final yet on the dataset
/// `dataset_name`, as (run number, case or item id, `column`: one of the
/// item's own columns, named by the caller).
async fn open_items(
    db: &Db,
    kind: &str,
    column: &'static str,
    dataset_name: &str,
    model: &str,
) -> Result<Vec<(u32, String, Option<String>)>> {
    let rows: Vec<(i64, String, Option<String>)> = sqlx::query_as(&format!(
        "SELECT run_number, case_id, {column} FROM review_items
         WHERE kind = $1 AND final_label IS NULL
           AND dataset_name = $2 AND model = $3"
    ))
    .bind(kind)
    .bind(dataset_name)
    .bind(model)
    .fetch_all(db.pool())
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(run, id, value)| Some((u32::try_from(run).ok()?, id, value)))
        .collect())
}

/// The sessions of `model` whose simulated client's style is open for
/// review on the dataset `dataset_name` (made into client-style items, not
/// final yet), as (run number, case id, style): what the DLawBench
/// drill-downs keep from everyone but admins, so that an expert cannot look
/// up the style of a session before naming it.
pub async fn open_client_styles(
    db: &Db,
    dataset_name: &str,
    model: &str,
) -> Result<Vec<(u32, String, String)>> {
    Ok(
        open_items(db, "client_style", "judge_label", dataset_name, model)
            .await?
            .into_iter()
            .filter_map(|(run, id, style)| Some((run, id, style?)))
            .collect(),
    )
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
           AND dataset_name = $1 AND model = $2 AND task = $3",
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

/// Every judge decision of a run scored on dataset version `dataset_id`
/// that is open for blind review (a judge-verdict or rubric-verdict item
/// of the run, made on any version, not final yet), by run id, each run's
/// in order: what public figures leave out
/// ([`engine::review::OpenDecision`]). Items without a run (the fidelity
/// study's replies) have no judge decision and are not among them.
pub async fn open_decisions(
    db: &Db,
    dataset_id: i64,
) -> Result<std::collections::BTreeMap<i64, Vec<engine::review::OpenDecision>>> {
    let rows: Vec<(i64, String, Option<String>, Option<String>)> = sqlx::query_as(
        "SELECT i.run_id, i.case_id, i.task, i.target
         FROM review_items i JOIN run_scores s ON s.run_id = i.run_id
         WHERE s.dataset_id = $1 AND i.final_label IS NULL
           AND i.kind IN ('judge_verdict', 'rubric_verdict')",
    )
    .bind(dataset_id)
    .fetch_all(db.pool())
    .await?;
    let mut open: std::collections::BTreeMap<i64, Vec<engine::review::OpenDecision>> =
        std::collections::BTreeMap::new();
    for (run_id, case_id, task, target) in rows {
        let task = match task.as_deref() {
            None => None,
            Some(t) => Some(Task::parse(t).ok_or_else(|| {
                DbError::Corrupt(format!("review item of run {run_id}: task {t:?}"))
            })?),
        };
        open.entry(run_id)
            .or_default()
            .push(engine::review::OpenDecision {
                case_id,
                task,
                target,
            });
    }
    for decisions in open.values_mut() {
        decisions.sort();
        decisions.dedup();
    }
    Ok(open)
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
        sqlx::query_scalar("SELECT id FROM review_items WHERE dataset_name = $1 ORDER BY id")
            .bind(&row.dataset_name)
            .fetch_all(db.pool())
            .await?
    };
    let (previous, next) = neighbours(&order, id);
    let unclear = item.assignment(viewer.id).and_then(|a| a.unclear.clone());
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
        unclear,
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
        submit(&db, id, &experts[0], &label, "", None, None, rescore())
            .await
            .expect("submit");
        let mine = item_for_viewer(&db, id, &experts[0]).await.expect("item");
        assert!(mine
            .mine
            .is_some_and(|m| m.label.starts_with("[\"dismissed\"")));
        assert!(mine.revealed.is_some_and(|r| r.judge_label.is_some()));
    }
}

#[cfg(test)]
mod rubric_tests {
    use engine::accounts::Role;
    use engine::benchmark::{Benchmark, PLawBench, Suite};
    use engine::plawbench::dataset::{parse_dataset, Task};

    use super::super::testing::rescore;
    use super::super::{adjudicate, auto_assign, dashboard, queue, submit, Adjudicator};
    use super::*;
    use crate::datasets::{import_items, ImportSource};

    /// A PLawBench dataset with two stored runs, an admin and two experts.
    async fn plaw_fixture() -> (Db, DatasetInfo, User, Vec<User>) {
        let db = Db::open_for_test(None).await.expect("database");
        let sizes = [
            (Task::CaseAnalysis, 4),
            (Task::LegalConsultation, 3),
            (Task::PlaintiffStatement, 2),
            (Task::DefendantStatement, 2),
        ];
        let items =
            parse_dataset(&engine::plawbench::synthetic::dataset_file(&sizes, 3)).expect("items");
        let src = ImportSource {
            name: "plaw-test",
            source: "test",
            synthetic: true,
        };
        let dataset = import_items(&db, src, Benchmark::Plawbench, &items)
            .await
            .expect("import")
            .dataset()
            .clone();
        for run in 1..=2 {
            let text = engine::plawbench::synthetic::run_file(&items, "M", run, 1, u64::from(run));
            let parsed = PLawBench::parse_run(text.as_bytes(), &items).expect("a valid run");
            let scores = PLawBench::score(&parsed, &items);
            let new = crate::runs::NewRun::of::<PLawBench>(&parsed, &scores).expect("a run");
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
        let admin = crate::users::create(&db, "admin", Role::Admin, "password-1")
            .await
            .expect("admin");
        let mut experts = Vec::new();
        for name in ["甲", "乙"] {
            experts.push(
                crate::users::create(&db, name, Role::Expert, "password-1")
                    .await
                    .expect("expert"),
            );
        }
        (db, dataset, admin, experts)
    }

    #[tokio::test]
    async fn rubric_verdicts_are_scored_blind_adjudicated_and_compared_with_the_judge() {
        let (db, dataset, admin, experts) = plaw_fixture().await;
        let sample = RubricSample {
            per_task: 2,
            cap: 100,
            seed: 5,
        };
        let made = create_rubric_items(&db, &dataset, sample, &admin)
            .await
            .expect("items");
        assert_eq!(made.created, 8, "two of each of the four tasks");
        let again = create_rubric_items(&db, &dataset, sample, &admin)
            .await
            .expect("items");
        assert_eq!((again.created, again.existing), (0, 8));
        auto_assign(&db, &dataset.name, None).await.expect("assign");

        let mine = queue(&db, &dataset.name, &experts[0]).await.expect("queue");
        assert_eq!(mine.len(), 8);
        // A case-analysis item: four sections.
        let mut case_item = None;
        for entry in &mine {
            let view = item_for_viewer(&db, entry.id, &experts[0])
                .await
                .expect("item");
            if view.target.as_deref() == Some("case_analysis") {
                case_item = Some(view);
                break;
            }
        }
        let view = case_item.expect("a case-analysis item");
        assert_eq!(view.kind, ReviewKind::RubricVerdict);
        assert_eq!(
            view.input["sheet"]["units"].as_array().map(Vec::len),
            Some(4)
        );
        assert_eq!(view.revealed, None, "blind before submitting");
        assert!(view.input.get("judgements").is_none());
        let id = view.id;
        let units = view.input["sheet"]["units"].as_array().unwrap().clone();
        let label = |points: &[f64]| {
            units
                .iter()
                .zip(points)
                .map(|(u, p)| format!("{}={p}", u["key"].as_str().unwrap()))
                .collect::<Vec<_>>()
                .join(", ")
        };

        // A section over its maximum is refused, naming the section.
        let too_many = label(&[1000.0, 0.0, 0.0, 0.0]);
        let refused = submit(&db, id, &experts[0], &too_many, "", None, None, rescore())
            .await
            .expect_err("over the maximum");
        assert!(
            refused.to_string().contains("section \"conclusion\""),
            "{refused}"
        );

        submit(
            &db,
            id,
            &experts[0],
            &label(&[1.0, 2.0, 3.0, 4.0]),
            "",
            None,
            None,
            rescore(),
        )
        .await
        .expect("first expert");
        let after = item_for_viewer(&db, id, &experts[0]).await.expect("item");
        let judge = after
            .revealed
            .as_ref()
            .and_then(|r| r.judge_label.clone())
            .expect("the judge's points once submitted");
        assert!(judge.starts_with("{\"conclusion\":"), "{judge}");
        // The second expert disagrees: the item waits for an adjudicator.
        submit(
            &db,
            id,
            &experts[1],
            &label(&[1.0, 2.0, 3.0, 5.0]),
            "",
            None,
            None,
            rescore(),
        )
        .await
        .expect("second expert");
        let board = dashboard(&db, &dataset.name, &admin)
            .await
            .expect("dashboard");
        assert_eq!(board.items_in_adjudication, 1);
        assert_eq!(board.disagreements, [id]);
        let adjudicator = Adjudicator::of(admin.clone()).expect("an admin adjudicates");
        adjudicate(
            &db,
            id,
            &adjudicator,
            &label(&[1.0, 2.0, 3.0, 4.5]),
            "法条部分给一半",
            rescore(),
        )
        .await
        .expect("adjudicated");
        let board = dashboard(&db, &dataset.name, &admin)
            .await
            .expect("dashboard");
        assert_eq!(board.items_final, 1);
        let totals = board
            .sheets
            .iter()
            .find(|r| r.task == "case_analysis" && r.unit.is_none())
            .expect("a row of case-analysis totals");
        assert_eq!((totals.human.n, totals.judge.n), (1, 1));
        assert_eq!(totals.human.mad, Some(1.0));
        let law = board
            .sheets
            .iter()
            .find(|r| r.task == "case_analysis" && r.unit.as_deref() == Some("law"))
            .expect("a row for the law section");
        let judge_law = serde_json::from_str::<serde_json::Value>(&judge).unwrap()["law"]
            .as_f64()
            .unwrap();
        assert_eq!(law.judge.mad, Some((judge_law - 4.5).abs()));

        // While open, the item's verdict is kept back from the drill-down.
        let hidden = open_rubric_verdicts(&db, &dataset.name, "M")
            .await
            .expect("hidden");
        assert_eq!(hidden.len(), 7, "every open item but the adjudicated one");
        // ... and left out of public figures, by run.
        let open = open_decisions(&db, dataset.id).await.expect("open");
        let left_out: Vec<(i64, String)> = open
            .iter()
            .flat_map(|(run, ds)| ds.iter().map(move |d| (*run, d.case_id.clone())))
            .collect();
        assert_eq!(left_out.len(), 7);
        let settled: (i64, String) =
            sqlx::query_as("SELECT run_id, case_id FROM review_items WHERE id = $1")
                .bind(id)
                .fetch_one(db.pool())
                .await
                .expect("the settled item");
        assert!(!left_out.contains(&settled), "a final item counts again");
        assert!(open
            .values()
            .flatten()
            .all(|d| d.task.is_none() && d.target.is_some()));
        // LexPilot's judge items refuse a PLawBench dataset and vice versa.
        assert!(create_rubric_items(
            &db,
            &DatasetInfo {
                benchmark: "lexpilot".into(),
                ..dataset.clone()
            },
            sample,
            &admin
        )
        .await
        .is_err());
    }
}
