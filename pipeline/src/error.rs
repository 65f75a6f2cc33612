//! The errors of the pipeline: [`PipelineError`] ends a job (bad
//! configuration, a file that cannot be written, cancellation); [`CallError`]
//! is one LLM call that failed for good, which only makes its item
//! unavailable.

use std::path::PathBuf;

/// Why a job could not start or did not finish.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// The configuration cannot be run.
    #[error("invalid pipeline configuration: {0}")]
    Config(String),
    /// An endpoint's key variable is not set.
    #[error(
        "the API key of the {role} endpoint ({model}) is read from the environment variable \
         {var}, which is not set"
    )]
    MissingKey {
        /// The role: `model`, `user` or `judge`.
        role: &'static str,
        /// The model of the endpoint.
        model: String,
        /// The variable's name.
        var: String,
    },
    /// The HTTP client could not be built.
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
    /// A file or folder could not be read or written.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        /// What was being done (`write the run file`, …).
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A run file the pipeline wrote does not parse against the dataset: a
    /// bug, reported with the parser's errors.
    #[error("the run file {} does not validate against the dataset:\n{errors}", path.display())]
    InvalidRun {
        /// The run file.
        path: PathBuf,
        /// The parser's errors.
        errors: engine::core::errors::RunErrors,
    },
    /// A task of the job panicked.
    #[error("a pipeline task failed: {0}")]
    Task(String),
    /// The job was cancelled; every finished call is in the cache.
    #[error(
        "the run was cancelled; finished calls are cached in {cache}, run the same job again to \
         resume"
    )]
    Cancelled {
        /// Where the finished calls are kept (the cache file's path).
        cache: String,
    },
    /// A call store other than the cache file failed ([`crate::cache::CallStore`]).
    #[error("cannot {action} the call cache in {location}: {message}")]
    CallStore {
        /// What was being done (`read`, `write`).
        action: &'static str,
        /// Where the calls are kept.
        location: String,
        /// The cause.
        message: String,
    },
}

/// One LLM call that failed, after its retries where it was worth retrying.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CallError {
    /// The endpoint answered with an error status.
    #[error("HTTP {status}{}", if body.is_empty() { String::new() } else { format!(": {body}") })]
    Status {
        /// The status code.
        status: u16,
        /// The start of the response body.
        body: String,
    },
    /// No complete answer within the request timeout.
    #[error("timed out after {seconds:.1} s")]
    Timeout {
        /// The timeout.
        seconds: f64,
    },
    /// The connection failed.
    #[error("connection failed: {0}")]
    Connect(String),
    /// The reply had no text.
    #[error("empty reply")]
    Empty,
    /// The body was not a chat completion.
    #[error("not a chat completion: {0}")]
    Malformed(String),
}

impl CallError {
    /// The failure without anything the endpoint or the network said (no
    /// body, no address): what a stored run keeps as an item's reason,
    /// shown to every visitor. The whole error goes to the server log and
    /// the job's record, which only admins read.
    pub fn public_reason(&self) -> String {
        match self {
            CallError::Status { status, .. } => format!("HTTP {status}"),
            CallError::Timeout { .. } | CallError::Empty => self.to_string(),
            CallError::Connect(_) => "connection failed".to_owned(),
            CallError::Malformed(_) => "not a chat completion".to_owned(),
        }
    }

    /// Whether another attempt may succeed: 408, 429 and 5xx statuses,
    /// timeouts, connection failures, empty and malformed replies.
    pub fn retryable(&self) -> bool {
        match self {
            CallError::Status { status, .. } => {
                matches!(status, 408 | 429) || (500..=599).contains(status)
            }
            CallError::Timeout { .. }
            | CallError::Connect(_)
            | CallError::Empty
            | CallError::Malformed(_) => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_errors_are_retried() {
        let status = |status| CallError::Status {
            status,
            body: String::new(),
        };
        assert!(status(429).retryable());
        assert!(status(503).retryable());
        assert!(!status(400).retryable());
        assert!(!status(401).retryable());
        assert!(CallError::Empty.retryable());
        assert_eq!(status(500).to_string(), "HTTP 500");
    }
}
