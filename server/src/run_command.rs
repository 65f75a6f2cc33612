//! `lexpilot run`: a benchmark's pipeline job from the command line, with a
//! progress bar on stderr and the score tables of the runs it wrote at the
//! end. LexPilot ([`pipeline::Job`]: the evaluated model, the user model for
//! dcg and ljp:interaction, the judges) by default; with `--benchmark
//! plawbench`, PLawBench ([`pipeline::plawbench::Job`]: the evaluated model
//! and a judge panel, with its parse mode, aggregation and judge attempts);
//! with `--benchmark dlawbench`, DLawBench ([`pipeline::dlawbench::Job`]:
//! the lawyer (`--model`, alias `--lawyer-model`), the client simulator
//! (`--user-model`, alias `--client-model`) and a recusing judge panel, in
//! the `--styles` given, up to `--horizon` turns).
//!
//! Keys are read from the environment variables named by `--*-key-env`,
//! never from arguments. `--limit N` runs the first N cases (PLawBench:
//! items); the limited dataset is written beside the runs
//! (`OUT/<dataset>-firstN.jsonl`) so the run files can be validated and
//! scored against it later. Ctrl-C stops gracefully (calls in flight finish
//! and are cached; run the same command again to resume); a second Ctrl-C
//! quits at once. An option of another benchmark is refused, naming it and
//! whose it is. With `--db` the runs written are stored through
//! [`services::ingest::store`] (validated, scored, one transaction), for every
//! benchmark the server hosts ([`crate::for_benchmark`]); for one it does not
//! host yet, the run files stay in `--out` and the command says so.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use db::datasets::{ImportOutcome, ImportSource};
use db::runs::OnDuplicate;
use engine::benchmark::Benchmark;
use engine::core::entry::{EntryKey, Family};
use engine::core::panel::Aggregation;
use engine::dlawbench::dataset::Style;
use engine::dlawbench::score::RunScores;
use engine::plawbench::run::ParseMode;
use engine::plawbench::PLawBench;
use engine::vocab::Vocabulary;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pipeline::config::{
    Config, Endpoint, Limits, Prices, RetryPolicy, Settings, Tasks, UserCondition,
};
use pipeline::usage::RunUsage;
use pipeline::{CancellationToken, Job, PipelineError, Progress};
use server::suites::CliSuite;
use services::ingest::RunFile;
use tokio::sync::watch;

/// The arguments of `lexpilot run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The benchmark to run: lexpilot, plawbench or dlawbench
    #[arg(long, default_value = "lexpilot", value_parser = crate::parse_benchmark)]
    benchmark: Benchmark,
    /// The dataset file (docs/formats.md §2; PLawBench: its items, or evalscope's records;
    /// DLawBench: its cases, docs/benchmarks/dlawbench.md §A1.2)
    #[arg(long)]
    dataset: PathBuf,
    /// LexPilot tasks: lca, dcg, ljp (all three setups) or ljp:direct, ljp:interaction,
    /// ljp:gold [default: lca,dcg,ljp]
    #[arg(long, value_parser = Tasks::parse)]
    tasks: Option<Tasks>,
    /// The evaluated model's name (sent to the endpoint, written in the run header;
    /// DLawBench: the lawyer)
    #[arg(long, visible_alias = "lawyer-model")]
    model: String,
    /// The evaluated model's base URL (OpenAI-compatible, e.g. https://host/v1)
    #[arg(long, visible_alias = "lawyer-url")]
    model_url: String,
    /// Environment variable holding the evaluated model's API key
    #[arg(long, visible_alias = "lawyer-key-env")]
    model_key_env: Option<String>,
    /// LexPilot, DLawBench: the evaluated model's vendor, for judge recusal (default: from the
    /// model name)
    #[arg(long, visible_alias = "lawyer-vendor")]
    model_vendor: Option<String>,
    /// The evaluated model's group: legal, open or closed
    #[arg(long, value_parser = parse_family)]
    family: Option<Family>,
    /// PLawBench: the vendor family of the official ranking's Family column (Qwen, Claude, ...)
    #[arg(long)]
    model_family: Option<String>,
    /// LexPilot: the user model (simulated plaintiff), needed for dcg and ljp:interaction;
    /// DLawBench: the client simulator (required)
    #[arg(long, visible_alias = "client-model")]
    user_model: Option<String>,
    /// LexPilot: the user model's base URL; DLawBench: the client simulator's
    #[arg(long, visible_alias = "client-url")]
    user_url: Option<String>,
    /// LexPilot: environment variable holding the user model's API key; DLawBench: the client
    /// simulator's
    #[arg(long, visible_alias = "client-key-env")]
    user_key_env: Option<String>,
    /// A judge's model name; repeat for a panel (LexPilot, DLawBench: same-vendor judges then
    /// recuse; PLawBench: every judge grades every item)
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
    /// (PLawBench default: 1, as evalscope; DLawBench default: 3; LexPilot default:
    /// --max-attempts)
    #[arg(long)]
    judge_attempts: Option<u32>,
    /// DLawBench: the client's narrative styles, comma-separated, each run over every case
    /// [default: cooperative,dependent,withdrawn,adversarial]
    #[arg(long, value_parser = parse_styles)]
    styles: Option<Styles>,
    /// DLawBench: the client-facing turns the lawyer may use before its forced memo [default: 10]
    #[arg(long)]
    horizon: Option<u32>,
    /// DLawBench: lawyer calls per step until a reply is a valid action; then the session is
    /// lawyer_error [default: 6]
    #[arg(long)]
    lawyer_attempts: Option<u32>,
    /// LexPilot: how the user model behaves: standard (default), delayed, self_correction
    /// (these two in interaction LJP only, as the paper), cooperative, dependent, withdrawn,
    /// adversarial
    #[arg(long, value_parser = parse_condition)]
    user_condition: Option<UserCondition>,
    /// Repetitions (LexPilot default: 5, as the paper makes; PLawBench, DLawBench default: 1)
    #[arg(long)]
    runs: Option<u32>,
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
    /// LexPilot: the user model's temperature; DLawBench: the client simulator's
    #[arg(long, visible_alias = "client-temperature", default_value_t = Settings::GENERATION.temperature)]
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
    /// Attempts per call (429, 5xx and timeouts are retried, and so are empty replies except a
    /// DLawBench lawyer's, which --lawyer-attempts counts)
    #[arg(long, default_value_t = 6)]
    max_attempts: u32,
    /// Backoff before the first retry, in seconds (doubled for each later one)
    #[arg(long, default_value_t = 1.0)]
    retry_delay: f64,
    /// The evaluated model's prices per 1,000 prompt and completion tokens: IN,OUT
    #[arg(long, value_parser = parse_prices)]
    model_prices: Option<Prices>,
    /// LexPilot: the user model's prices: IN,OUT; DLawBench: the client simulator's
    #[arg(long, visible_alias = "client-prices", value_parser = parse_prices)]
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
    /// Also store the runs in this SQLite database, through the same ingest as uploads and
    /// browser jobs (the dataset file is imported first, or its identical version reused); a
    /// benchmark this server does not host yet stores nothing and says so
    #[arg(long)]
    db: Option<PathBuf>,
}

pub(crate) fn parse_family(s: &str) -> Result<Family, String> {
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

/// DLawBench's styles, in the order given.
#[derive(Debug, Clone)]
struct Styles(Vec<Style>);

fn parse_styles(s: &str) -> Result<Styles, String> {
    let styles = s
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(parse_vocabulary::<Style>)
        .collect::<Result<Vec<_>, _>>()?;
    if styles.is_empty() {
        return Err(format!(
            "no style given; expected some of {}",
            Style::expected()
        ));
    }
    Ok(Styles(styles))
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

pub(crate) fn seconds(s: f64, flag: &str) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(s)
        .map_err(|_| anyhow::anyhow!("{flag} must be a number of seconds ≥ 0"))
}

/// Who takes an option: LexPilot, PLawBench, DLawBench, or LexPilot and
/// DLawBench (the evaluated model's vendor, the user model as the client).
const LEXPILOT: &[Benchmark] = &[Benchmark::Lexpilot];
const PLAWBENCH: &[Benchmark] = &[Benchmark::Plawbench];
const DLAWBENCH: &[Benchmark] = &[Benchmark::Dlawbench];
const LEXPILOT_DLAWBENCH: &[Benchmark] = &[Benchmark::Lexpilot, Benchmark::Dlawbench];

/// Every option only some benchmarks take: its flag, whether it was given,
/// and the benchmarks that take it.
fn partial_options(args: &RunArgs) -> [(&'static str, bool, &'static [Benchmark]); 13] {
    [
        ("--tasks", args.tasks.is_some(), LEXPILOT),
        ("--user-condition", args.user_condition.is_some(), LEXPILOT),
        (
            "--model-vendor",
            args.model_vendor.is_some(),
            LEXPILOT_DLAWBENCH,
        ),
        (
            "--user-model",
            args.user_model.is_some(),
            LEXPILOT_DLAWBENCH,
        ),
        ("--user-url", args.user_url.is_some(), LEXPILOT_DLAWBENCH),
        (
            "--user-key-env",
            args.user_key_env.is_some(),
            LEXPILOT_DLAWBENCH,
        ),
        (
            "--user-prices",
            args.user_prices.is_some(),
            LEXPILOT_DLAWBENCH,
        ),
        (
            "--judge-aggregation",
            args.judge_aggregation.is_some(),
            PLAWBENCH,
        ),
        ("--judge-parse", args.judge_parse.is_some(), PLAWBENCH),
        ("--model-family", args.model_family.is_some(), PLAWBENCH),
        ("--styles", args.styles.is_some(), DLAWBENCH),
        ("--horizon", args.horizon.is_some(), DLAWBENCH),
        (
            "--lawyer-attempts",
            args.lawyer_attempts.is_some(),
            DLAWBENCH,
        ),
    ]
}

/// How a benchmark is named in a refusal: its label, and the flag that
/// picks it unless it is the default.
fn whose(b: Benchmark) -> String {
    match b {
        Benchmark::Lexpilot => format!("{}'s", b.label_en()),
        _ => format!("{}'s (--benchmark {})", b.label_en(), b.as_str()),
    }
}

/// Refuses the options given that `benchmark` does not take, naming each
/// and whose it is.
fn refuse_foreign(benchmark: Benchmark, args: &RunArgs) -> anyhow::Result<()> {
    let mut groups: Vec<(&[Benchmark], Vec<&str>)> = Vec::new();
    for (flag, given, takers) in partial_options(args) {
        if !given || takers.contains(&benchmark) {
            continue;
        }
        match groups.iter_mut().find(|(t, _)| *t == takers) {
            Some((_, flags)) => flags.push(flag),
            None => groups.push((takers, vec![flag])),
        }
    }
    if groups.is_empty() {
        return Ok(());
    }
    let said: Vec<String> = groups
        .iter()
        .map(|(takers, flags)| {
            let owners: Vec<String> = takers.iter().map(|b| whose(*b)).collect();
            format!(
                "{} {} {}",
                flags.join(", "),
                if flags.len() == 1 { "is" } else { "are" },
                owners.join(" and ")
            )
        })
        .collect();
    anyhow::bail!("{}, not {}'s", said.join("; "), benchmark.label_en())
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

/// The user model's endpoint (DLawBench: the client simulator's), if
/// `--user-model` and `--user-url` are given.
fn user_endpoint(args: &RunArgs) -> Option<Endpoint> {
    let (name, url) = (args.user_model.as_ref()?, args.user_url.as_ref()?);
    let mut user = Endpoint::new(url, name);
    user.key_env = args.user_key_env.clone();
    user.settings = Settings {
        temperature: args.user_temperature,
        max_tokens: args.max_tokens,
    };
    user.prices = args.user_prices;
    Some(user)
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
        user_endpoint(args).context(
            "dcg and ljp:interaction need the user model: give --user-model and --user-url",
        )?
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
    config.runs = args.runs.unwrap_or(pipeline::config::PAPER_RUNS);
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
    config.runs = args.runs.unwrap_or(config.runs);
    config.first_run = args.first_run;
    config.dataset_name = Some(dataset_name);
    config.limits = limits(args);
    config.retry = retry_policy(args, args.judge_attempts.unwrap_or(1))?;
    Ok(config)
}

fn dlawbench_config(
    args: &RunArgs,
    dataset_name: String,
) -> anyhow::Result<pipeline::dlawbench::Config> {
    let client = user_endpoint(args).context(
        "DLawBench needs the client simulator: give --client-model and --client-url \
         (or --user-model and --user-url)",
    )?;
    let judges = judge_endpoints(args)?;
    let mut config = pipeline::dlawbench::Config::new(
        model_endpoint(args),
        client,
        judges[0].clone(),
        args.out.clone(),
    );
    config.judges = judges;
    config.family = args.family;
    if let Some(Styles(styles)) = &args.styles {
        config.styles = styles.clone();
    }
    config.horizon = args.horizon.unwrap_or(config.horizon);
    config.lawyer_attempts = args.lawyer_attempts.unwrap_or(config.lawyer_attempts);
    config.runs = args.runs.unwrap_or(config.runs);
    config.first_run = args.first_run;
    config.dataset_name = Some(dataset_name);
    config.limits = limits(args);
    config.retry = retry_policy(
        args,
        args.judge_attempts
            .unwrap_or(pipeline::dlawbench::JUDGE_ATTEMPTS),
    )?;
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
pub(crate) async fn follow<T, F>(
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
        Benchmark::Dlawbench => run_dlawbench(args).await,
    }
}

async fn run_lexpilot(args: RunArgs) -> anyhow::Result<ExitCode> {
    refuse_foreign(Benchmark::Lexpilot, &args)?;
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
    let paths: Vec<PathBuf> = outputs.iter().map(|o| o.path.clone()).collect();
    let runs: Vec<_> = outputs.into_iter().map(|o| o.parsed).collect();
    let doc =
        engine::lexpilot::score::score_entries(&runs, &cases).with_dataset(scope.name.clone());
    print!("{}", server::report::render(&doc));
    if scope.file != args.dataset {
        eprintln!(
            "scores are over the first {} cases ({})",
            cases.len(),
            scope.file.display()
        );
    }
    store(&args, &scope, &paths).await
}

async fn run_plawbench(args: RunArgs) -> anyhow::Result<ExitCode> {
    refuse_foreign(Benchmark::Plawbench, &args)?;
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
    let paths: Vec<PathBuf> = outputs.iter().map(|o| o.path.clone()).collect();
    let runs: Vec<_> = outputs.into_iter().map(|o| o.parsed).collect();
    let doc =
        engine::plawbench::score::score_entries(&runs, &items).with_dataset(scope.name.clone());
    print!("{}", server::report::render_plawbench(&doc));
    if scope.file != args.dataset {
        eprintln!(
            "scores are over the first {} items ({})",
            items.len(),
            scope.file.display()
        );
    }
    store(&args, &scope, &paths).await
}

async fn run_dlawbench(args: RunArgs) -> anyhow::Result<ExitCode> {
    refuse_foreign(Benchmark::Dlawbench, &args)?;
    let file = std::fs::File::open(&args.dataset)
        .with_context(|| format!("cannot read {}", args.dataset.display()))?;
    let mut cases =
        match engine::dlawbench::dataset::parse_dataset_reader(std::io::BufReader::new(file)) {
            Ok(cases) => cases,
            Err(errors) => {
                eprintln!("{errors}");
                return Ok(ExitCode::FAILURE);
            }
        };
    let scope = scope(
        &args,
        &mut cases,
        engine::dlawbench::dataset::to_jsonl,
        "cases",
    )?;
    let job =
        pipeline::dlawbench::Job::new(dlawbench_config(&args, scope.name.clone())?, cases.clone())?;
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
    let runs: Vec<(EntryKey, RunScores)> = outputs
        .iter()
        .map(|o| {
            let scores = engine::dlawbench::score::score_run(&o.parsed, &cases);
            (o.parsed.header.entry_key(), scores)
        })
        .collect();
    let doc =
        engine::dlawbench::score::summarise_runs(runs, &cases).with_dataset(scope.name.clone());
    print!("{}", server::report::render_dlawbench(&doc));
    if scope.file != args.dataset {
        eprintln!(
            "scores are over the first {} cases ({})",
            cases.len(),
            scope.file.display()
        );
    }
    let paths: Vec<PathBuf> = outputs.iter().map(|o| o.path.clone()).collect();
    store(&args, &scope, &paths).await
}

/// With `--db`, stores the run files `runs` of `scope`'s dataset through the
/// one ingest.
async fn store(args: &RunArgs, scope: &Scope, runs: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let Some(db) = &args.db else {
        return Ok(ExitCode::SUCCESS);
    };
    crate::for_benchmark!(args.benchmark, S => store_as::<S>(db, scope, runs).await)
}

/// Imports `scope`'s dataset into `db` (an identical version is reused) and
/// stores `runs` against it in one transaction, as an upload would.
async fn store_as<S: CliSuite>(
    db: &Path,
    scope: &Scope,
    runs: &[PathBuf],
) -> anyhow::Result<ExitCode> {
    let Some(cases) = crate::dataset_or_report::<S>(&scope.file)? else {
        return Ok(ExitCode::FAILURE);
    };
    let db_path = db;
    let db = crate::open(db).await?;
    let source = scope.file.display().to_string();
    let src = ImportSource {
        name: &scope.name,
        source: &source,
        synthetic: false,
    };
    let dataset = match S::import(&db, src, &cases).await {
        Ok(ImportOutcome::Created(d)) => {
            eprintln!(
                "imported {} as dataset {} version {}",
                scope.file.display(),
                d.name,
                d.version
            );
            d
        }
        Ok(ImportOutcome::Unchanged(d)) => d,
        Err(e) => {
            eprintln!(
                "cannot import the dataset {} into {}: {e}; nothing was stored",
                scope.file.display(),
                db_path.display()
            );
            return Ok(ExitCode::FAILURE);
        }
    };
    let files = runs
        .iter()
        .map(|path| {
            std::fs::read(path)
                .map(|bytes| RunFile::new(path.display().to_string(), bytes))
                .with_context(|| format!("cannot read {}", path.display()))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    match services::ingest::store(&db, &dataset, &files, None, OnDuplicate::Refuse).await {
        Ok(stored) => {
            eprintln!(
                "stored {} run{} in {} (dataset {} version {})",
                stored.len(),
                if stored.len() == 1 { "" } else { "s" },
                db_path.display(),
                dataset.name,
                dataset.version
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("{e}\nnothing was stored in {}", db_path.display());
            Ok(ExitCode::FAILURE)
        }
    }
}
