//! Server-rendered pages: full HTML before hydration, 404 for unknown cases.

mod common;

use axum::http::StatusCode;
use common::TestApp;

#[tokio::test]
async fn the_overview_renders_the_statistics() {
    let app = TestApp::with_demo().await;
    let res = app.get("/").await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(res.body.contains("Dataset overview"), "{}", res.body);
    assert!(res.body.contains("lexpilot-demo-synthetic"));
    assert!(res.body.contains("Synthetic demo data"));
    // Table 9: cases per province, counted from the demo file: 15
    // provinces of 4, 河北, 辽宁 and 福建 with 3, 天津 2, 山西 1.
    let table = res
        .body
        .split("data-testid=\"province-table\"")
        .nth(1)
        .and_then(|t| t.split("</table>").next())
        .expect("the province table");
    let counts: Vec<usize> = table
        .split("<td class=\"num\">")
        .skip(1)
        .filter_map(|c| c.split('<').next()?.trim().parse().ok())
        .collect();
    assert_eq!(counts.len(), 20, "{table}");
    assert_eq!(counts.iter().sum::<usize>(), 72);
    assert_eq!(counts.iter().filter(|&&n| n == 4).count(), 15);
    assert!(table.contains("山西"));
}

#[tokio::test]
async fn the_case_page_renders_both_consultations_with_marks() {
    let app = TestApp::with_demo().await;
    let res = app.get("/cases/DEMO-0001").await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(res.body.contains("Complete consultation"));
    assert!(res.body.contains("Underspecified consultation"));
    assert!(res.body.contains("class=\"missing-fact\""));
    assert!(res.body.contains("我报过两次警"));
}

#[tokio::test]
async fn an_unknown_case_page_is_a_404() {
    let app = TestApp::with_demo().await;
    let res = app.get("/cases/NOPE-1").await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert!(res.body.contains("no case NOPE-1"));
}

#[tokio::test]
async fn an_unknown_path_is_a_404_page() {
    let app = TestApp::with_demo().await;
    let res = app.get("/no/such/page").await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_list_page_applies_the_url_filters() {
    let app = TestApp::with_demo().await;
    let res = app.get("/cases?class=tort&seed=false").await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(res.body.contains("DEMO-0028"), "second tort case is listed");
    assert!(
        !res.body.contains("DEMO-0027\""),
        "seed case is filtered out"
    );
}
