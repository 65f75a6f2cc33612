//! Stored runs, for every benchmark alike. A run is stored once, in the
//! form its benchmark keeps ([`engine::benchmark::Suite::to_stored`]), on
//! the dataset version it was validated against; its scores are kept per
//! version it is scored on (`run_scores`). A case correction makes a new
//! version and links the runs that still validate, re-scored, without
//! copying them ([`crate::revisions`]).
//!
//! A store is one transaction that takes the write lock first: every run of
//! the batch, or none. A second run with the same model and run number on a
//! version is refused (`Conflict`) unless replacement is asked for. Every
//! write bumps the generation ([`generation`]), and those of its version
//! and models ([`crate::generations`]), inside its transaction, so that
//! figures cached against them can never outlive what they came from.
//! Scoring never happens here: the caller brings the scores.

use engine::accounts::Replacer;
use engine::benchmark::{RunMeta, Suite};
use engine::core::entry::EntryKey;
use serde::{Deserialize, Serialize};
use sqlx::AnyConnection;

use crate::{now, Db, DbError, Result};

/// A stored run without its items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    pub id: i64,
    pub model: String,
    pub run_number: i64,
    pub family: Option<String>,
    pub unavailable: i64,
    pub created_at: String,
}

/// Whether an upload may take the place of a stored run with the same model
/// and run number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnDuplicate {
    Refuse,
    /// Replace it, when this replacer may ([`Replacer::may_replace`]: the
    /// run's uploader or an admin); otherwise [`DbError::Forbidden`] with
    /// the reason, and nothing is stored.
    Replace(Replacer),
}

impl OnDuplicate {
    /// Replacing by `replacer` when `replace` is asked for, refusing
    /// otherwise.
    pub fn replacing(replace: bool, replacer: Replacer) -> OnDuplicate {
        if replace {
            OnDuplicate::Replace(replacer)
        } else {
            OnDuplicate::Refuse
        }
    }

    /// Checks that the run `model` `run` uploaded by `uploader`, already
    /// stored, may be replaced.
    pub(crate) fn check(
        self,
        model: &str,
        run: impl std::fmt::Display,
        uploader: Option<i64>,
    ) -> Result<()> {
        match self {
            OnDuplicate::Refuse => Err(duplicate(model, run)),
            OnDuplicate::Replace(by) => by
                .may_replace(uploader)
                .map_err(|why| DbError::Forbidden(format!("model {model} run {run} {why}"))),
        }
    }
}

/// A validated, scored run to store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewRun {
    pub meta: RunMeta,
    /// The run in its benchmark's stored form.
    pub items: String,
    /// Its scores on the version it is stored on, as JSON.
    pub scores: String,
}

impl NewRun {
    /// `run` of benchmark `S` with the `scores` its engine gave it.
    pub fn of<S: Suite>(run: &S::Run, scores: &S::Scores) -> Result<NewRun> {
        Ok(NewRun {
            meta: S::meta(run),
            items: S::to_stored(run),
            scores: json(scores)?,
        })
    }
}

fn json<T: Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| DbError::Invalid(e.to_string()))
}

fn corrupt(e: serde_json::Error) -> DbError {
    DbError::Corrupt(format!("stored run: {e}"))
}

fn duplicate(model: &str, run: impl std::fmt::Display) -> DbError {
    DbError::Conflict(format!(
        "model {model} run {run} is already stored; upload it with replacement to overwrite it"
    ))
}

/// What storing one run of a batch would do, as [`store_all`] decides it
/// ([`plan_all`] finds it without writing).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Disposition {
    /// A run the version does not hold yet.
    New,
    /// It takes the place of stored run `run_id`, as replacement allows.
    Replaces { run_id: i64 },
    /// Refused: the version holds this model and run number, and
    /// replacement was not asked for (409).
    AlreadyStored { run_id: i64 },
    /// Refused: replacement was asked for, but this replacer may not
    /// replace the stored run (403); why.
    Forbidden { run_id: i64, why: String },
    /// Refused: an earlier run of the same batch has this model and run
    /// number (409).
    GivenTwice,
}

/// One run of a batch and what storing it would do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Planned {
    pub model: String,
    pub run_number: i64,
    #[serde(flatten)]
    pub disposition: Disposition,
}

impl Planned {
    /// The error [`store_all`] answers for this run, if it is refused.
    pub fn refusal(&self) -> Option<DbError> {
        let (model, run) = (&self.model, self.run_number);
        match &self.disposition {
            Disposition::New | Disposition::Replaces { .. } => None,
            Disposition::AlreadyStored { .. } => Some(duplicate(model, run)),
            Disposition::Forbidden { why, .. } => {
                Some(DbError::Forbidden(format!("model {model} run {run} {why}")))
            }
            Disposition::GivenTwice => Some(DbError::Conflict(format!(
                "model {model} run {run} is given twice"
            ))),
        }
    }
}

/// The first refusal of a plan, in batch order: what [`store_all`] answers.
pub fn refusal(plan: &[Planned]) -> Option<DbError> {
    plan.iter().find_map(Planned::refusal)
}

/// What [`store_all`] would do with runs `(model, run number)` on dataset
/// version `dataset_id`, found by the same checks on the same state, with
/// nothing written: a dry run. Every run is planned (not only up to the
/// first refusal), so a check can name them all.
pub async fn plan_all(
    db: &Db,
    dataset_id: i64,
    runs: &[(String, u32)],
    on_duplicate: OnDuplicate,
) -> Result<Vec<Planned>> {
    let mut conn = db.pool().acquire().await?;
    plan_on(&mut conn, dataset_id, runs, on_duplicate).await
}

/// [`plan_all`] on a connection (inside [`store_all`]'s transaction).
async fn plan_on(
    conn: &mut AnyConnection,
    dataset_id: i64,
    runs: &[(String, u32)],
    on_duplicate: OnDuplicate,
) -> Result<Vec<Planned>> {
    let mut plan: Vec<Planned> = Vec::with_capacity(runs.len());
    for (model, run) in runs {
        let run_number = i64::from(*run);
        let disposition = if plan
            .iter()
            .any(|p| &p.model == model && p.run_number == run_number)
        {
            Disposition::GivenTwice
        } else {
            let existing: Option<(i64, Option<i64>)> = sqlx::query_as(
                "SELECT s.run_id, r.uploaded_by FROM run_scores s JOIN runs r ON r.id = s.run_id
                 WHERE s.dataset_id = $1 AND s.model = $2 AND s.run_number = $3",
            )
            .bind(dataset_id)
            .bind(model)
            .bind(run_number)
            .fetch_optional(&mut *conn)
            .await?;
            match (existing, on_duplicate) {
                (None, _) => Disposition::New,
                (Some((run_id, _)), OnDuplicate::Refuse) => Disposition::AlreadyStored { run_id },
                (Some((run_id, uploader)), OnDuplicate::Replace(by)) => {
                    match by.may_replace(uploader) {
                        Ok(()) => Disposition::Replaces { run_id },
                        Err(why) => Disposition::Forbidden {
                            run_id,
                            why: why.to_owned(),
                        },
                    }
                }
            }
        };
        plan.push(Planned {
            model: model.clone(),
            run_number,
            disposition,
        });
    }
    Ok(plan)
}

/// Stores several runs in one transaction: all of them, or none when any is
/// refused (a duplicate without replacement, or two runs of the batch with the
/// same model and run number). What it does to each run is [`plan_all`]'s
/// answer, found inside the transaction.
pub async fn store_all(
    db: &Db,
    dataset_id: i64,
    runs: &[NewRun],
    uploaded_by: Option<i64>,
    on_duplicate: OnDuplicate,
) -> Result<Vec<RunInfo>> {
    let mut tx = crate::begin_write(db).await?;
    let keys: Vec<(String, u32)> = runs
        .iter()
        .map(|r| (r.meta.model.clone(), r.meta.run))
        .collect();
    let plan = plan_on(&mut tx, dataset_id, &keys, on_duplicate).await?;
    if let Some(refused) = refusal(&plan) {
        return Err(refused);
    }
    let mut stored: Vec<RunInfo> = Vec::with_capacity(runs.len());
    for (run, planned) in runs.iter().zip(&plan) {
        let meta = &run.meta;
        let run_number = planned.run_number;
        if let Disposition::Replaces { run_id } = planned.disposition {
            unlink(&mut tx, run_id, dataset_id).await?;
        }
        let unavailable = i64::try_from(meta.unavailable).unwrap_or(i64::MAX);
        let created_at = meta.created_at.clone().unwrap_or_else(now);
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO runs (dataset_id, benchmark, model, run_number, family, entry_key, items,
                               unavailable, uploaded_by, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
        )
        .bind(dataset_id)
        .bind(meta.benchmark.as_str())
        .bind(&meta.model)
        .bind(run_number)
        .bind(&meta.family)
        .bind(json(&meta.entry_key)?)
        .bind(&run.items)
        .bind(unavailable)
        .bind(uploaded_by)
        .bind(&created_at)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| unique_as_duplicate(e, &meta.model, meta.run))?;
        link(
            &mut tx,
            id,
            dataset_id,
            &meta.model,
            run_number,
            &run.scores,
        )
        .await?;
        stored.push(RunInfo {
            id,
            model: meta.model.clone(),
            run_number,
            family: meta.family.clone(),
            unavailable,
            created_at,
        });
    }
    if !stored.is_empty() {
        bump_generation(&mut tx).await?;
        let models: Vec<&str> = stored.iter().map(|r| r.model.as_str()).collect();
        crate::generations::bump(&mut tx, dataset_id, &models).await?;
    }
    tx.commit().await?;
    if !stored.is_empty() {
        db.notify(crate::events::Change::RunsStored {
            dataset_id,
            benchmark: runs[0].meta.benchmark.as_str().to_owned(),
            models: stored.iter().map(|r| r.model.clone()).collect(),
        })
        .await;
    }
    Ok(stored)
}

/// A unique-key violation of a run store (a race the lock did not cover) as
/// the duplicate it is.
fn unique_as_duplicate(e: sqlx::Error, model: &str, run: u32) -> DbError {
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => duplicate(model, run),
        _ => DbError::from(e),
    }
}

/// Scores run `run_id` on dataset version `dataset_id`.
pub(crate) async fn link(
    conn: &mut AnyConnection,
    run_id: i64,
    dataset_id: i64,
    model: &str,
    run_number: i64,
    scores: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO run_scores (run_id, dataset_id, model, run_number, scores)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(run_id)
    .bind(dataset_id)
    .bind(model)
    .bind(run_number)
    .bind(scores)
    .execute(&mut *conn)
    .await
    .map_err(|e| unique_as_duplicate(e, model, u32::try_from(run_number).unwrap_or(u32::MAX)))?;
    Ok(())
}

/// Takes run `run_id` off version `dataset_id`, and deletes it when no
/// version scores it any more (its review items go with it).
async fn unlink(conn: &mut AnyConnection, run_id: i64, dataset_id: i64) -> Result<()> {
    sqlx::query("DELETE FROM run_scores WHERE run_id = $1 AND dataset_id = $2")
        .bind(run_id)
        .bind(dataset_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "DELETE FROM runs WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM run_scores WHERE run_id = $2)",
    )
    .bind(run_id)
    .bind(run_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Bumps the generation, inside the transaction that changes what figures
/// are derived from.
pub(crate) async fn bump_generation(conn: &mut AnyConnection) -> Result<()> {
    sqlx::query("UPDATE generation SET value = value + 1 WHERE id = 1")
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// A number that every transaction changing stored runs, their scores or
/// the dataset versions bumps as it commits: figures derived from them can
/// be cached against it, also across servers sharing the database.
pub async fn generation(db: &Db) -> Result<i64> {
    Ok(
        sqlx::query_scalar("SELECT value FROM generation WHERE id = 1")
            .fetch_one(db.pool())
            .await?,
    )
}

/// Whether `model` run `run_number` is scored on the dataset version.
pub async fn exists(db: &Db, dataset_id: i64, model: &str, run_number: u32) -> Result<bool> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM run_scores WHERE dataset_id = $1 AND model = $2 AND run_number = $3",
    )
    .bind(dataset_id)
    .bind(model)
    .bind(i64::from(run_number))
    .fetch_one(db.pool())
    .await?;
    Ok(n > 0)
}

/// How many runs the dataset version scores.
pub async fn count(db: &Db, dataset_id: i64) -> Result<i64> {
    Ok(
        sqlx::query_scalar("SELECT COUNT(*) FROM run_scores WHERE dataset_id = $1")
            .bind(dataset_id)
            .fetch_one(db.pool())
            .await?,
    )
}

/// The run number after the highest stored for `model` on the dataset
/// version (1 when it has none).
pub async fn next_run_number(db: &Db, dataset_id: i64, model: &str) -> Result<u32> {
    next_run_in(db, "run_scores", dataset_id, model).await
}

/// The run number after the highest of `model` on the dataset version in
/// `table` (a table with `dataset_id`, `model` and `run_number` columns).
pub(crate) async fn next_run_in(
    db: &Db,
    table: &'static str,
    dataset_id: i64,
    model: &str,
) -> Result<u32> {
    let highest: Option<i64> = sqlx::query_scalar(&format!(
        "SELECT MAX(run_number) FROM {table} WHERE dataset_id = $1 AND model = $2"
    ))
    .bind(dataset_id)
    .bind(model)
    .fetch_one(db.pool())
    .await?;
    Ok(u32::try_from(highest.unwrap_or(0))
        .unwrap_or(u32::MAX - 1)
        .saturating_add(1))
}

/// The runs scored on a dataset version in upload order.
pub async fn list(db: &Db, dataset_id: i64) -> Result<Vec<RunInfo>> {
    let rows: Vec<(i64, String, i64, Option<String>, i64, String)> = sqlx::query_as(
        "SELECT r.id, r.model, r.run_number, r.family, r.unavailable, r.created_at
         FROM run_scores s JOIN runs r ON r.id = s.run_id
         WHERE s.dataset_id = $1 ORDER BY r.id",
    )
    .bind(dataset_id)
    .fetch_all(db.pool())
    .await?;
    Ok(rows
        .into_iter()
        .map(
            |(id, model, run_number, family, unavailable, created_at)| RunInfo {
                id,
                model,
                run_number,
                family,
                unavailable,
                created_at,
            },
        )
        .collect())
}

/// The kept scores of one run on a version, with its entry key.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredScores {
    pub run_id: i64,
    pub entry_key: EntryKey,
    /// The benchmark's scores of the run, as JSON.
    pub scores: String,
}

/// Every run's entry key and scores on a dataset version, in upload order:
/// what the leaderboard summarises.
pub async fn scores(db: &Db, dataset_id: i64) -> Result<Vec<StoredScores>> {
    let rows: Vec<(i64, String, String)> = sqlx::query_as(
        "SELECT r.id, r.entry_key, s.scores FROM run_scores s JOIN runs r ON r.id = s.run_id
         WHERE s.dataset_id = $1 ORDER BY r.id",
    )
    .bind(dataset_id)
    .fetch_all(db.pool())
    .await?;
    stored_scores(rows)
}

/// [`scores`] of `model`'s runs only, in upload order: what one model's
/// entries on the leaderboard are summarised from (read again when that
/// model's generation, [`crate::generations::model_generations`], moves).
/// Empty when the model has no run there.
pub async fn scores_of_model(db: &Db, dataset_id: i64, model: &str) -> Result<Vec<StoredScores>> {
    let rows: Vec<(i64, String, String)> = sqlx::query_as(
        "SELECT r.id, r.entry_key, s.scores FROM run_scores s JOIN runs r ON r.id = s.run_id
         WHERE s.dataset_id = $1 AND s.model = $2 ORDER BY r.id",
    )
    .bind(dataset_id)
    .bind(model)
    .fetch_all(db.pool())
    .await?;
    stored_scores(rows)
}

fn stored_scores(rows: Vec<(i64, String, String)>) -> Result<Vec<StoredScores>> {
    rows.into_iter()
        .map(|(run_id, key, scores)| {
            Ok(StoredScores {
                run_id,
                entry_key: serde_json::from_str(&key).map_err(corrupt)?,
                scores,
            })
        })
        .collect()
}

/// One stored run with its entry key and items (in its benchmark's stored
/// form, which `Suite::read_stored` reads back).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRun {
    pub id: i64,
    pub model: String,
    pub run_number: i64,
    pub entry_key: EntryKey,
    pub items: String,
}

const STORED_RUN: &str = "SELECT r.id, r.model, r.run_number, r.entry_key, r.items
     FROM run_scores s JOIN runs r ON r.id = s.run_id";

type StoredRow = (i64, String, i64, String, String);

fn stored_runs(rows: Vec<StoredRow>) -> Result<Vec<StoredRun>> {
    rows.into_iter()
        .map(|(id, model, run_number, key, items)| {
            Ok(StoredRun {
                id,
                model,
                run_number,
                entry_key: serde_json::from_str(&key).map_err(corrupt)?,
                items,
            })
        })
        .collect()
}

/// The runs of `model` on a dataset version, by run number: what a
/// leaderboard row's drill-down shows. Empty when the model has no run there.
pub async fn entry_runs(db: &Db, dataset_id: i64, model: &str) -> Result<Vec<StoredRun>> {
    let rows: Vec<StoredRow> = sqlx::query_as(&format!(
        "{STORED_RUN} WHERE s.dataset_id = $1 AND s.model = $2 ORDER BY r.run_number, r.id"
    ))
    .bind(dataset_id)
    .bind(model)
    .fetch_all(db.pool())
    .await?;
    stored_runs(rows)
}

/// Every run scored on a dataset version with its items, in upload order
/// (the order [`scores`] gives).
pub async fn all_items(db: &Db, dataset_id: i64) -> Result<Vec<StoredRun>> {
    let rows: Vec<StoredRow> = sqlx::query_as(&format!(
        "{STORED_RUN} WHERE s.dataset_id = $1 ORDER BY r.id"
    ))
    .bind(dataset_id)
    .fetch_all(db.pool())
    .await?;
    stored_runs(rows)
}

/// The runs among `ids` scored on a dataset version, with their items, in
/// upload order (ids not scored there are not among them).
pub async fn items_of(db: &Db, dataset_id: i64, ids: &[i64]) -> Result<Vec<StoredRun>> {
    let mut runs = Vec::with_capacity(ids.len());
    for &id in ids {
        let rows: Vec<StoredRow> = sqlx::query_as(&format!(
            "{STORED_RUN} WHERE s.dataset_id = $1 AND r.id = $2"
        ))
        .bind(dataset_id)
        .bind(id)
        .fetch_all(db.pool())
        .await?;
        runs.extend(stored_runs(rows)?);
    }
    runs.sort_by_key(|r| r.id);
    Ok(runs)
}

/// [`all_items`] on a connection inside a transaction.
pub(crate) async fn all_items_on(
    conn: &mut AnyConnection,
    dataset_id: i64,
) -> Result<Vec<StoredRun>> {
    let rows: Vec<StoredRow> = sqlx::query_as(&format!(
        "{STORED_RUN} WHERE s.dataset_id = $1 ORDER BY r.id"
    ))
    .bind(dataset_id)
    .fetch_all(&mut *conn)
    .await?;
    stored_runs(rows)
}

/// One stored run of a model, with its entry key (its scores are the read
/// models': public figures leave out what is under blind review).
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRun {
    pub info: RunInfo,
    pub entry_key: EntryKey,
    /// The account that uploaded it, when known.
    pub uploaded_by: Option<String>,
}

/// The runs of `model` on a dataset version, by run number.
pub async fn model_runs(db: &Db, dataset_id: i64, model: &str) -> Result<Vec<ModelRun>> {
    type Row = (
        i64,
        String,
        i64,
        Option<String>,
        i64,
        String,
        String,
        Option<String>,
    );
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT r.id, r.model, r.run_number, r.family, r.unavailable, r.created_at,
                r.entry_key, u.name
         FROM run_scores s JOIN runs r ON r.id = s.run_id
         LEFT JOIN users u ON u.id = r.uploaded_by
         WHERE s.dataset_id = $1 AND s.model = $2 ORDER BY r.run_number, r.id",
    )
    .bind(dataset_id)
    .bind(model)
    .fetch_all(db.pool())
    .await?;
    rows.into_iter()
        .map(
            |(id, model, run_number, family, unavailable, created_at, key, by)| {
                Ok(ModelRun {
                    info: RunInfo {
                        id,
                        model,
                        run_number,
                        family,
                        unavailable,
                        created_at,
                    },
                    entry_key: serde_json::from_str(&key).map_err(corrupt)?,
                    uploaded_by: by,
                })
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use engine::benchmark::{LexPilot, Suite};

    use super::*;
    use crate::datasets::{import, ImportSource};

    async fn dataset(db: &Db) -> (i64, Vec<engine::lexpilot::dataset::Case>) {
        let cases =
            LexPilot::parse_dataset(&engine::lexpilot::synthetic::dataset_file(1)).expect("cases");
        let src = ImportSource {
            name: "d",
            source: "test",
            synthetic: true,
        };
        let id = import(db, src, &cases).await.expect("import").dataset().id;
        (id, cases)
    }

    fn new_run(cases: &[engine::lexpilot::dataset::Case], model: u32, run: u32) -> NewRun {
        let text = engine::lexpilot::synthetic::run_file(cases, model, run, 2);
        let parsed = LexPilot::parse_run(text.as_bytes(), cases).expect("a valid run");
        NewRun::of::<LexPilot>(&parsed, &LexPilot::score(&parsed, cases)).expect("new run")
    }

    #[tokio::test]
    async fn run_numbers_follow_the_stored_ones_and_every_store_bumps_the_generation() {
        let db = Db::open_for_test(None).await.expect("db");
        let (id, cases) = dataset(&db).await;
        let model = new_run(&cases, 0, 3).meta.model;
        assert_eq!(next_run_number(&db, id, &model).await.expect("n"), 1);
        let before = generation(&db).await.expect("generation");
        store_all(&db, id, &[new_run(&cases, 0, 3)], None, OnDuplicate::Refuse)
            .await
            .expect("stored");
        let after = generation(&db).await.expect("generation");
        assert!(after > before);
        assert_eq!(next_run_number(&db, id, &model).await.expect("n"), 4);
        assert_eq!(next_run_number(&db, id, "N").await.expect("n"), 1);

        // A refused duplicate changes nothing, the generation included.
        let again = store_all(&db, id, &[new_run(&cases, 0, 3)], None, OnDuplicate::Refuse).await;
        assert!(matches!(again, Err(DbError::Conflict(_))), "{again:?}");
        assert_eq!(generation(&db).await.expect("generation"), after);
        // A replacement is a new run in the old one's place. SQLite may give
        // it the old one's id (the newest row was deleted; PostgreSQL's
        // sequence never does), so the count and the newest id cannot tell
        // that anything changed; the generation can.
        let old = list(&db, id).await.expect("list")[0].id;
        store_all(
            &db,
            id,
            &[new_run(&cases, 0, 3)],
            None,
            OnDuplicate::Replace(Replacer::Admin),
        )
        .await
        .expect("replaced");
        let runs = list(&db, id).await.expect("list");
        assert_eq!(runs.len(), 1);
        if db.backend() == crate::Backend::Sqlite {
            assert_eq!(runs[0].id, old);
        }
        assert!(generation(&db).await.expect("generation") > after);
    }
}
