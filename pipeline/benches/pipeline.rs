//! Wall time of a whole job against the stub endpoint answering every call
//! after 200 ms, compared with the ideal `calls × latency / concurrency`
//! (as if every call could overlap within one pool of `concurrency` slots)
//! and with the busiest endpoint's bound (each role has its own slots, so
//! the job can beat the one-pool ideal; it can never beat this bound nor
//! the longest dialogue's chain of calls).
//!
//! `cargo bench -p pipeline --bench pipeline [-- CASES [CONCURRENCY...]]`,
//! default 36 cases (one per cause, from `engine::lexpilot::synthetic`) at
//! concurrency 8 and 16.

use std::time::{Duration, Instant};

use pipeline::config::{Config, Endpoint, Limits, RetryPolicy};
use pipeline::stub::{oracle, PromptKind, Stub};
use pipeline::{CancellationToken, Job};

const LATENCY: Duration = Duration::from_millis(200);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let cases_wanted = args.first().copied().unwrap_or(36);
    let concurrencies = if args.len() > 1 {
        args[1..].to_vec()
    } else {
        vec![8, 16]
    };
    let per_cause = cases_wanted.div_ceil(36).max(1);
    let mut cases = engine::lexpilot::dataset::parse_dataset(
        &engine::lexpilot::synthetic::dataset_file(per_cause),
    )
    .map_err(|e| e.to_string())?;
    cases.truncate(cases_wanted);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    println!(
        "pipeline bench: {} cases, every task, 1 run, {} ms per call",
        cases.len(),
        LATENCY.as_millis()
    );
    println!(
        "{:>11} {:>6} {:>8} {:>8} {:>8} {:>9} {:>11} {:>10} {:>9}",
        "concurrency",
        "items",
        "requests",
        "model",
        "user",
        "judge",
        "wall (s)",
        "ideal (s)",
        "busiest (s)"
    );
    for concurrency in concurrencies {
        runtime.block_on(async {
            let stub = Stub::with_latency(LATENCY, oracle(&cases)).await?;
            let dir = tempfile::tempdir()?;
            let mut config = Config::new(
                Endpoint::new(&stub.base_url, "Bench-Model"),
                Endpoint::new(&stub.base_url, "Bench-User"),
                Endpoint::judge(&stub.base_url, "Bench-Judge"),
                dir.path().to_owned(),
            );
            config.limits = Limits {
                concurrency,
                requests_per_minute: None,
            };
            config.retry = RetryPolicy {
                timeout: Duration::from_secs(30),
                ..RetryPolicy::default()
            };
            let job = Job::new(config, cases.clone())?;
            let items = job.total_items();
            let started = Instant::now();
            job.run(CancellationToken::new()).await?;
            let wall = started.elapsed().as_secs_f64();

            let model = stub.count(PromptKind::Lexawn)
                + stub.count(PromptKind::Dcg)
                + stub.count(PromptKind::Direct);
            let user = stub.count(PromptKind::User);
            let judge = stub.count(PromptKind::JudgeLca)
                + stub.count(PromptKind::JudgeDcg)
                + stub.count(PromptKind::JudgeLjp);
            let calls = stub.requests();
            let per_slot = LATENCY.as_secs_f64() / concurrency as f64;
            let ideal = calls as f64 * per_slot;
            let busiest = model.max(user).max(judge) as f64 * per_slot;
            println!(
                "{concurrency:>11} {items:>6} {calls:>8} {model:>8} {user:>8} {judge:>9} {wall:>11.2} {ideal:>10.2} {busiest:>9.2}"
            );
            Ok::<(), Box<dyn std::error::Error>>(())
        })?;
    }
    Ok(())
}
