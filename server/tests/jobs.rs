//! Benchmark jobs started from the browser (`/admin/runs`), against the
//! pipeline's stub endpoint on 127.0.0.1: the jobs server functions called as
//! the page calls them (same-origin url-encoded posts with the session
//! cookie). A job runs to the leaderboard with the scores the engine computes
//! from the stored run and announces itself on the event stream (a PLawBench
//! job to the PLawBench leaderboard, with its judging settings); a cancelled
//! job stores nothing, restarts from its calls kept in the database without
//! repeating one, and is taken over from a server that died (a lapsed lease);
//! a missing key variable fails the job
//! naming it; the key appears in no row, file or response; every function
//! refuses anyone but an admin.

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use common::json::{assert_close, next_event};
use common::{TestApp, TestResponse};
use engine::accounts::Role;
use leptos::server_fn::ServerFn;
use pipeline::stub::{oracle, Stub};
use serde_json::Value;

use app::server_fns::jobs::{
    CancelJob, DeleteEndpoint, GetJob, ListEndpoints, ListJobs, RestartJob, SaveEndpoint, StartJob,
};

const PASSWORD: &str = "a-long-password";
/// The fake key of the job test, and the variable holding it.
const KEY: &str = "sk-jobs-test-7f3a9c21e4b8d605";
const KEY_VAR: &str = "LEXPILOT_KEY_JOBS_TEST";
/// A variable no test sets.
const UNSET_VAR: &str = "LEXPILOT_KEY_JOBS_TEST_UNSET";

/// The demo app with an admin, signed in.
async fn setup() -> (TestApp, String) {
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, PASSWORD).await;
    let admin = app.sign_in("admin", PASSWORD).await;
    (app, admin)
}

/// Calls server function `F` with a url-encoded body, as the page's forms do.
async fn call<F: ServerFn>(
    app: &TestApp,
    cookie: Option<&str>,
    pairs: &[(&str, &str)],
) -> TestResponse {
    app.call::<F>(cookie, pairs).await
}

/// The response of a call that must succeed.
async fn ok<F: ServerFn>(app: &TestApp, cookie: &str, pairs: &[(&str, &str)]) -> TestResponse {
    let res = call::<F>(app, Some(cookie), pairs).await;
    assert_eq!(res.status, StatusCode::OK, "{}: {}", F::PATH, res.body);
    res
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(app.db.pool())
        .await
        .expect("count")
}

/// The current dataset's cases.
async fn cases(app: &TestApp) -> Vec<engine::lexpilot::dataset::Case> {
    let dataset = db::datasets::current(&app.db, engine::benchmark::Benchmark::Lexpilot)
        .await
        .expect("query")
        .expect("a dataset");
    db::cases::all(&app.db, dataset.id)
        .await
        .expect("cases")
        .to_vec()
}

/// Saves an endpoint on `base_url`; its id.
async fn endpoint(
    app: &TestApp,
    cookie: &str,
    name: &str,
    base_url: &str,
    model: &str,
    key_env: &str,
    vendor: &str,
) -> String {
    let res = ok::<SaveEndpoint>(
        app,
        cookie,
        &[
            ("name", name),
            ("base_url", base_url),
            ("model", model),
            ("key_env", key_env),
            ("vendor", vendor),
        ],
    )
    .await;
    res.json()["id"].to_string()
}

/// Model, user and judge endpoints on the stub, all reading `key_env`.
async fn endpoints(app: &TestApp, cookie: &str, base_url: &str, key_env: &str) -> [String; 3] {
    [
        endpoint(
            app,
            cookie,
            "model",
            base_url,
            "Test-Model",
            key_env,
            "acme",
        )
        .await,
        endpoint(app, cookie, "user", base_url, "Test-User", key_env, "acme").await,
        endpoint(
            app,
            cookie,
            "judge",
            base_url,
            "Test-Judge",
            key_env,
            "judgeco",
        )
        .await,
    ]
}

/// Starts a job of every task on the first `limit` cases; its JSON.
async fn start(
    app: &TestApp,
    cookie: &str,
    [model, user, judge]: &[String; 3],
    limit: &str,
    concurrency: &str,
) -> Value {
    let pairs = [
        ("model", model.as_str()),
        ("user", user.as_str()),
        ("judges[0]", judge.as_str()),
        ("tasks[0]", "lca"),
        ("tasks[1]", "dcg"),
        ("tasks[2]", "ljp:direct"),
        ("tasks[3]", "ljp:interaction"),
        ("tasks[4]", "ljp:gold"),
        ("runs", "1"),
        ("concurrency", concurrency),
        ("user_condition", "standard"),
        ("limit", limit),
        ("family", "open"),
    ];
    ok::<StartJob>(app, cookie, &pairs).await.json()
}

async fn get_job(app: &TestApp, cookie: &str, id: &str) -> Value {
    ok::<GetJob>(app, cookie, &[("id", id)]).await.json()
}

/// Polls job `id` until `done(job)` holds (60 s at most).
async fn wait_for(app: &TestApp, cookie: &str, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let job = get_job(app, cookie, id).await;
        if done(&job) {
            return job;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "job {id} did not get there in 60 s: {job}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn until_stopped(app: &TestApp, cookie: &str, id: &str) -> Value {
    wait_for(app, cookie, id, |j| j["active"] == false).await
}

/// Every file under `dir`, recursively.
fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out
}

#[tokio::test]
async fn a_job_runs_in_the_background_and_lands_on_the_leaderboard() {
    std::env::set_var(KEY_VAR, KEY);
    let (app, admin) = setup().await;
    let cases = cases(&app).await;
    let stub = Stub::start(oracle(&cases)).await.expect("stub");
    let mut events = app.open_stream("/api/events").await.into_body();
    let ids = endpoints(&app, &admin, &stub.base_url, KEY_VAR).await;
    let mut responses = Vec::new();

    let listed = ok::<ListEndpoints>(&app, &admin, &[]).await;
    assert_eq!(listed.json()[0]["key_env"], KEY_VAR);
    assert_eq!(listed.json()[0]["key_set"], true);
    responses.push(listed.body);

    let started = start(&app, &admin, &ids, "3", "4").await;
    responses.push(started.to_string());
    let id = started["id"].to_string();
    assert!(started["active"] == true, "{started}");
    assert_eq!(started["spec"]["first_run"], 1);
    assert_eq!(started["spec"]["limit"], 3);

    let data: Value =
        serde_json::from_str(&next_event(&mut events, "jobs", Duration::from_secs(10)).await)
            .expect("event JSON");
    assert_eq!(data["kind"], "job_progress");
    assert_eq!(data["job_id"].to_string(), id);

    let job = until_stopped(&app, &admin, &id).await;
    responses.push(job.to_string());
    assert_eq!(job["status"], "done", "{job}");
    assert_eq!(job["runs_stored"], 1);
    assert!(job["error"].is_null());
    let items = 3 * (2 + 1 + 3);
    assert_eq!(job["progress"]["done"], items);
    assert_eq!(job["progress"]["total"], items);
    assert_eq!(job["progress"]["failures"], 0);
    assert!(job["progress"]["calls"].as_u64().unwrap_or(0) >= items as u64);
    assert!(stub.authorizations().contains(&format!("Bearer {KEY}")));

    // The stored run covers the dataset: the three cases run, the others
    // unavailable; the leaderboard entry is what the engine makes of it.
    let rows: Vec<(i64, String, Option<i64>)> = sqlx::query_as(
        "SELECT run_number, items, uploaded_by FROM runs WHERE model = 'Test-Model'",
    )
    .fetch_all(app.db.pool())
    .await
    .expect("runs");
    assert_eq!(rows.len(), 1);
    let (run_number, items_text, uploaded_by) = &rows[0];
    assert_eq!(*run_number, 1);
    assert!(uploaded_by.is_some());
    let run =
        engine::lexpilot::run::parse_run(items_text, &cases).expect("the stored run validates");
    assert_eq!(
        run.header.dataset.as_deref(),
        Some("lexpilot-demo-synthetic-first3")
    );
    assert_eq!(run.header.family, Some(engine::core::entry::Family::Open));
    assert_eq!(run.unavailable().total(), (cases.len() - 3) * 6);
    let expected = engine::lexpilot::score::score_entries(std::slice::from_ref(&run), &cases);
    let doc = app.get("/api/leaderboard").await.json();
    let entry = doc["entries"]
        .as_array()
        .and_then(|e| e.iter().find(|e| e["model"] == "Test-Model"))
        .cloned()
        .expect("a leaderboard entry for the job's model");
    assert_eq!(entry["runs"], 1);
    assert_close(
        &entry,
        &serde_json::to_value(&expected.entries[0]).expect("JSON"),
        "entry",
        1e-12,
    );
    // The oracle predicts the gold verdicts on complete consultations.
    assert_eq!(
        entry["ljp"]["overall"]["gold"]["qwk"]["mean"], 1.0,
        "{entry}"
    );

    // The key is in no row, no file (database, WAL, run files, cache) and no
    // response; the page names the variable only.
    let jobs = ok::<ListJobs>(&app, &admin, &[]).await;
    responses.push(jobs.body);
    let page = app.get_with_cookie("/admin/runs", Some(&admin)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(KEY_VAR) && page.body.contains("data-testid=\"job-row\""));
    responses.push(page.body);
    for body in &responses {
        assert!(!body.contains(KEY), "a response holds the key: {body}");
    }
    let rows: Vec<(String, Option<String>, Option<String>, String)> =
        sqlx::query_as("SELECT config, progress, error, out_dir FROM benchmark_jobs")
            .fetch_all(app.db.pool())
            .await
            .expect("jobs");
    assert!(!format!("{rows:?}").contains(KEY));
    if app.db.backend() == db::Backend::Sqlite {
        // Everything in the database file itself, for the scan below.
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(app.db.pool())
            .await
            .expect("checkpoint");
    }
    // The job's calls are kept in the database, without the key.
    let calls: Vec<(String, String)> = sqlx::query_as("SELECT key, content FROM job_calls")
        .fetch_all(app.db.pool())
        .await
        .expect("calls");
    assert!(!calls.is_empty());
    assert!(!format!("{calls:?}").contains(KEY));
    let files = files_under(app.dir());
    for file in files {
        let bytes = std::fs::read(&file).expect("read");
        assert!(
            !bytes.windows(KEY.len()).any(|w| w == KEY.as_bytes()),
            "{} holds the key",
            file.display()
        );
    }
}

#[tokio::test]
async fn a_plawbench_job_runs_in_the_background_and_lands_on_its_leaderboard() {
    use engine::core::panel::Aggregation;
    use engine::plawbench::run::ParseMode;

    std::env::set_var(KEY_VAR, KEY);
    let (app, admin) = setup().await;
    let dataset = db::datasets::current(&app.db, engine::benchmark::Benchmark::Plawbench)
        .await
        .expect("query")
        .expect("the PLawBench demo");
    let items: Vec<engine::plawbench::dataset::Item> = db::items::all(&app.db, dataset.id)
        .await
        .expect("items")
        .to_vec();
    let stub = Stub::start(pipeline::stub::plawbench::oracle(&items))
        .await
        .expect("stub");
    let url = stub.base_url.as_str();
    let model = endpoint(&app, &admin, "model", url, "Test-Model", KEY_VAR, "acme").await;
    let judge = endpoint(&app, &admin, "judge", url, "Test-Judge", KEY_VAR, "judgeco").await;
    let second = endpoint(&app, &admin, "judge-2", url, "Second-Judge", KEY_VAR, "").await;
    // The form also sends the LexPilot fields (ticked tasks, a user model):
    // a PLawBench job drops them.
    let pairs = [
        ("benchmark", "plawbench"),
        ("model", model.as_str()),
        ("user", model.as_str()),
        ("judges[0]", judge.as_str()),
        ("judges[1]", second.as_str()),
        ("tasks[0]", "lca"),
        ("runs", "1"),
        ("concurrency", "3"),
        ("user_condition", "standard"),
        ("limit", "14"),
        ("family", "open"),
        ("judge_parse", "strict"),
        ("judge_aggregation", "median"),
        ("judge_attempts", "2"),
        ("max_tokens", "4096"),
        ("model_family", "Test"),
    ];
    let started = ok::<StartJob>(&app, &admin, &pairs).await.json();
    let id = started["id"].to_string();
    let spec = &started["spec"];
    assert_eq!(spec["benchmark"], "plawbench", "{started}");
    assert_eq!(spec["dataset"], dataset.name.as_str());
    assert!(spec["user"].is_null() && spec["tasks"] == serde_json::json!([]));
    assert_eq!(spec["plawbench"]["judge_parse"], "strict");
    assert_eq!(spec["plawbench"]["judge_attempts"], 2);

    let job = until_stopped(&app, &admin, &id).await;
    assert_eq!(job["status"], "done", "{job}");
    assert_eq!(job["runs_stored"], 1);
    assert_eq!(job["progress"]["done"], 14);
    assert_eq!(job["progress"]["total"], 14);
    assert_eq!(job["progress"]["failures"], 0);
    // A model call and two judge calls per item.
    assert_eq!(stub.requests(), 3 * 14);
    assert!(stub.authorizations().contains(&format!("Bearer {KEY}")));

    // The stored run covers the tasks it ran: the 12 case analyses and the
    // 6 consultations, of which the 4 past the limit are unavailable.
    let stored: String = sqlx::query_scalar(
        "SELECT items FROM runs WHERE model = 'Test-Model' AND benchmark = 'plawbench'",
    )
    .fetch_one(app.db.pool())
    .await
    .expect("the stored run");
    let run = engine::plawbench::run::parse_run(&stored, &items).expect("the stored run validates");
    let h = &run.header;
    assert_eq!(
        h.dataset.as_deref(),
        Some(format!("{}-first14", dataset.name).as_str())
    );
    assert_eq!(
        (h.judge_parse, h.judge_aggregation, h.judge_attempts),
        (ParseMode::Strict, Aggregation::Median, 2)
    );
    assert_eq!(
        h.judge_models().collect::<Vec<_>>(),
        ["Test-Judge", "Second-Judge"]
    );
    assert_eq!(h.judges[0].vendor.as_deref(), Some("judgeco"));
    assert_eq!(h.model_family.as_deref(), Some("Test"));
    assert_eq!(h.family, Some(engine::core::entry::Family::Open));
    let generation = h.generation.clone().unwrap_or_default();
    assert_eq!(generation["model"]["max_tokens"], 4096);
    assert_eq!(run.items.len(), 12 + 6);
    assert_eq!(run.unavailable(), 4);

    let expected = engine::plawbench::score::score_entries(std::slice::from_ref(&run), &items);
    let doc = app.get("/api/leaderboard?benchmark=plawbench").await;
    assert_eq!(doc.status, StatusCode::OK, "{}", doc.body);
    let entry = doc.json()["entries"]
        .as_array()
        .and_then(|e| e.iter().find(|e| e["model"] == "Test-Model"))
        .cloned()
        .expect("a PLawBench leaderboard entry for the job's model");
    assert_close(
        &entry,
        &serde_json::to_value(&expected.entries[0]).expect("JSON"),
        "entry",
        1e-12,
    );
    assert!(entry["task2"]["acc"]["mean"].as_f64().is_some(), "{entry}");
    // Not on LexPilot's.
    let lexpilot = app.get("/api/leaderboard").await.json();
    assert!(lexpilot["entries"]
        .as_array()
        .is_some_and(|e| e.iter().all(|e| e["model"] != "Test-Model")));

    let page = app.get_with_cookie("/admin/runs", Some(&admin)).await;
    assert!(
        page.body.contains("data-benchmark=\"plawbench\""),
        "{}",
        page.body
    );
    assert!(page.body.contains("href=\"/plawbench/leaderboard\""));
    assert!(page.body.contains("data-testid=\"plawbench-settings\""));
    assert!(!page.body.contains(KEY));
}

#[tokio::test]
async fn a_dlawbench_job_interviews_in_the_chosen_styles_and_lands_on_its_leaderboard() {
    use engine::dlawbench::dataset::Style;
    use engine::dlawbench::run::Status;

    std::env::set_var(KEY_VAR, KEY);
    let (app, admin) = setup().await;
    let dataset = db::datasets::current(&app.db, engine::benchmark::Benchmark::Dlawbench)
        .await
        .expect("query")
        .expect("the DLawBench demo");
    let cases: Vec<engine::dlawbench::dataset::Case> = db::items::all(&app.db, dataset.id)
        .await
        .expect("cases")
        .to_vec();
    // The script whose Inquiry scores fall with the client's style.
    let stub = Stub::start(pipeline::stub::dlawbench::styled_oracle(&cases))
        .await
        .expect("stub");
    let url = stub.base_url.as_str();
    let lawyer = endpoint(&app, &admin, "lawyer", url, "Test-Lawyer", KEY_VAR, "acme").await;
    let client = endpoint(&app, &admin, "client", url, "Test-Client", KEY_VAR, "").await;
    let judges = [
        endpoint(&app, &admin, "j1", url, "Judge-One", KEY_VAR, "judgeco").await,
        endpoint(&app, &admin, "j2", url, "Judge-Two", KEY_VAR, "otherco").await,
        // The lawyer's vendor: this seat recuses and is never called.
        endpoint(&app, &admin, "j3", url, "Judge-Acme", KEY_VAR, "acme").await,
    ];
    // The form also sends the other benchmarks' fields: a DLawBench job
    // drops the tasks and the user condition and keeps its own settings.
    let pairs = [
        ("benchmark", "dlawbench"),
        ("model", lawyer.as_str()),
        ("user", client.as_str()),
        ("judges[0]", judges[0].as_str()),
        ("judges[1]", judges[1].as_str()),
        ("judges[2]", judges[2].as_str()),
        ("tasks[0]", "lca"),
        ("styles[0]", "cooperative"),
        ("styles[3]", "adversarial"),
        ("horizon", "4"),
        ("lawyer_attempts", "2"),
        ("judge_attempts", ""),
        ("runs", "1"),
        ("concurrency", "3"),
        ("user_condition", "standard"),
        ("judge_parse", "strict"),
    ];
    let started = ok::<StartJob>(&app, &admin, &pairs).await.json();
    let id = started["id"].to_string();
    let spec = &started["spec"];
    assert_eq!(spec["benchmark"], "dlawbench", "{started}");
    assert_eq!(spec["user"]["model"], "Test-Client");
    assert!(spec["tasks"] == serde_json::json!([]) && spec["plawbench"].is_null());
    assert_eq!(
        spec["dlawbench"],
        serde_json::json!({"styles": ["cooperative", "adversarial"], "horizon": 4, "lawyer_attempts": 2, "judge_attempts": 3})
    );

    let job = until_stopped(&app, &admin, &id).await;
    assert_eq!(job["status"], "done", "{job}");
    assert_eq!(job["runs_stored"], 1);
    assert_eq!(job["progress"]["done"], 24, "{job}");
    assert_eq!(job["progress"]["failures"], 0);
    // Per style, the 12 cases ask 1, 2, 3, 1, 2, 3, … questions: 36 lawyer
    // and 24 client calls, and two seated judges make two calls per session.
    assert_eq!(stub.requests(), 2 * (36 + 24 + 12 * 2 * 2));

    let stored: String = sqlx::query_scalar(
        "SELECT items FROM runs WHERE model = 'Test-Lawyer' AND benchmark = 'dlawbench'",
    )
    .fetch_one(app.db.pool())
    .await
    .expect("the stored run");
    let run = engine::dlawbench::run::parse_run(&stored, &cases).expect("the stored run validates");
    let h = &run.header;
    assert_eq!(h.client_model.as_deref(), Some("Test-Client"));
    assert_eq!(h.horizon, 4);
    assert_eq!(h.dataset.as_deref(), Some(dataset.name.as_str()));
    // Every case in both styles.
    assert_eq!(run.sessions.len(), 2 * cases.len());
    let run_sessions: Vec<_> = run
        .sessions
        .iter()
        .filter(|s| s.unavailable.is_none())
        .collect();
    assert_eq!(run_sessions.len(), 24);
    assert!(run_sessions.iter().all(|s| s.status == Status::Submitted));
    assert!(run_sessions
        .iter()
        .all(|s| matches!(s.style, Style::Cooperative | Style::Adversarial)));
    for session in &run_sessions {
        let seats: Vec<(&str, bool)> = session
            .panel
            .iter()
            .map(|s| (s.judge.as_str(), s.recused))
            .collect();
        assert_eq!(
            seats,
            [
                ("Judge-One", false),
                ("Judge-Two", false),
                ("Judge-Acme", true)
            ],
            "{}",
            session.case_id
        );
    }

    let expected = engine::dlawbench::score::score_entries(std::slice::from_ref(&run), &cases);
    let doc = app.get("/api/leaderboard?benchmark=dlawbench").await;
    assert_eq!(doc.status, StatusCode::OK, "{}", doc.body);
    let entry = doc.json()["entries"]
        .as_array()
        .and_then(|e| e.iter().find(|e| e["model"] == "Test-Lawyer"))
        .cloned()
        .expect("a DLawBench leaderboard entry for the job's model");
    assert_close(
        &entry,
        &serde_json::to_value(&expected.entries[0]).expect("JSON"),
        "entry",
        1e-12,
    );

    // The adversarial client costs the lawyer Inquiry points: the style gap.
    let gap = &entry["null_as_zero"]["style_gap"]["adversarial"]["inquiry"]["mean"];
    assert!(gap.as_f64().is_some_and(|g| g < -0.1), "{entry}");

    let page = app.get_with_cookie("/admin/runs", Some(&admin)).await;
    assert!(
        page.body.contains("data-benchmark=\"dlawbench\""),
        "{}",
        page.body
    );
    assert!(page.body.contains("href=\"/dlawbench/leaderboard#styles\""));
    assert!(page.body.contains("data-testid=\"dlawbench-settings\""));
    assert!(page
        .body
        .contains("Cooperative, Adversarial · client Test-Client"));
    assert!(!page.body.contains(KEY));
    // The style-sensitivity view shows the job's entry.
    let board = app.get("/dlawbench/leaderboard").await;
    assert!(board.body.contains("Test-Lawyer"), "{}", board.body);
}

#[tokio::test]
async fn a_dlawbench_job_without_a_client_or_a_style_is_refused() {
    std::env::set_var(KEY_VAR, KEY);
    let (app, admin) = setup().await;
    let stub = Stub::start(oracle(&cases(&app).await)).await.expect("stub");
    let [model, user, judge] = endpoints(&app, &admin, &stub.base_url, KEY_VAR).await;
    let base = [
        ("benchmark", "dlawbench"),
        ("model", model.as_str()),
        ("judges[0]", judge.as_str()),
        ("runs", "1"),
        ("concurrency", "1"),
    ];
    for (extra, message) in [
        (vec![("styles[0]", "cooperative")], "client simulator"),
        (vec![("user", user.as_str())], "at least one style"),
        (
            vec![("user", user.as_str()), ("styles[0]", "polite")],
            "unknown style \"polite\"",
        ),
        (
            vec![
                ("user", user.as_str()),
                ("styles[0]", "cooperative"),
                ("horizon", "0"),
            ],
            "the horizon must be a whole number",
        ),
        (
            vec![
                ("user", user.as_str()),
                ("styles[0]", "cooperative"),
                ("horizon", "51"),
            ],
            "the horizon must be between 1 and 50",
        ),
    ] {
        let mut pairs = base.to_vec();
        pairs.extend(extra);
        let res = call::<StartJob>(&app, Some(&admin), &pairs).await;
        assert_ne!(res.status, StatusCode::OK, "{pairs:?}");
        assert!(res.body.contains(message), "{pairs:?}: {}", res.body);
    }
    assert_eq!(count(&app, "SELECT COUNT(*) FROM benchmark_jobs").await, 0);
    assert_eq!(stub.requests(), 0);
}

#[tokio::test]
async fn a_cancelled_job_stores_nothing_resumes_from_its_calls_and_is_taken_over_from_a_dead_server(
) {
    let (app, admin) = setup().await;
    let cases = cases(&app).await;
    let stub = Stub::with_latency(Duration::from_millis(60), oracle(&cases))
        .await
        .expect("stub");
    // A local endpoint: no key at all.
    let ids = endpoints(&app, &admin, &stub.base_url, "").await;
    let runs_before = count(&app, "SELECT COUNT(*) FROM runs").await;

    let id = start(&app, &admin, &ids, "4", "1").await["id"].to_string();
    wait_for(&app, &admin, &id, |j| {
        j["status"] == "running" && j["progress"]["calls"].as_u64().unwrap_or(0) > 0
    })
    .await;
    let cancelling = ok::<CancelJob>(&app, &admin, &[("id", &id)]).await.json();
    assert!(
        cancelling["cancel_requested"] == true || cancelling["status"] == "cancelled",
        "{cancelling}"
    );
    let cancelled = until_stopped(&app, &admin, &id).await;
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    assert_eq!(cancelled["runs_stored"], 0);
    assert_eq!(cancelled["restartable"], true);
    assert!(cancelled["error"]
        .as_str()
        .unwrap_or_default()
        .contains("cancelled"));
    let done_before = cancelled["progress"]["done"].as_u64().unwrap_or(0);
    let total = cancelled["progress"]["total"].as_u64().unwrap_or(0);
    assert!(done_before < total, "cancelled before the end: {cancelled}");
    assert_eq!(count(&app, "SELECT COUNT(*) FROM runs").await, runs_before);
    let again = call::<CancelJob>(&app, Some(&admin), &[("id", &id)]).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);

    // Restarted, it resumes from its kept calls, and runs until cut off
    // again.
    let calls_before = stub.requests();
    let restarted = ok::<RestartJob>(&app, &admin, &[("id", &id)]).await.json();
    assert_eq!(restarted["active"], true, "{restarted}");
    let job_id = id.parse::<i64>().expect("id");
    wait_for(&app, &admin, &id, |j| {
        j["status"] == "running" && j["progress"]["calls"].as_u64().unwrap_or(0) > 0
    })
    .await;
    // As if its server had died: the lease lapses, held by a server that
    // no longer runs it (this one's task is stopped without recording).
    sqlx::query(
        "UPDATE benchmark_jobs SET lease_owner = 'a-dead-server', lease_until = 0
         WHERE id = $1",
    )
    .bind(job_id)
    .execute(app.db.pool())
    .await
    .expect("update");
    assert!(app.jobs.cancel(job_id));
    while app.jobs.cancel(job_id) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let abandoned = get_job(&app, &admin, &id).await;
    assert_eq!(abandoned["status"], "running", "{abandoned}");
    let kept = count(
        &app,
        &format!("SELECT COUNT(*) FROM job_calls WHERE job_id = {job_id}"),
    )
    .await;
    assert!(kept > 0);

    // A server looking for abandoned jobs takes it over and finishes it.
    let claimer = app.jobs.resume_abandoned(&app.db);
    let done = until_stopped(&app, &admin, &id).await;
    claimer.abort();
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(done["runs_stored"], 1);
    assert!(done["progress"]["cached_calls"].as_u64().unwrap_or(0) >= kept as u64);
    assert!(stub.requests() > calls_before);
    let repeated: Vec<usize> = stub
        .per_request()
        .into_values()
        .filter(|&n| n > 1)
        .collect();
    assert!(
        repeated.is_empty(),
        "calls repeated after the restart or the take-over: {repeated:?}"
    );
    assert_eq!(
        count(&app, "SELECT COUNT(*) FROM runs").await,
        runs_before + 1
    );
    let restart_done = call::<RestartJob>(&app, Some(&admin), &[("id", &id)]).await;
    assert_eq!(restart_done.status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_missing_key_variable_fails_the_job_naming_the_variable() {
    let (app, admin) = setup().await;
    let cases = cases(&app).await;
    let stub = Stub::start(oracle(&cases)).await.expect("stub");
    std::env::remove_var(UNSET_VAR);
    let ids = endpoints(&app, &admin, &stub.base_url, UNSET_VAR).await;
    assert_eq!(
        ok::<ListEndpoints>(&app, &admin, &[]).await.json()[0]["key_set"],
        false
    );
    // Checkboxes left unticked leave gaps in the indices.
    let pairs = [
        ("model", ids[0].as_str()),
        ("user", ""),
        ("judges[2]", ids[2].as_str()),
        ("tasks[0]", "lca"),
        ("tasks[4]", "ljp:gold"),
        ("runs", "1"),
        ("concurrency", "2"),
        ("user_condition", "standard"),
        ("limit", "2"),
        ("family", ""),
    ];
    let id = ok::<StartJob>(&app, &admin, &pairs).await.json()["id"].to_string();
    let job = until_stopped(&app, &admin, &id).await;
    assert_eq!(job["status"], "failed", "{job}");
    assert_eq!(job["spec"]["tasks"], serde_json::json!(["lca", "ljp:gold"]));
    let error = job["error"].as_str().unwrap_or_default();
    assert!(error.contains(UNSET_VAR), "{error}");
    assert_eq!(job["runs_stored"], 0);
    assert_eq!(stub.requests(), 0);
    assert_eq!(
        count(&app, "SELECT COUNT(*) FROM runs WHERE model = 'Test-Model'").await,
        0
    );
}

#[tokio::test]
async fn endpoints_and_jobs_refuse_keys_and_bad_settings() {
    let (app, admin) = setup().await;
    let good = [
        ("name", "deepseek"),
        ("base_url", "https://api.deepseek.com/v1"),
        ("model", "DeepSeek-V4.1-Flash"),
        ("key_env", "LEXPILOT_KEY_DEEPSEEK"),
        ("vendor", "deepseek"),
    ];
    let with = |field: &'static str, value: &'static str| {
        good.map(|(k, v)| (k, if k == field { value } else { v }))
    };
    let pasted_key = "sk-live-0123456789abcdef0123";
    for (field, value) in [
        ("key_env", pasted_key),
        ("key_env", "deepseek-api-key"),
        ("base_url", "ftp://api.deepseek.com"),
        ("base_url", "https://api.deepseek.com/v1?api_key=abc"),
        ("name", ""),
        ("model", pasted_key),
    ] {
        let res = call::<SaveEndpoint>(&app, Some(&admin), &with(field, value)).await;
        assert_eq!(
            res.status,
            StatusCode::BAD_REQUEST,
            "{field}={value}: {}",
            res.body
        );
        assert!(!res.body.contains(pasted_key), "{}", res.body);
    }
    assert_eq!(count(&app, "SELECT COUNT(*) FROM endpoints").await, 0);
    // A variable without the operator's prefix: no other secret of the
    // server can be named as a key (issue 39, point 6).
    for var in ["DATABASE_URL", "AWS_SECRET_ACCESS_KEY", "LEXPILOT_KEY_"] {
        let res = call::<SaveEndpoint>(&app, Some(&admin), &with("key_env", var)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{var}: {}", res.body);
        assert!(
            res.body.contains("does not start with LEXPILOT_KEY_"),
            "{}",
            res.body
        );
    }
    assert_eq!(count(&app, "SELECT COUNT(*) FROM endpoints").await, 0);

    let id = ok::<SaveEndpoint>(&app, &admin, &good).await.json()["id"].to_string();
    let dup = call::<SaveEndpoint>(&app, Some(&admin), &good).await;
    assert_eq!(dup.status, StatusCode::CONFLICT, "{}", dup.body);
    let mut renamed = with("name", "deepseek-2").to_vec();
    renamed.push(("id", &id));
    let saved = ok::<SaveEndpoint>(&app, &admin, &renamed).await.json();
    assert_eq!(
        (saved["id"].to_string(), &saved["name"]),
        (id.clone(), &Value::from("deepseek-2"))
    );

    for (condition, tasks) in [
        ("grumpy", "lca"),
        ("standard", "dcg"),
        ("standard", "everything"),
    ] {
        let pairs = [
            ("model", id.as_str()),
            ("judges[0]", id.as_str()),
            ("tasks[0]", tasks),
            ("runs", "1"),
            ("concurrency", "1"),
            ("user_condition", condition),
        ];
        let res = call::<StartJob>(&app, Some(&admin), &pairs).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
    }
    assert_eq!(count(&app, "SELECT COUNT(*) FROM benchmark_jobs").await, 0);

    ok::<DeleteEndpoint>(&app, &admin, &[("id", &id)]).await;
    let gone = call::<DeleteEndpoint>(&app, Some(&admin), &[("id", &id)]).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn every_jobs_function_refuses_anyone_but_an_admin() {
    let (app, admin) = setup().await;
    app.user("researcher", Role::Researcher, PASSWORD).await;
    app.user("expert", Role::Expert, PASSWORD).await;
    let researcher = app.sign_in("researcher", PASSWORD).await;
    let expert = app.sign_in("expert", PASSWORD).await;
    let endpoint = [
        ("name", "e"),
        ("base_url", "http://127.0.0.1:9/v1"),
        ("model", "M"),
    ];
    let start = [
        ("model", "1"),
        ("judges[0]", "1"),
        ("tasks[0]", "lca"),
        ("runs", "1"),
        ("concurrency", "1"),
        ("user_condition", "standard"),
    ];
    let id = [("id", "1")];

    async fn refused<F: ServerFn>(app: &TestApp, pairs: &[(&str, &str)], who: &[&str]) {
        let anonymous = call::<F>(app, None, pairs).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED, "{}", F::PATH);
        for cookie in who {
            let res = call::<F>(app, Some(cookie), pairs).await;
            assert_eq!(
                res.status,
                StatusCode::FORBIDDEN,
                "{}: {}",
                F::PATH,
                res.body
            );
        }
    }
    let who = [researcher.as_str(), expert.as_str()];
    refused::<ListEndpoints>(&app, &[], &who).await;
    refused::<SaveEndpoint>(&app, &endpoint, &who).await;
    refused::<DeleteEndpoint>(&app, &id, &who).await;
    refused::<ListJobs>(&app, &[], &who).await;
    refused::<GetJob>(&app, &id, &who).await;
    refused::<StartJob>(&app, &start, &who).await;
    refused::<CancelJob>(&app, &id, &who).await;
    refused::<RestartJob>(&app, &id, &who).await;
    assert_eq!(count(&app, "SELECT COUNT(*) FROM endpoints").await, 0);
    assert_eq!(count(&app, "SELECT COUNT(*) FROM benchmark_jobs").await, 0);

    // The page is refused to non-admins and shows the forms to admins.
    let page = app.get_with_cookie("/admin/runs", Some(&researcher)).await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    assert!(
        page.body.contains("data-testid=\"access-refused\""),
        "{}",
        page.body
    );
    assert!(!page.body.contains("data-testid=\"endpoints-table\""));
    let page = app.get_with_cookie("/admin/runs", Some(&admin)).await;
    assert!(
        page.body.contains("data-testid=\"endpoints-table\""),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("href=\"/admin/runs\""),
        "the header links the page"
    );
    let header = app.get_with_cookie("/", Some(&researcher)).await;
    assert!(!header.body.contains("href=\"/admin/runs\""));
}

/// The Targeted vs Off-target experiment as a job kind: started from the
/// page's form, run against the stub in the background, its results stored
/// and shown as Table 4 on `/paper`; with a limit, or without a user model,
/// it is refused up front.
#[tokio::test]
async fn a_targeted_experiment_job_lands_as_table_4_on_the_paper_page() {
    std::env::set_var(KEY_VAR, KEY);
    let (app, admin) = setup().await;
    let stub = Stub::start(pipeline::stub::targeted::oracle(&cases(&app).await))
        .await
        .expect("stub");
    let [model, user, judge] = endpoints(&app, &admin, &stub.base_url, KEY_VAR).await;
    let page = app.get_with_cookie("/admin/runs", Some(&admin)).await;
    assert!(page.body.contains("data-testid=\"job-experiment\""));
    assert!(page.body.contains("Targeted vs Off-target (Table 4)"));

    let pairs = |limit: &'static str, user: &str| {
        vec![
            ("experiment".to_owned(), "targeted".to_owned()),
            ("model".to_owned(), model.clone()),
            ("user".to_owned(), user.to_owned()),
            ("judges[0]".to_owned(), judge.clone()),
            ("runs".to_owned(), "1".to_owned()),
            ("concurrency".to_owned(), "8".to_owned()),
            ("limit".to_owned(), limit.to_owned()),
            ("family".to_owned(), "closed".to_owned()),
        ]
    };
    for (bad, why) in [(pairs("5", &user), "limit"), (pairs("", ""), "user model")] {
        let refs: Vec<(&str, &str)> = bad.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let res = call::<StartJob>(&app, Some(&admin), &refs).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
        assert!(res.body.contains(why), "{}", res.body);
    }

    let good = pairs("", &user);
    let refs: Vec<(&str, &str)> = good.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let started = ok::<StartJob>(&app, &admin, &refs).await.json();
    assert_eq!(started["spec"]["experiment"], "targeted");
    assert_eq!(started["spec"]["tasks"], serde_json::json!([]));
    let id = started["id"].to_string();
    let job = until_stopped(&app, &admin, &id).await;
    assert_eq!(job["status"], "done", "{job}");
    assert_eq!(job["runs_stored"], 1);
    assert_eq!(count(&app, "SELECT COUNT(*) FROM targeted_runs").await, 1);
    assert_eq!(
        count(&app, "SELECT COUNT(*) FROM runs WHERE model = 'Test-Model'").await,
        0,
        "the experiment's results are not leaderboard runs"
    );

    let page = app.get("/paper").await;
    assert!(page.body.contains("data-testid=\"paper-table_4\""));
    let table: Value = app
        .get("/api/leaderboard/export?paper=table_4&format=json")
        .await
        .json();
    let rows = table["rows"].as_array().cloned().unwrap_or_default();
    assert_eq!(rows.len(), 1, "{table}");
    assert_eq!(rows[0]["label"], "Test-Model");
    assert!(
        rows[0]["cells"][0].is_null(),
        "no Direct runs of Test-Model"
    );
    assert_eq!(rows[0]["cells"][1]["mean"], 1.0);
    let jobs = app.get_with_cookie("/admin/runs", Some(&admin)).await;
    assert!(jobs
        .body
        .contains("Targeted vs Off-target (Table 4) · user Test-User"));
}

/// The user-simulator fidelity study from the browser: an expert writes
/// probes on `/review/fidelity` (a probe breaking a rule refused with its
/// fields named, nothing stored), an admin starts the study as a job kind
/// (refused up front while no probe exists), the stub answers each probe
/// and condition over 127.0.0.1, and the replies land as review items
/// with Table 13's progress on `/paper`; once they exist, the probes are
/// fixed and a second study is refused.
#[tokio::test]
async fn probes_written_in_the_browser_and_a_fidelity_job_make_the_study() {
    use app::server_fns::fidelity::SaveProbe;
    use engine::lexpilot::fidelity::{Probe, ProbeSheet};

    std::env::set_var(KEY_VAR, KEY);
    let (app, admin) = setup().await;
    app.user("王律师", Role::Expert, PASSWORD).await;
    app.user("researcher", Role::Researcher, PASSWORD).await;
    let expert = app.sign_in("王律师", PASSWORD).await;
    let researcher = app.sign_in("researcher", PASSWORD).await;
    let cases = cases(&app).await;
    let sheet = ProbeSheet::of(&cases, Vec::new(), false);
    assert!(sheet.cases.len() >= 3, "{} cases drawn", sheet.cases.len());

    let page = app.get_with_cookie("/review/fidelity", Some(&expert)).await;
    assert_eq!(page.status, StatusCode::OK);
    for c in &sheet.cases {
        assert!(page
            .body
            .contains(&format!("data-testid=\"probe-{}\"", c.case_id)));
    }
    assert!(page
        .body
        .contains(&format!("<strong>0 / {}</strong>", sheet.cases.len())));
    let refused = app
        .get_with_cookie("/review/fidelity", Some(&researcher))
        .await;
    assert!(
        !refused.body.contains("data-testid=\"probe-"),
        "a researcher sees no probe form"
    );

    // Three probes, the first two with D; the questions name their case.
    let mut probes: Vec<Probe> = Vec::new();
    for (i, c) in sheet.cases.iter().take(3).enumerate() {
        let mut p = c.probe.clone();
        let id = &c.case_id;
        p.direct = format!("（{id}）请问借款约定的还款日期具体是哪一天？");
        p.indirect = format!("（{id}）他当时说过什么时候把钱还给您吗？");
        p.broad = format!("（{id}）您了解借款合同履行期限的法律规定吗？");
        p.minimum_answer = "说出约定的日期".into();
        if i == 2 {
            p.withheld_key_facts = None;
        }
        probes.push(p);
    }
    let stub = Stub::start(pipeline::stub::fidelity::oracle(&cases, &probes))
        .await
        .expect("stub");
    let [model, user, judge] = endpoints(&app, &admin, &stub.base_url, KEY_VAR).await;
    let job = |user: &str| {
        vec![
            ("experiment".to_owned(), "fidelity".to_owned()),
            ("model".to_owned(), model.clone()),
            ("user".to_owned(), user.to_owned()),
            ("judges[0]".to_owned(), judge.clone()),
            ("runs".to_owned(), "1".to_owned()),
            ("concurrency".to_owned(), "4".to_owned()),
            ("limit".to_owned(), String::new()),
        ]
    };
    let start = |pairs: Vec<(String, String)>| {
        let app = &app;
        let admin = admin.clone();
        async move {
            let refs: Vec<(&str, &str)> = pairs
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            call::<StartJob>(app, Some(&admin), &refs).await
        }
    };
    let none = start(job(&user)).await;
    assert_eq!(none.status, StatusCode::BAD_REQUEST, "{}", none.body);
    assert!(none.body.contains("no probes"), "{}", none.body);

    let fields = |p: &Probe| {
        let mut pairs = vec![
            ("case_id".to_owned(), p.case_id.clone()),
            ("fact".to_owned(), p.fact.clone()),
            ("direct".to_owned(), p.direct.clone()),
            ("indirect".to_owned(), p.indirect.clone()),
            ("broad".to_owned(), p.broad.clone()),
            ("minimum_answer".to_owned(), p.minimum_answer.clone()),
            ("permitted".to_owned(), p.permitted.clone()),
            (
                "withheld".to_owned(),
                p.withheld_key_facts.clone().unwrap_or_default().join("\n"),
            ),
        ];
        if p.withheld_key_facts.is_some() {
            pairs.push(("ask_withheld".to_owned(), "on".to_owned()));
        }
        pairs
    };
    let save = |who: String, pairs: Vec<(String, String)>| {
        let app = &app;
        async move {
            let refs: Vec<(&str, &str)> = pairs
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            call::<SaveProbe>(app, Some(&who), &refs).await
        }
    };
    let mut bad = probes[0].clone();
    bad.fact = "k99".into();
    bad.broad = "  ".into();
    let res = save(expert.clone(), fields(&bad)).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
    for said in [
        probes[0].case_id.as_str(),
        "fact: ",
        "broad: must not be empty",
    ] {
        assert!(res.body.contains(said), "{said:?} in {}", res.body);
    }
    let res = save(researcher.clone(), fields(&probes[0])).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.body);
    assert_eq!(count(&app, "SELECT COUNT(*) FROM fidelity_probes").await, 0);

    for p in &probes {
        let res = save(expert.clone(), fields(p)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        assert_eq!(res.json(), Value::Bool(true), "a new probe");
    }
    // Saving again replaces (one probe per case).
    let res = save(expert.clone(), fields(&probes[0])).await;
    assert_eq!(res.json(), Value::Bool(false));
    assert_eq!(count(&app, "SELECT COUNT(*) FROM fidelity_probes").await, 3);
    // Another expert may not overwrite it (issue 39, point 6); an admin may.
    app.user("李律师", Role::Expert, PASSWORD).await;
    let other = app.sign_in("李律师", PASSWORD).await;
    let mut theirs = probes[0].clone();
    theirs.minimum_answer = "另一位专家的答案".into();
    let res = save(other, fields(&theirs)).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.body);
    assert!(
        res.body
            .contains("was written by another expert; only its author or an admin"),
        "{}",
        res.body
    );
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM fidelity_probes WHERE probe LIKE '%另一位专家的答案%'"
        )
        .await,
        0
    );
    let res = save(admin.clone(), fields(&probes[0])).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let page = app.get_with_cookie("/review/fidelity", Some(&expert)).await;
    assert!(page
        .body
        .contains(&format!("<strong>3 / {}</strong>", sheet.cases.len())));

    // The job against the stub scripted for these probes.
    let pairs = job(&user);
    let started = start(pairs.clone()).await;
    assert_eq!(started.status, StatusCode::OK, "{}", started.body);
    let started = started.json();
    assert_eq!(started["spec"]["experiment"], "fidelity");
    let id = started["id"].to_string();
    let done = until_stopped(&app, &admin, &id).await;
    assert_eq!(done["status"], "done", "{done}");
    // A–C for three probes, D for two; the judge on the nine A–C questions.
    use pipeline::stub::PromptKind;
    assert_eq!(stub.count(PromptKind::User), 11);
    assert_eq!(stub.count(PromptKind::JudgeDcg), 9);
    assert_eq!(count(&app, "SELECT COUNT(*) FROM fidelity_runs").await, 1);
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM review_items WHERE kind = 'rubric_verdict'"
        )
        .await,
        11
    );
    let paper = app.get("/paper").await;
    assert!(
        paper.body.contains("0 of 11 replies labelled"),
        "{}",
        paper.body
    );
    let jobs = app.get_with_cookie("/admin/runs", Some(&admin)).await;
    assert!(jobs
        .body
        .contains("User-simulator fidelity (Table 13) · user Test-User"));

    // Fixed now: no probe changes, no second study.
    let res = save(expert.clone(), fields(&probes[1])).await;
    assert_eq!(res.status, StatusCode::CONFLICT, "{}", res.body);
    let page = app.get_with_cookie("/review/fidelity", Some(&expert)).await;
    assert!(page.body.contains("data-testid=\"probes-fixed\""));
    let again = start(pairs).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    assert!(
        again.body.contains("fidelity study already"),
        "{}",
        again.body
    );
}

/// Issue 39, N4: what an endpoint says when it refuses a call stays with
/// the admins (the job's record); a stored run keeps only the status.
#[tokio::test]
async fn an_endpoints_error_body_is_kept_from_runs_and_a_job_that_only_failed_stores_none() {
    use pipeline::stub::{PromptKind, StubReply};
    std::env::set_var(KEY_VAR, KEY);
    let (app, admin) = setup().await;
    let cases = cases(&app).await;
    let answer = oracle(&cases);
    let stub = Stub::start(move |call: &pipeline::stub::StubCall| {
        if call.kind == PromptKind::JudgeLca {
            StubReply::Status {
                status: 401,
                retry_after: None,
            }
        } else {
            answer(call)
        }
    })
    .await
    .expect("stub");
    let ids = endpoints(&app, &admin, &stub.base_url, KEY_VAR).await;
    let id = start(&app, &admin, &ids, "2", "2").await["id"].to_string();
    let job = until_stopped(&app, &admin, &id).await;
    assert_eq!(job["status"], "done", "{job}");
    assert!(
        job["progress"]["failures"].as_u64().unwrap_or(0) > 0,
        "{job}"
    );
    // The admin's job record has the endpoint's words.
    let first = job["progress"]["first_failure"]
        .as_str()
        .unwrap_or_default();
    assert!(
        first.contains("HTTP 401") && first.contains("stub error"),
        "{job}"
    );
    // The stored run, which every page and document reads, does not.
    let items: String = sqlx::query_scalar("SELECT items FROM runs WHERE model = 'Test-Model'")
        .fetch_one(app.db.pool())
        .await
        .expect("the run");
    assert!(items.contains("HTTP 401"), "the reason is kept: {items}");
    assert!(!items.contains("stub error"), "{items}");
    let page = app.get(&format!("/cases/{}", cases[0].case_id)).await;
    assert!(!page.body.contains("stub error"));

    // Every call refused: the job fails, telling the admin why, and stores
    // no run.
    let refusing = Stub::start(|_: &pipeline::stub::StubCall| StubReply::Status {
        status: 401,
        retry_after: None,
    })
    .await
    .expect("stub");
    for (i, name) in ["model", "user", "judge"].iter().enumerate() {
        ok::<SaveEndpoint>(
            &app,
            &admin,
            &[
                ("id", ids[i].as_str()),
                ("name", name),
                ("base_url", refusing.base_url.as_str()),
                ("model", ["Test-Model-2", "Test-User", "Test-Judge"][i]),
                ("key_env", KEY_VAR),
                ("vendor", "acme"),
            ],
        )
        .await;
    }
    let id = start(&app, &admin, &ids, "2", "2").await["id"].to_string();
    let job = until_stopped(&app, &admin, &id).await;
    assert_eq!(job["status"], "failed", "{job}");
    let error = job["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("no run was stored") && error.contains("stub error"),
        "{error}"
    );
    assert_eq!(job["runs_stored"], 0);
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM runs WHERE model = 'Test-Model-2'"
        )
        .await,
        0
    );
}

/// Issue 39, point 6: an endpoint stored before the key prefix was set (its
/// variable another secret of the server) has its key read by no job.
#[tokio::test]
async fn a_job_refuses_an_endpoint_whose_key_variable_lacks_the_prefix() {
    let (app, admin) = setup().await;
    let cases = cases(&app).await;
    let stub = Stub::start(oracle(&cases)).await.expect("stub");
    let mut ids = Vec::new();
    for (name, model) in [
        ("model", "Test-Model"),
        ("user", "Test-User"),
        ("judge", "Test-Judge"),
    ] {
        let saved = db::jobs::save_endpoint(
            &app.db,
            None,
            engine::jobs::EndpointFields {
                name,
                base_url: &stub.base_url,
                model,
                key_env: Some("PATH"),
                vendor: None,
            },
        )
        .await
        .expect("an endpoint stored as before the prefix");
        ids.push(saved.id.to_string());
    }
    let ids: [String; 3] = ids.try_into().expect("three");
    let id = start(&app, &admin, &ids, "1", "1").await["id"].to_string();
    let job = until_stopped(&app, &admin, &id).await;
    assert_eq!(job["status"], "failed", "{job}");
    let error = job["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("PATH does not start with LEXPILOT_KEY_"),
        "{error}"
    );
    assert_eq!(stub.requests(), 0, "no call carried the variable's value");
}

#[tokio::test]
async fn a_job_whose_own_lease_lapsed_while_it_ran_goes_on_to_the_end() {
    let (app, admin) = setup().await;
    let cases = cases(&app).await;
    let stub = Stub::with_latency(Duration::from_millis(60), oracle(&cases))
        .await
        .expect("stub");
    let ids = endpoints(&app, &admin, &stub.base_url, "").await;
    let runs_before = count(&app, "SELECT COUNT(*) FROM runs").await;
    let id = start(&app, &admin, &ids, "4", "1").await["id"].to_string();
    wait_for(&app, &admin, &id, |j| {
        j["status"] == "running" && j["progress"]["calls"].as_u64().unwrap_or(0) > 0
    })
    .await;
    // Its heartbeat was late (a loaded machine): the lease lapsed, still
    // ours, while the task runs on.
    sqlx::query("UPDATE benchmark_jobs SET lease_until = 0 WHERE id = $1")
        .bind(id.parse::<i64>().expect("id"))
        .execute(app.db.pool())
        .await
        .expect("update");
    let claimer = app.jobs.resume_abandoned(&app.db);
    let done = until_stopped(&app, &admin, &id).await;
    claimer.abort();
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(done["runs_stored"], 1, "{done}");
    assert_eq!(
        count(&app, "SELECT COUNT(*) FROM runs").await,
        runs_before + 1
    );
}
