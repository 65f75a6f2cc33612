//! The JSON read API: filters, paging, single cases, statistics, 404s.

mod common;

use axum::http::StatusCode;
use common::{enc, TestApp};

#[tokio::test]
async fn lists_every_demo_case_in_pages() {
    let app = TestApp::with_demo().await;
    let res = app.get("/api/cases?per_page=50").await;
    assert_eq!(res.status, StatusCode::OK);
    let body = res.json();
    assert_eq!(body["total"], 72);
    assert_eq!(body["items"].as_array().map(Vec::len), Some(50));
    assert_eq!(body["dataset"], "lexpilot-demo-synthetic");
    let second = app.get("/api/cases?per_page=50&page=2").await.json();
    assert_eq!(second["items"].as_array().map(Vec::len), Some(22));
    assert_eq!(second["items"][0]["case_id"], "DEMO-0051");
}

#[tokio::test]
async fn filters_combine_and_agree_with_the_data() {
    let app = TestApp::with_demo().await;
    let body = app.get("/api/cases?class=family&seed=true").await.json();
    assert_eq!(body["total"], 5, "one seed per family cause");
    for item in body["items"].as_array().into_iter().flatten() {
        assert_eq!(item["class"], "family");
        assert_eq!(item["seed"], true);
    }
    let cause = enc("离婚纠纷");
    let body = app.get(&format!("/api/cases?cause={cause}")).await.json();
    assert_eq!(body["total"], 2);

    let body = app
        .get("/api/cases?verdict=dismissed&per_page=200")
        .await
        .json();
    let total = body["total"].as_u64().unwrap_or_default();
    assert!(
        total > 0 && total < 72,
        "some but not all cases have a dismissed claim: {total}"
    );
    for item in body["items"].as_array().into_iter().flatten() {
        let verdicts = item["verdicts"].as_array().cloned().unwrap_or_default();
        assert!(verdicts.iter().any(|v| v == "dismissed"), "{item}");
    }

    let body = app
        .get("/api/cases?plaintiff_type=non_natural&focal_point_type=amount_assessment")
        .await
        .json();
    assert!(body["total"].as_u64().unwrap_or_default() > 0);
}

#[tokio::test]
async fn search_covers_ids_causes_and_dialogue_text() {
    let app = TestApp::with_demo().await;
    assert_eq!(app.get("/api/cases?q=DEMO-0042").await.json()["total"], 1);
    assert_eq!(
        app.get("/api/cases?q=demo-0042").await.json()["total"],
        1,
        "ASCII case-insensitive"
    );
    let by_cause = app
        .get(&format!("/api/cases?q={}", enc("银行卡纠纷")))
        .await
        .json();
    assert_eq!(by_cause["total"], 2);
    // A phrase spoken only in DEMO-0001's complete consultation.
    let by_text = app
        .get(&format!("/api/cases?q={}", enc("我报过两次警")))
        .await
        .json();
    assert_eq!(by_text["total"], 1);
    assert_eq!(by_text["items"][0]["case_id"], "DEMO-0001");
    // LIKE wildcards are plain characters.
    assert_eq!(app.get("/api/cases?q=%25_%25").await.json()["total"], 0);
}

#[tokio::test]
async fn bad_filter_values_are_named_in_a_400() {
    let app = TestApp::with_demo().await;
    let res = app.get("/api/cases?verdict=won").await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);
    let msg = res.json()["error"].as_str().unwrap_or_default().to_owned();
    assert!(
        msg.contains("verdict") && msg.contains("won") && msg.contains("partially_supported"),
        "{msg}"
    );
    assert_eq!(
        app.get("/api/cases?page=-1").await.status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        app.get("/api/cases?seed=maybe").await.status,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn a_case_is_served_as_in_the_dataset_file() {
    let app = TestApp::with_demo().await;
    let res = app.get("/api/cases/DEMO-0001").await;
    assert_eq!(res.status, StatusCode::OK);
    let served: engine::lexpilot::dataset::Case =
        serde_json::from_str(&res.body).expect("a §2 case");
    let shipped = engine::lexpilot::dataset::parse_dataset(server::demo::DEMO_DATASET)
        .expect("demo is valid");
    assert_eq!(served, shipped[0]);
}

#[tokio::test]
async fn unknown_ids_and_endpoints_are_json_404s() {
    let app = TestApp::with_demo().await;
    let res = app.get("/api/cases/NOPE-1").await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert_eq!(res.json()["error"], "no case NOPE-1");
    let res = app.get("/api/nothing-here").await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert!(res.json()["error"].is_string());
}

#[tokio::test]
async fn an_empty_database_answers_404_not_500() {
    let app = TestApp::empty().await;
    assert_eq!(app.get("/api/cases").await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get("/api/stats").await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn stats_describe_the_demo_dataset() {
    let app = TestApp::with_demo().await;
    let body = app.get("/api/stats").await.json();
    assert_eq!(body["synthetic"], true);
    let stats = &body["stats"];
    assert_eq!(stats["cases"], 72);
    assert_eq!(stats["complete"], 72);
    assert_eq!(stats["underspecified"], 72);
    assert_eq!(stats["causes"], 36);
    assert_eq!(stats["seeds"], 36);
    assert_eq!(stats["by_class"].as_array().map(Vec::len), Some(6));
}
