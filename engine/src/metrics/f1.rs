//! Macro-averaged F1 and per-label recall over `u8` label codes.

use super::confusion::ClassCounts;

/// Macro-F1 over the labels `0..n_classes`: the unweighted mean of each label's
/// one-vs-rest F1, a label's F1 being 0 where its precision or recall is
/// undefined.
///
/// Every label of `0..n_classes` counts, present or not, so this equals
/// scikit-learn's `f1_score(truth, pred, average="macro", zero_division=0,
/// labels=range(n_classes))`. (Without `labels=`, scikit-learn averages over the
/// labels present in either slice only.)
///
/// `None` when the slices are empty or of different lengths, `n_classes` is 0
/// or above 256, or a label is not below `n_classes`.
///
/// # Examples
///
/// ```
/// use engine::metrics::macro_f1;
///
/// // F1(0) = 2·1 / (2·1 + 0 + 1) = 2/3, F1(1) = 2·2 / (2·2 + 1 + 0) = 4/5.
/// let f1 = macro_f1(&[0, 0, 1, 1], &[0, 1, 1, 1], 2).unwrap();
/// assert!((f1 - (2.0 / 3.0 + 4.0 / 5.0) / 2.0).abs() < 1e-15);
///
/// // Label 1 never occurs: its F1 is 0 and still halves the mean.
/// assert_eq!(macro_f1(&[0, 0], &[0, 0], 2), Some(0.5));
/// assert_eq!(macro_f1(&[0, 2], &[0, 0], 2), None);
/// ```
pub fn macro_f1(truth: &[u8], pred: &[u8], n_classes: usize) -> Option<f64> {
    if n_classes == 0 || n_classes > 256 {
        return None;
    }
    let in_range = |&label: &u8| usize::from(label) < n_classes;
    if !truth.iter().chain(pred).all(in_range) {
        return None;
    }
    let labels: Vec<u8> = (0..=u8::MAX).take(n_classes).collect();
    macro_f1_over(&labels, truth, pred)
}

/// Macro-F1 averaged over exactly the given `labels`, like scikit-learn's
/// `f1_score(truth, pred, labels=labels, average="macro", zero_division=0)`.
///
/// Values of `truth` / `pred` outside `labels` are allowed: they are neither
/// averaged nor true positives, but a listed label predicted for one of them is
/// a false positive (and vice versa), as in scikit-learn.
///
/// `None` when the slices are empty or of different lengths, or `labels` is
/// empty or repeats a label.
///
/// # Examples
///
/// ```
/// use engine::metrics::macro_f1_over;
///
/// // Only label 1 is averaged; the 0 predicted for a true 1 is its false negative.
/// assert_eq!(macro_f1_over(&[1], &[0, 1, 1], &[0, 1, 0]), Some(2.0 / 3.0));
/// assert_eq!(macro_f1_over(&[1, 1], &[1], &[1]), None);
/// ```
pub fn macro_f1_over(labels: &[u8], truth: &[u8], pred: &[u8]) -> Option<f64> {
    if labels.is_empty() || truth.is_empty() || truth.len() != pred.len() {
        return None;
    }
    let mut seen = [false; 256];
    let mut sum = 0.0;
    for &label in labels {
        if std::mem::replace(&mut seen[usize::from(label)], true) {
            return None;
        }
        sum += ClassCounts::count(truth, pred, label)?.f1();
    }
    Some(sum / labels.len() as f64)
}

/// Recall of `label`: the share of its true instances predicted as it
/// (TP / (TP + FN)). `None` when the label never occurs in `truth` or the
/// lengths differ.
///
/// # Examples
///
/// ```
/// use engine::metrics::recall;
///
/// assert_eq!(recall(&[0, 0, 1, 1], &[0, 1, 1, 1], 0), Some(0.5));
/// assert_eq!(recall(&[0, 0], &[1, 1], 1), None);
/// ```
pub fn recall(truth: &[u8], pred: &[u8], label: u8) -> Option<f64> {
    ClassCounts::count(truth, pred, label)?.recall()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_and_total_disagreement() {
        assert_eq!(macro_f1(&[0, 1, 1], &[0, 1, 1], 2), Some(1.0));
        assert_eq!(macro_f1(&[0, 1, 1], &[1, 0, 0], 2), Some(0.0));
    }

    #[test]
    fn rejects_malformed_input() {
        assert_eq!(macro_f1(&[], &[], 2), None);
        assert_eq!(macro_f1(&[0], &[0, 1], 2), None);
        assert_eq!(macro_f1(&[0], &[0], 0), None);
        assert_eq!(macro_f1(&[0], &[0], 257), None);
        assert_eq!(macro_f1_over(&[], &[0], &[0]), None);
        assert_eq!(recall(&[0], &[0, 0], 0), None);
    }

    #[test]
    fn all_256_labels_are_usable() {
        assert_eq!(macro_f1(&[255], &[255], 256), Some(1.0 / 256.0));
    }
}
