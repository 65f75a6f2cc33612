//! Reference rows (issue 43 point 5): `POST /api/reference` through real
//! HTTP to a `lexpilot serve` process (admins only, size-limited, every
//! error naming file, line and field, one transaction replacing the
//! origin's rows, a check that stores nothing), `lexpilot import-reference`,
//! and the demo loading the shipped published rows.

mod common;

use common::cli::{lexpilot, text, write};
use common::process::{client, Server};

const GOOD: &str = "model,family,view,column,value,source\n\
                    Our-Lab-Model,closed,lca,overall,0.70,lab report 2026-11\n\
                    sim-gpt,closed,dcg,overall,0.61,lab report 2026-11\n";

async fn count(server: &Server, filter: &str) -> i64 {
    let pool = server.read_only().await;
    sqlx::query_scalar(&format!(
        "SELECT COUNT(*) FROM reference_rows WHERE {filter}"
    ))
    .fetch_one(&pool)
    .await
    .expect("count")
}

async fn post(server: &Server, token: Option<&str>, query: &str, body: Vec<u8>) -> (u16, String) {
    let mut req = client()
        .post(format!("{}/api/reference{query}", server.origin()))
        .header("Content-Type", "text/csv")
        .body(body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.expect("the server answers");
    let status = res.status().as_u16();
    (status, res.text().await.expect("body"))
}

#[tokio::test]
async fn the_api_imports_reference_rows_for_admins_only() {
    let mut server = Server::new();
    server.start().await;
    // The demo loaded with the first start brings the shipped published rows.
    assert_eq!(
        count(&server, "origin = 'published' AND benchmark = 'lexpilot'").await,
        190
    );
    assert_eq!(
        count(&server, "origin = 'published' AND benchmark = 'plawbench'").await,
        240
    );
    assert_eq!(
        count(&server, "origin = 'published' AND benchmark = 'dlawbench'").await,
        18
    );
    server.add_user("root", "admin");
    server.add_user("rita", "researcher");
    let admin = server.token("root");
    let researcher = server.token("rita");
    let q = "?benchmark=lexpilot&origin=lab-2026";
    let board = || async {
        let res = client()
            .get(format!("{}/leaderboard?lang=en", server.origin()))
            .send()
            .await
            .expect("the server answers");
        res.text().await.expect("body")
    };
    // Read once, so that the page and the rows are cached before imports.
    assert!(!board().await.contains("Our-Lab-Model"));

    let (status, body) = post(&server, None, q, GOOD.into()).await;
    assert_eq!(status, 401, "{body}");
    let (status, body) = post(&server, Some(&researcher), q, GOOD.into()).await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(count(&server, "origin = 'lab-2026'").await, 0);

    // A check stores nothing.
    let (status, body) = post(
        &server,
        Some(&admin),
        &format!("{q}&check=true"),
        GOOD.into(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"rows\":2"), "{body}");
    assert!(body.contains("\"check\":true"), "{body}");
    assert_eq!(count(&server, "origin = 'lab-2026'").await, 0);

    let (status, body) = post(&server, Some(&admin), q, GOOD.into()).await;
    assert_eq!(status, 201, "{body}");
    assert!(body.contains("\"replaced\":0"), "{body}");
    assert_eq!(count(&server, "origin = 'lab-2026'").await, 2);
    assert!(
        board().await.contains("Our-Lab-Model"),
        "the new line shows"
    );

    // An invalid file is refused whole: the stored rows stay.
    let bad = "model,family,view,column,value,source\n\
               A,closed,lca,overall,0.5,x\n\
               B,closed,lca,tortt,0.5,x\n\
               C,closed,ljp,overall_gold,abc,\n";
    let (status, body) = post(&server, Some(&admin), q, bad.into()).await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body.contains(
            "reference.csv: line 3, field column: \\\"tortt\\\" is not a column of view lca"
        ),
        "{body}"
    );
    assert!(
        body.contains("reference.csv: line 4, field value: \\\"abc\\\" is not a number"),
        "{body}"
    );
    assert!(
        body.contains("reference.csv: line 4, field source: empty"),
        "{body}"
    );
    assert_eq!(count(&server, "origin = 'lab-2026'").await, 2);

    // Another file under the same origin replaces its rows, in one go.
    let one = "model,family,view,column,value,source\nX,open,dcg,tort,0.4,y\n";
    let (status, body) = post(&server, Some(&admin), q, one.into()).await;
    assert_eq!(status, 201, "{body}");
    assert!(body.contains("\"replaced\":2"), "{body}");
    assert_eq!(count(&server, "origin = 'lab-2026'").await, 1);
    assert!(
        !board().await.contains("Our-Lab-Model"),
        "the old line is gone"
    );
    assert_eq!(count(&server, "origin = 'published'").await, 190 + 240 + 18);

    // Bad parameters and bodies.
    let (status, body) = post(&server, Some(&admin), "", GOOD.into()).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("benchmark: missing"), "{body}");
    let (status, body) = post(&server, Some(&admin), "?benchmark=nope", GOOD.into()).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = post(&server, Some(&admin), "?benchmark=plawbench", GOOD.into()).await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body.contains("field view: \\\"lca\\\" is not a view of plawbench"),
        "{body}"
    );
    let (status, body) = post(
        &server,
        Some(&admin),
        "?benchmark=lexpilot&origin=%20",
        GOOD.into(),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = post(&server, Some(&admin), q, Vec::new()).await;
    assert_eq!(status, 400, "{body}");
    let mut huge = GOOD.as_bytes().to_vec();
    huge.resize(services::reference::MAX_FILE_BYTES + 1, b'\n');
    let (status, body) = post(&server, Some(&admin), q, huge).await;
    assert_eq!(status, 413, "{body}");
    assert_eq!(count(&server, "origin = 'lab-2026'").await, 1);
}

#[test]
fn the_cli_imports_checks_and_refuses() {
    let dir = tempfile::tempdir().expect("dir");
    let db = dir.path().join("l.db").to_string_lossy().into_owned();
    let file = write(dir.path(), "ours-2026.csv", GOOD);
    let checked = lexpilot(&["import-reference", &file, "--check", "--db", &db], None);
    assert!(checked.status.success(), "{}", text(&checked.stderr));
    assert!(text(&checked.stdout)
        .contains("is valid: 2 lexpilot reference rows under origin \"ours-2026\""));
    let imported = lexpilot(&["import-reference", &file, "--db", &db], None);
    assert!(imported.status.success(), "{}", text(&imported.stderr));
    assert!(
        text(&imported.stdout)
            .contains("imported 2 lexpilot reference rows under origin \"ours-2026\" (replaced 0"),
        "{}",
        text(&imported.stdout)
    );
    let again = lexpilot(&["import-reference", &file, "--db", &db], None);
    assert!(text(&again.stdout).contains("(replaced 2 stored row(s))"));

    let bad = write(
        dir.path(),
        "bad.csv",
        "model,family,view,column,value,source\nA,closed,official,overall,101,readme\n",
    );
    let refused = lexpilot(
        &[
            "import-reference",
            &bad,
            "--benchmark",
            "plawbench",
            "--db",
            &db,
        ],
        None,
    );
    assert!(!refused.status.success());
    let err = text(&refused.stderr);
    assert!(
        err.contains("bad.csv: line 2, field value: 101 is out of range"),
        "{err}"
    );
    let missing = lexpilot(&["import-reference", "/nonexistent.csv", "--db", &db], None);
    assert!(!missing.status.success());
    assert!(text(&missing.stderr).contains("/nonexistent.csv: cannot be read"));

    // The shipped files import as they are.
    for b in ["lexpilot", "plawbench", "dlawbench"] {
        let path = format!("{}/../data/reference/{b}.csv", env!("CARGO_MANIFEST_DIR"));
        let out = lexpilot(
            &[
                "import-reference",
                &path,
                "--benchmark",
                b,
                "--origin",
                "published",
                "--check",
                "--db",
                &db,
            ],
            None,
        );
        assert!(out.status.success(), "{b}: {}", text(&out.stderr));
    }
}
