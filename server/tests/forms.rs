//! What a first-time user trips on in the upload, account and job forms
//! (issue 39, points 13 and 14), through the API, the server functions as
//! the pages call them, and the command line:
//!
//! - upload: `?model=` / `?family=` (and the page's fields) take the place
//!   of the header's, checked as they are, on every benchmark; a dataset
//!   file or another benchmark's run is refused in one error; identical
//!   errors are said once in the API's `summary` and the CLI's output;
//! - accounts: the add form offers the least privileged role first; an
//!   admin resets a password (the account is signed out everywhere), and so
//!   does `lexpilot user password`;
//! - jobs: the form shows the chosen benchmark's settings only; the estimate
//!   holds the calls a job then makes against the stub endpoint (exactly,
//!   where the protocol fixes them); the endpoint test makes one real call.

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use common::{form, TestApp, TestResponse};
use engine::accounts::Role;
use leptos::server_fn::ServerFn;
use pipeline::stub::{Stub, StubReply};
use serde_json::{json, Value};
use server::demo::{DEMO_RUNS, DLAW_DEMO_RUNS, PLAW_DEMO_RUNS};

const PASSWORD: &str = "a-long-password";
const KEY_VAR: &str = "LEXPILOT_KEY_FORMS_TEST";

async fn token(app: &TestApp, name: &str, role: Role) -> String {
    app.user(name, role, PASSWORD).await;
    let user = db::users::by_name(&app.db, name)
        .await
        .expect("query")
        .expect("user");
    db::tokens::create(&app.db, &user).await.expect("token")
}

async fn upload(app: &TestApp, token: &str, body: &str, query: &str) -> TestResponse {
    app.send(common::upload(token, body.to_owned(), query))
        .await
}

/// A server function called with a JSON body, as the upload page and the
/// job estimate call theirs.
async fn call_json(app: &TestApp, path: &str, cookie: &str, body: Value) -> TestResponse {
    app.post_json(path, common::Auth::Cookie(cookie), body)
        .await
}

/// `(model, family)` of the stored run of `model`.
async fn stored(app: &TestApp, model: &str) -> Option<(String, Option<String>)> {
    sqlx::query_as("SELECT model, family FROM runs WHERE model = $1")
        .bind(model)
        .fetch_optional(app.db.pool())
        .await
        .expect("query")
}

#[tokio::test]
async fn model_and_family_given_beside_a_run_take_the_headers_place_on_every_benchmark() {
    let app = TestApp::with_demo().await;
    let t = token(&app, "researcher", Role::Researcher).await;
    let files = [
        ("lexpilot", DEMO_RUNS[6].1, "通义千问 Qwen-页面"),
        ("plawbench", PLAW_DEMO_RUNS[0].1, "Renamed PLaw Model"),
        ("dlawbench", DLAW_DEMO_RUNS[0].1, "Renamed DLaw Model"),
    ];
    for (benchmark, file, model) in files {
        let query = format!(
            "?benchmark={benchmark}&model={}&family=legal",
            common::enc(model)
        );
        let res = upload(&app, &t, file, &query).await;
        assert_eq!(res.status, StatusCode::CREATED, "{benchmark}: {}", res.body);
        assert_eq!(res.json()["run"]["model"], model, "{}", res.body);
        assert_eq!(
            stored(&app, model).await,
            Some((model.to_owned(), Some("legal".to_owned()))),
            "{benchmark}"
        );
    }
    // Checked as the header's fields are: a name, one of the families.
    for (query, field) in [
        ("?model=%20%20", None),
        ("?model=a%00b", Some("model")),
        ("?family=public", Some("family")),
        (
            &format!("?model={}", "m".repeat(201)) as &str,
            Some("model"),
        ),
    ] {
        let res = upload(&app, &t, DEMO_RUNS[5].1, query).await;
        match field {
            // Blank keeps the header's: the demo run, stored already.
            None => assert_eq!(res.status, StatusCode::CONFLICT, "{query}: {}", res.body),
            Some(field) => {
                assert_eq!(res.status, StatusCode::BAD_REQUEST, "{query}: {}", res.body);
                assert!(
                    res.json()["error"]
                        .as_str()
                        .is_some_and(|e| e.contains(&format!("query parameter {field}"))),
                    "{}",
                    res.body
                );
            }
        }
    }

    // The upload page's fields: the check shows the new name, the store
    // keeps it.
    app.user("page-researcher", Role::Researcher, PASSWORD)
        .await;
    let cookie = app.sign_in("page-researcher", PASSWORD).await;
    let file = json!({"name": "run.jsonl", "text": DEMO_RUNS[7].1});
    let body =
        json!({"files": [file], "benchmark": "lexpilot", "model": "页面模型", "family": "open"});
    let check = call_json(
        &app,
        app::server_fns::runs::CheckRuns::PATH,
        &cookie,
        body.clone(),
    )
    .await;
    assert_eq!(check.status, StatusCode::OK, "{}", check.body);
    assert_eq!(check.json()[0]["summary"]["model"], "页面模型");
    let mut store = body;
    store["replace"] = json!(false);
    let res = call_json(&app, app::server_fns::runs::StoreRuns::PATH, &cookie, store).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(
        stored(&app, "页面模型").await,
        Some(("页面模型".to_owned(), Some("open".to_owned())))
    );
}

#[tokio::test]
async fn a_dataset_file_or_another_benchmarks_run_is_refused_in_one_error() {
    let app = TestApp::with_demo().await;
    let t = token(&app, "researcher", Role::Researcher).await;
    let datasets = [
        ("lexpilot", server::demo::DEMO_DATASET, "LexPilot"),
        ("plawbench", server::demo::PLAW_DEMO_DATASET, "PLawBench"),
        ("dlawbench", server::demo::DLAW_DEMO_DATASET, "DLawBench"),
    ];
    for (dataset_of, text, label) in datasets {
        for given_as in ["lexpilot", "plawbench", "dlawbench"] {
            let res = upload(&app, &t, text, &format!("?benchmark={given_as}")).await;
            assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
            let errors = res.json()["errors"].as_array().cloned().unwrap_or_default();
            assert_eq!(errors.len(), 1, "{dataset_of} as {given_as}: {}", res.body);
            let message = errors[0]["message"].as_str().unwrap_or_default();
            assert!(
                message.starts_with(&format!("this is a {label} dataset file, not a run file")),
                "{message}"
            );
            assert!(message.contains(&format!("lexpilot import --benchmark {dataset_of}")));
            assert_eq!(errors[0]["line"], 1);
        }
    }
    // A PLawBench run given as LexPilot's, a LexPilot run as PLawBench's.
    let res = upload(&app, &t, PLAW_DEMO_RUNS[0].1, "?benchmark=lexpilot").await;
    let errors = res.json()["errors"].as_array().cloned().unwrap_or_default();
    assert_eq!(errors.len(), 1, "{}", res.body);
    assert!(errors[0]["message"]
        .as_str()
        .is_some_and(|m| m.starts_with("this is a PLawBench run file")));
    let res = upload(&app, &t, DEMO_RUNS[0].1, "?benchmark=plawbench").await;
    let errors = res.json()["errors"].as_array().cloned().unwrap_or_default();
    assert_eq!(errors.len(), 1, "{}", res.body);
    assert!(errors[0]["message"].as_str().is_some_and(|m| m.contains(
        "this is a LexPilot run file (its header names no benchmark, which means LexPilot)"
    )));
}

/// Demo run 6 with every LCA item of an unknown kind: 144 identical errors.
fn unknown_kinds() -> String {
    DEMO_RUNS[6]
        .1
        .replace("\"kind\": \"lca\"", "\"kind\": \"lcx\"")
}

#[tokio::test]
async fn identical_errors_are_said_once_in_the_summary_and_kept_one_by_one_in_errors() {
    let app = TestApp::with_demo().await;
    let t = token(&app, "researcher", Role::Researcher).await;
    let res = upload(&app, &t, &unknown_kinds(), "").await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let body = res.json();
    // Scripts keep every error as it was: {line, case_id, field, message}.
    let errors = body["errors"].as_array().cloned().unwrap_or_default();
    assert_eq!(errors.len(), 101, "100 in full and a count");
    assert_eq!(errors[0]["line"], 2);
    assert_eq!(errors[0]["field"], "kind");
    assert!(errors[0].get("case_id").is_some(), "{}", errors[0]);
    let summary: Vec<String> = serde_json::from_value(body["summary"].clone()).expect("a summary");
    assert_eq!(summary.len(), 2, "{summary:?}");
    assert!(
        summary[0].starts_with("lines 2–101, field kind: unknown kind \"lcx\""),
        "{summary:?}"
    );
    assert!(
        summary[1].starts_with("line 102: … and 44 more errors"),
        "{summary:?}"
    );
}

#[test]
fn the_cli_says_identical_errors_once_and_names_a_dataset_given_as_a_run() {
    use common::cli::{lexpilot, text, write};
    let dir = tempfile::tempdir().expect("temp dir");
    let dataset = write(dir.path(), "demo.jsonl", server::demo::DEMO_DATASET);
    let broken = write(dir.path(), "broken.jsonl", &unknown_kinds());
    let out = lexpilot(&["validate", "--dataset", &dataset, &broken], None);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].starts_with(&format!(
        "{broken}: lines 2–101, field kind: unknown kind \"lcx\""
    )));

    let out = lexpilot(&["validate", "--dataset", &dataset, &dataset], None);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("line 1: this is a LexPilot dataset file, not a run file"));
}

#[tokio::test]
async fn a_new_account_is_offered_the_least_privileged_role_first() {
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, PASSWORD).await;
    let admin = app.sign_in("admin", PASSWORD).await;
    let page = app.get_with_cookie("/admin/users", Some(&admin)).await;
    assert_eq!(page.status, StatusCode::OK);
    let select = page
        .body
        .split("data-testid=\"new-role\"")
        .nth(1)
        .and_then(|rest| rest.split("</select>").next())
        .expect("the role select");
    let selected: Vec<&str> = select
        .split("<option")
        .filter(|o| o.contains("selected"))
        .collect();
    assert_eq!(selected.len(), 1, "{select}");
    assert!(selected[0].contains("value=\"researcher\""), "{select}");
}

async fn sessions_of(app: &TestApp, name: &str) -> i64 {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.name = $1",
    )
    .bind(name)
    .fetch_one(app.db.pool())
    .await
    .expect("count")
}

#[tokio::test]
async fn an_admin_resets_a_password_and_the_account_is_signed_out_everywhere() {
    use app::server_fns::users::ResetPassword;
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, PASSWORD).await;
    app.user("专家甲", Role::Expert, PASSWORD).await;
    let admin = app.sign_in("admin", PASSWORD).await;
    let expert = app.sign_in("专家甲", PASSWORD).await;
    app.sign_in("专家甲", PASSWORD).await;
    assert_eq!(sessions_of(&app, "专家甲").await, 2);

    // Only an admin resets, and only to a password long enough.
    let pairs = [("name", "专家甲"), ("password", "new-password-2")];
    let refused = app
        .post_form(ResetPassword::PATH, &form(&pairs), Some(&expert))
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    let short = app
        .post_form(
            ResetPassword::PATH,
            &form(&[("name", "专家甲"), ("password", "short")]),
            Some(&admin),
        )
        .await;
    assert_eq!(short.status, StatusCode::BAD_REQUEST, "{}", short.body);
    let unknown = app
        .post_form(
            ResetPassword::PATH,
            &form(&[("name", "nobody"), ("password", "new-password-2")]),
            Some(&admin),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{}", unknown.body);
    assert_eq!(sessions_of(&app, "专家甲").await, 2);

    let reset = app
        .post_form(ResetPassword::PATH, &form(&pairs), Some(&admin))
        .await;
    assert_eq!(reset.status, StatusCode::OK, "{}", reset.body);
    assert_eq!(sessions_of(&app, "专家甲").await, 0);
    let page = app.get_with_cookie("/review", Some(&expert)).await;
    assert!(
        !page.body.contains("专家甲"),
        "the old session still signs in"
    );
    assert!(db::users::verify(&app.db, "专家甲", PASSWORD)
        .await
        .expect("verify")
        .is_none());
    let hash: String = sqlx::query_scalar("SELECT password_hash FROM users WHERE name = '专家甲'")
        .fetch_one(app.db.pool())
        .await
        .expect("hash");
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    app.sign_in("专家甲", "new-password-2").await;
}

#[test]
fn the_cli_resets_a_password_read_from_standard_input() {
    use common::cli::{lexpilot, text};
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("users.db");
    let db = db.to_string_lossy();
    let out = lexpilot(
        &[
            "user",
            "add",
            "--name",
            "研究员",
            "--role",
            "researcher",
            "--db",
            &db,
        ],
        Some("first-password\n"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = lexpilot(
        &["user", "password", "--name", "研究员", "--db", &db],
        Some("second-password\n"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("研究员 has a new password"));
    let out = lexpilot(
        &["user", "password", "--name", "nobody", "--db", &db],
        Some("second-password\n"),
    );
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("no account named nobody"));

    common::server_runtime().block_on(async {
        let db = db::Db::open(std::path::Path::new(&*db))
            .await
            .expect("open");
        assert!(db::users::verify(&db, "研究员", "first-password")
            .await
            .expect("verify")
            .is_none());
        assert!(db::users::verify(&db, "研究员", "second-password")
            .await
            .expect("verify")
            .is_some());
    });
}

/// The part of `page` from the element with `data-testid="{testid}"` to
/// the end of its opening tag.
fn opening_tag<'a>(page: &'a str, testid: &str) -> &'a str {
    let marker = format!("data-testid=\"{testid}\"");
    let at = page
        .find(&marker)
        .unwrap_or_else(|| panic!("{testid} on the page"));
    let start = page[..at].rfind('<').expect("a tag");
    let end = at + page[at..].find('>').expect("the tag's end");
    &page[start..=end]
}

#[tokio::test]
async fn the_job_form_shows_the_chosen_benchmarks_settings_only_without_javascript() {
    use app::server_fns::jobs::SaveEndpoint;
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, PASSWORD).await;
    let admin = app.sign_in("admin", PASSWORD).await;
    let pairs = [
        ("name", "model"),
        ("base_url", "http://127.0.0.1:9/v1"),
        ("model", "Test-Model"),
    ];
    let saved = app
        .post_form(SaveEndpoint::PATH, &form(&pairs), Some(&admin))
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    for (query, shown) in [
        ("", "lexpilot"),
        ("?benchmark=plawbench", "plawbench"),
        ("?benchmark=dlawbench", "dlawbench"),
    ] {
        let page = app
            .get_with_cookie(&format!("/admin/runs{query}"), Some(&admin))
            .await;
        assert_eq!(page.status, StatusCode::OK);
        for (testid, of) in [
            ("plawbench-settings", "plawbench"),
            ("dlawbench-settings", "dlawbench"),
        ] {
            let tag = opening_tag(&page.body, testid);
            assert_eq!(tag.contains(" hidden"), of != shown, "{query}: {tag}");
        }
        let select = page
            .body
            .split("data-testid=\"job-benchmark\"")
            .nth(1)
            .and_then(|rest| rest.split("</select>").next())
            .expect("the benchmark select");
        assert!(
            select.contains(&format!("value=\"{shown}\" selected")),
            "{query}: {select}"
        );
        // Without JavaScript, links switch the form to another benchmark.
        assert!(page
            .body
            .contains("href=\"/admin/runs?benchmark=plawbench\""));
    }
}

/// Saves an endpoint on `base_url`; its id.
async fn endpoint(
    app: &TestApp,
    cookie: &str,
    name: &str,
    base_url: &str,
    model: &str,
    vendor: &str,
) -> i64 {
    use app::server_fns::jobs::SaveEndpoint;
    let pairs = [
        ("name", name),
        ("base_url", base_url),
        ("model", model),
        ("key_env", KEY_VAR),
        ("vendor", vendor),
    ];
    let res = app
        .post_form(SaveEndpoint::PATH, &form(&pairs), Some(cookie))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    res.json()["id"].as_i64().expect("an id")
}

/// The estimate of `job` (the start form's fields) at `prices`.
async fn estimate(app: &TestApp, cookie: &str, job: &Value, prices: Value) -> Value {
    use app::server_fns::jobs::EstimateJob;
    let res = call_json(
        app,
        EstimateJob::PATH,
        cookie,
        json!({"job": job, "prices": prices}),
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    res.json()
}

/// Starts `job` (the form's fields, as JSON) through the start form's
/// server function and waits for it to end; the job.
async fn run_job(app: &TestApp, cookie: &str, job: &Value) -> Value {
    use app::server_fns::jobs::{GetJob, StartJob};
    let mut pairs: Vec<(String, String)> = Vec::new();
    for (key, value) in job.as_object().expect("an object") {
        match value {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    pairs.push((
                        format!("{key}[{i}]"),
                        item.to_string().trim_matches('"').to_owned(),
                    ));
                }
            }
            other => pairs.push((key.clone(), other.to_string().trim_matches('"').to_owned())),
        }
    }
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let started = app
        .post_form(StartJob::PATH, &form(&pairs), Some(cookie))
        .await;
    assert_eq!(started.status, StatusCode::OK, "{}", started.body);
    let id = started.json()["id"].to_string();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let job = app
            .post_form(GetJob::PATH, &form(&[("id", &id)]), Some(cookie))
            .await
            .json();
        if job["active"] == false {
            return job;
        }
        assert!(tokio::time::Instant::now() < deadline, "job {id}: {job}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_jobs_calls_lie_within_its_estimate_and_match_it_where_the_protocol_fixes_them() {
    std::env::set_var(KEY_VAR, "sk-forms-test");
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, PASSWORD).await;
    let admin = app.sign_in("admin", PASSWORD).await;

    // PLawBench with one judge attempt: one model and one call per judge
    // per item, exactly.
    let dataset = db::datasets::current(&app.db, engine::benchmark::Benchmark::Plawbench)
        .await
        .expect("query")
        .expect("the PLawBench demo");
    let items = db::items::all(&app.db, dataset.id)
        .await
        .expect("items")
        .to_vec();
    let stub = Stub::start(pipeline::stub::plawbench::oracle(&items))
        .await
        .expect("stub");
    let url = stub.base_url.as_str();
    let model = endpoint(&app, &admin, "model", url, "Test-Model", "acme").await;
    let judge = endpoint(&app, &admin, "judge", url, "Test-Judge", "judgeco").await;
    let second = endpoint(&app, &admin, "judge-2", url, "Second-Judge", "").await;
    let job = json!({
        "benchmark": "plawbench", "model": model, "judges": [judge, second],
        "runs": 2, "concurrency": 3, "limit": "5", "judge_attempts": "1",
    });
    let e = estimate(
        &app,
        &admin,
        &job,
        json!({"input_price": "1", "output_price": "4"}),
    )
    .await;
    let calls = &e["calls"];
    assert_eq!(calls["model"], json!({"min": 10, "max": 10}), "{e}");
    assert_eq!(calls["judges"], json!({"min": 20, "max": 20}), "{e}");
    assert_eq!(calls["user"], json!({"min": 0, "max": 0}));
    // 30 calls × (2,000 × 1 + 500 × 4) / 10⁶.
    let cost = e["cost"].as_array().cloned().unwrap_or_default();
    assert!(
        (cost[0].as_f64().unwrap_or_default() - 0.12).abs() < 1e-9,
        "{e}"
    );
    let done = run_job(&app, &admin, &job).await;
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(stub.requests(), 30);
    assert_eq!(done["progress"]["calls"], 30, "{done}");

    // LexPilot, every task: the oracle's dialogues take paths between the
    // shortest and the longest, and the job's calls lie in the range.
    let cases = db::cases::all(
        &app.db,
        db::datasets::current(&app.db, engine::benchmark::Benchmark::Lexpilot)
            .await
            .expect("query")
            .expect("the demo")
            .id,
    )
    .await
    .expect("cases")
    .to_vec();
    let stub = Stub::start(pipeline::stub::oracle(&cases))
        .await
        .expect("stub");
    let url = stub.base_url.as_str();
    let model = endpoint(&app, &admin, "lex-model", url, "Lex-Model", "acme").await;
    let user = endpoint(&app, &admin, "lex-user", url, "Lex-User", "acme").await;
    let judge = endpoint(&app, &admin, "lex-judge", url, "Lex-Judge", "judgeco").await;
    let job = json!({
        "model": model, "user": user.to_string(), "judges": [judge],
        "tasks": ["lca", "dcg", "ljp:direct", "ljp:interaction", "ljp:gold"],
        "runs": 1, "concurrency": 4, "user_condition": "standard", "limit": "4",
    });
    let e = estimate(&app, &admin, &job, json!({})).await;
    assert!(e["cost"].is_null(), "no prices, no cost: {e}");
    let total = |bound: &str| -> u64 {
        ["model", "user", "judges"]
            .iter()
            .map(|r| e["calls"][*r][bound].as_u64().unwrap_or_default())
            .sum()
    };
    // Four cases: 2 LCA + DCG + three LJP setups each.
    assert_eq!(e["calls"]["items"], 4 * 6);
    assert_eq!(e["calls"]["model"]["min"], 4 * 6);
    let done = run_job(&app, &admin, &job).await;
    assert_eq!(done["status"], "done", "{done}");
    let made = stub.requests() as u64;
    assert!(
        (total("min")..=total("max")).contains(&made),
        "{made} calls outside {}–{}",
        total("min"),
        total("max")
    );
    // The oracle's judges always read at the first attempt: the judges'
    // upper bound is the attempts' (six) times what they were asked.
    assert!(made < total("max"));

    // An experiment has no estimate; a job a start would refuse says why.
    let mut targeted = job.clone();
    targeted["experiment"] = json!("targeted");
    targeted["limit"] = json!("");
    assert!(estimate(&app, &admin, &targeted, json!({})).await["calls"].is_null());
    let mut no_user = job.clone();
    no_user["user"] = json!("");
    let res = call_json(
        &app,
        <app::server_fns::jobs::EstimateJob as ServerFn>::PATH,
        &admin,
        json!({"job": no_user, "prices": {}}),
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
    assert!(
        res.body.contains("need a user model endpoint"),
        "{}",
        res.body
    );
}

#[tokio::test]
async fn the_endpoint_test_makes_one_real_call_and_shows_the_reply_or_the_error() {
    use app::server_fns::jobs::TestEndpoint;
    std::env::set_var(KEY_VAR, "sk-forms-test");
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, PASSWORD).await;
    app.user("researcher", Role::Researcher, PASSWORD).await;
    let admin = app.sign_in("admin", PASSWORD).await;
    let researcher = app.sign_in("researcher", PASSWORD).await;
    let stub = Stub::start(|call| StubReply::Text(format!("ready, says {}", call.model)))
        .await
        .expect("stub");
    let refusing = Stub::start(|_| StubReply::Status {
        status: 401,
        retry_after: None,
    })
    .await
    .expect("stub");
    let good = endpoint(&app, &admin, "good", &stub.base_url, "Good-Model", "").await;
    let bad = endpoint(&app, &admin, "bad", &refusing.base_url, "Bad-Model", "").await;

    let res = app
        .post_form(
            TestEndpoint::PATH,
            &form(&[("id", &good.to_string())]),
            Some(&admin),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let test = res.json();
    assert_eq!(test["reply"], "ready, says Good-Model", "{test}");
    assert!(test["error"].is_null());
    assert_eq!(stub.requests(), 1);
    assert!(stub.authorizations().contains("Bearer sk-forms-test"));

    // A refusing endpoint: its error, after one call (no retry).
    let res = app
        .post_form(
            TestEndpoint::PATH,
            &form(&[("id", &bad.to_string())]),
            Some(&admin),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let test = res.json();
    assert!(test["reply"].is_null());
    assert!(
        test["error"].as_str().is_some_and(|e| e.contains("401")),
        "{test}"
    );
    assert_eq!(refusing.requests(), 1);

    // Admins only.
    let res = app
        .post_form(
            TestEndpoint::PATH,
            &form(&[("id", &good.to_string())]),
            Some(&researcher),
        )
        .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.body);
    assert_eq!(stub.requests(), 1);
}
