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
async fn a_killed_run_resumes_from_its_cache() {
    let cases = first_cases(4);
    let stub = Stub::with_latency(Duration::from_millis(30), oracle(&cases))
        .await
        .expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let args = run_args(&stub.base_url, dir.path(), 4);

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
