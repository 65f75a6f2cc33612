//! DLawBench through the HTTP API and the command line: the demo cases and
//! runs load beside the other benchmarks', runs are stored through the one
//! ingest (the header's benchmark or `?benchmark=` picks the dataset), the
//! leaderboard document is the engine's §A4.7 document, the tables export,
//! and bad files store nothing.

mod common;

use std::path::Path;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::cli::{lexpilot, text, write};
use common::json::assert_close;
use common::TestApp;
use engine::accounts::Role;
use engine::dlawbench::{dataset, run, score};
use server::demo::{DLAW_DEMO_DATASET, DLAW_DEMO_NAME, DLAW_DEMO_RUNS};

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
    let (_, text) = DLAW_DEMO_RUNS[index];
    let (header, sessions) = text.split_once('\n').expect("a header line");
    let mut header: serde_json::Value = serde_json::from_str(header).expect("JSON");
    header["model"] = model.into();
    header["run"] = 1.into();
    format!("{header}\n{sessions}")
}

async fn dlaw_runs(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM runs WHERE benchmark = 'dlawbench'")
        .fetch_one(app.db.pool())
        .await
        .expect("count")
}

fn demo_document() -> score::ScoreDocument {
    let cases = dataset::parse_dataset(DLAW_DEMO_DATASET).expect("demo");
    let runs: Vec<run::Run> = DLAW_DEMO_RUNS
        .iter()
        .map(|(_, text)| run::parse_run(text, &cases).expect("demo run"))
        .collect();
    score::score_entries(&runs, &cases)
}

#[tokio::test]
async fn the_demo_leaderboard_is_the_engines_document_of_the_demo_runs() {
    let app = TestApp::with_demo().await;
    let doc = app.get("/api/leaderboard?benchmark=dlawbench").await;
    assert_eq!(doc.status, StatusCode::OK, "{}", doc.body);
    let expected =
        serde_json::to_value(demo_document().with_dataset(DLAW_DEMO_NAME)).expect("json");
    assert_close(&doc.json(), &expected, "$", 1e-12);
    assert_eq!(doc.json()["entries"].as_array().map(Vec::len), Some(3));
    assert_eq!(doc.json()["benchmark"], "dlawbench");
    assert_eq!(dlaw_runs(&app).await, 9);
    // The other benchmarks' documents are unchanged beside it.
    let lexpilot = app.get("/api/leaderboard").await.json();
    assert_eq!(lexpilot["dataset"], "lexpilot-demo-synthetic");
    let plaw = app.get("/api/leaderboard?benchmark=plawbench").await.json();
    assert_eq!(plaw["dataset"], "plawbench-demo-synthetic");
}

#[tokio::test]
async fn a_run_stored_through_the_api_joins_the_leaderboard() {
    let app = TestApp::with_demo().await;
    let researcher = token(&app).await;
    // The header's benchmark picks the dataset.
    let res = app
        .send(upload(&researcher, relabelled(0, "Newcomer-9B"), ""))
        .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let body = res.json();
    assert_eq!(body["dataset"], DLAW_DEMO_NAME);
    assert!(
        body["scores"]["null_as_zero"]["overall"]["resolution"].is_number(),
        "{}",
        body["scores"]
    );
    // So does ?benchmark=.
    let res = app
        .send(upload(
            &researcher,
            relabelled(1, "Newcomer-10B"),
            "?benchmark=dlawbench",
        ))
        .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let doc = app.get("/api/leaderboard?benchmark=dlawbench").await.json();
    let models: Vec<&str> = doc["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter_map(|e| e["model"].as_str())
        .collect();
    assert!(
        models.contains(&"Newcomer-9B") && models.contains(&"Newcomer-10B"),
        "{models:?}"
    );
    // The same file again is a duplicate, unless replacing.
    let again = app
        .send(upload(&researcher, relabelled(0, "Newcomer-9B"), ""))
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    let replaced = app
        .send(upload(
            &researcher,
            relabelled(0, "Newcomer-9B"),
            "?replace=true",
        ))
        .await;
    assert_eq!(replaced.status, StatusCode::CREATED, "{}", replaced.body);
    assert_eq!(dlaw_runs(&app).await, 11);
}

#[tokio::test]
async fn bad_runs_name_line_and_field_and_store_nothing() {
    let app = TestApp::with_demo().await;
    let researcher = token(&app).await;
    let before = dlaw_runs(&app).await;
    let file = relabelled(0, "Broken-1B");
    let mut lines: Vec<String> = file.lines().map(str::to_owned).collect();
    lines[3] = lines[3].replace("\"case_id\": \"", "\"case_id\": \"no-such-");
    let res = app.send(upload(&researcher, lines.join("\n"), "")).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let errors = res.json()["errors"].clone();
    assert!(
        errors
            .as_array()
            .expect("errors")
            .iter()
            .any(|e| e["line"] == 4 && e["field"] == "case_id"),
        "{errors}"
    );
    // A recusal that the vendors contradict is refused naming the seat.
    let mut lines: Vec<String> = file.lines().map(str::to_owned).collect();
    lines[2] = lines[2].replacen("\"recused\": false", "\"recused\": true", 1);
    let res = app.send(upload(&researcher, lines.join("\n"), "")).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let errors = res.json()["errors"].clone();
    assert!(
        errors
            .as_array()
            .expect("errors")
            .iter()
            .any(|e| e["line"] == 3
                && e["field"]
                    .as_str()
                    .is_some_and(|f| f.starts_with("panel[1].recused"))),
        "{errors}"
    );
    assert_eq!(dlaw_runs(&app).await, before);
}

#[tokio::test]
async fn the_tables_export_as_csv_json_and_latex() {
    let app = TestApp::with_demo().await;
    let csv = app
        .get("/api/leaderboard/export?benchmark=dlawbench&format=csv")
        .await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.body);
    assert!(csv.body.lines().next().is_some_and(|h| h
        .starts_with("rank,model,family,setting,runs,failures,unavailable,degraded,badge")
        && h.contains("fidelity_mean")));
    assert_eq!(csv.body.lines().count(), 4, "a header and three entries");
    let json = app
        .get("/api/leaderboard/export?benchmark=dlawbench&format=json&scores=valid_only&jurisdiction=cn")
        .await;
    assert_eq!(json.status, StatusCode::OK, "{}", json.body);
    assert_eq!(json.json()["view"], "valid_only");
    assert_eq!(json.json()["jurisdiction"], "cn");
    assert!(json.json()["rows"].as_array().is_some_and(|r| r.len() == 3));
    let latex = app
        .get("/api/leaderboard/export?benchmark=dlawbench&format=latex")
        .await;
    assert!(latex.body.contains("\\begin{tabular}") && latex.body.contains("Elicitation"));
    let domains = app
        .get("/api/leaderboard/export?benchmark=dlawbench&view=domains&format=csv")
        .await;
    assert_eq!(domains.status, StatusCode::OK, "{}", domains.body);
    assert!(domains.body.starts_with("jurisdiction,domain"));
    for bad in [
        "view=nope",
        "scores=nope",
        "jurisdiction=fr",
        "view=domains&format=latex",
    ] {
        let res = app
            .get(&format!(
                "/api/leaderboard/export?benchmark=dlawbench&{bad}"
            ))
            .await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{bad}: {}", res.body);
    }
}

async fn count(db: &str, table: &str) -> i64 {
    let db = db::Db::open(Path::new(db)).await.expect("open");
    sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
        .fetch_one(db.pool())
        .await
        .expect("count")
}

/// DLawBench at the command line: the dataset validates and imports as
/// items, a bad case names its line and field and stores nothing, runs
/// validate against it, and `score --json` prints the engine's §A4.7
/// document.
#[tokio::test]
async fn dlawbench_datasets_import_and_runs_score_at_the_command_line() {
    let dir = tempfile::tempdir().expect("dir");
    let db = dir.path().join("t.db").to_string_lossy().into_owned();
    let data = write(dir.path(), "dlaw.jsonl", DLAW_DEMO_DATASET);
    let out = lexpilot(&["validate", "--benchmark", "dlawbench", &data], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("valid dataset, 12 cases"));

    let name = [
        "--name",
        "dlaw-demo",
        "--db",
        &db,
        "--benchmark",
        "dlawbench",
    ];
    let out = lexpilot(&[&["import", &data][..], &name[..]].concat(), None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("imported 12 cases as dataset dlaw-demo version 1 (dlawbench)"),
        "{}",
        text(&out.stdout)
    );
    let out = lexpilot(&[&["import", &data][..], &name[..]].concat(), None);
    assert!(
        text(&out.stdout).contains("unchanged"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(count(&db, "items").await, 12);

    // A bad case names its line and field; nothing of the file is stored.
    let broken = DLAW_DEMO_DATASET.replacen("\"type\": \"disputed\"", "\"type\": \"Disputed\"", 1);
    let bad = write(dir.path(), "bad.jsonl", &broken);
    let out = lexpilot(&[&["import", &bad][..], &name[..]].concat(), None);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("bad.jsonl: line 1") && err.contains("field facts[1].type"),
        "{err}"
    );
    assert_eq!(count(&db, "datasets").await, 1);

    let runs: Vec<String> = DLAW_DEMO_RUNS
        .iter()
        .map(|(n, t)| write(dir.path(), &format!("{n}.jsonl"), t))
        .collect();
    let out = lexpilot(
        &[
            "validate",
            "--benchmark",
            "dlawbench",
            "--dataset",
            &data,
            &runs[0],
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("valid run, model Sim-Frontier-5 (simulated) run 1"));

    let mut args = vec![
        "score",
        "--benchmark",
        "dlawbench",
        "--json",
        "--dataset",
        &data,
    ];
    args.extend(runs.iter().map(String::as_str));
    let out = lexpilot(&args, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let expected = serde_json::to_value(demo_document().with_dataset("dlaw")).expect("json");
    assert_close(&printed, &expected, "$", 1e-15);
    let table = lexpilot(
        &args
            .iter()
            .filter(|a| **a != "--json")
            .copied()
            .collect::<Vec<_>>(),
        None,
    );
    let table = text(&table.stdout);
    assert!(
        table.contains("Fact Resolution") && table.contains("task failures"),
        "{table}"
    );

    // Running DLawBench needs the client simulator, and says so.
    let out = lexpilot(
        &[
            "run",
            "--benchmark",
            "dlawbench",
            "--dataset",
            &data,
            "--model",
            "M",
            "--model-url",
            "http://127.0.0.1:9",
            "--judge",
            "J",
            "--judge-url",
            "http://127.0.0.1:9",
            "--out",
            &dir.path().join("out").to_string_lossy(),
        ],
        None,
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("--client-model"),
        "{}",
        text(&out.stderr)
    );
}

const FRONTIER: &str = "Sim-Frontier-5%20(simulated)";

#[tokio::test]
async fn the_dataset_page_shows_the_corpus_statistics() {
    let app = TestApp::with_demo().await;
    let res = app.get("/dlawbench").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let stats = dataset::stats(&dataset::parse_dataset(DLAW_DEMO_DATASET).expect("demo"));
    let table = &res.body[res.body.find("data-testid=\"dlaw-stats\"").expect("stats")..];
    assert!(
        table.contains(&format!(">{}<", stats.all.cells)),
        "48 cells"
    );
    assert!(
        table.contains(&format!(
            "{:.1}%",
            stats.all.disputed_share.expect("share") * 100.0
        )),
        "the pooled disputed share"
    );
    assert!(
        res.body.contains("data-testid=\"dlaw-domains\"")
            && res.body.contains("Marriage, family and inheritance")
    );
    // The header and the landing page lead here.
    let home = app.get("/").await.body;
    assert!(home.contains("href=\"/dlawbench\"") && home.contains("/dlawbench/leaderboard"));
}

#[tokio::test]
async fn cases_filter_by_jurisdiction_domain_disputed_share_and_search() {
    let app = TestApp::with_demo().await;
    let us = app.get("/dlawbench/cases?jurisdiction=us").await;
    assert_eq!(us.status, StatusCode::OK, "{}", us.body);
    assert!(us.body.contains(">DL-SYN-US-01<") && !us.body.contains(">DL-SYN-CN-01<"));
    assert!(us.body.contains("<strong>6</strong>"), "six U.S. cases");
    let torts = app.get("/dlawbench/cases?domain=torts").await.body;
    assert!(torts.contains(">DL-SYN-US-01<") && !torts.contains(">DL-SYN-US-03<"));
    let cases = dataset::parse_dataset(DLAW_DEMO_DATASET).expect("demo");
    let most = cases.iter().filter(|c| c.disputed_share() >= 0.75).count();
    let disputed = app.get("/dlawbench/cases?disputed=75").await.body;
    assert!(
        disputed.contains(&format!("<strong>{most}</strong>")),
        "{most} cases with ≥ 75% disputed"
    );
    let searched = app.get("/dlawbench/cases?q=%E9%81%97%E5%98%B1").await.body;
    assert!(
        searched.contains(">DL-SYN-CN-01<"),
        "遗嘱 finds the will case"
    );
}

#[tokio::test]
async fn a_case_shows_its_fact_pairs_side_by_side_and_both_rubric_lists() {
    let app = TestApp::with_demo().await;
    let res = app.get("/dlawbench/cases/DL-SYN-CN-01").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let body = &res.body;
    let case = &dataset::parse_dataset(DLAW_DEMO_DATASET).expect("demo")[0];
    for fact in &case.facts {
        assert!(body.contains(&fact.client_belief) && body.contains(&fact.court_record));
    }
    assert_eq!(
        body.matches("class=\"fact-pair disputed\"").count(),
        case.disputed(),
        "disputed pairs highlighted"
    );
    assert!(
        body.contains("data-testid=\"inquiry-rubrics\"")
            && body.contains("data-testid=\"issue-rubrics\"")
    );
    assert!(
        body.contains(&case.inquiry_rubrics[0].text) && body.contains(&case.issue_rubrics[0].text)
    );
    assert!(body.contains("rel=\"next\""));
    let missing = app.get("/dlawbench/cases/no-such-case").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_leaderboard_page_has_every_view_and_a_no_script_toggle() {
    let app = TestApp::with_demo().await;
    let res = app.get("/dlawbench/leaderboard").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let body = &res.body;
    let table = &body[body
        .find("data-testid=\"dlaw-leaderboard\"")
        .expect("main table")..];
    let order = [
        "Elicitation",
        "Fact Coverage",
        "Inquiry",
        "Resolution",
        "Fact Resolution",
        "Issue Resolution",
        "Fidelity",
    ];
    // The columns' own heads, after the row of ability groups.
    let heads = &table[table.find("</tr>").expect("the group row")..];
    let at: Vec<usize> = order
        .iter()
        .map(|c| {
            heads
                .find(&format!(">{c}<"))
                .unwrap_or_else(|| panic!("column {c}"))
        })
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
    let doc = demo_document();
    let frontier = doc
        .entries
        .iter()
        .find(|e| e.model.starts_with("Sim-Frontier"))
        .expect("entry");
    let resolution = frontier
        .overall(score::Metric::Resolution, score::View::NullAsZero)
        .expect("overall")
        .mean;
    assert!(
        body.contains(&format!(">{resolution:.3}</a>")),
        "{resolution}"
    );
    assert_eq!(body.matches("data-testid=\"dlaw-jurisdiction\"").count(), 2);
    assert!(body.contains("data-testid=\"dlaw-styles\"") && body.contains("Δ vs coop."));
    assert_eq!(body.matches("data-testid=\"dlaw-style-chart\"").count(), 3);
    assert!(body.contains("<svg"), "charts drawn on the server");
    assert!(
        body.contains("data-testid=\"dlaw-domain-table\"")
            && body.contains("data-testid=\"dlaw-diagnostics\"")
    );
    assert!(body.contains(
        "/dlawbench/leaderboard/sessions?model=Sim-Frontier-5%20%28simulated%29&amp;metric=resolution&amp;style=adversarial"
    ));
    // The valid-only view is a plain link, and its numbers are the other view's.
    assert!(body.contains("href=\"/dlawbench/leaderboard?scores=valid_only\""));
    let valid = app
        .get("/dlawbench/leaderboard?scores=valid_only")
        .await
        .body;
    let valid_resolution = frontier
        .overall(score::Metric::Resolution, score::View::ValidOnly)
        .expect("overall")
        .mean;
    assert!(valid.contains(&format!(">{valid_resolution:.3}</a>")));
    assert!(
        valid.contains("&amp;scores=valid_only"),
        "cells keep the view"
    );
}

#[tokio::test]
async fn a_cell_drills_down_to_its_sessions_and_on_to_one_session() {
    let app = TestApp::with_demo().await;
    let cell = app
        .get(&format!(
            "/dlawbench/leaderboard/sessions?model={FRONTIER}&metric=inquiry&style=withdrawn"
        ))
        .await;
    assert_eq!(cell.status, StatusCode::OK, "{}", cell.body);
    assert_eq!(
        cell.body
            .matches("data-testid=\"dlaw-cell-sessions\"")
            .count(),
        3,
        "one table per run"
    );
    assert!(cell.body.contains("DL-SYN-CN-01") && cell.body.contains("DL-SYN-US-06"));
    assert!(
        !cell.body.contains("style-cooperative\""),
        "only withdrawn sessions"
    );
    // The per-run values are the engine's.
    let cases = dataset::parse_dataset(DLAW_DEMO_DATASET).expect("demo");
    let run1 = run::parse_run(DLAW_DEMO_RUNS[0].1, &cases).expect("run");
    let scores = score::score_run(&run1, &cases);
    let value = scores.null_as_zero.by_style[&dataset::Style::Withdrawn][&score::Metric::Inquiry]
        .expect("value");
    assert!(
        cell.body.contains(&format!("<strong>{value:.3}</strong>")),
        "{value}"
    );

    let index = run1
        .sessions
        .iter()
        .position(|s| s.style == dataset::Style::Withdrawn)
        .expect("a withdrawn session");
    let session = app
        .get(&format!(
            "/dlawbench/leaderboard/session?model={FRONTIER}&run=1&session={index}"
        ))
        .await;
    assert_eq!(session.status, StatusCode::OK, "{}", session.body);
    let body = &session.body;
    assert!(
        body.contains("data-testid=\"fact-pairs\"")
            && body.contains("data-testid=\"dlaw-dialogue\"")
    );
    assert!(body.contains("Turn 1") && body.contains("Withdrawn"));
    assert_eq!(body.matches("data-testid=\"dlaw-judge\"").count(), 3);
    assert!(body.contains("recused"), "the same-vendor judge recuses");
    assert!(body.contains("data-testid=\"dlaw-panel-values\""));

    let bad = app
        .get(&format!(
            "/dlawbench/leaderboard/sessions?model={FRONTIER}&metric=nope"
        ))
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(bad.body.contains("fact_coverage"), "the metrics are named");
    let nobody = app
        .get("/dlawbench/leaderboard/sessions?model=Nobody&metric=inquiry")
        .await;
    assert_eq!(nobody.status, StatusCode::NOT_FOUND);
    let gone = app
        .get(&format!(
            "/dlawbench/leaderboard/session?model={FRONTIER}&run=1&session=9999"
        ))
        .await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
}

/// The upload page's server functions, called as the page calls them (JSON).
async fn call(
    app: &TestApp,
    path: &str,
    token: &str,
    body: serde_json::Value,
) -> common::TestResponse {
    app.post_json(path, common::Auth::Token(token), body).await
}

#[tokio::test]
async fn the_upload_page_checks_and_stores_dlawbench_runs() {
    use leptos::server_fn::ServerFn;
    let (check, store) = (
        <app::server_fns::runs::CheckRuns as ServerFn>::PATH,
        <app::server_fns::runs::StoreRuns as ServerFn>::PATH,
    );
    let app = TestApp::with_demo().await;
    let researcher = token(&app).await;
    let good = serde_json::json!({"name": "good.jsonl", "text": relabelled(0, "Page-Lawyer")});
    let bad = serde_json::json!({"name": "bad.jsonl", "text": relabelled(1, "Page-Lawyer-2").replacen("\"status\": \"submitted\"", "\"status\": \"finished\"", 1)});
    let report = call(
        &app,
        check,
        &researcher,
        serde_json::json!({"files": [good, bad], "benchmark": "dlawbench"}),
    )
    .await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.body);
    let report = report.json();
    let cases = dataset::parse_dataset(DLAW_DEMO_DATASET).expect("demo");
    let scores = score::score_run(
        &run::parse_run(&relabelled(0, "Page-Lawyer"), &cases).expect("run"),
        &cases,
    );
    let resolution =
        scores.null_as_zero.overall.as_ref().expect("overall")[&score::Metric::Resolution];
    assert_eq!(report[0]["dlaw"]["model"], "Page-Lawyer");
    assert_eq!(report[0]["dlaw"]["styles"], 4);
    assert_close(
        &report[0]["dlaw"]["resolution"],
        &serde_json::to_value(resolution).expect("json"),
        "$",
        1e-12,
    );
    assert!(report[1]["dlaw"].is_null());
    assert!(
        report[1]["errors"][0]["field"]
            .as_str()
            .is_some_and(|f| f.contains("status")),
        "{}",
        report[1]
    );

    let before = dlaw_runs(&app).await;
    let refused = call(
        &app,
        store,
        &researcher,
        serde_json::json!({"files": [good, bad], "replace": false, "benchmark": "dlawbench"}),
    )
    .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        dlaw_runs(&app).await,
        before,
        "one bad file: nothing stored"
    );
    let stored = call(
        &app,
        store,
        &researcher,
        serde_json::json!({"files": [good], "replace": false, "benchmark": "dlawbench"}),
    )
    .await;
    assert_eq!(stored.status, StatusCode::OK, "{}", stored.body);
    assert_eq!(dlaw_runs(&app).await, before + 1);
}

/// The text of the element that `testid` opens, up to the end of its table.
fn table_of<'a>(body: &'a str, testid: &str) -> &'a str {
    let start = body
        .find(&format!("data-testid=\"{testid}\""))
        .unwrap_or_else(|| panic!("{testid}"));
    let end = start + body[start..].find("</table>").expect("its end");
    &body[start..end]
}

/// Figure 5 (each style's effect averaged over the entries) and Table 22
/// (median vs mean aggregation for every metric) on the leaderboard, in
/// both languages; the Figure 5 means are taken here from the entries'
/// per-style values and gaps.
#[tokio::test]
async fn the_leaderboard_shows_figure_5_and_table_22_for_every_metric() {
    use score::Metric;

    let app = TestApp::with_demo().await;
    let body = app.get("/dlawbench/leaderboard").await.body;
    let doc = demo_document();
    let figure = table_of(&body, "dlaw-style-summary");
    for style in dataset::Style::ALL {
        let row = &figure[figure
            .find(&format!("data-style=\"{}\"", style.as_str()))
            .unwrap_or_else(|| panic!("{style:?}"))..];
        let row = &row[..row.find("</tr>").expect("row end")];
        let mut texts = Vec::new();
        for ability in Metric::ABILITIES {
            let values: Vec<f64> = doc
                .entries
                .iter()
                .filter_map(|e| {
                    e.null_as_zero
                        .by_style
                        .get(&style)?
                        .get(&ability)
                        .copied()
                        .flatten()
                })
                .map(|m| m.mean)
                .collect();
            let mean = values.iter().sum::<f64>() / values.len() as f64;
            texts.push(format!(">{mean:.3}<"));
            if style != dataset::Style::Cooperative {
                let gaps: Vec<f64> = doc
                    .entries
                    .iter()
                    .filter_map(|e| {
                        e.null_as_zero
                            .style_gap
                            .get(&style)?
                            .get(&ability)
                            .copied()
                            .flatten()
                    })
                    .map(|m| m.mean)
                    .collect();
                let gap = gaps.iter().sum::<f64>() / gaps.len() as f64;
                texts.push(format!(
                    ">{}<",
                    engine::core::columns::Scale::Unit.difference(gap)
                ));
            }
        }
        for text in texts {
            assert!(row.contains(&text), "{style:?}: {text} in {row}");
        }
    }
    let chart = &body[body
        .find("data-testid=\"dlaw-style-summary-chart\"")
        .expect("the chart")..];
    assert!(chart[..chart.find("</figure>").expect("its end")].contains("<svg"));
    assert!(body.contains("Figure 5 · Each style"));

    let cases = dataset::parse_dataset(DLAW_DEMO_DATASET).expect("demo");
    let runs: Vec<score::RunScores> = DLAW_DEMO_RUNS
        .iter()
        .map(|(_, text)| score::score_run(&run::parse_run(text, &cases).expect("demo run"), &cases))
        .collect();
    let table = table_of(&body, "dlaw-table-22");
    for metric in Metric::ALL {
        let observations: usize = doc
            .entries
            .iter()
            .filter_map(|e| e.diagnostics.median_mean_gap.get(&metric))
            .map(|g| g.sessions)
            .sum();
        assert!(
            observations > 0,
            "{metric:?}: the demo has three-judge sessions"
        );
        let row = &table[table
            .find(&format!("data-metric=\"{}\"", metric.as_str()))
            .unwrap_or_else(|| panic!("{metric:?}"))..];
        let row = &row[..row.find("</tr>").expect("row end")];
        assert!(
            row.contains(&format!(">{observations}<")),
            "{metric:?}: {row}"
        );
        // Every run's mean |median − mean|, weighted by its observations.
        let (sum, n) = runs.iter().fold((0.0, 0usize), |(sum, n), r| {
            let gap = &r.panel.median_mean_gap[&metric];
            (
                sum + gap.mean_abs.unwrap_or(0.0) * gap.sessions as f64,
                n + gap.sessions,
            )
        });
        assert!(
            row.contains(&format!(">{:.3}<", sum / n as f64)),
            "{metric:?}: {row}"
        );
    }

    let zh = app
        .get_with_cookie("/dlawbench/leaderboard", Some("lang=zh"))
        .await
        .body;
    assert!(zh.contains("图 5 · 各风格的影响") && zh.contains("表 22 · 中位数与平均聚合之差"));
}
