//! DLawBench's drill-down tables as [`Table`]s for the one export writer
//! ([`crate::core::table`]): the sessions behind a leaderboard cell, one row per
//! session over every run, and the cell's value per run. Built from the
//! drill-down the page renders, so a value kept back there
//! ([`CellSessions::hide_values`]) is kept back here too, and its run's
//! value with it.
//!
//! ```
//! use engine::dlawbench::dataset::parse_dataset;
//! use engine::dlawbench::drilldown::{cell_sessions, Level};
//! use engine::dlawbench::exports::{cell_runs_table, cell_sessions_table};
//! use engine::dlawbench::run::parse_run;
//! use engine::dlawbench::score::{Metric, View};
//! use engine::lang::Lang;
//! use engine::core::table::Cell;
//!
//! let dataset = parse_dataset(r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#).unwrap();
//! let run = parse_run(concat!(
//!     r#"{"kind": "run", "benchmark": "dlawbench", "model": "M", "run": 1, "horizon": 1, "judges": [{"model": "J"}]}"#, "\n",
//!     r#"{"kind": "session", "case_id": "C", "style": "dependent", "status": "no_memo", "turns_used": 1}"#, "\n",
//! ), &dataset).unwrap();
//! let mut cell = cell_sessions(&dataset, &[&run], Metric::Inquiry, View::NullAsZero, &Level::Overall);
//! let sessions = cell_sessions_table(&cell, "M", Lang::En);
//! assert_eq!((sessions.rows.len(), &sessions.rows[0][1]), (1, &Cell::text("C")));
//! cell.hide_values(&[(1, "C".into(), engine::dlawbench::dataset::Style::Dependent)]);
//! let sessions = cell_sessions_table(&cell, "M", Lang::En);
//! assert_eq!(sessions.rows[0][7], Cell::Empty);
//! assert_eq!(sessions.rows[0][8], Cell::text("yes"));
//! assert_eq!(cell_runs_table(&cell, "M", Lang::En).rows[0][1], Cell::Empty);
//! ```

use crate::core::table::{Cell, Column, Table};
use crate::dlawbench::drilldown::{CellSessions, Level};
use crate::dlawbench::score::{Outcome, View};
use crate::lang::Lang;

/// "M · Inquiry · us · valid-only": what a drill-down shows, for captions.
fn caption(cell: &CellSessions, model: &str, lang: Lang) -> String {
    let level = match &cell.level {
        Level::Overall => lang.t("总体", "overall").to_owned(),
        Level::Jurisdiction { jurisdiction } => jurisdiction.label(lang).to_owned(),
        Level::Style { style } => style.label(lang).to_owned(),
        Level::JurisdictionStyle {
            jurisdiction,
            style,
        } => format!("{} · {}", jurisdiction.label(lang), style.label(lang)),
        Level::Domain { domain } => domain.clone(),
    };
    let view = match cell.view {
        View::NullAsZero => lang.t("失败计零", "null-as-zero"),
        View::ValidOnly => lang.t("仅有效会话", "valid-only"),
    };
    format!("{model} · {} · {level} · {view}", cell.metric.label(lang))
}

fn yes_no(yes: bool, lang: Lang) -> Cell {
    Cell::text(if yes {
        lang.t("是", "yes")
    } else {
        lang.t("否", "no")
    })
}

/// The sessions of the cell, one row per session of every run: the run,
/// the case with its jurisdiction, the style, how the session ended and
/// how it enters the score, its value (empty while it is under review or
/// when it is left out) and whether the panel was degraded.
pub fn cell_sessions_table(cell: &CellSessions, model: &str, lang: Lang) -> Table {
    let rows = cell
        .runs
        .iter()
        .flat_map(|run| {
            run.sessions.iter().map(move |s| {
                let outcome = match s.outcome {
                    Outcome::Judged => lang.t("已评", "judged"),
                    Outcome::Failure => lang.t("任务失败", "task failure"),
                    Outcome::Unavailable => lang.t("不可用", "unavailable"),
                };
                vec![
                    Cell::Int(i64::from(run.run)),
                    Cell::text(s.case_id.as_str()),
                    Cell::text(s.jurisdiction.label(lang)),
                    Cell::text(s.style.label(lang)),
                    Cell::text(s.status.label(lang)),
                    Cell::text(outcome),
                    yes_no(s.degraded, lang),
                    Cell::opt_number(s.value),
                    yes_no(s.hidden, lang),
                ]
            })
        })
        .collect();
    Table {
        caption: caption(cell, model, lang),
        lang,
        columns: vec![
            Column::number("run", lang.t("运行", "Run"), 0),
            Column::text("case_id", lang.t("案例", "Case")),
            Column::text("jurisdiction", lang.t("法域", "Jurisdiction")),
            Column::text("style", lang.t("风格", "Style")),
            Column::text("status", lang.t("状态", "Status")),
            Column::text("outcome", lang.t("结果", "Outcome")),
            Column::text("degraded", lang.t("降级", "Degraded")),
            Column::number("value", lang.t("数值", "Value"), 3),
            Column::text("under_review", lang.t("复核中", "Under review")),
        ],
        rows,
    }
}

/// The cell per run: its value (empty while a session of it is under
/// review) and its sessions.
pub fn cell_runs_table(cell: &CellSessions, model: &str, lang: Lang) -> Table {
    Table {
        caption: caption(cell, model, lang),
        lang,
        columns: vec![
            Column::number("run", lang.t("运行", "Run"), 0),
            Column::number("value", lang.t("数值", "Value"), 3),
            Column::number("sessions", lang.t("会话数", "Sessions"), 0),
        ],
        rows: cell
            .runs
            .iter()
            .map(|r| {
                vec![
                    Cell::Int(i64::from(r.run)),
                    Cell::opt_number(r.value),
                    Cell::count(r.sessions.len()),
                ]
            })
            .collect(),
    }
}
