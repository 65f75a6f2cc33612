//! Reading judges' replies: the LCA strategy, the DCG acceptance and the LJP
//! verdict list, each validated, with an error that says what was wrong so a
//! malformed reply can be retried and, if it stays malformed, reported.
//!
//! Pure functions over `&str`. Every reader first drops a leading reasoning
//! block (`<think>…</think>`, as reasoning judges such as DeepSeek-R1 may
//! return it inline).

use engine::vocab::{LcaLabel, Verdict};
use serde_json::Value;

/// A judge reply that does not say what its prompt asks for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what}; the reply was {excerpt:?}")]
pub struct ParseError {
    /// What was expected and not found.
    pub what: String,
    /// The start of the reply.
    pub excerpt: String,
}

fn error(what: impl Into<String>, reply: &str) -> ParseError {
    const SHOWN: usize = 120;
    let mut excerpt: String = reply.chars().take(SHOWN).collect();
    if reply.chars().nth(SHOWN).is_some() {
        excerpt.push('…');
    }
    ParseError {
        what: what.into(),
        excerpt,
    }
}

/// The reply without a leading `<think>…</think>` block.
pub fn strip_reasoning(reply: &str) -> &str {
    let trimmed = reply.trim_start();
    match trimmed.strip_prefix("<think>").and_then(|rest| {
        rest.find("</think>")
            .map(|end| &rest[end + "</think>".len()..])
    }) {
        Some(after) => after.trim(),
        None => reply.trim(),
    }
}

/// The reply with whitespace, quotes, punctuation and Markdown emphasis
/// removed, for one-word answers.
fn bare(reply: &str) -> String {
    strip_reasoning(reply)
        .chars()
        .filter(|c| {
            !c.is_whitespace()
                && !matches!(
                    c,
                    '"' | '\''
                        | '`'
                        | '*'
                        | '#'
                        | '“'
                        | '”'
                        | '‘'
                        | '’'
                        | '「'
                        | '」'
                        | '【'
                        | '】'
                        | '。'
                        | '.'
                        | '，'
                        | ','
                        | '：'
                        | ':'
                        | '！'
                        | '!'
                )
        })
        .collect()
}

/// The LCA judge's strategy: `策略一` → [`LcaLabel::Predict`], `策略二` →
/// [`LcaLabel::Ask`]. A reply naming both or neither is an error.
///
/// # Examples
///
/// ```
/// use engine::vocab::LcaLabel;
/// use pipeline::parse::parse_strategy;
///
/// assert_eq!(parse_strategy("策略一"), Ok(LcaLabel::Predict));
/// assert_eq!(parse_strategy("<think>像是追问</think>\n“策略二”。"), Ok(LcaLabel::Ask));
/// assert!(parse_strategy("策略一或策略二").is_err());
/// assert!(parse_strategy("").is_err());
/// ```
pub fn parse_strategy(reply: &str) -> Result<LcaLabel, ParseError> {
    let b = bare(reply);
    let exact = match b.to_lowercase().as_str() {
        "策略一" | "策略1" | "strategy1" => Some(LcaLabel::Predict),
        "策略二" | "策略2" | "strategy2" => Some(LcaLabel::Ask),
        _ => None,
    };
    if let Some(label) = exact {
        return Ok(label);
    }
    let one = b.contains("策略一");
    let two = b.contains("策略二");
    match (one, two) {
        (true, false) => Ok(LcaLabel::Predict),
        (false, true) => Ok(LcaLabel::Ask),
        (true, true) => Err(error("names both 策略一 and 策略二", reply)),
        (false, false) => Err(error("expected 策略一 or 策略二", reply)),
    }
}

/// The DCG judge's decision: `是` (accepted) or `否` (rejected); `Yes` / `No`
/// are read too. Anything else is an error.
///
/// # Examples
///
/// ```
/// use pipeline::parse::parse_acceptance;
///
/// assert_eq!(parse_acceptance("是"), Ok(true));
/// assert_eq!(parse_acceptance(" 否。\n"), Ok(false));
/// assert!(parse_acceptance("不是很确定").is_err());
/// ```
pub fn parse_acceptance(reply: &str) -> Result<bool, ParseError> {
    match bare(reply).to_lowercase().as_str() {
        "是" | "yes" => Ok(true),
        "否" | "no" => Ok(false),
        _ => Err(error("expected 是 or 否", reply)),
    }
}

/// One extracted verdict label, Chinese as the prompt asks or the wire /
/// English name.
fn verdict(label: &str) -> Option<Verdict> {
    let l = label.trim().to_lowercase().replace([' ', '-'], "_");
    match l.as_str() {
        "支持" | "supported" => Some(Verdict::Supported),
        "部分支持" | "partially_supported" => Some(Verdict::PartiallySupported),
        "驳回" | "被驳回" | "不支持" | "dismissed" => Some(Verdict::Dismissed),
        _ => None,
    }
}

/// The LJP extraction judge's verdicts: a JSON object `{"results": [...]}`
/// (a Markdown fence or text around it is tolerated) with exactly `claims`
/// labels from 支持 / 部分支持 / 驳回.
///
/// # Examples
///
/// ```
/// use engine::vocab::Verdict;
/// use pipeline::parse::parse_verdicts;
///
/// assert_eq!(
///     parse_verdicts(r#"{ "results": ["驳回", "部分支持"] }"#, 2),
///     Ok(vec![Verdict::Dismissed, Verdict::PartiallySupported])
/// );
/// assert!(parse_verdicts(r#"{"results": ["驳回"]}"#, 2).is_err()); // wrong count
/// assert!(parse_verdicts(r#"{"results": ["胜诉"]}"#, 1).is_err()); // unknown label
/// assert!(parse_verdicts("支持", 1).is_err()); // no JSON
/// ```
pub fn parse_verdicts(reply: &str, claims: usize) -> Result<Vec<Verdict>, ParseError> {
    let text = strip_reasoning(reply);
    let (Some(start), Some(end)) = (text.find('{'), text.rfind('}')) else {
        return Err(error("expected a JSON object {\"results\": [...]}", reply));
    };
    if end < start {
        return Err(error("expected a JSON object {\"results\": [...]}", reply));
    }
    let value: Value = serde_json::from_str(&text[start..=end])
        .map_err(|e| error(format!("the JSON does not parse ({e})"), reply))?;
    let Some(results) = value.get("results").and_then(Value::as_array) else {
        return Err(error("the JSON has no \"results\" list", reply));
    };
    if results.len() != claims {
        return Err(error(
            format!(
                "\"results\" has {} label(s) but the case has {claims} claim(s)",
                results.len()
            ),
            reply,
        ));
    }
    results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            r.as_str().and_then(verdict).ok_or_else(|| {
                error(
                    format!("results[{i}] is {r}, not one of 支持, 部分支持, 驳回"),
                    reply,
                )
            })
        })
        .collect()
}

/// Whether a self-correcting user model's reply after a verdict says it has
/// nothing to correct ([`crate::prompts::NO_CORRECTION`]).
pub fn is_no_correction(reply: &str) -> bool {
    bare(reply) == crate::prompts::NO_CORRECTION
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasoning_blocks_are_dropped_only_in_front() {
        assert_eq!(strip_reasoning("<think>a</think> 是"), "是");
        assert_eq!(
            strip_reasoning("是 <think>a</think>"),
            "是 <think>a</think>"
        );
        assert_eq!(
            strip_reasoning("<think>never closed"),
            "<think>never closed"
        );
    }

    #[test]
    fn verdicts_tolerate_fences_and_english() {
        let fenced = "```json\n{\"results\": [\"Partially Supported\", \"被驳回\"]}\n```";
        assert_eq!(
            parse_verdicts(fenced, 2),
            Ok(vec![Verdict::PartiallySupported, Verdict::Dismissed])
        );
        let e = parse_verdicts("{\"results\": [1]}", 1).unwrap_err();
        assert!(e.what.contains("results[0]"), "{e}");
        assert!(parse_verdicts("} {", 1).is_err());
    }

    #[test]
    fn excerpts_are_cut() {
        let long = "x".repeat(500);
        let e = parse_acceptance(&long).unwrap_err();
        assert_eq!(e.excerpt.chars().count(), 121);
    }

    #[test]
    fn no_correction_is_exact() {
        assert!(is_no_correction("无需补充。"));
        assert!(!is_no_correction("无需补充，不过我记错了金额"));
    }
}
