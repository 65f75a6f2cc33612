//! The synthetic demo dataset and simulated demo runs, compiled into the
//! binary and imported on first start into an empty database.

use db::datasets::{ImportOutcome, ImportSource};
use db::runs::OnDuplicate;
use db::Db;
use services::ingest::RunFile;

/// The dataset file (docs/formats.md §2): 72 fictional cases, two per cause.
pub const DEMO_DATASET: &str = include_str!("../data/demo-synthetic.jsonl");
/// Its name in the app; says it is synthetic wherever it is shown.
pub const DEMO_NAME: &str = "lexpilot-demo-synthetic";

/// Simulated runs of three fictional models on the demo dataset (three runs
/// each; `server/data/runs/generate.py` makes them), so a fresh start shows a
/// populated leaderboard.
pub const DEMO_RUNS: [(&str, &str); 9] = [
    (
        "sim-lawassist-7b-run1",
        include_str!("../data/runs/sim-lawassist-7b-run1.jsonl"),
    ),
    (
        "sim-lawassist-7b-run2",
        include_str!("../data/runs/sim-lawassist-7b-run2.jsonl"),
    ),
    (
        "sim-lawassist-7b-run3",
        include_str!("../data/runs/sim-lawassist-7b-run3.jsonl"),
    ),
    (
        "sim-openchat-72b-run1",
        include_str!("../data/runs/sim-openchat-72b-run1.jsonl"),
    ),
    (
        "sim-openchat-72b-run2",
        include_str!("../data/runs/sim-openchat-72b-run2.jsonl"),
    ),
    (
        "sim-openchat-72b-run3",
        include_str!("../data/runs/sim-openchat-72b-run3.jsonl"),
    ),
    (
        "sim-frontier-2-run1",
        include_str!("../data/runs/sim-frontier-2-run1.jsonl"),
    ),
    (
        "sim-frontier-2-run2",
        include_str!("../data/runs/sim-frontier-2-run2.jsonl"),
    ),
    (
        "sim-frontier-2-run3",
        include_str!("../data/runs/sim-frontier-2-run3.jsonl"),
    ),
];

/// Imports the demo dataset and its simulated runs if the database holds no
/// dataset yet.
pub async fn ensure_loaded(db: &Db) -> anyhow::Result<Option<ImportOutcome>> {
    if db::datasets::current(db, engine::benchmark::Benchmark::Lexpilot)
        .await?
        .is_some()
    {
        return Ok(None);
    }
    let cases = engine::lexpilot::dataset::parse_dataset(DEMO_DATASET)
        .map_err(|e| anyhow::anyhow!("the built-in demo dataset is invalid:\n{e}"))?;
    let src = ImportSource {
        name: DEMO_NAME,
        source: "built-in demo (synthetic)",
        synthetic: true,
    };
    let outcome = db::datasets::import(db, src, &cases).await?;
    let files: Vec<RunFile> = DEMO_RUNS
        .iter()
        .map(|(name, file)| RunFile::new(*name, file.as_bytes()))
        .collect();
    services::ingest::store(db, outcome.dataset(), &files, None, OnDuplicate::Refuse)
        .await
        .map_err(|e| anyhow::anyhow!("the built-in demo runs cannot be stored: {e}"))?;
    Ok(Some(outcome))
}
