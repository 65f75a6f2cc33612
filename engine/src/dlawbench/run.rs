//! The DLawBench run file (`docs/benchmarks/dlawbench.md` §A3): one lawyer
//! model, one repetition; one session per case and narrative style, each
//! judged by a panel whose same-vendor judges recuse.
//!
//! - Vocabularies: [`Status`] (how a session ended, §A2.1), [`Role`] and
//!   [`Action`] of the dialogue.
//! - Types: a [`Run`] is a [`RunHeader`] and its [`Session`]s in file order;
//!   a session keeps its [`Turn`]s, its memo and one [`Seat`] per header
//!   judge, whose [`Decisions`] are the judge's item-level decisions (§A2.4).
//! - Recusal: [`RunHeader::lawyer_vendor`], [`RunHeader::recusals`]: which
//!   seats recuse, by [`crate::vendor`]'s rule, which every session's
//!   `recused` flags must repeat.
//! - Parsing: [`parse_run`] / [`parse_run_reader`] read JSON Lines against the
//!   dataset and return the run or every error found, each naming its
//!   1-based line, the case and the field ([`RunErrors`]).
//! - Entries: [`RunHeader::entry_key`], every header field except `run` and
//!   `created_at`, in the workbench's one [`EntryKey`] type.
//! - Storage: [`Run::to_stored`] and [`Run::read_stored`], the trusted
//!   compact form.
//!
//! # Rules (reject, naming line and field)
//!
//! - Header (first non-blank line, `"kind": "run"`): `benchmark` is
//!   `"dlawbench"`; `model` and each `judges[].model` are names
//!   ([`crate::names`]), judge models unique; `run` a whole number ≥ 1;
//!   `judges` non-empty; `vendor`, `client_model`, `prompt_version`,
//!   `dataset`, `created_at` strings; `family` `legal`, `open` or `closed`;
//!   `horizon` a whole number ≥ 1 (default 10); `min_valid_judges` a whole
//!   number ≥ 1 (default 1, →C-D7); `generation` an object. A panel that
//!   recusal would leave empty is refused (field `judges`). Other keys are
//!   kept in [`RunHeader::extra`].
//! - Sessions (`"kind": "session"`): `case_id` names a dataset case;
//!   `style` and `status` from their vocabularies; `turns_used` from 0 to
//!   `horizon`, and equal to `horizon` for `horizon` and `no_memo` (both
//!   happen only after the last client reply, §A2.1); `dialogue`, when
//!   given, opens with a client turn, then alternates lawyer `ask` turns
//!   (non-blank `content`) and client turns, with `turns_used` lawyer turns;
//!   `memo` non-blank for `submitted` and `horizon`, absent or empty for
//!   `empty_memo` and `no_memo` (unless the session is `unavailable`);
//!   `panel` required for `submitted` and `horizon` unless `unavailable`,
//!   absent or empty for task failures; one seat per header judge in header
//!   order, `recused` as the rule says; a recused seat has no decisions and
//!   no `unavailable`; a seated one has exactly one of `decisions` and
//!   `unavailable`. `decisions`: `inquiry` and `issue` lists of 0/1 as long
//!   as the case's rubric lists; `covered` distinct fact ids of the case,
//!   `correct` distinct and ⊆ `covered`; `claims_total` ≥ 0,
//!   0 ≤ `claims_grounded` ≤ `claims_total`; optional `ungrounded_claims`
//!   (strings) and `incorrect` (`{fact_id, reason}`, fact ids of the case).
//!   An optional `error` (ours, added) says why a `lawyer_error` session's
//!   lawyer failed; any other session with one is refused.
//! - A (case, style) appears once; every style the run contains covers
//!   every case (the missing ones, five and a count, are reported on the
//!   line of the style's first session). A file with no session is refused.
//!
//! Depends on serde, serde_json, [`crate::core::lines`], [`crate::vendor`] and
//! [`super::dataset`]; reads through [`std::io::BufRead`] only.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::BufRead;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::dataset::{Case, Style};
use crate::benchmark::Benchmark;
use crate::core::entry::{EntryKey, Family};
use crate::core::errors::{DatasetError, DatasetErrors, RunErrors};
use crate::core::lines::{
    describe, is_blank, line_error, plural, read_lines, run_line, ErrorLog, LineReader, RunLine,
};
use crate::core::panel::{push_line, JudgeSeat};
use crate::vendor::vendor_of;
use crate::vocab::vocabulary;

vocabulary! {
    /// How a session ended (§A2.1).
    Status, kind "session status" {
        /// The lawyer submitted a non-empty memo.
        Submitted = "submitted", zh "已提交", en "Submitted";
        /// The horizon was reached and the forced call gave a memo.
        Horizon = "horizon", zh "轮次用尽", en "Turns used up";
        /// The lawyer submitted an empty memo (a task failure).
        EmptyMemo = "empty_memo", zh "空备忘录", en "Empty memo";
        /// The forced call after the horizon gave no memo (a task failure).
        NoMemo = "no_memo", zh "未提交备忘录", en "No memo";
        /// The lawyer's replies stayed empty or unparsable (a task failure).
        LawyerError = "lawyer_error", zh "律师模型错误", en "Lawyer error";
    }
}

vocabulary! {
    /// Who speaks a dialogue turn.
    Role, kind "dialogue role" {
        /// The simulated client.
        Client = "client", zh "当事人", en "Client";
        /// The evaluated model.
        Lawyer = "lawyer", zh "律师", en "Lawyer";
    }
}

vocabulary! {
    /// What a lawyer step does.
    Action, kind "lawyer action" {
        /// Ask Client: one client-facing turn.
        Ask = "ask", zh "询问当事人", en "Ask Client";
        /// Submit Memo: ends the session.
        Submit = "submit", zh "提交备忘录", en "Submit Memo";
    }
}

impl Status {
    /// Whether the session was judged: `submitted` or `horizon`.
    pub const fn judged(self) -> bool {
        matches!(self, Status::Submitted | Status::Horizon)
    }

    /// Whether the status is a task failure, 0 in null-as-zero (§A4.3).
    ///
    /// ```
    /// use engine::dlawbench::run::Status;
    /// let failures: Vec<Status> = Status::ALL.into_iter().filter(|s| s.is_failure()).collect();
    /// assert_eq!(failures, [Status::EmptyMemo, Status::NoMemo, Status::LawyerError]);
    /// ```
    pub const fn is_failure(self) -> bool {
        !self.judged()
    }
}

/// The first line of a run file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunHeader {
    /// Always [`Benchmark::Dlawbench`].
    pub benchmark: Benchmark,
    /// The lawyer model.
    pub model: String,
    /// The lawyer's vendor, for recusal; derived from `model` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor: Option<String>,
    /// The model's group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<Family>,
    /// The repetition, from 1.
    pub run: u32,
    /// The dataset's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
    /// The client simulator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_model: Option<String>,
    /// The judge panel, in the order of every session's seats.
    pub judges: Vec<JudgeSeat>,
    /// H: the client-facing turns a lawyer may use.
    pub horizon: u32,
    /// Below this many valid judges a metric is unavailable (→C-D7).
    pub min_valid_judges: u32,
    /// The version of the prompts (`dlaw-v1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_version: Option<String>,
    /// Decoding parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<Map<String, Value>>,
    /// When the run was made, free text (RFC 3339 by convention).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Any other header keys, kept as they are.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The horizon when a header names none (§A2.1).
pub const DEFAULT_HORIZON: u32 = 10;

impl RunHeader {
    /// The lawyer's vendor: the header's `vendor`, else
    /// [`vendor_of`]`(model)` (→C-D14).
    pub fn lawyer_vendor(&self) -> String {
        self.vendor
            .clone()
            .unwrap_or_else(|| vendor_of(&self.model))
    }

    /// Each judge's vendor: its `vendor`, else derived from its model.
    pub fn judge_vendors(&self) -> Vec<String> {
        self.judges
            .iter()
            .map(|j| j.vendor.clone().unwrap_or_else(|| vendor_of(&j.model)))
            .collect()
    }

    /// Per header judge, whether it recuses from this lawyer's sessions
    /// (§A2.3): with two or more judges, those of the lawyer's vendor; a
    /// lone judge never. `None` when recusal would leave nobody.
    ///
    /// ```
    /// use engine::dlawbench::run::RunHeader;
    /// use engine::core::panel::JudgeSeat;
    ///
    /// let seat = |m: &str| JudgeSeat { model: m.into(), vendor: None };
    /// let header: RunHeader = serde_json::from_value(serde_json::json!({
    ///     "benchmark": "dlawbench", "model": "GPT-5.5", "run": 1, "horizon": 10, "min_valid_judges": 1,
    ///     "judges": [{"model": "GPT-5.1"}, {"model": "Claude-Opus-4.6"}, {"model": "Gemini-3.1-Pro"}]})).unwrap();
    /// assert_eq!(header.recusals(), Some(vec![true, false, false]));
    /// let alone = RunHeader { judges: vec![seat("GPT-5.1")], ..header.clone() };
    /// assert_eq!(alone.recusals(), Some(vec![false]));
    /// let all_openai = RunHeader { judges: vec![seat("GPT-5.1"), seat("o3")], ..header };
    /// assert_eq!(all_openai.recusals(), None);
    /// ```
    pub fn recusals(&self) -> Option<Vec<bool>> {
        let vendors = self.judge_vendors();
        let refs: Vec<&str> = vendors.iter().map(String::as_str).collect();
        let seated = crate::vendor::seated(&self.lawyer_vendor(), &refs)?;
        Some((0..refs.len()).map(|i| !seated.contains(&i)).collect())
    }

    /// The leaderboard entry of the run: the model, `family`, `dataset`, and
    /// in [`EntryKey::extra`] every other header field but `run` and
    /// `created_at` (`benchmark`, `vendor`, `client_model`, `judges`,
    /// `horizon`, `min_valid_judges`, `prompt_version`, `generation` and
    /// unknown keys).
    ///
    /// ```
    /// use engine::dlawbench::run::RunHeader;
    ///
    /// let header: RunHeader = serde_json::from_value(serde_json::json!({
    ///     "benchmark": "dlawbench", "model": "M", "run": 1, "horizon": 10, "min_valid_judges": 1,
    ///     "judges": [{"model": "J"}], "created_at": "2026-12-01"})).unwrap();
    /// let second = RunHeader { run: 2, created_at: None, ..header.clone() };
    /// assert_eq!(header.entry_key(), second.entry_key());
    /// let shorter = RunHeader { horizon: 5, ..header.clone() };
    /// assert_ne!(header.entry_key(), shorter.entry_key());
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
        put("horizon", Value::from(self.horizon));
        put("min_valid_judges", Value::from(self.min_valid_judges));
        let optional = [
            ("vendor", &self.vendor),
            ("client_model", &self.client_model),
            ("prompt_version", &self.prompt_version),
        ];
        for (key, value) in optional {
            if let Some(value) = value {
                put(key, Value::from(value.as_str()));
            }
        }
        if let Some(generation) = &self.generation {
            put("generation", Value::Object(generation.clone()));
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
}

/// One turn of the dialogue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    /// Who speaks.
    pub role: Role,
    /// For a lawyer turn, always [`Action::Ask`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<Action>,
    /// What was said.
    pub content: String,
    /// How many calls the turn took.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u32>,
    /// When it was said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// Token usage, as the endpoint reported it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Value>,
}

/// A covered fact the judge found stated wrongly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Incorrect {
    /// The fact.
    pub fact_id: String,
    /// Why, as the judge said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One judge's item-level decisions on one session (§A2.4, §A3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decisions {
    /// 0/1 per Inquiry rubric item, in rubric order.
    pub inquiry: Vec<u8>,
    /// 0/1 per Issue-resolution rubric item, in rubric order.
    pub issue: Vec<u8>,
    /// The facts the memo mentions.
    pub covered: Vec<String>,
    /// The covered facts it states in the court-record view.
    pub correct: Vec<String>,
    /// The memo's claims.
    pub claims_total: u32,
    /// Those supported by the record.
    pub claims_grounded: u32,
    /// The unsupported claims, for drill-down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ungrounded_claims: Option<Vec<String>>,
    /// The covered facts stated wrongly, for drill-down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incorrect: Option<Vec<Incorrect>>,
}

/// One judge's seat on one session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// The judge model (the header's judge in this position).
    pub judge: String,
    /// Whether it recused (same vendor as the lawyer).
    pub recused: bool,
    /// What it decided; present exactly for seated, available judges.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decisions: Option<Decisions>,
    /// Why a seated judge gave no valid decisions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
    /// The judge's rationale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rationale: Option<String>,
}

/// One session: one case, one style (`"kind": "session"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// The dataset case.
    pub case_id: String,
    /// The client's narrative style.
    pub style: Style,
    /// How it ended.
    pub status: Status,
    /// The `ask` actions taken.
    pub turns_used: u32,
    /// The dialogue, opening first, kept for drill-down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialogue: Option<Vec<Turn>>,
    /// The memo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memo: Option<String>,
    /// One seat per header judge; empty for task failures.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub panel: Vec<Seat>,
    /// Why the session could not be scored (pipeline faults); its panel is
    /// ignored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
    /// A `lawyer_error` session's reason: what was wrong with the lawyer's
    /// last reply (empty, no valid action, a refusal). Optional, and only
    /// on `lawyer_error` sessions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Session {
    /// What the lawyer model wrote in the session: its turns, then its memo
    /// (never the client's turns).
    pub fn lawyer_texts(&self) -> impl Iterator<Item = &str> + '_ {
        self.dialogue
            .iter()
            .flatten()
            .filter(|t| t.role == Role::Lawyer)
            .map(|t| t.content.as_str())
            .chain(self.memo.as_deref())
    }
}

/// A whole run: its header and its sessions in file order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The header line.
    pub header: RunHeader,
    /// Every session, in file order.
    pub sessions: Vec<Session>,
}

/// One line of the stored form.
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum StoredLine {
    Run(RunHeader),
    Session(Session),
}

impl Run {
    /// Everything the lawyer model wrote in the run, its turns and memos
    /// (for the citation check of its entry), in file order.
    pub fn responses(&self) -> impl Iterator<Item = &str> + '_ {
        self.sessions.iter().flat_map(Session::lawyer_texts)
    }

    /// The styles the run contains, in [`Style::ALL`] order.
    pub fn styles(&self) -> Vec<Style> {
        let present: HashSet<Style> = self.sessions.iter().map(|s| s.style).collect();
        Style::ALL
            .into_iter()
            .filter(|s| present.contains(s))
            .collect()
    }

    /// Sessions marked unavailable.
    pub fn unavailable(&self) -> usize {
        self.sessions
            .iter()
            .filter(|s| s.unavailable.is_some())
            .count()
    }

    /// Completes a run made on the first cases of `dataset` (a job with a
    /// limit) to cover all of it: for every style the run contains, each
    /// case it lacks gets a session marked `unavailable` with `reason`
    /// (excluded and counted, never a zero). Sessions keep the order style,
    /// then dataset case.
    ///
    /// ```
    /// use engine::dlawbench::dataset::parse_dataset;
    /// use engine::dlawbench::run::{parse_run, Run};
    ///
    /// let case = |id: &str| format!(r#"{{"case_id": "{id}", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}}], "inquiry_rubrics": [{{"id": "Q1", "text": "q"}}], "issue_rubrics": [{{"id": "R1", "text": "r"}}]}}"#);
    /// let dataset = parse_dataset(&format!("{}\n{}", case("A"), case("B"))).unwrap();
    /// let file = r#"{"kind": "run", "benchmark": "dlawbench", "model": "M", "run": 1, "judges": [{"model": "J"}]}
    /// {"kind": "session", "case_id": "A", "style": "withdrawn", "status": "lawyer_error", "turns_used": 0}"#;
    /// let mut run = parse_run(file, &dataset[..1]).unwrap();
    /// run.cover_dataset(&dataset, "not run");
    /// assert_eq!(run.sessions[1].case_id, "B");
    /// assert_eq!(run.sessions[1].unavailable.as_deref(), Some("not run"));
    /// assert!(parse_run(&run.to_stored(), &dataset).is_ok());
    /// ```
    pub fn cover_dataset(&mut self, dataset: &[Case], reason: &str) {
        let styles = self.styles();
        let mut given: HashMap<(String, Style), Session> = HashMap::new();
        let mut strays = Vec::new();
        let known: HashSet<&str> = dataset.iter().map(|c| c.case_id.as_str()).collect();
        for session in self.sessions.drain(..) {
            if known.contains(session.case_id.as_str()) {
                given
                    .entry((session.case_id.clone(), session.style))
                    .or_insert(session);
            } else {
                strays.push(session);
            }
        }
        for style in styles {
            for case in dataset {
                let session = given
                    .remove(&(case.case_id.clone(), style))
                    .unwrap_or_else(|| Session {
                        case_id: case.case_id.clone(),
                        style,
                        status: Status::Submitted,
                        turns_used: 0,
                        dialogue: None,
                        memo: None,
                        panel: Vec::new(),
                        unavailable: Some(reason.to_owned()),
                        error: None,
                    });
                self.sessions.push(session);
            }
        }
        self.sessions.extend(strays);
    }

    /// The run as a run file: the header, then one session per
    /// `\n`-terminated line, each with `kind` first. [`parse_run`] reads it
    /// back equal, and so does [`Run::read_stored`].
    pub fn to_stored(&self) -> String {
        let mut out = String::new();
        push_line(&mut out, "run", &self.header);
        for session in &self.sessions {
            push_line(&mut out, "session", session);
        }
        out
    }

    /// Reads back what [`Run::to_stored`] wrote, trusting it: no checks
    /// against the dataset. For runs the workbench stored itself.
    ///
    /// ```
    /// use engine::dlawbench::run::Run;
    /// assert!(Run::read_stored("{\"kind\": \"session\"}").is_err());
    /// assert!(Run::read_stored("").is_err());
    /// ```
    pub fn read_stored(text: &str) -> Result<Run, String> {
        let mut header = None;
        let mut sessions = Vec::new();
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !is_blank(l)) {
            match serde_json::from_str(line)
                .map_err(|e| format!("stored run, line {}: {e}", n + 1))?
            {
                StoredLine::Run(h) => header = Some(h),
                StoredLine::Session(s) => sessions.push(s),
            }
        }
        Ok(Run {
            header: header.ok_or("stored run without a header")?,
            sessions,
        })
    }
}

/// Parses and validates a whole run file held in memory; see
/// [`parse_run_reader`].
///
/// # Examples
///
/// ```
/// use engine::dlawbench::dataset::parse_dataset;
/// use engine::dlawbench::run::parse_run;
///
/// let dataset = parse_dataset(r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#).unwrap();
/// let header = r#"{"kind": "run", "benchmark": "dlawbench", "model": "GPT-5.5", "run": 1, "judges": [{"model": "GPT-5.1"}, {"model": "Claude-Opus-4.6"}]}"#;
/// let session = r#"{"kind": "session", "case_id": "C", "style": "cooperative", "status": "submitted", "turns_used": 0, "memo": "m", "panel": [{"judge": "GPT-5.1", "recused": true}, {"judge": "Claude-Opus-4.6", "recused": false, "decisions": {"inquiry": [1], "issue": [0], "covered": ["F1"], "correct": [], "claims_total": 2, "claims_grounded": 2}}]}"#;
/// let run = parse_run(&format!("{header}\n{session}\n"), &dataset).unwrap();
/// assert_eq!(run.header.horizon, 10);
///
/// let wrong = session.replace(r#""recused": true"#, r#""recused": false"#);
/// let errors = parse_run(&format!("{header}\n{wrong}\n"), &dataset).unwrap_err();
/// assert_eq!(errors.0.iter().map(|e| e.field.as_str()).collect::<Vec<_>>(), ["panel[0].decisions", "panel[0].recused"]);
/// assert_eq!(
///     errors.0[1].to_string(),
///     "line 2 (C), field panel[0].recused: is false, but judge GPT-5.1 (vendor openai) recuses from GPT-5.5 (vendor openai): in a panel of two or more, a judge of the lawyer's vendor recuses"
/// );
/// ```
pub fn parse_run(text: &str, dataset: &[Case]) -> Result<Run, RunErrors> {
    parse_run_reader(text.as_bytes(), dataset)
}

/// Parses and validates a run file line by line from a reader against the
/// dataset it was made on, checking every rule of the
/// [module documentation](self). Returns the run or every error found.
pub fn parse_run_reader<R: BufRead>(reader: R, dataset: &[Case]) -> Result<Run, RunErrors> {
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

/// How many missing cases a coverage error lists before giving a count.
const MISSING_SHOWN: usize = 5;

/// What the session checks need of the header.
struct Panel {
    judges: Vec<String>,
    vendors: Vec<String>,
    recusals: Option<Vec<bool>>,
    lawyer: String,
    lawyer_vendor: String,
    horizon: u32,
}

struct Parser<'d> {
    dataset: &'d [Case],
    index: HashMap<&'d str, usize>,
    errors: ErrorLog,
    first_line: Option<usize>,
    header: Option<RunHeader>,
    panel: Option<Panel>,
    sessions: Vec<Session>,
    session_lines: usize,
    /// The line each (case, style) was first given on.
    lines: HashMap<(usize, Style), usize>,
    /// The first line of each style's sessions.
    style_lines: BTreeMap<Style, usize>,
}

impl<'d> Parser<'d> {
    fn new(dataset: &'d [Case]) -> Self {
        let mut index = HashMap::new();
        for (i, case) in dataset.iter().enumerate() {
            index.entry(case.case_id.as_str()).or_insert(i);
        }
        Self {
            dataset,
            index,
            errors: ErrorLog::default(),
            first_line: None,
            header: None,
            panel: None,
            sessions: Vec::new(),
            session_lines: 0,
            lines: HashMap::new(),
            style_lines: BTreeMap::new(),
        }
    }

    fn line(&mut self, number: usize, text: &str) {
        let header_line = *self.first_line.get_or_insert(number);
        let mut r = LineReader::new(number);
        match run_line(&mut r, text, header_line, "dlawbench", "session") {
            Some((obj, RunLine::Header)) => {
                self.header = r.dlaw_header(&obj);
                self.panel = self.header.as_ref().map(|h| Panel {
                    judges: h.judges.iter().map(|j| j.model.clone()).collect(),
                    vendors: h.judge_vendors(),
                    recusals: h.recusals(),
                    lawyer: h.model.clone(),
                    lawyer_vendor: h.lawyer_vendor(),
                    horizon: h.horizon,
                });
            }
            Some((obj, RunLine::Body)) => {
                self.session_lines += 1;
                if let Some(session) = self.session(&mut r, &obj) {
                    self.sessions.push(session);
                }
            }
            Some((_, RunLine::Skip)) | None => {}
        }
        r.errors.into_iter().for_each(|e| self.errors.push(e));
    }

    fn session(&mut self, r: &mut LineReader, obj: &Map<String, Value>) -> Option<Session> {
        let case_id = r.required(obj, "", "case_id", LineReader::string);
        r.case_id = case_id.clone().filter(|id| !is_blank(id));
        let index = case_id.as_deref().and_then(|id| match self.index.get(id) {
            Some(&i) => Some(i),
            None => {
                r.fail(
                    "case_id",
                    format!("unknown case_id \"{id}\"; the dataset has no such case"),
                );
                None
            }
        });
        let case = index.map(|i| &self.dataset[i]);
        let style = r.required(obj, "", "style", LineReader::vocab::<Style>);
        let status = r.required(obj, "", "status", LineReader::vocab::<Status>);
        let unavailable = r.reason(obj, "", "unavailable");
        let horizon = self.panel.as_ref().map(|p| p.horizon);
        let turns_used = r.required(obj, "", "turns_used", |r, v, p| r.whole_number(v, p, 0));
        if let (Some(turns), Some(horizon)) = (turns_used, horizon) {
            if turns > horizon {
                r.fail(
                    "turns_used",
                    format!("is {turns}, more than the header's horizon {horizon}"),
                );
            } else if matches!(status, Some(Status::Horizon | Status::NoMemo)) && turns != horizon {
                r.fail(
                    "turns_used",
                    format!(
                        "is {turns}, but a {} session ends after the last of the horizon's \
                         {horizon} turns",
                        status.map_or("", Status::as_str)
                    ),
                );
            }
        }
        let dialogue = r.optional(obj, "", "dialogue", |r, v, p| {
            r.list(v, p, LineReader::dlaw_turn)
        });
        if let (Some(Some(dialogue)), Some(turns)) = (&dialogue, turns_used) {
            r.check_dialogue(dialogue, turns);
        }
        let memo = r.optional(obj, "", "memo", LineReader::string);
        let error = r.optional(obj, "", "error", LineReader::string);
        if let (Some(Some(_)), Some(status)) = (&error, status) {
            if status != Status::LawyerError {
                r.fail(
                    "error",
                    format!("only a lawyer_error session says why the lawyer failed, not a {status} one"),
                );
            }
        }
        let is_unavailable = matches!(unavailable, Some(Some(_)));
        if let (Some(status), Some(memo)) = (status, &memo) {
            let blank = memo.as_deref().is_none_or(is_blank);
            match status {
                Status::Submitted | Status::Horizon if blank && !is_unavailable => r.fail(
                    "memo",
                    format!(
                        "a {status} session needs a non-empty memo (or \"unavailable\" saying \
                         why it could not be scored)"
                    ),
                ),
                Status::EmptyMemo | Status::NoMemo if !blank => r.fail(
                    "memo",
                    format!("a {status} session has no memo; leave \"memo\" out or empty"),
                ),
                _ => {}
            }
        }
        let panel = match (obj.get("panel"), status) {
            (None | Some(Value::Null), Some(status)) if status.judged() && !is_unavailable => {
                r.fail(
                    "panel",
                    format!(
                        "missing required field; a {status} session is judged by the header's \
                         panel (or is \"unavailable\", saying why)"
                    ),
                );
                None
            }
            (None | Some(Value::Null), _) => Some(Vec::new()),
            (Some(v), _) => {
                let seats = self.seats(r, v, case);
                if let (Some(seats), Some(status)) = (&seats, status) {
                    if status.is_failure() && !seats.is_empty() {
                        r.fail(
                            "panel",
                            format!(
                                "a {status} session is a task failure and is not judged; leave \
                                 \"panel\" out or empty"
                            ),
                        );
                    }
                }
                seats
            }
        };
        if let (Some(i), Some(style)) = (index, style) {
            match self.lines.entry((i, style)) {
                Entry::Occupied(first) => r.fail(
                    "case_id",
                    format!(
                        "duplicate session of case {} in style {style}; it is first given on \
                         line {}",
                        self.dataset[i].case_id,
                        first.get()
                    ),
                ),
                Entry::Vacant(slot) => {
                    slot.insert(r.line);
                }
            }
        }
        if let Some(style) = style {
            self.style_lines.entry(style).or_insert(r.line);
        }
        Some(Session {
            case_id: case_id?,
            style: style?,
            status: status?,
            turns_used: turns_used?,
            dialogue: dialogue?,
            memo: memo?,
            panel: panel?,
            unavailable: unavailable?,
            error: error?,
        })
    }

    fn seats(&self, r: &mut LineReader, v: &Value, case: Option<&Case>) -> Option<Vec<Seat>> {
        let Some(list) = v.as_array() else {
            r.fail("panel", format!("expected an array, got {}", describe(v)));
            return None;
        };
        if list.is_empty() {
            return Some(Vec::new());
        }
        let panel = self.panel.as_ref();
        if let Some(panel) = panel {
            if list.len() != panel.judges.len() {
                r.fail(
                    "panel",
                    format!(
                        "has {} seat{} but the header names {} judge{} ({}); give one seat per \
                         header judge, in header order",
                        list.len(),
                        plural(list.len()),
                        panel.judges.len(),
                        plural(panel.judges.len()),
                        panel.judges.join(", ")
                    ),
                );
            }
        }
        let read: Vec<Option<Seat>> = list
            .iter()
            .enumerate()
            .map(|(k, v)| {
                let path = format!("panel[{k}]");
                let seat = r.seat(v, &path, case);
                let Some(panel) = panel else {
                    return seat;
                };
                // Checked on the raw fields, so that a seat with other errors
                // still reports these.
                let judge_given = v.get("judge").and_then(Value::as_str);
                let recused_given = v.get("recused").and_then(Value::as_bool);
                if let (Some(judge), Some(given)) = (panel.judges.get(k), judge_given) {
                    if given != judge {
                        r.fail(
                            &format!("{path}.judge"),
                            format!(
                                "is \"{given}\" but the header's judge {} is \"{judge}\"; give \
                                 one seat per header judge, in header order",
                                k + 1
                            ),
                        );
                    }
                }
                let recuses = panel.recusals.as_ref().and_then(|rs| rs.get(k)).copied();
                if let (Some(recuses), Some(given)) = (recuses, recused_given) {
                    if given != recuses {
                        let rule = if panel.judges.len() == 1 {
                            "a lone judge never recuses".to_owned()
                        } else {
                            "in a panel of two or more, a judge of the lawyer's vendor recuses"
                                .to_owned()
                        };
                        r.fail(
                            &format!("{path}.recused"),
                            format!(
                                "is {given}, but judge {} (vendor {}) {} {} (vendor {}): {rule}",
                                panel.judges[k],
                                panel.vendors[k],
                                if recuses { "recuses from" } else { "sits for" },
                                panel.lawyer,
                                panel.lawyer_vendor,
                            ),
                        );
                    }
                }
                seat
            })
            .collect();
        read.into_iter().collect()
    }

    fn finish(mut self, read_to_end: bool) -> Result<Run, RunErrors> {
        match self.first_line {
            None => self.errors.push(line_error(
                1,
                "no sessions: the file is empty; expected a run header on line 1, then one \
                 session per line"
                    .into(),
            )),
            Some(line) if self.session_lines == 0 => self.errors.push(line_error(
                line,
                "no sessions: the file has no session after the header".into(),
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
                sessions: self.sessions,
            }),
            (Ok(()), None) => Err(DatasetErrors(vec![line_error(1, "no run header".into())])),
        }
    }

    fn check_coverage(&mut self) {
        for (&style, &line) in &self.style_lines {
            let missing: Vec<&str> = self
                .dataset
                .iter()
                .enumerate()
                .filter(|(i, _)| !self.lines.contains_key(&(*i, style)))
                .map(|(_, case)| case.case_id.as_str())
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
                field: "case_id".into(),
                message: format!(
                    "the {style} sessions cover {} of the dataset's {} cases; {} missing: \
                     {}{more}. Every style a run contains must cover every case exactly once; \
                     this is the line of its first session",
                    self.dataset.len() - missing.len(),
                    self.dataset.len(),
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

/// The readers of a DLawBench header and session.
impl LineReader {
    fn dlaw_header(&mut self, obj: &Map<String, Value>) -> Option<RunHeader> {
        const KNOWN: [&str; 14] = [
            "kind",
            "benchmark",
            "model",
            "vendor",
            "family",
            "run",
            "dataset",
            "client_model",
            "judges",
            "horizon",
            "min_valid_judges",
            "prompt_version",
            "generation",
            "created_at",
        ];
        let benchmark = self.optional(obj, "", "benchmark", Self::vocab::<Benchmark>);
        match benchmark {
            Some(Some(Benchmark::Dlawbench)) | None => {}
            Some(other) => {
                let other = other.unwrap_or(Benchmark::Lexpilot);
                self.fail(
                    "benchmark",
                    format!(
                        "this is a {} run (\"benchmark\": \"{}\"{}), but the dataset is a \
                         DLawBench dataset; a DLawBench run header says \"benchmark\": \
                         \"dlawbench\"",
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
        let vendor = self.optional(obj, "", "vendor", Self::text);
        let family = self.optional(obj, "", "family", Self::vocab::<Family>);
        let run = self.required(obj, "", "run", |r, v, p| r.whole_number(v, p, 1));
        let dataset = self.optional(obj, "", "dataset", Self::string);
        let client_model = self.optional(obj, "", "client_model", Self::checked_name);
        let judges = self.required(obj, "", "judges", Self::judge_seats);
        let horizon = self
            .optional(obj, "", "horizon", |r, v, p| r.whole_number(v, p, 1))
            .map(|n| n.unwrap_or(DEFAULT_HORIZON));
        let min_valid_judges = self
            .optional(obj, "", "min_valid_judges", |r, v, p| {
                r.whole_number(v, p, 1)
            })
            .map(|n| n.unwrap_or(1));
        let prompt_version = self.optional(obj, "", "prompt_version", Self::string);
        let generation = self.optional(obj, "", "generation", |r, v, p| r.object(v, p).cloned());
        let created_at = self.optional(obj, "", "created_at", Self::string);
        let extra = obj
            .iter()
            .filter(|(k, _)| !KNOWN.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !self.errors.is_empty() {
            return None;
        }
        let header = RunHeader {
            benchmark: Benchmark::Dlawbench,
            model: model?,
            vendor: vendor?,
            family: family?,
            run: run?,
            dataset: dataset?,
            client_model: client_model?,
            judges: judges?,
            horizon: horizon?,
            min_valid_judges: min_valid_judges?,
            prompt_version: prompt_version?,
            generation: generation?,
            created_at: created_at?,
            extra,
        };
        if header.recusals().is_none() {
            self.fail(
                "judges",
                format!(
                    "every judge is of the lawyer's vendor ({}), so recusal leaves no judge; \
                     add a judge of another vendor",
                    header.lawyer_vendor()
                ),
            );
            return None;
        }
        Some(header)
    }

    fn dlaw_turn(&mut self, v: &Value, path: &str) -> Option<Turn> {
        let obj = self.object(v, path)?;
        let role = self.required(obj, path, "role", Self::vocab::<Role>);
        let action = self.optional(obj, path, "action", Self::vocab::<Action>);
        let content = self.required(obj, path, "content", Self::string);
        let attempts = self.optional(obj, path, "attempts", |r, v, p| r.whole_number(v, p, 1));
        let at = self.optional(obj, path, "at", Self::string);
        let usage = obj.get("usage").filter(|u| !u.is_null()).cloned();
        Some(Turn {
            role: role?,
            action: action?,
            content: content?,
            attempts: attempts?,
            at: at?,
            usage,
        })
    }

    fn check_dialogue(&mut self, dialogue: &[Turn], turns_used: u32) {
        if dialogue.is_empty() {
            self.fail(
                "dialogue",
                "is empty; a dialogue opens with the client's opening statement (or leave \
                 \"dialogue\" out)"
                    .into(),
            );
            return;
        }
        if dialogue[0].role != Role::Client {
            self.fail(
                "dialogue[0].role",
                "the dialogue opens with the client's opening statement, a client turn".into(),
            );
        }
        let mut lawyer_turns = 0;
        for (i, turn) in dialogue.iter().enumerate().skip(1) {
            let expected = if i % 2 == 1 {
                Role::Lawyer
            } else {
                Role::Client
            };
            if turn.role != expected {
                self.fail(
                    &format!("dialogue[{i}].role"),
                    format!(
                        "is {}, but after the opening lawyer and client turns alternate: \
                         expected {expected}",
                        turn.role
                    ),
                );
            }
            match turn.role {
                Role::Lawyer => {
                    lawyer_turns += 1;
                    if turn.action != Some(Action::Ask) {
                        self.fail(
                            &format!("dialogue[{i}].action"),
                            "a lawyer turn of the dialogue is an \"ask\" (the memo goes in \
                             \"memo\")"
                                .into(),
                        );
                    }
                    if is_blank(&turn.content) {
                        self.fail(
                            &format!("dialogue[{i}].content"),
                            "a lawyer's question must not be empty".into(),
                        );
                    }
                }
                Role::Client if turn.action.is_some() => self.fail(
                    &format!("dialogue[{i}].action"),
                    "only lawyer turns have an action".into(),
                ),
                Role::Client => {}
            }
        }
        if lawyer_turns != turns_used {
            self.fail(
                "dialogue",
                format!(
                    "has {lawyer_turns} lawyer turn{} but turns_used is {turns_used}",
                    plural(lawyer_turns as usize)
                ),
            );
        }
    }

    fn seat(&mut self, v: &Value, path: &str, case: Option<&Case>) -> Option<Seat> {
        let obj = self.object(v, path)?;
        let judge = self.required(obj, path, "judge", Self::string);
        let recused = self.required(obj, path, "recused", Self::boolean);
        let unavailable = self.reason(obj, path, "unavailable");
        let rationale = self.optional(obj, path, "rationale", Self::string);
        let decisions_path = crate::core::lines::join(path, "decisions");
        let decisions = match (obj.get("decisions"), recused, &unavailable) {
            (None | Some(Value::Null), Some(false), Some(None)) => {
                self.fail(
                    &decisions_path,
                    "missing; a seated judge gives its decisions, or says in \"unavailable\" \
                     why it gave none"
                        .into(),
                );
                None
            }
            (None | Some(Value::Null), _, _) => Some(None),
            (Some(_), Some(true), _) => {
                self.fail(
                    &decisions_path,
                    "a recused judge gives no decisions; leave them out".into(),
                );
                None
            }
            (Some(_), _, Some(Some(_))) => {
                self.fail(
                    &decisions_path,
                    "must be left out in a seat marked \"unavailable\"".into(),
                );
                None
            }
            (Some(v), _, _) => match case {
                Some(case) => self.decisions(v, &decisions_path, case).map(Some),
                None => Some(None),
            },
        };
        if recused == Some(true) && matches!(unavailable, Some(Some(_))) {
            self.fail(
                &crate::core::lines::join(path, "unavailable"),
                "a recused judge is not asked, so it cannot be unavailable".into(),
            );
        }
        Some(Seat {
            judge: judge?,
            recused: recused?,
            decisions: decisions?,
            unavailable: unavailable?,
            rationale: rationale?,
        })
    }

    fn bit(&mut self, v: &Value, path: &str) -> Option<u8> {
        match v.as_u64() {
            Some(b @ (0 | 1)) => Some(b as u8),
            _ => {
                let got = match v {
                    Value::Number(n) => n.to_string(),
                    other => describe(other).to_owned(),
                };
                self.fail(path, format!("expected 0 or 1, got {got}"));
                None
            }
        }
    }

    /// A list of 0/1 as long as the rubric list `of`.
    fn bits(
        &mut self,
        obj: &Map<String, Value>,
        path: &str,
        key: &str,
        of: usize,
        what: &str,
    ) -> Option<Vec<u8>> {
        let bits = self.required(obj, path, key, |r, v, p| r.list(v, p, Self::bit))?;
        if bits.len() != of {
            self.fail(
                &crate::core::lines::join(path, key),
                format!(
                    "has {} value{} but the case has {of} {what} rubric item{}; give one 0 or \
                     1 per item, in rubric order",
                    bits.len(),
                    plural(bits.len()),
                    plural(of)
                ),
            );
            return None;
        }
        Some(bits)
    }

    /// A list of distinct fact ids of `case`.
    fn fact_ids(
        &mut self,
        obj: &Map<String, Value>,
        path: &str,
        key: &str,
        case: &Case,
    ) -> Option<Vec<String>> {
        let here = crate::core::lines::join(path, key);
        let ids = self.required(obj, path, key, |r, v, p| r.list(v, p, Self::string))?;
        let mut ok = true;
        let mut seen = HashSet::new();
        for (i, id) in ids.iter().enumerate() {
            if case.fact(id).is_none() {
                self.fail(
                    &format!("{here}[{i}]"),
                    format!(
                        "unknown fact id \"{id}\"; case {} has {}",
                        case.case_id,
                        case.facts
                            .iter()
                            .map(|f| f.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                ok = false;
            } else if !seen.insert(id.as_str()) {
                self.fail(
                    &format!("{here}[{i}]"),
                    format!("fact \"{id}\" is listed twice"),
                );
                ok = false;
            }
        }
        ok.then_some(ids)
    }

    fn decisions(&mut self, v: &Value, path: &str, case: &Case) -> Option<Decisions> {
        let obj = self.object(v, path)?;
        let inquiry = self.bits(obj, path, "inquiry", case.inquiry_rubrics.len(), "Inquiry");
        let issue = self.bits(
            obj,
            path,
            "issue",
            case.issue_rubrics.len(),
            "Issue-resolution",
        );
        let covered = self.fact_ids(obj, path, "covered", case);
        let correct = self.fact_ids(obj, path, "correct", case);
        if let (Some(covered), Some(correct)) = (&covered, &correct) {
            for (i, id) in correct.iter().enumerate() {
                if !covered.contains(id) {
                    self.fail(
                        &format!("{}[{i}]", crate::core::lines::join(path, "correct")),
                        format!("fact \"{id}\" is correct but not covered; correct ⊆ covered"),
                    );
                }
            }
        }
        let claims_total =
            self.required(obj, path, "claims_total", |r, v, p| r.whole_number(v, p, 0));
        let claims_grounded = self.required(obj, path, "claims_grounded", |r, v, p| {
            r.whole_number(v, p, 0)
        });
        if let (Some(total), Some(grounded)) = (claims_total, claims_grounded) {
            if grounded > total {
                self.fail(
                    &crate::core::lines::join(path, "claims_grounded"),
                    format!("is {grounded}, more than claims_total {total}"),
                );
            }
        }
        let ungrounded_claims = self.optional(obj, path, "ungrounded_claims", |r, v, p| {
            r.list(v, p, Self::string)
        });
        let incorrect = self.optional(obj, path, "incorrect", |r, v, p| {
            r.list(v, p, |r, v, p| {
                let o = r.object(v, p)?;
                let fact_id = r.required(o, p, "fact_id", Self::string);
                let reason = r.optional(o, p, "reason", Self::string);
                Some(Incorrect {
                    fact_id: fact_id?,
                    reason: reason?,
                })
            })
        });
        if let Some(Some(list)) = &incorrect {
            for (i, item) in list.iter().enumerate() {
                if case.fact(&item.fact_id).is_none() {
                    self.fail(
                        &format!(
                            "{}[{i}].fact_id",
                            crate::core::lines::join(path, "incorrect")
                        ),
                        format!(
                            "unknown fact id \"{}\" of case {}",
                            item.fact_id, case.case_id
                        ),
                    );
                }
            }
        }
        let before = self.errors.len();
        let decisions = Decisions {
            inquiry: inquiry?,
            issue: issue?,
            covered: covered?,
            correct: correct?,
            claims_total: claims_total?,
            claims_grounded: claims_grounded?,
            ungrounded_claims: ungrounded_claims?,
            incorrect: incorrect?,
        };
        (self.errors.len() == before
            && decisions.claims_grounded <= decisions.claims_total
            && decisions
                .correct
                .iter()
                .all(|c| decisions.covered.contains(c)))
        .then_some(decisions)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_lawyer_texts_are_its_turns_and_memo_never_the_clients() {
        use super::{Role, Session, Status, Turn};
        let turn = |role, content: &str| Turn {
            role,
            action: None,
            content: content.into(),
            attempts: None,
            at: None,
            usage: None,
        };
        let session = Session {
            case_id: "c".into(),
            style: crate::dlawbench::dataset::Style::Cooperative,
            status: Status::Submitted,
            turns_used: 1,
            dialogue: Some(vec![
                turn(Role::Client, "我想离婚，依据第1079条"),
                turn(Role::Lawyer, "分居多久了？"),
                turn(Role::Client, "两年"),
            ]),
            memo: Some("依《民法典》第一千零七十九条可判离婚".into()),
            panel: Vec::new(),
            unavailable: None,
            error: None,
        };
        assert_eq!(
            session.lawyer_texts().collect::<Vec<_>>(),
            ["分居多久了？", "依《民法典》第一千零七十九条可判离婚"]
        );
        let silent = Session {
            dialogue: None,
            memo: None,
            ..session
        };
        assert_eq!(silent.lawyer_texts().count(), 0);
    }

    use super::*;
    use crate::dlawbench::dataset::parse_dataset;

    fn dataset() -> Vec<Case> {
        parse_dataset(concat!(
            r#"{"case_id": "A", "jurisdiction": "cn", "domain": "labor", "opening": "开场", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}, {"id": "F2", "type": "undisputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}, {"id": "Q2", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#,
            "\n",
            r#"{"case_id": "B", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#,
            "\n",
        ))
        .unwrap()
    }

    const HEADER: &str = r#"{"kind": "run", "benchmark": "dlawbench", "model": "Sim-Lawyer", "vendor": "sim", "run": 1, "horizon": 3, "judges": [{"model": "J1", "vendor": "a"}, {"model": "J2", "vendor": "b"}]}"#;

    fn seat(judge: &str, decisions: &str) -> String {
        format!(r#"{{"judge": "{judge}", "recused": false, "decisions": {decisions}}}"#)
    }

    const DEC_A: &str = r#"{"inquiry": [1, 0], "issue": [1], "covered": ["F1"], "correct": ["F1"], "claims_total": 3, "claims_grounded": 2}"#;
    const DEC_B: &str = r#"{"inquiry": [1], "issue": [0], "covered": [], "correct": [], "claims_total": 0, "claims_grounded": 0}"#;

    fn good() -> String {
        let a = format!(
            r#"{{"kind": "session", "case_id": "A", "style": "withdrawn", "status": "submitted", "turns_used": 1, "dialogue": [{{"role": "client", "content": "开场"}}, {{"role": "lawyer", "action": "ask", "content": "?", "attempts": 1}}, {{"role": "client", "content": "嗯"}}], "memo": "m", "panel": [{}, {}]}}"#,
            seat("J1", DEC_A),
            seat("J2", DEC_A)
        );
        let b = r#"{"kind": "session", "case_id": "B", "style": "withdrawn", "status": "lawyer_error", "turns_used": 2}"#;
        format!("{HEADER}\n{a}\n{b}\n")
    }

    #[test]
    fn a_run_reads_back_from_its_stored_form() {
        let run = parse_run(&good(), &dataset()).unwrap();
        assert_eq!(run.styles(), [Style::Withdrawn]);
        let stored = run.to_stored();
        assert_eq!(Run::read_stored(&stored).unwrap(), run);
        assert_eq!(parse_run(&stored, &dataset()).unwrap(), run);
    }

    #[test]
    fn every_session_error_is_named() {
        let text = format!(
            "{HEADER}\n{}\n{}\n{}\n",
            format_args!(
                r#"{{"kind": "session", "case_id": "A", "style": "withdrawn", "status": "horizon", "turns_used": 2, "dialogue": [{{"role": "lawyer", "action": "submit", "content": ""}}], "memo": "", "panel": [{}, {{"judge": "J2", "recused": true}}]}}"#,
                seat(
                    "J1",
                    r#"{"inquiry": [1], "issue": [2], "covered": ["F9", "F1"], "correct": ["F2"], "claims_total": 1, "claims_grounded": 2}"#
                )
            ),
            format_args!(
                r#"{{"kind": "session", "case_id": "B", "style": "withdrawn", "status": "no_memo", "turns_used": 3, "memo": "x", "panel": [{}, {}]}}"#,
                seat("J1", DEC_B),
                seat("J2", DEC_B)
            ),
            r#"{"kind": "session", "case_id": "B", "style": "cooperative", "status": "submitted", "turns_used": 4}"#,
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
                (2, "turns_used"),
                (2, "dialogue[0].role"),
                (2, "dialogue"),
                (2, "memo"),
                (2, "panel[0].decisions.inquiry"),
                (2, "panel[0].decisions.issue[0]"),
                (2, "panel[0].decisions.covered[0]"),
                (2, "panel[0].decisions.claims_grounded"),
                (2, "panel[1].recused"),
                (3, "memo"),
                (3, "panel"),
                (4, "turns_used"),
                (4, "memo"),
                (4, "panel"),
                (4, "case_id"),
            ],
            "{errors}"
        );
    }

    #[test]
    fn a_panel_recusal_would_empty_is_refused() {
        let header = HEADER
            .replace(r#""vendor": "b""#, r#""vendor": "sim""#)
            .replace(r#""vendor": "a""#, r#""vendor": "sim""#);
        let errors = parse_run(&format!("{header}\n"), &dataset()).unwrap_err();
        assert_eq!(errors.0[0].field, "judges");
        assert!(errors.0[0].message.contains("recusal leaves no judge"));
    }
}
