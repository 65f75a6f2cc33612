//! An expert's correction of a case: new consultations (a seed pair, or text
//! removed from or added to a pair), key facts, missing facts or claims,
//! checked with the dataset's own rules.

use serde::{Deserialize, Serialize};

use super::{FieldProblem, ReviewError};
use crate::lexpilot::dataset::{validate_case, Case, Claim, Consultations, KeyFact};

/// The parts of a case an expert replaces; `None` keeps the case's own.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Correction {
    /// The edited pair of consultations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consultations: Option<Consultations>,
    /// Re-extracted key facts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_facts: Option<Vec<KeyFact>>,
    /// The ids of the key facts the underspecified consultation leaves out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing_facts: Option<Vec<String>>,
    /// The claims with corrected verdicts or texts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claims: Option<Vec<Claim>>,
}

/// The case with the correction applied, checked by
/// [`crate::lexpilot::dataset::validate_case`]: both consultations non-empty, starting
/// with a user turn, of equal length, every quote still in the complete
/// consultation, every missing fact a key fact, and the rest of §2.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::parse_case;
/// use engine::core::dialogue::Turn;
/// use engine::review::{apply_correction, Correction, ReviewError};
/// use engine::vocab::Role;
///
/// let case = parse_case(r#"{"case_id": "LP-0007", "cause": "借款合同纠纷",
///   "class": "finance_contract", "plaintiff_type": "natural",
///   "claims": [{"id": "c1", "text": "判令被告归还借款5万元", "verdict": "supported"}],
///   "focal_points": [{"id": "f1", "text": "借贷关系是否成立", "type": "contract_validity"}],
///   "key_facts": [{"id": "k1", "focal_point": "f1", "text": "被告出具了借条"}],
///   "missing_facts": ["k1"],
///   "consultations": {
///     "complete": [{"role": "user", "content": "朋友借了我5万，打了借条。"}],
///     "underspecified": [{"role": "user", "content": "朋友借了我5万，打了借条。"}]}}"#,
///   1).unwrap();
///
/// // The expert removes the leaked fact from the underspecified consultation.
/// let mut pair = case.consultations.clone();
/// pair.underspecified[0].content = "朋友借了我5万，一直不还。".into();
/// let fixed = apply_correction(&case, &Correction {
///     consultations: Some(pair.clone()),
///     ..Correction::default()
/// }).unwrap();
/// assert_eq!(fixed.consultations.underspecified[0].content, "朋友借了我5万，一直不还。");
/// assert_eq!(case.consultations.underspecified[0].content, "朋友借了我5万，打了借条。");
///
/// // An assistant turn first, and one turn more than the complete consultation.
/// pair.underspecified.insert(0, Turn { role: Role::Assistant, content: "您好".into() });
/// let err = apply_correction(&case, &Correction {
///     consultations: Some(pair),
///     ..Correction::default()
/// }).unwrap_err();
/// let ReviewError::InvalidCorrection { problems, .. } = err else { unreachable!() };
/// let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
/// assert_eq!(fields, ["consultations.underspecified[0].role", "consultations.underspecified"]);
/// ```
pub fn apply_correction(case: &Case, correction: &Correction) -> Result<Case, ReviewError> {
    let mut corrected = case.clone();
    if let Some(consultations) = &correction.consultations {
        corrected.consultations = consultations.clone();
    }
    if let Some(key_facts) = &correction.key_facts {
        corrected.key_facts = key_facts.clone();
    }
    if let Some(missing_facts) = &correction.missing_facts {
        corrected.missing_facts = missing_facts.clone();
    }
    if let Some(claims) = &correction.claims {
        corrected.claims = claims.clone();
    }
    // The line number is meaningless outside a file; only fields are kept.
    let problems: Vec<FieldProblem> = validate_case(&corrected, 0)
        .into_iter()
        .map(|e| FieldProblem {
            field: e.field,
            message: e.message,
        })
        .collect();
    if problems.is_empty() {
        Ok(corrected)
    } else {
        Err(ReviewError::InvalidCorrection {
            case_id: case.case_id.clone(),
            problems,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::dialogue::Turn;
    use crate::lexpilot::dataset::parse_case;
    use crate::vocab::{Role, Verdict};

    fn case() -> Case {
        parse_case(
            r#"{"case_id": "LP-0002", "cause": "离婚后财产纠纷", "class": "family",
              "plaintiff_type": "natural",
              "claims": [{"id": "c1", "text": "判令被告返还房屋份额款20万元", "verdict": "partially_supported"}],
              "focal_points": [{"id": "f1", "text": "涉案房屋出资情况", "type": "rights_allocation"}],
              "key_facts": [{"id": "k1", "focal_point": "f1", "text": "首付款由原告父亲支付",
                             "quote": "首付款是我父亲付的"}],
              "missing_facts": ["k1"],
              "consultations": {
                "complete": [{"role": "user", "content": "首付款是我父亲付的，房子怎么分？"},
                             {"role": "assistant", "content": "请问房产证上写的是谁？"},
                             {"role": "user", "content": "写的是我们两个人的名字。"}],
                "underspecified": [{"role": "user", "content": "离婚后房子怎么分？"},
                                   {"role": "assistant", "content": "请问房产证上写的是谁？"},
                                   {"role": "user", "content": "写的是我们两个人的名字。"}]}}"#,
            1,
        )
        .expect("a valid case")
    }

    #[test]
    fn an_empty_correction_changes_nothing() {
        assert_eq!(
            apply_correction(&case(), &Correction::default()),
            Ok(case())
        );
    }

    #[test]
    fn verdicts_and_missing_facts_can_be_corrected() {
        let mut claims = case().claims;
        claims[0].verdict = Verdict::Supported;
        let fixed = apply_correction(
            &case(),
            &Correction {
                claims: Some(claims),
                missing_facts: Some(vec![]),
                ..Correction::default()
            },
        )
        .unwrap();
        assert_eq!(fixed.claims[0].verdict, Verdict::Supported);
        assert!(fixed.missing_facts.is_empty());
    }

    #[test]
    fn a_correction_that_breaks_a_quote_or_names_no_fact_is_refused() {
        let mut pair = case().consultations;
        pair.complete[0].content = "房子怎么分？".into();
        let err = apply_correction(
            &case(),
            &Correction {
                consultations: Some(pair),
                missing_facts: Some(vec!["k9".into()]),
                ..Correction::default()
            },
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "the corrected case LP-0002 is invalid: key_facts[0].quote: does not occur verbatim \
             in any turn of consultations.complete; missing_facts[0]: names no key fact of this \
             case: \"k9\" (key facts: k1)"
        );
    }

    #[test]
    fn an_empty_consultation_is_refused() {
        let pair = Consultations {
            complete: case().consultations.complete,
            underspecified: vec![],
        };
        let Err(ReviewError::InvalidCorrection { problems, .. }) = apply_correction(
            &case(),
            &Correction {
                consultations: Some(pair),
                ..Correction::default()
            },
        ) else {
            panic!("an empty consultation is invalid");
        };
        assert_eq!(problems[0].field, "consultations.underspecified");
        let blank_turn = Consultations {
            complete: case().consultations.complete,
            underspecified: vec![
                Turn {
                    role: Role::User,
                    content: " ".into(),
                },
                case().consultations.underspecified[1].clone(),
            ],
        };
        assert!(apply_correction(
            &case(),
            &Correction {
                consultations: Some(blank_turn),
                ..Correction::default()
            }
        )
        .is_err());
    }
}
