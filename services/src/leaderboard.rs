//! The leaderboard of a dataset version: the §5 score document of every stored
//! run, from the scores kept with each run.

use db::{Db, DbError};

/// The §5 score document over every stored run of `dataset`: the runs' kept
/// scores summarised per entry.
pub async fn document(
    db: &Db,
    dataset: &db::datasets::DatasetInfo,
) -> Result<engine::score::ScoreDocument, DbError> {
    let cases = db::cases::all(db, dataset.id).await?;
    let runs = db::runs::scores(db, dataset.id).await?;
    Ok(engine::score::summarise_runs(runs, &cases).with_dataset(dataset.name.clone()))
}
