//! Run uploads from the browser: check files (a dry run: validation report or
//! scores), then store them all in one transaction. Researchers and admins
//! only, checked here.

use leptos::prelude::*;
use leptos::server_fn;

use crate::types::{RunFileReport, UploadFile};

#[server(prefix = "/sfn", input = server_fn::codec::Json)]
pub async fn check_runs(files: Vec<UploadFile>) -> Result<Vec<RunFileReport>, ServerFnError> {
    use crate::ssr::{current_dataset, fail, require, state};
    use crate::types::RunSummary;
    use engine::lexpilot::score::Metric;
    use engine::vocab::LjpSetup;

    require(engine::accounts::Permission::UploadRun).await?;
    let state = state()?;
    let dataset = current_dataset(&state.db).await?;
    let checked = services::ingest::check::<engine::benchmark::LexPilot>(
        &state.db,
        &dataset,
        &run_files(files),
    )
    .await
    .map_err(fail)?;
    let mut reports = Vec::with_capacity(checked.len());
    for file in checked {
        let report = match file.outcome {
            Err(errors) => RunFileReport {
                name: file.name,
                errors: errors.0,
                summary: None,
            },
            Ok(scored) => {
                let (run, scores) = (scored.run, scored.scores);
                let already_stored =
                    db::runs::exists(&state.db, dataset.id, &run.header.model, run.header.run)
                        .await
                        .map_err(fail)?;
                RunFileReport {
                    name: file.name,
                    errors: Vec::new(),
                    summary: Some(RunSummary {
                        model: run.header.model.clone(),
                        run: run.header.run,
                        lca_macro_f1: scores.metric(Metric::LcaMacroF1, None),
                        dcg_accuracy: scores.metric(Metric::DcgAccuracy, None),
                        ljp_qwk: LjpSetup::ALL
                            .into_iter()
                            .filter(|s| scores.ljp.contains_key(s))
                            .map(|s| (s, scores.metric(Metric::LjpQwk(s), None)))
                            .collect(),
                        unavailable: run.unavailable().total(),
                        already_stored,
                    }),
                }
            }
        };
        reports.push(report);
    }
    Ok(reports)
}

/// Stores every file, or none if any is invalid or refused.
#[server(prefix = "/sfn", input = server_fn::codec::Json)]
pub async fn store_runs(files: Vec<UploadFile>, replace: bool) -> Result<usize, ServerFnError> {
    use crate::ssr::{current_dataset, fail, require, state};
    use db::runs::OnDuplicate;

    let user = require(engine::accounts::Permission::UploadRun).await?;
    let state = state()?;
    let dataset = current_dataset(&state.db).await?;
    let on_duplicate = if replace {
        OnDuplicate::Replace
    } else {
        OnDuplicate::Refuse
    };
    let stored = services::ingest::store(
        &state.db,
        &dataset,
        &run_files(files),
        Some(user.id),
        on_duplicate,
    )
    .await
    .map_err(fail)?;
    Ok(stored.len())
}

/// The uploaded files as the ingest takes them.
#[cfg(feature = "ssr")]
fn run_files(files: Vec<UploadFile>) -> Vec<services::ingest::RunFile> {
    files
        .into_iter()
        .map(|f| services::ingest::RunFile::new(f.name, f.text))
        .collect()
}
