//! `GET /api/stats`: the current dataset's statistics (the paper's Table 1).

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use engine::lexpilot::stats::DatasetStats;
use serde::{Deserialize, Serialize};

use super::current_dataset;
use crate::error::ApiError;
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/stats", get(stats))
}

#[derive(Debug, Serialize, Deserialize)]
pub struct StatsResponse {
    pub dataset: String,
    pub dataset_version: i64,
    pub synthetic: bool,
    pub stats: DatasetStats,
}

async fn stats(State(state): State<AppState>) -> Result<Json<StatsResponse>, ApiError> {
    let dataset = current_dataset(&state).await?;
    let cases = db::cases::all(&state.db, dataset.id).await?;
    Ok(Json(StatsResponse {
        dataset: dataset.name,
        dataset_version: dataset.version,
        synthetic: dataset.synthetic,
        stats: engine::lexpilot::stats::dataset_stats(&cases),
    }))
}
