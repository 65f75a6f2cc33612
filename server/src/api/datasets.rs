//! `POST /api/datasets`: a dataset imported through the API or the upload
//! page's dataset form (admins only), by the same path as `lexpilot import`
//! ([`services::datasets`]): the same parsing and checks, one transaction,
//! the same error texts naming file, line and field.
//!
//! The body is `multipart/form-data`: one or more file parts (a dataset
//! file, or for PLawBench the official release's data files), and as
//! fields or query parameters `benchmark` (`lexpilot` by default), `name`
//! (by default the file's name without its extension, `PLawBench` for the
//! release), `synthetic` and `check` (`true`: a dry run, every check the
//! import runs and nothing written). Answers: 201 with the new version, 200
//! for identical content stored already (nothing imported) or for a check;
//! 422 with every error (`errors`, one a line) for invalid files, nothing
//! stored; 409 for a name that another benchmark's dataset has; 413 over
//! [`crate::MAX_BODY_BYTES`] in all.
//!
//! A plain HTML form (the upload page without JavaScript) sends the field
//! `from=page`; it is answered with a redirect back to the page carrying
//! the outcome in the query, which the page shows.

use axum::extract::multipart::{Multipart, MultipartRejection};
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::post;
use axum::{Json, Router};
use db::datasets::ImportOutcome;
use engine::accounts::Permission;
use engine::benchmark::Benchmark;
use serde::Deserialize;
use serde_json::json;
use services::datasets::{ImportOptions, Imported};
use services::ingest::RunFile;

use super::benchmark_param;
use crate::auth::SignedIn;
use crate::error::ApiError;
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/datasets", post(import))
}

#[derive(Debug, Default, Deserialize)]
pub struct DatasetQuery {
    benchmark: Option<String>,
    name: Option<String>,
    check: Option<String>,
    synthetic: Option<String>,
}

/// What the form's fields and the query say (a field wins).
#[derive(Debug, Default)]
struct Request {
    benchmark: Option<String>,
    name: Option<String>,
    check: bool,
    synthetic: bool,
    from_page: bool,
    files: Vec<RunFile>,
}

/// A yes/no field: `true`, `on` (a checked box) or `1`.
fn flag(name: &str, value: &str) -> Result<bool, ApiError> {
    match value.trim() {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" | "" => Ok(false),
        other => Err(ApiError::bad_request(format!(
            "field {name}: {other:?} is not valid; expected true or false"
        ))),
    }
}

fn too_large() -> ApiError {
    ApiError::TooLarge(format!(
        "the dataset files are larger than {} MiB in all",
        crate::MAX_BODY_BYTES / (1024 * 1024)
    ))
}

fn unreadable(e: impl std::fmt::Display, status: StatusCode) -> ApiError {
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        too_large()
    } else {
        ApiError::bad_request(format!("cannot read the form: {e}"))
    }
}

async fn read_request(
    query: DatasetQuery,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Request, ApiError> {
    let mut request = Request {
        benchmark: query.benchmark,
        name: query.name,
        check: query
            .check
            .as_deref()
            .map(|v| flag("check", v))
            .transpose()?
            .unwrap_or(false),
        synthetic: query
            .synthetic
            .as_deref()
            .map(|v| flag("synthetic", v))
            .transpose()?
            .unwrap_or(false),
        ..Request::default()
    };
    let mut multipart = multipart.map_err(|e| {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            too_large()
        } else {
            ApiError::bad_request(format!(
                "the body must be multipart/form-data with the dataset file(s): {e}"
            ))
        }
    })?;
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|e| unreadable(&e, e.status()))?
    {
        let field_name = field.name().unwrap_or_default().to_owned();
        if let Some(file_name) = field.file_name().map(str::to_owned) {
            let bytes = field
                .bytes()
                .await
                .map_err(|e| unreadable(&e, e.status()))?;
            // A file input left empty sends a part without name or content.
            if file_name.is_empty() && bytes.is_empty() {
                continue;
            }
            let name = if file_name.is_empty() {
                field_name
            } else {
                file_name
            };
            request.files.push(RunFile::new(name, bytes.to_vec()));
            continue;
        }
        let text = field.text().await.map_err(|e| unreadable(&e, e.status()))?;
        match field_name.as_str() {
            "benchmark" => request.benchmark = Some(text),
            "name" => request.name = Some(text).filter(|n| !n.trim().is_empty()),
            "check" => request.check = flag("check", &text)?,
            "synthetic" => request.synthetic = flag("synthetic", &text)?,
            "from" => request.from_page = text == "page",
            other => {
                return Err(ApiError::bad_request(format!(
                    "field {other}: not a field of a dataset import (benchmark, name, check, synthetic, and the files)"
                )))
            }
        }
    }
    Ok(request)
}

async fn import(
    State(state): State<AppState>,
    user: SignedIn,
    Query(query): Query<DatasetQuery>,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Response, ApiError> {
    user.require(Permission::ImportDataset)?;
    let request = read_request(query, multipart).await?;
    let from_page = request.from_page;
    let benchmark = request.benchmark.clone();
    let answer = run(&state, request).await;
    if from_page {
        return Ok(Redirect::to(&page_result(benchmark.as_deref(), &answer)).into_response());
    }
    let (benchmark, imported) = answer?;
    let (status, outcome, dataset) = match &imported.outcome {
        ImportOutcome::Created(d) if imported.checked_only => (StatusCode::OK, "new_version", d),
        ImportOutcome::Created(d) => (StatusCode::CREATED, "new_version", d),
        ImportOutcome::Unchanged(d) => (StatusCode::OK, "unchanged", d),
    };
    Ok((
        status,
        Json(json!({
            "check": imported.checked_only,
            "benchmark": benchmark.as_str(),
            "outcome": outcome,
            "dataset": dataset,
            "warnings": imported.warnings,
        })),
    )
        .into_response())
}

async fn run(state: &AppState, request: Request) -> Result<(Benchmark, Imported), ApiError> {
    let benchmark = benchmark_param(request.benchmark.as_deref())?.unwrap_or(Benchmark::Lexpilot);
    if request.files.is_empty() {
        return Err(ApiError::bad_request(
            "no dataset file was sent: add the file as a part of the multipart/form-data body",
        ));
    }
    let options = ImportOptions {
        name: request.name,
        source: String::new(),
        synthetic: request.synthetic,
        check: request.check,
    };
    let imported =
        services::datasets::import(&state.db, benchmark, &request.files, options).await?;
    Ok((benchmark, imported))
}

/// Longest outcome text carried back to the page (the rest is counted).
const MAX_PAGE_TEXT: usize = 6000;

/// The upload page's address with the outcome of its form in the query.
fn page_result(
    benchmark: Option<&str>,
    answer: &Result<(Benchmark, Imported), ApiError>,
) -> String {
    use app::url::encode;
    let mut query = vec!["dataset_form=1".to_owned()];
    if let Some(b) = benchmark {
        query.push(format!("ds_benchmark={}", encode(b)));
    }
    let text = match answer {
        Ok((_, imported)) => {
            let status = match (&imported.outcome, imported.checked_only) {
                (ImportOutcome::Created(_), true) => "checked_new",
                (ImportOutcome::Unchanged(_), true) => "checked_unchanged",
                (ImportOutcome::Created(_), false) => "imported",
                (ImportOutcome::Unchanged(_), false) => "unchanged",
            };
            let d = imported.outcome.dataset();
            query.push(format!("ds_status={status}"));
            query.push(format!("ds_name={}", encode(&d.name)));
            query.push(format!("ds_version={}", d.version));
            query.push(format!("ds_count={}", d.case_count));
            imported.warnings.join("\n")
        }
        Err(e) => {
            query.push("ds_status=refused".to_owned());
            query.push(format!("ds_code={}", e.status_code().as_u16()));
            e.to_string()
        }
    };
    if !text.is_empty() {
        query.push(format!("ds_text={}", encode(&shortened(&text))));
    }
    format!("/runs/upload?{}", query.join("&"))
}

/// `text` cut at a line within [`MAX_PAGE_TEXT`] bytes, saying how many
/// lines are left out.
fn shortened(text: &str) -> String {
    if text.len() <= MAX_PAGE_TEXT {
        return text.to_owned();
    }
    let mut kept = String::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut shown = 0;
    for line in &lines {
        if kept.len() + line.len() + 1 > MAX_PAGE_TEXT {
            break;
        }
        kept.push_str(line);
        kept.push('\n');
        shown += 1;
    }
    kept.push_str(&format!("… {} more line(s)", lines.len() - shown));
    kept
}
