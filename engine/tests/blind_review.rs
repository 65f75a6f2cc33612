//! Public figures while judge decisions are open for blind review
//! (`engine::review::OpenDecision`): on each benchmark's demo runs, the
//! scores and the score document built without the open decisions do not
//! move when those decisions' judge values change (while the full figures
//! do), the decisions are gone from the run, and with nothing open the
//! figures are exactly the kept ones.

use std::path::{Path, PathBuf};

use engine::benchmark::{DLawBench, LexPilot, Suite};
use engine::lexpilot::run::Task;
use engine::plawbench::run::Awarded;
use engine::plawbench::PLawBench;
use engine::review::OpenDecision;
use engine::vocab::{LcaLabel, Verdict};
use serde::Serialize;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/data")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The dataset and runs of a demo folder, runs in file-name order.
fn demo<S: Suite>(dataset: &Path, runs: &Path) -> (Vec<S::Case>, Vec<S::Run>) {
    let cases = S::parse_dataset(&read(dataset)).unwrap_or_else(|e| panic!("{e}"));
    let mut names: Vec<PathBuf> = std::fs::read_dir(runs)
        .expect("runs/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    names.sort();
    let runs = names
        .iter()
        .map(|p| S::parse_run(read(p).as_bytes(), &cases).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    (cases, runs)
}

fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("serialises")
}

/// The rule on one benchmark: `open` names decisions of `runs[0]`, and
/// `alter` changes the judge values of the decision it is given.
fn holds<S: Suite>(
    cases: &[S::Case],
    runs: &[S::Run],
    open: &[OpenDecision],
    alter: impl Fn(&mut S::Run, &OpenDecision),
) where
    S::Run: Clone,
{
    assert!(!open.is_empty());
    let keys: Vec<_> = runs.iter().map(|r| S::meta(r).entry_key).collect();
    let document = |first: S::Scores| {
        let mut scored = vec![(keys[0].clone(), first)];
        scored.extend(
            runs.iter()
                .zip(&keys)
                .skip(1)
                .map(|(r, k)| (k.clone(), S::score(r, cases))),
        );
        json(&S::summarise(scored, cases))
    };

    // Nothing open: exactly the kept figures.
    for run in runs {
        let (scores, left_out) = S::score_withholding(run.clone(), &[], cases);
        assert_eq!(left_out, 0);
        assert_eq!(json(&scores), json(&S::score(run, cases)));
    }

    let mut altered = runs[0].clone();
    for decision in open {
        alter(&mut altered, decision);
    }
    // The full figures give the judge values away ...
    assert_ne!(
        json(&S::score(&runs[0], cases)),
        json(&S::score(&altered, cases)),
        "the alteration changes the full scores"
    );
    assert_ne!(
        document(S::score(&runs[0], cases)),
        document(S::score(&altered, cases))
    );
    // ... the public ones do not depend on them, to the last bit.
    let (public, left_out) = S::score_withholding(runs[0].clone(), open, cases);
    let (public_altered, left_out_altered) = S::score_withholding(altered.clone(), open, cases);
    assert_eq!(
        (left_out, left_out_altered),
        (open.len(), open.len()),
        "every open decision is left out once"
    );
    assert_eq!(json(&public), json(&public_altered));
    assert_eq!(document(public), document(public_altered));
    // What is left is the run without them.
    let mut without = altered;
    assert_eq!(S::withhold(&mut without, open), open.len());
    assert_eq!(
        S::withhold(&mut without, open),
        0,
        "nothing left to leave out"
    );
}

#[test]
fn lexpilot_figures_leave_open_verdicts_out() {
    let (cases, runs) =
        demo::<LexPilot>(&data().join("demo-synthetic.jsonl"), &data().join("runs"));
    let mut open = Vec::new();
    for task in Task::ALL {
        open.extend(
            engine::review::judge_decisions(&runs[0], &cases, task)
                .into_iter()
                .take(3)
                .map(|d| OpenDecision {
                    case_id: d.case_id,
                    task: Some(task),
                    target: d.target,
                }),
        );
    }
    holds::<LexPilot>(&cases, &runs, &open, |run, d| match d.task {
        Some(Task::Lca) => {
            for item in run.lca.iter_mut().filter(|i| {
                i.case_id == d.case_id && Some(i.consultation.as_str()) == d.target.as_deref()
            }) {
                item.label = item.label.map(|l| match l {
                    LcaLabel::Predict => LcaLabel::Ask,
                    LcaLabel::Ask => LcaLabel::Predict,
                });
            }
        }
        Some(Task::Dcg) => {
            for item in run.dcg.iter_mut().filter(|i| i.case_id == d.case_id) {
                for request in &mut item.requests {
                    request.accepted = request.accepted.map(|a| !a);
                }
            }
        }
        Some(Task::Ljp) => {
            for item in run
                .ljp
                .iter_mut()
                .filter(|i| i.case_id == d.case_id && Some(i.setup.as_str()) == d.target.as_deref())
            {
                for verdict in item.predictions.iter_mut().flatten() {
                    *verdict = match verdict {
                        Verdict::Supported => Verdict::Dismissed,
                        Verdict::PartiallySupported => Verdict::Supported,
                        Verdict::Dismissed => Verdict::PartiallySupported,
                    };
                }
            }
        }
        None => unreachable!("LexPilot decisions name their task"),
    });
}

#[test]
fn plawbench_figures_leave_open_rubric_verdicts_out() {
    let dir = data().join("plawbench");
    let (items, runs) = demo::<PLawBench>(&dir.join("demo.jsonl"), &dir.join("runs"));
    let open: Vec<OpenDecision> = engine::plawbench::review::judge_decisions(&runs[0], &items)
        .into_iter()
        .step_by(5)
        .map(|d| OpenDecision {
            case_id: d.case_id,
            task: None,
            target: d.target,
        })
        .collect();
    assert!(
        open.iter()
            .any(|d| d.target.as_deref() == Some("case_analysis")),
        "a case-analysis item (four sections) is among them"
    );
    // Every judge's points go to the other end of the scale.
    let flip = |p: f64| if p > 0.5 { 0.0 } else { 1000.0 };
    holds::<PLawBench>(&items, &runs, &open, |run, d| {
        for item in run.items.iter_mut().filter(|i| i.item_id == d.case_id) {
            for judgement in &mut item.judgements {
                judgement.awarded = judgement.awarded.take().map(|a| match a {
                    Awarded::Points(p) => Awarded::Points(flip(p)),
                    Awarded::Sections(s) => {
                        Awarded::Sections(s.into_iter().map(|(k, p)| (k, flip(p))).collect())
                    }
                });
            }
        }
    });
}

#[test]
fn dlawbench_figures_leave_open_sessions_out() {
    let dir = data().join("dlawbench");
    let (cases, runs) = demo::<DLawBench>(&dir.join("demo.jsonl"), &dir.join("runs"));
    let open: Vec<OpenDecision> = engine::dlawbench::review::judge_decisions(&runs[0], &cases)
        .into_iter()
        .step_by(7)
        .map(|d| OpenDecision {
            case_id: d.case_id,
            task: None,
            target: d.target,
        })
        .collect();
    holds::<DLawBench>(&cases, &runs, &open, |run, d| {
        for session in run
            .sessions
            .iter_mut()
            .filter(|s| s.case_id == d.case_id && Some(s.style.as_str()) == d.target.as_deref())
        {
            for seat in &mut session.panel {
                if let Some(decisions) = seat.decisions.as_mut() {
                    for bit in decisions.inquiry.iter_mut().chain(&mut decisions.issue) {
                        *bit = 1 - *bit;
                    }
                    decisions.claims_grounded = decisions.claims_total - decisions.claims_grounded;
                }
            }
        }
    });
}

#[test]
fn a_decision_of_another_case_task_or_target_is_not_left_out() {
    let (cases, runs) =
        demo::<LexPilot>(&data().join("demo-synthetic.jsonl"), &data().join("runs"));
    let d = engine::review::judge_decisions(&runs[0], &cases, Task::Lca)
        .into_iter()
        .next()
        .expect("an LCA decision");
    let other_target = if d.target.as_deref() == Some("complete") {
        "underspecified"
    } else {
        "complete"
    };
    for near in [
        OpenDecision {
            case_id: d.case_id.clone(),
            task: Some(Task::Ljp),
            target: d.target.clone(),
        },
        OpenDecision {
            case_id: d.case_id.clone() + "x",
            task: Some(Task::Lca),
            target: d.target.clone(),
        },
        OpenDecision {
            case_id: d.case_id.clone(),
            task: Some(Task::Lca),
            target: Some(other_target.into()),
        },
    ] {
        let mut run = runs[0].clone();
        let lca = run.lca.len();
        let left = LexPilot::withhold(&mut run, std::slice::from_ref(&near));
        // The other consultation of the same case is its own decision.
        let expected = usize::from(near.target.as_deref() == Some(other_target));
        assert_eq!(
            (left, run.lca.len()),
            (expected, lca - expected),
            "{near:?}"
        );
    }
}
