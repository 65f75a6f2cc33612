//! Run uploads from the browser: check files against the current dataset of
//! the benchmark the page names (a dry run: validation report or scores),
//! then store them all in one transaction. Researchers and admins only,
//! checked here. evalscope archives go to `POST /api/evalscope`.

use leptos::prelude::*;
use leptos::server_fn;

use engine::benchmark::Benchmark;

use crate::types::{RunFileReport, UploadFile};

/// `benchmark` names the dataset's benchmark (LexPilot when absent);
/// `model` and `family`, when given, take the place of every file's header
/// fields ([`engine::benchmark::HeaderOverride`]).
#[server(prefix = "/sfn", input = server_fn::codec::Json)]
pub async fn check_runs(
    files: Vec<UploadFile>,
    benchmark: Option<Benchmark>,
    model: Option<String>,
    family: Option<String>,
) -> Result<Vec<RunFileReport>, ServerFnError> {
    use engine::benchmark::{LexPilot, Suite};
    use engine::dlawbench::DLawBench;
    use engine::lexpilot::score::Metric;
    use engine::plawbench::PLawBench;
    use engine::vocab::LjpSetup;

    use crate::ssr::{current_dataset_of, fail, require, state};
    use crate::types::{DlawRunSummary, PlawRunSummary, RunSummary};

    require(engine::accounts::Permission::UploadRun).await?;
    let benchmark = benchmark.unwrap_or(Benchmark::Lexpilot);
    let files = run_files(files, model, family)?;
    let state = state()?;
    let dataset = current_dataset_of(&state.db, benchmark).await?;
    let stored = |model: String, run: u32| {
        let db = state.db.clone();
        async move {
            db::runs::exists(&db, dataset.id, &model, run)
                .await
                .map_err(fail)
        }
    };
    let failed = |name: String, errors: engine::core::errors::DatasetErrors| RunFileReport {
        name,
        errors: errors.0,
        summary: None,
        plaw: None,
        dlaw: None,
    };
    let mut reports = Vec::with_capacity(files.len());
    match benchmark {
        Benchmark::Plawbench => {
            use engine::plawbench::score::Metric as M;
            let checked = services::ingest::check::<PLawBench>(&state.db, &dataset, &files)
                .await
                .map_err(fail)?;
            for file in checked {
                reports.push(match file.outcome {
                    Err(errors) => failed(file.name, errors),
                    Ok(scored) => {
                        let (run, scores) = (scored.run, scored.scores);
                        let meta = PLawBench::meta(&run);
                        RunFileReport {
                            name: file.name,
                            errors: Vec::new(),
                            summary: None,
                            plaw: Some(PlawRunSummary {
                                already_stored: stored(meta.model.clone(), meta.run).await?,
                                model: meta.model,
                                run: meta.run,
                                overall: scores.metric(M::Overall),
                                task1: scores.metric(M::Task1),
                                task2: scores.metric(M::Task2),
                                task3: scores.metric(M::Task3),
                                unavailable: meta.unavailable,
                                truncated: scores.tasks.values().map(|t| t.truncated).sum(),
                            }),
                            dlaw: None,
                        }
                    }
                });
            }
        }
        Benchmark::Lexpilot => {
            let checked = services::ingest::check::<LexPilot>(&state.db, &dataset, &files)
                .await
                .map_err(fail)?;
            for file in checked {
                reports.push(match file.outcome {
                    Err(errors) => failed(file.name, errors),
                    Ok(scored) => {
                        let (run, scores) = (scored.run, scored.scores);
                        RunFileReport {
                            name: file.name,
                            errors: Vec::new(),
                            summary: Some(RunSummary {
                                already_stored: stored(run.header.model.clone(), run.header.run)
                                    .await?,
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
                            }),
                            plaw: None,
                            dlaw: None,
                        }
                    }
                });
            }
        }
        Benchmark::Dlawbench => {
            use engine::dlawbench::score::Metric as M;
            let checked = services::ingest::check::<DLawBench>(&state.db, &dataset, &files)
                .await
                .map_err(fail)?;
            for file in checked {
                reports.push(match file.outcome {
                    Err(errors) => failed(file.name, errors),
                    Ok(scored) => {
                        let (run, scores) = (scored.run, scored.scores);
                        let meta = DLawBench::meta(&run);
                        let overall = |m: M| {
                            scores
                                .null_as_zero
                                .overall
                                .as_ref()
                                .and_then(|o| o.get(&m).copied().flatten())
                        };
                        RunFileReport {
                            name: file.name,
                            errors: Vec::new(),
                            summary: None,
                            plaw: None,
                            dlaw: Some(DlawRunSummary {
                                already_stored: stored(meta.model.clone(), meta.run).await?,
                                model: meta.model,
                                run: meta.run,
                                sessions: scores.counts.sessions,
                                styles: scores.styles.len(),
                                elicitation: overall(M::Elicitation),
                                resolution: overall(M::Resolution),
                                fidelity: overall(M::Fidelity),
                                failures: scores.counts.failed(),
                                unavailable: meta.unavailable,
                            }),
                        }
                    }
                });
            }
        }
    }
    given_twice(&state.db, &dataset, &mut reports).await?;
    Ok(reports)
}

/// The store's own check of the batch, run on the valid files (issue 43,
/// point 3): a file giving the model and run number of an earlier file of
/// the same upload is refused as the store refuses it ("model M run N is
/// given twice"), so the check never says yes to what the store says no to.
/// A run stored already stays a badge: replacement decides it.
#[cfg(feature = "ssr")]
async fn given_twice(
    db: &db::Db,
    dataset: &db::datasets::DatasetInfo,
    reports: &mut [RunFileReport],
) -> Result<(), ServerFnError> {
    let valid: Vec<(usize, (String, u32))> = reports
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let key = match (&r.summary, &r.plaw, &r.dlaw) {
                (Some(s), _, _) => (s.model.clone(), s.run),
                (_, Some(p), _) => (p.model.clone(), p.run),
                (_, _, Some(d)) => (d.model.clone(), d.run),
                _ => return None,
            };
            Some((i, key))
        })
        .collect();
    let keys: Vec<(String, u32)> = valid.iter().map(|(_, k)| k.clone()).collect();
    let plan = db::runs::plan_all(db, dataset.id, &keys, db::runs::OnDuplicate::Refuse)
        .await
        .map_err(crate::ssr::fail)?;
    for ((index, _), planned) in valid.iter().zip(&plan) {
        if planned.disposition != db::runs::Disposition::GivenTwice {
            continue;
        }
        let Some(refused) = planned.refusal() else {
            continue;
        };
        let report = &mut reports[*index];
        report.summary = None;
        report.plaw = None;
        report.dlaw = None;
        report.errors.push(engine::core::errors::DatasetError {
            line: 1,
            case_id: None,
            field: "run".to_owned(),
            message: format!(
                "{}: an earlier file of this upload has the same model and run number",
                services::Error::from(refused)
            ),
        });
    }
    Ok(())
}

/// Stores every file, or none if any is invalid or refused.
#[server(prefix = "/sfn", input = server_fn::codec::Json)]
pub async fn store_runs(
    files: Vec<UploadFile>,
    replace: bool,
    benchmark: Option<Benchmark>,
    model: Option<String>,
    family: Option<String>,
) -> Result<usize, ServerFnError> {
    use crate::ssr::{current_dataset_of, fail, require, state};
    use db::runs::OnDuplicate;

    let user = require(engine::accounts::Permission::UploadRun).await?;
    let files = run_files(files, model, family)?;
    let state = state()?;
    let dataset = current_dataset_of(&state.db, benchmark.unwrap_or(Benchmark::Lexpilot)).await?;
    let on_duplicate =
        OnDuplicate::replacing(replace, engine::accounts::Replacer::of(user.id, user.role));
    let stored = services::ingest::store(&state.db, &dataset, &files, Some(user.id), on_duplicate)
        .await
        .map_err(fail)?;
    Ok(stored.len())
}

/// The uploaded files as the ingest takes them, with the model and family
/// given beside them in their headers (400 for a value the header would
/// refuse).
#[cfg(feature = "ssr")]
fn run_files(
    files: Vec<UploadFile>,
    model: Option<String>,
    family: Option<String>,
) -> Result<Vec<services::ingest::RunFile>, ServerFnError> {
    let changes = engine::benchmark::HeaderOverride::parse(model.as_deref(), family.as_deref())
        .map_err(|e| crate::ssr::fail(services::Error::Invalid(e)))?;
    Ok(files
        .into_iter()
        .map(|f| services::ingest::RunFile::new(f.name, f.text).with_header(&changes))
        .collect())
}
