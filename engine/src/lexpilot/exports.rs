//! LexPilot's page tables as [`Table`]s for the one export writer
//! ([`crate::core::table`]): the drill-down's items, its runs' tallies and its
//! confusion matrix, the comparison of two entries, and a model page's
//! runs and per-task score tables. Labels and the words in cells follow
//! the page's language; dataset content stays as written.
//!
//! Each table is built from the data its page renders, so what the page
//! keeps back (a judge's label under blind review, [`Drilldown::hide_verdicts`])
//! is not in the table either, and an export of a paged drill-down holds
//! every case the pages do.
//!
//! # Example
//!
//! ```
//! use engine::lang::Lang;
//! use engine::lexpilot::dataset::parse_dataset;
//! use engine::lexpilot::drilldown::drilldown;
//! use engine::lexpilot::exports::{confusion_table, drilldown_items};
//! use engine::lexpilot::run::{parse_run, Task};
//! use engine::core::table::{Cell, Format};
//! use engine::vocab::LjpSetup;
//!
//! let dataset = parse_dataset(
//!     r#"{"case_id": "A", "cause": "离婚纠纷", "class": "family", "plaintiff_type": "natural", "claims": [{"id": "c1", "text": "判令离婚", "verdict": "supported"}], "focal_points": [], "key_facts": [], "missing_facts": [], "consultations": {"complete": [{"role": "user", "content": "甲"}], "underspecified": [{"role": "user", "content": "乙"}]}}"#,
//! )
//! .unwrap();
//! let run = parse_run(
//!     r#"{"kind": "run", "model": "M", "run": 1}
//! {"kind": "ljp", "case_id": "A", "setup": "gold", "predictions": ["dismissed"], "response": "驳回"}
//! "#,
//!     &dataset,
//! )
//! .unwrap();
//! let drill = drilldown(&dataset, &[run], Task::Ljp, LjpSetup::Gold, None);
//! let items = drilldown_items(&drill, "M", Lang::Zh);
//! assert_eq!(items.rows.len(), 1); // one claim, one run
//! let predicted = items.columns.iter().position(|c| c.id == "predicted").unwrap();
//! assert_eq!(items.rows[0][predicted], Cell::text("驳回"));
//! assert!(items.write(Format::Csv).contains("案例,案由,类别"));
//! let matrix = confusion_table(&drill, "M", Lang::En).unwrap();
//! assert_eq!(matrix.rows[0][3], Cell::Int(1)); // gold supported, predicted dismissed
//! ```

use crate::core::table::{Cell, Column, Table};
use crate::lang::Lang;
use crate::lexpilot::drilldown::{CaseDrill, CaseItems, Drilldown, Outcome};
use crate::lexpilot::leaderboard;
use crate::lexpilot::model::{CompareRow, ModelEntry};
use crate::lexpilot::run::Task;
use crate::vocab::{Class, Consultation, LcaLabel, Verdict};

/// Decimals of a score in LaTeX: as the pages show them
/// ([`crate::core::columns::Scale::Unit`]).
const SCORE: usize = crate::core::columns::Scale::Unit.decimals();

/// "M · LJP · Gold-Standard · Family": what a drill-down shows, for captions.
fn cell_caption(drill: &Drilldown, model: &str, lang: Lang) -> String {
    let mut parts = vec![model.to_owned(), drill.task.as_str().to_uppercase()];
    parts.extend(drill.setup.map(|s| s.label(lang).to_owned()));
    parts.push(
        drill
            .class
            .map_or(lang.t("总体", "Overall"), |c| c.label(lang))
            .to_owned(),
    );
    parts.join(" · ")
}

/// An outcome in words, and the reason of an unavailable one.
fn outcome(outcome: &Outcome, lang: Lang) -> (Cell, Cell) {
    match outcome {
        Outcome::Correct => (Cell::text(lang.t("正确", "correct")), Cell::Empty),
        Outcome::Wrong => (Cell::text(lang.t("错误", "incorrect")), Cell::Empty),
        Outcome::Unavailable { reason } => (
            Cell::text(lang.t("无法标注", "unavailable")),
            Cell::text(reason.as_str()),
        ),
        Outcome::Hidden => (Cell::text(lang.t("审核中", "under review")), Cell::Empty),
    }
}

/// The cells a row starts with: the case, its cause and class.
fn case_cells(case: &CaseDrill, lang: Lang) -> Vec<Cell> {
    vec![
        Cell::text(case.case_id.as_str()),
        Cell::text(case.cause.as_str()),
        Cell::text(case.class.label(lang)),
    ]
}

/// The drill-down's items, one row per item and run (an LCA consultation,
/// a DCG case, an LJP claim), over every case of the cell: the case, the
/// gold, the run, what the run did and how it counts, with the reason of
/// an unavailable item and the model's reply. A run without the item has
/// a row saying so.
pub fn drilldown_items(drill: &Drilldown, model: &str, lang: Lang) -> Table {
    let mut columns = vec![
        Column::text("case_id", lang.t("案例", "Case")),
        Column::text("cause", lang.t("案由", "Cause")),
        Column::text("class", lang.t("类别", "Class")),
    ];
    let task_columns: &[(&str, &str, &str)] = match drill.task {
        Task::Lca => &[
            ("consultation", "咨询（真实）", "Consultation (gold)"),
            ("wanted", "应为", "Wants"),
        ],
        Task::Dcg => &[("missing_facts", "缺失事实（真实）", "Missing facts (gold)")],
        Task::Ljp => &[
            ("claim", "诉请", "Claim"),
            ("claim_text", "诉请内容", "Claim text"),
            ("gold", "真实判决", "Gold"),
        ],
    };
    let run_columns: &[(&str, &str, &str)] = match drill.task {
        Task::Lca => &[("label", "标签", "Label")],
        Task::Dcg => &[
            ("requests", "请求数", "Requests"),
            ("accepted", "采纳数", "Accepted"),
        ],
        Task::Ljp => &[("predicted", "预测判决", "Predicted")],
    };
    let reply: &[(&str, &str, &str)] = match drill.task {
        Task::Dcg => &[("request_texts", "请求内容", "Request texts")],
        Task::Lca | Task::Ljp => &[("response", "回复", "Response")],
    };
    columns.extend(
        task_columns
            .iter()
            .map(|&(id, zh, en)| Column::text(id, lang.t(zh, en))),
    );
    columns.push(Column::number("run", lang.t("运行", "Run"), 0));
    columns.extend(
        run_columns
            .iter()
            .map(|&(id, zh, en)| Column::text(id, lang.t(zh, en))),
    );
    columns.push(Column::text("outcome", lang.t("结果", "Outcome")));
    columns.push(Column::text(
        "reason",
        lang.t("无法标注的原因", "Why unavailable"),
    ));
    columns.extend(
        reply
            .iter()
            .map(|&(id, zh, en)| Column::text(id, lang.t(zh, en))),
    );
    let width = columns.len();
    let no_item = || (Cell::text(lang.t("无此条目", "no item")), Cell::Empty);
    let mut rows = Vec::new();
    for case in &drill.cases {
        let mut push =
            |gold: Vec<Cell>, run: u32, did: Vec<Cell>, counts: (Cell, Cell), reply: Vec<Cell>| {
                let mut row = case_cells(case, lang);
                row.extend(gold);
                row.push(Cell::Int(i64::from(run)));
                row.extend(did);
                row.push(counts.0);
                row.push(counts.1);
                row.extend(reply);
                debug_assert_eq!(row.len(), width);
                rows.push(row);
            };
        match &case.items {
            CaseItems::Lca { consultations } => {
                for row in consultations {
                    let wanted = match row.gold {
                        Consultation::Complete => LcaLabel::Predict,
                        Consultation::Underspecified => LcaLabel::Ask,
                    };
                    let gold = || {
                        vec![
                            Cell::text(row.gold.label(lang)),
                            Cell::text(wanted.label(lang)),
                        ]
                    };
                    for (tally, cell) in drill.runs.iter().zip(&row.runs) {
                        match cell {
                            Some(cell) => push(
                                gold(),
                                tally.run,
                                vec![Cell::opt_text(cell.label.map(|l| l.label(lang)))],
                                outcome(&cell.outcome, lang),
                                vec![Cell::opt_text(cell.response.as_deref())],
                            ),
                            None => push(
                                gold(),
                                tally.run,
                                vec![Cell::Empty],
                                no_item(),
                                vec![Cell::Empty],
                            ),
                        }
                    }
                }
            }
            CaseItems::Dcg {
                missing_facts,
                runs,
            } => {
                let gold = || vec![Cell::text(missing_facts.join("\n"))];
                for (tally, cell) in drill.runs.iter().zip(runs) {
                    let Some(cell) = cell else {
                        push(
                            gold(),
                            tally.run,
                            vec![Cell::Empty, Cell::Empty],
                            no_item(),
                            vec![Cell::Empty],
                        );
                        continue;
                    };
                    let hidden = cell.outcome == Outcome::Hidden;
                    let accepted = cell
                        .requests
                        .iter()
                        .filter(|r| r.accepted == Some(true))
                        .count();
                    let judged = cell.requests.iter().any(|r| r.accepted.is_some());
                    let texts: Vec<String> = cell
                        .requests
                        .iter()
                        .enumerate()
                        .map(|(n, r)| {
                            let mark = match r.accepted {
                                Some(true) => lang.t("✓ 采纳", "✓ accepted"),
                                Some(false) => lang.t("✗ 未采纳", "✗ not accepted"),
                                None if hidden => lang.t("审核中", "under review"),
                                None => lang.t("未评判", "not judged"),
                            };
                            format!(
                                "{}. [{mark}] {}",
                                n + 1,
                                r.text.as_deref().unwrap_or_default()
                            )
                        })
                        .collect();
                    push(
                        gold(),
                        tally.run,
                        vec![
                            Cell::count(cell.requests.len()),
                            if judged {
                                Cell::count(accepted)
                            } else {
                                Cell::Empty
                            },
                        ],
                        outcome(&cell.outcome, lang),
                        vec![Cell::text(texts.join("\n"))],
                    );
                }
            }
            CaseItems::Ljp { claims, replies } => {
                for claim in claims {
                    let gold = || {
                        vec![
                            Cell::text(claim.id.as_str()),
                            Cell::text(claim.text.as_str()),
                            Cell::text(claim.gold.label(lang)),
                        ]
                    };
                    for ((tally, cell), reply) in drill.runs.iter().zip(&claim.runs).zip(replies) {
                        let response =
                            Cell::opt_text(reply.as_ref().and_then(|r| r.response.as_deref()));
                        match cell {
                            Some(cell) => push(
                                gold(),
                                tally.run,
                                vec![Cell::opt_text(cell.predicted.map(|v| v.label(lang)))],
                                outcome(&cell.outcome, lang),
                                vec![response],
                            ),
                            None => push(
                                gold(),
                                tally.run,
                                vec![Cell::Empty],
                                no_item(),
                                vec![response],
                            ),
                        }
                    }
                }
            }
        }
    }
    Table {
        caption: cell_caption(drill, model, lang),
        lang,
        columns,
        rows,
    }
}

/// How each run of the drill-down fared: right, wrong, unavailable and
/// under review, over every case of the cell.
pub fn drilldown_runs(drill: &Drilldown, model: &str, lang: Lang) -> Table {
    Table {
        caption: cell_caption(drill, model, lang),
        lang,
        columns: vec![
            Column::number("run", lang.t("运行", "Run"), 0),
            Column::number("correct", lang.t("正确", "Correct"), 0),
            Column::number("wrong", lang.t("错误", "Incorrect"), 0),
            Column::number("unavailable", lang.t("无法标注", "Unavailable"), 0),
            Column::number("under_review", lang.t("审核中", "Under review"), 0),
        ],
        rows: drill
            .runs
            .iter()
            .map(|t| {
                vec![
                    Cell::Int(i64::from(t.run)),
                    Cell::count(t.correct),
                    Cell::count(t.wrong),
                    Cell::count(t.unavailable),
                    Cell::count(t.hidden),
                ]
            })
            .collect(),
    }
}

/// The LJP confusion matrix: a row per gold verdict, a column per
/// predicted verdict and the row's total; `None` for LCA and DCG.
pub fn confusion_table(drill: &Drilldown, model: &str, lang: Lang) -> Option<Table> {
    let counts = drill.confusion?;
    let mut columns = vec![Column::text("gold", lang.t("真实判决", "Gold verdict"))];
    columns.extend(Verdict::ALL.into_iter().map(|v| {
        Column::number(
            &format!("predicted_{}", v.as_str()),
            &format!("{}{}", lang.t("预测：", "Predicted: "), v.label(lang)),
            0,
        )
    }));
    columns.push(Column::number("total", lang.t("合计", "Total"), 0));
    let rows = Verdict::ALL
        .into_iter()
        .zip(counts)
        .map(|(gold, row)| {
            let mut cells = vec![Cell::text(gold.label(lang))];
            cells.extend(
                row.iter()
                    .map(|&n| Cell::Int(i64::try_from(n).unwrap_or(i64::MAX))),
            );
            cells.push(Cell::Int(
                i64::try_from(row.iter().sum::<u64>()).unwrap_or(i64::MAX),
            ));
            cells
        })
        .collect();
    Some(Table {
        caption: format!(
            "{} · {}",
            cell_caption(drill, model, lang),
            lang.t("真实判决与预测判决", "gold vs predicted verdicts")
        ),
        lang,
        columns,
        rows,
    })
}

/// Two entries compared score by score: A, B, A − B with its 95% interval
/// and the two-sided p-value, over all cases or `class`.
pub fn compare_table(
    rows: &[CompareRow],
    a: &str,
    b: &str,
    class: Option<Class>,
    lang: Lang,
) -> Table {
    let scope = class.map_or(lang.t("全部案例", "all cases"), |c| c.label(lang));
    Table {
        caption: format!("A = {a} · B = {b} · {scope}"),
        lang,
        columns: vec![
            Column::text("score", lang.t("得分", "Score")),
            Column::number("a", "A", SCORE),
            Column::number("b", "B", SCORE),
            Column::number("diff", "A − B", SCORE),
            Column::number("ci_low", lang.t("95% 置信区间下限", "95% CI low"), SCORE),
            Column::number("ci_high", lang.t("95% 置信区间上限", "95% CI high"), SCORE),
            Column::number("p", "p", 3),
        ],
        rows: rows
            .iter()
            .map(|r| {
                let result = r.result;
                vec![
                    Cell::text(r.metric.as_str()),
                    Cell::opt_number(r.a),
                    Cell::opt_number(r.b),
                    Cell::opt_number(result.map(|x| x.diff)),
                    Cell::opt_number(result.map(|x| x.ci.0)),
                    Cell::opt_number(result.map(|x| x.ci.1)),
                    Cell::opt_number(result.map(|x| x.p_value)),
                ]
            })
            .collect(),
    }
}

/// What tells a model's entries apart in a table: the family and setting.
fn entry_name(entry: &ModelEntry, lang: Lang) -> String {
    let mut parts = vec![entry
        .family
        .map_or(lang.t("条目", "Entry"), |f| f.label(lang))
        .to_owned()];
    parts.extend(
        entry
            .setting
            .iter()
            .map(|(k, v)| format!("{}: {v}", crate::lexpilot::model::setting_name(lang, k))),
    );
    parts.join(" · ")
}

/// A model's stored runs over its entries: run, when stored, by whom, and
/// its unavailable items.
pub fn model_runs(model: &str, entries: &[ModelEntry], lang: Lang) -> Table {
    Table {
        caption: format!("{model} · {}", lang.t("运行", "runs")),
        lang,
        columns: vec![
            Column::text("entry", lang.t("条目", "Entry")).grouping(),
            Column::number("run", lang.t("运行", "Run"), 0),
            Column::text("created_at", lang.t("创建时间", "Created")),
            Column::text("uploaded_by", lang.t("上传者", "Uploaded by")),
            Column::number("unavailable", lang.t("不可用项", "Unavailable items"), 0),
        ],
        rows: entries
            .iter()
            .flat_map(|entry| {
                let name = entry_name(entry, lang);
                entry.runs.iter().map(move |r| {
                    vec![
                        Cell::text(name.as_str()),
                        Cell::Int(r.run),
                        Cell::text(r.created_at.as_str()),
                        Cell::opt_text(r.uploaded_by.as_deref()),
                        Cell::Int(r.unavailable),
                    ]
                })
            })
            .collect(),
    }
}

/// A model's scores on `task` over its entries, as the page's table of
/// that task: per entry a row per run and its mean ± std last; `None`
/// when no entry has the task.
pub fn model_scores(model: &str, entries: &[ModelEntry], task: Task, lang: Lang) -> Option<Table> {
    let tables: Vec<(&ModelEntry, &leaderboard::Table)> = entries
        .iter()
        .filter_map(|e| {
            Some((
                e,
                e.tables.iter().find(|(t, _)| *t == task).map(|(_, t)| t)?,
            ))
        })
        .collect();
    let (_, first) = tables.first()?;
    let mut columns = vec![
        Column::text("entry", lang.t("条目", "Entry")).grouping(),
        Column::text("row", lang.t("运行", "Run")),
    ];
    columns.extend(
        first
            .columns
            .iter()
            // No best in bold: the page marks none among one model's runs.
            .map(|c| {
                Column::number(
                    &c.key,
                    &leaderboard::column_label(lang, &c.key, &c.label),
                    SCORE,
                )
            }),
    );
    let rows = tables
        .iter()
        .flat_map(|(entry, table)| {
            let name = entry_name(entry, lang);
            table.rows.iter().map(move |row| {
                let mut cells = vec![Cell::text(name.as_str()), Cell::text(row.model.as_str())];
                cells.extend(row.cells.iter().map(|c| match c {
                    Some(m) => Cell::MeanStd {
                        mean: m.mean,
                        std: m.std,
                    },
                    None => Cell::Empty,
                }));
                cells
            })
        })
        .collect();
    Some(Table {
        caption: format!(
            "{model} · {} · {}",
            task.as_str().to_uppercase(),
            task.label(lang)
        ),
        lang,
        columns,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::table::Format;
    use crate::lexpilot::dataset::parse_dataset;
    use crate::lexpilot::drilldown::{drilldown, HiddenVerdict};
    use crate::lexpilot::run::parse_run;
    use crate::vocab::LjpSetup;

    const CASE: &str = r#"{"case_id": "A", "cause": "离婚纠纷", "class": "family", "plaintiff_type": "natural", "claims": [{"id": "c1", "text": "判令离婚", "verdict": "supported"}], "focal_points": [{"id": "f1", "text": "争议", "type": "other"}], "key_facts": [{"id": "k1", "focal_point": "f1", "text": "分居两年"}], "missing_facts": ["k1"], "consultations": {"complete": [{"role": "user", "content": "甲"}], "underspecified": [{"role": "user", "content": "乙"}]}}"#;

    fn run(n: u32, lines: &str) -> crate::lexpilot::run::Run {
        let dataset = parse_dataset(CASE).expect("dataset");
        parse_run(
            &format!("{{\"kind\": \"run\", \"model\": \"M\", \"run\": {n}}}\n{lines}"),
            &dataset,
        )
        .expect("run")
    }

    fn column(table: &Table, id: &str) -> usize {
        table.columns.iter().position(|c| c.id == id).expect(id)
    }

    #[test]
    fn lca_rows_are_one_per_consultation_and_run_and_hidden_labels_stay_hidden() {
        let dataset = parse_dataset(CASE).expect("dataset");
        let lines = r#"{"kind": "lca", "case_id": "A", "consultation": "complete", "label": "predict", "response": "可以预测"}
{"kind": "lca", "case_id": "A", "consultation": "underspecified", "label": "predict", "response": "=SUM(A1)"}"#;
        let runs = [run(1, lines), run(2, lines)];
        let mut drill = drilldown(&dataset, &runs, Task::Lca, LjpSetup::Gold, None);
        drill.hide_verdicts(&[HiddenVerdict {
            run: 2,
            case_id: "A".into(),
            target: Some("underspecified".into()),
        }]);
        let table = drilldown_items(&drill, "M", Lang::En);
        assert_eq!(table.rows.len(), 4, "two consultations × two runs");
        let (label, outcome) = (column(&table, "label"), column(&table, "outcome"));
        let hidden = &table.rows[3];
        assert_eq!(
            (&hidden[label], &hidden[outcome]),
            (&Cell::Empty, &Cell::text("under review"))
        );
        assert_eq!(table.rows[2][label], Cell::text("Predict"));
        let csv = table.write(Format::Csv);
        assert!(
            csv.contains("'=SUM(A1)"),
            "replies never run as formulas: {csv}"
        );
        let runs = drilldown_runs(&drill, "M", Lang::Zh);
        assert_eq!(
            runs.rows[1],
            [
                Cell::Int(2),
                Cell::Int(1),
                Cell::Int(0),
                Cell::Int(0),
                Cell::Int(1)
            ]
            .to_vec()
        );
        assert!(confusion_table(&drill, "M", Lang::Zh).is_none());
    }

    #[test]
    fn dcg_rows_list_the_requests_with_their_judgement() {
        let dataset = parse_dataset(CASE).expect("dataset");
        let runs = [run(
            1,
            r#"{"kind": "dcg", "case_id": "A", "requests": [{"text": "分居多久？", "accepted": true}, {"text": "有孩子吗？", "accepted": false}]}"#,
        )];
        let drill = drilldown(
            &dataset,
            &runs,
            Task::Dcg,
            LjpSetup::Gold,
            Some(Class::Family),
        );
        let table = drilldown_items(&drill, "M", Lang::Zh);
        assert_eq!(table.rows.len(), 1);
        let row = &table.rows[0];
        assert_eq!(row[column(&table, "missing_facts")], Cell::text("分居两年"));
        assert_eq!(row[column(&table, "accepted")], Cell::Int(1));
        assert_eq!(
            row[column(&table, "request_texts")],
            Cell::text("1. [✓ 采纳] 分居多久？\n2. [✗ 未采纳] 有孩子吗？")
        );
        assert_eq!(table.caption, "M · DCG · 婚姻家庭、继承纠纷");
    }
}
