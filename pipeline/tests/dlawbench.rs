//! DLawBench through the pipeline, against the stub's DLawBench oracle
//! playing lawyer, client and judges: run files the engine's parser
//! accepts against the dataset, sessions that submit, a lawyer that never
//! submits (horizon, forced submit), empty and unparsable lawyer replies
//! (`lawyer_error` after six attempts), failing client and lawyer endpoints
//! (unavailable, never zero), recusal seating two of three judges with a
//! judge that never answers validly, and a finished job resumed from its
//! cache without a call.

use std::path::Path;
use std::time::Duration;

use engine::dlawbench::dataset::{parse_dataset, Case, Style};
use engine::dlawbench::run::{parse_run, Role, Run, Status};
use pipeline::config::{Endpoint, Limits, RetryPolicy};
use pipeline::dlawbench::{Config, Job};
use pipeline::stub::dlawbench::{
    ask, case_index, is_last_call, oracle, questions, submit, ASK, MEMO,
};
use pipeline::stub::{PromptKind, Stub, StubCall, StubReply};
use pipeline::CancellationToken;

const DEMO: &str = include_str!("../../server/data/dlawbench/demo.jsonl");

/// The first `n` demo cases.
fn cases(n: usize) -> Vec<Case> {
    let mut cases = parse_dataset(DEMO).expect("the DLawBench demo parses");
    cases.truncate(n);
    cases
}

/// Lawyer, client and one judge on the stub, retries in milliseconds.
fn config(base_url: &str, out_dir: &Path) -> Config {
    let mut config = Config::new(
        Endpoint::new(base_url, "Test-Lawyer"),
        Endpoint::new(base_url, "Test-Client"),
        Endpoint::judge(base_url, "Test-Judge"),
        out_dir.to_owned(),
    );
    config.retry = RetryPolicy {
        max_attempts: 2,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(20),
        timeout: Duration::from_secs(10),
        judge_attempts: 3,
    };
    config.limits = Limits {
        concurrency: 3,
        requests_per_minute: None,
    };
    config.dataset_name = Some("dlaw-test".into());
    config
}

fn read_run(path: &Path, cases: &[Case]) -> Run {
    let text = std::fs::read_to_string(path).expect("run file");
    parse_run(&text, cases).expect("the run file validates against the dataset")
}

async fn run_one(config: Config, cases: &[Case]) -> Run {
    let job = Job::new(config, cases.to_vec()).expect("valid");
    let output = job
        .run(CancellationToken::new())
        .await
        .expect("the job runs")
        .remove(0);
    let run = read_run(&output.path, cases);
    assert_eq!(run, output.parsed);
    run
}

fn lawyer_reply(text: &str) -> StubReply {
    StubReply::Text(text.to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_that_submit_validate_and_follow_the_script() {
    let cases = cases(3);
    let stub = Stub::start(oracle(&cases)).await.expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = config(&stub.base_url, dir.path());
    config.runs = 2;
    let job = Job::new(config, cases.clone()).expect("valid");
    assert_eq!(job.total_items(), 2 * 4 * cases.len());
    let outputs = job.run(CancellationToken::new()).await.expect("runs");
    assert_eq!(outputs.len(), 2);
    // Per run and style: case i asks i questions, then submits; every
    // session is judged by its one judge in two calls.
    let asks: usize = (0..cases.len()).map(questions).sum();
    let sessions = 4 * cases.len();
    assert_eq!(
        stub.count(PromptKind::DlawLawyer),
        2 * (4 * asks + sessions)
    );
    assert_eq!(stub.count(PromptKind::DlawClient), 2 * 4 * asks);
    assert_eq!(stub.count(PromptKind::DlawJudgeRubric), 2 * sessions);
    assert_eq!(stub.count(PromptKind::DlawJudgeFacts), 2 * sessions);

    for (n, output) in outputs.iter().enumerate() {
        let run = read_run(&output.path, &cases);
        assert_eq!(run, output.parsed);
        let h = &run.header;
        assert_eq!(h.run, n as u32 + 1);
        assert_eq!(
            (h.model.as_str(), h.vendor.as_deref()),
            ("Test-Lawyer", Some("test"))
        );
        assert_eq!(h.client_model.as_deref(), Some("Test-Client"));
        assert_eq!(h.horizon, 10);
        assert_eq!(h.prompt_version.as_deref(), Some("dlaw-v1"));
        assert_eq!(h.dataset.as_deref(), Some("dlaw-test"));
        assert_eq!(h.extra["styles"].as_array().map(Vec::len), Some(4));
        assert!(h.extra["prompts"]["lawyer_en.txt"].is_string());
        assert!(h.created_at.is_some());
        assert_eq!(run.styles(), Style::ALL);
        assert_eq!(run.sessions.len(), sessions);
        assert_eq!(run.unavailable(), 0);
        for session in &run.sessions {
            let i = cases
                .iter()
                .position(|c| c.case_id == session.case_id)
                .expect("a dataset case");
            let case = &cases[i];
            assert_eq!(session.status, Status::Submitted, "{}", session.case_id);
            assert_eq!(session.turns_used as usize, questions(i));
            let dialogue = session.dialogue.as_deref().expect("dialogue kept");
            assert_eq!(dialogue.len(), 1 + 2 * questions(i));
            assert_eq!(dialogue[0].content, case.opening);
            assert!(dialogue
                .iter()
                .filter(|t| t.role == Role::Lawyer)
                .all(|t| t.content.starts_with(ASK) && t.attempts == Some(1)));
            assert!(session.memo.as_deref().is_some_and(|m| m.starts_with(MEMO)));
            let seat = &session.panel[0];
            assert!(!seat.recused);
            let decisions = seat.decisions.as_ref().expect("decisions");
            assert!(decisions.inquiry.iter().all(|&b| b == 1));
            assert_eq!(decisions.covered.len(), case.facts.len());
            assert_eq!((decisions.claims_grounded, decisions.claims_total), (3, 4));
            assert!(seat.rationale.is_some());
        }
        let usage: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(&output.usage_path).expect("usage sidecar"),
        )
        .expect("usage JSON");
        assert_eq!(usage["roles"]["model"]["calls"], 4 * asks + sessions);
        assert_eq!(usage["roles"]["client"]["calls"], 4 * asks);
        assert_eq!(usage["roles"]["judge:Test-Judge"]["calls"], 2 * sessions);
    }
    let scores = engine::dlawbench::score::score_run(&outputs[0].parsed, &cases);
    assert_eq!(scores.counts.judged, sessions);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lawyer_that_never_submits_is_made_to_at_the_horizon() {
    let cases = cases(2);
    let script_cases = cases.clone();
    let base = oracle(&cases);
    // The lawyer always asks; in the submit-only call it submits a memo on
    // case 0 and an empty one on case 1.
    let stub = Stub::start(move |call: &StubCall| match call.kind {
        PromptKind::DlawLawyer if !is_last_call(&call.prompt) => lawyer_reply(&ask()),
        PromptKind::DlawLawyer => match case_index(&script_cases, call) {
            Some(0) => lawyer_reply(&submit()),
            _ => lawyer_reply(r#"{"action": "submit", "memo": "  "}"#),
        },
        _ => base(call),
    })
    .await
    .expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = config(&stub.base_url, dir.path());
    config.horizon = 3;
    config.styles = vec![Style::Dependent];
    let run = run_one(config, &cases).await;
    assert_eq!(run.header.horizon, 3);
    let statuses: Vec<Status> = run.sessions.iter().map(|s| s.status).collect();
    assert_eq!(statuses, [Status::Horizon, Status::NoMemo]);
    for session in &run.sessions {
        assert_eq!(session.turns_used, 3);
        assert_eq!(session.dialogue.as_ref().map(Vec::len), Some(7));
    }
    assert!(run.sessions[0]
        .memo
        .as_deref()
        .is_some_and(|m| m.starts_with(MEMO)));
    assert_eq!(run.sessions[0].panel.len(), 1);
    assert!(run.sessions[1].memo.is_none() && run.sessions[1].panel.is_empty());
    // Three asks and the forced call per session; only case 0 is judged.
    assert_eq!(stub.count(PromptKind::DlawLawyer), 2 * 4);
    assert_eq!(stub.count(PromptKind::DlawClient), 2 * 3);
    assert_eq!(stub.count(PromptKind::DlawJudgeRubric), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn empty_or_unparsable_lawyer_replies_end_in_lawyer_error_after_six_attempts() {
    let cases = cases(2);
    let script_cases = cases.clone();
    let base = oracle(&cases);
    let stub =
        Stub::start(
            move |call: &StubCall| match (call.kind, case_index(&script_cases, call)) {
                (PromptKind::DlawLawyer, Some(0)) => StubReply::Empty,
                (PromptKind::DlawLawyer, Some(1)) => lawyer_reply("I think you should sue."),
                _ => base(call),
            },
        )
        .await
        .expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = config(&stub.base_url, dir.path());
    config.styles = vec![Style::Withdrawn];
    let run = run_one(config, &cases).await;
    for session in &run.sessions {
        assert_eq!(session.status, Status::LawyerError, "{}", session.case_id);
        assert_eq!(session.turns_used, 0);
        assert!(
            session.unavailable.is_none(),
            "a task failure, not unavailable"
        );
        assert!(session.panel.is_empty());
        // The session says why: the last reply's problem.
        let error = session.error.as_deref().unwrap_or_default();
        assert!(
            error.starts_with("after 6 attempts: ") && error.len() > "after 6 attempts: ".len(),
            "{error:?}"
        );
    }
    // Six calls per session: the client's transport retries do not repeat
    // an empty lawyer reply on top of them.
    assert_eq!(stub.count(PromptKind::DlawLawyer), 2 * 6);
    assert_eq!(stub.count(PromptKind::DlawClient), 0);
    assert_eq!(stub.count(PromptKind::DlawJudgeRubric), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failing_client_or_lawyer_endpoints_make_sessions_unavailable_never_zero() {
    let cases = cases(3);
    let script_cases = cases.clone();
    let base = oracle(&cases);
    // Case 1 asks one question, which the client never answers; case 2's
    // lawyer endpoint is down.
    let stub =
        Stub::start(
            move |call: &StubCall| match (call.kind, case_index(&script_cases, call)) {
                (PromptKind::DlawClient, Some(1)) => StubReply::Status {
                    status: 500,
                    retry_after: None,
                },
                (PromptKind::DlawLawyer, Some(2)) => StubReply::Status {
                    status: 503,
                    retry_after: None,
                },
                _ => base(call),
            },
        )
        .await
        .expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = config(&stub.base_url, dir.path());
    config.styles = vec![Style::Adversarial];
    let run = run_one(config, &cases).await;
    assert_eq!(run.unavailable(), 2);
    let [ok, client_down, lawyer_down] = &run.sessions[..] else {
        panic!("three sessions");
    };
    assert!(ok.unavailable.is_none() && ok.status == Status::Submitted);
    let reason = client_down.unavailable.as_deref().unwrap_or_default();
    assert!(
        reason.starts_with("client simulator:") && reason.contains("HTTP 500"),
        "{reason}"
    );
    assert_eq!(client_down.turns_used, 1);
    assert!(client_down.panel.is_empty() && client_down.memo.is_none());
    let reason = lawyer_down.unavailable.as_deref().unwrap_or_default();
    assert!(
        reason.starts_with("lawyer:") && reason.contains("HTTP 503"),
        "{reason}"
    );
    // The transport retries (two attempts) are spent, the lawyer's six
    // attempts are not: a transport fault is not the lawyer's. Lawyer calls:
    // case 0 submits at once, case 1 asks once, case 2 fails twice.
    assert_eq!(stub.count(PromptKind::DlawClient), 2);
    assert_eq!(stub.count(PromptKind::DlawLawyer), 1 + 1 + 2);

    // Left out of the scores and counted.
    let counts = engine::dlawbench::score::score_run(&run, &cases).counts;
    assert_eq!(
        (counts.unavailable, counts.judged, counts.failed()),
        (2, 1, 0)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_same_vendor_judge_recuses_and_a_judge_that_never_reads_loses_its_seat() {
    let cases = cases(2);
    let base = oracle(&cases);
    let stub = Stub::start(move |call: &StubCall| match call.kind {
        PromptKind::DlawJudgeRubric if call.model == "Gemini-Judge" => {
            lawyer_reply("All items look fine to me.")
        }
        _ => base(call),
    })
    .await
    .expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = config(&stub.base_url, dir.path());
    config.lawyer.model = "GPT-Test".into();
    config.judges = ["GPT-Judge", "Claude-Judge", "Gemini-Judge"]
        .map(|m| Endpoint::judge(&stub.base_url, m))
        .to_vec();
    config.styles = vec![Style::Cooperative, Style::Withdrawn];
    let run = run_one(config, &cases).await;
    assert_eq!(run.header.recusals(), Some(vec![true, false, false]));
    let sessions = run.sessions.len();
    assert_eq!(sessions, 4);
    for session in &run.sessions {
        let [gpt, claude, gemini] = &session.panel[..] else {
            panic!("three seats");
        };
        assert!(gpt.recused && gpt.decisions.is_none() && gpt.unavailable.is_none());
        assert!(!claude.recused && claude.decisions.is_some());
        assert!(!gemini.recused && gemini.decisions.is_none());
        let reason = gemini.unavailable.as_deref().unwrap_or_default();
        assert!(
            reason.starts_with("rubric call: no valid reply in 3 attempts"),
            "{reason}"
        );
    }
    // The recused judge is never asked; Gemini is asked three times and
    // never gets to its fact call.
    assert_eq!(stub.count(PromptKind::DlawJudgeRubric), sessions * (1 + 3));
    assert_eq!(stub.count(PromptKind::DlawJudgeFacts), sessions);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_job_run_again_is_served_from_its_cache() {
    let cases = cases(3);
    let stub = Stub::start(oracle(&cases)).await.expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let first = run_one(config(&stub.base_url, dir.path()), &cases).await;
    assert!(stub.requests() > 0);
    stub.reset();

    let job = Job::new(config(&stub.base_url, dir.path()), cases.clone()).expect("valid");
    let output = job
        .run(CancellationToken::new())
        .await
        .expect("runs")
        .remove(0);
    assert_eq!(stub.requests(), 0, "a cached call was asked again");
    assert_eq!(output.parsed.sessions, first.sessions);
    let usage = &output.usage.roles["model"];
    assert_eq!(usage.calls, 0);
    assert!(usage.cached_calls > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_job_resumes_without_repeating_a_finished_call() {
    let cases = cases(6);
    let stub = Stub::with_latency(Duration::from_millis(15), oracle(&cases))
        .await
        .expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    // One style, so that no two sessions send the same request (the stub
    // counts requests by model and prompt, not by sample).
    let config = || {
        let mut config = config(&stub.base_url, dir.path());
        config.styles = vec![Style::Cooperative];
        config
    };
    let job = Job::new(config(), cases.clone()).expect("valid");
    let mut progress = job.progress();
    let cancel = CancellationToken::new();
    let canceller = cancel.clone();
    tokio::spawn(async move {
        while progress.changed().await.is_ok() {
            let p = progress.borrow().clone();
            if p.total > 0 && p.done >= 2 {
                canceller.cancel();
                break;
            }
        }
    });
    let err = job.run(cancel).await.expect_err("cancelled");
    assert!(
        matches!(err, pipeline::PipelineError::Cancelled { .. }),
        "{err}"
    );
    let first = stub.per_request();
    stub.reset();

    let run = run_one(config(), &cases).await;
    let second = stub.per_request();
    assert!(!second.is_empty(), "interrupted midway");
    let repeated = second.keys().filter(|k| first.contains_key(*k)).count();
    assert_eq!(repeated, 0, "finished calls asked again");
    assert_eq!(run.sessions.len(), cases.len());
    assert_eq!(run.unavailable(), 0);
}
