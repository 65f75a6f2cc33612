//! PLawBench through the pipeline, against the stub's PLawBench oracle: run
//! files that validate and score as the oracle's judges imply, a panel of
//! two, a truncated answer recorded, judge attempts re-asking a reply that
//! does not parse, and a cancelled job resumed without repeating a call.

use std::path::Path;
use std::time::Duration;

use engine::core::panel::Aggregation;
use engine::plawbench::dataset::{parse_dataset, Item};
use engine::plawbench::run::{parse_run, ParseMode, Run};
use engine::plawbench::score::{score_item, score_run};
use pipeline::config::{Endpoint, Limits, RetryPolicy};
use pipeline::plawbench::{Config, Job};
use pipeline::stub::plawbench::{expected_acc, item_index, oracle};
use pipeline::stub::{PromptKind, Stub, StubCall, StubReply};
use pipeline::{CancellationToken, PipelineError};

const DEMO: &str = include_str!("../../server/data/plawbench/demo.jsonl");

fn items() -> Vec<Item> {
    parse_dataset(DEMO).expect("the PLawBench demo parses")
}

/// The model and one judge on the stub, retries in milliseconds.
fn config(base_url: &str, out_dir: &Path) -> Config {
    let mut config = Config::new(
        Endpoint::new(base_url, "Test-Model"),
        Endpoint::judge(base_url, "Test-Judge"),
        out_dir.to_owned(),
    );
    config.retry = RetryPolicy {
        max_attempts: 3,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(20),
        timeout: Duration::from_secs(10),
        judge_attempts: 1,
    };
    config.limits = Limits {
        concurrency: 3,
        requests_per_minute: None,
    };
    config.dataset_name = Some("plaw-test".into());
    config
}

fn read_run(path: &Path, items: &[Item]) -> Run {
    let text = std::fs::read_to_string(path).expect("run file");
    parse_run(&text, items).expect("the run file validates")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panel_run_validates_and_scores_as_the_judges_said() {
    let items = items();
    let stub = Stub::start(oracle(&items)).await.expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = config(&stub.base_url, dir.path());
    config
        .judges
        .push(Endpoint::judge(&stub.base_url, "Second-Judge"));
    config.aggregation = Aggregation::Median;
    config.runs = 2;
    let job = Job::new(config, items.clone()).expect("valid");
    assert_eq!(job.total_items(), 2 * items.len());
    let outputs = job
        .run(CancellationToken::new())
        .await
        .expect("the job runs");
    assert_eq!(outputs.len(), 2);
    // Per run: one model call and one per judge for every item.
    assert_eq!(stub.count(PromptKind::PlawModel), 2 * items.len());
    assert_eq!(stub.count(PromptKind::PlawJudge), 2 * 2 * items.len());

    for (n, output) in outputs.iter().enumerate() {
        let run = read_run(&output.path, &items);
        assert_eq!(run, output.parsed);
        assert_eq!(run.header.run, n as u32 + 1);
        assert_eq!(run.header.judge_aggregation, Aggregation::Median);
        assert_eq!(run.header.judge_parse, ParseMode::Lenient);
        assert_eq!(run.header.judge_attempts, 1);
        assert_eq!(run.header.dataset.as_deref(), Some("plaw-test"));
        let judges: Vec<&str> = run.header.judge_models().collect();
        assert_eq!(judges, ["Test-Judge", "Second-Judge"]);
        assert_eq!(run.header.judges[0].vendor.as_deref(), Some("test"));
        assert!(run.header.extra["prompts"]["task:case_analysis"].is_string());
        assert_eq!(run.items.len(), items.len());
        assert_eq!(run.unavailable(), 0);
        for (i, (judged, item)) in run.items.iter().zip(&items).enumerate() {
            assert_eq!(judged.item_id, item.item_id);
            assert_eq!(judged.finish_reason.as_deref(), Some("stop"));
            assert_eq!(judged.prompt_sha256.as_ref().map(String::len), Some(64));
            assert!(judged.judgements.iter().all(|j| j.attempts == Some(1)));
            let outcome = score_item(item, judged, run.header.judge_aggregation);
            assert_eq!(outcome.panel.map(|p| p.acc), Some(expected_acc(i)), "{i}");
        }
        let scores = score_run(&run, &items);
        assert!(scores.per_sample_overall.is_some());
        let usage: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(&output.usage_path).expect("usage sidecar"),
        )
        .expect("usage JSON");
        assert_eq!(usage["roles"]["model"]["calls"], items.len());
        assert_eq!(usage["roles"]["judge:Second-Judge"]["calls"], items.len());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_truncated_answer_is_kept_and_counted_not_excluded() {
    let items = items();
    let drafting = items
        .iter()
        .position(|i| i.task == engine::plawbench::dataset::Task::PlaintiffStatement)
        .expect("a plaintiff item");
    let script_items = items.clone();
    let base = oracle(&items);
    let stub =
        Stub::start(
            move |call: &StubCall| match (call.kind, item_index(&script_items, call)) {
                (PromptKind::PlawModel, Some(i)) if i == drafting => match base(call) {
                    StubReply::Text(text) => StubReply::Truncated(text),
                    other => other,
                },
                _ => base(call),
            },
        )
        .await
        .expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let job = Job::new(config(&stub.base_url, dir.path()), items.clone()).expect("valid");
    let output = job
        .run(CancellationToken::new())
        .await
        .expect("runs")
        .remove(0);
    let run = output.parsed;
    assert_eq!(run.items[drafting].finish_reason.as_deref(), Some("length"));
    let scores = score_run(&run, &items);
    let task = &scores.tasks[&engine::plawbench::dataset::Task::PlaintiffStatement];
    assert_eq!((task.truncated, task.unavailable), (1, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_that_does_not_parse_is_asked_again_up_to_the_attempts() {
    let items = items();
    let base = oracle(&items);
    // Every judge's first reply is prose; asked again, it answers.
    let stub = Stub::start(move |call: &StubCall| match call.kind {
        PromptKind::PlawJudge if call.seen == 0 => {
            StubReply::Text("回答较好，给予大部分分数。".into())
        }
        _ => base(call),
    })
    .await
    .expect("stub");

    let once = tempfile::tempdir().expect("temp dir");
    let job = Job::new(config(&stub.base_url, once.path()), items.clone()).expect("valid");
    let run = job
        .run(CancellationToken::new())
        .await
        .expect("runs")
        .remove(0)
        .parsed;
    assert_eq!(
        run.unavailable(),
        items.len(),
        "one attempt: every seat fails"
    );
    let seat = &run.items[0].judgements[0];
    assert!(seat.awarded.is_none());
    assert!(
        seat.unavailable
            .as_deref()
            .is_some_and(|r| r.starts_with("parse_error")),
        "{seat:?}"
    );
    assert_eq!(
        seat.judge_output.as_deref(),
        Some("回答较好，给予大部分分数。")
    );

    stub.reset();
    let twice = tempfile::tempdir().expect("temp dir");
    let mut config = config(&stub.base_url, twice.path());
    config.retry.judge_attempts = 2;
    let job = Job::new(config, items.clone()).expect("valid");
    let run = job
        .run(CancellationToken::new())
        .await
        .expect("runs")
        .remove(0)
        .parsed;
    assert_eq!(run.header.judge_attempts, 2);
    assert_eq!(run.unavailable(), 0);
    assert!(run
        .items
        .iter()
        .all(|i| i.judgements[0].attempts == Some(2) && i.judgements[0].unavailable.is_none()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_job_resumes_without_repeating_a_finished_call() {
    let items = items();
    let stub = Stub::with_latency(Duration::from_millis(20), oracle(&items))
        .await
        .expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let job = Job::new(config(&stub.base_url, dir.path()), items.clone()).expect("valid");
    let mut progress = job.progress();
    let cancel = CancellationToken::new();
    let canceller = cancel.clone();
    tokio::spawn(async move {
        while progress.changed().await.is_ok() {
            let p = progress.borrow().clone();
            if p.total > 0 && p.done >= p.total / 3 {
                canceller.cancel();
                break;
            }
        }
    });
    let err = job.run(cancel).await.expect_err("cancelled");
    assert!(matches!(err, PipelineError::Cancelled { .. }), "{err}");
    let first = stub.per_request();
    assert!(first.values().all(|&n| n == 1));
    stub.reset();

    let job = Job::new(config(&stub.base_url, dir.path()), items.clone()).expect("valid");
    let output = job
        .run(CancellationToken::new())
        .await
        .expect("resumes")
        .remove(0);
    let second = stub.per_request();
    assert!(!second.is_empty(), "interrupted midway");
    let repeated = second.keys().filter(|k| first.contains_key(*k)).count();
    assert_eq!(repeated, 0, "finished calls asked again");
    assert_eq!(first.len() + second.len(), 2 * items.len());
    assert_eq!(output.parsed.unavailable(), 0);
    let usage = &output.usage.roles["model"];
    assert_eq!(usage.calls + usage.cached_calls, items.len() as u64);
    assert!(usage.cached_calls > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn items_with_the_same_text_are_sampled_apart_and_resume_from_the_cache() {
    // Two items of one dataset may share their context and question (the
    // official release has such pairs); at a temperature above 0 each needs
    // its own answer and judgement, not the other's from the call cache.
    let mut items = items();
    let mut twin = items[0].clone();
    twin.item_id = format!("{}-twin", twin.item_id);
    items.push(twin);
    let stub = Stub::start(oracle(&items)).await.expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let job = Job::new(config(&stub.base_url, dir.path()), items.clone()).expect("valid");
    let output = job
        .run(CancellationToken::new())
        .await
        .expect("the job runs")
        .remove(0);
    assert_eq!(
        stub.count(PromptKind::PlawModel),
        items.len(),
        "one model call per item, the twins' included"
    );
    assert_eq!(stub.count(PromptKind::PlawJudge), items.len());
    let model = &output.usage.roles["model"];
    assert_eq!((model.calls, model.cached_calls), (items.len() as u64, 0));
    assert_eq!(output.parsed.unavailable(), 0);

    // The same job again resumes from the cache: every item finds its own
    // calls, and the stub is asked nothing.
    stub.reset();
    let job = Job::new(config(&stub.base_url, dir.path()), items.clone()).expect("valid");
    let again = job
        .run(CancellationToken::new())
        .await
        .expect("the job runs again")
        .remove(0);
    assert_eq!(stub.requests(), 0, "a finished call was asked again");
    let model = &again.usage.roles["model"];
    assert_eq!((model.calls, model.cached_calls), (0, items.len() as u64));
    assert_eq!(again.parsed.items, output.parsed.items);
}
