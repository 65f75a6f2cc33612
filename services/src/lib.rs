//! The server-side runtime of LexPilot Workbench, between the pages and API
//! (`app`, `server`) and storage and endpoints (`db`, `pipeline`). Arrows
//! point down only: `app` → `services` → {`db`, `pipeline`} → `engine`; the
//! browser build of `app` never pulls this crate.
//!
//! - [`state`]: [`AppState`], created once at start-up and handed to every
//!   handler and server function; [`Network`], how the server is reached.
//! - [`error`]: the runtime's error and its one mapping to HTTP statuses.
//! - [`jobs`]: the in-process runner of benchmark jobs started from
//!   `/admin/runs`.
//! - [`analysis`]: bootstrap figures over stored items (cell intervals,
//!   paired comparisons), cached per run generation.
//! - [`leaderboard`]: the score document of a dataset version.

pub mod analysis;
pub mod error;
pub mod jobs;
pub mod leaderboard;
pub mod state;

pub use error::{Error, Result};
pub use state::{AppState, Network};
