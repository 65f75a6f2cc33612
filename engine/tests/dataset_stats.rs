//! Dataset statistics on hand-made datasets with hand-computed figures.

use engine::lexpilot::dataset::{parse_dataset, Case};
use engine::lexpilot::stats::{dataset_stats, ClassStats, VerdictShares};
use engine::vocab::{Class, FocalPointType, Verdict};
use serde_json::json;

/// The parts of a case that statistics look at.
struct Spec<'a> {
    id: &'a str,
    cause: &'a str,
    class: &'a str,
    plaintiff: &'a str,
    complete: &'a [&'a str],
    underspecified: &'a [&'a str],
    verdicts: &'a [&'a str],
    focal_types: &'a [&'a str],
    seed: bool,
}

fn turns(contents: &[&str]) -> serde_json::Value {
    let roles = ["user", "assistant"];
    contents
        .iter()
        .enumerate()
        .map(|(i, c)| json!({"role": roles[i % 2], "content": c}))
        .collect()
}

fn build(specs: &[Spec]) -> Vec<Case> {
    let text: String = specs
        .iter()
        .map(|s| {
            let claims: Vec<_> = s
                .verdicts
                .iter()
                .enumerate()
                .map(|(i, v)| json!({"id": format!("c{i}"), "text": "请求", "verdict": v}))
                .collect();
            let focal_points: Vec<_> = s
                .focal_types
                .iter()
                .enumerate()
                .map(|(i, t)| json!({"id": format!("f{i}"), "text": "焦点", "type": t}))
                .collect();
            let line = json!({
                "case_id": s.id, "cause": s.cause, "class": s.class, "plaintiff_type": s.plaintiff,
                "claims": claims, "focal_points": focal_points, "key_facts": [], "missing_facts": [],
                "consultations": {"complete": turns(s.complete), "underspecified": turns(s.underspecified)},
                "seed": s.seed,
            });
            format!("{line}\n")
        })
        .collect();
    parse_dataset(&text).expect("a valid dataset")
}

fn three_cases() -> Vec<Case> {
    build(&[
        Spec {
            id: "A",
            cause: "离婚纠纷",
            class: "family",
            plaintiff: "natural",
            complete: &["你好吗", "ab", "c"], // 3 + 2 + 1 = 6 chars
            underspecified: &["你好", "a", "b"], // 2 + 1 + 1 = 4
            verdicts: &["supported", "dismissed"],
            focal_types: &["rights_allocation"],
            seed: true,
        },
        Spec {
            id: "B",
            cause: "抚养纠纷",
            class: "family",
            plaintiff: "non_natural",
            complete: &["一二三四五"],   // 5
            underspecified: &["一二三"], // 3
            verdicts: &["partially_supported"],
            focal_types: &["rights_allocation", "amount_assessment"],
            seed: false,
        },
        Spec {
            id: "C",
            cause: "名誉权纠纷",
            class: "tort",
            plaintiff: "natural",
            complete: &["我被骂了。", "谁骂的？", "邻居。"], // 5 + 4 + 3 = 12
            underspecified: &["我被骂了。", "谁骂的？", "不知道"], // 5 + 4 + 3 = 12
            verdicts: &["supported", "supported", "dismissed"],
            focal_types: &["liability_allocation"],
            seed: true,
        },
    ])
}

fn assert_close(actual: f64, expected: f64) {
    assert!((actual - expected).abs() < 1e-12, "{actual} != {expected}");
}

#[test]
fn overall_figures_of_three_cases() {
    let stats = dataset_stats(&three_cases());
    assert_eq!(stats.cases, 3);
    assert_eq!(
        (
            stats.consultations_total,
            stats.complete,
            stats.underspecified
        ),
        (6, 3, 3)
    );
    // (6 + 4 + 5 + 3 + 12 + 12) / 6 consultations
    assert_close(stats.avg_chars, 7.0);
    assert_close(stats.avg_chars_complete, 23.0 / 3.0);
    assert_close(stats.avg_chars_underspecified, 19.0 / 3.0);
    // (3 + 3 + 1 + 1 + 3 + 3) / 6
    assert_close(stats.avg_turns, 14.0 / 6.0);
    assert_eq!(stats.causes, 3);
    assert_eq!((stats.natural, stats.non_natural), (2, 1));
    assert_eq!(stats.claims, 6);
    assert_eq!(
        stats.verdicts,
        VerdictShares {
            supported: 3,
            partially_supported: 1,
            dismissed: 2
        }
    );
    let [(s, ps), (p, pp), (d, pd)] = stats.verdicts.percentages();
    assert_eq!(
        (s, p, d),
        (
            Verdict::Supported,
            Verdict::PartiallySupported,
            Verdict::Dismissed
        )
    );
    assert_close(ps, 50.0);
    assert_close(pp, 100.0 / 6.0);
    assert_close(pd, 100.0 / 3.0);
    assert_eq!(
        stats.focal_points_by_type,
        [
            (FocalPointType::SubjectIdentity, 0),
            (FocalPointType::RightsAllocation, 2),
            (FocalPointType::ContractValidity, 0),
            (FocalPointType::FactualConduct, 0),
            (FocalPointType::AmountAssessment, 1),
            (FocalPointType::LiabilityAllocation, 1),
            (FocalPointType::Other, 0),
        ]
    );
    assert_eq!(stats.seeds, 2);
}

#[test]
fn per_class_figures_of_three_cases() {
    let stats = dataset_stats(&three_cases());
    let classes: Vec<Class> = stats.by_class.iter().map(|c| c.class).collect();
    assert_eq!(classes, Class::ALL);

    assert_eq!(
        stats.by_class[0],
        ClassStats {
            class: Class::Family,
            cases: 2,
            causes: 2,
            avg_chars: 4.5, // (6 + 4 + 5 + 3) / 4
            avg_turns: 2.0, // (3 + 3 + 1 + 1) / 4
            natural: 1,
            non_natural: 1,
            claims: 3,
            verdicts: VerdictShares {
                supported: 1,
                partially_supported: 1,
                dismissed: 1
            },
        }
    );
    assert_eq!(
        stats.by_class[2],
        ClassStats {
            class: Class::Tort,
            cases: 1,
            causes: 1,
            avg_chars: 12.0,
            avg_turns: 3.0,
            natural: 1,
            non_natural: 0,
            claims: 3,
            verdicts: VerdictShares {
                supported: 2,
                partially_supported: 0,
                dismissed: 1
            },
        }
    );
    for empty in [1, 3, 4, 5] {
        let c = &stats.by_class[empty];
        assert_eq!((c.cases, c.causes, c.claims), (0, 0, 0), "{:?}", c.class);
        assert_eq!((c.avg_chars, c.avg_turns), (0.0, 0.0));
        assert_eq!(c.verdicts.percentages().map(|(_, p)| p), [0.0; 3]);
    }
}

#[test]
fn causes_are_counted_once() {
    let mut cases = three_cases();
    let mut again = cases[0].clone();
    again.case_id = "D".into();
    cases.push(again);
    let stats = dataset_stats(&cases);
    assert_eq!(stats.causes, 3);
    assert_eq!(stats.by_class[0].causes, 2);
    assert_eq!(stats.by_class[0].cases, 3);
}

#[test]
fn empty_input_gives_zeros() {
    let stats = dataset_stats(&[]);
    assert_eq!(
        (
            stats.cases,
            stats.consultations_total,
            stats.causes,
            stats.claims,
            stats.seeds
        ),
        (0, 0, 0, 0, 0)
    );
    for avg in [
        stats.avg_chars,
        stats.avg_chars_complete,
        stats.avg_chars_underspecified,
        stats.avg_turns,
    ] {
        assert_eq!(avg, 0.0);
    }
    assert_eq!(stats.verdicts.percentages().map(|(_, p)| p), [0.0; 3]);
    assert_eq!(stats.focal_points_by_type.len(), 7);
    assert!(stats.focal_points_by_type.iter().all(|(_, n)| *n == 0));
    assert_eq!(stats.by_class.len(), 6);
    assert!(stats
        .by_class
        .iter()
        .all(|c| c.cases == 0 && c.avg_chars == 0.0));
    // No NaN anywhere, so the figures serialise to JSON.
    assert!(serde_json::to_string(&stats).is_ok());
}

#[test]
fn contract_example_figures() {
    let cases =
        parse_dataset(include_str!("fixtures/contract-example/dataset.jsonl")).expect("valid");
    let stats = dataset_stats(&cases);
    assert_eq!((stats.cases, stats.causes, stats.seeds), (24, 24, 24));
    // Computed independently from the file: 6707 characters over 48
    // consultations, 204 turns.
    assert_close(stats.avg_chars, 6707.0 / 48.0);
    assert_close(stats.avg_turns, 204.0 / 48.0);
    assert_eq!((stats.natural, stats.non_natural), (18, 6));
    assert_eq!(
        stats.verdicts,
        VerdictShares {
            supported: 13,
            partially_supported: 15,
            dismissed: 16
        }
    );
    let per_class: Vec<usize> = stats.by_class.iter().map(|c| c.cases).collect();
    assert_eq!(per_class, [5, 8, 4, 7, 0, 0]);
}

#[test]
fn stats_serialise_and_read_back() {
    let stats = dataset_stats(&three_cases());
    let json = serde_json::to_string(&stats).expect("serialises");
    let back: engine::lexpilot::stats::DatasetStats =
        serde_json::from_str(&json).expect("deserialises");
    assert_eq!(back, stats);
}

#[test]
fn cases_per_province_most_first_then_by_name() {
    let mut cases = three_cases();
    let mut more = three_cases();
    for (case, province) in cases.iter_mut().chain(more.iter_mut()).zip([
        Some("湖南"),
        Some("广东"),
        Some("湖南"),
        Some(" "),
        None,
        Some("北京"),
    ]) {
        case.province = province.map(str::to_owned);
    }
    cases.extend(more);
    let stats = dataset_stats(&cases);
    // 湖南 twice; 北京 and 广东 once each, in name (code point) order.
    assert_eq!(
        stats.by_province,
        [
            ("湖南".to_owned(), 2),
            ("北京".to_owned(), 1),
            ("广东".to_owned(), 1)
        ]
    );
    assert_eq!(stats.province_unknown, 2, "a blank name counts as none");
}
