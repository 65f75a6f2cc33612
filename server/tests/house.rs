//! The house of issue 11, held by tests: figures never go stale (replacing
//! the newest run changes the interval at once), two applications in one
//! process never share figures, a unique-key race is a 409, a run of another
//! benchmark is refused naming `benchmark`, and a database made by the
//! previous release upgrades in place with its benchmark columns and its
//! runs linked instead of copied. Pages render while other applications of
//! the process start (no render waits for ever).

mod common;

use std::io::Read;
use std::sync::Arc;

use axum::http::StatusCode;
use common::{demo_run_as as run_file, demo_run_with_header as with_header, upload};
use common::{TestApp, TestResponse};
use engine::accounts::Role;
use engine::benchmark::{LexPilot, Suite};
use engine::lexpilot::score::{EntrySample, Metric};
use leptos::server_fn::ServerFn;
use server::demo::{DEMO_DATASET, DEMO_RUNS};

/// The LCA Macro-F1 interval the engine gives the runs of one file, as the
/// leaderboard's cell title writes it.
fn lca_title(file: &str) -> String {
    let cases = LexPilot::parse_dataset(DEMO_DATASET).expect("demo dataset");
    let run = LexPilot::parse_run(file.as_bytes(), &cases).expect("a valid run");
    let (lo, hi) = EntrySample::new(&[run], &cases)
        .ci(Metric::LcaMacroF1, None, 1000, services::read::SEED, 0.95)
        .expect("an interval");
    format!("95% CI [{lo:.3}, {hi:.3}]")
}

/// The LCA view as the page's server function returns it.
async fn lca_view(app: &TestApp) -> serde_json::Value {
    let res = app
        .post_form(
            app::server_fns::leaderboard::GetLeaderboard::PATH,
            "task=lca",
            None,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    res.json()
}

/// The interval of `model`'s overall LCA cell in the server function's view.
fn overall_interval(view: &serde_json::Value, model: &str) -> serde_json::Value {
    let rows = view["table"]["rows"].as_array().expect("rows");
    let row = rows
        .iter()
        .position(|r| r["model"] == model)
        .unwrap_or_else(|| panic!("no row of {model}"));
    let column = view["table"]["columns"]
        .as_array()
        .and_then(|c| c.iter().position(|c| c[0] == "overall"))
        .expect("an overall column");
    view["intervals"][row][column].clone()
}

#[tokio::test]
async fn replacing_the_newest_run_changes_the_interval_at_once() {
    let app = TestApp::with_demo().await;
    let researcher = app.token("researcher", Role::Researcher).await;
    let first = run_file(6, "Fresh");
    let res = app.send(upload(&researcher, first.clone(), "")).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let first_id = res.json()["run"]["id"].clone();
    let page = app.get("/leaderboard?task=lca").await;
    assert!(page.body.contains(&lca_title(&first)), "the first interval");
    let before = overall_interval(&lca_view(&app).await, "Fresh");

    // The newest run, replaced by one with other items: SQLite gives it the
    // same id, so the run count and the newest id are unchanged (PostgreSQL's
    // sequence gives a new one, and the rest holds alike).
    let second = run_file(0, "Fresh");
    let res = app
        .send(upload(&researcher, second.clone(), "?replace=true"))
        .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    if app.db.backend() == db::Backend::Sqlite {
        assert_eq!(res.json()["run"]["id"], first_id, "the id is reused");
    }
    let page = app.get("/leaderboard?task=lca").await;
    assert!(page.body.contains(&lca_title(&second)), "the new interval");
    assert!(!page.body.contains(&lca_title(&first)), "no stale interval");
    let after = overall_interval(&lca_view(&app).await, "Fresh");
    assert_ne!(before, after, "the server function's interval changed too");
    assert!(after.is_array(), "{after}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_uploads_of_one_run_give_one_201_and_nine_409() {
    let app = Arc::new(TestApp::with_demo().await);
    let researcher = app.token("researcher", Role::Researcher).await;
    let tasks: Vec<_> = (0..10)
        .map(|_| {
            let app = Arc::clone(&app);
            let req = upload(&researcher, run_file(6, "Racing"), "");
            tokio::spawn(async move { app.send(req).await })
        })
        .collect();
    let mut statuses = Vec::new();
    for task in tasks {
        let res: TestResponse = task.await.expect("the upload task");
        statuses.push(res.status);
    }
    let created = statuses
        .iter()
        .filter(|s| **s == StatusCode::CREATED)
        .count();
    let conflicts = statuses
        .iter()
        .filter(|s| **s == StatusCode::CONFLICT)
        .count();
    assert_eq!((created, conflicts), (1, 9), "{statuses:?}");
}

#[tokio::test]
async fn two_applications_in_one_process_never_share_figures() {
    let a = TestApp::with_demo().await;
    let b = TestApp::with_demo().await;
    // Same dataset id, same number of runs, same newest id: only the items
    // of one run differ. (A demo run has no uploader: an admin replaces it.)
    let researcher = b.token("admin", Role::Admin).await;
    // The newest demo run (Frontier's run 3), replaced by the items of
    // another model's run under its own header.
    let (header, _) = DEMO_RUNS[8].1.split_once('\n').expect("a header");
    let (_, items) = DEMO_RUNS[0].1.split_once('\n').expect("items");
    let other = format!("{header}\n{items}");
    let res = b
        .send(upload(&researcher, other.clone(), "?replace=true"))
        .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let counts = |app: &TestApp| {
        let db = app.db.clone();
        async move {
            sqlx::query_as::<_, (i64, i64)>("SELECT COUNT(*), MAX(id) FROM runs")
                .fetch_one(db.pool())
                .await
                .expect("counts")
        }
    };
    if a.db.backend() == db::Backend::Sqlite {
        assert_eq!(counts(&a).await, counts(&b).await);
    }

    let page_a = a.get("/leaderboard?task=lca").await;
    let page_b = b.get("/leaderboard?task=lca").await;
    let page_a_again = a.get("/leaderboard?task=lca").await;
    assert_ne!(
        overall_interval(&lca_view(&a).await, "Sim-Frontier-2 (simulated)"),
        overall_interval(&lca_view(&b).await, "Sim-Frontier-2 (simulated)"),
    );
    assert_eq!(
        page_a.body.matches("95% CI").count(),
        page_b.body.matches("95% CI").count()
    );
    assert_ne!(page_a.body, page_b.body, "B shows its own figures");
    assert_eq!(page_a.body.len(), page_a_again.body.len());
    let a_doc = a.get("/api/leaderboard").await.json();
    let b_doc = b.get("/api/leaderboard").await.json();
    assert_ne!(a_doc, b_doc);
}

/// Building a router generates Leptos's route list, which renders the app
/// with resource loading switched off process-wide; a page rendered by
/// another application meanwhile once waited for its data for ever (in CI,
/// a test binary idling until the job's time ran out). Here pages are read
/// while a thread keeps starting applications.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_render_while_other_applications_start() {
    let app = Arc::new(TestApp::with_demo().await);
    let starting = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let starter = {
        let starting = Arc::clone(&starting);
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            let mut started = 0;
            while starting.load(std::sync::atomic::Ordering::Relaxed) {
                runtime.block_on(TestApp::empty());
                started += 1;
            }
            started
        })
    };
    let pages = ["/", "/cases?class=tort", "/leaderboard", "/cases/DEMO-0001"];
    let mut waited = Vec::new();
    for round in 0..40 {
        let reads = pages.map(|uri| {
            let app = Arc::clone(&app);
            tokio::spawn(async move {
                let read = tokio::time::timeout(std::time::Duration::from_secs(20), app.get(uri));
                (uri, read.await.map(|res| res.status))
            })
        });
        for read in reads {
            match read.await.expect("the read") {
                (_, Ok(status)) => assert_eq!(status, StatusCode::OK),
                (uri, Err(_)) => waited.push(format!("round {round}: {uri}")),
            }
        }
    }
    starting.store(false, std::sync::atomic::Ordering::Relaxed);
    let started = starter.join().expect("the starter");
    assert!(started > 0, "applications started meanwhile");
    assert!(waited.is_empty(), "pages that never came: {waited:?}");
}

#[tokio::test]
async fn a_run_of_another_benchmark_is_refused_naming_the_field() {
    let app = TestApp::with_demo().await;
    let researcher = app.token("researcher", Role::Researcher).await;
    let file = with_header(
        6,
        &[
            ("model", "Other-Bench".into()),
            ("benchmark", "plawbench".into()),
        ],
    );
    // Sent for the LexPilot dataset, the header's benchmark is refused.
    let res = app
        .send(upload(&researcher, file.clone(), "?benchmark=lexpilot"))
        .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let errors = res.json()["errors"].clone();
    assert_eq!(errors[0]["field"], "benchmark", "{errors}");
    assert_eq!(errors[0]["line"], 1, "{errors}");
    // Sent without naming one, the header picks the PLawBench dataset, whose
    // rules refuse LexPilot's items.
    let res = app.send(upload(&researcher, file, "")).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let errors = res.json()["errors"].clone();
    assert_eq!(
        errors[0]["line"], 1,
        "the header lacks the judges: {errors}"
    );
    assert_eq!(errors[0]["field"], "judges", "{errors}");
    let runs: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM runs WHERE model = 'Other-Bench'")
        .fetch_one(app.db.pool())
        .await
        .expect("count");
    assert_eq!(runs, 0);
}

#[tokio::test]
async fn a_database_of_the_previous_release_upgrades_in_place() {
    // Made by the release before this one (migrations up to 0009): the demo,
    // a case correction (which copied every run into version 2), a judge
    // sample with labels.
    let mut gz =
        flate2::read::GzDecoder::new(&include_bytes!("fixtures/previous-release.db.gz")[..]);
    let mut bytes = Vec::new();
    gz.read_to_end(&mut bytes).expect("the fixture unpacks");
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("previous.db");
    std::fs::write(&path, bytes).expect("write");
    let count = |db: db::Db, sql: &'static str| async move {
        sqlx::query_scalar::<_, i64>(sql)
            .fetch_one(db.pool())
            .await
            .expect(sql)
    };

    let db = db::Db::open(&path).await.expect("the database upgrades");
    for (sql, expected) in [
        ("SELECT COUNT(*) FROM datasets", 2),
        (
            "SELECT COUNT(*) FROM datasets WHERE benchmark = 'lexpilot'",
            2,
        ),
        ("SELECT COUNT(*) FROM runs", 9),
        ("SELECT COUNT(*) FROM runs WHERE benchmark = 'lexpilot'", 9),
        ("SELECT COUNT(*) FROM run_scores", 18),
        ("SELECT COUNT(DISTINCT dataset_id) FROM run_scores", 2),
        ("SELECT COUNT(*) FROM review_items", 3),
        (
            "SELECT COUNT(*) FROM review_items i JOIN runs r ON r.id = i.run_id",
            3,
        ),
        ("SELECT COUNT(*) FROM review_label_history", 4),
        ("SELECT COUNT(*) FROM case_revisions", 2),
        ("SELECT COUNT(*) FROM users", 4),
    ] {
        assert_eq!(count(db.clone(), sql).await, expected, "{sql}");
    }
    let blind: i64 = count(
        db.clone(),
        "SELECT COUNT(*) FROM review_assignments WHERE label IS NOT NULL AND blind_label IS NULL",
    )
    .await;
    assert_eq!(blind, 0, "every submitted label has its blind label");

    // The upgraded database serves the same leaderboard on both versions.
    let versions: Vec<i64> = sqlx::query_scalar("SELECT id FROM datasets ORDER BY id")
        .fetch_all(db.pool())
        .await
        .expect("versions");
    for id in versions {
        let scored = db::runs::scores(&db, id).await.expect("scores");
        assert_eq!(scored.len(), 9, "version {id} scores the nine runs");
    }
    drop(db);
    let app = TestApp::on_database(&path).await;
    let doc = app.get("/api/leaderboard").await.json();
    assert_eq!(doc["entries"].as_array().map(Vec::len), Some(3));
    assert_eq!(app.get("/leaderboard").await.status, StatusCode::OK);
}
