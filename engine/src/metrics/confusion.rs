//! Confusion counting: one-vs-rest counts for one label (F1, recall) and the
//! full square matrix over `0..n_classes` (Cohen's kappa).

/// One-vs-rest counts for one label: how often it was predicted where it is
/// true, predicted where it is not, and missed where it is true.
///
/// # Examples
///
/// ```
/// use engine::metrics::ClassCounts;
///
/// let truth = [0, 0, 1, 1, 1];
/// let pred = [0, 1, 1, 1, 0];
/// let ones = ClassCounts::count(&truth, &pred, 1).unwrap();
/// assert_eq!((ones.true_positives, ones.false_positives, ones.false_negatives), (2, 1, 1));
/// assert_eq!(ones.precision(), Some(2.0 / 3.0));
/// assert_eq!(ones.recall(), Some(2.0 / 3.0));
/// assert_eq!(ones.f1(), 2.0 / 3.0);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClassCounts {
    /// Instances of the label predicted as the label.
    pub true_positives: u64,
    /// Instances of another label predicted as the label.
    pub false_positives: u64,
    /// Instances of the label predicted as another label.
    pub false_negatives: u64,
}

impl ClassCounts {
    /// Counts `label` over paired truth and prediction slices; any other value,
    /// listed or not, is simply "not `label`". `None` when the lengths differ.
    pub fn count(truth: &[u8], pred: &[u8], label: u8) -> Option<Self> {
        if truth.len() != pred.len() {
            return None;
        }
        let mut counts = Self::default();
        for (&t, &p) in truth.iter().zip(pred) {
            match (t == label, p == label) {
                (true, true) => counts.true_positives += 1,
                (false, true) => counts.false_positives += 1,
                (true, false) => counts.false_negatives += 1,
                (false, false) => {}
            }
        }
        Some(counts)
    }

    /// Instances whose truth is the label (true positives + false negatives).
    pub fn support(&self) -> u64 {
        self.true_positives + self.false_negatives
    }

    /// Instances predicted as the label (true positives + false positives).
    pub fn predicted(&self) -> u64 {
        self.true_positives + self.false_positives
    }

    /// TP / (TP + FP); `None` when the label was never predicted.
    pub fn precision(&self) -> Option<f64> {
        ratio(self.true_positives, self.predicted())
    }

    /// TP / (TP + FN); `None` when the label never occurs in the truth.
    pub fn recall(&self) -> Option<f64> {
        ratio(self.true_positives, self.support())
    }

    /// F1 = 2·TP / (2·TP + FP + FN), the harmonic mean of precision and recall
    /// written over counts as scikit-learn does. It is 0 where precision or
    /// recall is undefined (scikit-learn's `zero_division=0`): then TP = 0.
    pub fn f1(&self) -> f64 {
        ratio(2 * self.true_positives, self.support() + self.predicted()).unwrap_or(0.0)
    }
}

/// `numerator / denominator`, `None` when the denominator is 0.
fn ratio(numerator: u64, denominator: u64) -> Option<f64> {
    (denominator > 0).then(|| numerator as f64 / denominator as f64)
}

/// The square confusion matrix over the labels `0..n_classes`: entry (t, p)
/// counts the instances with truth `t` predicted as `p`.
///
/// # Examples
///
/// ```
/// use engine::metrics::ConfusionMatrix;
///
/// let m = ConfusionMatrix::from_labels(&[0, 1, 2, 2], &[0, 2, 2, 1], 3).unwrap();
/// assert_eq!(m.count(2, 1), 1);
/// assert_eq!(m.truth_totals(), vec![1, 1, 2]);
/// assert_eq!(m.pred_totals(), vec![1, 1, 2]);
/// assert_eq!(m.total(), 4);
/// // A label outside 0..n_classes, or slices of different lengths, give no matrix.
/// assert!(ConfusionMatrix::from_labels(&[3], &[0], 3).is_none());
/// assert!(ConfusionMatrix::from_labels(&[0, 1], &[0], 3).is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfusionMatrix {
    n_classes: usize,
    /// Row-major: `counts[t * n_classes + p]`.
    counts: Vec<u64>,
}

impl ConfusionMatrix {
    /// Counts paired labels. `None` when the lengths differ, `n_classes` is 0
    /// or above 256 (labels are `u8`), or a label is not below `n_classes`.
    /// Empty slices give an all-zero matrix.
    pub fn from_labels(truth: &[u8], pred: &[u8], n_classes: usize) -> Option<Self> {
        if truth.len() != pred.len() || n_classes == 0 || n_classes > 256 {
            return None;
        }
        let mut counts = vec![0; n_classes * n_classes];
        for (&t, &p) in truth.iter().zip(pred) {
            let (t, p) = (usize::from(t), usize::from(p));
            if t >= n_classes || p >= n_classes {
                return None;
            }
            counts[t * n_classes + p] += 1;
        }
        Some(Self { n_classes, counts })
    }

    /// A matrix of `n_classes` labels from its row-major counts
    /// (`counts[t * n_classes + p]`), such as sums of per-unit matrices.
    /// `None` when `counts` does not have `n_classes²` entries or `n_classes`
    /// is 0 or above 256.
    ///
    /// ```
    /// use engine::metrics::ConfusionMatrix;
    /// let m = ConfusionMatrix::from_counts(2, vec![3, 1, 0, 2]).unwrap();
    /// assert_eq!(m, ConfusionMatrix::from_labels(&[0, 0, 0, 0, 1, 1], &[0, 0, 0, 1, 1, 1], 2).unwrap());
    /// assert!(ConfusionMatrix::from_counts(2, vec![1, 2, 3]).is_none());
    /// ```
    pub fn from_counts(n_classes: usize, counts: Vec<u64>) -> Option<Self> {
        (n_classes > 0 && n_classes <= 256 && counts.len() == n_classes * n_classes)
            .then_some(Self { n_classes, counts })
    }

    /// The number of labels, `n_classes` of [`from_labels`](Self::from_labels).
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }

    /// Instances with truth `truth` predicted as `pred` (0 outside the matrix).
    pub fn count(&self, truth: u8, pred: u8) -> u64 {
        let (t, p) = (usize::from(truth), usize::from(pred));
        if t < self.n_classes && p < self.n_classes {
            self.counts[t * self.n_classes + p]
        } else {
            0
        }
    }

    /// All instances counted.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The rows, one per true label in order; entry `p` of row `t` is
    /// [`count(t, p)`](Self::count).
    pub fn rows(&self) -> impl Iterator<Item = &[u64]> {
        self.counts.chunks_exact(self.n_classes)
    }

    /// Row sums: instances per true label.
    pub fn truth_totals(&self) -> Vec<u64> {
        self.rows().map(|row| row.iter().sum()).collect()
    }

    /// Column sums: instances per predicted label.
    pub fn pred_totals(&self) -> Vec<u64> {
        let mut totals = vec![0; self.n_classes];
        for row in self.rows() {
            for (total, &c) in totals.iter_mut().zip(row) {
                *total += c;
            }
        }
        totals
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_counts_reject_mismatched_lengths() {
        assert_eq!(ClassCounts::count(&[0, 1], &[0], 0), None);
    }

    #[test]
    fn undefined_precision_and_recall_give_f1_zero() {
        let absent = ClassCounts::count(&[0, 0], &[0, 0], 1).unwrap();
        assert_eq!(
            (absent.precision(), absent.recall(), absent.f1()),
            (None, None, 0.0)
        );
        let never_predicted = ClassCounts::count(&[1, 0], &[0, 0], 1).unwrap();
        assert_eq!(never_predicted.precision(), None);
        assert_eq!(never_predicted.recall(), Some(0.0));
        assert_eq!(never_predicted.f1(), 0.0);
    }

    #[test]
    fn matrix_rejects_bad_class_counts() {
        assert!(ConfusionMatrix::from_labels(&[], &[], 0).is_none());
        assert!(ConfusionMatrix::from_labels(&[], &[], 257).is_none());
        let full = ConfusionMatrix::from_labels(&[255], &[0], 256).unwrap();
        assert_eq!(full.count(255, 0), 1);
        assert_eq!(full.total(), 1);
    }
}
