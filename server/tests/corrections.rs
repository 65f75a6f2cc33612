//! Case corrections over HTTP: only admins save; a save from an outdated
//! revision is a 409 that returns the newer version; the case page shows the
//! history with a diff; the leaderboard scores the new version.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::{form, TestApp, TestResponse};
use engine::accounts::Role;
use engine::lexpilot::dataset::Case;
use leptos::server_fn::ServerFn;

async fn token(app: &TestApp, name: &str, role: Role) -> String {
    app.user(name, role, "a-long-password").await;
    let user = db::users::by_name(&app.db, name)
        .await
        .expect("query")
        .expect("user");
    db::tokens::create(&app.db, &user).await.expect("token")
}

async fn save(app: &TestApp, token: &str, case: &Case, base: i64, reason: &str) -> TestResponse {
    let path = <app::server_fns::corrections::SaveCaseCorrection as ServerFn>::PATH;
    let body = form(&[
        ("case", &serde_json::to_string(case).expect("json")),
        ("base_revision", &base.to_string()),
        ("reason", reason),
    ]);
    let req = Request::post(path)
        .header(header::HOST, "127.0.0.1:3000")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT, "application/json")
        .header(header::AUTHORIZATION, format!("Bearer {token}"));
    app.send(req.body(Body::from(body)).expect("request")).await
}

async fn demo_case(app: &TestApp, id: &str) -> Case {
    let res = app.get(&format!("/api/cases/{id}")).await;
    serde_json::from_value(res.json()["case"].clone())
        .or_else(|_| serde_json::from_str(&res.body))
        .expect("a case")
}

#[tokio::test]
async fn admins_correct_a_seed_case_and_its_page_shows_the_diff() {
    let app = TestApp::with_demo().await;
    let admin = token(&app, "admin", Role::Admin).await;
    let expert = token(&app, "expert", Role::Expert).await;
    let mut case = demo_case(&app, "DEMO-0001").await;
    assert!(case.seed, "DEMO-0001 is a seed pair");
    case.consultations.underspecified[0]
        .content
        .push_str("我想了解一下诉讼费用。");

    let refused = save(&app, &expert, &case, 1, "试图修改").await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);

    let saved = save(&app, &admin, &case, 1, "补充当事人的问题").await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    let saved = saved.json();
    assert_eq!(saved["Saved"]["revision"], 2);
    assert_eq!(saved["Saved"]["dataset_version"], 2);
    assert_eq!(saved["Saved"]["runs_carried"], 9);

    let page = app.get("/cases/DEMO-0001").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("data-testid=\"case-history\""));
    assert!(page.body.contains("补充当事人的问题"));
    assert!(
        page.body.contains("<ins>我想了解一下诉讼费用。</ins>"),
        "the inserted text is marked"
    );

    let board = app.get("/api/leaderboard").await.json();
    assert_eq!(board["entries"].as_array().map(Vec::len), Some(3));
    let stats = app.get("/api/stats").await.json();
    assert_eq!(stats["dataset_version"], 2);
}

#[tokio::test]
async fn the_second_of_two_concurrent_saves_is_told_and_shown_the_newer_version() {
    let app = TestApp::with_demo().await;
    let admin = token(&app, "admin", Role::Admin).await;
    let original = demo_case(&app, "DEMO-0005").await;
    let mut first = original.clone();
    first.consultations.complete[0].content.push_str("（甲）");
    let mut second = original.clone();
    second.consultations.complete[0].content.push_str("（乙）");

    assert_eq!(
        save(&app, &admin, &first, 1, "甲").await.status,
        StatusCode::OK
    );
    let stale = save(&app, &admin, &second, 1, "乙").await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.body);
    let stale = stale.json();
    assert_eq!(stale["Stale"]["revision"], 2);
    assert_eq!(stale["Stale"]["reason"], "甲");
    let shown: Case = serde_json::from_value(stale["Stale"]["case"].clone()).expect("case");
    assert_eq!(shown, first);
    assert_eq!(
        demo_case(&app, "DEMO-0005").await,
        first,
        "nothing overwritten"
    );
}

#[tokio::test]
async fn a_correction_that_breaks_the_pairing_is_refused_with_the_field() {
    let app = TestApp::with_demo().await;
    let admin = token(&app, "admin", Role::Admin).await;
    let mut case = demo_case(&app, "DEMO-0007").await;
    case.consultations.underspecified.pop();
    let res = save(&app, &admin, &case, 1, "删一轮").await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
    assert!(res.body.contains("consultations"), "{}", res.body);
    assert_eq!(app.get("/api/stats").await.json()["dataset_version"], 1);
}
