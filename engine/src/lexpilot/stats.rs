//! Dataset statistics: the figures of the LexPilot paper's Table 1 (consultation
//! counts, average length and turns, causes, plaintiff types, verdict shares),
//! plus focal point types and seeds, overall and for each [`Class`].
//!
//! Every average is over consultations (each case has one complete and one
//! underspecified), and lengths count Unicode scalar values, so one Chinese
//! character is one character. With nothing to average, an average is `0.0`,
//! never NaN. Depends on [`crate::lexpilot::dataset`] and [`crate::vocab`].

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::lexpilot::dataset::Case;
use crate::vocab::{Class, Consultation, FocalPointType, PlaintiffType, Verdict};

/// How many claims received each verdict.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerdictShares {
    /// Claims supported in full.
    pub supported: usize,
    /// Claims supported in part.
    pub partially_supported: usize,
    /// Claims dismissed.
    pub dismissed: usize,
}

impl VerdictShares {
    /// The number of claims with verdict `v`.
    pub fn count(&self, v: Verdict) -> usize {
        match v {
            Verdict::Supported => self.supported,
            Verdict::PartiallySupported => self.partially_supported,
            Verdict::Dismissed => self.dismissed,
        }
    }

    /// The number of claims counted.
    pub fn total(&self) -> usize {
        self.supported + self.partially_supported + self.dismissed
    }

    /// The share of each verdict in percent (0–100), in [`Verdict::ALL`] order;
    /// all zero when there are no claims.
    ///
    /// ```
    /// use engine::lexpilot::stats::VerdictShares;
    /// use engine::vocab::Verdict;
    ///
    /// let shares = VerdictShares { supported: 1, partially_supported: 1, dismissed: 2 };
    /// assert_eq!(
    ///     shares.percentages(),
    ///     [(Verdict::Supported, 25.0), (Verdict::PartiallySupported, 25.0), (Verdict::Dismissed, 50.0)]
    /// );
    /// ```
    pub fn percentages(&self) -> [(Verdict, f64); 3] {
        let total = self.total();
        Verdict::ALL.map(|v| (v, percent(self.count(v), total)))
    }

    fn add(&mut self, v: Verdict) {
        match v {
            Verdict::Supported => self.supported += 1,
            Verdict::PartiallySupported => self.partially_supported += 1,
            Verdict::Dismissed => self.dismissed += 1,
        }
    }
}

/// Statistics of the cases of one class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClassStats {
    /// The class.
    pub class: Class,
    /// Cases of the class.
    pub cases: usize,
    /// Distinct causes of action among them.
    pub causes: usize,
    /// Mean characters per consultation, over both kinds.
    pub avg_chars: f64,
    /// Mean turns per consultation, over both kinds.
    pub avg_turns: f64,
    /// Cases whose plaintiff is a natural person.
    pub natural: usize,
    /// Cases whose plaintiff is not a natural person.
    pub non_natural: usize,
    /// Claims.
    pub claims: usize,
    /// Verdicts of those claims.
    pub verdicts: VerdictShares,
}

/// Statistics of a dataset (the paper's Table 1 and more).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DatasetStats {
    /// Cases.
    pub cases: usize,
    /// Consultations of both kinds (two per case).
    pub consultations_total: usize,
    /// Complete consultations.
    pub complete: usize,
    /// Underspecified consultations.
    pub underspecified: usize,
    /// Mean characters per consultation, over both kinds (Table 1 "Avg. Length").
    pub avg_chars: f64,
    /// Mean characters per complete consultation.
    pub avg_chars_complete: f64,
    /// Mean characters per underspecified consultation.
    pub avg_chars_underspecified: f64,
    /// Mean turns per consultation, over both kinds (Table 1 "Avg. Turns").
    pub avg_turns: f64,
    /// Distinct causes of action.
    pub causes: usize,
    /// Cases whose plaintiff is a natural person.
    pub natural: usize,
    /// Cases whose plaintiff is not a natural person.
    pub non_natural: usize,
    /// Claims.
    pub claims: usize,
    /// Verdicts of those claims.
    pub verdicts: VerdictShares,
    /// Focal points of each type, in [`FocalPointType::ALL`] order, zeros included.
    pub focal_points_by_type: Vec<(FocalPointType, usize)>,
    /// Seed cases.
    pub seeds: usize,
    /// One entry per class, in [`Class::ALL`] order, empty classes included.
    pub by_class: Vec<ClassStats>,
    /// Cases per province or region of the court (the paper's Table 9),
    /// most first, then by name; cases that name none are left out and
    /// counted in `province_unknown`.
    #[serde(default)]
    pub by_province: Vec<(String, usize)>,
    /// Cases that name no province.
    #[serde(default)]
    pub province_unknown: usize,
}

/// Computes the statistics of a dataset.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::parse_dataset;
/// use engine::lexpilot::stats::dataset_stats;
/// use engine::vocab::Class;
///
/// let cases = parse_dataset(concat!(
///     r#"{"case_id": "LP-1", "cause": "名誉权纠纷", "class": "tort", "plaintiff_type": "natural", "#,
///     r#""claims": [{"id": "c1", "text": "赔礼道歉", "verdict": "supported"}], "#,
///     r#""focal_points": [], "key_facts": [], "missing_facts": [], "#,
///     r#""consultations": {"complete": [{"role": "user", "content": "他在群里骂我。"}], "#,
///     r#""underspecified": [{"role": "user", "content": "他骂我。"}]}}"#,
/// ))
/// .expect("a valid dataset");
///
/// let stats = dataset_stats(&cases);
/// assert_eq!(stats.consultations_total, 2);
/// assert_eq!(stats.avg_chars_complete, 7.0);
/// assert_eq!(stats.avg_chars, 5.5);
/// assert_eq!(stats.verdicts.percentages()[0].1, 100.0);
/// assert_eq!(stats.by_class[2].class, Class::Tort);
/// assert_eq!(stats.by_class[2].cases, 1);
/// assert_eq!(dataset_stats(&[]).avg_chars, 0.0);
/// assert_eq!((stats.by_province.len(), stats.province_unknown), (0, 1));
/// ```
pub fn dataset_stats(cases: &[Case]) -> DatasetStats {
    let mut all = Tally::default();
    let mut by_class: Vec<(Class, Tally)> =
        Class::ALL.iter().map(|&c| (c, Tally::default())).collect();
    let mut focal_points_by_type: Vec<(FocalPointType, usize)> =
        FocalPointType::ALL.iter().map(|&t| (t, 0)).collect();
    let mut seeds = 0;
    let mut provinces: BTreeMap<&str, usize> = BTreeMap::new();
    let mut province_unknown = 0;

    for case in cases {
        all.add(case);
        match case
            .province
            .as_deref()
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            Some(p) => *provinces.entry(p).or_default() += 1,
            None => province_unknown += 1,
        }
        if let Some((_, tally)) = by_class.iter_mut().find(|(c, _)| *c == case.class) {
            tally.add(case);
        }
        for focal in &case.focal_points {
            if let Some((_, n)) = focal_points_by_type
                .iter_mut()
                .find(|(t, _)| *t == focal.r#type)
            {
                *n += 1;
            }
        }
        seeds += usize::from(case.seed);
    }

    DatasetStats {
        cases: all.cases,
        consultations_total: 2 * all.cases,
        complete: all.cases,
        underspecified: all.cases,
        avg_chars: all.avg_chars(),
        avg_chars_complete: mean(all.chars_complete, all.cases),
        avg_chars_underspecified: mean(all.chars_underspecified, all.cases),
        avg_turns: all.avg_turns(),
        causes: all.causes.len(),
        natural: all.natural,
        non_natural: all.non_natural,
        claims: all.claims,
        verdicts: all.verdicts,
        focal_points_by_type,
        seeds,
        by_province: {
            let mut list: Vec<(String, usize)> = provinces
                .into_iter()
                .map(|(p, n)| (p.to_owned(), n))
                .collect();
            // Stable: names stay in order within a count.
            list.sort_by_key(|e| std::cmp::Reverse(e.1));
            list
        },
        province_unknown,
        by_class: by_class
            .into_iter()
            .map(|(class, t)| ClassStats {
                class,
                cases: t.cases,
                causes: t.causes.len(),
                avg_chars: t.avg_chars(),
                avg_turns: t.avg_turns(),
                natural: t.natural,
                non_natural: t.non_natural,
                claims: t.claims,
                verdicts: t.verdicts,
            })
            .collect(),
    }
}

/// Running sums over a set of cases, shared by the overall and per-class figures.
#[derive(Default)]
struct Tally<'a> {
    cases: usize,
    causes: BTreeSet<&'a str>,
    chars_complete: usize,
    chars_underspecified: usize,
    turns: usize,
    natural: usize,
    non_natural: usize,
    claims: usize,
    verdicts: VerdictShares,
}

impl<'a> Tally<'a> {
    fn add(&mut self, case: &'a Case) {
        self.cases += 1;
        self.causes.insert(&case.cause);
        self.chars_complete += case.chars(Consultation::Complete);
        self.chars_underspecified += case.chars(Consultation::Underspecified);
        self.turns += Consultation::ALL
            .iter()
            .map(|&c| case.turns(c).len())
            .sum::<usize>();
        match case.plaintiff_type {
            PlaintiffType::Natural => self.natural += 1,
            PlaintiffType::NonNatural => self.non_natural += 1,
        }
        self.claims += case.claims.len();
        for claim in &case.claims {
            self.verdicts.add(claim.verdict);
        }
    }

    fn avg_chars(&self) -> f64 {
        mean(
            self.chars_complete + self.chars_underspecified,
            2 * self.cases,
        )
    }

    fn avg_turns(&self) -> f64 {
        mean(self.turns, 2 * self.cases)
    }
}

fn mean(sum: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        sum as f64 / n as f64
    }
}

fn percent(part: usize, total: usize) -> f64 {
    100.0 * mean(part, total)
}
