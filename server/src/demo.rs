//! The synthetic demo dataset, compiled into the binary and imported on first
//! start into an empty database.

use db::datasets::{ImportOutcome, ImportSource};
use db::Db;

/// The dataset file (docs/formats.md §2): 72 fictional cases, two per cause.
pub const DEMO_DATASET: &str = include_str!("../data/demo-synthetic.jsonl");
/// Its name in the app; says it is synthetic wherever it is shown.
pub const DEMO_NAME: &str = "lexpilot-demo-synthetic";

/// Imports the demo dataset if the database holds no dataset yet.
pub async fn ensure_loaded(db: &Db) -> anyhow::Result<Option<ImportOutcome>> {
    if db::datasets::current(db).await?.is_some() {
        return Ok(None);
    }
    let cases = engine::dataset::parse_dataset(DEMO_DATASET)
        .map_err(|e| anyhow::anyhow!("the built-in demo dataset is invalid:\n{e}"))?;
    let src = ImportSource {
        name: DEMO_NAME,
        source: "built-in demo (synthetic)",
        synthetic: true,
    };
    Ok(Some(db::datasets::import(db, src, &cases).await?))
}
