//! `lexpilot experiment`: the paper's experiments beyond the benchmark's
//! tasks. `targeted` runs the Targeted vs Off-target experiment (Table 4,
//! Appendix E.7; [`pipeline::targeted::Job`]: the evaluated model, the user
//! model and one judge), with the same progress bar, Ctrl-C handling and
//! resumable call cache as `lexpilot run`, prints Table 4 of the runs it
//! wrote and, with `--db`, stores them ([`services::targeted::store`]);
//! `store-targeted` stores result files made elsewhere. Direct QWK beside
//! them comes from the model's stored Direct runs, on the `/paper` page.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
use db::datasets::{DatasetInfo, ImportOutcome, ImportSource};
use db::runs::OnDuplicate;
use engine::benchmark::LexPilot;
use engine::lexpilot::dataset::Case;
use engine::lexpilot::run::Family;
use engine::lexpilot::score::ScoreDocument;
use engine::lexpilot::targeted::{score_targeted, TargetedScores};
use pipeline::config::{Endpoint, Limits, RetryPolicy, Settings};
use server::suites::CliSuite;
use services::ingest::RunFile;

use crate::run_command::{follow, parse_family, seconds};

#[derive(Debug, Subcommand)]
pub enum ExperimentCommand {
    /// The Targeted vs Off-target experiment (Table 4): per underspecified case, dialogues
    /// constructed to recover (targeted) or avoid (off-target) the missing facts, validated by
    /// the judge (at most 5 attempts), then the model's direct prediction on each accepted
    /// dialogue; writes one result file per run
    Targeted(Box<TargetedArgs>),
    /// Store Targeted vs Off-target result files in the database (validated against the
    /// dataset, which is imported first or its identical version reused)
    StoreTargeted {
        /// The dataset file the results were made on
        #[arg(long)]
        dataset: PathBuf,
        /// The dataset's name (default: the file name without extension)
        #[arg(long)]
        dataset_name: Option<String>,
        /// SQLite database file
        #[arg(long, env = "LEXPILOT_DB")]
        db: PathBuf,
        /// Replace stored results of the same model and run
        #[arg(long)]
        replace: bool,
        /// The result files
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// The arguments of `lexpilot experiment targeted`.
#[derive(Debug, Args)]
pub struct TargetedArgs {
    /// The dataset file (docs/formats.md §2); cases without a missing fact are left out
    #[arg(long)]
    dataset: PathBuf,
    /// The evaluated model's name
    #[arg(long)]
    model: String,
    /// The evaluated model's base URL (OpenAI-compatible, e.g. https://host/v1)
    #[arg(long)]
    model_url: String,
    /// Environment variable holding the evaluated model's API key
    #[arg(long)]
    model_key_env: Option<String>,
    /// The evaluated model's group: legal, open or closed
    #[arg(long, value_parser = parse_family)]
    family: Option<Family>,
    /// The user model (simulated plaintiff, the standard user prompt)
    #[arg(long)]
    user_model: String,
    /// The user model's base URL
    #[arg(long)]
    user_url: String,
    /// Environment variable holding the user model's API key
    #[arg(long)]
    user_key_env: Option<String>,
    /// The judge (dialogue validation and verdict extraction)
    #[arg(long)]
    judge: String,
    /// The judge's base URL
    #[arg(long)]
    judge_url: String,
    /// Environment variable holding the judge's API key
    #[arg(long)]
    judge_key_env: Option<String>,
    /// Repetitions of the whole procedure (the paper: 5)
    #[arg(long, default_value_t = pipeline::config::PAPER_RUNS)]
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
    /// The judge's temperature
    #[arg(long, default_value_t = Settings::JUDGE.temperature)]
    judge_temperature: f64,
    /// max_tokens of every role
    #[arg(long, default_value_t = Settings::GENERATION.max_tokens)]
    max_tokens: u32,
    /// Time limit of one request, in seconds
    #[arg(long, default_value_t = 600.0)]
    timeout: f64,
    /// Attempts per call (429, 5xx and timeouts are retried)
    #[arg(long, default_value_t = 6)]
    max_attempts: u32,
    /// Requests to the judge until its reply parses [default: --max-attempts]
    #[arg(long)]
    judge_attempts: Option<u32>,
    /// Backoff before the first retry, in seconds
    #[arg(long, default_value_t = 1.0)]
    retry_delay: f64,
    /// The dataset name for the header (default: the file name without extension)
    #[arg(long)]
    dataset_name: Option<String>,
    /// Where result files, usage sidecars and the call cache go
    #[arg(long)]
    out: PathBuf,
    /// Also store the results in this SQLite database
    #[arg(long)]
    db: Option<PathBuf>,
}

fn endpoint(url: &str, name: &str, key_env: &Option<String>, settings: Settings) -> Endpoint {
    let mut e = Endpoint::new(url, name);
    e.key_env = key_env.clone();
    e.settings = settings;
    e
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "dataset".into())
}

/// Runs `lexpilot experiment`.
pub async fn run(command: ExperimentCommand) -> anyhow::Result<ExitCode> {
    match command {
        ExperimentCommand::Targeted(args) => targeted(*args).await,
        ExperimentCommand::StoreTargeted {
            dataset,
            dataset_name,
            db,
            replace,
            files,
        } => {
            let Some(cases) = crate::dataset_or_report::<LexPilot>(&dataset)? else {
                return Ok(ExitCode::FAILURE);
            };
            let name = dataset_name.unwrap_or_else(|| stem(&dataset));
            let on_duplicate = if replace {
                OnDuplicate::Replace
            } else {
                OnDuplicate::Refuse
            };
            store(&db, &dataset, &name, &cases, &files, on_duplicate).await
        }
    }
}

async fn targeted(args: TargetedArgs) -> anyhow::Result<ExitCode> {
    let Some(mut cases) = crate::dataset_or_report::<LexPilot>(&args.dataset)? else {
        return Ok(ExitCode::FAILURE);
    };
    let mut name = args
        .dataset_name
        .clone()
        .unwrap_or_else(|| stem(&args.dataset));
    let mut dataset_file = args.dataset.clone();
    if let Some(limit) = args.limit.filter(|&n| n < cases.len()) {
        anyhow::ensure!(limit > 0, "--limit must be at least 1");
        cases.truncate(limit);
        name = format!("{name}-first{limit}");
        std::fs::create_dir_all(&args.out)
            .with_context(|| format!("cannot create {}", args.out.display()))?;
        dataset_file = args
            .out
            .join(format!("{}-first{limit}.jsonl", stem(&args.dataset)));
        std::fs::write(&dataset_file, engine::lexpilot::dataset::to_jsonl(&cases))
            .with_context(|| format!("cannot write {}", dataset_file.display()))?;
        eprintln!(
            "running the first {limit} cases; they are in {}",
            dataset_file.display()
        );
    }
    let settings = |temperature| Settings {
        temperature,
        max_tokens: args.max_tokens,
    };
    let mut config = pipeline::targeted::Config::new(
        endpoint(
            &args.model_url,
            &args.model,
            &args.model_key_env,
            settings(args.temperature),
        ),
        endpoint(
            &args.user_url,
            &args.user_model,
            &args.user_key_env,
            settings(args.user_temperature),
        ),
        endpoint(
            &args.judge_url,
            &args.judge,
            &args.judge_key_env,
            settings(args.judge_temperature),
        ),
        args.out.clone(),
    );
    config.family = args.family;
    config.runs = args.runs;
    config.first_run = args.first_run;
    config.dataset_name = Some(name.clone());
    config.limits = Limits {
        concurrency: args.concurrency,
        requests_per_minute: args.rpm,
    };
    config.retry = RetryPolicy {
        max_attempts: args.max_attempts,
        judge_attempts: args.judge_attempts.unwrap_or(args.max_attempts),
        base_delay: seconds(args.retry_delay, "--retry-delay")?,
        timeout: seconds(args.timeout, "--timeout")?,
        ..RetryPolicy::default()
    };
    let job = pipeline::targeted::Job::new(config, cases.clone())?;
    let Some(outputs) = follow(job.total_items(), job.progress(), |c| job.run(c)).await? else {
        return Ok(ExitCode::from(130));
    };
    let mut scores: Vec<TargetedScores> = Vec::new();
    for o in &outputs {
        eprintln!(
            "run {}: {} ({} prompt + {} completion tokens; usage in {})",
            o.run,
            o.path.display(),
            o.usage.prompt_tokens,
            o.usage.completion_tokens,
            o.usage_path.display()
        );
        scores.push(score_targeted(&o.parsed, &cases));
    }
    print!("{}", render(&scores));
    let Some(db) = &args.db else {
        return Ok(ExitCode::SUCCESS);
    };
    let paths: Vec<PathBuf> = outputs.iter().map(|o| o.path.clone()).collect();
    store(
        db,
        &dataset_file,
        &name,
        &cases,
        &paths,
        OnDuplicate::Refuse,
    )
    .await
}

/// Table 4 of `scores` as text: its columns, one row per model, then the
/// unresolved cases. Direct is left to the `/paper` page, which has the
/// model's stored Direct runs.
fn render(scores: &[TargetedScores]) -> String {
    let no_direct = ScoreDocument {
        dataset: None,
        cases: 0,
        entries: Vec::new(),
    };
    let (table, unresolved) = engine::lexpilot::paper::table_4(&no_direct, scores);
    let mut out = format!("{}\n", table.caption);
    for (r, row) in table.rows.iter().enumerate() {
        out.push_str(&format!("{}\n", row.label));
        for (c, column) in table.columns.iter().enumerate().skip(1) {
            out.push_str(&format!("  {:<24} {}\n", column.label, table.text(r, c)));
        }
    }
    if !unresolved.is_empty() {
        out.push_str("unresolved (excluded from scoring):\n");
        for u in &unresolved {
            let runs: Vec<String> = u.runs.iter().map(u32::to_string).collect();
            out.push_str(&format!(
                "  {} {} {} (runs {})\n",
                u.model,
                u.condition,
                u.case_id,
                runs.join(", ")
            ));
        }
    }
    out
}

/// Imports the dataset (or reuses its identical version) and stores the
/// result files against it, all or none.
async fn store(
    db_path: &Path,
    dataset_file: &Path,
    name: &str,
    cases: &[Case],
    files: &[PathBuf],
    on_duplicate: OnDuplicate,
) -> anyhow::Result<ExitCode> {
    let db = crate::open(db_path).await?;
    let source = dataset_file.display().to_string();
    let src = ImportSource {
        name,
        source: &source,
        synthetic: false,
    };
    let dataset: DatasetInfo = match LexPilot::import(&db, src, cases).await {
        Ok(ImportOutcome::Created(d)) => {
            eprintln!(
                "imported {} as dataset {} version {}",
                dataset_file.display(),
                d.name,
                d.version
            );
            d
        }
        Ok(ImportOutcome::Unchanged(d)) => d,
        Err(e) => {
            eprintln!("cannot import the dataset {source}: {e}; nothing was stored");
            return Ok(ExitCode::FAILURE);
        }
    };
    let files = files
        .iter()
        .map(|path| {
            std::fs::read(path)
                .map(|bytes| RunFile::new(path.display().to_string(), bytes))
                .with_context(|| format!("cannot read {}", path.display()))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    match services::targeted::store(&db, &dataset, &files, None, on_duplicate).await {
        Ok(stored) => {
            eprintln!(
                "stored {} Targeted vs Off-target result{} in {} (dataset {} version {})",
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
