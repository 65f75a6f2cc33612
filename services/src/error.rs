//! The one error of the runtime, and the one mapping from what went wrong to
//! an HTTP status, used alike by the JSON API (`server::error::ApiError`) and
//! the server functions (`app::ssr::fail`):
//!
//! | error | status |
//! |---|---|
//! | [`Error::Invalid`] (a bad value in a request) | 400 |
//! | [`Error::Forbidden`] (this account may not do this to this record) | 403 |
//! | [`Error::NotFound`] | 404 |
//! | [`Error::Conflict`] (a duplicate, a stale edit, a final item) | 409 |
//! | [`Error::InvalidFile`] (every line and field error of a file) | 422 |
//! | [`Error::InvalidImport`] (every file, line and field error of an evalscope folder) | 422 |
//! | [`Error::InvalidDataset`] (every file, line and field error of a dataset's files) | 422 |
//! | [`Error::Busy`] (the database stayed locked) | 503, `Retry-After: 1` |
//! | [`Error::Overloaded`] (work of one kind at its bound, such as evalscope imports) | 503, `Retry-After: 5` |
//! | [`Error::Internal`] | 500; the cause is logged, the user sees a generic message |
//!
//! Storage errors ([`db::DbError`]) become these through one `From`.

use axum::http::StatusCode;
use engine::core::errors::DatasetErrors;

/// What a request to the runtime can fail with; messages are fit for users
/// (an internal cause is logged when the error is made, never shown).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// A file that breaks its format: every error with line and field.
    #[error("{0} is not a valid run file ({n} error(s)); nothing was stored", n = .1.0.len())]
    InvalidFile(String, DatasetErrors),
    /// An evalscope output folder that cannot be imported: every error with
    /// file, line, item and field.
    #[error("the evalscope output cannot be imported ({n} error(s)); nothing was stored", n = .0.0.len())]
    InvalidImport(engine::plawbench::evalscope::ImportErrors),
    /// Dataset files that cannot be imported: every error, one a line, each
    /// naming its file, line and field.
    #[error("{0}")]
    InvalidDataset(String),
    #[error("the server is busy; try again in a moment")]
    Busy,
    /// As many of one kind of work as the server runs at once are under way.
    #[error("{0}")]
    Overloaded(String),
    #[error("internal error; the server log has the details")]
    Internal,
}

/// Seconds a client is asked to wait after [`Error::Busy`].
pub const RETRY_AFTER_SECS: &str = "1";
/// Seconds a client is asked to wait after [`Error::Overloaded`].
pub const RETRY_OVERLOADED_AFTER_SECS: &str = "5";

impl Error {
    /// The HTTP status of the error (see the module docs).
    pub fn status(&self) -> StatusCode {
        match self {
            Error::Invalid(_) => StatusCode::BAD_REQUEST,
            Error::Forbidden(_) => StatusCode::FORBIDDEN,
            Error::NotFound(_) => StatusCode::NOT_FOUND,
            Error::Conflict(_) => StatusCode::CONFLICT,
            Error::InvalidFile(..) | Error::InvalidImport(_) | Error::InvalidDataset(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            Error::Busy | Error::Overloaded(_) => StatusCode::SERVICE_UNAVAILABLE,
            Error::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The `Retry-After` seconds a 503 carries.
    pub fn retry_after(&self) -> Option<&'static str> {
        match self {
            Error::Busy => Some(RETRY_AFTER_SECS),
            Error::Overloaded(_) => Some(RETRY_OVERLOADED_AFTER_SECS),
            _ => None,
        }
    }

    /// An internal failure: `cause` is logged, the user gets a generic message.
    pub fn internal(cause: impl std::fmt::Display) -> Error {
        tracing::error!("internal error: {cause}");
        Error::Internal
    }
}

impl From<db::DbError> for Error {
    fn from(e: db::DbError) -> Self {
        use db::DbError;
        match e {
            DbError::NotFound(m) => Error::NotFound(m),
            DbError::Conflict(m) => Error::Conflict(m),
            DbError::Forbidden(m) => Error::Forbidden(m),
            DbError::Invalid(m) => Error::Invalid(m),
            DbError::Busy(cause) => {
                tracing::warn!("database busy: {cause}");
                Error::Busy
            }
            other => Error::internal(other),
        }
    }
}

/// The result of the runtime's operations.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_errors_map_to_one_status_each() {
        let cases = [
            (db::DbError::NotFound("x".into()), StatusCode::NOT_FOUND),
            (db::DbError::Conflict("x".into()), StatusCode::CONFLICT),
            (db::DbError::Invalid("x".into()), StatusCode::BAD_REQUEST),
            (db::DbError::Forbidden("x".into()), StatusCode::FORBIDDEN),
            (
                db::DbError::Corrupt("x".into()),
                StatusCode::INTERNAL_SERVER_ERROR,
            ),
            (
                db::DbError::Busy(sqlx_timeout()),
                StatusCode::SERVICE_UNAVAILABLE,
            ),
        ];
        for (error, status) in cases {
            assert_eq!(Error::from(error).status(), status);
        }
        assert!(!Error::from(db::DbError::Corrupt("secret path".into()))
            .to_string()
            .contains("secret"));
    }

    fn sqlx_timeout() -> db::SqlxError {
        db::SqlxError::PoolTimedOut
    }
}
