//! The PLawBench dataset file (`docs/benchmarks/plawbench.md` §B1, §B1.1):
//! one item per line, in four tasks.
//!
//! - Vocabularies: [`Task`] (the four evalscope subsets), [`JudgeType`] (which
//!   prompts a task uses) and [`Section`] (the four rubric sections of a
//!   `case_analysis` item, with their rubric tag, judge key and metric name).
//! - Types: [`Item`] and its `case_analysis` rubric entries [`RubricEntry`],
//!   which keep the released JSON exactly (key order and the JSON type of
//!   `points`), because the judge prompt embeds it re-serialised (§B2.2).
//! - Parsing: [`parse_dataset`] / [`parse_dataset_reader`] return every item
//!   or every error found, each naming its 1-based line, the item and the
//!   field, in the shared form ([`DatasetErrors`]).
//! - Converting: [`from_evalscope_records`] reads evalscope's dataset records
//!   (`id, task, judge_type, category, context, question, rubrics, max_points`,
//!   with `rubrics` a JSON-encoded string for `case_analysis`) into items,
//!   with errors named by line and evalscope field.
//! - Writing: [`to_jsonl`], which [`parse_dataset`] reads back unchanged.
//!
//! # Rules (reject, naming line and field)
//!
//! `item_id` is a name ([`crate::names`]) unique in the file; `task` one of
//! the four; `question` a non-blank string; `context` a string, required for
//! `case_analysis` (default `""` otherwise); `category` a string, one of
//! [`CATEGORIES`] for `case_analysis`; `max_points` a whole number ≥ 1.
//! A `case_analysis` item has non-empty `sections` and no `rubric`, each entry
//! an object with a string `criterion`, `points` a number or numeric string
//! ≥ 0 and `tags` one of the four section tags; each tag's points (repeated
//! tags add up) total more than 0, and `max_points` equals their sum. Other
//! items have a non-blank string `rubric` and no `sections`; their
//! `max_points` is not checked against the rubric text (→C-P4).
//!
//! Depends on serde, serde_json, [`crate::core::lines`], [`crate::vocab`] and
//! [`super::json`]; reads through [`std::io::BufRead`] only.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::io::BufRead;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::json::{python_dumps, OrderedJson};
use crate::core::errors::{DatasetError, DatasetErrors};
use crate::core::lines::{
    describe, is_blank, json_message, line_error, read_lines, ErrorLog, LineReader,
};
use crate::vocab::vocabulary;

vocabulary! {
    /// The four PLawBench tasks, one per evalscope subset.
    Task, kind "task" {
        /// Case analysis in four sections (official Task2), 250 items.
        CaseAnalysis = "case_analysis", zh "实务案例分析", en "Case analysis";
        /// Follow-up questions to a client (official Task1), 18 items.
        LegalConsultation = "legal_consultation", zh "法律咨询追问", en "Legal consultation";
        /// A statement of complaint, 起诉状 (official Task3-Plaintiff), 6 items.
        PlaintiffStatement = "plaintiff_statement", zh "起诉状写作", en "Plaintiff's statement";
        /// A statement of defence, 答辩状 (official Task3-Defendant), 6 items.
        DefendantStatement = "defendant_statement", zh "答辩状写作", en "Defendant's statement";
    }
}

vocabulary! {
    /// Which prompts a task uses (evalscope's `judge_type`).
    JudgeType, kind "judge type" {
        /// `legal_consultation`.
        LegalQa = "legal_qa", zh "法律咨询", en "Legal Q&A";
        /// `case_analysis`.
        CaseAnalysis = "case_analysis", zh "案例分析", en "Case analysis";
        /// `plaintiff_statement` and `defendant_statement`.
        DocumentGeneration = "document_generation", zh "文书生成", en "Document generation";
    }
}

vocabulary! {
    /// The four rubric sections of a `case_analysis` item, in rubric order.
    Section, kind "section" {
        /// 结论: the conclusion.
        Conclusion = "conclusion", zh "结论", en "Conclusion";
        /// 案件事实: the facts of the case.
        Facts = "facts", zh "案件事实", en "Facts";
        /// 推理过程: the reasoning.
        Reasoning = "reasoning", zh "推理过程", en "Reasoning";
        /// 法条依据: the statutes relied on.
        Law = "law", zh "法条依据", en "Statute";
    }
}

impl Task {
    /// The prompts the task uses.
    ///
    /// ```
    /// use engine::plawbench::dataset::{JudgeType, Task};
    /// assert_eq!(Task::DefendantStatement.judge_type(), JudgeType::DocumentGeneration);
    /// ```
    pub const fn judge_type(self) -> JudgeType {
        match self {
            Task::CaseAnalysis => JudgeType::CaseAnalysis,
            Task::LegalConsultation => JudgeType::LegalQa,
            Task::PlaintiffStatement | Task::DefendantStatement => JudgeType::DocumentGeneration,
        }
    }
}

impl Section {
    /// The rubric tag of the section's entries (`结论得分`).
    ///
    /// ```
    /// use engine::plawbench::dataset::Section;
    /// assert_eq!(Section::from_tag("案情简述得分"), Some(Section::Facts));
    /// assert_eq!(Section::Facts.tag(), "案情简述得分");
    /// ```
    pub const fn tag(self) -> &'static str {
        match self {
            Section::Conclusion => "结论得分",
            Section::Facts => "案情简述得分",
            Section::Reasoning => "分析过程得分",
            Section::Law => "法条依据得分",
        }
    }

    /// The key of the section in the judge's `score_details` (`结论`).
    pub const fn judge_key(self) -> &'static str {
        self.label_zh()
    }

    /// The evalscope metric of the section (`conclusion_acc`).
    pub const fn metric(self) -> &'static str {
        match self {
            Section::Conclusion => "conclusion_acc",
            Section::Facts => "fact_acc",
            Section::Reasoning => "reasoning_acc",
            Section::Law => "law_acc",
        }
    }

    /// The section whose rubric tag is `tag`.
    pub fn from_tag(tag: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.tag() == tag)
    }

    /// The section whose judge key is `key`.
    pub fn from_judge_key(key: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.judge_key() == key)
    }

    /// The tags, for "expected one of" messages.
    fn tags() -> String {
        Section::ALL.map(Section::tag).join(", ")
    }
}

/// The 12 `category` labels of the official `case_analysis` items (§B1).
pub const CATEGORIES: [&str; 12] = [
    "诉讼仲裁",
    "跨国事务",
    "公司治理",
    "刑事实务",
    "个人生活",
    "婚姻家事",
    "劳动人事",
    "知识产权",
    "法律时效敏感度",
    "法律理论应用",
    "环保安全",
    "法律科技",
];

/// One item of the dataset (§B1.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// Unique in the file; equals evalscope's `metadata.id` (`case_analysis-1`).
    pub item_id: String,
    /// The task.
    pub task: Task,
    /// For `case_analysis`, one of [`CATEGORIES`]; free text otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// The case description (`""` for tasks without one).
    #[serde(default)]
    pub context: String,
    /// The question, or the client's statement or account.
    pub question: String,
    /// The rubric entries of a `case_analysis` item, as released.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sections: Option<Vec<RubricEntry>>,
    /// The text rubric of the other tasks, passed verbatim to the judge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rubric: Option<String>,
    /// The denominator of the item's score.
    pub max_points: u32,
}

/// One rubric entry of a `case_analysis` item. It serialises as the object
/// it was read from, unchanged; its criterion, points and section are read
/// from that object.
#[derive(Debug, Clone, PartialEq)]
pub struct RubricEntry {
    criterion: String,
    points: f64,
    section: Section,
    released: OrderedJson,
}

impl RubricEntry {
    /// Reads an entry from its released JSON object.
    ///
    /// ```
    /// use engine::plawbench::dataset::{RubricEntry, Section};
    ///
    /// let json = serde_json::from_str(r#"{"criterion": "(+5分) 结论正确", "points": "5", "tags": "结论得分"}"#).unwrap();
    /// let entry = RubricEntry::from_released(json).unwrap();
    /// assert_eq!((entry.points(), entry.section()), (5.0, Section::Conclusion));
    /// assert!(RubricEntry::from_released(serde_json::from_str(r#"{"points": 5}"#).unwrap()).is_err());
    /// ```
    pub fn from_released(released: OrderedJson) -> Result<RubricEntry, String> {
        let mut errors = Vec::new();
        let entry = read_entry(&released, &mut |field, message| {
            errors.push(format!("{field}: {message}"))
        });
        match entry {
            Some((criterion, points, section)) if errors.is_empty() => Ok(RubricEntry {
                criterion,
                points,
                section,
                released,
            }),
            _ => Err(errors.join("; ")),
        }
    }

    /// The criterion text.
    pub fn criterion(&self) -> &str {
        &self.criterion
    }

    /// The points, read from a number or a numeric string.
    pub fn points(&self) -> f64 {
        self.points
    }

    /// The section its tag names.
    pub fn section(&self) -> Section {
        self.section
    }

    /// The object as released.
    pub fn released(&self) -> &OrderedJson {
        &self.released
    }
}

impl Serialize for RubricEntry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.released.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RubricEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        RubricEntry::from_released(OrderedJson::deserialize(deserializer)?)
            .map_err(serde::de::Error::custom)
    }
}

/// Reads criterion, points and section of one rubric entry, reporting each
/// problem as (field within the entry, message).
fn read_entry(
    v: &OrderedJson,
    fail: &mut impl FnMut(&str, String),
) -> Option<(String, f64, Section)> {
    let OrderedJson::Object(_) = v else {
        fail(
            "",
            format!("expected an object, got {}", describe(&v.to_value())),
        );
        return None;
    };
    let criterion = match v.get("criterion") {
        Some(OrderedJson::String(s)) => Some(s.clone()),
        Some(other) => {
            fail(
                "criterion",
                format!("expected a string, got {}", describe(&other.to_value())),
            );
            None
        }
        None => {
            fail("criterion", "missing required field".into());
            None
        }
    };
    let points = match v.get("points") {
        Some(p) => {
            let parsed = points_value(p);
            if parsed.is_none() {
                let got = match p {
                    OrderedJson::String(s) => format!("\"{s}\""),
                    OrderedJson::Number(n) => n.to_string(),
                    other => describe(&other.to_value()).to_owned(),
                };
                fail(
                    "points",
                    format!("expected a number ≥ 0 or a string holding one, got {got}"),
                );
            }
            parsed
        }
        None => {
            fail("points", "missing required field".into());
            None
        }
    };
    let section = match v.get("tags") {
        Some(OrderedJson::String(tag)) => {
            let section = Section::from_tag(tag);
            if section.is_none() {
                fail(
                    "tags",
                    format!(
                        "unknown section tag \"{tag}\"; expected one of {}",
                        Section::tags()
                    ),
                );
            }
            section
        }
        Some(other) => {
            fail(
                "tags",
                format!(
                    "expected a section tag (one of {}), got {}",
                    Section::tags(),
                    describe(&other.to_value())
                ),
            );
            None
        }
        None => {
            fail("tags", "missing required field".into());
            None
        }
    };
    Some((criterion?, points?, section?))
}

/// A finite number ≥ 0 from a JSON number or a string holding one
/// (surrounding whitespace allowed, as Python's `float`).
fn points_value(v: &OrderedJson) -> Option<f64> {
    let x = match v {
        OrderedJson::Number(n) => n.as_f64()?,
        OrderedJson::String(s) => {
            let s = s.trim();
            let numeric = s
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | '+' | '-' | 'e' | 'E'));
            if !numeric || s.is_empty() {
                return None;
            }
            s.parse::<f64>().ok()?
        }
        _ => return None,
    };
    (x.is_finite() && x >= 0.0).then_some(x)
}

impl Item {
    /// The prompts the item's task uses.
    pub fn judge_type(&self) -> JudgeType {
        self.task.judge_type()
    }

    /// For a `case_analysis` item, each section's points (Σ over the entries
    /// with its tag), in [`Section::ALL`] order; empty for the other tasks.
    ///
    /// ```
    /// use engine::plawbench::dataset::{parse_dataset, Section};
    ///
    /// let items = parse_dataset(r#"{"item_id": "case_analysis-1", "task": "case_analysis", "category": "个人生活", "context": "某甲……", "question": "某甲能否……？", "sections": [{"criterion": "(+5分)", "points": "5", "tags": "结论得分"}, {"criterion": "(+10分)", "points": 10, "tags": "法条依据得分"}, {"criterion": "(+5分)", "points": "5", "tags": "法条依据得分"}], "max_points": 20}"#).unwrap();
    /// let max = items[0].section_max();
    /// assert_eq!(max.get(&Section::Law), Some(&15.0));
    /// assert_eq!(max.get(&Section::Facts), None);
    /// ```
    pub fn section_max(&self) -> BTreeMap<Section, f64> {
        let mut max = BTreeMap::new();
        for entry in self.sections.iter().flatten() {
            *max.entry(entry.section).or_insert(0.0) += entry.points;
        }
        max
    }

    /// What the judge prompt embeds as `<<rubric_item>>` (§B2.2): for
    /// `case_analysis`, Python's `json.dumps(sections, ensure_ascii=False,
    /// indent=2)`; for the other tasks, the rubric text as it is.
    ///
    /// ```
    /// use engine::plawbench::dataset::parse_dataset;
    ///
    /// let items = parse_dataset(r#"{"item_id": "case_analysis-1", "task": "case_analysis", "context": "c", "question": "q", "sections": [{"criterion": "【结论得分】\n(+5分) 有权", "points": "5", "tags": "结论得分"}], "max_points": 5}"#).unwrap();
    /// assert_eq!(
    ///     items[0].judge_rubric(),
    ///     "[\n  {\n    \"criterion\": \"【结论得分】\\n(+5分) 有权\",\n    \"points\": \"5\",\n    \"tags\": \"结论得分\"\n  }\n]"
    /// );
    /// ```
    pub fn judge_rubric(&self) -> String {
        match &self.sections {
            Some(entries) => python_dumps(&OrderedJson::Array(
                entries.iter().map(|e| e.released.clone()).collect(),
            )),
            None => self.rubric.clone().unwrap_or_default(),
        }
    }

    /// The released sections as one JSON array, in order.
    pub fn released_sections(&self) -> Option<OrderedJson> {
        self.sections
            .as_ref()
            .map(|entries| OrderedJson::Array(entries.iter().map(|e| e.released.clone()).collect()))
    }
}

/// How many items of each task a dataset has, in [`Task::ALL`] order, tasks
/// without items left out.
///
/// ```
/// use engine::plawbench::dataset::{task_counts, Task};
/// assert!(task_counts(&[]).is_empty());
/// # let _ = Task::ALL;
/// ```
pub fn task_counts(items: &[Item]) -> BTreeMap<Task, usize> {
    let mut counts = BTreeMap::new();
    for item in items {
        *counts.entry(item.task).or_insert(0) += 1;
    }
    counts
}

/// Reads a dataset file in either form the workbench takes: its own items
/// (§B1.1, [`parse_dataset`]) or evalscope's dataset records
/// ([`from_evalscope_records`]), told apart by the first record: one with
/// `rubrics` (a JSON string) and `id` but no `item_id` is evalscope's.
///
/// ```
/// use engine::plawbench::dataset::parse_any;
///
/// let ours = r#"{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "我要离婚。", "rubric": "1.(+5 分) 报警记录？", "max_points": 5}"#;
/// let evalscope = r#"{"id": "legal_consultation-1", "task": "legal_consultation", "judge_type": "legal_qa", "category": "", "context": "", "question": "我要离婚。", "rubrics": "1.(+5 分) 报警记录？", "max_points": 5}"#;
/// assert_eq!(parse_any(ours).unwrap(), parse_any(evalscope).unwrap());
/// ```
pub fn parse_any(text: &str) -> Result<Vec<Item>, DatasetErrors> {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .and_then(|l| serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(l).ok());
    match first {
        Some(record)
            if record.contains_key("rubrics")
                && record.contains_key("id")
                && !record.contains_key("item_id") =>
        {
            from_evalscope_records(text)
        }
        _ => parse_dataset(text),
    }
}

/// Parses and validates a whole dataset file held in memory; see
/// [`parse_dataset_reader`].
///
/// # Examples
///
/// ```
/// use engine::plawbench::dataset::{parse_dataset, Task};
///
/// let text = concat!(
///     r#"{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "律师啊！我要离婚。", "rubric": "1.(+3 分) 是否有报警记录？\n2.(+2 分) 协议内容？", "max_points": 5}"#,
///     "\n",
/// );
/// let items = parse_dataset(text).unwrap();
/// assert_eq!((items[0].task, items[0].max_points), (Task::LegalConsultation, 5));
///
/// let bad = r#"{"item_id": "x-1", "task": "case_analysis", "context": "", "question": "？", "sections": [{"criterion": "", "points": "五", "tags": "结论得分"}], "max_points": 5}"#;
/// assert_eq!(
///     parse_dataset(bad).unwrap_err().to_string(),
///     "line 1 (x-1), field sections[0].points: expected a number ≥ 0 or a string holding one, got \"五\""
/// );
/// ```
pub fn parse_dataset(text: &str) -> Result<Vec<Item>, DatasetErrors> {
    parse_dataset_reader(text.as_bytes())
}

/// Parses and validates a dataset file line by line from a reader: every
/// item in file order, or every error found (up to
/// [`MAX_ERRORS`](crate::core::errors::MAX_ERRORS), then a count). Blank lines are
/// skipped and counted.
///
/// ```
/// use engine::plawbench::dataset::parse_dataset_reader;
///
/// let text = "{\"item_id\": \"a\", \"task\": \"legal_consultation\", \"question\": \"q\", \"rubric\": \"r\", \"max_points\": 3}\n\nnot json\n";
/// let errors = parse_dataset_reader(text.as_bytes()).unwrap_err();
/// assert_eq!(errors.0[0].line, 3);
/// ```
pub fn parse_dataset_reader<R: BufRead>(reader: R) -> Result<Vec<Item>, DatasetErrors> {
    parse_lines(reader, |text, line| {
        let value: OrderedJson = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(e) => return Err(vec![line_error(line, json_message(&e, text))]),
        };
        read_item(&value, line)
    })
}

/// Parses lines with `read` and checks that item ids are unique.
fn parse_lines<R: BufRead>(
    reader: R,
    mut read: impl FnMut(&str, usize) -> Result<Item, Vec<DatasetError>>,
) -> Result<Vec<Item>, DatasetErrors> {
    let mut errors = ErrorLog::default();
    let mut items = Vec::new();
    let mut first_line_of_id: HashMap<String, usize> = HashMap::new();
    let result = read_lines(reader, |line, text| {
        let text = match text {
            Ok(text) => text,
            Err(e) => return errors.push(e),
        };
        let item = match read(text, line) {
            Ok(item) => item,
            Err(line_errors) => return line_errors.into_iter().for_each(|e| errors.push(e)),
        };
        match first_line_of_id.entry(item.item_id.clone()) {
            Entry::Occupied(first) => errors.push(DatasetError {
                line,
                case_id: Some(item.item_id.clone()),
                field: "item_id".into(),
                message: format!(
                    "duplicate item_id \"{}\"; it is first used on line {}",
                    item.item_id,
                    first.get()
                ),
            }),
            Entry::Vacant(slot) => {
                slot.insert(line);
            }
        }
        items.push(item);
    });
    if let Err(e) = result {
        errors.push(e);
    }
    errors.finish().map(|()| items)
}

/// Reads and checks one item from the JSON value of its line.
pub(super) fn read_item(value: &OrderedJson, line: usize) -> Result<Item, Vec<DatasetError>> {
    let mut r = LineReader::new(line);
    let plain = value.to_value();
    let Some(obj) = r.object(&plain, "") else {
        return Err(r.errors);
    };
    let item_id = r.required(obj, "", "item_id", LineReader::string);
    if let Some(id) = &item_id {
        if let Err(message) = crate::names::check_id(id) {
            r.fail("item_id", message);
        }
        r.case_id = Some(id.clone());
    }
    let task = r.required(obj, "", "task", LineReader::vocab::<Task>);
    let category = r.optional(obj, "", "category", LineReader::string);
    let context = if task == Some(Task::CaseAnalysis) {
        r.required(obj, "", "context", LineReader::string)
    } else {
        r.optional(obj, "", "context", LineReader::string)
            .map(Option::unwrap_or_default)
    };
    let question = r.required(obj, "", "question", LineReader::string);
    if question.as_deref().is_some_and(is_blank) {
        r.fail("question", "must not be empty".into());
    }
    let max_points = r.required(obj, "", "max_points", |r, v, p| r.whole_number(v, p, 1));

    if let (Some(Task::CaseAnalysis), Some(Some(category))) = (task, &category) {
        if !CATEGORIES.contains(&category.as_str()) {
            r.fail(
                "category",
                format!(
                    "unknown case_analysis category \"{category}\"; expected one of {}",
                    CATEGORIES.join(", ")
                ),
            );
        }
    }

    let (sections, rubric) = match task {
        Some(Task::CaseAnalysis) => {
            if obj.contains_key("rubric") {
                r.fail(
                    "rubric",
                    "a case_analysis item has its rubric in \"sections\", not \"rubric\"".into(),
                );
            }
            let sections = read_sections(&mut r, value.get("sections"));
            if let (Some(sections), Some(max_points)) = (&sections, max_points) {
                check_section_points(&mut r, sections, max_points);
            }
            (sections.map(Some), Some(None))
        }
        Some(other) => {
            if obj.contains_key("sections") {
                r.fail(
                    "sections",
                    format!(
                        "a {other} item has a text rubric in \"rubric\"; only case_analysis \
                         items have \"sections\""
                    ),
                );
            }
            let rubric = r.required(obj, "", "rubric", LineReader::string);
            if rubric.as_deref().is_some_and(is_blank) {
                r.fail("rubric", "must not be empty".into());
            }
            (Some(None), rubric.map(Some))
        }
        None => (None, None),
    };

    match (
        item_id, task, category, context, question, sections, rubric, max_points,
    ) {
        (
            Some(item_id),
            Some(task),
            Some(category),
            Some(context),
            Some(question),
            Some(sections),
            Some(rubric),
            Some(max_points),
        ) if r.errors.is_empty() => Ok(Item {
            item_id,
            task,
            category,
            context,
            question,
            sections,
            rubric,
            max_points,
        }),
        _ => Err(r.errors),
    }
}

fn read_sections(r: &mut LineReader, v: Option<&OrderedJson>) -> Option<Vec<RubricEntry>> {
    let Some(v) = v else {
        r.fail("sections", "missing required field".into());
        return None;
    };
    let OrderedJson::Array(entries) = v else {
        r.fail(
            "sections",
            format!("expected an array, got {}", describe(&v.to_value())),
        );
        return None;
    };
    if entries.is_empty() {
        r.fail("sections", "must list at least one rubric entry".into());
        return None;
    }
    let read: Vec<Option<RubricEntry>> = entries
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let path = format!("sections[{i}]");
            let read = read_entry(entry, &mut |field, message| {
                let field = if field.is_empty() {
                    path.clone()
                } else {
                    format!("{path}.{field}")
                };
                r.fail(&field, message);
            });
            read.map(|(criterion, points, section)| RubricEntry {
                criterion,
                points,
                section,
                released: entry.clone(),
            })
        })
        .collect();
    read.into_iter().collect()
}

fn check_section_points(r: &mut LineReader, sections: &[RubricEntry], max_points: u32) {
    let mut totals: BTreeMap<Section, f64> = BTreeMap::new();
    for entry in sections {
        *totals.entry(entry.section).or_insert(0.0) += entry.points;
    }
    for (section, total) in &totals {
        if *total <= 0.0 {
            r.fail(
                "sections",
                format!(
                    "section {} totals 0 points; every section present must total more than 0",
                    section.tag()
                ),
            );
        }
    }
    let sum: f64 = totals.values().sum();
    if (sum - f64::from(max_points)).abs() > 1e-9 {
        r.fail(
            "max_points",
            format!(
                "is {max_points} but the sections' points add up to {sum}; for case_analysis \
                 max_points must equal their sum"
            ),
        );
    }
}

/// Writes items as JSON Lines, one per `\n`-terminated line, sections as
/// released. [`parse_dataset`] reads the result back into equal items.
pub fn to_jsonl(items: &[Item]) -> String {
    let mut out = String::new();
    for item in items {
        // An item holds strings, whole numbers and JSON values only.
        if let Ok(line) = serde_json::to_string(item) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// Reads evalscope's PLawBench dataset records, one JSON object per line,
/// into items: `id` → `item_id`; `task`; `judge_type`, which must be the
/// task's; `category` (empty → none); `context` (default `""`); `question`;
/// `rubrics`, a JSON-encoded array of sections for `case_analysis` and the
/// rubric text for the other tasks; `max_points`. Every rule of
/// [`parse_dataset`] applies; errors name the line and the evalscope field
/// (`rubrics[0].points`).
///
/// # Examples
///
/// ```
/// use engine::plawbench::dataset::{from_evalscope_records, to_jsonl, parse_dataset};
///
/// let record = r#"{"id": "case_analysis-1", "task": "case_analysis", "judge_type": "case_analysis", "category": "个人生活", "context": "某甲……", "question": "某甲能否……？", "rubrics": "[{\"criterion\": \"(+5分)\", \"points\": \"5\", \"tags\": \"结论得分\"}]", "max_points": 5}"#;
/// let items = from_evalscope_records(record).unwrap();
/// assert_eq!(items[0].item_id, "case_analysis-1");
/// assert_eq!(parse_dataset(&to_jsonl(&items)).unwrap(), items);
///
/// let wrong = record.replace(r#""judge_type": "case_analysis""#, r#""judge_type": "legal_qa""#);
/// assert_eq!(
///     from_evalscope_records(&wrong).unwrap_err().to_string(),
///     "line 1 (case_analysis-1), field judge_type: is legal_qa but task case_analysis uses judge_type case_analysis"
/// );
/// ```
pub fn from_evalscope_records(text: &str) -> Result<Vec<Item>, DatasetErrors> {
    parse_lines(text.as_bytes(), |text, line| {
        let value: OrderedJson = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(e) => return Err(vec![line_error(line, json_message(&e, text))]),
        };
        let (converted, mut errors) = record_to_line(&value, line);
        let item = converted.map(|line_value| read_item(&line_value, line));
        match item {
            Some(Ok(item)) if errors.is_empty() => Ok(item),
            Some(Ok(_)) | None => Err(errors),
            Some(Err(item_errors)) => {
                errors.extend(item_errors.into_iter().map(|mut e| {
                    e.field = evalscope_field(&e.field);
                    e
                }));
                Err(errors)
            }
        }
    })
}

/// The evalscope name of a dataset field path.
fn evalscope_field(field: &str) -> String {
    for (ours, theirs) in [
        ("item_id", "id"),
        ("sections", "rubrics"),
        ("rubric", "rubrics"),
    ] {
        if let Some(rest) = field.strip_prefix(ours) {
            if rest.is_empty() || rest.starts_with(['[', '.']) {
                return format!("{theirs}{rest}");
            }
        }
    }
    field.to_owned()
}

/// Turns one evalscope record into the JSON of a dataset line, reporting the
/// problems only a record can have (judge type, the encoding of `rubrics`).
fn record_to_line(record: &OrderedJson, line: usize) -> (Option<OrderedJson>, Vec<DatasetError>) {
    let mut r = LineReader::new(line);
    let plain = record.to_value();
    let Some(obj) = r.object(&plain, "") else {
        return (None, r.errors);
    };
    if let Some(Value::String(id)) = obj.get("id") {
        r.case_id = Some(id.clone());
    }
    let task = obj
        .get("task")
        .and_then(Value::as_str)
        .and_then(Task::parse);
    let judge_type = r.required(obj, "", "judge_type", LineReader::vocab::<JudgeType>);
    if let (Some(task), Some(judge_type)) = (task, judge_type) {
        if task.judge_type() != judge_type {
            r.fail(
                "judge_type",
                format!(
                    "is {judge_type} but task {task} uses judge_type {}",
                    task.judge_type()
                ),
            );
        }
    }
    let rubrics = r.required(obj, "", "rubrics", LineReader::string);
    let mut members: Vec<(String, OrderedJson)> = Vec::new();
    let copy = |members: &mut Vec<(String, OrderedJson)>, from: &str, to: &str| {
        if let Some(v) = record.get(from) {
            members.push((to.to_owned(), v.clone()));
        }
    };
    copy(&mut members, "id", "item_id");
    copy(&mut members, "task", "task");
    if !matches!(obj.get("category"), Some(Value::String(s)) if s.is_empty()) {
        copy(&mut members, "category", "category");
    }
    copy(&mut members, "context", "context");
    copy(&mut members, "question", "question");
    match (task, rubrics) {
        (Some(Task::CaseAnalysis), Some(text)) => {
            match serde_json::from_str::<OrderedJson>(&text) {
                Ok(sections) => members.push(("sections".into(), sections)),
                Err(e) => r.fail(
                    "rubrics",
                    format!(
                        "a case_analysis record's rubrics must be a JSON-encoded array of \
                         sections; {}",
                        json_message(&e, &text)
                    ),
                ),
            }
        }
        (_, Some(text)) => members.push(("rubric".into(), OrderedJson::String(text))),
        (_, None) => {}
    }
    copy(&mut members, "max_points", "max_points");
    (Some(OrderedJson::Object(members)), r.errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case_line(sections: &str, max_points: u32) -> String {
        format!(
            r#"{{"item_id": "case_analysis-1", "task": "case_analysis", "category": "个人生活", "context": "某甲", "question": "能否？", "sections": {sections}, "max_points": {max_points}}}"#
        )
    }

    #[test]
    fn sections_keep_key_order_and_the_type_of_points() {
        let line = case_line(
            r#"[{"tags": "结论得分", "points": "5", "criterion": "甲"}, {"criterion": "乙", "points": 15, "tags": "法条依据得分"}]"#,
            20,
        );
        let items = parse_dataset(&line).unwrap();
        let written = to_jsonl(&items);
        assert!(written.contains(r#""sections":[{"tags":"结论得分","points":"5","criterion":"甲"},{"criterion":"乙","points":15,"tags":"法条依据得分"}]"#), "{written}");
        assert_eq!(parse_dataset(&written).unwrap(), items);
        let stored: Item = serde_json::from_str(written.trim()).unwrap();
        assert_eq!(stored, items[0]);
    }

    #[test]
    fn every_section_error_is_named() {
        let line = case_line(
            r#"[{"criterion": 1, "points": "-1", "tags": "结论"}, "x", {"criterion": "c", "points": 0, "tags": "结论得分"}]"#,
            9,
        );
        let errors = parse_dataset(&line).unwrap_err();
        let fields: Vec<&str> = errors.0.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "sections[0].criterion",
                "sections[0].points",
                "sections[0].tags",
                "sections[1]"
            ]
        );
    }

    #[test]
    fn zero_sections_and_wrong_max_points_are_refused() {
        let line = case_line(
            r#"[{"criterion": "c", "points": 0, "tags": "结论得分"}, {"criterion": "d", "points": "5", "tags": "法条依据得分"}]"#,
            6,
        );
        let errors = parse_dataset(&line).unwrap_err().to_string();
        assert!(
            errors.contains("section 结论得分 totals 0 points"),
            "{errors}"
        );
        assert!(
            errors.contains("field max_points: is 6 but the sections' points add up to 5"),
            "{errors}"
        );
    }

    #[test]
    fn rubric_and_sections_belong_to_their_tasks() {
        let text = concat!(
            r#"{"item_id": "a", "task": "legal_consultation", "question": "q", "sections": [], "rubric": "r", "max_points": 3}"#,
            "\n",
            r#"{"item_id": "b", "task": "case_analysis", "context": "c", "question": "q", "rubric": "r", "sections": [{"criterion": "c", "points": 3, "tags": "结论得分"}], "max_points": 3, "category": "其他"}"#,
            "\n",
            r#"{"item_id": "a", "task": "drafting", "question": "q", "max_points": 0}"#,
        );
        let errors = parse_dataset(text).unwrap_err().to_string();
        assert_eq!(
            errors,
            "line 1 (a), field sections: a legal_consultation item has a text rubric in \"rubric\"; only case_analysis items have \"sections\"\n\
             line 2 (b), field category: unknown case_analysis category \"其他\"; expected one of 诉讼仲裁, 跨国事务, 公司治理, 刑事实务, 个人生活, 婚姻家事, 劳动人事, 知识产权, 法律时效敏感度, 法律理论应用, 环保安全, 法律科技\n\
             line 2 (b), field rubric: a case_analysis item has its rubric in \"sections\", not \"rubric\"\n\
             line 3 (a), field task: unknown task \"drafting\"; expected one of case_analysis, legal_consultation, plaintiff_statement, defendant_statement\n\
             line 3 (a), field max_points: expected a whole number from 1 to 4294967295, got 0"
        );
    }

    #[test]
    fn duplicate_ids_name_the_first_line() {
        let line = r#"{"item_id": "x", "task": "plaintiff_statement", "question": "q", "rubric": "r", "max_points": 10}"#;
        let errors = parse_dataset(&format!("{line}\n\n{line}\n")).unwrap_err();
        assert_eq!(
            errors.to_string(),
            "line 3 (x), field item_id: duplicate item_id \"x\"; it is first used on line 1"
        );
    }

    #[test]
    fn evalscope_records_name_their_own_fields() {
        let record = r#"{"id": "case_analysis-2", "task": "case_analysis", "judge_type": "case_analysis", "category": "", "context": "c", "question": "q", "rubrics": "[{\"criterion\": \"c\", \"points\": \"x\", \"tags\": \"结论得分\"}]", "max_points": 5}"#;
        let errors = from_evalscope_records(record).unwrap_err().to_string();
        assert_eq!(
            errors,
            "line 1 (case_analysis-2), field rubrics[0].points: expected a number ≥ 0 or a string holding one, got \"x\""
        );
        let text = r#"{"id": "legal_consultation-1", "task": "legal_consultation", "judge_type": "legal_qa", "context": "", "question": "q", "rubrics": "总分：5分\n1.(+5 分) 问", "max_points": 5}"#;
        let items = from_evalscope_records(text).unwrap();
        assert_eq!(items[0].rubric.as_deref(), Some("总分：5分\n1.(+5 分) 问"));
        let broken = r#"{"id": "case_analysis-3", "task": "case_analysis", "judge_type": "case_analysis", "context": "c", "question": "q", "rubrics": "[{", "max_points": 5}"#;
        let errors = from_evalscope_records(broken).unwrap_err();
        assert_eq!(errors.0[0].field, "rubrics");
    }
}
