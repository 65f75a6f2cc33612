//! Property tests of the review workflow rules of `engine::review` (blindness,
//! status, blind agreement, auto-assignment, the dashboard), on many
//! generated items and viewers.

use std::collections::{BTreeMap, BTreeSet};

use engine::accounts::{Role, Standing};
use engine::lexpilot::run::Task;
use engine::review::{
    auto_assignments, queue, AssignmentRecord, Dashboard, ItemRecord, ItemStatus, ReviewKind,
    Viewer, EXPERTS_PER_ITEM,
};
use engine::vocab::Class;
use proptest::prelude::*;

const LABELS: [&str; 2] = ["predict", "ask"];

/// One expert's state on an item: not submitted, or submitted with a blind
/// label and a current one (which differs when they revised after the reveal).
fn assignment(expert_id: i64) -> impl Strategy<Value = AssignmentRecord> {
    prop::option::of((0usize..2, 0usize..2)).prop_map(move |labels| AssignmentRecord {
        expert_id,
        expert: format!("expert-{expert_id}"),
        label: labels.map(|(_, label)| LABELS[label].to_owned()),
        comment: labels.map(|_| format!("comment of {expert_id}")),
        blind_label: labels.map(|(blind, _)| LABELS[blind].to_owned()),
        submitted_at: labels.map(|_| "2026-01-01T00:00:00Z".to_owned()),
        draft: Some(format!("draft of {expert_id}")),
        ..Default::default()
    })
}

/// An LCA judge-verdict item with up to four experts among accounts 1 to 6.
fn item(id: i64) -> impl Strategy<Value = ItemRecord> {
    (
        prop::collection::btree_set(1i64..7, 0..5),
        any::<bool>(),
        0usize..2,
    )
        .prop_flat_map(move |(experts, is_final, judge)| {
            let assignments: Vec<_> = experts.into_iter().map(assignment).collect();
            (assignments, Just(is_final), Just(judge))
        })
        .prop_map(move |(assignments, is_final, judge)| {
            let mut item = ItemRecord::new(id, ReviewKind::JudgeVerdict, "LP-0001");
            item.task = Some(Task::Lca);
            item.judge_label = Some(LABELS[judge].to_owned());
            item.final_label = is_final.then(|| LABELS[judge].to_owned());
            item.assignments = assignments;
            item
        })
}

fn items() -> impl Strategy<Value = Vec<ItemRecord>> {
    (0usize..12).prop_flat_map(|n| (1..=n as i64).map(item).collect::<Vec<_>>())
}

/// A viewer among accounts 1 to 7: an expert (designated to adjudicate or
/// not), an admin or a researcher.
fn viewer() -> impl Strategy<Value = Viewer> {
    (
        1i64..8,
        prop::sample::select(vec![Role::Expert, Role::Admin, Role::Researcher]),
        any::<bool>(),
    )
        .prop_map(|(id, role, adjudicator)| Viewer {
            id,
            standing: Standing { role, adjudicator },
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn no_viewer_sees_another_label_before_submitting(item in item(1), viewer in viewer()) {
        let mine = item.assignment(viewer.id);
        let submitted = mine.is_some_and(AssignmentRecord::submitted);
        match item.visibility(&viewer) {
            None => {
                prop_assert!(mine.is_none());
                prop_assert!(!item.sees_all(&viewer));
            }
            Some(seen) => {
                prop_assert_eq!(seen.assigned, mine.is_some());
                if mine.is_some() && !submitted {
                    // Blind, whatever the viewer's role.
                    prop_assert_eq!(&seen.revealed, &None);
                    prop_assert_eq!(seen.status, ItemStatus::Todo);
                    prop_assert!(!item.counts_for(&viewer));
                }
                if let Some(revealed) = seen.revealed {
                    prop_assert!(submitted || viewer.may_adjudicate());
                    let own = format!("expert-{}", viewer.id);
                    prop_assert!(revealed.others.iter().all(|s| s.expert != own));
                }
                prop_assert_eq!(seen.mine.is_some(), submitted);
                prop_assert_eq!(seen.draft.is_some(), mine.is_some());
            }
        }
    }

    #[test]
    fn the_status_follows_the_submissions(item in item(1)) {
        let submitted = item.assignments.iter().filter(|a| a.submitted()).count();
        let status = item.status();
        prop_assert_eq!(status == ItemStatus::Final, item.final_label.is_some());
        if status == ItemStatus::Adjudication {
            prop_assert!(submitted == item.assignments.len());
            prop_assert!(item.assignments.len() >= EXPERTS_PER_ITEM);
        }
        if status == ItemStatus::Todo {
            prop_assert_eq!(submitted, 0);
        }
        for a in &item.assignments {
            let seen = item.status_for(a.expert_id);
            prop_assert_eq!(seen, Some(if a.submitted() { status } else { ItemStatus::Todo }));
        }
    }

    #[test]
    fn revisions_after_the_reveal_never_change_the_agreement(item in item(1), revised in prop::collection::vec(0usize..2, 5)) {
        let agreement = item.blind_agreement();
        let mut changed = item.clone();
        for (a, &label) in changed.assignments.iter_mut().zip(&revised) {
            if a.submitted() {
                a.label = Some(LABELS[label].to_owned());
            }
        }
        prop_assert_eq!(changed.blind_agreement(), agreement.clone());
        if let Some(agreed) = agreement {
            prop_assert!(item.assignments.iter().all(|a| a.blind_label.as_deref() == Some(agreed.label.as_str())));
        }
    }

    #[test]
    fn auto_assignment_fills_open_items_without_repeats(items in items(), pool in prop::collection::btree_set(1i64..7, 0..6)) {
        let pool: Vec<i64> = pool.into_iter().collect();
        let Ok(pairs) = auto_assignments(&items, &pool) else {
            prop_assert!(pool.len() < EXPERTS_PER_ITEM);
            return Ok(());
        };
        let mut experts: BTreeMap<i64, BTreeSet<i64>> = items
            .iter()
            .map(|i| (i.id, i.assignments.iter().map(|a| a.expert_id).collect()))
            .collect();
        for &(item_id, expert) in &pairs {
            prop_assert!(pool.contains(&expert));
            let have = experts.get_mut(&item_id).expect("an item given");
            prop_assert!(have.insert(expert), "expert {} twice on item {}", expert, item_id);
        }
        for item in &items {
            let have = &experts[&item.id];
            if item.final_label.is_some() {
                prop_assert_eq!(have.len(), item.assignments.len(), "final items take no experts");
            } else {
                prop_assert!(have.len() >= EXPERTS_PER_ITEM);
            }
        }
    }

    #[test]
    fn balanced_from_scratch_the_loads_differ_by_at_most_one(n in 0i64..20, pool in prop::collection::btree_set(1i64..9, 2..8)) {
        let items: Vec<ItemRecord> = (1..=n)
            .map(|id| ItemRecord::new(id, ReviewKind::CaseCheck, "LP-0001"))
            .collect();
        let pool: Vec<i64> = pool.into_iter().collect();
        let pairs = auto_assignments(&items, &pool).expect("enough experts");
        prop_assert_eq!(pairs.len(), items.len() * EXPERTS_PER_ITEM);
        let mut load: BTreeMap<i64, usize> = pool.iter().map(|&e| (e, 0)).collect();
        for (_, expert) in pairs {
            *load.get_mut(&expert).expect("from the pool") += 1;
        }
        let (low, high) = (load.values().min(), load.values().max());
        prop_assert!(high.zip(low).is_some_and(|(h, l)| h - l <= 1), "{:?}", load);
    }

    #[test]
    fn an_experts_dashboard_counts_only_what_they_submitted(items in items(), viewer in viewer()) {
        let board = Dashboard::of(&viewer, &items, |_| Some(Class::Family));
        let counted = items.iter().filter(|i| i.counts_for(&viewer)).count();
        let n_items = board.rows.first().map_or(0, |r| r.n_items);
        prop_assert_eq!(n_items, counted);
        if !viewer.may_adjudicate() {
            let submitted = items
                .iter()
                .filter(|i| i.assignment(viewer.id).is_some_and(AssignmentRecord::submitted))
                .count();
            prop_assert_eq!(counted, submitted);
            prop_assert!(board.disagreements.is_empty());
        }
        prop_assert_eq!(board.items, items.len());
        let assigned: usize = board.progress.iter().map(|p| p.assigned).sum();
        prop_assert_eq!(assigned, items.iter().map(|i| i.assignments.len()).sum::<usize>());
        let queued = queue(&items, viewer.id).len();
        prop_assert_eq!(queued, items.iter().filter(|i| i.assignment(viewer.id).is_some()).count());
    }
}
