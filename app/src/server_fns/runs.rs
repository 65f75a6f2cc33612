//! Run uploads from the browser: check files (a dry run: validation report or
//! scores), then store them all in one transaction. Researchers and admins
//! only, checked here.

use leptos::prelude::*;
use leptos::server_fn;

use crate::types::{RunFileReport, UploadFile};

#[server(prefix = "/sfn", input = server_fn::codec::Json)]
pub async fn check_runs(files: Vec<UploadFile>) -> Result<Vec<RunFileReport>, ServerFnError> {
    use crate::ssr::{current_dataset, db, fail, require};
    use crate::types::RunSummary;
    use engine::score::Metric;
    use engine::vocab::LjpSetup;

    require(engine::accounts::Permission::UploadRun).await?;
    let db = db()?;
    let dataset = current_dataset(&db).await?;
    let cases = db::cases::all(&db, dataset.id).await.map_err(fail)?;
    let mut reports = Vec::with_capacity(files.len());
    for file in files {
        let report = match engine::run::parse_run(&file.text, &cases) {
            Err(errors) => RunFileReport {
                name: file.name,
                errors: errors.0,
                summary: None,
            },
            Ok(run) => {
                let scores = engine::score::score_run(&run, &cases);
                let already_stored =
                    db::runs::exists(&db, dataset.id, &run.header.model, run.header.run)
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
    use crate::ssr::{current_dataset, db, fail, require, set_status};
    use db::runs::OnDuplicate;

    let user = require(engine::accounts::Permission::UploadRun).await?;
    let db = db()?;
    let dataset = current_dataset(&db).await?;
    let cases = db::cases::all(&db, dataset.id).await.map_err(fail)?;
    let mut runs = Vec::with_capacity(files.len());
    for file in &files {
        match engine::run::parse_run(&file.text, &cases) {
            Ok(run) => {
                let scores = engine::score::score_run(&run, &cases);
                runs.push((run, scores));
            }
            Err(errors) => {
                set_status(axum::http::StatusCode::UNPROCESSABLE_ENTITY);
                return Err(ServerFnError::new(format!(
                    "{} is not a valid run file ({} errors); nothing was stored",
                    file.name,
                    errors.0.len()
                )));
            }
        }
    }
    let batch: Vec<_> = runs.iter().map(|(r, s)| (r, s)).collect();
    let on_duplicate = if replace {
        OnDuplicate::Replace
    } else {
        OnDuplicate::Refuse
    };
    let stored = db::runs::store_all(&db, dataset.id, &batch, Some(user.id), on_duplicate)
        .await
        .map_err(fail)?;
    Ok(stored.len())
}
