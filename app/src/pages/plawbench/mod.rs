//! PLawBench's pages (`docs/benchmarks/plawbench.md`): the dataset and its
//! statistics, the item list and one item with its rubric, the leaderboard
//! laid out like the official ranking (with evalscope's view and Task 2 by
//! category), and the drill-downs from a cell to its items and on to one
//! item as a run answered it. Every state is in the URL, so links share and
//! pages read the same without JavaScript.

pub mod drilldown;
pub mod item;
pub mod items;
pub mod leaderboard;
pub mod overview;

use engine::plawbench::dataset::Task;
use leptos::prelude::*;

use crate::url::encode;

/// The sub-navigation of every PLawBench page; `current` is the selected tab.
#[component]
pub fn PlawTabs(current: &'static str) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let tab = |href: &'static str, key: &'static str, label: &'static str| {
        let selected = key == current;
        view! { <a href=href class:selected=selected aria-current=selected.then_some("page")>{label}</a> }
    };
    view! {
        <nav class="tabs" aria-label="PLawBench">
            {tab("/plawbench", "dataset", lang.t("数据集", "Dataset"))}
            {tab("/plawbench/items", "items", lang.t("题目", "Items"))}
            {tab("/plawbench/leaderboard", "leaderboard", lang.t("排行榜", "Leaderboard"))}
        </nav>
    }
}

/// The badge of a task.
#[component]
pub fn TaskBadge(task: Task) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! { <span class=format!("badge task task-{}", task.as_str())>{task.label(lang)}</span> }
}

/// `key=value` pairs of a query, with the set ones percent-encoded.
fn query(pairs: &[(&str, Option<String>)]) -> String {
    let parts: Vec<String> = pairs
        .iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}={}", encode(v))))
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

/// The page of item `item_id`.
pub fn item_url(item_id: &str) -> String {
    format!("/plawbench/items/{}", encode(item_id))
}

/// The drill-down of the cell of entry (`model`, `setting`) in `column`.
pub fn cell_url(
    model: &str,
    setting: Option<&str>,
    column: &str,
    category: Option<&str>,
) -> String {
    format!(
        "/plawbench/leaderboard/items{}",
        query(&[
            ("model", Some(model.to_owned())),
            ("setting", setting.map(str::to_owned)),
            ("column", Some(column.to_owned())),
            ("category", category.map(str::to_owned)),
        ])
    )
}

/// Item `item_id` as run `run` of entry (`model`, `setting`) answered it.
pub fn item_run_url(model: &str, setting: Option<&str>, run: u32, item_id: &str) -> String {
    format!(
        "/plawbench/leaderboard/item{}",
        query(&[
            ("model", Some(model.to_owned())),
            ("setting", setting.map(str::to_owned)),
            ("run", Some(run.to_string())),
            ("item", Some(item_id.to_owned())),
        ])
    )
}

/// A ratio as the official ranking prints it: ×100, two decimals.
pub fn percent(value: Option<f64>) -> String {
    value.map_or_else(|| "—".to_owned(), |v| format!("{:.2}", v * 100.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_encode_names_and_leave_out_unset_parts() {
        assert_eq!(
            cell_url("Sim A (simulated)", None, "task2", None),
            "/plawbench/leaderboard/items?model=Sim%20A%20%28simulated%29&column=task2"
        );
        assert_eq!(
            item_run_url("M", Some("parse: strict"), 2, "case_analysis-1"),
            "/plawbench/leaderboard/item?model=M&setting=parse%3A%20strict&run=2&item=case_analysis-1"
        );
        assert_eq!(
            item_url("legal_consultation-3"),
            "/plawbench/items/legal_consultation-3"
        );
    }
}
