//! Timings of the run upload path at LexPilot's scale, printed with `Instant`
//! (`harness = false`; run with `cargo bench -p server --bench ingest`).
//!
//! On a fresh SQLite file in a temporary directory (or a fresh PostgreSQL
//! database when `LEXPILOT_TEST_PG` names a server), with a synthetic 432-case
//! dataset imported and an admin's API token, the whole router is called
//! through `oneshot` (no port), as the HTTP tests do:
//!
//! - `POST /api/runs` of one 432-case run file, 10 times (`?replace=true` after
//!   the first, so each repetition validates, scores and stores it again);
//! - 99 more runs stored (10 models × 10 runs in all);
//! - `GET /api/leaderboard` over the 100 stored runs;
//! - around each, the process's resident set size from `/proc/self/status`:
//!   the peak (`VmHWM`, reset to the current size before each phase so that it
//!   is the phase's own) and the current one (`VmRSS`).
//!
//! The dataset and runs come from `engine::lexpilot::synthetic`, as in `engine/benches/score.rs`.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::{header, Request, StatusCode};
use axum::Router;
use db::datasets::ImportSource;
use db::Db;
use engine::accounts::Role;
use engine::lexpilot::dataset::parse_dataset;
use http_body_util::BodyExt;
use serde_json::Value;
use server::{config, router, AppState};
use tower::ServiceExt;

const CASES_PER_CAUSE: usize = 12;
const MODELS: u32 = 10;
const RUNS_PER_MODEL: u32 = 10;
const REPEATS: usize = 10;

// ---- Timing ----

/// The fastest and the median of `times`.
fn min_median(times: &[Duration]) -> (Duration, Duration) {
    let mut sorted = times.to_vec();
    sorted.sort();
    (sorted[0], sorted[sorted.len() / 2])
}

fn report(label: &str, times: &[Duration]) {
    let (min, median) = min_median(times);
    let max = times.iter().max().copied().unwrap_or_default();
    let total: Duration = times.iter().sum();
    println!(
        "{label:<44} min {min:>10.3?}  median {median:>10.3?}  max {max:>10.3?}  \
         total {total:>10.3?}  ({} reps)",
        times.len()
    );
}

/// A `kB` figure of `/proc/self/status` (`VmHWM`, the peak resident set
/// size; `VmRSS`, the current one), in MiB.
fn status_mib(key: &str) -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<f64>()
                .ok()
        })
        .map_or(f64::NAN, |kib| kib / 1024.0)
}

/// Resets `VmHWM` to the current resident set size (`clear_refs` 5, Linux
/// 4.0 and later), so that the next reading is the peak of what follows and not
/// of the setup before it. Says so when it cannot.
fn reset_peak() {
    if let Err(e) = std::fs::write("/proc/self/clear_refs", "5") {
        println!("    (VmHWM not reset: {e}; the peaks below include the setup)");
    }
}

fn memory(when: &str) {
    println!(
        "memory {when:<38} VmHWM {:>8.1} MiB   VmRSS {:>8.1} MiB",
        status_mib("VmHWM"),
        status_mib("VmRSS")
    );
}

/// Sends `req` through the router and reads the whole response body.
async fn send(app: &Router, req: Request<Body>) -> (StatusCode, Bytes) {
    let res = app.clone().oneshot(req).await.expect("the router answers");
    let status = res.status();
    let body = res.into_body().collect().await.expect("a body").to_bytes();
    (status, body)
}

fn upload(token: &str, file: &str, replace: bool) -> Request<Body> {
    let uri = if replace {
        "/api/runs?replace=true"
    } else {
        "/api/runs"
    };
    Request::post(uri)
        .header(header::HOST, "127.0.0.1:3000")
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::from(file.to_owned()))
        .expect("a request")
}

/// Sends `req` and returns the wall time, checking the status.
async fn timed(app: &Router, req: Request<Body>, expected: StatusCode) -> (Duration, Bytes) {
    let start = Instant::now();
    let (status, body) = send(app, req).await;
    let elapsed = start.elapsed();
    assert_eq!(status, expected, "{}", String::from_utf8_lossy(&body));
    (elapsed, body)
}

async fn bench() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // A SQLite file, or a new database on the PostgreSQL server that
    // LEXPILOT_TEST_PG names (scripts/bench-storage.sh runs both).
    let location = Db::location_for_test(&dir.path().join("bench.db"))
        .await
        .expect("a fresh database");
    let db = Db::open(std::path::Path::new(&location))
        .await
        .expect("the database opens");
    println!("database: {:?}", db.backend());
    let cases = parse_dataset(&engine::lexpilot::synthetic::dataset_file(CASES_PER_CAUSE))
        .expect("a valid dataset");
    let source = ImportSource {
        name: "bench-synthetic",
        source: "server/benches/ingest.rs (synthetic)",
        synthetic: true,
    };
    let dataset = db::datasets::import(&db, source, &cases)
        .await
        .expect("the dataset imports")
        .dataset()
        .clone();
    let admin = db::users::create(&db, "bench-admin", Role::Admin, "a-long-password")
        .await
        .expect("an admin");
    let token = db::tokens::create(&db, &admin).await.expect("a token");
    let addr: SocketAddr = "127.0.0.1:3000".parse().expect("an address");
    let app = router(AppState::new(services::Shared {
        leptos_options: config::leptos_options(addr),
        db: db.clone(),
        jobs: services::jobs::JobManager::new(dir.path().join("data")),
        network: server::Network::default(),
        read: services::read::ReadModels::default(),
        statutes: services::statutes::StatuteCache::default(),
        assets: services::pages::Assets::default(),
        pages: services::pages::PageCache::following(&db),
        imports: services::evalscope::ImportGate::default(),
    }));

    let file = engine::lexpilot::synthetic::run_file(&cases, 0, 1, MODELS);
    println!(
        "dataset: {} cases, {} claims; run file: {} bytes, {} lines",
        cases.len(),
        cases.iter().map(|c| c.claims.len()).sum::<usize>(),
        file.len(),
        file.lines().count()
    );

    memory("after the setup");
    reset_peak();
    memory("before the first upload (peak reset)");
    let mut times = Vec::new();
    let mut response_bytes = 0;
    for i in 0..REPEATS {
        let req = upload(&token, &file, i > 0);
        let (elapsed, body) = timed(&app, req, StatusCode::CREATED).await;
        response_bytes = body.len();
        times.push(elapsed);
    }
    report("POST /api/runs, one 432-case run", &times);
    println!("    response: {response_bytes} bytes");
    memory(&format!("after {REPEATS} uploads"));

    reset_peak();
    memory("before the other stores (peak reset)");
    let mut times = Vec::new();
    for model in 0..MODELS {
        for run in 1..=RUNS_PER_MODEL {
            if (model, run) == (0, 1) {
                continue;
            }
            let req = upload(
                &token,
                &engine::lexpilot::synthetic::run_file(&cases, model, run, MODELS),
                false,
            );
            times.push(timed(&app, req, StatusCode::CREATED).await.0);
        }
    }
    let stored = db::runs::count(&db, dataset.id).await.expect("a count");
    assert_eq!(stored, i64::from(MODELS * RUNS_PER_MODEL));
    report(
        &format!("POST /api/runs, {} more runs", times.len()),
        &times,
    );
    memory(&format!("after storing {stored} runs"));
    match db.backend() {
        db::Backend::Sqlite => {
            let on_disk: u64 = ["bench.db", "bench.db-wal"]
                .iter()
                .filter_map(|name| std::fs::metadata(dir.path().join(name)).ok())
                .map(|m| m.len())
                .sum();
            println!("    database file (with its WAL): {on_disk} bytes");
        }
        db::Backend::Postgres => {
            let size: i64 = sqlx::query_scalar("SELECT pg_database_size(current_database())")
                .fetch_one(db.pool())
                .await
                .expect("the database size");
            println!("    database size (pg_database_size): {size} bytes");
        }
    }

    reset_peak();
    memory("before the leaderboard (peak reset)");
    let mut times = Vec::new();
    let mut document = Bytes::new();
    for _ in 0..REPEATS {
        let req = Request::get("/api/leaderboard")
            .header(header::HOST, "127.0.0.1:3000")
            .body(Body::empty())
            .expect("a request");
        let (elapsed, body) = timed(&app, req, StatusCode::OK).await;
        document = body;
        times.push(elapsed);
    }
    let doc: Value = serde_json::from_slice(&document).expect("a JSON document");
    let entries = doc["entries"].as_array().map_or(0, Vec::len);
    assert_eq!(entries, MODELS as usize);
    report(&format!("GET /api/leaderboard, {stored} runs"), &times);
    println!("    response: {} bytes, {entries} entries", document.len());
    memory(&format!("after {REPEATS} leaderboards"));
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(bench());
}
