//! What an admin sees of every review item: the management list (filtered,
//! paged) and the bulk reassignment of an expert's open work when they
//! leave.
//!
//! - **List.** [`ManageFilter`] keeps the items of a kind, a status, an
//!   expert or a case; [`ManageList::of`] pages what remains, newest item
//!   first, with the count of each status over the filtered items so that
//!   the filter itself shows where the work stands.
//! - **Reassignment.** [`reassignments`] hands every item that expert
//!   `from` still has to label (not final, not submitted by them) to the
//!   expert of the pool with the least open work who is not on the item
//!   yet; an item on which every pool expert already sits stays where it is
//!   and is reported. What `from` submitted stays: their labels are work
//!   done.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::{ItemRecord, ItemStatus, ReviewKind};
use crate::lexpilot::run::Task;

/// Items per page of the management list.
pub const PER_PAGE: usize = 50;

/// Which items the management list keeps: every condition given must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManageFilter {
    /// Items of this kind.
    pub kind: Option<ReviewKind>,
    /// Items whose overall status ([`ItemRecord::status`]) is this.
    pub status: Option<ItemStatus>,
    /// Items assigned to the expert of this account name.
    pub expert: Option<String>,
    /// Items whose case id contains this (case-insensitive).
    pub case: Option<String>,
    /// Only items with fewer than [`super::EXPERTS_PER_ITEM`] experts.
    pub understaffed: bool,
}

impl ManageFilter {
    /// Whether `item` passes.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::{ItemRecord, ManageFilter, ReviewKind};
    ///
    /// let item = ItemRecord::new(1, ReviewKind::CaseCheck, "LP-0042");
    /// assert!(ManageFilter::default().keeps(&item));
    /// assert!(ManageFilter { case: Some("lp-004".into()), ..Default::default() }.keeps(&item));
    /// assert!(!ManageFilter { kind: Some(ReviewKind::SeedDialogue), ..Default::default() }.keeps(&item));
    /// assert!(!ManageFilter { expert: Some("王律师".into()), ..Default::default() }.keeps(&item));
    /// ```
    pub fn keeps(&self, item: &ItemRecord) -> bool {
        self.kind.is_none_or(|k| item.kind == k)
            && self.status.is_none_or(|s| item.status() == s)
            && self
                .expert
                .as_deref()
                .is_none_or(|e| item.assignments.iter().any(|a| a.expert == e))
            && self.case.as_deref().is_none_or(|c| {
                item.case_id
                    .to_lowercase()
                    .contains(&c.trim().to_lowercase())
            })
            && (!self.understaffed || item.assignments.len() < super::EXPERTS_PER_ITEM)
    }
}

/// One expert on an item of the management list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assignee {
    /// The account name.
    pub expert: String,
    /// They have submitted a label.
    pub submitted: bool,
    /// They flagged the item as unclear.
    pub unclear: bool,
}

/// One item of the management list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManageRow {
    /// The item.
    pub id: i64,
    /// Its kind.
    pub kind: ReviewKind,
    /// The case.
    pub case_id: String,
    /// The task of a judge verdict.
    pub task: Option<Task>,
    /// The target of a judge or rubric verdict.
    pub target: Option<String>,
    /// Where it stands overall.
    pub status: ItemStatus,
    /// Its experts, in account id order.
    pub assignees: Vec<Assignee>,
    /// When it was made (RFC 3339).
    pub created_at: String,
}

impl ManageRow {
    fn of(item: &ItemRecord) -> Self {
        ManageRow {
            id: item.id,
            kind: item.kind,
            case_id: item.case_id.clone(),
            task: item.task,
            target: item.target.clone(),
            status: item.status(),
            assignees: item
                .assignments
                .iter()
                .map(|a| Assignee {
                    expert: a.expert.clone(),
                    submitted: a.submitted(),
                    unclear: a.unclear.is_some(),
                })
                .collect(),
            created_at: item.created_at.clone(),
        }
    }
}

/// One page of the management list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManageList {
    /// The items of the page, newest first.
    pub rows: Vec<ManageRow>,
    /// Items that pass the filter.
    pub matching: usize,
    /// Items in all.
    pub total: usize,
    /// The page shown, 1-based (clamped to the pages there are).
    pub page: usize,
    /// Pages of the filtered items (at least 1).
    pub pages: usize,
    /// Per status, in [`ItemStatus`] order, the filtered items with it
    /// (ignoring the filter's own status, so every choice shows its count).
    pub by_status: Vec<(ItemStatus, usize)>,
}

impl ManageList {
    /// Page `page` (1-based; out of range is clamped) of `items` kept by
    /// `filter`, [`PER_PAGE`] to a page, newest (highest id) first.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::{ItemRecord, ItemStatus, ManageFilter, ManageList, ReviewKind};
    ///
    /// let items: Vec<_> = (1..=120).map(|id| ItemRecord::new(id, ReviewKind::CaseCheck, format!("LP-{id:04}"))).collect();
    /// let list = ManageList::of(&items, &ManageFilter::default(), 3);
    /// assert_eq!((list.matching, list.page, list.pages), (120, 3, 3));
    /// assert_eq!(list.rows.len(), 20);
    /// assert_eq!(list.rows[0].id, 20);
    /// assert_eq!(list.by_status[0], (ItemStatus::Todo, 120));
    /// assert_eq!(ManageList::of(&items, &ManageFilter::default(), 99).page, 3);
    /// ```
    pub fn of(items: &[ItemRecord], filter: &ManageFilter, page: usize) -> Self {
        let unstatused = ManageFilter {
            status: None,
            ..filter.clone()
        };
        let mut by_status: Vec<(ItemStatus, usize)> =
            ItemStatus::ALL.into_iter().map(|s| (s, 0)).collect();
        let mut kept: Vec<&ItemRecord> = Vec::new();
        for item in items.iter().filter(|i| unstatused.keeps(i)) {
            let status = item.status();
            if let Some(n) = by_status.iter_mut().find(|(s, _)| *s == status) {
                n.1 += 1;
            }
            if filter.status.is_none_or(|s| s == status) {
                kept.push(item);
            }
        }
        kept.sort_by_key(|i| std::cmp::Reverse(i.id));
        let pages = kept.len().div_ceil(PER_PAGE).max(1);
        let page = page.clamp(1, pages);
        ManageList {
            rows: kept
                .iter()
                .skip((page - 1) * PER_PAGE)
                .take(PER_PAGE)
                .map(|i| ManageRow::of(i))
                .collect(),
            matching: kept.len(),
            total: items.len(),
            page,
            pages,
            by_status,
        }
    }
}

/// What [`reassignments`] decided.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reassignment {
    /// (item, the expert who takes it over), by item id.
    pub moves: Vec<(i64, i64)>,
    /// Items `from` still has open on which every expert of the pool
    /// already sits: left with `from`.
    pub stranded: Vec<i64>,
}

/// Hands every item that expert `from` has still to label (not final, and
/// `from` has not submitted) to an expert of `pool` (`from` aside) who is
/// not on it yet: the one with the least open work, counting what this
/// hands out, ties to the lower id. An item every pool expert already sits
/// on is stranded. Items are taken by id.
///
/// # Examples
///
/// ```
/// use engine::review::{reassignments, AssignmentRecord, ItemRecord, ReviewKind};
///
/// let on = |id: i64, experts: &[i64]| {
///     let mut item = ItemRecord::new(id, ReviewKind::CaseCheck, format!("LP-{id:04}"));
///     item.assignments = experts.iter().map(|&e| AssignmentRecord { expert_id: e, ..Default::default() }).collect();
///     item
/// };
/// let items = [on(1, &[7, 8]), on(2, &[7, 9]), on(3, &[7, 8]), on(4, &[8, 9])];
/// let r = reassignments(&items, 7, &[7, 8, 9]);
/// // Item 1 can only go to 9 (8 is on it), item 2 only to 8, item 3 only
/// // to 9; item 4 is not 7's.
/// assert_eq!(r.moves, [(1, 9), (2, 8), (3, 9)]);
/// assert!(r.stranded.is_empty());
/// assert_eq!(reassignments(&items, 7, &[8]).stranded, [1, 3]);
/// ```
pub fn reassignments(items: &[ItemRecord], from: i64, pool: &[i64]) -> Reassignment {
    let mut load: BTreeMap<i64, usize> = pool
        .iter()
        .filter(|&&id| id != from)
        .map(|&id| (id, 0))
        .collect();
    let open = |i: &&ItemRecord| i.final_label.is_none();
    for a in items
        .iter()
        .filter(open)
        .flat_map(|i| &i.assignments)
        .filter(|a| !a.submitted())
    {
        if let Some(n) = load.get_mut(&a.expert_id) {
            *n += 1;
        }
    }
    let mut ordered: Vec<&ItemRecord> = items.iter().filter(open).collect();
    ordered.sort_by_key(|i| i.id);
    let mut out = Reassignment::default();
    for item in ordered {
        if !item
            .assignments
            .iter()
            .any(|a| a.expert_id == from && !a.submitted())
        {
            continue;
        }
        let on: BTreeSet<i64> = item.assignments.iter().map(|a| a.expert_id).collect();
        let to = load
            .iter()
            .filter(|(id, _)| !on.contains(id))
            .min_by_key(|&(&id, &n)| (n, id))
            .map(|(&id, _)| id);
        match to {
            Some(to) => {
                *load.entry(to).or_default() += 1;
                out.moves.push((item.id, to));
            }
            None => out.stranded.push(item.id),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::review::AssignmentRecord;

    fn item(id: i64, experts: &[(i64, bool)], last: bool) -> ItemRecord {
        let mut item = ItemRecord::new(id, ReviewKind::CaseCheck, format!("LP-{id:04}"));
        item.assignments = experts
            .iter()
            .map(|&(e, submitted)| AssignmentRecord {
                expert_id: e,
                expert: format!("e{e}"),
                label: submitted.then(|| "x".into()),
                submitted_at: submitted.then(|| "2026-01-01T00:00:00Z".into()),
                ..Default::default()
            })
            .collect();
        if last {
            item.final_label = Some("x".into());
        }
        item
    }

    #[test]
    fn submitted_and_final_items_stay_with_the_expert_who_leaves() {
        let items = [
            item(1, &[(1, true), (2, false)], false),
            item(2, &[(1, true), (2, true)], true),
            item(3, &[(1, false), (2, false)], false),
            item(4, &[(1, false), (2, true)], false),
        ];
        let r = reassignments(&items, 1, &[2, 3]);
        assert_eq!(r.moves, [(3, 3), (4, 3)]);
        assert!(r.stranded.is_empty());
    }

    #[test]
    fn the_status_counts_ignore_the_status_filter() {
        let items = [
            item(1, &[(1, true), (2, false)], false),
            item(2, &[(1, true), (2, true)], true),
            item(3, &[(1, false)], false),
        ];
        let filter = ManageFilter {
            status: Some(ItemStatus::Final),
            ..Default::default()
        };
        let list = ManageList::of(&items, &filter, 1);
        assert_eq!(list.matching, 1);
        assert_eq!(list.rows[0].id, 2);
        assert_eq!(
            list.by_status,
            [
                (ItemStatus::Todo, 1),
                (ItemStatus::Submitted, 1),
                (ItemStatus::Adjudication, 0),
                (ItemStatus::Final, 1)
            ]
        );
        let thin = ManageFilter {
            understaffed: true,
            ..Default::default()
        };
        assert_eq!(ManageList::of(&items, &thin, 1).matching, 1);
        let by = ManageFilter {
            expert: Some("e2".into()),
            ..Default::default()
        };
        assert_eq!(ManageList::of(&items, &by, 1).matching, 2);
    }

    fn items() -> impl Strategy<Value = Vec<ItemRecord>> {
        prop::collection::vec(
            (
                prop::collection::btree_map(1i64..6, any::<bool>(), 0..4),
                any::<bool>(),
            ),
            0..40,
        )
        .prop_map(|rows| {
            rows.into_iter()
                .enumerate()
                .map(|(n, (experts, last))| {
                    let experts: Vec<(i64, bool)> = experts.into_iter().collect();
                    item(n as i64 + 1, &experts, last)
                })
                .collect()
        })
    }

    proptest! {
        /// The pages partition the filtered items, each once, newest first.
        #[test]
        fn pages_cover_every_kept_item_once(items in items(), expert in 1i64..6) {
            let filter = ManageFilter { expert: Some(format!("e{expert}")), ..Default::default() };
            let first = ManageList::of(&items, &filter, 1);
            let mut seen = Vec::new();
            for page in 1..=first.pages {
                seen.extend(ManageList::of(&items, &filter, page).rows.into_iter().map(|r| r.id));
            }
            let mut want: Vec<i64> = items.iter().filter(|i| filter.keeps(i)).map(|i| i.id).collect();
            want.reverse();
            prop_assert_eq!(seen, want);
            prop_assert_eq!(first.by_status.iter().map(|s| s.1).sum::<usize>(), first.matching);
        }

        /// Every open item of the leaver is moved or stranded, never to an
        /// expert already on it nor to the leaver.
        #[test]
        fn reassignment_moves_each_open_item_once_to_a_new_expert(items in items(), from in 1i64..6) {
            let pool = [1, 2, 3, 4, 5];
            let r = reassignments(&items, from, &pool);
            let open: Vec<i64> = items
                .iter()
                .filter(|i| i.final_label.is_none() && i.assignments.iter().any(|a| a.expert_id == from && !a.submitted()))
                .map(|i| i.id)
                .collect();
            let mut handled: Vec<i64> = r.moves.iter().map(|m| m.0).chain(r.stranded.iter().copied()).collect();
            handled.sort();
            prop_assert_eq!(handled, open);
            for (id, to) in &r.moves {
                let item = items.iter().find(|i| i.id == *id).unwrap();
                prop_assert!(*to != from);
                prop_assert!(item.assignment(*to).is_none());
            }
        }
    }
}
