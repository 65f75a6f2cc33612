//! The JSON API for scripts, mounted at `/api`. One file per resource; each
//! exposes `router()`. Errors are JSON (`{"error": ...}`) with a 4xx/5xx status.

mod cases;
mod evalscope;
mod events;
mod exports;
mod review;
mod runs;

pub use runs::MAX_RUN_BYTES;
mod stats;
mod users;

use axum::Router;
use engine::benchmark::Benchmark;

use crate::error::ApiError;
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .merge(cases::router())
        .merge(evalscope::router())
        .merge(events::router())
        .merge(exports::router())
        .merge(review::router())
        .merge(runs::router())
        .merge(stats::router())
        .merge(users::router())
        .fallback(|| async { ApiError::not_found("no such API endpoint") })
}

/// The LexPilot dataset the API serves: the current one, or a 404 JSON error.
async fn current_dataset(state: &AppState) -> Result<db::datasets::DatasetInfo, ApiError> {
    current_dataset_of(state, Benchmark::Lexpilot).await
}

/// The current dataset of `benchmark`, or a 404 JSON error.
async fn current_dataset_of(
    state: &AppState,
    benchmark: Benchmark,
) -> Result<db::datasets::DatasetInfo, ApiError> {
    db::datasets::current(&state.db, benchmark)
        .await?
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "no {} dataset has been imported yet",
                benchmark.as_str()
            ))
        })
}

/// The `benchmark` query parameter: absent, or a benchmark this server hosts.
fn benchmark_param(value: Option<&str>) -> Result<Option<Benchmark>, ApiError> {
    let Some(value) = value else { return Ok(None) };
    match Benchmark::parse(value) {
        Some(b) if b.hosted() => Ok(Some(b)),
        Some(b) => Err(ApiError::bad_request(format!(
            "query parameter benchmark: {}",
            b.not_hosted()
        ))),
        None => Err(ApiError::bad_request(format!(
            "query parameter benchmark: {value:?} is not valid; expected one of {}",
            Benchmark::ALL.map(Benchmark::as_str).join(", ")
        ))),
    }
}
