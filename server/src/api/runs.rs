//! `POST /api/runs` (store one run file, the body; `?replace=true` to overwrite
//! a stored run of the same model and run number; `?benchmark=` names the
//! benchmark whose current dataset it is for, else the file's header does,
//! else LexPilot; `?model=` and `?family=` take the place of the header's
//! fields, checked as they are; a refused file answers 422 with every error
//! in `errors` and the same errors collapsed, one string per problem, in
//! `summary`) and `GET /api/leaderboard` (the score document of the
//! current dataset of `?benchmark=`, LexPilot's by default: formats.md §5,
//! plawbench.md §B4.4 or dlawbench.md §A4.7) and its exports.
//!
//! The figures leave out the judge decisions under blind review except for
//! an admin ([`services::read::Sight`]); when they leave some out, the
//! response says how many in [`super::LEFT_OUT_HEADER`] and the score
//! document also in its key [`super::LEFT_OUT_KEY`].

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use db::runs::OnDuplicate;
use engine::accounts::Permission;
use engine::lexpilot::paper::Figure4bModels;
use engine::lexpilot::score::ScoreDocument;
use serde::{Deserialize, Serialize};
use services::ingest::RunFile;

use engine::benchmark::Benchmark;

use super::{benchmark_param, current_dataset, current_dataset_of, sight, with_left_out};
use crate::auth::SignedIn;
use crate::error::ApiError;
use crate::AppState;

/// Largest run file accepted (a 432-case run with full responses is a few MiB).
pub const MAX_RUN_BYTES: usize = 32 * 1024 * 1024;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/runs", post(upload))
        .route("/leaderboard", get(leaderboard))
        .route("/leaderboard/export", get(export))
}

#[derive(Debug, Default, Deserialize)]
pub struct UploadQuery {
    #[serde(default)]
    replace: bool,
    benchmark: Option<String>,
    /// Takes the place of the header's `model` (a name, as there).
    model: Option<String>,
    /// Takes the place of the header's `family` (`legal`, `open`, `closed`).
    family: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct BenchmarkQuery {
    benchmark: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct UploadResponse {
    pub dataset: String,
    pub dataset_version: i64,
    pub run: db::runs::RunInfo,
    /// The run's scores (formats.md §4, as `score --json` gives per run).
    pub scores: serde_json::Value,
}

async fn upload(
    State(state): State<AppState>,
    user: SignedIn,
    Query(query): Query<UploadQuery>,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<UploadResponse>), ApiError> {
    let user = user.require(Permission::UploadRun)?;
    let body = body.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge(format!(
            "the run file is larger than {} MiB",
            MAX_RUN_BYTES / (1024 * 1024)
        )),
        _ => ApiError::bad_request(format!("cannot read the request body: {e}")),
    })?;
    let benchmark = benchmark_param(query.benchmark.as_deref())?
        .or_else(|| Benchmark::declared(&body).filter(|b| b.hosted()))
        .unwrap_or(Benchmark::Lexpilot);
    let dataset = current_dataset_of(&state, benchmark).await?;
    let on_duplicate = OnDuplicate::replacing(
        query.replace,
        engine::accounts::Replacer::of(user.id, user.role),
    );
    let changes =
        engine::benchmark::HeaderOverride::parse(query.model.as_deref(), query.family.as_deref())
            .map_err(|e| ApiError::bad_request(format!("query parameter {e}")))?;
    let file = RunFile::new("the request body", body.to_vec()).with_header(&changes);
    let mut stored =
        services::ingest::store(&state.db, &dataset, &[file], Some(user.id), on_duplicate).await?;
    let (run, scores) = stored
        .pop()
        .ok_or_else(|| ApiError::internal("a store returned no run"))?;
    Ok((
        StatusCode::CREATED,
        Json(UploadResponse {
            dataset: dataset.name,
            dataset_version: dataset.version,
            run,
            scores,
        }),
    ))
}

async fn leaderboard(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    Query(query): Query<BenchmarkQuery>,
) -> Result<axum::response::Response, ApiError> {
    let benchmark = benchmark_param(query.benchmark.as_deref())?.unwrap_or(Benchmark::Lexpilot);
    let sight = sight(&state, &headers).await?;
    let (document, left_out) = match benchmark {
        Benchmark::Plawbench => {
            let dataset = current_dataset_of(&state, Benchmark::Plawbench).await?;
            let snapshot = state.read.plaw_snapshot(&state.db, &dataset, sight).await?;
            (document_json(&snapshot.document)?, snapshot.left_out)
        }
        Benchmark::Dlawbench => {
            let dataset = current_dataset_of(&state, Benchmark::Dlawbench).await?;
            let snapshot = state.read.dlaw_snapshot(&state.db, &dataset, sight).await?;
            (document_json(&snapshot.document)?, snapshot.left_out)
        }
        Benchmark::Lexpilot => {
            let dataset = current_dataset(&state).await?;
            let snapshot = state.read.snapshot(&state.db, &dataset, sight).await?;
            let doc: &ScoreDocument = &snapshot.document;
            (document_json(doc)?, snapshot.left_out)
        }
    };
    Ok(left_out_document(document, left_out))
}

fn document_json(document: &impl Serialize) -> Result<serde_json::Value, ApiError> {
    serde_json::to_value(document).map_err(ApiError::internal)
}

/// A score document as the response, saying how many decisions under
/// blind review it leaves out when it leaves some out.
fn left_out_document(mut document: serde_json::Value, left_out: usize) -> axum::response::Response {
    use axum::response::IntoResponse;
    if left_out > 0 {
        if let Some(fields) = document.as_object_mut() {
            fields.insert(super::LEFT_OUT_KEY.to_owned(), left_out.into());
        }
    }
    with_left_out(Json(document).into_response(), left_out)
}

#[derive(Debug, Default, Deserialize)]
pub struct ExportQuery {
    benchmark: Option<String>,
    /// PLawBench: `official` (the ranking, the default) or `categories`;
    /// DLawBench: `main` (the default) or `domains`.
    view: Option<String>,
    /// DLawBench: `null_as_zero` (the default) or `valid_only`.
    scores: Option<String>,
    /// DLawBench: `cn` or `us` for that jurisdiction's table.
    jurisdiction: Option<String>,
    task: Option<String>,
    setup: Option<String>,
    sort: Option<String>,
    format: Option<String>,
    /// LexPilot: one of the paper's other tables by name (`table_3`,
    /// `table_15`, `table_16`, `table_17`, `figure_3`, `figure_3_association`,
    /// `figure_4a`, `figure_4b`, `figure_4c`) instead of a leaderboard view.
    paper: Option<String>,
    /// LexPilot paper: the entries Figure 4 (b) averages over, `closed`
    /// (the default, as the paper) or `all`.
    figure_4b: Option<String>,
}

/// One leaderboard table (the page's view) as CSV, JSON or LaTeX.
async fn export(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    Query(q): Query<ExportQuery>,
) -> Result<axum::response::Response, ApiError> {
    use engine::lexpilot::leaderboard::{build_table, caption, to_csv, to_latex, View};

    let format = q.format.clone().unwrap_or_else(|| "csv".to_owned());
    if !matches!(format.as_str(), "csv" | "json" | "latex") {
        return Err(ApiError::bad_request(format!(
            "query parameter format: {format:?} is not valid; expected csv, json or latex"
        )));
    }
    let sight = sight(&state, &headers).await?;
    match benchmark_param(q.benchmark.as_deref())? {
        Some(Benchmark::Plawbench) => return plaw_export(&state, q, &format, sight).await,
        Some(Benchmark::Dlawbench) => return dlaw_export(&state, q, &format, sight).await,
        Some(Benchmark::Lexpilot) | None => {}
    }
    let dataset = current_dataset(&state).await?;
    if let Some(name) = q.paper.as_deref() {
        let figure_4b = match q.figure_4b.as_deref() {
            None | Some("") => Figure4bModels::default(),
            Some(s) => Figure4bModels::parse(s).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "query parameter figure_4b: {s:?} is not valid; expected closed or all"
                ))
            })?,
        };
        return paper_export(&state, &dataset, name, &format, sight, figure_4b).await;
    }
    let snapshot = state.read.snapshot(&state.db, &dataset, sight).await?;
    let view = View::from_query(q.task, q.setup, q.sort);
    let table = build_table(&snapshot.document, &view);
    let name = format!("leaderboard-{}-{}", dataset.name, view.task.as_str());
    let body = match format.as_str() {
        "json" => serde_json::to_string_pretty(&table).map_err(ApiError::internal)?,
        "latex" => to_latex(&table, &caption(&view)),
        _ => to_csv(&table),
    };
    Ok(with_left_out(
        file_response(&name, &format, body),
        snapshot.left_out,
    ))
}

/// One of the LexPilot paper's other tables (`paper=<name>`) as a file.
async fn paper_export(
    state: &AppState,
    dataset: &db::datasets::DatasetInfo,
    name: &str,
    format: &str,
    sight: services::read::Sight,
    figure_4b: Figure4bModels,
) -> Result<axum::response::Response, ApiError> {
    use engine::lexpilot::paper::{to_csv, to_latex};
    let snapshot = state.read.sampled(&state.db, dataset, sight).await?;
    let views = snapshot.paper(figure_4b);
    // Table 13 rests on review labels, read fresh (not on the snapshot).
    let fidelity = match name {
        "table_13" => services::fidelity::view(&state.db, dataset).await?,
        _ => None,
    };
    let Some(table) = fidelity
        .as_ref()
        .map(|f| &f.study.table)
        .or_else(|| views.table(name))
    else {
        if name == "table_13" {
            return Err(ApiError::not_found(format!(
                "dataset {} has no user-simulator fidelity study (Table 13) yet",
                dataset.name
            )));
        }
        let names: Vec<&str> = views.tables().iter().map(|t| t.name.as_str()).collect();
        return Err(ApiError::bad_request(format!(
            "query parameter paper: {name:?} is not a table of the paper; expected one of {}, table_13",
            names.join(", ")
        )));
    };
    let body = match format {
        "json" => serde_json::to_string_pretty(table).map_err(ApiError::internal)?,
        "latex" => to_latex(table),
        _ => to_csv(table),
    };
    Ok(with_left_out(
        file_response(
            &match figure_4b {
                Figure4bModels::All if table.name == "figure_4b" => {
                    format!("paper-{}-{}-all", dataset.name, table.name)
                }
                _ => format!("paper-{}-{}", dataset.name, table.name),
            },
            format,
            body,
        ),
        snapshot.left_out,
    ))
}

/// A PLawBench table (the official ranking or Task 2 by category) as a file.
async fn plaw_export(
    state: &AppState,
    q: ExportQuery,
    format: &str,
    sight: services::read::Sight,
) -> Result<axum::response::Response, ApiError> {
    use engine::plawbench::leaderboard::{
        build_table, caption, category_caption, category_table, category_to_csv, category_to_latex,
        to_csv, to_latex, View,
    };
    let dataset = current_dataset_of(state, Benchmark::Plawbench).await?;
    let snapshot = state.read.plaw_snapshot(&state.db, &dataset, sight).await?;
    let (name, body) = match q.view.as_deref().unwrap_or("official") {
        "official" => {
            let table = build_table(&snapshot.document, &View::from_query(q.sort.as_deref()));
            let body = match format {
                "json" => serde_json::to_string_pretty(&table).map_err(ApiError::internal)?,
                "latex" => to_latex(&table, &caption(&table)),
                _ => to_csv(&table),
            };
            ("ranking", body)
        }
        "categories" => {
            let table = category_table(&snapshot.document, &snapshot.run_scores);
            let body = match format {
                "json" => serde_json::to_string_pretty(&table).map_err(ApiError::internal)?,
                "latex" => category_to_latex(&table, &category_caption(&table)),
                _ => category_to_csv(&table),
            };
            ("categories", body)
        }
        other => {
            return Err(ApiError::bad_request(format!(
                "query parameter view: {other:?} is not valid; expected official or categories"
            )))
        }
    };
    Ok(with_left_out(
        file_response(&format!("plawbench-{}-{name}", dataset.name), format, body),
        snapshot.left_out,
    ))
}

/// A DLawBench table (the main or a jurisdiction's leaderboard, or the
/// domain table) as a file, in the page's view (`scores`).
async fn dlaw_export(
    state: &AppState,
    q: ExportQuery,
    format: &str,
    sight: services::read::Sight,
) -> Result<axum::response::Response, ApiError> {
    use engine::dlawbench::leaderboard::{
        caption, domain_table, domain_to_csv, main_table, to_csv, to_latex, TableView,
    };
    use engine::dlawbench::score::View;
    let scores = match q.scores.as_deref() {
        None => View::NullAsZero,
        Some(s) => View::parse(s).ok_or_else(|| {
            ApiError::bad_request(format!(
                "query parameter scores: {s:?} is not valid; expected null_as_zero or valid_only"
            ))
        })?,
    };
    let jurisdiction = match q.jurisdiction.as_deref() {
        None | Some("") => None,
        Some(j) => Some(
            engine::dlawbench::dataset::Jurisdiction::parse(j).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "query parameter jurisdiction: {j:?} is not valid; expected cn or us"
                ))
            })?,
        ),
    };
    let dataset = current_dataset_of(state, Benchmark::Dlawbench).await?;
    let snapshot = state.read.dlaw_snapshot(&state.db, &dataset, sight).await?;
    let (name, body) = match q.view.as_deref().unwrap_or("main") {
        "main" => {
            let table = main_table(
                &snapshot.document,
                &TableView {
                    view: scores,
                    jurisdiction,
                },
            );
            let body = match format {
                "json" => serde_json::to_string_pretty(&table).map_err(ApiError::internal)?,
                "latex" => to_latex(&table, &caption(&table)),
                _ => to_csv(&table),
            };
            (jurisdiction.map_or("main", |j| j.as_str()), body)
        }
        "domains" => {
            let table = domain_table(&snapshot.document, &snapshot.run_scores, scores, None);
            let body = match format {
                "json" => serde_json::to_string_pretty(&table).map_err(ApiError::internal)?,
                "latex" => {
                    return Err(ApiError::bad_request(
                        "the domain table exports as csv or json, not latex",
                    ))
                }
                _ => domain_to_csv(&table),
            };
            ("domains", body)
        }
        other => {
            return Err(ApiError::bad_request(format!(
                "query parameter view: {other:?} is not valid; expected main or domains"
            )))
        }
    };
    Ok(with_left_out(
        file_response(&format!("dlawbench-{}-{name}", dataset.name), format, body),
        snapshot.left_out,
    ))
}

/// `body` as a download named `name` with the extension of `format`.
fn file_response(name: &str, format: &str, body: String) -> axum::response::Response {
    use axum::http::header;
    use axum::response::IntoResponse;
    let (content_type, extension) = match format {
        "json" => ("application/json", "json"),
        "latex" => ("application/x-tex; charset=utf-8", "tex"),
        _ => ("text/csv; charset=utf-8", "csv"),
    };
    (
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}.{extension}\""),
            ),
        ],
        body,
    )
        .into_response()
}
