//! The PLawBench run file (`docs/benchmarks/plawbench.md` §B3): one
//! evaluated model, one repetition, its items judged by a panel.
//!
//! - Types: a [`Run`] is a [`RunHeader`] and its [`RubricItem`]s in file
//!   order; each item carries one [`Judgement`] per header judge, whose
//!   [`Awarded`] points are the **raw** judge values (clamping is scoring's,
//!   §B2.4).
//! - Parsing: [`parse_run`] / [`parse_run_reader`] read JSON Lines against
//!   the dataset and return the run or every error found, each naming its
//!   1-based line, the item and the field ([`RunErrors`], the shared form).
//! - Entries: [`RunHeader::entry_key`], every header field except `run` and
//!   `created_at`, in the workbench's one [`EntryKey`] type.
//! - Storage: [`Run::to_stored`] and [`Run::read_stored`], the trusted
//!   compact form (read back with no checks against the dataset).
//!
//! # Rules (reject, naming line and field)
//!
//! - Header (first non-blank line, `"kind": "run"`): `benchmark` is
//!   `"plawbench"` (absent means LexPilot, which is refused naming the
//!   field); `model` and each `judges[].model` are names ([`crate::names`]);
//!   `run` a whole number ≥ 1; `judges` a non-empty array of
//!   `{model, vendor?}` with unique `model`; `judge_aggregation` `mean`
//!   (default) or `median`; `judge_parse` `strict` or `lenient` (required:
//!   it changes the numbers); `judge_attempts` a whole number ≥ 1 (default
//!   1); `source` `workbench` (default) or `evalscope`; optional `family`
//!   (`legal`, `open`, `closed`), `model_family`, `evalscope_version`,
//!   `created_at` and `dataset` strings and `generation` (the generation
//!   settings, an object). Other keys are kept in [`RunHeader::extra`].
//! - Items (`"kind": "rubric"`): `item_id` names a dataset item, once;
//!   `task` is that item's task; `response`, `finish_reason` strings;
//!   `unavailable` a non-empty string; `judgements` required unless the item
//!   is unavailable, one per header judge in header order (`judge` equal to
//!   that judge's model), each with exactly one of `awarded` and
//!   `unavailable`; `awarded` an object whose keys are exactly the item's
//!   sections, each a finite number (`case_analysis`), or a finite number;
//!   `reported_max` a finite number, `judge_output` a string, `attempts` a
//!   whole number ≥ 1.
//! - A task the run contains covers every dataset item of that task: the
//!   missing ones (five and a count) are reported on the line of the task's
//!   first item. A run may contain any subset of the four tasks; a file with
//!   no item is refused.
//!
//! Depends on serde, serde_json, [`crate::core::lines`] and [`super::dataset`];
//! reads through [`std::io::BufRead`] only, one line at a time.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::BufRead;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::dataset::{Item, Section, Task};
use crate::benchmark::Benchmark;
use crate::core::entry::{EntryKey, Family};
use crate::core::errors::{DatasetError, DatasetErrors, RunErrors};
use crate::core::lines::{
    describe, is_blank, line_error, plural, read_lines, run_line, ErrorLog, LineReader, RunLine,
};
use crate::core::panel::{push_line, Aggregation, JudgeSeat};
use crate::vocab::{vocabulary, Vocabulary};

vocabulary! {
    /// How a judge's reply is read (§B2.3, →C-P7).
    ParseMode, kind "judge parse mode" {
        /// evalscope ≥ 2026-08-20: exactly one JSON object, valid as it is.
        Strict = "strict", zh "严格", en "Strict";
        /// evalscope's `parse_json_to_dict`: the last repairable object.
        Lenient = "lenient", zh "宽松", en "Lenient";
    }
}

vocabulary! {
    /// Where a run was made.
    Source, kind "source" {
        /// By the workbench's own runner.
        Workbench = "workbench", zh "工作台", en "Workbench";
        /// Imported from an evalscope output folder (§B6).
        Evalscope = "evalscope", zh "evalscope 导入", en "evalscope import";
    }
}

/// The first line of a run file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunHeader {
    /// Always [`Benchmark::Plawbench`].
    pub benchmark: Benchmark,
    /// The evaluated model.
    pub model: String,
    /// The model's group (`legal`, `open`, `closed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<Family>,
    /// The vendor family of the official ranking (`Qwen`, `Claude`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_family: Option<String>,
    /// The repetition, from 1.
    pub run: u32,
    /// The dataset's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
    /// The judge panel, in the order of every item's judgements.
    pub judges: Vec<JudgeSeat>,
    /// How the panel is combined.
    pub judge_aggregation: Aggregation,
    /// How judge replies were read.
    pub judge_parse: ParseMode,
    /// How many times a judge was asked before its seat was unavailable.
    pub judge_attempts: u32,
    /// Where the run was made.
    pub source: Source,
    /// The generation settings (temperature, max_tokens, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<Map<String, Value>>,
    /// The evalscope version of an imported run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evalscope_version: Option<String>,
    /// When the run was made, free text (RFC 3339 by convention).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Any other header keys, kept as they are.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl RunHeader {
    /// The leaderboard entry of the run: the model, `family`, `dataset`, and
    /// in [`EntryKey::extra`] every other header field but `run` and
    /// `created_at` (`benchmark`, `judges`, `judge_aggregation`,
    /// `judge_parse`, `judge_attempts`, `source`, `model_family`,
    /// `generation`, `evalscope_version` and unknown keys).
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::plawbench::run::RunHeader;
    ///
    /// let header: RunHeader = serde_json::from_str(r#"{"benchmark": "plawbench", "model": "M", "run": 1,
    ///     "judges": [{"model": "J"}], "judge_aggregation": "mean", "judge_parse": "lenient",
    ///     "judge_attempts": 1, "source": "workbench", "created_at": "2026-12-01"}"#).unwrap();
    /// let second = RunHeader { run: 2, created_at: None, ..header.clone() };
    /// assert_eq!(header.entry_key(), second.entry_key());
    /// let strict = RunHeader { judge_parse: engine::plawbench::run::ParseMode::Strict, ..header.clone() };
    /// assert_ne!(header.entry_key(), strict.entry_key());
    /// assert_eq!(header.entry_key().extra["judges"][0]["model"], "J");
    /// ```
    pub fn entry_key(&self) -> EntryKey {
        let mut extra = self.extra.clone();
        let mut put = |key: &str, value: Value| {
            extra.insert(key.to_owned(), value);
        };
        put("benchmark", Value::from(self.benchmark.as_str()));
        put(
            "judges",
            serde_json::to_value(&self.judges).unwrap_or(Value::Null),
        );
        put(
            "judge_aggregation",
            Value::from(self.judge_aggregation.as_str()),
        );
        put("judge_parse", Value::from(self.judge_parse.as_str()));
        put("judge_attempts", Value::from(self.judge_attempts));
        put("source", Value::from(self.source.as_str()));
        if let Some(model_family) = &self.model_family {
            put("model_family", Value::from(model_family.as_str()));
        }
        if let Some(generation) = &self.generation {
            put("generation", Value::Object(generation.clone()));
        }
        if let Some(version) = &self.evalscope_version {
            put("evalscope_version", Value::from(version.as_str()));
        }
        EntryKey {
            model: self.model.clone(),
            family: self.family,
            dataset: self.dataset.clone(),
            judge: None,
            user_model: None,
            extra,
        }
    }

    /// The judge models, in panel order.
    pub fn judge_models(&self) -> impl Iterator<Item = &str> {
        self.judges.iter().map(|j| j.model.as_str())
    }
}

/// What a judge awarded, before clamping.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Awarded {
    /// The points of a `legal_consultation` or drafting item.
    Points(f64),
    /// The points of each section of a `case_analysis` item.
    Sections(BTreeMap<Section, f64>),
}

impl Awarded {
    /// The points of the unit `key` of a review sheet: `total` of a single
    /// number, a section's key (`conclusion`) of a `case_analysis` item.
    ///
    /// ```
    /// use engine::plawbench::run::Awarded;
    /// assert_eq!(Awarded::Points(3.0).points_of("total"), Some(3.0));
    /// assert_eq!(Awarded::Points(3.0).points_of("law"), None);
    /// ```
    pub fn points_of(&self, key: &str) -> Option<f64> {
        match self {
            Awarded::Points(points) => (key == "total").then_some(*points),
            Awarded::Sections(sections) => sections.get(&Section::parse(key)?).copied(),
        }
    }
}

/// One judge's verdict on one item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// The judge model (the header's judge in this position).
    pub judge: String,
    /// The raw awarded points; `None` exactly when unavailable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub awarded: Option<Awarded>,
    /// The judge's own `max_points`, for display only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reported_max: Option<f64>,
    /// The judge's reply as it came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_output: Option<String>,
    /// How many requests it took.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u32>,
    /// Why this seat has no verdict (a reply that failed the parse mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
}

/// One evaluated item (`"kind": "rubric"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RubricItem {
    /// The dataset item.
    pub item_id: String,
    /// Its task.
    pub task: Task,
    /// The model's answer, kept for drill-down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    /// How the model's answer ended (`stop`, `length`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// The SHA-256 of the rendered model prompt, when recorded (imports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_sha256: Option<String>,
    /// One per header judge, in header order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub judgements: Vec<Judgement>,
    /// Why the item could not be run; such an item is not scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
}

impl RubricItem {
    /// Whether the model's answer was cut at its token limit.
    pub fn truncated(&self) -> bool {
        self.finish_reason.as_deref() == Some("length")
    }
}

/// A whole run: its header and its items in file order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The header line.
    pub header: RunHeader,
    /// Every item, in file order.
    pub items: Vec<RubricItem>,
}

/// One line of the stored form.
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum StoredLine {
    Run(RunHeader),
    Rubric(RubricItem),
}

impl Run {
    /// Every answer of the model in the run (for the citation check of its
    /// entry), in file order.
    pub fn responses(&self) -> impl Iterator<Item = &str> + '_ {
        self.items.iter().filter_map(|i| i.response.as_deref())
    }

    /// The tasks the run contains, in [`Task::ALL`] order.
    pub fn tasks(&self) -> Vec<Task> {
        let present: BTreeSet<Task> = self.items.iter().map(|i| i.task).collect();
        present.into_iter().collect()
    }

    /// Items left out of the scores: marked unavailable, or with no judge
    /// that gave points.
    pub fn unavailable(&self) -> usize {
        self.items
            .iter()
            .filter(|i| i.unavailable.is_some() || i.judgements.iter().all(|j| j.awarded.is_none()))
            .count()
    }

    /// Adds an unavailable item (saying `reason`) for every dataset item of
    /// each task the run contains that it has no item of, and puts the items
    /// in dataset order (an item naming no dataset item, which a valid run
    /// has not, keeps its order after them). A job limited to the first N
    /// items then still covers the dataset version it is stored on, and the
    /// items it did not run are counted as unavailable, never scored.
    ///
    /// ```
    /// use engine::plawbench::dataset::parse_dataset;
    /// use engine::plawbench::run::{parse_run, Run};
    /// use engine::plawbench::synthetic::{dataset_file, run_file, OFFICIAL_SIZES};
    ///
    /// let dataset = parse_dataset(&dataset_file(&OFFICIAL_SIZES, 1)).unwrap();
    /// let mut run = parse_run(&run_file(&dataset, "M", 1, 1, 3), &dataset).unwrap();
    /// let full = run.items.len();
    /// run.items.retain(|i| i.item_id != dataset[1].item_id);
    /// run.cover_dataset(&dataset, "not run");
    /// assert_eq!(run.items.len(), full);
    /// assert_eq!(run.items[1].item_id, dataset[1].item_id);
    /// assert_eq!(run.items[1].unavailable.as_deref(), Some("not run"));
    /// assert!(parse_run(&run.to_stored(), &dataset).is_ok());
    /// ```
    pub fn cover_dataset(&mut self, dataset: &[Item], reason: &str) {
        let tasks: BTreeSet<Task> = self.items.iter().map(|i| i.task).collect();
        let mut given: HashMap<String, RubricItem> = HashMap::new();
        let mut strays = Vec::new();
        let known: BTreeSet<&str> = dataset.iter().map(|i| i.item_id.as_str()).collect();
        for item in self.items.drain(..) {
            if known.contains(item.item_id.as_str()) {
                given.entry(item.item_id.clone()).or_insert(item);
            } else {
                strays.push(item);
            }
        }
        for item in dataset {
            match given.remove(&item.item_id) {
                Some(made) => self.items.push(made),
                None if tasks.contains(&item.task) => self.items.push(RubricItem {
                    item_id: item.item_id.clone(),
                    task: item.task,
                    response: None,
                    finish_reason: None,
                    prompt_sha256: None,
                    judgements: Vec::new(),
                    unavailable: Some(reason.to_owned()),
                }),
                None => {}
            }
        }
        self.items.extend(strays);
    }

    /// The run as a run file: the header, then one item per `\n`-terminated
    /// line, each with `kind` first. [`parse_run`] reads it back equal, and so
    /// does [`Run::read_stored`].
    ///
    /// ```
    /// use engine::plawbench::dataset::parse_dataset;
    /// use engine::plawbench::run::{parse_run, Run};
    /// use engine::plawbench::synthetic::{dataset_file, run_file, OFFICIAL_SIZES};
    ///
    /// let dataset = parse_dataset(&dataset_file(&OFFICIAL_SIZES, 1)).unwrap();
    /// let run = parse_run(&run_file(&dataset, "M", 1, 2, 3), &dataset).unwrap();
    /// let stored = run.to_stored();
    /// assert!(stored.starts_with(r#"{"kind":"run","benchmark":"plawbench","model":"M""#));
    /// assert_eq!(Run::read_stored(&stored).unwrap(), run);
    /// assert_eq!(parse_run(&stored, &dataset).unwrap(), run);
    /// ```
    pub fn to_stored(&self) -> String {
        let mut out = String::new();
        push_line(&mut out, "run", &self.header);
        for item in &self.items {
            push_line(&mut out, "rubric", item);
        }
        out
    }

    /// Reads back what [`Run::to_stored`] wrote, trusting it: each line is
    /// deserialised straight into its type, with none of [`parse_run`]'s
    /// checks. For runs the workbench stored itself, never for files from
    /// outside.
    ///
    /// ```
    /// use engine::plawbench::run::Run;
    /// assert!(Run::read_stored("{\"kind\": \"rubric\"}").is_err());
    /// assert!(Run::read_stored("").is_err());
    /// ```
    pub fn read_stored(text: &str) -> Result<Run, String> {
        let mut header = None;
        let mut items = Vec::new();
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !is_blank(l)) {
            match serde_json::from_str(line)
                .map_err(|e| format!("stored run, line {}: {e}", n + 1))?
            {
                StoredLine::Run(h) => header = Some(h),
                StoredLine::Rubric(item) => items.push(item),
            }
        }
        Ok(Run {
            header: header.ok_or("stored run without a header")?,
            items,
        })
    }
}

/// Parses and validates a whole run file held in memory; see
/// [`parse_run_reader`].
///
/// # Examples
///
/// ```
/// use engine::plawbench::dataset::parse_dataset;
/// use engine::plawbench::run::parse_run;
///
/// let dataset = parse_dataset(r#"{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "我要离婚。", "rubric": "1.(+16 分) 报警记录？", "max_points": 16}"#).unwrap();
/// let header = r#"{"kind": "run", "benchmark": "plawbench", "model": "M", "run": 1, "judges": [{"model": "J1"}, {"model": "J2"}], "judge_parse": "lenient"}"#;
/// let item = r#"{"kind": "rubric", "item_id": "legal_consultation-1", "task": "legal_consultation", "judgements": [{"judge": "J1", "awarded": 20}, {"judge": "J2", "unavailable": "parse_error"}]}"#;
/// let run = parse_run(&format!("{header}\n{item}\n"), &dataset).unwrap();
/// assert_eq!(run.header.judges.len(), 2);
///
/// let swapped = item.replace("\"J1\"", "\"J3\"");
/// assert_eq!(
///     parse_run(&format!("{header}\n{swapped}\n"), &dataset).unwrap_err().to_string(),
///     "line 2 (legal_consultation-1), field judgements[0].judge: is \"J3\" but the header's judge 1 is \"J1\"; give one judgement per header judge, in header order"
/// );
/// ```
pub fn parse_run(text: &str, dataset: &[Item]) -> Result<Run, RunErrors> {
    parse_run_reader(text.as_bytes(), dataset)
}

/// Parses and validates a run file line by line from a reader against the
/// dataset it was made on, checking every rule of the
/// [module documentation](self). Blank lines are skipped and counted; a line
/// that is not UTF-8 is reported; a read failure ends the parse (without the
/// coverage checks). Returns the run or every error found.
///
/// ```
/// use engine::plawbench::dataset::parse_dataset;
/// use engine::plawbench::run::parse_run_reader;
///
/// let dataset = parse_dataset(concat!(
///     r#"{"item_id": "a", "task": "plaintiff_statement", "question": "q", "rubric": "r", "max_points": 10}"#, "\n",
///     r#"{"item_id": "b", "task": "plaintiff_statement", "question": "q", "rubric": "r", "max_points": 10}"#,
/// )).unwrap();
/// let file = concat!(
///     r#"{"kind": "run", "benchmark": "plawbench", "model": "M", "run": 1, "judges": [{"model": "J"}], "judge_parse": "lenient"}"#, "\n",
///     r#"{"kind": "rubric", "item_id": "a", "task": "plaintiff_statement", "judgements": [{"judge": "J", "awarded": 4}]}"#, "\n",
/// );
/// let errors = parse_run_reader(file.as_bytes(), &dataset).unwrap_err();
/// assert!(errors.to_string().starts_with("line 2, field item_id: the plaintiff_statement items cover 1 of the 2"));
/// ```
pub fn parse_run_reader<R: BufRead>(reader: R, dataset: &[Item]) -> Result<Run, RunErrors> {
    let mut parser = Parser::new(dataset);
    let read = read_lines(reader, |line, text| match text {
        Ok(text) => parser.line(line, text),
        Err(e) => {
            parser.first_line.get_or_insert(line);
            parser.errors.push(e);
        }
    });
    let read_to_end = read.is_ok();
    if let Err(e) = read {
        parser.errors.push(e);
    }
    parser.finish(read_to_end)
}

/// How many missing items a coverage error lists before giving a count.
const MISSING_SHOWN: usize = 5;

struct Parser<'d> {
    dataset: &'d [Item],
    index: HashMap<&'d str, usize>,
    errors: ErrorLog,
    first_line: Option<usize>,
    header: Option<RunHeader>,
    items: Vec<RubricItem>,
    item_lines: usize,
    /// The line each dataset item was first given on.
    lines: HashMap<usize, usize>,
    /// The first line of each task's items.
    task_lines: BTreeMap<Task, usize>,
}

impl<'d> Parser<'d> {
    fn new(dataset: &'d [Item]) -> Self {
        let mut index = HashMap::new();
        for (i, item) in dataset.iter().enumerate() {
            index.entry(item.item_id.as_str()).or_insert(i);
        }
        Self {
            dataset,
            index,
            errors: ErrorLog::default(),
            first_line: None,
            header: None,
            items: Vec::new(),
            item_lines: 0,
            lines: HashMap::new(),
            task_lines: BTreeMap::new(),
        }
    }

    fn line(&mut self, number: usize, text: &str) {
        let header_line = *self.first_line.get_or_insert(number);
        let mut r = LineReader::new(number);
        match run_line(&mut r, text, header_line, "plawbench", "rubric") {
            Some((obj, RunLine::Header)) => {
                self.header = r.plaw_header(&obj);
            }
            Some((obj, RunLine::Body)) => {
                self.item_lines += 1;
                if let Some(item) = self.item(&mut r, &obj) {
                    self.items.push(item);
                }
            }
            Some((_, RunLine::Skip)) | None => {}
        }
        r.errors.into_iter().for_each(|e| self.errors.push(e));
    }

    fn item(&mut self, r: &mut LineReader, obj: &Map<String, Value>) -> Option<RubricItem> {
        let item_id = r.required(obj, "", "item_id", LineReader::string);
        r.case_id = item_id.clone().filter(|id| !is_blank(id));
        let index = item_id.as_deref().and_then(|id| match self.index.get(id) {
            Some(&i) => Some(i),
            None => {
                r.fail(
                    "item_id",
                    format!("unknown item_id \"{id}\"; the dataset has no such item"),
                );
                None
            }
        });
        let dataset_item = index.map(|i| &self.dataset[i]);
        let task = r.required(obj, "", "task", LineReader::vocab::<Task>);
        if let (Some(task), Some(item)) = (task, dataset_item) {
            if task != item.task {
                r.fail(
                    "task",
                    format!(
                        "is {task} but dataset item {} is a {} item",
                        item.item_id, item.task
                    ),
                );
            }
        }
        let response = r.optional(obj, "", "response", LineReader::string);
        let finish_reason = r.optional(obj, "", "finish_reason", LineReader::string);
        let prompt_sha256 = r.optional(obj, "", "prompt_sha256", LineReader::string);
        let unavailable = r.reason(obj, "", "unavailable");
        let judgements = match obj.get("judgements") {
            None | Some(Value::Null) if matches!(unavailable, Some(Some(_))) => Some(Vec::new()),
            None | Some(Value::Null) => {
                r.fail(
                    "judgements",
                    "missing required field; an item that could not be run must say why in \
                     \"unavailable\""
                        .into(),
                );
                None
            }
            Some(v) => self.judgements(r, v, dataset_item),
        };
        if let Some(i) = index {
            match self.lines.entry(i) {
                Entry::Occupied(first) => r.fail(
                    "item_id",
                    format!(
                        "duplicate item {}; it is first given on line {}",
                        self.dataset[i].item_id,
                        first.get()
                    ),
                ),
                Entry::Vacant(slot) => {
                    slot.insert(r.line);
                }
            }
        }
        // Coverage counts an item under its dataset task; a wrong `task` is
        // reported above.
        if let Some(task) = dataset_item.map(|i| i.task).or(task) {
            self.task_lines.entry(task).or_insert(r.line);
        }
        Some(RubricItem {
            item_id: item_id?,
            task: task?,
            response: response?,
            finish_reason: finish_reason?,
            prompt_sha256: prompt_sha256?,
            judgements: judgements?,
            unavailable: unavailable?,
        })
    }

    fn judgements(
        &self,
        r: &mut LineReader,
        v: &Value,
        item: Option<&Item>,
    ) -> Option<Vec<Judgement>> {
        let Some(list) = v.as_array() else {
            r.fail(
                "judgements",
                format!("expected an array, got {}", describe(v)),
            );
            return None;
        };
        let seats: Option<Vec<&str>> = self.header.as_ref().map(|h| h.judge_models().collect());
        if let Some(seats) = &seats {
            if list.len() != seats.len() {
                r.fail(
                    "judgements",
                    format!(
                        "has {} judgement{} but the header names {} judge{} ({}); give one \
                         judgement per header judge, in header order",
                        list.len(),
                        plural(list.len()),
                        seats.len(),
                        plural(seats.len()),
                        seats.join(", ")
                    ),
                );
            }
        }
        let read: Vec<Option<Judgement>> = list
            .iter()
            .enumerate()
            .map(|(k, v)| {
                let path = format!("judgements[{k}]");
                let judgement = r.judgement(v, &path, item);
                if let (Some(j), Some(Some(seat))) = (&judgement, seats.as_ref().map(|s| s.get(k)))
                {
                    if j.judge != *seat {
                        r.fail(
                            &format!("{path}.judge"),
                            format!(
                                "is \"{}\" but the header's judge {} is \"{seat}\"; give one \
                                 judgement per header judge, in header order",
                                j.judge,
                                k + 1
                            ),
                        );
                    }
                }
                judgement
            })
            .collect();
        read.into_iter().collect()
    }

    fn finish(mut self, read_to_end: bool) -> Result<Run, RunErrors> {
        match self.first_line {
            None => self.errors.push(line_error(
                1,
                "no items: the file is empty; expected a run header on line 1, then one item \
                 per line"
                    .into(),
            )),
            Some(line) if self.item_lines == 0 => self.errors.push(line_error(
                line,
                "no items: the file has no rubric item after the header".into(),
            )),
            Some(_) => {}
        }
        if read_to_end {
            self.check_coverage();
        }
        match (self.errors.finish(), self.header) {
            (Err(errors), _) => Err(errors),
            (Ok(()), Some(header)) => Ok(Run {
                header,
                items: self.items,
            }),
            (Ok(()), None) => Err(DatasetErrors(vec![line_error(1, "no run header".into())])),
        }
    }

    fn check_coverage(&mut self) {
        for (&task, &line) in &self.task_lines {
            let of_task: Vec<(usize, &Item)> = self
                .dataset
                .iter()
                .enumerate()
                .filter(|(_, item)| item.task == task)
                .collect();
            let missing: Vec<&str> = of_task
                .iter()
                .filter(|(i, _)| !self.lines.contains_key(i))
                .map(|(_, item)| item.item_id.as_str())
                .collect();
            if missing.is_empty() {
                continue;
            }
            let more = missing.len().saturating_sub(MISSING_SHOWN);
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            self.errors.push(DatasetError {
                line,
                case_id: None,
                field: "item_id".into(),
                message: format!(
                    "the {task} items cover {} of the {} {task} items of the dataset; {} \
                     missing: {}{more}. A run that contains a task must cover every item of it \
                     exactly once; this is the line of its first item",
                    of_task.len() - missing.len(),
                    of_task.len(),
                    missing.len(),
                    missing
                        .iter()
                        .take(MISSING_SHOWN)
                        .copied()
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
            });
        }
    }
}

/// The readers of a PLawBench header and judgement.
impl LineReader {
    /// An optional non-empty string: `Some(None)` when absent or null.
    pub(crate) fn reason(
        &mut self,
        obj: &Map<String, Value>,
        parent: &str,
        key: &str,
    ) -> Option<Option<String>> {
        let reason = self.optional(obj, parent, key, LineReader::string);
        if let Some(Some(text)) = &reason {
            if is_blank(text) {
                self.fail(
                    &crate::core::lines::join(parent, key),
                    "must say why (a non-empty string) or be left out".into(),
                );
                return None;
            }
        }
        reason
    }

    pub(crate) fn finite(&mut self, v: &Value, path: &str) -> Option<f64> {
        let x = v.as_f64().filter(|x| x.is_finite());
        if x.is_none() {
            self.fail(
                path,
                format!("expected a finite number, got {}", describe(v)),
            );
        }
        x
    }

    pub(crate) fn checked_name(&mut self, v: &Value, path: &str) -> Option<String> {
        let name = self.string(v, path)?;
        match crate::names::check_name(&name) {
            Ok(()) => Some(name),
            Err(message) => {
                self.fail(path, message);
                None
            }
        }
    }

    /// A vocabulary value with a default when absent or null.
    pub(crate) fn vocab_or<T: Vocabulary>(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        default: T,
    ) -> Option<T> {
        self.optional(obj, "", key, Self::vocab::<T>)
            .map(|v| v.unwrap_or(default))
    }

    fn plaw_header(&mut self, obj: &Map<String, Value>) -> Option<RunHeader> {
        const KNOWN: [&str; 15] = [
            "kind",
            "benchmark",
            "model",
            "family",
            "model_family",
            "run",
            "dataset",
            "judges",
            "judge_aggregation",
            "judge_parse",
            "judge_attempts",
            "source",
            "generation",
            "evalscope_version",
            "created_at",
        ];
        let benchmark = self.optional(obj, "", "benchmark", Self::vocab::<Benchmark>);
        match benchmark {
            Some(Some(Benchmark::Plawbench)) | None => {}
            Some(other) => {
                let other = other.unwrap_or(Benchmark::Lexpilot);
                self.fail(
                    "benchmark",
                    format!(
                        "this is a {} run (\"benchmark\": \"{}\"{}), but the dataset is a \
                         PLawBench dataset; a PLawBench run header says \"benchmark\": \
                         \"plawbench\"",
                        other.label_en(),
                        other.as_str(),
                        if obj.contains_key("benchmark") {
                            ""
                        } else {
                            ", which is what an absent benchmark means"
                        }
                    ),
                );
            }
        }
        let model = self.required(obj, "", "model", Self::checked_name);
        let family = self.optional(obj, "", "family", Self::vocab::<Family>);
        let model_family = self.optional(obj, "", "model_family", Self::checked_name);
        let run = self.required(obj, "", "run", |r, v, p| r.whole_number(v, p, 1));
        let dataset = self.optional(obj, "", "dataset", Self::string);
        let judges = self.required(obj, "", "judges", Self::judge_seats);
        let judge_aggregation = self.vocab_or(obj, "judge_aggregation", Aggregation::Mean);
        let judge_parse = self.required(obj, "", "judge_parse", Self::vocab::<ParseMode>);
        let judge_attempts = self
            .optional(obj, "", "judge_attempts", |r, v, p| r.whole_number(v, p, 1))
            .map(|n| n.unwrap_or(1));
        let source = self.vocab_or(obj, "source", Source::Workbench);
        let generation = self.optional(obj, "", "generation", |r, v, p| r.object(v, p).cloned());
        let evalscope_version = self.optional(obj, "", "evalscope_version", Self::string);
        let created_at = self.optional(obj, "", "created_at", Self::string);
        let extra = obj
            .iter()
            .filter(|(k, _)| !KNOWN.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !self.errors.is_empty() {
            return None;
        }
        Some(RunHeader {
            benchmark: Benchmark::Plawbench,
            model: model?,
            family: family?,
            model_family: model_family?,
            run: run?,
            dataset: dataset?,
            judges: judges?,
            judge_aggregation: judge_aggregation?,
            judge_parse: judge_parse?,
            judge_attempts: judge_attempts?,
            source: source?,
            generation: generation?,
            evalscope_version: evalscope_version?,
            created_at: created_at?,
            extra,
        })
    }

    pub(crate) fn judge_seats(&mut self, v: &Value, path: &str) -> Option<Vec<JudgeSeat>> {
        let seats = self.list(v, path, |r, v, p| {
            let obj = r.object(v, p)?;
            let model = r.required(obj, p, "model", Self::checked_name);
            let vendor = r.optional(obj, p, "vendor", Self::string);
            Some(JudgeSeat {
                model: model?,
                vendor: vendor?,
            })
        })?;
        if seats.is_empty() {
            self.fail(path, "must name at least one judge".into());
            return None;
        }
        let mut first: HashMap<&str, usize> = HashMap::new();
        let mut ok = true;
        for (k, seat) in seats.iter().enumerate() {
            if let Some(f) = first.insert(seat.model.as_str(), k) {
                self.fail(
                    &format!("{path}[{k}].model"),
                    format!(
                        "duplicate judge \"{}\"; {path}[{f}] already names it",
                        seat.model
                    ),
                );
                ok = false;
            }
        }
        ok.then_some(seats)
    }

    fn judgement(&mut self, v: &Value, path: &str, item: Option<&Item>) -> Option<Judgement> {
        let obj = self.object(v, path)?;
        let judge = self.required(obj, path, "judge", Self::string);
        let unavailable = self.reason(obj, path, "unavailable");
        let awarded_path = crate::core::lines::join(path, "awarded");
        let awarded = match (obj.get("awarded"), &unavailable) {
            (None | Some(Value::Null), Some(None)) => {
                self.fail(
                    &awarded_path,
                    "is missing or null; a judgement without points must say why in \
                     \"unavailable\""
                        .into(),
                );
                None
            }
            (None | Some(Value::Null), _) => Some(None),
            (Some(_), Some(Some(_))) => {
                self.fail(
                    &awarded_path,
                    "must be left out in a judgement marked \"unavailable\"".into(),
                );
                None
            }
            (Some(v), _) => item.map_or(Some(None), |item| {
                self.awarded(v, &awarded_path, item).map(Some)
            }),
        };
        let reported_max = self.optional(obj, path, "reported_max", Self::finite);
        let judge_output = self.optional(obj, path, "judge_output", Self::string);
        let attempts = self.optional(obj, path, "attempts", |r, v, p| r.whole_number(v, p, 1));
        Some(Judgement {
            judge: judge?,
            awarded: awarded?,
            reported_max: reported_max?,
            judge_output: judge_output?,
            attempts: attempts?,
            unavailable: unavailable?,
        })
    }

    fn awarded(&mut self, v: &Value, path: &str, item: &Item) -> Option<Awarded> {
        let sections = item.section_max();
        if sections.is_empty() {
            return self.finite(v, path).map(Awarded::Points);
        }
        let expected = || {
            sections
                .keys()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let Some(obj) = v.as_object() else {
            self.fail(
                path,
                format!(
                    "expected an object of the points of each section of item {} ({}), got {}",
                    item.item_id,
                    expected(),
                    describe(v)
                ),
            );
            return None;
        };
        let mut awarded = BTreeMap::new();
        let mut ok = true;
        for (key, value) in obj {
            let here = crate::core::lines::join(path, key);
            match Section::parse(key) {
                Some(s) if sections.contains_key(&s) => match self.finite(value, &here) {
                    Some(x) => {
                        awarded.insert(s, x);
                    }
                    None => ok = false,
                },
                _ => {
                    self.fail(
                        &here,
                        format!(
                            "item {} has no section \"{key}\"; its sections are {}",
                            item.item_id,
                            expected()
                        ),
                    );
                    ok = false;
                }
            }
        }
        let missing: Vec<&str> = sections
            .keys()
            .filter(|s| !obj.contains_key(s.as_str()))
            .map(|s| s.as_str())
            .collect();
        if !missing.is_empty() {
            self.fail(
                path,
                format!(
                    "misses section{} {}; give the points of every section of item {} ({})",
                    plural(missing.len()),
                    missing.join(", "),
                    item.item_id,
                    expected()
                ),
            );
            ok = false;
        }
        ok.then_some(Awarded::Sections(awarded))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plawbench::dataset::parse_dataset;

    fn dataset() -> Vec<Item> {
        parse_dataset(concat!(
            r#"{"item_id": "case_analysis-1", "task": "case_analysis", "category": "个人生活", "context": "c", "question": "q", "sections": [{"criterion": "a", "points": "5", "tags": "结论得分"}, {"criterion": "b", "points": "20", "tags": "案情简述得分"}, {"criterion": "c", "points": "20", "tags": "分析过程得分"}, {"criterion": "d", "points": "15", "tags": "法条依据得分"}], "max_points": 60}"#,
            "\n",
            r#"{"item_id": "case_analysis-2", "task": "case_analysis", "context": "c", "question": "q", "sections": [{"criterion": "a", "points": 10, "tags": "结论得分"}], "max_points": 10}"#,
            "\n",
            r#"{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "q", "rubric": "r", "max_points": 16}"#,
            "\n",
        ))
        .unwrap()
    }

    const HEADER: &str = r#"{"kind": "run", "benchmark": "plawbench", "model": "M", "run": 1, "judges": [{"model": "J"}], "judge_parse": "strict"}"#;

    #[test]
    fn a_run_reads_back_from_its_stored_form() {
        let text = format!(
            "{HEADER}\n{}\n{}\n",
            r#"{"kind": "rubric", "item_id": "case_analysis-1", "task": "case_analysis", "response": "r", "finish_reason": "length", "judgements": [{"judge": "J", "awarded": {"conclusion": 8, "facts": 15, "reasoning": 10, "law": -1}, "judge_output": "…"}]}"#,
            r#"{"kind": "rubric", "item_id": "case_analysis-2", "task": "case_analysis", "unavailable": "timeout"}"#,
        );
        let run = parse_run(&text, &dataset()).unwrap();
        assert_eq!(run.header.judge_attempts, 1);
        assert_eq!(run.header.judge_aggregation, Aggregation::Mean);
        assert!(run.items[0].truncated());
        let stored = run.to_stored();
        assert_eq!(Run::read_stored(&stored).unwrap(), run);
        assert_eq!(parse_run(&stored, &dataset()).unwrap(), run);
    }

    #[test]
    fn every_item_error_is_named() {
        let text = format!(
            "{HEADER}\n{}\n{}\n{}\n{}\n",
            r#"{"kind": "rubric", "item_id": "case_analysis-1", "task": "legal_consultation", "judgements": [{"judge": "J", "awarded": {"conclusion": 1, "facts": "2", "x": 3}}]}"#,
            r#"{"kind": "rubric", "item_id": "case_analysis-1", "task": "case_analysis", "judgements": [{"judge": "J", "awarded": 3, "unavailable": "no"}, {"judge": "K"}]}"#,
            r#"{"kind": "rubric", "item_id": "nope", "task": "case_analysis"}"#,
            r#"{"kind": "lca", "item_id": "legal_consultation-1"}"#,
        );
        let errors = parse_run(&text, &dataset()).unwrap_err();
        let found: Vec<(usize, &str)> = errors
            .0
            .iter()
            .map(|e| (e.line, e.field.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                (2, "task"),
                (2, "judgements[0].awarded.facts"),
                (2, "judgements[0].awarded.x"),
                (2, "judgements[0].awarded"),
                (3, "judgements"),
                (3, "judgements[0].awarded"),
                (3, "judgements[1].awarded"),
                (3, "item_id"),
                (4, "item_id"),
                (4, "judgements"),
                (5, "kind"),
                (2, "item_id"),
            ],
            "{errors}"
        );
        assert!(errors.to_string().contains("the case_analysis items cover 1 of the 2 case_analysis items of the dataset; 1 missing: case_analysis-2"));
    }

    #[test]
    fn headers_are_checked_field_by_field() {
        let text = concat!(
            r#"{"kind": "run", "model": "", "run": 0, "judges": [{"model": "J"}, {"model": "J"}], "judge_aggregation": "max", "judge_attempts": 0, "source": "web", "generation": 3}"#,
            "\n",
            r#"{"kind": "rubric", "item_id": "legal_consultation-1", "task": "legal_consultation", "judgements": [{"judge": "J", "awarded": 1}]}"#,
        );
        let errors = parse_run(text, &dataset()).unwrap_err();
        let fields: Vec<&str> = errors.0.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "benchmark",
                "model",
                "run",
                "judges[1].model",
                "judge_aggregation",
                "judge_parse",
                "judge_attempts",
                "source",
                "generation"
            ],
            "{errors}"
        );
        assert!(errors.0[0]
            .message
            .contains("which is what an absent benchmark means"));
        let empty = HEADER.replace(r#"[{"model": "J"}]"#, "[]");
        let errors = parse_run(&format!("{empty}\n"), &dataset())
            .unwrap_err()
            .to_string();
        assert!(
            errors.contains("field judges: must name at least one judge"),
            "{errors}"
        );
        assert!(errors.contains("no items"), "{errors}");
    }
}
