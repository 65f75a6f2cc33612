//! PLawBench judge verdicts for expert review: the score sheet of an item,
//! what the experts see of a judged item, the judge's points kept apart, and
//! the draw of items to review, stratified by task.
//!
//! - **Sheet** ([`sheet`]): a `case_analysis` item is scored per section
//!   present in its rubric (`conclusion`, `facts`, `reasoning`, `law`, each
//!   with its section's points, §B2.4); every other item with one `total`
//!   of `max_points`. Experts give points in steps of a half point.
//! - **Decisions** ([`judge_decisions`]): every item of a run that was
//!   judged (not unavailable, at least one judge available). The judge's
//!   label is the panel's points per section: each judge's points clamped
//!   into `[0, max]` (§B2.4), then the mean or median over the available
//!   judges as the run header says (§B4.2; for one judge, its points). The
//!   expert sees the question, the context, the rubric by section, the
//!   model's response and its `finish_reason`; never a judge's points,
//!   reply or the judges' names.
//! - **Draw** ([`draw_rubric_sample`]): up to `per_task` decisions of each
//!   task and `cap` in all, with [`crate::review::sample_stratified`] over
//!   (task, decision) pairs, reproducibly from a seed.

use std::collections::BTreeMap;

use serde_json::json;

use super::dataset::{Item, Task};
use super::run::Run;
use super::score::score_item;
use crate::benchmark::Benchmark;
use crate::core::panel::aggregate;
use crate::review::{
    draw_per_target, JudgeCandidate, JudgeDecision, OpenDecision, Sheet, SheetUnit,
};

/// Rubric verdicts drawn per task when none is said.
pub const DEFAULT_PER_TASK: usize = 10;
/// Rubric verdicts drawn in all when none is said.
pub const DEFAULT_CAP: usize = 40;

/// The score sheet of `item` (see the [module documentation](self)).
///
/// ```
/// use engine::plawbench::review::sheet;
///
/// use engine::plawbench::dataset::{parse_dataset, Task};
///
/// let sizes = [(Task::CaseAnalysis, 1), (Task::LegalConsultation, 1)];
/// let items = parse_dataset(&engine::plawbench::synthetic::dataset_file(&sizes, 1)).unwrap();
/// let case = items.iter().find(|i| i.item_id.starts_with("case_analysis")).unwrap();
/// let case_sheet = sheet(case);
/// let units: Vec<&str> = case_sheet.units.iter().map(|u| u.key.as_str()).collect();
/// assert_eq!(units, ["conclusion", "facts", "reasoning", "law"]);
/// assert_eq!(sheet(case).max(), f64::from(case.max_points));
/// let qa = items.iter().find(|i| i.item_id.starts_with("legal_consultation")).unwrap();
/// assert_eq!(sheet(qa).units[0].key, "total");
/// ```
pub fn sheet(item: &Item) -> Sheet {
    let max = item.section_max();
    let units = if max.is_empty() {
        vec![SheetUnit::new(
            "total",
            "总分 Total",
            f64::from(item.max_points),
        )]
    } else {
        max.iter()
            .map(|(section, &max)| {
                SheetUnit::new(
                    section.as_str(),
                    format!("{} {}", section.label_zh(), section.label_en()),
                    max,
                )
            })
            .collect()
    };
    Sheet {
        benchmark: Benchmark::Plawbench,
        task: item.task.as_str().to_owned(),
        units,
        groups: Vec::new(),
    }
}

/// Leaves out of `run` the judged items `open` names (of this run, open for
/// blind review; [`crate::review::OpenDecision`] states the rule: `case_id`
/// the item id, `target` its task), as if the run never had them. How many
/// it left out.
///
/// ```
/// use engine::plawbench::dataset::{parse_dataset, Task};
/// use engine::plawbench::review::withhold;
/// use engine::plawbench::run::parse_run;
/// use engine::review::OpenDecision;
///
/// let sizes = [(Task::CaseAnalysis, 3), (Task::LegalConsultation, 2)];
/// let items = parse_dataset(&engine::plawbench::synthetic::dataset_file(&sizes, 1)).unwrap();
/// let mut run = parse_run(&engine::plawbench::synthetic::run_file(&items, "M", 1, 1, 2), &items).unwrap();
/// let id = run.items[0].item_id.clone();
/// let open = OpenDecision { case_id: id.clone(), task: None, target: Some(run.items[0].task.as_str().into()) };
/// assert_eq!(withhold(&mut run, &[open]), 1);
/// assert!(run.items.iter().all(|i| i.item_id != id));
/// ```
pub fn withhold(run: &mut Run, open: &[OpenDecision]) -> usize {
    let before = run.items.len();
    run.items.retain(|judged| {
        !open
            .iter()
            .any(|d| d.names(None, &judged.item_id, Some(judged.task.as_str())))
    });
    before - run.items.len()
}

/// The judged items of `run` that an expert can re-score, in run order (see
/// the [module documentation](self)). `case_id` of each decision is the
/// item id, `target` its task.
///
/// ```
/// use engine::plawbench::review::judge_decisions;
///
/// use engine::plawbench::dataset::{parse_dataset, Task};
/// use engine::plawbench::run::parse_run;
///
/// let sizes = [(Task::CaseAnalysis, 3), (Task::LegalConsultation, 2)];
/// let items = parse_dataset(&engine::plawbench::synthetic::dataset_file(&sizes, 1)).unwrap();
/// let run = parse_run(&engine::plawbench::synthetic::run_file(&items, "M", 1, 1, 2), &items).unwrap();
/// let decisions = judge_decisions(&run, &items);
/// assert!(!decisions.is_empty());
/// let first = &decisions[0];
/// assert!(first.input["sheet"]["units"].is_array());
/// assert!(first.input.get("judgements").is_none(), "the judge's points stay apart");
/// assert!(first.judge_label.starts_with('{'));
/// ```
pub fn judge_decisions(run: &Run, items: &[Item]) -> Vec<JudgeDecision> {
    let by_id: BTreeMap<&str, &Item> = items.iter().map(|i| (i.item_id.as_str(), i)).collect();
    run.items
        .iter()
        .filter_map(|judged| {
            let item = *by_id.get(judged.item_id.as_str())?;
            let outcome = score_item(item, judged, run.header.judge_aggregation);
            outcome.panel.as_ref()?;
            let sheet = sheet(item);
            let available: Vec<_> = outcome.judges.iter().flatten().collect();
            let points: Vec<f64> = sheet
                .units
                .iter()
                .map(|unit| {
                    let values: Vec<f64> = available
                        .iter()
                        .filter_map(|j| j.clamped.points_of(&unit.key))
                        .collect();
                    aggregate(&values, run.header.judge_aggregation).unwrap_or(0.0)
                })
                .collect();
            let rubric: Vec<_> = match &item.sections {
                Some(entries) => entries
                    .iter()
                    .map(|e| {
                        json!({
                            "section": e.section().as_str(),
                            "criterion": e.criterion(),
                            "points": e.points(),
                        })
                    })
                    .collect(),
                None => vec![json!({
                    "section": "total",
                    "criterion": item.rubric.clone().unwrap_or_default(),
                    "points": item.max_points,
                })],
            };
            Some(JudgeDecision {
                case_id: item.item_id.clone(),
                target: Some(item.task.as_str().to_owned()),
                judge_label: sheet.stored(&points),
                input: json!({
                    "benchmark": Benchmark::Plawbench.as_str(),
                    "task": item.task.as_str(),
                    "category": item.category,
                    "context": item.context,
                    "question": item.question,
                    "rubric": rubric,
                    "max_points": item.max_points,
                    "response": judged.response.clone().unwrap_or_default(),
                    "finish_reason": judged.finish_reason,
                    "sheet": sheet,
                }),
            })
        })
        .collect()
}

/// Up to `per_task` of `candidates` of each task and `cap` in all (see the
/// [module documentation](self)); a decision listed twice (same model, run,
/// item) counts once, as its last listing.
///
/// ```
/// use engine::plawbench::review::{draw_rubric_sample, judge_decisions};
/// use engine::review::JudgeCandidate;
///
/// use engine::plawbench::dataset::{parse_dataset, Task};
/// use engine::plawbench::run::parse_run;
///
/// let sizes = [(Task::CaseAnalysis, 5), (Task::LegalConsultation, 3), (Task::PlaintiffStatement, 3), (Task::DefendantStatement, 3)];
/// let items = parse_dataset(&engine::plawbench::synthetic::dataset_file(&sizes, 1)).unwrap();
/// let runs: Vec<_> = (1..=2).map(|r| parse_run(&engine::plawbench::synthetic::run_file(&items, "M", r, 1, u64::from(r)), &items).unwrap()).collect();
/// let candidates: Vec<JudgeCandidate> = runs.iter().enumerate().flat_map(|(i, run)| {
///     judge_decisions(run, &items).into_iter().map(move |decision| JudgeCandidate {
///         run_id: i as i64, model: run.header.model.clone(), run_number: i64::from(run.header.run), decision,
///     })
/// }).collect();
/// let drawn = draw_rubric_sample(candidates.clone(), 2, 100, 7);
/// assert_eq!(drawn.len(), 8, "two of each of the four tasks");
/// assert_eq!(drawn, draw_rubric_sample(candidates, 2, 100, 7), "reproducible");
/// ```
pub fn draw_rubric_sample(
    candidates: Vec<JudgeCandidate>,
    per_task: usize,
    cap: usize,
    seed: u64,
) -> Vec<JudgeCandidate> {
    draw_per_target(candidates, per_task, cap, seed)
}

/// The task a drawn decision is of.
pub fn task_of(decision: &JudgeDecision) -> Option<Task> {
    decision.target.as_deref().and_then(Task::parse)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plawbench::dataset::parse_dataset;
    use crate::plawbench::run::parse_run;

    const DATASET: &str = r#"{"item_id": "case_analysis-1", "task": "case_analysis", "category": "个人生活", "context": "某甲与某公司签订合同。", "question": "某甲能否主张精神损害赔偿？", "sections": [{"criterion": "【结论得分】\n(+5分) 有权", "points": "5", "tags": "结论得分"}, {"criterion": "【案情简述得分】\n(+20分) 合同", "points": "20", "tags": "案情简述得分"}, {"criterion": "【分析过程得分】\n(+20分) 违约", "points": "20", "tags": "分析过程得分"}, {"criterion": "【法条依据得分】\n(+15分) 第一千一百八十三条", "points": "15", "tags": "法条依据得分"}], "max_points": 60}
{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "我要离婚。", "rubric": "总分：16分\n1.(+16分) 是否报警？", "max_points": 16}
"#;

    fn run(judges: &str, aggregation: &str, lines: &[&str]) -> String {
        let mut text = format!(
            r#"{{"kind": "run", "benchmark": "plawbench", "model": "M", "run": 1, "judges": {judges}, "judge_aggregation": "{aggregation}", "judge_parse": "lenient", "judge_attempts": 1, "source": "workbench"}}"#
        );
        for line in lines {
            text.push('\n');
            text.push_str(line);
        }
        text
    }

    #[test]
    fn the_judge_label_is_the_panel_of_clamped_points() {
        let items = parse_dataset(DATASET).expect("dataset");
        let text = run(
            r#"[{"model": "j1"}, {"model": "j2"}, {"model": "j3"}]"#,
            "median",
            &[
                // Raw 8 for a 5-point conclusion is clamped to 5; −1 to 0.
                r#"{"kind": "rubric", "item_id": "case_analysis-1", "task": "case_analysis", "response": "【结论】有权", "judgements": [{"judge": "j1", "awarded": {"conclusion": 8, "facts": 15, "reasoning": 10, "law": -1}, "judge_output": "SECRET"}, {"judge": "j2", "awarded": {"conclusion": 4, "facts": 10, "reasoning": 20, "law": 15}}, {"judge": "j3", "unavailable": "parse_error"}]}"#,
                r#"{"kind": "rubric", "item_id": "legal_consultation-1", "task": "legal_consultation", "response": "1. 是否报警？", "judgements": [{"judge": "j1", "awarded": 20}, {"judge": "j2", "awarded": 3}, {"judge": "j3", "awarded": 9}]}"#,
            ],
        );
        let parsed = parse_run(&text, &items).expect("run");
        let decisions = judge_decisions(&parsed, &items);
        assert_eq!(decisions.len(), 2);
        // Median of two judges is their mean: (5+4)/2, (15+10)/2, (10+20)/2, (0+15)/2.
        assert_eq!(
            decisions[0].judge_label,
            r#"{"conclusion":4.5,"facts":12.5,"reasoning":15,"law":7.5}"#
        );
        // 20 → 16 (clamped), 3, 9: median 9.
        assert_eq!(decisions[1].judge_label, r#"{"total":9}"#);
        let shown = decisions[0].input.to_string();
        assert!(
            !shown.contains("SECRET") && !shown.contains("j1"),
            "{shown}"
        );
        assert_eq!(decisions[0].input["rubric"][3]["section"], "law");
        assert_eq!(decisions[0].target.as_deref(), Some("case_analysis"));
        let sheet: Sheet = serde_json::from_value(decisions[0].input["sheet"].clone()).unwrap();
        assert_eq!(sheet, super::sheet(&items[0]));
        // The judge's label reads back on its own sheet.
        assert_eq!(
            sheet.points(&decisions[0].judge_label),
            Some(vec![4.5, 12.5, 15.0, 7.5])
        );
    }

    #[test]
    fn unavailable_items_are_not_reviewed() {
        let items = parse_dataset(DATASET).expect("dataset");
        let text = run(
            r#"[{"model": "j1"}]"#,
            "mean",
            &[
                r#"{"kind": "rubric", "item_id": "case_analysis-1", "task": "case_analysis", "unavailable": "model call failed"}"#,
                r#"{"kind": "rubric", "item_id": "legal_consultation-1", "task": "legal_consultation", "response": "", "judgements": [{"judge": "j1", "unavailable": "parse_error"}]}"#,
            ],
        );
        let parsed = parse_run(&text, &items).expect("run");
        assert!(judge_decisions(&parsed, &items).is_empty());
    }
}
