//! The stub's script for the Targeted vs Off-target experiment
//! ([`crate::targeted`]), on top of the LexPilot [`oracle`](super::oracle):
//! by each case's index `i` in the dataset and the attempt the
//! construction prompt names,
//!
//! - **Construction**: a question marked with its case, condition,
//!   attempt and round.
//! - **User**: to a Targeted question, an answer marked
//!   [`ANSWER`](super::ANSWER) (so the direct prediction on the dialogue
//!   gives the gold verdicts); to an Off-target question, `我不太清楚。`
//!   (so it gives all `supported`), except where `i % 4 == 3`, where the user
//!   leaks the facts (marked).
//! - **Validation judge**: Targeted: every missing fact recovered (user turn
//!   1), except at attempt 1 where `i % 3 == 1` (the first missing fact
//!   absent: rejected, accepted at attempt 2). Off-target: every fact absent,
//!   except where the user leaked (the first fact recovered: rejected five
//!   times, unresolved) and at attempt 1 where `i % 4 == 1` (a
//!   `beyond_scope` violation: rejected once). Where `i % 3 == 2` the first
//!   reply to each validation prompt is not JSON (the judge is asked again).
//! - Everything else is the oracle's.
//!
//! So over cases `i`: Targeted takes 2 attempts where `i % 3 == 1`, else 1,
//! and is always accepted with the gold verdicts; Off-target is unresolved
//! after 5 attempts where `i % 4 == 3`, takes 2 where `i % 4 == 1`, else 1,
//! and predicts all `supported`.

use engine::lexpilot::dataset::Case;
use serde_json::json;

use super::{identify, last_mark, oracle as lexpilot_oracle, PromptKind, StubCall, StubReply};
use super::{ANSWER, MARK};

/// The number between `<tag>` and `</tag>` in `prompt`.
fn tagged(prompt: &str, tag: &str) -> Option<usize> {
    let open = format!("<{tag}>");
    let start = prompt.find(&open)? + open.len();
    let end = prompt[start..].find(&format!("</{tag}>"))? + start;
    prompt[start..end].trim().parse().ok()
}

/// The script of the [module documentation](self) for `cases`.
pub fn oracle(cases: &[Case]) -> impl Fn(&StubCall) -> StubReply + Send + Sync + 'static {
    let cases = cases.to_vec();
    let fallback = lexpilot_oracle(&cases);
    move |call: &StubCall| {
        let prompt = call.prompt.as_str();
        let found = identify(&cases, prompt).map(|(i, _)| i);
        match (call.kind, found) {
            (PromptKind::TargetedConstruct | PromptKind::OffTargetConstruct, Some(i)) => {
                let cond = if call.kind == PromptKind::TargetedConstruct {
                    "targeted"
                } else {
                    "off_target"
                };
                let attempt = tagged(prompt, "构建次数").unwrap_or(0);
                let round = tagged(prompt, "当前轮次").unwrap_or(0);
                StubReply::Text(format!(
                    "{MARK}{} say=ask cond={cond} try={attempt} round={round}]] 请问您能具体说说当时的情况吗？",
                    cases[i].case_id
                ))
            }
            (PromptKind::User, Some(i))
                if last_mark(prompt).is_some_and(|m| m.contains_key("cond")) =>
            {
                let targeted =
                    last_mark(prompt).and_then(|m| m.get("cond").copied()) == Some("targeted");
                if targeted {
                    StubReply::Text(format!("{ANSWER} 是的，情况是这样的，我记得很清楚。"))
                } else if i % 4 == 3 {
                    StubReply::Text(format!("{ANSWER} [[leak]] 其实那件事我也顺便说一下。"))
                } else {
                    StubReply::Text("我不太清楚。".into())
                }
            }
            (PromptKind::TargetedValidate, Some(i)) => {
                if i % 3 == 2 && call.seen == 0 {
                    return StubReply::Text("我认为对话基本合格。".into());
                }
                let case = &cases[i];
                let mark = last_mark(prompt).unwrap_or_default();
                let targeted = mark.get("cond") == Some(&"targeted");
                let attempt: usize = mark.get("try").and_then(|t| t.parse().ok()).unwrap_or(0);
                let leaked = prompt.contains("[[leak]]");
                let facts: Vec<_> = case
                    .missing_key_facts()
                    .enumerate()
                    .map(|(n, k)| {
                        let recovered = if targeted {
                            !(n == 0 && i % 3 == 1 && attempt == 1)
                        } else {
                            n == 0 && leaked
                        };
                        if recovered {
                            json!({"id": k.id, "status": "recovered", "turns": [1]})
                        } else {
                            json!({"id": k.id, "status": "absent", "turns": []})
                        }
                    })
                    .collect();
                let violations: Vec<_> = if !targeted && i % 4 == 1 && attempt == 1 {
                    vec![json!({"kind": "beyond_scope", "turn": 2, "detail": "回答超出了问题范围"})]
                } else {
                    Vec::new()
                };
                StubReply::Text(json!({"facts": facts, "violations": violations}).to_string())
            }
            _ => fallback(call),
        }
    }
}
