//! The Targeted vs Off-target experiment from the command line to the
//! paper page: `lexpilot experiment targeted --db` against the stub over
//! 127.0.0.1 on the demo dataset, as one of its models, then Table 4 on
//! `/paper` (rendered on the server, so with JavaScript off) beside that
//! model's stored Direct QWK, its unresolved cases listed, and its exports.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use axum::http::StatusCode;
use common::TestApp;
use pipeline::stub::{targeted::oracle, Stub};

fn demo_path() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/demo-synthetic.jsonl")
        .to_string_lossy()
        .into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_targeted_results_show_up_as_table_4_on_the_paper_page() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db_path = dir.path().join("lexpilot.db");
    let app = TestApp::on_database(&db_path).await;
    server::demo::ensure_loaded(&app.db)
        .await
        .expect("demo loads");
    let before = app.get("/paper").await;
    assert!(before.body.contains("data-testid=\"table-4-empty\""));

    let cases = engine::lexpilot::dataset::parse_dataset(
        &std::fs::read_to_string(demo_path()).expect("demo"),
    )
    .expect("valid demo");
    let stub = Stub::start(oracle(&cases)).await.expect("stub");
    let out = dir.path().join("out");
    let base = stub.base_url.clone();
    let args: Vec<String> = [
        "experiment",
        "targeted",
        "--dataset",
        &demo_path(),
        "--dataset-name",
        server::demo::DEMO_NAME,
        "--model",
        "Sim-Frontier-2 (simulated)",
        "--model-url",
        &base,
        "--family",
        "closed",
        "--user-model",
        "Test-User",
        "--user-url",
        &base,
        "--judge",
        "Test-Judge",
        "--judge-url",
        &base,
        "--runs",
        "2",
        "--concurrency",
        "8",
        "--retry-delay",
        "0.01",
        "--out",
        &out.to_string_lossy(),
        "--db",
        &db_path.to_string_lossy(),
    ]
    .map(str::to_owned)
    .to_vec();
    let output = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_lexpilot"))
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .expect("lexpilot runs")
    })
    .await
    .expect("join");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    );
    assert!(output.status.success(), "{stderr}");
    assert!(out
        .join("Sim-Frontier-2__simulated_.targeted.run2.jsonl")
        .exists());
    assert!(stdout.contains("Table 4"), "{stdout}");
    assert!(
        stdout.contains("unresolved (excluded from scoring)"),
        "{stdout}"
    );
    assert!(
        stderr.contains("stored 2 Targeted vs Off-target results"),
        "{stderr}"
    );

    // Stored by another process: the cached page sees it within a poll
    // of the change log.
    let page = app
        .get_when("/paper", |p| !p.body.contains("table-4-empty"))
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(!page.body.contains("table-4-empty"));
    assert!(page.body.contains("data-testid=\"paper-table_4\""));
    assert!(page.body.contains("data-testid=\"table-4-unresolved\""));
    // Cases i % 4 == 3 of the 72 are unresolved off-target: 18.
    assert!(page.body.contains("Unresolved cases (18)"), "listed");

    let table: serde_json::Value = app
        .get("/api/leaderboard/export?paper=table_4&format=json")
        .await
        .json();
    let rows = table["rows"].as_array().cloned().unwrap_or_default();
    assert_eq!(rows.len(), 1, "{table}");
    assert_eq!(rows[0]["label"], "Sim-Frontier-2 (simulated)");
    let cell = |i: usize| rows[0]["cells"][i]["mean"].as_f64();
    let direct = cell(0).expect("Direct from the model's stored Direct runs");
    assert!(direct > 0.0 && direct < 1.0, "{direct}");
    assert_eq!(
        cell(1),
        Some(1.0),
        "the stub's targeted dialogues give the gold verdicts"
    );
    assert!(cell(2).expect("off-target") < direct, "{table}");
    assert_eq!(cell(3), Some(72.0), "every case accepted under Targeted");
    assert_eq!(cell(4), Some(0.0), "no targeted case unresolved");
    assert_eq!(cell(6), Some(54.0), "off-target accepted");
    assert_eq!(cell(7), Some(18.0), "off-target unresolved");
    let columns: Vec<&str> = table["columns"]
        .as_array()
        .map(|c| c.iter().filter_map(|c| c["key"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        &columns[..3],
        ["direct", "targeted", "off_target"],
        "Table 4's columns"
    );
    let csv = app
        .get("/api/leaderboard/export?paper=table_4&format=csv")
        .await;
    assert!(
        csv.body.starts_with("group,row,direct_mean"),
        "{}",
        csv.body
    );
    let latex = app
        .get("/api/leaderboard/export?paper=table_4&format=latex")
        .await;
    assert!(latex.body.contains("Off-target"));

    // Storing the same runs again is refused and stores nothing.
    let again = tokio::task::spawn_blocking({
        let db = db_path.clone();
        let file = out.join("Sim-Frontier-2__simulated_.targeted.run1.jsonl");
        move || {
            Command::new(env!("CARGO_BIN_EXE_lexpilot"))
                .args([
                    "experiment",
                    "store-targeted",
                    "--dataset",
                    &demo_path(),
                    "--dataset-name",
                    server::demo::DEMO_NAME,
                    "--db",
                    &db.to_string_lossy(),
                    &file.to_string_lossy(),
                ])
                .output()
                .expect("lexpilot runs")
        }
    })
    .await
    .expect("join");
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already stored"));
}
