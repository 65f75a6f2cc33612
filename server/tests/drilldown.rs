//! The drill-down of a leaderboard cell (`/leaderboard/items`): the items
//! behind it per case, rendered on the server from the stored demo runs.

mod common;

use axum::http::StatusCode;
use common::TestApp;

const FRONTIER: &str = "Sim-Frontier-2%20(simulated)";

#[tokio::test]
async fn the_ljp_cell_shows_the_confusion_matrix_and_each_claim_against_its_gold() {
    let app = TestApp::with_demo().await;
    let res = app
        .get(&format!(
            "/leaderboard/items?model={FRONTIER}&task=ljp&setup=gold&class=family"
        ))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let body = &res.body;
    assert!(body.contains("Sim-Frontier-2 (simulated)"));
    assert!(body.contains("LJP · Gold-Standard · Family"), "{body}");
    assert!(body.contains("data-testid=\"confusion-matrix\""));
    assert!(body.contains("class=\"num heat diagonal\""));
    // The table is the heat map (shaded cells); no tiny SVG repeats it.
    let table = &body[body
        .find("data-testid=\"confusion-matrix\"")
        .expect("the matrix")..];
    let table = &table[..table.find("</table>").expect("the table ends")];
    assert!(table.contains("Partially Supported") && table.contains("Dismissed"));
    assert!(
        !table.contains(">partially_supported<"),
        "no identifiers in the headers"
    );
    assert!(!body.contains("confusion-heatmap") && !body.contains("heatmap-figure"));
    assert!(body.contains("href=\"/cases/DEMO-0001\""));
    assert!(body.contains("DEMO-0010"));
    assert!(
        !body.contains("href=\"/cases/DEMO-0011\""),
        "DEMO-0011 is a real-rights case"
    );
    assert!(
        body.contains("badge verdict verdict-"),
        "gold verdict badges"
    );
    assert!(
        body.contains("判决预测：第1项驳回，第2项部分支持。"),
        "the response"
    );
    assert!(
        body.contains("<th scope=\"col\">Run 3</th>"),
        "one column per run"
    );
    assert!(body.contains("class=\"mark correct\""));
}

#[tokio::test]
async fn the_lca_overall_cell_shows_the_responses_and_the_unavailable_reasons() {
    let app = TestApp::with_demo().await;
    let url = "/leaderboard/items?model=Sim-OpenChat-72B%20(simulated)&task=lca&class=overall";
    let res = app.get(url).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let first = &res.body;
    assert!(first.contains("LCA · Overall"));
    assert!(!first.contains("confusion-matrix"), "only LJP has a matrix");
    // 72 cases, 25 to a page: the first page lists the first 25 and links on.
    assert!(first.contains("Cases 1–25 of 72 · page 1 / 3"), "{first}");
    assert!(first.contains("href=\"/cases/DEMO-0001\""));
    assert!(!first.contains("href=\"/cases/DEMO-0072\""), "paged");
    assert!(first.contains("&amp;page=2\" rel=\"next\""));
    let last = app.get(&format!("{url}&page=3")).await;
    assert_eq!(last.status, StatusCode::OK);
    assert!(last.body.contains("Cases 51–72 of 72 · page 3 / 3"));
    assert!(
        last.body.contains("href=\"/cases/DEMO-0072\""),
        "every case is listed"
    );
    assert!(!last.body.contains("href=\"/cases/DEMO-0001\""));
    assert!(
        !last.body.contains("rel=\"next\""),
        "no page after the last"
    );
    let mut body = String::new();
    for page in 1..=3 {
        body += &app.get(&format!("{url}&page={page}")).await.body;
    }
    assert!(body.contains("judge reply named no strategy"));
    assert!(
        body.contains("还需要了解一些情况。"),
        "the response is shown in full"
    );
    assert!(body.contains("class=\"mark wrong\""));
    // Past the last page: the last page, not an empty one.
    let beyond = app.get(&format!("{url}&page=9")).await;
    assert!(beyond.body.contains("Cases 51–72 of 72"), "{}", beyond.body);
}

#[tokio::test]
async fn the_dcg_cell_shows_the_requests_and_the_missing_facts() {
    let app = TestApp::with_demo().await;
    let res = app
        .get("/leaderboard/items?model=Sim-LawAssist-7B%20(simulated)&task=dcg&class=family")
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert!(res.body.contains("请问起诉前您是否咨询过律师？"));
    assert!(res.body.contains("Missing facts (gold)"));
}

#[tokio::test]
async fn leaderboard_values_link_to_their_drilldown() {
    let app = TestApp::with_demo().await;
    let res = app.get("/leaderboard?task=ljp&setup=gold").await;
    assert_eq!(res.status, StatusCode::OK);
    let link = "href=\"/leaderboard/items?model=Sim-Frontier-2%20%28simulated%29&amp;task=ljp&amp;setup=gold&amp;class=family\"";
    assert!(res.body.contains(link), "{}", res.body);
    assert!(res.body.contains("setup=direct&amp;class=overall\""));
    assert!(
        res.body.contains("class=\"num best\""),
        "the best cell keeps its class"
    );
}

#[tokio::test]
async fn an_unknown_model_is_a_404_with_a_message() {
    let app = TestApp::with_demo().await;
    let res = app
        .get("/leaderboard/items?model=Nobody&task=lca&class=overall")
        .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert!(res.body.contains("no run of model"), "{}", res.body);
    assert!(res.body.contains("Nobody"));
}

#[tokio::test]
async fn an_unknown_class_is_a_400_naming_the_classes() {
    let app = TestApp::with_demo().await;
    let res = app
        .get(&format!(
            "/leaderboard/items?model={FRONTIER}&task=lca&class=torts"
        ))
        .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);
    assert!(res.body.contains("unknown class"), "{}", res.body);
    assert!(res.body.contains("real_rights"));
}
