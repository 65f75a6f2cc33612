//! One language at a time (issue 16): every page is Chinese or English,
//! chosen by the switch (a cookie), else by the browser's
//! `Accept-Language`, else English (Chinese on the expert pages); the
//! switch returns to the page; cached reading pages are kept per language.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::{first_link, TestApp, TestResponse};

/// GET `uri` with `headers`.
async fn get_with(
    app: &TestApp,
    uri: &str,
    headers: &[(header::HeaderName, &str)],
) -> TestResponse {
    let mut req = Request::get(uri).header(header::HOST, "127.0.0.1:3000");
    for (name, value) in headers {
        req = req.header(name, *value);
    }
    app.send(req.body(Body::empty()).expect("request")).await
}

fn zh_cookie() -> (header::HeaderName, &'static str) {
    (header::COOKIE, "lang=zh")
}

/// The site header's HTML.
fn site_header(body: &str) -> &str {
    let start = body
        .find("<header class=\"site-header\"")
        .expect("a site header");
    let end = start + body[start..].find("</header>").expect("the header ends");
    &body[start..end]
}

/// The `<main>` of a page, scripts and SVG left out.
fn main_of(body: &str) -> &str {
    let start = body.find("<main").expect("main");
    let end = start + body[start..].find("</main>").expect("main ends");
    &body[start..end]
}

/// Every reading page of the demo, with a link found on another for those
/// whose address names a stored thing.
async fn reading_pages(app: &TestApp) -> Vec<String> {
    let mut pages: Vec<String> = [
        "/",
        "/cases",
        "/cases/DEMO-0001",
        "/leaderboard",
        "/leaderboard?task=ljp",
        "/paper",
        "/plawbench",
        "/plawbench/items",
        "/plawbench/leaderboard",
        "/dlawbench",
        "/dlawbench/cases",
        "/dlawbench/leaderboard",
    ]
    .map(str::to_owned)
    .to_vec();
    let board = app.get("/leaderboard").await.body;
    pages.push(first_link(&board, "/leaderboard/items?"));
    pages.push(first_link(&board, "/models/"));
    pages.push(first_link(&board, "/compare?"));
    let plaw = app.get("/plawbench/items").await.body;
    pages.push(first_link(&plaw, "/plawbench/items/"));
    let plaw_board = app.get("/plawbench/leaderboard").await.body;
    let cell = first_link(&plaw_board, "/plawbench/leaderboard/items?");
    let cell_body = app.get(&cell).await.body;
    pages.push(cell);
    pages.push(first_link(&cell_body, "/plawbench/leaderboard/item?"));
    let dlaw = app.get("/dlawbench/cases").await.body;
    pages.push(first_link(&dlaw, "/dlawbench/cases/"));
    let dlaw_board = app.get("/dlawbench/leaderboard").await.body;
    let cell = first_link(&dlaw_board, "/dlawbench/leaderboard/sessions?");
    let cell_body = app.get(&cell).await.body;
    pages.push(cell);
    pages.push(first_link(&cell_body, "/dlawbench/leaderboard/session?"));
    pages
}

#[tokio::test]
async fn every_reading_page_reads_in_one_language_chosen_by_cookie_or_browser() {
    let app = TestApp::with_demo().await;
    for page in reading_pages(&app).await {
        let en = app.get(&page).await;
        assert_eq!(en.status, StatusCode::OK, "{page}: {}", en.body);
        assert!(
            en.body.contains("<html lang=\"en\""),
            "{page}: English without a choice"
        );
        let header = site_header(&en.body);
        assert!(
            header.contains(">Leaderboard<") && !header.contains("排行榜"),
            "{page}: {header}"
        );

        let zh = get_with(&app, &page, &[zh_cookie()]).await;
        assert_eq!(zh.status, StatusCode::OK, "{page}");
        assert!(
            zh.body.contains("<html lang=\"zh-CN\""),
            "{page}: Chinese by the cookie"
        );
        let header = site_header(&zh.body);
        assert!(
            header.contains(">排行榜<") && !header.contains("Leaderboard"),
            "{page}: {header}"
        );
        assert_ne!(
            main_of(&en.body),
            main_of(&zh.body),
            "{page}: the page itself changes"
        );

        let browser = get_with(
            &app,
            &page,
            &[(header::ACCEPT_LANGUAGE, "zh-CN,zh;q=0.9,en;q=0.8")],
        )
        .await;
        assert!(
            browser.body.contains("<html lang=\"zh-CN\""),
            "{page}: Chinese when the browser asks"
        );
        let chosen = get_with(
            &app,
            &page,
            &[
                (header::ACCEPT_LANGUAGE, "zh-CN"),
                (header::COOKIE, "lang=en"),
            ],
        )
        .await;
        assert!(
            chosen.body.contains("<html lang=\"en\""),
            "{page}: the choice beats the browser"
        );
    }
}

#[tokio::test]
async fn no_doubled_labels_remain_on_the_reading_pages() {
    let app = TestApp::with_demo().await;
    let doubled = [
        "Overview 概览",
        "Cases 案例",
        "Leaderboard 排行榜",
        "Sign in 登录",
        "Live 实时",
    ];
    for page in reading_pages(&app).await {
        for cookie in ["lang=en", "lang=zh"] {
            let res = get_with(&app, &page, &[(header::COOKIE, cookie)]).await;
            for label in doubled {
                assert!(
                    !res.body.contains(label),
                    "{page} ({cookie}) still says {label:?}"
                );
            }
        }
    }
}

#[tokio::test]
async fn the_switch_sets_the_cookie_and_returns_to_the_page() {
    let app = TestApp::with_demo().await;
    let res = app
        .get("/lang?to=zh&back=%2Fcases%3Fclass%3Dfamily%26lang%3Den")
        .await;
    assert_eq!(res.status, StatusCode::SEE_OTHER);
    assert_eq!(
        res.location(),
        Some("/cases?class=family"),
        "back, without the URL's own choice"
    );
    let cookie = res
        .headers
        .get(header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .expect("a cookie");
    assert!(
        cookie.starts_with("lang=zh;") && cookie.contains("Path=/") && cookie.contains("Max-Age="),
        "{cookie}"
    );
    // The choice persists: every later page is Chinese.
    let page = get_with(&app, "/cases?class=family", &[(header::COOKIE, "lang=zh")]).await;
    assert!(page.body.contains(">案例<") && page.body.contains("<html lang=\"zh-CN\""));
    // The switch on a page links to the page in the other language.
    assert!(
        page.body
            .contains("href=\"/lang?to=en&amp;back=%2Fcases%3Fclass%3Dfamily\""),
        "{}",
        site_header(&page.body)
    );

    // Never away from the site; an unknown language is refused, saying why.
    let away = app.get("/lang?to=en&back=%2F%2Fevil.example%2F").await;
    assert_eq!(away.location(), Some("/"));
    let unknown = app.get("/lang?to=fr&back=%2F").await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    assert!(unknown.body.contains("zh or en"), "{}", unknown.body);
}

#[tokio::test]
async fn cached_pages_are_kept_per_language() {
    let app = TestApp::with_demo().await;
    let en = app.get("/leaderboard").await;
    let zh = get_with(&app, "/leaderboard", &[zh_cookie()]).await;
    let en_again = app.get("/leaderboard").await;
    assert!(en.body.contains(">Leaderboard<") && en_again.body.contains(">Leaderboard<"));
    assert!(zh.body.contains(">排行榜<") && !zh.body.contains(">Leaderboard<"));
    let etag = |r: &TestResponse| r.headers.get(header::ETAG).cloned();
    assert_ne!(etag(&en), etag(&zh), "one copy per language");
    assert_eq!(etag(&en), etag(&en_again));
    let vary = en
        .headers
        .get(header::VARY)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    assert!(
        vary.contains("Accept-Language") && vary.contains("Cookie"),
        "{vary}"
    );
}

#[tokio::test]
async fn numbers_dates_and_plurals_follow_the_language() {
    let app = TestApp::with_demo().await;
    let en = app.get("/").await;
    let zh = get_with(&app, "/", &[zh_cookie()]).await;
    assert!(en.body.contains("72 cases"), "{}", main_of(&en.body));
    assert!(zh.body.contains("72 个案例"));
    assert!(
        en.body.contains(" UTC") && en.body.contains("imported "),
        "an English date"
    );
    assert!(
        zh.body.contains("导入于 ") && zh.body.contains("日 "),
        "a Chinese date"
    );
    // The confusion matrix's headers are in the page's language.
    let cell =
        "/leaderboard/items?model=Sim-Frontier-2%20(simulated)&task=ljp&setup=gold&class=family";
    let zh = get_with(&app, cell, &[zh_cookie()]).await;
    let table = &zh.body[zh
        .body
        .find("data-testid=\"confusion-matrix\"")
        .expect("the matrix")..];
    let table = &table[..table.find("</table>").expect("the table ends")];
    assert!(table.contains("部分支持") && !table.contains("Partially Supported"));
}

#[tokio::test]
async fn expert_pages_default_to_chinese_and_follow_the_choice() {
    let app = TestApp::with_demo().await;
    app.user("专家甲", engine::accounts::Role::Expert, "a-long-password")
        .await;
    let expert = app.sign_in("专家甲", "a-long-password").await;
    let page = app.get_with_cookie("/review", Some(&expert)).await;
    assert!(
        page.body.contains("<html lang=\"zh-CN\""),
        "Chinese for experts by default"
    );
    let chosen = app
        .get_with_cookie("/review", Some(&format!("{expert}; lang=en")))
        .await;
    assert!(chosen.body.contains("<html lang=\"en\"") && chosen.body.contains("My review items"));
}
