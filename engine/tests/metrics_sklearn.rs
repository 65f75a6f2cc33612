//! `engine::metrics` against scikit-learn and numpy on the generated cases of
//! `fixtures/metrics/sklearn_f1_qwk.json` (written by
//! `engine/fixtures-scripts/make_metric_fixtures.py`; null = undefined = `None`).

use engine::metrics::{
    cohen_kappa, lca_scores, linear_weighted_kappa, macro_f1, mean_std, quadratic_weighted_kappa,
    recall,
};
use serde::Deserialize;

const FIXTURE: &str = include_str!("fixtures/metrics/sklearn_f1_qwk.json");
const TOLERANCE: f64 = 1e-12;

#[derive(Deserialize)]
struct Fixture {
    sklearn_version: String,
    classification: Vec<ClassificationCase>,
    kappa: Vec<KappaCase>,
    mean_std: Vec<MeanStdCase>,
}

#[derive(Deserialize)]
struct ClassificationCase {
    name: String,
    n_classes: usize,
    truth: Vec<u8>,
    pred: Vec<u8>,
    macro_f1: f64,
    recall: Vec<Option<f64>>,
}

#[derive(Deserialize)]
struct KappaCase {
    name: String,
    truth: Vec<u8>,
    pred: Vec<u8>,
    kappa: Option<f64>,
    linear: Option<f64>,
    quadratic: Option<f64>,
}

#[derive(Deserialize)]
struct MeanStdCase {
    name: String,
    xs: Vec<f64>,
    mean: f64,
    std: Option<f64>,
}

fn fixture() -> Fixture {
    serde_json::from_str(FIXTURE).expect("the metrics fixture parses")
}

#[track_caller]
fn assert_close(got: Option<f64>, want: Option<f64>, what: &str) {
    match (got, want) {
        (Some(g), Some(w)) => assert!((g - w).abs() < TOLERANCE, "{what}: got {g}, sklearn {w}"),
        _ => assert_eq!(got, want, "{what}"),
    }
}

#[test]
fn the_fixture_covers_every_group() {
    let f = fixture();
    assert!(!f.sklearn_version.is_empty());
    assert!(f.classification.len() >= 20, "{}", f.classification.len());
    assert!(f.kappa.len() >= 20, "{}", f.kappa.len());
    assert!(f.mean_std.len() >= 10, "{}", f.mean_std.len());
}

#[test]
fn macro_f1_matches_sklearn_f1_score_macro() {
    for case in fixture().classification {
        let got = macro_f1(&case.truth, &case.pred, case.n_classes);
        assert_close(got, Some(case.macro_f1), &case.name);
    }
}

#[test]
fn recall_matches_sklearn_recall_score_per_class() {
    for case in fixture().classification {
        assert_eq!(case.recall.len(), case.n_classes, "{}", case.name);
        for (label, want) in (0..=u8::MAX).zip(&case.recall) {
            let got = recall(&case.truth, &case.pred, label);
            assert_close(got, *want, &format!("{}, label {label}", case.name));
        }
    }
}

#[test]
fn lca_scores_match_sklearn_on_the_binary_cases() {
    // LCA codes: 0 = complete, 1 = underspecified.
    for case in fixture()
        .classification
        .into_iter()
        .filter(|c| c.n_classes == 2)
    {
        let items: Vec<(bool, bool)> = case
            .truth
            .iter()
            .zip(&case.pred)
            .map(|(&t, &p)| (t == 0, p == 0))
            .collect();
        let scores = lca_scores(&items).expect("non-empty");
        assert_eq!(scores.n, case.truth.len());
        assert_close(Some(scores.macro_f1), Some(case.macro_f1), &case.name);
        assert_close(scores.acc_complete, case.recall[0], &case.name);
        assert_close(scores.acc_underspecified, case.recall[1], &case.name);
    }
}

#[test]
fn kappas_match_sklearn_cohen_kappa_score() {
    for case in fixture().kappa {
        let (t, p) = (&case.truth, &case.pred);
        assert_close(
            quadratic_weighted_kappa(t, p, 3),
            case.quadratic,
            &case.name,
        );
        assert_close(linear_weighted_kappa(t, p, 3), case.linear, &case.name);
        assert_close(cohen_kappa(t, p, 3), case.kappa, &case.name);
    }
}

#[test]
fn mean_std_matches_numpy_std_ddof_1() {
    for case in fixture().mean_std {
        let got = mean_std(&case.xs).expect("non-empty");
        assert_close(Some(got.mean), Some(case.mean), &case.name);
        assert_close(got.std, case.std, &case.name);
    }
}
