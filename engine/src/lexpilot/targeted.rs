//! The LexPilot paper's Targeted vs Off-target experiment (Section 6.5,
//! Table 4; Appendix E.7): the pure rules of it.
//!
//! For each underspecified case (a case with at least one missing key fact)
//! two dialogues are constructed from independent copies of its
//! underspecified consultation: **Targeted**, where the evaluated model,
//! given the annotated key facts (never the verdicts), asks questions meant
//! to recover the missing facts, and **Off-target**, where it asks questions
//! that avoid them. The user model answers one question per turn over
//! [`ROUNDS`] rounds. A judge then checks every missing fact against the
//! constructed turns ([`Validation`], read from its JSON reply by
//! [`parse_validation`]): recovered, absent or contradicted, citing the user
//! turns. The acceptance rule is [`Validation::reasons`]:
//!
//! - **Targeted** is accepted only when every missing fact is recovered;
//! - **Off-target** only when none is recovered or contradicted;
//! - in both, a reported violation (an unsupported assertion, a question
//!   that gives the answer away, a reply beyond the question's factual
//!   scope) rejects the dialogue.
//!
//! A rejected dialogue is constructed again, at most [`MAX_ATTEMPTS`] times
//! per case and condition; a case with no accepted dialogue by then is
//! *unresolved*: kept, counted and listed, never scored. On an accepted
//! dialogue the same model predicts in a fresh context with the direct
//! prediction prompt (Appendix F, Table 21), and its verdicts are scored
//! with quadratic weighted kappa pooled over the claims of one run
//! ([`score_targeted`], the QWK of [`crate::metrics`] that LJP uses), then
//! mean ± std over runs in Table 4 ([`crate::lexpilot::paper::table_4`]).
//!
//! The construction and validation prompts are not the paper's (it gives
//! none): they are the workbench's own, versioned and hashed in the result
//! header like the paper's prompts (`pipeline/prompts/README.md`).
//!
//! # The result file (JSON Lines)
//!
//! One file per evaluated model and repetition, written by the pipeline
//! (`lexpilot experiment targeted`) and read back by [`parse_targeted`]
//! against the dataset. Line 1 is the header, every other line one item.
//!
//! ```json
//! {"kind": "targeted_run", "model": "GPT-5.6-Sol", "family": "closed", "run": 1,
//!  "dataset": "lexpilot-demo", "judge": "DeepSeek-R1", "user_model": "DeepSeek-V4.1-Flash",
//!  "created_at": "2026-12-02T10:00:00Z", "max_attempts": 5, "rounds": 3,
//!  "prompts": {"targeted_construct.v1": "<sha256>", "...": "..."}}
//! {"kind": "targeted", "case_id": "LP-0001", "condition": "targeted", "status": "accepted",
//!  "attempts": [
//!    {"attempt": 1, "dialogue": [{"role": "assistant", "content": "..."}, {"role": "user", "content": "..."}],
//!     "validation": {"facts": [{"id": "k1", "status": "absent", "turns": []}], "violations": []},
//!     "accepted": false, "reasons": ["k1: absent"]},
//!    {"attempt": 2, "dialogue": [...], "validation": {...}, "accepted": true, "reasons": []}],
//!  "predictions": ["partially_supported"], "response": "..."}
//! {"kind": "targeted", "case_id": "LP-0001", "condition": "off_target", "status": "unresolved",
//!  "attempts": [... five rejected attempts ...], "predictions": null}
//! ```
//!
//! - The header is a run header (`docs/formats.md` §3: `model` a name, `run`
//!   a whole number ≥ 1, `family`, `dataset`, `judge`, `user_model`,
//!   `created_at` optional) under `"kind": "targeted_run"`; other keys
//!   (prompt hashes, generation settings, `max_attempts`, `rounds`) are kept.
//! - `condition` is `targeted` or `off_target`. There is one item per
//!   (case, condition) for every case of the dataset with a missing fact,
//!   and none for a case without.
//! - `attempts` holds 1 to [`MAX_ATTEMPTS`] attempts numbered from 1 in
//!   order. An attempt's `dialogue` is the constructed turns only (the
//!   initial history is the case's underspecified consultation), assistant
//!   and user alternating. Its `validation` is the judge's verdict (null when
//!   the judge gave no valid reply, which rejects the attempt); `accepted`
//!   must be what the acceptance rule says of it, and `reasons` the
//!   rejection reasons (empty when accepted). Only the last attempt may be
//!   accepted.
//! - `status` is `accepted` (the last attempt was) or `unresolved` (all
//!   [`MAX_ATTEMPTS`] were rejected); `dialogue` of the item is the
//!   validated dialogue, `predictions` one verdict per claim in claim
//!   order, `response` the prediction reply.
//! - An item the pipeline could not finish carries `"unavailable":
//!   "reason"` and null `predictions`; its `status` is null when the
//!   construction itself did not finish, `accepted` when the prediction
//!   failed. Unavailable items are counted and excluded from the metric, as
//!   in §3. An unresolved item is never unavailable.
//!
//! Every error names its line, its case and the field; all are reported.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::core::dialogue::Turn;
use crate::core::entry::EntryKey;
use crate::core::errors::DatasetError;
use crate::lexpilot::dataset::Case;
use crate::lexpilot::run::RunHeader;
use crate::metrics::quadratic_weighted_kappa;
use crate::vocab::{vocabulary, Role, Verdict};

/// Attempts at one case and condition before it is unresolved (E.7: "at
/// most five attempts per case and condition").
pub const MAX_ATTEMPTS: usize = 5;
/// Question-and-answer rounds of every constructed dialogue (E.7: "one
/// question per turn over three rounds in both conditions").
pub const ROUNDS: usize = 3;

vocabulary! {
    /// The two constructed conditions of Table 4.
    Condition, kind "condition" {
        /// Questions meant to recover the missing facts.
        Targeted = "targeted", zh "定向追问", en "Targeted";
        /// Questions that avoid them.
        OffTarget = "off_target", zh "偏离追问", en "Off-target";
    }
}

vocabulary! {
    /// What the judge found of one missing fact in a constructed dialogue.
    FactStatus, kind "fact status" {
        /// The user's answers disclose it accurately.
        Recovered = "recovered", zh "已获取", en "Recovered";
        /// Nothing in the dialogue discloses it, not even by implication.
        Absent = "absent", zh "未出现", en "Absent";
        /// The user's answers state something at odds with it.
        Contradicted = "contradicted", zh "矛盾", en "Contradicted";
    }
}

vocabulary! {
    /// A fault of a constructed dialogue that rejects it in either condition
    /// (E.7: "Both exclude unsupported assertions, questions revealing the
    /// target answer, and replies exceeding the question's factual scope").
    ViolationKind, kind "violation" {
        /// A user reply asserts what the case's facts do not support.
        UnsupportedAssertion = "unsupported_assertion", zh "无依据陈述", en "Unsupported assertion";
        /// A question reveals the answer it asks for.
        RevealingQuestion = "revealing_question", zh "问题泄露答案", en "Question reveals the answer";
        /// A reply discloses more than the question asked.
        BeyondScope = "beyond_scope", zh "回答超出问题范围", en "Reply beyond the question's scope";
    }
}

vocabulary! {
    /// How the construction of one case and condition ended.
    ItemStatus, kind "status" {
        /// A dialogue was accepted (the last attempt).
        Accepted = "accepted", zh "已通过", en "Accepted";
        /// Every attempt was rejected.
        Unresolved = "unresolved", zh "未解决", en "Unresolved";
    }
}

/// The judge's finding on one missing fact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FactCheck {
    /// The key fact's id (one of the case's `missing_facts`).
    pub id: String,
    pub status: FactStatus,
    /// The user turns (numbered from 1 over the constructed dialogue's user
    /// turns) that support the finding; never empty unless `absent`.
    #[serde(default)]
    pub turns: Vec<u32>,
}

/// One violation the judge reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    pub kind: ViolationKind,
    /// The user or assistant round it is in, when the judge named one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
    /// The judge's words.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

/// The judge's verdict on one constructed dialogue: one finding per missing
/// fact, in the case's `key_facts` order, and the violations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Validation {
    pub facts: Vec<FactCheck>,
    #[serde(default)]
    pub violations: Vec<Violation>,
}

impl Validation {
    /// Why the dialogue is rejected under `condition`; empty when it is
    /// accepted. See the [module documentation](self) for the rule.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::lexpilot::targeted::{Condition, FactCheck, FactStatus, Validation};
    ///
    /// let v = |status| Validation {
    ///     facts: vec![FactCheck { id: "k1".into(), status, turns: vec![2] }],
    ///     violations: vec![],
    /// };
    /// assert!(v(FactStatus::Recovered).accepts(Condition::Targeted));
    /// assert_eq!(v(FactStatus::Recovered).reasons(Condition::OffTarget), ["k1: recovered (user turn 2)"]);
    /// assert!(v(FactStatus::Absent).accepts(Condition::OffTarget));
    /// assert!(!v(FactStatus::Contradicted).accepts(Condition::OffTarget));
    /// ```
    pub fn reasons(&self, condition: Condition) -> Vec<String> {
        let mut reasons: Vec<String> = self
            .facts
            .iter()
            .filter(|f| match condition {
                Condition::Targeted => f.status != FactStatus::Recovered,
                Condition::OffTarget => f.status != FactStatus::Absent,
            })
            .map(|f| {
                let turns = match f.turns.as_slice() {
                    [] => String::new(),
                    [t] => format!(" (user turn {t})"),
                    ts => format!(
                        " (user turns {})",
                        ts.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
                    ),
                };
                format!("{}: {}{turns}", f.id, f.status)
            })
            .collect();
        reasons.extend(self.violations.iter().map(|v| {
            let at = v.turn.map(|t| format!(" (round {t})")).unwrap_or_default();
            let detail = if v.detail.trim().is_empty() {
                String::new()
            } else {
                format!(": {}", v.detail.trim())
            };
            format!("{}{at}{detail}", v.kind)
        }));
        if self.facts.is_empty() {
            reasons.push("no missing fact was checked".to_owned());
        }
        reasons
    }

    /// Whether the dialogue is accepted under `condition`.
    pub fn accepts(&self, condition: Condition) -> bool {
        self.reasons(condition).is_empty()
    }
}

/// Why a judge's reply is not a [`Validation`] of the dialogue.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValidationError {
    #[error("the reply holds no JSON object")]
    NoJson,
    #[error("the reply is not valid JSON: {0}")]
    Json(String),
    #[error("\"facts\" is missing or not a list")]
    NoFacts,
    #[error("facts[{index}]: {message}")]
    Fact { index: usize, message: String },
    #[error("the missing fact {0} is not checked")]
    Unchecked(String),
    #[error("\"violations\" is not a list")]
    ViolationsNotAList,
    #[error("violations[{index}]: {message}")]
    Violation { index: usize, message: String },
}

/// The JSON object of a judge's reply: the text from its first `{` to its
/// last `}` (so a Markdown fence or a sentence around it is ignored).
fn json_object(reply: &str) -> Option<&str> {
    let start = reply.find('{')?;
    let end = reply.rfind('}')?;
    (end > start).then(|| &reply[start..=end])
}

/// A vocabulary value from its wire string or its Chinese label, trimmed.
fn word<V: crate::vocab::Vocabulary>(s: &str) -> Option<V> {
    let s = s.trim();
    V::VALUES
        .iter()
        .copied()
        .find(|v| v.as_str() == s || v.label_zh() == s)
}

/// Reads the validation judge's reply on a dialogue of `case` with
/// `user_turns` user turns: `{"facts": [{"id", "status", "turns"}],
/// "violations": [{"kind", "turn", "detail"}]}`. Every missing fact of the
/// case must be checked exactly once and nothing else; a status is
/// `recovered`, `absent` or `contradicted` (or its Chinese label); a
/// recovered or contradicted fact cites at least one user turn, each in
/// 1..=`user_turns`. Facts come back in the case's `key_facts` order.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::targeted::{parse_validation, FactStatus, ValidationError};
///
/// let case = engine::lexpilot::dataset::parse_dataset(&engine::lexpilot::synthetic::dataset_file(1))
///     .unwrap()
///     .remove(0);
/// let facts: Vec<String> = case.missing_facts.iter()
///     .map(|id| format!(r#"{{"id": "{id}", "status": "recovered", "turns": [1]}}"#))
///     .collect();
/// let reply = format!("```json\n{{\"facts\": [{}], \"violations\": []}}\n```", facts.join(", "));
/// let v = parse_validation(&reply, &case, 3).unwrap();
/// assert_eq!(v.facts.len(), case.missing_facts.len());
/// assert!(v.facts.iter().all(|f| f.status == FactStatus::Recovered));
/// let late = reply.replace("[1]", "[4]");
/// assert!(matches!(parse_validation(&late, &case, 3), Err(ValidationError::Fact { .. })));
/// ```
pub fn parse_validation(
    reply: &str,
    case: &Case,
    user_turns: usize,
) -> Result<Validation, ValidationError> {
    let text = json_object(reply).ok_or(ValidationError::NoJson)?;
    let value: Value =
        serde_json::from_str(text).map_err(|e| ValidationError::Json(e.to_string()))?;
    let facts = value
        .get("facts")
        .and_then(Value::as_array)
        .ok_or(ValidationError::NoFacts)?;
    let mut found: HashMap<String, FactCheck> = HashMap::new();
    for (index, fact) in facts.iter().enumerate() {
        let bad = |message: String| ValidationError::Fact { index, message };
        let id = fact
            .get("id")
            .and_then(Value::as_str)
            .map(str::trim)
            .ok_or_else(|| bad("\"id\" is missing or not a string".into()))?;
        if !case.missing_facts.iter().any(|m| m == id) {
            return Err(bad(format!(
                "{id:?} is not a missing fact of the case; expected one of {}",
                case.missing_facts.join(", ")
            )));
        }
        if found.contains_key(id) {
            return Err(bad(format!("{id} is checked twice")));
        }
        let status_text = fact
            .get("status")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("\"status\" is missing or not a string".into()))?;
        let status: FactStatus = word(status_text).ok_or_else(|| {
            bad(format!(
                "status {status_text:?} is not valid; expected one of {}",
                <FactStatus as crate::vocab::Vocabulary>::expected()
            ))
        })?;
        let turns = match fact.get("turns") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(ts)) => ts
                .iter()
                .map(|t| {
                    t.as_u64()
                        .filter(|&n| n >= 1 && n <= user_turns as u64)
                        .map(|n| n as u32)
                        .ok_or_else(|| {
                            bad(format!(
                                "turn {t} is not a user turn of the dialogue (1 to {user_turns})"
                            ))
                        })
                })
                .collect::<Result<Vec<u32>, _>>()?,
            Some(other) => return Err(bad(format!("\"turns\" is not a list: {other}"))),
        };
        if status != FactStatus::Absent && turns.is_empty() {
            return Err(bad(format!("{id} is {status} but cites no user turn")));
        }
        found.insert(
            id.to_owned(),
            FactCheck {
                id: id.to_owned(),
                status,
                turns,
            },
        );
    }
    let mut checks = Vec::with_capacity(found.len());
    for fact in case.missing_key_facts() {
        match found.remove(&fact.id) {
            Some(check) => checks.push(check),
            None => return Err(ValidationError::Unchecked(fact.id.clone())),
        }
    }
    let violations = match value.get("violations") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(vs)) => vs
            .iter()
            .enumerate()
            .map(|(index, v)| {
                let bad = |message: String| ValidationError::Violation { index, message };
                let kind_text = v
                    .get("kind")
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad("\"kind\" is missing or not a string".into()))?;
                let kind: ViolationKind = word(kind_text).ok_or_else(|| {
                    bad(format!(
                        "kind {kind_text:?} is not valid; expected one of {}",
                        <ViolationKind as crate::vocab::Vocabulary>::expected()
                    ))
                })?;
                Ok(Violation {
                    kind,
                    turn: v.get("turn").and_then(Value::as_u64).map(|n| n as u32),
                    detail: v
                        .get("detail")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .trim()
                        .to_owned(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => return Err(ValidationError::ViolationsNotAList),
    };
    Ok(Validation {
        facts: checks,
        violations,
    })
}

/// The cases of the experiment: those with at least one missing fact.
pub fn experiment_cases(cases: &[Case]) -> impl Iterator<Item = (usize, &Case)> {
    cases
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.missing_facts.is_empty())
}

/// The number of user turns in a constructed dialogue.
pub fn user_turns(dialogue: &[Turn]) -> usize {
    dialogue.iter().filter(|t| t.role == Role::User).count()
}

/// One construction attempt of one case and condition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    /// From 1.
    pub attempt: u32,
    /// The constructed turns, after the case's underspecified consultation.
    pub dialogue: Vec<Turn>,
    /// The judge's verdict; `None` when it gave no valid reply.
    pub validation: Option<Validation>,
    pub accepted: bool,
    /// Why it was rejected; empty when accepted.
    #[serde(default)]
    pub reasons: Vec<String>,
}

/// One case under one condition: its attempts and, once accepted, the
/// prediction on the validated dialogue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetedItem {
    pub case_id: String,
    pub condition: Condition,
    /// `None` only when the item is unavailable before any dialogue was
    /// accepted or all attempts made.
    pub status: Option<ItemStatus>,
    pub attempts: Vec<Attempt>,
    /// The validated dialogue (the accepted attempt's), for drill-down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialogue: Option<Vec<Turn>>,
    /// One verdict per claim, in claim order.
    pub predictions: Option<Vec<Verdict>>,
    /// The prediction reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
}

/// A result file: the header and its items in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetedRun {
    pub header: RunHeader,
    pub items: Vec<TargetedItem>,
}

#[derive(Serialize)]
struct HeaderLine<'a> {
    kind: &'static str,
    #[serde(flatten)]
    header: &'a RunHeader,
}

#[derive(Serialize)]
struct ItemLine<'a> {
    kind: &'static str,
    #[serde(flatten)]
    item: &'a TargetedItem,
}

/// The `kind` of a result file's header line.
pub const HEADER_KIND: &str = "targeted_run";
/// The `kind` of its item lines.
pub const ITEM_KIND: &str = "targeted";

impl TargetedRun {
    /// The file's text: the header line, then one line per item, each
    /// `\n`-terminated. [`parse_targeted`] reads it back equal.
    pub fn to_jsonl(&self) -> String {
        let mut out = serde_json::to_string(&HeaderLine {
            kind: HEADER_KIND,
            header: &self.header,
        })
        .unwrap_or_default();
        out.push('\n');
        for item in &self.items {
            out.push_str(
                &serde_json::to_string(&ItemLine {
                    kind: ITEM_KIND,
                    item,
                })
                .unwrap_or_default(),
            );
            out.push('\n');
        }
        out
    }
}

fn error(line: usize, case_id: Option<&str>, field: &str, message: String) -> DatasetError {
    DatasetError {
        line,
        case_id: case_id.map(str::to_owned),
        field: field.to_owned(),
        message,
    }
}

/// The most errors [`parse_targeted`] reports in full.
pub const MAX_ERRORS: usize = crate::core::errors::MAX_ERRORS;

/// Reads a result file against the dataset it was made on, checking every
/// rule of the [module documentation](self); every error names its line
/// (from 1), case and field.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::targeted::parse_targeted;
///
/// let cases = engine::lexpilot::dataset::parse_dataset(&engine::lexpilot::synthetic::dataset_file(1)).unwrap();
/// let errors = parse_targeted(r#"{"kind": "targeted_run", "model": "M", "run": 1}"#, &cases).unwrap_err();
/// assert!(errors[0].message.contains("no items"));
/// ```
pub fn parse_targeted(text: &str, cases: &[Case]) -> Result<TargetedRun, Vec<DatasetError>> {
    let mut errors = Vec::new();
    let mut header: Option<RunHeader> = None;
    let mut items: Vec<(usize, TargetedItem)> = Vec::new();
    let by_id: HashMap<&str, &Case> = cases.iter().map(|c| (c.case_id.as_str(), c)).collect();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let raw = raw.trim_start_matches('\u{feff}');
        if raw.trim().is_empty() {
            continue;
        }
        let mut value: Map<String, Value> = match serde_json::from_str(raw) {
            Ok(Value::Object(map)) => map,
            Ok(_) => {
                errors.push(error(line, None, "", "not a JSON object".into()));
                continue;
            }
            Err(e) => {
                errors.push(error(line, None, "", format!("invalid JSON: {e}")));
                continue;
            }
        };
        let kind = value.remove("kind");
        if header.is_none() {
            if kind.as_ref().and_then(Value::as_str) != Some(HEADER_KIND) {
                errors.push(error(
                    line,
                    None,
                    "kind",
                    format!("the first line must be the header (\"kind\": \"{HEADER_KIND}\")"),
                ));
                return Err(errors);
            }
            match serde_json::from_value::<RunHeader>(Value::Object(value)) {
                Ok(h) => {
                    if let Err(why) = crate::names::check_name(&h.model) {
                        errors.push(error(line, None, "model", why));
                    }
                    if h.run == 0 {
                        errors.push(error(line, None, "run", "must be at least 1".into()));
                    }
                    header = Some(h);
                }
                Err(e) => {
                    errors.push(error(line, None, "", format!("invalid header: {e}")));
                    return Err(errors);
                }
            }
            continue;
        }
        if kind.as_ref().and_then(Value::as_str) != Some(ITEM_KIND) {
            errors.push(error(
                line,
                None,
                "kind",
                format!(
                    "expected \"{ITEM_KIND}\", got {}",
                    kind.unwrap_or(Value::Null)
                ),
            ));
            continue;
        }
        let case_id = value
            .get("case_id")
            .and_then(Value::as_str)
            .map(str::to_owned);
        match serde_json::from_value::<TargetedItem>(Value::Object(value)) {
            Ok(item) => {
                let before = errors.len();
                match by_id.get(item.case_id.as_str()) {
                    None => errors.push(error(
                        line,
                        Some(&item.case_id),
                        "case_id",
                        "not a case of the dataset".into(),
                    )),
                    Some(case) => check_item(&item, case, line, &mut errors),
                }
                if errors.len() == before {
                    items.push((line, item));
                }
            }
            Err(e) => errors.push(error(line, case_id.as_deref(), "", format!("{e}"))),
        }
    }
    let Some(header) = header else {
        errors.push(error(1, None, "", "no header".into()));
        return Err(errors);
    };
    if items.is_empty() && errors.is_empty() {
        errors.push(error(1, None, "", "no items".into()));
        return Err(errors);
    }
    let mut seen: HashMap<(&str, Condition), usize> = HashMap::new();
    for (line, item) in &items {
        if let Some(first) = seen.insert((item.case_id.as_str(), item.condition), *line) {
            errors.push(error(
                *line,
                Some(&item.case_id),
                "condition",
                format!(
                    "a second {} item; the first is on line {first}",
                    item.condition
                ),
            ));
        }
    }
    if errors.is_empty() {
        for condition in Condition::ALL {
            let missing: Vec<&str> = experiment_cases(cases)
                .map(|(_, c)| c.case_id.as_str())
                .filter(|id| !seen.contains_key(&(*id, condition)))
                .collect();
            if !missing.is_empty() {
                let shown: Vec<&str> = missing.iter().take(5).copied().collect();
                let more = missing.len().saturating_sub(5);
                errors.push(error(
                    1,
                    None,
                    "condition",
                    format!(
                        "no {condition} item for {} case{} with missing facts: {}{}",
                        missing.len(),
                        if missing.len() == 1 { "" } else { "s" },
                        shown.join(", "),
                        if more > 0 {
                            format!(" and {more} more")
                        } else {
                            String::new()
                        }
                    ),
                ));
            }
        }
    }
    if errors.is_empty() {
        Ok(TargetedRun {
            header,
            items: items.into_iter().map(|(_, i)| i).collect(),
        })
    } else {
        errors.truncate(MAX_ERRORS);
        Err(errors)
    }
}

/// The rules of one item against its case.
fn check_item(item: &TargetedItem, case: &Case, line: usize, errors: &mut Vec<DatasetError>) {
    let id = Some(item.case_id.as_str());
    let mut bad = |field: &str, message: String| errors.push(error(line, id, field, message));
    if case.missing_facts.is_empty() {
        bad(
            "case_id",
            "the case has no missing fact: it is not part of the experiment".into(),
        );
        return;
    }
    if item.attempts.len() > MAX_ATTEMPTS {
        bad(
            "attempts",
            format!(
                "{} attempts; at most {MAX_ATTEMPTS} are made",
                item.attempts.len()
            ),
        );
    }
    if item.attempts.is_empty() && item.unavailable.is_none() {
        bad("attempts", "no attempt".into());
    }
    for (i, a) in item.attempts.iter().enumerate() {
        let field = format!("attempts[{i}]");
        if a.attempt as usize != i + 1 {
            bad(
                &format!("{field}.attempt"),
                format!("is {}, expected {}", a.attempt, i + 1),
            );
        }
        let roles_alternate = a.dialogue.iter().enumerate().all(|(t, turn)| {
            turn.role
                == if t % 2 == 0 {
                    Role::Assistant
                } else {
                    Role::User
                }
        });
        if !roles_alternate || a.dialogue.len() > 2 * ROUNDS {
            bad(
                &format!("{field}.dialogue"),
                format!("must alternate assistant and user turns, at most {ROUNDS} rounds"),
            );
        }
        let expected = a
            .validation
            .as_ref()
            .map(|v| v.reasons(item.condition))
            .unwrap_or_else(|| vec!["no valid judge reply".to_owned()]);
        if a.accepted != expected.is_empty() {
            bad(
                &format!("{field}.accepted"),
                format!(
                    "is {} but the acceptance rule says {} under {}",
                    a.accepted,
                    if expected.is_empty() {
                        "accepted".to_owned()
                    } else {
                        format!("rejected ({})", expected.join("; "))
                    },
                    item.condition
                ),
            );
        }
        if a.accepted && i + 1 != item.attempts.len() {
            bad(
                &format!("{field}.accepted"),
                "only the last attempt may be accepted".into(),
            );
        }
        if let Some(v) = &a.validation {
            let checked: Vec<&str> = v.facts.iter().map(|f| f.id.as_str()).collect();
            let missing: Vec<&str> = case.missing_key_facts().map(|k| k.id.as_str()).collect();
            if checked != missing {
                bad(
                    &format!("{field}.validation.facts"),
                    format!(
                        "check {} but the case's missing facts are {}",
                        checked.join(", "),
                        missing.join(", ")
                    ),
                );
            }
        }
    }
    let last_accepted = item.attempts.last().is_some_and(|a| a.accepted);
    match (item.status, &item.unavailable) {
        (Some(ItemStatus::Unresolved), Some(_)) => bad(
            "unavailable",
            "an unresolved item is never unavailable".into(),
        ),
        (Some(ItemStatus::Unresolved), None)
            if last_accepted || item.attempts.len() != MAX_ATTEMPTS =>
        {
            bad(
                "status",
                format!("unresolved needs {MAX_ATTEMPTS} rejected attempts"),
            )
        }
        (Some(ItemStatus::Accepted), _) if !last_accepted => {
            bad("status", "accepted, but no attempt is".into())
        }
        (None, None) => bad("status", "missing (null without \"unavailable\")".into()),
        (None, Some(_)) if last_accepted => {
            bad("status", "null, but the last attempt is accepted".into())
        }
        _ => {}
    }
    match (&item.predictions, &item.unavailable) {
        (Some(_), Some(_)) => bad(
            "predictions",
            "must be null when the item is unavailable".into(),
        ),
        (Some(p), None) => {
            if item.status != Some(ItemStatus::Accepted) {
                bad(
                    "predictions",
                    "only an accepted item has predictions".into(),
                );
            } else if p.len() != case.claims.len() {
                bad(
                    "predictions",
                    format!("{} verdicts for {} claims", p.len(), case.claims.len()),
                );
            }
        }
        (None, None) if item.status == Some(ItemStatus::Accepted) => bad(
            "predictions",
            "an accepted item needs one verdict per claim, or \"unavailable\"".into(),
        ),
        _ => {}
    }
    if item.status == Some(ItemStatus::Accepted) && item.dialogue.is_none() {
        bad(
            "dialogue",
            "an accepted item keeps its validated dialogue".into(),
        );
    }
}

/// One condition of one run, scored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConditionScores {
    /// QWK pooled over the claims of the accepted cases with predictions;
    /// `None` when nothing was scored or the expected disagreement is 0.
    pub qwk: Option<f64>,
    /// The claims scored.
    pub claims: usize,
    /// The cases with an accepted dialogue.
    pub accepted: usize,
    /// The cases every attempt failed for.
    pub unresolved: usize,
    /// The items the pipeline could not finish.
    pub unavailable: usize,
    /// Construction attempts made, over all cases.
    pub attempts: usize,
    /// The unresolved cases' ids, in file order.
    pub unresolved_cases: Vec<String>,
}

/// One result file scored: its entry key and run, and both conditions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetedScores {
    pub key: EntryKey,
    pub run: u32,
    pub conditions: BTreeMap<Condition, ConditionScores>,
}

/// Scores a result file (validated by [`parse_targeted`] against `cases`):
/// per condition, QWK over every claim of every accepted case with
/// predictions, and the counts of the [module documentation](self).
pub fn score_targeted(run: &TargetedRun, cases: &[Case]) -> TargetedScores {
    let by_id: HashMap<&str, &Case> = cases.iter().map(|c| (c.case_id.as_str(), c)).collect();
    let conditions = Condition::ALL
        .into_iter()
        .map(|condition| {
            let items = run.items.iter().filter(|i| i.condition == condition);
            let (mut truth, mut pred) = (Vec::new(), Vec::new());
            let mut scores = ConditionScores {
                qwk: None,
                claims: 0,
                accepted: 0,
                unresolved: 0,
                unavailable: 0,
                attempts: 0,
                unresolved_cases: Vec::new(),
            };
            for item in items {
                scores.attempts += item.attempts.len();
                scores.unavailable += usize::from(item.unavailable.is_some());
                match item.status {
                    Some(ItemStatus::Accepted) => scores.accepted += 1,
                    Some(ItemStatus::Unresolved) => {
                        scores.unresolved += 1;
                        scores.unresolved_cases.push(item.case_id.clone());
                    }
                    None => {}
                }
                let (Some(predictions), Some(case)) =
                    (&item.predictions, by_id.get(item.case_id.as_str()))
                else {
                    continue;
                };
                for (claim, p) in case.claims.iter().zip(predictions) {
                    truth.push(claim.verdict.code());
                    pred.push(p.code());
                }
            }
            scores.claims = truth.len();
            if !truth.is_empty() {
                scores.qwk = quadratic_weighted_kappa(&truth, &pred, Verdict::ALL.len());
            }
            (condition, scores)
        })
        .collect();
    TargetedScores {
        key: run.header.entry_key(),
        run: run.header.run,
        conditions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexpilot::dataset::parse_dataset;
    use proptest::prelude::*;

    fn case() -> Case {
        let text = r#"{"case_id": "A", "cause": "离婚纠纷", "class": "family", "plaintiff_type": "natural",
          "claims": [{"id": "c1", "text": "判令离婚", "verdict": "supported"}, {"id": "c2", "text": "分割财产", "verdict": "dismissed"}],
          "focal_points": [{"id": "f1", "text": "感情是否破裂", "type": "factual_conduct"}],
          "key_facts": [{"id": "k1", "focal_point": "f1", "text": "分居两年"}, {"id": "k2", "focal_point": "f1", "text": "已有判决"}, {"id": "k3", "focal_point": "f1", "text": "有家暴"}],
          "missing_facts": ["k3", "k1"],
          "consultations": {"complete": [{"role": "user", "content": "全"}], "underspecified": [{"role": "user", "content": "缺"}]}}"#;
        parse_dataset(&text.replace('\n', " "))
            .expect("dataset")
            .remove(0)
    }

    #[test]
    fn a_judge_reply_is_read_in_key_fact_order() {
        let reply = "判断如下：\n```json\n{\"facts\": [{\"id\": \"k3\", \"status\": \"矛盾\", \"turns\": [2]}, {\"id\": \"k1\", \"status\": \"recovered\", \"turns\": [1, 3]}], \"violations\": [{\"kind\": \"beyond_scope\", \"turn\": 2, \"detail\": \"多说了\"}]}\n```";
        let v = parse_validation(reply, &case(), 3).expect("valid");
        let ids: Vec<&str> = v.facts.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["k1", "k3"]);
        assert_eq!(v.facts[1].status, FactStatus::Contradicted);
        assert_eq!(
            v.reasons(Condition::Targeted),
            [
                "k3: contradicted (user turn 2)",
                "beyond_scope (round 2): 多说了"
            ]
        );
        assert_eq!(v.reasons(Condition::OffTarget).len(), 3);
    }

    #[test]
    fn bad_judge_replies_say_what_is_wrong() {
        let c = case();
        let err = |reply: &str| parse_validation(reply, &c, 3).expect_err(reply).to_string();
        assert_eq!(err("是"), "the reply holds no JSON object");
        assert!(err("{\"facts\": [}").starts_with("the reply is not valid JSON"));
        assert_eq!(err("{\"facts\": 1}"), "\"facts\" is missing or not a list");
        assert_eq!(
            err(r#"{"facts": [{"id": "k2", "status": "absent"}]}"#),
            "facts[0]: \"k2\" is not a missing fact of the case; expected one of k3, k1"
        );
        assert_eq!(
            err(r#"{"facts": [{"id": "k1", "status": "maybe"}]}"#),
            "facts[0]: status \"maybe\" is not valid; expected one of recovered, absent, contradicted"
        );
        assert_eq!(
            err(r#"{"facts": [{"id": "k1", "status": "recovered"}]}"#),
            "facts[0]: k1 is recovered but cites no user turn"
        );
        assert_eq!(
            err(r#"{"facts": [{"id": "k1", "status": "recovered", "turns": [0]}]}"#),
            "facts[0]: turn 0 is not a user turn of the dialogue (1 to 3)"
        );
        assert_eq!(
            err(
                r#"{"facts": [{"id": "k1", "status": "absent"}, {"id": "k1", "status": "absent"}]}"#
            ),
            "facts[1]: k1 is checked twice"
        );
        assert_eq!(
            err(r#"{"facts": [{"id": "k1", "status": "absent"}]}"#),
            "the missing fact k3 is not checked"
        );
        assert_eq!(
            err(r#"{"facts": [{"id": "k1", "status": "absent"}, {"id": "k3", "status": "absent"}], "violations": [{"kind": "rude"}]}"#),
            "violations[0]: kind \"rude\" is not valid; expected one of unsupported_assertion, revealing_question, beyond_scope"
        );
    }

    fn attempt(n: u32, condition: Condition, statuses: [FactStatus; 2]) -> Attempt {
        let validation = Validation {
            facts: [("k1", statuses[0]), ("k3", statuses[1])]
                .into_iter()
                .map(|(id, status)| FactCheck {
                    id: id.into(),
                    status,
                    turns: if status == FactStatus::Absent {
                        vec![]
                    } else {
                        vec![1]
                    },
                })
                .collect(),
            violations: vec![],
        };
        let reasons = validation.reasons(condition);
        Attempt {
            attempt: n,
            dialogue: vec![
                Turn {
                    role: Role::Assistant,
                    content: "问".into(),
                },
                Turn {
                    role: Role::User,
                    content: "答".into(),
                },
            ],
            accepted: reasons.is_empty(),
            validation: Some(validation),
            reasons,
        }
    }

    fn run_text(items: &[TargetedItem]) -> String {
        let header: RunHeader =
            serde_json::from_str(r#"{"model": "M", "family": "closed", "run": 2}"#)
                .expect("header");
        TargetedRun {
            header,
            items: items.to_vec(),
        }
        .to_jsonl()
    }

    fn items() -> Vec<TargetedItem> {
        use FactStatus::*;
        let accepted =
            |condition, attempts: Vec<Attempt>, predictions: Vec<Verdict>| TargetedItem {
                case_id: "A".into(),
                condition,
                status: Some(ItemStatus::Accepted),
                dialogue: attempts.last().map(|a| a.dialogue.clone()),
                attempts,
                predictions: Some(predictions),
                response: Some("预测".into()),
                unavailable: None,
            };
        vec![
            accepted(
                Condition::Targeted,
                vec![
                    attempt(1, Condition::Targeted, [Recovered, Absent]),
                    attempt(2, Condition::Targeted, [Recovered, Recovered]),
                ],
                vec![Verdict::Supported, Verdict::Dismissed],
            ),
            TargetedItem {
                case_id: "A".into(),
                condition: Condition::OffTarget,
                status: Some(ItemStatus::Unresolved),
                attempts: (1..=5)
                    .map(|n| attempt(n, Condition::OffTarget, [Absent, Contradicted]))
                    .collect(),
                dialogue: None,
                predictions: None,
                response: None,
                unavailable: None,
            },
        ]
    }

    #[test]
    fn a_result_file_round_trips_and_scores() {
        let cases = vec![case()];
        let text = run_text(&items());
        let run = parse_targeted(&text, &cases).expect("valid");
        assert_eq!(run.to_jsonl(), text);
        let scores = score_targeted(&run, &cases);
        let t = &scores.conditions[&Condition::Targeted];
        assert_eq!(
            (t.accepted, t.unresolved, t.attempts, t.claims),
            (1, 0, 2, 2)
        );
        assert_eq!(t.qwk, Some(1.0));
        let o = &scores.conditions[&Condition::OffTarget];
        assert_eq!(
            (o.accepted, o.unresolved, o.attempts, o.claims),
            (0, 1, 5, 0)
        );
        assert_eq!(o.qwk, None);
        assert_eq!(o.unresolved_cases, ["A"]);
        assert_eq!(scores.run, 2);
        assert_eq!(scores.key.model, "M");
    }

    #[test]
    fn broken_result_files_name_line_case_and_field() {
        let cases = vec![case()];
        let errors = |items: Vec<TargetedItem>| -> Vec<String> {
            parse_targeted(&run_text(&items), &cases)
                .expect_err("invalid")
                .into_iter()
                .map(|e| format!("{}:{}:{}", e.line, e.field, e.message))
                .collect()
        };
        let mut lying = items();
        lying[0].attempts[0].accepted = true;
        let found = errors(lying);
        assert!(
            found[0].starts_with(
                "2:attempts[0].accepted:is true but the acceptance rule says rejected (k3: absent)"
            ),
            "{found:?}"
        );

        let mut short = items();
        short[1].attempts.pop();
        assert_eq!(
            errors(short),
            ["3:status:unresolved needs 5 rejected attempts"]
        );

        let mut counted = items();
        counted[0].predictions = Some(vec![Verdict::Supported]);
        assert_eq!(errors(counted), ["2:predictions:1 verdicts for 2 claims"]);

        let only_one = vec![items().remove(0)];
        assert_eq!(
            errors(only_one),
            ["1:condition:no off_target item for 1 case with missing facts: A"]
        );

        let twice = vec![items().remove(0), items().remove(0)];
        assert!(errors(twice)[0]
            .starts_with("3:condition:a second targeted item; the first is on line 2"));
    }

    fn status() -> impl Strategy<Value = FactStatus> {
        prop_oneof![
            Just(FactStatus::Recovered),
            Just(FactStatus::Absent),
            Just(FactStatus::Contradicted)
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The acceptance rule: Targeted needs every missing fact recovered,
        /// Off-target none recovered or contradicted, both no violation; so
        /// no dialogue of a case with a missing fact is accepted under both,
        /// and a rejected one always says why.
        #[test]
        fn acceptance_is_the_rule_and_never_both(
            statuses in proptest::collection::vec(status(), 1..6),
            violations in 0usize..3,
        ) {
            let v = Validation {
                facts: statuses.iter().enumerate().map(|(i, &status)| FactCheck {
                    id: format!("k{i}"), status, turns: vec![1],
                }).collect(),
                violations: (0..violations).map(|_| Violation {
                    kind: ViolationKind::BeyondScope, turn: None, detail: String::new(),
                }).collect(),
            };
            let all = |s| statuses.iter().all(|&x| x == s);
            prop_assert_eq!(v.accepts(Condition::Targeted), violations == 0 && all(FactStatus::Recovered));
            prop_assert_eq!(v.accepts(Condition::OffTarget), violations == 0 && all(FactStatus::Absent));
            prop_assert!(!(v.accepts(Condition::Targeted) && v.accepts(Condition::OffTarget)));
            for c in Condition::ALL {
                let wrong = statuses.iter().filter(|&&s| match c {
                    Condition::Targeted => s != FactStatus::Recovered,
                    Condition::OffTarget => s != FactStatus::Absent,
                }).count();
                prop_assert_eq!(v.reasons(c).len(), wrong + violations);
            }
        }
    }
}
