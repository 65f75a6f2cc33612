//! The in-process runner of benchmark jobs (server only), and the checks of
//! the endpoints they use.
//!
//! [`JobManager`] is held in [`crate::ssr::AppState`]: one registry per server
//! of the jobs this process runs (a cancellation token and the task's handle
//! per job id). [`JobManager::start`] runs a queued job in a tokio task:
//!
//! 1. marks it `running`, reads the dataset version's cases (the first N
//!    with a limit) and builds a [`pipeline::config::Config`] from the
//!    endpoints copied into the job's settings ([`pipeline_config`]);
//! 2. [`pipeline::Job::new`] reads each key from the environment variable the
//!    endpoint names (an unset variable fails the job with a message naming
//!    the variable, never a value);
//! 3. runs it, writing the progress to the database at most every
//!    [`PROGRESS_EVERY`] (each write is announced on the change feed as a
//!    `jobs` event);
//! 4. when it finishes, completes each run to cover the whole dataset
//!    ([`cover_dataset`]), validates and scores it with the engine, and stores
//!    them all in one transaction ([`db::runs::store_all`], which announces
//!    `runs`), then marks the job `done`; on an error the job is `failed` with
//!    the message, on a cancel `cancelled`; nothing is stored then.
//!
//! The pipeline writes run files and its call cache under the job's out dir
//! (`<data dir>/jobs/<id>`), so a restarted job repeats no finished call. A
//! job cut off by a server stop is marked `interrupted` at the next start
//! ([`db::jobs::interrupt_unfinished`]).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use db::jobs::{EndpointFields, JobStatus, Outcome};
use db::runs::OnDuplicate;
use db::Db;
use engine::dataset::Case;
use engine::run::{DcgItem, Family, LcaItem, LjpItem, Run, Task};
use engine::vocab::Consultation;
use pipeline::config::{Config, Endpoint, Limits, Tasks, UserCondition};
use pipeline::{CancellationToken, PipelineError, Progress};
use tokio::task::JoinHandle;

use crate::server_fns::jobs::{JobEndpoint, JobProgressView, JobSpec};

/// The environment variable naming the data dir (job out dirs go under
/// `<data dir>/jobs/`).
pub const DATA_DIR_ENV: &str = "LEXPILOT_DATA_DIR";
/// The data dir when [`DATA_DIR_ENV`] is not set, relative to the working
/// directory at start-up.
pub const DEFAULT_DATA_DIR: &str = "lexpilot-data";
/// The shortest time between two progress writes of one job.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(500);
/// The most repetitions one job may make.
pub const MAX_RUNS: u32 = 20;
/// The most requests in flight per endpoint.
pub const MAX_CONCURRENCY: u32 = 64;
/// The message of a cancelled job.
pub const CANCELLED: &str =
    "cancelled by an admin; finished calls are cached, restart the job to resume";

#[derive(Debug)]
struct RunningJob {
    cancel: CancellationToken,
    /// The job's task; an entry whose task has finished is stale (the task
    /// removes its entry last, just after recording how the job ended).
    task: JoinHandle<()>,
}

impl RunningJob {
    fn is_running(&self) -> bool {
        !self.task.is_finished()
    }
}

/// The jobs this process runs; cheap to clone (one registry shared).
#[derive(Debug, Clone)]
pub struct JobManager {
    data_dir: PathBuf,
    running: Arc<Mutex<HashMap<i64, RunningJob>>>,
}

impl JobManager {
    /// A manager writing job out dirs under `data_dir` (made absolute, so a
    /// restart from another working directory finds the same cache).
    pub fn new(data_dir: impl Into<PathBuf>) -> JobManager {
        let data_dir = data_dir.into();
        JobManager {
            data_dir: std::path::absolute(&data_dir).unwrap_or(data_dir),
            running: Arc::default(),
        }
    }

    /// A manager on the data dir named by [`DATA_DIR_ENV`], else
    /// [`DEFAULT_DATA_DIR`].
    pub fn from_env() -> JobManager {
        JobManager::new(
            std::env::var_os(DATA_DIR_ENV)
                .filter(|v| !v.is_empty())
                .map_or_else(|| PathBuf::from(DEFAULT_DATA_DIR), PathBuf::from),
        )
    }

    /// Where job out dirs go.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// The out dir of job `id`.
    pub fn out_dir(&self, id: i64) -> PathBuf {
        self.data_dir.join("jobs").join(id.to_string())
    }

    fn registry(&self) -> MutexGuard<'_, HashMap<i64, RunningJob>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a cancel of job `id` was asked for and its task still runs.
    pub fn cancel_requested(&self, id: i64) -> bool {
        self.registry()
            .get(&id)
            .is_some_and(|j| j.is_running() && j.cancel.is_cancelled())
    }

    /// Asks the task of job `id` to stop; `false` if no task of this process
    /// runs it.
    pub fn cancel(&self, id: i64) -> bool {
        match self.registry().get(&id).filter(|j| j.is_running()) {
            Some(job) => {
                job.cancel.cancel();
                true
            }
            None => false,
        }
    }

    /// Runs queued `job` in a background task; see the
    /// [module documentation](self). `Err` with a message for the admin when
    /// it cannot start (its settings do not read, or a task runs it already).
    pub fn start(&self, db: &Db, job: &db::jobs::Job) -> Result<(), String> {
        let spec: JobSpec = serde_json::from_str(&job.config)
            .map_err(|e| format!("the job's stored settings cannot be read: {e}"))?;
        let dataset_id = job
            .dataset_id
            .ok_or("the dataset version of the job was deleted")?;
        let mut registry = self.registry();
        if registry.get(&job.id).is_some_and(RunningJob::is_running) {
            return Err(format!("job {} is running already", job.id));
        }
        let cancel = CancellationToken::new();
        let work = Work {
            db: db.clone(),
            id: job.id,
            dataset_id,
            spec,
            out_dir: PathBuf::from(&job.out_dir),
            created_by: job.created_by_id,
            cancel: cancel.clone(),
        };
        let running = self.running.clone();
        let (db, id) = (db.clone(), job.id);
        let task = tokio::spawn(async move {
            // A panic in the job must not leave it `running` for ever.
            if let Err(e) = tokio::spawn(work.run()).await {
                tracing::error!("benchmark job {id} stopped unexpectedly: {e}");
                let outcome = Outcome {
                    status: JobStatus::Failed,
                    progress: None,
                    error: Some("the job stopped unexpectedly; the server log has the details"),
                    runs_stored: 0,
                };
                if let Err(e) = db::jobs::finish(&db, id, outcome).await {
                    tracing::error!("benchmark job {id}: cannot record the failure: {e}");
                }
            }
            running
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&id);
        });
        registry.insert(job.id, RunningJob { cancel, task });
        Ok(())
    }
}

/// Whether environment variable `name` holds a (non-blank) value. Only this
/// yes/no leaves the server, never the value.
pub fn key_is_set(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.trim().is_empty())
}

/// One job's task.
struct Work {
    db: Db,
    id: i64,
    dataset_id: i64,
    spec: JobSpec,
    out_dir: PathBuf,
    created_by: Option<i64>,
    cancel: CancellationToken,
}

/// Why a job did not finish.
enum Stop {
    Cancelled,
    Failed(String),
}

impl Work {
    async fn run(self) {
        if let Err(e) = db::jobs::mark_running(&self.db, self.id).await {
            tracing::warn!("benchmark job {} not started: {e}", self.id);
            return;
        }
        let mut last_progress = None;
        let result = self.execute(&mut last_progress).await;
        let progress = last_progress.as_ref().map(to_json);
        let (status, error, runs_stored) = match &result {
            Ok(stored) => (JobStatus::Done, None, *stored),
            Err(Stop::Cancelled) => (JobStatus::Cancelled, Some(CANCELLED), 0),
            Err(Stop::Failed(message)) => (JobStatus::Failed, Some(message.as_str()), 0),
        };
        if let Some(message) = error {
            tracing::info!("benchmark job {} {}: {message}", self.id, status.as_str());
        }
        let outcome = Outcome {
            status,
            progress: progress.as_deref(),
            error,
            runs_stored,
        };
        if let Err(e) = db::jobs::finish(&self.db, self.id, outcome).await {
            tracing::error!("benchmark job {}: cannot record its end: {e}", self.id);
        }
    }

    /// Runs the job and stores its runs; returns how many were stored.
    async fn execute(&self, last: &mut Option<JobProgressView>) -> Result<usize, Stop> {
        if self.cancel.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        let cases = db::cases::all(&self.db, self.dataset_id)
            .await
            .map_err(|e| Stop::Failed(format!("cannot read the dataset: {e}")))?;
        let limit = self.spec.limit.map_or(cases.len(), |n| n as usize);
        let config = pipeline_config(&self.spec, self.out_dir.clone()).map_err(Stop::Failed)?;
        let job = pipeline::Job::new(config, cases.iter().take(limit).cloned().collect())
            .map_err(|e| Stop::Failed(e.to_string()))?;
        *last = Some(JobProgressView {
            total: job.total_items(),
            ..JobProgressView::default()
        });
        self.save_progress(last.as_ref()).await;

        let mut progress = job.progress();
        let run = job.run(self.cancel.clone());
        tokio::pin!(run);
        let mut tick = tokio::time::interval(PROGRESS_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let result = loop {
            tokio::select! {
                result = &mut run => break result,
                _ = tick.tick() => {
                    if progress.has_changed().unwrap_or(false) {
                        *last = Some(progress_view(&progress.borrow_and_update()));
                        self.save_progress(last.as_ref()).await;
                    }
                }
            }
        };
        *last = Some(progress_view(&progress.borrow()));
        let outputs = match result {
            Ok(outputs) => outputs,
            Err(PipelineError::Cancelled { .. }) => return Err(Stop::Cancelled),
            Err(e) => return Err(Stop::Failed(e.to_string())),
        };

        let reason = format!("not run: the job was limited to the first {limit} cases");
        let mut scored = Vec::with_capacity(outputs.len());
        for output in outputs {
            let mut run = output.parsed;
            cover_dataset(&mut run, &cases, &reason);
            let run = engine::run::parse_run(&run.to_jsonl(), &cases).map_err(|errors| {
                Stop::Failed(format!(
                    "run {} does not validate against the dataset: {errors}",
                    output.run
                ))
            })?;
            let scores = engine::score::score_run(&run, &cases);
            scored.push((run, scores));
        }
        let batch: Vec<_> = scored.iter().map(|(run, scores)| (run, scores)).collect();
        let stored = db::runs::store_all(
            &self.db,
            self.dataset_id,
            &batch,
            self.created_by,
            OnDuplicate::Refuse,
        )
        .await
        .map_err(|e| Stop::Failed(format!("cannot store the runs: {e}")))?;
        Ok(stored.len())
    }

    async fn save_progress(&self, progress: Option<&JobProgressView>) {
        let Some(progress) = progress else { return };
        if let Err(e) = db::jobs::set_progress(&self.db, self.id, &to_json(progress)).await {
            tracing::warn!("benchmark job {}: cannot record progress: {e}", self.id);
        }
    }
}

fn to_json(progress: &JobProgressView) -> String {
    serde_json::to_string(progress).unwrap_or_else(|_| "{}".to_owned())
}

fn progress_view(p: &Progress) -> JobProgressView {
    JobProgressView {
        done: p.done,
        total: p.total,
        failures: p.failures,
        calls: p.calls,
        cached_calls: p.cached_calls,
        retries: p.retries,
        runs_written: p.runs_written,
        elapsed_secs: p.elapsed.as_secs_f64(),
    }
}

fn endpoint(e: &JobEndpoint, judge: bool) -> Endpoint {
    let base = if judge {
        Endpoint::judge(&e.base_url, &e.model)
    } else {
        Endpoint::new(&e.base_url, &e.model)
    };
    Endpoint {
        key_env: e.key_env.clone(),
        vendor: e.vendor.clone(),
        ..base
    }
}

/// The run-header dataset name of a job: the dataset's, with `-firstN` when
/// limited to the first N cases (a separate leaderboard entry, as with
/// `lexpilot run --limit`).
pub fn header_dataset(spec: &JobSpec) -> String {
    match spec.limit {
        Some(n) => format!("{}-first{n}", spec.dataset),
        None => spec.dataset.clone(),
    }
}

/// The pipeline configuration of `spec`, writing under `out_dir`; `Err` with
/// a message for the admin when the settings cannot run. Keys are not read
/// here ([`pipeline::Job::new`] does).
pub fn pipeline_config(spec: &JobSpec, out_dir: PathBuf) -> Result<Config, String> {
    let tasks = Tasks::parse(&spec.tasks.join(","))?;
    let condition = UserCondition::parse(&spec.user_condition).ok_or_else(|| {
        format!(
            "unknown user condition {:?}; expected one of {}",
            spec.user_condition,
            UserCondition::ALL.map(UserCondition::as_str).join(", ")
        )
    })?;
    let family = match spec.family.as_deref() {
        None => None,
        Some(f) => Some(
            Family::parse(f)
                .ok_or_else(|| format!("unknown family {f:?}; expected legal, open or closed"))?,
        ),
    };
    if !(1..=MAX_RUNS).contains(&spec.runs) {
        return Err(format!("runs must be between 1 and {MAX_RUNS}"));
    }
    if spec.first_run == 0 {
        return Err("the first run number must be at least 1".into());
    }
    if !(1..=MAX_CONCURRENCY).contains(&spec.concurrency) {
        return Err(format!(
            "concurrency must be between 1 and {MAX_CONCURRENCY}"
        ));
    }
    if spec.limit == Some(0) {
        return Err("the limit must be at least 1".into());
    }
    let Some(first_judge) = spec.judges.first() else {
        return Err("pick at least one judge endpoint".into());
    };
    let model = endpoint(&spec.model, false);
    let user = match &spec.user {
        Some(user) => endpoint(user, false),
        None if tasks.uses_user_model() => {
            return Err("dcg and ljp:interaction need a user model endpoint".into())
        }
        // Not called; the run header then names no user model.
        None => model.clone(),
    };
    let mut config = Config::new(model, user, endpoint(first_judge, true), out_dir);
    config.judges = spec.judges.iter().map(|j| endpoint(j, true)).collect();
    config.family = family;
    config.tasks = tasks;
    config.user_condition = condition;
    config.runs = spec.runs;
    config.first_run = spec.first_run;
    config.dataset_name = Some(header_dataset(spec));
    config.limits = Limits {
        concurrency: spec.concurrency as usize,
        requests_per_minute: None,
    };
    Ok(config)
}

/// Adds to `run` an unavailable item (saying `reason`) for every case of
/// `cases` it has no item of, in each task and LJP setup it contains: a job
/// limited to the first N cases then still covers the dataset version it is
/// stored on, and the cases it did not run are counted as unavailable, never
/// scored.
pub fn cover_dataset(run: &mut Run, cases: &[Case], reason: &str) {
    let seen: HashSet<&str> = run
        .lca
        .iter()
        .map(|i| i.case_id.as_str())
        .chain(run.dcg.iter().map(|i| i.case_id.as_str()))
        .chain(run.ljp.iter().map(|i| i.case_id.as_str()))
        .collect();
    let missing: Vec<&Case> = cases
        .iter()
        .filter(|c| !seen.contains(c.case_id.as_str()))
        .collect();
    let (lca, dcg, setups) = (run.has(Task::Lca), run.has(Task::Dcg), run.ljp_setups());
    let unavailable = Some(reason.to_owned());
    for case in missing {
        if lca {
            run.lca
                .extend(Consultation::ALL.map(|consultation| LcaItem {
                    case_id: case.case_id.clone(),
                    consultation,
                    label: None,
                    response: None,
                    unavailable: unavailable.clone(),
                }));
        }
        if dcg {
            run.dcg.push(DcgItem {
                case_id: case.case_id.clone(),
                requests: Vec::new(),
                unavailable: unavailable.clone(),
            });
        }
        run.ljp.extend(setups.iter().map(|&setup| LjpItem {
            case_id: case.case_id.clone(),
            setup,
            predictions: None,
            response: None,
            dialogue: None,
            unavailable: unavailable.clone(),
        }));
    }
}

/// An endpoint as typed in the form.
#[derive(Debug, Clone, Copy)]
pub struct EndpointInput<'a> {
    pub name: &'a str,
    pub base_url: &'a str,
    pub model: &'a str,
    pub key_env: Option<&'a str>,
    pub vendor: Option<&'a str>,
}

/// Whether `s` is an environment variable name: `[A-Z_][A-Z0-9_]*`.
///
/// ```
/// use app::jobs::is_env_var_name;
/// assert!(is_env_var_name("DEEPSEEK_API_KEY"));
/// assert!(!is_env_var_name("1KEY") && !is_env_var_name("api-key") && !is_env_var_name(""));
/// ```
pub fn is_env_var_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_uppercase() || c == '_')
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Whether `s` starts like an API key or a credential: a known key prefix
/// (`sk-`, `hf_`, …) or a `Bearer` header.
pub fn looks_like_key(s: &str) -> bool {
    const PREFIXES: [&str; 9] = [
        "sk-",
        "sk_",
        "bearer ",
        "gsk_",
        "hf_",
        "xai-",
        "ghp_",
        "github_pat_",
        "akia",
    ];
    let lower = s.trim().to_ascii_lowercase();
    PREFIXES.iter().any(|p| lower.starts_with(p))
}

/// Whether a would-be variable name looks like a key: a key prefix, or 20
/// characters or more with digits and no `_` (variable names have one; an
/// all-capitals key such as an access key id has none).
fn key_not_name(s: &str) -> bool {
    looks_like_key(s)
        || (s.len() >= 20 && !s.contains('_') && s.chars().any(|c| c.is_ascii_digit()))
}

const KEY_REFUSED: &str = "looks like an API key, which is never stored here; put the key in an \
     environment variable of the server and enter the variable's NAME (such as DEEPSEEK_API_KEY)";

/// Checks and trims an endpoint typed in the form. Messages never repeat a
/// value that looks like a key.
pub fn check_endpoint<'a>(input: &EndpointInput<'a>) -> Result<EndpointFields<'a>, String> {
    let name = input.name.trim();
    let base_url = input.base_url.trim();
    let model = input.model.trim();
    let key_env = input.key_env.map(str::trim).filter(|k| !k.is_empty());
    let vendor = input.vendor.map(str::trim).filter(|v| !v.is_empty());
    for (field, value) in [("the name", name), ("the model", model)]
        .into_iter()
        .chain(vendor.map(|v| ("the vendor", v)))
    {
        if looks_like_key(value) {
            return Err(format!("{field} {KEY_REFUSED}"));
        }
    }
    if name.is_empty() || name.chars().count() > 64 {
        return Err("an endpoint name needs 1 to 64 characters".into());
    }
    for (field, value) in [("the endpoint name", name), ("the model name", model)] {
        engine::names::check_name(value).map_err(|message| format!("{field} {message}"))?;
    }
    check_url(base_url)?;
    if let Some(var) = key_env {
        if key_not_name(var) {
            return Err(format!("the key variable {KEY_REFUSED}"));
        }
        if !is_env_var_name(var) || var.len() > 128 {
            return Err(
                "the key variable must be an environment variable NAME: capital letters, digits \
                 and _, not starting with a digit (such as OPENAI_API_KEY)"
                    .into(),
            );
        }
    }
    if let Some(v) = vendor {
        let ok = v.chars().count() <= 64
            && v.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ' '));
        if !ok {
            return Err("a vendor is up to 64 letters, digits, spaces, - _ or .".into());
        }
    }
    Ok(EndpointFields {
        name,
        base_url,
        model,
        key_env,
        vendor,
    })
}

/// An `http(s)://host…` URL without credentials in it: no user info, no
/// key-like query parameter, no path segment or value starting like a key.
fn check_url(url: &str) -> Result<(), String> {
    let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
    else {
        return Err("the base URL must start with http:// or https://".into());
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.is_empty() || url.len() > 2048 || url.chars().any(char::is_whitespace) {
        return Err(
            "the base URL needs a host and no spaces, such as https://api.example.com/v1".into(),
        );
    }
    let after_host = &rest[authority.len()..];
    let query = after_host.split_once('?').map_or("", |(_, q)| q);
    let lower_query = query.to_ascii_lowercase();
    let key_param = ["key=", "token=", "secret=", "password="]
        .iter()
        .any(|k| lower_query.contains(k));
    let key_part = after_host
        .split(['/', '?', '&', '=', '#'])
        .any(looks_like_key);
    if authority.contains('@') || key_param || key_part {
        return Err(format!("the base URL {KEY_REFUSED}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<'a>(key_env: Option<&'a str>) -> EndpointInput<'a> {
        EndpointInput {
            name: " deepseek ",
            base_url: "https://api.deepseek.com/v1",
            model: "DeepSeek-V4.1-Flash",
            key_env,
            vendor: Some("deepseek"),
        }
    }

    #[test]
    fn endpoints_name_key_variables_and_never_keys() {
        let ok = check_endpoint(&input(Some("DEEPSEEK_API_KEY"))).expect("valid");
        assert_eq!(
            (ok.name, ok.key_env),
            ("deepseek", Some("DEEPSEEK_API_KEY"))
        );
        assert_eq!(
            check_endpoint(&input(Some("  "))).expect("no key").key_env,
            None
        );
        for key in [
            "sk-abcdef0123456789abcdef",
            "SK-PROJ-ABC",
            "Bearer abc",
            "AKIAIOSFODNN7EXAMPLE",
            "0123456789ABCDEF0123456789ABCDEF",
            "ABCDEFGHIJ0123456789",
        ] {
            let e = check_endpoint(&input(Some(key))).expect_err(key);
            assert!(e.contains("looks like an API key"), "{e}");
            assert!(!e.contains(key), "the message repeats the key: {e}");
        }
        let e = check_endpoint(&input(Some("deepseek-key"))).expect_err("syntax");
        assert!(e.contains("NAME"), "{e}");
        let model_key = EndpointInput {
            model: "sk-live-123456",
            ..input(None)
        };
        assert!(check_endpoint(&model_key).is_err());
        for model in [
            "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
            "DeepSeek-R1-Distill-Qwen-32B",
            "claude-3-5-sonnet-20241022",
        ] {
            let named = EndpointInput {
                model,
                ..input(None)
            };
            assert!(check_endpoint(&named).is_ok(), "{model}");
        }
    }

    #[test]
    fn base_urls_are_http_without_credentials() {
        for bad in [
            "ftp://h/v1",
            "https://",
            "https://user:pw@h/v1",
            "https://h/v1?api_key=abc",
            "https://h /v1",
            "https://h/v1/sk-abc123/",
            "https://h/v1?x=sk-abc123",
        ] {
            let url = EndpointInput {
                base_url: bad,
                ..input(None)
            };
            assert!(check_endpoint(&url).is_err(), "{bad}");
        }
        for good in [
            "http://127.0.0.1:8000/v1",
            "https://desk-api.example.com/v1",
            "https://h.openai.azure.com/openai/deployments/x?api-version=2024-06-01",
        ] {
            let url = EndpointInput {
                base_url: good,
                ..input(None)
            };
            assert!(check_endpoint(&url).is_ok(), "{good}");
        }
    }

    fn spec() -> JobSpec {
        let e = |id, model: &str| JobEndpoint {
            id,
            name: model.to_lowercase(),
            base_url: "http://127.0.0.1:9/v1".into(),
            model: model.into(),
            key_env: Some("K".into()),
            vendor: None,
        };
        JobSpec {
            dataset: "demo".into(),
            model: e(1, "M"),
            user: None,
            judges: vec![e(2, "J")],
            tasks: vec!["lca".into(), "ljp:gold".into()],
            runs: 2,
            first_run: 3,
            concurrency: 4,
            user_condition: "standard".into(),
            limit: Some(5),
            family: Some("open".into()),
        }
    }

    #[test]
    fn a_spec_becomes_the_pipeline_configuration() {
        let config = pipeline_config(&spec(), PathBuf::from("/out")).expect("config");
        assert_eq!(config.dataset_name.as_deref(), Some("demo-first5"));
        assert_eq!((config.runs, config.first_run), (2, 3));
        assert_eq!(config.judges[0].settings, pipeline::config::Settings::JUDGE);
        assert_eq!(config.model.key_env.as_deref(), Some("K"));
        assert_eq!(config.family, Some(Family::Open));
        assert_eq!(config.limits.concurrency, 4);

        let needs_user = JobSpec {
            tasks: vec!["dcg".into()],
            ..spec()
        };
        assert!(pipeline_config(&needs_user, PathBuf::new())
            .expect_err("no user")
            .contains("user model"));
        for bad in [
            JobSpec {
                judges: Vec::new(),
                ..spec()
            },
            JobSpec { runs: 0, ..spec() },
            JobSpec {
                concurrency: 0,
                ..spec()
            },
            JobSpec {
                user_condition: "grumpy".into(),
                ..spec()
            },
            JobSpec {
                tasks: Vec::new(),
                ..spec()
            },
        ] {
            assert!(pipeline_config(&bad, PathBuf::new()).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_limited_run_is_completed_with_unavailable_items() {
        let cases =
            engine::dataset::parse_dataset(include_str!("../../server/data/demo-synthetic.jsonl"))
                .expect("demo dataset");
        let first: Vec<Case> = cases.iter().take(2).cloned().collect();
        let mut run = engine::run::parse_run(&engine::synthetic::run_file(&first, 0, 1, 1), &first)
            .expect("a run of two cases");
        let before = run.unavailable();
        cover_dataset(&mut run, &cases, "not run");
        let parsed = engine::run::parse_run(&run.to_jsonl(), &cases).expect("covers the dataset");
        let after = parsed.unavailable();
        let added = cases.len() - 2;
        assert_eq!(after.lca, before.lca + 2 * added);
        assert_eq!(after.dcg, before.dcg + added);
        assert_eq!(after.ljp.len(), 3);
        for (setup, n) in &after.ljp {
            assert_eq!(*n, before.ljp[setup] + added);
        }
    }
}
