//! A dry run never says yes to a no (issue 43, point 3): `import-evalscope
//! --check` and `POST /api/evalscope?check=true` (what the upload page's
//! evalscope preview calls) run the store's own checks on the stored state
//! without writing: a model and run already stored, two folders giving one
//! run number, a `--first-run` that collides; and they say what
//! `--replace` or `--first-run` would change.

mod common;

use std::path::Path;

use axum::http::StatusCode;
use common::cli::{lexpilot, text};
use common::evalscope::{import, with_fixture_dataset, FIXTURES};
use engine::accounts::Role;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("dir");
    for entry in std::fs::read_dir(from).expect("read") {
        let path = entry.expect("entry").path();
        let target = to.join(path.file_name().expect("name"));
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}

/// An output folder holding the v2 fixture's run twice, under two
/// timestamps: the same model's generations 0 and 1 in two folders.
fn two_folders(dir: &Path) -> std::path::PathBuf {
    let root = dir.join("twice");
    let v2 = Path::new(FIXTURES).join("v2/20261201_100000");
    copy_dir(&v2, &root.join("20261201_100000"));
    copy_dir(&v2, &root.join("20261202_100000"));
    root
}

async fn runs(db: &str) -> i64 {
    let db = db::Db::open(Path::new(db)).await.expect("open");
    sqlx::query_scalar("SELECT COUNT(*) FROM runs")
        .fetch_one(db.pool())
        .await
        .expect("count")
}

#[tokio::test]
async fn check_at_the_command_line_runs_the_stores_checks() {
    let dir = tempfile::tempdir().expect("dir");
    let db = db::Db::location_for_test(&dir.path().join("t.db"))
        .await
        .expect("a fresh database");
    let dataset = format!("{FIXTURES}/dataset.jsonl");
    let out = lexpilot(
        &["import", &dataset, "--benchmark", "plawbench", "--db", &db],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v2 = format!("{FIXTURES}/v2");
    let evalscope = |extra: &[&str]| {
        let mut args = vec!["import-evalscope", v2.as_str(), "--db", db.as_str()];
        args.extend(extra);
        lexpilot(&args, None)
    };

    let first = evalscope(&["--check"]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(
        text(&first.stdout).contains("model qwen-plus run 1: new"),
        "{}",
        text(&first.stdout)
    );
    assert!(evalscope(&[]).status.success());
    assert_eq!(runs(&db).await, 2);

    // Stored now: the check says no, as the import would, and what the
    // options would change.
    let again = evalscope(&["--check"]);
    assert!(!again.status.success(), "{}", text(&again.stdout));
    let err = text(&again.stderr);
    assert!(
        err.contains("model qwen-plus run 1 is already stored"),
        "{err}"
    );
    assert!(
        err.contains("with replacement (--replace, ?replace=true) it would replace the stored model qwen-plus run 1, model qwen-plus run 2"),
        "{err}"
    );
    assert!(
        err.contains(
            "with --first-run 3 (?first_run=3) it would store them as new runs 3 to 4 instead"
        ),
        "{err}"
    );
    let import = evalscope(&[]);
    assert!(!import.status.success(), "the import says the same");

    let replacing = evalscope(&["--check", "--replace"]);
    assert!(replacing.status.success(), "{}", text(&replacing.stderr));
    assert!(text(&replacing.stdout).contains("model qwen-plus run 2: replaces the stored run"));

    // A --first-run that collides with a stored run is refused; one past
    // them is not.
    let colliding = evalscope(&["--check", "--first-run", "2"]);
    assert!(!colliding.status.success());
    assert!(text(&colliding.stderr).contains("model qwen-plus run 2 is already stored"));
    let free = evalscope(&["--check", "--first-run", "3"]);
    assert!(free.status.success(), "{}", text(&free.stderr));
    assert!(text(&free.stdout).contains("model qwen-plus run 4: new"));

    // Two folders giving one run number.
    let twice = two_folders(dir.path());
    let mut args = vec![
        "import-evalscope",
        twice.to_str().expect("utf-8"),
        "--db",
        &db,
    ];
    args.extend(["--check", "--first-run", "10"]);
    let out = lexpilot(&args, None);
    assert!(!out.status.success(), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(
        err.contains("model qwen-plus run 10 is given twice"),
        "{err}"
    );
    assert!(err.contains("import them one at a time"), "{err}");
    args.truncate(args.len() - 3);
    args.extend(["--first-run", "10"]);
    let out = lexpilot(&args, None);
    assert!(
        text(&out.stderr).contains("is given twice"),
        "the import agrees"
    );
    assert_eq!(runs(&db).await, 2, "no check stored anything");
}

fn zipped(root: &Path) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let name = path.strip_prefix(root).expect("under root");
            zip.start_file(
                name.to_string_lossy(),
                zip::write::SimpleFileOptions::default(),
            )
            .expect("entry");
            zip.write_all(&std::fs::read(&path).expect("read"))
                .expect("write");
        }
    }
    zip.finish().expect("zip").into_inner()
}

#[tokio::test]
async fn check_true_in_the_api_answers_as_the_import_would() {
    let (app, _) = with_fixture_dataset().await;
    let researcher = app.token("researcher", Role::Researcher).await;
    let v2 = zipped(&Path::new(FIXTURES).join("v2"));
    let count = || async {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM runs")
            .fetch_one(app.db.pool())
            .await
            .expect("count")
    };

    // Two folders giving one run number: the check refuses as the import does.
    let dir = tempfile::tempdir().expect("dir");
    let twice = zipped(&two_folders(dir.path()));
    let check = app
        .send(import(&researcher, twice.clone(), "?check=true"))
        .await;
    assert_eq!(check.status, StatusCode::CONFLICT, "{}", check.body);
    assert!(
        check.body.contains("model qwen-plus run 1 is given twice"),
        "{}",
        check.body
    );
    let stored = app.send(import(&researcher, twice, "")).await;
    assert_eq!(stored.status, StatusCode::CONFLICT, "{}", stored.body);

    let check = app
        .send(import(&researcher, v2.clone(), "?check=true"))
        .await;
    assert_eq!(check.status, StatusCode::OK, "{}", check.body);
    assert_eq!(check.json()["plan"]["runs"][0]["action"], "new");
    let stored = app.send(import(&researcher, v2.clone(), "")).await;
    assert_eq!(stored.status, StatusCode::CREATED, "{}", stored.body);

    // Already stored: 409 from the check too, saying what the options change.
    let check = app
        .send(import(&researcher, v2.clone(), "?check=true"))
        .await;
    assert_eq!(check.status, StatusCode::CONFLICT, "{}", check.body);
    assert!(check.body.contains("already stored"), "{}", check.body);
    assert!(check.body.contains("?replace=true"), "{}", check.body);
    assert!(check.body.contains("?first_run=3"), "{}", check.body);
    let colliding = app
        .send(import(&researcher, v2.clone(), "?check=true&first_run=2"))
        .await;
    assert_eq!(colliding.status, StatusCode::CONFLICT, "{}", colliding.body);
    let free = app
        .send(import(&researcher, v2.clone(), "?check=true&first_run=3"))
        .await;
    assert_eq!(free.status, StatusCode::OK, "{}", free.body);

    let replacing = app
        .send(import(&researcher, v2.clone(), "?check=true&replace=true"))
        .await;
    assert_eq!(replacing.status, StatusCode::OK, "{}", replacing.body);
    assert_eq!(replacing.json()["plan"]["runs"][1]["action"], "replaces");

    // Another researcher may not replace them: the check says so (403).
    let other = app.token("other", Role::Researcher).await;
    let forbidden = app
        .send(import(&other, v2.clone(), "?check=true&replace=true"))
        .await;
    assert_eq!(
        forbidden.status,
        StatusCode::FORBIDDEN,
        "{}",
        forbidden.body
    );
    assert!(
        forbidden.body.contains("only its uploader or an admin"),
        "{}",
        forbidden.body
    );
    assert_eq!(count().await, 2, "no check stored anything");
}

/// The upload page's run-file preview (`check_runs`) refuses a file that
/// gives the model and run number of an earlier file of the same upload,
/// in the words the store then answers with ("model M run N is given
/// twice"); it said "valid" for both before.
#[tokio::test]
async fn the_upload_preview_refuses_two_files_of_one_run_as_the_store_does() {
    use leptos::server_fn::ServerFn;
    use serde_json::json;

    let team = common::Team::demo().await;
    let app = &team.app;
    let run = common::demo_run_as(0, "Twice-Model");
    let other = common::demo_run_as(1, "Once-Model");
    let body = json!({
        "files": [
            {"name": "a.jsonl", "text": run},
            {"name": "other.jsonl", "text": other},
            {"name": "b.jsonl", "text": run},
        ],
        "benchmark": "lexpilot",
    });
    let check = app
        .post_json(
            app::server_fns::runs::CheckRuns::PATH,
            common::Auth::Cookie(&team.researcher),
            body.clone(),
        )
        .await;
    assert_eq!(check.status, StatusCode::OK, "{}", check.body);
    let reports = check.json();
    assert_eq!(reports[0]["summary"]["model"], "Twice-Model", "{reports}");
    assert_eq!(reports[1]["summary"]["model"], "Once-Model", "{reports}");
    assert!(reports[2]["summary"].is_null(), "{reports}");
    let errors = reports[2]["errors"].to_string();
    assert!(
        errors.contains("model Twice-Model run 1 is given twice"),
        "{errors}"
    );

    // The store says the same, and stores nothing.
    let mut store = body;
    store["replace"] = json!(false);
    let stored = app
        .post_json(
            app::server_fns::runs::StoreRuns::PATH,
            common::Auth::Cookie(&team.researcher),
            store,
        )
        .await;
    assert!(
        stored
            .body
            .contains("model Twice-Model run 1 is given twice"),
        "{}",
        stored.body
    );
    let kept: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM runs WHERE model = 'Twice-Model'")
        .fetch_one(app.db.pool())
        .await
        .expect("count");
    assert_eq!(kept, 0);
}
