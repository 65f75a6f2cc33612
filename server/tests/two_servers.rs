//! Two servers on one PostgreSQL database, as behind a load balancer: an
//! upload through one reaches the live pages and the figures of the other,
//! and duplicate uploads racing over both give one 201 and nine 409. Needs
//! a PostgreSQL server ([`db::TEST_PG_ENV`]); `scripts/test.sh` starts one.

mod common;

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use common::json::next_event;
use common::{demo_run_as, upload, TestApp};
use engine::accounts::Role;

/// Two apps on one fresh PostgreSQL database with the demo loaded, or
/// `None` (the test is skipped) when no server is named.
async fn two_servers() -> Option<(TestApp, TestApp)> {
    if std::env::var(db::TEST_PG_ENV).map_or(true, |url| url.is_empty()) {
        eprintln!("skipped: {} names no PostgreSQL server", db::TEST_PG_ENV);
        return None;
    }
    let scratch = tempfile::tempdir().expect("dir");
    let url = db::Db::location_for_test(&scratch.path().join("unused.db"))
        .await
        .expect("a fresh database");
    let a = TestApp::on_database(std::path::Path::new(&url)).await;
    server::demo::ensure_loaded(&a.db)
        .await
        .expect("demo loads");
    let b = TestApp::on_database(std::path::Path::new(&url)).await;
    assert_eq!(b.db.backend(), db::Backend::Postgres);
    Some((a, b))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_upload_on_one_server_updates_the_other_servers_live_pages_and_figures() {
    let Some((a, b)) = two_servers().await else {
        return;
    };
    // B renders (and caches) its leaderboard before the upload.
    let before = b.get("/leaderboard").await;
    assert_eq!(before.status, StatusCode::OK);
    assert!(!before.body.contains("Crossing-Model"));
    let mut events = b.open_stream("/api/events").await.into_body();

    let researcher = a.token("researcher", Role::Researcher).await;
    let res = a
        .send(upload(&researcher, demo_run_as(6, "Crossing-Model"), ""))
        .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);

    let data: serde_json::Value =
        serde_json::from_str(&next_event(&mut events, "runs", Duration::from_secs(10)).await)
            .expect("event JSON");
    assert_eq!(data["kind"], "runs_stored");
    assert_eq!(data["models"][0], "Crossing-Model");
    // Once the event is out, B's pages and figures show the new run.
    let after = b.get("/leaderboard").await;
    assert!(
        after.body.contains("Crossing-Model"),
        "B's leaderboard is stale"
    );
    let api = b.get("/api/leaderboard").await;
    assert!(api.body.contains("Crossing-Model"), "{}", api.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ten_duplicate_uploads_over_two_servers_give_one_201_and_nine_409() {
    let Some((a, b)) = two_servers().await else {
        return;
    };
    let researcher = a.token("racer", Role::Researcher).await;
    let servers = [Arc::new(a), Arc::new(b)];
    let tasks: Vec<_> = (0..10)
        .map(|i| {
            let app = Arc::clone(&servers[i % 2]);
            let req = upload(&researcher, demo_run_as(6, "Racing"), "");
            tokio::spawn(async move { app.send(req).await.status })
        })
        .collect();
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.expect("the upload task"));
    }
    let count = |code| statuses.iter().filter(|s| **s == code).count();
    assert_eq!(
        (count(StatusCode::CREATED), count(StatusCode::CONFLICT)),
        (1, 9),
        "{statuses:?}"
    );
}
