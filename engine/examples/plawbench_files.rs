//! Writes a synthetic PLawBench dataset at the official scale (280 items)
//! and run files to a directory, for loading a server at a lab's scale
//! (`scripts/bench-scale.sh`).
//!
//! ```text
//! cargo run --release -p engine --example plawbench_files -- OUTDIR [MODELS] [RUNS]
//! ```
//!
//! Defaults: 34 models × 3 runs. OUTDIR gets `dataset.jsonl` and
//! `run-MM-R.jsonl` per run (every item, judged by a panel of two), from
//! [`engine::plawbench::synthetic`].

use std::path::PathBuf;
use std::process::ExitCode;

use engine::plawbench::dataset::parse_dataset;
use engine::plawbench::synthetic::{dataset_file, run_file, OFFICIAL_SIZES};

const USAGE: &str = "usage: plawbench_files OUTDIR [MODELS] [RUNS]";

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
    let models = count(args, 1, 34)?;
    let runs = count(args, 2, 3)?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let save = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    let text = dataset_file(&OFFICIAL_SIZES, 280);
    let dataset = parse_dataset(&text).map_err(|e| format!("synthetic dataset refused: {e}"))?;
    save("dataset.jsonl", &text)?;
    for model in 0..models {
        for run in 1..=runs {
            let name = format!("Bench-Plaw-{model:02}");
            save(
                &format!("run-{model:02}-{run}.jsonl"),
                &run_file(&dataset, &name, run, 2, u64::from(model) + 1),
            )?;
        }
    }
    println!(
        "{}: dataset.jsonl ({} items) and {} run files",
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
