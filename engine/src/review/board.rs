//! The agreement dashboard of one viewer, assembled from item records: the
//! figures per kind and task ([`super::dashboard_rows`]; rubric verdicts per
//! task and section, [`super::sheet_rows`]) over the items the
//! viewer may count ([`ItemRecord::counts_for`]), the disagreements for an
//! adjudicator, and everyone's progress.

use std::collections::BTreeMap;

use super::{
    dashboard_rows, disagreements, sheet_rows, DashboardRow, ItemRecord, ItemStatus, ReviewedItem,
    SheetItem, SheetRow, Viewer,
};
use crate::vocab::Class;

/// One expert's progress: labels submitted, items assigned, their items
/// waiting for an adjudicator, and the time their labels recorded.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ExpertProgress {
    /// The expert's account name.
    pub expert: String,
    /// Items they have submitted.
    pub done: usize,
    /// Items assigned to them.
    pub assigned: usize,
    /// Items they submitted that wait for an adjudicator.
    pub in_adjudication: usize,
    /// Items they flagged as unclear.
    pub unclear: usize,
    /// The recorded active seconds of each submitted item that has a time.
    pub seconds: Vec<u32>,
}

impl ExpertProgress {
    /// Adds `other`'s counts (the same expert on another dataset).
    pub fn merge(&mut self, other: ExpertProgress) {
        self.done += other.done;
        self.assigned += other.assigned;
        self.in_adjudication += other.in_adjudication;
        self.unclear += other.unclear;
        self.seconds.extend(other.seconds);
    }

    /// The median of the recorded seconds per item; `None` when no label
    /// recorded a time.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::ExpertProgress;
    ///
    /// let p = ExpertProgress { seconds: vec![40, 10, 30, 20], ..Default::default() };
    /// assert_eq!(p.median_seconds(), Some(25.0));
    /// assert_eq!(ExpertProgress::default().median_seconds(), None);
    /// ```
    pub fn median_seconds(&self) -> Option<f64> {
        median_seconds(&self.seconds)
    }

    /// The pace: timed items per hour of recorded time; `None` without a
    /// recorded time (or when every time is zero).
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::ExpertProgress;
    ///
    /// let p = ExpertProgress { seconds: vec![60, 120, 180], ..Default::default() };
    /// assert_eq!(p.items_per_hour(), Some(30.0));
    /// ```
    pub fn items_per_hour(&self) -> Option<f64> {
        items_per_hour(&self.seconds)
    }
}

/// The median of recorded seconds per item; `None` for none.
pub fn median_seconds(seconds: &[u32]) -> Option<f64> {
    let mut s = seconds.to_vec();
    s.sort_unstable();
    let n = s.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(f64::from(s[n / 2])),
        _ => Some((f64::from(s[n / 2 - 1]) + f64::from(s[n / 2])) / 2.0),
    }
}

/// Timed items per hour of recorded time; `None` without recorded time.
pub fn items_per_hour(seconds: &[u32]) -> Option<f64> {
    let total: u64 = seconds.iter().map(|&s| u64::from(s)).sum();
    (total > 0).then(|| seconds.len() as f64 * 3600.0 / total as f64)
}

/// The agreement dashboard.
#[derive(Debug, Clone, PartialEq)]
pub struct Dashboard {
    /// Figures per kind and task, over all classes and per class.
    pub rows: Vec<DashboardRow>,
    /// Figures of rubric verdicts per task and section ([`sheet_rows`]).
    pub sheets: Vec<SheetRow>,
    /// The simulated-client-style segments the viewer may count, each with
    /// its experts' blind labels
    /// ([`crate::dlawbench::client_style::ClientStyleFigures::of`] gives
    /// the figures).
    pub client_style: Vec<crate::dlawbench::client_style::Segment>,
    /// Items whose experts disagreed (adjudicators only; empty for experts).
    pub disagreements: Vec<i64>,
    /// Every expert's progress, by name.
    pub progress: Vec<ExpertProgress>,
    /// Items of the dataset.
    pub items: usize,
    /// Items with a final label.
    pub items_final: usize,
    /// Items waiting for an adjudicator.
    pub items_in_adjudication: usize,
}

impl Dashboard {
    /// The dashboard of `items` for `viewer`. An adjudicator's figures are
    /// computed over every item (but a designated expert's own items only
    /// once they have submitted them), with the list of disagreements; an
    /// expert's over the items they have submitted only, without that list,
    /// so that no figure depends on a label they may not see yet. Agreement
    /// is counted on the blind labels. `class_of` gives the class of an
    /// item's case (`None` when the case is no longer stored: the item is
    /// counted in the totals and progress, not in the figures). Progress and
    /// totals are everyone's.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::accounts::{Role, Standing};
    /// use engine::review::{AssignmentRecord, Dashboard, ItemRecord, ReviewKind, Viewer};
    /// use engine::lexpilot::run::Task;
    /// use engine::vocab::Class;
    ///
    /// let expert = |expert_id, expert: &str, label: Option<&str>| AssignmentRecord {
    ///     expert_id,
    ///     expert: expert.into(),
    ///     label: label.map(String::from),
    ///     submitted_at: label.map(|_| "2026-01-01T00:00:00Z".to_owned()),
    ///     ..Default::default()
    /// };
    /// let mut split = ItemRecord::new(1, ReviewKind::JudgeVerdict, "LP-0001");
    /// split.task = Some(Task::Lca);
    /// split.assignments = vec![expert(1, "甲", Some("ask")), expert(2, "乙", Some("predict"))];
    /// let mut open = split.clone();
    /// open.id = 2;
    /// open.assignments = vec![expert(1, "甲", None), expert(2, "乙", Some("ask"))];
    /// let items = [split, open];
    ///
    /// let admin = Viewer { id: 9, standing: Standing { role: Role::Admin, adjudicator: false } };
    /// let board = Dashboard::of(&admin, &items, |_| Some(Class::Tort));
    /// assert_eq!((board.items, board.items_in_adjudication, board.items_final), (2, 1, 0));
    /// assert_eq!(board.disagreements, [1]);
    /// assert_eq!(board.rows[0].n_items, 2);
    /// assert_eq!((board.progress[0].expert.as_str(), board.progress[0].done), ("乙", 2));
    ///
    /// // 甲 has not submitted item 2: their figures leave it out.
    /// let first = Viewer { id: 1, standing: Standing { role: Role::Expert, adjudicator: false } };
    /// let board = Dashboard::of(&first, &items, |_| Some(Class::Tort));
    /// assert_eq!(board.rows[0].n_items, 1);
    /// assert!(board.disagreements.is_empty());
    /// ```
    pub fn of(
        viewer: &Viewer,
        items: &[ItemRecord],
        class_of: impl Fn(&ItemRecord) -> Option<Class>,
    ) -> Dashboard {
        let mut reviewed = Vec::new();
        let mut sheets = Vec::new();
        let mut sheet_disagreements = Vec::new();
        let mut client_style = Vec::new();
        let (mut items_final, mut items_in_adjudication) = (0, 0);
        let mut progress: BTreeMap<String, ExpertProgress> = BTreeMap::new();
        for item in items {
            let status = item.status();
            match status {
                ItemStatus::Final => items_final += 1,
                ItemStatus::Adjudication => items_in_adjudication += 1,
                ItemStatus::Todo | ItemStatus::Submitted => {}
            }
            for a in &item.assignments {
                let entry = progress.entry(a.expert.clone()).or_default();
                entry.assigned += 1;
                entry.unclear += usize::from(a.unclear.is_some());
                if a.submitted() {
                    entry.done += 1;
                    entry.in_adjudication += usize::from(status == ItemStatus::Adjudication);
                    entry.seconds.extend(a.seconds);
                }
            }
            if !item.counts_for(viewer) {
                continue;
            }
            if item.kind == super::ReviewKind::ClientStyle {
                // The gold is the simulated style, kept as the judge label.
                let style = item
                    .judge_label
                    .as_deref()
                    .and_then(crate::dlawbench::dataset::Style::parse);
                if let Some(style) = style {
                    client_style.push(crate::dlawbench::client_style::Segment {
                        style,
                        labels: item
                            .submissions()
                            .into_iter()
                            .map(|s| s.blind_label)
                            .collect(),
                    });
                }
                let submitted = item.submissions().len();
                if submitted >= 2
                    && submitted >= item.assignments.len()
                    && item.blind_agreement().is_none()
                {
                    sheet_disagreements.push(item.id);
                }
                continue;
            }
            if let Some(sheet) = &item.sheet {
                sheets.push(SheetItem {
                    sheet: sheet.clone(),
                    submissions: item
                        .submissions()
                        .into_iter()
                        .map(|s| s.blind_label)
                        .collect(),
                    judge_label: item.judge_label.clone(),
                    final_label: item.final_label.clone(),
                });
                let submitted = item.submissions().len();
                if submitted >= 2
                    && submitted >= item.assignments.len()
                    && item.blind_agreement().is_none()
                {
                    sheet_disagreements.push(item.id);
                }
                continue;
            }
            let Some(class) = class_of(item) else {
                continue;
            };
            reviewed.push(ReviewedItem {
                id: item.id,
                kind: item.kind,
                task: item.task,
                class,
                assigned: item.assignments.len(),
                submissions: item
                    .submissions()
                    .into_iter()
                    .map(|s| (s.blind_label, s.blind_proposal))
                    .collect(),
                judge_label: item.judge_label.clone(),
                final_label: item.final_label.clone(),
            });
        }
        Dashboard {
            rows: dashboard_rows(&reviewed),
            sheets: sheet_rows(&sheets),
            client_style,
            disagreements: if viewer.may_adjudicate() {
                let mut ids = disagreements(&reviewed);
                ids.extend(sheet_disagreements);
                ids.sort_unstable();
                ids
            } else {
                Vec::new()
            },
            progress: progress
                .into_iter()
                .map(|(expert, p)| ExpertProgress { expert, ..p })
                .collect(),
            items: items.len(),
            items_final,
            items_in_adjudication,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::Role;
    use crate::lexpilot::run::Task;
    use crate::review::view::tests::viewer;
    use crate::review::{AssignmentRecord, ReviewKind};

    /// An LCA item whose experts gave these blind labels (and, when they
    /// revised after the reveal, these current labels).
    fn item(id: i64, experts: &[(i64, Option<(&str, &str)>)]) -> ItemRecord {
        let mut item = ItemRecord::new(id, ReviewKind::JudgeVerdict, "LP-0001");
        item.task = Some(Task::Lca);
        item.assignments = experts
            .iter()
            .map(|&(expert_id, labels)| AssignmentRecord {
                expert_id,
                expert: format!("expert-{expert_id}"),
                blind_label: labels.map(|(blind, _)| blind.to_owned()),
                label: labels.map(|(_, label)| label.to_owned()),
                submitted_at: labels.map(|_| "2026-01-01T00:00:00Z".to_owned()),
                ..Default::default()
            })
            .collect();
        item
    }

    #[test]
    fn agreement_counts_the_blind_labels() {
        // Expert 2 answered `predict` blind, then matched expert 1.
        let items = [item(
            1,
            &[(1, Some(("ask", "ask"))), (2, Some(("predict", "ask")))],
        )];
        let admin = viewer(9, Role::Admin, false);
        let board = Dashboard::of(&admin, &items, |_| Some(Class::Family));
        assert_eq!(board.rows[0].human_agreement, Some(0.0));
        assert_eq!(board.disagreements, [1]);
    }

    #[test]
    fn a_designated_expert_counts_their_own_items_only_once_submitted() {
        let items = [
            item(1, &[(1, Some(("ask", "ask"))), (3, None)]),
            item(2, &[(1, Some(("ask", "ask"))), (2, Some(("ask", "ask")))]),
        ];
        let designated = viewer(3, Role::Expert, true);
        let board = Dashboard::of(&designated, &items, |_| Some(Class::Family));
        assert_eq!(board.rows[0].n_items, 1, "item 1 is theirs and unsubmitted");
        assert!(board.disagreements.is_empty());
        let progress: Vec<(&str, usize, usize)> = board
            .progress
            .iter()
            .map(|p| (p.expert.as_str(), p.done, p.assigned))
            .collect();
        assert_eq!(
            progress,
            [("expert-1", 2, 2), ("expert-2", 1, 1), ("expert-3", 0, 1)]
        );
    }

    #[test]
    fn items_without_a_stored_case_count_in_totals_only() {
        let mut done = item(1, &[(1, Some(("ask", "ask"))), (2, Some(("ask", "ask")))]);
        done.final_label = Some("ask".into());
        let items = [done, item(2, &[(1, None)])];
        let admin = viewer(9, Role::Admin, false);
        let board = Dashboard::of(&admin, &items, |_| None);
        assert!(board.rows.is_empty());
        assert_eq!(
            (board.items, board.items_final, board.items_in_adjudication),
            (2, 1, 0)
        );
        assert_eq!(board.progress.len(), 2);
        let expert = viewer(5, Role::Expert, false);
        let nothing = Dashboard::of(&expert, &items, |_| Some(Class::Family));
        assert!(nothing.rows.is_empty());
    }

    #[test]
    fn progress_counts_adjudication_flags_and_recorded_time_per_expert() {
        // Item 1 split (waits for an adjudicator), item 2 open for expert 2.
        let mut split = item(
            1,
            &[(1, Some(("ask", "ask"))), (2, Some(("predict", "predict")))],
        );
        split.assignments[0].seconds = Some(40);
        split.assignments[1].seconds = Some(90);
        let mut open = item(2, &[(1, Some(("ask", "ask"))), (2, None)]);
        open.assignments[0].seconds = Some(20);
        open.assignments[1].unclear = Some("诉请不清楚".into());
        // A label without a recorded time counts as done, not in the times.
        let untimed = item(3, &[(1, Some(("ask", "ask")))]);
        let board = Dashboard::of(
            &viewer(9, Role::Admin, false),
            &[split, open, untimed],
            |_| Some(Class::Family),
        );
        let one = &board.progress[0];
        assert_eq!(
            (one.done, one.assigned, one.in_adjudication, one.unclear),
            (3, 3, 1, 0)
        );
        assert_eq!(one.median_seconds(), Some(30.0));
        assert_eq!(one.items_per_hour(), Some(120.0), "2 items in 60 s");
        let two = &board.progress[1];
        assert_eq!(
            (two.done, two.assigned, two.in_adjudication, two.unclear),
            (1, 2, 1, 1)
        );
        assert_eq!(two.median_seconds(), Some(90.0));
        let mut merged = one.clone();
        merged.merge(two.clone());
        assert_eq!(
            (merged.done, merged.assigned, merged.seconds.len()),
            (4, 5, 3)
        );
        assert_eq!(merged.median_seconds(), Some(40.0));
    }
}
