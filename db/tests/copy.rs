//! `db::copy` on a small deployment (a LexPilot dataset, accounts with a
//! designated adjudicator, a session, a token): from a SQLite file to a
//! fresh database (on the PostgreSQL server `LEXPILOT_TEST_PG` names, else
//! another SQLite file), after which new rows get fresh ids; a target that
//! holds data is refused untouched; a copy refused at one row leaves the
//! target as new. The whole schema is copied in `server/tests/db_copy.rs`.

use std::path::Path;

use db::copy::{CopyError, Side};
use db::datasets::ImportSource;
use db::{Backend, Db};
use engine::accounts::Role;

const DEMO: &str = include_str!("../../server/data/demo-synthetic.jsonl");

/// A SQLite file at `path` with a dataset, three accounts (one a designated
/// adjudicator: a flag set), a session and an API token.
async fn source(path: &Path) -> Db {
    let db = Db::open(path).await.expect("source opens");
    let cases = engine::lexpilot::dataset::parse_dataset(DEMO).expect("demo");
    let src = ImportSource {
        name: "demo",
        source: "test",
        synthetic: true,
    };
    db::datasets::import(&db, src, &cases)
        .await
        .expect("import");
    let admin = db::users::create(&db, "admin", Role::Admin, "a-long-password")
        .await
        .expect("admin");
    db::users::create(&db, "expert", Role::Expert, "a-long-password")
        .await
        .expect("expert");
    db::users::create(&db, "researcher", Role::Researcher, "a-long-password")
        .await
        .expect("researcher");
    db::users::set_adjudicator(&db, "expert", true)
        .await
        .expect("designated");
    db::sessions::create(&db, &admin).await.expect("session");
    db::tokens::create(&db, &admin).await.expect("token");
    db
}

/// A fresh, migrated database for the copy's target and its location.
async fn target(dir: &Path, name: &str) -> (Db, String) {
    let location = Db::location_for_test(&dir.join(name))
        .await
        .expect("a location");
    let db = Db::open(Path::new(&location)).await.expect("target opens");
    (db, location)
}

fn side<'a>(db: &'a Db, name: &'a str) -> Side<'a> {
    Side { db, name }
}

/// Whether `db` holds exactly what a newly migrated database holds.
async fn as_new(db: &Db) -> bool {
    let fresh = Db::open_in_memory().await.expect("fresh");
    db::copy::verify(side(db, "target"), side(&fresh, "new"))
        .await
        .expect("compared")
        .same()
}

#[tokio::test]
async fn a_copy_holds_the_same_rows_and_new_rows_get_fresh_ids() {
    let dir = tempfile::tempdir().expect("dir");
    let from = source(&dir.path().join("source.db")).await;
    let (to, location) = target(dir.path(), "target.db").await;
    let report = db::copy::copy(side(&from, "source.db"), side(&to, &location))
        .await
        .expect("copied");
    let rows = |table: &str| {
        report
            .tables
            .iter()
            .find(|(t, _)| t == table)
            .map(|(_, n)| *n)
    };
    assert_eq!(
        (rows("datasets"), rows("cases"), rows("users")),
        (Some(1), Some(72), Some(3))
    );
    let position = |table: &str| report.tables.iter().position(|(t, _)| t == table);
    assert!(position("datasets") < position("cases"), "parents first");
    assert!(position("users") < position("sessions"), "parents first");

    let check = db::copy::verify(side(&from, "source.db"), side(&to, &location))
        .await
        .expect("compared");
    assert!(check.same(), "{check}");
    let counts = db::copy::row_counts(side(&to, &location))
        .await
        .expect("counts");
    assert_eq!(report.tables, counts);

    // The flag is a flag on either backend, and the copied session signs in.
    let users = db::users::list(&to).await.expect("users");
    assert!(users.iter().any(|u| u.name == "expert" && u.adjudicator));
    assert!(users.iter().any(|u| u.name == "admin" && !u.adjudicator));

    // New rows after the copy get ids past the copied ones.
    let largest = users.iter().map(|u| u.id).max().expect("users");
    let new = db::users::create(&to, "newcomer", Role::Expert, "a-long-password")
        .await
        .expect("a new account after the copy");
    assert_eq!(new.id, largest + 1);
    let cases = engine::lexpilot::dataset::parse_dataset(DEMO).expect("demo");
    let mut changed = cases.clone();
    changed[0].consultations.complete[0].content.push('。');
    let src = ImportSource {
        name: "demo",
        source: "test",
        synthetic: true,
    };
    let version = db::datasets::import(&to, src, &changed)
        .await
        .expect("a new version after the copy");
    assert_eq!(version.dataset().version, 2);
}

#[tokio::test]
async fn a_target_with_data_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().expect("dir");
    let from = source(&dir.path().join("source.db")).await;
    let (to, location) = target(dir.path(), "target.db").await;
    db::users::create(&to, "someone", Role::Admin, "a-long-password")
        .await
        .expect("user");
    db::users::create(&to, "else", Role::Expert, "a-long-password")
        .await
        .expect("user");
    let refused = db::copy::copy(side(&from, "source.db"), side(&to, &location)).await;
    let Err(CopyError::NotEmpty { tables, .. }) = &refused else {
        panic!("not refused: {refused:?}");
    };
    assert_eq!(tables, &[("users".to_owned(), 2)]);
    let message = refused.expect_err("refused").to_string();
    assert!(
        message.starts_with(&format!(
            "the target {location} is not empty: users holds 2 rows"
        )),
        "{message}"
    );
    let names: Vec<String> = db::users::list(&to)
        .await
        .expect("users")
        .into_iter()
        .map(|u| u.name)
        .collect();
    assert_eq!(names, ["else", "someone"]);
    let counts = db::copy::row_counts(side(&to, &location))
        .await
        .expect("counts");
    assert!(
        counts
            .iter()
            .all(|(t, n)| *n == 0 || t == "users" || t == "generation"),
        "{counts:?}"
    );
}

#[tokio::test]
async fn a_copy_refused_at_one_row_leaves_the_target_as_new() {
    let dir = tempfile::tempdir().expect("dir");
    let from = source(&dir.path().join("source.db")).await;
    let (to, location) = target(dir.path(), "target.db").await;
    // The target refuses every session, which is copied after the
    // datasets, cases and accounts.
    let refuse: &[&str] = match to.backend() {
        Backend::Sqlite => &["CREATE TRIGGER refuse BEFORE INSERT ON sessions
              BEGIN SELECT RAISE(ABORT, 'sessions refused by the test'); END"],
        Backend::Postgres => &[
            "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS
             $$ BEGIN RAISE EXCEPTION 'sessions refused by the test'; END $$",
            "CREATE TRIGGER refuse BEFORE INSERT ON sessions
             FOR EACH ROW EXECUTE FUNCTION refuse()",
        ],
    };
    for sql in refuse {
        sqlx::query(sql).execute(to.pool()).await.expect("trigger");
    }
    let failed = db::copy::copy(side(&from, "source.db"), side(&to, &location)).await;
    let Err(CopyError::Row { table, key, .. }) = &failed else {
        panic!("not refused at a row: {failed:?}");
    };
    assert_eq!(table, "sessions");
    assert!(key.starts_with("token_hash=\""), "{key}");
    let message = failed.expect_err("failed").to_string();
    assert!(
        message.starts_with(&format!("{location}: table sessions, row token_hash=\""))
            && message.contains("sessions refused by the test"),
        "{message}"
    );
    assert!(as_new(&to).await, "the target holds nothing of the copy");
}

#[tokio::test]
async fn a_value_the_target_column_cannot_take_names_its_row_and_column() {
    let dir = tempfile::tempdir().expect("dir");
    let from = source(&dir.path().join("source.db")).await;
    // SQLite keeps a 2 in the flag column; a flag is 0 or 1.
    sqlx::query("UPDATE users SET adjudicator = 2 WHERE name = 'researcher'")
        .execute(from.pool())
        .await
        .expect("update");
    let (to, location) = target(dir.path(), "target.db").await;
    let failed = db::copy::copy(side(&from, "source.db"), side(&to, &location)).await;
    match to.backend() {
        Backend::Postgres => {
            let message = failed.expect_err("refused").to_string();
            assert_eq!(
                message,
                format!(
                    "{location}: table users, row id=3: column adjudicator: 2 does not go \
                     into a column of type boolean"
                )
            );
            assert!(as_new(&to).await);
        }
        // SQLite to SQLite: an integer column takes any integer.
        Backend::Sqlite => {
            failed.expect("copied");
            let check = db::copy::verify(side(&from, "source.db"), side(&to, &location))
                .await
                .expect("compared");
            assert!(check.same(), "{check}");
        }
    }
}

#[tokio::test]
async fn a_difference_is_named_by_table_row_and_column() {
    let dir = tempfile::tempdir().expect("dir");
    let from = source(&dir.path().join("source.db")).await;
    let (to, location) = target(dir.path(), "target.db").await;
    db::copy::copy(side(&from, "source.db"), side(&to, &location))
        .await
        .expect("copied");
    sqlx::query("UPDATE users SET role = 'expert' WHERE name = 'researcher'")
        .execute(to.pool())
        .await
        .expect("update");
    sqlx::query("DELETE FROM case_claims WHERE case_pk = 72")
        .execute(to.pool())
        .await
        .expect("delete");
    let check = db::copy::verify(side(&from, "source.db"), side(&to, &location))
        .await
        .expect("compared");
    assert!(!check.same());
    let difference = |table: &str| {
        check
            .tables
            .iter()
            .find(|t| t.table == table)
            .and_then(|t| t.difference.clone())
    };
    assert_eq!(
        check
            .tables
            .iter()
            .filter(|t| t.difference.is_some())
            .count(),
        2,
        "{check}"
    );
    assert_eq!(
        difference("users").as_deref(),
        Some("id=3, column role: \"researcher\" vs \"expert\"")
    );
    let claims = difference("case_claims").expect("claims differ");
    assert!(
        claims.starts_with("case_pk=72, verdict=") && claims.ends_with(": only in source.db"),
        "{claims}"
    );
    let shown = check.to_string();
    assert!(shown.contains("2 tables differ"), "{shown}");
}

#[tokio::test]
async fn large_tables_go_in_several_statements() {
    let dir = tempfile::tempdir().expect("dir");
    let from = source(&dir.path().join("source.db")).await;
    // 20,000 rows of four columns pass either bind limit; 24 texts of a
    // megabyte (in 3-byte characters) pass the bytes a statement carries.
    for sql in [
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
         INSERT INTO sign_in_failures (name, at, address)
         SELECT 'user' || i, '2026-01-01T00:00:00Z', '198.51.100.' || (i % 250) FROM n",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 24)
         INSERT INTO targeted_runs (dataset_id, model, run_number, entry_key, items, scores,
                                    created_at)
         SELECT 1, 'm', i, '{}', replace(hex(zeroblob(350000)), '00', '判' || i), '{}', 'now'
         FROM n",
    ] {
        sqlx::query(sql).execute(from.pool()).await.expect("rows");
    }
    let (to, location) = target(dir.path(), "target.db").await;
    let report = db::copy::copy(side(&from, "source.db"), side(&to, &location))
        .await
        .expect("copied");
    eprintln!("{report}");
    let rows = |table: &str| report.tables.iter().find(|(t, _)| t == table).map(|t| t.1);
    assert_eq!(rows("sign_in_failures"), Some(20_000));
    assert_eq!(rows("targeted_runs"), Some(24));
    let check = db::copy::verify(side(&from, "source.db"), side(&to, &location))
        .await
        .expect("compared");
    assert!(check.same(), "{check}");
}
