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
use engine::core::entry::Family;
use engine::lexpilot::dataset::Case;
use engine::lexpilot::fidelity::Probe;
use engine::lexpilot::score::ScoreDocument;
use engine::lexpilot::targeted::{score_targeted, TargetedScores};
use pipeline::config::{Endpoint, Limits, RetryPolicy, Settings};
use services::datasets::DatasetSuite;
use services::ingest::RunFile;

use crate::run_command::{follow, parse_family, seconds};

#[derive(Debug, Subcommand)]
pub enum ExperimentCommand {
    /// The Targeted vs Off-target experiment (Table 4): per underspecified case, dialogues
    /// constructed to recover (targeted) or avoid (off-target) the missing facts, validated by
    /// the judge (at most 5 attempts), then the model's direct prediction on each accepted
    /// dialogue; writes one result file per run
    Targeted(Box<TargetedArgs>),
    /// The user-simulator fidelity study (Table 13): the user model's reply to each probe's
    /// direct, indirect, broad and withheld question, and the DCG judge's decision on each
    /// question; with --db, the replies become review items for two experts
    Fidelity(Box<FidelityArgs>),
    /// Draw the cases to write fidelity probes for (two per cause, as the paper) and print a
    /// probe file to fill in, one line per case with its missing facts
    FidelitySample {
        /// The dataset file
        #[arg(long)]
        dataset: PathBuf,
        /// Cases per cause
        #[arg(long, default_value_t = engine::lexpilot::fidelity::PER_CAUSE)]
        per_cause: usize,
        /// The draw's seed (the default draws the cases the probes page lists)
        #[arg(long, default_value_t = engine::lexpilot::fidelity::SEED)]
        seed: u64,
    },
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

/// How the experiments call their endpoints: the flags `fidelity` and
/// `targeted` share.
#[derive(Debug, Args)]
pub struct CallArgs {
    /// Requests in flight at once, per endpoint
    #[arg(long, default_value_t = 4)]
    concurrency: usize,
    /// Requests started per minute, per endpoint
    #[arg(long)]
    rpm: Option<u32>,
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
}

impl CallArgs {
    fn limits(&self) -> Limits {
        Limits {
            concurrency: self.concurrency,
            requests_per_minute: self.rpm,
        }
    }

    fn retry(&self) -> anyhow::Result<RetryPolicy> {
        Ok(RetryPolicy {
            max_attempts: self.max_attempts,
            judge_attempts: self.judge_attempts.unwrap_or(self.max_attempts),
            base_delay: seconds(self.retry_delay, "--retry-delay")?,
            timeout: seconds(self.timeout, "--timeout")?,
            ..RetryPolicy::default()
        })
    }
}

/// The arguments of `lexpilot experiment fidelity`.
#[derive(Debug, Args)]
pub struct FidelityArgs {
    /// The dataset file (docs/formats.md §2)
    #[arg(long)]
    dataset: PathBuf,
    /// The probe file (JSON Lines, one probe per case; engine::lexpilot::fidelity documents it)
    #[arg(long)]
    probes: PathBuf,
    /// The user model under study (the standard user prompt)
    #[arg(long)]
    user_model: String,
    /// The user model's base URL (OpenAI-compatible)
    #[arg(long)]
    user_url: String,
    /// Environment variable holding the user model's API key
    #[arg(long)]
    user_key_env: Option<String>,
    /// The DCG judge (the main evaluation's)
    #[arg(long)]
    judge: String,
    /// The judge's base URL
    #[arg(long)]
    judge_url: String,
    /// Environment variable holding the judge's API key
    #[arg(long)]
    judge_key_env: Option<String>,
    /// The user model's temperature
    #[arg(long, default_value_t = Settings::GENERATION.temperature)]
    user_temperature: f64,
    /// The judge's temperature
    #[arg(long, default_value_t = Settings::JUDGE.temperature)]
    judge_temperature: f64,
    /// max_tokens of both roles
    #[arg(long, default_value_t = Settings::GENERATION.max_tokens)]
    max_tokens: u32,
    #[command(flatten)]
    calls: CallArgs,
    /// The dataset name for the header (default: the file name without extension)
    #[arg(long)]
    dataset_name: Option<String>,
    /// Where the result file, its usage sidecar and the call cache go
    #[arg(long)]
    out: PathBuf,
    /// Also store the probes and replies in this SQLite database, each reply a review item
    /// for two experts to label
    #[arg(long)]
    db: Option<PathBuf>,
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
    #[command(flatten)]
    calls: CallArgs,
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
        ExperimentCommand::Fidelity(args) => fidelity(*args).await,
        ExperimentCommand::FidelitySample {
            dataset,
            per_cause,
            seed,
        } => {
            let Some(cases) = crate::dataset_or_report::<LexPilot>(&dataset)? else {
                return Ok(ExitCode::FAILURE);
            };
            print!("{}", fidelity_template(&cases, per_cause, seed));
            Ok(ExitCode::SUCCESS)
        }
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
            // The operator at the command line holds the database: an admin.
            let on_duplicate = OnDuplicate::replacing(replace, engine::accounts::Replacer::Admin);
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
    config.limits = args.calls.limits();
    config.retry = args.calls.retry()?;
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

/// A probe file to fill in: one line per drawn case, with the target fact
/// left for the experts to choose among the missing ones (listed).
fn fidelity_template(cases: &[Case], per_cause: usize, seed: u64) -> String {
    let drawn = engine::lexpilot::fidelity::sample_cases(cases, per_cause, seed);
    let mut out = String::new();
    for id in drawn {
        let Some(case) = cases.iter().find(|c| c.case_id == id) else {
            continue;
        };
        let missing: Vec<String> = case
            .missing_key_facts()
            .map(|k| format!("{}：{}", k.id, k.text))
            .collect();
        let mut line = serde_json::to_value(Probe::draft(case)).unwrap_or_default();
        if let Some(map) = line.as_object_mut() {
            map.insert("_missing_facts".into(), missing.into());
        }
        out.push_str(&format!("{line}\n"));
    }
    out
}

async fn fidelity(args: FidelityArgs) -> anyhow::Result<ExitCode> {
    use engine::lexpilot::fidelity::{parse_probes, study, Condition, LabelledReply};
    let Some(cases) = crate::dataset_or_report::<LexPilot>(&args.dataset)? else {
        return Ok(ExitCode::FAILURE);
    };
    let name = args
        .dataset_name
        .clone()
        .unwrap_or_else(|| stem(&args.dataset));
    let probe_text = std::fs::read_to_string(&args.probes)
        .with_context(|| format!("cannot read {}", args.probes.display()))?;
    let probes = match parse_probes(&probe_text, &cases) {
        Ok(p) => p,
        Err(errors) => {
            eprintln!(
                "{} is not a valid probe file ({} error(s)):",
                args.probes.display(),
                errors.len()
            );
            for e in errors {
                eprintln!("  {e}");
            }
            return Ok(ExitCode::FAILURE);
        }
    };
    let settings = |temperature| Settings {
        temperature,
        max_tokens: args.max_tokens,
    };
    let mut config = pipeline::fidelity::Config::new(
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
    config.dataset_name = Some(name.clone());
    config.limits = args.calls.limits();
    config.retry = args.calls.retry()?;
    let job = pipeline::fidelity::Job::new(config, probes, &cases)?;
    let Some(output) = follow(job.total_items(), job.progress(), |c| job.run(c)).await? else {
        return Ok(ExitCode::from(130));
    };
    eprintln!(
        "{} replies in {} ({} prompt + {} completion tokens)",
        output.parsed.replies.len(),
        output.path.display(),
        output.usage.prompt_tokens,
        output.usage.completion_tokens
    );
    let unlabelled: Vec<LabelledReply> = output
        .parsed
        .replies
        .iter()
        .map(|r| LabelledReply {
            case_id: r.case_id.clone(),
            condition: r.condition,
            dcg_accepted: r.dcg_accepted,
            final_marks: None,
            blind: Vec::new(),
        })
        .collect();
    let table = study(&unlabelled).table;
    println!("{}", table.caption);
    for (r, c) in Condition::ALL.iter().enumerate() {
        println!("  {:<14} DCG+ {}", c.label_en(), table.text(r, 3));
    }
    let unavailable = output
        .parsed
        .replies
        .iter()
        .filter(|r| r.unavailable.is_some())
        .count();
    if unavailable > 0 {
        eprintln!("{unavailable} replies are unavailable (their reasons are in the file)");
    }
    let Some(db_path) = &args.db else {
        println!("the answer, over-disclosure and error columns come from the experts' labels: store the study with --db");
        return Ok(ExitCode::SUCCESS);
    };
    let db = crate::open(db_path).await?;
    let Some(dataset) = import_dataset(&db, &args.dataset, &name, &cases).await? else {
        return Ok(ExitCode::FAILURE);
    };
    let read = |path: &Path| {
        std::fs::read(path)
            .map(|bytes| RunFile::new(path.display().to_string(), bytes))
            .with_context(|| format!("cannot read {}", path.display()))
    };
    let stored = async {
        let probes = services::fidelity::store_probes(
            &db,
            &dataset,
            &read(&args.probes)?,
            None,
            engine::accounts::Replacer::Admin,
        )
        .await?;
        let items =
            services::fidelity::store_study(&db, &dataset, &read(&output.path)?, None).await?;
        anyhow::Ok((probes, items))
    };
    match stored.await {
        Ok((probes, items)) => {
            eprintln!(
                "stored {} probes and the study in {} (dataset {} version {}): {} review items \
                 for the experts, {} existing",
                probes.created + probes.existing,
                db_path.display(),
                dataset.name,
                dataset.version,
                items.created,
                items.existing
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("{e}\nthe study was not stored in {}", db_path.display());
            Ok(ExitCode::FAILURE)
        }
    }
}

/// Imports the dataset (or reuses its identical version); `None` (reported)
/// when it cannot be imported.
async fn import_dataset(
    db: &db::Db,
    dataset_file: &Path,
    name: &str,
    cases: &[Case],
) -> anyhow::Result<Option<DatasetInfo>> {
    let source = dataset_file.display().to_string();
    let src = ImportSource {
        name,
        source: &source,
        synthetic: false,
    };
    match LexPilot::import(db, src, cases).await {
        Ok(ImportOutcome::Created(d)) => {
            eprintln!(
                "imported {} as dataset {} version {}",
                dataset_file.display(),
                d.name,
                d.version
            );
            Ok(Some(d))
        }
        Ok(ImportOutcome::Unchanged(d)) => Ok(Some(d)),
        Err(e) => {
            eprintln!("cannot import the dataset {source}: {e}; nothing was stored");
            Ok(None)
        }
    }
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
    let Some(dataset) = import_dataset(&db, dataset_file, name, cases).await? else {
        return Ok(ExitCode::FAILURE);
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
