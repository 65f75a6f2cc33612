//! PLawBench through the HTTP API: the demo dataset and runs load beside
//! LexPilot's, runs are stored through the one ingest (the header's
//! benchmark picks the dataset), the leaderboard document is the engine's,
//! and bad files store nothing.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::json::assert_close;
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
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
    assert!(res.body.contains("not hosted"), "{}", res.body);
    assert_eq!(plaw_runs(&app).await, before);
}
