//! `lexpilot run` as a maintainer runs it, against a stub OpenAI-compatible
//! endpoint: valid run files for the first N cases, scores printed, the API
//! key kept out of every output, and a killed run resumed.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use pipeline::stub::{oracle, Stub};

const KEY: &str = "sk-cli-test-9d8c7b6a5f4e";
const VAR: &str = "LEXPILOT_RUN_CLI_TEST_KEY";

fn demo_path() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/demo-synthetic.jsonl")
        .to_string_lossy()
        .into_owned()
}

fn first_cases(n: usize) -> Vec<engine::lexpilot::dataset::Case> {
    let text = std::fs::read_to_string(demo_path()).expect("demo dataset");
    let mut cases = engine::lexpilot::dataset::parse_dataset(&text).expect("valid demo");
    cases.truncate(n);
    cases
}

fn run_args(base_url: &str, out: &Path, limit: usize) -> Vec<String> {
    [
        "run",
        "--dataset",
        &demo_path(),
        "--limit",
        &limit.to_string(),
        "--tasks",
        "lca,dcg,ljp",
        "--model",
        "Test-Model",
        "--model-url",
        base_url,
        "--model-key-env",
        VAR,
        "--family",
        "open",
        "--user-model",
        "Test-User",
        "--user-url",
        base_url,
        "--user-key-env",
        VAR,
        "--judge",
        "Test-Judge",
        "--judge-url",
        base_url,
        "--judge-key-env",
        VAR,
        "--retry-delay",
        "0.01",
        "--concurrency",
        "3",
        "--out",
        &out.to_string_lossy(),
    ]
    .map(str::to_owned)
    .to_vec()
}

fn lexpilot(args: &[String]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lexpilot"));
    command
        .args(args)
        .env(VAR, KEY)
        .env("RUST_LOG", "debug")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

async fn output(mut command: Command) -> Output {
    tokio::task::spawn_blocking(move || command.output().expect("lexpilot runs"))
        .await
        .expect("join")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_writes_valid_runs_of_the_first_cases_and_prints_their_scores() {
    let stub = Stub::start(oracle(&first_cases(3))).await.expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let out_dir = dir.path().join("out");
    let mut args = run_args(&stub.base_url, &out_dir, 3);
    args.extend(["--runs".to_owned(), "2".to_owned()]);
    let out = output(lexpilot(&args)).await;
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");

    // The limited dataset is written beside the runs, and the runs validate
    // against it.
    let limited = out_dir.join("demo-synthetic-first3.jsonl");
    let runs = [
        out_dir.join("Test-Model.run1.jsonl"),
        out_dir.join("Test-Model.run2.jsonl"),
    ];
    let mut validate = vec![
        "validate".to_owned(),
        "--dataset".to_owned(),
        limited.to_string_lossy().into_owned(),
    ];
    validate.extend(runs.iter().map(|p| p.to_string_lossy().into_owned()));
    let checked = output(lexpilot(&validate)).await;
    assert!(checked.status.success(), "{}", text(&checked.stderr));
    assert!(text(&checked.stdout).contains("0 unavailable"));

    // The scores the oracle implies for cases 0–2: LCA perfect, DCG 2 of 3.
    assert!(stdout.contains("Test-Model (open, 2 runs)"), "{stdout}");
    let row = |label: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(label))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(row("LCA macro-F1").ends_with("1.0000±0.0000"), "{stdout}");
    assert!(row("DCG accuracy").ends_with("0.6667±0.0000"), "{stdout}");
    assert!(row("LJP QWK gold").contains("1.0000"), "{stdout}");
    assert!(stderr.contains("first 3 cases"), "{stderr}");
    assert!(stderr.contains("usage in"), "{stderr}");

    // The key: sent, and nowhere else.
    assert_eq!(
        stub.authorizations().into_iter().collect::<Vec<_>>(),
        [format!("Bearer {KEY}")]
    );
    assert!(!stdout.contains(KEY) && !stderr.contains(KEY));
    let mut stack = vec![out_dir.clone()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("out dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).expect("file");
                assert!(
                    !text(&bytes).contains(KEY),
                    "{} holds the key",
                    path.display()
                );
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_makes_the_papers_five_repetitions_unless_told() {
    let stub = Stub::start(oracle(&first_cases(1))).await.expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let out = output(lexpilot(&run_args(&stub.base_url, dir.path(), 1))).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    for run in 1..=5 {
        let file = dir.path().join(format!("Test-Model.run{run}.jsonl"));
        assert!(file.exists(), "run {run} is written");
    }
    assert!(!dir.path().join("Test-Model.run6.jsonl").exists());
    assert!(text(&out.stdout).contains("Test-Model (open, 5 runs)"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_run_resumes_from_its_cache() {
    let cases = first_cases(4);
    let stub = Stub::with_latency(Duration::from_millis(30), oracle(&cases))
        .await
        .expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut args = run_args(&stub.base_url, dir.path(), 4);
    args.extend(["--runs".to_owned(), "1".to_owned()]);

    let mut child = lexpilot(&args).spawn().expect("lexpilot starts");
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while stub.requests() < 25 && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    child.kill().expect("kill");
    let _ = child.wait();
    let first = stub.per_request();
    assert!(
        !dir.path().join("Test-Model.run1.jsonl").exists(),
        "killed midway"
    );
    stub.reset();

    let out = output(lexpilot(&args)).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let repeated = stub
        .per_request()
        .keys()
        .filter(|k| first.contains_key(*k))
        .count();
    // At most three requests per endpoint were in flight when it was killed.
    assert!(repeated <= 9, "{repeated} finished calls were asked again");
    assert!(dir.path().join("Test-Model.run1.jsonl").exists());
}

// PLawBench: `lexpilot run --benchmark plawbench` against the stub's
// PLawBench oracle (`pipeline::stub::plawbench`).

fn plaw_path() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/plawbench/demo.jsonl")
        .to_string_lossy()
        .into_owned()
}

fn plaw_items() -> Vec<engine::plawbench::dataset::Item> {
    let text = std::fs::read_to_string(plaw_path()).expect("PLawBench demo");
    engine::plawbench::dataset::parse_dataset(&text).expect("valid demo")
}

/// A PLawBench run of the demo's 24 items: the model on `model_url`, the
/// judge `Test-Judge` on `judge_url`, fast retries; `extra` appended.
fn plaw_args(model_url: &str, judge_url: &str, out: &Path, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "run",
        "--benchmark",
        "plawbench",
        "--dataset",
        &plaw_path(),
        "--model",
        "Test-Model",
        "--model-url",
        model_url,
        "--model-key-env",
        VAR,
        "--judge",
        "Test-Judge",
        "--judge-url",
        judge_url,
        "--judge-key-env",
        VAR,
        "--max-attempts",
        "2",
        "--retry-delay",
        "0.01",
        "--concurrency",
        "3",
        "--out",
        &out.to_string_lossy(),
    ]
    .map(str::to_owned)
    .to_vec();
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    args
}

fn plaw_run(path: &Path) -> engine::plawbench::run::Run {
    let text = std::fs::read_to_string(path).expect("run file");
    engine::plawbench::run::parse_run(&text, &plaw_items()).expect("the run file validates")
}

fn plaw_run_path(out: &Path, run: u32) -> std::path::PathBuf {
    out.join(format!("Test-Model.plawbench.run{run}.jsonl"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plawbench_run_validates_and_prints_the_engines_scores() {
    use pipeline::stub::plawbench::{expected_acc, oracle};

    let items = plaw_items();
    let stub = Stub::start(oracle(&items)).await.expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let extra = [
        "--judge",
        "Second-Judge",
        "--judge-aggregation",
        "median",
        "--family",
        "open",
        "--model-family",
        "Test",
        "--runs",
        "2",
    ];
    let args = plaw_args(&stub.base_url, &stub.base_url, dir.path(), &extra);
    let out = output(lexpilot(&args)).await;
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("usage in"), "{stderr}");
    // One model call per item and run, one per judge too.
    assert_eq!(stub.requests(), 2 * 3 * items.len());

    let runs = [plaw_run_path(dir.path(), 1), plaw_run_path(dir.path(), 2)];
    let mut validate = vec![
        "validate".to_owned(),
        "--benchmark".to_owned(),
        "plawbench".to_owned(),
        "--dataset".to_owned(),
        plaw_path(),
    ];
    validate.extend(runs.iter().map(|p| p.to_string_lossy().into_owned()));
    let checked = output(lexpilot(&validate)).await;
    assert!(checked.status.success(), "{}", text(&checked.stderr));
    assert_eq!(text(&checked.stdout).matches("0 unavailable").count(), 2);

    let parsed: Vec<_> = runs.iter().map(|p| plaw_run(p)).collect();
    for run in &parsed {
        let h = &run.header;
        assert_eq!(
            h.judge_aggregation,
            engine::core::panel::Aggregation::Median
        );
        assert_eq!(h.judge_parse, engine::plawbench::run::ParseMode::Lenient);
        assert_eq!(h.judge_attempts, 1);
        assert_eq!(h.source, engine::plawbench::run::Source::Workbench);
        assert_eq!(h.dataset.as_deref(), Some("demo"));
        assert_eq!(h.model_family.as_deref(), Some("Test"));
        assert_eq!(
            h.judge_models().collect::<Vec<_>>(),
            ["Test-Judge", "Second-Judge"]
        );
        assert!(h.created_at.is_some());
        for (i, (judged, item)) in run.items.iter().zip(&items).enumerate() {
            let outcome = engine::plawbench::score::score_item(item, judged, h.judge_aggregation);
            assert_eq!(outcome.panel.map(|p| p.acc), Some(expected_acc(i)), "{i}");
        }
    }
    // The scores printed are the engine's, as `lexpilot score` prints them.
    let doc = engine::plawbench::score::score_entries(&parsed, &items).with_dataset("demo");
    assert_eq!(stdout, server::report::render_plawbench(&doc));
    assert!(stdout.contains("Test-Model (Test, 2 runs)"), "{stdout}");
    let mut score = vec![
        "score".to_owned(),
        "--benchmark".to_owned(),
        "plawbench".to_owned(),
        "--dataset".to_owned(),
        plaw_path(),
    ];
    score.extend(runs.iter().map(|p| p.to_string_lossy().into_owned()));
    let scored = output(lexpilot(&score)).await;
    assert!(scored.status.success(), "{}", text(&scored.stderr));
    assert_eq!(text(&scored.stdout), stdout);

    assert!(!stdout.contains(KEY) && !stderr.contains(KEY));
    for path in runs {
        assert!(!std::fs::read_to_string(path)
            .unwrap_or_default()
            .contains(KEY));
    }
}

/// The oracle, with every judge reply to a `legal_consultation` item in the
/// shape of the template, trailing comma included.
fn trailing_comma_oracle(
    items: &[engine::plawbench::dataset::Item],
) -> impl Fn(&pipeline::stub::StubCall) -> pipeline::stub::StubReply + Send + Sync + 'static {
    use pipeline::stub::plawbench::{fraction, item_index, oracle};
    use pipeline::stub::{PromptKind, StubReply};

    let base = oracle(items);
    let items = items.to_vec();
    move |call| match (call.kind, item_index(&items, call)) {
        (PromptKind::PlawJudge, Some(i))
            if items[i].task == engine::plawbench::dataset::Task::LegalConsultation =>
        {
            let max = items[i].max_points;
            StubReply::Text(format!(
                "该律师问到了部分要点。\n```json\n    {{\n        \"total_points\": {},\n        \"max_points\": {max},\n    }}\n```",
                f64::from(max) * fraction(i)
            ))
        }
        _ => base(call),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trailing_comma_reads_in_lenient_mode_and_is_unavailable_in_strict_mode() {
    use engine::plawbench::dataset::Task;

    let items = plaw_items();
    let stub = Stub::start(trailing_comma_oracle(&items))
        .await
        .expect("stub");
    let consultations = items
        .iter()
        .filter(|i| i.task == Task::LegalConsultation)
        .count();
    for mode in ["lenient", "strict"] {
        let dir = tempfile::tempdir().expect("temp dir");
        let args = plaw_args(
            &stub.base_url,
            &stub.base_url,
            dir.path(),
            &["--judge-parse", mode],
        );
        let out = output(lexpilot(&args)).await;
        assert!(out.status.success(), "{mode}: {}", text(&out.stderr));
        let run = plaw_run(&plaw_run_path(dir.path(), 1));
        assert_eq!(run.header.judge_parse.as_str(), mode);
        for judged in &run.items {
            let seat = &judged.judgements[0];
            let affected = judged.task == Task::LegalConsultation;
            if mode == "strict" && affected {
                assert!(seat.awarded.is_none(), "{seat:?}");
                let reason = seat.unavailable.as_deref().unwrap_or_default();
                assert!(reason.starts_with("parse_error"), "{reason}");
                assert!(seat
                    .judge_output
                    .as_deref()
                    .is_some_and(|o| o.contains(",\n    }")));
            } else {
                assert!(seat.awarded.is_some(), "{mode}: {seat:?}");
            }
        }
        let expected_unavailable = if mode == "strict" { consultations } else { 0 };
        assert_eq!(run.unavailable(), expected_unavailable, "{mode}");
        let stdout = text(&out.stdout);
        if mode == "strict" {
            // Task1 is the consultations' score: none left, so no number.
            assert!(
                stdout.contains(&format!("unavailable: legal_consultation {consultations}")),
                "{stdout}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_judge_answering_in_prose_only_leaves_its_seat_unavailable() {
    use pipeline::stub::plawbench::oracle;
    use pipeline::stub::StubReply;

    let items = plaw_items();
    let base = oracle(&items);
    let stub = Stub::start(move |call: &pipeline::stub::StubCall| {
        if call.model == "Prose-Judge" {
            StubReply::Text("回答结构清晰，要点基本齐全，建议给予较高分数。".into())
        } else {
            base(call)
        }
    })
    .await
    .expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let extra = ["--judge", "Prose-Judge", "--judge-attempts", "2"];
    let args = plaw_args(&stub.base_url, &stub.base_url, dir.path(), &extra);
    let out = output(lexpilot(&args)).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let run = plaw_run(&plaw_run_path(dir.path(), 1));
    assert_eq!(run.header.judge_attempts, 2);
    // The other judge still scores every item.
    assert_eq!(run.unavailable(), 0);
    for judged in &run.items {
        let prose = &judged.judgements[1];
        assert_eq!(prose.judge, "Prose-Judge");
        assert!(prose.awarded.is_none());
        assert_eq!(prose.attempts, Some(2));
        let reason = prose.unavailable.as_deref().unwrap_or_default();
        assert!(reason.starts_with("parse_error"), "{reason}");
        assert!(judged.judgements[0].awarded.is_some());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_model_endpoint_makes_items_unavailable_never_zero() {
    use pipeline::stub::plawbench::oracle;
    use pipeline::stub::StubReply;

    let items = plaw_items();
    let failing = Stub::start(|_: &pipeline::stub::StubCall| StubReply::Status {
        status: 500,
        retry_after: None,
    })
    .await
    .expect("stub");
    let judges = Stub::start(oracle(&items)).await.expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let args = plaw_args(&failing.base_url, &judges.base_url, dir.path(), &[]);
    let out = output(lexpilot(&args)).await;
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    // Two attempts per item, and no judge asked about nothing.
    assert_eq!(failing.requests(), 2 * items.len());
    assert_eq!(judges.requests(), 0);

    let run = plaw_run(&plaw_run_path(dir.path(), 1));
    assert_eq!(run.unavailable(), items.len());
    for judged in &run.items {
        let reason = judged.unavailable.as_deref().unwrap_or_default();
        assert!(
            reason.contains("model call failed after 2 attempts: HTTP 500"),
            "{reason}"
        );
        assert!(judged.judgements.is_empty() && judged.response.is_none());
    }
    let scores = engine::plawbench::score::score_run(&run, &items);
    assert!(scores
        .tasks
        .values()
        .all(|t| t.acc.is_none() && t.scored == 0));
    assert!(scores.per_sample_overall.is_none());
    assert!(!stdout.contains("0.00"), "a zero was printed: {stdout}");
    assert!(stdout.contains("unavailable: case_analysis 12"), "{stdout}");
    assert!(stderr.contains("24 unavailable items"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interrupted_plawbench_run_resumes_without_repeating_a_call() {
    use pipeline::stub::plawbench::oracle;

    let items = plaw_items();
    let stub = Stub::with_latency(Duration::from_millis(40), oracle(&items))
        .await
        .expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let args = plaw_args(&stub.base_url, &stub.base_url, dir.path(), &[]);

    let child = lexpilot(&args).spawn().expect("lexpilot starts");
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while stub.requests() < 12 && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Ctrl-C: no new request; those in flight finish and are cached.
    let signalled = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(signalled.success());
    let interrupted = tokio::task::spawn_blocking(move || child.wait_with_output())
        .await
        .expect("join")
        .expect("lexpilot exits");
    assert_eq!(
        interrupted.status.code(),
        Some(130),
        "{}",
        text(&interrupted.stderr)
    );
    assert!(text(&interrupted.stderr).contains("resume"));
    assert!(!plaw_run_path(dir.path(), 1).exists(), "interrupted midway");
    let first = stub.per_request();
    assert!(first.values().all(|&n| n == 1));
    stub.reset();

    let out = output(lexpilot(&args)).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let second = stub.per_request();
    let repeated = second.keys().filter(|k| first.contains_key(*k)).count();
    assert_eq!(repeated, 0, "finished calls were asked again");
    assert!(second.values().all(|&n| n == 1));
    // Together, every call of one uninterrupted run: a model and a judge
    // call per item.
    assert_eq!(first.len() + second.len(), 2 * items.len());
    let run = plaw_run(&plaw_run_path(dir.path(), 1));
    assert_eq!(run.unavailable(), 0);
    let usage: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("Test-Model.plawbench.run1.usage.json"))
            .expect("usage sidecar"),
    )
    .expect("usage JSON");
    let model = &usage["roles"]["model"];
    assert_eq!(
        model["calls"].as_u64().unwrap_or(0) + model["cached_calls"].as_u64().unwrap_or(0),
        items.len() as u64
    );
    assert!(model["cached_calls"].as_u64().unwrap_or(0) > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn options_of_the_other_benchmark_are_refused_by_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let unused = "http://127.0.0.1:9/v1";
    let plaw = plaw_args(
        unused,
        unused,
        dir.path(),
        &["--user-model", "U", "--tasks", "lca"],
    );
    let out = output(lexpilot(&plaw)).await;
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains(
            "--tasks is LexPilot's; --user-model is LexPilot's and DLawBench's \
             (--benchmark dlawbench), not PLawBench's"
        ),
        "{}",
        text(&out.stderr)
    );
    let mut lexpilot_args = run_args(unused, dir.path(), 1);
    lexpilot_args.extend(["--judge-parse".to_owned(), "strict".to_owned()]);
    let out = output(lexpilot(&lexpilot_args)).await;
    assert!(!out.status.success());
    assert!(
        text(&out.stderr)
            .contains("--judge-parse is PLawBench's (--benchmark plawbench), not LexPilot's"),
        "{}",
        text(&out.stderr)
    );
    let mut dlaw = dlaw_args(
        unused,
        dir.path(),
        &["--tasks", "lca", "--judge-parse", "strict"],
    );
    dlaw.extend(["--judge-aggregation".to_owned(), "median".to_owned()]);
    let out = output(lexpilot(&dlaw)).await;
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains(
            "--tasks is LexPilot's; --judge-aggregation, --judge-parse are PLawBench's \
             (--benchmark plawbench), not DLawBench's"
        ),
        "{}",
        text(&out.stderr)
    );
    let mut lexpilot_args = run_args(unused, dir.path(), 1);
    lexpilot_args.extend(["--horizon".to_owned(), "3".to_owned()]);
    let out = output(lexpilot(&lexpilot_args)).await;
    assert!(
        text(&out.stderr)
            .contains("--horizon is DLawBench's (--benchmark dlawbench), not LexPilot's"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read_dir(dir.path())
            .map(Iterator::count)
            .unwrap_or(0),
        0,
        "nothing was run or written"
    );
}

fn dlaw_path() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/dlawbench/demo.jsonl")
        .to_string_lossy()
        .into_owned()
}

/// A DLawBench run of the first four demo cases: the lawyer GPT-Lawyer,
/// the client and a panel of three (GPT, Claude, Gemini) on `url`.
fn dlaw_args(url: &str, out: &Path, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "run",
        "--benchmark",
        "dlawbench",
        "--dataset",
        &dlaw_path(),
        "--limit",
        "4",
        "--lawyer-model",
        "GPT-Lawyer",
        "--lawyer-url",
        url,
        "--lawyer-key-env",
        VAR,
        "--client-model",
        "Test-Client",
        "--client-url",
        url,
        "--client-key-env",
        VAR,
        "--judge",
        "GPT-Judge",
        "--judge",
        "Claude-Judge",
        "--judge",
        "Gemini-Judge",
        "--judge-url",
        url,
        "--judge-key-env",
        VAR,
        "--max-attempts",
        "2",
        "--retry-delay",
        "0.01",
        "--concurrency",
        "3",
        "--out",
        &out.to_string_lossy(),
    ]
    .map(str::to_owned)
    .to_vec();
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    args
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dlawbench_run_writes_a_valid_run_file_and_stores_it() {
    let text_of = |p: &Path| std::fs::read_to_string(p).expect("file");
    let mut cases = engine::dlawbench::dataset::parse_dataset(&text_of(Path::new(&dlaw_path())))
        .expect("the DLawBench demo parses");
    cases.truncate(4);
    let stub = Stub::start(pipeline::stub::dlawbench::oracle(&cases))
        .await
        .expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let db_path = dir.path().join("workbench.db");
    let db_arg = db_path.to_string_lossy().into_owned();
    let args = dlaw_args(
        &stub.base_url,
        dir.path(),
        &[
            "--horizon",
            "3",
            "--styles",
            "cooperative,withdrawn,dependent,adversarial",
            "--db",
            &db_arg,
        ],
    );
    let out = output(lexpilot(&args)).await;
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(
        !stderr.contains(KEY) && !stdout.contains(KEY),
        "the key leaked"
    );

    let limited = dir.path().join("demo-first4.jsonl");
    let limited_cases =
        engine::dlawbench::dataset::parse_dataset(&text_of(&limited)).expect("limited dataset");
    assert_eq!(limited_cases, cases);
    let run_path = dir.path().join("GPT-Lawyer.dlawbench.run1.jsonl");
    let run = engine::dlawbench::run::parse_run(&text_of(&run_path), &cases)
        .expect("the run file validates against the dataset");
    assert_eq!(run.header.horizon, 3);
    assert_eq!(run.header.recusals(), Some(vec![true, false, false]));
    assert_eq!(run.header.client_model.as_deref(), Some("Test-Client"));
    assert_eq!(run.sessions.len(), 4 * cases.len());
    assert_eq!(run.unavailable(), 0);
    assert!(dir
        .path()
        .join("GPT-Lawyer.dlawbench.run1.usage.json")
        .exists());

    // The same table as `lexpilot score --benchmark dlawbench` prints.
    assert!(
        stdout.contains("GPT-Lawyer (") && stdout.contains("1 run)"),
        "{stdout}"
    );
    assert!(stdout.contains("Fact Resolution"), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "{} sessions: 0 task failures, 0 unavailable",
            run.sessions.len()
        )),
        "{stdout}"
    );
    // DLawBench is hosted: `--db` stores the run through the one ingest.
    assert!(stderr.contains("stored 1 run in"), "{stderr}");
    assert!(db_path.exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_db_the_runs_of_a_hosted_benchmark_are_stored_through_the_ingest() {
    let items = plaw_items();
    let stub = Stub::start(pipeline::stub::plawbench::oracle(&items))
        .await
        .expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let db_path = dir.path().join("workbench.db");
    let db_arg = db_path.to_string_lossy().into_owned();
    let args = plaw_args(
        &stub.base_url,
        &stub.base_url,
        dir.path(),
        &["--runs", "2", "--db", &db_arg],
    );
    let out = output(lexpilot(&args)).await;
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("stored 2 runs in"), "{stderr}");

    let db = db::Db::open(&db_path).await.expect("database");
    let dataset = db::datasets::current(&db, engine::benchmark::Benchmark::Plawbench)
        .await
        .expect("query")
        .expect("the dataset was imported");
    assert_eq!(dataset.case_count as usize, items.len());
    let runs = db::runs::list(&db, dataset.id).await.expect("runs");
    let mut numbers: Vec<i64> = runs.iter().map(|r| r.run_number).collect();
    numbers.sort_unstable();
    assert_eq!(numbers, [1, 2]);
    assert!(runs.iter().all(|r| r.model == "Test-Model"));
    drop(db);

    // The same runs again: served from the cache, the dataset reused, and
    // the runs refused as stored already; nothing changes.
    let out = output(lexpilot(&args)).await;
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("nothing was stored"), "{stderr}");
    let db = db::Db::open(&db_path).await.expect("database");
    assert_eq!(db::runs::count(&db, dataset.id).await.expect("count"), 2);
}
