//! DLawBench run files that break a session rule are refused as a whole,
//! each error naming its line and field (`docs/benchmarks/dlawbench.md`
//! §A3): a recused seat that should sit, a wrong rubric length, an unknown
//! fact id, a missing cell, a run of another benchmark.

use engine::dlawbench::dataset::{parse_dataset, Case};
use engine::dlawbench::run::parse_run;

fn dataset() -> Vec<Case> {
    parse_dataset(concat!(
        r#"{"case_id": "DL-CN-1", "jurisdiction": "cn", "domain": "labor", "opening": "我被辞退了。", "facts": [{"id": "F1", "type": "disputed", "client_belief": "没有补偿。", "court_record": "已付补偿。"}, {"id": "F2", "type": "undisputed", "client_belief": "工作五年。", "court_record": "工作五年。"}], "inquiry_rubrics": [{"id": "Q1", "text": "询问入职时间"}, {"id": "Q2", "text": "核实解除通知"}], "issue_rubrics": [{"id": "R1", "text": "经济补偿标准"}]}"#,
        "\n",
        r#"{"case_id": "DL-US-1", "jurisdiction": "us", "domain": "torts", "opening": "I slipped.", "facts": [{"id": "F1", "type": "disputed", "client_belief": "The store knew.", "court_record": "No notice."}], "inquiry_rubrics": [{"id": "Q1", "text": "Ask about warnings"}], "issue_rubrics": [{"id": "R1", "text": "Premises liability"}, {"id": "R2", "text": "Comparative fault"}]}"#,
        "\n",
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

const HEADER: &str = r#"{"kind": "run", "benchmark": "dlawbench", "model": "Claude-Sonnet-5", "run": 1, "judges": [{"model": "GPT-5.1", "vendor": "openai"}, {"model": "Claude-Opus-4.6", "vendor": "anthropic"}, {"model": "Gemini-3.1-Pro", "vendor": "google"}]}"#;

fn decisions(inquiry: &str, issue: &str, covered: &str) -> String {
    format!(
        r#"{{"inquiry": {inquiry}, "issue": {issue}, "covered": {covered}, "correct": [], "claims_total": 3, "claims_grounded": 3}}"#
    )
}

/// A session with GPT-5.1 and Gemini seated, Claude recused (the lawyer is
/// Anthropic's), the CN case's rubric lengths.
fn cn_session(gpt: &str, claude: &str) -> String {
    format!(
        r#"{{"kind": "session", "case_id": "DL-CN-1", "style": "cooperative", "status": "submitted", "turns_used": 0, "memo": "备忘录", "panel": [{gpt}, {claude}, {{"judge": "Gemini-3.1-Pro", "recused": false, "decisions": {}}}]}}"#,
        decisions("[1, 0]", "[1]", r#"["F1"]"#)
    )
}

fn seated(judge: &str, decisions: &str) -> String {
    format!(r#"{{"judge": "{judge}", "recused": false, "decisions": {decisions}}}"#)
}

const CLAUDE_RECUSED: &str = r#"{"judge": "Claude-Opus-4.6", "recused": true}"#;

fn us_session() -> String {
    format!(
        r#"{{"kind": "session", "case_id": "DL-US-1", "style": "cooperative", "status": "submitted", "turns_used": 0, "memo": "memo", "panel": [{}, {CLAUDE_RECUSED}, {}]}}"#,
        seated("GPT-5.1", &decisions("[1]", "[0, 1]", "[]")),
        seated("Gemini-3.1-Pro", &decisions("[0]", "[0, 0]", r#"["F1"]"#)),
    )
}

fn file(sessions: &[String]) -> String {
    let mut text = format!("{HEADER}\n");
    for s in sessions {
        text.push_str(s);
        text.push('\n');
    }
    text
}

/// (line, field) of every error, and the error text.
fn refused(text: &str) -> (Vec<(usize, String)>, String) {
    let errors = parse_run(text, &dataset()).expect_err("the file must be refused");
    let found = errors.0.iter().map(|e| (e.line, e.field.clone())).collect();
    (found, errors.to_string())
}

#[test]
fn the_valid_file_parses() {
    let gpt = seated("GPT-5.1", &decisions("[1, 1]", "[0]", r#"["F2", "F1"]"#));
    let run = parse_run(
        &file(&[cn_session(&gpt, CLAUDE_RECUSED), us_session()]),
        &dataset(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(run.sessions.len(), 2);
    assert_eq!(run.header.recusals(), Some(vec![false, true, false]));
}

#[test]
fn a_recused_seat_that_should_sit_is_refused() {
    let gpt_recused = r#"{"judge": "GPT-5.1", "recused": true}"#;
    let (found, text) = refused(&file(&[
        cn_session(gpt_recused, CLAUDE_RECUSED),
        us_session(),
    ]));
    assert_eq!(found, [(2, "panel[0].recused".to_owned())], "{text}");
    assert!(
        text.contains(
            "line 2 (DL-CN-1), field panel[0].recused: is true, but judge GPT-5.1 (vendor openai) sits for Claude-Sonnet-5 (vendor anthropic)"
        ),
        "{text}"
    );
}

#[test]
fn a_seat_that_should_recuse_is_refused() {
    let claude = seated("Claude-Opus-4.6", &decisions("[1, 0]", "[1]", "[]"));
    let gpt = seated("GPT-5.1", &decisions("[1, 1]", "[0]", "[]"));
    let (found, text) = refused(&file(&[cn_session(&gpt, &claude), us_session()]));
    assert_eq!(found, [(2, "panel[1].recused".to_owned())], "{text}");
}

#[test]
fn a_wrong_rubric_length_is_refused() {
    let gpt = seated("GPT-5.1", &decisions("[1, 1, 0]", "[]", "[]"));
    let (found, text) = refused(&file(&[cn_session(&gpt, CLAUDE_RECUSED), us_session()]));
    assert_eq!(
        found,
        [
            (2, "panel[0].decisions.inquiry".to_owned()),
            (2, "panel[0].decisions.issue".to_owned())
        ],
        "{text}"
    );
    assert!(text.contains("field panel[0].decisions.inquiry: has 3 values but the case has 2 Inquiry rubric items"), "{text}");
    assert!(text.contains("field panel[0].decisions.issue: has 0 values but the case has 1 Issue-resolution rubric item;"), "{text}");
}

#[test]
fn an_unknown_fact_id_is_refused() {
    let gpt = seated("GPT-5.1", &decisions("[1, 1]", "[0]", r#"["F1", "F7"]"#));
    let (found, text) = refused(&file(&[us_session(), cn_session(&gpt, CLAUDE_RECUSED)]));
    assert_eq!(
        found,
        [(3, "panel[0].decisions.covered[1]".to_owned())],
        "{text}"
    );
    assert!(
        text.contains("unknown fact id \"F7\"; case DL-CN-1 has F1, F2"),
        "{text}"
    );
}

#[test]
fn a_correct_fact_must_be_covered_and_claims_add_up() {
    let bad = r#"{"inquiry": [1], "issue": [0, 1], "covered": [], "correct": ["F1"], "claims_total": 2, "claims_grounded": 3, "incorrect": [{"fact_id": "F9"}]}"#;
    let session = format!(
        r#"{{"kind": "session", "case_id": "DL-US-1", "style": "cooperative", "status": "submitted", "turns_used": 0, "memo": "memo", "panel": [{}, {CLAUDE_RECUSED}, {}]}}"#,
        seated("GPT-5.1", bad),
        seated("Gemini-3.1-Pro", &decisions("[0]", "[0, 0]", "[]")),
    );
    let gpt = seated("GPT-5.1", &decisions("[1, 1]", "[0]", "[]"));
    let (found, text) = refused(&file(&[cn_session(&gpt, CLAUDE_RECUSED), session]));
    assert_eq!(
        found.iter().map(|(_, f)| f.as_str()).collect::<Vec<_>>(),
        [
            "panel[0].decisions.correct[0]",
            "panel[0].decisions.claims_grounded",
            "panel[0].decisions.incorrect[0].fact_id"
        ],
        "{text}"
    );
}

#[test]
fn a_missing_cell_and_a_duplicate_are_refused() {
    let gpt = seated("GPT-5.1", &decisions("[1, 1]", "[0]", "[]"));
    let cn = cn_session(&gpt, CLAUDE_RECUSED);
    let (found, text) = refused(&file(&[cn.clone(), cn]));
    assert_eq!(
        found,
        [(3, "case_id".to_owned()), (2, "case_id".to_owned())],
        "{text}"
    );
    assert!(
        text.contains(
            "duplicate session of case DL-CN-1 in style cooperative; it is first given on line 2"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "the cooperative sessions cover 1 of the dataset's 2 cases; 1 missing: DL-US-1"
        ),
        "{text}"
    );
}

#[test]
fn a_run_of_another_benchmark_is_refused() {
    let text = file(&[us_session()]).replace(r#""benchmark": "dlawbench", "#, "");
    let (found, message) = refused(&text);
    assert_eq!(found[0], (1, "benchmark".to_owned()), "{message}");
    assert!(
        message.contains("which is what an absent benchmark means"),
        "{message}"
    );
}

#[test]
fn a_dialogue_must_open_with_the_client_and_match_turns_used() {
    let with = |dialogue: &str, turns: u32| {
        us_session()
            .replace(r#""turns_used": 0"#, &format!(r#""turns_used": {turns}"#))
            .replace(
                r#""memo": "memo""#,
                &format!(r#""dialogue": {dialogue}, "memo": "memo""#),
            )
    };
    let gpt = seated("GPT-5.1", &decisions("[1, 1]", "[0]", "[]"));
    let cn = cn_session(&gpt, CLAUDE_RECUSED);
    let (found, text) = refused(&file(&[cn.clone(), with("[]", 0)]));
    assert_eq!(found, [(3, "dialogue".to_owned())], "{text}");
    let two_asks = r#"[{"role": "client", "content": "I slipped."}, {"role": "lawyer", "action": "ask", "content": "Where?"}, {"role": "client", "content": "Aisle 3."}, {"role": "client", "content": "Again."}]"#;
    let (found, text) = refused(&file(&[cn, with(two_asks, 2)]));
    assert_eq!(
        found,
        [
            (3, "dialogue[3].role".to_owned()),
            (3, "dialogue".to_owned())
        ],
        "{text}"
    );
    assert!(
        text.contains("has 1 lawyer turn but turns_used is 2"),
        "{text}"
    );
}

#[test]
fn only_a_lawyer_error_session_says_why_the_lawyer_failed() {
    let failed = r#"{"kind": "session", "case_id": "DL-CN-1", "style": "cooperative", "status": "lawyer_error", "turns_used": 0, "error": "after 6 attempts: no JSON action"}"#;
    let gpt = seated("GPT-5.1", &decisions("[1, 1]", "[0]", r#"["F2", "F1"]"#));
    let run = parse_run(&file(&[failed.to_owned(), us_session()]), &dataset())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        run.sessions[0].error.as_deref(),
        Some("after 6 attempts: no JSON action")
    );
    assert!(
        run.to_stored().contains("no JSON action"),
        "kept when stored"
    );
    let submitted = cn_session(&gpt, CLAUDE_RECUSED).replacen(
        r#""kind": "session","#,
        r#""kind": "session", "error": "none","#,
        1,
    );
    let (found, text) = refused(&file(&[submitted, us_session()]));
    assert_eq!(found, [(2, "error".to_owned())], "{text}");
    assert!(text.contains("only a lawyer_error session"), "{text}");
}
