//! The API error: a status and a JSON body `{"error": message}`, plus
//! `"errors": [{line, case_id, field, message}, ...]` for an invalid file.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// What a 503 asks a client to wait before sending the request again.
pub const RETRY_AFTER_SECS: &str = "1";

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    BadRequest(String),
    /// A file that breaks the format: every error with line and field.
    #[error("the file is not valid: {} error(s)", .0.0.len())]
    Invalid(engine::dataset::DatasetErrors),
    #[error("{0}")]
    TooLarge(String),
    #[error("{0}")]
    Conflict(String),
    #[error("sign in required")]
    Unauthorized,
    #[error("your role may not do this")]
    Forbidden,
    /// The database stayed locked by other writers: retry shortly.
    #[error("the server is busy; try again in a moment")]
    Busy,
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    pub fn status_code(&self) -> StatusCode {
        match self {
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden => StatusCode::FORBIDDEN,
            ApiError::Busy => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<db::DbError> for ApiError {
    fn from(e: db::DbError) -> Self {
        match e {
            db::DbError::NotFound(m) => ApiError::NotFound(m),
            db::DbError::Invalid(m) => ApiError::BadRequest(m),
            db::DbError::Conflict(m) => ApiError::Conflict(m),
            db::DbError::Forbidden(_) => ApiError::Forbidden,
            db::DbError::Busy(cause) => {
                tracing::warn!("database busy: {cause}");
                ApiError::Busy
            }
            other => ApiError::Internal(other.into()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(cause) = &self {
            tracing::error!("internal error: {cause:#}");
        }
        let body = match &self {
            ApiError::Invalid(errors) => json!({ "error": self.to_string(), "errors": errors.0 }),
            _ => json!({ "error": self.to_string() }),
        };
        let mut response = (self.status_code(), Json(body)).into_response();
        if matches!(self, ApiError::Busy) {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from_static(RETRY_AFTER_SECS),
            );
        }
        response
    }
}
