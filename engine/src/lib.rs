//! The LexPilot evaluation engine.
//!
//! Pure Rust: plain types and functions over slices. No axum, leptos, sqlx or
//! tokio may be used here; everything that decides a number lives in this crate.
//!
//! One module per benchmark, behind one interface, and what they share:
//!
//! - [`benchmark`]: which benchmark a dataset or run belongs to
//!   (`lexpilot`, `dlawbench`, `plawbench`), and the one interface
//!   ([`benchmark::Suite`]) every benchmark's rules sit behind.
//! - [`lexpilot`]: the LexPilot benchmark: dataset (§2) and run (§3) files
//!   with their validation, scores (§4) and the score document (§5),
//!   leaderboard tables, drill-downs, dataset statistics, case browsing, and
//!   seeded synthetic files.
//! - [`plawbench`]: the PLawBench benchmark: dataset (§B1) and run (§B3)
//!   files with their validation, the verbatim prompts and judge-reply
//!   parsing (§B2), scores and the score document (§B4), and the import of
//!   evalscope output folders (§B6).
//! - [`dlawbench`]: the DLawBench benchmark: dataset (§A1) and run (§A3)
//!   files with their validation, our versioned prompts and reply parsing
//!   (§A2), panel scores and the score document (§A4), leaderboard views
//!   and drill-downs (§A6).
//!
//! Shared by every benchmark:
//!
//! - [`core`](crate::core): the kernel no benchmark owns and none imports another for:
//!   entry keys and families, the one error type of every file read, line
//!   reading, dialogue turns, what judge panels share, tables as data with
//!   their one CSV/JSON/LaTeX writer, column directions and scales, paging.
//! - [`vocab`]: the vocabulary macro, the fixed vocabularies of
//!   `docs/formats.md` §1 and the 36 causes of action with their classes
//!   (LexPilot paper, Table 10).
//! - [`metrics`]: F1, quadratic weighted kappa, accuracy, mean / sample std and
//!   bootstrap statistics (§4).
//! - [`agreement`]: agreement between annotators (raw agreement, Cohen's and
//!   quadratic weighted kappa per pair, Fleiss' kappa) over string labels.
//! - [`review`]: the expert review workflow and every rule of it: review
//!   kinds and label spaces, the four case checks, pre-flags of personal data
//!   and leaked missing facts, item status, blindness (who sees which label
//!   when), blind labels and agreement, label and input checks, adjudication,
//!   the judge sample and its review input, corrections, case diffs,
//!   assignment and the dashboard. Storage (`db::review`) keeps only SQL.
//! - [`accounts`]: account roles and the permission each grants.
//! - [`jobs`]: benchmark jobs as kept and shown: endpoints (with the check
//!   that never stores a key), job settings, status, progress.
//! - [`estimate`]: what a benchmark job will make before it starts: its
//!   calls per role (a range, from the pipeline's protocols) and their cost.
//! - [`findings`]: a file's errors as a person reads them, the same
//!   problem on many lines said once (`lines 2–73, field kind: …`).
//! - [`names`]: the rule for names shown and linked to (models, case ids,
//!   accounts): not blank, at most 200 characters, no control characters.
//! - [`spreadsheet`]: CSV whose cells a spreadsheet never runs as formulas.
//! - [`vendor`]: a model's vendor and who sits on a panel after recusal.
//! - [`statutes`]: the articles of Chinese law as imported, and the
//!   citations of them in any text: found in both numeral styles, resolved,
//!   checked (no such article, repealed) and marked for pages.

pub mod accounts;
pub mod agreement;
pub mod benchmark;
pub mod core;
pub mod dlawbench;
pub mod estimate;
pub mod findings;
pub mod jobs;
pub mod lang;
pub mod lexpilot;
pub mod metrics;
pub mod names;
pub mod plawbench;
pub mod reference;
pub mod review;
pub mod spreadsheet;
pub mod statutes;
pub mod vendor;
pub mod vocab;
