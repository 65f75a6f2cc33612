//! The shared kernel: what every benchmark's module uses and no benchmark
//! owns. It imports no benchmark module; benchmarks import it, never each
//! other.
//!
//! - [`entry`]: [`entry::EntryKey`] (what a run header says of its
//!   leaderboard entry) and the model's [`entry::Family`].
//! - [`errors`]: the one error type of every file read
//!   ([`errors::DatasetError`], its list, warnings, the run names and
//!   [`errors::MAX_ERRORS`]), all shown as `line L (ID), field F: message`.
//! - `lines`: line-by-line JSON reading and error collection shared by every
//!   dataset and run parser (crate-private).
//! - [`dialogue`]: a dialogue's [`dialogue::Turn`].
//! - [`panel`]: what the judge-panel benchmarks share: judge seats, how a
//!   panel's values are combined, run-file lines, entry settings.
//! - [`table`]: tables as data (columns with id and label, rows of cells)
//!   and the one writer of their CSV, JSON and LaTeX files, with the one
//!   [`table::latex_escape`].
//! - [`columns`]: what a table column declares: which way is better (bold,
//!   sort order, exports follow it) and the scale its scores are shown on.
//! - [`paging`]: pages and paging, and what item lists filter on for the
//!   benchmarks whose items storage keeps in one generic table.

pub mod columns;
pub mod dialogue;
pub mod entry;
pub mod errors;
pub(crate) mod lines;
pub mod paging;
pub mod panel;
pub mod table;
