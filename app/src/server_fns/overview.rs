//! The dataset overview.

use leptos::prelude::*;

use crate::types::Overview;

#[server(prefix = "/sfn")]
pub async fn dataset_overview() -> Result<Overview, ServerFnError> {
    use crate::ssr::{current_dataset, dataset_view, db, fail};
    let db = db()?;
    let dataset = current_dataset(&db).await?;
    let cases = db::cases::all(&db, dataset.id).await.map_err(fail)?;
    let mut benchmarks = Vec::new();
    for benchmark in engine::benchmark::Benchmark::ALL
        .into_iter()
        .filter(|b| b.hosted())
    {
        let current = db::datasets::current(&db, benchmark).await.map_err(fail)?;
        let runs = match &current {
            Some(d) => db::runs::count(&db, d.id).await.map_err(fail)?,
            None => 0,
        };
        benchmarks.push(crate::types::BenchmarkCard {
            benchmark,
            dataset: current.as_ref().map(dataset_view),
            runs,
        });
    }
    Ok(Overview {
        benchmarks,
        dataset: dataset_view(&dataset),
        stats: engine::lexpilot::stats::dataset_stats(&cases),
    })
}
