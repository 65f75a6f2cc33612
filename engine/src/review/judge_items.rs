//! Judge-verdict review items: which decisions of the judge in a run can be
//! re-labelled, what the expert sees of each, and the stratified draw of
//! those to review (Appendix E.3.1).
//!
//! The decisions of one run ([`judge_decisions`]), with the judge label kept
//! with each (never shown to an expert before they submit):
//!
//! - **LCA**: each (case, consultation) item with a label; the label,
//!   `predict` or `ask`. The expert sees the consultation and the model's
//!   reply.
//! - **DCG**: each case item with at least one request; `accepted` when the
//!   judge accepted at least one request (the item's hit,
//!   [`crate::lexpilot::run::DcgItem::hit`]), else `rejected`. The expert sees the
//!   case's focal points, key facts and missing facts, and the request texts
//!   (without the judge's per-request decisions).
//! - **LJP**: each (case, setup) item with predictions; the JSON array of the
//!   predicted verdict per claim. The expert sees the setup, the claims (id
//!   and text), the model's reply and the dialogue.
//!
//! [`draw_judge_sample`] then draws among the decisions of every stored run
//! with [`super::sample_stratified`] over (model, decision) pairs.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::{sample_stratified, DcgDecision};
use crate::lexpilot::dataset::Case;
use crate::lexpilot::run::{Run, Task};

/// The judge sample of the paper (Appendix E.3.1): 10 verdicts of each model,
/// 100 per task.
pub const DEFAULT_PER_MODEL: usize = 10;
/// See [`DEFAULT_PER_MODEL`].
pub const DEFAULT_CAP: usize = 100;
/// The seed used when none is given.
pub const DEFAULT_SEED: u64 = 2026;

/// How to draw judge verdicts for review.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JudgeSample {
    /// The task whose verdicts are drawn.
    pub task: Task,
    /// Verdicts drawn per model.
    pub per_model: usize,
    /// Verdicts drawn in all.
    pub cap: usize,
    /// The seed of the draw.
    pub seed: u64,
}

/// One decision of the judge in a run, with what the expert reviews of it.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeDecision {
    /// The case.
    pub case_id: String,
    /// The consultation (LCA) or setup (LJP); `None` for DCG.
    pub target: Option<String>,
    /// The judge's label, in its stored form.
    pub judge_label: String,
    /// What the expert sees besides the case (see the module docs).
    pub input: Value,
}

/// A judge decision of a stored run: a candidate for review.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeCandidate {
    /// The stored run.
    pub run_id: i64,
    /// Its model.
    pub model: String,
    /// Its run number.
    pub run_number: i64,
    /// The decision.
    pub decision: JudgeDecision,
}

/// The judge's decisions on `task` in `run` that an expert can re-label, in
/// run order (see the module docs); `cases` are the cases of the dataset
/// version the run is stored on (a DCG or LJP item whose case is not there
/// is left out).
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::parse_dataset;
/// use engine::review::judge_decisions;
/// use engine::lexpilot::run::{parse_run, Task};
///
/// let cases = parse_dataset(&engine::lexpilot::synthetic::dataset_file(1)).unwrap();
/// let run = parse_run(&engine::lexpilot::synthetic::run_file(&cases, 0, 1, 2), &cases).unwrap();
/// let ljp = judge_decisions(&run, &cases, Task::Ljp);
/// assert!(!ljp.is_empty());
/// assert!(ljp[0].input["claims"].is_array());
/// assert!(ljp[0].input.get("predictions").is_none(), "the judge's verdicts stay apart");
/// assert!(ljp[0].judge_label.starts_with('['));
/// let lca = judge_decisions(&run, &cases, Task::Lca);
/// assert!(lca.iter().all(|d| d.judge_label == "predict" || d.judge_label == "ask"));
/// ```
pub fn judge_decisions(run: &Run, cases: &[Case], task: Task) -> Vec<JudgeDecision> {
    let case = |id: &str| cases.iter().find(|c| c.case_id == id);
    match task {
        Task::Lca => run
            .lca
            .iter()
            .filter_map(|item| {
                Some(JudgeDecision {
                    case_id: item.case_id.clone(),
                    target: Some(item.consultation.as_str().to_owned()),
                    judge_label: item.label?.as_str().to_owned(),
                    input: json!({
                        "consultation": item.consultation,
                        "response": item.response,
                    }),
                })
            })
            .collect(),
        Task::Dcg => run
            .dcg
            .iter()
            .filter(|item| !item.requests.is_empty())
            .filter_map(|item| {
                let (hit, case) = (item.hit()?, case(&item.case_id)?);
                let requests: Vec<&Option<String>> =
                    item.requests.iter().map(|r| &r.text).collect();
                Some(JudgeDecision {
                    case_id: item.case_id.clone(),
                    target: None,
                    judge_label: DcgDecision::from_accepted(hit).as_str().to_owned(),
                    input: json!({
                        "focal_points": case.focal_points,
                        "key_facts": case.key_facts,
                        "missing_facts": case.missing_facts,
                        "requests": requests,
                    }),
                })
            })
            .collect(),
        Task::Ljp => run
            .ljp
            .iter()
            .filter_map(|item| {
                let (predictions, case) = (item.predictions.as_ref()?, case(&item.case_id)?);
                let claims: Vec<Value> = case
                    .claims
                    .iter()
                    .map(|c| json!({"id": c.id, "text": c.text}))
                    .collect();
                let verdicts: Vec<&str> = predictions.iter().map(|v| v.as_str()).collect();
                Some(JudgeDecision {
                    case_id: item.case_id.clone(),
                    target: Some(item.setup.as_str().to_owned()),
                    judge_label: Value::from(verdicts).to_string(),
                    input: json!({
                        "setup": item.setup,
                        "claims": claims,
                        "response": item.response,
                        "dialogue": item.dialogue,
                    }),
                })
            })
            .collect(),
    }
}

/// Leaves out of `run` the judge decisions `open` names (of this run, open
/// for blind review; see [`super::OpenDecision`] for the rule): the LCA
/// item of a (case, consultation), the DCG item of a case, the LJP item of
/// a (case, setup), as if the run never had them. How many it left out.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::parse_dataset;
/// use engine::lexpilot::run::{parse_run, Task};
/// use engine::lexpilot::score::{score_run, Metric};
/// use engine::review::{withhold_decisions, OpenDecision};
///
/// let cases = parse_dataset(&engine::lexpilot::synthetic::dataset_file(1)).unwrap();
/// let mut run = parse_run(&engine::lexpilot::synthetic::run_file(&cases, 0, 1, 2), &cases).unwrap();
/// let case_id = run.dcg[0].case_id.clone();
/// let open = OpenDecision { case_id: case_id.clone(), task: Some(Task::Dcg), target: None };
/// assert_eq!(withhold_decisions(&mut run, &[open]), 1);
/// assert!(run.dcg.iter().all(|i| i.case_id != case_id));
/// assert!(score_run(&run, &cases).metric(Metric::DcgAccuracy, None).is_some());
/// ```
pub fn withhold_decisions(run: &mut Run, open: &[super::OpenDecision]) -> usize {
    let is_open = |task, case_id: &str, target: Option<&str>| {
        open.iter().any(|d| d.names(Some(task), case_id, target))
    };
    let before = run.lca.len() + run.dcg.len() + run.ljp.len();
    run.lca
        .retain(|i| !is_open(Task::Lca, &i.case_id, Some(i.consultation.as_str())));
    run.dcg.retain(|i| !is_open(Task::Dcg, &i.case_id, None));
    run.ljp
        .retain(|i| !is_open(Task::Ljp, &i.case_id, Some(i.setup.as_str())));
    before - (run.lca.len() + run.dcg.len() + run.ljp.len())
}

/// Which decision of a model a candidate is: run number, case, target.
type DecisionKey = (i64, String, String);

/// The candidates to review: up to `per_model` per model and `cap` in all,
/// drawn by [`super::sample_stratified`] over (model, decision) pairs,
/// reproducibly from `seed`; sorted by model, run number, case and target. A
/// decision listed twice (same model, run number, case and target) counts
/// once, as its last listing.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::parse_dataset;
/// use engine::review::{draw_judge_sample, judge_decisions, JudgeCandidate, JudgeSample};
/// use engine::lexpilot::run::{parse_run, Task};
///
/// let cases = parse_dataset(&engine::lexpilot::synthetic::dataset_file(1)).unwrap();
/// let mut candidates = Vec::new();
/// for (run_id, model) in [(1, 0), (2, 1)] {
///     let run = parse_run(&engine::lexpilot::synthetic::run_file(&cases, model, 1, 2), &cases).unwrap();
///     candidates.extend(judge_decisions(&run, &cases, Task::Ljp).into_iter().map(|decision| {
///         JudgeCandidate { run_id, model: run.header.model.clone(), run_number: 1, decision }
///     }));
/// }
/// let sample = JudgeSample { task: Task::Ljp, per_model: 3, cap: 5, seed: 1 };
/// let drawn = draw_judge_sample(candidates.clone(), &sample);
/// assert_eq!(drawn.len(), 5);
/// assert_eq!(drawn, draw_judge_sample(candidates, &sample));
/// ```
pub fn draw_judge_sample(
    candidates: Vec<JudgeCandidate>,
    sample: &JudgeSample,
) -> Vec<JudgeCandidate> {
    let mut by_key: BTreeMap<(String, DecisionKey), JudgeCandidate> = BTreeMap::new();
    for candidate in candidates {
        let key = (
            candidate.run_number,
            candidate.decision.case_id.clone(),
            candidate.decision.target.clone().unwrap_or_default(),
        );
        by_key.insert((candidate.model.clone(), key), candidate);
    }
    let keys: Vec<(String, DecisionKey)> = by_key.keys().cloned().collect();
    sample_stratified(&keys, sample.per_model, sample.cap, sample.seed)
        .into_iter()
        .filter_map(|key| by_key.remove(&key))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexpilot::dataset::parse_dataset;
    use crate::lexpilot::run::parse_run;

    fn cases() -> Vec<Case> {
        parse_dataset(&crate::lexpilot::synthetic::dataset_file(1)).expect("cases")
    }

    #[test]
    fn dcg_decisions_follow_the_hit_and_hide_the_per_request_decisions() {
        let cases = cases();
        let run = parse_run(
            &crate::lexpilot::synthetic::run_file(&cases, 1, 1, 2),
            &cases,
        )
        .expect("run");
        let decisions = judge_decisions(&run, &cases, Task::Dcg);
        let judged: Vec<_> = run
            .dcg
            .iter()
            .filter(|i| !i.requests.is_empty() && i.hit().is_some())
            .collect();
        assert_eq!(decisions.len(), judged.len());
        for (decision, item) in decisions.iter().zip(judged) {
            let expected = DcgDecision::from_accepted(item.hit() == Some(true));
            assert_eq!(decision.judge_label, expected.as_str());
            assert_eq!(decision.target, None);
            assert!(!decision.input.to_string().contains("accepted"));
            assert!(decision.input["missing_facts"].is_array());
        }
    }

    #[test]
    fn ljp_labels_are_the_stored_form_and_need_the_case() {
        let cases = cases();
        let run = parse_run(
            &crate::lexpilot::synthetic::run_file(&cases, 0, 1, 2),
            &cases,
        )
        .expect("run");
        let decisions = judge_decisions(&run, &cases, Task::Ljp);
        let first = &decisions[0];
        let stored = crate::review::canonical_label(
            crate::review::ReviewKind::JudgeVerdict,
            Some(Task::Ljp),
            first.input["claims"].as_array().map_or(0, Vec::len),
            &first.judge_label,
        )
        .expect("a label in its stored form");
        assert_eq!(stored, first.judge_label);
        assert!(judge_decisions(&run, &[], Task::Ljp).is_empty());
        assert!(judge_decisions(&run, &[], Task::Dcg).is_empty());
        assert!(!judge_decisions(&run, &[], Task::Lca).is_empty());
    }

    #[test]
    fn a_decision_listed_twice_counts_once_as_its_last_listing() {
        let decision = |label: &str| JudgeDecision {
            case_id: "LP-0001".into(),
            target: Some("complete".into()),
            judge_label: label.into(),
            input: json!({}),
        };
        let candidate = |run_id, label| JudgeCandidate {
            run_id,
            model: "M".into(),
            run_number: 1,
            decision: decision(label),
        };
        let sample = JudgeSample {
            task: Task::Lca,
            per_model: 10,
            cap: 100,
            seed: 1,
        };
        let drawn = draw_judge_sample(vec![candidate(1, "ask"), candidate(2, "predict")], &sample);
        assert_eq!(drawn.len(), 1);
        assert_eq!(
            (drawn[0].run_id, drawn[0].decision.judge_label.as_str()),
            (2, "predict")
        );
    }
}
