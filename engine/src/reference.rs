//! Reference rows: the numbers a paper or a release publishes (or a lab's
//! own earlier figures), kept beside the stored entries of a leaderboard.
//! They are shown marked with their source, never ranked, never counted in
//! a column's best, a significance test or a rank band; beside a stored
//! entry of the same model each shows the reproduction delta
//! (stored − published).
//!
//! # The file
//!
//! CSV, UTF-8 (a byte-order mark is allowed), a header line naming the six
//! columns `model,family,view,column,value,source` (in any order), then one
//! row per published figure:
//!
//! - `model`: the model as the source names it (matched to stored entries
//!   without regard to case or surrounding spaces);
//! - `family`: LexPilot and DLawBench `legal`, `open` or `closed`, or empty;
//!   PLawBench the vendor family of the official ranking (`Qwen`), or empty;
//! - `view`, `column`: where the figure goes, one of the benchmark's pairs
//!   ([`allowed_columns`]: `lexpilot::leaderboard::reference_columns` and its
//!   twins);
//! - `value`: the figure as the leaderboard shows that column (PLawBench ×100,
//!   `53.55`; LexPilot and DLawBench 0–1, `0.7211`);
//! - `source`: where it is published (paper, table, page or section), never
//!   empty.
//!
//! One (model, view, column, source) appears once. Every problem is
//! reported with the file, its line and the field, as dataset errors are.
//!
//! A leaderboard view shows the rows of its view as [`ReferenceLine`]s
//! ([`reference_lines`]): one per model and origin (the shipped files'
//! [`PUBLISHED`] rows, or a lab's import by its label).
//!
//! ```
//! use engine::benchmark::Benchmark;
//! use engine::reference::parse_reference;
//!
//! let csv = "model,family,view,column,value,source\n\
//!            Claude-Opus-5,closed,lca,overall,0.7211,LexPilot paper Table 2\n";
//! let rows = parse_reference("ref.csv", csv.as_bytes(), Benchmark::Lexpilot).unwrap();
//! assert_eq!(rows[0].ratio(Benchmark::Lexpilot), 0.7211);
//! let bad = "model,family,view,column,value,source\nX,,lca,tortt,0.5,p\n";
//! let err = parse_reference("ref.csv", bad.as_bytes(), Benchmark::Lexpilot).unwrap_err();
//! assert!(err.to_string().starts_with("ref.csv: line 2, field column: "));
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::benchmark::Benchmark;
use crate::core::columns::Scale;
use crate::core::entry::Family;
use crate::core::errors::{DatasetError, MAX_ERRORS};

/// The header's column names, in the order the shipped files write them.
pub const HEADER: [&str; 6] = ["model", "family", "view", "column", "value", "source"];

/// The origin of the shipped files' rows (`data/reference/*.csv`, papers
/// and releases): pages mark them "published"; a lab's own import has its
/// label as origin instead.
pub const PUBLISHED: &str = "published";

/// One published figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReferenceRow {
    pub model: String,
    /// As written; empty is `None`.
    pub family: Option<String>,
    pub view: String,
    pub column: String,
    /// As the leaderboard shows the column (PLawBench ×100).
    pub value: f64,
    pub source: String,
}

impl ReferenceRow {
    /// The value as a ratio, the scale the engine keeps scores on.
    pub fn ratio(&self, benchmark: Benchmark) -> f64 {
        self.value / scale(benchmark).factor()
    }
}

/// The scale reference values of `benchmark` are written on (as its main
/// leaderboard shows them).
pub fn scale(benchmark: Benchmark) -> Scale {
    match benchmark {
        Benchmark::Plawbench => Scale::Hundred,
        Benchmark::Lexpilot | Benchmark::Dlawbench => Scale::Unit,
    }
}

/// The (view, column) pairs `benchmark`'s reference rows may give.
pub fn allowed_columns(benchmark: Benchmark) -> Vec<(String, String)> {
    match benchmark {
        Benchmark::Lexpilot => crate::lexpilot::leaderboard::reference_columns(),
        Benchmark::Plawbench => crate::plawbench::leaderboard::reference_columns(),
        Benchmark::Dlawbench => crate::dlawbench::leaderboard::reference_columns(),
    }
}

/// Every problem of a refused reference file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReferenceErrors {
    /// The file's name, as given.
    pub file: String,
    /// In line order; line 0 is the file as a whole.
    pub errors: Vec<DatasetError>,
}

impl fmt::Display for ReferenceErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            if e.line == 0 {
                write!(f, "{}: {}", self.file, e.message)?;
            } else {
                write!(f, "{}: {e}", self.file)?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for ReferenceErrors {}

fn error(line: usize, field: &str, message: impl Into<String>) -> DatasetError {
    DatasetError {
        line,
        case_id: None,
        field: field.to_owned(),
        message: message.into(),
    }
}

/// Reads a reference file of `benchmark`: every row, or every problem
/// (file, line, field), checked against the benchmark's columns.
pub fn parse_reference(
    file: &str,
    bytes: &[u8],
    benchmark: Benchmark,
) -> Result<Vec<ReferenceRow>, ReferenceErrors> {
    let refuse = |errors: Vec<DatasetError>| ReferenceErrors {
        file: file.to_owned(),
        errors,
    };
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t.strip_prefix('\u{feff}').unwrap_or(t),
        Err(e) => {
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            return Err(refuse(vec![error(line, "", "not valid UTF-8")]));
        }
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut records = reader.records();
    let header = match records.next() {
        None => {
            return Err(refuse(vec![error(
                0,
                "",
                format!(
                    "the file is empty; it needs the header {}",
                    HEADER.join(",")
                ),
            )]))
        }
        Some(Err(e)) => return Err(refuse(vec![error(1, "", format!("not valid CSV: {e}"))])),
        Some(Ok(h)) => h,
    };
    let names: Vec<String> = header.iter().map(|h| h.trim().to_lowercase()).collect();
    let mut at = [0usize; 6];
    let mut errors = Vec::new();
    for (i, want) in HEADER.iter().enumerate() {
        match names.iter().position(|n| n == want) {
            Some(p) => at[i] = p,
            None => errors.push(error(
                1,
                want,
                format!(
                    "the header lacks column {want}; it must name {}",
                    HEADER.join(",")
                ),
            )),
        }
    }
    for n in &names {
        if !HEADER.contains(&n.as_str()) {
            errors.push(error(
                1,
                n,
                format!("not a column of a reference file ({})", HEADER.join(",")),
            ));
        }
    }
    if !errors.is_empty() {
        return Err(refuse(errors));
    }
    let allowed = allowed_columns(benchmark);
    let mut rows = Vec::new();
    let mut seen: BTreeMap<(String, String, String, String), usize> = BTreeMap::new();
    for record in records {
        if errors.len() >= MAX_ERRORS {
            errors.push(error(0, "", "too many errors; the rest are not listed"));
            break;
        }
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line() as usize);
                errors.push(error(line, "", format!("not valid CSV: {e}")));
                continue;
            }
        };
        let line = record.position().map_or(0, |p| p.line() as usize);
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        if record.len() != names.len() {
            errors.push(error(
                line,
                "",
                format!(
                    "{} fields where the header has {}",
                    record.len(),
                    names.len()
                ),
            ));
            continue;
        }
        let get = |i: usize| record.get(at[i]).unwrap_or_default().trim();
        let before = errors.len();
        let model = get(0);
        if model.is_empty() {
            errors.push(error(line, "model", "empty; name the model"));
        }
        let family = get(1);
        if !family.is_empty()
            && benchmark != Benchmark::Plawbench
            && Family::parse(family).is_none()
        {
            errors.push(error(
                line,
                "family",
                format!("{family:?} is not a family; expected legal, open, closed or empty"),
            ));
        }
        let (view, column) = (get(2), get(3));
        if !allowed.iter().any(|(v, _)| v == view) {
            let mut views: Vec<&str> = Vec::new();
            for (v, _) in &allowed {
                if !views.contains(&v.as_str()) {
                    views.push(v);
                }
            }
            errors.push(error(
                line,
                "view",
                format!(
                    "{view:?} is not a view of {}; expected one of {}",
                    benchmark.as_str(),
                    views.join(", ")
                ),
            ));
        } else if !allowed.iter().any(|(v, c)| v == view && c == column) {
            let columns: Vec<&str> = allowed
                .iter()
                .filter(|(v, _)| v == view)
                .map(|(_, c)| c.as_str())
                .collect();
            errors.push(error(
                line,
                "column",
                format!(
                    "{column:?} is not a column of view {view}; expected one of {}",
                    columns.join(", ")
                ),
            ));
        }
        let limit = scale(benchmark).factor();
        let value = match get(4).parse::<f64>() {
            Ok(v) if v.is_finite() && v.abs() <= limit => Some(v),
            Ok(_) => {
                errors.push(error(
                    line,
                    "value",
                    format!(
                        "{} is out of range; {} values are written from -{limit} to {limit}",
                        get(4),
                        benchmark.as_str()
                    ),
                ));
                None
            }
            Err(_) => {
                errors.push(error(
                    line,
                    "value",
                    format!("{:?} is not a number", get(4)),
                ));
                None
            }
        };
        let source = get(5);
        if source.is_empty() {
            errors.push(error(
                line,
                "source",
                "empty; say where the figure is published (paper, table, page or section)",
            ));
        }
        let key = (
            model.to_lowercase(),
            view.to_owned(),
            column.to_owned(),
            source.to_owned(),
        );
        if let Some(first) = seen.get(&key) {
            errors.push(error(
                line,
                "column",
                format!(
                    "{model} {view} {column} from this source is given on line {first} already"
                ),
            ));
        } else {
            seen.insert(key, line);
        }
        if errors.len() == before {
            rows.push(ReferenceRow {
                model: model.to_owned(),
                family: Some(family.to_owned()).filter(|f| !f.is_empty()),
                view: view.to_owned(),
                column: column.to_owned(),
                value: value.unwrap_or_default(),
                source: source.to_owned(),
            });
        }
    }
    if errors.is_empty() && rows.is_empty() {
        errors.push(error(0, "", "the file has a header but no rows"));
    }
    if errors.is_empty() {
        Ok(rows)
    } else {
        Err(refuse(errors))
    }
}

/// One reference line of a leaderboard view: a model's figures from one
/// origin (the shipped papers and releases, [`PUBLISHED`], or a lab's own
/// import by its label), one cell per column of the view (ratios).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReferenceLine {
    pub model: String,
    pub family: Option<String>,
    /// [`PUBLISHED`], or the label of a lab's own import.
    pub origin: String,
    /// Where the figures are published, each once, in file order.
    pub sources: Vec<String>,
    /// One per column of the view; `None` where the origin gives none.
    pub cells: Vec<Option<f64>>,
    /// The stored entry of the same model the deltas are taken against
    /// (its index in the score document), if any.
    pub stored: Option<usize>,
    /// Per column, stored mean − reference value (ratios), where both exist.
    pub deltas: Vec<Option<f64>>,
}

impl ReferenceLine {
    /// Whether the line is the shipped papers' and releases' figures.
    pub fn published(&self) -> bool {
        self.origin == PUBLISHED
    }
}

/// The reference lines of one leaderboard view: the rows (each with its
/// origin) whose view is one of `views`, grouped by (model, origin) in
/// order of first appearance, one cell per `columns` key. `stored` gives
/// per stored entry (its index, its model, its means per column in
/// `columns` order); the first entry whose model matches (case and
/// surrounding spaces aside) is the one a line's deltas are taken against.
pub fn reference_lines(
    benchmark: Benchmark,
    rows: &[(ReferenceRow, String)],
    views: &[String],
    columns: &[String],
    stored: &[(usize, String, Vec<Option<f64>>)],
) -> Vec<ReferenceLine> {
    let norm = |m: &str| m.trim().to_lowercase();
    let mut lines: Vec<ReferenceLine> = Vec::new();
    for (row, origin) in rows {
        if !views.contains(&row.view) {
            continue;
        }
        let Some(col) = columns.iter().position(|c| *c == row.column) else {
            continue;
        };
        let at = lines
            .iter()
            .position(|l| norm(&l.model) == norm(&row.model) && l.origin == *origin);
        let i = match at {
            Some(i) => i,
            None => {
                let entry = stored.iter().find(|(_, m, _)| norm(m) == norm(&row.model));
                lines.push(ReferenceLine {
                    model: row.model.clone(),
                    family: row.family.clone(),
                    origin: origin.clone(),
                    sources: Vec::new(),
                    cells: vec![None; columns.len()],
                    stored: entry.map(|(i, _, _)| *i),
                    deltas: vec![None; columns.len()],
                });
                lines.len() - 1
            }
        };
        let line = &mut lines[i];
        let ratio = row.ratio(benchmark);
        line.cells[col] = Some(ratio);
        if line.family.is_none() {
            line.family.clone_from(&row.family);
        }
        if !line.sources.contains(&row.source) {
            line.sources.push(row.source.clone());
        }
        if let Some((_, _, means)) = stored.iter().find(|(i, _, _)| Some(*i) == line.stored) {
            line.deltas[col] = means.get(col).copied().flatten().map(|m| m - ratio);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "model,family,view,column,value,source\n";

    fn parse(b: Benchmark, body: &str) -> Result<Vec<ReferenceRow>, ReferenceErrors> {
        parse_reference("r.csv", format!("{HEAD}{body}").as_bytes(), b)
    }

    #[test]
    fn reads_rows_of_each_benchmark() {
        let rows = parse(
            Benchmark::Lexpilot,
            "Claude-Opus-5,closed,ljp,overall_gold,0.646,\"LexPilot, Table 3\"\n\
             LegalOne-8B,,ljp/direct,tort,-0.05,lab\n",
        )
        .unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].source, "LexPilot, Table 3");
        assert_eq!(rows[1].family, None);
        let rows = parse(
            Benchmark::Plawbench,
            "GPT-5.2-1211-global,GPT,official,overall,69.67,README\n",
        )
        .unwrap();
        assert!((rows[0].ratio(Benchmark::Plawbench) - 0.6967).abs() < 1e-12);
        let rows = parse(
            Benchmark::Dlawbench,
            "GPT-5.5,closed,null_as_zero/cn,fidelity,0.9,x\n",
        )
        .unwrap();
        assert_eq!(rows[0].view, "null_as_zero/cn");
    }

    #[test]
    fn refuses_bad_rows_naming_line_and_field() {
        let err = parse(
            Benchmark::Lexpilot,
            "A,closed,lca,overall,0.5,p\n\
             ,weird,lcx,overall,abc,\n\
             B,open,ljp,tort,1.5,p\n\
             A,closed,lca,overall,0.6,p\n\
             C,open,lca\n",
        )
        .unwrap_err();
        let text = err.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "r.csv: line 3, field model: empty; name the model",
                "r.csv: line 3, field family: \"weird\" is not a family; expected legal, open, closed or empty",
                "r.csv: line 3, field view: \"lcx\" is not a view of lexpilot; expected one of lca, dcg, ljp, ljp/direct, ljp/interaction, ljp/gold",
                "r.csv: line 3, field value: \"abc\" is not a number",
                "r.csv: line 3, field source: empty; say where the figure is published (paper, table, page or section)",
                "r.csv: line 4, field column: \"tort\" is not a column of view ljp; expected one of overall_direct, overall_interaction, overall_gold, gain, relative_degradation",
                "r.csv: line 4, field value: 1.5 is out of range; lexpilot values are written from -1 to 1",
                "r.csv: line 5, field column: A lca overall from this source is given on line 2 already",
                "r.csv: line 6: 3 fields where the header has 6",
            ]
        );
    }

    #[test]
    fn refuses_bad_files() {
        let no_header = parse_reference(
            "r.csv",
            b"A,closed,lca,overall,0.5,p\n",
            Benchmark::Lexpilot,
        )
        .unwrap_err();
        assert!(no_header
            .to_string()
            .starts_with("r.csv: line 1, field model: the header lacks column model"));
        let empty = parse_reference("r.csv", b"", Benchmark::Lexpilot).unwrap_err();
        assert!(empty.to_string().contains("the file is empty"));
        let bad_utf8 = parse_reference("r.csv", b"model\n\xff\n", Benchmark::Lexpilot).unwrap_err();
        assert_eq!(bad_utf8.to_string(), "r.csv: line 2: not valid UTF-8");
        let only_header = parse(Benchmark::Lexpilot, "").unwrap_err();
        assert_eq!(
            only_header.to_string(),
            "r.csv: the file has a header but no rows"
        );
        let over = parse(Benchmark::Plawbench, "M,Q,official,task1,100.5,p\n").unwrap_err();
        assert!(over
            .to_string()
            .contains("field value: 100.5 is out of range"));
    }

    #[test]
    fn lines_group_by_model_and_source_with_deltas() {
        let rows = parse(
            Benchmark::Lexpilot,
            "Claude-Opus-5,closed,lca,overall,0.7211,paper\n\
             Claude-Opus-5,closed,lca,acc_complete,0.6134,paper\n\
             Other,open,lca,overall,0.5,paper\n\
             Other,open,dcg,overall,0.4,paper\n",
        )
        .unwrap();
        let mut rows: Vec<_> = rows
            .into_iter()
            .map(|r| (r, PUBLISHED.to_owned()))
            .collect();
        let mut own = rows[0].clone();
        own.1 = "lab-2026".to_owned();
        own.0.value = 0.7;
        rows.push(own);
        let columns: Vec<String> = ["overall", "acc_complete"].map(String::from).to_vec();
        let stored = [(3, " claude-opus-5".to_owned(), vec![Some(0.75), None])];
        let lines = reference_lines(
            Benchmark::Lexpilot,
            &rows,
            &["lca".to_owned()],
            &columns,
            &stored,
        );
        assert_eq!(lines.len(), 3);
        assert!(lines[0].published());
        assert_eq!(lines[0].sources, ["paper"]);
        assert_eq!(lines[0].cells, [Some(0.7211), Some(0.6134)]);
        assert!(!lines[2].published());
        assert!((lines[2].deltas[0].unwrap() - 0.05).abs() < 1e-12);
        assert_eq!(lines[0].stored, Some(3));
        assert!((lines[0].deltas[0].unwrap() - 0.0289).abs() < 1e-12);
        assert_eq!(lines[0].deltas[1], None);
        assert_eq!(lines[1].stored, None);
        assert_eq!(lines[1].cells, [Some(0.5), None]);
    }

    #[test]
    fn shipped_files_pass_the_check() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/reference/");
        for (file, benchmark, rows) in [
            (
                "lexpilot.csv",
                Benchmark::Lexpilot,
                10 * 7 * 2 + 10 * 2 + 10 * 3,
            ),
            ("plawbench.csv", Benchmark::Plawbench, 24 * 10),
            ("dlawbench.csv", Benchmark::Dlawbench, 18),
        ] {
            let bytes = std::fs::read(format!("{root}{file}")).unwrap();
            let parsed = parse_reference(file, &bytes, benchmark).unwrap();
            assert_eq!(parsed.len(), rows, "{file}");
            assert!(parsed.iter().all(|r| !r.source.is_empty()));
        }
    }
}
