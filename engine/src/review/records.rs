//! Review items and their assignments as the rules read them, where an item
//! stands, and what its experts' submissions decide.
//!
//! - **Records.** Storage maps its rows into an [`ItemRecord`] holding its
//!   [`AssignmentRecord`]s (one per expert, in account id order); every rule
//!   of the workflow is a method or function over them. Labels are in their
//!   stored form ([`super::canonical_label`]), corrected cases parsed.
//! - **Status.** [`ItemRecord::status`]: `final` with a final label,
//!   `adjudication` once at least [`EXPERTS_PER_ITEM`] experts are assigned
//!   and all submitted (without agreeing, or it would be final), `submitted`
//!   when some did, else `todo`.
//! - **Blind labels.** [`ItemRecord::submits_blind`] tells whether an expert's
//!   next submission is blind ([`super::submission_is_blind`]);
//!   [`ItemRecord::blind_agreement`] decides on the blind labels whether the
//!   item becomes final (`agreed`) once every expert has submitted.
//! - **Assignment.** [`auto_assignments`] gives every open item the experts
//!   it lacks, balancing the load.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::{
    agreed, checked_label, submission_is_blind, Agreed, CheckedLabel, InputError, LabelError,
    ReviewKind, Sheet,
};
use crate::lexpilot::dataset::Case;
use crate::lexpilot::run::Task;
use crate::vocab::vocabulary;

/// How many experts auto-assignment gives each item, and how many must be
/// assigned before an item can wait for an adjudicator or be agreed.
pub const EXPERTS_PER_ITEM: usize = 2;

vocabulary! {
    /// How an item got its final label.
    FinalSource, kind "final source" {
        /// Every expert gave the same blind label.
        Agreed = "agreed", zh "一致", en "Agreed";
        /// An adjudicator decided (and may revise the decision).
        Adjudicated = "adjudicated", zh "裁决", en "Adjudicated";
    }
}

/// Where an item stands, for one viewer ([`ItemRecord::status`] overall,
/// [`ItemRecord::status_for`] for one expert). Its serde form is
/// [`ItemStatus::as_str`].
///
/// # Examples
///
/// ```
/// use engine::review::ItemStatus;
///
/// assert_eq!(ItemStatus::Adjudication.as_str(), "adjudication");
/// assert_eq!(serde_json::to_string(&ItemStatus::Final).unwrap(), r#""final""#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// Every status, in the order an item passes through them.
    pub const ALL: [ItemStatus; 4] = [
        ItemStatus::Todo,
        ItemStatus::Submitted,
        ItemStatus::Adjudication,
        ItemStatus::Final,
    ];

    /// The status of its wire form ([`ItemStatus::as_str`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::ItemStatus;
    ///
    /// assert_eq!(ItemStatus::parse("adjudication"), Some(ItemStatus::Adjudication));
    /// assert_eq!(ItemStatus::parse("Final"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|x| x.as_str() == s)
    }

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

/// An expert's submitted label.
#[derive(Debug, Clone, PartialEq)]
pub struct Submission {
    /// The expert's account name.
    pub expert: String,
    /// The current label, in its stored form.
    pub label: String,
    /// The expert's comment (empty when none).
    pub comment: String,
    /// The corrected case of a seed correction.
    pub proposal: Option<Case>,
    /// When the label was (last) submitted.
    pub submitted_at: String,
    /// The label agreement counts ([`super::submission_is_blind`]): the same
    /// as `label` unless the expert revised after the reveal.
    pub blind_label: String,
    /// The corrected case of the blind label.
    pub blind_proposal: Option<Case>,
}

impl Submission {
    /// Whether the expert changed their label (or correction) after seeing
    /// another expert's.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::Submission;
    ///
    /// let mut submission = Submission {
    ///     expert: "甲".into(),
    ///     label: "ask".into(),
    ///     comment: String::new(),
    ///     proposal: None,
    ///     submitted_at: "2026-01-01T00:00:00Z".into(),
    ///     blind_label: "ask".into(),
    ///     blind_proposal: None,
    /// };
    /// assert!(!submission.revised_after_reveal());
    /// submission.label = "predict".into();
    /// assert!(submission.revised_after_reveal());
    /// ```
    pub fn revised_after_reveal(&self) -> bool {
        self.label != self.blind_label || self.proposal != self.blind_proposal
    }
}

/// One expert's assignment to an item, as stored.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AssignmentRecord {
    /// The expert's account id.
    pub expert_id: i64,
    /// The expert's account name.
    pub expert: String,
    /// The current label (stored form), once submitted.
    pub label: Option<String>,
    /// The comment of the current label.
    pub comment: Option<String>,
    /// The corrected case of the current label (a seed correction).
    pub proposal: Option<Case>,
    /// The autosaved draft, until the expert submits.
    pub draft: Option<String>,
    /// When the label was (last) submitted; `None` before the first submission.
    pub submitted_at: Option<String>,
    /// The last label given blind; `None` before the first submission.
    pub blind_label: Option<String>,
    /// The corrected case of the blind label.
    pub blind_proposal: Option<Case>,
    /// The active seconds the expert spent on the item, summed over their
    /// submissions; `None` when no submission recorded a time.
    pub seconds: Option<u32>,
    /// The expert's comment when they flagged the item as unclear.
    pub unclear: Option<String>,
}

impl AssignmentRecord {
    /// Whether the expert has submitted a label.
    pub fn submitted(&self) -> bool {
        self.submitted_at.is_some()
    }

    /// The expert's submission, once there is one. A submission stored
    /// without a blind label counts its label as blind.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::AssignmentRecord;
    ///
    /// let mut assignment = AssignmentRecord { expert_id: 3, expert: "甲".into(), ..Default::default() };
    /// assert_eq!(assignment.submission(), None);
    /// assignment.label = Some("ask".into());
    /// assignment.submitted_at = Some("2026-01-01T00:00:00Z".into());
    /// assert_eq!(assignment.submission().unwrap().blind_label, "ask");
    /// ```
    pub fn submission(&self) -> Option<Submission> {
        let (Some(label), Some(submitted_at)) = (&self.label, &self.submitted_at) else {
            return None;
        };
        let (blind_label, blind_proposal) = match &self.blind_label {
            Some(blind) => (blind.clone(), self.blind_proposal.clone()),
            None => (label.clone(), self.proposal.clone()),
        };
        Some(Submission {
            expert: self.expert.clone(),
            label: label.clone(),
            comment: self.comment.clone().unwrap_or_default(),
            proposal: self.proposal.clone(),
            submitted_at: submitted_at.clone(),
            blind_label,
            blind_proposal,
        })
    }
}

/// A review item with its assignments, as the rules read it.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemRecord {
    /// The item.
    pub id: i64,
    /// The dataset version it was made on: its case is shown as it stood there.
    pub dataset_id: i64,
    /// What the experts review.
    pub kind: ReviewKind,
    /// The case.
    pub case_id: String,
    /// The task of a judge verdict.
    pub task: Option<Task>,
    /// The consultation (LCA) or setup (LJP) of a judge verdict.
    pub target: Option<String>,
    /// The judge's label (stored form), for a judge verdict.
    pub judge_label: Option<String>,
    /// The final label, once there is one.
    pub final_label: Option<String>,
    /// The final corrected case of a seed dialogue.
    pub final_proposal: Option<Case>,
    /// How the final label was reached.
    pub final_source: Option<FinalSource>,
    /// The adjudicator's reason.
    pub final_reason: Option<String>,
    /// What a rubric verdict is scored on (`None` for other kinds).
    pub sheet: Option<Sheet>,
    /// Its experts, in account id order: the first two are the pair whose
    /// agreement the dashboard counts.
    pub assignments: Vec<AssignmentRecord>,
    /// When the item was made (RFC 3339; empty when unknown).
    pub created_at: String,
}

impl ItemRecord {
    /// A new item of dataset version 0: no task, target, judge label, final
    /// label or expert yet. Set the other fields as needed.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::{ItemRecord, ItemStatus, ReviewKind};
    ///
    /// let item = ItemRecord::new(7, ReviewKind::CaseCheck, "LP-0001");
    /// assert_eq!(item.status(), ItemStatus::Todo);
    /// assert!(item.assignments.is_empty());
    /// ```
    pub fn new(id: i64, kind: ReviewKind, case_id: impl Into<String>) -> Self {
        ItemRecord {
            id,
            dataset_id: 0,
            kind,
            case_id: case_id.into(),
            task: None,
            target: None,
            judge_label: None,
            final_label: None,
            final_proposal: None,
            final_source: None,
            final_reason: None,
            sheet: None,
            assignments: Vec::new(),
            created_at: String::new(),
        }
    }

    /// `label` (and a seed correction's `proposal`) checked for this item and
    /// in its stored form: against the item's [`Sheet`] for a rubric
    /// verdict ([`Sheet::canonical`]), else as [`super::checked_label`] does
    /// with the item's `case`.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::benchmark::Benchmark;
    /// use engine::review::{InputError, ItemRecord, ReviewKind, Sheet, SheetUnit};
    ///
    /// let mut item = ItemRecord::new(3, ReviewKind::RubricVerdict, "legal_consultation-1");
    /// assert!(item.check_label(None, "3", None).is_err(), "no sheet, no label");
    /// item.sheet = Some(Sheet { benchmark: Benchmark::Plawbench, task: "legal_consultation".into(), units: vec![SheetUnit::new("total", "总分", 5.0)], groups: vec![] });
    /// assert_eq!(item.check_label(None, "3", None).unwrap().label, r#"{"total":3}"#);
    /// assert_eq!(item.check_label(None, "3", Some("{}")), Err(InputError::UnexpectedProposal));
    /// ```
    pub fn check_label(
        &self,
        case: Option<&Case>,
        label: &str,
        proposal: Option<&str>,
    ) -> Result<CheckedLabel, InputError> {
        if self.kind != ReviewKind::RubricVerdict {
            return checked_label(self.kind, self.task, case, label, proposal);
        }
        if proposal.is_some_and(|p| !p.trim().is_empty()) {
            return Err(InputError::UnexpectedProposal);
        }
        let sheet = self.sheet.as_ref().ok_or(LabelError::NoSheet)?;
        Ok(CheckedLabel {
            label: sheet.canonical(label).map_err(LabelError::from)?,
            proposal: None,
        })
    }

    /// The assignment of expert `expert_id`, if the item is assigned to them.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::{AssignmentRecord, ItemRecord, ReviewKind};
    ///
    /// let mut item = ItemRecord::new(1, ReviewKind::CaseCheck, "LP-0001");
    /// item.assignments = vec![AssignmentRecord { expert_id: 4, ..Default::default() }];
    /// assert!(item.assignment(4).is_some());
    /// assert!(item.assignment(5).is_none());
    /// ```
    pub fn assignment(&self, expert_id: i64) -> Option<&AssignmentRecord> {
        self.assignments.iter().find(|a| a.expert_id == expert_id)
    }

    /// Where the item stands: `final` with a final label, `adjudication`
    /// when at least [`EXPERTS_PER_ITEM`] experts are assigned and all
    /// submitted (without agreeing, or it would be final), `submitted` when
    /// some did, else `todo`.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::{AssignmentRecord, ItemRecord, ItemStatus, ReviewKind};
    ///
    /// let submitted = |expert_id| AssignmentRecord {
    ///     expert_id,
    ///     label: Some("approve".into()),
    ///     submitted_at: Some("2026-01-01T00:00:00Z".into()),
    ///     ..Default::default()
    /// };
    /// let mut item = ItemRecord::new(1, ReviewKind::SeedDialogue, "LP-0001");
    /// item.assignments = vec![submitted(1)];
    /// // One expert alone never makes an item wait for adjudication.
    /// assert_eq!(item.status(), ItemStatus::Submitted);
    /// item.assignments.push(submitted(2));
    /// assert_eq!(item.status(), ItemStatus::Adjudication);
    /// item.final_label = Some("approve".into());
    /// assert_eq!(item.status(), ItemStatus::Final);
    /// ```
    pub fn status(&self) -> ItemStatus {
        let submitted = self.assignments.iter().filter(|a| a.submitted()).count();
        if self.final_label.is_some() {
            ItemStatus::Final
        } else if self.assignments.len() >= EXPERTS_PER_ITEM && submitted == self.assignments.len()
        {
            ItemStatus::Adjudication
        } else if submitted > 0 {
            ItemStatus::Submitted
        } else {
            ItemStatus::Todo
        }
    }

    /// The experts' submissions, in assignment order.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::{AssignmentRecord, ItemRecord, ReviewKind};
    ///
    /// let mut item = ItemRecord::new(1, ReviewKind::SeedDialogue, "LP-0001");
    /// item.assignments = vec![
    ///     AssignmentRecord { expert_id: 1, ..Default::default() },
    ///     AssignmentRecord {
    ///         expert_id: 2,
    ///         expert: "乙".into(),
    ///         label: Some("approve".into()),
    ///         submitted_at: Some("2026-01-01T00:00:00Z".into()),
    ///         ..Default::default()
    ///     },
    /// ];
    /// let submissions = item.submissions();
    /// assert_eq!(submissions.len(), 1);
    /// assert_eq!(submissions[0].expert, "乙");
    /// ```
    pub fn submissions(&self) -> Vec<Submission> {
        self.assignments
            .iter()
            .filter_map(AssignmentRecord::submission)
            .collect()
    }

    /// Whether expert `expert_id`'s next submission is blind
    /// ([`super::submission_is_blind`]): their first one is, and a revision
    /// is while no other expert of the item has submitted.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::{AssignmentRecord, ItemRecord, ReviewKind};
    ///
    /// let mut item = ItemRecord::new(1, ReviewKind::CaseCheck, "LP-0001");
    /// item.assignments = vec![
    ///     AssignmentRecord { expert_id: 1, submitted_at: Some("2026-01-01T00:00:00Z".into()), ..Default::default() },
    ///     AssignmentRecord { expert_id: 2, ..Default::default() },
    /// ];
    /// assert!(item.submits_blind(2)); // their first submission
    /// assert!(item.submits_blind(1)); // a revision, but 2 has not submitted
    /// item.assignments[1].submitted_at = Some("2026-01-02T00:00:00Z".into());
    /// assert!(!item.submits_blind(1)); // a revision after the reveal
    /// ```
    pub fn submits_blind(&self, expert_id: i64) -> bool {
        let first_submission = self
            .assignments
            .iter()
            .any(|a| a.expert_id == expert_id && !a.submitted());
        let others_submitted = self
            .assignments
            .iter()
            .any(|a| a.expert_id != expert_id && a.submitted());
        submission_is_blind(first_submission, others_submitted)
    }

    /// The final label the experts agree on, decided on their *blind* labels
    /// ([`agreed`]): `None` until at least [`EXPERTS_PER_ITEM`] experts are
    /// assigned and every one has a blind label, or when they differ. A
    /// revision made after seeing another expert's label therefore never
    /// makes an item agreed.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::{AssignmentRecord, ItemRecord, ReviewKind};
    /// use engine::lexpilot::run::Task;
    ///
    /// let expert = |expert_id, blind: &str, label: &str| AssignmentRecord {
    ///     expert_id,
    ///     label: Some(label.into()),
    ///     blind_label: Some(blind.into()),
    ///     submitted_at: Some("2026-01-01T00:00:00Z".into()),
    ///     ..Default::default()
    /// };
    /// let mut item = ItemRecord::new(1, ReviewKind::JudgeVerdict, "LP-0001");
    /// item.task = Some(Task::Lca);
    /// item.assignments = vec![expert(1, "ask", "ask"), expert(2, "ask", "ask")];
    /// assert_eq!(item.blind_agreement().unwrap().label, "ask");
    /// // Expert 2 gave `predict` blind, then matched expert 1 after the reveal.
    /// item.assignments[1] = expert(2, "predict", "ask");
    /// assert_eq!(item.blind_agreement(), None);
    /// ```
    pub fn blind_agreement(&self) -> Option<Agreed> {
        let blind: Vec<(&str, Option<&Case>)> = self
            .assignments
            .iter()
            .filter_map(|a| Some((a.blind_label.as_deref()?, a.blind_proposal.as_ref())))
            .collect();
        if self.assignments.len() < EXPERTS_PER_ITEM || blind.len() != self.assignments.len() {
            return None;
        }
        agreed(self.kind, self.task, &blind)
    }

    /// The reason recorded with a seed correction the experts agreed on: the
    /// item, the experts' names and their comments.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::{AssignmentRecord, ItemRecord, ReviewKind};
    ///
    /// let mut item = ItemRecord::new(4, ReviewKind::SeedDialogue, "LP-0001");
    /// item.assignments = vec![
    ///     AssignmentRecord { expert_id: 1, expert: "甲".into(), comment: Some(" 补充签订时间 ".into()), ..Default::default() },
    ///     AssignmentRecord { expert_id: 2, expert: "乙".into(), comment: Some(String::new()), ..Default::default() },
    /// ];
    /// assert_eq!(item.agreed_correction_reason(), "seed review #4, agreed by 甲, 乙: 补充签订时间");
    /// ```
    pub fn agreed_correction_reason(&self) -> String {
        let names: Vec<&str> = self.assignments.iter().map(|a| a.expert.as_str()).collect();
        let mut why = format!("seed review #{}, agreed by {}", self.id, names.join(", "));
        let comments: Vec<&str> = self
            .assignments
            .iter()
            .filter_map(|a| a.comment.as_deref().map(str::trim))
            .filter(|c| !c.is_empty())
            .collect();
        if !comments.is_empty() {
            why.push_str(": ");
            why.push_str(&comments.join(" / "));
        }
        why
    }
}

/// The (item, expert) assignments that give every open item (no final label)
/// fewer than [`EXPERTS_PER_ITEM`] experts the experts it lacks, taken from
/// `experts` (account ids): each time the one with the fewest assignments on
/// these items so far (ties to the smaller id, the older account), never
/// twice the same on one item. Refused with fewer than [`EXPERTS_PER_ITEM`]
/// experts.
///
/// # Examples
///
/// ```
/// use engine::review::{auto_assignments, AssignmentRecord, ItemRecord, ReviewKind};
///
/// let mut items: Vec<ItemRecord> =
///     (1..=3).map(|id| ItemRecord::new(id, ReviewKind::CaseCheck, "LP-0001")).collect();
/// items[0].assignments = vec![AssignmentRecord { expert_id: 10, ..Default::default() }];
/// let made = auto_assignments(&items, &[10, 11, 12]).unwrap();
/// assert_eq!(made, [(1, 11), (2, 12), (2, 10), (3, 11), (3, 12)]);
/// assert!(auto_assignments(&items, &[10]).is_err());
/// ```
pub fn auto_assignments(
    items: &[ItemRecord],
    experts: &[i64],
) -> Result<Vec<(i64, i64)>, InputError> {
    let mut load: BTreeMap<i64, usize> = experts.iter().map(|&id| (id, 0)).collect();
    if load.len() < EXPERTS_PER_ITEM {
        return Err(InputError::TooFewExperts { given: load.len() });
    }
    for a in items.iter().flat_map(|i| &i.assignments) {
        if let Some(n) = load.get_mut(&a.expert_id) {
            *n += 1;
        }
    }
    let mut pairs = Vec::new();
    for item in items.iter().filter(|i| i.final_label.is_none()) {
        let mut have: BTreeSet<i64> = item.assignments.iter().map(|a| a.expert_id).collect();
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
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expert(expert_id: i64, label: Option<&str>) -> AssignmentRecord {
        AssignmentRecord {
            expert_id,
            expert: format!("expert-{expert_id}"),
            label: label.map(String::from),
            blind_label: label.map(String::from),
            submitted_at: label.map(|_| "2026-01-01T00:00:00Z".to_owned()),
            ..Default::default()
        }
    }

    fn item(assignments: Vec<AssignmentRecord>) -> ItemRecord {
        let mut item = ItemRecord::new(1, ReviewKind::JudgeVerdict, "LP-0001");
        item.task = Some(Task::Lca);
        item.assignments = assignments;
        item
    }

    #[test]
    fn the_serde_form_of_a_status_is_its_wire_string() {
        for status in [
            ItemStatus::Todo,
            ItemStatus::Submitted,
            ItemStatus::Adjudication,
            ItemStatus::Final,
        ] {
            let json = serde_json::to_string(&status).expect("json");
            assert_eq!(json, format!("\"{}\"", status.as_str()));
            assert_eq!(
                serde_json::from_str::<ItemStatus>(&json).expect("parse"),
                status
            );
        }
        // The other vocabularies of an item travel the same way.
        for kind in ReviewKind::ALL {
            let json = serde_json::to_string(&kind).expect("json");
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
        }
        for source in FinalSource::ALL {
            let json = serde_json::to_string(&source).expect("json");
            assert_eq!(json, format!("\"{}\"", source.as_str()));
        }
    }

    #[test]
    fn an_item_waits_for_every_expert_before_adjudication() {
        assert_eq!(item(vec![]).status(), ItemStatus::Todo);
        assert_eq!(
            item(vec![expert(1, None), expert(2, None)]).status(),
            ItemStatus::Todo
        );
        assert_eq!(
            item(vec![expert(1, Some("ask")), expert(2, None)]).status(),
            ItemStatus::Submitted
        );
        let three = item(vec![
            expert(1, Some("ask")),
            expert(2, Some("predict")),
            expert(3, None),
        ]);
        assert_eq!(three.status(), ItemStatus::Submitted);
        assert_eq!(
            item(vec![expert(1, Some("ask")), expert(2, Some("predict"))]).status(),
            ItemStatus::Adjudication
        );
    }

    #[test]
    fn agreement_needs_every_blind_label_and_two_experts() {
        assert_eq!(item(vec![expert(1, Some("ask"))]).blind_agreement(), None);
        let mut pending = item(vec![expert(1, Some("ask")), expert(2, Some("ask"))]);
        pending.assignments[1].blind_label = None;
        assert_eq!(pending.blind_agreement(), None);
        let three = item(vec![
            expert(1, Some("ask")),
            expert(2, Some("ask")),
            expert(3, Some("ask")),
        ]);
        assert_eq!(
            three.blind_agreement().map(|a| a.label).as_deref(),
            Some("ask")
        );
    }

    #[test]
    fn a_submission_without_a_blind_label_counts_its_label() {
        let mut old = expert(1, Some("ask"));
        old.blind_label = None;
        let submission = old.submission().expect("submitted");
        assert_eq!(submission.blind_label, "ask");
        assert!(!submission.revised_after_reveal());
        let mut revised = expert(2, Some("ask"));
        revised.label = Some("predict".into());
        assert!(revised
            .submission()
            .is_some_and(|s| s.revised_after_reveal()));
    }

    #[test]
    fn the_first_submission_is_blind_even_after_the_others() {
        let one = item(vec![expert(1, Some("ask")), expert(2, None)]);
        assert!(one.submits_blind(2));
        assert!(one.submits_blind(1));
        let both = item(vec![expert(1, Some("ask")), expert(2, Some("ask"))]);
        assert!(!both.submits_blind(1) && !both.submits_blind(2));
    }

    #[test]
    fn auto_assignment_skips_final_items_and_counts_every_load() {
        let mut done = item(vec![expert(1, Some("ask")), expert(2, Some("ask"))]);
        done.final_label = Some("ask".into());
        let mut open = item(vec![]);
        open.id = 2;
        // Experts 1 and 2 carry one assignment each: 3 comes first.
        let pairs = auto_assignments(&[done, open], &[1, 2, 3]).expect("pairs");
        assert_eq!(pairs, [(2, 3), (2, 1)]);
        assert!(matches!(
            auto_assignments(&[], &[4, 4]),
            Err(InputError::TooFewExperts { given: 1 })
        ));
    }
}
