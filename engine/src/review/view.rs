//! Blindness: what one viewer may see of review items.
//!
//! Before an expert has submitted their own label for an item, nothing shown
//! to them carries the judge's label or another expert's label or comment:
//! [`ItemRecord::visibility`] reveals them only once the viewer has
//! submitted, [`queue`] gives statuses only ([`ItemRecord::status_for`]), and
//! the dashboard counts for an expert only the items they have submitted
//! ([`ItemRecord::counts_for`]). An adjudicator sees every label
//! ([`ItemRecord::sees_all`]), except on an item assigned to them that they
//! have not submitted yet: there they are blind like any expert.
//!
//! [`ItemGuide`] is what the viewer works with besides the case (pre-flags,
//! the label space, the claims of an LJP verdict), and [`neighbours`] the
//! items before and after one in the order they are browsed.

use super::{
    flag_spans, unit_space, AssignmentRecord, FinalSource, Flag, ItemRecord, ItemStatus,
    ReviewKind, Submission,
};
use crate::accounts::{Permission, Standing};
use crate::lexpilot::dataset::Case;
use crate::lexpilot::run::Task;

/// Who looks at review items: an account's id and what it may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Viewer {
    /// The account id (an expert's, in [`AssignmentRecord::expert_id`]).
    pub id: i64,
    /// What the account may do.
    pub standing: Standing,
}

impl Viewer {
    /// Whether the account may adjudicate (an admin, or a designated expert).
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::accounts::{Role, Standing};
    /// use engine::review::Viewer;
    ///
    /// let expert = Viewer { id: 2, standing: Standing { role: Role::Expert, adjudicator: false } };
    /// assert!(!expert.may_adjudicate());
    /// let admin = Viewer { id: 1, standing: Standing { role: Role::Admin, adjudicator: false } };
    /// assert!(admin.may_adjudicate());
    /// ```
    pub fn may_adjudicate(&self) -> bool {
        self.standing.allows(Permission::Adjudicate)
    }
}

/// What is shown once the viewer has submitted (and always to adjudicators).
#[derive(Debug, Clone, PartialEq)]
pub struct Revealed {
    /// The other experts' submitted labels.
    pub others: Vec<Submission>,
    /// The judge's label, for a judge verdict.
    pub judge_label: Option<String>,
    /// The final label, once there is one.
    pub final_label: Option<String>,
    /// The final corrected case of a seed dialogue.
    pub final_proposal: Option<Case>,
    /// The adjudicator's reason.
    pub final_reason: Option<String>,
    /// How the final label was reached, once there is one.
    pub final_source: Option<FinalSource>,
}

/// What one viewer may see of an item's labels.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemVisibility {
    /// The item is assigned to the viewer (else the viewer is an adjudicator).
    pub assigned: bool,
    /// The viewer's own label, once submitted.
    pub mine: Option<Submission>,
    /// The viewer's autosaved draft.
    pub draft: Option<String>,
    /// The status the viewer sees: `todo` for an expert until they submit.
    pub status: ItemStatus,
    /// `None` until the viewer has submitted; adjudicators always get it
    /// (but on their own items only once they have submitted).
    pub revealed: Option<Revealed>,
}

/// One item of an expert's queue.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueEntry {
    /// The item.
    pub id: i64,
    /// Its kind.
    pub kind: ReviewKind,
    /// The case.
    pub case_id: String,
    /// The task of a judge verdict.
    pub task: Option<Task>,
    /// The consultation (LCA) or setup (LJP) of a judge verdict.
    pub target: Option<String>,
    /// The status the expert sees ([`ItemRecord::status_for`]).
    pub status: ItemStatus,
    /// The expert flagged the item as unclear (and has not labelled it since).
    pub unclear: bool,
    /// The active seconds the expert's labels of the item recorded.
    pub seconds: Option<u32>,
}

/// How far an expert is through their queue: items done (submitted) of
/// those assigned, overall and per kind, and where one item stands in it.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct QueueProgress {
    /// Items submitted.
    pub done: usize,
    /// Items assigned.
    pub total: usize,
    /// Per kind present in the queue, in [`ReviewKind`] order: (kind, done, total).
    pub per_kind: Vec<(ReviewKind, usize, usize)>,
    /// The 1-based place of the current item in the queue, and among the
    /// items of its kind.
    pub position: Option<(usize, usize)>,
    /// The recorded active seconds of each submitted item that has a time.
    pub seconds: Vec<u32>,
}

impl QueueProgress {
    /// The progress over `entries` (a queue, [`queue`]), placing `current`.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::{QueueEntry, QueueProgress, ItemStatus, ReviewKind};
    ///
    /// let entry = |id, kind, status| QueueEntry {
    ///     id, kind, case_id: "LP-0001".into(), task: None, target: None, status,
    ///     unclear: false, seconds: None,
    /// };
    /// let queue = [
    ///     entry(1, ReviewKind::CaseCheck, ItemStatus::Submitted),
    ///     entry(2, ReviewKind::SeedDialogue, ItemStatus::Todo),
    ///     entry(3, ReviewKind::CaseCheck, ItemStatus::Todo),
    /// ];
    /// let p = QueueProgress::of(&queue, Some(3));
    /// assert_eq!((p.done, p.total, p.remaining()), (1, 3, 2));
    /// assert_eq!(p.per_kind, [(ReviewKind::SeedDialogue, 0, 1), (ReviewKind::CaseCheck, 1, 2)]);
    /// assert_eq!(p.position, Some((3, 2)));
    /// ```
    pub fn of(entries: &[QueueEntry], current: Option<i64>) -> Self {
        let mut per_kind: Vec<(ReviewKind, usize, usize)> =
            ReviewKind::ALL.iter().map(|&k| (k, 0, 0)).collect();
        let mut position = None;
        for (at, e) in entries.iter().enumerate() {
            let Some(slot) = per_kind.iter_mut().find(|(k, _, _)| *k == e.kind) else {
                continue;
            };
            slot.2 += 1;
            if e.status != ItemStatus::Todo {
                slot.1 += 1;
            }
            if Some(e.id) == current {
                position = Some((at + 1, slot.2));
            }
        }
        per_kind.retain(|&(_, _, total)| total > 0);
        QueueProgress {
            done: entries
                .iter()
                .filter(|e| e.status != ItemStatus::Todo)
                .count(),
            total: entries.len(),
            per_kind,
            position,
            seconds: entries
                .iter()
                .filter(|e| e.status != ItemStatus::Todo)
                .filter_map(|e| e.seconds)
                .collect(),
        }
    }

    /// Items not submitted yet.
    pub fn remaining(&self) -> usize {
        self.total - self.done
    }

    /// The median recorded seconds per item ([`super::median_seconds`]).
    pub fn median_seconds(&self) -> Option<f64> {
        super::board::median_seconds(&self.seconds)
    }

    /// Timed items per hour of recorded time ([`super::items_per_hour`]).
    pub fn items_per_hour(&self) -> Option<f64> {
        super::board::items_per_hour(&self.seconds)
    }
}

/// The next item to label after `id` in the queue: the first to-do entry
/// after it, else the first before it (the queue wraps); `None` when
/// nothing else is left to do.
///
/// # Examples
///
/// ```
/// use engine::review::{next_todo, QueueEntry, ItemStatus, ReviewKind};
///
/// let entry = |id, status| QueueEntry {
///     id, kind: ReviewKind::CaseCheck, case_id: "LP-0001".into(), task: None, target: None,
///     status, unclear: false, seconds: None,
/// };
/// let queue = [
///     entry(1, ItemStatus::Todo),
///     entry(2, ItemStatus::Todo),
///     entry(3, ItemStatus::Submitted),
///     entry(4, ItemStatus::Final),
/// ];
/// assert_eq!(next_todo(&queue, 2), Some(1), "3 and 4 are done: wrap around");
/// assert_eq!(next_todo(&queue, 1), Some(2));
/// assert_eq!(next_todo(&queue[1..], 2), None);
/// ```
pub fn next_todo(entries: &[QueueEntry], id: i64) -> Option<i64> {
    let at = entries.iter().position(|e| e.id == id).map_or(0, |p| p + 1);
    entries[at..]
        .iter()
        .chain(&entries[..at])
        .find(|e| e.id != id && e.status == ItemStatus::Todo)
        .map(|e| e.id)
}

impl ItemRecord {
    /// Whether `viewer` sees every label of this item: an adjudicator does,
    /// except on an item assigned to them that they have not submitted yet
    /// (there they are blind like any expert).
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::accounts::{Role, Standing};
    /// use engine::review::{AssignmentRecord, ItemRecord, ReviewKind, Viewer};
    ///
    /// let designated = Viewer { id: 3, standing: Standing { role: Role::Expert, adjudicator: true } };
    /// let mut item = ItemRecord::new(1, ReviewKind::CaseCheck, "LP-0001");
    /// assert!(item.sees_all(&designated));
    /// item.assignments = vec![AssignmentRecord { expert_id: 3, ..Default::default() }];
    /// assert!(!item.sees_all(&designated));
    /// item.assignments[0].submitted_at = Some("2026-01-01T00:00:00Z".into());
    /// assert!(item.sees_all(&designated));
    /// ```
    pub fn sees_all(&self, viewer: &Viewer) -> bool {
        viewer.may_adjudicate()
            && !self
                .assignments
                .iter()
                .any(|a| a.expert_id == viewer.id && !a.submitted())
    }

    /// The status expert `expert_id` sees in their queue: `todo` until they
    /// have submitted, then the item's own ([`ItemRecord::status`]); `None`
    /// when the item is not assigned to them.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::{AssignmentRecord, ItemRecord, ItemStatus, ReviewKind};
    ///
    /// let mut item = ItemRecord::new(1, ReviewKind::CaseCheck, "LP-0001");
    /// item.assignments = vec![
    ///     AssignmentRecord { expert_id: 1, submitted_at: Some("2026-01-01T00:00:00Z".into()), ..Default::default() },
    ///     AssignmentRecord { expert_id: 2, ..Default::default() },
    /// ];
    /// assert_eq!(item.status_for(1), Some(ItemStatus::Submitted));
    /// assert_eq!(item.status_for(2), Some(ItemStatus::Todo));
    /// assert_eq!(item.status_for(3), None);
    /// ```
    pub fn status_for(&self, expert_id: i64) -> Option<ItemStatus> {
        let mine = self.assignment(expert_id)?;
        Some(if mine.submitted() {
            self.status()
        } else {
            ItemStatus::Todo
        })
    }

    /// What `viewer` may see of the item; `None` when they may not see it at
    /// all (it is not assigned to them and they do not see every label). The
    /// judge's label, the other experts' labels and the final label are
    /// revealed once the viewer has submitted their own, or at once to an
    /// adjudicator who sees every label ([`ItemRecord::sees_all`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::accounts::{Role, Standing};
    /// use engine::review::{AssignmentRecord, ItemRecord, ItemStatus, ReviewKind, Viewer};
    ///
    /// let expert = |id| Viewer { id, standing: Standing { role: Role::Expert, adjudicator: false } };
    /// let mut item = ItemRecord::new(1, ReviewKind::JudgeVerdict, "LP-0001");
    /// item.judge_label = Some("ask".into());
    /// item.assignments = vec![
    ///     AssignmentRecord {
    ///         expert_id: 1,
    ///         label: Some("ask".into()),
    ///         submitted_at: Some("2026-01-01T00:00:00Z".into()),
    ///         ..Default::default()
    ///     },
    ///     AssignmentRecord { expert_id: 2, draft: Some("pre".into()), ..Default::default() },
    /// ];
    /// let blind = item.visibility(&expert(2)).unwrap();
    /// assert_eq!((blind.status, blind.revealed, blind.draft.as_deref()), (ItemStatus::Todo, None, Some("pre")));
    /// let first = item.visibility(&expert(1)).unwrap();
    /// assert_eq!(first.revealed.unwrap().judge_label.as_deref(), Some("ask"));
    /// assert_eq!(item.visibility(&expert(3)), None);
    /// ```
    pub fn visibility(&self, viewer: &Viewer) -> Option<ItemVisibility> {
        let privileged = self.sees_all(viewer);
        let mine = self.assignment(viewer.id);
        if mine.is_none() && !privileged {
            return None;
        }
        let submitted = mine.is_some_and(AssignmentRecord::submitted);
        let revealed = (submitted || privileged).then(|| Revealed {
            others: self
                .assignments
                .iter()
                .filter(|a| a.expert_id != viewer.id)
                .filter_map(AssignmentRecord::submission)
                .collect(),
            judge_label: self.judge_label.clone(),
            final_label: self.final_label.clone(),
            final_proposal: self.final_proposal.clone(),
            final_reason: self.final_reason.clone(),
            final_source: self.final_source,
        });
        Some(ItemVisibility {
            assigned: mine.is_some(),
            mine: mine.and_then(AssignmentRecord::submission),
            draft: mine.and_then(|a| a.draft.clone()),
            status: self.status_for(viewer.id).unwrap_or_else(|| self.status()),
            revealed,
        })
    }

    /// Whether the dashboard computes `viewer`'s figures over this item: when
    /// they see every label of it, or have submitted it themselves (so that
    /// no figure depends on a label they may not see yet).
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::accounts::{Role, Standing};
    /// use engine::review::{AssignmentRecord, ItemRecord, ReviewKind, Viewer};
    ///
    /// let expert = Viewer { id: 2, standing: Standing { role: Role::Expert, adjudicator: false } };
    /// let mut item = ItemRecord::new(1, ReviewKind::CaseCheck, "LP-0001");
    /// item.assignments = vec![AssignmentRecord { expert_id: 2, ..Default::default() }];
    /// assert!(!item.counts_for(&expert));
    /// item.assignments[0].submitted_at = Some("2026-01-01T00:00:00Z".into());
    /// assert!(item.counts_for(&expert));
    /// ```
    pub fn counts_for(&self, viewer: &Viewer) -> bool {
        self.sees_all(viewer)
            || self
                .assignment(viewer.id)
                .is_some_and(AssignmentRecord::submitted)
    }
}

/// Expert `expert_id`'s queue: the items assigned to them, in the order
/// given, with the status they may see ([`ItemRecord::status_for`]).
///
/// # Examples
///
/// ```
/// use engine::review::{queue, AssignmentRecord, ItemRecord, ItemStatus, ReviewKind};
///
/// let mut mine = ItemRecord::new(1, ReviewKind::CaseCheck, "LP-0001");
/// mine.assignments = vec![AssignmentRecord { expert_id: 5, ..Default::default() }];
/// let other = ItemRecord::new(2, ReviewKind::CaseCheck, "LP-0002");
/// let entries = queue(&[mine, other], 5);
/// assert_eq!(entries.len(), 1);
/// assert_eq!((entries[0].id, entries[0].status), (1, ItemStatus::Todo));
/// ```
pub fn queue(items: &[ItemRecord], expert_id: i64) -> Vec<QueueEntry> {
    items
        .iter()
        .filter_map(|item| {
            Some(QueueEntry {
                id: item.id,
                kind: item.kind,
                case_id: item.case_id.clone(),
                task: item.task,
                target: item.target.clone(),
                status: item.status_for(expert_id)?,
                unclear: item
                    .assignment(expert_id)
                    .is_some_and(|a| a.unclear.is_some()),
                seconds: item.assignment(expert_id).and_then(|a| a.seconds),
            })
        })
        .collect()
}

/// The items before and after item `id` in `order` (the viewer's queue, or
/// every item for an adjudicator browsing others' items); `(None, None)`
/// when `id` is not in it.
///
/// # Examples
///
/// ```
/// use engine::review::neighbours;
///
/// assert_eq!(neighbours(&[3, 5, 8], 5), (Some(3), Some(8)));
/// assert_eq!(neighbours(&[3, 5, 8], 3), (None, Some(5)));
/// assert_eq!(neighbours(&[3, 5, 8], 4), (None, None));
/// ```
pub fn neighbours(order: &[i64], id: i64) -> (Option<i64>, Option<i64>) {
    let at = order.iter().position(|&i| i == id);
    (
        at.and_then(|p| p.checked_sub(1))
            .and_then(|p| order.get(p).copied()),
        at.and_then(|p| order.get(p + 1).copied()),
    )
}

/// What an expert works with besides the case and the item's input.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemGuide {
    /// Pre-flags of the case ([`flag_spans`]), for seed dialogues and case checks.
    pub flags: Vec<Flag>,
    /// The label space of one unit ([`unit_space`]).
    pub labels: Vec<String>,
    /// For an LJP judge verdict, the claims a label gives verdicts for; else 0.
    pub claims: usize,
}

impl ItemGuide {
    /// The guide of an item of `kind` (and `task`) showing `case` (`None`
    /// when it is no longer stored: no flags, no claims).
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::lexpilot::dataset::parse_dataset;
    /// use engine::review::{ItemGuide, ReviewKind};
    /// use engine::lexpilot::run::Task;
    ///
    /// let cases = parse_dataset(&engine::lexpilot::synthetic::dataset_file(1)).unwrap();
    /// let ljp = ItemGuide::of(ReviewKind::JudgeVerdict, Some(Task::Ljp), Some(&cases[0]));
    /// assert_eq!(ljp.claims, cases[0].claims.len());
    /// assert_eq!(ljp.labels, ["supported", "partially_supported", "dismissed"]);
    /// assert!(ljp.flags.is_empty());
    /// let check = ItemGuide::of(ReviewKind::CaseCheck, None, None);
    /// assert_eq!((check.labels.len(), check.claims), (2, 0));
    /// ```
    pub fn of(kind: ReviewKind, task: Option<Task>, case: Option<&Case>) -> Self {
        let flags = match (kind, case) {
            (ReviewKind::SeedDialogue | ReviewKind::CaseCheck, Some(case)) => flag_spans(case),
            _ => Vec::new(),
        };
        let claims = match (task, case) {
            (Some(Task::Ljp), Some(case)) => case.claims.len(),
            _ => 0,
        };
        ItemGuide {
            flags,
            labels: unit_space(kind, task)
                .unwrap_or_default()
                .into_iter()
                .map(str::to_owned)
                .collect(),
            claims,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::accounts::Role;

    /// A viewer of the given role, for the review modules' tests.
    pub(crate) fn viewer(id: i64, role: Role, adjudicator: bool) -> Viewer {
        Viewer {
            id,
            standing: Standing { role, adjudicator },
        }
    }

    fn assigned(expert_id: i64, label: Option<&str>) -> AssignmentRecord {
        AssignmentRecord {
            expert_id,
            expert: format!("expert-{expert_id}"),
            label: label.map(String::from),
            comment: label.map(|_| format!("comment of {expert_id}")),
            blind_label: label.map(String::from),
            submitted_at: label.map(|_| "2026-01-01T00:00:00Z".to_owned()),
            ..Default::default()
        }
    }

    fn item() -> ItemRecord {
        let mut item = ItemRecord::new(1, ReviewKind::JudgeVerdict, "LP-0001");
        item.task = Some(Task::Lca);
        item.judge_label = Some("ask".into());
        item
    }

    #[test]
    fn nothing_of_the_others_shows_before_the_viewer_submits() {
        let mut item = item();
        item.assignments = vec![assigned(1, Some("ask")), assigned(2, None)];
        let blind = item
            .visibility(&viewer(2, Role::Expert, false))
            .expect("assigned");
        assert!(blind.assigned);
        assert_eq!(blind.revealed, None);
        assert_eq!(blind.mine, None);
        assert_eq!(blind.status, ItemStatus::Todo);
        let first = item
            .visibility(&viewer(1, Role::Expert, false))
            .expect("assigned");
        assert_eq!(first.status, ItemStatus::Submitted);
        assert!(first.revealed.is_some_and(|r| r.others.is_empty()));
        // A designated adjudicator outside the item sees every label.
        let outside = item
            .visibility(&viewer(3, Role::Expert, true))
            .expect("sees all");
        assert!(!outside.assigned);
        assert_eq!(outside.status, ItemStatus::Submitted);
        let others = outside.revealed.expect("revealed").others;
        assert_eq!(others.len(), 1);
        assert_eq!(others[0].comment, "comment of 1");
        assert_eq!(item.visibility(&viewer(3, Role::Expert, false)), None);
        assert_eq!(item.visibility(&viewer(4, Role::Researcher, false)), None);
    }

    #[test]
    fn a_designated_expert_is_blind_on_their_own_items_until_they_submit() {
        let mut item = item();
        item.assignments = vec![assigned(1, Some("ask")), assigned(3, None)];
        let designated = viewer(3, Role::Expert, true);
        assert!(!item.sees_all(&designated));
        assert!(!item.counts_for(&designated));
        let view = item.visibility(&designated).expect("assigned");
        assert_eq!((view.status, view.revealed), (ItemStatus::Todo, None));
        item.assignments[1] = assigned(3, Some("predict"));
        assert!(item.counts_for(&designated));
        let view = item.visibility(&designated).expect("assigned");
        assert_eq!(view.status, ItemStatus::Adjudication);
        assert_eq!(view.mine.map(|m| m.label).as_deref(), Some("predict"));
    }

    #[test]
    fn the_final_label_is_revealed_with_its_source() {
        let mut item = item();
        item.assignments = vec![assigned(1, Some("ask")), assigned(2, Some("ask"))];
        item.final_label = Some("ask".into());
        item.final_source = Some(FinalSource::Agreed);
        let view = item
            .visibility(&viewer(2, Role::Expert, false))
            .expect("assigned");
        assert_eq!(view.status, ItemStatus::Final);
        let revealed = view.revealed.expect("revealed");
        assert_eq!(revealed.final_source, Some(FinalSource::Agreed));
        assert_eq!(revealed.others[0].expert, "expert-1");
    }

    #[test]
    fn the_queue_keeps_the_order_and_only_the_experts_items() {
        let mut items: Vec<ItemRecord> = (1..=4)
            .map(|id| {
                let mut item = item();
                item.id = id;
                item
            })
            .collect();
        items[1].assignments = vec![assigned(7, Some("ask")), assigned(8, None)];
        items[3].assignments = vec![assigned(7, None)];
        let entries = queue(&items, 7);
        let ids: Vec<(i64, ItemStatus)> = entries.iter().map(|e| (e.id, e.status)).collect();
        assert_eq!(ids, [(2, ItemStatus::Submitted), (4, ItemStatus::Todo)]);
        assert!(queue(&items, 9).is_empty());
    }
}
