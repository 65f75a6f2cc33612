//! PLawBench scores (`docs/benchmarks/plawbench.md` §B2.4, §B4): per judge,
//! per panel, per run, and the score document of leaderboard entries.
//!
//! - [`judge_score`]: one judge's clamped points on one item (§B2.4) and its
//!   accuracies (§B4.1): `acc` pools points over the item's sections, so it is
//!   not the mean of the section accuracies.
//! - [`score_item`]: every judge of the panel and the panel value (§B4.2):
//!   each item metric aggregated independently over the available judges,
//!   by mean or `statistics.median`. An item with no available judge, or
//!   marked unavailable, has no value.
//! - [`score_run`]: one run's [`RunScores`] (§B4.3): per task the mean over
//!   available items (equal weight per item), unavailable and truncated
//!   counts, the section metrics of `case_analysis`, the per-sample overall
//!   and the mean `acc` per category. [`RunScores::metric`] gives the
//!   official columns: Task1, Task2 and its sections, Task3 plaintiff,
//!   defendant and their mean, and Overall = (Task1 + Task2 + Task3) / 3,
//!   only when all three are there.
//! - [`summarise_runs`]: groups scored runs into entries (order of first
//!   appearance) and reports each score as mean ± sample std over the runs
//!   that have it; [`ScoreDocument`] serialises to the §B4.4 JSON. A task no
//!   run of the entry contains is absent; a score with no instance is null.
//!
//! Depends on [`super::dataset`], [`super::run`] and [`crate::metrics`].
//!
//! # Example
//!
//! The §B4.1 test vector: sections 5/20/20/15, raw awards 8/15/10/−1.
//!
//! ```
//! use engine::plawbench::dataset::{parse_dataset, Section};
//! use engine::plawbench::run::Awarded;
//! use engine::core::panel::Aggregation;
//! use engine::plawbench::score::judge_score;
//!
//! let items = parse_dataset(r#"{"item_id": "case_analysis-1", "task": "case_analysis", "context": "c", "question": "q", "sections": [{"criterion": "a", "points": "5", "tags": "结论得分"}, {"criterion": "b", "points": "20", "tags": "案情简述得分"}, {"criterion": "c", "points": "20", "tags": "分析过程得分"}, {"criterion": "d", "points": "15", "tags": "法条依据得分"}], "max_points": 60}"#).unwrap();
//! let raw = Awarded::Sections([(Section::Conclusion, 8.0), (Section::Facts, 15.0), (Section::Reasoning, 10.0), (Section::Law, -1.0)].into());
//! let score = judge_score(&items[0], &raw).unwrap();
//! assert_eq!(score.acc, 0.5);
//! assert_eq!(score.sections.values().copied().collect::<Vec<_>>(), [1.0, 0.75, 0.5, 0.0]);
//! ```

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Deserializer, Serialize};

use super::dataset::{task_counts, Item, Section, Task};
use super::run::{Awarded, RubricItem, Run};
use crate::benchmark::Benchmark;
use crate::core::entry::{EntryKey, Family};
use crate::core::panel::{aggregate, Aggregation};
use crate::metrics::{mean_std, MeanStd};

/// Clamps a raw judge value into `[0, max]` (§B2.4).
///
/// ```
/// use engine::plawbench::score::clamp;
/// assert_eq!((clamp(20.0, 16.0), clamp(-2.0, 16.0), clamp(7.5, 16.0)), (16.0, 0.0, 7.5));
/// ```
pub fn clamp(raw: f64, max: f64) -> f64 {
    raw.max(0.0).min(max)
}

/// One judge's (or the panel's) value of an item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemScore {
    /// Points over the item's maximum, pooled over its sections.
    pub acc: f64,
    /// For `case_analysis`, each section's clamped points over its maximum.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sections: BTreeMap<Section, f64>,
}

/// One judge's clamped points on one item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeScore {
    /// The awarded points after clamping (per section for `case_analysis`).
    pub clamped: Awarded,
    /// Clamped points over the item's maximum, pooled over sections.
    pub acc: f64,
    /// For `case_analysis`, each section's accuracy.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sections: BTreeMap<Section, f64>,
}

/// One judge's clamped points and accuracies on `item` (§B2.4, §B4.1), or
/// `None` when the shape of `awarded` does not fit the item (a parsed run
/// never has that).
///
/// ```
/// use engine::plawbench::dataset::parse_dataset;
/// use engine::plawbench::run::Awarded;
/// use engine::plawbench::score::judge_score;
///
/// let items = parse_dataset(r#"{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "q", "rubric": "r", "max_points": 16}"#).unwrap();
/// assert_eq!(judge_score(&items[0], &Awarded::Points(20.0)).unwrap().acc, 1.0);
/// assert_eq!(judge_score(&items[0], &Awarded::Points(-2.0)).unwrap().acc, 0.0);
/// ```
pub fn judge_score(item: &Item, awarded: &Awarded) -> Option<JudgeScore> {
    let max = item.section_max();
    match awarded {
        Awarded::Points(raw) if max.is_empty() => {
            let total = f64::from(item.max_points);
            let points = clamp(*raw, total);
            Some(JudgeScore {
                clamped: Awarded::Points(points),
                acc: points / total,
                sections: BTreeMap::new(),
            })
        }
        Awarded::Sections(raw) if !max.is_empty() && raw.len() == max.len() => {
            let mut clamped = BTreeMap::new();
            let mut sections = BTreeMap::new();
            let (mut got, mut out_of) = (0.0, 0.0);
            for (&section, &max_s) in &max {
                let points = clamp(*raw.get(&section)?, max_s);
                clamped.insert(section, points);
                sections.insert(section, points / max_s);
                got += points;
                out_of += max_s;
            }
            Some(JudgeScore {
                clamped: Awarded::Sections(clamped),
                acc: got / out_of,
                sections,
            })
        }
        _ => None,
    }
}

/// Every judge's score of one item and the panel's value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemOutcome {
    /// One per judgement, in panel order; `None` for an unavailable seat.
    pub judges: Vec<Option<JudgeScore>>,
    /// The panel value; `None` when the item or every seat is unavailable.
    pub panel: Option<ItemScore>,
}

/// Scores one item of a run against its dataset item with the run's panel
/// aggregation (see the [module documentation](self)).
///
/// ```
/// use engine::plawbench::dataset::parse_dataset;
/// use engine::plawbench::run::parse_run;
/// use engine::core::panel::Aggregation;
/// use engine::plawbench::score::score_item;
///
/// let dataset = parse_dataset(r#"{"item_id": "a", "task": "legal_consultation", "question": "q", "rubric": "r", "max_points": 10}"#).unwrap();
/// let run = parse_run(concat!(
///     r#"{"kind": "run", "benchmark": "plawbench", "model": "M", "run": 1, "judges": [{"model": "J1"}, {"model": "J2"}, {"model": "J3"}], "judge_aggregation": "median", "judge_parse": "strict"}"#, "\n",
///     r#"{"kind": "rubric", "item_id": "a", "task": "legal_consultation", "judgements": [{"judge": "J1", "awarded": 2}, {"judge": "J2", "awarded": 12}, {"judge": "J3", "unavailable": "parse_error"}]}"#,
/// ), &dataset).unwrap();
/// let outcome = score_item(&dataset[0], &run.items[0], Aggregation::Median);
/// assert_eq!(outcome.judges[1].as_ref().map(|j| j.acc), Some(1.0)); // 12 clamped to 10
/// assert_eq!(outcome.panel.map(|p| p.acc), Some(0.6)); // the median of 0.2 and 1.0
/// ```
pub fn score_item(item: &Item, judged: &RubricItem, aggregation: Aggregation) -> ItemOutcome {
    if judged.unavailable.is_some() {
        return ItemOutcome {
            judges: judged.judgements.iter().map(|_| None).collect(),
            panel: None,
        };
    }
    let judges: Vec<Option<JudgeScore>> = judged
        .judgements
        .iter()
        .map(|j| match (&j.unavailable, &j.awarded) {
            (None, Some(awarded)) => judge_score(item, awarded),
            _ => None,
        })
        .collect();
    let available: Vec<&JudgeScore> = judges.iter().flatten().collect();
    let panel = (!available.is_empty()).then(|| {
        let acc: Vec<f64> = available.iter().map(|j| j.acc).collect();
        ItemScore {
            acc: aggregate(&acc, aggregation).unwrap_or(0.0),
            sections: item
                .section_max()
                .keys()
                .filter_map(|&s| {
                    let values: Vec<f64> = available
                        .iter()
                        .filter_map(|j| j.sections.get(&s).copied())
                        .collect();
                    aggregate(&values, aggregation).map(|v| (s, v))
                })
                .collect(),
        }
    });
    ItemOutcome { judges, panel }
}

/// One task of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskScores {
    /// The task's items in the run.
    pub items: usize,
    /// Items with a panel value.
    pub scored: usize,
    /// Items left out: marked unavailable, or with no available judge.
    pub unavailable: usize,
    /// Items whose answer was cut at the token limit (`finish_reason` =
    /// `length`); scored as they are.
    pub truncated: usize,
    /// Mean `acc` over the scored items; `None` when none is.
    pub acc: Option<f64>,
    /// For `case_analysis`, the mean of each section's accuracy over the
    /// scored items that have the section.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sections: BTreeMap<Section, Option<f64>>,
    /// For `case_analysis`, how many scored items have each section (the
    /// `num` evalscope gives the section metric); a section missing here
    /// (scores stored before it was kept) counts as `scored`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub section_scored: BTreeMap<Section, usize>,
}

/// The mean `acc` of the scored `case_analysis` items of one category.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CategoryScore {
    /// The mean; `None` when no item of the category was scored.
    pub acc: Option<f64>,
    /// How many items were scored.
    pub n: usize,
}

/// What scoring one run gives (kept with the run).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunScores {
    /// Each task the run contains.
    pub tasks: BTreeMap<Task, TaskScores>,
    /// The mean `acc` over every scored item of the run (evalscope's
    /// `OVERALL`); `None` when none was scored.
    pub per_sample_overall: Option<f64>,
    /// Per `case_analysis` category of the dataset (empty without the task).
    pub by_category: BTreeMap<String, CategoryScore>,
}

/// A score of the official ranking, or evalscope's per-sample overall.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Metric {
    /// (Task1 + Task2 + Task3) / 3.
    Overall,
    /// `acc` of `case_analysis`.
    Task2,
    /// A section metric of `case_analysis`.
    Task2Section(Section),
    /// `acc` of `legal_consultation`.
    Task1,
    /// (Task3-Plaintiff + Task3-Defendant) / 2.
    Task3,
    /// `acc` of `plaintiff_statement`.
    Task3Plaintiff,
    /// `acc` of `defendant_statement`.
    Task3Defendant,
    /// The mean over every scored item.
    PerSampleOverall,
}

impl Metric {
    /// The columns of the official ranking in order, then the per-sample overall.
    pub const ALL: [Metric; 11] = [
        Metric::Overall,
        Metric::Task2,
        Metric::Task2Section(Section::Conclusion),
        Metric::Task2Section(Section::Facts),
        Metric::Task2Section(Section::Reasoning),
        Metric::Task2Section(Section::Law),
        Metric::Task1,
        Metric::Task3,
        Metric::Task3Plaintiff,
        Metric::Task3Defendant,
        Metric::PerSampleOverall,
    ];

    /// The official column name (`Task2-Facts`), or `OVERALL` for the
    /// per-sample overall.
    ///
    /// ```
    /// use engine::plawbench::dataset::Section;
    /// use engine::plawbench::score::Metric;
    /// assert_eq!(Metric::Task2Section(Section::Law).label(), "Task2-Statute");
    /// ```
    pub fn label(self) -> &'static str {
        match self {
            Metric::Overall => "Overall",
            Metric::Task2 => "Task2-Avg",
            Metric::Task2Section(Section::Conclusion) => "Task2-Conclusion",
            Metric::Task2Section(Section::Facts) => "Task2-Facts",
            Metric::Task2Section(Section::Reasoning) => "Task2-Reasoning",
            Metric::Task2Section(Section::Law) => "Task2-Statute",
            Metric::Task1 => "Task1",
            Metric::Task3 => "Task3-Avg",
            Metric::Task3Plaintiff => "Task3-Plaintiff",
            Metric::Task3Defendant => "Task3-Defendant",
            Metric::PerSampleOverall => "OVERALL",
        }
    }
}

impl RunScores {
    fn acc(&self, task: Task) -> Option<f64> {
        self.tasks.get(&task).and_then(|t| t.acc)
    }

    /// One score of the run; `None` when its tasks are absent or nothing in
    /// them was scored.
    ///
    /// The §B5 P7 row that holds: Qwen-4b-instruct-2507's
    /// (58.49 + 53.72 + 39.37) / 3 = 50.53.
    ///
    /// ```
    /// use engine::plawbench::dataset::Task;
    /// use engine::plawbench::score::{Metric, RunScores, TaskScores};
    ///
    /// let task = |acc: f64| TaskScores { items: 1, scored: 1, unavailable: 0, truncated: 0, acc: Some(acc), sections: Default::default(), section_scored: Default::default() };
    /// let scores = RunScores {
    ///     tasks: [(Task::CaseAnalysis, task(0.5372)), (Task::LegalConsultation, task(0.5849)),
    ///             (Task::PlaintiffStatement, task(0.3108)), (Task::DefendantStatement, task(0.4766))].into(),
    ///     per_sample_overall: None,
    ///     by_category: Default::default(),
    /// };
    /// assert!((scores.metric(Metric::Task3).unwrap() - 0.3937).abs() < 1e-12);
    /// assert!((scores.metric(Metric::Overall).unwrap() * 100.0 - 50.526666).abs() < 1e-4);
    /// ```
    pub fn metric(&self, metric: Metric) -> Option<f64> {
        match metric {
            Metric::Overall => {
                let (t1, t2, t3) = (
                    self.metric(Metric::Task1)?,
                    self.metric(Metric::Task2)?,
                    self.metric(Metric::Task3)?,
                );
                Some((t1 + t2 + t3) / 3.0)
            }
            Metric::Task2 => self.acc(Task::CaseAnalysis),
            Metric::Task2Section(s) => self
                .tasks
                .get(&Task::CaseAnalysis)
                .and_then(|t| t.sections.get(&s).copied().flatten()),
            Metric::Task1 => self.acc(Task::LegalConsultation),
            Metric::Task3 => Some(
                (self.acc(Task::PlaintiffStatement)? + self.acc(Task::DefendantStatement)?) / 2.0,
            ),
            Metric::Task3Plaintiff => self.acc(Task::PlaintiffStatement),
            Metric::Task3Defendant => self.acc(Task::DefendantStatement),
            Metric::PerSampleOverall => self.per_sample_overall,
        }
    }

    /// Whether the run contains every task `metric` needs.
    pub fn has(&self, metric: Metric) -> bool {
        let has = |t| self.tasks.contains_key(&t);
        match metric {
            Metric::Overall => {
                has(Task::LegalConsultation) && has(Task::CaseAnalysis) && self.has(Metric::Task3)
            }
            Metric::Task2 | Metric::Task2Section(_) => has(Task::CaseAnalysis),
            Metric::Task1 => has(Task::LegalConsultation),
            Metric::Task3 => has(Task::PlaintiffStatement) && has(Task::DefendantStatement),
            Metric::Task3Plaintiff => has(Task::PlaintiffStatement),
            Metric::Task3Defendant => has(Task::DefendantStatement),
            Metric::PerSampleOverall => !self.tasks.is_empty(),
        }
    }
}

/// The items of one task of a run with their panel values, and how many
/// answers were truncated.
#[derive(Default)]
struct TaskItems<'d> {
    outcomes: Vec<(&'d Item, Option<ItemScore>)>,
    truncated: usize,
}

/// The mean of `values`, `None` when empty.
fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// Scores a run against the dataset it was parsed with (§B4.3). Items naming
/// no dataset item (impossible in a parsed run) are left out.
///
/// ```
/// use engine::plawbench::dataset::{parse_dataset, Task};
/// use engine::plawbench::run::parse_run;
/// use engine::plawbench::score::{score_run, Metric};
///
/// let dataset = parse_dataset(concat!(
///     r#"{"item_id": "a", "task": "plaintiff_statement", "question": "q", "rubric": "r", "max_points": 10}"#, "\n",
///     r#"{"item_id": "b", "task": "plaintiff_statement", "question": "q", "rubric": "r", "max_points": 20}"#,
/// )).unwrap();
/// let run = parse_run(concat!(
///     r#"{"kind": "run", "benchmark": "plawbench", "model": "M", "run": 1, "judges": [{"model": "J"}], "judge_parse": "lenient"}"#, "\n",
///     r#"{"kind": "rubric", "item_id": "a", "task": "plaintiff_statement", "finish_reason": "length", "judgements": [{"judge": "J", "awarded": 4}]}"#, "\n",
///     r#"{"kind": "rubric", "item_id": "b", "task": "plaintiff_statement", "judgements": [{"judge": "J", "unavailable": "parse_error"}]}"#,
/// ), &dataset).unwrap();
/// let scores = score_run(&run, &dataset);
/// let plaintiff = &scores.tasks[&Task::PlaintiffStatement];
/// assert_eq!((plaintiff.acc, plaintiff.unavailable, plaintiff.truncated), (Some(0.4), 1, 1));
/// assert_eq!(scores.metric(Metric::Task3), None); // no defendant_statement
/// ```
pub fn score_run(run: &Run, dataset: &[Item]) -> RunScores {
    let index: HashMap<&str, &Item> = dataset.iter().map(|i| (i.item_id.as_str(), i)).collect();
    let aggregation = run.header.judge_aggregation;
    let mut per_task: BTreeMap<Task, TaskItems> = BTreeMap::new();
    for judged in &run.items {
        let Some(item) = index.get(judged.item_id.as_str()) else {
            continue;
        };
        let task = per_task.entry(item.task).or_default();
        task.truncated += usize::from(judged.truncated());
        task.outcomes
            .push((item, score_item(item, judged, aggregation).panel));
    }

    let mut all_acc = Vec::new();
    let mut by_category: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let tasks = per_task
        .into_iter()
        .map(
            |(
                task,
                TaskItems {
                    outcomes,
                    truncated,
                },
            )| {
                let scored: Vec<(&Item, &ItemScore)> = outcomes
                    .iter()
                    .filter_map(|(item, score)| score.as_ref().map(|s| (*item, s)))
                    .collect();
                let acc: Vec<f64> = scored.iter().map(|(_, s)| s.acc).collect();
                all_acc.extend_from_slice(&acc);
                let mut section_scored = BTreeMap::new();
                let sections = if task == Task::CaseAnalysis {
                    for (item, score) in &scored {
                        if let Some(category) = &item.category {
                            by_category
                                .entry(category.clone())
                                .or_default()
                                .push(score.acc);
                        }
                    }
                    Section::ALL
                        .into_iter()
                        .map(|s| {
                            let values: Vec<f64> = scored
                                .iter()
                                .filter_map(|(_, score)| score.sections.get(&s).copied())
                                .collect();
                            section_scored.insert(s, values.len());
                            (s, mean(&values))
                        })
                        .collect()
                } else {
                    BTreeMap::new()
                };
                let scores = TaskScores {
                    items: outcomes.len(),
                    scored: scored.len(),
                    unavailable: outcomes.len() - scored.len(),
                    truncated,
                    acc: mean(&acc),
                    sections,
                    section_scored,
                };
                (task, scores)
            },
        )
        .collect::<BTreeMap<_, _>>();

    let by_category = if tasks.contains_key(&Task::CaseAnalysis) {
        categories(dataset)
            .into_iter()
            .map(|c| {
                let values = by_category.remove(&c).unwrap_or_default();
                let score = CategoryScore {
                    acc: mean(&values),
                    n: values.len(),
                };
                (c, score)
            })
            .collect()
    } else {
        BTreeMap::new()
    };
    RunScores {
        tasks,
        per_sample_overall: mean(&all_acc),
        by_category,
    }
}

/// The categories of the dataset's `case_analysis` items, sorted.
fn categories(dataset: &[Item]) -> Vec<String> {
    let mut found: Vec<String> = dataset
        .iter()
        .filter(|i| i.task == Task::CaseAnalysis)
        .filter_map(|i| i.category.clone())
        .collect();
    found.sort();
    found.dedup();
    found
}

/// The score document of §B4.4.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreDocument {
    /// Always [`Benchmark::Plawbench`].
    pub benchmark: Benchmark,
    /// The dataset's name, written only when given ([`ScoreDocument::with_dataset`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
    /// The dataset's items per task (tasks without items left out).
    pub items: BTreeMap<Task, usize>,
    /// One entry per model and setting, in order of first appearance.
    pub entries: Vec<EntryScores>,
}

impl ScoreDocument {
    /// The document with its dataset named.
    pub fn with_dataset(self, name: impl Into<String>) -> Self {
        Self {
            dataset: Some(name.into()),
            ..self
        }
    }
}

/// A key that is present, possibly null (absent keys take the `default`).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// One leaderboard entry: the runs of one model in one setting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntryScores {
    /// The evaluated model.
    pub model: String,
    /// The vendor family of the official ranking.
    pub model_family: Option<String>,
    /// The model's group.
    pub family: Option<Family>,
    /// How many runs the entry has.
    pub runs: usize,
    /// Absent unless a run has Task1, Task2 and both Task3 subsets.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub overall: Option<Option<MeanStd>>,
    /// Absent unless a run has `legal_consultation`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub task1: Option<Option<MeanStd>>,
    /// Absent unless a run has `case_analysis`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task2: Option<Task2Summary>,
    /// Absent unless a run has a drafting task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task3: Option<Task3Summary>,
    /// The mean over every scored item (evalscope's `OVERALL`).
    pub per_sample_overall: Option<MeanStd>,
    /// Mean `acc` per `case_analysis` category; absent without the task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_category: Option<BTreeMap<String, Option<MeanStd>>>,
    /// Unavailable and truncated items, summed over the entry's runs.
    pub counts: Counts,
    /// Everything that sets the entry apart (judges, parse mode, …), which
    /// §B4.4 does not write.
    #[serde(skip)]
    pub key: EntryKey,
}

/// Task2 of an entry.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Task2Summary {
    /// Task2-Avg.
    pub acc: Option<MeanStd>,
    /// Task2-Conclusion.
    pub conclusion_acc: Option<MeanStd>,
    /// Task2-Facts.
    pub fact_acc: Option<MeanStd>,
    /// Task2-Reasoning.
    pub reasoning_acc: Option<MeanStd>,
    /// Task2-Statute.
    pub law_acc: Option<MeanStd>,
}

/// Task3 of an entry; each key absent unless a run has its task(s).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Task3Summary {
    /// Task3-Avg, when a run has both drafting tasks.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub avg: Option<Option<MeanStd>>,
    /// Task3-Plaintiff.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub plaintiff: Option<Option<MeanStd>>,
    /// Task3-Defendant.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub defendant: Option<Option<MeanStd>>,
}

/// Items left out and items truncated, summed over an entry's runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Unavailable items, per task the entry's runs contain.
    pub unavailable: BTreeMap<Task, usize>,
    /// Truncated answers, per drafting task the entry's runs contain.
    pub truncated: BTreeMap<Task, usize>,
}

/// Groups scored runs by entry key in order of first appearance and
/// summarises each group (§B4.4).
///
/// ```
/// use engine::plawbench::dataset::{parse_dataset, Task};
/// use engine::plawbench::run::parse_run;
/// use engine::plawbench::score::{score_run, summarise_runs};
///
/// let dataset = parse_dataset(r#"{"item_id": "a", "task": "legal_consultation", "question": "q", "rubric": "r", "max_points": 10}"#).unwrap();
/// let run = |n: u32, points: u32| parse_run(&format!(
///     "{{\"kind\": \"run\", \"benchmark\": \"plawbench\", \"model\": \"M\", \"run\": {n}, \"judges\": [{{\"model\": \"J\"}}], \"judge_parse\": \"lenient\"}}\n\
///      {{\"kind\": \"rubric\", \"item_id\": \"a\", \"task\": \"legal_consultation\", \"judgements\": [{{\"judge\": \"J\", \"awarded\": {points}}}]}}\n"), &dataset).unwrap();
/// let scored = [run(1, 4), run(2, 6)].map(|r| (r.header.entry_key(), score_run(&r, &dataset)));
/// let doc = serde_json::to_value(summarise_runs(scored, &dataset)).unwrap();
/// assert_eq!(doc["entries"][0]["task1"]["mean"], 0.5);
/// assert!((doc["entries"][0]["task1"]["std"].as_f64().unwrap() - 0.02_f64.sqrt()).abs() < 1e-15);
/// assert!(doc["entries"][0].get("overall").is_none());
/// assert_eq!(doc["items"]["legal_consultation"], 1);
/// ```
pub fn summarise_runs(
    runs: impl IntoIterator<Item = (EntryKey, RunScores)>,
    dataset: &[Item],
) -> ScoreDocument {
    <crate::plawbench::PLawBench as crate::benchmark::Suite>::summarise(
        runs.into_iter().collect(),
        dataset,
    )
}

/// The score document of entries already summarised ([`summarise_entry`]),
/// in the order given.
pub fn document(entries: Vec<EntryScores>, dataset: &[Item]) -> ScoreDocument {
    ScoreDocument {
        benchmark: Benchmark::Plawbench,
        dataset: None,
        items: task_counts(dataset),
        entries,
    }
}

/// Summarises one entry's run scores: each score's mean and sample std over
/// the runs that have a value for it.
///
/// ```
/// use engine::core::entry::EntryKey;
/// use engine::plawbench::score::{summarise_entry, RunScores};
///
/// let empty = RunScores { tasks: Default::default(), per_sample_overall: None, by_category: Default::default() };
/// let entry = summarise_entry(EntryKey { model: "M".into(), ..EntryKey::default() }, &[empty]);
/// assert_eq!((entry.runs, entry.task1, entry.per_sample_overall), (1, None, None));
/// ```
pub fn summarise_entry(key: EntryKey, runs: &[RunScores]) -> EntryScores {
    let summary = |metric: Metric| {
        let values: Vec<f64> = runs.iter().filter_map(|r| r.metric(metric)).collect();
        mean_std(&values)
    };
    let present = |metric: Metric| runs.iter().any(|r| r.has(metric)).then(|| summary(metric));
    let has_task = |task: Task| runs.iter().any(|r| r.tasks.contains_key(&task));

    let task2 = has_task(Task::CaseAnalysis).then(|| {
        let section = |s| summary(Metric::Task2Section(s));
        Task2Summary {
            acc: summary(Metric::Task2),
            conclusion_acc: section(Section::Conclusion),
            fact_acc: section(Section::Facts),
            reasoning_acc: section(Section::Reasoning),
            law_acc: section(Section::Law),
        }
    });
    let task3 =
        (has_task(Task::PlaintiffStatement) || has_task(Task::DefendantStatement)).then(|| {
            Task3Summary {
                avg: present(Metric::Task3),
                plaintiff: present(Metric::Task3Plaintiff),
                defendant: present(Metric::Task3Defendant),
            }
        });
    let by_category = task2.is_some().then(|| {
        let mut names: Vec<&String> = runs.iter().flat_map(|r| r.by_category.keys()).collect();
        names.sort();
        names.dedup();
        names
            .into_iter()
            .map(|name| {
                let values: Vec<f64> = runs
                    .iter()
                    .filter_map(|r| r.by_category.get(name).and_then(|c| c.acc))
                    .collect();
                (name.clone(), mean_std(&values))
            })
            .collect()
    });
    let mut counts = Counts::default();
    for run in runs {
        for (&task, scores) in &run.tasks {
            *counts.unavailable.entry(task).or_insert(0) += scores.unavailable;
            if matches!(task, Task::PlaintiffStatement | Task::DefendantStatement) {
                *counts.truncated.entry(task).or_insert(0) += scores.truncated;
            }
        }
    }
    let model_family = key
        .extra
        .get("model_family")
        .and_then(|v| v.as_str())
        .map(str::to_owned);

    EntryScores {
        model: key.model.clone(),
        model_family,
        family: key.family,
        runs: runs.len(),
        overall: present(Metric::Overall),
        task1: present(Metric::Task1),
        task2,
        task3,
        per_sample_overall: summary(Metric::PerSampleOverall),
        by_category,
        counts,
        key,
    }
}

/// Groups parsed runs into entries and summarises them: [`score_run`] for
/// each run, then [`summarise_runs`].
///
/// ```
/// use engine::plawbench::dataset::parse_dataset;
/// use engine::plawbench::run::parse_run;
/// use engine::plawbench::score::score_entries;
/// use engine::plawbench::synthetic::{dataset_file, run_file, OFFICIAL_SIZES};
///
/// let dataset = parse_dataset(&dataset_file(&OFFICIAL_SIZES, 1)).unwrap();
/// let runs: Vec<_> = (1..=2).map(|r| parse_run(&run_file(&dataset, "M", r, 1, 5), &dataset).unwrap()).collect();
/// let doc = score_entries(&runs, &dataset).with_dataset("plawbench");
/// assert_eq!((doc.entries.len(), doc.entries[0].runs), (1, 2));
/// assert!(doc.entries[0].overall.flatten().is_some_and(|o| o.std.is_some()));
/// ```
pub fn score_entries(runs: &[Run], dataset: &[Item]) -> ScoreDocument {
    summarise_runs(
        runs.iter()
            .map(|run| (run.header.entry_key(), score_run(run, dataset))),
        dataset,
    )
}
