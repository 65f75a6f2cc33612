//! Corrections of cases, kept as revisions. A correction is saved against the
//! revision its author started from: when someone else saved in between, it is
//! refused and the newer revision is returned, so nothing is overwritten
//! silently. A saved correction makes the next dataset version (every other
//! case unchanged) in the same transaction, and links the stored runs to it,
//! re-validated and re-scored against the corrected case by the caller's
//! [`Rescore`] (scoring is the engine's, never this crate's); a run is stored
//! once, whatever the number of versions that score it. A run the correction
//! invalidates (say, an LJP prediction for a claim that was removed) stays
//! on the old version only, and is reported.

use engine::lexpilot::dataset::{validate_case, Case};
use serde::{Deserialize, Serialize};

use sqlx::AnyConnection;

use crate::datasets::{DatasetInfo, ImportSource};
use crate::users::User;
use crate::{now, Db, DbError, Result};

/// Re-validates and re-scores a stored run (its items, in its benchmark's
/// stored form) against the cases of a new dataset version: its scores as
/// JSON, or `None` when it no longer validates.
pub type Rescore = dyn Fn(&str, &[Case]) -> Option<String> + Send + Sync;

/// One revision of a case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Revision {
    /// From 1 (as imported).
    pub revision: i64,
    pub case: Case,
    /// Who saved it (none for the imported original).
    pub author: Option<String>,
    pub reason: String,
    /// The dataset version this revision is part of.
    pub dataset_version: i64,
    pub created_at: String,
}

/// What saving a correction did.
#[derive(Debug, Clone, PartialEq)]
pub enum CorrectionOutcome {
    /// Saved as `revision`, in dataset version `dataset`.
    Saved {
        revision: i64,
        dataset: DatasetInfo,
        /// Runs re-scored on the new version.
        runs_carried: usize,
        /// Runs (model and run number) the corrected case invalidates.
        runs_dropped: Vec<String>,
    },
    /// Someone saved `current` after the revision the author started from.
    Stale { current: Box<Revision> },
}

type RevisionRow = (i64, String, Option<String>, String, i64, String);

fn revision(
    (revision, data, author, reason, dataset_version, created_at): RevisionRow,
) -> Result<Revision> {
    Ok(Revision {
        revision,
        case: serde_json::from_str(&data)
            .map_err(|e| DbError::Corrupt(format!("case revision {revision}: {e}")))?,
        author,
        reason,
        dataset_version,
        created_at,
    })
}

const SELECT: &str = "SELECT r.revision, r.data, u.name, r.reason, r.dataset_version, r.created_at
     FROM case_revisions r LEFT JOIN users u ON u.id = r.author_id
     WHERE r.dataset_name = $1 AND r.case_id = $2";

/// Every revision of a case, oldest first; empty when it was never corrected
/// (then the imported case is revision 1).
pub async fn history(db: &Db, dataset_name: &str, case_id: &str) -> Result<Vec<Revision>> {
    let mut conn = db.pool().acquire().await?;
    history_on(&mut conn, dataset_name, case_id).await
}

pub(crate) async fn history_on(
    conn: &mut AnyConnection,
    dataset_name: &str,
    case_id: &str,
) -> Result<Vec<Revision>> {
    let rows: Vec<RevisionRow> = sqlx::query_as(&format!("{SELECT} ORDER BY r.revision"))
        .bind(dataset_name)
        .bind(case_id)
        .fetch_all(&mut *conn)
        .await?;
    rows.into_iter().map(revision).collect()
}

/// The revision number of a case as it stands (1 when never corrected).
pub async fn current_revision(db: &Db, dataset_name: &str, case_id: &str) -> Result<i64> {
    let mut conn = db.pool().acquire().await?;
    current_revision_on(&mut conn, dataset_name, case_id).await
}

pub(crate) async fn current_revision_on(
    conn: &mut AnyConnection,
    dataset_name: &str,
    case_id: &str,
) -> Result<i64> {
    let n: Option<i64> = sqlx::query_scalar(
        "SELECT MAX(revision) FROM case_revisions WHERE dataset_name = $1 AND case_id = $2",
    )
    .bind(dataset_name)
    .bind(case_id)
    .fetch_one(&mut *conn)
    .await?;
    Ok(n.unwrap_or(1))
}

/// Saves `corrected` (a case of dataset `dataset_name`) as the next revision,
/// if the case still stands at `base_revision`; see the module documentation.
/// `reason` must not be blank; the corrected case must be valid (§2) and keep
/// its id. The new dataset version is built from the newest version of the
/// name as it stands when the write begins, so two corrections of different
/// cases saved at once both survive.
pub async fn correct_case(
    db: &Db,
    dataset_name: &str,
    corrected: &Case,
    base_revision: i64,
    author: &User,
    reason: &str,
    rescore: &Rescore,
) -> Result<CorrectionOutcome> {
    check_correction(corrected, reason)?;
    let mut tx = crate::begin_write(db).await?;
    let saved = match correct_in(
        &mut tx,
        db,
        Correcting {
            dataset_name,
            corrected,
            base_revision,
            author,
            reason,
        },
        rescore,
    )
    .await?
    {
        Prepared::Saved(saved) => saved,
        Prepared::Stale(current) => return Ok(CorrectionOutcome::Stale { current }),
    };
    tx.commit().await.map_err(unique_is_conflict)?;
    saved.announce(db).await
}

/// The checks of a correction that need no database.
pub(crate) fn check_correction(corrected: &Case, reason: &str) -> Result<()> {
    if reason.trim().is_empty() {
        return Err(DbError::Invalid("give a reason for the correction".into()));
    }
    if let Some(e) = validate_case(corrected, 1).first() {
        let field = if e.field.is_empty() { "case" } else { &e.field };
        return Err(DbError::Invalid(format!("field {field}: {}", e.message)));
    }
    Ok(())
}

fn unique_is_conflict(e: sqlx::Error) -> DbError {
    match e {
        sqlx::Error::Database(d) if d.is_unique_violation() => {
            DbError::Conflict("someone saved this case at the same moment; reload it".into())
        }
        other => other.into(),
    }
}

/// A correction written in a transaction that is not committed yet.
#[derive(Debug)]
pub(crate) enum Prepared {
    Saved(Saved),
    /// The case stands at a newer revision than the base: nothing was written.
    Stale(Box<Revision>),
}

/// What a prepared correction wrote; [`Saved::announce`] after the commit.
#[derive(Debug)]
pub(crate) struct Saved {
    revision: i64,
    dataset_id: i64,
    case_id: String,
    runs_carried: usize,
    runs_dropped: Vec<String>,
}

impl Saved {
    /// Tells the change feed, and gives the outcome with the new version.
    pub(crate) async fn announce(self, db: &Db) -> Result<CorrectionOutcome> {
        let dataset = crate::datasets::by_id(db, self.dataset_id).await?;
        db.notify(crate::events::Change::CaseCorrected {
            dataset_id: self.dataset_id,
            case_id: self.case_id,
        })
        .await;
        Ok(CorrectionOutcome::Saved {
            revision: self.revision,
            dataset,
            runs_carried: self.runs_carried,
            runs_dropped: self.runs_dropped,
        })
    }
}

/// The newest version of the dataset `name`, read on `conn`.
pub(crate) async fn newest_version(conn: &mut AnyConnection, name: &str) -> Result<DatasetInfo> {
    sqlx::query_as(&format!(
        "SELECT {} FROM datasets WHERE name = $1 ORDER BY version DESC LIMIT 1",
        crate::datasets::COLUMNS
    ))
    .bind(name)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(|| DbError::NotFound(format!("no dataset named {name}")))
}

/// What a correction saves: `corrected` as the next revision of its case in
/// dataset `dataset_name`, if the case stands at `base_revision`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Correcting<'a> {
    pub dataset_name: &'a str,
    pub corrected: &'a Case,
    pub base_revision: i64,
    pub author: &'a User,
    pub reason: &'a str,
}

/// The correction written on `tx`, which must hold the write lock from its
/// start ([`crate::begin_write`]) so that what it reads cannot change before
/// it commits. [`check_correction`] first.
pub(crate) async fn correct_in(
    tx: &mut AnyConnection,
    db: &Db,
    correcting: Correcting<'_>,
    rescore: &Rescore,
) -> Result<Prepared> {
    let Correcting {
        dataset_name,
        corrected,
        base_revision,
        author,
        reason,
    } = correcting;
    let dataset = newest_version(tx, dataset_name).await?;
    let cases = crate::cases::all_on(tx, db, dataset.id).await?;
    let Some(position) = cases.iter().position(|c| c.case_id == corrected.case_id) else {
        return Err(DbError::NotFound(format!(
            "no case {} in dataset {} version {}",
            corrected.case_id, dataset.name, dataset.version
        )));
    };
    let current = current_revision_on(tx, &dataset.name, &corrected.case_id).await?;
    if current != base_revision {
        let newest = history_on(tx, &dataset.name, &corrected.case_id)
            .await?
            .pop()
            .ok_or_else(|| DbError::Corrupt("a revision number without its row".into()))?;
        return Ok(Prepared::Stale(Box::new(newest)));
    }
    if cases[position] == *corrected {
        return Err(DbError::Invalid("the correction changes nothing".into()));
    }
    let mut next_cases = cases.to_vec();
    next_cases[position] = corrected.clone();

    let src = ImportSource {
        name: &dataset.name,
        source: &format!("correction of {} by {}", corrected.case_id, author.name),
        synthetic: dataset.synthetic,
    };
    let new_id =
        match crate::datasets::import_in(tx, src, &next_cases).await? {
            Err(id) => id,
            // The corrected content is an earlier version's: make it current again.
            Ok(_) => return Err(DbError::Conflict(
                "this correction restores an earlier dataset version exactly; nothing new to save"
                    .into(),
            )),
        };
    let new_version: i64 = sqlx::query_scalar("SELECT version FROM datasets WHERE id = $1")
        .bind(new_id)
        .fetch_one(&mut *tx)
        .await?;
    if current == 1 {
        insert_revision(
            tx,
            &dataset,
            &cases[position],
            1,
            None,
            "as imported",
            dataset.version,
        )
        .await?;
    }
    insert_revision(
        tx,
        &dataset,
        corrected,
        current + 1,
        Some(author.id),
        reason.trim(),
        new_version,
    )
    .await?;
    let (runs_carried, runs_dropped) =
        link_runs(tx, dataset.id, new_id, &next_cases, rescore).await?;
    Ok(Prepared::Saved(Saved {
        revision: current + 1,
        dataset_id: new_id,
        case_id: corrected.case_id.clone(),
        runs_carried,
        runs_dropped,
    }))
}

async fn insert_revision(
    tx: &mut AnyConnection,
    dataset: &DatasetInfo,
    case: &Case,
    revision: i64,
    author: Option<i64>,
    reason: &str,
    dataset_version: i64,
) -> Result<()> {
    let data = serde_json::to_string(case).map_err(|e| DbError::Invalid(e.to_string()))?;
    sqlx::query(
        "INSERT INTO case_revisions (dataset_name, case_id, revision, data, author_id, reason, dataset_version, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&dataset.name)
    .bind(&case.case_id)
    .bind(revision)
    .bind(data)
    .bind(author)
    .bind(reason)
    .bind(dataset_version)
    .bind(now())
    .execute(&mut *tx)
    .await
    .map_err(|e| match e {
        sqlx::Error::Database(d) if d.is_unique_violation() => DbError::Conflict(
            "someone saved this case at the same moment; reload it to see their version".into(),
        ),
        other => other.into(),
    })?;
    Ok(())
}

/// Links the runs scored on version `from` to version `to`, each re-scored
/// by `rescore` against `cases` (the new version's); a run that no longer
/// validates stays on `from` only and is named in the second value.
async fn link_runs(
    tx: &mut AnyConnection,
    from: i64,
    to: i64,
    cases: &[Case],
    rescore: &Rescore,
) -> Result<(usize, Vec<String>)> {
    let mut linked = 0;
    let mut dropped = Vec::new();
    for run in crate::runs::all_items_on(tx, from).await? {
        match rescore(&run.items, cases) {
            Some(scores) => {
                crate::runs::link(tx, run.id, to, &run.model, run.run_number, &scores).await?;
                linked += 1;
            }
            None => dropped.push(format!("{} run {}", run.model, run.run_number)),
        }
    }
    crate::runs::bump_generation(tx).await?;
    crate::generations::bump_version(tx, to).await?;
    Ok((linked, dropped))
}
