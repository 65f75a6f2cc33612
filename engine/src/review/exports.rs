//! The agreement dashboard's tables as [`Table`]s for the one export
//! writer ([`crate::core::table`]): agreement per kind, task and class with the
//! Average row, PLawBench rubric verdicts per task and section, DLawBench
//! panel decisions per dimension, and each expert's progress. Built from
//! the viewer's own [`Dashboard`] (an expert's figures count only the
//! items they have submitted), so an export shows what the page shows.

use crate::benchmark::Benchmark;
use crate::core::table::{Cell, Column, Table};
use crate::lang::Lang;

use super::{task_average, Dashboard, SheetRow};

/// One table of the dashboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DashboardTable {
    /// Agreement per kind (and task) and class, with the Average row.
    Agreement,
    /// PLawBench rubric verdicts: judge and experts, in points.
    Sheets,
    /// DLawBench panel decisions: panel and experts, 0/1 marks.
    Panel,
    /// DLawBench's simulated client styles named by experts, per style,
    /// with the paper's figures.
    ClientStyle,
    /// Each expert's progress and pace.
    Progress,
}

impl DashboardTable {
    /// Every table, in page order.
    pub const ALL: [DashboardTable; 5] = [
        DashboardTable::Agreement,
        DashboardTable::Sheets,
        DashboardTable::Panel,
        DashboardTable::ClientStyle,
        DashboardTable::Progress,
    ];

    /// Its `table` query value.
    pub fn as_str(self) -> &'static str {
        match self {
            DashboardTable::Agreement => "agreement",
            DashboardTable::Sheets => "sheets",
            DashboardTable::Panel => "panel",
            DashboardTable::ClientStyle => "client_style",
            DashboardTable::Progress => "progress",
        }
    }

    /// The table named `name` ([`DashboardTable::as_str`]).
    pub fn parse(name: &str) -> Option<DashboardTable> {
        DashboardTable::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

/// Table `which` of `board` with labels in `lang`.
///
/// ```
/// use engine::lang::Lang;
/// use engine::review::{dashboard_table, Dashboard, DashboardTable, ExpertProgress};
/// use engine::core::table::Cell;
///
/// let board = Dashboard {
///     rows: vec![], sheets: vec![], client_style: vec![], disagreements: vec![], items: 2, items_final: 0, items_in_adjudication: 0,
///     progress: vec![ExpertProgress { expert: "王".into(), done: 1, assigned: 2, seconds: vec![30, 90], ..Default::default() }],
/// };
/// let table = dashboard_table(&board, DashboardTable::Progress, Lang::Zh);
/// assert_eq!(table.columns[0].label, "专家");
/// assert_eq!(table.rows[0][..3], [Cell::text("王"), Cell::Int(1), Cell::Int(2)]);
/// assert_eq!(table.rows[0][5], Cell::Number(60.0)); // the median seconds
/// ```
pub fn dashboard_table(board: &Dashboard, which: DashboardTable, lang: Lang) -> Table {
    match which {
        DashboardTable::Agreement => agreement(board, lang),
        DashboardTable::Sheets => sheets(board, lang),
        DashboardTable::Panel => panel(board, lang),
        DashboardTable::ClientStyle => client_style(board, lang),
        DashboardTable::Progress => progress(board, lang),
    }
}

/// The client-style check: per simulated style, then over every style,
/// then the paper's reported figures (all styles, §3.2).
fn client_style(board: &Dashboard, lang: Lang) -> Table {
    use crate::dlawbench::client_style::{ClientStyleFigures, StyleRow};
    let figures = ClientStyleFigures::of(&board.client_style);
    let row = |name: String, r: &StyleRow| {
        vec![
            Cell::text(name),
            Cell::count(r.segments),
            Cell::count(r.labels),
            Cell::opt_number(r.accuracy),
            Cell::opt_number(r.kappa),
            Cell::count(r.kappa_segments),
            Cell::count(r.raters),
        ]
    };
    let mut rows: Vec<Vec<Cell>> = Vec::new();
    if let Some(f) = &figures {
        for r in &f.rows {
            let name = r
                .style
                .map_or("", |s| lang.t(s.label_zh(), s.label_en()))
                .to_owned();
            rows.push(row(name, r));
        }
        rows.push(row(lang.t("总体", "Overall").to_owned(), &f.overall));
        rows.push(vec![
            Cell::text(lang.t("论文（全部风格）", "Paper (all styles)")),
            Cell::Empty,
            Cell::Empty,
            Cell::Number(f.paper_accuracy),
            Cell::Number(f.paper_kappa),
            Cell::Empty,
            Cell::Empty,
        ]);
    }
    Table {
        caption: lang
            .t(
                "DLawBench 模拟当事人风格：专家辨认",
                "DLawBench simulated client style: experts name the style",
            )
            .to_owned(),
        lang,
        columns: vec![
            Column::text("style", lang.t("模拟风格", "Simulated style")),
            Column::number("segments", lang.t("段数", "Segments"), 0),
            Column::number("labels", lang.t("标签", "Labels"), 0),
            Column::number("accuracy", lang.t("准确率", "Accuracy"), 3),
            Column::number("kappa", "Fleiss κ", 3),
            Column::number("kappa_segments", lang.t("κ 的段数", "κ segments"), 0),
            Column::number("raters", lang.t("每段标签数", "Labels per segment"), 0),
        ],
        rows,
    }
}

fn agreement(board: &Dashboard, lang: Lang) -> Table {
    let mut rows: Vec<Vec<Cell>> = board
        .rows
        .iter()
        .map(|r| {
            vec![
                Cell::text(r.kind.label(lang)),
                Cell::opt_text(r.task.map(|t| t.as_str().to_uppercase())),
                Cell::text(r.class.map_or(lang.t("总体", "overall"), |c| c.label(lang))),
                Cell::count(r.n_items),
                Cell::count(r.n_pairs),
                Cell::opt_number(r.human_agreement),
                Cell::opt_number(r.human_kappa),
                Cell::opt_number(r.qwk),
                Cell::count(r.n_judged),
                Cell::opt_number(r.judge_agreement),
                Cell::opt_number(r.judge_kappa),
                Cell::opt_number(r.judge_qwk),
                Cell::opt_number(r.fleiss_kappa),
                Cell::count(r.overruled),
            ]
        })
        .collect();
    if let Some(a) = task_average(&board.rows) {
        let tasks: Vec<String> = a.tasks.iter().map(|t| t.as_str().to_uppercase()).collect();
        rows.push(vec![
            Cell::text(lang.t("平均", "Average")),
            Cell::text(tasks.join(" / ")),
            Cell::text(lang.t("总体", "overall")),
            Cell::Empty,
            Cell::Empty,
            Cell::opt_number(a.human_agreement),
            Cell::opt_number(a.human_kappa),
            Cell::Empty,
            Cell::Empty,
            Cell::opt_number(a.judge_agreement),
            Cell::opt_number(a.judge_kappa),
            Cell::Empty,
            Cell::Empty,
            Cell::Empty,
        ]);
    }
    Table {
        caption: lang
            .t(
                "标注一致性（人-人与评审-人）",
                "Agreement (human-human and judge-human)",
            )
            .to_owned(),
        lang,
        columns: vec![
            Column::text("kind", lang.t("类型", "Kind")),
            Column::text("task", lang.t("任务", "Task")),
            Column::text("class", lang.t("类别", "Class")),
            Column::number("n_items", lang.t("条目", "Items"), 0),
            Column::number("n_pairs", lang.t("双人标注单位", "Units labelled twice"), 0),
            Column::number("human_agreement", lang.t("人-人一致率", "Human raw"), 3),
            Column::number("human_kappa", lang.t("人-人 κ", "Human κ"), 3),
            Column::number("qwk", lang.t("人-人 QWK", "Human QWK"), 3),
            Column::number(
                "n_judged",
                lang.t("已定稿的评审单位", "Judged units with a final label"),
                0,
            ),
            Column::number("judge_agreement", lang.t("评审-人一致率", "Judge raw"), 3),
            Column::number("judge_kappa", lang.t("评审 κ", "Judge κ"), 3),
            Column::number("judge_qwk", lang.t("评审 QWK", "Judge QWK"), 3),
            Column::number("fleiss_kappa", "Fleiss κ", 3),
            Column::number("overruled", lang.t("被推翻", "Overruled"), 0),
        ],
        rows,
    }
}

/// A PLawBench task key in words.
fn plaw_task(task: &str, lang: Lang) -> String {
    crate::plawbench::dataset::Task::parse(task)
        .map_or_else(|| task.to_owned(), |t| t.label(lang).to_owned())
}

fn of_benchmark(board: &Dashboard, benchmark: Benchmark) -> impl Iterator<Item = &SheetRow> {
    board
        .sheets
        .iter()
        .filter(move |r| r.benchmark == benchmark)
}

fn sheets(board: &Dashboard, lang: Lang) -> Table {
    let rows = of_benchmark(board, Benchmark::Plawbench)
        .map(|r| {
            let section = match (&r.unit, &r.name) {
                (None, _) => lang.t("总分（条目）", "item total").to_owned(),
                (Some(_), Some(name)) => name.clone(),
                (Some(key), None) => key.clone(),
            };
            vec![
                Cell::text(plaw_task(&r.task, lang)),
                Cell::text(section),
                Cell::count(r.n_items),
                Cell::count(r.judge.n),
                Cell::opt_number(r.judge.mad),
                Cell::opt_number(r.judge.pearson),
                Cell::opt_number(r.judge.within_10pct),
                Cell::count(r.human.n),
                Cell::opt_number(r.human.mad),
                Cell::opt_number(r.human.pearson),
                Cell::opt_number(r.human.within_10pct),
            ]
        })
        .collect();
    Table {
        caption: lang
            .t(
                "PLawBench 评分复核：评审模型与专家（分）",
                "PLawBench rubric verdicts: judge and experts (points)",
            )
            .to_owned(),
        lang,
        columns: vec![
            Column::text("task", lang.t("任务", "Task")),
            Column::text("section", lang.t("评分项", "Section")),
            Column::number("n_items", "n", 0),
            Column::number("judge_n", lang.t("评审-人 n", "Judge-human n"), 0),
            Column::number("judge_mad", lang.t("评审-人 MAD", "Judge-human MAD"), 2),
            Column::number("judge_r", lang.t("评审-人 r", "Judge-human r"), 3),
            Column::number(
                "judge_within_10pct",
                lang.t("评审-人 ±10%", "Judge-human ±10%"),
                3,
            ),
            Column::number("human_n", lang.t("人-人 n", "Human-human n"), 0),
            Column::number("human_mad", lang.t("人-人 MAD", "Human-human MAD"), 2),
            Column::number("human_r", lang.t("人-人 r", "Human-human r"), 3),
            Column::number(
                "human_within_10pct",
                lang.t("人-人 ±10%", "Human-human ±10%"),
                3,
            ),
        ],
        rows,
    }
}

fn panel(board: &Dashboard, lang: Lang) -> Table {
    let rows = of_benchmark(board, Benchmark::Dlawbench)
        .filter(|r| r.unit.is_some())
        .map(|r| {
            vec![
                Cell::text(r.name.clone().or(r.unit.clone()).unwrap_or_default()),
                Cell::count(r.n_items),
                Cell::count(r.judge.n),
                Cell::opt_number(r.judge.exact),
                Cell::opt_number(r.judge.kappa),
                Cell::count(r.judge_left_out),
                Cell::count(r.human.n),
                Cell::opt_number(r.human.exact),
                Cell::opt_number(r.human.kappa),
            ]
        })
        .collect();
    Table {
        caption: lang
            .t(
                "DLawBench 评审团复核：评审团与专家（逐项 0/1）",
                "DLawBench panel decisions: panel and experts (0/1 per rubric item)",
            )
            .to_owned(),
        lang,
        columns: vec![
            Column::text("dimension", lang.t("维度", "Dimension")),
            Column::number("sessions", lang.t("会话", "Sessions"), 0),
            Column::number(
                "panel_marks",
                lang.t("评审团-人 项", "Panel-human marks"),
                0,
            ),
            Column::number(
                "panel_agreement",
                lang.t("评审团-人 一致率", "Panel-human agreement"),
                3,
            ),
            Column::number("panel_kappa", lang.t("评审团-人 κ", "Panel-human κ"), 3),
            Column::number("ties_left_out", lang.t("平票未计", "Ties left out"), 0),
            Column::number("human_marks", lang.t("人-人 项", "Human-human marks"), 0),
            Column::number(
                "human_agreement",
                lang.t("人-人 一致率", "Human-human agreement"),
                3,
            ),
            Column::number("human_kappa", lang.t("人-人 κ", "Human-human κ"), 3),
        ],
        rows,
    }
}

fn progress(board: &Dashboard, lang: Lang) -> Table {
    Table {
        caption: lang.t("专家进度", "Progress per expert").to_owned(),
        lang,
        columns: vec![
            Column::text("expert", lang.t("专家", "Expert")),
            Column::number("done", lang.t("已完成", "Done"), 0),
            Column::number("assigned", lang.t("已分配", "Assigned"), 0),
            Column::number("in_adjudication", lang.t("待裁决", "In adjudication"), 0),
            Column::number("unclear", lang.t("标记不清楚", "Flagged unclear"), 0),
            Column::number(
                "median_seconds",
                lang.t("每条中位用时（秒）", "Median seconds per item"),
                0,
            ),
            Column::number("items_per_hour", lang.t("每小时条数", "Items per hour"), 1),
        ],
        rows: board
            .progress
            .iter()
            .map(|p| {
                vec![
                    Cell::text(p.expert.as_str()),
                    Cell::count(p.done),
                    Cell::count(p.assigned),
                    Cell::count(p.in_adjudication),
                    Cell::count(p.unclear),
                    Cell::opt_number(p.median_seconds()),
                    Cell::opt_number(p.items_per_hour()),
                ]
            })
            .collect(),
    }
}
