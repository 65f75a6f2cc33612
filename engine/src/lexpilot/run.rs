//! The run file of `docs/formats.md` §3: one evaluated model, one repetition.
//!
//! - Types: a [`Run`] is a [`RunHeader`] and the items of the three tasks,
//!   [`LcaItem`], [`DcgItem`] and [`LjpItem`], each list in file order.
//! - Parsing: [`parse_run`] / [`parse_run_reader`] read JSON Lines against the
//!   dataset the run was made on and return the run, or every error found (up
//!   to [`MAX_ERRORS`](crate::core::errors::MAX_ERRORS)), each naming its 1-based
//!   line, the case and the field. Errors are the shared types
//!   ([`crate::core::errors`]) under run names:
//!   [`RunError`](crate::core::errors::RunError), [`RunErrors`].
//! - Entries: [`RunHeader::entry_key`] is what a run says of the leaderboard
//!   entry it belongs to ([`crate::lexpilot::entries`] groups runs by it and
//!   the [`Part`]s they contain); [`RunHeader::same_run`] tells a duplicate file.
//! - Writing: [`Run::to_jsonl`], which [`parse_run`] reads back unchanged.
//!
//! # Rules
//!
//! Every rule of §3 rejects the file, with the line and the field at fault:
//!
//! - The first non-blank line is the header (`"kind": "run"`). Its
//!   `benchmark`, when given, is `lexpilot` (a run of another
//!   [`crate::benchmark::Benchmark`] is refused naming the field); `model` is a
//!   name ([`crate::names`]: not blank, at most 200 characters, no control
//!   characters; so are `judge` and `user_model` when given), `run` a whole number of at least 1, `family` one of
//!   [`Family`] or null; `dataset`, `judge`, `user_model` and `created_at` are
//!   strings or null; other header keys are kept in [`RunHeader::extra`].
//! - Every other line is an item of kind `lca`, `dcg` or `ljp` whose `case_id`
//!   is a case of the dataset; vocabulary values are checked and an unknown one
//!   names the allowed values. Item keys this module does not know are ignored.
//! - One `lca` item per (case, consultation), one `dcg` item per case, one `ljp`
//!   item per (case, setup); a duplicate names the line of the first. A task (or
//!   LJP setup) the file contains must cover every case of the dataset: the
//!   missing ones (the first five and a count) are reported on the line of the
//!   task's first item, after the errors of single lines.
//! - A `dcg` item has at most 2 `requests`; `ljp` `predictions` hold exactly one
//!   verdict per claim of the case (claim order cannot be checked, only length).
//! - An item carrying `"unavailable": "reason"` (a non-empty string) must have
//!   `label` / `predictions` null and, for `dcg`, every request's `accepted`
//!   null; its `requests` may be absent. An item without it must have them all
//!   set. So a `dcg` item is judged as a whole: one request that could not be
//!   judged makes the item unavailable, and no half-judged item is ever scored.
//! - A file with no header, or a header and no item, is rejected ("no items").
//!
//! Depends on serde, serde_json, [`crate::vocab`] and [`crate::lexpilot::dataset`]; reads
//! through [`std::io::BufRead`] only, never the file system. Memory grows with
//! the items kept, not with the text of the file: lines are read one at a time.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::hash::Hash;
use std::io::BufRead;

use rustc_hash::FxHashMap as HashMap;
use serde::de::MapAccess;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::benchmark::Benchmark;
use crate::core::dialogue::Turn;
use crate::core::entry::{EntryKey, Family};
use crate::core::errors::{DatasetError, DatasetErrors, RunErrors};
use crate::core::lines::{
    describe, is_blank, json_message, line_error, once, plural, read_lines, ErrorLog, Fields,
    LineReader, Object, Read, TurnLine,
};
use crate::lexpilot::dataset::Case;
use crate::vocab::{vocabulary, Consultation, LcaLabel, LjpSetup, Role, Verdict, Vocabulary};

vocabulary! {
    /// The three tasks of the benchmark, named by the `kind` of their items.
    Task, kind "task" {
        /// Legal Completeness Assessment: predict or ask, per consultation.
        Lca = "lca", zh "法律咨询完整性评估", en "Legal Completeness Assessment";
        /// Detail Completion Guidance: are the questions asked accepted?
        Dcg = "dcg", zh "细节补全引导", en "Detail Completion Guidance";
        /// Legal Judgment Prediction: one verdict per claim, in three setups.
        Ljp = "ljp", zh "法律判决预测", en "Legal Judgment Prediction";
    }
}

/// A part of the benchmark that a run may contain on its own: a task, and
/// for LJP each setup (§3: "any subset of the tasks (and of the LJP
/// setups)"). Runs of one entry may each contain other parts
/// ([`crate::lexpilot::entries`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    /// Legal Completeness Assessment.
    Lca,
    /// Detail Completion Guidance.
    Dcg,
    /// Legal Judgment Prediction in one setup.
    Ljp(LjpSetup),
}

impl Part {
    /// Every part, in the order tables list them.
    pub const ALL: [Part; 5] = [
        Part::Lca,
        Part::Dcg,
        Part::Ljp(LjpSetup::Direct),
        Part::Ljp(LjpSetup::Interaction),
        Part::Ljp(LjpSetup::Gold),
    ];

    /// Whether the part is played against the user model: DCG (its
    /// questions are answered) and Interaction-Based LJP. The others never
    /// call it, so a run of those alone says nothing about the user model.
    ///
    /// ```
    /// use engine::lexpilot::run::Part;
    /// use engine::vocab::LjpSetup;
    ///
    /// let played: Vec<Part> = Part::ALL.into_iter().filter(|p| p.uses_user_model()).collect();
    /// assert_eq!(played, [Part::Dcg, Part::Ljp(LjpSetup::Interaction)]);
    /// ```
    pub fn uses_user_model(self) -> bool {
        matches!(self, Part::Dcg | Part::Ljp(LjpSetup::Interaction))
    }

    /// The task the part belongs to.
    pub fn task(self) -> Task {
        match self {
            Part::Lca => Task::Lca,
            Part::Dcg => Task::Dcg,
            Part::Ljp(_) => Task::Ljp,
        }
    }
}

impl std::fmt::Display for Part {
    /// `lca`, `dcg`, or `ljp:<setup>`, as `lexpilot run --tasks` names them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Part::Ljp(setup) => write!(f, "ljp:{setup}"),
            other => f.write_str(other.task().as_str()),
        }
    }
}

/// The first line of a run file: which model, which repetition, made how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunHeader {
    /// The evaluated model's name; never empty.
    pub model: String,
    /// The model's group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<Family>,
    /// The repetition, from 1.
    pub run: u32,
    /// The name of the dataset the run was made on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
    /// The judge model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<String>,
    /// The model that played the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_model: Option<String>,
    /// When the run was made, free text (RFC 3339 by convention).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Any other header keys, kept as they are.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl RunHeader {
    /// What this run says of the leaderboard entry it belongs to.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::lexpilot::run::RunHeader;
    /// use engine::core::entry::Family;
    ///
    /// let first: RunHeader = serde_json::from_str(
    ///     r#"{"model": "M", "family": "open", "run": 1, "created_at": "2026-11-29"}"#,
    /// ).unwrap();
    /// let second = RunHeader { run: 2, created_at: None, ..first.clone() };
    /// let other_judge = RunHeader { judge: Some("J".into()), ..second.clone() };
    /// assert_eq!(first.entry_key(), second.entry_key());
    /// assert_ne!(first.entry_key(), other_judge.entry_key());
    /// assert_eq!(first.entry_key().family, Some(Family::Open));
    /// ```
    pub fn entry_key(&self) -> EntryKey {
        EntryKey {
            model: self.model.clone(),
            family: self.family,
            dataset: self.dataset.clone(),
            judge: self.judge.clone(),
            user_model: self.user_model.clone(),
            extra: self.extra.clone(),
        }
    }

    /// Whether `other` is the same repetition of the same model: a second file
    /// with the same `model` and `run`, which §3 rejects as a duplicate.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::lexpilot::run::RunHeader;
    ///
    /// let a: RunHeader = serde_json::from_str(r#"{"model": "M", "run": 1}"#).unwrap();
    /// let b = RunHeader { judge: Some("another judge".into()), ..a.clone() };
    /// assert!(a.same_run(&b));
    /// assert!(!a.same_run(&RunHeader { run: 2, ..a.clone() }));
    /// ```
    pub fn same_run(&self, other: &RunHeader) -> bool {
        self.model == other.model && self.run == other.run
    }
}

/// A Legal Completeness Assessment item: what the model did with one
/// consultation of a case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LcaItem {
    /// The case.
    pub case_id: String,
    /// Which of its two consultations.
    pub consultation: Consultation,
    /// The judge's reading of the reply; `None` exactly when unavailable.
    pub label: Option<LcaLabel>,
    /// The model's reply, kept for drill-down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    /// Why the item could not be labelled; such an item is not scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
}

/// A Detail Completion Guidance item: the questions asked on a case's
/// underspecified consultation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DcgItem {
    /// The case.
    pub case_id: String,
    /// At most two requests for a missing fact.
    pub requests: Vec<DcgRequest>,
    /// Why the item could not be judged; such an item is not scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
}

/// One request for a missing fact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DcgRequest {
    /// The question asked, kept for drill-down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Whether the judge accepted it; `None` exactly in unavailable items.
    pub accepted: Option<bool>,
}

/// A Legal Judgment Prediction item: the verdicts predicted for a case's
/// claims in one setup.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LjpItem {
    /// The case.
    pub case_id: String,
    /// The setup.
    pub setup: LjpSetup,
    /// One verdict per claim, in claim order; `None` exactly when unavailable.
    pub predictions: Option<Vec<Verdict>>,
    /// The model's final reply, kept for drill-down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    /// The interaction dialogue, kept for drill-down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialogue: Option<Vec<Turn>>,
    /// Why the item could not be labelled; such an item is not scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
}

impl DcgItem {
    /// Whether at least one request was accepted (the DCG hit); `None` for an
    /// unavailable item.
    pub fn hit(&self) -> Option<bool> {
        if self.unavailable.is_some() {
            return None;
        }
        Some(self.requests.iter().any(|r| r.accepted == Some(true)))
    }
}

/// A whole run: its header and its items, each list in file order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The header line.
    pub header: RunHeader,
    /// The `lca` items; empty when the run has no LCA.
    pub lca: Vec<LcaItem>,
    /// The `dcg` items; empty when the run has no DCG.
    pub dcg: Vec<DcgItem>,
    /// The `ljp` items of every setup; empty when the run has no LJP.
    pub ljp: Vec<LjpItem>,
}

/// How many items of a run are marked unavailable, per task.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnavailableCounts {
    /// Unavailable `lca` items.
    pub lca: usize,
    /// Unavailable `dcg` items.
    pub dcg: usize,
    /// Unavailable `ljp` items of each setup the run contains.
    pub ljp: BTreeMap<LjpSetup, usize>,
}

impl UnavailableCounts {
    /// Unavailable items of all tasks and setups.
    pub fn total(&self) -> usize {
        self.lca + self.dcg + self.ljp.values().sum::<usize>()
    }
}

impl Run {
    /// The texts the evaluated model wrote: LCA replies, DCG requests, LJP
    /// replies and its own turns of interaction dialogues (the simulated
    /// user's turns are not the model's), for checks such as citations.
    pub fn responses(&self) -> impl Iterator<Item = &str> + '_ {
        let lca = self.lca.iter().filter_map(|i| i.response.as_deref());
        let dcg = self
            .dcg
            .iter()
            .flat_map(|i| i.requests.iter().filter_map(|r| r.text.as_deref()));
        let ljp = self.ljp.iter().flat_map(|i| {
            i.response.as_deref().into_iter().chain(
                i.dialogue
                    .iter()
                    .flatten()
                    .filter(|t| t.role == Role::Assistant)
                    .map(|t| t.content.as_str()),
            )
        });
        lca.chain(dcg).chain(ljp)
    }

    /// Adds to the run an unavailable item (saying `reason`) for every case of
    /// `cases` it has no item of, in each task and LJP setup it contains: a job
    /// limited to the first N cases then still covers the dataset version it is
    /// stored on, and the cases it did not run are counted as unavailable, never
    /// scored.
    pub fn cover_dataset(&mut self, cases: &[Case], reason: &str) {
        let run = self;
        let seen: HashSet<&str> = run
            .lca
            .iter()
            .map(|i| i.case_id.as_str())
            .chain(run.dcg.iter().map(|i| i.case_id.as_str()))
            .chain(run.ljp.iter().map(|i| i.case_id.as_str()))
            .collect();
        let missing: Vec<&Case> = cases
            .iter()
            .filter(|c| !seen.contains(c.case_id.as_str()))
            .collect();
        let (lca, dcg, setups) = (run.has(Task::Lca), run.has(Task::Dcg), run.ljp_setups());
        let unavailable = Some(reason.to_owned());
        for case in missing {
            if lca {
                run.lca
                    .extend(Consultation::ALL.map(|consultation| LcaItem {
                        case_id: case.case_id.clone(),
                        consultation,
                        label: None,
                        response: None,
                        unavailable: unavailable.clone(),
                    }));
            }
            if dcg {
                run.dcg.push(DcgItem {
                    case_id: case.case_id.clone(),
                    requests: Vec::new(),
                    unavailable: unavailable.clone(),
                });
            }
            run.ljp.extend(setups.iter().map(|&setup| LjpItem {
                case_id: case.case_id.clone(),
                setup,
                predictions: None,
                response: None,
                dialogue: None,
                unavailable: unavailable.clone(),
            }));
        }
    }

    /// Whether the run contains `task`.
    pub fn has(&self, task: Task) -> bool {
        match task {
            Task::Lca => !self.lca.is_empty(),
            Task::Dcg => !self.dcg.is_empty(),
            Task::Ljp => !self.ljp.is_empty(),
        }
    }

    /// The tasks the run contains, in [`Task::ALL`] order.
    pub fn tasks(&self) -> Vec<Task> {
        Task::ALL.into_iter().filter(|&t| self.has(t)).collect()
    }

    /// The LJP setups the run contains, in [`LjpSetup::ALL`] order.
    pub fn ljp_setups(&self) -> Vec<LjpSetup> {
        LjpSetup::ALL
            .into_iter()
            .filter(|&s| self.ljp.iter().any(|item| item.setup == s))
            .collect()
    }

    /// The parts the run contains: its tasks, LJP by setup.
    pub fn parts(&self) -> BTreeSet<Part> {
        let lca = self.has(Task::Lca).then_some(Part::Lca);
        let dcg = self.has(Task::Dcg).then_some(Part::Dcg);
        lca.into_iter()
            .chain(dcg)
            .chain(self.ljp_setups().into_iter().map(Part::Ljp))
            .collect()
    }

    /// How many items are unavailable, per task (and per LJP setup).
    pub fn unavailable(&self) -> UnavailableCounts {
        let ljp = self
            .ljp_setups()
            .into_iter()
            .map(|s| {
                let n = self
                    .ljp
                    .iter()
                    .filter(|i| i.setup == s && i.unavailable.is_some())
                    .count();
                (s, n)
            })
            .collect();
        UnavailableCounts {
            lca: self.lca.iter().filter(|i| i.unavailable.is_some()).count(),
            dcg: self.dcg.iter().filter(|i| i.unavailable.is_some()).count(),
            ljp,
        }
    }

    /// Writes the run as a run file: the header, then the `lca`, `dcg` and `ljp`
    /// items, one per `\n`-terminated line. [`parse_run`] reads it back equal.
    pub fn to_jsonl(&self) -> String {
        let mut out = String::new();
        push_line(&mut out, "run", &self.header);
        self.lca.iter().for_each(|i| push_line(&mut out, "lca", i));
        self.dcg.iter().for_each(|i| push_line(&mut out, "dcg", i));
        self.ljp.iter().for_each(|i| push_line(&mut out, "ljp", i));
        out
    }
}

/// One line of a run file as [`Run::to_jsonl`] writes it.
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum StoredLine {
    Run(RunHeader),
    Lca(LcaItem),
    Dcg(DcgItem),
    Ljp(LjpItem),
}

impl Run {
    /// Reads back what [`Run::to_jsonl`] wrote, trusting it: each line is
    /// deserialised straight into its type, with none of [`parse_run`]'s
    /// checks against the dataset (the run was validated when it was
    /// written). For runs kept by the workbench itself, never for files from
    /// outside.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::lexpilot::run::{parse_run, Run};
    ///
    /// let dataset = engine::lexpilot::dataset::parse_dataset(&engine::lexpilot::synthetic::dataset_file(1)).unwrap();
    /// let run = parse_run(&engine::lexpilot::synthetic::run_file(&dataset, 0, 1, 1), &dataset).unwrap();
    /// assert_eq!(Run::from_stored_jsonl(&run.to_jsonl()).unwrap(), run);
    /// assert!(Run::from_stored_jsonl("{\"kind\": \"lca\"}").is_err());
    /// ```
    pub fn from_stored_jsonl(text: &str) -> Result<Run, String> {
        let mut header = None;
        let (mut lca, mut dcg, mut ljp) = (Vec::new(), Vec::new(), Vec::new());
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            match serde_json::from_str(line)
                .map_err(|e| format!("stored run, line {}: {e}", n + 1))?
            {
                StoredLine::Run(h) => header = Some(h),
                StoredLine::Lca(item) => lca.push(item),
                StoredLine::Dcg(item) => dcg.push(item),
                StoredLine::Ljp(item) => ljp.push(item),
            }
        }
        Ok(Run {
            header: header.ok_or("stored run without a header")?,
            lca,
            dcg,
            ljp,
        })
    }
}

/// Appends one line of a run file: the serde form of `value` with `kind` first.
fn push_line(out: &mut String, kind: &str, value: &impl Serialize) {
    let mut line = Map::new();
    line.insert("kind".into(), Value::String(kind.into()));
    // Headers and items hold strings, booleans, integers, sequences and
    // string-keyed maps only, so they always serialise to a JSON object.
    if let Ok(Value::Object(fields)) = serde_json::to_value(value) {
        line.extend(fields);
    }
    out.push_str(&Value::Object(line).to_string());
    out.push('\n');
}

/// Parses and validates a whole run file held in memory against the dataset
/// it was made on; see [`parse_run_reader`].
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::parse_dataset;
/// use engine::lexpilot::run::{parse_run, Task};
/// use engine::core::entry::Family;
///
/// let case = r#"{"case_id": "LP-1", "cause": "离婚纠纷", "class": "family",
///   "plaintiff_type": "natural",
///   "claims": [{"id": "c1", "text": "判令离婚", "verdict": "supported"}],
///   "focal_points": [], "key_facts": [], "missing_facts": [],
///   "consultations": {"complete": [{"role": "user", "content": "我要离婚。"}],
///                     "underspecified": [{"role": "user", "content": "能离婚吗？"}]}}"#;
/// let dataset = parse_dataset(&case.replace('\n', " ")).unwrap();
///
/// let run = parse_run(
///     r#"{"kind": "run", "model": "M", "family": "open", "run": 1}
/// {"kind": "ljp", "case_id": "LP-1", "setup": "direct", "predictions": ["dismissed"]}
/// {"kind": "ljp", "case_id": "LP-1", "setup": "gold", "predictions": null, "unavailable": "timeout"}
/// "#,
///     &dataset,
/// )
/// .unwrap();
/// assert_eq!(run.header.family, Some(Family::Open));
/// assert_eq!(run.tasks(), [Task::Ljp]);
/// assert_eq!(run.unavailable().total(), 1);
///
/// let errors = parse_run(
///     "{\"kind\": \"run\", \"model\": \"M\", \"run\": 1}\n\
///      {\"kind\": \"ljp\", \"case_id\": \"LP-1\", \"setup\": \"direct\", \"predictions\": [\"won\"]}\n",
///     &dataset,
/// )
/// .unwrap_err();
/// assert_eq!(
///     errors.to_string(),
///     "line 2 (LP-1), field predictions[0]: unknown verdict \"won\"; \
///      expected one of supported, partially_supported, dismissed"
/// );
/// ```
pub fn parse_run(text: &str, dataset: &[Case]) -> Result<Run, RunErrors> {
    parse_run_reader(text.as_bytes(), dataset)
}

/// Parses and validates a run file line by line from a reader, against the
/// dataset it was made on, checking every rule of the [module documentation](self).
///
/// Blank (whitespace-only) lines are skipped; line numbers count them. A line
/// that is not UTF-8 is reported and skipped; a read failure is reported and
/// ends the parse (without the coverage checks, which would only repeat it).
/// Returns the run, or every error found (see [`RunErrors`]).
pub fn parse_run_reader<R: BufRead>(reader: R, dataset: &[Case]) -> Result<Run, RunErrors> {
    let mut parser = Parser::new(dataset);
    let read = read_lines(reader, |line, text| match text {
        Ok(text) => parser.line(line, text),
        Err(e) => {
            parser.seen_first_line.get_or_insert(line);
            parser.errors.push(e);
        }
    });
    let read_to_end = read.is_ok();
    if let Err(e) = read {
        parser.errors.push(e);
    }
    parser.finish(read_to_end)
}

/// Every key an item of any task may hold, as the fast path reads it:
/// vocabulary words borrowed (a word with an escape is left to the slow
/// path), texts owned, null and absent alike `None`.
#[derive(Default)]
struct ItemLine<'a> {
    kind: Option<&'a str>,
    case_id: Option<String>,
    unavailable: Option<String>,
    consultation: Option<&'a str>,
    label: Option<&'a str>,
    response: Option<String>,
    requests: Option<Vec<Object<RequestLine>>>,
    setup: Option<&'a str>,
    predictions: Option<Vec<&'a str>>,
    dialogue: Option<Vec<Object<TurnLine<'a>>>>,
}

/// [`ItemLine`] while its keys are read: each present key once.
#[derive(Default)]
struct ItemKeys<'a> {
    kind: Option<Option<&'a str>>,
    case_id: Option<Option<String>>,
    unavailable: Option<Option<String>>,
    consultation: Option<Option<&'a str>>,
    label: Option<Option<&'a str>>,
    response: Option<Option<String>>,
    requests: Option<Option<Vec<Object<RequestLine>>>>,
    setup: Option<Option<&'a str>>,
    predictions: Option<Option<Vec<&'a str>>>,
    dialogue: Option<Option<Vec<Object<TurnLine<'a>>>>>,
}

impl<'de> Fields<'de> for ItemKeys<'de> {
    fn field<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "kind" => once(&mut self.kind, map),
            "case_id" => once(&mut self.case_id, map),
            "unavailable" => once(&mut self.unavailable, map),
            "consultation" => once(&mut self.consultation, map),
            "label" => once(&mut self.label, map),
            "response" => once(&mut self.response, map),
            "requests" => once(&mut self.requests, map),
            "setup" => once(&mut self.setup, map),
            "predictions" => once(&mut self.predictions, map),
            "dialogue" => once(&mut self.dialogue, map),
            _ => Ok(false),
        }
    }
}

impl<'a> From<ItemKeys<'a>> for ItemLine<'a> {
    fn from(keys: ItemKeys<'a>) -> Self {
        ItemLine {
            kind: keys.kind.flatten(),
            case_id: keys.case_id.flatten(),
            unavailable: keys.unavailable.flatten(),
            consultation: keys.consultation.flatten(),
            label: keys.label.flatten(),
            response: keys.response.flatten(),
            requests: keys.requests.flatten(),
            setup: keys.setup.flatten(),
            predictions: keys.predictions.flatten(),
            dialogue: keys.dialogue.flatten(),
        }
    }
}

/// A DCG request as the fast path reads it.
#[derive(Default)]
struct RequestLine {
    text: Option<Option<String>>,
    accepted: Option<Option<bool>>,
}

impl<'de> Fields<'de> for RequestLine {
    fn field<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "text" => once(&mut self.text, map),
            "accepted" => once(&mut self.accepted, map),
            _ => Ok(false),
        }
    }
}

/// How many missing cases a coverage error lists before giving a count.
const MISSING_SHOWN: usize = 5;

/// The state of a parse between lines: what was kept, and the line on which
/// each (case, consultation), case and (case, setup) was first seen.
struct Parser<'d> {
    dataset: &'d [Case],
    index: HashMap<&'d str, usize>,
    errors: ErrorLog,
    /// The first non-blank line, which must be the header.
    seen_first_line: Option<usize>,
    header: Option<RunHeader>,
    item_lines: usize,
    lca: Vec<LcaItem>,
    dcg: Vec<DcgItem>,
    ljp: Vec<LjpItem>,
    lca_lines: HashMap<(usize, Consultation), usize>,
    dcg_lines: HashMap<usize, usize>,
    ljp_lines: HashMap<(usize, LjpSetup), usize>,
}

impl<'d> Parser<'d> {
    fn new(dataset: &'d [Case]) -> Self {
        let mut index = HashMap::default();
        for (i, case) in dataset.iter().enumerate() {
            index.entry(case.case_id.as_str()).or_insert(i);
        }
        Self {
            dataset,
            index,
            errors: ErrorLog::default(),
            seen_first_line: None,
            header: None,
            item_lines: 0,
            lca: Vec::new(),
            dcg: Vec::new(),
            ljp: Vec::new(),
            lca_lines: HashMap::default(),
            dcg_lines: HashMap::default(),
            ljp_lines: HashMap::default(),
        }
    }

    fn line(&mut self, number: usize, text: &str) {
        let header_line = *self.seen_first_line.get_or_insert(number);
        if header_line != number && self.valid_item(number, text) {
            return;
        }
        self.read_line(number, text);
    }

    /// Reads a line field by field through a [`Value`], reporting every
    /// problem: the header, and any item the fast path did not take.
    fn read_line(&mut self, number: usize, text: &str) {
        let header_line = *self.seen_first_line.get_or_insert(number);
        let is_first = header_line == number;
        let mut r = LineReader::new(number);
        match serde_json::from_str::<Value>(text) {
            Err(e) => r.fail("", json_message(&e, text)),
            Ok(Value::Object(obj)) => self.object(&mut r, &obj, is_first, header_line),
            Ok(other) => r.fail(
                "",
                format!(
                    "expected a JSON object (the header, then one item per line), got {}",
                    describe(&other)
                ),
            ),
        }
        r.errors.into_iter().for_each(|e| self.errors.push(e));
    }

    /// The fast path of [`Parser::line`] for an item line that follows every
    /// rule, which is nearly every line: read straight into its types
    /// ([`ItemLine`]) rather than through a [`Value`], checked, and kept.
    /// `false` (nothing kept, nothing recorded) for a line that breaks a rule
    /// or that the fast reader does not take (say a key with an escape), which
    /// [`Parser::line`] then reads field by field to report exactly as before.
    fn valid_item(&mut self, number: usize, text: &str) -> bool {
        let Ok(Object(keys)) = serde_json::from_str::<Object<ItemKeys>>(text) else {
            return false;
        };
        let line = ItemLine::from(keys);
        let Some(task) = line.kind.and_then(Task::parse) else {
            return false;
        };
        let Some(case) = line.case_id.as_deref().and_then(|id| self.index.get(id)) else {
            return false;
        };
        let case = *case;
        let unavailable = line.unavailable.is_some();
        if line.unavailable.as_deref().is_some_and(is_blank) {
            return false;
        }
        // Everything below mirrors the checks of `lca_item`, `dcg_item` and
        // `ljp_item`; a line that fails one is left to them.
        match task {
            Task::Lca => {
                let Some(consultation) = line.consultation.and_then(Consultation::parse) else {
                    return false;
                };
                let label = match line.label {
                    None => None,
                    Some(word) => match LcaLabel::parse(word) {
                        Some(label) => Some(label),
                        None => return false,
                    },
                };
                if unavailable == label.is_some()
                    || self.lca_lines.contains_key(&(case, consultation))
                {
                    return false;
                }
                self.lca_lines.insert((case, consultation), number);
                self.lca.push(LcaItem {
                    case_id: line.case_id.unwrap_or_default(),
                    consultation,
                    label,
                    response: line.response,
                    unavailable: line.unavailable,
                });
            }
            Task::Dcg => {
                let requests = match line.requests {
                    Some(requests) => requests,
                    None if unavailable => Vec::new(),
                    None => return false,
                };
                if requests.len() > 2
                    || requests
                        .iter()
                        .any(|Object(r)| r.accepted.flatten().is_some() == unavailable)
                    || self.dcg_lines.contains_key(&case)
                {
                    return false;
                }
                self.dcg_lines.insert(case, number);
                self.dcg.push(DcgItem {
                    case_id: line.case_id.unwrap_or_default(),
                    requests: requests
                        .into_iter()
                        .map(|Object(r)| DcgRequest {
                            text: r.text.flatten(),
                            accepted: r.accepted.flatten(),
                        })
                        .collect(),
                    unavailable: line.unavailable,
                });
            }
            Task::Ljp => {
                let Some(setup) = line.setup.and_then(LjpSetup::parse) else {
                    return false;
                };
                let predictions = match line.predictions {
                    None => None,
                    Some(words) => {
                        let Some(verdicts) = words
                            .iter()
                            .map(|w| Verdict::parse(w))
                            .collect::<Option<Vec<Verdict>>>()
                        else {
                            return false;
                        };
                        Some(verdicts)
                    }
                };
                let dialogue = match line.dialogue {
                    None => None,
                    Some(turns) => {
                        let Some(turns) = turns
                            .into_iter()
                            .map(|Object(t)| t.turn())
                            .collect::<Option<Vec<Turn>>>()
                        else {
                            return false;
                        };
                        Some(turns)
                    }
                };
                if unavailable == predictions.is_some()
                    || predictions
                        .as_ref()
                        .is_some_and(|p| p.len() != self.dataset[case].claims.len())
                    || self.ljp_lines.contains_key(&(case, setup))
                {
                    return false;
                }
                self.ljp_lines.insert((case, setup), number);
                self.ljp.push(LjpItem {
                    case_id: line.case_id.unwrap_or_default(),
                    setup,
                    predictions,
                    response: line.response,
                    dialogue,
                    unavailable: line.unavailable,
                });
            }
        }
        self.item_lines += 1;
        true
    }

    fn object(
        &mut self,
        r: &mut LineReader,
        obj: &Map<String, Value>,
        is_first: bool,
        header_line: usize,
    ) {
        let Some(kind) = r.required(obj, "", "kind", LineReader::string) else {
            return;
        };
        let item_kind = Task::parse(&kind);
        match (is_first, kind.as_str(), item_kind) {
            (true, "run", _) => self.header = r.header(obj),
            (true, _, _) => r.fail(
                "kind",
                format!(
                    "line {} must be the run header, {{\"kind\": \"run\", \"model\": …, \
                     \"run\": …}}, not kind \"{kind}\"",
                    r.line
                ),
            ),
            (false, "run", _) => r.fail(
                "kind",
                format!("a second run header; the header is the first line, line {header_line}"),
            ),
            (false, _, None) => r.fail(
                "kind",
                format!(
                    "unknown kind \"{kind}\"; expected one of {}",
                    Task::expected()
                ),
            ),
            (false, _, Some(_)) => {}
        }
        // An item on the header's line is still checked, so that a file
        // missing its header reports every other problem too.
        if let Some(task) = item_kind {
            self.item_lines += 1;
            self.item(r, obj, task);
        }
    }

    fn item(&mut self, r: &mut LineReader, obj: &Map<String, Value>, task: Task) {
        let case_id = r.required(obj, "", "case_id", LineReader::string);
        r.case_id = case_id.clone().filter(|id| !is_blank(id));
        let case = case_id.as_deref().and_then(|id| match self.index.get(id) {
            Some(&i) => Some(i),
            None => {
                r.fail(
                    "case_id",
                    format!("unknown case_id \"{id}\"; the dataset has no such case"),
                );
                None
            }
        });
        let unavailable = match r.optional(obj, "", "unavailable", LineReader::string) {
            Some(Some(reason)) if is_blank(&reason) => {
                r.fail(
                    "unavailable",
                    "must give the reason the item could not be labelled, or be null".into(),
                );
                None
            }
            other => other,
        };

        match task {
            Task::Lca => {
                let item = self.lca_item(r, obj, case, case_id, unavailable);
                if let (Some(item), true) = (item, r.errors.is_empty()) {
                    self.lca.push(item);
                }
            }
            Task::Dcg => {
                let item = self.dcg_item(r, obj, case, case_id, unavailable);
                if let (Some(item), true) = (item, r.errors.is_empty()) {
                    self.dcg.push(item);
                }
            }
            Task::Ljp => {
                let item = self.ljp_item(r, obj, case, case_id, unavailable);
                if let (Some(item), true) = (item, r.errors.is_empty()) {
                    self.ljp.push(item);
                }
            }
        }
    }

    fn lca_item(
        &mut self,
        r: &mut LineReader,
        obj: &Map<String, Value>,
        case: Option<usize>,
        case_id: Option<String>,
        unavailable: Option<Option<String>>,
    ) -> Option<LcaItem> {
        let consultation = r.required(obj, "", "consultation", LineReader::vocab::<Consultation>);
        let label = r.optional(obj, "", "label", LineReader::vocab::<LcaLabel>);
        let response = r.optional(obj, "", "response", LineReader::string);
        if let (Some(unavailable), Some(label)) = (&unavailable, &label) {
            r.check_labelled("label", unavailable.is_some(), label.is_some());
        }
        if let (Some(case), Some(consultation)) = (case, consultation) {
            let first = first_line(&mut self.lca_lines, (case, consultation), r.line);
            r.check_unique(first, "consultation", || {
                format!("({}, {consultation})", self.dataset[case].case_id)
            });
        }
        Some(LcaItem {
            case_id: case_id?,
            consultation: consultation?,
            label: label?,
            response: response?,
            unavailable: unavailable?,
        })
    }

    fn dcg_item(
        &mut self,
        r: &mut LineReader,
        obj: &Map<String, Value>,
        case: Option<usize>,
        case_id: Option<String>,
        unavailable: Option<Option<String>>,
    ) -> Option<DcgItem> {
        let read_requests: Read<Vec<DcgRequest>> = |r, v, p| r.list(v, p, LineReader::request);
        let requests = if matches!(unavailable, Some(Some(_))) {
            r.optional(obj, "", "requests", read_requests)
                .map(Option::unwrap_or_default)
        } else {
            r.required(obj, "", "requests", read_requests)
        };
        if let Some(requests) = &requests {
            if requests.len() > 2 {
                r.fail(
                    "requests",
                    format!(
                        "has {} requests; a dcg item holds at most 2",
                        requests.len()
                    ),
                );
            }
            if let Some(unavailable) = &unavailable {
                for (i, request) in requests.iter().enumerate() {
                    r.check_labelled(
                        &format!("requests[{i}].accepted"),
                        unavailable.is_some(),
                        request.accepted.is_some(),
                    );
                }
            }
        }
        if let Some(case) = case {
            let first = first_line(&mut self.dcg_lines, case, r.line);
            r.check_unique(first, "case_id", || self.dataset[case].case_id.clone());
        }
        Some(DcgItem {
            case_id: case_id?,
            requests: requests?,
            unavailable: unavailable?,
        })
    }

    fn ljp_item(
        &mut self,
        r: &mut LineReader,
        obj: &Map<String, Value>,
        case: Option<usize>,
        case_id: Option<String>,
        unavailable: Option<Option<String>>,
    ) -> Option<LjpItem> {
        let setup = r.required(obj, "", "setup", LineReader::vocab::<LjpSetup>);
        let predictions = r.optional(obj, "", "predictions", |r, v, p| {
            r.list(v, p, LineReader::vocab::<Verdict>)
        });
        let response = r.optional(obj, "", "response", LineReader::string);
        let dialogue = r.optional(obj, "", "dialogue", |r, v, p| {
            r.list(v, p, LineReader::turn)
        });
        if let (Some(unavailable), Some(predictions)) = (&unavailable, &predictions) {
            r.check_labelled("predictions", unavailable.is_some(), predictions.is_some());
        }
        if let (Some(case), Some(Some(predictions))) = (case, &predictions) {
            let case = &self.dataset[case];
            if predictions.len() != case.claims.len() {
                r.fail(
                    "predictions",
                    format!(
                        "has {} verdict{} but case {} has {} claim{} ({}); give one verdict \
                         per claim, in claim order",
                        predictions.len(),
                        plural(predictions.len()),
                        case.case_id,
                        case.claims.len(),
                        plural(case.claims.len()),
                        case.claims
                            .iter()
                            .map(|c| c.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
        }
        if let (Some(case), Some(setup)) = (case, setup) {
            let first = first_line(&mut self.ljp_lines, (case, setup), r.line);
            r.check_unique(first, "setup", || {
                format!("({}, {setup})", self.dataset[case].case_id)
            });
        }
        Some(LjpItem {
            case_id: case_id?,
            setup: setup?,
            predictions: predictions?,
            response: response?,
            dialogue: dialogue?,
            unavailable: unavailable?,
        })
    }

    fn finish(mut self, read_to_end: bool) -> Result<Run, RunErrors> {
        match self.seen_first_line {
            None => self.errors.push(line_error(
                1,
                "no items: the file is empty; expected a run header on line 1, then one \
                 item per line"
                    .into(),
            )),
            Some(line) if self.item_lines == 0 => self.errors.push(line_error(
                line,
                "no items: the file has no lca, dcg or ljp item after the header".into(),
            )),
            Some(_) => {}
        }
        if read_to_end {
            self.check_coverage();
        }
        let header = self.header.take();
        match (self.errors.finish(), header) {
            (Err(errors), _) => Err(errors),
            (Ok(()), Some(header)) => Ok(Run {
                header,
                lca: self.lca,
                dcg: self.dcg,
                ljp: self.ljp,
            }),
            // The first line was read and reported if it was no header.
            (Ok(()), None) => Err(DatasetErrors(vec![line_error(1, "no run header".into())])),
        }
    }

    /// Reports, for each task and LJP setup present, the cases it misses.
    fn check_coverage(&mut self) {
        let dataset = self.dataset;
        let case_ids = || dataset.iter().enumerate();
        if let Some(line) = self.lca_lines.values().min().copied() {
            let lca_lines = &self.lca_lines;
            let missing: Vec<String> = case_ids()
                .flat_map(|(i, case)| {
                    Consultation::ALL
                        .into_iter()
                        .filter(move |&c| !lca_lines.contains_key(&(i, c)))
                        .map(move |c| format!("({}, {c})", case.case_id))
                })
                .collect();
            let message = coverage_message(
                "the lca items",
                "(case, consultation) pairs",
                2 * dataset.len(),
                &missing,
            );
            self.report_missing(line, missing.is_empty(), message);
        }
        if let Some(line) = self.dcg_lines.values().min().copied() {
            let missing: Vec<String> = case_ids()
                .filter(|(i, _)| !self.dcg_lines.contains_key(i))
                .map(|(_, case)| case.case_id.clone())
                .collect();
            let message = coverage_message("the dcg items", "cases", dataset.len(), &missing);
            self.report_missing(line, missing.is_empty(), message);
        }
        for setup in LjpSetup::ALL {
            let first = self
                .ljp_lines
                .iter()
                .filter(|((_, s), _)| *s == setup)
                .map(|(_, &line)| line)
                .min();
            let Some(line) = first else { continue };
            let missing: Vec<String> = case_ids()
                .filter(|&(i, _)| !self.ljp_lines.contains_key(&(i, setup)))
                .map(|(_, case)| case.case_id.clone())
                .collect();
            let message = coverage_message(
                &format!("the ljp items of setup {setup}"),
                "cases",
                dataset.len(),
                &missing,
            );
            self.report_missing(line, missing.is_empty(), message);
        }
    }

    fn report_missing(&mut self, line: usize, complete: bool, message: String) {
        if !complete {
            self.errors.push(DatasetError {
                line,
                case_id: None,
                field: "case_id".into(),
                message,
            });
        }
    }
}

/// Records `key` as first seen on `line` unless it was seen before; returns
/// the line where it was first seen, if not this one.
fn first_line<K: Eq + Hash>(lines: &mut HashMap<K, usize>, key: K, line: usize) -> Option<usize> {
    match lines.entry(key) {
        Entry::Occupied(first) => Some(*first.get()),
        Entry::Vacant(slot) => {
            slot.insert(line);
            None
        }
    }
}

fn coverage_message(items: &str, units: &str, total: usize, missing: &[String]) -> String {
    let shown = missing
        .iter()
        .take(MISSING_SHOWN)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    let more = missing.len().saturating_sub(MISSING_SHOWN);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!(
        "{items} cover {} of the {total} {units} of the dataset; {} missing: {shown}{more}. \
         A run that contains a task (or LJP setup) must cover every case exactly once; this is \
         the line of its first item",
        total - missing.len(),
        missing.len(),
    )
}

/// The readers of a header and the parts of items, and the checks of items, on
/// top of the generic readers of [`crate::core::lines`].
impl LineReader {
    /// Checks that a label is set exactly when the item is not unavailable.
    fn check_labelled(&mut self, field: &str, unavailable: bool, labelled: bool) {
        match (unavailable, labelled) {
            (true, true) => self.fail(
                field,
                "must be null in an item marked \"unavailable\", which is not scored".into(),
            ),
            (false, false) => self.fail(
                field,
                "is missing or null; an item that could not be labelled must say why in \
                 \"unavailable\""
                    .into(),
            ),
            _ => {}
        }
    }

    /// Reports a duplicate when `first` is the line an equal key was first seen on.
    fn check_unique(&mut self, first: Option<usize>, field: &str, what: impl FnOnce() -> String) {
        if let Some(first) = first {
            let what = what();
            self.fail(
                field,
                format!("duplicate item for {what}; it is first given on line {first}"),
            );
        }
    }

    fn header(&mut self, obj: &Map<String, Value>) -> Option<RunHeader> {
        const KNOWN: [&str; 9] = [
            "kind",
            "benchmark",
            "model",
            "family",
            "run",
            "dataset",
            "judge",
            "user_model",
            "created_at",
        ];
        let benchmark = self.optional(obj, "", "benchmark", Self::vocab::<Benchmark>);
        if let Some(Some(other)) = benchmark.filter(|b| *b != Some(Benchmark::Lexpilot)) {
            self.fail(
                "benchmark",
                format!(
                    "this is a {} run (\"benchmark\": \"{}\"), but the dataset is a LexPilot \
                     dataset; store it on a {} dataset",
                    other.label_en(),
                    other.as_str(),
                    other.label_en()
                ),
            );
        }
        let model = self.required(obj, "", "model", Self::string);
        if let Some(model) = &model {
            self.check_name("model", model);
        }
        let family = self.optional(obj, "", "family", Self::vocab::<Family>);
        let run = self.required(obj, "", "run", |r, v, p| r.whole_number(v, p, 1));
        let dataset = self.optional(obj, "", "dataset", Self::string);
        let judge = self.optional(obj, "", "judge", Self::string);
        let user_model = self.optional(obj, "", "user_model", Self::string);
        for (field, name) in [("judge", &judge), ("user_model", &user_model)] {
            if let Some(Some(name)) = name {
                self.check_name(field, name);
            }
        }
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
            model: model?,
            family: family?,
            run: run?,
            dataset: dataset?,
            judge: judge?,
            user_model: user_model?,
            created_at: created_at?,
            extra,
        })
    }

    /// Reports `name` unless it follows [`crate::names::check_name`].
    fn check_name(&mut self, field: &str, name: &str) {
        if let Err(message) = crate::names::check_name(name) {
            self.fail(field, message);
        }
    }

    fn request(&mut self, v: &Value, path: &str) -> Option<DcgRequest> {
        let obj = self.object(v, path)?;
        let text = self.optional(obj, path, "text", Self::string);
        let accepted = self.optional(obj, path, "accepted", Self::boolean);
        Some(DcgRequest {
            text: text?,
            accepted: accepted?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_and_task_wire_strings_are_their_serde_form() {
        for f in Family::ALL {
            assert_eq!(serde_json::to_value(f).ok(), Some(Value::from(f.as_str())));
        }
        for t in Task::ALL {
            assert_eq!(
                serde_json::to_value(t).ok(),
                Some(Value::from(t.to_string()))
            );
        }
    }

    /// The fast path must keep exactly what reading field by field keeps,
    /// and take no line that reading field by field would refuse.
    #[test]
    fn the_fast_path_reads_as_the_field_by_field_path() {
        let cases =
            crate::lexpilot::dataset::parse_dataset(&crate::lexpilot::synthetic::dataset_file(1))
                .expect("a synthetic dataset");
        let file = crate::lexpilot::synthetic::run_file(&cases, 1, 1, 2);
        let mut lines: Vec<String> = file.lines().map(str::to_owned).collect();
        let first_lca = lines[1].clone();
        let escaped = first_lca.replacen("BENCH-", "BENCH\\u002d", 1);
        let twice = first_lca.replacen('}', r#", "label": "ask", "label": "predict"}"#, 1);
        let unknown = first_lca.replacen('}', r#", "x": {"y": [1, {"z": null}]}}"#, 1);
        let array_request =
            r#"{"kind": "dcg", "case_id": "BENCH-0001", "requests": [["q", true]]}"#;
        let surrogate = first_lca.replacen('}', r#", "x": "\ud800"}"#, 1);
        let huge = first_lca.replacen('}', r#", "x": 1e999}"#, 1);
        let blank = r#"{"kind": "dcg", "case_id": "BENCH-0001", "unavailable": " "}"#;
        for edited in [escaped, twice, unknown, surrogate, huge] {
            lines[1] = edited;
            let fast = parse_run(&lines.join("\n"), &cases);
            let mut slow = Parser::new(&cases);
            for (i, line) in lines.iter().enumerate() {
                slow.read_line(i + 1, line);
            }
            assert_eq!(fast, slow.finish(true), "{}", lines[1]);
        }
        for line in [array_request, blank] {
            let mut parser = Parser::new(&cases);
            parser.seen_first_line = Some(1);
            assert!(!parser.valid_item(2, line), "{line}");
        }
    }

    #[test]
    fn coverage_message_lists_five_and_counts_the_rest() {
        let missing: Vec<String> = (1..=7).map(|i| format!("C{i}")).collect();
        let m = coverage_message("the dcg items", "cases", 10, &missing);
        assert!(
            m.starts_with("the dcg items cover 3 of the 10 cases of the dataset; 7 missing: C1, C2, C3, C4, C5 and 2 more."),
            "{m}"
        );
    }

    #[test]
    fn a_limited_run_is_completed_with_unavailable_items() {
        let cases =
            crate::lexpilot::dataset::parse_dataset(&crate::lexpilot::synthetic::dataset_file(1))
                .expect("a synthetic dataset");
        let first: Vec<Case> = cases.iter().take(2).cloned().collect();
        let mut run = parse_run(
            &crate::lexpilot::synthetic::run_file(&first, 0, 1, 1),
            &first,
        )
        .expect("a run of two cases");
        let before = run.unavailable();
        run.cover_dataset(&cases, "not run");
        let parsed = parse_run(&run.to_jsonl(), &cases).expect("covers the dataset");
        let after = parsed.unavailable();
        let added = cases.len() - 2;
        assert_eq!(after.lca, before.lca + 2 * added);
        assert_eq!(after.dcg, before.dcg + added);
        assert_eq!(after.ljp.len(), 3);
        for (setup, n) in &after.ljp {
            assert_eq!(*n, before.ljp[setup] + added);
        }
    }
}
