//! Case corrections: each is a revision and a new dataset version with the
//! runs carried over and re-scored; a save based on an outdated revision is
//! refused with the newer one; nothing is half-stored.

use db::datasets::ImportSource;
use db::revisions::{history, CorrectionOutcome, Rescore};
use db::runs::{NewRun, OnDuplicate};
use db::Db;
use engine::accounts::Role;
use engine::benchmark::{LexPilot, Suite};
use engine::lexpilot::dataset::{parse_dataset, Case};
use engine::vocab::Verdict;

const DEMO: &str = include_str!("../../server/data/demo-synthetic.jsonl");
const RUN: &str = include_str!("../../server/data/runs/sim-frontier-2-run1.jsonl");

async fn fixture() -> (
    Db,
    tempfile::TempDir,
    db::datasets::DatasetInfo,
    db::users::User,
) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = Db::open_for_test(Some(&dir.path().join("t.db")))
        .await
        .expect("open");
    let cases = parse_dataset(DEMO).expect("demo");
    let src = ImportSource {
        name: "demo",
        source: "test",
        synthetic: true,
    };
    let dataset = db::datasets::import(&db, src, &cases)
        .await
        .expect("import")
        .dataset()
        .clone();
    let run = engine::lexpilot::run::parse_run(RUN, &cases).expect("run");
    let scores = engine::lexpilot::score::score_run(&run, &cases);
    let new = NewRun::of::<LexPilot>(&run, &scores).expect("a run to store");
    db::runs::store_all(&db, dataset.id, &[new], None, OnDuplicate::Refuse)
        .await
        .expect("store");
    let admin = db::users::create(&db, "admin", Role::Admin, "a-long-password")
        .await
        .expect("user");
    (db, dir, dataset, admin)
}

/// Re-scores runs on a corrected version as the runtime does for LexPilot.
fn rescore() -> &'static Rescore {
    &|items, cases| {
        let run = LexPilot::parse_run(items.as_bytes(), cases).ok()?;
        serde_json::to_string(&LexPilot::score(&run, cases)).ok()
    }
}

/// [`db::revisions::correct_case`] with the LexPilot re-scoring.
async fn correct_case(
    db: &Db,
    dataset_name: &str,
    corrected: &Case,
    base: i64,
    author: &db::users::User,
    reason: &str,
) -> db::Result<CorrectionOutcome> {
    db::revisions::correct_case(db, dataset_name, corrected, base, author, reason, rescore()).await
}

async fn case(db: &Db, dataset_id: i64, id: &str) -> Case {
    db::cases::all(db, dataset_id)
        .await
        .expect("cases")
        .iter()
        .find(|c| c.case_id == id)
        .cloned()
        .expect("case")
}

async fn rows(db: &Db, table: &str) -> i64 {
    sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
        .fetch_one(db.pool())
        .await
        .expect("count")
}

#[tokio::test]
async fn a_correction_is_a_new_version_with_the_runs_rescored() {
    let (db, _dir, v1, admin) = fixture().await;
    let mut fixed = case(&db, v1.id, "DEMO-0001").await;
    let old_verdict = fixed.claims[0].verdict;
    fixed.claims[0].verdict = if old_verdict == Verdict::Dismissed {
        Verdict::Supported
    } else {
        Verdict::Dismissed
    };
    fixed.consultations.complete[0].content.push_str("（补充）");
    let outcome = correct_case(&db, &v1.name, &fixed, 1, &admin, "判决结果核对有误")
        .await
        .expect("saved");
    let CorrectionOutcome::Saved {
        revision,
        dataset: v2,
        runs_carried,
        runs_dropped,
    } = outcome
    else {
        panic!("not saved: {outcome:?}");
    };
    assert_eq!((revision, v2.version, runs_carried), (2, 2, 1));
    assert!(runs_dropped.is_empty());
    assert_eq!(
        db::datasets::current(&db, engine::benchmark::Benchmark::Lexpilot)
            .await
            .expect("q"),
        Some(v2.clone())
    );
    assert_eq!(case(&db, v2.id, "DEMO-0001").await, fixed);
    assert_ne!(
        case(&db, v1.id, "DEMO-0001").await,
        fixed,
        "v1 is untouched"
    );

    // The carried run is scored against the corrected gold verdict.
    let cases = db::cases::all(&db, v2.id).await.expect("cases");
    let run = engine::lexpilot::run::parse_run(RUN, &cases).expect("run");
    let expected = engine::lexpilot::score::score_run(&run, &cases);
    let stored = db::runs::scores(&db, v2.id).await.expect("scores");
    assert_eq!(stored.len(), 1);
    let scores = |s: &db::runs::StoredScores| -> engine::lexpilot::score::RunScores {
        serde_json::from_str(&s.scores).expect("scores")
    };
    assert_eq!(scores(&stored[0]), expected);
    let before = db::runs::scores(&db, v1.id).await.expect("scores");
    assert_ne!(scores(&before[0]).ljp, expected.ljp, "the LJP scores moved");
    // One run, scored on both versions: its items are stored once.
    assert_eq!(stored[0].run_id, before[0].run_id);
    assert_eq!(rows(&db, "runs").await, 1);
    assert_eq!(rows(&db, "run_scores").await, 2);

    let revisions = history(&db, "demo", "DEMO-0001").await.expect("history");
    assert_eq!(revisions.len(), 2);
    assert_eq!(
        (revisions[0].revision, revisions[0].author.as_deref()),
        (1, None)
    );
    assert_eq!(revisions[1].author.as_deref(), Some("admin"));
    assert_eq!(revisions[1].reason, "判决结果核对有误");
    assert_eq!(revisions[1].dataset_version, 2);
}

#[tokio::test]
async fn a_save_from_an_outdated_revision_gets_the_newer_one_and_changes_nothing() {
    let (db, _dir, v1, admin) = fixture().await;
    let mut first = case(&db, v1.id, "DEMO-0002").await;
    first.consultations.complete[0]
        .content
        .push_str("第一位专家的修改");
    let mut second = case(&db, v1.id, "DEMO-0002").await;
    second.consultations.complete[0]
        .content
        .push_str("第二位专家的修改");

    let saved = correct_case(&db, &v1.name, &first, 1, &admin, "一")
        .await
        .expect("saved");
    assert!(matches!(
        saved,
        CorrectionOutcome::Saved { revision: 2, .. }
    ));
    let (datasets, revisions) = (
        rows(&db, "datasets").await,
        rows(&db, "case_revisions").await,
    );

    // The second author also started from revision 1.
    let v2 = db::datasets::current(&db, engine::benchmark::Benchmark::Lexpilot)
        .await
        .expect("q")
        .expect("current");
    let stale = correct_case(&db, &v2.name, &second, 1, &admin, "二")
        .await
        .expect("answered");
    match stale {
        CorrectionOutcome::Stale { current } => {
            assert_eq!(current.revision, 2);
            assert_eq!(current.case, first);
        }
        other => panic!("expected stale, got {other:?}"),
    }
    assert_eq!(rows(&db, "datasets").await, datasets);
    assert_eq!(rows(&db, "case_revisions").await, revisions);
    assert_eq!(case(&db, v2.id, "DEMO-0002").await, first);
}

#[tokio::test]
async fn invalid_corrections_are_refused_and_store_nothing() {
    let (db, _dir, v1, admin) = fixture().await;
    let original = case(&db, v1.id, "DEMO-0003").await;
    let mut unequal = original.clone();
    unequal.consultations.complete.pop();
    let before = (rows(&db, "datasets").await, rows(&db, "runs").await);
    for (bad, reason) in [(&unequal, "r"), (&original, "r"), (&original, "  ")] {
        let err = correct_case(&db, &v1.name, bad, 1, &admin, reason).await;
        assert!(err.is_err(), "{err:?}");
    }
    assert_eq!(
        (rows(&db, "datasets").await, rows(&db, "runs").await),
        before
    );
    assert_eq!(rows(&db, "case_revisions").await, 0);
}

#[tokio::test]
async fn a_correction_that_invalidates_a_run_leaves_it_on_the_old_version() {
    let (db, _dir, v1, admin) = fixture().await;
    let mut fewer = case(&db, v1.id, "DEMO-0004").await;
    assert!(fewer.claims.len() > 1, "needs a case with several claims");
    fewer.claims.pop();
    let CorrectionOutcome::Saved {
        dataset: v2,
        runs_carried,
        runs_dropped,
        ..
    } = correct_case(&db, &v1.name, &fewer, 1, &admin, "删去重复的诉讼请求")
        .await
        .expect("saved")
    else {
        panic!("not saved");
    };
    assert_eq!(runs_carried, 0);
    assert_eq!(
        runs_dropped,
        vec!["Sim-Frontier-2 (simulated) run 1".to_owned()]
    );
    assert_eq!(db::runs::count(&db, v2.id).await.expect("count"), 0);
    assert_eq!(db::runs::count(&db, v1.id).await.expect("count"), 1);
}

/// Two people correct different cases, both having opened the same dataset
/// version: the second correction is built on the first's version, so both
/// survive (neither author is told anything, as their cases differ).
#[tokio::test]
async fn corrections_of_different_cases_from_one_version_both_survive() {
    let (db, _dir, v1, admin) = fixture().await;
    let mut a = case(&db, v1.id, "DEMO-0001").await;
    a.consultations.complete[0].content.push_str("（甲改）");
    let mut b = case(&db, v1.id, "DEMO-0002").await;
    b.consultations.complete[0].content.push_str("（乙改）");
    // Both start from v1, where each case stands at revision 1.
    correct_case(&db, &v1.name, &a, 1, &admin, "甲")
        .await
        .expect("first");
    let CorrectionOutcome::Saved { dataset: v3, .. } =
        correct_case(&db, &v1.name, &b, 1, &admin, "乙")
            .await
            .expect("second")
    else {
        panic!("the second correction is of another case, so it is not stale");
    };
    assert_eq!(v3.version, 3);
    assert_eq!(case(&db, v3.id, "DEMO-0001").await, a, "the first survives");
    assert_eq!(case(&db, v3.id, "DEMO-0002").await, b);
}
