//! Runs between the wire and the database: validate a run file against the
//! dataset with the engine, score it, store it in one transaction; and the
//! leaderboard document from the stored scores.

use db::datasets::DatasetInfo;
use db::runs::{OnDuplicate, RunInfo};
use db::Db;
use engine::score::RunScores;

use crate::error::ApiError;

/// Validates `file` (a run file's bytes) against `dataset`, scores it and stores it.
/// Nothing is stored unless the whole file is valid.
pub async fn store(
    db: &Db,
    dataset: &DatasetInfo,
    file: &[u8],
    uploaded_by: Option<i64>,
    replace: bool,
) -> Result<(RunInfo, RunScores), ApiError> {
    let cases = db::cases::all(db, dataset.id).await?;
    let run = engine::run::parse_run_reader(file, &cases)
        .map_err(|e| ApiError::Service(services::Error::InvalidFile(e)))?;
    let scores = engine::score::score_run(&run, &cases);
    let on_duplicate = if replace {
        OnDuplicate::Replace
    } else {
        OnDuplicate::Refuse
    };
    let info = db::runs::store(db, dataset.id, &run, &scores, uploaded_by, on_duplicate).await?;
    Ok((info, scores))
}
