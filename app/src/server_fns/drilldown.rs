//! The drill-down of a leaderboard cell: one model's stored runs, parsed
//! against the current dataset, and the items behind the cell.

use engine::lexpilot::drilldown::Drilldown;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::types::DatasetView;

/// The drill-down page: the items behind one cell of one model's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellItems {
    pub dataset: DatasetView,
    pub model: String,
    /// How many leaderboard entries the model's runs form: more than one when
    /// runs of the same model were made with different judges or settings,
    /// which the leaderboard shows as separate rows and this page together.
    pub entries: usize,
    pub drill: Drilldown,
    /// The statute citations in the texts the page shows.
    pub marks: engine::statutes::MarkMap,
    /// How the citations in all of the model's responses (every stored
    /// run, every task) stand against the imported statutes.
    pub citations: engine::statutes::CitationCheck,
    /// How many runs `citations` counts over.
    pub citation_runs: usize,
    /// The page of cases shown (`drill.cases` holds only its cases; the
    /// tallies and the confusion matrix count them all).
    pub cases_page: engine::core::paging::Page<()>,
}

/// The items behind cell (`task`, `setup`, `class`) of `model`'s row; 400 for
/// a query naming an unknown task, setup or class, 404 when the model has no
/// run with the task (or setup) on the current dataset. The judge's labels of
/// verdicts open for expert review are kept back from everyone but admins.
/// The cases' items come [`engine::lexpilot::drilldown::CASES_PER_PAGE`] to
/// a `page` (1 when absent; past the last, the last).
#[server(prefix = "/sfn")]
pub async fn get_cell_items(
    model: String,
    task: Option<String>,
    setup: Option<String>,
    class: Option<String>,
    page: Option<u32>,
) -> Result<CellItems, ServerFnError> {
    use axum::http::StatusCode;
    use engine::lexpilot::drilldown::Cell;

    use crate::ssr::{current_dataset, current_user, dataset_view, fail, set_status, state};

    let cell = Cell::from_query(task.as_deref(), setup.as_deref(), class.as_deref()).map_err(
        |message| {
            set_status(StatusCode::BAD_REQUEST);
            ServerFnError::new(message)
        },
    )?;
    let state = state()?;
    let db = &state.db;
    let dataset = current_dataset(db).await?;
    // Judge verdicts under blind review stay hidden from everyone but
    // admins: the same data the drill-down's export writes.
    let viewer = current_user().await?;
    let services::views::LexpilotCell {
        runs,
        entries,
        mut drill,
    } = services::views::lexpilot_cell(&state, &dataset, &model, cell, viewer.as_ref())
        .await
        .map_err(fail)?;
    // The page's cases alone (citations are marked in what is shown).
    let shown = engine::core::paging::page_of(
        std::mem::take(&mut drill.cases),
        page.unwrap_or(1),
        engine::lexpilot::drilldown::CASES_PER_PAGE,
    );
    drill.cases = shown.items;
    let cases_page = engine::core::paging::Page {
        items: Vec::new(),
        total: shown.total,
        page: shown.page,
        per_page: shown.per_page,
    };
    let statutes = state.statutes.index(db).await.map_err(fail)?;
    let marks = statutes.mark_map(drill.texts());
    let citations = statutes.check(runs.iter().flat_map(|run| run.responses()));
    Ok(CellItems {
        dataset: dataset_view(&dataset),
        entries,
        model,
        drill,
        marks,
        citations,
        citation_runs: runs.len(),
        cases_page,
    })
}
