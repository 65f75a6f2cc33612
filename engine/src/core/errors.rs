//! The one error type of every file the workbench reads, for every
//! benchmark: a finding names its 1-based line, the item's id when it could
//! be read, the JSON path of the field at fault and what is wrong.
//!
//! - [`DatasetError`] / [`DatasetErrors`]: one problem and every problem of a
//!   file, in line order, one per line when displayed; a parse reports the
//!   first [`MAX_ERRORS`] in full and then a count.
//! - [`RunError`] / [`RunErrors`]: the same types under the run parsers'
//!   names.
//! - [`DatasetWarning`]: what a heuristic suspects without refusing the file.
//!
//! Every finding is shown in one form, `line L (ID), field F: message`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One problem found in a dataset file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetError {
    /// The 1-based line of the file.
    pub line: usize,
    /// The case's `case_id`, when it could be read.
    pub case_id: Option<String>,
    /// The JSON path of the field at fault (`claims[1].verdict`), empty when the
    /// problem is the line itself (invalid JSON or UTF-8).
    pub field: String,
    /// What is wrong, and what was expected.
    pub message: String,
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_finding(
            f,
            self.line,
            self.case_id.as_deref(),
            &self.field,
            &self.message,
        )
    }
}

/// `line L (ID), field F: message`, the one form of errors and warnings.
fn write_finding(
    f: &mut fmt::Formatter<'_>,
    line: usize,
    case_id: Option<&str>,
    field: &str,
    message: &str,
) -> fmt::Result {
    write!(f, "line {line}")?;
    if let Some(id) = case_id {
        write!(f, " ({id})")?;
    }
    if !field.is_empty() {
        write!(f, ", field {field}")?;
    }
    write!(f, ": {message}")
}

/// Something in a dataset file that a heuristic suspects is wrong (a broken
/// construction rule of the paper, a value derived from a release). Unlike a
/// [`DatasetError`] it does not refuse the file; it is shown so that a person
/// can look.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetWarning {
    /// The 1-based line of the file.
    pub line: usize,
    /// The case's `case_id`, when it is not empty.
    pub case_id: Option<String>,
    /// The JSON path of the field concerned (`consultations.underspecified[2].content`).
    pub field: String,
    /// What looks wrong, and why it matters.
    pub message: String,
}

impl fmt::Display for DatasetWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_finding(
            f,
            self.line,
            self.case_id.as_deref(),
            &self.field,
            &self.message,
        )
    }
}

impl std::error::Error for DatasetError {}

/// Every problem found in a dataset file, in line order, one per line when
/// displayed. A file with more than [`MAX_ERRORS`] problems ends with an entry
/// saying how many more there are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetErrors(pub Vec<DatasetError>);

impl fmt::Display for DatasetErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DatasetErrors {}

/// How many errors a parse reports in full before summarising the rest.
pub const MAX_ERRORS: usize = 100;

/// One problem found in a run file: its line, case, field and message.
pub type RunError = DatasetError;
/// Every problem found in a run file, in the form of the dataset parser's.
pub type RunErrors = DatasetErrors;
