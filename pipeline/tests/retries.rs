//! Failures at the endpoint: 429 and 500 bursts, timeouts, empty and
//! malformed replies are retried; what keeps failing ends as an unavailable
//! item with its reason, never as a wrong label.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::lexpilot::run::parse_run;
use engine::lexpilot::score::score_run;
use engine::vocab::{Consultation, LjpSetup};
use pipeline::prompts;
use pipeline::stub::{identify, oracle, request_id, PromptKind, Stub, StubReply};
use pipeline::{CancellationToken, Job};

fn status(status: u16, retry_after: Option<u64>) -> StubReply {
    StubReply::Status {
        status,
        retry_after,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transient_failures_are_retried_and_persistent_ones_are_unavailable() {
    let cases = common::demo_cases(6);
    let oracle = oracle(&cases);
    let script_cases = Arc::new(cases.clone());
    let script = move |call: &pipeline::stub::StubCall| {
        let found = identify(&script_cases, &call.prompt);
        let mark = |id: &str| call.prompt.contains(&format!("[[case={id} "));
        match (call.kind, found, call.seen) {
            // A 429 burst honouring Retry-After, then success.
            (PromptKind::Lexawn, Some((0, Consultation::Complete)), 0) => status(429, Some(1)),
            (PromptKind::Lexawn, Some((0, Consultation::Complete)), 1) => status(429, Some(0)),
            // A 500 burst.
            (PromptKind::Lexawn, Some((1, Consultation::Complete)), 0..=2) => status(500, None),
            // A timeout.
            (PromptKind::Lexawn, Some((2, Consultation::Complete)), 0) => StubReply::Delay(
                Duration::from_secs(3),
                Box::new(StubReply::Text("too late".into())),
            ),
            // An empty reply, then a body that is no completion.
            (PromptKind::Lexawn, Some((3, Consultation::Complete)), 0) => StubReply::Empty,
            (PromptKind::Lexawn, Some((3, Consultation::Complete)), 1) => StubReply::Garbage,
            // Always failing: LCA on the underspecified consultation of case
            // 1, and with it the first interaction turn (the same request).
            (PromptKind::Lexawn, Some((1, Consultation::Underspecified)), _) => status(502, None),
            // Not worth retrying.
            (PromptKind::Dcg, Some((3, _)), _) => status(400, None),
            // A judge that answers nonsense twice, then properly.
            (PromptKind::JudgeLjp, _, 0..=1) if mark("DEMO-0001") => {
                StubReply::Text("我觉得应该支持".into())
            }
            // A judge that never answers properly.
            (PromptKind::JudgeLjp, _, _) if mark("DEMO-0006") => {
                StubReply::Text(r#"{"results": ["胜诉"]}"#.into())
            }
            // A judge behind an overloaded gateway once.
            (PromptKind::JudgeDcg, _, 0) if mark("DEMO-0005") => status(503, Some(0)),
            _ => oracle(call),
        }
    };
    let stub = Stub::start(script).await.expect("stub starts");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = common::config(&stub.base_url, dir.path());
    config.retry.timeout = Duration::from_millis(500);
    let started = Instant::now();
    let job = Job::new(config, cases.clone()).expect("valid config");
    let progress = job.progress();
    let outputs = job.run(CancellationToken::new()).await.expect("job runs");
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After: 1 was honoured"
    );
    let text = std::fs::read_to_string(&outputs[0].path).expect("run file");
    let run = parse_run(&text, &cases).expect("the run file is valid");

    // Retried until success: the item is labelled as the script implies.
    let per_request = stub.per_request();
    let lexawn = |i: usize, c: Consultation| {
        per_request
            .get(&request_id(
                "Test-Model",
                &prompts::lexawn(cases[i].turns(c)),
            ))
            .copied()
            .unwrap_or(0)
    };
    assert_eq!(
        lexawn(0, Consultation::Complete),
        3,
        "two 429s, then success"
    );
    assert_eq!(
        lexawn(1, Consultation::Complete),
        4,
        "three 500s, then success"
    );
    assert_eq!(
        lexawn(2, Consultation::Complete),
        2,
        "a timeout, then success"
    );
    assert_eq!(
        lexawn(3, Consultation::Complete),
        3,
        "empty, garbage, success"
    );
    // Six attempts, for each of the two items that need the reply.
    assert_eq!(lexawn(1, Consultation::Underspecified), 12);
    let dcg_first = request_id(
        "Test-Model",
        &prompts::dcg(&cases[3].consultations.underspecified),
    );
    assert_eq!(
        per_request.get(&dcg_first),
        Some(&1),
        "a 400 is not retried"
    );

    let expected = common::expected_run(&cases, run.header.clone());
    let mut expected = expected;
    for item in &mut expected.lca {
        if item.case_id == "DEMO-0002" && item.consultation == Consultation::Underspecified {
            item.label = None;
            item.unavailable = Some("x".into());
        }
    }
    for item in &mut expected.dcg {
        if item.case_id == "DEMO-0004" {
            item.requests.clear();
            item.unavailable = Some("x".into());
        }
    }
    for item in &mut expected.ljp {
        if item.case_id == "DEMO-0006"
            || (item.case_id == "DEMO-0002" && item.setup == LjpSetup::Interaction)
        {
            item.predictions = None;
            item.unavailable = Some("x".into());
        }
    }
    let mut got = common::labels_only(&run);
    for item in &mut got.lca {
        item.unavailable = item.unavailable.as_ref().map(|_| "x".into());
    }
    for item in &mut got.dcg {
        item.unavailable = item.unavailable.as_ref().map(|_| "x".into());
    }
    for item in &mut got.ljp {
        item.unavailable = item.unavailable.as_ref().map(|_| "x".into());
    }
    assert_eq!(got, expected);
    assert_eq!(score_run(&run, &cases), score_run(&expected, &cases));

    let counts = run.unavailable();
    assert_eq!((counts.lca, counts.dcg, counts.total()), (1, 1, 6));
    assert_eq!(progress.borrow().failures, 6);
    assert!(progress.borrow().retries > 0);

    // The reasons say what failed.
    let reason = |kind: &str, case: &str| -> String {
        text.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON line"))
            .find(|v| v["kind"] == kind && v["case_id"] == case && !v["unavailable"].is_null())
            .map(|v| v["unavailable"].as_str().unwrap_or_default().to_owned())
            .unwrap_or_default()
    };
    let lca = reason("lca", "DEMO-0002");
    assert!(
        lca.contains("after 6 attempts") && lca.contains("HTTP 502"),
        "{lca}"
    );
    let dcg = reason("dcg", "DEMO-0004");
    assert!(
        dcg.contains("after 1 attempt:") && dcg.contains("HTTP 400"),
        "{dcg}"
    );
    let ljp = reason("ljp", "DEMO-0006");
    assert!(ljp.contains("no valid reply in 6 attempts"), "{ljp}");
    assert!(ljp.contains("胜诉"), "{ljp}");

    // The raw judge replies are kept, malformed ones included.
    let direct = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON line"))
        .find(|v| v["kind"] == "ljp" && v["case_id"] == "DEMO-0001" && v["setup"] == "direct")
        .expect("the direct item of DEMO-0001");
    let outputs = direct["judge_outputs"].as_array().expect("judge outputs");
    assert_eq!(outputs.len(), 3);
    assert!(outputs[0]["error"].is_string() && outputs[2]["error"].is_null());
}
