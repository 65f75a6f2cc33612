//! Agreement between annotators: raw agreement, Cohen's kappa and quadratic
//! weighted kappa per pair of annotators, and Fleiss' kappa over all of them.
//!
//! The input is a list of [`Annotation`]s, one `{"item", "annotator",
//! "label"}` object per line of a JSON Lines file ([`parse_annotations`]);
//! labels are free strings. [`agreement_report`] gives an [`AgreementReport`]
//! whose JSON form is exactly
//!
//! ```text
//! {"pairs": [{"a": A, "b": B, "n": N, "agreement": x, "kappa": x, "qwk": x or null}],
//!  "fleiss_kappa": x or null}
//! ```
//!
//! # Definitions
//!
//! - **Pairs.** One entry per pair of annotators, `a` before `b` in byte order
//!   of their names, pairs in that order too. `n` is the number of items both
//!   labelled; the other items of either annotator are left out of the pair.
//! - **Raw agreement** is the share of those `n` items given the same label;
//!   `null` when `n` is 0.
//! - **Cohen's kappa** is [`crate::metrics::cohen_kappa`] over the pair's
//!   items, labels mapped to codes: (p_o − p_e) / (1 − p_e). It is `null` when
//!   `n` is below [`MIN_KAPPA_ITEMS`] (2: over one item kappa is 0 or 1
//!   whatever the annotators did, so pages show "–" rather than 0.000) or
//!   the expected agreement p_e is 1 (both annotators used one and the same
//!   label throughout), where scikit-learn returns NaN.
//! - **Quadratic weighted kappa** is [`crate::metrics::quadratic_weighted_kappa`]
//!   with each label's code its position in the ordinal order the caller gives
//!   (`null` for every pair when no order is given, and where the expected
//!   disagreement is 0, and below [`MIN_KAPPA_ITEMS`] items). Every label must then be in the order; labels of the
//!   order nobody used still count, as with scikit-learn's `labels=`.
//! - **Fleiss' kappa** ([`fleiss_kappa`]) is taken over the items labelled by
//!   every annotator in the input, so that each has the same number of
//!   ratings; `null` with fewer than two annotators, fewer than
//!   [`MIN_KAPPA_ITEMS`] such items, or a single label on all of them.
//!
//! These reproduce scikit-learn's `cohen_kappa_score` (plain and
//! `weights="quadratic"`) and statsmodels' `fleiss_kappa` to 1e-12 on the
//! generated cases of `engine/tests/fixtures/agreement/` (written by
//! `engine/fixtures-scripts/make_agreement_fixtures.py`).
//!
//! Depends on serde, serde_json, thiserror, [`crate::metrics`] and the line
//! reader shared with the dataset parser; reads through [`std::io::BufRead`]
//! only.
//!
//! # Example
//!
//! ```
//! use engine::agreement::{agreement_report, parse_annotations};
//!
//! let text = r#"{"item": "LCA-01", "annotator": "专家甲", "label": "predict"}
//! {"item": "LCA-01", "annotator": "专家乙", "label": "predict"}
//! {"item": "LCA-02", "annotator": "专家甲", "label": "ask"}
//! {"item": "LCA-02", "annotator": "专家乙", "label": "predict"}
//! {"item": "LCA-03", "annotator": "专家甲", "label": "ask"}
//! {"item": "LCA-03", "annotator": "专家乙", "label": "ask"}
//! "#;
//! let annotations = parse_annotations(text, None).expect("valid annotations");
//! let report = agreement_report(&annotations, None).expect("a report");
//! let pair = &report.pairs[0];
//! assert_eq!((pair.a.as_str(), pair.b.as_str(), pair.n), ("专家乙", "专家甲", 3));
//! assert_eq!(pair.agreement, Some(2.0 / 3.0));
//! // p_o = 2/3, p_e = (1·2 + 2·1) / 9 = 4/9: κ = (2/9) / (5/9).
//! assert!((pair.kappa.unwrap() - 0.4).abs() < 1e-15);
//! assert_eq!(pair.qwk, None);
//! assert!((report.fleiss_kappa.unwrap() - 1.0 / 3.0).abs() < 1e-15);
//! assert_eq!(
//!     serde_json::to_string(&report).unwrap(),
//!     r#"{"pairs":[{"a":"专家乙","b":"专家甲","n":3,"agreement":0.6666666666666666,"kappa":0.4,"qwk":null}],"fleiss_kappa":0.3333333333333333}"#
//! );
//! ```

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::BufRead;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::core::errors::{DatasetError, DatasetErrors};
use crate::core::lines::{is_blank, json_message, line_error, read_lines, ErrorLog, LineReader};
use crate::metrics::{cohen_kappa, quadratic_weighted_kappa};

/// One problem found in an annotation file: its line, field and message.
pub type AnnotationError = DatasetError;
/// Every problem found in an annotation file, in the form of the dataset parser's.
pub type AnnotationErrors = DatasetErrors;

/// The most distinct labels (or labels of an ordinal order) a report handles:
/// labels become the `u8` codes of [`crate::metrics`].
pub const MAX_LABELS: usize = 256;

/// The fewest items a kappa (Cohen's, weighted or Fleiss') is reported
/// over: with one item the chance agreement is computed from that item
/// alone, and kappa comes out 0 or 1 whatever the annotators did.
pub const MIN_KAPPA_ITEMS: usize = 2;

/// `kappa()` when it is taken over at least [`MIN_KAPPA_ITEMS`] items
/// (`n`), `None` otherwise; every agreement figure of the workbench (this
/// report, the review dashboard, the rubric sheets) goes through it.
///
/// ```
/// use engine::agreement::kappa_over;
/// use engine::metrics::cohen_kappa;
///
/// // One item on which the two annotators differ: kappa would be 0.
/// assert_eq!(cohen_kappa(&[0], &[1], 2), Some(0.0));
/// assert_eq!(kappa_over(1, || cohen_kappa(&[0], &[1], 2)), None);
/// assert_eq!(kappa_over(2, || cohen_kappa(&[0, 1], &[0, 1], 2)), Some(1.0));
/// ```
pub fn kappa_over(n: usize, kappa: impl FnOnce() -> Option<f64>) -> Option<f64> {
    if n < MIN_KAPPA_ITEMS {
        None
    } else {
        kappa()
    }
}

/// One label given by one annotator to one item.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Annotation {
    /// What was labelled, e.g. `LJP-GPT-5.6-Sol-LP-0001-c1`.
    pub item: String,
    /// Who labelled it: an expert, or a judge model.
    pub annotator: String,
    /// The label, e.g. `predict`, `accepted`, `partially_supported`.
    pub label: String,
}

/// The agreement of one pair of annotators over the items both labelled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairAgreement {
    /// The annotator first in byte order.
    pub a: String,
    /// The other annotator.
    pub b: String,
    /// Items both labelled.
    pub n: usize,
    /// Share of those items with the same label; `None` when `n` is 0.
    pub agreement: Option<f64>,
    /// Cohen's kappa; `None` when `n` is below [`MIN_KAPPA_ITEMS`] or the
    /// expected agreement is 1.
    pub kappa: Option<f64>,
    /// Quadratic weighted kappa over the ordinal order; `None` without an
    /// order, when `n` is below [`MIN_KAPPA_ITEMS`] or when the expected
    /// disagreement is 0.
    pub qwk: Option<f64>,
}

/// Agreement per pair of annotators and over all of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgreementReport {
    /// One entry per pair of annotators, in byte order of `(a, b)`.
    pub pairs: Vec<PairAgreement>,
    /// Fleiss' kappa over the items every annotator labelled; `None` with
    /// fewer than two annotators, fewer than [`MIN_KAPPA_ITEMS`] such
    /// items, or only one label among them.
    pub fleiss_kappa: Option<f64>,
}

/// Why annotations cannot be summarised.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AgreementError {
    /// The same annotator labelled the same item twice.
    #[error("item \"{item}\" is labelled twice by annotator \"{annotator}\"")]
    DuplicateAnnotation {
        /// The item.
        item: String,
        /// The annotator.
        annotator: String,
    },
    /// A label that the ordinal order does not list.
    #[error(
        "label \"{label}\" (item \"{item}\", annotator \"{annotator}\") is not in the ordinal \
         order {order}"
    )]
    LabelNotInOrder {
        /// The label.
        label: String,
        /// The first item found with it.
        item: String,
        /// Who gave it there.
        annotator: String,
        /// The order, joined by `", "`.
        order: String,
    },
    /// The ordinal order lists a label more than once.
    #[error("the ordinal order lists label \"{0}\" more than once")]
    RepeatedInOrder(String),
    /// The ordinal order is empty, or has an empty label.
    #[error("the ordinal order must list at least one label, and no empty one")]
    EmptyOrder,
    /// More labels than [`MAX_LABELS`].
    #[error("{count} distinct labels; agreement is computed over at most {MAX_LABELS}")]
    TooManyLabels {
        /// How many there are.
        count: usize,
    },
}

/// Parses an annotation file held in memory; see [`parse_annotations_reader`].
///
/// # Examples
///
/// ```
/// use engine::agreement::parse_annotations;
///
/// let ok = parse_annotations(r#"{"item": "q1", "annotator": "专家甲", "label": "ask"}"#, None);
/// assert_eq!(ok.unwrap()[0].annotator, "专家甲");
///
/// let order = ["supported".to_owned(), "dismissed".to_owned()];
/// let text = "{\"item\": \"c1\", \"annotator\": \"A\", \"label\": \"supported\"}\n\
///             {\"item\": \"c1\", \"annotator\": \"A\", \"label\": 3}\n\
///             {\"item\": \"c2\", \"annotator\": \"A\", \"label\": \"won\"}\n";
/// let errors = parse_annotations(text, Some(&order)).unwrap_err();
/// assert_eq!(
///     errors.to_string(),
///     "line 2, field label: expected a string, got a number\n\
///      line 2, field item: item \"c1\" is already labelled by annotator \"A\" on line 1\n\
///      line 3, field label: label \"won\" is not in the ordinal order supported, dismissed"
/// );
/// ```
pub fn parse_annotations(
    text: &str,
    ordinal: Option<&[String]>,
) -> Result<Vec<Annotation>, AnnotationErrors> {
    parse_annotations_reader(text.as_bytes(), ordinal)
}

/// Parses an annotation file line by line: one JSON object per line with the
/// non-empty strings `item`, `annotator` and `label` (other keys are ignored;
/// blank lines are skipped but counted). With an ordinal order, a label it
/// does not list is an error of its line.
///
/// Returns the annotations in file order, or every error found (up to
/// [`crate::core::errors::MAX_ERRORS`]), each naming its 1-based line and field. An
/// item labelled twice by the same annotator names the line of the first.
pub fn parse_annotations_reader<R: BufRead>(
    reader: R,
    ordinal: Option<&[String]>,
) -> Result<Vec<Annotation>, AnnotationErrors> {
    let mut errors = ErrorLog::default();
    let mut annotations = Vec::new();
    let mut first_line: HashMap<(String, String), usize> = HashMap::new();
    let read = read_lines(reader, |line, text| {
        let text = match text {
            Ok(text) => text,
            Err(e) => return errors.push(e),
        };
        let value: Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(e) => return errors.push(line_error(line, json_message(&e, text))),
        };
        let mut reader = LineReader::new(line);
        let annotation = reader.annotation(&value, ordinal, &mut first_line);
        reader.errors.into_iter().for_each(|e| errors.push(e));
        annotations.extend(annotation);
    });
    if let Err(e) = read {
        errors.push(e);
    }
    errors.finish().map(|()| annotations)
}

impl LineReader {
    /// Reads one annotation; `first_line` holds the line of each (item,
    /// annotator) read so far, to report a second label by the same annotator.
    fn annotation(
        &mut self,
        v: &Value,
        ordinal: Option<&[String]>,
        first_line: &mut HashMap<(String, String), usize>,
    ) -> Option<Annotation> {
        let obj = self.object(v, "")?;
        let item = self.required(obj, "", "item", Self::non_empty);
        let annotator = self.required(obj, "", "annotator", Self::non_empty);
        let label = self.required(obj, "", "label", Self::non_empty);
        if let (Some(label), Some(order)) = (&label, ordinal) {
            if !order.contains(label) {
                self.fail(
                    "label",
                    format!(
                        "label \"{label}\" is not in the ordinal order {}",
                        order.join(", ")
                    ),
                );
            }
        }
        let (item, annotator) = (item?, annotator?);
        match first_line.entry((item.clone(), annotator.clone())) {
            Entry::Occupied(first) => self.fail(
                "item",
                format!(
                    "item \"{item}\" is already labelled by annotator \"{annotator}\" on line {}",
                    first.get()
                ),
            ),
            Entry::Vacant(slot) => {
                slot.insert(self.line);
            }
        }
        Some(Annotation {
            item,
            annotator,
            label: label?,
        })
    }

    fn non_empty(&mut self, v: &Value, path: &str) -> Option<String> {
        let s = self.string(v, path)?;
        if is_blank(&s) {
            self.fail(path, "must not be empty".into());
            return None;
        }
        Some(s)
    }
}

/// Agreement per pair of annotators and Fleiss' kappa (see the module docs).
///
/// `ordinal` is the order of the labels from lowest to highest (for verdicts:
/// `supported`, `partially_supported`, `dismissed`); with it each pair also
/// gets its quadratic weighted kappa, and every label must be in it.
///
/// Errors: an item labelled twice by one annotator, a label not in the order,
/// an order that is empty or repeats a label, more than [`MAX_LABELS`] labels.
///
/// # Examples
///
/// ```
/// use engine::agreement::{agreement_report, Annotation, AgreementError};
///
/// let a = |item: &str, annotator: &str, label: &str| Annotation {
///     item: item.into(),
///     annotator: annotator.into(),
///     label: label.into(),
/// };
/// let verdicts = ["supported", "partially_supported", "dismissed"].map(String::from);
/// let annotations = [
///     a("c1", "专家甲", "supported"),
///     a("c1", "专家乙", "supported"),
///     a("c2", "专家甲", "dismissed"),
///     a("c2", "专家乙", "partially_supported"),
///     a("c3", "专家甲", "partially_supported"),
///     a("c3", "专家乙", "partially_supported"),
///     a("c4", "专家甲", "dismissed"),
/// ];
/// let report = agreement_report(&annotations, Some(&verdicts)).unwrap();
/// let pair = &report.pairs[0];
/// assert_eq!(pair.n, 3); // c4 has one label only
/// // Codes 0, 1, 2. One claim one step apart: Σ w·O = 1 over n = 3; the
/// // marginals (1, 2, 0) and (1, 1, 1) give Σ w·E = 9 / 3.
/// assert!((pair.qwk.unwrap() - (1.0 - 1.0 / 3.0)).abs() < 1e-15);
///
/// let wrong = [a("c1", "专家甲", "won")];
/// assert!(matches!(
///     agreement_report(&wrong, Some(&verdicts)),
///     Err(AgreementError::LabelNotInOrder { label, .. }) if label == "won"
/// ));
/// ```
pub fn agreement_report(
    annotations: &[Annotation],
    ordinal: Option<&[String]>,
) -> Result<AgreementReport, AgreementError> {
    let codes = label_codes(annotations, ordinal)?;
    let n_categories = codes.len();

    let annotators: BTreeSet<&str> = annotations.iter().map(|a| a.annotator.as_str()).collect();
    let annotators: Vec<&str> = annotators.into_iter().collect();
    let column: HashMap<&str, usize> = annotators
        .iter()
        .enumerate()
        .map(|(i, &a)| (a, i))
        .collect();

    // Per item, the code each annotator gave it (by annotator position).
    let mut labels: BTreeMap<&str, Vec<Option<u8>>> = BTreeMap::new();
    for annotation in annotations {
        let row = labels
            .entry(annotation.item.as_str())
            .or_insert_with(|| vec![None; annotators.len()]);
        let slot = &mut row[column[annotation.annotator.as_str()]];
        if slot.is_some() {
            return Err(AgreementError::DuplicateAnnotation {
                item: annotation.item.clone(),
                annotator: annotation.annotator.clone(),
            });
        }
        *slot = Some(codes[annotation.label.as_str()]);
    }

    let mut pairs = Vec::new();
    for (i, &a) in annotators.iter().enumerate() {
        for (j, &b) in annotators.iter().enumerate().skip(i + 1) {
            let (codes_a, codes_b): (Vec<u8>, Vec<u8>) = labels
                .values()
                .filter_map(|row| Some((row[i]?, row[j]?)))
                .unzip();
            pairs.push(pair_agreement(
                a,
                b,
                &codes_a,
                &codes_b,
                n_categories,
                ordinal.is_some(),
            ));
        }
    }

    let fleiss_kappa = if annotators.len() < 2 {
        None
    } else {
        let table: Vec<Vec<u64>> = labels
            .values()
            .filter_map(|row| {
                let mut counts = vec![0u64; n_categories];
                for code in row {
                    counts[usize::from((*code)?)] += 1;
                }
                Some(counts)
            })
            .collect();
        kappa_over(table.len(), || fleiss_kappa(&table))
    };

    Ok(AgreementReport {
        pairs,
        fleiss_kappa,
    })
}

/// The code of every label: its position in the ordinal order, or else in the
/// byte order of the labels used.
fn label_codes<'a>(
    annotations: &'a [Annotation],
    ordinal: Option<&'a [String]>,
) -> Result<HashMap<&'a str, u8>, AgreementError> {
    let order: Vec<&str> = match ordinal {
        Some(order) => {
            if order.is_empty() || order.iter().any(|l| l.is_empty()) {
                return Err(AgreementError::EmptyOrder);
            }
            let mut seen = BTreeSet::new();
            if let Some(repeated) = order.iter().find(|l| !seen.insert(l.as_str())) {
                return Err(AgreementError::RepeatedInOrder(repeated.clone()));
            }
            if let Some(outside) = annotations.iter().find(|a| !order.contains(&a.label)) {
                return Err(AgreementError::LabelNotInOrder {
                    label: outside.label.clone(),
                    item: outside.item.clone(),
                    annotator: outside.annotator.clone(),
                    order: order.join(", "),
                });
            }
            order.iter().map(String::as_str).collect()
        }
        None => {
            let used: BTreeSet<&str> = annotations.iter().map(|a| a.label.as_str()).collect();
            used.into_iter().collect()
        }
    };
    if order.len() > MAX_LABELS {
        return Err(AgreementError::TooManyLabels { count: order.len() });
    }
    Ok(order.into_iter().zip(0..=u8::MAX).collect())
}

fn pair_agreement(
    a: &str,
    b: &str,
    codes_a: &[u8],
    codes_b: &[u8],
    n_categories: usize,
    ordinal: bool,
) -> PairAgreement {
    let n = codes_a.len();
    let same = codes_a.iter().zip(codes_b).filter(|(x, y)| x == y).count();
    PairAgreement {
        a: a.to_owned(),
        b: b.to_owned(),
        n,
        agreement: (n > 0).then(|| same as f64 / n as f64),
        kappa: kappa_over(n, || cohen_kappa(codes_a, codes_b, n_categories)),
        qwk: kappa_over(n, || {
            ordinal
                .then(|| quadratic_weighted_kappa(codes_a, codes_b, n_categories))
                .flatten()
        }),
    }
}

/// Fleiss' kappa (Fleiss, "Measuring nominal scale agreement among many
/// raters", 1971) of a table with one row per subject and one column per
/// category, each cell the number of raters who put the subject in the
/// category. Every row must have the same number of cells and sum to the same
/// number of raters n ≥ 2.
///
/// With N subjects, T = N·n ratings, S = Σ n_ij² and C = Σ_j c_j² over the
/// column totals c_j, the mean observed agreement is P̄ = (S − T) / (T(n − 1))
/// and the expected one P̄_e = C / T², so
///
/// κ = (P̄ − P̄_e) / (1 − P̄_e) = ((S − T)·T − C·(n − 1)) / ((n − 1)(T² − C)),
///
/// computed over integers with one final division. This is statsmodels'
/// `fleiss_kappa(table, method="fleiss")`.
///
/// `None` for an empty table, rows of different lengths or sums, fewer than
/// two raters per subject, or P̄_e = 1 (every rating in one category).
///
/// # Examples
///
/// ```
/// use engine::agreement::fleiss_kappa;
///
/// // Three raters, three subjects, categories (pass, fail).
/// let table = [[3, 0], [1, 2], [0, 3]];
/// // S = 9 + 5 + 9, T = 9, C = 4² + 5²: κ = (14·9 − 41·2) / (2·(81 − 41)).
/// assert_eq!(fleiss_kappa(&table), Some(44.0 / 80.0));
/// assert_eq!(fleiss_kappa(&[[2, 0], [2, 0]]), None);
/// assert_eq!(fleiss_kappa(&[[2, 0], [1, 0]]), None);
/// ```
pub fn fleiss_kappa<R: AsRef<[u64]>>(table: &[R]) -> Option<f64> {
    let first = table.first()?.as_ref();
    let n_categories = first.len();
    let raters = u128::from(first.iter().sum::<u64>());
    let mut column_totals = vec![0u128; n_categories];
    let mut sum_of_squares = 0u128;
    for row in table {
        let row = row.as_ref();
        if row.len() != n_categories || row.iter().map(|&c| u128::from(c)).sum::<u128>() != raters {
            return None;
        }
        for (total, &count) in column_totals.iter_mut().zip(row) {
            let count = u128::from(count);
            *total += count;
            sum_of_squares += count * count;
        }
    }
    if raters < 2 {
        return None;
    }
    let ratings = i128::try_from(raters * table.len() as u128).ok()?;
    let expected = i128::try_from(column_totals.iter().map(|c| c * c).sum::<u128>()).ok()?;
    let sum_of_squares = i128::try_from(sum_of_squares).ok()?;
    let raters_less_one = i128::try_from(raters - 1).ok()?;
    let denominator = raters_less_one * (ratings * ratings - expected);
    if denominator == 0 {
        return None;
    }
    let numerator = (sum_of_squares - ratings) * ratings - expected * raters_less_one;
    Some(numerator as f64 / denominator as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(item: &str, annotator: &str, label: &str) -> Annotation {
        Annotation {
            item: item.into(),
            annotator: annotator.into(),
            label: label.into(),
        }
    }

    fn order(labels: &[&str]) -> Vec<String> {
        labels.iter().map(|&l| l.to_owned()).collect()
    }

    #[test]
    fn pairs_follow_byte_order_and_include_disjoint_pairs() {
        let annotations = [
            a("案件1", "乙", "通过"),
            a("案件1", "甲", "通过"),
            a("案件2", "丙", "不通过"),
        ];
        let report = agreement_report(&annotations, None).unwrap();
        let names: Vec<(&str, &str, usize)> = report
            .pairs
            .iter()
            .map(|p| (p.a.as_str(), p.b.as_str(), p.n))
            .collect();
        // 丙 U+4E19 < 乙 U+4E59 < 甲 U+7532.
        assert_eq!(names, [("丙", "乙", 0), ("丙", "甲", 0), ("乙", "甲", 1)]);
        let empty = &report.pairs[0];
        assert_eq!(
            (empty.agreement, empty.kappa, empty.qwk),
            (None, None, None)
        );
        // One item, one label: agreement 1, kappa undefined.
        assert_eq!(report.pairs[2].agreement, Some(1.0));
        assert_eq!(report.pairs[2].kappa, None);
        // No item carries all three annotators.
        assert_eq!(report.fleiss_kappa, None);
    }

    #[test]
    fn no_kappa_is_reported_over_a_single_item() {
        // One item, two labels: scikit-learn's kappa would be 0, its qwk -1
        // or 0, Fleiss' a number; none of them says anything.
        let annotations = [
            a("q1", "甲", "low"),
            a("q1", "乙", "high"),
            a("q1", "丙", "high"),
        ];
        let report = agreement_report(&annotations, Some(&order(&["low", "high"]))).unwrap();
        for pair in &report.pairs {
            assert_eq!(pair.n, 1);
            assert!(pair.agreement.is_some());
            assert_eq!((pair.kappa, pair.qwk), (None, None), "{pair:?}");
        }
        assert_eq!(report.fleiss_kappa, None);
        // A second item gives figures again.
        let mut two = annotations.to_vec();
        two.extend([
            a("q2", "甲", "low"),
            a("q2", "乙", "low"),
            a("q2", "丙", "high"),
        ]);
        let report = agreement_report(&two, Some(&order(&["low", "high"]))).unwrap();
        assert!(report
            .pairs
            .iter()
            .all(|p| p.kappa.is_some() && p.qwk.is_some()));
        assert!(report.fleiss_kappa.is_some());
    }

    #[test]
    fn one_annotator_has_no_pairs_and_no_fleiss_kappa() {
        let report = agreement_report(&[a("q1", "专家甲", "ask")], None).unwrap();
        assert!(report.pairs.is_empty());
        assert_eq!(report.fleiss_kappa, None);
        let empty = agreement_report(&[], None).unwrap();
        assert!(empty.pairs.is_empty());
    }

    #[test]
    fn duplicate_annotations_are_refused() {
        let twice = [a("q1", "专家甲", "ask"), a("q1", "专家甲", "predict")];
        assert_eq!(
            agreement_report(&twice, None),
            Err(AgreementError::DuplicateAnnotation {
                item: "q1".into(),
                annotator: "专家甲".into()
            })
        );
    }

    #[test]
    fn ordinal_orders_are_checked() {
        let annotations = [a("q1", "甲", "low")];
        assert_eq!(
            agreement_report(&annotations, Some(&order(&["low", "high", "low"]))),
            Err(AgreementError::RepeatedInOrder("low".into()))
        );
        assert_eq!(
            agreement_report(&annotations, Some(&[])),
            Err(AgreementError::EmptyOrder)
        );
        let err = agreement_report(&annotations, Some(&order(&["high"]))).unwrap_err();
        assert_eq!(
            err.to_string(),
            "label \"low\" (item \"q1\", annotator \"甲\") is not in the ordinal order high"
        );
    }

    #[test]
    fn an_unused_middle_label_changes_qwk() {
        let annotations = [
            a("1", "甲", "low"),
            a("1", "乙", "high"),
            a("2", "甲", "high"),
            a("2", "乙", "high"),
            a("3", "甲", "low"),
            a("3", "乙", "low"),
        ];
        let two = agreement_report(&annotations, Some(&order(&["low", "high"]))).unwrap();
        let three = agreement_report(&annotations, Some(&order(&["low", "mid", "high"]))).unwrap();
        assert_eq!(two.pairs[0].kappa, three.pairs[0].kappa);
        // With two categories the quadratic weights equal the plain ones.
        assert_eq!(two.pairs[0].qwk, two.pairs[0].kappa);
        assert_eq!(three.pairs[0].qwk, two.pairs[0].qwk);
    }

    #[test]
    fn too_many_labels_are_refused() {
        let annotations: Vec<Annotation> = (0..=MAX_LABELS)
            .map(|i| a(&format!("q{i}"), "甲", &format!("标签{i}")))
            .collect();
        assert_eq!(
            agreement_report(&annotations, None),
            Err(AgreementError::TooManyLabels {
                count: MAX_LABELS + 1
            })
        );
        assert!(agreement_report(&annotations[..MAX_LABELS], None).is_ok());
    }

    #[test]
    fn fleiss_kappa_of_perfect_agreement_is_one_and_rejects_bad_tables() {
        assert_eq!(fleiss_kappa(&[[3, 0, 0], [0, 3, 0], [0, 0, 3]]), Some(1.0));
        let empty: [[u64; 2]; 0] = [];
        assert_eq!(fleiss_kappa(&empty), None);
        assert_eq!(fleiss_kappa(&[vec![1, 1], vec![2]]), None);
        assert_eq!(fleiss_kappa(&[[1, 0], [0, 1]]), None);
    }

    #[test]
    fn the_parser_names_line_and_field() {
        let text = "\n{\"item\": \"q1\", \"annotator\": \"\", \"label\": \"ask\"}\n[1]\n{bad\n\
                    {\"item\": \"q1\", \"label\": \"ask\"}\n";
        let errors = parse_annotations(text, None).unwrap_err();
        assert_eq!(
            errors.to_string(),
            "line 2, field annotator: must not be empty\n\
             line 3: expected an object, got an array\n\
             line 4: invalid JSON at column 2: key must be a string\n\
             line 5, field annotator: missing required field"
        );
    }
}
