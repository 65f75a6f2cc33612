//! `GET /api/review/export?format=jsonl|csv`: every review item with every
//! expert's label, comment and submission time, the final label with its
//! reason and author, and (JSON Lines only) the label history. It shows every
//! label, so it is for admins only (API token or session).

use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use engine::accounts::Permission;
use serde::Deserialize;

use crate::auth::SignedIn;
use crate::error::ApiError;
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/review/export", get(export))
}

#[derive(Debug, Default, Deserialize)]
pub struct ExportQuery {
    format: Option<String>,
}

/// JSON Lines (default: one [`engine::review::ExportItem`] per line) or CSV
/// (one row per expert label, [`engine::review::EXPORT_COLUMNS`]).
async fn export(
    State(state): State<AppState>,
    user: SignedIn,
    Query(q): Query<ExportQuery>,
) -> Result<Response, ApiError> {
    let user = user.require(Permission::ManageReview)?;
    let manager = db::review::Manager::of(user).ok_or(ApiError::Forbidden)?;
    let format = q.format.unwrap_or_else(|| "jsonl".to_owned());
    if !matches!(format.as_str(), "jsonl" | "csv") {
        return Err(ApiError::bad_request(format!(
            "query parameter format: {format:?} is not valid; expected jsonl or csv"
        )));
    }
    let items = db::review::export(&state.db, &manager).await?;
    let (content_type, body) = if format == "csv" {
        (
            "text/csv; charset=utf-8",
            engine::review::export_csv(&items),
        )
    } else {
        let mut body = String::new();
        for item in &items {
            body.push_str(&serde_json::to_string(item).map_err(ApiError::internal)?);
            body.push('\n');
        }
        ("application/x-ndjson; charset=utf-8", body)
    };
    Ok((
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"review-labels.{format}\""),
            ),
        ],
        body,
    )
        .into_response())
}
