//! The PLawBench runner against an OpenAI-compatible endpoint, timed: the
//! workbench's half of `scripts/bench-runner.sh`.
//!
//! ```text
//! bench_runner items FILE
//!     writes 280 PLawBench-shaped items (the official release's sizes per
//!     task, from `engine::plawbench::synthetic`), two of which repeat
//!     another's context and question, as two pairs of the release do
//! bench_runner run --url URL --items FILE --concurrency N --out DIR
//!     runs one repetition of the items (model and judge on URL, N calls at
//!     once per role, a fresh call cache in DIR) and prints one line:
//!     `items=… model_calls=… judge_calls=… cached=… wall=SECONDS`
//! ```
//!
//! Build it with `cargo build --release -p pipeline --example bench_runner`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use engine::plawbench::dataset::parse_any;
use engine::plawbench::synthetic::{dataset_file, OFFICIAL_SIZES};
use pipeline::config::{Endpoint, Limits, RetryPolicy};
use pipeline::plawbench::{Config, Job};
use pipeline::CancellationToken;
use serde_json::Value;

const USAGE: &str = "usage: bench_runner items FILE\n       bench_runner run --url URL --items FILE --concurrency N --out DIR";

/// The 280 items, with `case_analysis-249` and `-250` repeating the context
/// and question of `-1` and `-2`.
fn items_file() -> Result<String, String> {
    let text = dataset_file(&OFFICIAL_SIZES, 40);
    let mut lines: Vec<Value> = text
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    for (copy, from) in [(248, 0), (249, 1)] {
        for field in ["context", "question", "sections", "max_points"] {
            lines[copy][field] = lines[from][field].clone();
        }
    }
    Ok(lines.iter().map(|l| format!("{l}\n")).collect())
}

async fn run(args: &[String]) -> Result<(), String> {
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .ok_or_else(|| format!("{name} is needed\n{USAGE}"))
    };
    let url = flag("--url")?;
    let items_path = PathBuf::from(flag("--items")?);
    let concurrency: usize = flag("--concurrency")?
        .parse()
        .map_err(|_| "--concurrency: not a number".to_owned())?;
    let out = PathBuf::from(flag("--out")?);
    let text = std::fs::read_to_string(&items_path)
        .map_err(|e| format!("{}: {e}", items_path.display()))?;
    let items = parse_any(&text).map_err(|e| format!("{}: {e}", items_path.display()))?;
    let mut config = Config::new(
        Endpoint::new(url, "Bench-Model"),
        Endpoint::judge(url, "Bench-Judge"),
        out,
    );
    config.limits = Limits {
        concurrency,
        requests_per_minute: None,
    };
    config.retry = RetryPolicy {
        timeout: Duration::from_secs(60),
        ..config.retry
    };
    let n = items.len();
    let job = Job::new(config, items).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let outputs = job
        .run(CancellationToken::new())
        .await
        .map_err(|e| e.to_string())?;
    let wall = started.elapsed().as_secs_f64();
    let usage = &outputs[0].usage;
    let calls = |role: &str| usage.roles.get(role).map_or(0, |r| r.calls);
    let cached: u64 = usage.roles.values().map(|r| r.cached_calls).sum();
    println!(
        "items={n} model_calls={} judge_calls={} cached={cached} unavailable={} wall={wall:.3}",
        calls("model"),
        calls("judge:Bench-Judge"),
        outputs[0].parsed.unavailable()
    );
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("items") => match args.get(1) {
            Some(path) => items_file()
                .and_then(|text| std::fs::write(path, text).map_err(|e| format!("{path}: {e}"))),
            None => Err(USAGE.to_owned()),
        },
        Some("run") => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())
            .and_then(|rt| rt.block_on(run(&args[1..]))),
        _ => Err(USAGE.to_owned()),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bench_runner: {message}");
            std::process::ExitCode::FAILURE
        }
    }
}
