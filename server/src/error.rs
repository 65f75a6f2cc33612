//! The API error: a status and a JSON body `{"error": message}`, plus
//! `"errors": [{line, case_id, field, message}, ...]` for an invalid file
//! (`[{file, line, item_id, field, message}, ...]` for an evalscope folder).
//!
//! Every error of the runtime and of storage comes through
//! [`services::Error`], whose one mapping gives the status (409 for a
//! conflict, 422 for an invalid file, 503 with `Retry-After` when the
//! database stays locked, 500 with the cause logged); this type adds only
//! what belongs to HTTP itself: a missing or refused account, a body over
//! the limit.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use services::Error;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error(transparent)]
    Service(#[from] Error),
    #[error("{0}")]
    TooLarge(String),
    #[error("sign in required")]
    Unauthorized,
    #[error("your role may not do this")]
    Forbidden,
}

impl ApiError {
    pub fn status_code(&self) -> StatusCode {
        match self {
            ApiError::Service(e) => e.status(),
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden => StatusCode::FORBIDDEN,
        }
    }

    /// A bad value in the request (400).
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::Service(Error::Invalid(message.into()))
    }

    /// Nothing at this address (404).
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::Service(Error::NotFound(message.into()))
    }

    /// An unexpected failure (500); `cause` is logged, not shown.
    pub fn internal(cause: impl std::fmt::Display) -> ApiError {
        ApiError::Service(Error::internal(cause))
    }
}

impl From<db::DbError> for ApiError {
    fn from(e: db::DbError) -> Self {
        ApiError::Service(e.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = match &self {
            ApiError::Service(Error::InvalidFile(_, errors)) => {
                let summary: Vec<String> = engine::findings::collapse(&errors.0)
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                json!({ "error": self.to_string(), "errors": errors.0, "summary": summary })
            }
            ApiError::Service(Error::InvalidImport(errors)) => {
                json!({ "error": self.to_string(), "errors": errors.0 })
            }
            ApiError::Service(Error::InvalidDataset(text)) => {
                let errors: Vec<&str> = text
                    .lines()
                    .filter(|l| *l != "nothing was imported")
                    .collect();
                json!({ "error": self.to_string(), "errors": errors })
            }
            _ => json!({ "error": self.to_string() }),
        };
        let mut response = (self.status_code(), Json(body)).into_response();
        if let Some(seconds) = match &self {
            ApiError::Service(e) => e.retry_after(),
            _ => None,
        } {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static(seconds));
        }
        response
    }
}
