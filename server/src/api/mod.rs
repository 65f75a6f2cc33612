//! The JSON API for scripts, mounted at `/api`. One file per resource; each
//! exposes `router()`. Errors are JSON (`{"error": ...}`) with a 4xx/5xx status.

mod cases;
mod events;
mod review;
mod runs;

pub use runs::MAX_RUN_BYTES;
mod stats;
mod users;

use axum::Router;

use crate::error::ApiError;
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .merge(cases::router())
        .merge(events::router())
        .merge(review::router())
        .merge(runs::router())
        .merge(stats::router())
        .merge(users::router())
        .fallback(|| async { ApiError::not_found("no such API endpoint") })
}

/// The dataset the API serves: the current one, or a 404 JSON error.
async fn current_dataset(state: &AppState) -> Result<db::datasets::DatasetInfo, ApiError> {
    db::datasets::current(&state.db, engine::benchmark::Benchmark::Lexpilot)
        .await?
        .ok_or_else(|| ApiError::not_found("no dataset has been imported yet"))
}
