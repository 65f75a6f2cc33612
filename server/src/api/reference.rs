//! `POST /api/reference?benchmark=B[&origin=L][&check=true]` (admins only):
//! a reference CSV (the body, as it is: `model,family,view,column,value,source`)
//! imported by the same path as `lexpilot import-reference`
//! ([`services::reference`]): checked against the benchmark's columns, one
//! transaction replacing the rows stored before under the same origin
//! (default `lab`; `published` marks a paper's or release's figures).
//! Answers: 201 with `{benchmark, origin, rows, replaced, check}`, 200 for a
//! check; 422 with every error naming file, line and field; 400 for a bad
//! parameter; 413 over [`services::reference::MAX_FILE_BYTES`].

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use engine::accounts::Permission;
use serde::Deserialize;
use services::reference::MAX_FILE_BYTES;

use super::benchmark_param;
use crate::auth::SignedIn;
use crate::error::ApiError;
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route(
        "/reference",
        post(import).layer(DefaultBodyLimit::max(MAX_FILE_BYTES)),
    )
}

#[derive(Debug, Default, Deserialize)]
pub struct ReferenceQuery {
    benchmark: Option<String>,
    origin: Option<String>,
    check: Option<String>,
    name: Option<String>,
}

async fn import(
    State(state): State<AppState>,
    user: SignedIn,
    Query(query): Query<ReferenceQuery>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<(StatusCode, Json<services::reference::ImportedReference>), ApiError> {
    let user = user.require(Permission::ImportDataset)?;
    let body = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge(format!(
                "the reference file is larger than {} MiB",
                MAX_FILE_BYTES / (1024 * 1024)
            ))
        } else {
            ApiError::bad_request(format!("cannot read the body: {e}"))
        }
    })?;
    let Some(benchmark) = benchmark_param(query.benchmark.as_deref())? else {
        return Err(ApiError::bad_request(
            "query parameter benchmark: missing; expected lexpilot, dlawbench or plawbench",
        ));
    };
    let check = match query.check.as_deref().map(str::trim) {
        None | Some("false" | "0" | "") => false,
        Some("true" | "1") => true,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "query parameter check: {other:?} is not valid; expected true or false"
            )))
        }
    };
    if body.is_empty() {
        return Err(ApiError::bad_request(
            "the body is empty: send the reference CSV as the body",
        ));
    }
    let origin = query.origin.unwrap_or_else(|| "lab".to_owned());
    let name = query.name.unwrap_or_else(|| "reference.csv".to_owned());
    let imported = services::reference::import(
        &state.db,
        benchmark,
        &name,
        &body,
        &origin,
        Some(&user.name),
        check,
    )
    .await?;
    let status = if check {
        StatusCode::OK
    } else {
        StatusCode::CREATED
    };
    Ok((status, Json(imported)))
}
