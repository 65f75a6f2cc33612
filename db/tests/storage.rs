//! Storage against a fresh SQLite file per test: imports are all-or-nothing and
//! versioned, and the SQL case filter means what `CaseFilter::matches` means.

use db::datasets::{ImportOutcome, ImportSource};
use db::Db;
use engine::lexpilot::dataset::{parse_dataset, Case};
use engine::lexpilot::query::CaseFilter;
use engine::vocab::{Class, FocalPointType, PlaintiffType, Verdict};

const DEMO: &str = include_str!("../../server/data/demo-synthetic.jsonl");

async fn fresh() -> (Db, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = Db::open_for_test(Some(&dir.path().join("t.db")))
        .await
        .expect("open");
    (db, dir)
}

fn demo() -> Vec<Case> {
    parse_dataset(DEMO).expect("the demo dataset is valid")
}

fn src(name: &str) -> ImportSource<'_> {
    ImportSource {
        name,
        source: "test",
        synthetic: true,
    }
}

async fn count(db: &Db, table: &str) -> i64 {
    sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
        .fetch_one(db.pool())
        .await
        .expect("count")
}

#[tokio::test]
async fn reimporting_identical_content_is_a_no_op() {
    let (db, _dir) = fresh().await;
    let cases = demo();
    let first = db::datasets::import(&db, src("demo"), &cases)
        .await
        .expect("import");
    assert!(matches!(first, ImportOutcome::Created(ref d) if d.version == 1 && d.case_count == 72));
    let again = db::datasets::import(&db, src("demo"), &cases)
        .await
        .expect("import");
    assert!(matches!(again, ImportOutcome::Unchanged(ref d) if d.version == 1));
    assert_eq!(count(&db, "datasets").await, 1);
    assert_eq!(count(&db, "cases").await, 72);
}

#[tokio::test]
async fn a_changed_file_with_the_same_ids_becomes_a_new_version() {
    let (db, _dir) = fresh().await;
    let mut cases = demo();
    db::datasets::import(&db, src("demo"), &cases)
        .await
        .expect("import");
    cases[0].claims[0].verdict = Verdict::Dismissed;
    let second = db::datasets::import(&db, src("demo"), &cases)
        .await
        .expect("import");
    let ImportOutcome::Created(v2) = second else {
        panic!("expected a new version")
    };
    assert_eq!(v2.version, 2);
    // Version 1 is kept unchanged; the current dataset is version 2.
    let v1 = db::datasets::list(&db)
        .await
        .expect("list")
        .into_iter()
        .find(|d| d.version == 1)
        .expect("v1");
    let old = db::cases::get(&db, v1.id, &cases[0].case_id)
        .await
        .expect("old case");
    assert_ne!(old.case.claims[0].verdict, Verdict::Dismissed);
    assert_eq!(
        db::datasets::current(&db, engine::benchmark::Benchmark::Lexpilot)
            .await
            .expect("current")
            .map(|d| d.version),
        Some(2)
    );
}

#[tokio::test]
async fn an_import_that_fails_midway_stores_nothing() {
    let (db, _dir) = fresh().await;
    let mut cases = demo();
    // A duplicate id slipped past validation: the UNIQUE constraint fails on
    // the last case, after 72 rows were written inside the transaction.
    let duplicate = cases[0].clone();
    cases.push(duplicate);
    let err = db::datasets::import(&db, src("demo"), &cases).await;
    assert!(err.is_err());
    for table in ["datasets", "cases", "case_claims", "case_focal_points"] {
        assert_eq!(count(&db, table).await, 0, "{table} is empty");
    }
}

#[tokio::test]
async fn the_sql_filter_agrees_with_the_engine_filter() {
    let (db, _dir) = fresh().await;
    let cases = demo();
    let ImportOutcome::Created(d) = db::datasets::import(&db, src("demo"), &cases)
        .await
        .expect("import")
    else {
        panic!("created")
    };
    let mut filters = vec![CaseFilter::default()];
    for class in Class::ALL {
        filters.push(CaseFilter {
            class: Some(class),
            ..Default::default()
        });
    }
    for verdict in Verdict::ALL {
        for seed in [None, Some(true), Some(false)] {
            filters.push(CaseFilter {
                verdict: Some(verdict),
                seed,
                ..Default::default()
            });
        }
    }
    for t in FocalPointType::ALL {
        for p in PlaintiffType::ALL {
            filters.push(CaseFilter {
                focal_point_type: Some(t),
                plaintiff_type: Some(p),
                ..Default::default()
            });
        }
    }
    for q in [
        "DEMO-00",
        "demo-0042",
        "Demo-001",
        "离婚",
        "借款",
        "我报过两次警",
        "no such text",
        "%",
        "_",
    ] {
        filters.push(CaseFilter {
            q: Some(q.to_owned()),
            ..Default::default()
        });
    }
    filters.push(CaseFilter {
        cause: Some("抚养纠纷".into()),
        ..Default::default()
    });
    for filter in filters {
        let page = db::cases::list(&db, d.id, &filter, 1, 200)
            .await
            .expect("list");
        let from_sql: Vec<_> = page.items.iter().map(|s| s.case_id.clone()).collect();
        let expected: Vec<_> = cases
            .iter()
            .filter(|c| filter.matches(c))
            .map(|c| c.case_id.clone())
            .collect();
        assert_eq!(from_sql, expected, "{filter:?}");
        assert_eq!(page.total, expected.len() as u64);
    }
}

#[tokio::test]
async fn paging_walks_the_dataset_in_order() {
    let (db, _dir) = fresh().await;
    let cases = demo();
    let d = db::datasets::import(&db, src("demo"), &cases)
        .await
        .expect("import")
        .dataset()
        .clone();
    let mut seen = Vec::new();
    for page in 1..=8 {
        let p = db::cases::list(&db, d.id, &CaseFilter::default(), page, 10)
            .await
            .expect("page");
        assert_eq!(p.total, 72);
        seen.extend(p.items.into_iter().map(|s| s.case_id));
    }
    let all: Vec<_> = cases.iter().map(|c| c.case_id.clone()).collect();
    assert_eq!(seen, all);
    let beyond = db::cases::list(&db, d.id, &CaseFilter::default(), 99, 10)
        .await
        .expect("page");
    assert!(beyond.items.is_empty());
}

#[tokio::test]
async fn neighbours_follow_dataset_order() {
    let (db, _dir) = fresh().await;
    let d = db::datasets::import(&db, src("demo"), &demo())
        .await
        .expect("import")
        .dataset()
        .clone();
    let first = db::cases::get(&db, d.id, "DEMO-0001").await.expect("first");
    assert_eq!(
        (first.previous.as_deref(), first.next.as_deref()),
        (None, Some("DEMO-0002"))
    );
    let last = db::cases::get(&db, d.id, "DEMO-0072").await.expect("last");
    assert_eq!(
        (last.previous.as_deref(), last.next.as_deref()),
        (Some("DEMO-0071"), None)
    );
    assert!(matches!(
        db::cases::get(&db, d.id, "NOPE").await,
        Err(db::DbError::NotFound(_))
    ));
}

#[tokio::test]
async fn user_names_are_unique_and_passwords_checked() {
    let (db, _dir) = fresh().await;
    db::users::create(&db, "李专家", engine::accounts::Role::Expert, "long-enough")
        .await
        .expect("created");
    assert!(matches!(
        db::users::create(&db, "李专家", engine::accounts::Role::Admin, "long-enough").await,
        Err(db::DbError::Conflict(_))
    ));
    assert!(matches!(
        db::users::create(&db, "short", engine::accounts::Role::Admin, "short").await,
        Err(db::DbError::Invalid(_))
    ));
    assert!(db::users::verify(&db, "李专家", "long-enough")
        .await
        .expect("verify")
        .is_some());
    assert!(db::users::verify(&db, "李专家", "wrong-one!")
        .await
        .expect("verify")
        .is_none());
}
