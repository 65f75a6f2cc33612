//! Review labels as they are stored, the consensus of the experts on an item,
//! the figures of the agreement dashboard and the export of every label.
//!
//! - **Stored labels.** [`canonical_label`] checks what an expert (or an
//!   adjudicator) gives for an item and returns the one form it is stored in:
//!   `approve` / `correct` for a seed dialogue ([`SEED_LABELS`]), the compact
//!   JSON of a [`CaseCheck`] for a case check, a label of the item's
//!   [`LabelSpace`] for an LCA or DCG judge verdict, and the compact JSON
//!   array of one verdict per claim (`["supported","dismissed"]`) for an LJP
//!   judge verdict.
//! - **Units.** Agreement is counted over units, not items ([`unit_labels`]):
//!   one per check of a case check (pass / fail), one for every other item. A
//!   seed dialogue's unit is `approve` or `correct`, whatever the
//!   correction. An LJP item (a case) is one unit, as in the paper's
//!   Table 12: two labels agree when every claim's verdict does, and kappa
//!   takes each list of verdicts as one category; its claims are the units of
//!   the quadratic weighted kappa.
//! - **Consensus.** [`agreed`] gives the final label when every expert of an
//!   item gave the same units (and, for a seed correction, the same corrected
//!   case). Case checks that agree keep every expert's comment.
//! - **Dashboard.** [`dashboard_rows`] gives, per kind and task, over all
//!   items and per class of case, the human–human agreement and Cohen's kappa
//!   (the first two experts of each item), the judge–human agreement and
//!   kappa (the judge's label against the final label), quadratic weighted
//!   kappa for LJP verdicts, Fleiss' kappa where three or more experts
//!   labelled, and how often the judge was overruled. [`task_average`] is
//!   Table 12's Average row over the LCA, DCG and LJP judge verdicts.
//!   [`disagreements`] lists the items whose experts disagreed.
//! - **Export.** [`ExportItem`] is one item with every label, its final label
//!   and its history; [`export_csv`] flattens them to one row per label.
//!
//! The statistics are those of [`crate::metrics`] and
//! [`crate::agreement::fleiss_kappa`], labels coded by their position in the
//! unit's label space.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::{CaseCheck, CheckKind, CheckResult, LabelSpace, ReviewError, ReviewKind};
use crate::agreement::{fleiss_kappa, kappa_over};
use crate::core::lines::is_blank;
use crate::lexpilot::dataset::Case;
use crate::lexpilot::run::Task;
use crate::metrics::{cohen_kappa, quadratic_weighted_kappa};
use crate::vocab::Class;

/// The labels of a seed dialogue: the expert approves the pair as it stands,
/// or proposes a corrected case.
pub const SEED_LABELS: [&str; 2] = ["approve", "correct"];

/// Why a label is refused for an item.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LabelError {
    /// A label outside the label space, a failed check without comment, an
    /// invalid correction.
    #[error(transparent)]
    Review(#[from] ReviewError),
    /// A case check label that is not the JSON of the four checks.
    #[error("a case check label must be the JSON of the four checks ({0})")]
    MalformedCheck(String),
    /// An LJP label that is not a list of verdicts.
    #[error("an LJP label is a JSON array of verdicts, one per claim ({0})")]
    MalformedVerdicts(String),
    /// An LJP label with a verdict too few or too many.
    #[error("an LJP label needs one verdict per claim: the case has {claims} claims, the label {given} verdicts")]
    WrongVerdictCount {
        /// Claims of the case.
        claims: usize,
        /// Verdicts given.
        given: usize,
    },
    /// A judge verdict item without a task has no label space.
    #[error("a judge verdict item needs its task")]
    NoTask,
    /// Points per section that the item's sheet refuses.
    #[error(transparent)]
    Sheet(#[from] super::SheetError),
    /// A rubric verdict item stored without its sheet.
    #[error("a rubric verdict item needs its score sheet")]
    NoSheet,
}

/// The labels an expert chooses from for one unit of an item of `kind` (and
/// `task`, for a judge verdict); `None` for a judge verdict without task.
///
/// # Examples
///
/// ```
/// use engine::review::{unit_space, ReviewKind};
/// use engine::lexpilot::run::Task;
///
/// assert_eq!(unit_space(ReviewKind::SeedDialogue, None).unwrap(), ["approve", "correct"]);
/// assert_eq!(unit_space(ReviewKind::CaseCheck, None).unwrap(), ["pass", "fail"]);
/// assert_eq!(unit_space(ReviewKind::JudgeVerdict, Some(Task::Dcg)).unwrap(), ["accepted", "rejected"]);
/// assert_eq!(unit_space(ReviewKind::JudgeVerdict, None), None);
/// ```
pub fn unit_space(kind: ReviewKind, task: Option<Task>) -> Option<Vec<&'static str>> {
    match kind {
        ReviewKind::SeedDialogue => Some(SEED_LABELS.to_vec()),
        _ => LabelSpace::of(kind, task).map(LabelSpace::labels),
    }
}

/// Checks `label` for an item of `kind` (and `task`) whose case has `claims`
/// claims, and returns it in its stored form (see the module docs). An LJP
/// label may be given as a JSON array or as verdicts separated by commas.
///
/// # Examples
///
/// ```
/// use engine::review::{canonical_label, CaseCheck, LabelError, ReviewKind};
/// use engine::lexpilot::run::Task;
///
/// let ljp = |label| canonical_label(ReviewKind::JudgeVerdict, Some(Task::Ljp), 2, label);
/// assert_eq!(ljp("supported, dismissed").unwrap(), r#"["supported","dismissed"]"#);
/// assert_eq!(ljp(r#"[ "supported", "dismissed" ]"#).unwrap(), r#"["supported","dismissed"]"#);
/// assert!(matches!(ljp("supported"), Err(LabelError::WrongVerdictCount { claims: 2, given: 1 })));
/// assert!(ljp("supported, won").is_err());
///
/// let lca = canonical_label(ReviewKind::JudgeVerdict, Some(Task::Lca), 0, " ask ");
/// assert_eq!(lca.unwrap(), "ask");
///
/// let check = serde_json::to_string(&CaseCheck::all_pass()).unwrap();
/// assert_eq!(canonical_label(ReviewKind::CaseCheck, None, 1, &check).unwrap(), check);
/// assert!(canonical_label(ReviewKind::CaseCheck, None, 1, "pass").is_err());
/// assert!(canonical_label(ReviewKind::SeedDialogue, None, 1, "reject").is_err());
/// ```
pub fn canonical_label(
    kind: ReviewKind,
    task: Option<Task>,
    claims: usize,
    label: &str,
) -> Result<String, LabelError> {
    match kind {
        ReviewKind::SeedDialogue => {
            let label = label.trim();
            if SEED_LABELS.contains(&label) {
                Ok(label.to_owned())
            } else {
                Err(ReviewError::UnknownLabel {
                    label: label.to_owned(),
                    expected: SEED_LABELS.join(", "),
                }
                .into())
            }
        }
        ReviewKind::CaseCheck => {
            let check: CaseCheck = serde_json::from_str(label)
                .map_err(|e| LabelError::MalformedCheck(e.to_string()))?;
            check.validate()?;
            serde_json::to_string(&check).map_err(|e| LabelError::MalformedCheck(e.to_string()))
        }
        ReviewKind::JudgeVerdict => {
            let space = LabelSpace::of(kind, task).ok_or(LabelError::NoTask)?;
            if space != LabelSpace::Verdict {
                let label = label.trim();
                space.check(label)?;
                return Ok(label.to_owned());
            }
            let verdicts: Vec<String> = if label.trim_start().starts_with('[') {
                serde_json::from_str(label)
                    .map_err(|e| LabelError::MalformedVerdicts(e.to_string()))?
            } else {
                label
                    .split(',')
                    .map(str::trim)
                    .filter(|v| !v.is_empty())
                    .map(str::to_owned)
                    .collect()
            };
            for verdict in &verdicts {
                space.check(verdict)?;
            }
            if verdicts.len() != claims {
                return Err(LabelError::WrongVerdictCount {
                    claims,
                    given: verdicts.len(),
                });
            }
            serde_json::to_string(&verdicts)
                .map_err(|e| LabelError::MalformedVerdicts(e.to_string()))
        }
        // Checked against the item's sheet: `ItemRecord::check_label`.
        ReviewKind::RubricVerdict => Err(LabelError::NoSheet),
        ReviewKind::ClientStyle => {
            let label = label.trim();
            LabelSpace::ClientStyle.check(label)?;
            Ok(label.to_owned())
        }
    }
}

/// The label of each unit of a stored label: the four check outcomes of a
/// case check in [`CheckKind::ALL`] order, the verdict of each claim of an
/// LJP item, the label itself otherwise. `None` for a label not in its
/// stored form.
///
/// # Examples
///
/// ```
/// use engine::review::{unit_labels, ReviewKind};
/// use engine::lexpilot::run::Task;
///
/// let ljp = unit_labels(ReviewKind::JudgeVerdict, Some(Task::Ljp), r#"["supported","dismissed"]"#);
/// assert_eq!(ljp.unwrap(), ["supported", "dismissed"]);
/// assert_eq!(unit_labels(ReviewKind::JudgeVerdict, Some(Task::Lca), "ask").unwrap(), ["ask"]);
/// ```
pub fn unit_labels(kind: ReviewKind, task: Option<Task>, label: &str) -> Option<Vec<String>> {
    match (kind, task) {
        (ReviewKind::CaseCheck, _) => {
            let check: CaseCheck = serde_json::from_str(label).ok()?;
            Some(
                check
                    .results()
                    .map(|(_, r)| r.outcome.as_str().to_owned())
                    .collect(),
            )
        }
        (ReviewKind::JudgeVerdict, Some(Task::Ljp)) => serde_json::from_str(label).ok(),
        _ => Some(vec![label.to_owned()]),
    }
}

/// Whether an expert's submission is blind, so that it becomes the label
/// their agreement is counted on. An expert sees the other experts' labels
/// of an item once they have submitted their own, so their first submission
/// is always blind, and a revision is blind only while no other expert of
/// the item has submitted (there was nothing to see yet). A revision made
/// after the reveal is kept as the expert's current label, for the
/// adjudicator to read, but agreement figures and the automatic `agreed`
/// decision ([`agreed`]) use the blind label: matching the other expert
/// after seeing their label sends the item to adjudication instead of
/// making it agreed.
///
/// # Examples
///
/// ```
/// use engine::review::submission_is_blind;
///
/// assert!(submission_is_blind(true, true)); // the first submission
/// assert!(submission_is_blind(false, false)); // revised before anyone else submitted
/// assert!(!submission_is_blind(false, true)); // revised after the reveal
/// ```
pub fn submission_is_blind(first_submission: bool, others_submitted: bool) -> bool {
    first_submission || !others_submitted
}

/// The final label of an item on which its experts agree.
#[derive(Debug, Clone, PartialEq)]
pub struct Agreed {
    /// The label, in its stored form.
    pub label: String,
    /// For a seed dialogue all experts corrected the same way: the corrected case.
    pub proposal: Option<Case>,
}

/// The final label when every submission (stored label and, for a seed
/// correction, the corrected case) agrees on every unit; `None` with fewer
/// than two submissions or any difference. Agreeing case checks keep each
/// distinct comment of each check, joined by `" / "`.
///
/// # Examples
///
/// ```
/// use engine::review::{agreed, CaseCheck, CheckResult, ReviewKind};
/// use engine::lexpilot::run::Task;
///
/// let lca = Some(Task::Lca);
/// assert_eq!(agreed(ReviewKind::JudgeVerdict, lca, &[("ask", None), ("ask", None)]).unwrap().label, "ask");
/// assert!(agreed(ReviewKind::JudgeVerdict, lca, &[("ask", None), ("predict", None)]).is_none());
/// assert!(agreed(ReviewKind::JudgeVerdict, lca, &[("ask", None)]).is_none());
///
/// let mut a = CaseCheck::all_pass();
/// a.anonymization = CheckResult::fail("第3轮有手机号");
/// let mut b = a.clone();
/// b.anonymization = CheckResult::fail("手机号未脱敏");
/// let (a, b) = (serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
/// let both = agreed(ReviewKind::CaseCheck, None, &[(&a, None), (&b, None)]).unwrap();
/// let merged: CaseCheck = serde_json::from_str(&both.label).unwrap();
/// assert_eq!(merged.anonymization.comment, "第3轮有手机号 / 手机号未脱敏");
/// ```
pub fn agreed(
    kind: ReviewKind,
    task: Option<Task>,
    submissions: &[(&str, Option<&Case>)],
) -> Option<Agreed> {
    let ((first, first_proposal), rest) = submissions.split_first()?;
    if rest.is_empty() {
        return None;
    }
    let units = unit_labels(kind, task, first)?;
    for (label, proposal) in rest {
        if unit_labels(kind, task, label)? != units || proposal != first_proposal {
            return None;
        }
    }
    let label = if kind == ReviewKind::CaseCheck {
        let checks = submissions
            .iter()
            .map(|(label, _)| serde_json::from_str::<CaseCheck>(label).ok())
            .collect::<Option<Vec<_>>>()?;
        serde_json::to_string(&merge_comments(&checks)?).ok()?
    } else {
        (*first).to_owned()
    };
    Some(Agreed {
        label,
        proposal: first_proposal.cloned(),
    })
}

/// The first check with, for each check kind, the distinct non-blank
/// comments of all of them.
fn merge_comments(checks: &[CaseCheck]) -> Option<CaseCheck> {
    let mut merged = checks.first()?.clone();
    for kind in CheckKind::ALL {
        let mut seen = BTreeSet::new();
        let comments: Vec<&str> = checks
            .iter()
            .map(|c| c.get(kind).comment.trim())
            .filter(|c| !is_blank(c) && seen.insert(*c))
            .collect();
        result_mut(&mut merged, kind).comment = comments.join(" / ");
    }
    Some(merged)
}

fn result_mut(check: &mut CaseCheck, kind: CheckKind) -> &mut CheckResult {
    match kind {
        CheckKind::KeyDetails => &mut check.key_details,
        CheckKind::Incompleteness => &mut check.incompleteness,
        CheckKind::Completeness => &mut check.completeness,
        CheckKind::Anonymization => &mut check.anonymization,
    }
}

/// One review item as the dashboard sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewedItem {
    /// The item.
    pub id: i64,
    /// Its kind.
    pub kind: ReviewKind,
    /// The task of a judge verdict.
    pub task: Option<Task>,
    /// The class of its case.
    pub class: Class,
    /// How many experts it is assigned to.
    pub assigned: usize,
    /// The submitted labels (stored form) with any seed correction, in a
    /// fixed order of the experts (the first two are the pair compared).
    pub submissions: Vec<(String, Option<Case>)>,
    /// The judge's label, for a judge verdict.
    pub judge_label: Option<String>,
    /// The final label, once there is one.
    pub final_label: Option<String>,
}

/// The figures of one kind (and task) of item, over all its items or those of
/// one class of case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DashboardRow {
    /// The kind of item.
    pub kind: ReviewKind,
    /// The task, for judge verdicts.
    pub task: Option<Task>,
    /// The class of case; `None` for the row over every class.
    pub class: Option<Class>,
    /// Items.
    pub n_items: usize,
    /// Units labelled by at least two experts (items for most kinds, LJP
    /// items among them; checks of case checks).
    pub n_pairs: usize,
    /// Share of those units on which the first two experts agree.
    pub human_agreement: Option<f64>,
    /// Cohen's kappa of the first two experts over those units.
    pub human_kappa: Option<f64>,
    /// Quadratic weighted kappa of the first two experts over the claims of
    /// LJP items (LJP verdicts only).
    pub qwk: Option<f64>,
    /// Units of judge verdicts with a final label.
    pub n_judged: usize,
    /// Share of those units where the judge's label is the final label.
    pub judge_agreement: Option<f64>,
    /// Cohen's kappa of the judge against the final label.
    pub judge_kappa: Option<f64>,
    /// Quadratic weighted kappa of the judge against the final label, over
    /// the claims (LJP only).
    pub judge_qwk: Option<f64>,
    /// Fleiss' kappa over units labelled by three or more experts, each taken
    /// with as many labels as the unit with fewest; `None` normally.
    pub fleiss_kappa: Option<f64>,
    /// Judged units whose final label is not the judge's.
    pub overruled: usize,
}

/// Per (kind, task) group and class, what the figures are computed from.
#[derive(Default)]
struct Tally {
    n_items: usize,
    /// Unit codes of the first two experts, and of judge and final label
    /// (claims, for LJP items).
    human: (Vec<u8>, Vec<u8>),
    judge: (Vec<u8>, Vec<u8>),
    many: Vec<Vec<u8>>,
    /// For LJP items, the same pairs with each item's verdict list as one
    /// label: the units agreement and kappa are counted on.
    human_items: (Vec<Vec<u8>>, Vec<Vec<u8>>),
    judge_items: (Vec<Vec<u8>>, Vec<Vec<u8>>),
}

impl Tally {
    fn add(&mut self, item: &ReviewedItem, space: &[&str]) {
        self.n_items += 1;
        let code = |label: &String| {
            space
                .iter()
                .position(|l| l == label)
                .and_then(|p| u8::try_from(p).ok())
        };
        let units: Vec<Vec<u8>> = item
            .submissions
            .iter()
            .filter_map(|(label, _)| unit_labels(item.kind, item.task, label))
            .map(|units| units.iter().filter_map(code).collect())
            .collect();
        if let [a, b, ..] = units.as_slice() {
            if a.len() == b.len() {
                self.human.0.extend(a);
                self.human.1.extend(b);
                self.human_items.0.push(a.clone());
                self.human_items.1.push(b.clone());
            }
        }
        if units.len() >= 3 && units.iter().all(|u| u.len() == units[0].len()) {
            for unit in 0..units[0].len() {
                self.many.push(units.iter().map(|u| u[unit]).collect());
            }
        }
        let coded = |label: &Option<String>| -> Option<Vec<u8>> {
            let units = unit_labels(item.kind, item.task, label.as_deref()?)?;
            units.iter().map(code).collect()
        };
        if let (Some(judge), Some(human)) = (coded(&item.judge_label), coded(&item.final_label)) {
            if judge.len() == human.len() {
                self.judge.0.extend(&judge);
                self.judge.1.extend(&human);
                self.judge_items.0.push(judge);
                self.judge_items.1.push(human);
            }
        }
    }

    fn row(
        &self,
        kind: ReviewKind,
        task: Option<Task>,
        class: Option<Class>,
        n: usize,
    ) -> DashboardRow {
        let ordinal = task == Some(Task::Ljp);
        let share = |(a, b): &(Vec<u8>, Vec<u8>)| {
            let same = a.iter().zip(b).filter(|(x, y)| x == y).count();
            (!a.is_empty()).then(|| same as f64 / a.len() as f64)
        };
        let qwk = |(a, b): &(Vec<u8>, Vec<u8>)| {
            kappa_over(a.len(), || {
                ordinal.then(|| quadratic_weighted_kappa(a, b, n)).flatten()
            })
        };
        let fleiss = {
            let raters = self.many.iter().map(Vec::len).min().unwrap_or(0);
            let table: Vec<Vec<u64>> = self
                .many
                .iter()
                .map(|codes| {
                    let mut counts = vec![0u64; n];
                    for &c in &codes[..raters] {
                        counts[usize::from(c)] += 1;
                    }
                    counts
                })
                .collect();
            kappa_over(table.len(), || fleiss_kappa(&table))
        };
        // Agreement and kappa over the units of agreement: claims' verdicts
        // recoded per item for LJP, the unit codes themselves otherwise.
        let (human, judge) = if ordinal {
            (per_item(&self.human_items), per_item(&self.judge_items))
        } else {
            ((self.human.clone(), n), (self.judge.clone(), n))
        };
        DashboardRow {
            kind,
            task,
            class,
            n_items: self.n_items,
            n_pairs: human.0 .0.len(),
            human_agreement: share(&human.0),
            human_kappa: kappa_over(human.0 .0.len(), || {
                cohen_kappa(&human.0 .0, &human.0 .1, human.1)
            }),
            qwk: qwk(&self.human),
            n_judged: judge.0 .0.len(),
            judge_agreement: share(&judge.0),
            judge_kappa: kappa_over(judge.0 .0.len(), || {
                cohen_kappa(&judge.0 .0, &judge.0 .1, judge.1)
            }),
            judge_qwk: qwk(&self.judge),
            fleiss_kappa: fleiss,
            overruled: judge
                .0
                 .0
                .iter()
                .zip(&judge.0 .1)
                .filter(|(j, h)| j != h)
                .count(),
        }
    }
}

/// Pairs of whole labels (lists of unit codes) recoded as one category per
/// distinct list, with the number of categories: nominal codes for Cohen's
/// kappa. More than 256 distinct lists leave the codes empty (no figure).
fn per_item((a, b): &(Vec<Vec<u8>>, Vec<Vec<u8>>)) -> ((Vec<u8>, Vec<u8>), usize) {
    let mut categories: Vec<&Vec<u8>> = a.iter().chain(b).collect();
    categories.sort();
    categories.dedup();
    let code = |label: &Vec<u8>| {
        categories
            .binary_search(&label)
            .ok()
            .and_then(|p| u8::try_from(p).ok())
    };
    let codes: Option<(Vec<u8>, Vec<u8>)> = a
        .iter()
        .zip(b)
        .map(|(x, y)| Some((code(x)?, code(y)?)))
        .collect();
    (codes.unwrap_or_default(), categories.len())
}

/// Table 12's Average row: the unweighted mean over the judge-verdict tasks
/// present (LCA, DCG, LJP; the rows over every class) of each figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskAverage {
    /// The tasks averaged over.
    pub tasks: Vec<Task>,
    /// Mean human–human agreement (of the tasks that have one).
    pub human_agreement: Option<f64>,
    /// Mean human–human Cohen's kappa.
    pub human_kappa: Option<f64>,
    /// Mean judge–human agreement.
    pub judge_agreement: Option<f64>,
    /// Mean judge–human Cohen's kappa.
    pub judge_kappa: Option<f64>,
}

/// The Average row of [`dashboard_rows`]' judge-verdict rows over every
/// class; `None` when there are none.
///
/// # Examples
///
/// ```
/// use engine::review::{task_average, DashboardRow, ReviewKind};
/// use engine::lexpilot::run::Task;
///
/// // The paper's Table 12: LCA, DCG, LJP human–human 96.0%, 92.0%, 98.0%.
/// let row = |task, agree, kappa| DashboardRow {
///     kind: ReviewKind::JudgeVerdict, task: Some(task), class: None,
///     n_items: 100, n_pairs: 100, human_agreement: Some(agree), human_kappa: Some(kappa),
///     qwk: None, n_judged: 0, judge_agreement: None, judge_kappa: None,
///     judge_qwk: None, fleiss_kappa: None, overruled: 0,
/// };
/// let rows = [row(Task::Lca, 0.96, 0.92), row(Task::Dcg, 0.92, 0.84), row(Task::Ljp, 0.98, 0.96)];
/// let average = task_average(&rows).unwrap();
/// assert_eq!(format!("{:.1}%", average.human_agreement.unwrap() * 100.0), "95.3%");
/// assert_eq!(format!("{:.2}", average.human_kappa.unwrap()), "0.91");
/// assert_eq!(average.judge_kappa, None);
/// ```
pub fn task_average(rows: &[DashboardRow]) -> Option<TaskAverage> {
    let tasks: Vec<&DashboardRow> = rows
        .iter()
        .filter(|r| r.kind == ReviewKind::JudgeVerdict && r.class.is_none() && r.task.is_some())
        .collect();
    let mean = |pick: fn(&DashboardRow) -> Option<f64>| {
        let values: Vec<f64> = tasks.iter().filter_map(|r| pick(r)).collect();
        (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
    };
    (!tasks.is_empty()).then(|| TaskAverage {
        tasks: tasks.iter().filter_map(|r| r.task).collect(),
        human_agreement: mean(|r| r.human_agreement),
        human_kappa: mean(|r| r.human_kappa),
        judge_agreement: mean(|r| r.judge_agreement),
        judge_kappa: mean(|r| r.judge_kappa),
    })
}

/// The dashboard's rows: for each kind of item present (seed dialogues, case
/// checks, then judge verdicts of LCA, DCG and LJP), a row over every class,
/// then one per class of case present, in [`Class::ALL`] order. See
/// [`DashboardRow`] for the figures; labels that are not in their stored form
/// are left out.
///
/// # Examples
///
/// ```
/// use engine::review::{dashboard_rows, ReviewKind, ReviewedItem};
/// use engine::lexpilot::run::Task;
/// use engine::vocab::Class;
///
/// let item = |id, a: &str, b: &str, judge: &str, last: Option<&str>| ReviewedItem {
///     id,
///     kind: ReviewKind::JudgeVerdict,
///     task: Some(Task::Lca),
///     class: Class::Tort,
///     assigned: 2,
///     submissions: vec![(a.into(), None), (b.into(), None)],
///     judge_label: Some(judge.into()),
///     final_label: last.map(String::from),
/// };
/// let items = [
///     item(1, "ask", "ask", "ask", Some("ask")),
///     item(2, "predict", "ask", "predict", Some("ask")),
///     item(3, "predict", "predict", "ask", Some("predict")),
/// ];
/// let rows = dashboard_rows(&items);
/// assert_eq!(rows.len(), 2); // overall, tort
/// let overall = &rows[0];
/// assert_eq!((overall.n_items, overall.n_pairs, overall.n_judged), (3, 3, 3));
/// assert_eq!(overall.human_agreement, Some(2.0 / 3.0));
/// // p_o = 2/3; first expert (ask 1, predict 2), second (ask 2, predict 1): p_e = 4/9.
/// assert!((overall.human_kappa.unwrap() - 0.4).abs() < 1e-12);
/// assert_eq!(overall.judge_agreement, Some(1.0 / 3.0));
/// assert_eq!(overall.overruled, 2);
/// assert_eq!(overall.fleiss_kappa, None);
/// ```
pub fn dashboard_rows(items: &[ReviewedItem]) -> Vec<DashboardRow> {
    let groups = [
        (ReviewKind::SeedDialogue, None),
        (ReviewKind::CaseCheck, None),
        (ReviewKind::JudgeVerdict, Some(Task::Lca)),
        (ReviewKind::JudgeVerdict, Some(Task::Dcg)),
        (ReviewKind::JudgeVerdict, Some(Task::Ljp)),
    ];
    let mut rows = Vec::new();
    for (kind, task) in groups {
        let Some(space) = unit_space(kind, task) else {
            continue;
        };
        let in_group: Vec<&ReviewedItem> = items
            .iter()
            .filter(|i| i.kind == kind && (kind != ReviewKind::JudgeVerdict || i.task == task))
            .collect();
        if in_group.is_empty() {
            continue;
        }
        let mut overall = Tally::default();
        in_group.iter().for_each(|i| overall.add(i, &space));
        rows.push(overall.row(kind, task, None, space.len()));
        for class in Class::ALL {
            let mut tally = Tally::default();
            in_group
                .iter()
                .filter(|i| i.class == class)
                .for_each(|i| tally.add(i, &space));
            if tally.n_items > 0 {
                rows.push(tally.row(kind, task, Some(class), space.len()));
            }
        }
    }
    rows
}

/// The items every expert of which has submitted (two at least) without
/// agreeing: waiting for adjudication, or adjudicated. In the order given.
///
/// # Examples
///
/// ```
/// use engine::review::{disagreements, ReviewKind, ReviewedItem};
/// use engine::vocab::Class;
///
/// let item = |id, labels: &[&str]| ReviewedItem {
///     id,
///     kind: ReviewKind::SeedDialogue,
///     task: None,
///     class: Class::Family,
///     assigned: 2,
///     submissions: labels.iter().map(|l| (l.to_string(), None)).collect(),
///     judge_label: None,
///     final_label: None,
/// };
/// let items = [item(1, &["approve", "approve"]), item(2, &["approve", "correct"]), item(3, &["correct"])];
/// assert_eq!(disagreements(&items), [2]);
/// ```
pub fn disagreements(items: &[ReviewedItem]) -> Vec<i64> {
    items
        .iter()
        .filter(|i| i.submissions.len() >= 2 && i.submissions.len() >= i.assigned)
        .filter(|i| {
            let submissions: Vec<(&str, Option<&Case>)> = i
                .submissions
                .iter()
                .map(|(label, proposal)| (label.as_str(), proposal.as_ref()))
                .collect();
            agreed(i.kind, i.task, &submissions).is_none()
        })
        .map(|i| i.id)
        .collect()
}

/// One expert's label on an exported item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportLabel {
    /// The expert's account name.
    pub expert: String,
    /// The submitted label (stored form); `None` before submission.
    pub label: Option<String>,
    /// The expert's comment.
    pub comment: Option<String>,
    /// The corrected case of a seed correction.
    pub proposal: Option<Case>,
    /// When the label was (last) submitted.
    pub submitted_at: Option<String>,
    /// The blind label ([`submission_is_blind`]) agreement is counted on;
    /// differs from `label` when the expert revised after seeing another's.
    pub blind_label: Option<String>,
    /// The active seconds the expert spent on the item (every submission).
    #[serde(default)]
    pub seconds: Option<u32>,
    /// The expert's comment when they flagged the item as unclear.
    #[serde(default)]
    pub unclear: Option<String>,
}

/// One change of a label, kept for good.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportChange {
    /// Who made it.
    pub author: String,
    /// `submit` (an expert) or `adjudicate` (an adjudicator).
    pub action: String,
    /// The label given.
    pub label: String,
    /// The comment or the adjudication's reason.
    pub comment: String,
    /// When.
    pub at: String,
    /// The active seconds of this submission, when the page recorded them.
    #[serde(default)]
    pub seconds: Option<u32>,
}

/// One review item with every label, its final label and its history: a line
/// of the JSON Lines export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportItem {
    /// The item.
    pub item_id: i64,
    /// The dataset, as `name@version`.
    pub dataset: String,
    /// Its kind.
    pub kind: ReviewKind,
    /// The task of a judge verdict.
    pub task: Option<Task>,
    /// The consultation (LCA) or setup (LJP) of a judge verdict.
    pub target: Option<String>,
    /// The case.
    pub case_id: String,
    /// The model whose reply the judge labelled.
    pub model: Option<String>,
    /// Its run number.
    pub run: Option<i64>,
    /// The judge's label.
    pub judge_label: Option<String>,
    /// One entry per assigned expert.
    pub labels: Vec<ExportLabel>,
    /// The final label.
    pub final_label: Option<String>,
    /// The final corrected case of a seed dialogue.
    pub final_proposal: Option<Case>,
    /// `agreed` or `adjudicated`.
    pub final_source: Option<String>,
    /// The adjudicator's reason.
    pub final_reason: Option<String>,
    /// The adjudicator.
    pub final_by: Option<String>,
    /// When the label became final.
    pub final_at: Option<String>,
    /// Every submission and adjudication, oldest first.
    pub history: Vec<ExportChange>,
}

/// The columns of [`export_csv`].
pub const EXPORT_COLUMNS: [&str; 22] = [
    "item_id",
    "dataset",
    "kind",
    "task",
    "target",
    "case_id",
    "model",
    "run",
    "judge_label",
    "expert",
    "label",
    "comment",
    "proposal",
    "submitted_at",
    "final_label",
    "final_source",
    "final_reason",
    "final_by",
    "final_at",
    "blind_label",
    "seconds",
    "unclear",
];

/// The items as CSV with [`EXPORT_COLUMNS`]: one row per expert label (an
/// item nobody is assigned to has one row with an empty expert); a
/// corrected case is its JSON; absent values are empty; text a spreadsheet
/// would read as a formula is neutralised ([`crate::spreadsheet`]).
///
/// # Examples
///
/// ```
/// use engine::review::{export_csv, ExportItem, ExportLabel, ReviewKind};
/// use engine::lexpilot::run::Task;
///
/// let item = ExportItem {
///     item_id: 7, dataset: "demo@1".into(), kind: ReviewKind::JudgeVerdict,
///     task: Some(Task::Lca), target: Some("complete".into()), case_id: "LP-0001".into(),
///     model: Some("M".into()), run: Some(1), judge_label: Some("ask".into()),
///     labels: vec![ExportLabel { expert: "甲".into(), label: Some("predict".into()),
///         comment: Some("答复给出了结论, 未追问".into()), proposal: None,
///         submitted_at: Some("2026-01-01T00:00:00Z".into()), blind_label: Some("predict".into()),
///         seconds: Some(95), unclear: None }],
///     final_label: None, final_proposal: None, final_source: None, final_reason: None,
///     final_by: None, final_at: None, history: vec![],
/// };
/// let csv = export_csv(&[item]);
/// let lines: Vec<&str> = csv.lines().collect();
/// assert!(lines[0].starts_with("item_id,dataset,kind,task"));
/// assert_eq!(lines[1], "7,demo@1,judge_verdict,lca,complete,LP-0001,M,1,ask,甲,predict,\"答复给出了结论, 未追问\",,2026-01-01T00:00:00Z,,,,,,predict,95,");
/// ```
pub fn export_csv(items: &[ExportItem]) -> String {
    let mut records: Vec<Vec<String>> =
        vec![EXPORT_COLUMNS.iter().map(|c| (*c).to_owned()).collect()];
    let none = ExportLabel {
        expert: String::new(),
        label: None,
        comment: None,
        proposal: None,
        submitted_at: None,
        blind_label: None,
        seconds: None,
        unclear: None,
    };
    for item in items {
        let labels: Vec<&ExportLabel> = if item.labels.is_empty() {
            vec![&none]
        } else {
            item.labels.iter().collect()
        };
        for label in labels {
            let text = |v: &Option<String>| v.clone().unwrap_or_default();
            let record = [
                item.item_id.to_string(),
                item.dataset.clone(),
                item.kind.as_str().to_owned(),
                item.task.map(|t| t.as_str().to_owned()).unwrap_or_default(),
                text(&item.target),
                item.case_id.clone(),
                text(&item.model),
                item.run.map(|r| r.to_string()).unwrap_or_default(),
                text(&item.judge_label),
                label.expert.clone(),
                text(&label.label),
                text(&label.comment),
                label
                    .proposal
                    .as_ref()
                    .and_then(|p| serde_json::to_string(p).ok())
                    .unwrap_or_default(),
                text(&label.submitted_at),
                text(&item.final_label),
                text(&item.final_source),
                text(&item.final_reason),
                text(&item.final_by),
                text(&item.final_at),
                text(&label.blind_label),
                label.seconds.map(|s| s.to_string()).unwrap_or_default(),
                text(&label.unclear),
            ];
            records.push(record.into());
        }
    }
    crate::spreadsheet::to_csv(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: i64, kind: ReviewKind, task: Option<Task>, labels: &[&str]) -> ReviewedItem {
        ReviewedItem {
            id,
            kind,
            task,
            class: Class::Family,
            assigned: labels.len().max(2),
            submissions: labels.iter().map(|l| ((*l).to_owned(), None)).collect(),
            judge_label: None,
            final_label: None,
        }
    }

    #[test]
    fn ljp_items_are_the_units_of_agreement_and_claims_of_qwk() {
        let mut a = item(
            1,
            ReviewKind::JudgeVerdict,
            Some(Task::Ljp),
            &[
                r#"["supported","dismissed"]"#,
                r#"["supported","partially_supported"]"#,
            ],
        );
        a.judge_label = Some(r#"["supported","supported"]"#.into());
        a.final_label = Some(r#"["supported","dismissed"]"#.into());
        let mut b = item(
            2,
            ReviewKind::JudgeVerdict,
            Some(Task::Ljp),
            &[r#"["dismissed"]"#, r#"["dismissed"]"#],
        );
        b.judge_label = Some(r#"["dismissed"]"#.into());
        b.final_label = Some(r#"["dismissed"]"#.into());
        let rows = dashboard_rows(&[a, b]);
        let row = &rows[0];
        // Two items: the first splits on one of its two claims, the second agrees.
        assert_eq!((row.n_pairs, row.n_judged, row.overruled), (2, 2, 1));
        assert_eq!(row.human_agreement, Some(0.5));
        // Three distinct verdict lists, sorted [0,1], [0,2], [2]: the first
        // expert's items are codes (1, 2), the second's (0, 2).
        assert_eq!(row.human_kappa, cohen_kappa(&[1, 2], &[0, 2], 3));
        // The claims: codes (0, 2, 2) against (0, 1, 2).
        assert_eq!(row.qwk, quadratic_weighted_kappa(&[0, 2, 2], &[0, 1, 2], 3));
        assert_eq!(
            row.judge_qwk,
            quadratic_weighted_kappa(&[0, 0, 2], &[0, 2, 2], 3)
        );
        assert_eq!(row.judge_agreement, Some(0.5));
    }

    #[test]
    fn one_item_per_class_gives_no_kappa() {
        let mut one = item(
            1,
            ReviewKind::JudgeVerdict,
            Some(Task::Ljp),
            &[r#"["supported"]"#, r#"["dismissed"]"#, r#"["dismissed"]"#],
        );
        one.judge_label = Some(r#"["supported"]"#.into());
        one.final_label = Some(r#"["dismissed"]"#.into());
        for row in dashboard_rows(&[one]) {
            assert_eq!((row.n_pairs, row.n_judged), (1, 1));
            assert_eq!(row.human_agreement, Some(0.0), "raw agreement is a share");
            let kappas = [
                row.human_kappa,
                row.qwk,
                row.judge_kappa,
                row.judge_qwk,
                row.fleiss_kappa,
            ];
            assert_eq!(kappas, [None; 5], "{row:?}");
        }
    }

    #[test]
    fn case_checks_count_four_units_and_fleiss_needs_three_experts() {
        let pass = serde_json::to_string(&CaseCheck::all_pass()).unwrap();
        let mut failed = CaseCheck::all_pass();
        failed.completeness = CheckResult::fail("缺少借条");
        let failed = serde_json::to_string(&failed).unwrap();
        let items = [
            item(1, ReviewKind::CaseCheck, None, &[&pass, &pass, &failed]),
            item(2, ReviewKind::CaseCheck, None, &[&failed, &failed, &failed]),
        ];
        let row = &dashboard_rows(&items)[0];
        assert_eq!(row.n_pairs, 8);
        assert_eq!(row.human_agreement, Some(1.0));
        // Eight units, three raters: one unit split 2–1, seven unanimous.
        let mut table = vec![vec![3u64, 0]; 8];
        table[2] = vec![2, 1];
        table[6] = vec![0, 3];
        assert_eq!(row.fleiss_kappa, fleiss_kappa(&table));
        assert_eq!(disagreements(&items), [1]);
    }

    #[test]
    fn seed_corrections_agree_only_on_the_same_case() {
        let case: Case = serde_json::from_str(
            r#"{"case_id": "LP-1", "cause": "借款合同纠纷", "class": "finance_contract",
                "plaintiff_type": "natural",
                "claims": [{"id": "c1", "text": "还款", "verdict": "supported"}],
                "focal_points": [], "key_facts": [], "missing_facts": [],
                "consultations": {"complete": [], "underspecified": []}}"#,
        )
        .unwrap();
        let mut other = case.clone();
        other.claims[0].text = "归还借款".into();
        let same = agreed(
            ReviewKind::SeedDialogue,
            None,
            &[("correct", Some(&case)), ("correct", Some(&case))],
        )
        .unwrap();
        assert_eq!(same.proposal.as_ref(), Some(&case));
        assert!(agreed(
            ReviewKind::SeedDialogue,
            None,
            &[("correct", Some(&case)), ("correct", Some(&other))]
        )
        .is_none());
    }

    #[test]
    fn rows_split_by_class_and_skip_empty_groups() {
        let mut tort = item(2, ReviewKind::JudgeVerdict, Some(Task::Dcg), &["accepted"]);
        tort.class = Class::Tort;
        let items = [
            item(1, ReviewKind::JudgeVerdict, Some(Task::Dcg), &["rejected"]),
            tort,
        ];
        let rows = dashboard_rows(&items);
        let classes: Vec<Option<Class>> = rows.iter().map(|r| r.class).collect();
        assert_eq!(classes, [None, Some(Class::Family), Some(Class::Tort)]);
        assert!(rows
            .iter()
            .all(|r| r.n_pairs == 0 && r.human_kappa.is_none()));
    }
}
