//! The benchmark pipeline: runs the three tasks of the LexPilot paper
//! against OpenAI-compatible chat-completions endpoints (the evaluated
//! model, the user model playing the plaintiff, one judge or a panel) and
//! writes run files of `docs/formats.md` §3 that the engine parses and
//! scores; PLawBench the same way ([`plawbench`]: the model and a judge
//! panel, run files of `docs/benchmarks/plawbench.md` §B3); and DLawBench
//! ([`dlawbench`]: a lawyer model interviewing a simulated client in four
//! narrative styles, a recusing judge panel, run files of
//! `docs/benchmarks/dlawbench.md` §A3).
//!
//! - [`config`]: endpoints, tasks, user conditions, settings, limits.
//! - [`prompts`]: the Appendix F templates (`pipeline/prompts/`) and the
//!   pure functions that fill them.
//! - [`parse`]: reading judges' replies, validated.
//! - [`panel`]: judge recusal and vote aggregation.
//! - [`cache`]: the on-disk call cache that lets a job resume.
//! - [`usage`]: tokens and cost per run.
//! - [`job`]: [`Job`], the unit the CLI and the web server run, with its
//!   [`Progress`] and cancellation.
//! - [`plawbench`]: PLawBench's [`plawbench::Config`] and
//!   [`plawbench::Job`], on the same machinery.
//! - [`dlawbench`]: DLawBench's [`dlawbench::Config`] and
//!   [`dlawbench::Job`], on the same machinery.
//! - [`targeted`]: the Targeted vs Off-target experiment (Table 4,
//!   Appendix E.7): [`targeted::Config`] and [`targeted::Job`], on the same
//!   machinery, writing the engine's result files.
//! - `runner` (private): the loop every job shares (cache, items in flight,
//!   progress, cancellation, one write per finished run).
//! - [`error`]: [`PipelineError`] and [`CallError`].
//! - `stub` (feature `stub`): a scripted OpenAI-compatible server for tests.
//!
//! Depends on `engine` for the data types, tokio and reqwest for the calls.
//! Prompt building, reply parsing and aggregation are pure functions (the
//! engine's, for PLawBench and DLawBench); only `client`, `cache`, `runner`,
//! `job`, `plawbench` and `dlawbench` do I/O.
//!
//! # Example
//!
//! ```no_run
//! use pipeline::config::{Config, Endpoint};
//! use pipeline::Job;
//! use tokio_util::sync::CancellationToken;
//!
//! # async fn example(cases: Vec<engine::lexpilot::dataset::Case>) -> Result<(), pipeline::PipelineError> {
//! let config = Config::new(
//!     Endpoint::new("https://api.example.com/v1", "GPT-5.6-Sol").with_key_env("OPENAI_API_KEY"),
//!     Endpoint::new("https://api.deepseek.com/v1", "DeepSeek-V4.1-Flash").with_key_env("DEEPSEEK_API_KEY"),
//!     Endpoint::judge("https://api.deepseek.com/v1", "DeepSeek-R1").with_key_env("DEEPSEEK_API_KEY"),
//!     "runs/".into(),
//! );
//! let job = Job::new(config, cases)?;
//! let mut progress = job.progress();
//! tokio::spawn(async move {
//!     while progress.changed().await.is_ok() {
//!         let p = progress.borrow().clone();
//!         eprintln!("{}/{} items", p.done, p.total);
//!     }
//! });
//! for run in job.run(CancellationToken::new()).await? {
//!     println!("{}", run.path.display());
//! }
//! # Ok(())
//! # }
//! ```

pub mod cache;
mod client;
pub mod config;
pub mod dlawbench;
pub mod error;
pub mod fidelity;
pub mod job;
pub mod panel;
pub mod parse;
pub mod plawbench;
pub mod prompts;
mod runner;
#[cfg(feature = "stub")]
pub mod stub;
pub mod targeted;
mod tasks;
pub mod usage;

pub use client::{test_call, TEST_PROMPT};
pub use error::{CallError, PipelineError};
pub use job::{Job, Progress, RunOutput};
pub use tasks::{MAX_DCG_ROUNDS, MAX_INTERACTION_ROUNDS};
pub use tokio_util::sync::CancellationToken;
