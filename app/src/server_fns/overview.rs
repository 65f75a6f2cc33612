//! The dataset overview.

use leptos::prelude::*;

use crate::types::Overview;

#[server(prefix = "/sfn")]
pub async fn dataset_overview() -> Result<Overview, ServerFnError> {
    use crate::ssr::{current_dataset, dataset_view, db, fail};
    let db = db()?;
    let dataset = current_dataset(&db).await?;
    let cases = db::cases::all(&db, dataset.id).await.map_err(fail)?;
    Ok(Overview {
        dataset: dataset_view(&dataset),
        stats: engine::lexpilot::stats::dataset_stats(&cases),
    })
}
