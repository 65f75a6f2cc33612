//! Legal consultation assessment (LCA) scores of `docs/formats.md` §4.

use serde::{Deserialize, Serialize};

use super::f1::{macro_f1_over, recall};

/// The code of a `complete` consultation (truth) or a `predict` label.
const COMPLETE: u8 = 0;
/// The code of an `underspecified` consultation (truth) or an `ask` label.
const UNDERSPECIFIED: u8 = 1;

/// LCA scores over a set of (case, consultation) instances.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LcaScores {
    /// Mean of the F1 of `complete` and of `underspecified` (0 where undefined).
    pub macro_f1: f64,
    /// Recall of `complete` (Acc_C); `None` without complete instances.
    pub acc_complete: Option<f64>,
    /// Recall of `underspecified` (Acc_U); `None` without underspecified ones.
    pub acc_underspecified: Option<f64>,
    /// The number of instances scored.
    pub n: usize,
}

/// LCA scores of `(truth is complete, predicted complete)` pairs, one per
/// labelled instance; a `predict` label means "predicted complete", `ask`
/// means "predicted underspecified". Macro-F1 averages over both classes even
/// when one is absent, as scikit-learn's `f1_score(average="macro",
/// zero_division=0, labels=[0, 1])`. `None` for no instances.
///
/// # Examples
///
/// The LexPilot paper's Table 14 reports Acc_C and Acc_U; with 432 complete and
/// 432 underspecified consultations they determine the Macro-F1 (here
/// LawLLM-7B: 228 complete and 139 underspecified consultations recognised).
///
/// ```
/// use engine::metrics::lca_scores;
///
/// let mut items = Vec::new();
/// items.extend((0..432).map(|i| (true, i < 228)));
/// items.extend((0..432).map(|i| (false, i >= 139)));
/// let s = lca_scores(&items).unwrap();
/// assert_eq!(s.n, 864);
/// assert_eq!(format!("{:.4} {:.4} {:.4}", s.macro_f1, s.acc_complete.unwrap(),
///                    s.acc_underspecified.unwrap()), "0.4186 0.5278 0.3218");
/// assert_eq!(lca_scores(&[]), None);
/// ```
pub fn lca_scores(items: &[(bool, bool)]) -> Option<LcaScores> {
    let code = |complete: bool| if complete { COMPLETE } else { UNDERSPECIFIED };
    let truth: Vec<u8> = items.iter().map(|&(t, _)| code(t)).collect();
    let pred: Vec<u8> = items.iter().map(|&(_, p)| code(p)).collect();
    Some(LcaScores {
        macro_f1: macro_f1_over(&[COMPLETE, UNDERSPECIFIED], &truth, &pred)?,
        acc_complete: recall(&truth, &pred, COMPLETE),
        acc_underspecified: recall(&truth, &pred, UNDERSPECIFIED),
        n: items.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_class_only_halves_the_macro_f1() {
        let s = lca_scores(&[(true, true), (true, true)]).unwrap();
        assert_eq!(s.macro_f1, 0.5);
        assert_eq!(s.acc_complete, Some(1.0));
        assert_eq!(s.acc_underspecified, None);
    }
}
