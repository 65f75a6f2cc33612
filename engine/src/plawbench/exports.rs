//! PLawBench's drill-down tables as [`Table`]s for the one export writer
//! ([`crate::core::table`]): the items behind a leaderboard cell, one row per
//! item and run, and the cell's value per run. Values are ×100, as the
//! official ranking and the page print them. Built from the drill-down the
//! page renders, so a verdict kept back there
//! ([`CellDrilldown::hide_verdicts`]) is kept back here too, and a run's
//! value with it.
//!
//! ```
//! use engine::lang::Lang;
//! use engine::plawbench::dataset::parse_dataset;
//! use engine::plawbench::drilldown::cell_items;
//! use engine::plawbench::exports::{cell_items_table, cell_runs_table};
//! use engine::plawbench::run::parse_run;
//! use engine::plawbench::score::Metric;
//! use engine::core::table::Cell;
//!
//! let dataset = parse_dataset(r#"{"item_id": "a", "task": "legal_consultation", "question": "q", "rubric": "r", "max_points": 4}"#).unwrap();
//! let run = parse_run(r#"{"kind": "run", "benchmark": "plawbench", "model": "M", "run": 1, "judges": [{"model": "j"}], "judge_aggregation": "mean", "judge_parse": "lenient", "judge_attempts": 1, "source": "workbench"}
//! {"kind": "rubric", "item_id": "a", "task": "legal_consultation", "judgements": [{"judge": "j", "awarded": 1}]}"#, &dataset).unwrap();
//! let mut cell = cell_items(&dataset, &[(1, &run)], Metric::Task1, None);
//! let items = cell_items_table(&cell, "M", Lang::En);
//! assert_eq!(items.rows[0][5], Cell::Number(25.0));
//! cell.hide_verdicts(&[(1, "a".into())]);
//! let items = cell_items_table(&cell, "M", Lang::En);
//! assert_eq!((&items.rows[0][5], &items.rows[0][6]), (&Cell::Empty, &Cell::text("under review")));
//! assert_eq!(cell_runs_table(&cell, "M", Lang::En).rows[0][1], Cell::Empty);
//! ```

use crate::core::table::{Cell, Column, Table};
use crate::lang::Lang;
use crate::plawbench::drilldown::CellDrilldown;

/// A ratio ×100, as the page prints it.
fn percent(value: Option<f64>) -> Cell {
    Cell::opt_number(value.map(|v| v * 100.0))
}

/// "M · Task 2 · 婚姻家事": what a drill-down shows, for captions.
fn caption(cell: &CellDrilldown, model: &str, lang: Lang) -> String {
    let mut parts = vec![model.to_owned(), cell.column.label(lang).to_owned()];
    parts.extend(cell.category.clone());
    parts.join(" · ")
}

/// The items of the cell, one row per item and run over every row (not
/// one page): the item, its task, category and points, the run, the
/// panel's value ×100, whether it is scored, unavailable (with why) or
/// under review, and whether the answer was cut at the token limit.
pub fn cell_items_table(cell: &CellDrilldown, model: &str, lang: Lang) -> Table {
    let mut rows = Vec::new();
    for row in &cell.rows {
        for (run, item) in cell.runs.iter().zip(&row.runs) {
            let Some(item) = item else { continue };
            let status = if item.hidden {
                lang.t("审核中", "under review")
            } else if item.unavailable.is_some() {
                lang.t("不可用", "unavailable")
            } else {
                lang.t("已评分", "scored")
            };
            rows.push(vec![
                Cell::text(row.item_id.as_str()),
                Cell::text(row.task.label(lang)),
                Cell::opt_text(row.category.as_deref()),
                Cell::Number(row.max_points),
                Cell::Int(i64::from(run.run)),
                percent(item.value),
                Cell::text(status),
                Cell::opt_text(item.unavailable.as_deref()),
                Cell::text(if item.truncated {
                    lang.t("是", "yes")
                } else {
                    lang.t("否", "no")
                }),
            ]);
        }
    }
    Table {
        caption: caption(cell, model, lang),
        lang,
        columns: vec![
            Column::text("item_id", lang.t("题目", "Item")),
            Column::text("task", lang.t("任务", "Task")),
            Column::text("category", lang.t("分类", "Category")),
            Column::number("max_points", lang.t("满分", "Points"), 1),
            Column::number("run", lang.t("运行", "Run"), 0),
            Column::number("value", lang.t("得分（×100）", "Value (×100)"), 2),
            Column::text("status", lang.t("状态", "Status")),
            Column::text("reason", lang.t("不可用的原因", "Why unavailable")),
            Column::text("truncated", lang.t("被截断", "Cut at the token limit")),
        ],
        rows,
    }
}

/// The cell per run, as the page's totals row: its value ×100 (empty while
/// an item of it is under review) and its counts over every row.
pub fn cell_runs_table(cell: &CellDrilldown, model: &str, lang: Lang) -> Table {
    Table {
        caption: caption(cell, model, lang),
        lang,
        columns: vec![
            Column::number("run", lang.t("运行", "Run"), 0),
            Column::number("value", lang.t("得分（×100）", "Value (×100)"), 2),
            Column::number("items", lang.t("题目", "Items"), 0),
            Column::number("scored", lang.t("已评分", "Scored"), 0),
            Column::number("unavailable", lang.t("不可用", "Unavailable"), 0),
            Column::number("truncated", lang.t("被截断", "Truncated"), 0),
            Column::number("under_review", lang.t("审核中", "Under review"), 0),
        ],
        rows: cell
            .runs
            .iter()
            .map(|r| {
                vec![
                    Cell::Int(i64::from(r.run)),
                    if r.hidden > 0 {
                        Cell::Empty
                    } else {
                        percent(r.value)
                    },
                    Cell::count(r.items),
                    Cell::count(r.scored),
                    Cell::count(r.unavailable),
                    Cell::count(r.truncated),
                    Cell::count(r.hidden),
                ]
            })
            .collect(),
    }
}
