//! Interrupting a job and running it again: nothing finished is asked again.

mod common;

use std::collections::HashMap;
use std::time::Duration;

use engine::lexpilot::run::parse_run;
use pipeline::stub::{oracle, Stub};
use pipeline::{CancellationToken, Job, PipelineError};

/// Runs the job in `dir` to the end, and returns the labels of its run.
async fn finish(
    stub: &Stub,
    dir: &std::path::Path,
    cases: &[engine::lexpilot::dataset::Case],
) -> engine::lexpilot::run::Run {
    let job = Job::new(common::config(&stub.base_url, dir), cases.to_vec()).expect("valid config");
    let outputs = job.run(CancellationToken::new()).await.expect("job runs");
    let text = std::fs::read_to_string(&outputs[0].path).expect("run file");
    common::labels_only(&parse_run(&text, cases).expect("valid run"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_job_resumes_without_repeating_a_finished_call() {
    let cases = common::demo_cases(8);
    let stub = Stub::with_latency(Duration::from_millis(15), oracle(&cases))
        .await
        .expect("stub starts");
    let dir = tempfile::tempdir().expect("temp dir");

    let job =
        Job::new(common::config(&stub.base_url, dir.path()), cases.clone()).expect("valid config");
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
    let err = job.run(cancel).await.expect_err("the job was cancelled");
    assert!(matches!(err, PipelineError::Cancelled { .. }), "{err}");
    assert!(err.to_string().contains("resume"), "{err}");
    assert!(!dir.path().join("Test-Model.run1.jsonl").exists());

    let first: HashMap<String, usize> = stub.per_request();
    assert!(!first.is_empty());
    assert!(
        first.values().all(|&n| n == 1),
        "no request twice in one job"
    );
    stub.reset();

    let resumed = finish(&stub, dir.path(), &cases).await;
    let second = stub.per_request();
    let repeated: Vec<&String> = second.keys().filter(|k| first.contains_key(*k)).collect();
    assert!(
        repeated.is_empty(),
        "{} finished calls were repeated",
        repeated.len()
    );
    assert!(!second.is_empty(), "the job was really interrupted midway");

    // The same requests as one uninterrupted job, and the same labels.
    stub.reset();
    let fresh_dir = tempfile::tempdir().expect("temp dir");
    let fresh = finish(&stub, fresh_dir.path(), &cases).await;
    assert_eq!(stub.per_request().len(), first.len() + second.len());
    assert_eq!(resumed.lca, fresh.lca);
    assert_eq!(resumed.dcg, fresh.dcg);
    assert_eq!(resumed.ljp, fresh.ljp);
    assert_eq!(
        resumed,
        common::expected_run(&cases, resumed.header.clone())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_job_repeats_at_most_the_calls_in_flight() {
    let cases = common::demo_cases(8);
    let stub = Stub::with_latency(Duration::from_millis(15), oracle(&cases))
        .await
        .expect("stub starts");
    let dir = tempfile::tempdir().expect("temp dir");
    let config = common::config(&stub.base_url, dir.path());
    let in_flight_bound = 3 * config.limits.concurrency;
    let job = Job::new(config, cases.clone()).expect("valid config");
    let mut progress = job.progress();
    let handle = tokio::spawn(job.run(CancellationToken::new()));
    while progress.changed().await.is_ok() {
        let p = progress.borrow().clone();
        if p.total > 0 && p.done >= p.total / 2 {
            break;
        }
    }
    handle.abort();
    let _ = handle.await;
    let first = stub.per_request();
    stub.reset();

    let resumed = finish(&stub, dir.path(), &cases).await;
    let repeated = stub
        .per_request()
        .keys()
        .filter(|k| first.contains_key(*k))
        .count();
    assert!(
        repeated <= in_flight_bound,
        "{repeated} calls repeated; at most {in_flight_bound} were in flight"
    );
    assert_eq!(
        resumed,
        common::expected_run(&cases, resumed.header.clone())
    );
}
