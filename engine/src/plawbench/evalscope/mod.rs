//! evalscope output folders turned into PLawBench run files
//! (`docs/benchmarks/plawbench.md` §B6).
//!
//! Pure: the caller reads the folder and hands over the texts ([`Folder`];
//! [`layout::folders`] groups the files of a directory or archive into them):
//! per subset the reviews (required) and predictions
//! (`reviews|predictions/<model_id>/plawbench_<subset>.jsonl`), the report
//! (`reports/<model_id>/plawbench.json`) and `configs/task_config.yaml`
//! ([`task_config`] reads the few keys needed). [`import_folder`] returns
//! one [`Run`] per generation (`generation_index`, so `repeats = k` gives k
//! runs) and the [`Reconciliation`] of §B6.5 point 6, or every error, each
//! naming the file, line, item and field.
//!
//! # Mapping (§B6.5)
//!
//! - Header: `benchmark` plawbench; `model` = `report.model_name`, else the
//!   folder's model id; `run` = first run + `generation_index`; `judges` =
//!   the distinct `judge_attempts[].judge_id` in order of appearance (else
//!   `judge_summary.judge_models`, else `task_config.yaml`'s
//!   `judge.models[].model_id`); `judge_aggregation` = `judge.aggregation`
//!   (default mean); `judge_parse` `strict` for reviews with a status,
//!   `lenient` for legacy ones (a folder mixing both is refused);
//!   `judge_attempts` 1; `source` evalscope; `generation` =
//!   `generation_config`; `created_at` from the timestamp folder
//!   (`YYYYMMDD_HHMMSS` → `YYYY-MM-DDTHH:MM:SS`, local time as evalscope
//!   wrote it).
//! - Items: one per (`sample_metadata.id`, `generation_index`), `response` =
//!   `score.prediction`, `finish_reason` = the prediction's `stop_reason`,
//!   `prompt_sha256` = the SHA-256 of the workbench's rendering of the item's
//!   prompt. A usable status (`success`, `fallback`, `degraded`) gives one
//!   judgement per judge from `judge_observation_metadata[]` (a judge's
//!   repeats reduced with the aggregation), else from `score.metadata`:
//!   `sections` (结论 → conclusion, …) or `awarded_points`, already clamped.
//!   `judge_output` is that judge's last successful `raw_response`. Any other
//!   status makes the item unavailable (`evalscope: <status>: <error>`), and
//!   so does a legacy `judge_failed: true` (`evalscope: judge_failed`, never
//!   0) and a prediction without a review (`evalscope: review errored`).
//! - Refused: an item id the dataset does not have (after the fallback to
//!   `<task>-<group_id or index + 1>`, with a warning, →C-P9), a task or
//!   `max_points` or rubric that differs from the dataset's (rubrics of
//!   `case_analysis` compared as parsed JSON), two reviews of one item and
//!   generation, an unknown status, and a present task that misses dataset
//!   items (ids named). A different `prompt` is a warning.
//! - Reconciliation: each subset metric recomputed from the reviews'
//!   `score.value` (over the reviews that carry it, as evalscope averages)
//!   against the report's subset score (|Δ| ≤ 5·10⁻⁵, and equal `num`), and
//!   each usable item's value recomputed from the imported points (§B4.1,
//!   |Δ| ≤ 10⁻⁹); and each metric's `OVERALL` computed as evalscope's report
//!   computes it ([`evalscope_overall`]) against the report's metric score
//!   (equal to 4 decimals, and equal `num`). Mismatches are reported,
//!   nothing is changed.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::dataset::{Item, Section, Task};
use super::judge::render_model_prompt;
use super::run::{parse_run, Awarded, Judgement, ParseMode, RubricItem, Run, RunHeader, Source};
use super::score::score_item;
use crate::benchmark::Benchmark;
use crate::core::entry::Family;
use crate::core::panel::{aggregate, Aggregation, JudgeSeat};

pub mod layout;
pub mod task_config;

use task_config::{read_task_config, TaskConfig};

/// The statuses whose review carries a score.
pub const USABLE_STATUSES: [&str; 3] = ["success", "fallback", "degraded"];
/// The statuses whose review has no score (`value` = `{}`).
pub const UNUSABLE_STATUSES: [&str; 4] = [
    "transport_error",
    "parse_error",
    "invalid_session",
    "excluded",
];

/// The largest |Δ| between a recomputed subset score and the report's.
pub const SUBSET_TOLERANCE: f64 = 5e-5;
/// The largest |Δ| between an item's review value and its imported score.
pub const ITEM_TOLERANCE: f64 = 1e-9;

/// A score as evalscope's report keeps it: Python's `round(x, 4)`
/// (`report/report.py::normalize_score`), the decimal nearest to `x`
/// with 4 places, read back as the nearest `f64`. Rust's `{:.4}` rounds the
/// exact binary value as CPython's `round` does, so the two agree.
///
/// ```
/// use engine::plawbench::evalscope::evalscope_round;
/// assert_eq!(evalscope_round(0.51094999), 0.5109);
/// assert_eq!(evalscope_round(0.41969999999), 0.4197);
/// assert_eq!(evalscope_round(1.0), 1.0);
/// ```
pub fn evalscope_round(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    format!("{x:.4}").parse().unwrap_or(x)
}

/// A metric's `OVERALL` as evalscope's report computes it from its subsets'
/// unrounded means and `num`s (evalscope 1.14.1, `report/report.py`): each
/// subset score is rounded to 4 decimals first (`Subset` →
/// `normalize_score`); the category score is `micro_mean` of the rounded
/// subset scores, Σ round₄(sₜ)·nₜ / Σ nₜ, rounded to 4 decimals (`Category`);
/// the metric score is `micro_mean` over the categories, rounded again
/// (`Metric`). PLawBench has no category map, so there is the one category
/// `default` and the metric score is the category score. Subsets with
/// `num` 0 are not in the report; `None` when no subset has a value.
///
/// ```
/// use engine::plawbench::evalscope::evalscope_overall;
/// // The per-sample mean is 0.510939 → 0.5109, but the subsets round first:
/// // (0.5110·250 + 0.5108·18 + 0.6125·6 + 0.4091·6) / 280 = 0.510979 → 0.5110.
/// let overall = evalscope_overall([(0.51096, 250), (0.51076, 18), (0.61246, 6), (0.40906, 6)]);
/// assert_eq!(overall, Some(0.511));
/// assert_eq!(evalscope_overall([]), None);
/// ```
pub fn evalscope_overall(subsets: impl IntoIterator<Item = (f64, usize)>) -> Option<f64> {
    let (weighted, num) = subsets
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .fold((0.0, 0usize), |(sum, num), (score, n)| {
            (sum + evalscope_round(score) * n as f64, num + n)
        });
    if num == 0 {
        return None;
    }
    let category = evalscope_round(weighted / num as f64);
    Some(evalscope_round(category * num as f64 / num as f64))
}

/// One subset's files.
#[derive(Debug, Clone, PartialEq)]
pub struct SubsetFiles {
    /// The subset (from the file name, [`subset_task`]).
    pub task: Task,
    /// `predictions/<model_id>/plawbench_<subset>.jsonl`, when present.
    pub predictions: Option<String>,
    /// `reviews/<model_id>/plawbench_<subset>.jsonl`.
    pub reviews: String,
}

/// The texts of one model's evalscope output.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Folder {
    /// The `<model_id>` folder name.
    pub model_id: String,
    /// The `<YYYYMMDD_HHMMSS>` folder name, when there is one.
    pub timestamp: Option<String>,
    /// `configs/task_config.yaml`.
    pub task_config: Option<String>,
    /// `reports/<model_id>/plawbench.json`.
    pub report: Option<String>,
    /// Each subset present.
    pub subsets: Vec<SubsetFiles>,
}

/// What the caller decides about the runs made.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportOptions {
    /// The `run` of generation 0; generation g is run `first_run + g`.
    pub first_run: u32,
    /// The workbench dataset's name, for the header.
    pub dataset: Option<String>,
    /// The model's group.
    pub family: Option<Family>,
    /// The official ranking's vendor family.
    pub model_family: Option<String>,
}

impl Default for ImportOptions {
    fn default() -> Self {
        Self {
            first_run: 1,
            dataset: None,
            family: None,
            model_family: None,
        }
    }
}

/// The subset a file name is of: `plawbench_case_analysis.jsonl` → case_analysis.
///
/// ```
/// use engine::plawbench::dataset::Task;
/// use engine::plawbench::evalscope::subset_task;
/// assert_eq!(subset_task("plawbench_legal_consultation.jsonl"), Some(Task::LegalConsultation));
/// assert_eq!(subset_task("other_case_analysis.jsonl"), None);
/// ```
pub fn subset_task(file_name: &str) -> Option<Task> {
    file_name
        .strip_prefix("plawbench_")?
        .strip_suffix(".jsonl")
        .and_then(Task::parse)
}

/// One problem found in an evalscope folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportError {
    /// The file, relative to the output folder.
    pub file: String,
    /// The 1-based line; 0 for the file as a whole.
    pub line: usize,
    /// The item the line is about, when known.
    pub item_id: Option<String>,
    /// The JSON path of the field at fault, empty for the line.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ", line {}", self.line)?;
        }
        if let Some(id) = &self.item_id {
            write!(f, " ({id})")?;
        }
        if !self.field.is_empty() {
            write!(f, ", field {}", self.field)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Every problem found, one per line when displayed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportErrors(pub Vec<ImportError>);

impl fmt::Display for ImportErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ImportErrors {}

/// One subset metric recomputed and compared with the report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubsetCheck {
    /// The subset.
    pub task: Task,
    /// The review metric (`acc`, `conclusion_acc`, …).
    pub metric: String,
    /// The mean of the reviews' values; `None` without any.
    pub recomputed: Option<f64>,
    /// How many reviews carry the metric.
    pub num: usize,
    /// The report's subset score, when the report has it.
    pub reported: Option<f64>,
    /// The report's subset `num`, when the report has it.
    pub reported_num: Option<u64>,
    /// |Δ| ≤ [`SUBSET_TOLERANCE`] and equal `num`.
    pub ok: bool,
}

/// An item whose review value differs from the score of its imported points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemMismatch {
    /// The item.
    pub item_id: String,
    /// Its generation.
    pub generation: u32,
    /// The metric.
    pub metric: String,
    /// The review's value.
    pub review: f64,
    /// The imported points' value.
    pub imported: Option<f64>,
}

/// One metric's `OVERALL`, computed as evalscope's report computes it
/// ([`evalscope_overall`]), compared with the report's metric score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OverallCheck {
    /// The review metric (`acc`, `conclusion_acc`, …).
    pub metric: String,
    /// [`evalscope_overall`] of the recomputed subset means and `num`s;
    /// `None` without any review carrying the metric.
    pub recomputed: Option<f64>,
    /// How many reviews carry the metric, over the subsets.
    pub num: usize,
    /// The report's metric score (its `OVERALL`), when the report has it.
    pub reported: Option<f64>,
    /// The report's metric `num`, when the report has it.
    pub reported_num: Option<u64>,
    /// Equal to 4 decimals and equal `num`.
    pub ok: bool,
}

/// The reconciliation report of an import (§B6.5 point 6).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Reconciliation {
    /// Every subset metric, in task then metric order.
    pub subsets: Vec<SubsetCheck>,
    /// Items whose values differ.
    pub items: Vec<ItemMismatch>,
    /// Every metric's `OVERALL` as evalscope computes it, in metric order.
    #[serde(default)]
    pub overall: Vec<OverallCheck>,
}

impl Reconciliation {
    /// Whether every subset and `OVERALL` check passed and no item differs.
    pub fn ok(&self) -> bool {
        self.subsets.iter().all(|c| c.ok)
            && self.overall.iter().all(|c| c.ok)
            && self.items.is_empty()
    }
}

/// What an import gives.
/// What an import of an output folder would store, for people to read
/// before it is stored: per model folder the runs made and the
/// reconciliation with evalscope's report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportPreview {
    /// The workbench dataset the runs are for.
    pub dataset: String,
    pub dataset_version: i64,
    pub folders: Vec<FolderPreview>,
}

impl ImportPreview {
    /// Whether every reconciliation holds.
    pub fn reconciled(&self) -> bool {
        self.folders.iter().all(|f| f.reconciliation.ok())
    }
}

/// One model folder of an [`ImportPreview`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FolderPreview {
    /// The `<model_id>` folder.
    pub model_id: String,
    /// The model's name in the runs.
    pub model: String,
    pub runs: Vec<RunPreview>,
    pub reconciliation: Reconciliation,
    pub warnings: Vec<String>,
}

/// One run an import makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunPreview {
    pub run: u32,
    pub items: usize,
    pub unavailable: usize,
}

impl FolderPreview {
    /// The preview of `imported`, from folder `model_id`.
    pub fn of(model_id: &str, imported: &Imported) -> FolderPreview {
        FolderPreview {
            model_id: model_id.to_owned(),
            model: imported
                .runs
                .first()
                .map_or_else(|| model_id.to_owned(), |r| r.header.model.clone()),
            runs: imported
                .runs
                .iter()
                .map(|r| RunPreview {
                    run: r.header.run,
                    items: r.items.len(),
                    unavailable: r.unavailable(),
                })
                .collect(),
            reconciliation: imported.reconciliation.clone(),
            warnings: imported.warnings.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// One run per generation, in generation order.
    pub runs: Vec<Run>,
    /// The reconciliation with the report and the reviews' values.
    pub reconciliation: Reconciliation,
    /// Things shown but not refused (a differing prompt, an id fallback, no report).
    pub warnings: Vec<String>,
}

/// One review line, read.
struct Review {
    file: String,
    line: usize,
    task: Task,
    item: usize,
    index: Option<u64>,
    generation: u32,
    value: Map<String, Value>,
    score: Map<String, Value>,
    /// `None` in legacy reviews.
    status: Option<String>,
}

/// The error sink of one import.
#[derive(Default)]
struct Errors(Vec<ImportError>);

impl Errors {
    fn push(
        &mut self,
        file: &str,
        line: usize,
        item_id: Option<&str>,
        field: &str,
        message: String,
    ) {
        self.0.push(ImportError {
            file: file.to_owned(),
            line,
            item_id: item_id.map(str::to_owned),
            field: field.to_owned(),
            message,
        });
    }
}

fn path<'v>(v: &'v Value, keys: &[&str]) -> Option<&'v Value> {
    keys.iter().try_fold(v, |v, k| v.get(k))
}

fn path_in<'v>(map: &'v Map<String, Value>, keys: &[&str]) -> Option<&'v Value> {
    let (first, rest) = keys.split_first()?;
    path(map.get(*first)?, rest)
}

/// The distinct names, in order of first appearance.
fn distinct<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for name in names {
        if !found.iter().any(|f| f == name) {
            found.push(name.to_owned());
        }
    }
    found
}

/// Imports one model's evalscope output against the workbench dataset (see
/// the [module documentation](self)).
///
/// ```
/// use engine::plawbench::dataset::{parse_dataset, Task};
/// use engine::plawbench::evalscope::{import_folder, Folder, ImportOptions, SubsetFiles};
///
/// let dataset = parse_dataset(r#"{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "q", "rubric": "r", "max_points": 10}"#).unwrap();
/// let review = r#"{"index": 0, "sample_score": {"sample_id": 0, "group_id": 0, "generation_index": 0, "sample_metadata": {"id": "legal_consultation-1", "task": "legal_consultation", "max_points": 10, "rubrics": "r"}, "score": {"value": {"acc": 0.7}, "status": "success", "prediction": "1. 问？", "metadata": {"awarded_points": 7.0, "max_points": 10.0, "judge_attempts": [{"status": "success", "judge_id": "qwen3-max", "raw_response": "{\"total_points\": 7}"}]}, "judge_summary": {"judge_models": ["qwen3-max"]}}}}"#;
/// let folder = Folder {
///     model_id: "qwen-plus".into(),
///     subsets: vec![SubsetFiles { task: Task::LegalConsultation, predictions: None, reviews: review.into() }],
///     ..Folder::default()
/// };
/// let imported = import_folder(&folder, &dataset, &ImportOptions::default()).unwrap();
/// let run = &imported.runs[0];
/// assert_eq!((run.header.model.as_str(), run.header.judges[0].model.as_str()), ("qwen-plus", "qwen3-max"));
/// assert!(imported.reconciliation.items.is_empty());
/// assert!(imported.warnings.iter().any(|w| w.contains("no report")));
/// ```
pub fn import_folder(
    folder: &Folder,
    dataset: &[Item],
    options: &ImportOptions,
) -> Result<Imported, ImportErrors> {
    let mut errors = Errors::default();
    let mut warnings = Vec::new();
    let config_file = "configs/task_config.yaml";
    let report_file = format!("reports/{}/plawbench.json", folder.model_id);

    let config = match folder.task_config.as_deref().map(read_task_config) {
        Some(Ok(config)) => config,
        Some(Err(message)) => {
            errors.push(config_file, 0, None, "", message);
            TaskConfig::default()
        }
        None => TaskConfig::default(),
    };
    let report = match folder.report.as_deref().map(serde_json::from_str::<Value>) {
        Some(Ok(report)) => Some(report),
        Some(Err(e)) => {
            errors.push(
                &report_file,
                e.line(),
                None,
                "",
                format!("invalid JSON: {e}"),
            );
            None
        }
        None => {
            warnings.push(format!(
                "no report ({report_file}): the subset scores are not reconciled"
            ));
            None
        }
    };
    if folder.subsets.is_empty() {
        errors.push(
            &format!("reviews/{}", folder.model_id),
            0,
            None,
            "",
            "no review file: an import needs the reviews of at least one subset (a report alone \
             has no items)"
                .into(),
        );
    }

    let index: HashMap<&str, usize> = dataset
        .iter()
        .enumerate()
        .map(|(i, item)| (item.item_id.as_str(), i))
        .collect();
    let mut reviews: Vec<Review> = Vec::new();
    for subset in &folder.subsets {
        let file = format!(
            "reviews/{}/plawbench_{}.jsonl",
            folder.model_id, subset.task
        );
        for (n, text) in subset.reviews.lines().enumerate() {
            if text.trim().is_empty() {
                continue;
            }
            if let Some(review) = read_review(
                &file,
                n + 1,
                text,
                subset.task,
                dataset,
                &index,
                &mut errors,
                &mut warnings,
            ) {
                reviews.push(review);
            }
        }
    }

    // The panel: the first source that names a judge.
    let attempted = distinct(reviews.iter().flat_map(|r| {
        path_in(&r.score, &["metadata", "judge_attempts"])
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|a| a.get("judge_id").and_then(Value::as_str))
    }));
    let summarised = distinct(reviews.iter().flat_map(|r| {
        path_in(&r.score, &["judge_summary", "judge_models"])
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
    }));
    let configured = distinct(config.judge_models.iter().map(String::as_str));
    let judge_ids = [attempted, summarised, configured]
        .into_iter()
        .find(|ids| !ids.is_empty())
        .unwrap_or_default();
    if judge_ids.is_empty() && !reviews.is_empty() {
        errors.push(
            config_file,
            0,
            None,
            "judge.models",
            "no judge is named: the reviews have no judge_attempts[].judge_id or \
             judge_summary.judge_models, and task_config.yaml no judge.models[].model_id"
                .into(),
        );
    }
    let with_status = reviews.iter().filter(|r| r.status.is_some()).count();
    let judge_parse = if with_status == reviews.len() {
        ParseMode::Strict
    } else if with_status == 0 {
        ParseMode::Lenient
    } else {
        let legacy = reviews.iter().find(|r| r.status.is_none());
        if let Some(r) = legacy {
            errors.push(
                &r.file,
                r.line,
                Some(&dataset[r.item].item_id),
                "sample_score.score.status",
                format!(
                    "a legacy review (no status) among {with_status} reviews with a status; \
                     import the two evalscope versions' outputs separately"
                ),
            );
        }
        ParseMode::Strict
    };
    let aggregation = config.aggregation.unwrap_or(Aggregation::Mean);

    // Predictions: finish reasons, and items that have no review.
    let mut generations = reviews.iter().map(|r| r.generation + 1).max().unwrap_or(1);
    if let Some(repeats) = config.repeats {
        generations = generations.max(repeats);
    }
    let mut predictions: HashMap<(Task, u64), (Option<String>, Option<String>)> = HashMap::new();
    let mut unreviewed: Vec<(Task, usize, Option<String>, Option<String>)> = Vec::new();
    let reviewed_indices: BTreeSet<(Task, u64)> = reviews
        .iter()
        .filter_map(|r| r.index.map(|i| (r.task, i)))
        .collect();
    for subset in &folder.subsets {
        let Some(text) = &subset.predictions else {
            continue;
        };
        let file = format!(
            "predictions/{}/plawbench_{}.jsonl",
            folder.model_id, subset.task
        );
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let v: Value = match serde_json::from_str(line) {
                Ok(v) => v,
                Err(e) => {
                    errors.push(&file, n + 1, None, "", format!("invalid JSON: {e}"));
                    continue;
                }
            };
            let Some(sample) = v.get("index").and_then(Value::as_u64) else {
                errors.push(
                    &file,
                    n + 1,
                    None,
                    "index",
                    "expected the sample index, a whole number".into(),
                );
                continue;
            };
            let choice = path(&v, &["model_output", "choices"])
                .and_then(Value::as_array)
                .and_then(|c| c.first());
            let stop = choice
                .and_then(|c| c.get("stop_reason"))
                .and_then(Value::as_str)
                .map(str::to_owned);
            let content = choice
                .and_then(|c| path(c, &["message", "content"]))
                .and_then(Value::as_str)
                .map(str::to_owned);
            if reviewed_indices.contains(&(subset.task, sample)) {
                predictions.insert((subset.task, sample), (stop, content));
                continue;
            }
            let id = path(&v, &["metadata", "id"]).and_then(Value::as_str);
            match id.and_then(|id| index.get(id)) {
                Some(&i) if dataset[i].task == subset.task => {
                    unreviewed.push((subset.task, i, stop, content))
                }
                _ => errors.push(
                    &file,
                    n + 1,
                    id,
                    "metadata.id",
                    format!(
                        "a prediction without a review names no {} item of the dataset",
                        subset.task
                    ),
                ),
            }
        }
    }

    // Items per (generation, dataset item).
    let mut items: BTreeMap<(u32, usize), RubricItem> = BTreeMap::new();
    let mut first_line: HashMap<(u32, usize), (String, usize)> = HashMap::new();
    for review in &reviews {
        let item = &dataset[review.item];
        let key = (review.generation, review.item);
        if let Some((file, line)) = first_line.get(&key) {
            errors.push(
                &review.file,
                review.line,
                Some(&item.item_id),
                "sample_score.generation_index",
                format!(
                    "a second review of {} in generation {}; the first is {file}, line {line}",
                    item.item_id, review.generation
                ),
            );
            continue;
        }
        first_line.insert(key, (review.file.clone(), review.line));
        let (finish_reason, _) = review
            .index
            .and_then(|i| predictions.get(&(review.task, i)))
            .cloned()
            .unwrap_or((None, None));
        let rubric_item = build_item(
            review,
            item,
            finish_reason,
            &judge_ids,
            aggregation,
            &mut errors,
        );
        items.insert(key, rubric_item);
    }
    for (task, i, stop, content) in unreviewed {
        let item = &dataset[i];
        let free = (0..generations).find(|g| !items.contains_key(&(*g, i)));
        match free {
            Some(g) => {
                items.insert(
                    (g, i),
                    RubricItem {
                        item_id: item.item_id.clone(),
                        task,
                        response: content,
                        finish_reason: stop,
                        prompt_sha256: Some(prompt_sha256(item)),
                        judgements: Vec::new(),
                        unavailable: Some("evalscope: review errored".into()),
                    },
                );
            }
            None => warnings.push(format!(
                "a prediction of {} has no review and every generation of it is reviewed; it is \
                 left out",
                item.item_id
            )),
        }
    }

    // Coverage.
    for subset in &folder.subsets {
        let file = format!(
            "reviews/{}/plawbench_{}.jsonl",
            folder.model_id, subset.task
        );
        for g in 0..generations {
            let missing: Vec<&str> = dataset
                .iter()
                .enumerate()
                .filter(|(i, item)| item.task == subset.task && !items.contains_key(&(g, *i)))
                .map(|(_, item)| item.item_id.as_str())
                .collect();
            if !missing.is_empty() {
                let shown = missing
                    .iter()
                    .take(10)
                    .copied()
                    .collect::<Vec<_>>()
                    .join(", ");
                let more = missing.len().saturating_sub(10);
                errors.push(
                    &file,
                    0,
                    None,
                    "sample_score.sample_metadata.id",
                    format!(
                        "generation {g} misses {} {} item{} of the dataset in both predictions \
                         and reviews: {shown}{}; a present task must cover every item (was the \
                         run limited?)",
                        missing.len(),
                        subset.task,
                        if missing.len() == 1 { "" } else { "s" },
                        if more > 0 {
                            format!(" and {more} more")
                        } else {
                            String::new()
                        }
                    ),
                );
            }
        }
    }

    let model = report
        .as_ref()
        .and_then(|r| r.get("model_name"))
        .and_then(Value::as_str)
        .map(str::to_owned)
        .unwrap_or_else(|| folder.model_id.clone());
    let report_file = format!("reports/{}/plawbench.json", folder.model_id);
    if let Err(message) = crate::names::check_name(&model) {
        errors.push(
            &report_file,
            0,
            None,
            "model_name",
            format!("the model name {message}"),
        );
    }
    if let Some(Err(message)) = options
        .model_family
        .as_deref()
        .map(crate::names::check_name)
    {
        errors.push(
            &report_file,
            0,
            None,
            "model_family",
            format!("the model family {message}"),
        );
    }
    let created_at = folder.timestamp.as_deref().and_then(|t| {
        let at = timestamp(t);
        if at.is_none() {
            warnings.push(format!(
                "folder name \"{t}\" is not an evalscope timestamp (YYYYMMDD_HHMMSS); the runs \
                 have no created_at"
            ));
        }
        at
    });
    if !errors.0.is_empty() {
        return Err(ImportErrors(errors.0));
    }

    let mut runs = Vec::new();
    for g in 0..generations {
        let header = RunHeader {
            benchmark: Benchmark::Plawbench,
            model: model.clone(),
            family: options.family,
            model_family: options.model_family.clone(),
            run: options.first_run.saturating_add(g),
            dataset: options.dataset.clone(),
            judges: judge_ids
                .iter()
                .map(|id| JudgeSeat {
                    model: id.clone(),
                    vendor: None,
                })
                .collect(),
            judge_aggregation: aggregation,
            judge_parse,
            judge_attempts: 1,
            source: Source::Evalscope,
            generation: config.generation.clone(),
            evalscope_version: None,
            created_at: created_at.clone(),
            extra: Map::new(),
        };
        let run_items: Vec<RubricItem> = items
            .range((g, 0)..(g + 1, 0))
            .map(|(_, item)| item.clone())
            .collect();
        let run = Run {
            header,
            items: run_items,
        };
        // The run file the import makes must pass the run parser.
        if let Err(e) = parse_run(&run.to_stored(), dataset) {
            for error in e.0 {
                errors.push(
                    &format!("run {} (generation {g}, as imported)", run.header.run),
                    error.line,
                    error.case_id.as_deref(),
                    &error.field,
                    error.message,
                );
            }
        }
        runs.push(run);
    }
    if !errors.0.is_empty() {
        return Err(ImportErrors(errors.0));
    }

    let reconciliation = reconcile(&reviews, &items, dataset, report.as_ref(), aggregation);
    Ok(Imported {
        runs,
        reconciliation,
        warnings,
    })
}

/// `YYYYMMDD_HHMMSS` → `YYYY-MM-DDTHH:MM:SS`.
fn timestamp(name: &str) -> Option<String> {
    let (date, time) = name.split_once('_')?;
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    (digits(date, 8) && digits(time, 6)).then(|| {
        format!(
            "{}-{}-{}T{}:{}:{}",
            &date[..4],
            &date[4..6],
            &date[6..],
            &time[..2],
            &time[2..4],
            &time[4..]
        )
    })
}

/// The SHA-256 (hex) of the workbench's rendering of the item's prompt.
fn prompt_sha256(item: &Item) -> String {
    Sha256::digest(render_model_prompt(item).as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[expect(
    clippy::too_many_arguments,
    reason = "one review line with its context and sinks"
)]
fn read_review(
    file: &str,
    line: usize,
    text: &str,
    task: Task,
    dataset: &[Item],
    index: &HashMap<&str, usize>,
    errors: &mut Errors,
    warnings: &mut Vec<String>,
) -> Option<Review> {
    let v: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            errors.push(file, line, None, "", format!("invalid JSON: {e}"));
            return None;
        }
    };
    let Some(sample) = v.get("sample_score").filter(|s| s.is_object()) else {
        errors.push(
            file,
            line,
            None,
            "sample_score",
            "missing, or not an object".into(),
        );
        return None;
    };
    let meta = sample
        .get("sample_metadata")
        .cloned()
        .unwrap_or(Value::Null);
    let id = meta.get("id").and_then(Value::as_str);
    let sample_index = v
        .get("index")
        .or_else(|| sample.get("sample_id"))
        .and_then(Value::as_u64);
    let found = match id.and_then(|id| index.get(id)) {
        Some(&i) => Some(i),
        None => {
            let n = sample
                .get("group_id")
                .and_then(Value::as_u64)
                .or(sample_index);
            let fallback = n.map(|n| format!("{task}-{}", n + 1));
            let hit = fallback.as_deref().and_then(|f| index.get(f).copied());
            if let (Some(_), Some(f)) = (hit, &fallback) {
                warnings.push(format!(
                    "{file}, line {line}: sample_metadata.id {} names no dataset item; matched \
                     by position as {f}",
                    id.map_or("(missing)".to_owned(), |id| format!("\"{id}\""))
                ));
            }
            hit
        }
    };
    let Some(item_index) = found else {
        errors.push(
            file,
            line,
            id,
            "sample_score.sample_metadata.id",
            format!(
                "names no item of the dataset{}",
                id.map_or(" (and is missing)".to_owned(), |id| format!(": \"{id}\""))
            ),
        );
        return None;
    };
    let item = &dataset[item_index];
    let item_id = Some(item.item_id.as_str());
    let mut ok = true;
    let mut fail = |field: &str, message: String| {
        errors.push(file, line, item_id, field, message);
        ok = false;
    };
    if item.task != task {
        fail(
            "sample_score.sample_metadata.id",
            format!(
                "{} is a {} item, but this is the {task} file",
                item.item_id, item.task
            ),
        );
    }
    if let Some(t) = meta.get("task").and_then(Value::as_str) {
        if t != task.as_str() {
            fail(
                "sample_score.sample_metadata.task",
                format!("is \"{t}\" but this is the {task} file"),
            );
        }
    }
    match meta.get("max_points") {
        Some(m) if m.as_f64() == Some(f64::from(item.max_points)) => {}
        Some(m) => fail(
            "sample_score.sample_metadata.max_points",
            format!(
                "is {m} but the dataset's {} has max_points {}",
                item.item_id, item.max_points
            ),
        ),
        None => {}
    }
    if let Some(rubrics) = meta.get("rubrics") {
        let same = match (rubrics.as_str(), item.released_sections(), &item.rubric) {
            (Some(text), Some(sections), _) => serde_json::from_str::<Value>(text)
                .is_ok_and(|parsed| parsed == sections.to_value()),
            (Some(text), None, Some(rubric)) => text == rubric,
            _ => false,
        };
        if !same {
            fail(
                "sample_score.sample_metadata.rubrics",
                format!(
                    "differs from the dataset's {} of {}; the dataset must be the one evalscope ran",
                    if item.sections.is_some() { "sections" } else { "rubric" },
                    item.item_id
                ),
            );
        }
    }
    if let Some(prompt) = meta.get("prompt").and_then(Value::as_str) {
        if prompt != render_model_prompt(item) {
            warnings.push(format!(
                "{file}, line {line} ({}): the prompt evalscope recorded differs from the \
                 workbench's rendering",
                item.item_id
            ));
        }
    }
    let generation = match sample.get("generation_index") {
        None | Some(Value::Null) => Some(0),
        Some(g) => g.as_u64().and_then(|g| u32::try_from(g).ok()),
    };
    if generation.is_none() {
        fail(
            "sample_score.generation_index",
            "expected a whole number".into(),
        );
    }
    let score = sample
        .get("score")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let status = match score.get("status") {
        None | Some(Value::Null) => None,
        Some(Value::String(s))
            if USABLE_STATUSES.contains(&s.as_str()) || UNUSABLE_STATUSES.contains(&s.as_str()) =>
        {
            Some(s.clone())
        }
        Some(other) => {
            fail(
                "sample_score.score.status",
                format!(
                    "unknown status {other}; expected one of {}, {}",
                    USABLE_STATUSES.join(", "),
                    UNUSABLE_STATUSES.join(", ")
                ),
            );
            None
        }
    };
    if !sample.get("score").is_some_and(Value::is_object) {
        fail("sample_score.score", "missing, or not an object".into());
    }
    let value = score
        .get("value")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    ok.then(|| Review {
        file: file.to_owned(),
        line,
        task,
        item: item_index,
        index: sample_index,
        generation: generation.unwrap_or(0),
        value,
        score,
        status,
    })
}

/// Whether a review carries a score the import keeps.
fn usable(review: &Review) -> bool {
    match &review.status {
        Some(status) => USABLE_STATUSES.contains(&status.as_str()),
        None => {
            review
                .score
                .get("metadata")
                .and_then(|m| m.get("judge_failed"))
                != Some(&Value::Bool(true))
        }
    }
}

fn build_item(
    review: &Review,
    item: &Item,
    finish_reason: Option<String>,
    judges: &[String],
    aggregation: Aggregation,
    errors: &mut Errors,
) -> RubricItem {
    let response = review
        .score
        .get("prediction")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let mut rubric_item = RubricItem {
        item_id: item.item_id.clone(),
        task: item.task,
        response,
        finish_reason,
        prompt_sha256: Some(prompt_sha256(item)),
        judgements: Vec::new(),
        unavailable: None,
    };
    if !usable(review) {
        rubric_item.unavailable = Some(match &review.status {
            Some(status) => {
                let error = review
                    .score
                    .get("judge_summary")
                    .and_then(|s| s.get("error"))
                    .and_then(Value::as_str);
                match error {
                    Some(error) => format!("evalscope: {status}: {error}"),
                    None => format!("evalscope: {status}"),
                }
            }
            None => "evalscope: judge_failed".to_owned(),
        });
        return rubric_item;
    }
    let metadata = review.score.get("metadata").cloned().unwrap_or(Value::Null);
    let attempts = metadata
        .get("judge_attempts")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let last_output = |judge: &str| {
        attempts
            .iter()
            .rev()
            .filter(|a| {
                a.get("status")
                    .and_then(Value::as_str)
                    .is_none_or(|s| s == "success")
            })
            .filter(|a| {
                a.get("judge_id")
                    .and_then(Value::as_str)
                    .is_none_or(|j| j == judge)
            })
            .find_map(|a| a.get("raw_response").and_then(Value::as_str))
            .map(str::to_owned)
    };
    let observations: Vec<&Value> = metadata
        .get("judge_observation_metadata")
        .and_then(Value::as_array)
        .map(|o| {
            o.iter()
                .filter(|obs| {
                    obs.get("status")
                        .and_then(Value::as_str)
                        .is_none_or(|s| USABLE_STATUSES.contains(&s))
                })
                .collect()
        })
        .unwrap_or_default();
    let field_of =
        |k: usize| format!("sample_score.score.metadata.judge_observation_metadata[{k}].metadata");
    let mut fail = |field: &str, message: String| {
        errors.push(
            &review.file,
            review.line,
            Some(&item.item_id),
            field,
            message,
        )
    };

    for judge in judges {
        let awarded = if observations.is_empty() {
            // One observation, kept in the score's own metadata.
            let single = judges.len() == 1
                || attempts
                    .iter()
                    .any(|a| a.get("judge_id").and_then(Value::as_str) == Some(judge.as_str()));
            single
                .then(|| awarded_of(&metadata, item, "sample_score.score.metadata", &mut fail))
                .flatten()
        } else {
            let mine: Vec<(usize, &Value)> = observations
                .iter()
                .enumerate()
                .filter(|(_, o)| o.get("judge_id").and_then(Value::as_str) == Some(judge.as_str()))
                .map(|(k, o)| (k, *o))
                .collect();
            let read: Vec<Awarded> = mine
                .iter()
                .filter_map(|(k, o)| {
                    awarded_of(
                        o.get("metadata").unwrap_or(&Value::Null),
                        item,
                        &field_of(*k),
                        &mut fail,
                    )
                })
                .collect();
            reduce(&read, aggregation)
        };
        let reported_max = metadata
            .get("judge_reported_max_points")
            .and_then(Value::as_f64)
            .filter(|_| item.sections.is_none() && judges.len() == 1);
        let judgement = match awarded {
            Some(awarded) => Judgement {
                judge: judge.clone(),
                awarded: Some(awarded),
                reported_max,
                judge_output: last_output(judge),
                attempts: None,
                unavailable: None,
            },
            None => Judgement {
                judge: judge.clone(),
                awarded: None,
                reported_max: None,
                judge_output: None,
                attempts: None,
                unavailable: Some("evalscope: no usable observation of this judge".into()),
            },
        };
        rubric_item.judgements.push(judgement);
    }
    rubric_item
}

/// The awarded points in one metadata object: `sections` for case_analysis,
/// `awarded_points` otherwise.
fn awarded_of(
    metadata: &Value,
    item: &Item,
    field: &str,
    fail: &mut impl FnMut(&str, String),
) -> Option<Awarded> {
    let max = item.section_max();
    if max.is_empty() {
        let points = metadata.get("awarded_points").and_then(Value::as_f64);
        if points.is_none() {
            fail(
                &format!("{field}.awarded_points"),
                "expected the awarded points, a number".into(),
            );
        }
        return points.map(Awarded::Points);
    }
    let Some(sections) = metadata.get("sections").and_then(Value::as_object) else {
        fail(
            &format!("{field}.sections"),
            "expected the points of each section (结论, 案件事实, 推理过程, 法条依据)".into(),
        );
        return None;
    };
    let mut awarded = BTreeMap::new();
    for (key, v) in sections {
        let here = format!("{field}.sections.{key}.awarded_points");
        match (
            Section::from_judge_key(key),
            v.get("awarded_points").and_then(Value::as_f64),
        ) {
            (Some(s), Some(points)) if max.contains_key(&s) => {
                awarded.insert(s, points);
            }
            (Some(s), Some(_)) => fail(
                &format!("{field}.sections.{key}"),
                format!(
                    "the dataset's {} has no section {}",
                    item.item_id,
                    s.as_str()
                ),
            ),
            (None, _) => fail(
                &format!("{field}.sections.{key}"),
                "unknown section; expected 结论, 案件事实, 推理过程 or 法条依据".into(),
            ),
            (_, None) => fail(&here, "expected a number".into()),
        }
    }
    let missing: Vec<&str> = max
        .keys()
        .filter(|s| !awarded.contains_key(s))
        .map(|s| s.judge_key())
        .collect();
    if !missing.is_empty() {
        fail(
            &format!("{field}.sections"),
            format!(
                "misses section(s) {} of the dataset's {}",
                missing.join(", "),
                item.item_id
            ),
        );
        return None;
    }
    Some(Awarded::Sections(awarded))
}

/// One judge's repeats reduced per value with the aggregation.
fn reduce(read: &[Awarded], aggregation: Aggregation) -> Option<Awarded> {
    match read.first()? {
        Awarded::Points(_) => {
            let values: Vec<f64> = read
                .iter()
                .filter_map(|a| match a {
                    Awarded::Points(p) => Some(*p),
                    Awarded::Sections(_) => None,
                })
                .collect();
            aggregate(&values, aggregation).map(Awarded::Points)
        }
        Awarded::Sections(first) => {
            let mut reduced = BTreeMap::new();
            for &section in first.keys() {
                let values: Vec<f64> = read
                    .iter()
                    .filter_map(|a| match a {
                        Awarded::Sections(s) => s.get(&section).copied(),
                        Awarded::Points(_) => None,
                    })
                    .collect();
                reduced.insert(section, aggregate(&values, aggregation)?);
            }
            Some(Awarded::Sections(reduced))
        }
    }
}

/// The metrics of a subset, as the reviews name them.
fn metrics(task: Task) -> Vec<&'static str> {
    let mut names = vec!["acc"];
    if task == Task::CaseAnalysis {
        names.extend(Section::ALL.map(Section::metric));
    }
    names
}

/// The report's (score, num) per metric name: the metric's own score,
/// which is its `OVERALL` row, schema v2 or legacy.
fn report_overall(report: &Value) -> HashMap<String, (Option<f64>, Option<u64>)> {
    let mut found = HashMap::new();
    for metric in report
        .get("metrics")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        found.insert(
            report_metric_name(metric),
            (
                metric.get("score").and_then(Value::as_f64),
                metric.get("num").and_then(Value::as_u64),
            ),
        );
    }
    found
}

/// A report metric's name as the reviews name it (`accuracy` → `acc`).
fn report_metric_name(metric: &Value) -> String {
    let name = path(metric, &["identity", "name"])
        .or_else(|| metric.get("name"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    match name {
        "accuracy" | "mean_acc" => "acc".to_owned(),
        other => other.strip_prefix("mean_").unwrap_or(other).to_owned(),
    }
}

/// The report's (score, num) per (metric, subset), schema v2 or legacy.
fn report_scores(report: &Value) -> HashMap<(String, String), (Option<f64>, Option<u64>)> {
    let mut found = HashMap::new();
    let Some(metrics) = report.get("metrics").and_then(Value::as_array) else {
        return found;
    };
    for metric in metrics {
        let name = report_metric_name(metric);
        let categories = metric
            .get("categories")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for category in &categories {
            for subset in category
                .get("subsets")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(task) = subset.get("name").and_then(Value::as_str) {
                    found.insert(
                        (name.clone(), task.to_owned()),
                        (
                            subset.get("score").and_then(Value::as_f64),
                            subset.get("num").and_then(Value::as_u64),
                        ),
                    );
                }
            }
        }
    }
    found
}

fn reconcile(
    reviews: &[Review],
    items: &BTreeMap<(u32, usize), RubricItem>,
    dataset: &[Item],
    report: Option<&Value>,
    aggregation: Aggregation,
) -> Reconciliation {
    let reported = report.map(report_scores).unwrap_or_default();
    let tasks: BTreeSet<Task> = reviews.iter().map(|r| r.task).collect();
    let mut subsets = Vec::new();
    for task in tasks {
        for metric in metrics(task) {
            let values: Vec<f64> = reviews
                .iter()
                .filter(|r| r.task == task)
                .filter_map(|r| r.value.get(metric).and_then(Value::as_f64))
                .collect();
            let recomputed =
                (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64);
            let (score, num) = reported
                .get(&(metric.to_owned(), task.as_str().to_owned()))
                .copied()
                .unwrap_or((None, None));
            let ok = match (recomputed, score, num) {
                (Some(r), Some(s), Some(n)) => {
                    (r - s).abs() <= SUBSET_TOLERANCE && n == values.len() as u64
                }
                (None, None, None) => report.is_some(),
                _ => false,
            };
            subsets.push(SubsetCheck {
                task,
                metric: metric.to_owned(),
                recomputed,
                num: values.len(),
                reported: score,
                reported_num: num,
                ok,
            });
        }
    }

    let mut mismatches = Vec::new();
    for review in reviews.iter().filter(|r| usable(r)) {
        let Some(imported) = items.get(&(review.generation, review.item)) else {
            continue;
        };
        let item = &dataset[review.item];
        let panel = score_item(item, imported, aggregation).panel;
        for metric in metrics(review.task) {
            let Some(value) = review.value.get(metric).and_then(Value::as_f64) else {
                continue;
            };
            let mine = panel.as_ref().and_then(|p| {
                if metric == "acc" {
                    Some(p.acc)
                } else {
                    Section::ALL
                        .into_iter()
                        .find(|s| s.metric() == metric)
                        .and_then(|s| p.sections.get(&s).copied())
                }
            });
            if mine.is_none_or(|m| (m - value).abs() > ITEM_TOLERANCE) {
                mismatches.push(ItemMismatch {
                    item_id: item.item_id.clone(),
                    generation: review.generation,
                    metric: metric.to_owned(),
                    review: value,
                    imported: mine,
                });
            }
        }
    }
    let reported_overall = report.map(report_overall).unwrap_or_default();
    let overall = ["acc"]
        .into_iter()
        .chain(Section::ALL.map(Section::metric))
        .filter(|metric| subsets.iter().any(|c| c.metric == *metric))
        .map(|metric| {
            let checks: Vec<&SubsetCheck> = subsets.iter().filter(|c| c.metric == metric).collect();
            let recomputed = evalscope_overall(
                checks
                    .iter()
                    .filter_map(|c| c.recomputed.map(|r| (r, c.num))),
            );
            let num = checks.iter().map(|c| c.num).sum::<usize>();
            let (score, reported_num) = reported_overall
                .get(metric)
                .copied()
                .unwrap_or((None, None));
            let ok = match (recomputed, score, reported_num) {
                (Some(r), Some(s), Some(n)) => {
                    (r - evalscope_round(s)).abs() <= ITEM_TOLERANCE && n == num as u64
                }
                (None, None, _) => report.is_some(),
                _ => false,
            };
            OverallCheck {
                metric: metric.to_owned(),
                recomputed,
                num,
                reported: score,
                reported_num,
                ok,
            }
        })
        .collect();
    Reconciliation {
        subsets,
        items: mismatches,
        overall,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_become_local_date_times() {
        assert_eq!(
            timestamp("20261201_100502").as_deref(),
            Some("2026-12-01T10:05:02")
        );
        assert_eq!(timestamp("latest"), None);
        assert_eq!(timestamp("2026121_100502"), None);
    }

    #[test]
    fn repeats_reduce_per_section() {
        let a = Awarded::Sections([(Section::Conclusion, 5.0), (Section::Law, 1.0)].into());
        let b = Awarded::Sections([(Section::Conclusion, 3.0), (Section::Law, 2.0)].into());
        assert_eq!(
            reduce(&[a, b], Aggregation::Mean),
            Some(Awarded::Sections(
                [(Section::Conclusion, 4.0), (Section::Law, 1.5)].into()
            ))
        );
        assert_eq!(reduce(&[], Aggregation::Median), None);
    }
}
