//! CSV for people who open it in a spreadsheet. Every CSV the workbench
//! writes (leaderboard tables, the review export) goes through [`to_csv`], so
//! that text from files and forms (a model name, an expert's comment) can never
//! become a formula: a cell that starts with `=`, `+`, `-`, `@`, a tab or a
//! carriage return, and is not a number, gets a leading `'`, which spreadsheet
//! programs show as text and do not evaluate (the OWASP advice against CSV
//! injection). Numbers, negative ones included, are written as they are.
//!
//! # Examples
//!
//! ```
//! use engine::spreadsheet::{safe_cell, to_csv};
//!
//! assert_eq!(safe_cell("=HYPERLINK(\"http://x\")"), "'=HYPERLINK(\"http://x\")");
//! assert_eq!(safe_cell("-0.125"), "-0.125");
//! assert_eq!(safe_cell("通义千问"), "通义千问");
//! assert_eq!(to_csv([["model", "gain"], ["@SUM(A1)", "-0.5"]]), "model,gain\n'@SUM(A1),-0.5\n");
//! ```

use std::borrow::Cow;

/// The characters that make a spreadsheet read a cell as a formula.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// `cell` as it is safe to write: prefixed with `'` when a spreadsheet would
/// read it as a formula (see the [module documentation](self)).
pub fn safe_cell(cell: &str) -> Cow<'_, str> {
    let formula = cell.starts_with(FORMULA_STARTS) && cell.trim().parse::<f64>().is_err();
    if formula {
        Cow::Owned(format!("'{cell}"))
    } else {
        Cow::Borrowed(cell)
    }
}

/// The records as CSV (RFC 4180 quoting, `\n` line ends), every cell through
/// [`safe_cell`].
pub fn to_csv<R, C>(records: impl IntoIterator<Item = R>) -> String
where
    R: IntoIterator<Item = C>,
    C: AsRef<str>,
{
    let mut w = csv::Writer::from_writer(Vec::new());
    for record in records {
        let record: Vec<C> = record.into_iter().collect();
        let cells: Vec<Cow<'_, str>> = record.iter().map(|c| safe_cell(c.as_ref())).collect();
        // Writing into a Vec cannot fail.
        let _ = w.write_record(cells.iter().map(|c| c.as_bytes()));
    }
    w.into_inner()
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn every_formula_start_is_neutralised_and_numbers_are_not() {
        for bad in [
            "=1+1",
            "+cmd",
            "-cmd|' /C calc'!A0",
            "@SUM(A1:A2)",
            "\tx",
            "\rx",
        ] {
            assert!(safe_cell(bad).starts_with('\''), "{bad:?}");
        }
        for number in ["-1", "+2.5", "-0.0001", "1e-5", "-inf"] {
            assert_eq!(safe_cell(number), number);
        }
    }

    proptest! {
        #[test]
        fn no_written_cell_starts_a_formula(cell in "[=+@a-z0-9 \\-]{0,12}") {
            let csv = to_csv([[cell.as_str()]]);
            let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(csv.as_bytes());
            for record in reader.records() {
                let record = record.expect("CSV reads back");
                let written = record.get(0).unwrap_or_default();
                let is_number = written.trim().parse::<f64>().is_ok();
                prop_assert!(is_number || !written.starts_with(FORMULA_STARTS));
            }
        }
    }
}
