//! Run uploads through `POST /api/runs` and the leaderboard document: role
//! checks, duplicates, and every kind of bad file refused with nothing stored.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::json::next_event;
use common::{TestApp, TestResponse};
use engine::accounts::Role;
use server::demo::DEMO_RUNS;

/// A demo run re-labelled as another model's run `n`.
fn run_file(model: &str, n: u32) -> String {
    DEMO_RUNS[6]
        .1
        .replacen(
            "\"model\": \"Sim-Frontier-2 (simulated)\"",
            &format!("\"model\": \"{model}\""),
            1,
        )
        .replacen("\"run\": 1,", &format!("\"run\": {n},"), 1)
}

async fn token(app: &TestApp, name: &str, role: Role) -> String {
    app.user(name, role, "a-long-password").await;
    let user = db::users::by_name(&app.db, name)
        .await
        .expect("query")
        .expect("user");
    db::tokens::create(&app.db, &user).await.expect("token")
}

async fn upload(app: &TestApp, token: Option<&str>, body: &str, query: &str) -> TestResponse {
    let mut req = Request::post(format!("/api/runs{query}")).header(header::HOST, "127.0.0.1:3000");
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    app.send(req.body(Body::from(body.to_owned())).expect("request"))
        .await
}

async fn runs(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM runs")
        .fetch_one(app.db.pool())
        .await
        .expect("count")
}

#[tokio::test]
async fn a_fresh_start_has_a_populated_leaderboard() {
    let app = TestApp::with_demo().await;
    let doc = app.get("/api/leaderboard").await.json();
    assert_eq!(doc["dataset"], "lexpilot-demo-synthetic");
    assert_eq!(doc["cases"], 72);
    let entries = doc["entries"].as_array().cloned().unwrap_or_default();
    assert_eq!(entries.len(), 3);
    for e in &entries {
        assert_eq!(e["runs"], 3);
        assert!(e["model"]
            .as_str()
            .unwrap_or_default()
            .contains("(simulated)"));
        assert!(e["lca"]["overall"]["macro_f1"]["mean"].is_number());
        assert!(e["ljp"]["overall"]["gain"].is_number());
    }
}

#[tokio::test]
async fn researchers_upload_runs_and_the_leaderboard_counts_them() {
    let app = TestApp::with_demo().await;
    let researcher = token(&app, "researcher", Role::Researcher).await;
    let res = upload(&app, Some(&researcher), &run_file("New-Model", 1), "").await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let body = res.json();
    assert_eq!(body["run"]["model"], "New-Model");
    assert!(body["scores"]["lca"]["overall"]["macro_f1"].is_number());
    let doc = app.get("/api/leaderboard").await.json();
    let entries = doc["entries"].as_array().cloned().unwrap_or_default();
    assert_eq!(entries.len(), 4);
    assert_eq!(entries[3]["model"], "New-Model");
    assert_eq!(entries[3]["runs"], 1);
    assert!(
        entries[3]["lca"]["overall"]["macro_f1"]["std"].is_null(),
        "one run: std is null"
    );
}

#[tokio::test]
async fn uploads_need_a_token_of_a_role_that_may_upload() {
    let app = TestApp::with_demo().await;
    let before = runs(&app).await;
    assert_eq!(
        upload(&app, None, &run_file("M", 1), "").await.status,
        StatusCode::UNAUTHORIZED
    );
    let expert = token(&app, "expert", Role::Expert).await;
    assert_eq!(
        upload(&app, Some(&expert), &run_file("M", 1), "")
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        upload(&app, Some("lpt_wrong"), &run_file("M", 1), "")
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(runs(&app).await, before);
    let admin = token(&app, "admin", Role::Admin).await;
    assert_eq!(
        upload(&app, Some(&admin), &run_file("M", 1), "")
            .await
            .status,
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn a_repeated_model_and_run_is_refused_unless_replacement_is_asked_for() {
    let app = TestApp::with_demo().await;
    let t = token(&app, "researcher", Role::Researcher).await;
    assert_eq!(
        upload(&app, Some(&t), &run_file("M", 1), "").await.status,
        StatusCode::CREATED
    );
    let before = runs(&app).await;
    let dup = upload(&app, Some(&t), &run_file("M", 1), "").await;
    assert_eq!(dup.status, StatusCode::CONFLICT);
    assert!(dup.json()["error"]
        .as_str()
        .unwrap_or_default()
        .contains("already stored"));
    let replaced = upload(&app, Some(&t), &run_file("M", 1), "?replace=true").await;
    assert_eq!(replaced.status, StatusCode::CREATED);
    assert_eq!(runs(&app).await, before, "replaced, not added");
}

#[tokio::test]
async fn every_kind_of_bad_run_is_refused_with_line_and_field_and_nothing_stored() {
    let app = TestApp::with_demo().await;
    let t = token(&app, "researcher", Role::Researcher).await;
    let good = run_file("Bad-Model", 1);
    let lines: Vec<&str> = good.lines().collect();
    let without = |i: usize| {
        lines
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, l)| *l)
            .collect::<Vec<_>>()
            .join("\n")
    };
    let with_line = |i: usize, line: &str| {
        let mut v: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
        v[i] = line.to_owned();
        v.join("\n")
    };
    let cases: Vec<(String, usize, &str)> = vec![
        (
            good.replacen("\"model\": \"Bad-Model\"", "\"model\": \"\"", 1),
            1,
            "model",
        ),
        (good.replacen("\"run\": 1,", "\"run\": 0,", 1), 1, "run"),
        (
            good.replacen("\"family\": \"closed\"", "\"family\": \"secret\"", 1),
            1,
            "family",
        ),
        (with_line(1, "{ not json"), 2, ""),
        (
            with_line(1, &lines[1].replacen("DEMO-0001", "NOPE-1", 1)),
            2,
            "case_id",
        ),
        (
            with_line(
                1,
                &lines[1].replacen("\"kind\": \"lca\"", "\"kind\": \"xyz\"", 1),
            ),
            2,
            "kind",
        ),
        (with_line(2, lines[1]), 3, "consultation"),
        (without(1), 0, "case_id"),
        (
            good.replacen("\"label\": \"ask\"", "\"label\": \"maybe\"", 1),
            0,
            "label",
        ),
        (
            good.replacen(
                "\"predictions\": [\"",
                "\"predictions\": [\"supported\", \"",
                1,
            ),
            0,
            "predictions",
        ),
        (lines[0].to_owned(), 1, ""),
        (String::new(), 1, ""),
    ];
    let before = runs(&app).await;
    for (body, line, field) in cases {
        let res = upload(&app, Some(&t), &body, "").await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{field}: {}",
            res.body
        );
        let errors = res.json()["errors"].as_array().cloned().unwrap_or_default();
        assert!(!errors.is_empty(), "{field}: errors listed in {}", res.body);
        let hit = errors.iter().any(|e| {
            (line == 0 || e["line"] == line)
                && e["field"].as_str().unwrap_or_default().contains(field)
        });
        assert!(hit, "expected line {line} field {field:?} in {errors:?}");
        assert_eq!(runs(&app).await, before, "{field}: nothing stored");
    }
}

#[tokio::test]
async fn an_oversized_run_gets_a_clear_413() {
    let app = TestApp::with_demo().await;
    let t = token(&app, "researcher", Role::Researcher).await;
    let huge = "x".repeat(server::api::MAX_RUN_BYTES + 1);
    let res = upload(&app, Some(&t), &huge, "").await;
    assert_eq!(res.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(res.json()["error"]
        .as_str()
        .unwrap_or_default()
        .contains("32 MiB"));
}

#[tokio::test]
async fn leaderboard_tables_export_as_csv_json_and_latex() {
    let app = TestApp::with_demo().await;
    let csv = app
        .get("/api/leaderboard/export?task=dcg&format=csv&sort=overall")
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(csv.headers[header::CONTENT_TYPE]
        .to_str()
        .unwrap_or_default()
        .starts_with("text/csv"));
    let lines: Vec<&str> = csv.body.lines().collect();
    assert_eq!(lines.len(), 4, "a header and three entries");
    assert!(lines[0].starts_with("model,family,runs,family_mean,family_std"));
    assert!(lines[1].starts_with("Sim-LawAssist-7B (simulated),legal,3,"));

    let json = app
        .get("/api/leaderboard/export?task=ljp&setup=gold&format=json")
        .await
        .json();
    assert_eq!(json["rows"].as_array().map(Vec::len), Some(3));
    assert!(json["columns"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|c| c[0] == "gain"));

    let tex = app
        .get("/api/leaderboard/export?task=lca&format=latex")
        .await;
    assert!(
        tex.body.contains("\\begin{tabular}") && tex.body.contains("\\textbf{"),
        "{}",
        tex.body
    );
    assert!(tex
        .body
        .contains("Closed-Source General LLMs & Sim-Frontier-2 (simulated)"));

    let bad = app.get("/api/leaderboard/export?format=pdf").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

/// The upload page's server functions, called as the page calls them (JSON).
async fn call(
    app: &TestApp,
    path: &str,
    token: Option<&str>,
    body: serde_json::Value,
) -> TestResponse {
    let auth = token.map_or(common::Auth::Anonymous, common::Auth::Token);
    app.post_json(path, auth, body).await
}

fn paths() -> (&'static str, &'static str) {
    use leptos::server_fn::ServerFn;
    (
        <app::server_fns::runs::CheckRuns as ServerFn>::PATH,
        <app::server_fns::runs::StoreRuns as ServerFn>::PATH,
    )
}

#[tokio::test]
async fn the_upload_page_checks_then_stores_all_or_nothing() {
    let app = TestApp::with_demo().await;
    let t = token(&app, "researcher", Role::Researcher).await;
    let (check, store) = paths();
    let good = serde_json::json!({"name": "good.jsonl", "text": run_file("Page-Model", 1)});
    let bad = serde_json::json!({"name": "bad.jsonl", "text": run_file("Page-Model", 2).replacen("\"label\": \"ask\"", "\"label\": \"maybe\"", 1)});

    let report = call(
        &app,
        check,
        Some(&t),
        serde_json::json!({"files": [good, bad]}),
    )
    .await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.body);
    let report = report.json();
    assert!(report[0]["errors"].as_array().is_some_and(Vec::is_empty));
    assert_eq!(report[0]["summary"]["model"], "Page-Model");
    assert_eq!(report[0]["summary"]["already_stored"], false);
    assert!(report[1]["summary"].is_null());
    assert!(report[1]["errors"][0]["field"]
        .as_str()
        .unwrap_or_default()
        .contains("label"));

    let before = runs(&app).await;
    let refused = call(
        &app,
        store,
        Some(&t),
        serde_json::json!({"files": [good, bad], "replace": false}),
    )
    .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(runs(&app).await, before, "one bad file: nothing stored");

    let twice = call(
        &app,
        store,
        Some(&t),
        serde_json::json!({"files": [good, good], "replace": false}),
    )
    .await;
    assert_eq!(twice.status, StatusCode::CONFLICT);
    assert_eq!(
        runs(&app).await,
        before,
        "a batch naming one run twice: nothing stored"
    );

    let stored = call(
        &app,
        store,
        Some(&t),
        serde_json::json!({"files": [good], "replace": false}),
    )
    .await;
    assert_eq!(stored.status, StatusCode::OK, "{}", stored.body);
    assert_eq!(runs(&app).await, before + 1);
    let again = call(&app, check, Some(&t), serde_json::json!({"files": [good]}))
        .await
        .json();
    assert_eq!(again[0]["summary"]["already_stored"], true);
}

#[tokio::test]
async fn the_upload_server_functions_check_the_role() {
    let app = TestApp::with_demo().await;
    let expert = token(&app, "expert", Role::Expert).await;
    let (check, store) = paths();
    let files =
        serde_json::json!({"files": [{"name": "a", "text": run_file("X", 1)}], "replace": false});
    assert_eq!(
        call(&app, check, None, files.clone()).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        call(&app, check, Some(&expert), files.clone()).await.status,
        StatusCode::FORBIDDEN
    );
    let before = runs(&app).await;
    assert_eq!(
        call(&app, store, Some(&expert), files).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(runs(&app).await, before);
}

#[tokio::test]
async fn open_pages_hear_of_stored_runs_over_server_sent_events() {
    let app = TestApp::with_demo().await;
    let res = app.open_stream("/api/events").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        res.headers()[header::CONTENT_TYPE].to_str().ok(),
        Some("text/event-stream")
    );
    let mut body = res.into_body();

    let token = token(&app, "r", Role::Researcher).await;
    // A refused upload commits nothing, so it announces nothing.
    let refused = upload(&app, Some(&token), "{\"kind\": \"run\"}", "").await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let stored = upload(&app, Some(&token), &run_file("Live-Model", 1), "").await;
    assert_eq!(stored.status, StatusCode::CREATED, "{}", stored.body);

    let data: serde_json::Value = serde_json::from_str(
        &next_event(&mut body, "runs", std::time::Duration::from_secs(5)).await,
    )
    .expect("JSON data");
    assert_eq!(data["kind"], "runs_stored");
    assert_eq!(data["benchmark"], "lexpilot");
    assert_eq!(data["models"], serde_json::json!(["Live-Model"]));
}

/// Run `n` of model `Split-Model` on `cases` with LJP in `setup` alone, under
/// the header a `lexpilot run --tasks ljp:<setup>` job writes; a case whose
/// index `wrong` picks gets `supported` for every claim, the others their
/// gold verdicts.
fn ljp_only_run(
    cases: &[engine::lexpilot::dataset::Case],
    setup: engine::vocab::LjpSetup,
    n: u32,
    wrong: impl Fn(usize) -> bool,
) -> engine::lexpilot::run::Run {
    use engine::lexpilot::run::{LjpItem, Run};
    use engine::vocab::Verdict;
    use pipeline::config::{Config, Endpoint, Tasks};

    let url = "http://127.0.0.1:9";
    let mut config = Config::new(
        Endpoint::new(url, "Split-Model"),
        Endpoint::new(url, "Split-User"),
        Endpoint::judge(url, "Split-Judge"),
        std::env::temp_dir(),
    );
    config.tasks = Tasks::parse(&format!("ljp:{setup}")).expect("a setup");
    config.dataset_name = Some("lexpilot-demo-synthetic".into());
    config.first_run = n;
    let job = pipeline::job::Job::new(config, cases.to_vec()).expect("a valid job");
    let ljp = cases
        .iter()
        .enumerate()
        .map(|(i, case)| LjpItem {
            case_id: case.case_id.clone(),
            setup,
            predictions: Some(
                case.claims
                    .iter()
                    .map(|c| {
                        if wrong(i) {
                            Verdict::Supported
                        } else {
                            c.verdict
                        }
                    })
                    .collect(),
            ),
            response: None,
            dialogue: None,
            unavailable: None,
        })
        .collect();
    Run {
        header: job.header(n),
        lca: Vec::new(),
        dcg: Vec::new(),
        ljp,
    }
}

#[tokio::test]
async fn separate_direct_interaction_and_gold_runs_are_one_entry_with_table_3() {
    use engine::lexpilot::score::{score_run, Metric};
    use engine::vocab::{Class, LjpSetup};
    use leptos::server_fn::ServerFn;
    use serde_json::{json, Value};

    let app = TestApp::with_demo().await;
    let researcher = token(&app, "researcher", Role::Researcher).await;
    let dataset = db::datasets::current(&app.db, engine::benchmark::Benchmark::Lexpilot)
        .await
        .expect("query")
        .expect("the demo dataset");
    let cases = db::cases::all(&app.db, dataset.id).await.expect("cases");
    // Three jobs, one per setup; a model's run numbers are its own.
    let runs = [
        ljp_only_run(&cases, LjpSetup::Direct, 1, |i| i % 2 == 0),
        ljp_only_run(&cases, LjpSetup::Interaction, 2, |i| i % 3 == 0),
        ljp_only_run(&cases, LjpSetup::Gold, 3, |i| i % 6 == 0),
    ];
    // Equal keys were the old rule: the interaction run, played against a
    // user model with prompts of its own, was an entry apart.
    assert_ne!(runs[0].header.entry_key(), runs[1].header.entry_key());
    assert_ne!(runs[1].header.entry_key(), runs[2].header.entry_key());
    for run in &runs {
        let res = upload(&app, Some(&researcher), &run.to_jsonl(), "").await;
        assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    }

    let doc = app.get("/api/leaderboard").await.json();
    let entries: Vec<&Value> = doc["entries"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["model"] == "Split-Model")
        .collect();
    assert_eq!(entries.len(), 1, "{doc}");
    let (entry, others) = (entries[0], doc["entries"].as_array().map(Vec::len));
    assert_eq!(entry["runs"], 3);
    assert_eq!(others, Some(4), "the demo's three entries are as they were");

    // Table 3 from each run's own QWK, computed here by the engine run by run.
    let qwk = |run: usize, setup, class| {
        score_run(&runs[run], &cases).metric(Metric::LjpQwk(setup), class)
    };
    let expected = |class: Option<Class>| {
        let direct = qwk(0, LjpSetup::Direct, class);
        let interaction = qwk(1, LjpSetup::Interaction, class);
        let gold = qwk(2, LjpSetup::Gold, class);
        let one_run = |q: Option<f64>| q.map(|mean| json!({"mean": mean, "std": null}));
        json!({
            "direct": {"qwk": one_run(direct)},
            "interaction": {"qwk": one_run(interaction)},
            "gold": {"qwk": one_run(gold)},
            "gain": interaction.zip(direct).map(|(i, d)| i - d),
            "relative_degradation": gold
                .zip(interaction)
                .filter(|&(g, _)| g != 0.0)
                .map(|(g, i)| (g - i) / g),
        })
    };
    let overall = &entry["ljp"]["overall"];
    assert!(
        overall["gain"].as_f64().is_some_and(|g| g > 0.0),
        "{overall}"
    );
    assert!(overall["relative_degradation"].is_number(), "{overall}");
    common::json::assert_close(overall, &expected(None), "overall", 1e-12);
    for class in Class::ALL {
        let path = format!("by_class.{class}");
        common::json::assert_close(
            &entry["ljp"]["by_class"][class.as_str()],
            &expected(Some(class)),
            &path,
            1e-12,
        );
    }

    // The export, the model page and the drill-down see the same one entry.
    let table = app
        .get("/api/leaderboard/export?task=ljp&format=json")
        .await
        .json();
    let gain = table["columns"]
        .as_array()
        .and_then(|c| c.iter().position(|c| c[0] == "gain"))
        .expect("a gain column");
    let rows: Vec<&Value> = table["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["model"] == "Split-Model")
        .collect();
    assert_eq!(rows.len(), 1, "{table}");
    assert_eq!(rows[0]["cells"][gain]["mean"], overall["gain"]);

    let model = app
        .post_form(
            <app::server_fns::models::GetModel as ServerFn>::PATH,
            &common::form(&[("model", "Split-Model")]),
            None,
        )
        .await;
    assert_eq!(model.status, StatusCode::OK, "{}", model.body);
    let model = model.json();
    assert_eq!(
        model["entries"].as_array().map(Vec::len),
        Some(1),
        "{model}"
    );
    assert_eq!(
        model["entries"][0]["runs"].as_array().map(Vec::len),
        Some(3)
    );
    assert!(model["entries"][0]["setting"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|s| s == &json!(["user model", "Split-User"])));

    let drill = app
        .post_form(
            <app::server_fns::drilldown::GetCellItems as ServerFn>::PATH,
            &common::form(&[("model", "Split-Model"), ("task", "ljp"), ("setup", "gold")]),
            None,
        )
        .await;
    assert_eq!(drill.status, StatusCode::OK, "{}", drill.body);
    assert_eq!(drill.json()["entries"], 1);
}

/// Figure 4 (b) on the demo: by default the mean over the closed-source
/// entries, as the paper averages its three closed-source models; with
/// `figure_4b=all` over every entry. The expected means are taken here from
/// the score document's per-entry DCG accuracy per class.
#[tokio::test]
async fn figure_4b_averages_the_closed_source_models_unless_all_are_chosen() {
    use serde_json::Value;

    let app = TestApp::with_demo().await;
    let doc = app.get("/api/leaderboard").await.json();
    let entries = doc["entries"].as_array().expect("entries");
    let expected = |closed_only: bool| -> Vec<(String, f64)> {
        let chosen: Vec<&Value> = entries
            .iter()
            .filter(|e| !closed_only || e["family"] == "closed")
            .collect();
        engine::vocab::Class::ALL
            .iter()
            .map(|c| {
                let values: Vec<f64> = chosen
                    .iter()
                    .filter_map(|e| e["dcg"]["by_class"][c.as_str()]["accuracy"]["mean"].as_f64())
                    .collect();
                let mean = values.iter().sum::<f64>() / values.len() as f64;
                (c.as_str().to_owned(), mean)
            })
            .collect()
    };
    let (closed, all) = (expected(true), expected(false));
    assert_eq!(
        entries.iter().filter(|e| e["family"] == "closed").count(),
        1,
        "the demo has one closed-source model"
    );
    assert_ne!(closed, all, "the two choices differ on the demo");

    for (query, want, label) in [
        ("", &closed, "Mean over 1 closed-source model"),
        (
            "&figure_4b=closed",
            &closed,
            "Mean over 1 closed-source model",
        ),
        ("&figure_4b=all", &all, "Mean over 3 models"),
    ] {
        let export = app
            .get(&format!(
                "/api/leaderboard/export?paper=figure_4b&format=json{query}"
            ))
            .await;
        assert_eq!(export.status, StatusCode::OK, "{}", export.body);
        let table = export.json();
        assert_eq!(table["rows"][0]["label"], label, "{query}");
        for (k, (class, mean)) in want.iter().enumerate() {
            assert_eq!(table["columns"][k]["key"], class.as_str());
            let got = table["rows"][0]["cells"][k]["mean"]
                .as_f64()
                .expect("a mean");
            assert!(
                (got - mean).abs() < 1e-12,
                "{query} {class}: {got} != {mean}"
            );
        }
    }

    // The page: the default, and the choice as a link that works without
    // JavaScript, its export links carrying it.
    let figure = |body: &str| -> String {
        let start = body
            .find("data-testid=\"paper-figure_4b\"")
            .expect("the table");
        let end = start + body[start..].find("</table>").expect("its end");
        body[start..end].to_owned()
    };
    let page = app.get("/paper").await;
    let table = figure(&page.body);
    assert!(table.contains("Mean over 1 closed-source model"), "{table}");
    assert!(table.contains(&format!(">{:.4}<", closed[0].1)), "{table}");
    assert!(page.body.contains("href=\"/paper?figure_4b=all#figure-4\""));
    let chosen = app.get("/paper?figure_4b=all").await;
    assert_eq!(chosen.status, StatusCode::OK);
    let table = figure(&chosen.body);
    assert!(table.contains("Mean over 3 models"), "{table}");
    assert!(table.contains(&format!(">{:.4}<", all[0].1)), "{table}");
    assert!(chosen
        .body
        .contains("paper=figure_4b&amp;format=csv&amp;figure_4b=all"));
    let zh = app
        .get_with_cookie("/paper?figure_4b=all", Some("lang=zh"))
        .await;
    assert!(zh.body.contains("全部条目"), "the choice in Chinese");

    let bad = app
        .get("/api/leaderboard/export?paper=figure_4b&format=csv&figure_4b=open")
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(bad.body.contains("expected closed or all"), "{}", bad.body);
    let bad_page = app.get("/paper?figure_4b=open").await;
    assert!(
        bad_page.body.contains("expected closed or all"),
        "{}",
        bad_page.body
    );
}

/// The paper page and its exports on the demo: Table 3 with its row over
/// models, Tables 16 and 17, the figures drawn; Table 15 fills in once a
/// model has an entry under a non-ideal user condition.
#[tokio::test]
async fn the_paper_views_are_live_over_the_stored_runs() {
    use engine::vocab::LjpSetup;
    use serde_json::{json, Value};

    let app = TestApp::with_demo().await;
    let page = app.get("/paper").await;
    assert_eq!(page.status, StatusCode::OK);
    for text in [
        "Table 3",
        "Mean over 3 models",
        "Table 16",
        "Table 17",
        "data-testid=\"figure-3-dcg\"",
        "data-testid=\"table-15-empty\"",
        "Amount Assessment",
    ] {
        assert!(page.body.contains(text), "the page shows {text}");
    }
    assert!(page.body.matches("<svg").count() >= 5, "five figures drawn");

    let csv = app
        .get("/api/leaderboard/export?paper=table_3&format=csv")
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(
        csv.body.starts_with("group,row,direct_mean"),
        "{}",
        csv.body
    );
    assert_eq!(csv.body.lines().count(), 1 + 3 + 1, "{}", csv.body);
    let latex = app
        .get("/api/leaderboard/export?paper=figure_4c&format=latex")
        .await;
    assert!(latex.body.contains("\\begin{table*}") && latex.body.contains("Finance Contract"));
    let bad = app
        .get("/api/leaderboard/export?paper=table_99&format=csv")
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(bad.body.contains("table_15"), "{}", bad.body);

    // A standard and a delayed-disclosure interaction run of one model.
    let researcher = token(&app, "researcher", Role::Researcher).await;
    let dataset = db::datasets::current(&app.db, engine::benchmark::Benchmark::Lexpilot)
        .await
        .expect("query")
        .expect("the demo dataset");
    let cases = db::cases::all(&app.db, dataset.id).await.expect("cases");
    let standard = ljp_only_run(&cases, LjpSetup::Interaction, 1, |i| i % 4 == 0);
    let mut delayed = ljp_only_run(&cases, LjpSetup::Interaction, 2, |i| i % 2 == 0);
    delayed
        .header
        .extra
        .insert("user_condition".into(), json!("delayed"));
    for run in [&standard, &delayed] {
        let res = upload(&app, Some(&researcher), &run.to_jsonl(), "").await;
        assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    }
    let table: Value = app
        .get("/api/leaderboard/export?paper=table_15&format=json")
        .await
        .json();
    let rows = table["rows"].as_array().cloned().unwrap_or_default();
    assert_eq!(rows.len(), 1, "{table}");
    assert_eq!(rows[0]["label"], "Split-Model");
    let cell = |i: usize| rows[0]["cells"][i]["mean"].as_f64();
    let (s, d) = (cell(0).expect("standard"), cell(1).expect("delayed"));
    assert!(
        s > d,
        "fewer wrong verdicts under the standard user: {s} vs {d}"
    );
    assert!(rows[0]["cells"][2].is_null(), "no self-correction entry");
    let page = app.get("/paper").await;
    assert!(!page.body.contains("table-15-empty"));
}

/// An entry judged by another judge is flagged on the leaderboard with what
/// differs, and the compare view refuses to pair it with one of the rest.
#[tokio::test]
async fn incomparable_entries_are_flagged_and_refused_by_the_compare_view() {
    let app = TestApp::with_demo().await;
    let researcher = token(&app, "researcher", Role::Researcher).await;
    let other_judge = run_file("Other-Judge-Model", 1).replacen(
        "\"judge\": \"Sim-Judge (simulated)\"",
        "\"judge\": \"Another-Judge\"",
        1,
    );
    let res = upload(&app, Some(&researcher), &other_judge, "").await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);

    let page = app.get("/leaderboard?task=lca").await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(
        page.body
            .matches("data-testid=\"incomparable-flag\"")
            .count(),
        1,
        "only the new entry is flagged"
    );
    assert!(page
        .body
        .contains("judge: Another-Judge vs Sim-Judge (simulated)"));

    let encode = app::url::encode;
    let refused = app
        .get(&format!(
            "/compare?a={}&b={}",
            encode("Other-Judge-Model"),
            encode("Sim-Frontier-2 (simulated)")
        ))
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(
        refused.body.contains("cannot be compared"),
        "{}",
        refused.body
    );
    assert!(refused
        .body
        .contains("judge: Another-Judge vs Sim-Judge (simulated)"));
    let fine = app
        .get(&format!(
            "/compare?a={}&b={}",
            encode("Sim-OpenChat-72B (simulated)"),
            encode("Sim-Frontier-2 (simulated)")
        ))
        .await;
    assert_eq!(fine.status, StatusCode::OK);
}

/// Issue 39, N5: a stored run keeps its uploader; only they or an admin
/// replace it, through the API and the upload page alike.
#[tokio::test]
async fn only_a_runs_uploader_or_an_admin_replaces_it() {
    let app = TestApp::with_demo().await;
    let owner = token(&app, "owner", Role::Researcher).await;
    let other = token(&app, "other", Role::Researcher).await;
    let admin = token(&app, "boss", Role::Admin).await;
    let file = run_file("Owned-Model", 1);
    assert_eq!(
        upload(&app, Some(&owner), &file, "").await.status,
        StatusCode::CREATED
    );
    let uploader = || async {
        sqlx::query_scalar::<_, String>(
            "SELECT u.name FROM runs r JOIN users u ON u.id = r.uploaded_by
             WHERE r.model = 'Owned-Model'",
        )
        .fetch_one(app.db.pool())
        .await
        .expect("the run's uploader")
    };

    let refused = upload(&app, Some(&other), &file, "?replace=true").await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    let reason = refused.json()["error"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        reason.contains("Owned-Model run 1") && reason.contains("only its uploader or an admin"),
        "{reason}"
    );
    let (_, store) = paths();
    let page = call(
        &app,
        store,
        Some(&other),
        serde_json::json!({"files": [{"name": "mine.jsonl", "text": file}], "replace": true}),
    )
    .await;
    assert_eq!(page.status, StatusCode::FORBIDDEN, "{}", page.body);
    assert!(
        page.body.contains("only its uploader or an admin"),
        "{}",
        page.body
    );
    assert_eq!(uploader().await, "owner", "nothing changed");

    assert_eq!(
        upload(&app, Some(&owner), &file, "?replace=true")
            .await
            .status,
        StatusCode::CREATED
    );
    assert_eq!(
        upload(&app, Some(&admin), &file, "?replace=true")
            .await
            .status,
        StatusCode::CREATED
    );
    assert_eq!(uploader().await, "boss", "the replacer is the uploader now");

    // A demo run has no uploader: only an admin replaces it.
    let demo = DEMO_RUNS[6].1;
    let refused = upload(&app, Some(&owner), demo, "?replace=true").await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    assert!(refused.body.contains("only an admin"), "{}", refused.body);
    assert_eq!(
        upload(&app, Some(&admin), demo, "?replace=true")
            .await
            .status,
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn a_stored_run_rebuilds_only_its_models_figures() {
    use engine::benchmark::{Benchmark, LexPilot, Suite};

    let app = TestApp::with_demo().await;
    let token = token(&app, "r", Role::Researcher).await;
    let entries = |doc: &serde_json::Value| doc["entries"].as_array().expect("entries").len();
    let before = app.get("/api/leaderboard").await.json();
    let built = app.read.stats().slots_built;
    assert!(built >= 3, "one slot per demo model, {built} built");

    let dataset = db::datasets::current(&app.db, Benchmark::Lexpilot)
        .await
        .expect("query")
        .expect("a LexPilot dataset");
    let shown = db::runs::scores(&app.db, dataset.id)
        .await
        .expect("scores")
        .remove(0)
        .entry_key
        .model;
    let shown_runs = app
        .read
        .model_runs(&app.db, &dataset, &shown)
        .await
        .expect("runs");
    assert!(!shown_runs.is_empty(), "{shown} has runs");

    // A new model: its slot alone is built.
    let stored = upload(&app, Some(&token), &run_file("Slot-New", 1), "").await;
    assert_eq!(stored.status, StatusCode::CREATED, "{}", stored.body);
    let after = app.get("/api/leaderboard").await.json();
    assert_eq!(entries(&after), entries(&before) + 1);
    assert_eq!(app.read.stats().slots_built - built, 1);
    // Another model's runs, read back for its drill-downs, stay as read.
    let again = app
        .read
        .model_runs(&app.db, &dataset, &shown)
        .await
        .expect("runs");
    assert!(
        std::sync::Arc::ptr_eq(&shown_runs, &again),
        "{shown}'s runs were read again"
    );

    // Another run of a model already shown: again its slot alone.
    let stored = upload(&app, Some(&token), &run_file("Slot-New", 2), "").await;
    assert_eq!(stored.status, StatusCode::CREATED, "{}", stored.body);
    let doc = app.get("/api/leaderboard").await.json();
    assert_eq!(entries(&doc), entries(&after));
    assert_eq!(app.read.stats().slots_built - built, 2);

    // A run of another benchmark builds nothing of LexPilot's.
    let (_, plaw) = server::demo::PLAW_DEMO_RUNS[0];
    let plaw = plaw.replacen("\"run\": 1", "\"run\": 9", 1);
    let stored = upload(&app, Some(&token), &plaw, "").await;
    assert_eq!(stored.status, StatusCode::CREATED, "{}", stored.body);
    assert_eq!(app.get("/api/leaderboard").await.json(), doc);
    assert_eq!(app.read.stats().slots_built - built, 2);

    // What the slots compose is every stored run summarised at once.
    let cases = db::cases::all(&app.db, dataset.id).await.expect("cases");
    let scored = db::runs::scores(&app.db, dataset.id)
        .await
        .expect("scores")
        .into_iter()
        .map(|s| {
            (
                s.entry_key,
                serde_json::from_str(&s.scores).expect("scores"),
            )
        })
        .collect();
    let whole = LexPilot::summarise(scored, &cases).with_dataset(dataset.name.clone());
    // (Both through JSON text: the parser rounds the last digit alike.)
    let whole: serde_json::Value =
        serde_json::from_str(&serde_json::to_string(&whole).expect("JSON")).expect("JSON");
    assert_eq!(doc, whole);
}
