//! Cohen's kappa, unweighted and with linear or quadratic disagreement weights.
//!
//! With observed counts O, the outer product E = r·cᵀ / N of the truth
//! marginals r and prediction marginals c (the counts chance agreement would
//! give), and disagreement weights w (0 on the diagonal):
//!
//! κ = 1 − Σ w·O / Σ w·E
//!
//! This is scikit-learn's `cohen_kappa_score` with `labels=range(n_categories)`.
//! The sums are taken over integers (N·Σ w·O and Σ w·r·cᵀ are exact), so the
//! only rounding is the final division, and "expected disagreement is 0" is an
//! exact test rather than a float comparison.

use super::confusion::ConfusionMatrix;

/// The disagreement weight of truth `i` against prediction `j`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KappaWeights {
    /// 1 off the diagonal: every disagreement is equally bad.
    Unweighted,
    /// |i − j|.
    Linear,
    /// (i − j)²: a verdict two steps off costs four times one step off.
    Quadratic,
}

impl KappaWeights {
    fn weight(self, i: usize, j: usize) -> u128 {
        let distance = i.abs_diff(j) as u128;
        match self {
            Self::Unweighted => u128::from(distance > 0),
            Self::Linear => distance,
            Self::Quadratic => distance * distance,
        }
    }
}

/// Cohen's kappa of a confusion matrix with the given weights (the formula in
/// the module docs). `None` when the matrix is empty or the expected
/// disagreement is 0 (for instance when every truth and every prediction is the
/// same single category), where scikit-learn returns NaN.
///
/// # Examples
///
/// ```
/// use engine::metrics::{weighted_kappa, ConfusionMatrix, KappaWeights};
///
/// let m = ConfusionMatrix::from_labels(&[0, 1, 2, 2], &[0, 1, 2, 1], 3).unwrap();
/// // Σ w·O = 1; the marginals r = (1, 1, 2), c = (1, 2, 1) give Σ w·r·cᵀ = 20,
/// // so Σ w·E = 20 / 4 and QWK = 1 − 1 / (20 / 4).
/// assert_eq!(weighted_kappa(&m, KappaWeights::Quadratic), Some(0.8));
/// ```
pub fn weighted_kappa(matrix: &ConfusionMatrix, weights: KappaWeights) -> Option<f64> {
    let truth_totals = matrix.truth_totals();
    let pred_totals = matrix.pred_totals();
    let total = u128::from(matrix.total());
    let mut observed = 0u128;
    // N · Σ w·E, kept in integers.
    let mut expected_times_total = 0u128;
    for (i, (row, &r)) in matrix.rows().zip(&truth_totals).enumerate() {
        for (j, (&o, &c)) in row.iter().zip(&pred_totals).enumerate() {
            let w = weights.weight(i, j);
            observed += w * u128::from(o);
            expected_times_total += w * u128::from(r) * u128::from(c);
        }
    }
    if total == 0 || expected_times_total == 0 {
        return None;
    }
    Some(1.0 - (total * observed) as f64 / expected_times_total as f64)
}

/// Quadratic weighted kappa (Cohen's kappa with weights (i − j)²) of ordinal
/// codes `0..n_categories`, pooled over all instances. For LexPilot's verdicts,
/// `supported` = 0, `partially_supported` = 1, `dismissed` = 2, and
/// `n_categories` = 3.
///
/// Equals scikit-learn's `cohen_kappa_score(truth, pred, weights="quadratic",
/// labels=range(n_categories))`. Passing the full label range matters: an
/// unused middle category changes the distances between the others.
///
/// `None` when the slices are empty or of different lengths, a code is not
/// below `n_categories` (or that exceeds 256), or the expected disagreement is
/// 0 (all truths and predictions one and the same category).
///
/// # Examples
///
/// ```
/// use engine::metrics::quadratic_weighted_kappa;
///
/// assert_eq!(quadratic_weighted_kappa(&[0, 1, 2], &[0, 1, 2], 3), Some(1.0));
/// // Off by two on one claim of four: Σ w·O = 4; r = (1, 1, 2), c = (2, 1, 1)
/// // give Σ w·E = 26 / 4.
/// let k = quadratic_weighted_kappa(&[0, 1, 2, 2], &[0, 1, 2, 0], 3).unwrap();
/// assert!((k - (1.0 - 16.0 / 26.0)).abs() < 1e-15);
/// // Nothing to disagree about: undefined.
/// assert_eq!(quadratic_weighted_kappa(&[1, 1], &[1, 1], 3), None);
/// ```
pub fn quadratic_weighted_kappa(truth: &[u8], pred: &[u8], n_categories: usize) -> Option<f64> {
    kappa_of_labels(truth, pred, n_categories, KappaWeights::Quadratic)
}

/// Linearly weighted kappa (weights |i − j|) of ordinal codes `0..n_categories`;
/// scikit-learn's `cohen_kappa_score(weights="linear", labels=range(n))`. `None`
/// in the cases of [`quadratic_weighted_kappa`].
///
/// # Examples
///
/// ```
/// use engine::metrics::linear_weighted_kappa;
///
/// // Σ w·O = 2; marginals r = (1, 1, 2), c = (2, 1, 1) give Σ w·E = 16 / 4.
/// assert_eq!(linear_weighted_kappa(&[0, 1, 2, 2], &[0, 1, 2, 0], 3), Some(0.5));
/// ```
pub fn linear_weighted_kappa(truth: &[u8], pred: &[u8], n_categories: usize) -> Option<f64> {
    kappa_of_labels(truth, pred, n_categories, KappaWeights::Linear)
}

/// Cohen's (unweighted) kappa, (p_o − p_e) / (1 − p_e), of codes
/// `0..n_categories`; scikit-learn's `cohen_kappa_score(labels=range(n))`.
/// `None` in the cases of [`quadratic_weighted_kappa`].
///
/// # Examples
///
/// ```
/// use engine::metrics::cohen_kappa;
///
/// // p_o = 3/4; marginals (2, 2) and (1, 3) give p_e = 8/16: κ = 0.25 / 0.5.
/// assert_eq!(cohen_kappa(&[0, 0, 1, 1], &[0, 1, 1, 1], 2), Some(0.5));
/// ```
pub fn cohen_kappa(truth: &[u8], pred: &[u8], n_categories: usize) -> Option<f64> {
    kappa_of_labels(truth, pred, n_categories, KappaWeights::Unweighted)
}

fn kappa_of_labels(
    truth: &[u8],
    pred: &[u8],
    n_categories: usize,
    weights: KappaWeights,
) -> Option<f64> {
    weighted_kappa(
        &ConfusionMatrix::from_labels(truth, pred, n_categories)?,
        weights,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_malformed_input() {
        assert_eq!(quadratic_weighted_kappa(&[], &[], 3), None);
        assert_eq!(quadratic_weighted_kappa(&[0, 1], &[0], 3), None);
        assert_eq!(quadratic_weighted_kappa(&[0, 3], &[0, 1], 3), None);
        assert_eq!(quadratic_weighted_kappa(&[0, 1], &[0, 1], 0), None);
    }

    #[test]
    fn total_reversal_of_two_extremes_is_minus_one() {
        assert_eq!(quadratic_weighted_kappa(&[0, 2], &[2, 0], 3), Some(-1.0));
    }

    #[test]
    fn constant_prediction_against_varied_truth_is_zero() {
        assert_eq!(
            quadratic_weighted_kappa(&[0, 1, 2], &[1, 1, 1], 3),
            Some(0.0)
        );
        assert_eq!(cohen_kappa(&[0, 1, 2], &[1, 1, 1], 3), Some(0.0));
    }
}
