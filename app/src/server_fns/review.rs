//! Expert review: admins create review items and assign them; experts work
//! through their queue (drafts autosave, labels are submitted blind);
//! adjudicators settle disagreements; everyone with a review role sees the
//! agreement dashboard.
//!
//! These functions authorise and map: what an expert may see before
//! submitting (never the judge's label, nor another expert's label or
//! comment) is decided by `db::review`, which every read here goes through.
//! Experts need [`Permission::Review`]; creating and assigning items needs
//! [`Permission::ManageReview`]; the adjudication queue and adjudicating need
//! [`Permission::Adjudicate`] (admins, and experts an admin designated; a
//! designated expert never adjudicates their own items, `db::review`).
//!
//! An expert's queue, the adjudication queue and the dashboard span the
//! current dataset of every hosted benchmark: LexPilot's items and
//! PLawBench's rubric verdicts side by side.
//!
//! Labels travel as strings: `approve` / `correct` for a seed dialogue (with
//! the corrected case as JSON in `proposal`), the JSON of an
//! [`engine::review::CaseCheck`] for a case check, `predict` / `ask` (LCA) or
//! `accepted` / `rejected` (DCG) for a judge verdict, and for an LJP judge
//! verdict one verdict per claim, as a JSON array or separated by commas;
//! for a rubric verdict, points per section of its sheet as `key=points`
//! pairs or a JSON object (stored as the object).
//! The DTOs carry labels in that stored form (the wire stays what
//! `db::review` stores), and beside them [`LabelReadings`]: each label taken
//! apart ([`LabelReading`]), so that pages never decode JSON out of strings.
//! Kinds, tasks, statuses and classes are the engine's enums, whose serde
//! form is their wire string (`"case_check"`, `"ljp"`, `"final"`).
//!
//! [`Permission::Review`]: engine::accounts::Permission::Review
//! [`Permission::ManageReview`]: engine::accounts::Permission::ManageReview
//! [`Permission::Adjudicate`]: engine::accounts::Permission::Adjudicate

use engine::lexpilot::dataset::Case;
use engine::lexpilot::run::Task;
use engine::review::{FinalSource, Flag, ItemStatus, LabelReading, QueueProgress, ReviewKind};
use engine::vocab::Class;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// What a creation did.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct CreatedItems {
    /// Items made now.
    pub created: usize,
    /// Items that existed already (creation is idempotent).
    pub existing: usize,
}

/// Every stored label a DTO carries, each once with its reading
/// ([`LabelReading::of`] for the item's kind and task). Serialised as a list
/// of `[label, reading]` pairs.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug, Default)]
#[serde(transparent)]
pub struct LabelReadings(Vec<(String, LabelReading)>);

impl LabelReadings {
    /// The readings of `labels` on an item of kind `kind` (and `task`).
    pub fn of<'a>(
        kind: ReviewKind,
        task: Option<Task>,
        labels: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        let mut read: Vec<(String, LabelReading)> = Vec::new();
        for label in labels {
            if !read.iter().any(|(l, _)| l == label) {
                read.push((label.to_owned(), LabelReading::of(kind, task, label)));
            }
        }
        LabelReadings(read)
    }

    /// The reading of `label`; a label not carried reads as one word.
    pub fn get(&self, label: &str) -> LabelReading {
        self.0
            .iter()
            .find(|(l, _)| l == label)
            .map_or_else(|| LabelReading::Word(label.to_owned()), |(_, r)| r.clone())
    }
}

/// One item of a queue.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct QueueItem {
    pub id: i64,
    pub kind: ReviewKind,
    pub case_id: String,
    /// The task of a judge verdict.
    pub task: Option<Task>,
    /// The consultation (LCA) or setup (LJP) of a judge verdict.
    pub target: Option<String>,
    /// As the viewer may see it (`todo` until they have submitted).
    pub status: ItemStatus,
    /// The class of the item's case (LexPilot items; `None` for the other
    /// benchmarks' items).
    pub class: Option<Class>,
    /// The viewer flagged it as unclear.
    pub unclear: bool,
}

/// An expert's queue.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct ReviewQueue {
    /// Not submitted yet.
    pub todo: Vec<QueueItem>,
    /// Submitted: waiting for the other expert, or final.
    pub done: Vec<QueueItem>,
    /// Submitted, and the experts disagree: waiting for an adjudicator.
    pub in_adjudication: Vec<QueueItem>,
    /// Items submitted (`done` and `in_adjudication`).
    pub done_count: usize,
    /// Items assigned.
    pub total: usize,
    /// The viewer may adjudicate (an admin or a designated expert).
    pub may_adjudicate: bool,
    /// The viewer may create and assign items (an admin).
    pub may_manage: bool,
    /// Done of assigned, overall and per kind, with the recorded times.
    pub progress: QueueProgress,
    /// Items waiting for an adjudicator the viewer may decide (adjudicators;
    /// 0 for experts).
    pub to_adjudicate: usize,
}

/// What a viewer sees once they have submitted (adjudicators always).
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct Revealed {
    /// The other experts' submitted labels: (expert, label, comment).
    pub others: Vec<(String, String, String)>,
    pub judge_label: Option<String>,
    pub final_label: Option<String>,
    pub final_reason: Option<String>,
    /// The other experts' corrected cases (seed dialogues): (expert, case).
    pub proposals: Vec<(String, Case)>,
    /// The final corrected case of a seed dialogue.
    pub final_proposal: Option<Case>,
    /// How the final label was reached, once final.
    pub final_source: Option<FinalSource>,
}

/// A review item as the viewer may see it.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct ReviewItemView {
    pub id: i64,
    pub kind: ReviewKind,
    pub case_id: String,
    pub task: Option<Task>,
    pub target: Option<String>,
    /// The case (gold verdicts and claims included; only the judge's label
    /// is kept back).
    pub case: Option<Case>,
    /// The judge's input (judge verdicts): the model's reply; for DCG the
    /// focal points, key facts, missing facts and request texts; for LJP the
    /// claims, the reply and the dialogue. `{}` for other kinds.
    pub input: serde_json::Value,
    /// Pre-flags of the case (seed dialogues and case checks).
    pub flags: Vec<Flag>,
    /// The labels of one unit (for LJP, the verdict vocabulary).
    pub labels: Vec<String>,
    /// For an LJP judge verdict, how many verdicts a label holds (one per
    /// claim); 0 otherwise.
    pub claims: usize,
    pub my_label: Option<String>,
    pub my_comment: Option<String>,
    pub my_proposal: Option<Case>,
    /// The viewer's autosaved draft.
    pub draft: Option<String>,
    /// Whether the viewer has submitted.
    pub submitted: bool,
    /// As the viewer may see it (`todo` until they have submitted).
    pub status: ItemStatus,
    /// `None` until the viewer has submitted; adjudicators always get it.
    pub revealed: Option<Revealed>,
    /// The readings of `my_label` and of the labels in `revealed`.
    pub readings: LabelReadings,
    /// The neighbours in the viewer's queue.
    pub previous: Option<i64>,
    pub next: Option<i64>,
    /// The next item of the viewer's queue left to label (the queue wraps).
    pub next_todo: Option<i64>,
    /// How far the viewer is through their whole queue (every benchmark's
    /// items), this item placed in it; empty for an adjudicator browsing an
    /// item not assigned to them.
    pub progress: QueueProgress,
    /// The viewer's "unclear" flag (their comment), until they label it.
    pub unclear: Option<String>,
}

/// An item waiting for an adjudicator.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct AdjudicationItem {
    pub id: i64,
    pub kind: ReviewKind,
    pub case_id: String,
    pub task: Option<Task>,
    pub target: Option<String>,
    /// Every expert's label: (expert, label, comment).
    pub labels: Vec<(String, String, String)>,
    pub judge_label: Option<String>,
    /// The experts' corrected cases (seed dialogues): (expert, case).
    pub proposals: Vec<(String, Case)>,
    /// For a seed dialogue: the case has been corrected since the item was
    /// made, so no expert's corrected case can be adopted.
    pub case_changed: bool,
    /// For a seed dialogue: what each expert's corrected case changes,
    /// (expert, changes), against the case as the item shows it.
    pub proposal_changes: Vec<(String, Vec<engine::review::FieldChange>)>,
    /// The experts who revised their label after seeing another's, with the
    /// blind label agreement counts: (expert, blind label).
    pub revised: Vec<(String, String)>,
    /// The readings of `labels`, `judge_label` and the blind labels of
    /// `revised`.
    pub readings: LabelReadings,
}

/// What an adjudication saved besides the final label: for a seed dialogue
/// adjudicated `correct`, the case's new revision and dataset version (saved
/// in the same transaction).
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug, Default)]
pub struct AdjudicationDone {
    pub revision: Option<i64>,
    pub dataset_version: Option<i64>,
}

/// The figures of one kind (and task) of item, over every class or one.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct DashboardRow {
    pub kind: ReviewKind,
    pub task: Option<Task>,
    /// The class of case; `None` for the row over every class.
    pub class: Option<Class>,
    pub n_items: usize,
    /// Units labelled by two experts (items, LJP items among them; checks of
    /// case checks).
    pub n_pairs: usize,
    pub human_agreement: Option<f64>,
    pub human_kappa: Option<f64>,
    /// Judge verdict units with a final label.
    pub n_judged: usize,
    pub judge_agreement: Option<f64>,
    pub judge_kappa: Option<f64>,
    /// Quadratic weighted kappa of the two experts (LJP verdicts, per claim).
    pub qwk: Option<f64>,
    /// Quadratic weighted kappa of the judge against the final label (LJP).
    pub judge_qwk: Option<f64>,
    /// Fleiss' kappa where three or more experts labelled; `None` normally.
    pub fleiss_kappa: Option<f64>,
    /// Judged units whose final label is not the judge's.
    pub overruled: usize,
}

/// One expert's progress on the dashboard.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct ExpertRow {
    pub expert: String,
    /// Items submitted.
    pub done: usize,
    /// Items assigned.
    pub assigned: usize,
    /// Their submitted items waiting for an adjudicator.
    pub in_adjudication: usize,
    /// Items they flagged as unclear.
    pub unclear: usize,
    /// Median recorded seconds per item.
    pub median_seconds: Option<f64>,
    /// Timed items per hour of recorded time.
    pub items_per_hour: Option<f64>,
}

/// The agreement dashboard.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct ReviewDashboard {
    pub rows: Vec<DashboardRow>,
    /// The paper's Table 12 Average row over the LCA, DCG and LJP judge
    /// verdicts.
    pub average: Option<engine::review::TaskAverage>,
    /// Rubric verdicts per task and section: judge against the final label,
    /// expert against expert (points).
    pub sheets: Vec<engine::review::SheetRow>,
    /// DLawBench's human check of the client simulator: per simulated
    /// style and overall, the experts' accuracy and Fleiss' kappa beside
    /// the paper's ([`engine::dlawbench::client_style`]); `None` before any
    /// label.
    #[serde(default)]
    pub client_style: Option<engine::dlawbench::client_style::ClientStyleFigures>,
    /// Items whose experts disagreed (adjudicators only; empty for experts).
    pub disagreements: Vec<i64>,
    /// Every expert's progress, by name.
    pub progress: Vec<ExpertRow>,
    /// Items of the dataset.
    pub items: usize,
    /// Items with a final label.
    pub items_final: usize,
    /// Items waiting for an adjudicator.
    pub items_in_adjudication: usize,
}

/// Creates review items from the current dataset: `kind` `seed_dialogue`
/// (one per seed case), `case_check` (one per case) or `judge_verdict` (a
/// stratified sample of the stored judge decisions of `task`: `per_model`
/// per model, default 10, `cap` in all, default 100, from `seed`); or, from
/// the current dataset of `benchmark` (`plawbench`, the default, or
/// `dlawbench`), `rubric_verdict`: PLawBench's judged items stratified by
/// task (`per_model` is then per task, default 10, `cap` default 40), or
/// DLawBench's judged sessions stratified by style, each rubric item a 0/1
/// mark against the panel's majority (`per_model` per style, default 5,
/// `cap` default 20); or `client_style`: sessions of the current DLawBench
/// dataset's stored runs (every run, or those of `run`: a lawyer model,
/// or `MODEL #N` for its run N) whose client simulator spoke, stratified by style, for experts to
/// name the style (`per_model` per style, default 5 or the fewest a style
/// has, `cap` default 20; 400 naming the reason without a stored run, for
/// a run not stored, or for a sample larger than the sessions). Items that
/// exist already are left as they are.
#[server(prefix = "/sfn")]
pub async fn create_review_items(
    kind: String,
    task: Option<String>,
    per_model: Option<usize>,
    cap: Option<usize>,
    seed: Option<u64>,
    benchmark: Option<String>,
    run: Option<String>,
) -> Result<CreatedItems, ServerFnError> {
    use self::ssr::bad_request;
    use crate::ssr::{current_dataset, db, fail, require};
    use db::review::{JudgeSample, DEFAULT_CAP, DEFAULT_PER_MODEL, DEFAULT_SEED};

    let user = require(engine::accounts::Permission::ManageReview).await?;
    let db = db()?;
    let Some(kind) = ReviewKind::parse(kind.trim()) else {
        return Err(bad_request(format!(
            "unknown kind {kind:?}; expected seed_dialogue, case_check, judge_verdict, \
             rubric_verdict or client_style"
        )));
    };
    if kind == ReviewKind::ClientStyle {
        let dataset =
            crate::ssr::current_dataset_of(&db, engine::benchmark::Benchmark::Dlawbench).await?;
        // `MODEL` or `MODEL #N`.
        let run = run.as_deref().map(str::trim).filter(|r| !r.is_empty());
        let (model, run_number) = match run.and_then(|r| r.rsplit_once('#')) {
            Some((m, n)) if n.trim().parse::<i64>().is_ok() => {
                (Some(m.trim().to_owned()), n.trim().parse().ok())
            }
            _ => (run.map(str::to_owned), None),
        };
        let model = model.filter(|m| !m.is_empty());
        let sample = db::review::StyleSample {
            model,
            run_number,
            per_style: per_model,
            cap,
            seed: seed.unwrap_or(DEFAULT_SEED),
        };
        let lang = crate::components::i18n::lang();
        let created = db::review::create_client_style_items(&db, &dataset, sample, lang, &user)
            .await
            .map_err(fail)?;
        return Ok(CreatedItems {
            created: created.created,
            existing: created.existing,
        });
    }
    if kind == ReviewKind::RubricVerdict {
        use engine::benchmark::Benchmark;
        let benchmark = match benchmark.as_deref().map(str::trim) {
            None | Some("") | Some("plawbench") => Benchmark::Plawbench,
            Some("dlawbench") => Benchmark::Dlawbench,
            Some(other) => {
                return Err(bad_request(format!(
                    "rubric verdicts are PLawBench's or DLawBench's, not {other:?}"
                )))
            }
        };
        let (per, all) = match benchmark {
            Benchmark::Dlawbench => (
                engine::dlawbench::review::DEFAULT_PER_STYLE,
                engine::dlawbench::review::DEFAULT_CAP,
            ),
            _ => (
                engine::plawbench::review::DEFAULT_PER_TASK,
                engine::plawbench::review::DEFAULT_CAP,
            ),
        };
        let dataset = crate::ssr::current_dataset_of(&db, benchmark).await?;
        let sample = db::review::RubricSample {
            per_task: per_model.unwrap_or(per),
            cap: cap.unwrap_or(all),
            seed: seed.unwrap_or(DEFAULT_SEED),
        };
        let created = db::review::create_rubric_items(&db, &dataset, sample, &user)
            .await
            .map_err(fail)?;
        return Ok(CreatedItems {
            created: created.created,
            existing: created.existing,
        });
    }
    let dataset = current_dataset(&db).await?;
    let created = match kind {
        ReviewKind::SeedDialogue => db::review::create_seed_items(&db, &dataset, &user).await,
        ReviewKind::CaseCheck => db::review::create_case_check_items(&db, &dataset, &user).await,
        ReviewKind::JudgeVerdict => {
            let Some(task) = task.as_deref().map(str::trim).and_then(Task::parse) else {
                return Err(bad_request(format!(
                    "judge verdicts need a task: lca, dcg or ljp (got {task:?})"
                )));
            };
            let sample = JudgeSample {
                task,
                per_model: per_model.unwrap_or(DEFAULT_PER_MODEL),
                cap: cap.unwrap_or(DEFAULT_CAP),
                seed: seed.unwrap_or(DEFAULT_SEED),
            };
            db::review::create_judge_items(&db, &dataset, sample, &user).await
        }
        ReviewKind::RubricVerdict | ReviewKind::ClientStyle => unreachable!("handled above"),
    }
    .map_err(fail)?;
    Ok(CreatedItems {
        created: created.created,
        existing: created.existing,
    })
}

/// Gives every open item of the current datasets with fewer than two experts
/// the experts it lacks, balancing the load over the experts named (or every
/// expert account). 400 with fewer than two experts. Returns the
/// assignments made.
#[server(prefix = "/sfn")]
pub async fn assign_reviews(experts: Option<Vec<String>>) -> Result<usize, ServerFnError> {
    use crate::ssr::{db, fail, require};

    require(engine::accounts::Permission::ManageReview).await?;
    let db = db()?;
    let mut made = 0;
    for dataset in ssr::review_datasets(&db).await? {
        made += db::review::auto_assign(&db, &dataset.name, experts.as_deref())
            .await
            .map_err(fail)?;
    }
    Ok(made)
}

/// Assigns item `id` to the experts named, besides those it has (more than
/// two is allowed: Fleiss' kappa then has something to count). Returns the
/// assignments made.
#[server(prefix = "/sfn")]
pub async fn assign_review(id: i64, experts: Vec<String>) -> Result<usize, ServerFnError> {
    use crate::ssr::{db, fail, require};

    require(engine::accounts::Permission::ManageReview).await?;
    db::review::assign(&db()?, id, &experts).await.map_err(fail)
}

/// A page of the management list of the review items of the current
/// datasets: `kind`, `status`, `expert` and `case` filter (empty or absent
/// means any; an unknown kind or status is a 400 naming the field),
/// `understaffed` keeps items with fewer than two experts, `page` is 1-based.
#[server(prefix = "/sfn")]
pub async fn review_items(
    kind: Option<String>,
    status: Option<String>,
    expert: Option<String>,
    case: Option<String>,
    understaffed: Option<bool>,
    page: Option<usize>,
) -> Result<engine::review::ManageList, ServerFnError> {
    use crate::ssr::{db, fail, require};

    let user = require(engine::accounts::Permission::ManageReview).await?;
    let manager = db::review::Manager::of(user).ok_or_else(|| ServerFnError::new("admins only"))?;
    let given = |s: Option<String>| s.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
    let filter = engine::review::ManageFilter {
        kind: given(kind)
            .map(|k| {
                ReviewKind::parse(&k)
                    .ok_or_else(|| ssr::bad_request(format!("kind: unknown review kind {k:?}")))
            })
            .transpose()?,
        status: given(status)
            .map(|s| {
                ItemStatus::parse(&s)
                    .ok_or_else(|| ssr::bad_request(format!("status: unknown status {s:?}")))
            })
            .transpose()?,
        expert: given(expert),
        case: given(case),
        understaffed: understaffed.unwrap_or(false),
    };
    let db = db()?;
    let names: Vec<String> = ssr::review_datasets(&db)
        .await?
        .into_iter()
        .map(|d| d.name)
        .collect();
    db::review::manage_list(&db, &manager, &names, &filter, page.unwrap_or(1))
        .await
        .map_err(fail)
}

/// What a bulk reassignment did.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct ReassignDone {
    /// Items handed over.
    pub moved: usize,
    /// Items left with the expert (every expert of the pool is on them).
    pub stranded: Vec<i64>,
}

/// Hands every item of the current datasets that account `from` has still to
/// label to the experts named in `to` (or every other expert account),
/// balanced by their open work; their submitted labels stay. 400 for an
/// unknown account or when nobody is left to take over.
#[server(prefix = "/sfn")]
pub async fn reassign_reviews(
    from: String,
    to: Option<Vec<String>>,
) -> Result<ReassignDone, ServerFnError> {
    use crate::ssr::{db, fail, require};

    let user = require(engine::accounts::Permission::ManageReview).await?;
    let manager = db::review::Manager::of(user).ok_or_else(|| ServerFnError::new("admins only"))?;
    let db = db()?;
    let names: Vec<String> = ssr::review_datasets(&db)
        .await?
        .into_iter()
        .map(|d| d.name)
        .collect();
    let to = to.filter(|t| !t.is_empty());
    let done = db::review::reassign(&db, &manager, &names, &from, to.as_deref())
        .await
        .map_err(fail)?;
    Ok(ReassignDone {
        moved: done.moved,
        stranded: done.stranded,
    })
}

/// The signed-in expert's items of the current datasets.
#[server(prefix = "/sfn")]
pub async fn my_queue() -> Result<ReviewQueue, ServerFnError> {
    use crate::ssr::{db, fail, require};

    let user = require(engine::accounts::Permission::Review).await?;
    let db = db()?;
    let (entries, classes) = ssr::my_entries(&db, &user).await?;
    let to_adjudicate = if user.allows(engine::accounts::Permission::Adjudicate) {
        let adjudicator = ssr::adjudicator().await?;
        let mut n = 0;
        for dataset in ssr::review_datasets(&db).await? {
            n += db::review::adjudication_queue(&db, &dataset.name, &adjudicator)
                .await
                .map_err(fail)?
                .len();
        }
        n
    } else {
        0
    };
    let progress = QueueProgress::of(&entries, None);
    let total = entries.len();
    let mut queue = ReviewQueue {
        todo: Vec::new(),
        done: Vec::new(),
        in_adjudication: Vec::new(),
        done_count: 0,
        total,
        may_adjudicate: user.allows(engine::accounts::Permission::Adjudicate),
        may_manage: user.allows(engine::accounts::Permission::ManageReview),
        progress,
        to_adjudicate,
    };
    for (entry, class) in entries.into_iter().zip(classes) {
        let item = QueueItem {
            id: entry.id,
            kind: entry.kind,
            case_id: entry.case_id,
            task: entry.task,
            // A client-style item's target is the style it is played in:
            // what the expert names, never shown in the queue.
            target: entry
                .target
                .filter(|_| entry.kind != ReviewKind::ClientStyle),
            status: entry.status,
            class,
            unclear: entry.unclear,
        };
        match item.status {
            ItemStatus::Todo => queue.todo.push(item),
            ItemStatus::Adjudication => queue.in_adjudication.push(item),
            ItemStatus::Submitted | ItemStatus::Final => queue.done.push(item),
        }
    }
    queue.done_count = total - queue.todo.len();
    Ok(queue)
}

/// Item `id` as the signed-in user may see it; 404 for an item not assigned
/// to them (adjudicators see every item).
#[server(prefix = "/sfn")]
pub async fn get_review_item(id: i64) -> Result<ReviewItemView, ServerFnError> {
    use crate::ssr::{db, fail, require};

    let user = require(engine::accounts::Permission::Review).await?;
    let db = db()?;
    let view = db::review::item_for_viewer(&db, id, &user)
        .await
        .map_err(fail)?;
    ssr::placed(&db, &user, ssr::item_view(view)).await
}

/// Flags item `id` as unclear for the signed-in expert, with `comment`
/// saying why, without labelling it; an empty comment clears the flag.
/// 409 once the expert has labelled the item.
#[server(prefix = "/sfn")]
pub async fn flag_review_item(id: i64, comment: String) -> Result<(), ServerFnError> {
    use crate::ssr::{db, fail, require};

    let user = require(engine::accounts::Permission::Review).await?;
    db::review::flag_unclear(&db()?, id, &user, &comment)
        .await
        .map_err(fail)
}

/// Keeps `draft` (any text the page chooses, e.g. JSON of the form) as the
/// signed-in expert's draft for item `id`.
#[server(prefix = "/sfn")]
pub async fn save_review_draft(id: i64, draft: String) -> Result<(), ServerFnError> {
    use crate::ssr::{db, fail, require};

    let user = require(engine::accounts::Permission::Review).await?;
    db::review::save_draft(&db()?, id, &user, &draft)
        .await
        .map_err(fail)
}

/// Submits (or revises, until the item is final) the signed-in expert's label
/// for item `id`; 400 with the reason for a label outside the item's label
/// space or an invalid correction. Returns the item as the expert now sees it.
#[server(prefix = "/sfn")]
pub async fn submit_review(
    id: i64,
    label: String,
    comment: String,
    proposal: Option<String>,
    seconds: Option<u32>,
) -> Result<ReviewItemView, ServerFnError> {
    use crate::ssr::{db, fail, require};

    let user = require(engine::accounts::Permission::Review).await?;
    let db = db()?;
    // Only a LexPilot seed correction re-scores stored runs.
    let rescore = services::ingest::rescore(engine::benchmark::Benchmark::Lexpilot);
    db::review::submit(
        &db,
        id,
        &user,
        &label,
        &comment,
        proposal.as_deref(),
        seconds,
        rescore,
    )
    .await
    .map_err(fail)?;
    let view = db::review::item_for_viewer(&db, id, &user)
        .await
        .map_err(fail)?;
    ssr::placed(&db, &user, ssr::item_view(view)).await
}

/// The items of the current datasets waiting for an adjudicator, with every
/// expert's label and the judge's.
#[server(prefix = "/sfn")]
pub async fn adjudication_queue() -> Result<Vec<AdjudicationItem>, ServerFnError> {
    use crate::ssr::{db, fail};

    let adjudicator = ssr::adjudicator().await?;
    let db = db()?;
    let mut entries = Vec::new();
    for dataset in ssr::review_datasets(&db).await? {
        entries.extend(
            db::review::adjudication_queue(&db, &dataset.name, &adjudicator)
                .await
                .map_err(fail)?,
        );
    }
    Ok(entries
        .into_iter()
        .map(|e| {
            let revised: Vec<(String, String)> = e
                .submissions
                .iter()
                .filter(|s| s.revised_after_reveal())
                .map(|s| (s.expert.clone(), s.blind_label.clone()))
                .collect();
            let (labels, proposals) = ssr::split_submissions(e.submissions);
            let readings = LabelReadings::of(
                e.kind,
                e.task,
                labels
                    .iter()
                    .map(|(_, label, _)| label.as_str())
                    .chain(e.judge_label.as_deref())
                    .chain(revised.iter().map(|(_, blind)| blind.as_str())),
            );
            let proposal_changes = match &e.case {
                Some(case) => proposals
                    .iter()
                    .map(|(who, p)| (who.clone(), engine::review::diff_cases(case, p)))
                    .collect(),
                None => Vec::new(),
            };
            AdjudicationItem {
                id: e.id,
                kind: e.kind,
                case_id: e.case_id,
                task: e.task,
                target: e.target,
                labels,
                judge_label: e.judge_label,
                proposals,
                case_changed: e.case_changed,
                proposal_changes,
                revised,
                readings,
            }
        })
        .collect())
}

/// Records the final label of item `id`, whose experts disagreed, with the
/// reason (required). For a seed dialogue the label is `approve`, `correct`
/// (the experts' corrected case) or `correct:NAME` (expert NAME's); a
/// correction is saved with the final label in one transaction, or neither
/// is (400 naming the newer revision when the case changed meanwhile). 403
/// for a designated expert on an item assigned to them.
#[server(prefix = "/sfn")]
pub async fn adjudicate(
    id: i64,
    label: String,
    reason: String,
) -> Result<AdjudicationDone, ServerFnError> {
    use crate::ssr::{db, fail};
    use db::revisions::CorrectionOutcome;

    let adjudicator = ssr::adjudicator().await?;
    let db = db()?;
    // Only a LexPilot seed correction re-scores stored runs.
    let rescore = services::ingest::rescore(engine::benchmark::Benchmark::Lexpilot);
    let done = db::review::adjudicate(&db, id, &adjudicator, &label, &reason, rescore)
        .await
        .map_err(fail)?;
    Ok(match done.correction {
        Some(CorrectionOutcome::Saved {
            revision, dataset, ..
        }) => AdjudicationDone {
            revision: Some(revision),
            dataset_version: Some(dataset.version),
        },
        _ => AdjudicationDone::default(),
    })
}

/// The agreement dashboard of the current datasets. Adjudicators get figures
/// over every item and the disagreements; an expert gets figures over the
/// items they have submitted only (so nothing in them hangs on a label they
/// may not see yet) and no disagreement list. The server-function type is
/// `LoadReviewDashboard` (`ReviewDashboard` is the result).
#[server(name = LoadReviewDashboard, prefix = "/sfn")]
pub async fn review_dashboard() -> Result<ReviewDashboard, ServerFnError> {
    use crate::ssr::{db, fail, require};

    let user = require(engine::accounts::Permission::Review).await?;
    let db = db()?;
    let datasets = ssr::review_datasets(&db).await?;
    // The same dashboard its export writes.
    let board = services::views::review_dashboard(&db, &datasets, &user)
        .await
        .map_err(fail)?;
    Ok(ReviewDashboard {
        average: engine::review::task_average(&board.rows),
        client_style: engine::dlawbench::client_style::ClientStyleFigures::of(&board.client_style),
        sheets: board.sheets,
        rows: board
            .rows
            .into_iter()
            .map(|r| DashboardRow {
                kind: r.kind,
                task: r.task,
                class: r.class,
                n_items: r.n_items,
                n_pairs: r.n_pairs,
                human_agreement: r.human_agreement,
                human_kappa: r.human_kappa,
                n_judged: r.n_judged,
                judge_agreement: r.judge_agreement,
                judge_kappa: r.judge_kappa,
                qwk: r.qwk,
                judge_qwk: r.judge_qwk,
                fleiss_kappa: r.fleiss_kappa,
                overruled: r.overruled,
            })
            .collect(),
        disagreements: board.disagreements,
        progress: board
            .progress
            .into_iter()
            .map(|p| ExpertRow {
                median_seconds: p.median_seconds(),
                items_per_hour: p.items_per_hour(),
                expert: p.expert,
                done: p.done,
                assigned: p.assigned,
                in_adjudication: p.in_adjudication,
                unclear: p.unclear,
            })
            .collect(),
        items: board.items,
        items_final: board.items_final,
        items_in_adjudication: board.items_in_adjudication,
    })
}

/// Server-only helpers: mapping `db::review` types to the DTOs above.
#[cfg(feature = "ssr")]
mod ssr {
    use axum::http::StatusCode;
    use db::review::{Adjudicator, ItemView, Submission};
    use engine::lexpilot::dataset::Case;
    use leptos::prelude::ServerFnError;

    use super::{LabelReadings, Revealed, ReviewItemView};
    use crate::ssr::{require, set_status};

    /// The datasets review spans: the current version of every hosted
    /// benchmark that has one, LexPilot first. 404 when there is none.
    pub async fn review_datasets(
        db: &db::Db,
    ) -> Result<Vec<db::datasets::DatasetInfo>, ServerFnError> {
        let datasets = services::views::review_datasets(db)
            .await
            .map_err(crate::ssr::fail)?;
        if datasets.is_empty() {
            return crate::ssr::current_dataset(db).await.map(|d| vec![d]);
        }
        Ok(datasets)
    }

    /// A 400 error with `message`.
    pub fn bad_request(message: String) -> ServerFnError {
        set_status(StatusCode::BAD_REQUEST);
        ServerFnError::new(message)
    }

    /// The signed-in user as an adjudicator, or 401 / 403.
    pub async fn adjudicator() -> Result<Adjudicator, ServerFnError> {
        let user = require(engine::accounts::Permission::Adjudicate).await?;
        Adjudicator::of(user).ok_or_else(|| {
            set_status(StatusCode::FORBIDDEN);
            ServerFnError::new("your role may not do this")
        })
    }

    /// (expert, label, comment) of each submission.
    type Labels = Vec<(String, String, String)>;
    /// (expert, corrected case) of each seed correction.
    type Proposals = Vec<(String, Case)>;

    /// Submissions as (expert, label, comment), and the corrected cases.
    pub fn split_submissions(submissions: Vec<Submission>) -> (Labels, Proposals) {
        let proposals = submissions
            .iter()
            .filter_map(|s| Some((s.expert.clone(), s.proposal.clone()?)))
            .collect();
        let labels = submissions
            .into_iter()
            .map(|s| (s.expert, s.label, s.comment))
            .collect();
        (labels, proposals)
    }

    pub fn item_view(v: ItemView) -> ReviewItemView {
        let submitted = v.mine.is_some();
        // A client-style item's target is the truth the expert names: sent
        // only once the judge's side is revealed to them.
        let blind_target =
            v.kind == engine::review::ReviewKind::ClientStyle && v.revealed.is_none();
        let (my_label, my_comment, my_proposal) = match v.mine {
            Some(mine) => (Some(mine.label), Some(mine.comment), mine.proposal),
            None => (None, None, None),
        };
        let revealed = v.revealed.map(|r| {
            let (others, proposals) = split_submissions(r.others);
            Revealed {
                others,
                judge_label: r.judge_label,
                final_label: r.final_label,
                final_reason: r.final_reason,
                proposals,
                final_proposal: r.final_proposal,
                final_source: r.final_source,
            }
        });
        let readings = LabelReadings::of(
            v.kind,
            v.task,
            my_label
                .as_deref()
                .into_iter()
                .chain(revealed.iter().flat_map(|r| {
                    r.others
                        .iter()
                        .map(|(_, label, _)| label.as_str())
                        .chain(r.judge_label.as_deref())
                        .chain(r.final_label.as_deref())
                })),
        );
        ReviewItemView {
            id: v.id,
            kind: v.kind,
            case_id: v.case_id,
            task: v.task,
            target: v.target.filter(|_| !blind_target),
            case: v.case,
            input: v.input,
            flags: v.flags,
            labels: v.labels,
            claims: v.claims,
            my_label,
            my_comment,
            my_proposal,
            draft: v.draft,
            submitted,
            status: v.status,
            revealed,
            readings,
            previous: v.previous,
            next: v.next,
            next_todo: None,
            progress: engine::review::QueueProgress::default(),
            unclear: v.unclear,
        }
    }

    /// The viewer's queue over every review dataset, in order, with the
    /// class of each entry's case where it is a LexPilot case.
    pub async fn my_entries(
        db: &db::Db,
        user: &db::users::User,
    ) -> Result<
        (
            Vec<db::review::QueueEntry>,
            Vec<Option<engine::vocab::Class>>,
        ),
        ServerFnError,
    > {
        let mut entries = Vec::new();
        let mut classes = Vec::new();
        for dataset in review_datasets(db).await? {
            let queue = db::review::queue(db, &dataset.name, user)
                .await
                .map_err(crate::ssr::fail)?;
            let of_case: std::collections::HashMap<String, engine::vocab::Class> =
                if dataset.benchmark() == Some(engine::benchmark::Benchmark::Lexpilot) {
                    db::cases::all(db, dataset.id)
                        .await
                        .map_err(crate::ssr::fail)?
                        .iter()
                        .map(|c| (c.case_id.clone(), c.class))
                        .collect()
                } else {
                    Default::default()
                };
            classes.extend(queue.iter().map(|e| of_case.get(&e.case_id).copied()));
            entries.extend(queue);
        }
        Ok((entries, classes))
    }

    /// `item` placed in the viewer's whole queue: its progress and the next
    /// item left to label (an item assigned to the viewer only; an
    /// adjudicator browsing another's item keeps its neighbours).
    pub async fn placed(
        db: &db::Db,
        user: &db::users::User,
        mut item: ReviewItemView,
    ) -> Result<ReviewItemView, ServerFnError> {
        // The queue alone: the classes of the cases are the queue page's.
        let mut entries = Vec::new();
        for dataset in review_datasets(db).await? {
            entries.extend(
                db::review::queue(db, &dataset.name, user)
                    .await
                    .map_err(crate::ssr::fail)?,
            );
        }
        if entries.iter().any(|e| e.id == item.id) {
            let order: Vec<i64> = entries.iter().map(|e| e.id).collect();
            (item.previous, item.next) = engine::review::neighbours(&order, item.id);
            item.next_todo = engine::review::next_todo(&entries, item.id);
            item.progress = engine::review::QueueProgress::of(&entries, Some(item.id));
        }
        Ok(item)
    }
}
