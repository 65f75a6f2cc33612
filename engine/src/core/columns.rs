//! What a table column declares besides its values, the same for every
//! benchmark's tables: which way is better ([`Better`]: what is bold, how
//! rows sort, what the exports mark) and the scale its scores are shown on
//! ([`Scale`]: 0–1 with three decimals, or ×100 where the benchmark's
//! official table says so). A column type (`lexpilot::leaderboard::Column`,
//! `plawbench::leaderboard::Column::better`, `dlawbench::score::Metric::better`,
//! `lexpilot::paper::Column`) carries these beside its key and label.
//!
//! # Example
//!
//! ```
//! use engine::core::columns::{Better, Scale};
//! use engine::metrics::MeanStd;
//!
//! // A relative degradation: the smallest is best, and best comes first.
//! let degradation = [Some(0.31), None, Some(0.12)];
//! assert_eq!(Better::Lower.best(degradation.iter().flatten().copied()), Some(0.12));
//! let mut rows = degradation.to_vec();
//! rows.sort_by(|a, b| Better::Lower.best_first(*a, *b));
//! assert_eq!(rows, [Some(0.12), Some(0.31), None]);
//! // A count of runs has no best.
//! assert_eq!(Better::Neither.best([5.0, 3.0]), None);
//!
//! let cell = MeanStd { mean: 0.72116, std: Some(0.009) };
//! assert_eq!(Scale::Unit.cell(&cell), "0.721 ± 0.009");
//! assert_eq!(Scale::Hundred.cell(&cell), "72.12 ± 0.90");
//! assert_eq!(Scale::Unit.interval((0.6112, 0.74)), "[0.611, 0.740]");
//! ```

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::metrics::MeanStd;

/// Which way a column's values are better.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Better {
    /// Higher is better (scores, accuracies, kappa, gains).
    #[default]
    Higher,
    /// Lower is better (degradations, failures, disagreement).
    Lower,
    /// Neither: the column has no best (counts of runs, complexities,
    /// correlations).
    Neither,
}

impl Better {
    /// The best of `values`: the highest, the lowest, or `None` for a
    /// column without a best (or without values).
    ///
    /// ```
    /// use engine::core::columns::Better;
    /// assert_eq!(Better::Higher.best([0.2, 0.7, 0.5]), Some(0.7));
    /// assert_eq!(Better::Lower.best([0.2, 0.7, 0.5]), Some(0.2));
    /// assert_eq!(Better::Higher.best([]), None);
    /// ```
    pub fn best(self, values: impl IntoIterator<Item = f64>) -> Option<f64> {
        let values = values.into_iter();
        match self {
            Better::Higher => values.max_by(f64::total_cmp),
            Better::Lower => values.min_by(f64::total_cmp),
            Better::Neither => None,
        }
    }

    /// Orders two values best first, absent values last; for a column
    /// without a best, highest first (a sort by it is still asked for).
    ///
    /// ```
    /// use std::cmp::Ordering;
    /// use engine::core::columns::Better;
    /// assert_eq!(Better::Higher.best_first(Some(0.7), Some(0.2)), Ordering::Less);
    /// assert_eq!(Better::Lower.best_first(Some(0.7), Some(0.2)), Ordering::Greater);
    /// assert_eq!(Better::Lower.best_first(None, Some(0.2)), Ordering::Greater);
    /// ```
    pub fn best_first(self, a: Option<f64>, b: Option<f64>) -> Ordering {
        match (a, b) {
            (Some(a), Some(b)) => match self {
                Better::Lower => a.total_cmp(&b),
                Better::Higher | Better::Neither => b.total_cmp(&a),
            },
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        }
    }

    /// The direction as serde writes it: `higher`, `lower` or `neither`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Better::Higher => "higher",
            Better::Lower => "lower",
            Better::Neither => "neither",
        }
    }

    /// Whether a sort by the column runs from the smallest value up
    /// (`aria-sort="ascending"`).
    pub fn ascending(self) -> bool {
        self == Better::Lower
    }
}

/// The scale a column's scores are shown on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    /// Scores from 0 to 1, three decimals (`0.721`): every table whose
    /// benchmark does not fix its own.
    #[default]
    Unit,
    /// Scores ×100, two decimals (`72.12`): PLawBench's official ranking.
    Hundred,
}

impl Scale {
    /// What a score is multiplied by to be shown.
    pub fn factor(self) -> f64 {
        match self {
            Scale::Unit => 1.0,
            Scale::Hundred => 100.0,
        }
    }

    /// Decimals shown.
    pub const fn decimals(self) -> usize {
        match self {
            Scale::Unit => 3,
            Scale::Hundred => 2,
        }
    }

    /// A score (a ratio from 0 to 1) as shown on this scale.
    ///
    /// ```
    /// use engine::core::columns::Scale;
    /// assert_eq!(Scale::Unit.value(0.70654), "0.707");
    /// assert_eq!(Scale::Hundred.value(0.70654), "70.65");
    /// assert_eq!(Scale::Unit.value(-0.0001), "-0.000");
    /// ```
    pub fn value(self, ratio: f64) -> String {
        format!("{:.*}", self.decimals(), ratio * self.factor())
    }

    /// A difference of two scores, always with its sign (`+0.012`).
    ///
    /// ```
    /// use engine::core::columns::Scale;
    /// assert_eq!(Scale::Unit.difference(0.0123), "+0.012");
    /// assert_eq!(Scale::Unit.difference(-0.5), "-0.500");
    /// ```
    pub fn difference(self, d: f64) -> String {
        format!("{:+.*}", self.decimals(), d * self.factor())
    }

    /// A cell: the mean, and `± std` when there is one.
    pub fn cell(self, m: &MeanStd) -> String {
        match m.std {
            Some(std) => format!("{} ± {}", self.value(m.mean), self.value(std)),
            None => self.value(m.mean),
        }
    }

    /// An interval, `[lo, hi]`.
    pub fn interval(self, (lo, hi): (f64, f64)) -> String {
        format!("[{}, {}]", self.value(lo), self.value(hi))
    }
}
