//! The line-oriented JSON reading and error collection shared by the dataset
//! and run parsers of every benchmark ([`crate::lexpilot::dataset`],
//! [`crate::lexpilot::run`], [`crate::plawbench::dataset`],
//! [`crate::plawbench::run`]).
//!
//! - [`read_lines`] reads JSON Lines text from a [`BufRead`] one line at a
//!   time, skipping blank lines and a leading byte-order mark and reporting a
//!   line that is not UTF-8 or cannot be read.
//! - [`ErrorLog`] collects the errors of a whole file, the first
//!   [`MAX_ERRORS`] in full and then a count.
//! - [`LineReader`] walks the JSON value of one line field by field, recording
//!   every problem with the JSON path of its field. Its generic readers live
//!   here; each parser adds the readers of its own types in its own module.
//!
//! Every error is a [`DatasetError`]; the run parser reports them under its
//! own names.

use std::io::BufRead;

use serde_json::{Map, Value};

use crate::lexpilot::dataset::{DatasetError, DatasetErrors, MAX_ERRORS};
use crate::vocab::Vocabulary;

/// Whether `s` is empty or only whitespace.
pub(crate) fn is_blank(s: &str) -> bool {
    s.trim().is_empty()
}

/// `""` for one, `"s"` otherwise.
pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// An error about a whole line: no case and no field.
pub(crate) fn line_error(line: usize, message: String) -> DatasetError {
    DatasetError {
        line,
        case_id: None,
        field: String::new(),
        message,
    }
}

/// serde_json's message without its " at line 1 column N" suffix, with the
/// column counted in characters (serde_json counts bytes), as editors show it.
pub(crate) fn json_message(e: &serde_json::Error, text: &str) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full);
    let column = text
        .char_indices()
        .take_while(|&(i, _)| i < e.column())
        .count();
    format!("invalid JSON at column {column}: {message}")
}

/// What a JSON value is, with its article (`a string`, `an array`, `null`).
pub(crate) fn describe(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The path of field `key` of the object at path `parent` (`""` for the line).
pub(crate) fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_owned()
    } else {
        format!("{parent}.{key}")
    }
}

/// Reads JSON Lines text line by line, calling `on_line` with the 1-based
/// number of each line that is not blank (whitespace only) and its text, or
/// the error of a line that is not UTF-8. Blank lines are skipped but counted;
/// a byte-order mark opening the first line is dropped.
///
/// Returns the error of a read failure, which ends the reading; it is given
/// the number of the line that could not be read.
pub(crate) fn read_lines<R: BufRead>(
    mut reader: R,
    mut on_line: impl FnMut(usize, Result<&str, DatasetError>),
) -> Result<(), DatasetError> {
    let mut buf = Vec::new();
    let mut line = 0;
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => return Ok(()),
            Ok(_) => line += 1,
            Err(e) => {
                return Err(line_error(
                    line + 1,
                    format!("could not read the line: {e}"),
                ))
            }
        }
        let text = match simdutf8::compat::from_utf8(&buf) {
            Ok(text) => text,
            Err(e) => {
                on_line(
                    line,
                    Err(line_error(
                        line,
                        format!(
                            "not valid UTF-8 (bad byte at offset {} of the line)",
                            e.valid_up_to()
                        ),
                    )),
                );
                continue;
            }
        };
        // A byte-order mark may open a file saved by some Windows editors.
        let text = if line == 1 {
            text.trim_start_matches('\u{feff}')
        } else {
            text
        };
        if !is_blank(text) {
            on_line(line, Ok(text));
        }
    }
}

/// Errors of a whole file: the first [`MAX_ERRORS`] in full, then a count.
#[derive(Default)]
pub(crate) struct ErrorLog {
    shown: Vec<DatasetError>,
    omitted: usize,
    first_omitted_line: usize,
}

impl ErrorLog {
    pub(crate) fn push(&mut self, error: DatasetError) {
        if self.shown.len() < MAX_ERRORS {
            self.shown.push(error);
        } else {
            if self.omitted == 0 {
                self.first_omitted_line = error.line;
            }
            self.omitted += 1;
        }
    }

    /// `Ok` when nothing was pushed; otherwise every error shown, followed by
    /// an entry counting the omitted ones, if any.
    pub(crate) fn finish(mut self) -> Result<(), DatasetErrors> {
        if self.shown.is_empty() {
            return Ok(());
        }
        if self.omitted > 0 {
            self.shown.push(line_error(
                self.first_omitted_line,
                format!(
                    "… and {} more error{} from this line on",
                    self.omitted,
                    plural(self.omitted)
                ),
            ));
        }
        Err(DatasetErrors(self.shown))
    }
}

/// Reads the fields of one line, recording every problem with its path.
///
/// Each reader returns `None` after recording an error; composite readers read
/// all their parts before combining them, so that one line reports all its
/// problems. The dataset and run parsers add the readers of their own types in
/// `impl LineReader` blocks of their modules.
pub(crate) struct LineReader {
    /// The 1-based line, put in every error.
    pub(crate) line: usize,
    /// The case the line is about, once read; put in every later error.
    pub(crate) case_id: Option<String>,
    /// The problems found so far, in the order found.
    pub(crate) errors: Vec<DatasetError>,
}

/// Reads one JSON value found at a path.
pub(crate) type Read<T> = fn(&mut LineReader, &Value, &str) -> Option<T>;

impl LineReader {
    /// A reader for line `line` with no case and no errors yet.
    pub(crate) fn new(line: usize) -> Self {
        Self {
            line,
            case_id: None,
            errors: Vec::new(),
        }
    }

    /// Records an error at `field` (a JSON path, `""` for the line itself).
    pub(crate) fn fail(&mut self, field: &str, message: String) {
        self.errors.push(DatasetError {
            line: self.line,
            case_id: self.case_id.clone(),
            field: field.to_owned(),
            message,
        });
    }

    /// Reads field `key` of `obj`, reporting it when absent.
    pub(crate) fn required<T>(
        &mut self,
        obj: &Map<String, Value>,
        parent: &str,
        key: &str,
        read: Read<T>,
    ) -> Option<T> {
        let path = join(parent, key);
        match obj.get(key) {
            Some(v) => read(self, v, &path),
            None => {
                self.fail(&path, "missing required field".into());
                None
            }
        }
    }

    /// `Some(None)` when the key is absent or null, `None` when it is invalid.
    pub(crate) fn optional<T>(
        &mut self,
        obj: &Map<String, Value>,
        parent: &str,
        key: &str,
        read: Read<T>,
    ) -> Option<Option<T>> {
        match obj.get(key) {
            None | Some(Value::Null) => Some(None),
            Some(v) => read(self, v, &join(parent, key)).map(Some),
        }
    }

    pub(crate) fn object<'v>(
        &mut self,
        v: &'v Value,
        path: &str,
    ) -> Option<&'v Map<String, Value>> {
        let obj = v.as_object();
        if obj.is_none() {
            self.fail(path, format!("expected an object, got {}", describe(v)));
        }
        obj
    }

    pub(crate) fn string(&mut self, v: &Value, path: &str) -> Option<String> {
        match v {
            Value::String(s) => Some(s.clone()),
            other => {
                self.fail(path, format!("expected a string, got {}", describe(other)));
                None
            }
        }
    }

    pub(crate) fn boolean(&mut self, v: &Value, path: &str) -> Option<bool> {
        let b = v.as_bool();
        if b.is_none() {
            self.fail(path, format!("expected true or false, got {}", describe(v)));
        }
        b
    }

    /// A whole number from `min` to [`u32::MAX`].
    pub(crate) fn whole_number(&mut self, v: &Value, path: &str, min: u32) -> Option<u32> {
        let n = v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|&n| n >= min);
        if n.is_none() {
            let got = match v {
                Value::Number(n) => n.to_string(),
                other => describe(other).to_owned(),
            };
            self.fail(
                path,
                format!(
                    "expected a whole number from {min} to {}, got {got}",
                    u32::MAX
                ),
            );
        }
        n
    }

    /// A value of vocabulary `T`; an unknown one names the allowed values.
    pub(crate) fn vocab<T: Vocabulary>(&mut self, v: &Value, path: &str) -> Option<T> {
        match v {
            Value::String(s) => {
                let parsed = T::parse(s);
                if parsed.is_none() {
                    self.fail(
                        path,
                        format!(
                            "unknown {} \"{s}\"; expected one of {}",
                            T::KIND,
                            T::expected()
                        ),
                    );
                }
                parsed
            }
            other => {
                self.fail(
                    path,
                    format!(
                        "expected a {} (one of {}), got {}",
                        T::KIND,
                        T::expected(),
                        describe(other)
                    ),
                );
                None
            }
        }
    }

    /// Reads every element of an array, reporting all bad elements.
    pub(crate) fn list<T>(&mut self, v: &Value, path: &str, read: Read<T>) -> Option<Vec<T>> {
        let Some(items) = v.as_array() else {
            self.fail(path, format!("expected an array, got {}", describe(v)));
            return None;
        };
        let read: Vec<Option<T>> = items
            .iter()
            .enumerate()
            .map(|(i, item)| read(self, item, &format!("{path}[{i}]")))
            .collect();
        read.into_iter().collect()
    }
}

/// What a line of a run file with a header line and one kind of body line
/// (PLawBench's `rubric`, DLawBench's `session`) is to its parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RunLine {
    /// The header: the first line, of kind `run`.
    Header,
    /// A body line (read even when misplaced, so that all its problems show).
    Body,
    /// Nothing to read further (an error was recorded).
    Skip,
}

/// Reads line `number` of a run file of `benchmark` whose body lines are of
/// kind `body`: a JSON object with a `kind`, the header first and only
/// there. Records every problem of the line's shape in `r` and returns the
/// object and what it is, for the caller to read.
pub(crate) fn run_line(
    r: &mut LineReader,
    text: &str,
    header_line: usize,
    benchmark: &str,
    body: &str,
) -> Option<(Map<String, Value>, RunLine)> {
    let obj = match serde_json::from_str::<Value>(text) {
        Err(e) => {
            r.fail("", json_message(&e, text));
            return None;
        }
        Ok(Value::Object(obj)) => obj,
        Ok(other) => {
            r.fail(
                "",
                format!(
                    "expected a JSON object (the header, then one {} per line), got {}",
                    if body == "rubric" { "item" } else { body },
                    describe(&other)
                ),
            );
            return None;
        }
    };
    let kind = r.required(&obj, "", "kind", LineReader::string)?;
    let is_first = header_line == r.line;
    let line = match (is_first, kind.as_str()) {
        (true, "run") => RunLine::Header,
        (true, _) => {
            r.fail(
                "kind",
                format!(
                    "line {} must be the run header, {{\"kind\": \"run\", \"benchmark\": \
                     \"{benchmark}\", …}}, not kind \"{kind}\"",
                    r.line
                ),
            );
            RunLine::Skip
        }
        (false, "run") => {
            r.fail(
                "kind",
                format!("a second run header; the header is the first line, line {header_line}"),
            );
            RunLine::Skip
        }
        (false, _) if kind == body => RunLine::Body,
        (false, _) => {
            r.fail(
                "kind",
                format!("unknown kind \"{kind}\"; expected \"{body}\""),
            );
            RunLine::Skip
        }
    };
    // A body line in the header's place is read all the same.
    let line = if kind == body { RunLine::Body } else { line };
    Some((obj, line))
}
