//! A model's page (its runs and per-run scores) and the comparison of two
//! entries by paired bootstrap.

use leptos::prelude::*;

use crate::types::{CompareView, ModelView};

/// Every stored run of `model` on the current dataset, grouped into entries;
/// 404 when it has none.
#[server(prefix = "/sfn")]
pub async fn get_model(model: String) -> Result<ModelView, ServerFnError> {
    use crate::ssr::{current_dataset, dataset_view, db, fail};

    let db = db()?;
    let dataset = current_dataset(&db).await?;
    let entries = services::views::model_entries(&db, &dataset, &model)
        .await
        .map_err(fail)?;
    Ok(ModelView {
        dataset: dataset_view(&dataset),
        model,
        entries,
    })
}

/// Entry `a` against entry `b` (by model; the first entry of that model) on
/// every score, over all cases or `class`. Without both, only the pickers.
#[server(prefix = "/sfn")]
pub async fn compare(
    a: Option<String>,
    b: Option<String>,
    class: Option<String>,
) -> Result<CompareView, ServerFnError> {
    use crate::ssr::{current_dataset, dataset_view, fail, state};
    use services::read::RESAMPLES;

    let class = services::views::class_param(class.as_deref()).map_err(fail)?;
    let state = state()?;
    let dataset = current_dataset(&state.db).await?;
    let comparison = services::views::compare(&state, &dataset, a.as_deref(), b.as_deref(), class)
        .await
        .map_err(fail)?;
    Ok(CompareView {
        dataset: dataset_view(&dataset),
        models: comparison.models,
        a,
        b,
        class,
        rows: comparison.rows,
        resamples: RESAMPLES,
    })
}
