//! PLawBench pages' data: the dataset's statistics, the item list and one
//! item, the leaderboard views (official ranking, evalscope view, Task 2 by
//! category) and the drill-downs to a cell's items and to one item as a run
//! answered it. All read the current PLawBench dataset version; the figures
//! come from the read models' snapshot of it.

use engine::core::paging::ItemFilter;
use leptos::prelude::*;
use leptos::server_fn;

use crate::types::{
    PlawBoard, PlawCellView, PlawDatasetView, PlawItemList, PlawItemRunView, PlawItemView,
};

/// Rows of a drill-down page.
pub const CELL_ROWS: u32 = 50;

#[server(prefix = "/sfn")]
pub async fn plaw_overview() -> Result<PlawDatasetView, ServerFnError> {
    use crate::ssr::{current_dataset_of, dataset_view, fail, state};
    let state = state()?;
    let dataset = current_dataset_of(&state.db, engine::benchmark::Benchmark::Plawbench).await?;
    let items = db::items::all::<engine::plawbench::dataset::Item>(&state.db, dataset.id)
        .await
        .map_err(fail)?;
    let runs = db::runs::count(&state.db, dataset.id).await.map_err(fail)?;
    Ok(PlawDatasetView {
        dataset: dataset_view(&dataset),
        stats: engine::plawbench::query::stats(&items),
        runs,
    })
}

/// JSON-encoded: a filter with every field unset has nothing to put in a form body.
#[server(prefix = "/sfn", input = server_fn::codec::Json)]
pub async fn plaw_items(filter: ItemFilter, page: u32) -> Result<PlawItemList, ServerFnError> {
    use engine::plawbench::dataset::{Item, Task};
    use engine::plawbench::query::ItemSummary;

    use crate::ssr::{current_dataset_of, dataset_view, fail, state};
    let state = state()?;
    let dataset = current_dataset_of(&state.db, engine::benchmark::Benchmark::Plawbench).await?;
    let (page, per_page) = engine::core::paging::paging(Some(page), None);
    let found = db::items::list::<Item>(&state.db, dataset.id, &filter, page, per_page)
        .await
        .map_err(fail)?;
    let categories = db::items::categories(&state.db, dataset.id, Task::CaseAnalysis.as_str())
        .await
        .map_err(fail)?;
    Ok(PlawItemList {
        dataset: dataset_view(&dataset),
        page: found.map(|i| ItemSummary::of(&i)),
        categories,
    })
}

#[server(prefix = "/sfn")]
pub async fn plaw_item(item_id: String) -> Result<PlawItemView, ServerFnError> {
    use crate::ssr::{current_dataset_of, dataset_view, fail, state};
    let state = state()?;
    let dataset = current_dataset_of(&state.db, engine::benchmark::Benchmark::Plawbench).await?;
    let found = db::items::get(&state.db, dataset.id, &item_id)
        .await
        .map_err(fail)?;
    Ok(PlawItemView {
        dataset: dataset_view(&dataset),
        item: found.item,
        position: found.position + 1,
        previous: found.previous,
        next: found.next,
    })
}

/// The leaderboard sorted by column `sort` (a column key; unknown or none:
/// grouped by family).
#[server(prefix = "/sfn")]
pub async fn plaw_leaderboard(sort: Option<String>) -> Result<PlawBoard, ServerFnError> {
    use engine::plawbench::leaderboard::{
        build_table, category_table, evalscope_view, runs_of, View,
    };

    use crate::ssr::{blind_review, current_dataset_of, dataset_view, fail, sight, state};
    let state = state()?;
    let dataset = current_dataset_of(&state.db, engine::benchmark::Benchmark::Plawbench).await?;
    let sight = sight().await?;
    let snapshot = state
        .read
        .plaw_snapshot(&state.db, &dataset, sight)
        .await
        .map_err(fail)?;
    let doc = &snapshot.document;
    let table = build_table(doc, &View::from_query(sort.as_deref()));
    let scored = &snapshot.run_scores;
    let evalscope = table
        .rows
        .iter()
        .map(|row| evalscope_view(runs_of(scored, &row.key)))
        .collect();
    let categories = category_table(doc, scored);
    let chart = chart(&categories);
    let reference = reference_lines(&state, &table).await?;
    Ok(PlawBoard {
        reference,
        blind: blind_review(&state.db, &dataset, sight, snapshot.left_out).await?,
        dataset: dataset_view(&dataset),
        items: doc.items.clone(),
        table,
        evalscope,
        categories,
        chart,
    })
}

/// The published (and a lab's own) figures of the official ranking, one
/// line per model and origin, cells in `table.columns` order, with deltas
/// against the stored entry of the same model run as published (no
/// setting).
#[cfg(feature = "ssr")]
async fn reference_lines(
    state: &services::AppState,
    table: &engine::plawbench::leaderboard::Table,
) -> Result<Vec<engine::reference::ReferenceLine>, ServerFnError> {
    use engine::benchmark::Benchmark;
    use engine::plawbench::leaderboard::REFERENCE_VIEW;
    let rows = state
        .read
        .reference(&state.db, Benchmark::Plawbench)
        .await
        .map_err(crate::ssr::fail)?;
    let keys: Vec<String> = table.columns.iter().map(|c| c.key().to_owned()).collect();
    let stored: Vec<(usize, String, Vec<Option<f64>>)> = table
        .rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.setting.is_none())
        .map(|(i, r)| {
            (
                i,
                r.model.clone(),
                r.cells.iter().map(|c| c.map(|m| m.mean)).collect(),
            )
        })
        .collect();
    Ok(engine::reference::reference_lines(
        Benchmark::Plawbench,
        &rows,
        &[REFERENCE_VIEW.to_owned()],
        &keys,
        &stored,
    ))
}

/// Task 2 accuracy per category, one bar per entry.
#[cfg(feature = "ssr")]
fn chart(table: &engine::plawbench::leaderboard::CategoryTable) -> String {
    let lang = crate::components::i18n::lang();
    use crate::charts::{grouped_bars, Axis, Series};
    use engine::plawbench::leaderboard::Column;
    // The table beside the chart is ×100, and so is the chart.
    let factor = Column::Task2.scale().factor();
    let groups: Vec<String> = table.rows.iter().map(|r| r.category.clone()).collect();
    let series: Vec<Series> = table
        .entries
        .iter()
        .enumerate()
        .map(|(i, entry)| Series {
            name: entry.label(),
            values: table
                .rows
                .iter()
                .map(|r| r.cells.get(i).and_then(|c| c.acc))
                .map(|m| m.map(|m| (m.mean * factor, m.std.map(|s| s * factor))))
                .collect(),
            runs: entry.runs,
        })
        .collect();
    grouped_bars(
        lang.t(
            "任务二（案例分析）各分类得分",
            "Task 2 accuracy by category",
        ),
        &groups,
        &series,
        Axis {
            label: lang.t("得分 ×100", "acc ×100"),
            max: factor,
        },
    )
}

/// The index in `doc` of the entry of `model` shown with `setting` on the
/// leaderboard, or a 404.
#[cfg(feature = "ssr")]
fn entry_of(
    doc: &engine::plawbench::score::ScoreDocument,
    model: &str,
    setting: Option<&str>,
) -> Result<usize, ServerFnError> {
    services::views::plaw_entry(doc, model, setting, crate::components::i18n::lang())
        .map_err(crate::ssr::fail)
}

/// The items behind the cell of entry (`model`, `setting`) in column
/// `column` (a column key), of one `case_analysis` category or all, page
/// `page` of [`CELL_ROWS`] rows.
#[server(prefix = "/sfn")]
pub async fn plaw_cell(
    model: String,
    setting: Option<String>,
    column: String,
    category: Option<String>,
    page: Option<u32>,
) -> Result<PlawCellView, ServerFnError> {
    use engine::plawbench::leaderboard::{column_metric, Column};

    use crate::components::i18n::Lang;
    use crate::ssr::{current_dataset_of, dataset_view, fail, state};
    let lang = crate::components::i18n::lang();
    let metric = column_metric(&column).ok_or_else(|| {
        let expected = Column::ALL.map(Column::key).join(", ");
        fail(services::Error::Invalid(match lang {
            Lang::Zh => format!("未知的列 {column:?}；应为以下之一：{expected}"),
            Lang::En => format!("unknown column {column:?}; expected one of {expected}"),
        }))
    })?;
    let state = state()?;
    let dataset = current_dataset_of(&state.db, engine::benchmark::Benchmark::Plawbench).await?;
    // Judge verdicts under blind review stay hidden from everyone but
    // admins: the same data the drill-down's export writes.
    let viewer = crate::ssr::current_user().await?;
    let cell = services::views::plaw_cell(
        &state,
        &dataset,
        &model,
        setting.as_deref(),
        metric,
        category.as_deref(),
        viewer.as_ref(),
        lang,
    )
    .await
    .map_err(fail)?;
    let pages = u32::try_from(cell.drill.total.div_ceil(CELL_ROWS as usize).max(1)).unwrap_or(1);
    let page = page.unwrap_or(1).clamp(1, pages);
    let offset = (page as usize - 1) * CELL_ROWS as usize;
    let statutes = state.statutes.index(&state.db).await.map_err(fail)?;
    let citations = statutes.check(cell.entry_runs().flat_map(|run| run.responses()));
    let citation_runs = cell.entry_runs().count();
    Ok(PlawCellView {
        dataset: dataset_view(&dataset),
        model,
        setting,
        drill: cell.drill.page(offset, CELL_ROWS as usize),
        page,
        pages,
        citations,
        citation_runs,
    })
}

/// Item `item_id` as run `run` of entry (`model`, `setting`) answered it.
#[server(prefix = "/sfn")]
pub async fn plaw_item_run(
    model: String,
    setting: Option<String>,
    run: u32,
    item_id: String,
) -> Result<PlawItemRunView, ServerFnError> {
    use crate::components::i18n::Lang;
    use crate::ssr::{current_dataset_of, dataset_view, fail, state};
    let lang = crate::components::i18n::lang();
    let state = state()?;
    let dataset = current_dataset_of(&state.db, engine::benchmark::Benchmark::Plawbench).await?;
    let (snapshot, runs) = state
        .read
        .plaw_runs(&state.db, &dataset, crate::ssr::sight().await?)
        .await
        .map_err(fail)?;
    let entry = entry_of(&snapshot.document, &model, setting.as_deref())?;
    let key = &snapshot.document.entries[entry].key;
    let not_found = |what: String| fail(services::Error::NotFound(what));
    let stored = runs
        .iter()
        .find(|(k, r)| k == key && r.header.run == run)
        .map(|(_, r)| r)
        .ok_or_else(|| {
            not_found(match lang {
                Lang::Zh => format!("模型 {model} 没有第 {run} 次运行"),
                Lang::En => format!("model {model} has no run {run}"),
            })
        })?;
    let item = snapshot
        .items
        .iter()
        .find(|i| i.item_id == item_id)
        .ok_or_else(|| {
            not_found(match lang {
                Lang::Zh => format!("没有题目 {item_id}"),
                Lang::En => format!("no item {item_id}"),
            })
        })?;
    let mut detail = engine::plawbench::drilldown::item_detail(item, stored);
    if let Some(open) = ssr::hidden_verdicts(&state.db, &dataset.name, &model).await? {
        if open.iter().any(|(r, id)| *r == run && *id == item_id) {
            detail.hide_verdict();
        }
    }
    let statutes = state.statutes.index(&state.db).await.map_err(fail)?;
    let marks = statutes.mark_map(detail.response.as_deref());
    Ok(PlawItemRunView {
        dataset: dataset_view(&dataset),
        setting,
        detail,
        marks,
    })
}

/// Server-only helpers.
#[cfg(feature = "ssr")]
mod ssr {
    use leptos::prelude::ServerFnError;

    /// The (run, item) verdicts of `model` to keep back for the signed-in
    /// user ([`crate::ssr::hidden_rubric_verdicts`]).
    pub async fn hidden_verdicts(
        db: &db::Db,
        dataset_name: &str,
        model: &str,
    ) -> Result<Option<Vec<(u32, String)>>, ServerFnError> {
        Ok(crate::ssr::hidden_rubric_verdicts(db, dataset_name, model)
            .await?
            .map(|open| open.into_iter().map(|(run, item, _)| (run, item)).collect()))
    }
}
