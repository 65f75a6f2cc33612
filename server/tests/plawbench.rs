//! PLawBench through the HTTP API: the demo dataset and runs load beside
//! LexPilot's, runs are stored through the one ingest (the header's
//! benchmark picks the dataset), the leaderboard document is the engine's,
//! and bad files store nothing.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::evalscope::{import, with_fixture_dataset, FIXTURES};
use common::json::{assert_close, next_event};
use common::TestApp;
use engine::accounts::Role;
use engine::plawbench::{dataset, run, score};
use server::demo::{PLAW_DEMO_DATASET, PLAW_DEMO_NAME, PLAW_DEMO_RUNS};

async fn token(app: &TestApp) -> String {
    app.user("researcher", Role::Researcher, "a-long-password")
        .await;
    let user = db::users::by_name(&app.db, "researcher")
        .await
        .expect("query")
        .expect("user");
    db::tokens::create(&app.db, &user).await.expect("token")
}

fn upload(token: &str, body: String, query: &str) -> Request<Body> {
    Request::post(format!("/api/runs{query}"))
        .header(header::HOST, "127.0.0.1:3000")
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::from(body))
        .expect("request")
}

/// Demo run `index` as `model`'s run 1.
fn relabelled(index: usize, model: &str) -> String {
    let (_, text) = PLAW_DEMO_RUNS[index];
    let (header, items) = text.split_once('\n').expect("a header line");
    let mut header: serde_json::Value = serde_json::from_str(header).expect("JSON");
    header["model"] = model.into();
    header["run"] = 1.into();
    format!("{header}\n{items}")
}

async fn plaw_runs(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM runs WHERE benchmark = 'plawbench'")
        .fetch_one(app.db.pool())
        .await
        .expect("count")
}

#[tokio::test]
async fn the_demo_leaderboard_is_the_engines_document_of_the_demo_runs() {
    let app = TestApp::with_demo().await;
    let doc = app.get("/api/leaderboard?benchmark=plawbench").await;
    assert_eq!(doc.status, StatusCode::OK, "{}", doc.body);
    let items = dataset::parse_dataset(PLAW_DEMO_DATASET).expect("demo");
    let runs: Vec<run::Run> = PLAW_DEMO_RUNS
        .iter()
        .map(|(_, text)| run::parse_run(text, &items).expect("demo run"))
        .collect();
    let expected =
        serde_json::to_value(score::score_entries(&runs, &items).with_dataset(PLAW_DEMO_NAME))
            .expect("json");
    assert_close(&doc.json(), &expected, "$", 1e-12);
    assert_eq!(doc.json()["entries"].as_array().map(Vec::len), Some(3));
    // LexPilot's document is still the default.
    let lexpilot = app.get("/api/leaderboard").await.json();
    assert_eq!(lexpilot["dataset"], "lexpilot-demo-synthetic");
}

#[tokio::test]
async fn a_run_stored_through_the_api_joins_the_leaderboard() {
    let app = TestApp::with_demo().await;
    let researcher = token(&app).await;
    let res = app
        .send(upload(&researcher, relabelled(0, "Newcomer-9B"), ""))
        .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let body = res.json();
    assert_eq!(body["dataset"], PLAW_DEMO_NAME);
    assert!(body["scores"]["tasks"]["case_analysis"]["acc"].is_number());
    let doc = app.get("/api/leaderboard?benchmark=plawbench").await.json();
    let models: Vec<&str> = doc["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter_map(|e| e["model"].as_str())
        .collect();
    assert!(models.contains(&"Newcomer-9B"), "{models:?}");
    // The same file again is a duplicate.
    let again = app
        .send(upload(&researcher, relabelled(0, "Newcomer-9B"), ""))
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
}

#[tokio::test]
async fn its_pages_hear_of_its_runs_and_not_of_another_benchmarks() {
    let app = TestApp::with_demo().await;
    let mut feed = app
        .open_stream("/api/events?benchmark=plawbench")
        .await
        .into_body();
    let researcher = token(&app).await;
    let lexpilot =
        server::demo::DEMO_RUNS[6]
            .1
            .replacen("Sim-Frontier-2 (simulated)", "LexPilot-Only", 1);
    let res = app.send(upload(&researcher, lexpilot, "")).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let res = app
        .send(upload(&researcher, relabelled(0, "PLaw-Only"), ""))
        .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    // The first runs event this page hears is its own benchmark's.
    let data: serde_json::Value = serde_json::from_str(
        &next_event(&mut feed, "runs", std::time::Duration::from_secs(5)).await,
    )
    .expect("JSON data");
    assert_eq!(data["benchmark"], "plawbench");
    assert_eq!(data["models"], serde_json::json!(["PLaw-Only"]));
}

#[tokio::test]
async fn bad_runs_name_line_and_field_and_store_nothing() {
    let app = TestApp::with_demo().await;
    let researcher = token(&app).await;
    let before = plaw_runs(&app).await;
    let file = relabelled(0, "Broken-1B");
    let mut lines: Vec<String> = file.lines().map(str::to_owned).collect();
    lines[3] = lines[3].replace("\"item_id\": \"", "\"item_id\": \"no-such-");
    let res = app.send(upload(&researcher, lines.join("\n"), "")).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let errors = res.json()["errors"].clone();
    assert!(
        errors
            .as_array()
            .expect("errors")
            .iter()
            .any(|e| e["line"] == 4 && e["field"] == "item_id"),
        "{errors}"
    );
    assert_eq!(plaw_runs(&app).await, before);

    let res = app
        .send(upload(&researcher, relabelled(0, "X"), "?benchmark=chess"))
        .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
    assert!(res.body.contains("plawbench"), "{}", res.body);
    let res = app
        .send(upload(
            &researcher,
            relabelled(0, "X"),
            "?benchmark=dlawbench",
        ))
        .await;
    // DLawBench is hosted: a PLawBench file sent to its dataset is refused
    // naming the header's benchmark.
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let errors = res.json()["errors"].clone();
    assert!(
        errors
            .as_array()
            .expect("errors")
            .iter()
            .any(|e| e["line"] == 1 && e["field"] == "benchmark"),
        "{errors}"
    );
    assert_eq!(plaw_runs(&app).await, before);
}

/// A zip archive of the fixture output folder `name`, every file under it.
fn zipped(name: &str) -> Vec<u8> {
    use std::io::Write;
    let root = std::path::Path::new(FIXTURES).join(name);
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let mut pending = vec![root.clone()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let name = path.strip_prefix(&root).expect("under root");
            zip.start_file(
                name.to_string_lossy(),
                zip::write::SimpleFileOptions::default(),
            )
            .expect("entry");
            zip.write_all(&std::fs::read(&path).expect("read"))
                .expect("write");
        }
    }
    zip.finish().expect("zip").into_inner()
}

#[tokio::test]
async fn an_evalscope_archive_is_checked_then_lands_on_the_leaderboard() {
    let (app, items) = with_fixture_dataset().await;
    let researcher = token(&app).await;
    let check = app
        .send(import(&researcher, zipped("v2"), "?check=true"))
        .await;
    assert_eq!(check.status, StatusCode::OK, "{}", check.body);
    let report = check.json();
    let folder = &report["import"]["folders"][0];
    assert_eq!(folder["model"], "qwen-plus");
    let subsets = folder["reconciliation"]["subsets"]
        .as_array()
        .expect("subsets");
    assert!(
        !subsets.is_empty() && subsets.iter().all(|s| s["ok"] == true),
        "{subsets:?}"
    );
    assert_eq!(plaw_runs(&app).await, 0, "a check stores nothing");

    let stored = app
        .send(import(&researcher, zipped("v2"), "?model_family=Qwen"))
        .await;
    assert_eq!(stored.status, StatusCode::CREATED, "{}", stored.body);
    assert_eq!(
        stored.json()["stored"].as_array().map(Vec::len),
        Some(2),
        "two generations"
    );
    // The leaderboard's entry is the engine's conversion of the same folder.
    let files = services::evalscope::read_zip(std::io::Cursor::new(zipped("v2"))).expect("zip");
    let folders = engine::plawbench::evalscope::layout::folders(&files).expect("folders");
    let options = engine::plawbench::evalscope::ImportOptions {
        dataset: Some("plaw-fixture".into()),
        model_family: Some("Qwen".into()),
        ..Default::default()
    };
    let imported =
        engine::plawbench::evalscope::import_folder(&folders[0], &items, &options).expect("import");
    let expected = serde_json::to_value(
        score::score_entries(&imported.runs, &items).with_dataset("plaw-fixture"),
    )
    .expect("json");
    let doc = app.get("/api/leaderboard?benchmark=plawbench").await.json();
    assert_close(&doc, &expected, "$", 1e-12);
    assert_eq!(doc["entries"][0]["model_family"], "Qwen");

    // The same archive again: refused, unless replacing.
    let again = app.send(import(&researcher, zipped("v2"), "")).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    let replaced = app
        .send(import(&researcher, zipped("v2"), "?replace=true"))
        .await;
    assert_eq!(replaced.status, StatusCode::CREATED, "{}", replaced.body);
    assert_eq!(plaw_runs(&app).await, 2);

    // Another researcher may not replace them (issue 39, N5).
    let other = app.token("other", Role::Researcher).await;
    let refused = app
        .send(import(&other, zipped("v2"), "?replace=true"))
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    assert!(
        refused.body.contains("only its uploader or an admin"),
        "{}",
        refused.body
    );
}

#[tokio::test]
async fn a_legacy_judge_failure_is_unavailable_never_zero() {
    let (app, _) = with_fixture_dataset().await;
    let researcher = token(&app).await;
    let res = app.send(import(&researcher, zipped("v1-legacy"), "")).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let doc = app.get("/api/leaderboard?benchmark=plawbench").await.json();
    let unavailable = &doc["entries"][0]["counts"]["unavailable"];
    let total: u64 = unavailable
        .as_object()
        .expect("counts")
        .values()
        .filter_map(serde_json::Value::as_u64)
        .sum();
    assert!(
        total > 0,
        "judge_failed items are counted as unavailable: {unavailable}"
    );
    let runs: Vec<String> =
        sqlx::query_scalar("SELECT items FROM runs WHERE benchmark = 'plawbench'")
            .fetch_all(app.db.pool())
            .await
            .expect("runs");
    assert!(
        runs[0].contains("evalscope: judge_failed"),
        "the reason is kept"
    );
}

#[tokio::test]
async fn output_that_cannot_be_imported_is_refused_with_its_files_and_stores_nothing() {
    let (app, _) = with_fixture_dataset().await;
    let researcher = token(&app).await;
    let res = app
        .send(import(&researcher, b"not a zip".to_vec(), ""))
        .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
    assert!(res.body.contains("not a zip archive"), "{}", res.body);

    // A report alone has no items.
    let mut only_report = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    only_report
        .start_file(
            "out/reports/m/plawbench.json",
            zip::write::SimpleFileOptions::default(),
        )
        .expect("entry");
    std::io::Write::write_all(&mut only_report, b"{}").expect("write");
    let body = only_report.finish().expect("zip").into_inner();
    let res = app.send(import(&researcher, body, "")).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let errors = res.json()["errors"].clone();
    assert!(
        errors[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("reviews")),
        "{errors}"
    );

    // Another dataset's output: the item ids or rubrics do not match.
    let (other, _) = with_fixture_dataset().await;
    drop(other);
    let app2 = TestApp::with_demo().await;
    let token2 = token(&app2).await;
    let res = app2.send(import(&token2, zipped("v2"), "")).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let errors = res.json()["errors"].clone();
    assert!(
        errors[0]["file"]
            .as_str()
            .is_some_and(|f| f.contains("plawbench_")),
        "{errors}"
    );
    assert_eq!(plaw_runs(&app).await, 0);
    assert_eq!(plaw_runs(&app2).await, 6, "only the demo runs");
}

const MIB: u64 = 1024 * 1024;

/// A zip archive of `members`, each `(name, MiB of zeros)` deflated: a zip
/// bomb when the sizes are large.
fn bomb(members: &[(&str, u64)]) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let zeros = vec![0u8; MIB as usize];
    for (name, mib) in members {
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .compression_level(Some(1));
        zip.start_file(*name, options).expect("entry");
        for _ in 0..*mib {
            zip.write_all(&zeros).expect("write");
        }
    }
    zip.finish().expect("zip").into_inner()
}

/// `archive` with every size field of its members saying `size` bytes,
/// whatever they decompress to.
fn lying_about_sizes(mut archive: Vec<u8>, size: u32) -> Vec<u8> {
    for (signature, offset) in [(b"PK\x03\x04", 22), (b"PK\x01\x02", 24)] {
        let starts: Vec<usize> = archive
            .windows(4)
            .enumerate()
            .filter(|(_, w)| w == signature)
            .map(|(i, _)| i)
            .collect();
        for at in starts {
            archive[at + offset..at + offset + 4].copy_from_slice(&size.to_le_bytes());
        }
    }
    archive
}

#[tokio::test]
async fn a_zip_bomb_is_refused_naming_its_member_and_stores_nothing() {
    let (app, _) = with_fixture_dataset().await;
    let researcher = token(&app).await;
    let limit = services::evalscope::MAX_MEMBER_BYTES / MIB;
    let member = "out/20260101_000000/reviews/m/plawbench_case_analysis.jsonl";

    // One member a MiB over the per-file limit, in well under a MiB. (The
    // total over all files is the services' unit test: building archives
    // of hundreds of MiB is slow in a debug build.)
    let body = bomb(&[(member, limit + 1)]);
    assert!(body.len() < MIB as usize, "{} bytes", body.len());
    for query in ["?check=true", ""] {
        let res = app.send(import(&researcher, body.clone(), query)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
        let message = res.json()["error"].as_str().unwrap_or_default().to_owned();
        assert!(
            message.contains(member) && message.contains(&format!("{limit} MiB")),
            "{message}"
        );
    }

    // The same member declaring a few bytes: caught while it decompresses.
    let res = app
        .send(import(&researcher, lying_about_sizes(body, 100), ""))
        .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
    assert!(res.body.contains(member), "{}", res.body);

    // Too many entries, however small.
    let many = services::evalscope::MAX_ENTRIES + 1;
    let names: Vec<String> = (0..many).map(|i| format!("out/logs/{i}.log")).collect();
    let members: Vec<(&str, u64)> = names.iter().map(|n| (n.as_str(), 0)).collect();
    let res = app.send(import(&researcher, bomb(&members), "")).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
    assert!(
        res.body.contains(&format!("lists {many} entries")),
        "{}",
        res.body
    );
    assert_eq!(plaw_runs(&app).await, 0);
}

#[tokio::test]
async fn an_import_beyond_the_bound_at_once_waits_then_gets_503_with_retry_after() {
    let (app, _) = with_fixture_dataset().await;
    let researcher = token(&app).await;
    let mut turns = Vec::new();
    for _ in 0..services::evalscope::MAX_IMPORTS_AT_ONCE {
        turns.push(app.imports.enter().await.expect("a turn"));
    }
    let started = std::time::Instant::now();
    let res = app
        .send(import(&researcher, zipped("v2"), "?check=true"))
        .await;
    assert_eq!(res.status, StatusCode::SERVICE_UNAVAILABLE, "{}", res.body);
    assert!(started.elapsed() >= services::evalscope::IMPORT_WAIT);
    assert_eq!(
        res.headers
            .get(header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok()),
        Some(services::error::RETRY_OVERLOADED_AFTER_SECS)
    );
    assert!(res.body.contains("imports are under way"), "{}", res.body);

    // A turn freed, the next import runs.
    turns.pop();
    let res = app
        .send(import(&researcher, zipped("v2"), "?check=true"))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
}

const FRONTIER: &str = "Sim-Frontier-3%20(simulated)";

#[tokio::test]
async fn the_leaderboard_page_is_laid_out_like_the_official_ranking() {
    let app = TestApp::with_demo().await;
    let res = app.get("/plawbench/leaderboard").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let body = &res.body;
    let table = &body[body
        .find("data-testid=\"plaw-leaderboard\"")
        .expect("the table")..];
    // In words; the official names stay in the headers' tooltips.
    let order = [
        "Family",
        "Model",
        "Overall",
        "Task 2 average",
        "Task 2 conclusion",
        "Task 2 facts",
        "Task 2 reasoning",
        "Task 2 statutes",
        "Task 1",
        "Task 3 average",
        "Task 3 plaintiff",
        "Task 3 defendant",
    ];
    for official in ["Task2-Avg", "Task2-Statute", "Task3-Defendant"] {
        assert!(
            table.contains(&format!("title=\"{official}\"")),
            "{official}"
        );
        assert!(
            !table.contains(&format!(">{official}")),
            "{official} as a header"
        );
    }
    let at: Vec<usize> = order
        .iter()
        .map(|c| {
            table
                .find(&format!(">{c}"))
                .unwrap_or_else(|| panic!("column {c}"))
        })
        .collect();
    assert!(
        at.windows(2).all(|w| w[0] < w[1]),
        "columns in the official order: {at:?}"
    );
    // The demo's numbers, ×100 with two decimals, the best bold, each a link.
    let items = dataset::parse_dataset(PLAW_DEMO_DATASET).expect("demo");
    let runs: Vec<run::Run> = PLAW_DEMO_RUNS
        .iter()
        .map(|(_, t)| run::parse_run(t, &items).expect("run"))
        .collect();
    let doc = score::score_entries(&runs, &items);
    let frontier = doc
        .entries
        .iter()
        .find(|e| e.model.starts_with("Sim-Frontier"))
        .expect("entry");
    let overall = frontier.overall.flatten().expect("overall").mean;
    assert!(
        body.contains(&format!(">{:.2}</a>", overall * 100.0)),
        "Overall {overall}"
    );
    assert!(body.contains("class=\"num best\""), "best marked");
    assert!(body.contains(
        "/plawbench/leaderboard/items?model=Sim-Frontier-3%20%28simulated%29&amp;column=overall"
    ));
    assert!(body.contains("data-testid=\"evalscope-view\"") && body.contains("OVERALL"));
    assert!(body.contains("data-testid=\"plaw-category-chart\"") && body.contains("<svg"));
    assert!(
        body.contains("⚠ ") && body.contains("unavailable"),
        "unavailable flagged"
    );

    // Sorted by Task1: the rows follow its means.
    let sorted = app.get("/plawbench/leaderboard?sort=task1").await.body;
    let mut by_task1: Vec<(f64, &str)> = doc
        .entries
        .iter()
        .map(|e| {
            (
                e.task1.flatten().map_or(f64::MIN, |m| m.mean),
                e.model.as_str(),
            )
        })
        .collect();
    by_task1.sort_by(|a, b| b.0.total_cmp(&a.0));
    let positions: Vec<usize> = by_task1
        .iter()
        .map(|(_, m)| sorted.find(&format!("{m}<")).expect("row"))
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{by_task1:?}");
    assert!(sorted.contains("aria-sort=\"descending\""));
}

#[tokio::test]
async fn items_list_filter_and_show_their_rubric() {
    let app = TestApp::with_demo().await;
    let list = app.get("/plawbench/items?task=legal_consultation").await;
    assert_eq!(list.status, StatusCode::OK);
    assert!(list.body.contains("legal_consultation-1") && !list.body.contains(">case_analysis-1<"));
    assert!(
        list.body.contains("<strong>6</strong>"),
        "six consultations"
    );
    let searched = app.get("/plawbench/items?q=%E5%A9%9A%E7%A4%BC").await;
    assert!(
        searched.body.contains(">case_analysis-1<"),
        "婚礼 finds the wedding case"
    );

    let item = app.get("/plawbench/items/case_analysis-1").await;
    assert_eq!(item.status, StatusCode::OK, "{}", item.body);
    let body = &item.body;
    for section in ["conclusion", "facts", "reasoning", "law"] {
        assert!(
            body.contains(&format!("data-section=\"{section}\"")),
            "{section}"
        );
    }
    assert!(
        body.contains("data-testid=\"max-points\">60<"),
        "max points"
    );
    assert!(body.contains("rel=\"next\""));
    let missing = app.get("/plawbench/items/no-such-item").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.body.contains("no item no-such-item"));
}

#[tokio::test]
async fn a_cell_drills_down_to_its_items_and_on_to_one_answer() {
    let app = TestApp::with_demo().await;
    let cell = app
        .get(&format!(
            "/plawbench/leaderboard/items?model={FRONTIER}&column=task2"
        ))
        .await;
    assert_eq!(cell.status, StatusCode::OK, "{}", cell.body);
    assert!(cell.body.contains("Task 2 average") && cell.body.contains("case_analysis-12"));
    assert!(
        !cell.body.contains("legal_consultation-1"),
        "only the task's items"
    );
    assert!(
        cell.body.contains("unavailable"),
        "the demo's unavailable item is marked"
    );
    // The per-run values are the run scores.
    let items = dataset::parse_dataset(PLAW_DEMO_DATASET).expect("demo");
    let run1 = run::parse_run(PLAW_DEMO_RUNS[0].1, &items).expect("run");
    let acc = score::score_run(&run1, &items)
        .metric(score::Metric::Task2)
        .expect("acc");
    assert!(
        cell.body.contains(&format!("{:.2}</strong>", acc * 100.0)),
        "run 1 {acc}"
    );

    // A judge's value clamped into [0, max] shows its raw value beside it.
    let answer = app
        .get(&format!(
            "/plawbench/leaderboard/item?model={FRONTIER}&run=1&item=legal_consultation-1"
        ))
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert!(answer.body.contains("data-testid=\"clamped\"") && answer.body.contains("raw 10.80"));
    let truncated = app
        .get(&format!(
            "/plawbench/leaderboard/item?model={FRONTIER}&run=2&item=plaintiff_statement-1"
        ))
        .await;
    assert!(
        truncated.body.contains("data-testid=\"truncated\""),
        "the length badge"
    );
    let bad = app
        .get("/plawbench/leaderboard/items?model=Nobody&column=task2")
        .await;
    assert_eq!(bad.status, StatusCode::NOT_FOUND);
    let bad = app
        .get(&format!(
            "/plawbench/leaderboard/items?model={FRONTIER}&column=task9"
        ))
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(bad.body.contains("task2_statute"), "the columns are named");
}

#[tokio::test]
async fn the_ranking_exports_as_csv_json_and_latex() {
    let app = TestApp::with_demo().await;
    let csv = app
        .get("/api/leaderboard/export?benchmark=plawbench&format=csv")
        .await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.body);
    assert!(csv
        .body
        .lines()
        .next()
        .is_some_and(|h| h.starts_with("family,model") && h.contains("task3_defendant_mean")));
    assert_eq!(csv.body.lines().count(), 4, "a header and three entries");
    let latex = app
        .get("/api/leaderboard/export?benchmark=plawbench&view=categories&format=latex")
        .await;
    assert!(latex.body.contains("\\begin{tabular}") && latex.body.contains("婚姻家事"));
    let json = app
        .get("/api/leaderboard/export?benchmark=plawbench&format=json&sort=overall")
        .await;
    assert!(json.json()["rows"].as_array().is_some_and(|r| r.len() == 3));
    let bad = app
        .get("/api/leaderboard/export?benchmark=plawbench&view=nope")
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}
