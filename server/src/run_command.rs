//! `lexpilot run`: a benchmark's pipeline job from the command line, with a
//! progress bar on stderr and the score tables of the runs it wrote at the
//! end. LexPilot ([`pipeline::Job`]: the evaluated model, the user model for
//! dcg and ljp:interaction, the judges) by default; with `--benchmark
//! plawbench`, PLawBench ([`pipeline::plawbench::Job`]: the evaluated model
//! and a judge panel, with its parse mode, aggregation and judge attempts).
//!
//! Keys are read from the environment variables named by `--*-key-env`,
//! never from arguments. `--limit N` runs the first N cases (PLawBench:
//! items); the limited dataset is written beside the runs
//! (`OUT/<dataset>-firstN.jsonl`) so the run files can be validated and
//! scored against it later. Ctrl-C stops gracefully (calls in flight finish
//! and are cached; run the same command again to resume); a second Ctrl-C
//! quits at once. An option of the other benchmark is refused, naming it.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use engine::benchmark::Benchmark;
use engine::lexpilot::run::Family;
use engine::plawbench::run::{Aggregation, ParseMode};
use engine::plawbench::PLawBench;
use engine::vocab::Vocabulary;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pipeline::config::{
    Config, Endpoint, Limits, Prices, RetryPolicy, Settings, Tasks, UserCondition,
};
use pipeline::usage::RunUsage;
use pipeline::{CancellationToken, Job, PipelineError, Progress};
use tokio::sync::watch;

/// The arguments of `lexpilot run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The benchmark to run: lexpilot or plawbench
    #[arg(long, default_value = "lexpilot", value_parser = crate::parse_benchmark)]
    benchmark: Benchmark,
    /// The dataset file (docs/formats.md §2; PLawBench: its items, or evalscope's records)
    #[arg(long)]
    dataset: PathBuf,
    /// LexPilot tasks: lca, dcg, ljp (all three setups) or ljp:direct, ljp:interaction,
    /// ljp:gold [default: lca,dcg,ljp]
    #[arg(long, value_parser = Tasks::parse)]
    tasks: Option<Tasks>,
    /// The evaluated model's name (sent to the endpoint, written in the run header)
    #[arg(long)]
    model: String,
    /// The evaluated model's base URL (OpenAI-compatible, e.g. https://host/v1)
    #[arg(long)]
    model_url: String,
    /// Environment variable holding the evaluated model's API key
    #[arg(long)]
    model_key_env: Option<String>,
    /// LexPilot: the evaluated model's vendor, for judge recusal (default: from the model name)
    #[arg(long)]
    model_vendor: Option<String>,
    /// The evaluated model's group: legal, open or closed
    #[arg(long, value_parser = parse_family)]
    family: Option<Family>,
    /// PLawBench: the vendor family of the official ranking's Family column (Qwen, Claude, ...)
    #[arg(long)]
    model_family: Option<String>,
    /// LexPilot: the user model (simulated plaintiff); needed for dcg and ljp:interaction
    #[arg(long)]
    user_model: Option<String>,
    /// LexPilot: the user model's base URL
    #[arg(long)]
    user_url: Option<String>,
    /// LexPilot: environment variable holding the user model's API key
    #[arg(long)]
    user_key_env: Option<String>,
    /// A judge's model name; repeat for a panel (LexPilot: same-vendor judges then recuse;
    /// PLawBench: every judge grades every item)
    #[arg(long = "judge", required = true)]
    judges: Vec<String>,
    /// The judges' base URL: once for all, or once per --judge
    #[arg(long = "judge-url", required = true)]
    judge_urls: Vec<String>,
    /// Environment variable of the judges' API key: once for all, or once per --judge
    #[arg(long = "judge-key-env")]
    judge_key_envs: Vec<String>,
    /// A judge's vendor: once for all, or once per --judge (default: from the name)
    #[arg(long = "judge-vendor")]
    judge_vendors: Vec<String>,
    /// PLawBench: how a panel's judgements are combined per item: mean (default) or median
    #[arg(long, value_parser = parse_vocabulary::<Aggregation>)]
    judge_aggregation: Option<Aggregation>,
    /// PLawBench: how judge replies are read: lenient (default; the last repairable JSON
    /// object, trailing commas allowed) or strict (evalscope 1.14.1: exactly one valid object)
    #[arg(long, value_parser = parse_vocabulary::<ParseMode>)]
    judge_parse: Option<ParseMode>,
    /// Requests per judge until its reply parses; then its seat is unavailable
    /// (PLawBench default: 1, as evalscope; LexPilot default: --max-attempts)
    #[arg(long)]
    judge_attempts: Option<u32>,
    /// LexPilot: how the user model behaves: standard (default), delayed, self_correction,
    /// cooperative, dependent, withdrawn, adversarial
    #[arg(long, value_parser = parse_condition)]
    user_condition: Option<UserCondition>,
    /// Repetitions
    #[arg(long, default_value_t = 1)]
    runs: u32,
    /// The number of the first repetition
    #[arg(long, default_value_t = 1)]
    first_run: u32,
    /// Only the first N cases (PLawBench: items) of the dataset
    #[arg(long)]
    limit: Option<usize>,
    /// Requests in flight at once, per endpoint
    #[arg(long, default_value_t = 4)]
    concurrency: usize,
    /// Requests started per minute, per endpoint
    #[arg(long)]
    rpm: Option<u32>,
    /// The evaluated model's temperature
    #[arg(long, default_value_t = Settings::GENERATION.temperature)]
    temperature: f64,
    /// LexPilot: the user model's temperature
    #[arg(long, default_value_t = Settings::GENERATION.temperature)]
    user_temperature: f64,
    /// The judges' temperature
    #[arg(long, default_value_t = Settings::JUDGE.temperature)]
    judge_temperature: f64,
    /// max_tokens of every role; keep it generous for PLawBench, whose drafting tasks score
    /// a truncated filing near zero
    #[arg(long, default_value_t = Settings::GENERATION.max_tokens)]
    max_tokens: u32,
    /// Time limit of one request, in seconds
    #[arg(long, default_value_t = 600.0)]
    timeout: f64,
    /// Attempts per call (429, 5xx, timeouts and empty replies are retried)
    #[arg(long, default_value_t = 6)]
    max_attempts: u32,
    /// Backoff before the first retry, in seconds (doubled for each later one)
    #[arg(long, default_value_t = 1.0)]
    retry_delay: f64,
    /// The evaluated model's prices per 1,000 prompt and completion tokens: IN,OUT
    #[arg(long, value_parser = parse_prices)]
    model_prices: Option<Prices>,
    /// LexPilot: the user model's prices: IN,OUT
    #[arg(long, value_parser = parse_prices)]
    user_prices: Option<Prices>,
    /// The judges' prices: IN,OUT
    #[arg(long, value_parser = parse_prices)]
    judge_prices: Option<Prices>,
    /// The dataset name for the run header (default: the file name without extension)
    #[arg(long)]
    dataset_name: Option<String>,
    /// Where run files, usage sidecars and the call cache go
    #[arg(long)]
    out: PathBuf,
}

fn parse_family(s: &str) -> Result<Family, String> {
    Family::parse(s).ok_or_else(|| format!("unknown family {s:?}; expected legal, open or closed"))
}

fn parse_condition(s: &str) -> Result<UserCondition, String> {
    UserCondition::parse(s).ok_or_else(|| {
        format!(
            "unknown user condition {s:?}; expected one of {}",
            UserCondition::ALL.map(UserCondition::as_str).join(", ")
        )
    })
}

fn parse_vocabulary<V: Vocabulary>(s: &str) -> Result<V, String> {
    V::parse(s).ok_or_else(|| format!("unknown {} {s:?}; expected {}", V::KIND, V::expected()))
}

fn parse_prices(s: &str) -> Result<Prices, String> {
    let parts: Vec<Result<f64, _>> = s.split(',').map(|p| p.trim().parse::<f64>()).collect();
    match parts.as_slice() {
        [Ok(prompt), Ok(completion)] if *prompt >= 0.0 && *completion >= 0.0 => Ok(Prices {
            prompt_per_1k: *prompt,
            completion_per_1k: *completion,
        }),
        _ => Err(format!(
            "expected IN,OUT prices per 1,000 tokens, such as 0.5,2; got {s:?}"
        )),
    }
}

/// The `i`-th of a repeatable option given once for all or once per judge.
fn per_judge<'a>(
    values: &'a [String],
    i: usize,
    judges: usize,
    flag: &str,
) -> anyhow::Result<Option<&'a str>> {
    match values.len() {
        0 => Ok(None),
        1 => Ok(Some(values[0].as_str())),
        n if n == judges => Ok(Some(values[i].as_str())),
        n => anyhow::bail!(
            "{flag} is given {n} times; give it once for all judges or once per --judge ({judges})"
        ),
    }
}

fn seconds(s: f64, flag: &str) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(s)
        .map_err(|_| anyhow::anyhow!("{flag} must be a number of seconds ≥ 0"))
}

/// Refuses the options given that belong to another benchmark than
/// `benchmark`: `(flag, given)` pairs.
fn refuse_foreign(benchmark: Benchmark, options: &[(&str, bool)]) -> anyhow::Result<()> {
    let given: Vec<&str> = options
        .iter()
        .filter(|(_, given)| *given)
        .map(|(flag, _)| *flag)
        .collect();
    if given.is_empty() {
        return Ok(());
    }
    let other = match benchmark {
        Benchmark::Plawbench => "LexPilot's",
        _ => "PLawBench's (--benchmark plawbench)",
    };
    anyhow::bail!(
        "{} {} {other}, not {}'s",
        given.join(", "),
        if given.len() == 1 { "is" } else { "are" },
        benchmark.label_en()
    )
}

/// The evaluated model's endpoint.
fn model_endpoint(args: &RunArgs) -> Endpoint {
    let mut model = Endpoint::new(&args.model_url, &args.model);
    model.key_env = args.model_key_env.clone();
    model.vendor = args.model_vendor.clone();
    model.settings = Settings {
        temperature: args.temperature,
        max_tokens: args.max_tokens,
    };
    model.prices = args.model_prices;
    model
}

/// The judges' endpoints, in the order given.
fn judge_endpoints(args: &RunArgs) -> anyhow::Result<Vec<Endpoint>> {
    let n = args.judges.len();
    args.judges
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let url = per_judge(&args.judge_urls, i, n, "--judge-url")?.unwrap_or_default();
            let mut judge = Endpoint::judge(url, name);
            judge.key_env =
                per_judge(&args.judge_key_envs, i, n, "--judge-key-env")?.map(str::to_owned);
            judge.vendor =
                per_judge(&args.judge_vendors, i, n, "--judge-vendor")?.map(str::to_owned);
            judge.settings = Settings {
                temperature: args.judge_temperature,
                max_tokens: args.max_tokens,
            };
            judge.prices = args.judge_prices;
            Ok(judge)
        })
        .collect()
}

fn retry_policy(args: &RunArgs, judge_attempts: u32) -> anyhow::Result<RetryPolicy> {
    Ok(RetryPolicy {
        max_attempts: args.max_attempts,
        judge_attempts,
        base_delay: seconds(args.retry_delay, "--retry-delay")?,
        timeout: seconds(args.timeout, "--timeout")?,
        ..RetryPolicy::default()
    })
}

fn limits(args: &RunArgs) -> Limits {
    Limits {
        concurrency: args.concurrency,
        requests_per_minute: args.rpm,
    }
}

fn config(args: &RunArgs, dataset_name: String) -> anyhow::Result<Config> {
    let model = model_endpoint(args);
    let tasks = args.tasks.clone().unwrap_or_else(Tasks::all);
    let user = if tasks.uses_user_model() {
        let (Some(name), Some(url)) = (&args.user_model, &args.user_url) else {
            anyhow::bail!(
                "dcg and ljp:interaction need the user model: give --user-model and --user-url"
            );
        };
        let mut user = Endpoint::new(url, name);
        user.key_env = args.user_key_env.clone();
        user.settings = Settings {
            temperature: args.user_temperature,
            max_tokens: args.max_tokens,
        };
        user.prices = args.user_prices;
        user
    } else {
        // Not called; the header then has no user model.
        model.clone()
    };
    let judges = judge_endpoints(args)?;
    let mut config = Config::new(model, user, judges[0].clone(), args.out.clone());
    config.judges = judges;
    config.family = args.family;
    config.tasks = tasks;
    config.user_condition = args.user_condition.unwrap_or(UserCondition::Standard);
    config.runs = args.runs;
    config.first_run = args.first_run;
    config.dataset_name = Some(dataset_name);
    config.limits = limits(args);
    config.retry = retry_policy(args, args.judge_attempts.unwrap_or(args.max_attempts))?;
    Ok(config)
}

fn plawbench_config(
    args: &RunArgs,
    dataset_name: String,
) -> anyhow::Result<pipeline::plawbench::Config> {
    let judges = judge_endpoints(args)?;
    let mut config =
        pipeline::plawbench::Config::new(model_endpoint(args), judges[0].clone(), args.out.clone());
    config.judges = judges;
    config.family = args.family;
    config.model_family = args.model_family.clone();
    config.aggregation = args.judge_aggregation.unwrap_or(config.aggregation);
    config.parse = args.judge_parse.unwrap_or(config.parse);
    config.runs = args.runs;
    config.first_run = args.first_run;
    config.dataset_name = Some(dataset_name);
    config.limits = limits(args);
    config.retry = retry_policy(args, args.judge_attempts.unwrap_or(1))?;
    Ok(config)
}

/// The dataset a run is made on: its name for the header, and the file to
/// validate and score the runs against (the limited dataset written beside
/// the runs with `--limit`, which keeps the first N of `cases`).
struct Scope {
    name: String,
    file: PathBuf,
}

fn scope<C>(
    args: &RunArgs,
    cases: &mut Vec<C>,
    to_jsonl: impl Fn(&[C]) -> String,
    noun: &str,
) -> anyhow::Result<Scope> {
    let stem = args
        .dataset
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "dataset".into());
    let mut scope = Scope {
        name: args.dataset_name.clone().unwrap_or_else(|| stem.clone()),
        file: args.dataset.clone(),
    };
    if let Some(limit) = args.limit.filter(|&n| n < cases.len()) {
        if limit == 0 {
            anyhow::bail!("--limit must be at least 1");
        }
        cases.truncate(limit);
        scope.name = format!("{}-first{limit}", scope.name);
        std::fs::create_dir_all(&args.out)
            .with_context(|| format!("cannot create {}", args.out.display()))?;
        scope.file = args.out.join(format!("{stem}-first{limit}.jsonl"));
        std::fs::write(&scope.file, to_jsonl(cases))
            .with_context(|| format!("cannot write {}", scope.file.display()))?;
        eprintln!(
            "running the first {limit} {noun}; they are in {} (validate and score against it)",
            scope.file.display()
        );
    }
    Ok(scope)
}

fn bar_message(p: &Progress) -> String {
    format!(
        "{} unavailable · {} requests · {} cached · {} retries",
        p.failures, p.calls, p.cached_calls, p.retries
    )
}

/// Runs a job with a progress bar and Ctrl-C handling: its outputs, or
/// `None` when it was cancelled (the message is printed).
async fn follow<T, F>(
    total: usize,
    mut progress: watch::Receiver<Progress>,
    run: impl FnOnce(CancellationToken) -> F,
) -> anyhow::Result<Option<T>>
where
    F: Future<Output = Result<T, PipelineError>>,
{
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} items · {per_sec} · ETA {eta} · {msg}",
        )
        .context("progress bar template")?,
    );
    let watcher_bar = bar.clone();
    let watcher = tokio::spawn(async move {
        while progress.changed().await.is_ok() {
            let p = progress.borrow().clone();
            watcher_bar.set_position(p.done as u64);
            watcher_bar.set_message(bar_message(&p));
        }
        progress.borrow().clone()
    });

    let cancel = CancellationToken::new();
    let on_signal = cancel.clone();
    let signals = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            eprintln!("\nstopping: no new requests; those in flight finish and are cached (Ctrl-C again to quit now)");
            on_signal.cancel();
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(130);
            }
        }
    });

    let result = run(cancel).await;
    signals.abort();
    let last = watcher.await.unwrap_or_default();
    bar.finish_and_clear();
    eprintln!(
        "{}/{} items in {:.1} s; {}",
        last.done,
        last.total,
        last.elapsed_secs,
        bar_message(&last)
    );
    match result {
        Ok(outputs) => Ok(Some(outputs)),
        Err(e @ PipelineError::Cancelled { .. }) => {
            eprintln!("{e}");
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// The line about one written run.
fn report_run(run: u32, path: &Path, unavailable: usize, usage: &RunUsage, usage_path: &Path) {
    let cost = usage
        .total_cost
        .map(|c| format!(", cost {c:.4}"))
        .unwrap_or_default();
    eprintln!(
        "run {run}: {} ({unavailable} unavailable item{}; {} prompt + {} completion tokens{cost}; usage in {})",
        path.display(),
        if unavailable == 1 { "" } else { "s" },
        usage.prompt_tokens,
        usage.completion_tokens,
        usage_path.display()
    );
}

/// Runs `lexpilot run`.
pub async fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    match args.benchmark {
        Benchmark::Lexpilot => run_lexpilot(args).await,
        Benchmark::Plawbench => run_plawbench(args).await,
        Benchmark::Dlawbench => {
            eprintln!("{}", services::jobs::NOT_RUNNABLE_DLAWBENCH);
            Ok(ExitCode::FAILURE)
        }
    }
}

async fn run_lexpilot(args: RunArgs) -> anyhow::Result<ExitCode> {
    refuse_foreign(
        Benchmark::Lexpilot,
        &[
            ("--judge-aggregation", args.judge_aggregation.is_some()),
            ("--judge-parse", args.judge_parse.is_some()),
            ("--model-family", args.model_family.is_some()),
        ],
    )?;
    let Some(mut cases) = crate::dataset_or_report::<engine::benchmark::LexPilot>(&args.dataset)?
    else {
        return Ok(ExitCode::FAILURE);
    };
    let scope = scope(
        &args,
        &mut cases,
        engine::lexpilot::dataset::to_jsonl,
        "cases",
    )?;
    let job = Job::new(config(&args, scope.name.clone())?, cases.clone())?;
    let Some(outputs) = follow(job.total_items(), job.progress(), |c| job.run(c)).await? else {
        return Ok(ExitCode::from(130));
    };
    for o in &outputs {
        let unavailable = o.parsed.unavailable().total();
        report_run(o.run, &o.path, unavailable, &o.usage, &o.usage_path);
    }
    let runs: Vec<_> = outputs.into_iter().map(|o| o.parsed).collect();
    let doc = engine::lexpilot::score::score_entries(&runs, &cases).with_dataset(scope.name);
    print!("{}", server::report::render(&doc));
    if scope.file != args.dataset {
        eprintln!(
            "scores are over the first {} cases ({})",
            cases.len(),
            scope.file.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

async fn run_plawbench(args: RunArgs) -> anyhow::Result<ExitCode> {
    refuse_foreign(
        Benchmark::Plawbench,
        &[
            ("--tasks", args.tasks.is_some()),
            ("--model-vendor", args.model_vendor.is_some()),
            ("--user-model", args.user_model.is_some()),
            ("--user-url", args.user_url.is_some()),
            ("--user-key-env", args.user_key_env.is_some()),
            ("--user-prices", args.user_prices.is_some()),
            ("--user-condition", args.user_condition.is_some()),
        ],
    )?;
    let Some(mut items) = crate::dataset_or_report::<PLawBench>(&args.dataset)? else {
        return Ok(ExitCode::FAILURE);
    };
    let scope = scope(
        &args,
        &mut items,
        engine::plawbench::dataset::to_jsonl,
        "items",
    )?;
    let job =
        pipeline::plawbench::Job::new(plawbench_config(&args, scope.name.clone())?, items.clone())?;
    let Some(outputs) = follow(job.total_items(), job.progress(), |c| job.run(c)).await? else {
        return Ok(ExitCode::from(130));
    };
    for o in &outputs {
        report_run(
            o.run,
            &o.path,
            o.parsed.unavailable(),
            &o.usage,
            &o.usage_path,
        );
    }
    let runs: Vec<_> = outputs.into_iter().map(|o| o.parsed).collect();
    let doc = engine::plawbench::score::score_entries(&runs, &items).with_dataset(scope.name);
    print!("{}", server::report::render_plawbench(&doc));
    if scope.file != args.dataset {
        eprintln!(
            "scores are over the first {} items ({})",
            items.len(),
            scope.file.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
