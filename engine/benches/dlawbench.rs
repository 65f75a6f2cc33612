//! Timings of DLawBench on demo-shaped data, printed with `Instant`
//! (`harness = false`, as the other benches; run with
//! `cargo bench -p engine --bench dlawbench`).
//!
//! The synthetic demo (`server/data/dlawbench/`: 12 cases, nine runs of 48
//! sessions with dialogues, memos and three-judge panels) is read with the
//! real parsers, and its nine run files are cycled into 100 (10 models × 10
//! runs, each header renamed); then:
//!
//! - parsing the 100 runs against the dataset (every session validated);
//! - scoring them (`score_run` each: panels, both views, every level) and
//!   summarising them into the score document;
//! - building the leaderboard views (main, per jurisdiction, styles,
//!   domains, diagnostics) and one run's session drill-downs;
//! - rendering the lawyer, client and judge prompts of every case × style.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use engine::dlawbench::dataset::{parse_dataset, Jurisdiction};
use engine::dlawbench::drilldown::session_detail;
use engine::dlawbench::leaderboard::{
    diagnostics, domain_table, main_table, style_table, TableView,
};
use engine::dlawbench::prompts::{
    client_messages, fact_judge_prompt, lawyer_messages, rubric_judge_prompt,
};
use engine::dlawbench::run::{parse_run, Run};
use engine::dlawbench::score::{score_run, summarise_runs, View};

const MODELS: u32 = 10;
const RUNS_PER_MODEL: u32 = 10;

fn report(label: &str, times: &[Duration]) {
    let mut sorted = times.to_vec();
    sorted.sort();
    println!(
        "{label:<60} min {:>11.3?}   median {:>11.3?}   ({} reps)",
        sorted[0],
        sorted[sorted.len() / 2],
        times.len()
    );
}

/// Times `f` `repeats` times and prints the fastest and the median.
fn time(label: &str, repeats: usize, mut f: impl FnMut()) {
    let times: Vec<Duration> = (0..repeats)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    report(label, &times);
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `file` with its header's model and run replaced.
fn renamed(file: &str, model: &str, run: u32) -> String {
    let (header, rest) = file.split_once('\n').expect("a header line");
    let mut header: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(header).expect("a JSON header");
    header.insert("model".into(), model.into());
    header.insert("run".into(), run.into());
    format!("{}\n{rest}", serde_json::Value::Object(header))
}

fn main() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/data/dlawbench");
    let text = read(&demo.join("demo.jsonl"));
    let mut dataset = Vec::new();
    time("parse_dataset, 12 cases", 10, || {
        dataset = parse_dataset(black_box(&text)).expect("a valid dataset");
    });

    let mut names: Vec<_> = std::fs::read_dir(demo.join("runs"))
        .expect("runs/")
        .map(|e| e.expect("an entry").path())
        .collect();
    names.sort();
    let demo_runs: Vec<String> = names.iter().map(|p| read(p)).collect();
    let files: Vec<String> = (0..MODELS)
        .flat_map(|m| (1..=RUNS_PER_MODEL).map(move |r| (m, r)))
        .enumerate()
        .map(|(k, (m, r))| renamed(&demo_runs[k % demo_runs.len()], &format!("Model-{m}"), r))
        .collect();
    let bytes: usize = files.iter().map(String::len).sum();
    let mut runs: Vec<Run> = Vec::new();
    time("parse_run × 100 (48 sessions each)", 5, || {
        runs = files
            .iter()
            .map(|f| parse_run(black_box(f), &dataset).expect("a valid run"))
            .collect();
    });
    let sessions: usize = runs.iter().map(|r| r.sessions.len()).sum();
    println!(
        "runs: {} files, {sessions} sessions, {bytes} bytes",
        runs.len()
    );

    let mut scored = Vec::new();
    time("score_run × 100 (4,800 sessions)", 10, || {
        scored = runs
            .iter()
            .map(|run| (run.header.entry_key(), score_run(black_box(run), &dataset)))
            .collect();
    });
    let mut doc = None;
    time("summarise_runs, 100 runs into 10 entries", 10, || {
        doc = Some(summarise_runs(black_box(scored.clone()), &dataset));
    });
    time("parse_run + score_run × 100 + summarise_runs", 5, || {
        let scored: Vec<_> = files
            .iter()
            .map(|f| {
                let run = parse_run(black_box(f), &dataset).expect("a valid run");
                (run.header.entry_key(), score_run(&run, &dataset))
            })
            .collect();
        black_box(summarise_runs(scored, &dataset));
    });
    let doc = doc.expect("timed at least once");

    time(
        "leaderboard views (main, cn, us, styles, domains, diagnostics)",
        10,
        || {
            for view in View::ALL {
                black_box(main_table(
                    &doc,
                    &TableView {
                        view,
                        jurisdiction: None,
                    },
                ));
                for j in Jurisdiction::ALL {
                    black_box(main_table(
                        &doc,
                        &TableView {
                            view,
                            jurisdiction: Some(j),
                        },
                    ));
                }
                black_box(style_table(&doc, view));
                black_box(domain_table(&doc, &scored, view, None));
            }
            black_box(diagnostics(&doc));
        },
    );
    time("session_detail × 48 (one run)", 10, || {
        for (k, s) in runs[0].sessions.iter().enumerate() {
            let case = dataset
                .iter()
                .find(|c| c.case_id == s.case_id)
                .expect("a case");
            black_box(session_detail(case, &runs[0], k));
        }
    });
    time("lawyer + client + judge prompts × 48 cells", 10, || {
        for s in &runs[0].sessions {
            let case = dataset
                .iter()
                .find(|c| c.case_id == s.case_id)
                .expect("a case");
            let dialogue = s.dialogue.as_deref().unwrap_or_default();
            black_box(lawyer_messages(case, dialogue, 10, false));
            black_box(client_messages(case, s.style, dialogue));
            let memo = s.memo.as_deref().unwrap_or_default();
            black_box(rubric_judge_prompt(case, dialogue, memo));
            black_box(fact_judge_prompt(case, memo));
        }
    });
}
