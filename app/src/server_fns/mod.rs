//! Server functions, one module per domain. Each is thin: authorise, call `db`
//! or `engine`, return a [`crate::types`] DTO. They are served under `/sfn/`
//! so that `/api/` stays the documented JSON API for scripts.

pub mod auth;
pub mod cases;
pub mod corrections;
pub mod dlawbench;
pub mod drilldown;
pub mod fidelity;
pub mod jobs;
pub mod leaderboard;
pub mod models;
pub mod overview;
pub mod paper;
pub mod plawbench;
pub mod review;
pub mod runs;
pub mod users;
