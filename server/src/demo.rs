//! The synthetic demo datasets and simulated demo runs of each hosted
//! benchmark, compiled into the binary and imported on first start into an
//! empty database.

use db::datasets::{ImportOutcome, ImportSource};
use db::runs::OnDuplicate;
use db::Db;
use engine::benchmark::Benchmark;
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

/// The PLawBench demo (`docs/benchmarks/plawbench.md` §B1.1): 24 fictional
/// items over the four tasks, written for the demo.
pub const PLAW_DEMO_DATASET: &str = include_str!("../data/plawbench/demo.jsonl");
/// Its name in the app.
pub const PLAW_DEMO_NAME: &str = "plawbench-demo-synthetic";

/// Simulated runs of three fictional models on the PLawBench demo (two runs
/// each, judged by a simulated panel of two; `server/data/plawbench/generate.py`).
pub const PLAW_DEMO_RUNS: [(&str, &str); 6] = [
    (
        "sim-frontier-3-run1",
        include_str!("../data/plawbench/runs/sim-frontier-3-run1.jsonl"),
    ),
    (
        "sim-frontier-3-run2",
        include_str!("../data/plawbench/runs/sim-frontier-3-run2.jsonl"),
    ),
    (
        "sim-lexcounsel-14b-run1",
        include_str!("../data/plawbench/runs/sim-lexcounsel-14b-run1.jsonl"),
    ),
    (
        "sim-lexcounsel-14b-run2",
        include_str!("../data/plawbench/runs/sim-lexcounsel-14b-run2.jsonl"),
    ),
    (
        "sim-openlaw-70b-run1",
        include_str!("../data/plawbench/runs/sim-openlaw-70b-run1.jsonl"),
    ),
    (
        "sim-openlaw-70b-run2",
        include_str!("../data/plawbench/runs/sim-openlaw-70b-run2.jsonl"),
    ),
];

/// The DLawBench demo (`docs/benchmarks/dlawbench.md` §A1.2): 12 fictional
/// cases, six under Chinese law in Chinese and six under U.S. law in
/// English, written for the demo.
pub const DLAW_DEMO_DATASET: &str = include_str!("../data/dlawbench/demo.jsonl");
/// Its name in the app.
pub const DLAW_DEMO_NAME: &str = "dlawbench-demo-synthetic";

/// Simulated runs of three fictional lawyer models on the DLawBench demo
/// (three runs each, every case in the four styles, judged by a simulated
/// panel of three; `server/data/dlawbench/generate.py`).
pub const DLAW_DEMO_RUNS: [(&str, &str); 9] = [
    (
        "sim-frontier-5-run1",
        include_str!("../data/dlawbench/runs/sim-frontier-5-run1.jsonl"),
    ),
    (
        "sim-frontier-5-run2",
        include_str!("../data/dlawbench/runs/sim-frontier-5-run2.jsonl"),
    ),
    (
        "sim-frontier-5-run3",
        include_str!("../data/dlawbench/runs/sim-frontier-5-run3.jsonl"),
    ),
    (
        "sim-lexcounsel-14b-run1",
        include_str!("../data/dlawbench/runs/sim-lexcounsel-14b-run1.jsonl"),
    ),
    (
        "sim-lexcounsel-14b-run2",
        include_str!("../data/dlawbench/runs/sim-lexcounsel-14b-run2.jsonl"),
    ),
    (
        "sim-lexcounsel-14b-run3",
        include_str!("../data/dlawbench/runs/sim-lexcounsel-14b-run3.jsonl"),
    ),
    (
        "sim-openlaw-70b-run1",
        include_str!("../data/dlawbench/runs/sim-openlaw-70b-run1.jsonl"),
    ),
    (
        "sim-openlaw-70b-run2",
        include_str!("../data/dlawbench/runs/sim-openlaw-70b-run2.jsonl"),
    ),
    (
        "sim-openlaw-70b-run3",
        include_str!("../data/dlawbench/runs/sim-openlaw-70b-run3.jsonl"),
    ),
];

/// Imports each hosted benchmark's demo dataset with its simulated runs,
/// for the benchmarks that have no dataset yet, into a database that holds
/// demo data only (a fresh one, or one whose every dataset is synthetic):
/// real data never gets demo data beside it. LexPilot's comes last, so its
/// runs are the newest. With them come the shipped published reference
/// rows of every benchmark (`data/reference/`). Returns what was imported.
pub async fn ensure_loaded(db: &Db) -> anyhow::Result<Vec<ImportOutcome>> {
    let datasets = db::datasets::list(db).await?;
    if datasets.iter().any(|d| !d.synthetic) {
        return Ok(Vec::new());
    }
    let has = |b: Benchmark| datasets.iter().any(|d| d.benchmark == b.as_str());
    let mut loaded = Vec::new();
    if !has(Benchmark::Plawbench) {
        let items = engine::plawbench::dataset::parse_dataset(PLAW_DEMO_DATASET)
            .map_err(|e| anyhow::anyhow!("the built-in PLawBench demo dataset is invalid:\n{e}"))?;
        let outcome =
            db::datasets::import_items(db, source(PLAW_DEMO_NAME), Benchmark::Plawbench, &items)
                .await?;
        store_runs(db, &outcome, &PLAW_DEMO_RUNS).await?;
        loaded.push(outcome);
    }
    if !has(Benchmark::Dlawbench) {
        let cases = engine::dlawbench::dataset::parse_dataset(DLAW_DEMO_DATASET)
            .map_err(|e| anyhow::anyhow!("the built-in DLawBench demo dataset is invalid:\n{e}"))?;
        let outcome =
            db::datasets::import_items(db, source(DLAW_DEMO_NAME), Benchmark::Dlawbench, &cases)
                .await?;
        store_runs(db, &outcome, &DLAW_DEMO_RUNS).await?;
        loaded.push(outcome);
    }
    if !has(Benchmark::Lexpilot) {
        let cases = engine::lexpilot::dataset::parse_dataset(DEMO_DATASET)
            .map_err(|e| anyhow::anyhow!("the built-in demo dataset is invalid:\n{e}"))?;
        let outcome = db::datasets::import(db, source(DEMO_NAME), &cases).await?;
        store_runs(db, &outcome, &DEMO_RUNS).await?;
        loaded.push(outcome);
    }
    if !loaded.is_empty() {
        // The papers' and releases' published figures, shown beside the
        // demo entries as reference rows (data/reference/).
        services::reference::load_published(db)
            .await
            .map_err(|e| anyhow::anyhow!("the shipped reference rows cannot be stored: {e}"))?;
    }
    Ok(loaded)
}

fn source(name: &str) -> ImportSource<'_> {
    ImportSource {
        name,
        source: "built-in demo (synthetic)",
        synthetic: true,
    }
}

async fn store_runs(db: &Db, outcome: &ImportOutcome, runs: &[(&str, &str)]) -> anyhow::Result<()> {
    let files: Vec<RunFile> = runs
        .iter()
        .map(|(name, file)| RunFile::new(*name, file.as_bytes()))
        .collect();
    services::ingest::store(db, outcome.dataset(), &files, None, OnDuplicate::Refuse)
        .await
        .map_err(|e| anyhow::anyhow!("the built-in demo runs cannot be stored: {e}"))?;
    Ok(())
}
