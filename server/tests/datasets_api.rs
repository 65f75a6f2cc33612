//! Datasets through the API and the upload page (issue 43, point 2):
//! `POST /api/datasets` imports a dataset of any of the three benchmarks
//! (for PLawBench also the official release's files) by the same path as
//! `lexpilot import`: the same errors naming file, line and field, one
//! transaction, the same re-import rules, a dry run that stores nothing;
//! admins only; the page's plain form posts there and is answered with a
//! redirect back to the page that shows the outcome.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::cli::{lexpilot, text};
use common::{Team, TestApp, TestResponse};
use engine::accounts::Role;
use server::demo::{DEMO_DATASET, DLAW_DEMO_DATASET};

const RELEASE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../engine/tests/fixtures/plawbench/release"
);

const RELEASE_FILES: [&str; 4] = [
    "practical_case_analysis_250.jsonl",
    "public_legal_consultation_18.json",
    "Plantiffs_Statement.json",
    "Defendants_Statement.json",
];

const BOUNDARY: &str = "----lexpilot-test-boundary";

/// A part of a multipart body: a text field, or a file.
enum Part<'a> {
    Field(&'a str, &'a str),
    File(&'a str, &'a [u8]),
}

fn multipart(parts: &[Part<'_>]) -> Vec<u8> {
    let mut body = Vec::new();
    for part in parts {
        body.extend_from_slice(format!("--{BOUNDARY}\r\n").as_bytes());
        match part {
            Part::Field(name, value) => {
                body.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
                        .as_bytes(),
                );
            }
            Part::File(name, bytes) => {
                body.extend_from_slice(
                    format!(
                        "Content-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                    )
                    .as_bytes(),
                );
                body.extend_from_slice(bytes);
                body.extend_from_slice(b"\r\n");
            }
        }
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

/// Who sends a request.
#[derive(Clone, Copy)]
enum By<'a> {
    Token(&'a str),
    /// A session cookie, from the site's own page (its `Origin`).
    Page(&'a str),
    /// A session cookie, from another site.
    OtherSite(&'a str),
}

async fn post(app: &TestApp, by: By<'_>, query: &str, parts: &[Part<'_>]) -> TestResponse {
    let req = Request::post(format!("/api/datasets{query}"))
        .header(header::HOST, "127.0.0.1:3000")
        .header(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={BOUNDARY}"),
        );
    let req = match by {
        By::Token(t) => req.header(header::AUTHORIZATION, format!("Bearer {t}")),
        By::Page(c) => req
            .header(header::COOKIE, c)
            .header(header::ORIGIN, "http://127.0.0.1:3000"),
        By::OtherSite(c) => req
            .header(header::COOKIE, c)
            .header(header::ORIGIN, "https://evil.example"),
    };
    app.send(req.body(Body::from(multipart(parts))).expect("request"))
        .await
}

async fn versions(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM datasets")
        .fetch_one(app.db.pool())
        .await
        .expect("count")
}

fn release_parts() -> Vec<(String, Vec<u8>)> {
    RELEASE_FILES
        .iter()
        .map(|f| {
            (
                (*f).to_owned(),
                std::fs::read(format!("{RELEASE}/{f}")).expect("fixture"),
            )
        })
        .collect()
}

#[tokio::test]
async fn each_benchmark_imports_as_the_cli_does_and_again_changes_nothing() {
    let team = Team::demo().await;
    let app = &team.app;
    let admin = app.token("root", Role::Admin).await;
    let before = versions(app).await;

    // LexPilot: one file, named after it.
    let lexpilot_file = [
        Part::Field("benchmark", "lexpilot"),
        Part::File("lab-cases.jsonl", DEMO_DATASET.as_bytes()),
    ];
    let res = post(app, By::Token(&admin), "", &lexpilot_file).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let json = res.json();
    assert_eq!(json["outcome"], "new_version");
    assert_eq!(json["dataset"]["name"], "lab-cases");
    assert_eq!(json["dataset"]["version"], 1);
    assert_eq!(json["dataset"]["case_count"], 72);
    assert_eq!(json["dataset"]["benchmark"], "lexpilot");
    assert_eq!(json["check"], false);

    // The same content again: nothing imported, as the CLI says "unchanged".
    let again = post(app, By::Token(&admin), "", &lexpilot_file).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert_eq!(again.json()["outcome"], "unchanged");
    assert_eq!(again.json()["dataset"]["version"], 1);
    assert_eq!(versions(app).await, before + 1);

    // Other content under the name: the next version.
    let fewer: String = DEMO_DATASET.lines().take(10).collect::<Vec<_>>().join("\n");
    let res = post(
        app,
        By::Token(&admin),
        "?name=lab-cases",
        &[Part::File("other.jsonl", fewer.as_bytes())],
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    assert_eq!(res.json()["dataset"]["version"], 2);
    assert_eq!(res.json()["dataset"]["case_count"], 10);

    // DLawBench: one file, with a name given as a field.
    let res = post(
        app,
        By::Token(&admin),
        "",
        &[
            Part::Field("benchmark", "dlawbench"),
            Part::Field("name", "lab-dlaw"),
            Part::File("demo.jsonl", DLAW_DEMO_DATASET.as_bytes()),
        ],
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    assert_eq!(res.json()["dataset"]["name"], "lab-dlaw");
    assert_eq!(res.json()["dataset"]["benchmark"], "dlawbench");

    // PLawBench: the release's four files, as released; the CLI's figures
    // and its warnings for each derived maximum.
    let release = release_parts();
    let mut parts = vec![Part::Field("benchmark", "plawbench")];
    parts.extend(release.iter().map(|(n, b)| Part::File(n, b)));
    let res = post(app, By::Token(&admin), "", &parts).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let json = res.json();
    assert_eq!(json["dataset"]["name"], "PLawBench");
    assert_eq!(json["dataset"]["case_count"], 7);
    assert_eq!(json["dataset"]["benchmark"], "plawbench");
    let warnings: Vec<String> = json["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .map(|w| w.as_str().expect("text").to_owned())
        .collect();
    assert!(!warnings.is_empty(), "{json}");

    // The CLI on the same files gives the same items and the same warnings.
    let dir = tempfile::tempdir().expect("dir");
    let db = db::Db::location_for_test(&dir.path().join("t.db"))
        .await
        .expect("a fresh database");
    let out = lexpilot(
        &["import", RELEASE, "--benchmark", "plawbench", "--db", &db],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let cli_warnings: Vec<String> = text(&out.stderr)
        .lines()
        .map(|l| l.replace(&format!("{RELEASE}/"), ""))
        .collect();
    assert_eq!(warnings, cli_warnings);
    let api_items = db::items::all::<engine::plawbench::dataset::Item>(
        &app.db,
        db::datasets::current(&app.db, engine::benchmark::Benchmark::Plawbench)
            .await
            .expect("query")
            .expect("stored")
            .id,
    )
    .await
    .expect("items");
    let cli_db = db::Db::open(std::path::Path::new(&db)).await.expect("open");
    let cli_items = db::items::all::<engine::plawbench::dataset::Item>(
        &cli_db,
        db::datasets::current(&cli_db, engine::benchmark::Benchmark::Plawbench)
            .await
            .expect("query")
            .expect("stored")
            .id,
    )
    .await
    .expect("items");
    assert_eq!(api_items, cli_items);
}

#[tokio::test]
async fn bad_input_names_file_line_and_field_as_the_cli_does_and_stores_nothing() {
    let team = Team::demo().await;
    let app = &team.app;
    let admin = app.token("root", Role::Admin).await;
    let before = versions(app).await;

    // A LexPilot case whose third line has a field of the wrong type.
    let mut lines: Vec<String> = DEMO_DATASET.lines().take(5).map(str::to_owned).collect();
    let mut third: serde_json::Value = serde_json::from_str(&lines[2]).expect("json");
    third["cause"] = serde_json::json!(17);
    lines[2] = third.to_string();
    let bad = lines.join("\n");
    let res = post(
        app,
        By::Token(&admin),
        "?benchmark=lexpilot",
        &[Part::File("bad.jsonl", bad.as_bytes())],
    )
    .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let error = res.json()["error"].as_str().expect("error").to_owned();
    assert!(error.starts_with("bad.jsonl: line 3"), "{error}");
    assert!(error.contains("field cause"), "{error}");
    assert!(error.ends_with("nothing was imported"), "{error}");
    assert!(res.json()["errors"][0]
        .as_str()
        .is_some_and(|e| e.starts_with("bad.jsonl: line 3")));

    // The CLI on the same file, from its folder: the same text.
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(dir.path().join("bad.jsonl"), &bad).expect("write");
    let db = db::Db::location_for_test(&dir.path().join("t.db"))
        .await
        .expect("a fresh database");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lexpilot"))
        .current_dir(dir.path())
        .args(["import", "bad.jsonl", "--db", &db])
        .output()
        .expect("lexpilot runs");
    assert!(!out.status.success());
    // (after the warnings the CLI prints first)
    assert!(
        text(&out.stderr).trim_end().ends_with(&error),
        "{}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stderr).contains(&format!("\n{error}")) || text(&out.stderr).starts_with(&error)
    );

    // A release file with a field the release does not have as given.
    let mut release = release_parts();
    let consultation = &mut release[1].1;
    let changed = String::from_utf8(consultation.clone())
        .expect("utf-8")
        .replacen(r#""score": """#, r#""score": "十""#, 1);
    *consultation = changed.into_bytes();
    let mut parts = vec![Part::Field("benchmark", "plawbench")];
    parts.extend(release.iter().map(|(n, b)| Part::File(n, b)));
    let res = post(app, By::Token(&admin), "", &parts).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let error = res.json()["error"].as_str().expect("error").to_owned();
    assert!(
        error.contains("public_legal_consultation_18.json: line ") && error.contains("field score"),
        "{error}"
    );

    // A file that is not of the release beside its files; two files for a
    // benchmark of one; no file; an unknown benchmark; a name of another
    // benchmark's dataset.
    let mut parts = vec![Part::Field("benchmark", "plawbench")];
    let readme = b"# notes".to_vec();
    parts.push(Part::File("README.md", &readme));
    parts.push(Part::File("Plantiffs_Statement.json", &readme));
    let res = post(app, By::Token(&admin), "", &parts).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(
        res.body
            .contains("README.md: not a file of the PLawBench release"),
        "{}",
        res.body
    );

    let res = post(
        app,
        By::Token(&admin),
        "",
        &[
            Part::File("a.jsonl", DEMO_DATASET.as_bytes()),
            Part::File("b.jsonl", DEMO_DATASET.as_bytes()),
        ],
    )
    .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(
        res.body.contains("a lexpilot dataset is one file"),
        "{}",
        res.body
    );

    let res = post(
        app,
        By::Token(&admin),
        "",
        &[Part::Field("benchmark", "lexpilot")],
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
    assert!(res.body.contains("no dataset file"), "{}", res.body);

    let res = post(
        app,
        By::Token(&admin),
        "?benchmark=nope",
        &[Part::File("a.jsonl", DEMO_DATASET.as_bytes())],
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
    assert!(res.body.contains("benchmark"), "{}", res.body);

    let res = post(
        app,
        By::Token(&admin),
        "?benchmark=dlawbench&name=lexpilot-demo-synthetic",
        &[Part::File("d.jsonl", DLAW_DEMO_DATASET.as_bytes())],
    )
    .await;
    assert_eq!(res.status, StatusCode::CONFLICT, "{}", res.body);
    assert!(
        res.body
            .contains("dataset lexpilot-demo-synthetic is a lexpilot dataset"),
        "{}",
        res.body
    );

    // Over the size limit: 413, nothing read.
    let huge = vec![b'x'; server::MAX_BODY_BYTES + 1024];
    let res = post(
        app,
        By::Token(&admin),
        "",
        &[Part::File("huge.jsonl", &huge)],
    )
    .await;
    assert_eq!(res.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", res.body);

    assert_eq!(versions(app).await, before, "nothing was stored");
}

#[tokio::test]
async fn only_admins_import_and_a_check_stores_nothing() {
    let team = Team::demo().await;
    let app = &team.app;
    let before = versions(app).await;
    let file = [Part::File("lab.jsonl", DEMO_DATASET.as_bytes())];

    for cookie in [&team.researcher, &team.expert_a] {
        let res = post(app, By::Page(cookie), "", &file).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.body);
    }
    let researcher = app.token("lab-researcher", Role::Researcher).await;
    let res = post(app, By::Token(&researcher), "", &file).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.body);
    let res = app
        .send(
            Request::post("/api/datasets")
                .header(header::HOST, "127.0.0.1:3000")
                .header(
                    header::CONTENT_TYPE,
                    format!("multipart/form-data; boundary={BOUNDARY}"),
                )
                .body(Body::from(multipart(&file)))
                .expect("request"),
        )
        .await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED, "{}", res.body);
    // An admin's session, but the form sent from another site.
    let res = post(app, By::OtherSite(&team.admin), "", &file).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.body);
    assert!(res.body.contains("cross-site"), "{}", res.body);
    assert_eq!(versions(app).await, before);

    // The dry run: what the import would do, nothing stored, for a query
    // parameter and a form field alike.
    let res = post(app, By::Page(&team.admin), "?check=true", &file).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(res.json()["check"], true);
    assert_eq!(res.json()["outcome"], "new_version");
    assert_eq!(res.json()["dataset"]["version"], 1);
    assert_eq!(res.json()["dataset"]["case_count"], 72);
    let res = post(
        app,
        By::Page(&team.admin),
        "",
        &[
            Part::Field("check", "true"),
            Part::File("lab.jsonl", DEMO_DATASET.as_bytes()),
        ],
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(versions(app).await, before, "a check stores nothing");

    // The demo dataset again under its own name: the check says unchanged.
    let res = post(
        app,
        By::Page(&team.admin),
        "?check=true&name=lexpilot-demo-synthetic",
        &file,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(res.json()["outcome"], "unchanged");

    // A check refuses what the import refuses.
    let res = post(
        app,
        By::Page(&team.admin),
        "?check=true&benchmark=dlawbench&name=lexpilot-demo-synthetic",
        &[Part::File("d.jsonl", DLAW_DEMO_DATASET.as_bytes())],
    )
    .await;
    assert_eq!(res.status, StatusCode::CONFLICT, "{}", res.body);
    assert_eq!(versions(app).await, before, "a check stores nothing");
}

#[tokio::test]
async fn the_upload_pages_form_imports_without_javascript_in_both_languages() {
    let team = Team::demo().await;
    let app = &team.app;
    let before = versions(app).await;

    // Only an admin sees the form.
    let page = app
        .get_with_cookie("/runs/upload", Some(&team.researcher))
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(!page.body.contains("data-testid=\"dataset-form\""));
    let page = app.get_with_cookie("/runs/upload", Some(&team.admin)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.contains(r#"action="/api/datasets""#)
            && page.body.contains(r#"enctype="multipart/form-data""#),
        "a plain form"
    );

    // The form's post: a redirect back to the page, which says what
    // happened.
    let form = |check: &'static str, name: &'static str| {
        vec![
            Part::Field("from", "page"),
            Part::Field("benchmark", "lexpilot"),
            Part::Field("name", name),
            Part::File("lab.jsonl", DEMO_DATASET.as_bytes()),
            Part::Field("check", check),
        ]
    };
    let res = post(app, By::Page(&team.admin), "", &form("true", "")).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let back = res.location().expect("a redirect").to_owned();
    assert!(back.starts_with("/runs/upload?"), "{back}");
    assert_eq!(versions(app).await, before, "the check stored nothing");
    let page = app
        .get_with_cookie(&format!("{back}&lang=en"), Some(&team.admin))
        .await;
    assert!(
        page.body.contains(
            "Check passed: the import would store dataset lab version 1 (72 cases or items)"
        ),
        "{}",
        page.body
    );

    let res = post(app, By::Page(&team.admin), "", &form("false", "")).await;
    let back = res.location().expect("a redirect").to_owned();
    let page = app
        .get_with_cookie(&format!("{back}&lang=zh"), Some(&team.admin))
        .await;
    assert!(
        page.body.contains("已导入数据集 lab 第 1 版（72 条）"),
        "{}",
        page.body
    );
    assert_eq!(versions(app).await, before + 1);

    // A refused file: the page lists each error with file, line and field.
    let bad = "{\"case_id\": 1}\n";
    let res = post(
        app,
        By::Page(&team.admin),
        "",
        &[
            Part::Field("from", "page"),
            Part::File("broken.jsonl", bad.as_bytes()),
            Part::Field("check", "false"),
        ],
    )
    .await;
    let back = res.location().expect("a redirect").to_owned();
    let page = app
        .get_with_cookie(&format!("{back}&lang=en"), Some(&team.admin))
        .await;
    assert!(
        page.body.contains("Nothing was imported (422)"),
        "{}",
        page.body
    );
    assert!(page.body.contains("broken.jsonl: line 1"), "{}", page.body);
    assert_eq!(versions(app).await, before + 1);
}
