//! The line-oriented JSON reading and error collection shared by the dataset
//! and run parsers of every benchmark (each benchmark's `dataset` and `run`
//! modules).
//!
//! - [`read_lines`] reads JSON Lines text from a [`BufRead`] one line at a
//!   time, skipping blank lines and a leading byte-order mark and reporting a
//!   line that is not UTF-8 or cannot be read.
//! - [`ErrorLog`] collects the errors of a whole file, the first
//!   [`MAX_ERRORS`] in full and then a count.
//! - [`LineReader`] walks the JSON value of one line field by field, recording
//!   every problem with the JSON path of its field. Its generic readers live
//!   here; each parser adds the readers of its own types in its own module.
//! - [`Object`] and [`Fields`] read a line that follows the rules straight
//!   into its types (the parsers' fast paths), taking nothing the
//!   field-by-field reading would refuse; a line they do not take is read
//!   field by field to report its errors.
//!
//! Every error is a [`DatasetError`]; the run parser reports them under its
//! own names.

use std::io::BufRead;
use std::marker::PhantomData;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use crate::core::dialogue::Turn;
use crate::core::errors::{DatasetError, DatasetErrors, MAX_ERRORS};
use crate::vocab::{Role, Vocabulary};

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
/// A line that lies whole in the reader's buffer is read where it lies (all
/// of them for text in memory, whose buffer is the text); only one that
/// straddles two fills of the buffer is copied.
///
/// Returns the error of a read failure, which ends the reading; it is given
/// the number of the line that could not be read.
pub(crate) fn read_lines<R: BufRead>(
    mut reader: R,
    mut on_line: impl FnMut(usize, Result<&str, DatasetError>),
) -> Result<(), DatasetError> {
    // The start of a line the buffer ended in.
    let mut carry = Vec::new();
    let mut line = 0;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(line_error(
                    line + 1,
                    format!("could not read the line: {e}"),
                ))
            }
        };
        if available.is_empty() {
            if !carry.is_empty() {
                line += 1;
                read_line(line, &carry, &mut on_line);
            }
            return Ok(());
        }
        let used = match memchr::memchr(b'\n', available) {
            Some(end) if carry.is_empty() => {
                line += 1;
                read_line(line, &available[..=end], &mut on_line);
                end + 1
            }
            Some(end) => {
                carry.extend_from_slice(&available[..=end]);
                line += 1;
                read_line(line, &carry, &mut on_line);
                carry.clear();
                end + 1
            }
            None => {
                carry.extend_from_slice(available);
                available.len()
            }
        };
        reader.consume(used);
    }
}

/// One line of [`read_lines`], its `\n` included: checked to be UTF-8, its
/// byte-order mark dropped if it is the first, and passed on unless blank.
fn read_line(
    line: usize,
    bytes: &[u8],
    on_line: &mut impl FnMut(usize, Result<&str, DatasetError>),
) {
    let text = match simdutf8::compat::from_utf8(bytes) {
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
            return;
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

/// A JSON object read key by key into `T` ([`Fields`]): the fast paths'
/// reader (a run's items, a dataset's cases). Unlike a derived `Deserialize`, it takes nothing but an object (a
/// derived struct also reads an array), reads a key it does not know as a
/// [`Value`] (so it is checked exactly as the field-by-field path checks it:
/// escapes, number ranges, depth), and refuses a key given twice.
pub(crate) struct Object<T>(pub(crate) T);

/// What [`Object`] reads its keys into.
pub(crate) trait Fields<'de>: Default {
    /// Reads the value of `key` into its field; `Ok(false)` for a key that is
    /// not one, whose value the caller reads; an error for a key seen twice or
    /// a value of another type.
    fn field<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error>;
}

impl<'de, T: Fields<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjectVisitor<T>(PhantomData<T>);
        impl<'de, T: Fields<'de>> Visitor<'de> for ObjectVisitor<T> {
            type Value = Object<T>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Object<T>, A::Error> {
                let mut fields = T::default();
                while let Some(key) = map.next_key::<&'de str>()? {
                    if !fields.field(key, &mut map)? {
                        map.next_value::<Value>()?;
                    }
                }
                Ok(Object(fields))
            }
        }
        deserializer.deserialize_map(ObjectVisitor(PhantomData))
    }
}

/// Sets `slot` from the map's next value, refusing a second value.
pub(crate) fn once<'de, T: Deserialize<'de>, A: MapAccess<'de>>(
    slot: &mut Option<Option<T>>,
    map: &mut A,
) -> Result<bool, A::Error> {
    if slot.is_some() {
        return Err(serde::de::Error::custom("a key given twice"));
    }
    *slot = Some(map.next_value()?);
    Ok(true)
}

/// Declares a [`Fields`] type: each key read once, as `Option<Option<T>>`
/// (absent, null, a value).
macro_rules! keys {
    ($(#[$meta:meta])* $vis:vis $name:ident<$a:lifetime> { $($field:ident $(= $key:literal)?: $ty:ty,)+ }) => {
        $(#[$meta])*
        #[derive(Default)]
        $vis struct $name<$a> {
            $($field: Option<Option<$ty>>,)+
            _text: std::marker::PhantomData<&$a str>,
        }

        impl<'de> $crate::core::lines::Fields<'de> for $name<'de> {
            fn field<A: serde::de::MapAccess<'de>>(
                &mut self,
                key: &str,
                map: &mut A,
            ) -> Result<bool, A::Error> {
                $(if key == keys!(@key $field $($key)?) {
                    return $crate::core::lines::once(&mut self.$field, map);
                })+
                Ok(false)
            }
        }
    };
    (@key $field:ident $key:literal) => { $key };
    (@key $field:ident) => { stringify!($field) };
}
pub(crate) use keys;

keys! {
    /// A dialogue turn as the fast paths read it.
    pub(crate) TurnLine<'a> { role: &'a str, content: String, }
}

impl TurnLine<'_> {
    /// The turn, or `None` for a missing or null key or an unknown role.
    pub(crate) fn turn(self) -> Option<Turn> {
        Some(Turn {
            role: Role::parse(self.role.flatten()?)?,
            content: self.content.flatten()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line and error [`read_lines`] gives, as text.
    fn lines_of(reader: impl BufRead) -> Vec<String> {
        let mut seen = Vec::new();
        let end = read_lines(reader, |line, text| {
            seen.push(match text {
                Ok(text) => format!("{line}: {text:?}"),
                Err(e) => format!("{line}: error {e}"),
            })
        });
        seen.push(format!("{end:?}"));
        seen
    }

    /// A line read where it lies in the buffer and one copied across fills
    /// of it read alike: numbers, blank lines, the byte-order mark, `\r\n`,
    /// a line that is not UTF-8 (also split inside a character), and a last
    /// line without its `\n`.
    #[test]
    fn lines_read_alike_whatever_the_buffer() {
        let mut text = "\u{feff}{\"a\": 1}\r\n\n  \n{\"案\": \"民事\"}\n"
            .as_bytes()
            .to_vec();
        text.extend_from_slice(b"{\"bad\": \"\xff\"}\n{\"last\": true}");
        let whole = lines_of(text.as_slice());
        assert_eq!(
            whole,
            [
                "1: \"{\\\"a\\\": 1}\\r\\n\"",
                "4: \"{\\\"案\\\": \\\"民事\\\"}\\n\"",
                "5: error line 5: not valid UTF-8 (bad byte at offset 9 of the line)",
                "6: \"{\\\"last\\\": true}\"",
                "Ok(())",
            ]
        );
        for capacity in 1..=text.len() {
            let reader = std::io::BufReader::with_capacity(capacity, text.as_slice());
            assert_eq!(lines_of(reader), whole, "buffer of {capacity} bytes");
        }
    }

    /// A read failure ends the reading on the line it stopped in, after the
    /// lines read before it.
    #[test]
    fn a_read_failure_names_its_line() {
        struct Failing;
        impl std::io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk gone"))
            }
        }
        let reader = std::io::BufReader::new(std::io::Read::chain(&b"{}\n{\"half"[..], Failing));
        let seen = lines_of(reader);
        assert_eq!(seen[0], "1: \"{}\\n\"");
        assert!(
            seen[1].contains("line: 2") && seen[1].contains("could not read the line: disk gone"),
            "{seen:?}"
        );
    }
}
