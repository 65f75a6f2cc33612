//! Tables as data, and the one writer that turns any of them into a file:
//! CSV, JSON or LaTeX. A page's table is built once as a [`Table`]
//! (columns with an id and a label in the page's language, rows of typed
//! [`Cell`]s) and [`Table::write`] makes every format of it, so a new table
//! gets its exports without a writer of its own.
//!
//! - **CSV** (through the `csv` crate and [`crate::spreadsheet`], so no cell
//!   is ever run as a formula): UTF-8 with a byte-order mark, which Excel
//!   needs to read Chinese text as UTF-8 (the `csv` crate, pandas and
//!   Python's `utf-8-sig` skip it); a header row of the column labels; a
//!   [`Cell::MeanStd`] column becomes two, the mean and the std; numbers at
//!   full precision.
//! - **JSON**: `{"caption", "columns": [{"id", "label"}], "rows": [{id:
//!   value}]}`, a row an object keyed by column id; empty cells are `null`,
//!   a mean ± std is `{"mean", "std"}`.
//! - **LaTeX**: a `booktabs` `table*` with the caption; text escaped
//!   ([`latex_escape`]; CJK passes through, line breaks become spaces);
//!   numbers to the column's decimals; `--` for an empty cell; the best
//!   value of a column that has a direction ([`Better`]) in bold; a
//!   [`Column::group`] column written once per block of equal values, with
//!   a rule between blocks.
//!
//! # Examples
//!
//! ```
//! use engine::lang::Lang;
//! use engine::core::columns::Better;
//! use engine::core::table::{Cell, Column, Format, Table};
//!
//! let table = Table {
//!     caption: "Runs".into(),
//!     lang: Lang::En,
//!     columns: vec![
//!         Column::text("model", "Model"),
//!         Column::number("acc", "Accuracy", 2).better(Better::Higher),
//!     ],
//!     rows: vec![
//!         vec![Cell::text("=A1"), Cell::MeanStd { mean: 0.5, std: Some(0.125) }],
//!         vec![Cell::text("通义千问"), Cell::MeanStd { mean: 0.75, std: None }],
//!     ],
//! };
//! assert_eq!(
//!     table.write(Format::Csv),
//!     "\u{feff}Model,Accuracy (mean),Accuracy (std)\n'=A1,0.5,0.125\n通义千问,0.75,\n"
//! );
//! assert!(table.write(Format::Latex).contains(r"通义千问 & \textbf{0.75} \\"));
//! let json: serde_json::Value = serde_json::from_str(&table.write(Format::Json)).unwrap();
//! assert_eq!(json["rows"][0]["acc"]["std"], 0.125);
//! ```

use serde_json::{json, Map, Value};

use crate::core::columns::Better;
use crate::lang::Lang;

/// The byte-order mark every CSV file starts with (see the module docs).
pub const BOM: char = '\u{feff}';

/// A table as a page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// What the table shows: the LaTeX caption and the JSON `caption`.
    pub caption: String,
    /// The language of the labels (and of the words the writer adds).
    pub lang: Lang,
    /// The columns, in order.
    pub columns: Vec<Column>,
    /// The rows; each has one cell per column.
    pub rows: Vec<Vec<Cell>>,
}

/// One column.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// A stable key: the JSON rows' field name.
    pub id: String,
    /// The header, in the table's language.
    pub label: String,
    /// Which way the column is better ([`Better`], as the page's own
    /// column declares it): LaTeX bolds its best value; none for
    /// [`Better::Neither`].
    pub better: Better,
    /// Decimals of its numbers in LaTeX (CSV and JSON keep full precision).
    pub decimals: usize,
    /// Rows with the same value form a block: LaTeX writes the value once
    /// per block and a rule between blocks.
    pub group: bool,
}

/// One cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Nothing (no value, or not applicable).
    Empty,
    /// Text, written as it is (escaped where the format needs it).
    Text(String),
    /// A whole number.
    Int(i64),
    /// A number.
    Number(f64),
    /// A mean with its std over runs (none from one run).
    MeanStd {
        /// The mean.
        mean: f64,
        /// The sample std; `None` when there is none.
        std: Option<f64>,
    },
}

/// A file format of the writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Comma-separated values.
    Csv,
    /// JSON.
    Json,
    /// A LaTeX table.
    Latex,
}

impl Column {
    /// A text column.
    pub fn text(id: &str, label: &str) -> Column {
        Column {
            id: id.to_owned(),
            label: label.to_owned(),
            better: Better::Neither,
            decimals: 4,
            group: false,
        }
    }

    /// A column of numbers shown to `decimals` in LaTeX.
    pub fn number(id: &str, label: &str, decimals: usize) -> Column {
        Column {
            decimals,
            ..Column::text(id, label)
        }
    }

    /// The column, with `better` as the way it is better.
    pub fn better(self, better: Better) -> Column {
        Column { better, ..self }
    }

    /// The column, as the one whose blocks of equal values group the rows.
    pub fn grouping(self) -> Column {
        Column {
            group: true,
            ..self
        }
    }
}

impl Cell {
    /// A text cell.
    pub fn text(text: impl Into<String>) -> Cell {
        Cell::Text(text.into())
    }

    /// A text cell, or [`Cell::Empty`] for `None`.
    pub fn opt_text(text: Option<impl Into<String>>) -> Cell {
        text.map_or(Cell::Empty, Cell::text)
    }

    /// A number, or [`Cell::Empty`] for `None`.
    pub fn opt_number(value: Option<f64>) -> Cell {
        value.map_or(Cell::Empty, Cell::Number)
    }

    /// A count.
    pub fn count(n: usize) -> Cell {
        Cell::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }

    /// The number a column's best is judged by: the value, or the mean.
    fn value(&self) -> Option<f64> {
        match *self {
            Cell::Int(n) => Some(n as f64),
            Cell::Number(x) | Cell::MeanStd { mean: x, .. } => Some(x).filter(|x| x.is_finite()),
            Cell::Empty | Cell::Text(_) => None,
        }
    }
}

impl Format {
    /// Every format, in the order pages offer them.
    pub const ALL: [Format; 3] = [Format::Csv, Format::Json, Format::Latex];

    /// `csv`, `json` or `latex`: the `format` query value.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Latex => "latex",
        }
    }

    /// The format named `name` ([`Format::as_str`]).
    ///
    /// ```
    /// use engine::core::table::Format;
    /// assert_eq!(Format::parse("latex"), Some(Format::Latex));
    /// assert_eq!(Format::parse("pdf"), None);
    /// ```
    pub fn parse(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == name)
    }

    /// The file name extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Latex => "tex",
        }
    }

    /// The HTTP `Content-Type` of a file in this format.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Csv => "text/csv; charset=utf-8",
            Format::Json => "application/json",
            Format::Latex => "application/x-tex; charset=utf-8",
        }
    }
}

impl Table {
    /// The table in `format` (see the [module documentation](self)).
    pub fn write(&self, format: Format) -> String {
        match format {
            Format::Csv => self.to_csv(),
            Format::Json => self.to_json(),
            Format::Latex => self.to_latex(),
        }
    }

    /// Whether column `c` holds a mean ± std in any row (CSV writes two).
    fn has_std(&self, c: usize) -> bool {
        self.rows
            .iter()
            .any(|row| matches!(row.get(c), Some(Cell::MeanStd { .. })))
    }

    fn to_csv(&self) -> String {
        let split: Vec<bool> = (0..self.columns.len()).map(|c| self.has_std(c)).collect();
        let (mean, std) = match self.lang {
            Lang::Zh => ("（均值）", "（标准差）"),
            Lang::En => (" (mean)", " (std)"),
        };
        let mut header = Vec::new();
        for (column, &split) in self.columns.iter().zip(&split) {
            if split {
                header.push(format!("{}{mean}", column.label));
                header.push(format!("{}{std}", column.label));
            } else {
                header.push(column.label.clone());
            }
        }
        let mut records = vec![header];
        for row in &self.rows {
            let mut record = Vec::with_capacity(header_len(&split));
            for (c, &split) in split.iter().enumerate() {
                let cell = row.get(c).unwrap_or(&Cell::Empty);
                match cell {
                    Cell::MeanStd { mean, std } => {
                        record.push(mean.to_string());
                        record.push(std.map(|s| s.to_string()).unwrap_or_default());
                    }
                    other => {
                        record.push(csv_text(other));
                        if split {
                            record.push(String::new());
                        }
                    }
                }
            }
            records.push(record);
        }
        format!("{BOM}{}", crate::spreadsheet::to_csv(records))
    }

    fn to_json(&self) -> String {
        let columns: Vec<Value> = self
            .columns
            .iter()
            .map(|c| json!({ "id": c.id, "label": c.label }))
            .collect();
        let rows: Vec<Value> = self
            .rows
            .iter()
            .map(|row| {
                let mut object = Map::new();
                for (c, column) in self.columns.iter().enumerate() {
                    let cell = row.get(c).unwrap_or(&Cell::Empty);
                    object.insert(column.id.clone(), json_value(cell));
                }
                Value::Object(object)
            })
            .collect();
        let document = json!({ "caption": self.caption, "columns": columns, "rows": rows });
        serde_json::to_string_pretty(&document).unwrap_or_default()
    }

    fn to_latex(&self) -> String {
        let numeric: Vec<bool> = (0..self.columns.len())
            .map(|c| {
                self.rows.iter().all(|row| {
                    matches!(
                        row.get(c),
                        None | Some(
                            Cell::Empty | Cell::Int(_) | Cell::Number(_) | Cell::MeanStd { .. }
                        )
                    )
                })
            })
            .collect();
        let best: Vec<Option<f64>> = self
            .columns
            .iter()
            .enumerate()
            .map(|(c, column)| {
                let values = self.rows.iter().filter_map(|row| row.get(c)?.value());
                column.better.best(values)
            })
            .collect();
        let align: String = numeric.iter().map(|&n| if n { 'r' } else { 'l' }).collect();
        let mut out = format!("\\begin{{table*}}[t]\n\\centering\n\\small\n\\begin{{tabular}}{{{align}}}\n\\toprule\n");
        let labels: Vec<String> = self
            .columns
            .iter()
            .map(|c| latex_escape(&c.label))
            .collect();
        out.push_str(&labels.join(" & "));
        out.push_str(" \\\\\n\\midrule\n");
        let mut previous: Option<&[Cell]> = None;
        for row in &self.rows {
            let new_block = self.columns.iter().enumerate().any(|(c, column)| {
                column.group && previous.is_some_and(|p| p.get(c) != row.get(c))
            });
            if new_block {
                out.push_str("\\midrule\n");
            }
            let cells: Vec<String> = self
                .columns
                .iter()
                .enumerate()
                .map(|(c, column)| {
                    let cell = row.get(c).unwrap_or(&Cell::Empty);
                    let repeated = previous.is_some_and(|p| p.get(c) == row.get(c));
                    if column.group && repeated && !new_block {
                        return String::new();
                    }
                    let text = latex_text(cell, column.decimals);
                    let is_best = best[c].is_some() && cell.value() == best[c];
                    if is_best {
                        format!("\\textbf{{{text}}}")
                    } else {
                        text
                    }
                })
                .collect();
            out.push_str(&cells.join(" & "));
            out.push_str(" \\\\\n");
            previous = Some(row.as_slice());
        }
        out.push_str("\\bottomrule\n\\end{tabular}\n");
        out.push_str(&format!(
            "\\caption{{{}}}\n\\end{{table*}}\n",
            latex_escape(&self.caption)
        ));
        out
    }
}

/// The CSV width of a header whose columns `split` into mean and std.
fn header_len(split: &[bool]) -> usize {
    split.iter().map(|&s| if s { 2 } else { 1 }).sum()
}

/// A cell (not a mean ± std) as one CSV field.
fn csv_text(cell: &Cell) -> String {
    match cell {
        Cell::Empty => String::new(),
        Cell::Text(text) => text.clone(),
        Cell::Int(n) => n.to_string(),
        Cell::Number(x) if x.is_finite() => x.to_string(),
        Cell::Number(_) => String::new(),
        Cell::MeanStd { mean, .. } => mean.to_string(),
    }
}

/// A cell as a JSON value.
fn json_value(cell: &Cell) -> Value {
    let number = |x: f64| serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number);
    match cell {
        Cell::Empty => Value::Null,
        Cell::Text(text) => Value::String(text.clone()),
        Cell::Int(n) => Value::from(*n),
        Cell::Number(x) => number(*x),
        Cell::MeanStd { mean, std } => json!({
            "mean": number(*mean),
            "std": std.map_or(Value::Null, number),
        }),
    }
}

/// A cell as LaTeX: escaped text, numbers to `decimals`, `--` for nothing.
fn latex_text(cell: &Cell, decimals: usize) -> String {
    match cell {
        Cell::Empty => "--".to_owned(),
        Cell::Text(text) => latex_escape(&text.replace(['\r', '\n'], " ")),
        Cell::Int(n) => n.to_string(),
        Cell::Number(x) if x.is_finite() => format!("{x:.decimals$}"),
        Cell::Number(_) => "--".to_owned(),
        Cell::MeanStd { mean, std } => match std {
            Some(std) => format!("{mean:.decimals$}$\\pm${std:.decimals$}"),
            None => format!("{mean:.decimals$}"),
        },
    }
}

/// `text` with LaTeX's special characters escaped; everything else (CJK
/// included) is passed through.
///
/// ```
/// use engine::core::table::latex_escape;
/// assert_eq!(latex_escape("50% & $5_x {a} #1"), r"50\% \& \$5\_x \{a\} \#1");
/// assert_eq!(latex_escape(r"a~b^c\d"), r"a\textasciitilde{}b\textasciicircum{}c\textbackslash{}d");
/// assert_eq!(latex_escape("民法典"), "民法典");
/// ```
pub fn latex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out.push_str(r"\textasciitilde{}"),
            '^' => out.push_str(r"\textasciicircum{}"),
            '\\' => out.push_str(r"\textbackslash{}"),
            _ => out.push(ch),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn table(rows: Vec<Vec<Cell>>) -> Table {
        Table {
            caption: "案例 & runs_1".into(),
            lang: Lang::Zh,
            columns: vec![
                Column::text("case", "案例").grouping(),
                Column::text("reply", "回复"),
                Column::number("score", "得分", 2).better(Better::Lower),
            ],
            rows,
        }
    }

    fn read_csv(text: &str) -> Vec<Vec<String>> {
        csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_bytes())
            .records()
            .map(|r| {
                r.expect("CSV reads back")
                    .iter()
                    .map(str::to_owned)
                    .collect()
            })
            .collect()
    }

    #[test]
    fn csv_quotes_commas_quotes_and_line_breaks_and_reads_back_with_cjk() {
        let reply = "他说：\"不清楚\"，\n然后, 离开了";
        let t = table(vec![vec![
            Cell::text("民-1"),
            Cell::text(reply),
            Cell::Number(-0.25),
        ]]);
        let csv = t.write(Format::Csv);
        assert!(csv.starts_with('\u{feff}'), "a BOM first");
        assert!(
            csv.contains("\"他说：\"\"不清楚\"\"，\n然后, 离开了\""),
            "{csv}"
        );
        assert_eq!(
            read_csv(&csv),
            vec![
                vec!["案例".to_owned(), "回复".into(), "得分".into()],
                vec!["民-1".into(), reply.into(), "-0.25".into()],
            ]
        );
    }

    #[test]
    fn csv_splits_mean_and_std_in_the_tables_language_and_leaves_gaps_empty() {
        let mut t = table(vec![
            vec![
                Cell::text("A"),
                Cell::Empty,
                Cell::MeanStd {
                    mean: 0.5,
                    std: Some(0.1),
                },
            ],
            vec![Cell::text("B"), Cell::Empty, Cell::Empty],
        ]);
        let rows = read_csv(&t.write(Format::Csv));
        assert_eq!(
            rows[0][2..],
            ["得分（均值）".to_owned(), "得分（标准差）".to_owned()]
        );
        assert_eq!(rows[1][2..], ["0.5".to_owned(), "0.1".to_owned()]);
        assert_eq!(rows[2][2..], [String::new(), String::new()]);
        t.lang = Lang::En;
        assert_eq!(read_csv(&t.write(Format::Csv))[0][3], "得分 (std)");
    }

    #[test]
    fn json_rows_are_objects_keyed_by_column_id() {
        let t = table(vec![vec![
            Cell::text("A"),
            Cell::Empty,
            Cell::MeanStd {
                mean: 0.5,
                std: None,
            },
        ]]);
        let json: Value = serde_json::from_str(&t.write(Format::Json)).expect("JSON");
        assert_eq!(json["caption"], "案例 & runs_1");
        assert_eq!(json["columns"][1], json!({"id": "reply", "label": "回复"}));
        assert_eq!(
            json["rows"][0],
            json!({"case": "A", "reply": null, "score": {"mean": 0.5, "std": null}})
        );
        let nan = table(vec![vec![
            Cell::Int(3),
            Cell::Number(f64::NAN),
            Cell::Empty,
        ]]);
        let json: Value = serde_json::from_str(&nan.write(Format::Json)).expect("JSON");
        assert_eq!(json["rows"][0]["case"], 3);
        assert_eq!(json["rows"][0]["reply"], Value::Null);
    }

    #[test]
    fn latex_escapes_specials_keeps_cjk_bolds_the_best_and_groups_blocks() {
        let t = table(vec![
            vec![
                Cell::text("民_1"),
                Cell::text("50% & $x$\n{y}"),
                Cell::Number(0.5),
            ],
            vec![
                Cell::text("民_1"),
                Cell::text("#2 ~ ^ \\"),
                Cell::Number(0.25),
            ],
            vec![
                Cell::text("刑_2"),
                Cell::Empty,
                Cell::MeanStd {
                    mean: 0.75,
                    std: Some(0.25),
                },
            ],
        ]);
        let tex = t.write(Format::Latex);
        assert!(tex.contains("\\begin{tabular}{llr}"), "{tex}");
        assert!(tex.contains("案例 & 回复 & 得分 \\\\"), "{tex}");
        assert!(
            tex.contains("民\\_1 & 50\\% \\& \\$x\\$ \\{y\\} & 0.50 \\\\"),
            "{tex}"
        );
        assert!(
            tex.contains(" & \\#2 \\textasciitilde{} \\textasciicircum{} \\textbackslash{} & \\textbf{0.25} \\\\"),
            "the group is written once per block, the lowest is best: {tex}"
        );
        assert!(
            tex.contains("\\midrule\n刑\\_2 & -- & 0.75$\\pm$0.25 \\\\"),
            "{tex}"
        );
        assert!(tex.contains("\\caption{案例 \\& runs\\_1}"), "{tex}");
    }

    proptest! {
        #[test]
        fn any_text_survives_a_csv_round_trip(cells in proptest::collection::vec("[a-z0-9,\"\n 案例=+@-]{0,12}", 1..4)) {
            let t = Table {
                caption: String::new(),
                lang: Lang::En,
                columns: (0..cells.len()).map(|i| Column::text(&format!("c{i}"), &format!("C{i}"))).collect(),
                rows: vec![cells.iter().map(|c| Cell::text(c.as_str())).collect()],
            };
            let back = read_csv(&t.write(Format::Csv));
            prop_assert_eq!(back.len(), 2);
            for (written, given) in back[1].iter().zip(&cells) {
                let safe = crate::spreadsheet::safe_cell(given);
                prop_assert_eq!(written, safe.as_ref());
            }
        }
    }
}
