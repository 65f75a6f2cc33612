//! PLawBench's official release as it is released (`SKYLENAGE-AI/PLawBench`
//! @ `f6ee07b`; `docs/benchmarks/plawbench.md` §B1.2): four files, one per
//! task, in their own shapes, read into the workbench's [`Item`]s.
//!
//! | file | shape | task |
//! |---|---|---|
//! | `practical_case_analysis_250.jsonl` | one `{label, context, question, rubrics}` a line | `case_analysis` |
//! | `public_legal_consultation_18.json` | an array of `{id, conversation, rubrics, score}` | `legal_consultation` |
//! | `Plantiffs_Statement.json` | an array of `{id, tag, conversation, Rubrics, score}` | `plaintiff_statement` |
//! | `Defendants_Statement.json` | the same | `defendant_statement` |
//!
//! What the release lacks is derived by the rules of §B1.2 ([`ReleaseFile`],
//! [`max_points_of_rubric`]): item ids as evalscope numbers them
//! (`<task>-<n>`), a `case_analysis` item's `max_points` as its sections'
//! sum, and for an empty `score` the rubric's `总分` line or else the sum of
//! its `(+N分)` marks, with a warning for each item so derived. Any other
//! shape is refused, naming the file, the line and the release's own field;
//! every rule of [`super::dataset`] then applies to the items.
//!
//! Depends on serde_json, regex and [`super::dataset`]; reads text only.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::dataset::{read_item, Item, Task};
use super::json::OrderedJson;
use crate::core::errors::{DatasetError, DatasetErrors, DatasetWarning};
use crate::core::lines::{describe, json_message, line_error, read_lines, ErrorLog};

/// One of the four data files of the release, known by its file name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ReleaseFile {
    /// `practical_case_analysis_250.jsonl`.
    CaseAnalysis,
    /// `public_legal_consultation_18.json`.
    Consultation,
    /// `Plantiffs_Statement.json` (the release's spelling).
    Plaintiff,
    /// `Defendants_Statement.json`.
    Defendant,
}

impl ReleaseFile {
    /// The four, in the order their items are stored (the task order).
    pub const ALL: [ReleaseFile; 4] = [
        ReleaseFile::CaseAnalysis,
        ReleaseFile::Consultation,
        ReleaseFile::Plaintiff,
        ReleaseFile::Defendant,
    ];

    /// The file's name in the release.
    pub const fn file_name(self) -> &'static str {
        match self {
            ReleaseFile::CaseAnalysis => "practical_case_analysis_250.jsonl",
            ReleaseFile::Consultation => "public_legal_consultation_18.json",
            ReleaseFile::Plaintiff => "Plantiffs_Statement.json",
            ReleaseFile::Defendant => "Defendants_Statement.json",
        }
    }

    /// The release file a path names (its last component, exactly as
    /// released), if any.
    ///
    /// ```
    /// use engine::plawbench::release::ReleaseFile;
    /// assert_eq!(ReleaseFile::of_path("PLawBench/Plantiffs_Statement.json"), Some(ReleaseFile::Plaintiff));
    /// assert_eq!(ReleaseFile::of_path("README.md"), None);
    /// ```
    pub fn of_path(path: &str) -> Option<ReleaseFile> {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        ReleaseFile::ALL.into_iter().find(|f| f.file_name() == name)
    }

    /// The task of the file's items.
    pub const fn task(self) -> Task {
        match self {
            ReleaseFile::CaseAnalysis => Task::CaseAnalysis,
            ReleaseFile::Consultation => Task::LegalConsultation,
            ReleaseFile::Plaintiff => Task::PlaintiffStatement,
            ReleaseFile::Defendant => Task::DefendantStatement,
        }
    }

    /// The fields of one record, exactly (the release's spelling).
    const fn fields(self) -> &'static [&'static str] {
        match self {
            ReleaseFile::CaseAnalysis => &["label", "context", "question", "rubrics"],
            ReleaseFile::Consultation => &["id", "conversation", "rubrics", "score"],
            ReleaseFile::Plaintiff | ReleaseFile::Defendant => {
                &["id", "tag", "conversation", "Rubrics", "score"]
            }
        }
    }

    /// The release's field a workbench item field comes from.
    fn release_field(self, ours: &str) -> String {
        let (head, rest) = match ours.find(['[', '.']) {
            Some(at) => ours.split_at(at),
            None => (ours, ""),
        };
        let theirs = match (self, head) {
            (ReleaseFile::CaseAnalysis, "category") => "label",
            (ReleaseFile::CaseAnalysis, "sections" | "max_points") => "rubrics",
            (_, "item_id") => "id",
            (_, "question") => "conversation",
            (_, "category") => "tag",
            (_, "max_points") => "score",
            (ReleaseFile::Consultation, "rubric") => "rubrics",
            (_, "rubric") => "Rubrics",
            (_, other) => other,
        };
        format!("{theirs}{rest}")
    }
}

impl fmt::Display for ReleaseFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.file_name())
    }
}

/// What the release's files gave: every item in task order, and a warning
/// for every item with a derived maximum, each with its file's name.
#[derive(Debug, Clone, PartialEq)]
pub struct Release {
    /// The items, `case_analysis` first, then consultation, plaintiff and
    /// defendant (whatever order the files came in).
    pub items: Vec<Item>,
    /// (file name, warning), in file then line order.
    pub warnings: Vec<(String, DatasetWarning)>,
}

/// Every problem of the files that were refused: (file name, its errors).
#[derive(Debug, Clone, PartialEq)]
pub struct ReleaseErrors(pub Vec<(String, DatasetErrors)>);

impl fmt::Display for ReleaseErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (file, errors) in &self.0 {
            for error in &errors.0 {
                if !first {
                    writeln!(f)?;
                }
                first = false;
                // Line 0: the file as a whole (its name), not a line of it.
                if error.line == 0 {
                    write!(f, "{file}: {}", error.message)?;
                } else {
                    write!(f, "{file}: {error}")?;
                }
            }
        }
        Ok(())
    }
}

impl std::error::Error for ReleaseErrors {}

/// Reads the release's data files, each given as (its path or name, its
/// bytes): all of them, or every error of every file. Each file is known by
/// its name ([`ReleaseFile::of_path`]); a name that is not one of the four,
/// or one given twice, is refused.
///
/// # Examples
///
/// ```
/// use engine::plawbench::release::parse_release;
///
/// let consultation = r#"[
///   {
///     "id": 1,
///     "conversation": "律师啊！我要离婚。",
///     "rubrics": "1.（+3分）是否报警？\n2.（+2分）协议内容？",
///     "score": ""
///   }
/// ]"#;
/// let release = parse_release(&[("public_legal_consultation_18.json", consultation.as_bytes())]).unwrap();
/// assert_eq!(release.items[0].item_id, "legal_consultation-1");
/// assert_eq!(release.items[0].max_points, 5);
/// assert_eq!(
///     release.warnings[0].1.to_string(),
///     "line 6 (legal_consultation-1), field score: is empty; max_points 5 is the sum of the rubric's 2 (+N分) marks, as it has no 总分 line"
/// );
///
/// let wrong = consultation.replace(r#""score": """#, r#""score": "十""#);
/// assert_eq!(
///     parse_release(&[("public_legal_consultation_18.json", wrong.as_bytes())]).unwrap_err().to_string(),
///     "public_legal_consultation_18.json: line 6 (legal_consultation-1), field score: expected a whole number ≥ 1, or \"\" to derive it from the rubric, got \"十\""
/// );
/// ```
pub fn parse_release<N: AsRef<str>, B: AsRef<[u8]>>(
    files: &[(N, B)],
) -> Result<Release, ReleaseErrors> {
    let mut read: BTreeMap<ReleaseFile, (String, Vec<Item>, Vec<DatasetWarning>)> = BTreeMap::new();
    let mut failed = Vec::new();
    for (name, bytes) in files {
        let name = name.as_ref();
        let Some(kind) = ReleaseFile::of_path(name) else {
            failed.push((
                name.to_owned(),
                DatasetErrors(vec![line_error(
                    0,
                    format!(
                        "not a file of the PLawBench release; its data files are {}",
                        ReleaseFile::ALL.map(ReleaseFile::file_name).join(", ")
                    ),
                )]),
            ));
            continue;
        };
        if let Some((first, ..)) = read.get(&kind) {
            failed.push((
                name.to_owned(),
                DatasetErrors(vec![line_error(
                    0,
                    format!("{kind} is given twice (first as {first})"),
                )]),
            ));
            continue;
        }
        let (items, warnings) = parse_release_file(kind, bytes.as_ref());
        match items {
            Ok(items) => {
                read.insert(kind, (name.to_owned(), items, warnings));
            }
            Err(errors) => failed.push((name.to_owned(), errors)),
        }
    }
    if !failed.is_empty() {
        return Err(ReleaseErrors(failed));
    }
    let mut release = Release {
        items: Vec::new(),
        warnings: Vec::new(),
    };
    for (name, items, warnings) in read.into_values() {
        release.items.extend(items);
        release
            .warnings
            .extend(warnings.into_iter().map(|w| (name.clone(), w)));
    }
    Ok(release)
}

/// Reads one release file of kind `kind`: its items or every error, and the
/// warnings of its derived maxima.
pub fn parse_release_file(
    kind: ReleaseFile,
    bytes: &[u8],
) -> (Result<Vec<Item>, DatasetErrors>, Vec<DatasetWarning>) {
    match kind {
        ReleaseFile::CaseAnalysis => (case_analysis_lines(bytes), Vec::new()),
        _ => array_file(kind, bytes),
    }
}

/// `practical_case_analysis_250.jsonl`: item n (1-based, blank lines not
/// counted) is `case_analysis-n`.
fn case_analysis_lines(bytes: &[u8]) -> Result<Vec<Item>, DatasetErrors> {
    let kind = ReleaseFile::CaseAnalysis;
    let mut errors = ErrorLog::default();
    let mut items = Vec::new();
    let mut n = 0u32;
    let result = read_lines(bytes, |line, text| {
        let text = match text {
            Ok(text) => text,
            Err(e) => return errors.push(e),
        };
        n += 1;
        let item_id = format!("{}-{n}", kind.task());
        let record: OrderedJson = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => return errors.push(line_error(line, json_message(&e, text))),
        };
        let mut f = Fields::new(kind, &item_id, line);
        let item = f.case_analysis(&record);
        f.errors.into_iter().for_each(|e| errors.push(e));
        items.extend(item);
    });
    if let Err(e) = result {
        errors.push(e);
    }
    errors.finish().map(|()| items)
}

/// The errors and warnings of one record, each naming its line and the
/// release's field.
struct Fields {
    kind: ReleaseFile,
    item_id: String,
    /// The record's first line; a field without a line of its own gets it.
    line: usize,
    errors: Vec<DatasetError>,
    warnings: Vec<DatasetWarning>,
}

impl Fields {
    fn new(kind: ReleaseFile, item_id: &str, line: usize) -> Fields {
        Fields {
            kind,
            item_id: item_id.to_owned(),
            line,
            errors: Vec::new(),
            warnings: Vec::new(),
        }
    }

    fn fail(&mut self, line: usize, field: &str, message: String) {
        self.errors.push(DatasetError {
            line,
            case_id: Some(self.item_id.clone()),
            field: field.to_owned(),
            message,
        });
    }

    /// The record's members, refusing a non-object, a missing field and a
    /// field the release does not have.
    fn members<'v>(
        &mut self,
        record: &'v OrderedJson,
        lines: &BTreeMap<String, usize>,
    ) -> Option<BTreeMap<&'v str, &'v OrderedJson>> {
        let OrderedJson::Object(members) = record else {
            self.fail(
                self.line,
                "",
                format!(
                    "expected an object with {}, got {}",
                    self.kind.fields().join(", "),
                    describe(&record.to_value())
                ),
            );
            return None;
        };
        let found: BTreeMap<&str, &OrderedJson> =
            members.iter().map(|(k, v)| (k.as_str(), v)).collect();
        for key in found.keys() {
            if !self.kind.fields().contains(key) {
                let line = lines.get(*key).copied().unwrap_or(self.line);
                self.fail(
                    line,
                    key,
                    format!(
                        "not a field of {}; its records have exactly {}",
                        self.kind,
                        self.kind.fields().join(", ")
                    ),
                );
            }
        }
        for field in self.kind.fields() {
            if !found.contains_key(field) {
                self.fail(self.line, field, "missing required field".into());
            }
        }
        Some(found)
    }

    fn string(&mut self, line: usize, field: &str, v: Option<&OrderedJson>) -> Option<String> {
        match v? {
            OrderedJson::String(s) => Some(s.clone()),
            other => {
                self.fail(
                    line,
                    field,
                    format!("expected a string, got {}", describe(&other.to_value())),
                );
                None
            }
        }
    }

    /// The workbench item of a `case_analysis` line: `label` → `category`,
    /// `rubrics` → `sections` (as released), `max_points` their sum.
    fn case_analysis(&mut self, record: &OrderedJson) -> Option<Item> {
        let line = self.line;
        let found = self.members(record, &BTreeMap::new())?;
        let label = self.string(line, "label", found.get("label").copied());
        let context = self.string(line, "context", found.get("context").copied());
        let question = self.string(line, "question", found.get("question").copied());
        let sections = found.get("rubrics").copied();
        let max_points = match sections {
            Some(OrderedJson::Array(entries)) => {
                let sum: Option<f64> = entries
                    .iter()
                    .map(|e| match e.get("points") {
                        Some(OrderedJson::String(s)) => s.trim().parse::<f64>().ok(),
                        Some(OrderedJson::Number(n)) => n.as_f64(),
                        _ => None,
                    })
                    .sum();
                // A bad entry is named by the item's own rules below.
                let sum = sum.unwrap_or(0.0);
                if sum.fract() == 0.0 && sum >= 1.0 && sum <= f64::from(u32::MAX) {
                    Some(sum as u32)
                } else {
                    if sum > 0.0 {
                        self.fail(
                            line,
                            "rubrics",
                            format!(
                                "the points add up to {sum}, not a whole number; the item's \
                                 maximum is their sum"
                            ),
                        );
                    }
                    Some(1)
                }
            }
            Some(other) => {
                self.fail(
                    line,
                    "rubrics",
                    format!(
                        "expected an array of {{criterion, points, tags}}, got {}",
                        describe(&other.to_value())
                    ),
                );
                None
            }
            None => None,
        };
        if !self.errors.is_empty() {
            return None;
        }
        let mut members = vec![
            (
                "item_id".to_owned(),
                OrderedJson::String(self.item_id.clone()),
            ),
            (
                "task".to_owned(),
                OrderedJson::String(self.kind.task().to_string()),
            ),
        ];
        members.push(("category".into(), OrderedJson::String(label?)));
        members.push(("context".into(), OrderedJson::String(context?)));
        members.push(("question".into(), OrderedJson::String(question?)));
        members.push(("sections".into(), sections?.clone()));
        members.push(("max_points".into(), OrderedJson::Number(max_points?.into())));
        self.item(&OrderedJson::Object(members), &BTreeMap::new())
    }

    /// The workbench item of a record of a `.json` file whose members start
    /// on `lines`: `conversation` → `question`, `rubrics`/`Rubrics` →
    /// `rubric`, `tag` → `category`, `score` (or what it derives) →
    /// `max_points`.
    fn text_rubric(
        &mut self,
        record: &OrderedJson,
        lines: &BTreeMap<String, usize>,
    ) -> Option<Item> {
        let base = self.line;
        let at = |field: &str| lines.get(field).copied().unwrap_or(base);
        let found = self.members(record, lines)?;
        let rubric_field = if self.kind == ReleaseFile::Consultation {
            "rubrics"
        } else {
            "Rubrics"
        };
        let tag = match self.kind {
            ReleaseFile::Consultation => None,
            _ => self.string(at("tag"), "tag", found.get("tag").copied()),
        };
        let question = self.string(
            at("conversation"),
            "conversation",
            found.get("conversation").copied(),
        );
        let rubric = self.string(
            at(rubric_field),
            rubric_field,
            found.get(rubric_field).copied(),
        );
        let max_points = match (found.get("score").copied(), &rubric) {
            (Some(OrderedJson::String(s)), Some(rubric)) if s.is_empty() => {
                match max_points_of_rubric(rubric) {
                    Some(derived) => {
                        self.warnings.push(DatasetWarning {
                            line: at("score"),
                            case_id: Some(self.item_id.clone()),
                            field: "score".into(),
                            message: derived.explain(),
                        });
                        Some(derived.max_points)
                    }
                    None => {
                        self.fail(
                            at("score"),
                            "score",
                            format!(
                                "is empty, and {rubric_field} has neither a 总分 line nor (+N分) \
                                 marks to derive the maximum from"
                            ),
                        );
                        None
                    }
                }
            }
            (Some(v), _) => {
                let n = v
                    .to_value()
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .filter(|&n| n >= 1);
                if n.is_none() && !matches!(v, OrderedJson::String(s) if s.is_empty()) {
                    let got = match v {
                        OrderedJson::String(s) => format!("\"{s}\""),
                        OrderedJson::Number(n) => n.to_string(),
                        other => describe(&other.to_value()).to_owned(),
                    };
                    self.fail(
                        at("score"),
                        "score",
                        format!(
                            "expected a whole number ≥ 1, or \"\" to derive it from the rubric, \
                             got {got}"
                        ),
                    );
                }
                n
            }
            (None, _) => None,
        };
        if !self.errors.is_empty() {
            return None;
        }
        let mut members = vec![
            (
                "item_id".to_owned(),
                OrderedJson::String(self.item_id.clone()),
            ),
            (
                "task".to_owned(),
                OrderedJson::String(self.kind.task().to_string()),
            ),
        ];
        if let Some(tag) = tag {
            members.push(("category".into(), OrderedJson::String(tag)));
        }
        members.push(("question".into(), OrderedJson::String(question?)));
        members.push(("rubric".into(), OrderedJson::String(rubric?)));
        members.push(("max_points".into(), OrderedJson::Number(max_points?.into())));
        self.item(&OrderedJson::Object(members), lines)
    }

    /// The item the dataset's own rules make of `line_value`, their errors
    /// named by the release's fields and lines.
    fn item(&mut self, line_value: &OrderedJson, lines: &BTreeMap<String, usize>) -> Option<Item> {
        match read_item(line_value, self.line) {
            Ok(item) => Some(item),
            Err(errors) => {
                for mut e in errors {
                    e.field = self.kind.release_field(&e.field);
                    let head = e.field.split(['[', '.']).next().unwrap_or_default();
                    e.line = lines.get(head).copied().unwrap_or(self.line);
                    self.errors.push(e);
                }
                None
            }
        }
    }
}

/// A `.json` file of the release: an array of records, record n (1-based)
/// having `"id": n` and becoming `<task>-n`.
fn array_file(
    kind: ReleaseFile,
    bytes: &[u8],
) -> (Result<Vec<Item>, DatasetErrors>, Vec<DatasetWarning>) {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text.trim_start_matches('\u{feff}'),
        Err(e) => {
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            return (
                Err(DatasetErrors(vec![line_error(
                    line,
                    "not valid UTF-8".into(),
                )])),
                Vec::new(),
            );
        }
    };
    let records = match records(text) {
        Ok(records) => records,
        Err(e) => return (Err(DatasetErrors(vec![e])), Vec::new()),
    };
    let mut errors = ErrorLog::default();
    let mut warnings = Vec::new();
    let mut items = Vec::new();
    for (index, record) in records.into_iter().enumerate() {
        let n = index + 1;
        let id_line = record.lines.get("id").copied().unwrap_or(record.line);
        let item_id = format!("{}-{n}", kind.task());
        let mut f = Fields::new(kind, &item_id, record.line);
        match record.value.get("id").map(OrderedJson::to_value) {
            Some(Value::Number(id)) if id.as_u64() == Some(n as u64) => {}
            Some(other) => f.fail(
                id_line,
                "id",
                format!(
                    "is {other} but this is record {n} of the file; the release numbers its \
                     records 1, 2, … in order, as evalscope's ids (<task>-<n>) do"
                ),
            ),
            None => {}
        }
        let item = f.text_rubric(&record.value, &record.lines);
        f.errors.into_iter().for_each(|e| errors.push(e));
        warnings.extend(f.warnings);
        items.extend(item);
    }
    (errors.finish().map(|()| items), warnings)
}

/// One element of a top-level JSON array, with the line it starts on and
/// the line of each of its members' keys (when it is an object).
struct Record {
    line: usize,
    lines: BTreeMap<String, usize>,
    value: OrderedJson,
}

/// The elements of the JSON array `text`, with their lines; a file that is
/// not one JSON array is one error with its line.
fn records(text: &str) -> Result<Vec<Record>, DatasetError> {
    let whole: Value = serde_json::from_str(text).map_err(|e| {
        let line_text = text.lines().nth(e.line().saturating_sub(1)).unwrap_or("");
        line_error(e.line(), json_message(&e, line_text))
    })?;
    let Value::Array(_) = whole else {
        return Err(line_error(
            1,
            format!(
                "expected a JSON array of records, as the release's .json files are, got {}",
                describe(&whole)
            ),
        ));
    };
    // The text is valid JSON: walk its structure for the offsets.
    let line_at = |at: usize| text[..at].bytes().filter(|&b| b == b'\n').count() + 1;
    let mut records = Vec::new();
    let mut i = skip_ws(text, 0) + 1;
    loop {
        i = skip_ws(text, i);
        match text.as_bytes().get(i) {
            Some(b']') | None => break,
            Some(b',') => {
                i += 1;
                continue;
            }
            _ => {}
        }
        let end = value_end(text, i);
        let value: OrderedJson = serde_json::from_str(&text[i..end])
            .map_err(|e| line_error(line_at(i), e.to_string()))?;
        let mut lines = BTreeMap::new();
        if text.as_bytes()[i] == b'{' {
            let mut j = i + 1;
            loop {
                j = skip_ws(text, j);
                match text.as_bytes().get(j) {
                    Some(b'}') | None => break,
                    Some(b',') => {
                        j += 1;
                        continue;
                    }
                    _ => {}
                }
                let key_end = value_end(text, j);
                let key: String = serde_json::from_str(&text[j..key_end])
                    .map_err(|e| line_error(line_at(j), e.to_string()))?;
                lines.entry(key).or_insert_with(|| line_at(j));
                j = skip_ws(text, key_end) + 1; // past ':'
                j = value_end(text, skip_ws(text, j));
            }
        }
        records.push(Record {
            line: line_at(i),
            lines,
            value,
        });
        i = end;
    }
    Ok(records)
}

fn skip_ws(text: &str, mut i: usize) -> usize {
    while text
        .as_bytes()
        .get(i)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        i += 1;
    }
    i
}

/// The end of the JSON value that starts at `start` of valid JSON `text`.
fn value_end(text: &str, start: usize) -> usize {
    let mut values =
        serde_json::Deserializer::from_str(&text[start..]).into_iter::<serde::de::IgnoredAny>();
    let _ = values.next();
    start + values.byte_offset()
}

/// The maximum derived for an empty `score` (§B1.2): from the rubric's
/// `总分` line, or else from its `(+N分)` marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DerivedMax {
    /// The maximum.
    pub max_points: u32,
    /// Whether it is the `总分` line's (else the marks' sum).
    pub from_total_line: bool,
    /// How many `(+N分)` marks the rubric has.
    pub marks: usize,
    /// Their sum, when it is a whole number.
    pub marks_sum: Option<u32>,
}

impl DerivedMax {
    /// The warning's message.
    fn explain(&self) -> String {
        match (self.from_total_line, self.marks_sum) {
            (true, Some(sum)) if sum != self.max_points => format!(
                "is empty; max_points {} is taken from the rubric's 总分 line (its {} (+N分) \
                 marks add up to {sum})",
                self.max_points, self.marks
            ),
            (true, _) => format!(
                "is empty; max_points {} is taken from the rubric's 总分 line",
                self.max_points
            ),
            (false, _) => format!(
                "is empty; max_points {} is the sum of the rubric's {} (+N分) marks, as it has \
                 no 总分 line",
                self.max_points, self.marks
            ),
        }
    }
}

/// A `总分` line: `总分：16分`, `总分: 15 分`, `总分：100`.
static TOTAL_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*总分\s*[:：]\s*(\d+)\s*分?\s*$").expect("a valid pattern"));

/// A mark: `(+3分)`, `（+3 分）`, `(+ 1.5 分)`.
static MARK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[（(]\s*\+\s*(\d+(?:\.\d+)?)\s*分\s*[）)]").expect("a valid pattern")
});

/// The maximum of a text rubric whose `score` is empty (§B1.2): the number
/// of its first `总分` line (`总分：16分`), or else the sum of its `(+N分)`
/// marks when that is a whole number ≥ 1; `None` when neither gives one.
///
/// ```
/// use engine::plawbench::release::max_points_of_rubric;
///
/// let headed = max_points_of_rubric("总分：12分\n1.（+2分）几岁？\n2.（+11分）何时？").unwrap();
/// assert_eq!((headed.max_points, headed.from_total_line, headed.marks_sum), (12, true, Some(13)));
/// let marks = max_points_of_rubric("1.(+3 分) 报警？\n2.（+2分）协议？").unwrap();
/// assert_eq!((marks.max_points, marks.from_total_line), (5, false));
/// assert_eq!(max_points_of_rubric("请自行判断"), None);
/// ```
pub fn max_points_of_rubric(rubric: &str) -> Option<DerivedMax> {
    let marks: Vec<f64> = MARK
        .captures_iter(rubric)
        .filter_map(|c| c[1].parse::<f64>().ok())
        .collect();
    let sum: f64 = marks.iter().sum();
    let marks_sum =
        (sum.fract() == 0.0 && sum >= 1.0 && sum <= f64::from(u32::MAX)).then_some(sum as u32);
    let total = rubric
        .lines()
        .find_map(|l| TOTAL_LINE.captures(l))
        .and_then(|c| c[1].parse::<u32>().ok())
        .filter(|&n| n >= 1);
    match (total, marks_sum) {
        (Some(total), _) => Some(DerivedMax {
            max_points: total,
            from_total_line: true,
            marks: marks.len(),
            marks_sum,
        }),
        (None, Some(sum)) => Some(DerivedMax {
            max_points: sum,
            from_total_line: false,
            marks: marks.len(),
            marks_sum,
        }),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/plawbench/release"
    );

    fn fixture(kind: ReleaseFile) -> String {
        std::fs::read_to_string(format!("{FIXTURE}/{}", kind.file_name())).expect("fixture")
    }

    fn fixture_files() -> Vec<(String, String)> {
        // Given out of order: the items still come in task order.
        [
            ReleaseFile::Defendant,
            ReleaseFile::Consultation,
            ReleaseFile::CaseAnalysis,
            ReleaseFile::Plaintiff,
        ]
        .into_iter()
        .map(|k| (format!("release/{}", k.file_name()), fixture(k)))
        .collect()
    }

    #[test]
    fn the_release_layout_gives_evalscopes_ids_and_derived_maxima() {
        let release = parse_release(&fixture_files()).expect("the fixture reads");
        let ids: Vec<(&str, u32)> = release
            .items
            .iter()
            .map(|i| (i.item_id.as_str(), i.max_points))
            .collect();
        assert_eq!(
            ids,
            [
                ("case_analysis-1", 30),
                ("case_analysis-2", 30),
                ("legal_consultation-1", 8),
                ("legal_consultation-2", 6),
                ("legal_consultation-3", 6),
                ("plaintiff_statement-1", 100),
                ("defendant_statement-1", 80),
            ]
        );
        let case = &release.items[0];
        assert_eq!(case.category.as_deref(), Some("婚姻家事"));
        assert!(case.context.starts_with("甲与乙"));
        let sections = case.released_sections().expect("sections");
        assert_eq!(
            sections.to_value()[0]["points"],
            serde_json::json!("5"),
            "points keep their JSON type"
        );
        let plaintiff = &release.items[5];
        assert_eq!(plaintiff.category.as_deref(), Some("合同纠纷-买卖合同纠纷"));
        assert!(plaintiff
            .rubric
            .as_deref()
            .is_some_and(|r| r.starts_with("总分：100分")));
        assert!(plaintiff.question.starts_with("你现在是王某的律师"));

        let warnings: Vec<String> = release
            .warnings
            .iter()
            .map(|(file, w)| format!("{file}: {w}"))
            .collect();
        assert_eq!(
            warnings,
            [
                "release/public_legal_consultation_18.json: line 6 (legal_consultation-1), field score: is empty; max_points 8 is taken from the rubric's 总分 line",
                "release/public_legal_consultation_18.json: line 12 (legal_consultation-2), field score: is empty; max_points 6 is the sum of the rubric's 3 (+N分) marks, as it has no 总分 line",
                "release/public_legal_consultation_18.json: line 18 (legal_consultation-3), field score: is empty; max_points 6 is taken from the rubric's 总分 line (its 3 (+N分) marks add up to 7)",
            ]
        );
    }

    /// Error lines of `kind`'s fixture with `from` replaced by `to`.
    fn errors_of(kind: ReleaseFile, from: &str, to: &str) -> String {
        let text = fixture(kind);
        assert!(text.contains(from), "{from}");
        let changed = text.replacen(from, to, 1);
        parse_release(&[(kind.file_name(), changed)])
            .expect_err("refused")
            .to_string()
    }

    #[test]
    fn a_wrong_type_in_each_file_names_file_line_and_field() {
        assert_eq!(
            errors_of(ReleaseFile::CaseAnalysis, r#""points": "10""#, r#""points": "十""#),
            "practical_case_analysis_250.jsonl: line 1 (case_analysis-1), field rubrics[1].points: expected a number ≥ 0 or a string holding one, got \"十\""
        );
        assert_eq!(
            errors_of(ReleaseFile::CaseAnalysis, r#""label": "劳动人事""#, r#""label": 7"#),
            "practical_case_analysis_250.jsonl: line 2 (case_analysis-2), field label: expected a string, got a number"
        );
        assert_eq!(
            errors_of(ReleaseFile::Consultation, r#""score": """#, r#""score": [8]"#),
            "public_legal_consultation_18.json: line 6 (legal_consultation-1), field score: expected a whole number ≥ 1, or \"\" to derive it from the rubric, got an array"
        );
        assert_eq!(
            errors_of(ReleaseFile::Plaintiff, r#""Rubrics": "#, r#""Rubrics": 1, "x": "#),
            "Plantiffs_Statement.json: line 6 (plaintiff_statement-1), field x: not a field of Plantiffs_Statement.json; its records have exactly id, tag, conversation, Rubrics, score\n\
             Plantiffs_Statement.json: line 6 (plaintiff_statement-1), field Rubrics: expected a string, got a number"
        );
        assert_eq!(
            errors_of(ReleaseFile::Defendant, r#""tag": "#, r#""tags": "#),
            "Defendants_Statement.json: line 4 (defendant_statement-1), field tags: not a field of Defendants_Statement.json; its records have exactly id, tag, conversation, Rubrics, score\n\
             Defendants_Statement.json: line 2 (defendant_statement-1), field tag: missing required field"
        );
    }

    #[test]
    fn ids_out_of_order_empty_rubrics_and_other_shapes_are_refused() {
        assert_eq!(
            errors_of(ReleaseFile::Consultation, r#""id": 2,"#, r#""id": 5,"#),
            "public_legal_consultation_18.json: line 9 (legal_consultation-2), field id: is 5 but this is record 2 of the file; the release numbers its records 1, 2, … in order, as evalscope's ids (<task>-<n>) do"
        );
        let no_marks = errors_of(
            ReleaseFile::Consultation,
            "总分：8分\\n1.(+3 分) 借款发生在婚姻关系存续期间的哪一年？\\n2.(+3 分) 借条上是否有您的签字？\\n3.(+2 分)",
            "1. 借款发生在哪一年？\\n2.",
        );
        assert_eq!(
            no_marks,
            "public_legal_consultation_18.json: line 6 (legal_consultation-1), field score: is empty, and rubrics has neither a 总分 line nor (+N分) marks to derive the maximum from"
        );
        let not_array = parse_release(&[("Defendants_Statement.json", "{\"id\": 1}")])
            .expect_err("refused")
            .to_string();
        assert_eq!(
            not_array,
            "Defendants_Statement.json: line 1: expected a JSON array of records, as the release's .json files are, got an object"
        );
        let broken = parse_release(&[("Defendants_Statement.json", "[\n  {\"id\": 1,\n  }\n]")])
            .expect_err("refused")
            .to_string();
        assert!(
            broken.starts_with("Defendants_Statement.json: line 3: invalid JSON"),
            "{broken}"
        );
        let unknown = parse_release(&[("plaw.json", "[]")])
            .expect_err("refused")
            .to_string();
        assert!(
            unknown.starts_with("plaw.json: not a file of the PLawBench release"),
            "{unknown}"
        );
    }

    #[test]
    fn the_derivation_rules() {
        let d = max_points_of_rubric("总分：100\n一、（20 分）").expect("a total");
        assert_eq!((d.max_points, d.from_total_line, d.marks), (100, true, 0));
        let d = max_points_of_rubric("总分: 15 分\n1.(+ 3 分) a\n2.（+12分）b").expect("a total");
        assert_eq!((d.max_points, d.marks_sum), (15, Some(15)));
        // A mark needs its bracket and 分; "20 万 + 30 万" is not one.
        let d = max_points_of_rubric("1.(+3 分) 20 万进场 + 30 万中期\n2.(+1.5分) x\n3.(+0.5分) y")
            .expect("marks");
        assert_eq!((d.max_points, d.marks, d.from_total_line), (5, 3, false));
        assert_eq!(
            max_points_of_rubric("1.(+1.5分) x"),
            None,
            "not a whole number"
        );
        assert_eq!(max_points_of_rubric("总分：0分"), None);
    }
}
