//! Accuracy of a set of hits, and the mean and sample standard deviation of a
//! score over an entry's runs.

use serde::{Deserialize, Serialize};

/// A score over an entry's runs: the mean and the sample standard deviation
/// (n − 1), which is `None` (serialised as `null`) for a single run.
///
/// # Examples
///
/// ```
/// use engine::metrics::MeanStd;
///
/// let one_run = MeanStd { mean: 0.71, std: None };
/// assert_eq!(serde_json::to_string(&one_run).unwrap(), r#"{"mean":0.71,"std":null}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MeanStd {
    /// The arithmetic mean.
    pub mean: f64,
    /// The sample standard deviation (divisor n − 1); `None` when n = 1.
    pub std: Option<f64>,
}

/// Mean and sample standard deviation (divisor n − 1, numpy's `std(ddof=1)`),
/// by Welford's one-pass update: with δ = xₖ − mean₍ₖ₋₁₎,
/// mean₍ₖ₎ = mean₍ₖ₋₁₎ + δ / k and M₂ += δ · (xₖ − mean₍ₖ₎), std = √(M₂ / (n − 1)).
/// Unlike sum-then-divide it never drifts on a constant series, whose std is
/// exactly 0.
///
/// `None` for an empty slice or when a value is not finite; `std` is `None`
/// for a single value.
///
/// # Examples
///
/// ```
/// use engine::metrics::{mean_std, MeanStd};
///
/// let s = mean_std(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
/// assert_eq!(s.mean, 5.0);
/// assert!((s.std.unwrap() - (32.0_f64 / 7.0).sqrt()).abs() < 1e-15);
///
/// assert_eq!(mean_std(&[0.5]), Some(MeanStd { mean: 0.5, std: None }));
/// assert_eq!(mean_std(&[0.1, 0.1, 0.1]).unwrap().std, Some(0.0));
/// assert_eq!(mean_std(&[]), None);
/// ```
pub fn mean_std(xs: &[f64]) -> Option<MeanStd> {
    if xs.is_empty() || !xs.iter().all(|x| x.is_finite()) {
        return None;
    }
    let mut mean = 0.0;
    let mut m2 = 0.0;
    for (k, &x) in xs.iter().enumerate() {
        let delta = x - mean;
        mean += delta / (k + 1) as f64;
        m2 += delta * (x - mean);
    }
    let std = (xs.len() > 1).then(|| (m2 / (xs.len() - 1) as f64).sqrt());
    Some(MeanStd { mean, std })
}

/// The share of hits (for DCG, the cases with at least one accepted request);
/// `None` for an empty slice.
///
/// # Examples
///
/// ```
/// use engine::metrics::accuracy;
///
/// assert_eq!(accuracy(&[true, false, true, true]), Some(0.75));
/// assert_eq!(accuracy(&[]), None);
/// ```
pub fn accuracy(hits: &[bool]) -> Option<f64> {
    let correct = hits.iter().filter(|&&hit| hit).count();
    (!hits.is_empty()).then(|| correct as f64 / hits.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_values_give_none() {
        assert_eq!(mean_std(&[1.0, f64::NAN]), None);
        assert_eq!(mean_std(&[f64::INFINITY]), None);
    }

    #[test]
    fn missing_std_deserialises_from_null() {
        let s: MeanStd = serde_json::from_str(r#"{"mean": 1.0, "std": null}"#).unwrap();
        assert_eq!(
            s,
            MeanStd {
                mean: 1.0,
                std: None
            }
        );
    }
}
