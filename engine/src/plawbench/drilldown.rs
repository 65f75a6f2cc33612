//! What lies behind a PLawBench leaderboard cell (`docs/benchmarks/plawbench.md`
//! §B7.4): the items that feed it, per run, and one item's detail.
//!
//! - [`cell_items`]: for one entry's runs, a [`Metric`] and optionally one
//!   category, every item that feeds the metric ([`metric_tasks`]: Overall
//!   and the per-sample overall all four tasks, Task2 and its sections
//!   `case_analysis`, Task1 `legal_consultation`, Task3 both drafting tasks,
//!   Task3-Plaintiff and -Defendant one each), in dataset order, with per
//!   run the panel value of the metric's quantity (`acc`, or the section's
//!   accuracy for a Task2 section), the reason when it is unavailable and
//!   whether the answer was truncated; the item's mean over the runs; and
//!   per run the cell's value **recomputed from these rows** by the rules of
//!   §B4.3. Without a category it equals
//!   [`RunScores::metric`](super::score::RunScores::metric) of
//!   [`score_run`](super::score::score_run) exactly (the means are summed in the run's item order, as
//!   scoring sums them); for Task2 with a category it equals that
//!   category's mean. [`CellDrilldown::page`] cuts the rows to a page.
//! - [`item_detail`]: one item of one run: the rendered model prompt, the
//!   response, `finish_reason` and whether it was truncated; per section
//!   (`case_analysis`) or for the whole item the maximum points and, per
//!   judge, the raw awarded value, the clamped value and whether clamping
//!   changed it; per judge its reply, reported maximum and unavailable
//!   reason; the panel values and the aggregation; why the item is
//!   unavailable; the text rubric of the other tasks.
//!
//! # Decisions the contract leaves open
//!
//! - A Task2 section metric lists only the items that have the section
//!   (the others do not feed it). A category keeps the items of that
//!   category among the metric's tasks; only `case_analysis` items carry
//!   the official categories.
//! - Every run given is a column, in the order given. A run that lacks an
//!   item (it does not contain the task) has no cell there.
//! - An item with no available judge is unavailable with a reason that
//!   names each judge's, as scoring leaves it out.
//! - The judges' clamped points are shown even for an item marked
//!   unavailable (they are what the judges said); its panel value is
//!   absent, as in scoring.
//!
//! Everything returned is plain serde data without borrows, for the pages
//! to send to the browser. Depends on [`super::dataset`], [`super::run`],
//! [`super::score`], [`super::judge`] and [`super::leaderboard`].
//!
//! # Example
//!
//! ```
//! use engine::plawbench::dataset::parse_dataset;
//! use engine::plawbench::drilldown::cell_items;
//! use engine::plawbench::run::parse_run;
//! use engine::plawbench::score::{score_run, Metric};
//! use engine::plawbench::synthetic::{dataset_file, run_file, OFFICIAL_SIZES};
//!
//! let dataset = parse_dataset(&dataset_file(&OFFICIAL_SIZES, 1)).unwrap();
//! let runs: Vec<_> = (1..=2).map(|r| parse_run(&run_file(&dataset, "M", r, 2, 5), &dataset).unwrap()).collect();
//! let columns: Vec<(u32, _)> = runs.iter().map(|r| (r.header.run, r)).collect();
//! let cell = cell_items(&dataset, &columns, Metric::Overall, None);
//! assert_eq!(cell.total, 280);
//! for (column, run) in cell.runs.iter().zip(&runs) {
//!     assert_eq!(column.value, score_run(run, &dataset).metric(Metric::Overall));
//! }
//! let page = cell.page(250, 20);
//! assert_eq!((page.offset, page.rows.len(), page.rows[0].item_id.as_str()), (250, 20, "legal_consultation-1"));
//! ```

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::dataset::{Item, Section, Task};
use super::judge::render_model_prompt;
use super::leaderboard::Column;
use super::run::{Awarded, RubricItem, Run};
use super::score::{clamp, score_item, ItemScore, Metric};
use crate::core::panel::Aggregation;

/// The tasks whose items feed `metric`, in [`Task::ALL`] order.
///
/// ```
/// use engine::plawbench::dataset::{Section, Task};
/// use engine::plawbench::drilldown::metric_tasks;
/// use engine::plawbench::score::Metric;
///
/// assert_eq!(metric_tasks(Metric::Task2Section(Section::Law)), [Task::CaseAnalysis]);
/// assert_eq!(metric_tasks(Metric::Task3), [Task::PlaintiffStatement, Task::DefendantStatement]);
/// assert_eq!(metric_tasks(Metric::Overall), Task::ALL);
/// ```
pub fn metric_tasks(metric: Metric) -> &'static [Task] {
    match metric {
        Metric::Overall | Metric::PerSampleOverall => &Task::ALL,
        Metric::Task2 | Metric::Task2Section(_) => &[Task::CaseAnalysis],
        Metric::Task1 => &[Task::LegalConsultation],
        Metric::Task3 => &[Task::PlaintiffStatement, Task::DefendantStatement],
        Metric::Task3Plaintiff => &[Task::PlaintiffStatement],
        Metric::Task3Defendant => &[Task::DefendantStatement],
    }
}

/// Everything behind one leaderboard cell, or a page of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellDrilldown {
    /// The cell's column (its metric).
    pub column: Column,
    /// The category the items are restricted to, if any.
    pub category: Option<String>,
    /// The tasks that feed the metric.
    pub tasks: Vec<Task>,
    /// One per run given, in that order, over every row (not only the page).
    pub runs: Vec<RunCell>,
    /// How many rows the whole drill-down has.
    pub total: usize,
    /// The index of the first row of [`CellDrilldown::rows`] among them.
    pub offset: usize,
    /// The rows of this page, in dataset order.
    pub rows: Vec<ItemRow>,
}

/// One run's column of the drill-down: its value of the cell, recomputed
/// from the rows, and its counts over them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunCell {
    /// The run number given for the run.
    pub run: u32,
    /// The metric over the rows; `None` when a task it needs has no value.
    pub value: Option<f64>,
    /// Rows the run contains.
    pub items: usize,
    /// Rows with a value.
    pub scored: usize,
    /// Rows whose judge verdict is kept back while experts review it
    /// ([`CellDrilldown::hide_verdicts`]); the run's value is then `None`.
    #[serde(default)]
    pub hidden: usize,
    /// Rows left out as unavailable.
    pub unavailable: usize,
    /// Rows whose answer was cut at the token limit.
    pub truncated: usize,
}

/// One item and its value in each run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemRow {
    /// The dataset item.
    pub item_id: String,
    /// Its task.
    pub task: Task,
    /// Its category.
    pub category: Option<String>,
    /// The denominator of the value: the section's points for a Task2
    /// section, the item's `max_points` otherwise.
    pub max_points: f64,
    /// One per run of [`CellDrilldown::runs`]; `None` when the run lacks
    /// the item.
    pub runs: Vec<Option<ItemCell>>,
    /// The mean of the item's values over the runs that have one.
    pub mean: Option<f64>,
}

/// One item in one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemCell {
    /// The panel value of the metric's quantity; `None` when unavailable.
    pub value: Option<f64>,
    /// Why the item has no value.
    pub unavailable: Option<String>,
    /// Whether the answer was cut at the token limit (`finish_reason` =
    /// `length`); it is scored as it is.
    pub truncated: bool,
    /// The judge's verdict is kept back while experts review it blind.
    #[serde(default)]
    pub hidden: bool,
}

impl CellDrilldown {
    /// Keeps back the judge's verdicts of `hidden`, as (run number, item id)
    /// pairs under blind expert review: the item's value becomes `None` and
    /// marked hidden, its row's mean is taken over the other runs, and the
    /// value of a run with a hidden item becomes `None` (it would give the
    /// item away), with the hidden items counted. Pairs of other runs or
    /// items are ignored.
    ///
    /// ```
    /// use engine::plawbench::dataset::parse_dataset;
    /// use engine::plawbench::drilldown::cell_items;
    /// use engine::plawbench::run::parse_run;
    /// use engine::plawbench::score::Metric;
    ///
    /// let dataset = parse_dataset(r#"{"item_id": "a", "task": "legal_consultation", "question": "q", "rubric": "r", "max_points": 4}
    /// {"item_id": "b", "task": "legal_consultation", "question": "q", "rubric": "r", "max_points": 4}"#).unwrap();
    /// let run = parse_run(r#"{"kind": "run", "benchmark": "plawbench", "model": "M", "run": 1, "judges": [{"model": "j"}], "judge_aggregation": "mean", "judge_parse": "lenient", "judge_attempts": 1, "source": "workbench"}
    /// {"kind": "rubric", "item_id": "a", "task": "legal_consultation", "judgements": [{"judge": "j", "awarded": 1}]}
    /// {"kind": "rubric", "item_id": "b", "task": "legal_consultation", "judgements": [{"judge": "j", "awarded": 3}]}"#, &dataset).unwrap();
    /// let mut cell = cell_items(&dataset, &[(1, &run)], Metric::Task1, None);
    /// assert_eq!(cell.runs[0].value, Some(0.5));
    /// cell.hide_verdicts(&[(1, "a".into())]);
    /// let a = cell.rows.iter().find(|r| r.item_id == "a").unwrap();
    /// assert_eq!((a.runs[0].as_ref().unwrap().value, a.runs[0].as_ref().unwrap().hidden, a.mean), (None, true, None));
    /// assert_eq!((cell.runs[0].value, cell.runs[0].hidden), (None, 1));
    /// ```
    pub fn hide_verdicts(&mut self, hidden: &[(u32, String)]) {
        for (run, item_id) in hidden {
            let Some(column) = self.runs.iter().position(|r| r.run == *run) else {
                continue;
            };
            for row in self.rows.iter_mut().filter(|r| &r.item_id == item_id) {
                let Some(cell) = row.runs[column].as_mut() else {
                    continue;
                };
                if cell.hidden {
                    continue;
                }
                cell.value = None;
                cell.hidden = true;
                let values: Vec<f64> = row.runs.iter().flatten().filter_map(|c| c.value).collect();
                row.mean =
                    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64);
                let totals = &mut self.runs[column];
                totals.hidden += 1;
                totals.value = None;
            }
        }
    }

    /// The page of `limit` rows from `offset` (counted from the current
    /// first row); the run columns and the total stay those of every row.
    ///
    /// ```
    /// use engine::plawbench::dataset::parse_dataset;
    /// use engine::plawbench::drilldown::cell_items;
    /// use engine::plawbench::score::Metric;
    ///
    /// let dataset = parse_dataset(r#"{"item_id": "a", "task": "legal_consultation", "question": "q", "rubric": "r", "max_points": 1}"#).unwrap();
    /// let cell = cell_items(&dataset, &[], Metric::Task1, None);
    /// assert_eq!((cell.total, cell.rows.len()), (1, 1));
    /// let past = cell.page(5, 10);
    /// assert_eq!((past.total, past.offset, past.rows.len()), (1, 5, 0));
    /// ```
    pub fn page(mut self, offset: usize, limit: usize) -> CellDrilldown {
        self.rows.drain(..offset.min(self.rows.len()));
        self.rows.truncate(limit);
        self.offset += offset;
        self
    }
}

/// Why `judged` has no panel value: its own reason, or each judge's.
fn unavailable_reason(judged: &RubricItem) -> String {
    if let Some(reason) = &judged.unavailable {
        return reason.clone();
    }
    let seats: Vec<String> = judged
        .judgements
        .iter()
        .map(|j| {
            let reason = j
                .unavailable
                .as_deref()
                .unwrap_or("no points that fit the item");
            format!("{}: {reason}", j.judge)
        })
        .collect();
    if seats.is_empty() {
        "no judgement".to_owned()
    } else {
        format!("no judge gave points ({})", seats.join("; "))
    }
}

/// The mean of `values`, summed in order (as scoring does); `None` when empty.
fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The metric of one run from its rows' values, each with its task and its
/// position in the run: per task the mean in run order, combined by §B4.3
/// as `RunScores::metric` combines them.
fn recompute(metric: Metric, mut fed: Vec<(Task, usize, f64)>) -> Option<f64> {
    fed.sort_by_key(|&(task, position, _)| (task, position));
    let task = |task: Task| {
        let values: Vec<f64> = fed.iter().filter(|f| f.0 == task).map(|f| f.2).collect();
        mean(&values)
    };
    let task3 = || Some((task(Task::PlaintiffStatement)? + task(Task::DefendantStatement)?) / 2.0);
    match metric {
        Metric::Overall => {
            let (t1, t2, t3) = (
                task(Task::LegalConsultation)?,
                task(Task::CaseAnalysis)?,
                task3()?,
            );
            Some((t1 + t2 + t3) / 3.0)
        }
        Metric::Task2 | Metric::Task2Section(_) => task(Task::CaseAnalysis),
        Metric::Task1 => task(Task::LegalConsultation),
        Metric::Task3 => task3(),
        Metric::Task3Plaintiff => task(Task::PlaintiffStatement),
        Metric::Task3Defendant => task(Task::DefendantStatement),
        Metric::PerSampleOverall => mean(&fed.iter().map(|f| f.2).collect::<Vec<_>>()),
    }
}

/// The items behind the cell of `metric` (restricted to `category` when
/// given) for the runs of one entry, each with the number to show for it;
/// see the [module documentation](self).
///
/// ```
/// use engine::plawbench::dataset::{parse_dataset, Section};
/// use engine::plawbench::drilldown::cell_items;
/// use engine::plawbench::run::parse_run;
/// use engine::plawbench::score::Metric;
///
/// let dataset = parse_dataset(concat!(
///     r#"{"item_id": "case_analysis-1", "task": "case_analysis", "category": "个人生活", "context": "c", "question": "q", "sections": [{"criterion": "a", "points": "5", "tags": "结论得分"}, {"criterion": "b", "points": "15", "tags": "法条依据得分"}], "max_points": 20}"#, "\n",
///     r#"{"item_id": "case_analysis-2", "task": "case_analysis", "category": "婚姻家事", "context": "c", "question": "q", "sections": [{"criterion": "a", "points": "10", "tags": "结论得分"}], "max_points": 10}"#,
/// )).unwrap();
/// let run = parse_run(concat!(
///     r#"{"kind": "run", "benchmark": "plawbench", "model": "M", "run": 1, "judges": [{"model": "J"}], "judge_parse": "lenient"}"#, "\n",
///     r#"{"kind": "rubric", "item_id": "case_analysis-1", "task": "case_analysis", "judgements": [{"judge": "J", "awarded": {"conclusion": 5, "law": 20}}]}"#, "\n",
///     r#"{"kind": "rubric", "item_id": "case_analysis-2", "task": "case_analysis", "unavailable": "model call failed"}"#,
/// ), &dataset).unwrap();
/// let law = cell_items(&dataset, &[(1, &run)], Metric::Task2Section(Section::Law), None);
/// assert_eq!(law.total, 1, "only case_analysis-1 has a law section");
/// assert_eq!((law.rows[0].max_points, law.rows[0].mean), (15.0, Some(1.0)));
/// let marriage = cell_items(&dataset, &[(1, &run)], Metric::Task2, Some("婚姻家事"));
/// let cell = marriage.rows[0].runs[0].as_ref().unwrap();
/// assert_eq!((cell.value, cell.unavailable.as_deref()), (None, Some("model call failed")));
/// assert_eq!((marriage.runs[0].value, marriage.runs[0].unavailable), (None, 1));
/// ```
pub fn cell_items(
    items: &[Item],
    runs: &[(u32, &Run)],
    metric: Metric,
    category: Option<&str>,
) -> CellDrilldown {
    let tasks = metric_tasks(metric);
    let section = match metric {
        Metric::Task2Section(s) => Some(s),
        _ => None,
    };
    let positions: Vec<HashMap<&str, (usize, &RubricItem)>> = runs
        .iter()
        .map(|(_, run)| {
            run.items
                .iter()
                .enumerate()
                .map(|(k, judged)| (judged.item_id.as_str(), (k, judged)))
                .collect()
        })
        .collect();
    let mut fed: Vec<Vec<(Task, usize, f64)>> = vec![Vec::new(); runs.len()];
    let mut columns: Vec<RunCell> = runs
        .iter()
        .map(|&(run, _)| RunCell {
            run,
            value: None,
            items: 0,
            scored: 0,
            hidden: 0,
            unavailable: 0,
            truncated: 0,
        })
        .collect();
    let mut rows = Vec::new();
    for item in items
        .iter()
        .filter(|i| tasks.contains(&i.task))
        .filter(|i| category.is_none_or(|c| i.category.as_deref() == Some(c)))
    {
        let max_points = match section {
            Some(s) => match item.section_max().get(&s) {
                Some(&points) => points,
                None => continue,
            },
            None => f64::from(item.max_points),
        };
        let cells: Vec<Option<ItemCell>> = runs
            .iter()
            .enumerate()
            .map(|(r, (_, run))| {
                let &(position, judged) = positions[r].get(item.item_id.as_str())?;
                let panel = score_item(item, judged, run.header.judge_aggregation).panel;
                let value = panel.and_then(|p| match section {
                    Some(s) => p.sections.get(&s).copied(),
                    None => Some(p.acc),
                });
                let column = &mut columns[r];
                column.items += 1;
                column.truncated += usize::from(judged.truncated());
                match value {
                    Some(v) => {
                        column.scored += 1;
                        fed[r].push((item.task, position, v));
                    }
                    None => column.unavailable += 1,
                }
                Some(ItemCell {
                    value,
                    unavailable: value.is_none().then(|| unavailable_reason(judged)),
                    truncated: judged.truncated(),
                    hidden: false,
                })
            })
            .collect();
        let values: Vec<f64> = cells.iter().flatten().filter_map(|c| c.value).collect();
        rows.push(ItemRow {
            item_id: item.item_id.clone(),
            task: item.task,
            category: item.category.clone(),
            max_points,
            runs: cells,
            mean: mean(&values),
        });
    }
    for (column, values) in columns.iter_mut().zip(fed) {
        column.value = recompute(metric, values);
    }
    CellDrilldown {
        column: Column::of(metric),
        category: category.map(str::to_owned),
        tasks: tasks.to_vec(),
        runs: columns,
        total: rows.len(),
        offset: 0,
        rows,
    }
}

/// One item of one run in full.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemDetail {
    /// The dataset item.
    pub item_id: String,
    /// Its task.
    pub task: Task,
    /// Its category.
    pub category: Option<String>,
    /// Its maximum points.
    pub max_points: u32,
    /// The evaluated model.
    pub model: String,
    /// The run's number.
    pub run: u32,
    /// Whether the run contains the item (it may lack the item's task).
    pub in_run: bool,
    /// The model prompt as rendered for the item (§B2.1).
    pub prompt: String,
    /// The model's answer.
    pub response: Option<String>,
    /// How the answer ended (`stop`, `length`, …).
    pub finish_reason: Option<String>,
    /// Whether the answer was cut at the token limit.
    pub truncated: bool,
    /// Why the item has no panel value: marked unavailable, or no judge
    /// gave points; `None` when it is scored or not in the run.
    pub unavailable: Option<String>,
    /// The text rubric of a `legal_consultation` or drafting item.
    pub rubric: Option<String>,
    /// How the panel combines its judges.
    pub aggregation: Aggregation,
    /// One per judgement, in panel order.
    pub judges: Vec<JudgeDetail>,
    /// Per section of a `case_analysis` item, in section order; one part
    /// for the whole item otherwise.
    pub parts: Vec<PartDetail>,
    /// The panel's values (`acc` and the section accuracies), as scored.
    pub panel: Option<ItemScore>,
    /// The judges' verdicts are kept back while experts review the item
    /// blind ([`ItemDetail::hide_verdict`]).
    #[serde(default)]
    pub hidden: bool,
}

impl ItemDetail {
    /// Keeps back every judge's verdict on the item (its points, accuracy,
    /// reply and reported maximum, and the panel's values) while experts
    /// review it blind; the prompt, the response and the rubric stay.
    pub fn hide_verdict(&mut self) {
        self.hidden = true;
        self.panel = None;
        for judge in &mut self.judges {
            judge.judge_output = None;
            judge.reported_max = None;
            judge.acc = None;
        }
        for part in &mut self.parts {
            part.panel = None;
            for award in &mut part.awards {
                award.raw = None;
                award.awarded = None;
                award.clamped = false;
            }
        }
    }
}

/// One judge's verdict on the item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeDetail {
    /// The judge model.
    pub judge: String,
    /// Its vendor, when the run header names one.
    pub vendor: Option<String>,
    /// Why this seat has no verdict.
    pub unavailable: Option<String>,
    /// The judge's reply as it came.
    pub judge_output: Option<String>,
    /// The judge's own `max_points` (display only; scoring uses the
    /// dataset's).
    pub reported_max: Option<f64>,
    /// How many requests it took.
    pub attempts: Option<u32>,
    /// The judge's accuracy on the item, as scored; `None` when the seat or
    /// the item is unavailable.
    pub acc: Option<f64>,
}

/// A section of a `case_analysis` item, or a whole item of another task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartDetail {
    /// The section; `None` for a whole item.
    pub section: Option<Section>,
    /// The points it is out of (Σ of the section's rubric entries, or the
    /// item's `max_points`).
    pub max_points: f64,
    /// The section's rubric criteria, in rubric order (empty for a whole
    /// item: see [`ItemDetail::rubric`]).
    pub criteria: Vec<String>,
    /// One per judgement, in panel order.
    pub awards: Vec<Award>,
    /// The panel's accuracy on the part.
    pub panel: Option<f64>,
}

/// What one judge awarded on one part.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Award {
    /// The judge model.
    pub judge: String,
    /// The value as the judge gave it; `None` when the seat is unavailable.
    pub raw: Option<f64>,
    /// The value clamped into `[0, max_points]` (§B2.4), which is scored.
    pub awarded: Option<f64>,
    /// Whether clamping changed the value.
    pub clamped: bool,
}

impl Award {
    fn of(judge: &str, raw: Option<f64>, max_points: f64) -> Award {
        let awarded = raw.map(|r| clamp(r, max_points));
        Award {
            judge: judge.to_owned(),
            raw,
            awarded,
            clamped: raw != awarded,
        }
    }
}

/// The detail of `item` in `run` (see the [module documentation](self)).
///
/// ```
/// use engine::plawbench::dataset::{parse_dataset, Section};
/// use engine::plawbench::drilldown::item_detail;
/// use engine::plawbench::run::parse_run;
///
/// let dataset = parse_dataset(r#"{"item_id": "case_analysis-1", "task": "case_analysis", "context": "c", "question": "q", "sections": [{"criterion": "a", "points": "5", "tags": "结论得分"}, {"criterion": "b", "points": "20", "tags": "案情简述得分"}, {"criterion": "c", "points": "20", "tags": "分析过程得分"}, {"criterion": "d", "points": "15", "tags": "法条依据得分"}], "max_points": 60}"#).unwrap();
/// let run = parse_run(concat!(
///     r#"{"kind": "run", "benchmark": "plawbench", "model": "M", "run": 1, "judges": [{"model": "J"}], "judge_parse": "lenient"}"#, "\n",
///     r#"{"kind": "rubric", "item_id": "case_analysis-1", "task": "case_analysis", "response": "【结论】……", "judgements": [{"judge": "J", "awarded": {"conclusion": 8, "facts": 15, "reasoning": 10, "law": -1}, "judge_output": "{…}"}]}"#,
/// ), &dataset).unwrap();
/// let detail = item_detail(&dataset[0], &run);
/// let conclusion = &detail.parts[0];
/// assert_eq!(conclusion.section, Some(Section::Conclusion));
/// let award = &conclusion.awards[0];
/// assert_eq!((award.raw, award.awarded, award.clamped), (Some(8.0), Some(5.0), true));
/// assert!(!detail.parts[1].awards[0].clamped);
/// assert_eq!(detail.panel.unwrap().acc, 0.5);
/// assert_eq!(detail.judges[0].judge_output.as_deref(), Some("{…}"));
/// ```
pub fn item_detail(item: &Item, run: &Run) -> ItemDetail {
    let judged = run.items.iter().find(|i| i.item_id == item.item_id);
    let aggregation = run.header.judge_aggregation;
    let outcome = judged.map(|j| score_item(item, j, aggregation));
    let judgements = judged.map_or(&[][..], |j| j.judgements.as_slice());
    let judge_acc = |k: usize| {
        outcome
            .as_ref()
            .and_then(|o| o.judges.get(k).cloned().flatten())
            .map(|s| s.acc)
    };
    let judges = judgements
        .iter()
        .enumerate()
        .map(|(k, j)| JudgeDetail {
            judge: j.judge.clone(),
            vendor: run
                .header
                .judges
                .iter()
                .find(|seat| seat.model == j.judge)
                .and_then(|seat| seat.vendor.clone()),
            unavailable: j.unavailable.clone(),
            judge_output: j.judge_output.clone(),
            reported_max: j.reported_max,
            attempts: j.attempts,
            acc: judge_acc(k),
        })
        .collect();
    let panel = outcome.and_then(|o| o.panel);
    let section_max = item.section_max();
    let parts = if section_max.is_empty() {
        let max_points = f64::from(item.max_points);
        vec![PartDetail {
            section: None,
            max_points,
            criteria: Vec::new(),
            awards: judgements
                .iter()
                .map(|j| {
                    let raw = match j.awarded {
                        Some(Awarded::Points(points)) => Some(points),
                        _ => None,
                    };
                    Award::of(&j.judge, raw, max_points)
                })
                .collect(),
            panel: panel.as_ref().map(|p| p.acc),
        }]
    } else {
        section_max
            .iter()
            .map(|(&section, &max_points)| PartDetail {
                section: Some(section),
                max_points,
                criteria: item
                    .sections
                    .iter()
                    .flatten()
                    .filter(|e| e.section() == section)
                    .map(|e| e.criterion().to_owned())
                    .collect(),
                awards: judgements
                    .iter()
                    .map(|j| {
                        let raw = match &j.awarded {
                            Some(Awarded::Sections(points)) => points.get(&section).copied(),
                            _ => None,
                        };
                        Award::of(&j.judge, raw, max_points)
                    })
                    .collect(),
                panel: panel
                    .as_ref()
                    .and_then(|p| p.sections.get(&section).copied()),
            })
            .collect()
    };
    ItemDetail {
        item_id: item.item_id.clone(),
        task: item.task,
        category: item.category.clone(),
        max_points: item.max_points,
        model: run.header.model.clone(),
        run: run.header.run,
        in_run: judged.is_some(),
        prompt: render_model_prompt(item),
        response: judged.and_then(|j| j.response.clone()),
        finish_reason: judged.and_then(|j| j.finish_reason.clone()),
        truncated: judged.is_some_and(RubricItem::truncated),
        unavailable: judged.filter(|_| panel.is_none()).map(unavailable_reason),
        rubric: item.rubric.clone(),
        aggregation,
        judges,
        parts,
        panel,
        hidden: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plawbench::dataset::parse_dataset;
    use crate::plawbench::judge::task_instructions;
    use crate::plawbench::run::parse_run;
    use crate::plawbench::score::score_run;
    use crate::plawbench::synthetic::{dataset_file, run_file};
    use proptest::prelude::*;

    fn dataset() -> Vec<Item> {
        parse_dataset(concat!(
            r#"{"item_id": "case_analysis-1", "task": "case_analysis", "category": "个人生活", "context": "某甲……", "question": "某甲能否……？", "sections": [{"criterion": "【结论得分】(+5分) 有权", "points": "5", "tags": "结论得分"}, {"criterion": "【案情简述得分】(+10分) 合同", "points": "10", "tags": "案情简述得分"}, {"criterion": "【案情简述得分】(+10分) 丢失", "points": "10", "tags": "案情简述得分"}, {"criterion": "c", "points": "20", "tags": "分析过程得分"}, {"criterion": "d", "points": "15", "tags": "法条依据得分"}], "max_points": 60}"#,
            "\n",
            r#"{"item_id": "case_analysis-2", "task": "case_analysis", "category": "婚姻家事", "context": "c", "question": "q", "sections": [{"criterion": "a", "points": 10, "tags": "结论得分"}], "max_points": 10}"#,
            "\n",
            r#"{"item_id": "case_analysis-3", "task": "case_analysis", "category": "个人生活", "context": "c", "question": "q", "sections": [{"criterion": "a", "points": 4, "tags": "结论得分"}], "max_points": 4}"#,
            "\n",
            r#"{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "q", "rubric": "1.(+16 分) 报警记录？", "max_points": 16}"#,
            "\n",
            r#"{"item_id": "plaintiff_statement-1", "task": "plaintiff_statement", "question": "q", "rubric": "起诉状", "max_points": 10}"#,
            "\n",
            r#"{"item_id": "defendant_statement-1", "task": "defendant_statement", "question": "q", "rubric": "答辩状", "max_points": 10}"#,
            "\n",
        ))
        .expect("a valid dataset")
    }

    /// Two judges, mean. The items in an order unlike the dataset's.
    fn run(dataset: &[Item]) -> Run {
        parse_run(
            concat!(
                r#"{"kind": "run", "benchmark": "plawbench", "model": "M", "run": 3, "judges": [{"model": "J1", "vendor": "v"}, {"model": "J2"}], "judge_parse": "lenient"}"#,
                "\n",
                r#"{"kind": "rubric", "item_id": "defendant_statement-1", "task": "defendant_statement", "judgements": [{"judge": "J1", "unavailable": "parse_error: x"}, {"judge": "J2", "unavailable": "parse_error: y"}]}"#,
                "\n",
                r#"{"kind": "rubric", "item_id": "case_analysis-3", "task": "case_analysis", "judgements": [{"judge": "J1", "awarded": {"conclusion": 1}}, {"judge": "J2", "awarded": {"conclusion": 2}}]}"#,
                "\n",
                r#"{"kind": "rubric", "item_id": "case_analysis-1", "task": "case_analysis", "response": "【结论】……", "judgements": [{"judge": "J1", "awarded": {"conclusion": 8, "facts": 15, "reasoning": 10, "law": -1}, "judge_output": "```json {…}```", "reported_max": 60}, {"judge": "J2", "unavailable": "parse_error: reply is not valid JSON", "judge_output": "好的"}]}"#,
                "\n",
                r#"{"kind": "rubric", "item_id": "case_analysis-2", "task": "case_analysis", "unavailable": "model call failed"}"#,
                "\n",
                r#"{"kind": "rubric", "item_id": "legal_consultation-1", "task": "legal_consultation", "judgements": [{"judge": "J1", "awarded": 20}, {"judge": "J2", "awarded": 8}]}"#,
                "\n",
                r#"{"kind": "rubric", "item_id": "plaintiff_statement-1", "task": "plaintiff_statement", "finish_reason": "length", "response": "起诉状……", "judgements": [{"judge": "J1", "awarded": 4}, {"judge": "J2", "awarded": 6}]}"#,
                "\n",
            ),
            dataset,
        )
        .expect("a valid run")
    }

    fn ids(cell: &CellDrilldown) -> Vec<&str> {
        cell.rows.iter().map(|r| r.item_id.as_str()).collect()
    }

    #[test]
    fn each_metric_lists_its_tasks_items_in_dataset_order() {
        let dataset = dataset();
        let run = run(&dataset);
        let runs = [(3, &run)];
        let overall = cell_items(&dataset, &runs, Metric::Overall, None);
        assert_eq!(ids(&overall).len(), 6);
        assert_eq!(ids(&overall)[0], "case_analysis-1");
        let task3 = cell_items(&dataset, &runs, Metric::Task3, None);
        assert_eq!(
            ids(&task3),
            ["plaintiff_statement-1", "defendant_statement-1"]
        );
        let facts = cell_items(&dataset, &runs, Metric::Task2Section(Section::Facts), None);
        assert_eq!(ids(&facts), ["case_analysis-1"]);
        assert_eq!(facts.rows[0].max_points, 20.0);
        assert_eq!(
            facts.rows[0].runs[0].as_ref().and_then(|c| c.value),
            Some(0.75)
        );
        assert_eq!(facts.column, Column::Task2Facts);
        let personal = cell_items(&dataset, &runs, Metric::Task2, Some("个人生活"));
        assert_eq!(ids(&personal), ["case_analysis-1", "case_analysis-3"]);
        // 0.5 and the mean of 0.25 and 0.5.
        assert_eq!(personal.runs[0].value, Some((0.5 + 0.375) / 2.0));
    }

    #[test]
    fn unavailable_and_truncated_items_are_marked() {
        let dataset = dataset();
        let run = run(&dataset);
        let cell = cell_items(&dataset, &[(3, &run)], Metric::Overall, None);
        let find = |id: &str| {
            cell.rows
                .iter()
                .find(|r| r.item_id == id)
                .and_then(|r| r.runs[0].clone())
                .expect("a cell")
        };
        assert_eq!(
            find("case_analysis-2").unavailable.as_deref(),
            Some("model call failed")
        );
        assert_eq!(
            find("defendant_statement-1").unavailable.as_deref(),
            Some("no judge gave points (J1: parse_error: x; J2: parse_error: y)")
        );
        let plaintiff = find("plaintiff_statement-1");
        assert!(plaintiff.truncated);
        assert_eq!(plaintiff.value, Some(0.5));
        assert_eq!(
            cell.runs[0],
            RunCell {
                run: 3,
                value: None,
                items: 6,
                scored: 4,
                hidden: 0,
                unavailable: 2,
                truncated: 1
            },
            "no defendant value, so no Overall"
        );
        assert_eq!(
            cell.runs[0].value,
            score_run(&run, &dataset).metric(Metric::Overall)
        );
    }

    #[test]
    fn every_metric_recomputes_the_run_score() {
        let dataset = dataset();
        let run = run(&dataset);
        let scores = score_run(&run, &dataset);
        for metric in Metric::ALL {
            let cell = cell_items(&dataset, &[(3, &run)], metric, None);
            assert_eq!(cell.runs[0].value, scores.metric(metric), "{metric:?}");
        }
        for (category, score) in &scores.by_category {
            let cell = cell_items(&dataset, &[(3, &run)], Metric::Task2, Some(category));
            assert_eq!(cell.runs[0].value, score.acc, "{category}");
            assert_eq!(cell.runs[0].scored, score.n, "{category}");
        }
    }

    #[test]
    fn a_run_without_the_task_has_no_cells() {
        let dataset = dataset();
        let full = run(&dataset);
        let mut partial = full.clone();
        partial.header.run = 4;
        partial.items.retain(|i| i.task != Task::LegalConsultation);
        let cell = cell_items(&dataset, &[(3, &full), (4, &partial)], Metric::Task1, None);
        assert_eq!(cell.rows[0].runs[1], None);
        assert_eq!(cell.rows[0].mean, Some(0.75));
        assert_eq!(cell.runs[1].value, None);
        assert_eq!(cell.runs[1].items, 0);
    }

    #[test]
    fn the_detail_shows_raw_and_clamped_points_per_section_and_judge() {
        let dataset = dataset();
        let run = run(&dataset);
        let detail = item_detail(&dataset[0], &run);
        assert_eq!((detail.model.as_str(), detail.run), ("M", 3));
        assert!(detail.in_run);
        assert!(detail
            .prompt
            .starts_with(task_instructions(dataset[0].judge_type())));
        assert!(detail.prompt.ends_with("## 问题\n某甲能否……？\n"));
        assert_eq!(detail.response.as_deref(), Some("【结论】……"));
        assert!(!detail.truncated);
        assert_eq!(detail.unavailable, None);
        assert_eq!(detail.rubric, None);
        assert_eq!(detail.aggregation, Aggregation::Mean);
        let maxima: Vec<(Option<Section>, f64)> = detail
            .parts
            .iter()
            .map(|p| (p.section, p.max_points))
            .collect();
        assert_eq!(
            maxima,
            [
                (Some(Section::Conclusion), 5.0),
                (Some(Section::Facts), 20.0),
                (Some(Section::Reasoning), 20.0),
                (Some(Section::Law), 15.0)
            ]
        );
        assert_eq!(
            detail.parts[1].criteria,
            [
                "【案情简述得分】(+10分) 合同",
                "【案情简述得分】(+10分) 丢失"
            ]
        );
        let law = &detail.parts[3];
        assert_eq!(
            law.awards,
            [
                Award {
                    judge: "J1".into(),
                    raw: Some(-1.0),
                    awarded: Some(0.0),
                    clamped: true
                },
                Award {
                    judge: "J2".into(),
                    raw: None,
                    awarded: None,
                    clamped: false
                }
            ]
        );
        assert_eq!(law.panel, Some(0.0));
        assert_eq!(detail.parts[1].panel, Some(0.75));
        let j1 = &detail.judges[0];
        assert_eq!(
            (j1.vendor.as_deref(), j1.reported_max, j1.acc),
            (Some("v"), Some(60.0), Some(0.5))
        );
        let j2 = &detail.judges[1];
        assert_eq!(
            (
                j2.unavailable.as_deref(),
                j2.judge_output.as_deref(),
                j2.acc
            ),
            (
                Some("parse_error: reply is not valid JSON"),
                Some("好的"),
                None
            )
        );
        assert_eq!(detail.panel.as_ref().map(|p| p.acc), Some(0.5));
    }

    #[test]
    fn the_detail_of_other_tasks_has_one_part_and_the_text_rubric() {
        let dataset = dataset();
        let run = run(&dataset);
        let consultation = item_detail(&dataset[3], &run);
        assert_eq!(
            consultation.rubric.as_deref(),
            Some("1.(+16 分) 报警记录？")
        );
        assert_eq!(consultation.parts.len(), 1);
        let part = &consultation.parts[0];
        assert_eq!((part.section, part.max_points), (None, 16.0));
        assert!(part.awards[0].clamped, "20 clamped to 16");
        assert_eq!(part.awards[0].awarded, Some(16.0));
        assert!(!part.awards[1].clamped);
        assert_eq!(part.panel, Some(0.75));

        let plaintiff = item_detail(&dataset[4], &run);
        assert!(plaintiff.truncated);
        assert_eq!(plaintiff.finish_reason.as_deref(), Some("length"));
        let defendant = item_detail(&dataset[5], &run);
        assert!(defendant
            .unavailable
            .is_some_and(|r| r.starts_with("no judge gave points")));
        assert_eq!(defendant.panel, None);
        let failed = item_detail(&dataset[1], &run);
        assert_eq!(failed.unavailable.as_deref(), Some("model call failed"));
        assert!(failed.judges.is_empty());
        assert!(failed.parts[0].awards.is_empty());

        let mut without = run.clone();
        without.items.retain(|i| i.task != Task::CaseAnalysis);
        let missing = item_detail(&dataset[0], &without);
        assert!(!missing.in_run);
        assert_eq!(
            (missing.unavailable, missing.response, missing.panel),
            (None, None, None)
        );
    }

    #[test]
    fn drilldowns_round_trip_through_json() {
        let dataset = dataset();
        let run = run(&dataset);
        let cell = cell_items(
            &dataset,
            &[(3, &run)],
            Metric::Task2Section(Section::Law),
            None,
        );
        let json = serde_json::to_value(&cell).expect("serialises");
        assert_eq!(json["column"], "task2_statute");
        assert_eq!(json["tasks"][0], "case_analysis");
        assert_eq!(
            serde_json::from_value::<CellDrilldown>(json).expect("reads back"),
            cell
        );
        let detail = item_detail(&dataset[0], &run);
        let json = serde_json::to_value(&detail).expect("serialises");
        assert_eq!(json["parts"][0]["section"], "conclusion");
        assert_eq!(json["parts"][0]["awards"][0]["clamped"], true);
        assert_eq!(
            serde_json::from_value::<ItemDetail>(json).expect("reads back"),
            detail
        );
    }

    const SMALL: [(Task, usize); 4] = [
        (Task::CaseAnalysis, 14),
        (Task::LegalConsultation, 4),
        (Task::PlaintiffStatement, 2),
        (Task::DefendantStatement, 2),
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn the_cell_recomputed_from_its_rows_is_the_run_score(seed in any::<u64>(), judges in 1usize..5, runs in 1u32..4) {
            let dataset = parse_dataset(&dataset_file(&SMALL, seed)).expect("a valid dataset");
            let parsed: Vec<Run> = (1..=runs)
                .map(|r| parse_run(&run_file(&dataset, "M", r, judges, seed), &dataset).expect("a valid run"))
                .collect();
            let columns: Vec<(u32, &Run)> = parsed.iter().map(|r| (r.header.run, r)).collect();
            let scores: Vec<_> = parsed.iter().map(|r| score_run(r, &dataset)).collect();
            for metric in Metric::ALL {
                let cell = cell_items(&dataset, &columns, metric, None);
                for (column, score) in cell.runs.iter().zip(&scores) {
                    prop_assert_eq!(column.value, score.metric(metric), "{:?}", metric);
                    let tasks = metric_tasks(metric);
                    let unavailable: usize = score.tasks.iter().filter(|(t, _)| tasks.contains(t)).map(|(_, t)| t.unavailable).sum();
                    if !matches!(metric, Metric::Task2Section(_)) {
                        prop_assert_eq!(column.unavailable, unavailable);
                    }
                }
                for row in &cell.rows {
                    let values: Vec<f64> = row.runs.iter().flatten().filter_map(|c| c.value).collect();
                    prop_assert_eq!(row.mean, mean(&values));
                    prop_assert!(row.runs.iter().flatten().all(|c| c.value.is_some() != c.unavailable.is_some()));
                }
                let limit = 5;
                let mut paged = Vec::new();
                for offset in (0..cell.total).step_by(limit) {
                    paged.extend(cell.clone().page(offset, limit).rows);
                }
                prop_assert_eq!(&paged, &cell.rows);
            }
            for (category, score) in &scores[0].by_category {
                let cell = cell_items(&dataset, &columns[..1], Metric::Task2, Some(category));
                prop_assert_eq!(cell.runs[0].value, score.acc);
                prop_assert_eq!(cell.runs[0].scored, score.n);
            }
        }
    }
}
