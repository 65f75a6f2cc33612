//! Shared helpers of the pipeline's integration tests: the demo cases, a
//! configuration pointed at a stub with fast retries, and the run the
//! oracle script must produce.

#![allow(dead_code)]

use std::path::Path;
use std::time::Duration;

use engine::lexpilot::dataset::{parse_dataset, Case};
use engine::lexpilot::run::{DcgItem, DcgRequest, LcaItem, LjpItem, Run, RunHeader};
use engine::vocab::{Consultation, LcaLabel, LjpSetup, Verdict};
use pipeline::config::{Config, Endpoint, Limits, RetryPolicy};

const DEMO: &str = include_str!("../../../server/data/demo-synthetic.jsonl");

/// The first `n` cases of the demo dataset.
pub fn demo_cases(n: usize) -> Vec<Case> {
    let cases = parse_dataset(DEMO).expect("the demo dataset parses");
    cases.into_iter().take(n).collect()
}

/// Every task, one run, three roles on the stub, retries in milliseconds.
pub fn config(base_url: &str, out_dir: &Path) -> Config {
    let mut config = Config::new(
        Endpoint::new(base_url, "Test-Model"),
        Endpoint::new(base_url, "Test-User"),
        Endpoint::judge(base_url, "Test-Judge"),
        out_dir.to_owned(),
    );
    config.retry = RetryPolicy {
        max_attempts: 6,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(40),
        timeout: Duration::from_secs(10),
        judge_attempts: 6,
    };
    config.limits = Limits {
        concurrency: 4,
        requests_per_minute: None,
    };
    config.dataset_name = Some("demo-test".into());
    config
}

/// The run the stub's oracle script yields for `cases` (see
/// `pipeline::stub::oracle`), under `header`, with every task.
pub fn expected_run(cases: &[Case], header: RunHeader) -> Run {
    let gold = |c: &Case| -> Vec<Verdict> { c.claims.iter().map(|c| c.verdict).collect() };
    let supported = |c: &Case| vec![Verdict::Supported; c.claims.len()];
    let mut run = Run {
        header,
        lca: Vec::new(),
        dcg: Vec::new(),
        ljp: Vec::new(),
    };
    for (i, case) in cases.iter().enumerate() {
        for consultation in Consultation::ALL {
            let predicts = consultation == Consultation::Complete || i % 4 == 3;
            run.lca.push(LcaItem {
                case_id: case.case_id.clone(),
                consultation,
                label: Some(if predicts {
                    LcaLabel::Predict
                } else {
                    LcaLabel::Ask
                }),
                response: None,
                unavailable: None,
            });
        }
        let accepted: &[bool] = match i % 3 {
            0 => &[true],
            1 => &[false, true],
            _ => &[false, false],
        };
        run.dcg.push(DcgItem {
            case_id: case.case_id.clone(),
            requests: accepted
                .iter()
                .map(|&a| DcgRequest {
                    text: None,
                    accepted: Some(a),
                })
                .collect(),
            unavailable: None,
        });
        for setup in LjpSetup::ALL {
            let predictions = match setup {
                LjpSetup::Direct => supported(case),
                LjpSetup::Gold => gold(case),
                LjpSetup::Interaction if i % 4 == 3 => supported(case),
                LjpSetup::Interaction => gold(case),
            };
            run.ljp.push(LjpItem {
                case_id: case.case_id.clone(),
                setup,
                predictions: Some(predictions),
                response: None,
                dialogue: None,
                unavailable: None,
            });
        }
    }
    run
}

/// The run with the drill-down text dropped, for comparing labels only.
pub fn labels_only(run: &Run) -> Run {
    let mut run = run.clone();
    run.lca.iter_mut().for_each(|i| i.response = None);
    run.dcg
        .iter_mut()
        .flat_map(|i| i.requests.iter_mut())
        .for_each(|r| r.text = None);
    run.ljp.iter_mut().for_each(|i| {
        i.response = None;
        i.dialogue = None;
    });
    run
}

/// Every file under `dir`, recursively, as (path, bytes).
pub fn files_under(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).expect("read file");
                out.push((path, bytes));
            }
        }
    }
    out
}
