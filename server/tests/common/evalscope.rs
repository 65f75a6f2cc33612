//! evalscope imports in tests: the fixtures' PLawBench dataset, and the
//! request that posts an archive.

use axum::body::Body;
use axum::http::{header, Request};
use engine::plawbench::dataset::Item;

use super::TestApp;

/// evalscope output folders and their dataset, written by hand.
pub const FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../engine/tests/fixtures/plawbench/evalscope"
);

/// An app with the evalscope fixtures' dataset as its PLawBench dataset.
pub async fn with_fixture_dataset() -> (TestApp, Vec<Item>) {
    let app = TestApp::empty().await;
    let text = std::fs::read_to_string(format!("{FIXTURES}/dataset.jsonl")).expect("dataset");
    let items = engine::plawbench::dataset::parse_dataset(&text).expect("fixture dataset");
    let src = db::datasets::ImportSource {
        name: "plaw-fixture",
        source: "test",
        synthetic: false,
    };
    db::datasets::import_items(
        &app.db,
        src,
        engine::benchmark::Benchmark::Plawbench,
        &items,
    )
    .await
    .expect("import");
    (app, items)
}

/// `POST /api/evalscope{query}` of the zip `body`, with API token `token`.
pub fn import(token: &str, body: Vec<u8>, query: &str) -> Request<Body> {
    Request::post(format!("/api/evalscope{query}"))
        .header(header::HOST, "127.0.0.1:3000")
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .header(header::CONTENT_TYPE, "application/zip")
        .body(Body::from(body))
        .expect("request")
}
