//! What an expert or adjudicator gives for an item, checked before it is
//! stored: the label in its stored form with the corrected case of a seed
//! correction ([`checked_label`], [`corrected_case`]), comments and reasons
//! ([`check_comment`], [`check_reason`]) and drafts ([`check_draft`]).
//! Every refusal is an [`InputError`] whose message is fit for the user.

use super::{
    apply_correction, canonical_label, Correction, LabelError, ReviewError, ReviewKind,
    EXPERTS_PER_ITEM, SEED_LABELS,
};
use crate::lexpilot::dataset::Case;
use crate::lexpilot::run::Task;

/// The largest draft kept, in bytes.
pub const MAX_DRAFT_BYTES: usize = 256 * 1024;
/// The longest comment or reason, in characters.
pub const MAX_COMMENT_CHARS: usize = 10_000;

/// Why an input to the review workflow is refused: a label, corrected case,
/// comment, reason or draft, or the experts of an auto-assignment.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// A label outside the item's label space, or not in a form it reads
    /// ([`canonical_label`]).
    #[error(transparent)]
    Label(#[from] LabelError),
    /// The case the item shows is no longer stored.
    #[error("the case of this item is no longer stored")]
    CaseGone,
    /// A seed correction without its corrected case.
    #[error("a correction needs the corrected case (proposal)")]
    MissingProposal,
    /// A corrected case given with anything but a seed correction.
    #[error("only a seed dialogue correction takes a corrected case (proposal)")]
    UnexpectedProposal,
    /// A corrected case that is not the JSON of a case.
    #[error("the corrected case is not a valid case: {0}")]
    MalformedProposal(String),
    /// A corrected case of another case.
    #[error("the corrected case is {given}, not {expected}")]
    WrongCase {
        /// The case id of the corrected case.
        given: String,
        /// The case id of the item.
        expected: String,
    },
    /// A corrected case that breaks the dataset's rules.
    #[error(transparent)]
    InvalidCorrection(ReviewError),
    /// A corrected case equal to the case.
    #[error("the corrected case changes nothing; label the seed approve instead")]
    NoChange,
    /// A comment or reason over [`MAX_COMMENT_CHARS`].
    #[error("a {what} holds at most {max} characters", max = MAX_COMMENT_CHARS)]
    TooLong {
        /// `comment` or `reason`.
        what: &'static str,
    },
    /// A draft over [`MAX_DRAFT_BYTES`].
    #[error("a draft holds at most {} KiB", MAX_DRAFT_BYTES / 1024)]
    DraftTooLarge,
    /// An adjudication without a reason.
    #[error("an adjudication needs a reason")]
    NoReason,
    /// `correct` adjudicated on a seed dialogue no expert corrected.
    #[error("no expert proposed a corrected case; adjudicate approve")]
    NoProposal,
    /// `correct` adjudicated when the experts corrected the case differently.
    #[error(
        "the experts proposed different corrected cases; adjudicate correct:NAME to adopt \
         expert NAME's"
    )]
    DifferentProposals,
    /// `correct:NAME` for an expert who proposed no corrected case.
    #[error("{expert} proposed no corrected case")]
    NoProposalBy {
        /// The name given.
        expert: String,
    },
    /// A seed dialogue adjudicated with a label that is none of
    /// [`SEED_LABELS`] or `correct:NAME`.
    #[error(
        "unknown label \"{label}\"; expected one of {}, or correct:NAME",
        SEED_LABELS.join(", ")
    )]
    UnknownAdjudication {
        /// The label given.
        label: String,
    },
    /// Auto-assignment with fewer than [`EXPERTS_PER_ITEM`] experts.
    #[error(
        "auto-assignment needs at least {EXPERTS_PER_ITEM} expert accounts; {given} {}",
        if *given == 1 { "is given" } else { "are given" }
    )]
    TooFewExperts {
        /// The experts given.
        given: usize,
    },
}

/// A label in its stored form, with the corrected case of a seed correction.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedLabel {
    /// The label, in its stored form ([`canonical_label`]).
    pub label: String,
    /// The corrected case, checked ([`corrected_case`]).
    pub proposal: Option<Case>,
}

/// Refuses a comment (or a reason: `what` names it in the message) longer
/// than [`MAX_COMMENT_CHARS`] characters.
///
/// # Examples
///
/// ```
/// use engine::review::{check_comment, MAX_COMMENT_CHARS};
///
/// assert!(check_comment(&"长".repeat(MAX_COMMENT_CHARS), "comment").is_ok());
/// let refused = check_comment(&"长".repeat(MAX_COMMENT_CHARS + 1), "reason").unwrap_err();
/// assert_eq!(refused.to_string(), "a reason holds at most 10000 characters");
/// ```
pub fn check_comment(comment: &str, what: &'static str) -> Result<(), InputError> {
    if comment.chars().count() > MAX_COMMENT_CHARS {
        return Err(InputError::TooLong { what });
    }
    Ok(())
}

/// Refuses an adjudication's reason that is blank or too long.
///
/// # Examples
///
/// ```
/// use engine::review::{check_reason, InputError};
///
/// assert!(check_reason("两位专家都漏看了手机号").is_ok());
/// assert_eq!(check_reason("  "), Err(InputError::NoReason));
/// ```
pub fn check_reason(reason: &str) -> Result<(), InputError> {
    if reason.trim().is_empty() {
        return Err(InputError::NoReason);
    }
    check_comment(reason, "reason")
}

/// Refuses a draft over [`MAX_DRAFT_BYTES`] bytes; any text up to that is kept.
///
/// # Examples
///
/// ```
/// use engine::review::{check_draft, InputError, MAX_DRAFT_BYTES};
///
/// assert!(check_draft("{\"anonymization\": ").is_ok());
/// assert_eq!(check_draft(&"x".repeat(MAX_DRAFT_BYTES + 1)), Err(InputError::DraftTooLarge));
/// ```
pub fn check_draft(draft: &str) -> Result<(), InputError> {
    if draft.len() > MAX_DRAFT_BYTES {
        return Err(InputError::DraftTooLarge);
    }
    Ok(())
}

/// The corrected case of a seed correction: `proposal` (the JSON of a whole
/// case) with its consultations, key facts, missing facts and claims applied
/// to `case` and checked with the dataset's rules ([`apply_correction`]).
/// Refused for another case's id, an invalid result, or no change at all.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::parse_dataset;
/// use engine::review::{corrected_case, InputError};
///
/// let cases = parse_dataset(&engine::lexpilot::synthetic::dataset_file(1)).unwrap();
/// let case = &cases[0];
/// let mut edited = case.clone();
/// edited.consultations.underspecified[0].content.push_str("请问怎么办？");
/// let json = serde_json::to_string(&edited).unwrap();
/// assert_eq!(corrected_case(case, &json).unwrap(), edited);
///
/// let unchanged = serde_json::to_string(case).unwrap();
/// assert_eq!(corrected_case(case, &unchanged), Err(InputError::NoChange));
/// assert!(matches!(corrected_case(&cases[1], &json), Err(InputError::WrongCase { .. })));
/// ```
pub fn corrected_case(case: &Case, proposal: &str) -> Result<Case, InputError> {
    let proposed: Case =
        serde_json::from_str(proposal).map_err(|e| InputError::MalformedProposal(e.to_string()))?;
    if proposed.case_id != case.case_id {
        return Err(InputError::WrongCase {
            given: proposed.case_id,
            expected: case.case_id.clone(),
        });
    }
    let correction = Correction {
        consultations: Some(proposed.consultations),
        key_facts: Some(proposed.key_facts),
        missing_facts: Some(proposed.missing_facts),
        claims: Some(proposed.claims),
    };
    let corrected = apply_correction(case, &correction).map_err(InputError::InvalidCorrection)?;
    if corrected == *case {
        return Err(InputError::NoChange);
    }
    Ok(corrected)
}

/// An expert's label for an item of `kind` (and `task`) showing `case`, in
/// its stored form ([`canonical_label`]), with the corrected case: a seed
/// dialogue labelled `correct` needs `proposal` ([`corrected_case`]); any
/// other label takes none (a blank proposal counts as none).
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::parse_dataset;
/// use engine::review::{checked_label, InputError, ReviewKind};
/// use engine::lexpilot::run::Task;
///
/// let cases = parse_dataset(&engine::lexpilot::synthetic::dataset_file(1)).unwrap();
/// let case = Some(&cases[0]);
/// let claims = cases[0].claims.len();
/// let verdicts = vec!["dismissed"; claims].join(",");
/// let ljp = checked_label(ReviewKind::JudgeVerdict, Some(Task::Ljp), case, &verdicts, None).unwrap();
/// assert!(ljp.label.starts_with("[\"dismissed\""));
/// assert_eq!(ljp.proposal, None);
///
/// let seed = |label, proposal| checked_label(ReviewKind::SeedDialogue, None, case, label, proposal);
/// assert_eq!(seed(" approve ", Some(" ")).unwrap().label, "approve");
/// assert_eq!(seed("correct", None), Err(InputError::MissingProposal));
/// assert_eq!(seed("approve", Some("{}")), Err(InputError::UnexpectedProposal));
/// ```
pub fn checked_label(
    kind: ReviewKind,
    task: Option<Task>,
    case: Option<&Case>,
    label: &str,
    proposal: Option<&str>,
) -> Result<CheckedLabel, InputError> {
    let claims = case.map_or(0, |c| c.claims.len());
    let label = canonical_label(kind, task, claims, label)?;
    let proposal = proposal.filter(|p| !p.trim().is_empty());
    let proposal = match (kind, label.as_str(), proposal) {
        (ReviewKind::SeedDialogue, "correct", Some(p)) => {
            Some(corrected_case(case.ok_or(InputError::CaseGone)?, p)?)
        }
        (ReviewKind::SeedDialogue, "correct", None) => return Err(InputError::MissingProposal),
        (_, _, Some(_)) => return Err(InputError::UnexpectedProposal),
        (_, _, None) => None,
    };
    Ok(CheckedLabel { label, proposal })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexpilot::dataset::parse_dataset;
    use crate::review::CaseCheck;

    fn cases() -> Vec<Case> {
        parse_dataset(&crate::lexpilot::synthetic::dataset_file(1)).expect("cases")
    }

    #[test]
    fn messages_are_those_users_have_always_seen() {
        assert_eq!(
            InputError::TooFewExperts { given: 1 }.to_string(),
            "auto-assignment needs at least 2 expert accounts; 1 is given"
        );
        assert_eq!(
            InputError::TooFewExperts { given: 0 }.to_string(),
            "auto-assignment needs at least 2 expert accounts; 0 are given"
        );
        assert_eq!(
            InputError::UnknownAdjudication {
                label: "reject".into()
            }
            .to_string(),
            "unknown label \"reject\"; expected one of approve, correct, or correct:NAME"
        );
        assert_eq!(
            InputError::DraftTooLarge.to_string(),
            "a draft holds at most 256 KiB"
        );
        assert_eq!(
            InputError::DifferentProposals.to_string(),
            "the experts proposed different corrected cases; adjudicate correct:NAME to adopt \
             expert NAME's"
        );
    }

    #[test]
    fn a_correction_needs_its_case_and_a_valid_result() {
        let cases = cases();
        let mut edited = cases[0].clone();
        edited.consultations.underspecified[0]
            .content
            .push_str("（补充）");
        let json = serde_json::to_string(&edited).expect("json");
        assert_eq!(
            checked_label(ReviewKind::SeedDialogue, None, None, "correct", Some(&json)),
            Err(InputError::CaseGone)
        );
        let saved = checked_label(
            ReviewKind::SeedDialogue,
            None,
            Some(&cases[0]),
            "correct",
            Some(&json),
        )
        .expect("a correction");
        assert_eq!(saved.proposal, Some(edited.clone()));

        let mut broken = edited;
        broken.consultations.underspecified.clear();
        let refused = corrected_case(&cases[0], &serde_json::to_string(&broken).expect("json"));
        assert!(matches!(refused, Err(InputError::InvalidCorrection(_))));
        assert!(matches!(
            corrected_case(&cases[0], "{"),
            Err(InputError::MalformedProposal(_))
        ));
    }

    #[test]
    fn labels_outside_the_space_are_refused_with_the_space() {
        let check = serde_json::to_string(&CaseCheck::all_pass()).expect("json");
        let stored = checked_label(ReviewKind::CaseCheck, None, None, &check, None).expect("ok");
        assert_eq!(stored.label, check);
        let refused = checked_label(
            ReviewKind::JudgeVerdict,
            Some(Task::Lca),
            None,
            "追问",
            None,
        )
        .expect_err("refused");
        assert_eq!(
            refused.to_string(),
            "unknown label \"追问\"; expected one of predict, ask"
        );
        assert_eq!(
            checked_label(
                ReviewKind::CaseCheck,
                None,
                None,
                &check,
                Some("{\"case_id\": \"LP-1\"}")
            ),
            Err(InputError::UnexpectedProposal)
        );
    }
}
