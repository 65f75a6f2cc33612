//! The labels of each kind of review item, a stored label read back for
//! showing, and the consensus of two experts on one item.

use serde::{Deserialize, Serialize};

use super::{CaseCheck, CheckOutcome, ReviewError, ReviewKind};
use crate::lexpilot::run::Task;
use crate::vocab::{vocabulary, LcaLabel, Verdict, Vocabulary};

vocabulary! {
    /// The DCG judge's decision on one request of a model: did it ask for the
    /// missing fact? (`requests[].accepted` of a run file.)
    DcgDecision, kind "DCG decision" {
        /// The request targets a missing fact.
        Accepted = "accepted", zh "接受", en "Accepted";
        /// It does not.
        Rejected = "rejected", zh "拒绝", en "Rejected";
    }
}

impl DcgDecision {
    /// The decision of a run file's `accepted` flag.
    pub fn from_accepted(accepted: bool) -> Self {
        if accepted {
            Self::Accepted
        } else {
            Self::Rejected
        }
    }
}

/// The labels an expert chooses from for one unit of a review item: one case
/// check, one LCA reply, one DCG request, one LJP claim.
///
/// # Examples
///
/// ```
/// use engine::review::{LabelSpace, ReviewKind};
/// use engine::lexpilot::run::Task;
///
/// assert_eq!(LabelSpace::of(ReviewKind::CaseCheck, None), Some(LabelSpace::CheckOutcome));
/// assert_eq!(
///     LabelSpace::of(ReviewKind::JudgeVerdict, Some(Task::Dcg)),
///     Some(LabelSpace::DcgDecision)
/// );
/// // A seed dialogue is edited, not labelled.
/// assert_eq!(LabelSpace::of(ReviewKind::SeedDialogue, None), None);
///
/// assert_eq!(LabelSpace::LcaLabel.labels(), ["predict", "ask"]);
/// assert!(LabelSpace::CheckOutcome.check("pass").is_ok());
/// assert!(LabelSpace::CheckOutcome.check("通过").is_err());
/// // Only verdicts are ordered: their order is the one quadratic weighted kappa needs.
/// assert_eq!(
///     LabelSpace::Verdict.ordinal().unwrap(),
///     ["supported", "partially_supported", "dismissed"]
/// );
/// assert_eq!(LabelSpace::LcaLabel.ordinal(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LabelSpace {
    /// `pass` / `fail`, per case check ([`CheckOutcome`]).
    CheckOutcome,
    /// `predict` / `ask`, per LCA reply ([`LcaLabel`]).
    LcaLabel,
    /// `accepted` / `rejected`, per DCG request ([`DcgDecision`]).
    DcgDecision,
    /// `supported` < `partially_supported` < `dismissed`, per LJP claim ([`Verdict`]).
    Verdict,
    /// The four DLawBench narrative styles, for one simulated client
    /// ([`crate::dlawbench::dataset::Style`]).
    ClientStyle,
}

impl LabelSpace {
    /// The label space of a review item of kind `kind`; a judge verdict needs
    /// its task. `None` for a seed dialogue, or a judge verdict without task.
    pub fn of(kind: ReviewKind, task: Option<Task>) -> Option<Self> {
        match (kind, task) {
            (ReviewKind::SeedDialogue | ReviewKind::RubricVerdict, _)
            | (ReviewKind::JudgeVerdict, None) => None,
            (ReviewKind::CaseCheck, _) => Some(Self::CheckOutcome),
            (ReviewKind::ClientStyle, _) => Some(Self::ClientStyle),
            (ReviewKind::JudgeVerdict, Some(Task::Lca)) => Some(Self::LcaLabel),
            (ReviewKind::JudgeVerdict, Some(Task::Dcg)) => Some(Self::DcgDecision),
            (ReviewKind::JudgeVerdict, Some(Task::Ljp)) => Some(Self::Verdict),
        }
    }

    /// The wire strings of the labels, in vocabulary order.
    pub fn labels(self) -> Vec<&'static str> {
        fn wire<T: Vocabulary>() -> Vec<&'static str> {
            T::VALUES.iter().map(|v| v.as_str()).collect()
        }
        match self {
            Self::CheckOutcome => wire::<CheckOutcome>(),
            Self::LcaLabel => wire::<LcaLabel>(),
            Self::DcgDecision => wire::<DcgDecision>(),
            Self::Verdict => wire::<Verdict>(),
            Self::ClientStyle => wire::<crate::dlawbench::dataset::Style>(),
        }
    }

    /// The labels from lowest to highest for an ordered space (verdicts), as
    /// [`crate::agreement::agreement_report`] takes them; `None` otherwise.
    pub fn ordinal(self) -> Option<Vec<String>> {
        (self == Self::Verdict).then(|| self.labels().into_iter().map(String::from).collect())
    }

    /// Refuses a label outside the space, naming the allowed ones.
    pub fn check(self, label: &str) -> Result<(), ReviewError> {
        let labels = self.labels();
        if labels.contains(&label) {
            Ok(())
        } else {
            Err(ReviewError::UnknownLabel {
                label: label.to_owned(),
                expected: labels.join(", "),
            })
        }
    }
}

/// A stored label ([`super::canonical_label`]) taken apart for showing, so
/// that a page reads typed values instead of decoding JSON out of strings.
///
/// Serialised as `{"checks": {…}}`, `{"verdicts": ["supported", …]}` or
/// `{"word": "ask"}`.
///
/// # Examples
///
/// ```
/// use engine::review::{CaseCheck, LabelReading, ReviewKind};
/// use engine::lexpilot::run::Task;
/// use engine::vocab::Verdict;
///
/// let ljp = LabelReading::of(ReviewKind::JudgeVerdict, Some(Task::Ljp), r#"["supported","dismissed"]"#);
/// assert_eq!(ljp, LabelReading::Verdicts(vec![Verdict::Supported, Verdict::Dismissed]));
///
/// let check = serde_json::to_string(&CaseCheck::all_pass()).unwrap();
/// assert_eq!(
///     LabelReading::of(ReviewKind::CaseCheck, None, &check),
///     LabelReading::Checks(CaseCheck::all_pass())
/// );
///
/// let lca = LabelReading::of(ReviewKind::JudgeVerdict, Some(Task::Lca), "ask");
/// assert_eq!(lca, LabelReading::Word("ask".into()));
/// // What does not read as its kind's form is kept as it was stored.
/// assert_eq!(
///     LabelReading::of(ReviewKind::CaseCheck, None, "pass"),
///     LabelReading::Word("pass".into())
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LabelReading {
    /// A case check: the outcome and comment of each of the four checks.
    Checks(CaseCheck),
    /// An LJP judge verdict: one verdict per claim.
    Verdicts(Vec<Verdict>),
    /// A rubric verdict: the points of each unit of its sheet, in the stored
    /// order, as (key, points written as in the label).
    Points(Vec<(String, String)>),
    /// A label of one word (`approve` / `correct` for a seed dialogue,
    /// `predict` / `ask` for LCA, `accepted` / `rejected` for DCG), or a
    /// label that does not read as its kind's form, as stored.
    Word(String),
}

impl LabelReading {
    /// Reads label `stored` of an item of kind `kind` (and `task`, for a
    /// judge verdict).
    pub fn of(kind: ReviewKind, task: Option<Task>, stored: &str) -> Self {
        let read = match (kind, task) {
            (ReviewKind::CaseCheck, _) => serde_json::from_str(stored).ok().map(Self::Checks),
            (ReviewKind::JudgeVerdict, Some(Task::Ljp)) => {
                serde_json::from_str(stored).ok().map(Self::Verdicts)
            }
            (ReviewKind::RubricVerdict, _) => serde_json::from_str::<OrderedPoints>(stored)
                .ok()
                .map(|p| Self::Points(p.0)),
            _ => None,
        };
        read.unwrap_or_else(|| Self::Word(stored.to_owned()))
    }
}

/// The (key, points) of a stored sheet label, in the order written.
///
/// ```
/// use engine::review::{LabelReading, ReviewKind};
///
/// let read = LabelReading::of(ReviewKind::RubricVerdict, None, r#"{"law":15,"conclusion":2.5}"#);
/// assert_eq!(read, LabelReading::Points(vec![("law".into(), "15".into()), ("conclusion".into(), "2.5".into())]));
/// ```
struct OrderedPoints(Vec<(String, String)>);

impl<'de> Deserialize<'de> for OrderedPoints {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = OrderedPoints;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of points")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<OrderedPoints, A::Error> {
                let mut points = Vec::new();
                // A panel's label may leave a unit undecided (`null`).
                while let Some((key, value)) =
                    map.next_entry::<String, Option<serde_json::Number>>()?
                {
                    points.push((
                        key,
                        value.map_or_else(|| "undecided".to_owned(), |v| v.to_string()),
                    ));
                }
                Ok(OrderedPoints(points))
            }
        }
        deserializer.deserialize_map(Visit)
    }
}

/// Where two experts stand on one unit of a review item. Appendix E.3.1: the
/// experts label independently, and settle their disagreements by discussion
/// into the final human label.
///
/// Serialised with a `status` tag: `{"status": "agreed", "label": "ask"}`.
///
/// # Examples
///
/// ```
/// use engine::review::{Consensus, LabelSpace, ReviewError};
///
/// let agreed = Consensus::of(LabelSpace::LcaLabel, "ask", "ask").unwrap();
/// assert_eq!(agreed.final_label(), Some("ask"));
/// assert!(matches!(
///     agreed.adjudicate(LabelSpace::LcaLabel, "predict"),
///     Err(ReviewError::NothingToAdjudicate { .. })
/// ));
///
/// let split = Consensus::of(LabelSpace::Verdict, "supported", "dismissed").unwrap();
/// assert_eq!(split.final_label(), None);
/// // The discussion may settle on a label neither gave.
/// let settled = split.adjudicate(LabelSpace::Verdict, "partially_supported").unwrap();
/// assert_eq!(settled.final_label(), Some("partially_supported"));
/// assert_eq!(
///     serde_json::to_string(&settled).unwrap(),
///     r#"{"status":"adjudicated","first":"supported","second":"dismissed","label":"partially_supported"}"#
/// );
/// assert!(Consensus::of(LabelSpace::Verdict, "supported", "won").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Consensus {
    /// Both experts gave the same label: it is final.
    Agreed {
        /// The label.
        label: String,
    },
    /// The experts disagree; the item waits for their discussion.
    NeedsAdjudication {
        /// The first expert's label.
        first: String,
        /// The second expert's label.
        second: String,
    },
    /// The experts disagreed and settled on `label`.
    Adjudicated {
        /// The first expert's label.
        first: String,
        /// The second expert's label.
        second: String,
        /// The final label.
        label: String,
    },
}

impl Consensus {
    /// The consensus of two experts' independent labels, both in `space`.
    pub fn of(space: LabelSpace, first: &str, second: &str) -> Result<Self, ReviewError> {
        space.check(first)?;
        space.check(second)?;
        Ok(if first == second {
            Self::Agreed {
                label: first.to_owned(),
            }
        } else {
            Self::NeedsAdjudication {
                first: first.to_owned(),
                second: second.to_owned(),
            }
        })
    }

    /// Records the label the experts settled on after disagreeing (again, if
    /// they revise an earlier adjudication). Refused when they agreed from
    /// the start or the label is not in `space`.
    pub fn adjudicate(&self, space: LabelSpace, label: &str) -> Result<Self, ReviewError> {
        space.check(label)?;
        match self {
            Self::Agreed { label } => Err(ReviewError::NothingToAdjudicate {
                label: label.clone(),
            }),
            Self::NeedsAdjudication { first, second } | Self::Adjudicated { first, second, .. } => {
                Ok(Self::Adjudicated {
                    first: first.clone(),
                    second: second.clone(),
                    label: label.to_owned(),
                })
            }
        }
    }

    /// Whether the experts still have to settle a disagreement.
    pub fn needs_adjudication(&self) -> bool {
        matches!(self, Self::NeedsAdjudication { .. })
    }

    /// The final label, once there is one.
    pub fn final_label(&self) -> Option<&str> {
        match self {
            Self::Agreed { label } | Self::Adjudicated { label, .. } => Some(label),
            Self::NeedsAdjudication { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_judge_task_has_a_space() {
        for task in Task::ALL {
            let space = LabelSpace::of(ReviewKind::JudgeVerdict, Some(task));
            assert!(space.is_some(), "{task}");
        }
        assert_eq!(
            LabelSpace::of(ReviewKind::CaseCheck, Some(Task::Lca)),
            Some(LabelSpace::CheckOutcome)
        );
    }

    #[test]
    fn readings_follow_the_kind_and_round_trip() {
        // An LJP label that is not a verdict list stays a word.
        let ljp = LabelReading::of(ReviewKind::JudgeVerdict, Some(Task::Ljp), "supported, won");
        assert_eq!(ljp, LabelReading::Word("supported, won".into()));
        // A verdict list on an LCA item is not read as verdicts.
        let lca = LabelReading::of(
            ReviewKind::JudgeVerdict,
            Some(Task::Lca),
            r#"["supported"]"#,
        );
        assert_eq!(lca, LabelReading::Word(r#"["supported"]"#.into()));
        let verdicts = LabelReading::Verdicts(vec![Verdict::PartiallySupported]);
        let json = serde_json::to_string(&verdicts).unwrap();
        assert_eq!(json, r#"{"verdicts":["partially_supported"]}"#);
        assert_eq!(
            serde_json::from_str::<LabelReading>(&json).unwrap(),
            verdicts
        );
    }

    #[test]
    fn dcg_decisions_follow_the_accepted_flag() {
        assert_eq!(DcgDecision::from_accepted(true).as_str(), "accepted");
        assert_eq!(DcgDecision::from_accepted(false).as_str(), "rejected");
        assert_eq!(LabelSpace::DcgDecision.labels(), ["accepted", "rejected"]);
    }

    #[test]
    fn unknown_labels_name_the_allowed_ones() {
        assert_eq!(
            LabelSpace::CheckOutcome
                .check("通过")
                .unwrap_err()
                .to_string(),
            "unknown label \"通过\"; expected one of pass, fail"
        );
        let split = Consensus::of(LabelSpace::LcaLabel, "ask", "predict").unwrap();
        assert!(split.needs_adjudication());
        assert!(split.adjudicate(LabelSpace::LcaLabel, "追问").is_err());
    }

    #[test]
    fn an_adjudication_can_be_revised_and_round_trips() {
        let split = Consensus::of(LabelSpace::CheckOutcome, "pass", "fail").unwrap();
        let first = split.adjudicate(LabelSpace::CheckOutcome, "fail").unwrap();
        let revised = first.adjudicate(LabelSpace::CheckOutcome, "pass").unwrap();
        assert_eq!(revised.final_label(), Some("pass"));
        let json = serde_json::to_string(&revised).unwrap();
        assert_eq!(serde_json::from_str::<Consensus>(&json).unwrap(), revised);
    }
}
