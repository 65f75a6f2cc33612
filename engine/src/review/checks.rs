//! The four checks an expert makes of a case (the LexPilot paper, Appendix B,
//! task 3), each with an outcome and a comment.

use serde::{Deserialize, Serialize};

use super::ReviewError;
use crate::core::lines::is_blank;
use crate::vocab::vocabulary;

vocabulary! {
    /// One of the four checks of a case against its judgment.
    CheckKind, kind "case check" {
        /// The key details extracted from the Facts are correct and relevant
        /// to the focal point of dispute stated in the Reasoning.
        KeyDetails = "key_details", zh "关键细节的正确性", en "Key details are correct and relevant";
        /// The underspecified consultation really lacks every missing fact,
        /// and what remains does not allow a definitive conclusion.
        Incompleteness = "incompleteness", zh "信息缺失咨询的不完整性", en "The underspecified consultation lacks every missing fact";
        /// The complete consultation really states every fact needed.
        Completeness = "completeness", zh "完整咨询的完整性", en "The complete consultation states every fact";
        /// No sensitive personal information survived anonymization.
        Anonymization = "anonymization", zh "匿名化的稳健性", en "Anonymization holds";
    }
}

vocabulary! {
    /// The outcome of one case check.
    CheckOutcome, kind "check outcome" {
        /// The case meets the check.
        Pass = "pass", zh "通过", en "Pass";
        /// The case needs correcting.
        Fail = "fail", zh "不通过", en "Fail";
    }
}

/// The outcome of one check and the expert's comment on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckResult {
    /// Pass or fail.
    pub outcome: CheckOutcome,
    /// What is wrong, or anything worth noting; may be empty for a pass.
    #[serde(default)]
    pub comment: String,
}

impl CheckResult {
    /// A pass without comment.
    pub fn pass() -> Self {
        Self {
            outcome: CheckOutcome::Pass,
            comment: String::new(),
        }
    }

    /// A fail, with what is wrong.
    pub fn fail(comment: impl Into<String>) -> Self {
        Self {
            outcome: CheckOutcome::Fail,
            comment: comment.into(),
        }
    }
}

/// An expert's check of one case: the four checks of Appendix B.
///
/// # Examples
///
/// ```
/// use engine::review::{CaseCheck, CheckKind, CheckResult, ReviewError};
///
/// let mut check = CaseCheck::all_pass();
/// assert!(check.passed());
/// check.anonymization = CheckResult::fail("第3轮仍有原告手机号");
/// assert_eq!(check.failed(), [CheckKind::Anonymization]);
/// assert!(check.validate().is_ok());
///
/// check.completeness = CheckResult::fail("  ");
/// assert_eq!(
///     check.validate(),
///     Err(ReviewError::FailWithoutComment { check: CheckKind::Completeness })
/// );
/// let json = serde_json::to_value(&check).unwrap();
/// assert_eq!(json["anonymization"]["outcome"], "fail");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseCheck {
    /// [`CheckKind::KeyDetails`].
    pub key_details: CheckResult,
    /// [`CheckKind::Incompleteness`].
    pub incompleteness: CheckResult,
    /// [`CheckKind::Completeness`].
    pub completeness: CheckResult,
    /// [`CheckKind::Anonymization`].
    pub anonymization: CheckResult,
}

impl CaseCheck {
    /// Every check passed, no comment.
    pub fn all_pass() -> Self {
        Self {
            key_details: CheckResult::pass(),
            incompleteness: CheckResult::pass(),
            completeness: CheckResult::pass(),
            anonymization: CheckResult::pass(),
        }
    }

    /// The result of one check.
    pub fn get(&self, check: CheckKind) -> &CheckResult {
        match check {
            CheckKind::KeyDetails => &self.key_details,
            CheckKind::Incompleteness => &self.incompleteness,
            CheckKind::Completeness => &self.completeness,
            CheckKind::Anonymization => &self.anonymization,
        }
    }

    /// Every check with its result, in [`CheckKind::ALL`] order.
    pub fn results(&self) -> impl Iterator<Item = (CheckKind, &CheckResult)> {
        CheckKind::ALL.into_iter().map(|c| (c, self.get(c)))
    }

    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.results().all(|(_, r)| r.outcome == CheckOutcome::Pass)
    }

    /// The checks that failed, in [`CheckKind::ALL`] order.
    pub fn failed(&self) -> Vec<CheckKind> {
        self.results()
            .filter(|(_, r)| r.outcome == CheckOutcome::Fail)
            .map(|(c, _)| c)
            .collect()
    }

    /// Refuses a failed check whose comment is empty: a fail must say what to
    /// correct. Names the first such check.
    pub fn validate(&self) -> Result<(), ReviewError> {
        match self
            .results()
            .find(|(_, r)| r.outcome == CheckOutcome::Fail && is_blank(&r.comment))
        {
            Some((check, _)) => Err(ReviewError::FailWithoutComment { check }),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_form_is_one_object_per_check() {
        let mut check = CaseCheck::all_pass();
        check.key_details = CheckResult::fail("关键事实与争议焦点无关");
        let json = serde_json::to_string(&check).unwrap();
        assert!(json.starts_with(
            r#"{"key_details":{"outcome":"fail","comment":"关键事实与争议焦点无关"},"#
        ));
        let back: CaseCheck = serde_json::from_str(&json).unwrap();
        assert_eq!(back, check);
        // A comment may be left out.
        let bare: CheckResult = serde_json::from_str(r#"{"outcome": "pass"}"#).unwrap();
        assert_eq!(bare, CheckResult::pass());
    }

    #[test]
    fn the_wire_strings_are_fixed() {
        let wire: Vec<&str> = CheckKind::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(
            wire,
            [
                "key_details",
                "incompleteness",
                "completeness",
                "anonymization"
            ]
        );
        assert_eq!(CheckOutcome::parse("fail"), Some(CheckOutcome::Fail));
    }
}
