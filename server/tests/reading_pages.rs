//! Reading pages (issue 16): rendered without the wasm app or a hydration
//! copy of their data, cached for anonymous visitors per data epoch with an
//! `ETag` and a gzip form, changed at once by a stored run, and never shared
//! between an anonymous visitor and a signed-in one. Concurrent visitors of
//! a cold page wait for one render (issue 40).

mod common;

use std::io::Read;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::{TestApp, TestResponse};
use engine::accounts::Role;
use server::demo::{DEMO_RUNS, PLAW_DEMO_RUNS};

const PASSWORD: &str = "a-long-password";

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

fn etag(res: &TestResponse) -> Option<String> {
    res.headers
        .get(header::ETAG)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

#[tokio::test]
async fn a_reading_page_ships_no_wasm_and_no_copy_of_its_data() {
    let app = TestApp::with_demo().await;
    for uri in ["/", "/cases", "/cases/DEMO-0001", "/leaderboard", "/paper"] {
        let page = app.get(uri).await;
        assert_eq!(page.status, StatusCode::OK, "{uri}");
        assert!(!page.body.contains(".wasm"), "{uri} loads the wasm app");
        assert!(
            !page.body.contains("__RESOLVED_RESOURCES"),
            "{uri} carries a hydration copy"
        );
        assert!(page.body.contains("live.js\"></script>"), "{uri}: live.js");
    }
    // A page that needs the app still loads it.
    let sign_in = app.get("/signin").await;
    assert!(sign_in.body.contains("_bg.wasm"), "{}", sign_in.body);
}

#[tokio::test]
async fn an_anonymous_page_is_served_from_memory_with_its_tag_and_gzip() {
    let app = TestApp::with_demo().await;
    let first = app.get("/leaderboard").await;
    assert_eq!(first.status, StatusCode::OK);
    let tag = etag(&first).expect("an ETag");
    assert_eq!(
        first
            .headers
            .get(header::CACHE_CONTROL)
            .and_then(|v| v.to_str().ok()),
        Some("no-cache")
    );
    let again = app.get("/leaderboard").await;
    assert_eq!(etag(&again).as_deref(), Some(tag.as_str()));
    assert_eq!(again.body, first.body);
    assert_eq!(app.state_pages().len().0, 1);

    // A browser holding the page is told it is still good.
    let revalidated = get_with(&app, "/leaderboard", &[(header::IF_NONE_MATCH, &tag)]).await;
    assert_eq!(revalidated.status, StatusCode::NOT_MODIFIED);
    assert!(revalidated.body.is_empty());
    let other = get_with(
        &app,
        "/leaderboard",
        &[(header::IF_NONE_MATCH, "\"other\"")],
    )
    .await;
    assert_eq!(other.status, StatusCode::OK);

    // Gzip for those who take it: the same page.
    let req = Request::get("/leaderboard")
        .header(header::HOST, "127.0.0.1:3000")
        .header(header::ACCEPT_ENCODING, "gzip, br")
        .body(Body::empty())
        .expect("request");
    let (status, headers, bytes) = app.send_raw(req).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        headers
            .get(header::CONTENT_ENCODING)
            .and_then(|v| v.to_str().ok()),
        Some("gzip")
    );
    let mut html = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut html)
        .expect("gzip");
    assert_eq!(html, first.body);
    assert!(
        bytes.len() * 5 < html.len(),
        "{} of {}",
        bytes.len(),
        html.len()
    );

    // Another query is another page.
    let dcg = app.get("/leaderboard?task=dcg").await;
    assert_ne!(etag(&dcg).as_deref(), Some(tag.as_str()));
}

#[tokio::test]
async fn concurrent_visitors_of_a_cold_page_wait_for_one_render() {
    let app = TestApp::with_demo().await;
    for uri in ["/leaderboard?task=ljp", "/paper"] {
        let before = app.state_pages().kept();
        let pages = futures_util::future::join_all((0..8).map(|_| app.get(uri))).await;
        assert!(pages.iter().all(|p| p.status == StatusCode::OK), "{uri}");
        assert!(
            pages.windows(2).all(|w| etag(&w[0]) == etag(&w[1])),
            "{uri}: one page for all"
        );
        assert_eq!(app.state_pages().kept() - before, 1, "{uri}: renders");
    }
}

#[tokio::test]
async fn a_stored_run_changes_the_cached_leaderboard_at_once() {
    let app = TestApp::with_demo().await;
    app.user("researcher", Role::Researcher, PASSWORD).await;
    let before = app.get("/leaderboard").await;
    assert!(!before.body.contains("Cached-Then-New"));
    let cookie = app.sign_in("researcher", PASSWORD).await;
    let run = DEMO_RUNS[6]
        .1
        .replacen("Sim-Frontier-2 (simulated)", "Cached-Then-New", 1);
    let req = Request::post("/api/runs")
        .header(header::HOST, "127.0.0.1:3000")
        .header(header::ORIGIN, "http://127.0.0.1:3000")
        .header(header::COOKIE, &cookie)
        .body(Body::from(run))
        .expect("request");
    let stored = app.send(req).await;
    assert_eq!(stored.status, StatusCode::CREATED, "{}", stored.body);
    let after = app.get("/leaderboard").await;
    assert!(
        after.body.contains("Cached-Then-New"),
        "the new entry shows at once"
    );
    assert_ne!(etag(&after), etag(&before));
}

#[tokio::test]
async fn another_benchmark_s_runs_show_on_its_pages_at_once_and_leave_the_others_cached() {
    // On a database file, which other processes may write (their changes
    // arrive through the change log, polled): the server's own write must
    // not come back from the poll as someone else's and make every page cold.
    let app = TestApp::with_demo().await;
    let token = app.token("researcher", Role::Researcher).await;
    let overview = app.get("/").await;
    app.get("/plawbench/leaderboard").await;
    let lexpilot = app.get("/leaderboard").await;
    let run = PLAW_DEMO_RUNS[0]
        .1
        .replacen("Sim-Frontier-3 (simulated)", "PLaw-Newcomer", 1);
    let stored = app
        .send(common::upload(&token, run, "?benchmark=plawbench"))
        .await;
    assert_eq!(stored.status, StatusCode::CREATED, "{}", stored.body);
    let board = app.get("/plawbench/leaderboard").await;
    assert!(board.body.contains("PLaw-Newcomer"), "the new entry shows");
    // The overview counts every benchmark's runs.
    let again = app.get("/").await;
    assert_ne!(etag(&again), etag(&overview), "the overview renders anew");
    // Several polls later LexPilot's page is still the one kept before.
    tokio::time::sleep(db::events::POLL * 3).await;
    let renders = app.state_pages().kept();
    let still = app.get("/leaderboard").await;
    assert_eq!(etag(&still), etag(&lexpilot));
    assert_eq!(app.state_pages().kept(), renders, "served from memory");
}

#[tokio::test]
async fn a_signed_in_reader_never_gets_an_anonymous_copy_nor_the_reverse() {
    let app = TestApp::with_demo().await;
    app.user("admin-王", Role::Admin, PASSWORD).await;
    let admin = app.sign_in("admin-王", PASSWORD).await;
    // Anonymous first: cached.
    let anonymous = app.get("/cases").await;
    assert!(anonymous.body.contains(">Sign in<"));
    assert!(etag(&anonymous).is_some());
    // The admin gets a page of their own, never from the cache.
    let signed_in = app.get_with_cookie("/cases", Some(&admin)).await;
    assert_eq!(signed_in.status, StatusCode::OK);
    assert!(
        signed_in.body.contains("admin-王"),
        "the header names the admin"
    );
    assert!(!signed_in.body.contains(">Sign in<"));
    assert!(etag(&signed_in).is_none(), "not cached");
    // The admin first on another page: the next anonymous visitor does not
    // get their copy.
    let admin_first = app.get_with_cookie("/leaderboard", Some(&admin)).await;
    assert!(admin_first.body.contains("admin-王"));
    let after = app.get("/leaderboard").await;
    assert!(!after.body.contains("admin-王"));
    assert!(after.body.contains(">Sign in<"));
    let again = app.get("/cases").await;
    assert_eq!(etag(&again), etag(&anonymous));
    assert!(!again.body.contains("admin-王"));
    // An API token is a signed-in reader too.
    let bearer = get_with(&app, "/cases", &[(header::AUTHORIZATION, "Bearer nope")]).await;
    assert!(etag(&bearer).is_none());
}
