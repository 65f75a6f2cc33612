//! Errors of a file as a person reads them: the same problem on many lines
//! said once (`lines 2–73, field kind: …`), not once per line.
//!
//! The parsers report one [`DatasetError`] per line and field, which is what
//! scripts want (the API's `errors` list keeps them all). [`collapse`] groups
//! the errors that say the same thing (same field, same message) in order of
//! first appearance, each group with its lines as ranges; an error alone in
//! its group reads exactly as before, case id included. The upload page, the
//! CLI's `validate` and `score`, and the API's `summary` show the groups.
//!
//! Depends on [`crate::lexpilot::dataset`] (the shared error type) only.
//!
//! # Examples
//!
//! ```
//! use engine::findings::collapse;
//! use engine::core::errors::DatasetError;
//!
//! let error = |line: usize| DatasetError {
//!     line,
//!     case_id: None,
//!     field: "kind".into(),
//!     message: "missing".into(),
//! };
//! let errors: Vec<DatasetError> = (2..=73).map(error).collect();
//! let groups = collapse(&errors);
//! assert_eq!(groups.len(), 1);
//! assert_eq!(groups[0].to_string(), "lines 2–73, field kind: missing");
//! assert_eq!(collapse(&errors[..1])[0].to_string(), "line 2, field kind: missing");
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::core::errors::DatasetError;

/// Ranges listed in full before the rest are counted.
const SHOWN_RANGES: usize = 5;

/// One problem and every line it was found on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorGroup {
    /// The lines, ascending, as inclusive ranges of consecutive numbers.
    pub lines: Vec<(usize, usize)>,
    /// How many errors the group holds.
    pub count: usize,
    /// The case or item id, kept when the group holds one error.
    pub case_id: Option<String>,
    /// The field at fault (empty for the line itself).
    pub field: String,
    pub message: String,
}

/// Groups `errors` by field and message, in order of first appearance (see
/// the [module documentation](self)).
pub fn collapse(errors: &[DatasetError]) -> Vec<ErrorGroup> {
    let mut groups: Vec<(ErrorGroup, Vec<usize>)> = Vec::new();
    for e in errors {
        match groups
            .iter_mut()
            .find(|(g, _)| g.field == e.field && g.message == e.message)
        {
            Some((group, lines)) => {
                group.case_id = None;
                lines.push(e.line);
            }
            None => groups.push((
                ErrorGroup {
                    lines: Vec::new(),
                    count: 0,
                    case_id: e.case_id.clone(),
                    field: e.field.clone(),
                    message: e.message.clone(),
                },
                vec![e.line],
            )),
        }
    }
    groups
        .into_iter()
        .map(|(mut group, mut lines)| {
            lines.sort_unstable();
            group.count = lines.len();
            lines.dedup();
            group.lines = ranges(&lines);
            group
        })
        .collect()
}

/// Ascending distinct numbers as inclusive ranges of consecutive ones.
fn ranges(sorted: &[usize]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for &n in sorted {
        match out.last_mut() {
            Some((_, last)) if *last + 1 == n => *last = n,
            _ => out.push((n, n)),
        }
    }
    out
}

impl fmt::Display for ErrorGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let single = self.lines.len() == 1 && self.lines[0].0 == self.lines[0].1;
        f.write_str(if single { "line " } else { "lines " })?;
        for (i, &(first, last)) in self.lines.iter().take(SHOWN_RANGES).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if first == last {
                write!(f, "{first}")?;
            } else {
                write!(f, "{first}–{last}")?;
            }
        }
        if self.lines.len() > SHOWN_RANGES {
            write!(f, " and {} more", self.lines.len() - SHOWN_RANGES)?;
        }
        if self.lines.len() > 1 {
            let lines: usize = self.lines.iter().map(|(a, b)| b - a + 1).sum();
            write!(f, " ({lines} lines)")?;
        }
        if let Some(id) = &self.case_id {
            write!(f, " ({id})")?;
        }
        if !self.field.is_empty() {
            write!(f, ", field {}", self.field)?;
        }
        write!(f, ": {}", self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn error(line: usize, field: &str, message: &str) -> DatasetError {
        DatasetError {
            line,
            case_id: Some(format!("C-{line}")),
            field: field.into(),
            message: message.into(),
        }
    }

    #[test]
    fn a_lone_error_reads_as_the_parser_wrote_it() {
        let e = error(4, "claims[1].verdict", "unknown verdict \"won\"");
        assert_eq!(
            collapse(std::slice::from_ref(&e))[0].to_string(),
            e.to_string()
        );
        let whole_line = DatasetError {
            field: String::new(),
            case_id: None,
            ..e
        };
        assert_eq!(
            collapse(std::slice::from_ref(&whole_line))[0].to_string(),
            whole_line.to_string()
        );
    }

    #[test]
    fn identical_errors_collapse_into_ranges_in_order_of_first_appearance() {
        let mut errors = Vec::new();
        for line in 2..=5 {
            errors.push(error(line, "kind", "missing"));
            errors.push(error(line, "case_id", "missing"));
        }
        errors.push(error(9, "kind", "missing"));
        errors.push(error(7, "label", "unknown label \"x\""));
        errors.push(error(11, "kind", "missing"));
        errors.push(error(12, "kind", "missing"));
        let shown: Vec<String> = collapse(&errors).iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "lines 2–5, 9, 11–12 (7 lines), field kind: missing",
                "lines 2–5, field case_id: missing",
                "line 7 (C-7), field label: unknown label \"x\"",
            ]
        );
    }

    #[test]
    fn many_scattered_lines_are_counted_past_five_ranges() {
        let errors: Vec<DatasetError> = (1..=9).map(|i| error(2 * i, "", "not JSON")).collect();
        assert_eq!(
            collapse(&errors)[0].to_string(),
            "lines 2, 4, 6, 8, 10 and 4 more (9 lines): not JSON"
        );
    }

    #[test]
    fn the_same_message_on_another_field_is_another_problem() {
        let errors = [error(2, "a", "missing"), error(3, "b", "missing")];
        assert_eq!(collapse(&errors).len(), 2);
    }

    proptest! {
        #[test]
        fn every_error_is_in_exactly_one_group(
            found in proptest::collection::vec((1usize..40, 0usize..3, 0usize..3), 0..60)
        ) {
            let errors: Vec<DatasetError> = found
                .iter()
                .map(|&(line, f, m)| error(line, ["a", "b", ""][f], ["x", "y", "z"][m]))
                .collect();
            let groups = collapse(&errors);
            prop_assert_eq!(groups.iter().map(|g| g.count).sum::<usize>(), errors.len());
            for e in &errors {
                let holding: Vec<&ErrorGroup> = groups
                    .iter()
                    .filter(|g| g.field == e.field && g.message == e.message)
                    .collect();
                prop_assert_eq!(holding.len(), 1);
                prop_assert!(holding[0].lines.iter().any(|&(a, b)| a <= e.line && e.line <= b));
            }
            for g in &groups {
                for pair in g.lines.windows(2) {
                    // Ranges are ascending and never touch (else they would be one).
                    prop_assert!(pair[0].1 + 1 < pair[1].0);
                }
            }
        }
    }
}
