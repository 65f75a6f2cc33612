//! A model's page (its runs and per-run scores) and the comparison of two
//! entries by paired bootstrap.

use leptos::prelude::*;

use crate::types::{CompareView, ModelView};

/// Every stored run of `model` on the current dataset, grouped into entries,
/// each run scored as the leaderboard counts it for the viewer (without
/// decisions under blind review, but for admins); 404 when it has none.
#[server(prefix = "/sfn")]
pub async fn get_model(model: String) -> Result<ModelView, ServerFnError> {
    use crate::ssr::{blind_review, current_dataset, dataset_view, fail, sight, state};

    let lang = crate::components::i18n::lang();
    let state = state()?;
    let db = &state.db;
    let dataset = current_dataset(db).await?;
    let sight = sight().await?;
    let found = services::views::model_entries(&state, &dataset, &model, sight, lang)
        .await
        .map_err(fail)?;
    Ok(ModelView {
        blind: blind_review(db, &dataset, sight, found.left_out).await?,
        dataset: dataset_view(&dataset),
        model,
        entries: found.entries,
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
    use crate::ssr::{blind_review, current_dataset, dataset_view, fail, sight, state};
    use services::read::RESAMPLES;

    let lang = crate::components::i18n::lang();
    let class = services::views::class_param(class.as_deref()).map_err(fail)?;
    let state = state()?;
    let dataset = current_dataset(&state.db).await?;
    let sight = sight().await?;
    let comparison = services::views::compare(
        &state,
        &dataset,
        a.as_deref(),
        b.as_deref(),
        class,
        sight,
        lang,
    )
    .await
    .map_err(fail)?;
    Ok(CompareView {
        blind: blind_review(&state.db, &dataset, sight, comparison.left_out).await?,
        dataset: dataset_view(&dataset),
        models: comparison.models,
        a,
        b,
        class,
        rows: comparison.rows,
        resamples: RESAMPLES,
    })
}
