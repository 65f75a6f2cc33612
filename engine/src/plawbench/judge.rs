//! PLawBench prompts and judge replies (`docs/benchmarks/plawbench.md`
//! §B2.1–§B2.3, Appendix 1).
//!
//! - The verbatim prompts of Appendix 1, kept as text files under
//!   `engine/prompts/plawbench/` and compiled in: [`task_instructions`],
//!   [`user_template`], [`judge_system_template`], [`judge_user_template`].
//!   A test checks each one's length and SHA-256 against the spec.
//! - [`render_model_prompt`]: `TASK_INSTRUCTIONS[judge_type] +
//!   USER_PROMPTS[judge_type]` with `{context}` and `{question}` substituted
//!   literally, in one pass: braces inside the values are never read again.
//! - [`render_judge_prompts`]: the system prompt (`<<num>>` → 25 for
//!   `legal_qa`) and the user prompt, where `<<conversation>>`,
//!   `<<rubric_item>>` and `<<score>>` are replaced in that order, each
//!   everywhere in the text so far, as Python's `str.replace` does (a
//!   placeholder inside the model's answer is replaced too, as in evalscope).
//! - [`parse_judge_reply`]: the reply read in `strict` or `lenient` mode
//!   (§B2.3) into the raw awarded points of the item.
//!
//! Depends on [`super::dataset`], [`super::run`], serde_json and regex.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::dataset::{Item, JudgeType};
use super::run::{Awarded, ParseMode};

/// `TASK_INSTRUCTIONS[judge_type]`, the opening of the model prompt.
///
/// ```
/// use engine::plawbench::dataset::JudgeType;
/// use engine::plawbench::judge::task_instructions;
/// assert_eq!(task_instructions(JudgeType::LegalQa).chars().count(), 701);
/// ```
pub const fn task_instructions(judge_type: JudgeType) -> &'static str {
    match judge_type {
        JudgeType::LegalQa => include_str!("../../prompts/plawbench/task_legal_qa.txt"),
        JudgeType::CaseAnalysis => include_str!("../../prompts/plawbench/task_case_analysis.txt"),
        JudgeType::DocumentGeneration => {
            include_str!("../../prompts/plawbench/task_document_generation.txt")
        }
    }
}

/// `USER_PROMPTS[judge_type]`, with `{context}` and `{question}`.
pub const fn user_template(judge_type: JudgeType) -> &'static str {
    match judge_type {
        JudgeType::CaseAnalysis => include_str!("../../prompts/plawbench/user_case_analysis.txt"),
        JudgeType::LegalQa | JudgeType::DocumentGeneration => {
            include_str!("../../prompts/plawbench/user_question.txt")
        }
    }
}

/// `JUDGE_SYSTEM_PROMPTS[judge_type]`, before `<<num>>` is replaced.
pub const fn judge_system_template(judge_type: JudgeType) -> &'static str {
    match judge_type {
        JudgeType::LegalQa => include_str!("../../prompts/plawbench/judge_system_legal_qa.txt"),
        JudgeType::CaseAnalysis => {
            include_str!("../../prompts/plawbench/judge_system_case_analysis.txt")
        }
        JudgeType::DocumentGeneration => {
            include_str!("../../prompts/plawbench/judge_system_document_generation.txt")
        }
    }
}

/// `JUDGE_USER_PROMPTS[judge_type]`, with `<<conversation>>`,
/// `<<rubric_item>>` and (but for `case_analysis`) `<<score>>`.
pub const fn judge_user_template(judge_type: JudgeType) -> &'static str {
    match judge_type {
        JudgeType::CaseAnalysis => {
            include_str!("../../prompts/plawbench/judge_user_case_analysis.txt")
        }
        JudgeType::LegalQa | JudgeType::DocumentGeneration => {
            include_str!("../../prompts/plawbench/judge_user_points.txt")
        }
    }
}

/// How many questions of a consultation reply the judge reads
/// (evalscope's `CONSULTATION_MAX_QUESTIONS`, the released mid level).
pub const CONSULTATION_MAX_QUESTIONS: u32 = 25;

/// Substitutes `{context}` and `{question}` in `template` in one pass: the
/// values are copied as they are, whatever braces they hold.
fn substitute(template: &str, context: &str, question: &str) -> String {
    let mut out = String::with_capacity(template.len() + context.len() + question.len());
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        if let Some(after) = tail.strip_prefix("{context}") {
            out.push_str(context);
            rest = after;
        } else if let Some(after) = tail.strip_prefix("{question}") {
            out.push_str(question);
            rest = after;
        } else {
            out.push('{');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// The model prompt of an item (§B2.1): one user message, no system message.
///
/// ```
/// use engine::plawbench::dataset::parse_dataset;
/// use engine::plawbench::judge::{render_model_prompt, task_instructions};
///
/// let items = parse_dataset(r#"{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "我要离婚，{context} 不是占位符", "rubric": "r", "max_points": 5}"#).unwrap();
/// let prompt = render_model_prompt(&items[0]);
/// assert!(prompt.starts_with(task_instructions(items[0].judge_type())));
/// assert!(prompt.ends_with("\n## 问题\n我要离婚，{context} 不是占位符\n"));
/// ```
pub fn render_model_prompt(item: &Item) -> String {
    let judge_type = item.judge_type();
    let mut prompt = task_instructions(judge_type).to_owned();
    prompt.push_str(&substitute(
        user_template(judge_type),
        &item.context,
        &item.question,
    ));
    prompt
}

/// The two messages of a judge call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgePrompts {
    /// The system message.
    pub system: String,
    /// The user message.
    pub user: String,
}

/// The judge messages for `item`, given the model `prompt` and its
/// `response` (§B2.2).
///
/// ```
/// use engine::plawbench::dataset::parse_dataset;
/// use engine::plawbench::judge::render_judge_prompts;
///
/// let items = parse_dataset(r#"{"item_id": "plaintiff_statement-1", "task": "plaintiff_statement", "question": "q", "rubric": "1.(+10分) 诉讼请求明确", "max_points": 10}"#).unwrap();
/// let judge = render_judge_prompts(&items[0], "P", "答 <<score>>");
/// assert!(judge.user.starts_with("\n# 问答内容\nuser: P\n\nassistant: 答 10\n\n\n\n# 评分细则\n1.(+10分) 诉讼请求明确\n\n# 该题总分\n10\n"));
/// assert!(!judge.system.contains("<<"));
/// ```
pub fn render_judge_prompts(item: &Item, prompt: &str, response: &str) -> JudgePrompts {
    let judge_type = item.judge_type();
    let mut system = judge_system_template(judge_type).to_owned();
    if judge_type == JudgeType::LegalQa {
        system = system.replace("<<num>>", &CONSULTATION_MAX_QUESTIONS.to_string());
    }
    let conversation = format!("user: {prompt}\n\nassistant: {response}\n\n");
    let user = judge_user_template(judge_type)
        .replace("<<conversation>>", &conversation)
        .replace("<<rubric_item>>", &item.judge_rubric())
        .replace("<<score>>", &item.max_points.to_string());
    JudgePrompts { system, user }
}

/// A judge reply read into points.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedReply {
    /// The raw points (before clamping) of the item's sections, or its total.
    pub awarded: Awarded,
    /// The judge's own `max_points` (not `case_analysis`), for display.
    pub reported_max: Option<f64>,
}

/// Why a reply gives no points; the text is the reason recorded in
/// `judgements[].unavailable` (`parse_error: …`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyError(pub String);

impl std::fmt::Display for ReplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReplyError {}

fn parse_error(message: impl Into<String>) -> ReplyError {
    ReplyError(format!("parse_error: {}", message.into()))
}

/// The top-level `{…}` blocks of a reply, found by brace scanning that knows
/// JSON strings (inside a block only: prose quotes do not count), and the
/// unterminated block that ends the reply, if any.
fn blocks(reply: &str) -> (Vec<&str>, Option<&str>) {
    let mut found = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for (i, c) in reply.char_indices() {
        if depth == 0 {
            if c == '{' {
                depth = 1;
                start = i;
            }
            continue;
        }
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    found.push(&reply[start..=i]);
                }
            }
            _ => {}
        }
    }
    let open = (depth > 0).then(|| &reply[start..]);
    (found, open)
}

static TRAILING_COMMA: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r",\s*([}\]])").expect("a valid pattern"));
static FIRST_NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"-?\d+(?:\.\d+)?").expect("a valid pattern"));

/// Closes unterminated strings and open arrays and objects, and drops
/// closers that close nothing.
fn repair(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut open: Vec<char> = Vec::new();
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' => {
                open.push('}');
                out.push(c);
            }
            '[' => {
                open.push(']');
                out.push(c);
            }
            '}' | ']' => {
                if open.last() == Some(&c) {
                    open.pop();
                    out.push(c);
                }
            }
            c => out.push(c),
        }
    }
    if in_string {
        if escaped {
            out.pop();
        }
        out.push('"');
    }
    while let Some(closer) = open.pop() {
        out.push(closer);
    }
    out
}

/// A number that strict mode accepts: a JSON number, or a string holding
/// just a number (`"12"`, `"12.5"`; not `"12分"`).
fn strict_number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => {
            let s = s.trim();
            let plain = !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
            plain.then(|| s.parse::<f64>().ok()).flatten()
        }
        _ => None,
    }
    .filter(|x| x.is_finite())
}

/// evalscope's `_to_float`: a bool is 0, a number itself, a string its first
/// `-?\d+(?:\.\d+)?` (0 without one), anything else 0.
fn to_float(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap_or(0.0),
        Value::String(s) => FIRST_NUMBER
            .find(s)
            .and_then(|m| m.as_str().parse().ok())
            .unwrap_or(0.0),
        _ => 0.0,
    }
}

/// Reads a judge reply on `item` in `mode` (§B2.3).
///
/// - `strict`: exactly one top-level object, valid JSON as it is; for
///   `case_analysis`, `score_details` an object whose every value is an
///   object with a numeric `total_points`, every section of the item among
///   its keys; otherwise a numeric `total_points` and, if present, a numeric
///   `max_points`. Numbers may be strings holding only a number.
/// - `lenient`: every top-level object (and an unterminated last one), tried
///   last to first, each as it is and then repaired, trailing commas removed;
///   the first that parses to an object wins; the same keys are required and
///   values are read with `_to_float`.
///
/// # Examples
///
/// ```
/// use engine::plawbench::dataset::parse_dataset;
/// use engine::plawbench::judge::parse_judge_reply;
/// use engine::plawbench::run::{Awarded, ParseMode};
///
/// let items = parse_dataset(r#"{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "q", "rubric": "r", "max_points": 16}"#).unwrap();
/// // The judge copied the template's trailing comma.
/// let reply = "总分为12/16\n```json\n    {\n        \"total_points\": 12,\n        \"max_points\": 16,\n    },\n```";
/// assert!(parse_judge_reply(reply, &items[0], ParseMode::Strict).is_err());
/// let parsed = parse_judge_reply(reply, &items[0], ParseMode::Lenient).unwrap();
/// assert_eq!((parsed.awarded, parsed.reported_max), (Awarded::Points(12.0), Some(16.0)));
/// ```
pub fn parse_judge_reply(
    reply: &str,
    item: &Item,
    mode: ParseMode,
) -> Result<ParsedReply, ReplyError> {
    let object = match mode {
        ParseMode::Strict => strict_object(reply)?,
        ParseMode::Lenient => lenient_object(reply)?,
    };
    let number = |v: &Value, path: &str| -> Result<f64, ReplyError> {
        match mode {
            ParseMode::Strict => {
                strict_number(v).ok_or_else(|| parse_error(format!("{path} is not a number")))
            }
            ParseMode::Lenient => Ok(to_float(v)),
        }
    };
    let sections = item.section_max();
    if sections.is_empty() {
        let total = object
            .get("total_points")
            .ok_or_else(|| parse_error("no total_points"))?;
        let awarded = number(total, "total_points")?;
        let reported_max = match object.get("max_points") {
            None | Some(Value::Null) => None,
            Some(v) => Some(number(v, "max_points")?),
        };
        return Ok(ParsedReply {
            awarded: Awarded::Points(awarded),
            reported_max,
        });
    }
    let details = object
        .get("score_details")
        .and_then(Value::as_object)
        .ok_or_else(|| parse_error("no score_details object"))?;
    if mode == ParseMode::Strict {
        for (key, value) in details {
            let total = value
                .as_object()
                .and_then(|o| o.get("total_points"))
                .ok_or_else(|| parse_error(format!("score_details.{key} has no total_points")))?;
            number(total, &format!("score_details.{key}.total_points"))?;
        }
    }
    let mut awarded = BTreeMap::new();
    for &section in sections.keys() {
        let key = section.judge_key();
        let total = details
            .get(key)
            .and_then(Value::as_object)
            .and_then(|o| o.get("total_points"))
            .ok_or_else(|| parse_error(format!("score_details has no section {key}")))?;
        awarded.insert(
            section,
            number(total, &format!("score_details.{key}.total_points"))?,
        );
    }
    Ok(ParsedReply {
        awarded: Awarded::Sections(awarded),
        reported_max: None,
    })
}

fn strict_object(reply: &str) -> Result<serde_json::Map<String, Value>, ReplyError> {
    let (found, open) = blocks(reply);
    if open.is_some() {
        return Err(parse_error("reply has an unterminated JSON object"));
    }
    let [block] = found.as_slice() else {
        return Err(parse_error(format!(
            "reply has {} top-level JSON objects; exactly one is required",
            found.len()
        )));
    };
    match serde_json::from_str::<Value>(block) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err(parse_error("reply is not a JSON object")),
        Err(_) => Err(parse_error("reply is not valid JSON")),
    }
}

fn lenient_object(reply: &str) -> Result<serde_json::Map<String, Value>, ReplyError> {
    let (mut found, open) = blocks(reply);
    found.extend(open);
    for block in found.iter().rev() {
        for candidate in [block.to_string(), repair(block)] {
            let cleaned = TRAILING_COMMA.replace_all(&candidate, "$1");
            if let Ok(Value::Object(object)) = serde_json::from_str::<Value>(&cleaned) {
                return Ok(object);
            }
        }
    }
    Err(parse_error("reply has no JSON object that can be read"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plawbench::dataset::{parse_dataset, Section};

    fn items() -> Vec<Item> {
        parse_dataset(concat!(
            r#"{"item_id": "case_analysis-1", "task": "case_analysis", "context": "c", "question": "q", "sections": [{"criterion": "a", "points": "5", "tags": "结论得分"}, {"criterion": "b", "points": "20", "tags": "案情简述得分"}], "max_points": 25}"#,
            "\n",
            r#"{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "q", "rubric": "r", "max_points": 16}"#,
        ))
        .unwrap()
    }

    fn both(
        reply: &str,
        item: &Item,
    ) -> (
        Result<ParsedReply, ReplyError>,
        Result<ParsedReply, ReplyError>,
    ) {
        (
            parse_judge_reply(reply, item, ParseMode::Strict),
            parse_judge_reply(reply, item, ParseMode::Lenient),
        )
    }

    fn points(x: f64) -> Awarded {
        Awarded::Points(x)
    }

    #[test]
    fn two_blocks_fail_strict_and_the_last_wins_lenient() {
        let items = items();
        let reply = r#"草稿 {"total_points": 3} 终稿 {"total_points": 9, "max_points": 16}"#;
        let (strict, lenient) = both(reply, &items[1]);
        assert_eq!(
            strict.unwrap_err().0,
            "parse_error: reply has 2 top-level JSON objects; exactly one is required"
        );
        assert_eq!(lenient.unwrap().awarded, points(9.0));
    }

    #[test]
    fn prose_around_json_is_fine_in_both_modes() {
        let items = items();
        let reply = "分析如下：要点1 得分 {\"不\" 在此}？\n最终：\n```json\n{\"total_points\": \"12\", \"max_points\": 16}\n```\n以上。";
        // The first brace pair in prose is a block of its own for strict mode.
        let (strict, lenient) = both(reply, &items[1]);
        assert!(strict.is_err());
        assert_eq!(lenient.unwrap().awarded, points(12.0));
        let clean =
            "分析如下：\n```json\n{\"total_points\": \"12\", \"max_points\": 16}\n```\n以上。";
        let (strict, lenient) = both(clean, &items[1]);
        assert_eq!(strict.unwrap().awarded, points(12.0));
        assert_eq!(lenient.unwrap().awarded, points(12.0));
    }

    #[test]
    fn points_with_units_fail_strict_and_are_coerced_lenient() {
        let items = items();
        let reply = r#"{"total_points": "12分", "max_points": "16分"}"#;
        let (strict, lenient) = both(reply, &items[1]);
        assert_eq!(
            strict.unwrap_err().0,
            "parse_error: total_points is not a number"
        );
        let lenient = lenient.unwrap();
        assert_eq!(
            (lenient.awarded, lenient.reported_max),
            (points(12.0), Some(16.0))
        );
        let odd = r#"{"total_points": true, "max_points": "满分"}"#;
        let lenient = parse_judge_reply(odd, &items[1], ParseMode::Lenient).unwrap();
        assert_eq!(
            (lenient.awarded, lenient.reported_max),
            (points(0.0), Some(0.0))
        );
    }

    #[test]
    fn unterminated_blocks_are_repaired_only_in_lenient_mode() {
        let items = items();
        let reply = "```json\n{\"score_details\": {\"结论\": {\"total_points\": 5, \"breakdown\": [{\"rationale\": \"好";
        let (strict, lenient) = both(reply, &items[0]);
        assert_eq!(
            strict.unwrap_err().0,
            "parse_error: reply has an unterminated JSON object"
        );
        let err = lenient.unwrap_err().0;
        assert_eq!(err, "parse_error: score_details has no section 案件事实");
        let complete = "{\"score_details\": {\"结论\": {\"total_points\": 5}, \"案件事实\": {\"total_points\": 15.5, \"breakdown\": [";
        let lenient = parse_judge_reply(complete, &items[0], ParseMode::Lenient).unwrap();
        assert_eq!(
            lenient.awarded,
            Awarded::Sections([(Section::Conclusion, 5.0), (Section::Facts, 15.5)].into())
        );
    }

    #[test]
    fn stray_closers_are_dropped_and_strings_closed() {
        assert_eq!(repair(r#"{"a": [1, 2}]"#), r#"{"a": [1, 2]}"#);
        assert_eq!(repair(r#"{"a": "x\"#), r#"{"a": "x"}"#);
        assert_eq!(repair(r#"{"a": {"b": "c"#), r#"{"a": {"b": "c"}}"#);
    }

    #[test]
    fn strict_checks_every_score_details_value() {
        let items = items();
        let reply = r#"{"score_details": {"结论": {"total_points": 5}, "案件事实": {"total_points": 12}, "others": {"total_points": "n/a"}}}"#;
        let (strict, lenient) = both(reply, &items[0]);
        assert_eq!(
            strict.unwrap_err().0,
            "parse_error: score_details.others.total_points is not a number"
        );
        assert!(lenient.is_ok());
        let extra = r#"{"score_details": {"结论": {"total_points": "5", "max_points": 5, "breakdown": []}, "案件事实": {"total_points": 21}, "法条依据": {"total_points": 3}}, "total_score": {}, "overall_feedback": {}}"#;
        assert_eq!(
            parse_judge_reply(extra, &items[0], ParseMode::Strict)
                .unwrap()
                .awarded,
            Awarded::Sections([(Section::Conclusion, 5.0), (Section::Facts, 21.0)].into())
        );
    }

    #[test]
    fn braces_inside_strings_do_not_end_a_block() {
        let items = items();
        let reply = r#"结果 {"note": "得分 } 与 { 无关", "total_points": 7}"#;
        let (strict, lenient) = both(reply, &items[1]);
        assert_eq!(strict.unwrap().awarded, points(7.0));
        assert_eq!(lenient.unwrap().awarded, points(7.0));
    }

    #[test]
    fn model_prompt_values_are_not_read_again() {
        assert_eq!(
            substitute("a{context}b{question}c{x}", "{question}", "Q"),
            "a{question}bQc{x}"
        );
    }
}
