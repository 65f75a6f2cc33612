//! `POST /api/runs` (store one run file, the body; `?replace=true` to overwrite
//! a stored run of the same model and run number) and `GET /api/leaderboard`
//! (the §5 score document of the current dataset).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use engine::accounts::Permission;
use engine::score::{RunScores, ScoreDocument};
use serde::{Deserialize, Serialize};

use super::current_dataset;
use crate::auth::SignedIn;
use crate::error::ApiError;
use crate::AppState;

/// Largest run file accepted (a 432-case run with full responses is a few MiB).
pub const MAX_RUN_BYTES: usize = 32 * 1024 * 1024;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/runs",
            post(upload).layer(DefaultBodyLimit::max(MAX_RUN_BYTES)),
        )
        .route("/leaderboard", get(leaderboard))
}

#[derive(Debug, Default, Deserialize)]
pub struct UploadQuery {
    #[serde(default)]
    replace: bool,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct UploadResponse {
    pub dataset: String,
    pub dataset_version: i64,
    pub run: db::runs::RunInfo,
    pub scores: RunScores,
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
        _ => ApiError::BadRequest(format!("cannot read the request body: {e}")),
    })?;
    let dataset = current_dataset(&state).await?;
    let stored =
        crate::runs::store(&state.db, &dataset, &body, Some(user.id), query.replace).await?;
    Ok((
        StatusCode::CREATED,
        Json(UploadResponse {
            dataset: dataset.name,
            dataset_version: dataset.version,
            run: stored.0,
            scores: stored.1,
        }),
    ))
}

async fn leaderboard(State(state): State<AppState>) -> Result<Json<ScoreDocument>, ApiError> {
    let dataset = current_dataset(&state).await?;
    Ok(Json(crate::runs::leaderboard(&state.db, &dataset).await?))
}
