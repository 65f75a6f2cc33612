//! Invariants of PLawBench scoring, prompts and storage, as property tests.

use engine::core::panel::{aggregate, Aggregation};
use engine::plawbench::dataset::{parse_dataset, to_jsonl, Item, Section, Task};
use engine::plawbench::json::{python_dumps, python_float_repr, OrderedJson};
use engine::plawbench::judge::parse_judge_reply;
use engine::plawbench::run::{parse_run, Awarded, ParseMode, Run};
use engine::plawbench::score::{judge_score, score_run, Metric, RunScores};
use engine::plawbench::synthetic::{dataset_file, run_file};
use proptest::prelude::*;

const SMALL: [(Task, usize); 4] = [
    (Task::CaseAnalysis, 6),
    (Task::LegalConsultation, 3),
    (Task::PlaintiffStatement, 2),
    (Task::DefendantStatement, 2),
];

fn case_item(points: &[(Section, u32)]) -> Item {
    let sections: Vec<String> = points
        .iter()
        .map(|(s, p)| {
            format!(
                r#"{{"criterion": "c", "points": "{p}", "tags": "{}"}}"#,
                s.tag()
            )
        })
        .collect();
    let total: u32 = points.iter().map(|(_, p)| p).sum();
    let line = format!(
        r#"{{"item_id": "case_analysis-1", "task": "case_analysis", "context": "c", "question": "q", "sections": [{}], "max_points": {total}}}"#,
        sections.join(", ")
    );
    parse_dataset(&line)
        .unwrap_or_else(|e| panic!("{e}"))
        .remove(0)
}

fn sections() -> impl Strategy<Value = Vec<(Section, u32)>> {
    proptest::sample::subsequence(Section::ALL.to_vec(), 1..=4)
        .prop_flat_map(|chosen| {
            let n = chosen.len();
            (Just(chosen), proptest::collection::vec(1u32..100, n))
        })
        .prop_map(|(chosen, points)| chosen.into_iter().zip(points).collect())
}

fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 1e-12,
        (None, None) => true,
        _ => false,
    }
}

fn every_metric(scores: &RunScores) -> Vec<Option<f64>> {
    let mut values: Vec<Option<f64>> = Metric::ALL.iter().map(|&m| scores.metric(m)).collect();
    values.extend(scores.by_category.values().map(|c| c.acc));
    values
}

/// Equal values, floats within one part in 10¹⁵.
fn same(a: &OrderedJson, b: &OrderedJson) -> bool {
    match (a, b) {
        (OrderedJson::Number(x), OrderedJson::Number(y)) if x.is_f64() || y.is_f64() => {
            match (x.as_f64(), y.as_f64()) {
                (Some(x), Some(y)) => (x - y).abs() <= 1e-15 * x.abs().max(y.abs()),
                _ => false,
            }
        }
        (OrderedJson::Array(x), OrderedJson::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (OrderedJson::Object(x), OrderedJson::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, a), (kb, b))| ka == kb && same(a, b))
        }
        (a, b) => a == b,
    }
}

fn json_value() -> impl Strategy<Value = OrderedJson> {
    let leaf = prop_oneof![
        Just(OrderedJson::Null),
        any::<bool>().prop_map(OrderedJson::Bool),
        any::<i64>().prop_map(|n| OrderedJson::Number(n.into())),
        (-1e20f64..1e20).prop_map(
            |x| serde_json::Number::from_f64(x).map_or(OrderedJson::Null, OrderedJson::Number)
        ),
        "[\\PC\\u{0}-\\u{1f}\"\\\\]{0,12}".prop_map(OrderedJson::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(OrderedJson::Array),
            proptest::collection::vec(("[a-z结论]{1,4}", inner), 0..4).prop_map(|members| {
                let mut seen = std::collections::HashSet::new();
                OrderedJson::Object(
                    members
                        .into_iter()
                        .filter(|(k, _)| seen.insert(k.clone()))
                        .collect(),
                )
            }),
        ]
    })
}

proptest! {
    #[test]
    fn judge_scores_lie_in_the_unit_interval(
        points in sections(),
        raw in proptest::collection::vec(-1e6f64..1e6, 4),
    ) {
        let item = case_item(&points);
        let awarded = Awarded::Sections(points.iter().zip(&raw).map(|((s, _), &r)| (*s, r)).collect());
        let score = judge_score(&item, &awarded).expect("fits the item");
        prop_assert!((0.0..=1.0).contains(&score.acc));
        let (lo, hi) = score.sections.values().fold((1.0f64, 0.0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        prop_assert!(score.sections.values().all(|x| (0.0..=1.0).contains(x)));
        // Pooled over sections, acc is a weighted mean of the section accs.
        prop_assert!(lo - 1e-12 <= score.acc && score.acc <= hi + 1e-12);
    }

    #[test]
    fn a_panel_does_not_depend_on_the_order_of_its_judges(
        values in proptest::collection::vec(0.0f64..=1.0, 1..6).prop_shuffle(),
        median in any::<bool>(),
    ) {
        let how = if median { Aggregation::Median } else { Aggregation::Mean };
        let mut sorted = values.clone();
        sorted.sort_by(f64::total_cmp);
        let a = aggregate(&values, how).expect("a value");
        let b = aggregate(&sorted, how).expect("a value");
        prop_assert!((a - b).abs() <= 1e-12);
        prop_assert!(sorted[0] <= a + 1e-12 && a <= sorted[sorted.len() - 1] + 1e-12);
    }

    #[test]
    fn run_scores_do_not_depend_on_item_order(seed in any::<u64>(), judges in 1usize..4, order in Just((0..13).collect::<Vec<usize>>()).prop_shuffle()) {
        let dataset = parse_dataset(&dataset_file(&SMALL, seed)).expect("valid");
        let run = parse_run(&run_file(&dataset, "M", 1, judges, seed), &dataset).expect("valid");
        let shuffled = Run { items: order.iter().map(|&i| run.items[i].clone()).collect(), ..run.clone() };
        let (a, b) = (score_run(&run, &dataset), score_run(&shuffled, &dataset));
        for (x, y) in every_metric(&a).into_iter().zip(every_metric(&b)) {
            prop_assert!(close(x, y), "{x:?} vs {y:?}");
            prop_assert!(x.is_none_or(|x| (0.0..=1.0).contains(&x)));
        }
        prop_assert_eq!(a.tasks.values().map(|t| t.unavailable).sum::<usize>(), b.tasks.values().map(|t| t.unavailable).sum::<usize>());
    }

    #[test]
    fn stored_runs_and_datasets_read_back_equal(seed in any::<u64>(), judges in 1usize..4) {
        let dataset = parse_dataset(&dataset_file(&SMALL, seed)).expect("valid");
        prop_assert_eq!(&parse_dataset(&to_jsonl(&dataset)).expect("valid"), &dataset);
        let run = parse_run(&run_file(&dataset, "M", 2, judges, seed), &dataset).expect("valid");
        let stored = run.to_stored();
        prop_assert_eq!(&Run::read_stored(&stored).expect("stored"), &run);
        prop_assert_eq!(&parse_run(&stored, &dataset).expect("valid"), &run);
    }

    #[test]
    fn python_dumps_reads_back_as_the_same_value(value in json_value()) {
        let text = python_dumps(&value);
        let back: OrderedJson = serde_json::from_str(&text).expect("valid JSON");
        // serde_json's default float parser may miss by one ulp; the digits
        // themselves are checked exactly below.
        prop_assert!(same(&back, &value), "{back:?} vs {value:?}");
    }

    #[test]
    fn float_repr_reads_back_exactly(x in any::<f64>().prop_filter("finite", |x| x.is_finite())) {
        let repr = python_float_repr(x);
        prop_assert_eq!(repr.parse::<f64>().ok(), Some(x), "{}", repr);
        prop_assert!(repr.contains(['.', 'e']) || repr == "0.0", "{}", repr);
    }

    #[test]
    fn a_clean_reply_reads_the_same_in_both_modes(
        total in -50i32..200,
        prose in "[^{}\"]{0,40}",
        after in "[^{}\"]{0,40}",
    ) {
        let item = parse_dataset(r#"{"item_id": "x", "task": "plaintiff_statement", "question": "q", "rubric": "r", "max_points": 100}"#)
            .expect("valid").remove(0);
        let reply = format!("{prose}\n```json\n{{\"total_points\": {total}, \"max_points\": 100}}\n```{after}");
        for mode in [ParseMode::Strict, ParseMode::Lenient] {
            let parsed = parse_judge_reply(&reply, &item, mode).expect("readable");
            prop_assert_eq!(parsed.awarded, Awarded::Points(f64::from(total)));
        }
    }
}
