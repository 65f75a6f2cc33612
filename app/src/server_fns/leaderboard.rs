//! The leaderboard: the score document of the current dataset.

use leptos::prelude::*;

use crate::types::Leaderboard;

#[server(prefix = "/sfn")]
pub async fn get_leaderboard() -> Result<Leaderboard, ServerFnError> {
    use crate::ssr::{current_dataset, dataset_view, db, from_db};
    let db = db()?;
    let dataset = current_dataset(&db).await?;
    let scores = crate::ssr::leaderboard(&db, &dataset)
        .await
        .map_err(from_db)?;
    Ok(Leaderboard {
        dataset: dataset_view(&dataset),
        scores,
    })
}
