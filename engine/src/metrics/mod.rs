//! The scores of `docs/formats.md` §4, as plain functions over slices.
//!
//! This module depends on `std` and `serde` only, not on the rest of the
//! crate: labels are `u8` codes and booleans, and the caller maps its
//! vocabularies onto them (verdicts `supported` = 0, `partially_supported` = 1,
//! `dismissed` = 2). Every function that can be undefined returns an
//! `Option` (which becomes `null` in score output), and none panics on any
//! input: mismatched lengths, labels out of range and empty slices give `None`.
//!
//! # Walk-through
//!
//! - **Counting.** [`ClassCounts`] holds the one-vs-rest counts of one label
//!   (TP, FP, FN) and gives its precision, recall and F1;
//!   [`ConfusionMatrix`] is the full square table that kappa needs.
//! - **LCA.** [`lca_scores`] takes `(truth is complete, predicted complete)`
//!   pairs and gives [`LcaScores`]: the Macro-F1 over both classes
//!   ([`macro_f1_over`], F1 = 0 where undefined, as scikit-learn's
//!   `zero_division=0`) and the recall of each class ([`recall`]), which the
//!   paper calls Acc_C and Acc_U. [`macro_f1`] is the same over `0..n`.
//! - **DCG.** [`accuracy`] is the share of cases with an accepted request.
//! - **LJP.** [`quadratic_weighted_kappa`] is Cohen's kappa with weights
//!   (i − j)², pooled over claims; it is `None` when the expected disagreement
//!   is 0. [`cohen_kappa`], [`linear_weighted_kappa`] and [`weighted_kappa`]
//!   (on a matrix) share its one implementation.
//! - **Runs.** [`mean_std`] gives an entry's [`MeanStd`] over its runs: the
//!   mean and the sample standard deviation (n − 1), `None` for one run.
//! - **Association.** [`pearson`] and [`spearman`] (Figure 3's complexity
//!   against score; rubric points of two experts).
//! - **Uncertainty.** [`bootstrap_ci`] resamples cases with replacement and
//!   reports a percentile interval; [`paired_bootstrap`] compares two
//!   statistics on the same resamples. Both are reproducible from a seed
//!   through the crate's own [`Xoshiro256StarStar`].
//!
//! The reference values these must reproduce are tested in `engine/tests`:
//! scikit-learn's `f1_score`, `recall_score` and `cohen_kappa_score` and
//! numpy's `std(ddof=1)` on generated cases (`metrics_sklearn.rs`, fixtures
//! from `engine/fixtures-scripts/make_metric_fixtures.py`), and the Macro-F1
//! column of the LexPilot paper's Table 14 (`metrics_table14.rs`).
//!
//! # Example
//!
//! ```
//! use engine::metrics::{bootstrap_ci, lca_scores, mean_std, quadratic_weighted_kappa};
//!
//! // LCA: one (truth is complete, predicted complete) pair per consultation.
//! let lca = lca_scores(&[(true, true), (false, false), (true, false), (false, false)]).unwrap();
//! assert_eq!((lca.acc_complete, lca.acc_underspecified), (Some(0.5), Some(1.0)));
//! // F1(complete) = 2/3, F1(underspecified) = 4/5.
//! assert!((lca.macro_f1 - (2.0 / 3.0 + 4.0 / 5.0) / 2.0).abs() < 1e-15);
//!
//! // LJP: the verdict codes of each case's claims, pooled over the cases drawn.
//! let truth: [&[u8]; 3] = [&[0, 1], &[2], &[1, 1]];
//! let pred: [&[u8]; 3] = [&[0, 2], &[2], &[0, 1]];
//! let pooled_qwk = |cases: &[usize]| {
//!     let t: Vec<u8> = cases.iter().flat_map(|&c| truth[c].iter().copied()).collect();
//!     let p: Vec<u8> = cases.iter().flat_map(|&c| pred[c].iter().copied()).collect();
//!     quadratic_weighted_kappa(&t, &p, 3)
//! };
//! let qwk = pooled_qwk(&[0, 1, 2]).unwrap();
//! assert!((qwk - 2.0 / 3.0).abs() < 1e-15);
//!
//! // A 95% interval over cases, the same for the same seed.
//! let (lo, hi) = bootstrap_ci(3, pooled_qwk, 1000, 7, 0.95).unwrap();
//! assert!(lo <= hi);
//! assert_eq!(bootstrap_ci(3, pooled_qwk, 1000, 7, 0.95), Some((lo, hi)));
//!
//! // An entry of three runs.
//! let entry = mean_std(&[0.5, 0.6, 0.7]).unwrap();
//! assert!((entry.mean - 0.6).abs() < 1e-15);
//! assert!((entry.std.unwrap() - 0.1).abs() < 1e-15);
//! ```

mod bootstrap;
mod confusion;
mod correlation;
mod f1;
mod lca;
mod qwk;
mod summary;

pub use bootstrap::{bootstrap_ci, paired_bootstrap, PairedBootstrap, Xoshiro256StarStar};
pub use confusion::{ClassCounts, ConfusionMatrix};
pub use correlation::{pearson, spearman};
pub use f1::{macro_f1, macro_f1_over, recall};
pub use lca::{lca_scores, LcaScores};
pub use qwk::{
    cohen_kappa, linear_weighted_kappa, quadratic_weighted_kappa, weighted_kappa, KappaWeights,
};
pub use summary::{accuracy, mean_std, MeanStd};
