//! A script playing DLawBench's lawyer, client simulator and judges for a
//! dataset's cases, deterministically by each case's index `i` in the
//! dataset (the case whose opening the request holds, [`case_index`]):
//!
//! - the **lawyer** asks [`questions`]`(i)` questions (`i % 3`: 0, 1 or 2),
//!   each marked [`ASK`], then submits a memo marked [`MEMO`]; in the
//!   submit-only call after the horizon it submits at once;
//! - the **client** answers every question with a line marked [`ANSWER`];
//! - a **judge**'s rubric call scores every Inquiry item 1 and the Issue
//!   items 1, 0, 1, …; its fact call covers every fact, finds the first
//!   correct and the others incorrect, and counts 4 claims, 3 grounded
//!   ([`rubric_reply`], [`fact_reply`]).
//!
//! Anything else gets a 400. Tests wrap [`oracle`] to add failures, using
//! [`case_index`] to tell which case a call is about.

use engine::dlawbench::dataset::Case;
use serde_json::json;

use super::{PromptKind, StubCall, StubReply};

/// The mark of the lawyer's questions.
pub const ASK: &str = "[[dlaw-ask]]";
/// The mark of the lawyer's memo.
pub const MEMO: &str = "[[dlaw-memo]]";
/// The mark of the client's answers.
pub const ANSWER: &str = "[[dlaw-answer]]";

/// The index of the case a call is about: the first whose opening the
/// request holds.
pub fn case_index(cases: &[Case], call: &StubCall) -> Option<usize> {
    cases
        .iter()
        .position(|c| call.prompt.contains(c.opening.trim()))
}

/// How many questions the oracle's lawyer asks on case `i`.
pub fn questions(i: usize) -> usize {
    i % 3
}

/// Whether a lawyer prompt is the submit-only call after the horizon.
pub fn is_last_call(prompt: &str) -> bool {
    prompt.contains("[Note] You have used all") || prompt.contains("【提示】你已用完全部")
}

/// How many questions the lawyer has asked in the dialogue a call holds.
pub fn asked(call: &StubCall) -> usize {
    call.prompt.matches(ASK).count()
}

/// The lawyer's question, as its JSON action.
pub fn ask() -> String {
    json!({"action": "ask", "message": format!("{ASK} When did this happen, and what documents do you have?")})
        .to_string()
}

/// The lawyer's memo, as its JSON action.
pub fn submit() -> String {
    json!({"action": "submit", "memo": format!("{MEMO} The facts, the rules, the analysis and the next steps.")})
        .to_string()
}

/// The rubric call's reply for `case`.
pub fn rubric_reply(case: &Case) -> String {
    rubric_reply_with(case, vec![1; case.inquiry_rubrics.len()])
}

/// The rubric call's reply for `case` with these Inquiry scores.
fn rubric_reply_with(case: &Case, inquiry: Vec<u8>) -> String {
    let issue: Vec<u8> = (0..case.issue_rubrics.len())
        .map(|k| u8::from(k % 2 == 0))
        .collect();
    json!({
        "expected_action_scores": inquiry,
        "memo_expectation_scores": issue,
        "rationale": "rubric checked item by item",
    })
    .to_string()
}

/// The fact call's reply for `case`, in a fenced block after a line of
/// prose.
pub fn fact_reply(case: &Case) -> String {
    let ids: Vec<&str> = case.facts.iter().map(|f| f.id.as_str()).collect();
    let incorrect: Vec<_> = ids[1..]
        .iter()
        .map(|id| json!({"fact_id": id, "reason": "adopts the client's belief"}))
        .collect();
    let body = json!({
        "discovery": {"covered": ids, "missed": []},
        "accuracy": {"correct": [ids[0]], "incorrect": incorrect},
        "grounding": {"grounded_claims": ["a", "b", "c"], "ungrounded_claims": ["d"], "total_claims": 4},
        "rationale": "facts checked against the record",
    });
    format!("Checked.\n```json\n{body}\n```")
}

/// A script playing every DLawBench role for `cases`; see the
/// [module documentation](self).
pub fn oracle(cases: &[Case]) -> impl Fn(&StubCall) -> StubReply + Send + Sync + 'static {
    let cases = cases.to_vec();
    move |call: &StubCall| {
        let Some(i) = case_index(&cases, call) else {
            return StubReply::Status {
                status: 400,
                retry_after: None,
            };
        };
        match call.kind {
            PromptKind::DlawLawyer if is_last_call(&call.prompt) || asked(call) >= questions(i) => {
                StubReply::Text(submit())
            }
            PromptKind::DlawLawyer => StubReply::Text(ask()),
            PromptKind::DlawClient => {
                StubReply::Text(format!("{ANSWER} It was last spring; I have the letters."))
            }
            PromptKind::DlawJudgeRubric => StubReply::Text(rubric_reply(&cases[i])),
            PromptKind::DlawJudgeFacts => StubReply::Text(fact_reply(&cases[i])),
            _ => StubReply::Status {
                status: 400,
                retry_after: None,
            },
        }
    }
}

/// The style whose persona a client-simulator prompt carries.
pub fn client_style(prompt: &str) -> Option<engine::dlawbench::dataset::Style> {
    use engine::dlawbench::dataset::{Language, Style};
    use engine::dlawbench::prompts::persona;

    Style::ALL.into_iter().find(|&style| {
        [Language::Zh, Language::En]
            .into_iter()
            .filter_map(|language| persona(style, language))
            .any(|p| prompt.contains(p.persona_who.trim()))
    })
}

/// The mark a [`styled_oracle`] client puts in its answers: the style's
/// wire name in brackets.
fn style_mark(style: engine::dlawbench::dataset::Style) -> String {
    format!("[style:{}]", style.as_str())
}

/// A script like [`oracle`] whose scores fall with the client's style, for
/// trying jobs in the browser and for the end-to-end tests: the lawyer asks
/// `1 + i % 3` questions, the client marks each answer with its style
/// (read from the persona in its prompt), and the rubric judge scores the
/// last `k` Inquiry items 0, where `k` is the style's position in
/// cooperative, dependent, withdrawn, adversarial (0 to 3, at most every
/// item). The fact judge answers as in [`oracle`].
pub fn styled_oracle(cases: &[Case]) -> impl Fn(&StubCall) -> StubReply + Send + Sync + 'static {
    use engine::dlawbench::dataset::Style;

    let base = oracle(cases);
    let cases = cases.to_vec();
    move |call: &StubCall| {
        let Some(i) = case_index(&cases, call) else {
            return base(call);
        };
        match call.kind {
            // One question more than the plain script asks.
            PromptKind::DlawLawyer
                if !is_last_call(&call.prompt) && asked(call) == questions(i) =>
            {
                StubReply::Text(ask())
            }
            PromptKind::DlawClient => {
                let mark = client_style(&call.prompt)
                    .map(style_mark)
                    .unwrap_or_default();
                StubReply::Text(format!(
                    "{ANSWER} {mark} It was last spring; I have the letters."
                ))
            }
            PromptKind::DlawJudgeRubric => {
                let case = &cases[i];
                let fallen = Style::ALL
                    .iter()
                    .position(|&s| call.prompt.contains(&style_mark(s)))
                    .unwrap_or(0);
                let n = case.inquiry_rubrics.len();
                let inquiry: Vec<u8> = (0..n).map(|k| u8::from(k + fallen < n)).collect();
                StubReply::Text(rubric_reply_with(case, inquiry))
            }
            _ => base(call),
        }
    }
}
