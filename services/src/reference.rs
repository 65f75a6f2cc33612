//! Reference rows ([`engine::reference`]): importing a reference CSV, the
//! one path of `lexpilot import-reference`, `POST /api/reference` and the
//! demo. The file is read and checked against the benchmark's columns; an
//! invalid one is refused whole with every error naming file, line and
//! field ([`Error::InvalidDataset`], 422); a valid one replaces every row
//! of its (benchmark, origin) in one transaction. `check` runs every check
//! and stores nothing.

use db::Db;
use engine::benchmark::Benchmark;
use engine::reference::{parse_reference, PUBLISHED};

use crate::error::Error;

/// The most bytes of a reference file.
pub const MAX_FILE_BYTES: usize = 1024 * 1024;

/// The shipped files of the papers' and releases' published results
/// (`data/reference/`), per benchmark.
pub const SHIPPED: [(Benchmark, &str, &str); 3] = [
    (
        Benchmark::Lexpilot,
        "data/reference/lexpilot.csv",
        include_str!("../../data/reference/lexpilot.csv"),
    ),
    (
        Benchmark::Plawbench,
        "data/reference/plawbench.csv",
        include_str!("../../data/reference/plawbench.csv"),
    ),
    (
        Benchmark::Dlawbench,
        "data/reference/dlawbench.csv",
        include_str!("../../data/reference/dlawbench.csv"),
    ),
];

/// What an import did or, for a check, would do.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ImportedReference {
    pub benchmark: String,
    pub origin: String,
    /// Rows in the file.
    pub rows: usize,
    /// Rows of the same origin stored before (replaced, or that would be).
    pub replaced: usize,
    /// Only checked: nothing was stored.
    pub check: bool,
}

/// An origin is a short label: not empty, at most 80 characters, no
/// control characters.
fn check_origin(origin: &str) -> Result<(), Error> {
    let bad = origin.trim().is_empty()
        || origin.chars().count() > 80
        || origin.chars().any(char::is_control);
    if bad {
        return Err(Error::Invalid(format!(
            "origin {origin:?} is not valid: a label of 1 to 80 characters without control characters ({PUBLISHED:?} marks a paper's or release's published figures)"
        )));
    }
    Ok(())
}

/// Imports reference file `name` (its `bytes`) for `benchmark` under
/// `origin`, replacing that origin's rows; with `check`, stores nothing.
pub async fn import(
    db: &Db,
    benchmark: Benchmark,
    name: &str,
    bytes: &[u8],
    origin: &str,
    by: Option<&str>,
    check: bool,
) -> Result<ImportedReference, Error> {
    check_origin(origin)?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(Error::Invalid(format!(
            "{name}: the file is larger than {} MiB",
            MAX_FILE_BYTES / (1024 * 1024)
        )));
    }
    let rows = parse_reference(name, bytes, benchmark)
        .map_err(|e| Error::InvalidDataset(e.to_string()))?;
    let replaced = if check {
        db::reference::count(db, benchmark, origin).await?
    } else {
        db::reference::import(db, benchmark, origin, by, &rows)
            .await?
            .replaced
    };
    Ok(ImportedReference {
        benchmark: benchmark.as_str().to_owned(),
        origin: origin.to_owned(),
        rows: rows.len(),
        replaced,
        check,
    })
}

/// Loads the shipped published rows of every benchmark (the demo does);
/// the same rows again change nothing but their import time.
pub async fn load_published(db: &Db) -> Result<usize, Error> {
    let mut n = 0;
    for (benchmark, name, text) in SHIPPED {
        n += import(db, benchmark, name, text.as_bytes(), PUBLISHED, None, false)
            .await?
            .rows;
    }
    Ok(n)
}
