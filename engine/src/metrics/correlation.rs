//! Association of two samples: Pearson's product-moment correlation and
//! Spearman's rank correlation (Pearson's r of the ranks, ties given their
//! average rank, as `scipy.stats.spearmanr`).

/// Pearson's correlation of `a` and `b`; `None` when they differ in length,
/// hold fewer than two values, or either has no spread.
///
/// ```
/// use engine::metrics::pearson;
/// assert!((pearson(&[1.0, 2.0, 3.0], &[2.0, 4.0, 7.0]).unwrap() - 0.9933992677987828).abs() < 1e-12);
/// assert_eq!(pearson(&[1.0, 1.0], &[2.0, 3.0]), None);
/// ```
pub fn pearson(a: &[f64], b: &[f64]) -> Option<f64> {
    let n = a.len();
    if n < 2 || b.len() != n {
        return None;
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / n as f64;
    let (ma, mb) = (mean(a), mean(b));
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    (saa > 0.0 && sbb > 0.0).then(|| sab / (saa * sbb).sqrt())
}

/// Spearman's rank correlation of `a` and `b`; `None` as [`pearson`] (or
/// when a value is NaN).
///
/// ```
/// use engine::metrics::spearman;
/// // Monotone but not linear: ρ = 1.
/// assert_eq!(spearman(&[1.0, 2.0, 3.0, 4.0], &[1.0, 4.0, 9.0, 100.0]), Some(1.0));
/// // scipy.stats.spearmanr([1, 2, 2, 3], [3, 1, 2, 0]).statistic = -0.9486832980505139
/// let rho = spearman(&[1.0, 2.0, 2.0, 3.0], &[3.0, 1.0, 2.0, 0.0]).unwrap();
/// assert!((rho + 0.9486832980505139).abs() < 1e-12);
/// ```
pub fn spearman(a: &[f64], b: &[f64]) -> Option<f64> {
    if a.len() != b.len() {
        return None;
    }
    pearson(&ranks(a)?, &ranks(b)?)
}

/// Ranks from 1, ties sharing their average rank; `None` with a NaN.
fn ranks(values: &[f64]) -> Option<Vec<f64>> {
    if values.iter().any(|v| v.is_nan()) {
        return None;
    }
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&i, &j| values[i].total_cmp(&values[j]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Positions start..end hold ranks start+1..=end: their mean.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        start = end;
    }
    Some(ranks)
}
