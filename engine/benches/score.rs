//! Timings of scoring at LexPilot's scale, printed with `Instant`
//! (`harness = false`; run with `cargo bench -p engine --bench score`).
//!
//! A synthetic dataset of 432 cases (36 causes × 12, 1–3 claims each) and 100
//! runs (10 models × 10 runs, every task and LJP setup) are written as dataset
//! and run files and read back with the real parsers; then:
//!
//! - parsing the 100 run files;
//! - `score_entries` over the 100 runs (every task, overall and per class);
//! - `score_ci` with 1000 resamples for each run × metric (LCA Macro-F1, DCG
//!   accuracy, LJP QWK of each setup) × set of cases (overall and the six
//!   classes), or as many runs as fit in a minute, as printed;
//! - `build_table` for each task;
//! - what one leaderboard view computes on a cold cache: an `EntrySample`
//!   per entry (10 entries × 10 runs) and the interval of every cell of the
//!   LCA view (9 columns) and the LJP view (9 interval columns), 1000
//!   resamples each; and one paired comparison of two entries (7 scores).
//!
//! The files come from [`engine::lexpilot::synthetic`], as in `server/benches/ingest.rs`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use engine::lexpilot::dataset::parse_dataset;
use engine::lexpilot::leaderboard::{build_table, column_metric, View};
use engine::lexpilot::run::{parse_run, Run, Task};
use engine::lexpilot::score::{compare_entries, score_ci, score_entries, EntrySample, Metric};
use engine::vocab::{Class, LjpSetup};

const CASES_PER_CAUSE: usize = 12;
const MODELS: u32 = 10;
const RUNS_PER_MODEL: u32 = 10;
const RESAMPLES: usize = 1000;
/// The wall time `score_ci` over every run may take before it stops at a
/// subset of the runs.
const CI_BUDGET: Duration = Duration::from_secs(60);

// ---- Timing ----

/// The fastest and the median of `times`.
fn min_median(times: &[Duration]) -> (Duration, Duration) {
    let mut sorted = times.to_vec();
    sorted.sort();
    (sorted[0], sorted[sorted.len() / 2])
}

fn report(label: &str, times: &[Duration]) {
    let (min, median) = min_median(times);
    println!(
        "{label:<60} min {min:>11.3?}   median {median:>11.3?}   ({} reps)",
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
    let dataset_text = engine::lexpilot::synthetic::dataset_file(CASES_PER_CAUSE);
    let mut dataset = Vec::new();
    time("parse_dataset, 432 cases", 10, || {
        dataset = parse_dataset(black_box(&dataset_text)).expect("a valid dataset");
    });
    let claims: usize = dataset.iter().map(|c| c.claims.len()).sum();
    println!(
        "dataset: {} cases, {claims} claims, {} bytes",
        dataset.len(),
        dataset_text.len()
    );

    let files: Vec<String> = (0..MODELS)
        .flat_map(|m| (1..=RUNS_PER_MODEL).map(move |r| (m, r)))
        .map(|(m, r)| engine::lexpilot::synthetic::run_file(&dataset, m, r, MODELS))
        .collect();
    let sizes: Vec<usize> = files.iter().map(String::len).collect();
    println!(
        "run files: {} runs, {} bytes each (min) to {} (max), {} lines each, {} bytes in all",
        files.len(),
        sizes.iter().min().copied().unwrap_or_default(),
        sizes.iter().max().copied().unwrap_or_default(),
        files[0].lines().count(),
        sizes.iter().sum::<usize>(),
    );

    time("parse_run, one run file", 20, || {
        black_box(parse_run(black_box(&files[0]), &dataset).expect("a valid run"));
    });
    let mut runs: Vec<Run> = Vec::new();
    time("parse_run, all 100 run files", 5, || {
        runs = files
            .iter()
            .map(|f| parse_run(black_box(f), &dataset).expect("a valid run"))
            .collect();
    });

    let mut doc = score_entries(&runs, &dataset);
    time("(a) score_entries, 100 runs, all tasks", 10, || {
        doc = score_entries(black_box(&runs), &dataset);
    });
    assert_eq!(doc.entries.len(), MODELS as usize);

    let metrics = [
        Metric::LcaMacroF1,
        Metric::DcgAccuracy,
        Metric::LjpQwk(LjpSetup::Direct),
        Metric::LjpQwk(LjpSetup::Interaction),
        Metric::LjpQwk(LjpSetup::Gold),
    ];
    let sets: Vec<Option<Class>> = std::iter::once(None)
        .chain(Class::ALL.into_iter().map(Some))
        .collect();
    let mut per_metric: Vec<Vec<Duration>> = vec![Vec::new(); metrics.len()];
    let (mut overall_calls, mut class_calls) = (Vec::new(), Vec::new());
    let mut undefined = 0;
    let start = Instant::now();
    let mut runs_done = 0;
    for run in &runs {
        let run_start = Instant::now();
        for (m, &metric) in metrics.iter().enumerate() {
            for &class in &sets {
                let call = Instant::now();
                let ci = score_ci(run, &dataset, metric, class, RESAMPLES, 7, 0.95);
                let elapsed = call.elapsed();
                undefined += usize::from(black_box(ci).is_none());
                per_metric[m].push(elapsed);
                match class {
                    None => overall_calls.push(elapsed),
                    Some(_) => class_calls.push(elapsed),
                }
            }
        }
        runs_done += 1;
        // Stop once the next run would likely go over the budget.
        if start.elapsed() + run_start.elapsed() > CI_BUDGET {
            break;
        }
    }
    let total = start.elapsed();
    let calls = overall_calls.len() + class_calls.len();
    println!(
        "(b) score_ci, {RESAMPLES} resamples: {runs_done} of {} runs x {} metrics x {} sets \
         (overall + 6 classes) = {calls} calls in {total:.3?}; {undefined} gave no interval",
        runs.len(),
        metrics.len(),
        sets.len(),
    );
    let per_run = total / runs_done as u32;
    if runs_done < runs.len() {
        println!(
            "    {per_run:.3?} per run; projected for all {} runs: {:.3?}",
            runs.len(),
            per_run * runs.len() as u32,
        );
    } else {
        println!("    {per_run:.3?} per run");
    }
    report("    score_ci per call, overall (432 cases)", &overall_calls);
    report("    score_ci per call, one class", &class_calls);
    for (metric, times) in metrics.iter().zip(&per_metric) {
        report(&format!("    score_ci per call, {metric:?}"), times);
    }

    for task in Task::ALL {
        let view = View {
            task,
            setup: LjpSetup::Interaction,
            sort: Some("overall".into()),
        };
        time(
            &format!("(c) build_table, {task}, 10 entries"),
            1000,
            || {
                black_box(build_table(black_box(&doc), &view));
            },
        );
    }

    let by_model: Vec<Vec<Run>> = (0..MODELS as usize)
        .map(|m| {
            runs.iter()
                .skip(m * RUNS_PER_MODEL as usize)
                .take(RUNS_PER_MODEL as usize)
                .cloned()
                .collect()
        })
        .collect();
    let mut samples: Vec<EntrySample> = Vec::new();
    time("(d) EntrySample::new, 10 entries x 10 runs", 3, || {
        samples = by_model
            .iter()
            .map(|r| EntrySample::new(r, &dataset))
            .collect();
    });
    for task in [Task::Lca, Task::Ljp] {
        let view = View::from_query(Some(task.as_str().into()), None, None);
        let table = build_table(&doc, &view);
        let cells: Vec<(Metric, Option<Class>)> = table
            .columns
            .iter()
            .filter_map(|c| column_metric(&view, &c.key))
            .collect();
        time(
            &format!(
                "(d) intervals of a {task} view: 10 entries x {} cells",
                cells.len()
            ),
            1,
            || {
                for sample in &samples {
                    for &(metric, class) in &cells {
                        black_box(sample.ci(metric, class, RESAMPLES, 7, 0.95));
                    }
                }
            },
        );
    }
    time("(e) compare_entries, 7 scores, 1000 resamples", 3, || {
        for metric in Metric::ALL {
            black_box(compare_entries(
                &samples[0],
                &samples[1],
                metric,
                None,
                RESAMPLES,
                7,
                0.95,
            ));
        }
    });
}
