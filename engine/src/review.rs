//! The expert review workflow (the LexPilot paper, Appendix B and E.3.1), as
//! plain types and functions: what experts review, with which labels, and the
//! help they get. Storage, accounts and pages live in the `db` and `app`
//! crates; everything that decides something lives here.
//!
//! - **Kinds and labels.** A review item is of a [`ReviewKind`]: a seed
//!   dialogue to author or correct, a case to check, or a judge verdict to
//!   re-label. [`LabelSpace`] gives the labels of each: `pass` / `fail` per
//!   case check, `predict` / `ask` for an LCA verdict, `accepted` /
//!   `rejected` for a DCG request, the three ordered verdicts per LJP claim.
//!   [`LabelReading`] takes a stored label apart (a case check, the verdicts
//!   of an LJP label, or one word) for pages to show.
//! - **Case checks.** [`CaseCheck`] holds the outcome and comment of the four
//!   checks of Appendix B ([`CheckKind`]): key details, incompleteness of the
//!   underspecified consultation, completeness of the complete one,
//!   anonymization.
//! - **Pre-flags.** [`flag_spans`] marks what a reviewer should look at:
//!   digit runs that look like a mobile phone, resident ID or bank card
//!   number, licence plates, and text of the missing facts found in the
//!   underspecified consultation. Flags help; they never decide.
//! - **Sampling.** [`sample_stratified`] draws the judge verdicts to re-label,
//!   the same number per model (10 of each of 10 models, 100 per task, in
//!   E.3.1), reproducibly from a seed.
//! - **Corrections.** [`apply_correction`] applies an expert's edit to a case
//!   and checks the result with the dataset's own rules
//!   ([`crate::lexpilot::dataset::validate_case`]); [`diff_cases`] describes what
//!   changed between two versions of a case, with a character diff of each
//!   edited turn.
//! - **Score sheets.** A rubric verdict ([`ReviewKind::RubricVerdict`]) is
//!   scored with points per section on the item's [`Sheet`]: what a label
//!   must be, when two agree, and the judge–human and human–human figures
//!   ([`sheet_rows`]: mean absolute difference in points, Pearson's r,
//!   share within 10% of the maximum).
//! - **Consensus.** [`Consensus`] tells whether two experts agree on an item,
//!   and records the label they settled on when they did not.
//!
//! The workflow over stored items, as rules over plain records (storage maps
//! its rows into them and keeps only SQL):
//!
//! - **Items and status.** An [`ItemRecord`] with its [`AssignmentRecord`]s;
//!   [`ItemRecord::status`] ([`ItemStatus`]), blind submissions
//!   ([`ItemRecord::submits_blind`], [`submission_is_blind`]) and the
//!   agreement decided on blind labels ([`ItemRecord::blind_agreement`]);
//!   [`auto_assignments`] gives open items their experts.
//! - **Blindness.** What a [`Viewer`] may see: [`ItemRecord::visibility`]
//!   (the judge's and other experts' labels only once the viewer has
//!   submitted), [`queue`] (statuses only), [`ItemRecord::sees_all`] for
//!   adjudicators (blind on their own items until they submit).
//! - **Input.** [`checked_label`] (the stored form, with the corrected case of
//!   a seed correction, [`corrected_case`]), [`check_comment`],
//!   [`check_reason`], [`check_draft`]; refusals are [`InputError`]s.
//! - **Adjudication.** Who may decide an item ([`ItemRecord::may_decide`]),
//!   when ([`ItemRecord::check_adjudication`]) and what a decision adopts
//!   ([`ItemRecord::adjudicated_label`], `correct:NAME` for a seed dialogue).
//! - **Judge items.** [`judge_decisions`] builds what the expert reviews of
//!   each judge decision of a run; [`draw_judge_sample`] draws among them.
//! - **Public figures.** A judge decision open for review ([`OpenDecision`],
//!   which states the rule) is left out of every figure but a review
//!   manager's; [`withhold_decisions`] leaves LexPilot's out of a run.
//! - **Dashboard.** [`Dashboard::of`] assembles one viewer's dashboard from
//!   the records with [`dashboard_rows`] and [`disagreements`].
//!
//! Agreement statistics over many items are in [`crate::agreement`].
//!
//! Depends on serde, serde_json, thiserror, regex and similar, and on
//! [`crate::accounts`], [`crate::lexpilot::dataset`], [`crate::vocab`], [`crate::lexpilot::run`]
//! and [`crate::metrics::Xoshiro256StarStar`].
//!
//! # Example
//!
//! ```
//! use engine::review::{Consensus, LabelSpace, ReviewKind};
//! use engine::lexpilot::run::Task;
//!
//! let space = LabelSpace::of(ReviewKind::JudgeVerdict, Some(Task::Ljp)).unwrap();
//! assert_eq!(space.labels(), ["supported", "partially_supported", "dismissed"]);
//!
//! let item = Consensus::of(space, "supported", "partially_supported").unwrap();
//! assert!(item.needs_adjudication());
//! let settled = item.adjudicate(space, "partially_supported").unwrap();
//! assert_eq!(settled.final_label(), Some("partially_supported"));
//! ```

mod adjudication;
mod board;
mod checks;
mod correction;
mod dashboard;
mod diff;
mod exports;
mod flags;
mod input;
mod judge_items;
mod labels;
mod manage;
mod open;
mod records;
mod sample;
mod sheet;
mod view;

use std::fmt;

use serde::{Deserialize, Serialize};

pub use crate::metrics::pearson;
pub use adjudication::NotAdjudicable;
pub use board::{items_per_hour, median_seconds, Dashboard, ExpertProgress};
pub use checks::{CaseCheck, CheckKind, CheckOutcome, CheckResult};
pub use correction::{apply_correction, Correction};
pub use dashboard::{
    agreed, canonical_label, dashboard_rows, disagreements, export_csv, submission_is_blind,
    task_average, unit_labels, unit_space, Agreed, DashboardRow, ExportChange, ExportItem,
    ExportLabel, LabelError, ReviewedItem, TaskAverage, EXPORT_COLUMNS, SEED_LABELS,
};
pub use diff::{diff_cases, EditOp, FieldChange, TextEdit};
pub use exports::{dashboard_table, DashboardTable};
pub use flags::{flag_spans, Flag, FlagKind};
pub use input::{
    check_comment, check_draft, check_reason, checked_label, corrected_case, CheckedLabel,
    InputError, MAX_COMMENT_CHARS, MAX_DRAFT_BYTES,
};
pub use judge_items::{
    draw_judge_sample, judge_decisions, withhold_decisions, JudgeCandidate, JudgeDecision,
    JudgeSample, DEFAULT_CAP, DEFAULT_PER_MODEL, DEFAULT_SEED,
};
pub use labels::{Consensus, DcgDecision, LabelReading, LabelSpace};
pub use manage::{
    reassignments, Assignee, ManageFilter, ManageList, ManageRow, Reassignment, PER_PAGE,
};
pub use open::OpenDecision;
pub use records::{
    auto_assignments, AssignmentRecord, FinalSource, ItemRecord, ItemStatus, Submission,
    EXPERTS_PER_ITEM,
};
pub use sample::{draw_per_target, sample_stratified};
pub use sheet::{
    sheet_rows, PairStats, Sheet, SheetError, SheetGroup, SheetItem, SheetRow, SheetUnit,
};
pub use view::{
    neighbours, next_todo, queue, ItemGuide, ItemVisibility, QueueEntry, QueueProgress, Revealed,
    Viewer,
};

use crate::vocab::vocabulary;

vocabulary! {
    /// What an expert reviews (Appendix B, tasks 2 to 4).
    ReviewKind, kind "review kind" {
        /// Author or correct the seed pair of consultations of a cause.
        SeedDialogue = "seed_dialogue", zh "种子对话", en "Seed dialogue";
        /// Check a case and its consultations against the judgment.
        CaseCheck = "case_check", zh "案例核查", en "Case check";
        /// Re-label a verdict of the judge model.
        JudgeVerdict = "judge_verdict", zh "评审判定", en "Judge verdict";
        /// Re-score a rubric verdict of the judge: points per section
        /// ([`Sheet`]; PLawBench).
        RubricVerdict = "rubric_verdict", zh "评分复核", en "Rubric verdict";
        /// Name the narrative style of a simulated client from its turns
        /// (DLawBench's human check of the client simulator,
        /// [`crate::dlawbench::client_style`]).
        ClientStyle = "client_style", zh "模拟当事人风格", en "Simulated client style";
    }
}

/// One problem of a field, found when checking a corrected case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldProblem {
    /// The JSON path of the field (`consultations.underspecified[0].role`).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for FieldProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Why a review step is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// A failed case check must say why.
    #[error("check {check} failed without a comment saying why")]
    FailWithoutComment {
        /// The check.
        check: CheckKind,
    },
    /// A label outside the item's label space.
    #[error("unknown label \"{label}\"; expected one of {expected}")]
    UnknownLabel {
        /// The label given.
        label: String,
        /// The labels allowed, joined by `", "`.
        expected: String,
    },
    /// The two experts agree: there is nothing to adjudicate.
    #[error("both experts gave \"{label}\"; there is nothing to adjudicate")]
    NothingToAdjudicate {
        /// The label both gave.
        label: String,
    },
    /// The corrected case breaks rules of the dataset format.
    #[error("the corrected case {case_id} is invalid: {}", join(.problems))]
    InvalidCorrection {
        /// The case.
        case_id: String,
        /// Every rule broken.
        problems: Vec<FieldProblem>,
    },
}

fn join(problems: &[FieldProblem]) -> String {
    problems
        .iter()
        .map(FieldProblem::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}
