//! The LexPilot evaluation engine.
//!
//! Pure Rust: plain types and functions over slices. No axum, leptos, sqlx or
//! tokio may be used here; everything that decides a number lives in this crate.
//!
//! - [`benchmark`]: which benchmark a dataset or run belongs to, and the one
//!   interface (`Suite`) every benchmark's rules sit behind; LexPilot's is
//!   the modules below.
//! - [`accounts`]: account roles and the permission each grants.
//! - [`vocab`]: the fixed vocabularies of `docs/formats.md` §1 and the 36 causes
//!   of action with their classes (LexPilot paper, Table 10).
//! - [`dataset`]: the dataset file (§2): types, streaming parser and validation
//!   with line- and field-named errors.
//! - [`synthetic`]: seeded synthetic dataset and run files for benchmarks.
//! - [`names`]: the rule for names shown and linked to (models, case ids,
//!   accounts): not blank, at most 200 characters, no control characters.
//! - [`stats`]: dataset statistics (the paper's Table 1), overall and per class.
//! - [`query`]: case filters, summaries and paging for browsing.
//! - [`leaderboard`]: leaderboard tables per task, and their CSV and LaTeX forms.
//! - [`metrics`]: F1, quadratic weighted kappa, accuracy, mean / sample std and
//!   bootstrap statistics (§4).
//! - [`run`]: the run file (§3): types, streaming parser and validation
//!   against a dataset, with line- and field-named errors.
//! - [`score`]: a run's scores per task and class (§4) and the score document
//!   of leaderboard entries (§5).
//! - [`spreadsheet`]: CSV whose cells a spreadsheet never runs as formulas.
//! - [`drilldown`]: the items behind one leaderboard cell, per case and run,
//!   with the gold and, for LJP, the confusion matrix of verdicts.
//! - [`jobs`]: benchmark jobs as kept and shown: endpoints (with the check
//!   that never stores a key), job settings, status, progress.
//! - [`agreement`]: agreement between annotators (raw agreement, Cohen's and
//!   quadratic weighted kappa per pair, Fleiss' kappa) over string labels.
//! - [`review`]: the expert review workflow and every rule of it: review
//!   kinds and label spaces, the four case checks, pre-flags of personal data
//!   and leaked missing facts, item status, blindness (who sees which label
//!   when), blind labels and agreement, label and input checks, adjudication,
//!   the judge sample and its review input, corrections, case diffs,
//!   assignment and the dashboard. Storage (`db::review`) keeps only SQL.

pub mod accounts;
pub mod agreement;
pub mod benchmark;
pub mod dataset;
pub mod drilldown;
pub mod jobs;
mod jsonl;
pub mod leaderboard;
pub mod metrics;
pub mod names;
pub mod query;
pub mod review;
pub mod run;
pub mod score;
pub mod spreadsheet;
pub mod stats;
pub mod synthetic;
pub mod vocab;
