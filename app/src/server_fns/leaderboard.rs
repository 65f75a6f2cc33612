//! The leaderboard: one view of the current dataset's score document, with
//! the bootstrap interval of every cell and the view's bar chart.

use leptos::prelude::*;

use crate::types::LeaderboardView;

/// The table of view (`task`, `setup`, `sort`) as the leaderboard page shows
/// it; unknown values fall back to the defaults, as in the page's URL.
#[server(prefix = "/sfn")]
pub async fn get_leaderboard(
    task: Option<String>,
    setup: Option<String>,
    sort: Option<String>,
) -> Result<LeaderboardView, ServerFnError> {
    use engine::lexpilot::leaderboard::{build_table, View};

    use crate::ssr::{blind_review, current_dataset, dataset_view, fail, sight, state};

    let view = View::from_query(task, setup, sort);
    let state = state()?;
    let dataset = current_dataset(&state.db).await?;
    let sight = sight().await?;
    // Means and intervals from one snapshot of the runs, joined by entry.
    let snapshot = state
        .read
        .sampled(&state.db, &dataset, sight)
        .await
        .map_err(fail)?;
    let doc = &snapshot.document;
    let table = build_table(doc, &view);
    let keys: Vec<String> = table.columns.iter().map(|c| c.key.clone()).collect();
    let by_entry = state
        .read
        .intervals(&snapshot, &view, keys.clone())
        .await
        .map_err(fail)?;
    let intervals = table
        .rows
        .iter()
        .map(|row| {
            let cells = by_entry.get(row.entry);
            keys.iter()
                .map(|k| cells.and_then(|m| m.get(k)).copied())
                .collect()
        })
        .collect();
    let chart = chart(&table, &view);
    let reference = {
        use engine::benchmark::Benchmark;
        use engine::lexpilot::leaderboard::reference_view;
        let rows = state
            .read
            .reference(&state.db, Benchmark::Lexpilot)
            .await
            .map_err(fail)?;
        let mut views: Vec<String> = keys.iter().map(|k| reference_view(&view, k)).collect();
        views.dedup();
        // Deltas against the entries run as the paper runs them (the
        // standard user), never one run under another user condition.
        let stored: Vec<(usize, String, Vec<Option<f64>>)> = table
            .rows
            .iter()
            .filter(|r| r.setting.is_none())
            .map(|r| {
                let means = r.cells.iter().map(|c| c.map(|m| m.mean)).collect();
                (r.entry, r.model.clone(), means)
            })
            .collect();
        engine::reference::reference_lines(Benchmark::Lexpilot, &rows, &views, &keys, &stored)
    };
    Ok(LeaderboardView {
        reference,
        blind: blind_review(&state.db, &dataset, sight, snapshot.left_out).await?,
        dataset: dataset_view(&dataset),
        cases: snapshot.document.cases,
        table,
        intervals,
        chart,
    })
}

/// Bars per class and overall, one per row of the table.
#[cfg(feature = "ssr")]
fn chart(
    table: &engine::lexpilot::leaderboard::Table,
    view: &engine::lexpilot::leaderboard::View,
) -> String {
    use engine::lang::Lang;
    use engine::lexpilot::run::Task;
    use engine::vocab::Class;

    use crate::charts::{grouped_bars, Axis, Series};

    let overall = match view.task {
        Task::Ljp => format!("overall_{}", view.setup.as_str()),
        _ => "overall".to_owned(),
    };
    let picked: Vec<(usize, String)> = table
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| Class::parse(&c.key).is_some() || c.key == overall)
        .map(|(i, c)| (i, c.label.clone()))
        .collect();
    let series: Vec<Series> = table
        .rows
        .iter()
        .map(|row| Series {
            name: row.model.clone(),
            values: picked
                .iter()
                .map(|&(i, _)| row.cells[i].map(|m| (m.mean, m.std)))
                .collect(),
            runs: row.runs,
        })
        .collect();
    let lang = crate::components::i18n::lang();
    let (title, axis) = match (view.task, lang) {
        (Task::Lca, Lang::En) => ("LCA Macro-F1 per class".to_owned(), "Macro-F1"),
        (Task::Lca, Lang::Zh) => ("LCA 各类别 Macro-F1".to_owned(), "Macro-F1"),
        (Task::Dcg, Lang::En) => ("DCG accuracy per class".to_owned(), "Accuracy"),
        (Task::Dcg, Lang::Zh) => ("DCG 各类别准确率".to_owned(), "准确率"),
        (Task::Ljp, Lang::En) => (
            format!("LJP QWK per class ({} setup)", view.setup.label_en()),
            "QWK",
        ),
        (Task::Ljp, Lang::Zh) => (
            format!("LJP 各类别 QWK（{}）", view.setup.label_zh()),
            "QWK",
        ),
    };
    let groups: Vec<String> = picked
        .into_iter()
        .map(|(i, label)| match lang {
            Lang::En => label,
            // Short names: the bars' group labels have little room.
            Lang::Zh => Class::parse(&table.columns[i].key).map_or("总体".to_owned(), |c| {
                c.label_zh().trim_end_matches("纠纷").to_owned()
            }),
        })
        .collect();
    // 0–1, as the table beside it.
    grouped_bars(
        &title,
        &groups,
        &series,
        Axis {
            label: axis,
            max: 1.0,
        },
    )
}
