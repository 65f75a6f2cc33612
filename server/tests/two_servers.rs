//! Two servers on one PostgreSQL database, as behind a load balancer: an
//! upload through one reaches the live pages and the figures of the other,
//! which summarises only the written model's runs again;
//! duplicate uploads racing over both give one 201 and nine 409; a job whose
//! server is killed (SIGKILL, real `lexpilot serve` processes) is finished
//! by the other with no endpoint call made twice; a cancel on one server
//! stops the job running on the other. Needs a PostgreSQL server
//! ([`db::TEST_PG_ENV`]); `scripts/test.sh` starts one.

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
    let built = b.read.stats().slots_built;

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
    // B learnt of the write from the database and summarised only the
    // written model's runs again.
    assert_eq!(b.read.stats().slots_built - built, 1);
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

/// A gate in front of the stub endpoint: it passes on the first `admit`
/// requests, holds every later one for ever (they are never answered, so
/// never finished), until [`Gate::open`]; requests after that pass again.
/// So when a server is killed with the gate shut, every call it finished is
/// one it kept.
struct Gate {
    base_url: String,
    admitted: Arc<std::sync::atomic::AtomicUsize>,
    open: Arc<std::sync::atomic::AtomicBool>,
}

impl Gate {
    async fn start(upstream: &str, admit: usize) -> Gate {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        let admitted = Arc::new(AtomicUsize::new(0));
        let open = Arc::new(AtomicBool::new(false));
        let (upstream, client) = (
            format!("{upstream}/chat/completions"),
            reqwest::Client::builder()
                .no_proxy()
                .build()
                .expect("client"),
        );
        let (count, is_open) = (admitted.clone(), open.clone());
        let app = axum::Router::new().route(
            "/v1/chat/completions",
            axum::routing::post(move |body: String| {
                let (client, upstream) = (client.clone(), upstream.clone());
                let pass =
                    is_open.load(Ordering::SeqCst) || count.fetch_add(1, Ordering::SeqCst) < admit;
                async move {
                    if !pass {
                        // Held: its server dies waiting.
                        std::future::pending::<()>().await;
                    }
                    let res = client
                        .post(&upstream)
                        .header("Content-Type", "application/json")
                        .body(body)
                        .send()
                        .await
                        .expect("the stub answers");
                    let status = StatusCode::from_u16(res.status().as_u16()).expect("status");
                    let text = res.text().await.expect("the stub's body");
                    (status, [("content-type", "application/json")], text)
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move { axum::serve(listener, app).await });
        Gate {
            base_url: format!("http://{addr}/v1"),
            admitted,
            open,
        }
    }

    fn open(&self) {
        self.open.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

/// For the jobs tests on real servers: a fresh PostgreSQL database with the
/// demo and an admin (its URL and a handle), and a stub endpoint answering
/// the demo's cases after `latency`; `None` (the test is skipped) when no
/// PostgreSQL server is named.
async fn jobs_on_postgres(latency: Duration) -> Option<(String, db::Db, pipeline::stub::Stub)> {
    if std::env::var(db::TEST_PG_ENV).map_or(true, |url| url.is_empty()) {
        eprintln!("skipped: {} names no PostgreSQL server", db::TEST_PG_ENV);
        return None;
    }
    let scratch = tempfile::tempdir().expect("dir");
    let url = db::Db::location_for_test(&scratch.path().join("unused.db"))
        .await
        .expect("a fresh database");
    let db = db::Db::open(std::path::Path::new(&url))
        .await
        .expect("open");
    server::demo::ensure_loaded(&db).await.expect("demo loads");
    db::users::create(&db, "admin", Role::Admin, common::process::PASSWORD)
        .await
        .expect("admin");
    let dataset = db::datasets::current(&db, engine::benchmark::Benchmark::Lexpilot)
        .await
        .expect("query")
        .expect("a dataset");
    let cases = db::cases::all(&db, dataset.id).await.expect("cases");
    let stub = pipeline::stub::Stub::with_latency(latency, pipeline::stub::oracle(&cases))
        .await
        .expect("stub");
    Some((url, db, stub))
}

/// The lease of the killed-server test's servers, in seconds: long enough
/// that a loaded machine never misses a renewal (every third of it).
const LEASE_SECS: &str = "5";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_job_whose_server_is_killed_is_finished_by_the_other_with_no_call_repeated() {
    use common::process::Server;
    let Some((url, db, stub)) = jobs_on_postgres(Duration::from_millis(30)).await else {
        return;
    };

    let mut a = Server::on(&url).with_env(services::jobs::LEASE_ENV, LEASE_SECS);
    let mut b = Server::on(&url).with_env(services::jobs::LEASE_ENV, LEASE_SECS);
    a.start().await;
    b.start().await;
    let (http_a, http_b) = (a.http(), b.http());
    let admin_a = http_a.sign_in("admin").await;
    let admin_b = http_b.sign_in("admin").await;

    // How many calls the job makes: the same job on the stub directly.
    let ids = http_a.endpoints(&admin_a, &stub.base_url, "Ref").await;
    let reference = http_a.start_job(&admin_a, &ids, "4", "3").await;
    let done = http_a.until_stopped(&admin_a, reference).await;
    assert_eq!(done["status"], "done", "{done}");
    let total = stub.requests();
    assert!(stub.per_request().values().all(|&n| n == 1));
    stub.reset();

    // The job on A, through a gate that shuts after 40 % of its calls.
    let admit = total * 2 / 5;
    let gate = Gate::start(&stub.base_url, admit).await;
    let ids = http_a.endpoints(&admin_a, &gate.base_url, "Killed").await;
    let id = http_a.start_job(&admin_a, &ids, "4", "3").await;
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let kept = db::jobs::call_count(&db, id).await.expect("count");
        let held = gate.admitted.load(std::sync::atomic::Ordering::SeqCst) > admit;
        if kept as usize == admit && held {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{kept} of {admit} calls kept in 60 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let running = http_b.job(&admin_b, id).await;
    assert_eq!(running["status"], "running", "{running}");
    a.kill();
    let killed_at = std::time::Instant::now();
    gate.open();
    assert_eq!(stub.requests(), admit, "calls finished before the kill");

    // B takes the job over once A's lease lapses, and finishes it.
    let done = http_b.until_stopped(&admin_b, id).await;
    eprintln!(
        "B finished the job {:.1} s after A was killed ({admit} of {total} calls made by A)",
        killed_at.elapsed().as_secs_f64()
    );
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(done["runs_stored"], 1, "{done}");
    let served_from_kept = done["progress"]["cached_calls"].as_u64().unwrap_or(0);
    assert!(served_from_kept >= admit as u64, "{done}");
    let repeated: Vec<(String, usize)> = stub
        .per_request()
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .collect();
    assert!(repeated.is_empty(), "calls repeated: {repeated:?}");
    assert_eq!(stub.requests(), total, "every call made once");
    assert_eq!(
        db::jobs::call_count(&db, id).await.expect("count") as usize,
        total
    );
    let runs: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM runs WHERE model = 'Killed'")
        .fetch_one(db.pool())
        .await
        .expect("runs");
    assert_eq!(runs, 1);
    b.kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_cancel_on_one_server_stops_the_job_running_on_the_other() {
    use app::server_fns::jobs::CancelJob;
    use common::process::Server;
    let Some((url, _, stub)) = jobs_on_postgres(Duration::from_millis(150)).await else {
        return;
    };
    let mut a = Server::on(&url);
    let mut b = Server::on(&url);
    a.start().await;
    b.start().await;
    let (http_a, http_b) = (a.http(), b.http());
    let admin_a = http_a.sign_in("admin").await;
    let admin_b = http_b.sign_in("admin").await;

    let ids = http_a
        .endpoints(&admin_a, &stub.base_url, "Cancelled")
        .await;
    let id = http_a.start_job(&admin_a, &ids, "2", "6").await;
    while stub.requests() < 2 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let cancelled = http_b
        .ok::<CancelJob>(&admin_b, &[("id", &id.to_string())])
        .await;
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    // A hears of it through the change feed and stops its task: after the
    // calls in flight, no request reaches the endpoint.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let settled = stub.requests();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(stub.requests(), settled, "A still calls the endpoint");
    let job = http_a.job(&admin_a, id).await;
    assert_eq!(job["status"], "cancelled", "{job}");
    assert_eq!(job["active"], false, "{job}");
    assert_eq!(job["runs_stored"], 0, "{job}");
    a.kill();
    b.kill();
}
