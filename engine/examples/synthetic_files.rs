//! Writes a synthetic LexPilot dataset and run files to a directory, for
//! timing `lexpilot score` against other tools on the same files
//! (`scripts/bench-score.sh`).
//!
//! ```text
//! cargo run --release -p engine --example synthetic_files -- OUTDIR [MODELS] [RUNS] [CASES_PER_CAUSE]
//! ```
//!
//! Defaults: 6 models × 5 runs over 36 causes × 12 = 432 cases. OUTDIR gets
//! `dataset.jsonl` and `run-MM-R.jsonl` per run (every task and LJP setup),
//! from [`engine::lexpilot::synthetic`], the files `engine/benches/score.rs`
//! parses.

use std::path::PathBuf;
use std::process::ExitCode;

use engine::lexpilot::dataset::parse_dataset;
use engine::lexpilot::synthetic::{dataset_file, run_file};

const USAGE: &str = "usage: synthetic_files OUTDIR [MODELS] [RUNS] [CASES_PER_CAUSE]";

/// The `i`th argument as a count, or `default` when it is not given.
fn count(args: &[String], i: usize, default: u32) -> Result<u32, String> {
    args.get(i).map_or(Ok(default), |a| {
        a.parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("{a:?} is not a whole number of at least 1\n{USAGE}"))
    })
}

fn write(args: &[String]) -> Result<(), String> {
    let dir = PathBuf::from(args.first().ok_or(USAGE)?);
    let models = count(args, 1, 6)?;
    let runs = count(args, 2, 5)?;
    let cases_per_cause = count(args, 3, 12)?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let save = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    let text = dataset_file(cases_per_cause as usize);
    let dataset = parse_dataset(&text).map_err(|e| format!("synthetic dataset refused: {e}"))?;
    save("dataset.jsonl", &text)?;
    for model in 0..models {
        for run in 1..=runs {
            save(
                &format!("run-{model:02}-{run}.jsonl"),
                &run_file(&dataset, model, run, models),
            )?;
        }
    }
    println!(
        "{}: dataset.jsonl ({} cases) and {} run files",
        dir.display(),
        dataset.len(),
        models * runs
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match write(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
