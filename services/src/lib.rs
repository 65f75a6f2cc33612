//! The server-side runtime of LexPilot Workbench, between the pages and API
//! (`app`, `server`) and storage and endpoints (`db`, `pipeline`). Arrows
//! point down only: `app` → `services` → {`db`, `pipeline`} → `engine`; the
//! browser build of `app` never pulls this crate.
//!
//! - [`state`]: [`AppState`], created once at start-up and handed to every
//!   handler and server function; [`Network`], how the server is reached.
//! - [`error`]: the runtime's error and its one mapping to HTTP statuses.
//! - [`datasets`]: the one path from dataset files (or PLawBench's release)
//!   to a stored dataset version (CLI, API, upload page), and its dry run.
//! - [`ingest`]: the one path from run files to stored, scored runs (API,
//!   upload page, jobs, demo loader) and the re-scoring of corrections.
//! - [`evalscope`]: evalscope's PLawBench output (a directory or a zip of
//!   one) converted, reconciled and stored through the ingest.
//! - [`jobs`]: the in-process runner of benchmark jobs started from
//!   `/admin/runs`.
//! - [`targeted`]: Targeted vs Off-target result files (Table 4) checked,
//!   scored and stored in one transaction.
//! - [`read`]: the read models (score document, cell intervals, paired
//!   comparisons, a model's runs) with their caches, keyed by the generation
//!   the store bumps in every transaction that changes runs.
//! - [`pages`]: the versions of the site's static files and the cache of
//!   the reading pages anonymous visitors get, following the data.
//! - [`statutes`]: importing a statute package, and the cached index that
//!   resolves citations on pages.
//! - [`views`]: what a page shows and its export writes, built once for
//!   both (drill-downs with what blind review keeps back, comparisons, a
//!   model's entries, the review dashboard).

pub mod datasets;
pub mod error;
pub mod evalscope;
pub mod fidelity;
pub mod flights;
pub mod ingest;
pub mod jobs;
pub mod pages;
pub mod read;
pub mod reference;
pub mod state;
pub mod statutes;
pub mod targeted;
pub mod views;

pub use error::{Error, Result};
pub use state::{AppState, Network, Shared};
