//! Generations scoped to a dataset version and to one model's runs on it
//! (`db::generations`): a store moves exactly the stored models and their
//! version, never another model, version or benchmark; a replacement moves
//! its model; a correction's new version moves every model scored on it; a
//! Targeted vs Off-target result moves its version only; a refused or
//! rolled-back store moves nothing. On a fresh SQLite file, or on the
//! PostgreSQL server `LEXPILOT_TEST_PG` names.

use db::datasets::{ImportOutcome, ImportSource};
use db::generations::{dataset_generation, model_generations};
use db::revisions::{CorrectionOutcome, Rescore};
use db::runs::{NewRun, OnDuplicate};
use db::{Backend, Db, DbError};
use engine::accounts::{Replacer, Role};
use engine::benchmark::{Benchmark, LexPilot, PLawBench, Suite};
use engine::lexpilot::dataset::Case;

const PLAW_DEMO: &str = include_str!("../../server/data/plawbench/demo.jsonl");
const PLAW_RUN: &str = include_str!("../../server/data/plawbench/runs/sim-frontier-3-run1.jsonl");

async fn fresh() -> (Db, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = Db::open_for_test(Some(&dir.path().join("t.db")))
        .await
        .expect("open");
    (db, dir)
}

fn src(name: &str) -> ImportSource<'_> {
    ImportSource {
        name,
        source: "test",
        synthetic: true,
    }
}

/// A small synthetic LexPilot dataset, imported: its version id and cases.
async fn lexpilot(db: &Db) -> (i64, Vec<Case>) {
    let cases =
        LexPilot::parse_dataset(&engine::lexpilot::synthetic::dataset_file(1)).expect("cases");
    let id = db::datasets::import(db, src("lex"), &cases)
        .await
        .expect("import")
        .dataset()
        .id;
    (id, cases)
}

/// The PLawBench demo dataset, imported: its version id and items.
async fn plawbench(db: &Db) -> (i64, Vec<engine::plawbench::dataset::Item>) {
    let items = PLawBench::parse_dataset(PLAW_DEMO).expect("items");
    let id = db::datasets::import_items(db, src("plaw"), Benchmark::Plawbench, &items)
        .await
        .expect("import")
        .dataset()
        .id;
    (id, items)
}

/// Run `run` of synthetic model `model` (named `Bench-Model-{model:02}`).
fn lex_run(cases: &[Case], model: u32, run: u32) -> NewRun {
    let text = engine::lexpilot::synthetic::run_file(cases, model, run, 3);
    let parsed = LexPilot::parse_run(text.as_bytes(), cases).expect("a valid run");
    NewRun::of::<LexPilot>(&parsed, &LexPilot::score(&parsed, cases)).expect("new run")
}

fn model(n: u32) -> String {
    format!("Bench-Model-{n:02}")
}

async fn store(db: &Db, dataset_id: i64, runs: &[NewRun], on: OnDuplicate) -> db::Result<()> {
    db::runs::store_all(db, dataset_id, runs, None, on)
        .await
        .map(|_| ())
}

/// A version's generation and its models', as a reader sees them.
type Generations = (i64, Vec<(String, i64)>);

async fn generations(db: &Db, dataset_id: i64) -> Generations {
    (
        dataset_generation(db, dataset_id).await.expect("dataset"),
        model_generations(db, dataset_id).await.expect("models"),
    )
}

fn of(gens: &Generations, name: &str) -> i64 {
    gens.1
        .iter()
        .find(|(m, _)| m == name)
        .map_or(0, |(_, v)| *v)
}

#[tokio::test]
async fn a_store_moves_its_models_and_version_and_nothing_else() {
    let (db, _dir) = fresh().await;
    let (lex, cases) = lexpilot(&db).await;
    let (plaw, items) = plawbench(&db).await;
    let lex0 = generations(&db, lex).await;
    let plaw0 = generations(&db, plaw).await;
    assert!(lex0.0 > 0, "a new version counts as changed: {lex0:?}");
    assert!(
        lex0.1.is_empty() && plaw0.1.is_empty(),
        "no runs, no models"
    );

    // Model A (00) on LexPilot: A and its version move, the other
    // benchmark's version does not.
    store(&db, lex, &[lex_run(&cases, 0, 1)], OnDuplicate::Refuse)
        .await
        .expect("stored");
    let lex1 = generations(&db, lex).await;
    assert!(lex1.0 > lex0.0, "{lex0:?} -> {lex1:?}");
    assert!(of(&lex1, &model(0)) > 0, "{lex1:?}");
    assert_eq!(generations(&db, plaw).await, plaw0);

    // Model B (01): B moves, A stays.
    store(&db, lex, &[lex_run(&cases, 1, 1)], OnDuplicate::Refuse)
        .await
        .expect("stored");
    let lex2 = generations(&db, lex).await;
    assert!(lex2.0 > lex1.0);
    assert!(of(&lex2, &model(1)) > 0, "{lex2:?}");
    assert_eq!(of(&lex2, &model(0)), of(&lex1, &model(0)), "A untouched");

    // Two runs of A in one batch: A moves (once), B stays.
    store(
        &db,
        lex,
        &[lex_run(&cases, 0, 2), lex_run(&cases, 0, 3)],
        OnDuplicate::Refuse,
    )
    .await
    .expect("stored");
    let lex3 = generations(&db, lex).await;
    assert!(lex3.0 > lex2.0);
    assert_eq!(of(&lex3, &model(0)), of(&lex2, &model(0)) + 1);
    assert_eq!(of(&lex3, &model(1)), of(&lex2, &model(1)), "B untouched");
    assert_eq!(generations(&db, plaw).await, plaw0);

    // A PLawBench run moves its model and version only, none of LexPilot's.
    let run = PLawBench::parse_run(PLAW_RUN.as_bytes(), &items).expect("a valid run");
    let new = NewRun::of::<PLawBench>(&run, &PLawBench::score(&run, &items)).expect("new run");
    let plaw_model = new.meta.model.clone();
    store(&db, plaw, &[new], OnDuplicate::Refuse)
        .await
        .expect("stored");
    let plaw1 = generations(&db, plaw).await;
    assert!(plaw1.0 > plaw0.0);
    assert_eq!(plaw1.1, [(plaw_model, 1)]);
    assert_eq!(generations(&db, lex).await, lex3);

    // One model's scores, as every run's are read, in upload order.
    let all = db::runs::scores(&db, lex).await.expect("scores");
    let runs = db::runs::list(&db, lex).await.expect("runs");
    for m in [model(0), model(1), model(2)] {
        let mine: Vec<_> = all
            .iter()
            .filter(|s| runs.iter().any(|r| r.id == s.run_id && r.model == m))
            .cloned()
            .collect();
        let scores = db::runs::scores_of_model(&db, lex, &m)
            .await
            .expect("scores of a model");
        assert_eq!(scores, mine, "{m}");
    }
    let a = db::runs::scores_of_model(&db, lex, &model(0))
        .await
        .expect("scores");
    assert_eq!(a.len(), 3);
    assert!(a.windows(2).all(|w| w[0].run_id < w[1].run_id));
}

#[tokio::test]
async fn a_replaced_run_moves_its_model_and_a_refused_one_nothing() {
    let (db, _dir) = fresh().await;
    let (lex, cases) = lexpilot(&db).await;
    store(
        &db,
        lex,
        &[lex_run(&cases, 0, 1), lex_run(&cases, 1, 1)],
        OnDuplicate::Refuse,
    )
    .await
    .expect("stored");
    let before = generations(&db, lex).await;

    // A duplicate without replacement, and a batch naming a run twice: refused,
    // nothing moves.
    let refused = store(&db, lex, &[lex_run(&cases, 0, 1)], OnDuplicate::Refuse).await;
    assert!(matches!(refused, Err(DbError::Conflict(_))), "{refused:?}");
    let twice = store(
        &db,
        lex,
        &[lex_run(&cases, 1, 2), lex_run(&cases, 1, 2)],
        OnDuplicate::Refuse,
    )
    .await;
    assert!(matches!(twice, Err(DbError::Conflict(_))), "{twice:?}");
    assert_eq!(generations(&db, lex).await, before);

    // Replacing A's run 1 with another: A and the version move, B does not.
    store(
        &db,
        lex,
        &[lex_run(&cases, 0, 1)],
        OnDuplicate::Replace(Replacer::Admin),
    )
    .await
    .expect("replaced");
    let after = generations(&db, lex).await;
    assert!(after.0 > before.0);
    assert_eq!(of(&after, &model(0)), of(&before, &model(0)) + 1);
    assert_eq!(of(&after, &model(1)), of(&before, &model(1)));
}

#[tokio::test]
async fn a_store_rolled_back_after_its_bumps_moves_nothing() {
    let (db, _dir) = fresh().await;
    let (lex, cases) = lexpilot(&db).await;
    store(&db, lex, &[lex_run(&cases, 0, 1)], OnDuplicate::Refuse)
        .await
        .expect("stored");
    let before = generations(&db, lex).await;
    let global = db::runs::generation(&db).await.expect("global");
    // The database refuses model B's counter, the last thing a store of
    // A and B writes: the version's and A's bumps are rolled back with it.
    let refuse: &[&str] = match db.backend() {
        Backend::Sqlite => &["CREATE TRIGGER refuse BEFORE INSERT ON model_generations
              WHEN NEW.model = 'Bench-Model-01'
              BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"],
        Backend::Postgres => &[
            "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS
             $$ BEGIN IF NEW.model = 'Bench-Model-01' THEN
                  RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$",
            "CREATE TRIGGER refuse BEFORE INSERT ON model_generations
             FOR EACH ROW EXECUTE FUNCTION refuse()",
        ],
    };
    for sql in refuse {
        sqlx::query(sql).execute(db.pool()).await.expect("trigger");
    }
    let failed = store(
        &db,
        lex,
        &[lex_run(&cases, 0, 2), lex_run(&cases, 1, 1)],
        OnDuplicate::Refuse,
    )
    .await;
    assert!(failed.is_err(), "the store went through");
    assert_eq!(generations(&db, lex).await, before);
    assert_eq!(db::runs::generation(&db).await.expect("global"), global);
    assert_eq!(db::runs::count(&db, lex).await.expect("count"), 1);
}

/// Re-scores runs on a corrected version as the runtime does for LexPilot.
fn rescore() -> &'static Rescore {
    &|items, cases| {
        let run = LexPilot::parse_run(items.as_bytes(), cases).ok()?;
        serde_json::to_string(&LexPilot::score(&run, cases)).ok()
    }
}

#[tokio::test]
async fn a_new_version_moves_every_model_scored_on_it() {
    let (db, _dir) = fresh().await;
    let (v1, cases) = lexpilot(&db).await;
    store(
        &db,
        v1,
        &[lex_run(&cases, 0, 1), lex_run(&cases, 1, 1)],
        OnDuplicate::Refuse,
    )
    .await
    .expect("stored");
    let before = generations(&db, v1).await;

    // Importing the same content again is no new version: nothing moves.
    let again = db::datasets::import(&db, src("lex"), &cases)
        .await
        .expect("import");
    assert!(matches!(again, ImportOutcome::Unchanged(_)));
    assert_eq!(generations(&db, v1).await, before);

    // A correction makes version 2 with both models' runs re-scored on it.
    let admin = db::users::create(&db, "admin", Role::Admin, "a-long-password")
        .await
        .expect("user");
    let mut fixed = cases[0].clone();
    fixed.consultations.complete[0].content.push_str("（补充）");
    let outcome = db::revisions::correct_case(&db, "lex", &fixed, 1, &admin, "核对", rescore())
        .await
        .expect("saved");
    let CorrectionOutcome::Saved {
        dataset: v2,
        runs_carried,
        ..
    } = outcome
    else {
        panic!("not saved: {outcome:?}");
    };
    assert_eq!(runs_carried, 2);
    let after = generations(&db, v2.id).await;
    assert!(after.0 > 0);
    assert!(
        of(&after, &model(0)) > 0 && of(&after, &model(1)) > 0,
        "every model of the new version: {after:?}"
    );
    assert_eq!(generations(&db, v1).await, before, "version 1 untouched");
}

#[tokio::test]
async fn a_targeted_result_moves_its_version_only() {
    let (db, _dir) = fresh().await;
    let (lex, cases) = lexpilot(&db).await;
    store(&db, lex, &[lex_run(&cases, 0, 1)], OnDuplicate::Refuse)
        .await
        .expect("stored");
    let before = generations(&db, lex).await;
    let result = db::targeted::NewTargetedRun {
        model: model(0),
        run: 1,
        entry_key: engine::core::entry::EntryKey {
            model: model(0),
            ..Default::default()
        },
        items: "{}".into(),
        scores: "{}".into(),
        created_at: None,
    };
    db::targeted::store_all(&db, lex, &[result], None, OnDuplicate::Refuse)
        .await
        .expect("stored");
    let after = generations(&db, lex).await;
    assert!(after.0 > before.0);
    assert_eq!(after.1, before.1, "no model's runs changed");
}
