//! Property tests of `engine::review`: flag offsets, stratified sampling and
//! case diffs, on many generated inputs.

use std::collections::{BTreeMap, BTreeSet};

use engine::core::dialogue::Turn;
use engine::lexpilot::dataset::{parse_case, Case};
use engine::review::{diff_cases, flag_spans, sample_stratified, EditOp, FieldChange};
use engine::vocab::{Consultation, Role};
use proptest::prelude::*;

/// A valid case whose turn texts are replaced by the tests.
fn case() -> Case {
    parse_case(
        r#"{"case_id": "LP-0009", "cause": "劳动合同纠纷", "class": "service_contract",
          "plaintiff_type": "natural",
          "claims": [{"id": "c1", "text": "判令被告支付工资", "verdict": "supported"}],
          "focal_points": [{"id": "f1", "text": "是否拖欠工资", "type": "factual_conduct"}],
          "key_facts": [{"id": "k1", "focal_point": "f1", "text": "公司拖欠三个月工资"}],
          "missing_facts": ["k1"],
          "consultations": {
            "complete": [{"role": "user", "content": "公司拖欠三个月工资。"}],
            "underspecified": [{"role": "user", "content": "公司不发工资。"}]}}"#,
        1,
    )
    .expect("a valid case")
}

/// Text mixing Chinese, digits (ASCII and full-width), separators, letters,
/// plate provinces and characters outside the Basic Multilingual Plane.
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "1",
            "3",
            "8",
            "0",
            "9",
            "X",
            "x",
            "-",
            " ",
            "１",
            "３",
            "粤",
            "B",
            "A",
            "·",
            "公司",
            "拖欠",
            "工资",
            "三个月",
            "😀",
            "é",
            "，",
            "电话",
            "6222",
        ]),
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

fn with_turns(complete: &str, underspecified: &str) -> Case {
    let mut c = case();
    c.consultations.complete[0].content = complete.to_owned();
    c.consultations.underspecified[0].content = underspecified.to_owned();
    c
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn flag_offsets_are_characters_of_their_turn(complete in text(), underspecified in text()) {
        let case = with_turns(&complete, &underspecified);
        let flags = flag_spans(&case);
        for flag in &flags {
            let turn = &case.turns(flag.consultation)[flag.turn].content;
            prop_assert!(flag.start_char < flag.end_char);
            let chars: String = turn
                .chars()
                .skip(flag.start_char)
                .take(flag.end_char - flag.start_char)
                .collect();
            prop_assert_eq!(&chars, &flag.text);
        }
        let mut sorted = flags.clone();
        sorted.sort_by_key(|f| (f.consultation, f.turn, f.start_char, f.end_char, f.kind));
        prop_assert_eq!(sorted, flags);
    }

    #[test]
    fn missing_fact_text_is_always_found(prefix in text(), suffix in text()) {
        let case = with_turns("公司拖欠三个月工资。", &format!("{prefix}公司拖欠三个月工资{suffix}"));
        let found = flag_spans(&case).into_iter().any(|f| {
            f.consultation == Consultation::Underspecified
                && f.key_fact.as_deref() == Some("k1")
                && f.text == "公司拖欠三个月工资"
        });
        prop_assert!(found);
    }

    #[test]
    fn samples_are_stratified_capped_and_reproducible(
        items in prop::collection::vec((0u8..6, 0u16..60), 0..300),
        per_model in 0usize..12,
        cap in 0usize..80,
        seed in any::<u64>(),
    ) {
        let sample = sample_stratified(&items, per_model, cap, seed);
        let distinct: BTreeSet<(u8, u16)> = items.iter().copied().collect();
        let mut available: BTreeMap<u8, usize> = BTreeMap::new();
        for (model, _) in &distinct {
            *available.entry(*model).or_default() += 1;
        }
        let wanted: usize = available.values().map(|&n| n.min(per_model)).sum();
        prop_assert_eq!(sample.len(), wanted.min(cap));
        let mut per: BTreeMap<u8, usize> = BTreeMap::new();
        for pair in &sample {
            prop_assert!(distinct.contains(pair));
            *per.entry(pair.0).or_default() += 1;
        }
        prop_assert!(per.values().all(|&n| n <= per_model));
        // Dealt round by round: a model that could give more is at most one
        // place behind any other.
        let share = |m: &u8| per.get(m).copied().unwrap_or(0);
        let most = per.values().copied().max().unwrap_or(0);
        for (model, &n) in &available {
            if share(model) < n.min(per_model) {
                prop_assert!(most <= share(model) + 1, "{:?}", per);
            }
        }
        let mut sorted = sample.clone();
        sorted.sort();
        prop_assert_eq!(&sorted, &sample);
        let mut reversed = items.clone();
        reversed.reverse();
        prop_assert_eq!(sample_stratified(&reversed, per_model, cap, seed), sample);
    }

    #[test]
    fn turn_edits_rebuild_both_texts(old in text(), new in text()) {
        prop_assume!(!old.trim().is_empty() && !new.trim().is_empty());
        let before = with_turns("公司拖欠三个月工资。", &old);
        let after = with_turns("公司拖欠三个月工资。", &new);
        let changes = diff_cases(&before, &after);
        if old == new {
            prop_assert!(changes.is_empty());
        } else {
            prop_assert_eq!(changes.len(), 1);
            let FieldChange::TurnEdited { edits, old_role, new_role, .. } = &changes[0] else {
                return Err(TestCaseError::fail(format!("{changes:?}")));
            };
            prop_assert_eq!((*old_role, *new_role), (Role::User, Role::User));
            let side = |keep: EditOp| -> String {
                edits
                    .iter()
                    .filter(|e| e.op == EditOp::Equal || e.op == keep)
                    .map(|e| e.text.as_str())
                    .collect()
            };
            prop_assert_eq!(side(EditOp::Delete), old);
            prop_assert_eq!(side(EditOp::Insert), new);
            // Stretches of one kind are joined.
            prop_assert!(edits.windows(2).all(|w| w[0].op != w[1].op));
        }
    }

    #[test]
    fn added_turns_are_listed_in_order(extra in prop::collection::vec(text(), 1..5)) {
        let before = case();
        let mut after = case();
        for (i, content) in extra.iter().enumerate() {
            let role = if i % 2 == 0 { Role::Assistant } else { Role::User };
            after.consultations.complete.push(Turn { role, content: content.clone() });
        }
        let changes = diff_cases(&before, &after);
        let added: Vec<usize> = changes
            .iter()
            .filter_map(|c| match c {
                FieldChange::TurnAdded { turn, consultation: Consultation::Complete, .. } => Some(*turn),
                _ => None,
            })
            .collect();
        prop_assert_eq!(added, (1..=extra.len()).collect::<Vec<_>>());
        prop_assert_eq!(changes.len(), extra.len());
    }
}
