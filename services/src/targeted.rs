//! Results of the Targeted vs Off-target experiment (Table 4) from result
//! files to storage, for the CLI and browser jobs: each file parsed and
//! validated against the LexPilot dataset version
//! ([`engine::lexpilot::targeted::parse_targeted`]), scored by the engine,
//! and all stored in one transaction (`db::targeted::store_all`), or none.
//! The read side is [`crate::read`]'s snapshot (the paper page's Table 4).

use db::datasets::DatasetInfo;
use db::runs::OnDuplicate;
use db::targeted::{NewTargetedRun, TargetedRunInfo};
use db::Db;
use engine::benchmark::{Benchmark, LexPilot};
use engine::core::errors::DatasetErrors;
use engine::lexpilot::targeted::{parse_targeted, score_targeted, TargetedScores};

use crate::error::{Error, Result};
use crate::ingest::{blocking, hosted, Hosted, RunFile};

/// Checks every result file against LexPilot version `dataset` and stores
/// them all, or nothing: an invalid file is [`Error::InvalidFile`] (422), a
/// stored model and run [`Error::Conflict`] (409) unless replacing.
pub async fn store(
    db: &Db,
    dataset: &DatasetInfo,
    files: &[RunFile],
    uploaded_by: Option<i64>,
    on_duplicate: OnDuplicate,
) -> Result<Vec<(TargetedRunInfo, TargetedScores)>> {
    if hosted(dataset)? != Benchmark::Lexpilot {
        return Err(Error::Invalid(format!(
            "dataset {} is a {} dataset; the Targeted vs Off-target experiment is LexPilot's",
            dataset.name, dataset.benchmark
        )));
    }
    let cases = LexPilot::cases(db, dataset.id).await?;
    let files = files.to_vec();
    let scored = blocking(move || {
        files
            .iter()
            .map(|f| {
                let text = String::from_utf8_lossy(&f.bytes);
                let run = parse_targeted(&text, &cases)
                    .map_err(|errors| Error::InvalidFile(f.name.clone(), DatasetErrors(errors)))?;
                let scores = score_targeted(&run, &cases);
                Ok((run, scores))
            })
            .collect::<Result<Vec<_>>>()
    })
    .await??;
    let new = scored
        .iter()
        .map(|(run, scores)| {
            Ok(NewTargetedRun {
                model: run.header.model.clone(),
                run: run.header.run,
                entry_key: run.header.entry_key(),
                items: run.to_jsonl(),
                scores: serde_json::to_string(scores).map_err(Error::internal)?,
                created_at: run.header.created_at.clone(),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let stored = db::targeted::store_all(db, dataset.id, &new, uploaded_by, on_duplicate).await?;
    Ok(stored
        .into_iter()
        .zip(scored.into_iter().map(|(_, s)| s))
        .collect())
}

/// The kept scores of every result on version `dataset_id`, in store order.
pub async fn scores(db: &Db, dataset_id: i64) -> Result<Vec<TargetedScores>> {
    db::targeted::scores(db, dataset_id)
        .await?
        .iter()
        .map(|s| {
            serde_json::from_str(s)
                .map_err(|e| Error::internal(format!("stored Targeted vs Off-target scores: {e}")))
        })
        .collect()
}
