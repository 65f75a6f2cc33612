//! The JSON API for scripts, mounted at `/api`. One file per resource; each
//! exposes `router()`. Errors are JSON (`{"error": ...}`) with a 4xx/5xx status.

mod cases;
mod datasets;
mod evalscope;
mod events;
mod exports;
mod reference;
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
        .merge(datasets::router())
        .merge(reference::router())
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

/// Whose figures a request gets: every judge decision counted for a
/// review manager (an admin, by token or session), the public figures
/// without the decisions under blind review for everyone else.
async fn sight(
    state: &AppState,
    headers: &axum::http::HeaderMap,
) -> Result<services::read::Sight, ApiError> {
    let user = app::ssr::request_user(&state.db, headers).await?;
    Ok(services::read::Sight::of(user.as_ref()))
}

/// The header that says how many judge decisions under blind review a
/// score document or export leaves out (sent only when some are).
pub const LEFT_OUT_HEADER: &str = "x-blind-review-left-out";

/// The key of a score document that says the same.
pub const LEFT_OUT_KEY: &str = "left_out_under_blind_review";

/// `response` with [`LEFT_OUT_HEADER`] when `left_out` decisions are left out.
fn with_left_out(
    mut response: axum::response::Response,
    left_out: usize,
) -> axum::response::Response {
    if left_out > 0 {
        response
            .headers_mut()
            .insert(LEFT_OUT_HEADER, axum::http::HeaderValue::from(left_out));
    }
    response
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
