//! `engine::agreement` against scikit-learn's `cohen_kappa_score` and
//! statsmodels' `fleiss_kappa` on the generated cases of
//! `fixtures/agreement/reference.json` (written by
//! `engine/fixtures-scripts/make_agreement_fixtures.py`; null = undefined =
//! `None`), and property tests of the report.

use engine::agreement::{
    agreement_report, parse_annotations, AgreementReport, Annotation, PairAgreement,
};
use proptest::prelude::*;
use serde::Deserialize;

const FIXTURE: &str = include_str!("fixtures/agreement/reference.json");
const TOLERANCE: f64 = 1e-12;

#[derive(Deserialize)]
struct Fixture {
    sklearn_version: String,
    statsmodels_version: String,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    ordinal: Option<Vec<String>>,
    annotations: Vec<Annotation>,
    expected: AgreementReport,
}

fn fixture() -> Fixture {
    serde_json::from_str(FIXTURE).expect("the agreement fixture parses")
}

#[track_caller]
fn assert_close(got: Option<f64>, want: Option<f64>, what: &str) {
    match (got, want) {
        (Some(g), Some(w)) => assert!((g - w).abs() < TOLERANCE, "{what}: got {g}, reference {w}"),
        _ => assert_eq!(got, want, "{what}"),
    }
}

#[track_caller]
/// How many items every annotator of `annotations` labelled (what Fleiss'
/// kappa is computed over).
fn items_all_labelled(annotations: &[Annotation]) -> usize {
    use std::collections::{BTreeMap, BTreeSet};
    let everyone: BTreeSet<&str> = annotations.iter().map(|a| a.annotator.as_str()).collect();
    let mut by_item: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for a in annotations {
        by_item.entry(&a.item).or_default().insert(&a.annotator);
    }
    by_item.values().filter(|who| **who == everyone).count()
}

fn assert_report(got: &AgreementReport, want: &AgreementReport, name: &str, shared: usize) {
    let names = |pairs: &[PairAgreement]| -> Vec<(String, String, usize)> {
        pairs
            .iter()
            .map(|p| (p.a.clone(), p.b.clone(), p.n))
            .collect()
    };
    assert_eq!(names(&got.pairs), names(&want.pairs), "{name}");
    for (g, w) in got.pairs.iter().zip(&want.pairs) {
        let what = format!("{name}, {} / {}", g.a, g.b);
        assert_close(g.agreement, w.agreement, &format!("{what}, agreement"));
        // A kappa over fewer than two items says nothing, so it is left
        // empty (shown as "—") where scikit-learn gives a number.
        let want_kappa = if w.n < 2 { None } else { w.kappa };
        assert_close(g.kappa, want_kappa, &format!("{what}, kappa"));
        let want_qwk = if w.n < 2 { None } else { w.qwk };
        assert_close(g.qwk, want_qwk, &format!("{what}, qwk"));
    }
    let want_fleiss = if shared < 2 { None } else { want.fleiss_kappa };
    assert_close(got.fleiss_kappa, want_fleiss, &format!("{name}, Fleiss"));
}

#[test]
fn the_fixture_covers_the_edge_cases() {
    let f = fixture();
    assert!(!f.sklearn_version.is_empty() && !f.statsmodels_version.is_empty());
    assert!(f.cases.len() >= 40, "{}", f.cases.len());
    let reports: Vec<&AgreementReport> = f.cases.iter().map(|c| &c.expected).collect();
    assert!(reports.iter().any(|r| r.pairs.is_empty()), "one annotator");
    assert!(
        reports.iter().any(|r| r.pairs.iter().any(|p| p.n == 0)),
        "n = 0"
    );
    assert!(
        reports
            .iter()
            .any(|r| r.pairs.iter().any(|p| p.n > 0 && p.kappa.is_none())),
        "kappa undefined"
    );
    assert!(
        reports.iter().any(|r| r.pairs.len() == 10),
        "five annotators"
    );
    assert!(
        f.cases.iter().any(|c| c.ordinal.is_some()),
        "ordinal labels"
    );
}

#[test]
fn reports_match_sklearn_and_statsmodels() {
    for case in fixture().cases {
        let got = agreement_report(&case.annotations, case.ordinal.as_deref())
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_report(
            &got,
            &case.expected,
            &case.name,
            items_all_labelled(&case.annotations),
        );
    }
}

#[test]
fn the_json_lines_form_reads_back_the_same_annotations() {
    for case in fixture().cases {
        let text: String = case
            .annotations
            .iter()
            .map(|a| serde_json::to_string(a).expect("an annotation serialises") + "\n")
            .collect();
        let parsed = parse_annotations(&text, case.ordinal.as_deref())
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(parsed, case.annotations, "{}", case.name);
    }
}

#[test]
fn the_json_shape_is_exact() {
    let case = fixture()
        .cases
        .into_iter()
        .find(|c| c.name == "no annotator in common: n = 0")
        .expect("the n = 0 case");
    let report = agreement_report(&case.annotations, None).expect("a report");
    assert_eq!(
        serde_json::to_value(&report).expect("serialises"),
        serde_json::json!({
            "pairs": [{"a": "专家乙", "b": "专家甲", "n": 0,
                       "agreement": null, "kappa": null, "qwk": null}],
            "fleiss_kappa": null
        })
    );
}

/// Annotations of up to 5 annotators on up to 40 items over 3 labels, each
/// (item, annotator) labelled at most once, in a generated order.
fn annotations() -> impl Strategy<Value = Vec<Annotation>> {
    let cell = prop::option::weighted(0.8, 0usize..3);
    (1usize..=5, 1usize..=40)
        .prop_flat_map(move |(annotators, items)| {
            prop::collection::vec(cell.clone(), annotators * items).prop_map(move |cells| {
                cells
                    .into_iter()
                    .enumerate()
                    .filter_map(|(k, label)| {
                        Some(Annotation {
                            item: format!("案件-{}", k / annotators),
                            annotator: format!("专家{}", k % annotators),
                            label: ["supported", "partially_supported", "dismissed"][label?]
                                .to_owned(),
                        })
                    })
                    .collect::<Vec<_>>()
            })
        })
        .prop_shuffle()
}

fn verdicts() -> Vec<String> {
    ["supported", "partially_supported", "dismissed"]
        .map(String::from)
        .to_vec()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn kappas_are_at_most_one_and_agreement_is_a_share(annotations in annotations()) {
        let report = agreement_report(&annotations, Some(&verdicts())).unwrap();
        for pair in &report.pairs {
            prop_assert!(pair.a < pair.b);
            if let Some(agreement) = pair.agreement {
                prop_assert!((0.0..=1.0).contains(&agreement));
            }
            prop_assert_eq!(pair.agreement.is_none(), pair.n == 0);
            for kappa in [pair.kappa, pair.qwk].into_iter().flatten() {
                prop_assert!((-1.0 - 1e-12..=1.0 + 1e-12).contains(&kappa), "{}", kappa);
            }
            // Perfect agreement gives kappa 1 wherever kappa is defined.
            if pair.agreement == Some(1.0) {
                prop_assert!(pair.kappa.is_none() || pair.kappa == Some(1.0));
            }
        }
        if let Some(fleiss) = report.fleiss_kappa {
            prop_assert!(fleiss <= 1.0 + 1e-12);
        }
    }

    #[test]
    fn the_order_of_annotations_does_not_matter(
        annotations in annotations(),
        rotation in 0usize..100,
    ) {
        let mut rotated = annotations.clone();
        let k = rotation % rotated.len().max(1);
        rotated.rotate_left(k);
        rotated.reverse();
        let ordinal = verdicts();
        prop_assert_eq!(
            agreement_report(&annotations, Some(&ordinal)).unwrap(),
            agreement_report(&rotated, Some(&ordinal)).unwrap()
        );
    }

    #[test]
    fn swapping_the_names_of_two_annotators_swaps_nothing_else(annotations in annotations()) {
        // Renaming reverses the byte order of 专家0 and 专家1: each pair's
        // values must not depend on which annotator is `a`.
        let renamed: Vec<Annotation> = annotations
            .iter()
            .map(|a| Annotation {
                annotator: match a.annotator.as_str() {
                    "专家0" => "专家1".to_owned(),
                    "专家1" => "专家0".to_owned(),
                    other => other.to_owned(),
                },
                ..a.clone()
            })
            .collect();
        let ordinal = verdicts();
        let before = agreement_report(&annotations, Some(&ordinal)).unwrap();
        let after = agreement_report(&renamed, Some(&ordinal)).unwrap();
        fn swap(name: &str) -> &str {
            match name {
                "专家0" => "专家1",
                "专家1" => "专家0",
                other => other,
            }
        }
        for pair in &before.pairs {
            let (a, b) = (swap(&pair.a), swap(&pair.b));
            let (a, b) = if a < b { (a, b) } else { (b, a) };
            let twin = after.pairs.iter().find(|p| p.a == a && p.b == b).unwrap();
            prop_assert_eq!(
                (pair.n, pair.agreement, pair.kappa, pair.qwk),
                (twin.n, twin.agreement, twin.kappa, twin.qwk)
            );
        }
        prop_assert_eq!(before.fleiss_kappa, after.fleiss_kappa);
    }

    #[test]
    fn the_labels_can_be_renamed_without_changing_kappa(annotations in annotations()) {
        // Plain kappa, agreement and Fleiss' kappa ignore what labels are called.
        let renamed: Vec<Annotation> = annotations
            .iter()
            .map(|a| {
                let label = match a.label.as_str() {
                    "supported" => "支持",
                    "partially_supported" => "部分支持",
                    _ => "驳回",
                };
                Annotation { label: label.to_owned(), ..a.clone() }
            })
            .collect();
        let before = agreement_report(&annotations, None).unwrap();
        let after = agreement_report(&renamed, None).unwrap();
        for (x, y) in before.pairs.iter().zip(&after.pairs) {
            prop_assert_eq!((x.n, x.agreement, x.kappa), (y.n, y.agreement, y.kappa));
        }
        prop_assert_eq!(before.fleiss_kappa, after.fleiss_kappa);
    }
}
