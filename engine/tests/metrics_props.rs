//! Property tests of `engine::metrics`: invariants that hold for every input,
//! checked on many generated ones.

use engine::metrics::{
    accuracy, bootstrap_ci, cohen_kappa, lca_scores, linear_weighted_kappa, macro_f1,
    macro_f1_over, mean_std, paired_bootstrap, quadratic_weighted_kappa, recall,
};
use proptest::prelude::*;

/// Paired verdict codes (0, 1, 2) of equal length, at least one.
fn verdict_pairs() -> impl Strategy<Value = (Vec<u8>, Vec<u8>)> {
    (1usize..300).prop_flat_map(|n| {
        (
            prop::collection::vec(0u8..3, n),
            prop::collection::vec(0u8..3, n),
        )
    })
}

/// Paired labels of `0..n_classes` with their `n_classes` (2 to 5).
fn labelled_pairs() -> impl Strategy<Value = (usize, Vec<u8>, Vec<u8>)> {
    (2usize..=5, 1usize..300).prop_flat_map(|(k, n)| {
        let label = 0..k as u8;
        (
            Just(k),
            prop::collection::vec(label.clone(), n),
            prop::collection::vec(label, n),
        )
    })
}

/// QWK by an independent route: with population moments of the codes,
/// κ = 2·s_xy / (s_x² + s_y² + (x̄ − ȳ)²) (quadratic weights on equally
/// spaced categories).
fn qwk_by_moments(truth: &[u8], pred: &[u8]) -> Option<f64> {
    let n = truth.len() as f64;
    let mean = |v: &[u8]| v.iter().map(|&x| f64::from(x)).sum::<f64>() / n;
    let (mx, my) = (mean(truth), mean(pred));
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    for (&x, &y) in truth.iter().zip(pred) {
        let (dx, dy) = (f64::from(x) - mx, f64::from(y) - my);
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
    }
    let denominator = (sxx + syy) / n + (mx - my).powi(2);
    (denominator > 1e-12).then(|| 2.0 * (sxy / n) / denominator)
}

fn mean_of(xs: &[f64], sample: &[usize]) -> Option<f64> {
    Some(sample.iter().map(|&i| xs[i]).sum::<f64>() / sample.len() as f64)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn qwk_of_identical_vectors_is_one_unless_all_equal(v in prop::collection::vec(0u8..3, 1..300)) {
        let all_equal = v.iter().all(|&x| x == v[0]);
        let expected = if all_equal { None } else { Some(1.0) };
        prop_assert_eq!(quadratic_weighted_kappa(&v, &v, 3), expected);
    }

    #[test]
    fn kappas_are_symmetric((a, b) in verdict_pairs()) {
        prop_assert_eq!(quadratic_weighted_kappa(&a, &b, 3), quadratic_weighted_kappa(&b, &a, 3));
        prop_assert_eq!(linear_weighted_kappa(&a, &b, 3), linear_weighted_kappa(&b, &a, 3));
        prop_assert_eq!(cohen_kappa(&a, &b, 3), cohen_kappa(&b, &a, 3));
    }

    #[test]
    fn qwk_lies_in_minus_one_to_one((a, b) in verdict_pairs()) {
        if let Some(k) = quadratic_weighted_kappa(&a, &b, 3) {
            prop_assert!((-1.0 - 1e-12..=1.0 + 1e-12).contains(&k), "{}", k);
        }
    }

    #[test]
    fn qwk_agrees_with_the_moment_formula((a, b) in verdict_pairs()) {
        let direct = quadratic_weighted_kappa(&a, &b, 3);
        prop_assert_eq!(direct.is_some(), qwk_by_moments(&a, &b).is_some());
        if let (Some(k), Some(m)) = (direct, qwk_by_moments(&a, &b)) {
            prop_assert!((k - m).abs() < 1e-9, "{} vs {}", k, m);
        }
    }

    #[test]
    fn macro_f1_lies_in_zero_to_one((k, t, p) in labelled_pairs()) {
        let f1 = macro_f1(&t, &p, k).unwrap();
        prop_assert!((0.0..=1.0).contains(&f1), "{}", f1);
        for label in 0..k as u8 {
            if let Some(r) = recall(&t, &p, label) {
                prop_assert!((0.0..=1.0).contains(&r), "{}", r);
            }
        }
    }

    #[test]
    fn macro_f1_of_identical_vectors_is_the_share_of_labels_present(
        (k, t, _) in labelled_pairs()
    ) {
        let present = (0..k as u8).filter(|l| t.contains(l)).count();
        let f1 = macro_f1(&t, &t, k).unwrap();
        prop_assert!((f1 - present as f64 / k as f64).abs() < 1e-15);
    }

    #[test]
    fn lca_recalls_are_the_shares_recognised(items in prop::collection::vec(any::<(bool, bool)>(), 1..300)) {
        let s = lca_scores(&items).unwrap();
        prop_assert_eq!(s.n, items.len());
        prop_assert!((0.0..=1.0).contains(&s.macro_f1));
        let share = |complete: bool| {
            let kind: Vec<bool> = items.iter().filter(|i| i.0 == complete).map(|i| i.1 == complete).collect();
            accuracy(&kind)
        };
        prop_assert_eq!(s.acc_complete, share(true));
        prop_assert_eq!(s.acc_underspecified, share(false));
    }

    #[test]
    fn malformed_input_gives_none_and_never_panics(
        t in prop::collection::vec(any::<u8>(), 0..50),
        p in prop::collection::vec(any::<u8>(), 0..50),
        n in 0usize..300,
    ) {
        let well_formed = !t.is_empty()
            && t.len() == p.len()
            && (1..=256).contains(&n)
            && t.iter().chain(&p).all(|&x| usize::from(x) < n);
        prop_assert_eq!(macro_f1(&t, &p, n).is_some(), well_formed);
        if !well_formed {
            prop_assert_eq!(quadratic_weighted_kappa(&t, &p, n), None);
            prop_assert_eq!(cohen_kappa(&t, &p, n), None);
        }
        let _ = macro_f1_over(&p, &t, &p);
        let _ = recall(&t, &p, n as u8);
    }

    #[test]
    fn mean_std_of_a_constant_vector_has_std_zero(c in -1e6f64..1e6, n in 2usize..100) {
        let s = mean_std(&vec![c; n]).unwrap();
        prop_assert_eq!(s.mean, c);
        prop_assert_eq!(s.std, Some(0.0));
    }

    #[test]
    fn mean_std_is_bounded(xs in prop::collection::vec(-1e3f64..1e3, 1..100)) {
        let s = mean_std(&xs).unwrap();
        let (lo, hi) = xs.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        prop_assert!(lo - 1e-9 <= s.mean && s.mean <= hi + 1e-9);
        match s.std {
            None => prop_assert_eq!(xs.len(), 1),
            Some(std) => prop_assert!(std >= 0.0 && std <= hi - lo + 1e-9),
        }
    }
}

proptest! {
    // Each case runs a few hundred resamples.
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn bootstrap_is_deterministic_and_ordered(
        xs in prop::collection::vec(0f64..1.0, 1..60),
        seed in any::<u64>(),
        level in 0.5f64..0.99,
    ) {
        let mean = |s: &[usize]| mean_of(&xs, s);
        let ci = bootstrap_ci(xs.len(), mean, 200, seed, level).unwrap();
        prop_assert_eq!(bootstrap_ci(xs.len(), mean, 200, seed, level), Some(ci));
        prop_assert!(ci.0 <= ci.1);
        let (lo, hi) = xs.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        prop_assert!(lo - 1e-12 <= ci.0 && ci.1 <= hi + 1e-12);
    }

    #[test]
    fn a_constant_statistic_has_a_degenerate_interval(c in -10f64..10.0, n in 1usize..50, seed in any::<u64>()) {
        prop_assert_eq!(bootstrap_ci(n, |_: &[usize]| Some(c), 100, seed, 0.95), Some((c, c)));
    }

    #[test]
    fn paired_bootstrap_is_deterministic_and_well_formed(
        pairs in prop::collection::vec((0f64..1.0, 0f64..1.0), 1..60),
        seed in any::<u64>(),
    ) {
        let a: Vec<f64> = pairs.iter().map(|p| p.0).collect();
        let b: Vec<f64> = pairs.iter().map(|p| p.1).collect();
        let (sa, sb) = (|s: &[usize]| mean_of(&a, s), |s: &[usize]| mean_of(&b, s));
        let cmp = paired_bootstrap(pairs.len(), sa, sb, 200, seed, 0.95).unwrap();
        prop_assert_eq!(paired_bootstrap(pairs.len(), sa, sb, 200, seed, 0.95), Some(cmp));
        prop_assert!(cmp.ci.0 <= cmp.ci.1);
        prop_assert!((0.0..=1.0).contains(&cmp.p_value));
        let same = paired_bootstrap(pairs.len(), sa, sa, 200, seed, 0.95).unwrap();
        prop_assert_eq!((same.diff, same.ci, same.p_value), (0.0, (0.0, 0.0), 1.0));
    }
}
