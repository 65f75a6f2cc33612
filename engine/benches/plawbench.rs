//! Timings of PLawBench at the official scale, printed with `Instant`
//! (`harness = false`; run with `cargo bench -p engine --bench plawbench`).
//!
//! A synthetic 280-item dataset (250 + 18 + 6 + 6, [`engine::plawbench::synthetic`])
//! and 100 run files (10 models × 10 runs, panels of 1–3 judges) are read
//! with the real parsers; then:
//!
//! - scoring the 100 runs × 280 items (`score_run` each) and summarising
//!   them into the score document;
//! - converting one 280-item evalscope folder (`import_folder`: reviews,
//!   predictions, report, task config; with the dataset checks and the
//!   reconciliation);
//! - rendering the model and judge prompts of the 280 items, and reading
//!   280 judge replies in each parse mode.

use std::hint::black_box;
use std::time::{Duration, Instant};

use engine::plawbench::dataset::parse_dataset;
use engine::plawbench::evalscope::{import_folder, ImportOptions};
use engine::plawbench::judge::{parse_judge_reply, render_judge_prompts, render_model_prompt};
use engine::plawbench::run::{parse_run, ParseMode, Run};
use engine::plawbench::score::{score_run, summarise_runs};
use engine::plawbench::synthetic::{dataset_file, evalscope_folder, run_file, OFFICIAL_SIZES};

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

fn main() {
    let text = dataset_file(&OFFICIAL_SIZES, 280);
    let mut dataset = Vec::new();
    time("parse_dataset, 280 items", 10, || {
        dataset = parse_dataset(black_box(&text)).expect("a valid dataset");
    });
    println!("dataset: {} items, {} bytes", dataset.len(), text.len());

    let files: Vec<(String, String)> = (0..MODELS)
        .flat_map(|m| {
            let dataset = &dataset;
            (1..=RUNS_PER_MODEL).map(move |r| {
                let judges = 1 + (m as usize % 3);
                let model = format!("Model-{m}");
                let file = run_file(
                    dataset,
                    &model,
                    r,
                    judges,
                    u64::from(m) * 1000 + u64::from(r),
                );
                (model, file)
            })
        })
        .collect();
    let bytes: usize = files.iter().map(|(_, f)| f.len()).sum();
    let mut runs: Vec<Run> = Vec::new();
    time("parse_run × 100 (280 items each)", 3, || {
        runs = files
            .iter()
            .map(|(_, f)| parse_run(black_box(f), &dataset).expect("a valid run"))
            .collect();
    });
    println!("runs: {} files, {bytes} bytes", runs.len());

    let mut scored = Vec::new();
    time("score_run × 100 (28,000 items)", 10, || {
        scored = runs
            .iter()
            .map(|run| (run.header.entry_key(), score_run(black_box(run), &dataset)))
            .collect();
    });
    time("summarise_runs, 100 runs into 10 entries", 10, || {
        black_box(summarise_runs(scored.clone(), &dataset));
    });
    time("score_run × 100 + summarise_runs", 10, || {
        let scored: Vec<_> = runs
            .iter()
            .map(|run| (run.header.entry_key(), score_run(black_box(run), &dataset)))
            .collect();
        black_box(summarise_runs(scored, &dataset));
    });

    let folder = evalscope_folder(&dataset, "qwen-plus", 9);
    let folder_bytes: usize = folder
        .subsets
        .iter()
        .map(|s| s.reviews.len() + s.predictions.as_ref().map_or(0, String::len))
        .sum::<usize>()
        + folder.report.as_ref().map_or(0, String::len);
    let mut imported = None;
    time("import_folder, one 280-item evalscope folder", 10, || {
        imported = Some(
            import_folder(black_box(&folder), &dataset, &ImportOptions::default())
                .expect("imports"),
        );
    });
    let imported = imported.expect("timed at least once");
    println!(
        "evalscope folder: {folder_bytes} bytes, {} run(s), reconciliation ok: {}",
        imported.runs.len(),
        imported.reconciliation.ok()
    );

    time(
        "render_model_prompt + render_judge_prompts × 280",
        10,
        || {
            for item in &dataset {
                let prompt = render_model_prompt(black_box(item));
                black_box(render_judge_prompts(item, &prompt, "（虚构回答）"));
            }
        },
    );
    let replies: Vec<String> = dataset
        .iter()
        .map(|item| {
            let body = match item.sections {
                Some(_) => "{\"score_details\": {\"结论\": {\"total_points\": 3}, \"案件事实\": {\"total_points\": 9}, \"推理过程\": {\"total_points\": \"12\"}, \"法条依据\": {\"total_points\": 4,},},}".to_owned(),
                None => "{\"total_points\": 7, \"max_points\": 10,}".to_owned(),
            };
            format!("总分为……\n分析如下：……\n```json\n{body}\n```")
        })
        .collect();
    for mode in [ParseMode::Strict, ParseMode::Lenient] {
        let mut read = 0;
        time(&format!("parse_judge_reply × 280, {mode}"), 10, || {
            read = dataset
                .iter()
                .zip(&replies)
                .filter(|(item, reply)| parse_judge_reply(black_box(reply), item, mode).is_ok())
                .count();
        });
        println!("  {read} of 280 replies read in {mode} mode (each has trailing commas)");
    }
}
