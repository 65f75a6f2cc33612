//! `lexpilot run`: the benchmark pipeline ([`pipeline::Job`]) from the
//! command line, with a progress bar on stderr and the score tables of the
//! runs it wrote at the end.
//!
//! Keys are read from the environment variables named by `--*-key-env`,
//! never from arguments. `--limit N` runs the first N cases; the limited
//! dataset is written beside the runs (`OUT/<dataset>-firstN.jsonl`) so the
//! run files can be validated and scored against it later. Ctrl-C stops
//! gracefully (calls in flight finish and are cached; run the same command
//! again to resume); a second Ctrl-C quits at once.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use engine::lexpilot::run::Family;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pipeline::config::{
    Config, Endpoint, Limits, Prices, RetryPolicy, Settings, Tasks, UserCondition,
};
use pipeline::{CancellationToken, Job, PipelineError, Progress};

/// The arguments of `lexpilot run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The dataset file (docs/formats.md §2)
    #[arg(long)]
    dataset: PathBuf,
    /// Tasks: lca, dcg, ljp (all three setups) or ljp:direct, ljp:interaction, ljp:gold
    #[arg(long, default_value = "lca,dcg,ljp", value_parser = Tasks::parse)]
    tasks: Tasks,
    /// The evaluated model's name (sent to the endpoint, written in the run header)
    #[arg(long)]
    model: String,
    /// The evaluated model's base URL (OpenAI-compatible, e.g. https://host/v1)
    #[arg(long)]
    model_url: String,
    /// Environment variable holding the evaluated model's API key
    #[arg(long)]
    model_key_env: Option<String>,
    /// The evaluated model's vendor, for judge recusal (default: from the model name)
    #[arg(long)]
    model_vendor: Option<String>,
    /// The evaluated model's group
    #[arg(long, value_parser = parse_family)]
    family: Option<Family>,
    /// The user model (simulated plaintiff); needed for dcg and ljp:interaction
    #[arg(long)]
    user_model: Option<String>,
    /// The user model's base URL
    #[arg(long)]
    user_url: Option<String>,
    /// Environment variable holding the user model's API key
    #[arg(long)]
    user_key_env: Option<String>,
    /// A judge's model name; repeat for a panel (same-vendor judges then recuse)
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
    /// How the user model behaves: standard, delayed, self_correction, cooperative,
    /// dependent, withdrawn, adversarial
    #[arg(long, default_value = "standard", value_parser = parse_condition)]
    user_condition: UserCondition,
    /// Repetitions
    #[arg(long, default_value_t = 1)]
    runs: u32,
    /// The number of the first repetition
    #[arg(long, default_value_t = 1)]
    first_run: u32,
    /// Only the first N cases of the dataset
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
    /// The user model's temperature
    #[arg(long, default_value_t = Settings::GENERATION.temperature)]
    user_temperature: f64,
    /// The judges' temperature
    #[arg(long, default_value_t = Settings::JUDGE.temperature)]
    judge_temperature: f64,
    /// max_tokens of every role
    #[arg(long, default_value_t = Settings::GENERATION.max_tokens)]
    max_tokens: u32,
    /// Time limit of one request, in seconds
    #[arg(long, default_value_t = 600.0)]
    timeout: f64,
    /// Attempts per call (and per judge whose reply does not parse)
    #[arg(long, default_value_t = 6)]
    max_attempts: u32,
    /// Backoff before the first retry, in seconds (doubled for each later one)
    #[arg(long, default_value_t = 1.0)]
    retry_delay: f64,
    /// The evaluated model's prices per 1,000 prompt and completion tokens: IN,OUT
    #[arg(long, value_parser = parse_prices)]
    model_prices: Option<Prices>,
    /// The user model's prices: IN,OUT
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

fn config(args: &RunArgs, dataset_name: String) -> anyhow::Result<Config> {
    let mut model = Endpoint::new(&args.model_url, &args.model);
    model.key_env = args.model_key_env.clone();
    model.vendor = args.model_vendor.clone();
    model.settings = Settings {
        temperature: args.temperature,
        max_tokens: args.max_tokens,
    };
    model.prices = args.model_prices;

    let user = if args.tasks.uses_user_model() {
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

    let n = args.judges.len();
    let judges = args
        .judges
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
        .collect::<anyhow::Result<Vec<_>>>()?;

    let mut config = Config::new(model, user, judges[0].clone(), args.out.clone());
    config.judges = judges;
    config.family = args.family;
    config.tasks = args.tasks.clone();
    config.user_condition = args.user_condition;
    config.runs = args.runs;
    config.first_run = args.first_run;
    config.dataset_name = Some(dataset_name);
    config.limits = Limits {
        concurrency: args.concurrency,
        requests_per_minute: args.rpm,
    };
    config.retry = RetryPolicy {
        max_attempts: args.max_attempts,
        judge_attempts: args.max_attempts,
        base_delay: seconds(args.retry_delay, "--retry-delay")?,
        timeout: seconds(args.timeout, "--timeout")?,
        ..RetryPolicy::default()
    };
    Ok(config)
}

fn bar_message(p: &Progress) -> String {
    format!(
        "{} unavailable · {} requests · {} cached · {} retries",
        p.failures, p.calls, p.cached_calls, p.retries
    )
}

/// Runs `lexpilot run`.
pub async fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let Some(mut cases) = crate::dataset_or_report::<engine::benchmark::LexPilot>(&args.dataset)?
    else {
        return Ok(ExitCode::FAILURE);
    };
    let stem = args
        .dataset
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "dataset".into());
    let mut dataset_name = args.dataset_name.clone().unwrap_or_else(|| stem.clone());
    let mut dataset_file = args.dataset.clone();
    if let Some(limit) = args.limit.filter(|&n| n < cases.len()) {
        if limit == 0 {
            anyhow::bail!("--limit must be at least 1");
        }
        cases.truncate(limit);
        dataset_name = format!("{dataset_name}-first{limit}");
        std::fs::create_dir_all(&args.out)
            .with_context(|| format!("cannot create {}", args.out.display()))?;
        dataset_file = args.out.join(format!("{stem}-first{limit}.jsonl"));
        std::fs::write(&dataset_file, engine::lexpilot::dataset::to_jsonl(&cases))
            .with_context(|| format!("cannot write {}", dataset_file.display()))?;
        eprintln!(
            "running the first {limit} cases; they are in {} (validate and score against it)",
            dataset_file.display()
        );
    }

    let job = Job::new(config(&args, dataset_name.clone())?, cases.clone())?;
    let bar =
        ProgressBar::with_draw_target(Some(job.total_items() as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} items · {per_sec} · ETA {eta} · {msg}",
        )
        .context("progress bar template")?,
    );
    let mut progress = job.progress();
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

    let result = job.run(cancel).await;
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
    let outputs = match result {
        Ok(outputs) => outputs,
        Err(e @ PipelineError::Cancelled { .. }) => {
            eprintln!("{e}");
            return Ok(ExitCode::from(130));
        }
        Err(e) => return Err(e.into()),
    };
    for o in &outputs {
        let unavailable = o.parsed.unavailable().total();
        let cost = o
            .usage
            .total_cost
            .map(|c| format!(", cost {c:.4}"))
            .unwrap_or_default();
        eprintln!(
            "run {}: {} ({unavailable} unavailable item{}; {} prompt + {} completion tokens{cost}; usage in {})",
            o.run,
            o.path.display(),
            if unavailable == 1 { "" } else { "s" },
            o.usage.prompt_tokens,
            o.usage.completion_tokens,
            o.usage_path.display()
        );
    }
    let runs: Vec<_> = outputs.into_iter().map(|o| o.parsed).collect();
    let doc = engine::lexpilot::score::score_entries(&runs, &cases).with_dataset(dataset_name);
    print!("{}", server::report::render(&doc));
    if dataset_file != args.dataset {
        eprintln!(
            "scores are over the first {} cases ({})",
            cases.len(),
            dataset_file.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
