//! DLawBench prompts and replies (`docs/benchmarks/dlawbench.md` §A2,
//! →C-D1): what the pipeline sends the lawyer, the client simulator and the
//! judges, and how it reads their replies.
//!
//! The source gives no prompt text, so every prompt is **ours**, version
//! [`PROMPT_VERSION`], kept under `engine/prompts/dlawbench/` (its README
//! says so) and compiled in; [`PROMPT_FILES`] lists each with its SHA-256,
//! which a test checks.
//!
//! - [`lawyer_messages`]: the lawyer's system message (jurisdiction label,
//!   horizon, the JSON action interface) and the dialogue so far, client
//!   turns as `user`, the lawyer's own asks as `assistant`; the latest
//!   client message carries the turn budget, or after the horizon the
//!   submit-only note. The lawyer never sees facts, style or court record.
//! - [`client_messages`]: the client's system message (the style's
//!   [`persona`], the opening, the client-belief block, the verbatim rule)
//!   and the dialogue from the client's side.
//! - [`rubric_judge_prompt`] and [`fact_judge_prompt`]: the two judge calls,
//!   with the full case record, the dialogue and the memo.
//! - [`parse_action`]: the lawyer's reply, `ask` or `submit`.
//! - [`parse_rubric_reply`], [`parse_fact_reply`] and [`decisions`]: the
//!   judges' replies (§A2.4) checked against the case and turned into the
//!   run file's [`Decisions`].
//! - Seating the panel: [`super::run::RunHeader::recusals`] (by
//!   [`crate::vendor`]'s rule).
//!
//! Placeholders (`{name}`) are replaced in one pass: braces inside case
//! texts or replies are never read again. Depends on serde_json and
//! [`super::dataset`], [`super::run`].

use std::collections::{BTreeMap, HashSet};
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::dataset::{Case, Jurisdiction, Language, Style};
use super::run::{Action, Decisions, Incorrect, Role, Turn};

/// The version of these prompts, for the run header's `prompt_version`.
pub const PROMPT_VERSION: &str = "dlaw-v1";

macro_rules! prompt_file {
    ($name:literal) => {
        include_str!(concat!("../../prompts/dlawbench/", $name))
    };
}

const LAWYER_ZH: &str = prompt_file!("lawyer_zh.txt");
const LAWYER_EN: &str = prompt_file!("lawyer_en.txt");
const LAST_CALL_ZH: &str = prompt_file!("lawyer_last_call_zh.txt");
const LAST_CALL_EN: &str = prompt_file!("lawyer_last_call_en.txt");
const BUDGET_ZH: &str = prompt_file!("lawyer_budget_zh.txt");
const BUDGET_EN: &str = prompt_file!("lawyer_budget_en.txt");
const CLIENT_ZH: &str = prompt_file!("client_zh.txt");
const CLIENT_EN: &str = prompt_file!("client_en.txt");
const PERSONAS: &str = prompt_file!("personas.json");
const JUDGE_RUBRIC: &str = prompt_file!("judge_rubric.txt");
const JUDGE_FACTS: &str = prompt_file!("judge_facts.txt");

/// Every prompt file: its name, its text and its SHA-256 (hex).
pub const PROMPT_FILES: [(&str, &str, &str); 11] = [
    (
        "lawyer_zh.txt",
        LAWYER_ZH,
        "e3e3359f08ccca78d3d60961ba2f28ddd2455c4be6fa70f3f8471404b2db7dbb",
    ),
    (
        "lawyer_en.txt",
        LAWYER_EN,
        "295b02cab94db8cfa76af82015d8d2fcdd81de745097bb0fc386bc750d12be8b",
    ),
    (
        "lawyer_last_call_zh.txt",
        LAST_CALL_ZH,
        "a6fdb73cb1827c55736d4e58bd134f0e2c62b7a7754a675fa78e2aedd613b516",
    ),
    (
        "lawyer_last_call_en.txt",
        LAST_CALL_EN,
        "5c7d8c23daca9ad0ed55e5c73534aef4ddc6daa67edb0fc8c304e993859d177b",
    ),
    (
        "lawyer_budget_zh.txt",
        BUDGET_ZH,
        "5b93643b9fdc6eff244b707fd21d52d91a1884aa332ad047fca2dd92d798c4bc",
    ),
    (
        "lawyer_budget_en.txt",
        BUDGET_EN,
        "a7531419bb32593eb5ade6f46330be8aab44e879eafeaf219f4d61bae9564aa3",
    ),
    (
        "client_zh.txt",
        CLIENT_ZH,
        "6e709b55f8d983f7db2ad5e2fda13270efb3b03bac120de3905be99a3f99f841",
    ),
    (
        "client_en.txt",
        CLIENT_EN,
        "7f4310d94d2c0ac8d7aba21a4566a762dc1dce00fad8fb296b8d1f05303061f2",
    ),
    (
        "personas.json",
        PERSONAS,
        "b421f40e422ec5cb031a0384d84f8b82e4df539b07f5768f92669c24a790ee2a",
    ),
    (
        "judge_rubric.txt",
        JUDGE_RUBRIC,
        "a49228937714a65184d83b9818501b5a8b3bc9dc8b86064a1776e85baa28bcae",
    ),
    (
        "judge_facts.txt",
        JUDGE_FACTS,
        "166a7be650fe086075b5afa026c7e3b82858b0b1d37072fa4bf674dc182efc19",
    ),
];

/// The narrative-style intervention of one style in one language (§A2.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Persona {
    /// The client's interaction stance.
    pub persona_who: String,
    /// The client's surface speaking pattern.
    pub persona_voice: String,
}

type Catalog = BTreeMap<Style, BTreeMap<Language, Persona>>;

/// `personas.json`, read once; a test checks it has every style in both
/// languages, so a build whose file lacks one fails its tests.
static CATALOG: LazyLock<Catalog> =
    LazyLock::new(|| serde_json::from_str(PERSONAS).unwrap_or_default());

/// The style's persona in `language` (ours, →C-D1); `None` only if the
/// compiled-in catalog lacks it, which a test rules out.
///
/// ```
/// use engine::dlawbench::dataset::{Language, Style};
/// use engine::dlawbench::prompts::persona;
/// assert!(persona(Style::Withdrawn, Language::En).unwrap().persona_voice.contains("short"));
/// ```
pub fn persona(style: Style, language: Language) -> Option<&'static Persona> {
    CATALOG.get(&style)?.get(&language)
}

/// Replaces each `{key}` of `values` in `template` in one pass; other
/// braces are kept as they are.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|(_, v)| v.len()).sum::<usize>());
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        let hit = values.iter().find_map(|(key, value)| {
            tail.strip_prefix('{')
                .and_then(|t| t.strip_prefix(key))
                .and_then(|t| t.strip_prefix('}'))
                .map(|after| (value, after))
        });
        match hit {
            Some((value, after)) => {
                out.push_str(value);
                rest = after;
            }
            None => {
                out.push('{');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A chat role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatRole {
    /// The system message.
    System,
    /// The other party.
    User,
    /// The model being called.
    Assistant,
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Who says it.
    pub role: ChatRole,
    /// What is said.
    pub content: String,
}

fn message(role: ChatRole, content: impl Into<String>) -> Message {
    Message {
        role,
        content: content.into(),
    }
}

/// The jurisdiction label in the case's language.
fn jurisdiction_label(jurisdiction: Jurisdiction, language: Language) -> &'static str {
    match language {
        Language::Zh => jurisdiction.label_zh(),
        Language::En => jurisdiction.label_en(),
    }
}

/// The lawyer's ask as it said it: the JSON action.
fn ask_json(content: &str) -> String {
    serde_json::json!({"action": "ask", "message": content}).to_string()
}

/// The lawyer's call after `dialogue` (opening first, §A2.1). `last_call`
/// is the forced call after the horizon, in which only `submit` is allowed.
///
/// ```
/// use engine::dlawbench::dataset::parse_dataset;
/// use engine::dlawbench::prompts::{lawyer_messages, ChatRole};
/// use engine::dlawbench::run::{Role, Turn};
///
/// let case = &parse_dataset(r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "My dog bit a {name}.", "facts": [{"id": "F1", "type": "disputed", "client_belief": "SECRET BELIEF", "court_record": "SECRET RECORD"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#).unwrap()[0];
/// let opening = Turn { role: Role::Client, action: None, content: case.opening.clone(), attempts: None, at: None, usage: None };
/// let messages = lawyer_messages(case, &[opening], 10, false);
/// assert_eq!(messages[0].role, ChatRole::System);
/// assert!(messages[0].content.contains("governed by U.S. law") && messages[0].content.contains("at most 10 questions"));
/// assert_eq!(messages[1].content, "My dog bit a {name}.\n\n[Questions remaining: 10]");
/// assert!(messages.iter().all(|m| !m.content.contains("SECRET")));
/// ```
pub fn lawyer_messages(
    case: &Case,
    dialogue: &[Turn],
    horizon: u32,
    last_call: bool,
) -> Vec<Message> {
    let (system, budget, last) = match case.language {
        Language::Zh => (LAWYER_ZH, BUDGET_ZH, LAST_CALL_ZH),
        Language::En => (LAWYER_EN, BUDGET_EN, LAST_CALL_EN),
    };
    let horizon_text = horizon.to_string();
    let mut messages = vec![message(
        ChatRole::System,
        fill(
            system.trim_end(),
            &[
                (
                    "jurisdiction",
                    jurisdiction_label(case.jurisdiction, case.language),
                ),
                ("horizon", &horizon_text),
            ],
        ),
    )];
    let mut asked = 0u32;
    for turn in dialogue {
        match turn.role {
            Role::Client => messages.push(message(ChatRole::User, turn.content.clone())),
            Role::Lawyer => {
                asked += 1;
                messages.push(message(ChatRole::Assistant, ask_json(&turn.content)));
            }
        }
    }
    let note = if last_call {
        fill(last.trim_end(), &[("horizon", &horizon_text)])
    } else {
        let left = horizon.saturating_sub(asked).to_string();
        fill(budget.trim_end(), &[("turns_left", &left)])
    };
    match messages.last_mut() {
        Some(m) if m.role == ChatRole::User => {
            m.content.push_str("\n\n");
            m.content.push_str(&note);
        }
        _ => messages.push(message(ChatRole::User, note)),
    }
    messages
}

/// The client-belief block: one line per fact, `- belief`.
fn beliefs(case: &Case) -> String {
    case.facts
        .iter()
        .map(|f| format!("- {}", f.client_belief))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The client simulator's call after `dialogue` (whose last turn is the
/// lawyer's ask). It sees the beliefs and the style, never the court
/// record; its own opening is in the system message, so the chat starts
/// with the lawyer's first question.
///
/// ```
/// use engine::dlawbench::dataset::{parse_dataset, Style};
/// use engine::dlawbench::prompts::{client_messages, ChatRole};
/// use engine::dlawbench::run::{Action, Role, Turn};
///
/// let case = &parse_dataset(r#"{"case_id": "C", "jurisdiction": "cn", "domain": "labor", "opening": "我被辞退了。", "facts": [{"id": "F1", "type": "disputed", "client_belief": "公司没给补偿。", "court_record": "公司已支付补偿金。"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#).unwrap()[0];
/// let turn = |role, action, content: &str| Turn { role, action, content: content.into(), attempts: None, at: None, usage: None };
/// let dialogue = [turn(Role::Client, None, "我被辞退了。"), turn(Role::Lawyer, Some(Action::Ask), "什么时候？")];
/// let messages = client_messages(case, Style::Withdrawn, &dialogue);
/// assert!(messages[0].content.contains("- 公司没给补偿。") && !messages[0].content.contains("已支付"));
/// assert!(messages[0].content.contains("回答简短"));
/// assert_eq!((messages[1].role, messages[1].content.as_str()), (ChatRole::User, "什么时候？"));
/// ```
pub fn client_messages(case: &Case, style: Style, dialogue: &[Turn]) -> Vec<Message> {
    let template = match case.language {
        Language::Zh => CLIENT_ZH,
        Language::En => CLIENT_EN,
    };
    let (who, voice) = persona(style, case.language).map_or(("", ""), |p| {
        (p.persona_who.as_str(), p.persona_voice.as_str())
    });
    let beliefs = beliefs(case);
    let mut messages = vec![message(
        ChatRole::System,
        fill(
            template.trim_end(),
            &[
                ("persona_who", who),
                ("persona_voice", voice),
                ("opening", &case.opening),
                ("beliefs", &beliefs),
            ],
        ),
    )];
    for turn in dialogue.iter().skip(1) {
        let role = match turn.role {
            Role::Lawyer => ChatRole::User,
            Role::Client => ChatRole::Assistant,
        };
        messages.push(message(role, turn.content.clone()));
    }
    messages
}

/// The full case record as the judges see it: every fact with its type,
/// client belief and court record.
fn case_record(case: &Case) -> String {
    let mut out = format!("Opening statement: {}\n", case.opening);
    for fact in &case.facts {
        out.push_str(&format!(
            "[{}] ({})\n  client belief: {}\n  court record: {}\n",
            fact.id, fact.fact_type, fact.client_belief, fact.court_record
        ));
    }
    out.trim_end().to_owned()
}

fn numbered(rubrics: &[super::dataset::Rubric]) -> String {
    rubrics
        .iter()
        .enumerate()
        .map(|(i, r)| format!("{}. [{}] {}", i + 1, r.id, r.text))
        .collect::<Vec<_>>()
        .join("\n")
}

fn dialogue_text(dialogue: &[Turn]) -> String {
    dialogue
        .iter()
        .enumerate()
        .map(|(i, t)| format!("[{i}] {}: {}", t.role, t.content))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Judge call 1: the rubric decisions (Inquiry over the dialogue,
/// Issue-resolution over the memo).
///
/// ```
/// use engine::dlawbench::dataset::parse_dataset;
/// use engine::dlawbench::prompts::rubric_judge_prompt;
///
/// let case = &parse_dataset(r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "RECORD"}], "inquiry_rubrics": [{"id": "Q1", "text": "Ask when"}], "issue_rubrics": [{"id": "R1", "text": "Explain duty"}]}"#).unwrap()[0];
/// let prompt = rubric_judge_prompt(case, &[], "the memo");
/// assert!(prompt.contains("court record: RECORD") && prompt.contains("1. [Q1] Ask when") && prompt.contains("the memo"));
/// ```
pub fn rubric_judge_prompt(case: &Case, dialogue: &[Turn], memo: &str) -> String {
    fill(
        JUDGE_RUBRIC.trim_end(),
        &[
            ("jurisdiction", case.jurisdiction.label_en()),
            ("case_record", &case_record(case)),
            ("dialogue", &dialogue_text(dialogue)),
            ("memo", memo),
            ("inquiry_rubrics", &numbered(&case.inquiry_rubrics)),
            ("issue_rubrics", &numbered(&case.issue_rubrics)),
        ],
    )
}

/// Judge call 2: fact coverage and correctness, claim grounding.
pub fn fact_judge_prompt(case: &Case, memo: &str) -> String {
    let facts = case
        .facts
        .iter()
        .map(|f| {
            format!(
                "- {}: client belief: {} | court record: {}",
                f.id, f.client_belief, f.court_record
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    fill(
        JUDGE_FACTS.trim_end(),
        &[
            ("jurisdiction", case.jurisdiction.label_en()),
            ("case_record", &case_record(case)),
            ("memo", memo),
            ("facts", &facts),
        ],
    )
}

/// Why a reply could not be read; the pipeline retries on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyError(pub String);

impl std::fmt::Display for ReplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReplyError {}

fn reply_error(message: impl Into<String>) -> ReplyError {
    ReplyError(message.into())
}

/// The first JSON object in a reply: the whole reply, or inside a code
/// fence or surrounding prose.
fn json_object(reply: &str) -> Result<Map<String, Value>, ReplyError> {
    let text = reply.trim();
    if text.is_empty() {
        return Err(reply_error("the reply is empty"));
    }
    if let Ok(Value::Object(obj)) = serde_json::from_str(text) {
        return Ok(obj);
    }
    for (i, _) in text.match_indices('{') {
        let mut stream = serde_json::Deserializer::from_str(&text[i..]).into_iter::<Value>();
        if let Some(Ok(Value::Object(obj))) = stream.next() {
            return Ok(obj);
        }
    }
    Err(reply_error("the reply holds no JSON object"))
}

/// What the lawyer did in one step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum LawyerAction {
    /// Ask Client.
    Ask {
        /// The question.
        message: String,
    },
    /// Submit Memo; an empty memo is a valid action whose session ends
    /// `empty_memo`.
    Submit {
        /// The memo.
        memo: String,
    },
}

impl LawyerAction {
    /// The wire action.
    pub fn action(&self) -> Action {
        match self {
            LawyerAction::Ask { .. } => Action::Ask,
            LawyerAction::Submit { .. } => Action::Submit,
        }
    }
}

/// Reads the lawyer's reply (§A2.1): one JSON object with `action` `ask`
/// and a non-empty `message`, or `submit` and a `memo` string. An empty or
/// unparsable reply, an `ask` without a question, or an `ask` in the last
/// call (submit only) is an error: the pipeline retries (up to 6 attempts,
/// then `lawyer_error`).
///
/// ```
/// use engine::dlawbench::prompts::{parse_action, LawyerAction};
///
/// assert_eq!(parse_action("```json\n{\"action\": \"ask\", \"message\": \"When?\"}\n```", false),
///            Ok(LawyerAction::Ask { message: "When?".into() }));
/// assert_eq!(parse_action(r#"{"action": "submit", "memo": ""}"#, true), Ok(LawyerAction::Submit { memo: "".into() }));
/// assert!(parse_action(r#"{"action": "ask", "message": "one more?"}"#, true).is_err());
/// assert!(parse_action("I think you should sue.", false).is_err());
/// ```
pub fn parse_action(reply: &str, last_call: bool) -> Result<LawyerAction, ReplyError> {
    let obj = json_object(reply)?;
    let text = |key: &str| obj.get(key).and_then(Value::as_str).map(str::to_owned);
    match obj.get("action").and_then(Value::as_str) {
        Some("ask") if last_call => Err(reply_error(
            "the horizon is reached: only \"submit\" is allowed in the last call",
        )),
        Some("ask") => match text("message") {
            Some(m) if !m.trim().is_empty() => Ok(LawyerAction::Ask { message: m }),
            _ => Err(reply_error(
                "an \"ask\" action needs a non-empty \"message\"",
            )),
        },
        Some("submit") => match text("memo") {
            Some(memo) => Ok(LawyerAction::Submit { memo }),
            None => Err(reply_error("a \"submit\" action needs a \"memo\" string")),
        },
        Some(other) => Err(reply_error(format!(
            "unknown action \"{other}\"; expected \"ask\" or \"submit\""
        ))),
        None => Err(reply_error("the reply has no \"action\"")),
    }
}

/// A judge's rubric decisions (call 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RubricReply {
    /// `expected_action_scores`: 0/1 per Inquiry rubric item.
    pub inquiry: Vec<u8>,
    /// `memo_expectation_scores`: 0/1 per Issue-resolution rubric item.
    pub issue: Vec<u8>,
    /// The judge's rationale, if it gave one.
    pub rationale: Option<String>,
}

fn bits(obj: &Map<String, Value>, key: &str, len: usize) -> Result<Vec<u8>, ReplyError> {
    let list = obj
        .get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| reply_error(format!("\"{key}\" is missing or not an array")))?;
    if list.len() != len {
        return Err(reply_error(format!(
            "\"{key}\" has {} values but the case has {len} items",
            list.len()
        )));
    }
    list.iter()
        .map(|v| match v.as_u64() {
            Some(b @ (0 | 1)) => Ok(b as u8),
            _ => Err(reply_error(format!(
                "\"{key}\" holds {v}; every value is 0 or 1"
            ))),
        })
        .collect()
}

/// Reads judge call 1 (§A2.4): `memo_expectation_scores` and
/// `expected_action_scores` as long as the case's lists, every value 0 or 1.
///
/// ```
/// use engine::dlawbench::dataset::parse_dataset;
/// use engine::dlawbench::prompts::parse_rubric_reply;
///
/// let case = &parse_dataset(r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}, {"id": "Q2", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#).unwrap()[0];
/// let reply = parse_rubric_reply(r#"{"expected_action_scores": [1, 0], "memo_expectation_scores": [1]}"#, case).unwrap();
/// assert_eq!((reply.inquiry, reply.issue), (vec![1, 0], vec![1]));
/// assert!(parse_rubric_reply(r#"{"expected_action_scores": [1], "memo_expectation_scores": [1]}"#, case).is_err());
/// ```
pub fn parse_rubric_reply(reply: &str, case: &Case) -> Result<RubricReply, ReplyError> {
    let obj = json_object(reply)?;
    Ok(RubricReply {
        inquiry: bits(&obj, "expected_action_scores", case.inquiry_rubrics.len())?,
        issue: bits(&obj, "memo_expectation_scores", case.issue_rubrics.len())?,
        rationale: obj
            .get("rationale")
            .and_then(Value::as_str)
            .map(str::to_owned),
    })
}

/// A judge's fact and claim decisions (call 2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FactReply {
    /// Facts the memo mentions.
    pub covered: Vec<String>,
    /// Covered facts stated in the court-record view.
    pub correct: Vec<String>,
    /// Covered facts stated wrongly.
    pub incorrect: Vec<Incorrect>,
    /// Supported claims.
    pub grounded_claims: Vec<String>,
    /// Unsupported claims.
    pub ungrounded_claims: Vec<String>,
    /// |grounded| + |ungrounded|.
    pub total_claims: u32,
    /// The judge's rationale, if it gave one.
    pub rationale: Option<String>,
}

fn strings(obj: &Map<String, Value>, path: &str) -> Result<Vec<String>, ReplyError> {
    let (outer, inner) = path.split_once('.').unwrap_or((path, ""));
    let v = obj.get(outer).and_then(|o| {
        if inner.is_empty() {
            Some(o)
        } else {
            o.get(inner)
        }
    });
    let list = v
        .and_then(Value::as_array)
        .ok_or_else(|| reply_error(format!("\"{path}\" is missing or not an array")))?;
    list.iter()
        .map(|v| {
            v.as_str()
                .map(str::to_owned)
                .ok_or_else(|| reply_error(format!("\"{path}\" holds {v}, not a string")))
        })
        .collect()
}

/// Reads judge call 2 (§A2.4) and checks it against the case: covered ∪
/// missed is every fact id exactly once; correct ∪ incorrect is covered,
/// exactly once; `total_claims` = |grounded| + |ungrounded|.
///
/// ```
/// use engine::dlawbench::dataset::parse_dataset;
/// use engine::dlawbench::prompts::parse_fact_reply;
///
/// let case = &parse_dataset(r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}, {"id": "F2", "type": "undisputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#).unwrap()[0];
/// let reply = r#"{"discovery": {"covered": ["F1"], "missed": ["F2"]}, "accuracy": {"correct": [], "incorrect": [{"fact_id": "F1", "reason": "adopts the belief"}]}, "grounding": {"grounded_claims": ["a"], "ungrounded_claims": ["b"], "total_claims": 2}}"#;
/// assert_eq!(parse_fact_reply(reply, case).unwrap().incorrect[0].fact_id, "F1");
/// assert!(parse_fact_reply(&reply.replace(r#""missed": ["F2"]"#, r#""missed": []"#), case).is_err());
/// ```
pub fn parse_fact_reply(reply: &str, case: &Case) -> Result<FactReply, ReplyError> {
    let obj = json_object(reply)?;
    let covered = strings(&obj, "discovery.covered")?;
    let missed = strings(&obj, "discovery.missed")?;
    let correct = strings(&obj, "accuracy.correct")?;
    let incorrect: Vec<Incorrect> = obj
        .get("accuracy")
        .and_then(|a| a.get("incorrect"))
        .and_then(Value::as_array)
        .ok_or_else(|| reply_error("\"accuracy.incorrect\" is missing or not an array"))?
        .iter()
        .map(|v| {
            let fact_id = v.get("fact_id").and_then(Value::as_str).ok_or_else(|| {
                reply_error(format!(
                    "an \"accuracy.incorrect\" entry has no fact_id: {v}"
                ))
            })?;
            Ok(Incorrect {
                fact_id: fact_id.to_owned(),
                reason: v.get("reason").and_then(Value::as_str).map(str::to_owned),
            })
        })
        .collect::<Result<_, ReplyError>>()?;
    let grounded_claims = strings(&obj, "grounding.grounded_claims")?;
    let ungrounded_claims = strings(&obj, "grounding.ungrounded_claims")?;
    let total_claims = obj
        .get("grounding")
        .and_then(|g| g.get("total_claims"))
        .and_then(Value::as_u64)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| {
            reply_error("\"grounding.total_claims\" is missing or not a whole number")
        })?;

    let ids: Vec<&str> = case.facts.iter().map(|f| f.id.as_str()).collect();
    let exactly_once = |parts: &[&[String]], of: &[&str], what: &str| -> Result<(), ReplyError> {
        let mut seen = HashSet::new();
        for id in parts.iter().flat_map(|p| p.iter()) {
            if !of.contains(&id.as_str()) {
                return Err(reply_error(format!(
                    "{what}: \"{id}\" is not one of {}",
                    of.join(", ")
                )));
            }
            if !seen.insert(id.as_str()) {
                return Err(reply_error(format!(
                    "{what}: \"{id}\" is listed more than once"
                )));
            }
        }
        if seen.len() != of.len() {
            return Err(reply_error(format!(
                "{what}: every one of {} must be listed exactly once",
                of.join(", ")
            )));
        }
        Ok(())
    };
    exactly_once(&[&covered, &missed], &ids, "discovery")?;
    let wrong: Vec<String> = incorrect.iter().map(|i| i.fact_id.clone()).collect();
    let covered_ids: Vec<&str> = covered.iter().map(String::as_str).collect();
    exactly_once(&[&correct, &wrong], &covered_ids, "accuracy")?;
    if total_claims as usize != grounded_claims.len() + ungrounded_claims.len() {
        return Err(reply_error(format!(
            "grounding: total_claims is {total_claims} but {} claims are listed",
            grounded_claims.len() + ungrounded_claims.len()
        )));
    }
    Ok(FactReply {
        covered,
        correct,
        incorrect,
        grounded_claims,
        ungrounded_claims,
        total_claims,
        rationale: obj
            .get("rationale")
            .and_then(Value::as_str)
            .map(str::to_owned),
    })
}

/// A judge's two replies as the run file's decisions, and its rationale
/// (the two rationales joined by a blank line).
pub fn decisions(rubric: RubricReply, facts: FactReply) -> (Decisions, Option<String>) {
    let rationale: Vec<String> = [rubric.rationale, facts.rationale]
        .into_iter()
        .flatten()
        .collect();
    let decisions = Decisions {
        inquiry: rubric.inquiry,
        issue: rubric.issue,
        covered: facts.covered,
        correct: facts.correct,
        claims_total: facts.total_claims,
        claims_grounded: facts.grounded_claims.len() as u32,
        ungrounded_claims: Some(facts.ungrounded_claims),
        incorrect: Some(facts.incorrect),
    };
    (
        decisions,
        (!rationale.is_empty()).then(|| rationale.join("\n\n")),
    )
}
