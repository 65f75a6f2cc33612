//! The in-process runner of benchmark jobs (server only), and the checks of
//! the endpoints they use.
//!
//! [`JobManager`] is held in [`crate::AppState`]: one registry per server
//! of the jobs this process runs (a cancellation token and the task's handle
//! per job id). [`JobManager::start`] runs a queued job in a tokio task:
//!
//! 1. marks it `running`, reads the dataset version's cases (PLawBench: its
//!    items; the first N with a limit) and builds the pipeline's
//!    configuration of the job's benchmark from the endpoints copied into
//!    the job's settings ([`pipeline_config`] for LexPilot,
//!    [`plawbench_config`] for PLawBench, [`dlawbench_config`] for DLawBench,
//!    which runs only once the server hosts it);
//! 2. [`pipeline::Job::new`] (or [`pipeline::plawbench::Job::new`]) reads
//!    each key from the environment variable the endpoint names (an unset
//!    variable fails the job with a message naming the variable, never a
//!    value);
//! 3. runs it, writing the progress to the database at most every
//!    [`PROGRESS_EVERY`] (each write is announced on the change feed as a
//!    `jobs` event);
//! 4. when it finishes, completes each run to cover the whole dataset
//!    ([`engine::lexpilot::run::Run::cover_dataset`],
//!    [`engine::plawbench::run::Run::cover_dataset`],
//!    [`engine::dlawbench::run::Run::cover_dataset`]), and stores them all
//!    through the one ingest ([`crate::ingest::store`]: validated, scored,
//!    one transaction, announced as `runs`), then marks the job `done`; on
//!    an error the job is `failed` with the message, on a cancel
//!    `cancelled`; nothing is stored then.
//!
//! A LexPilot job may run an experiment instead of the tasks
//! ([`JobSpec::experiment`]): the Targeted vs Off-target experiment
//! ([`targeted_config`], [`pipeline::targeted::Job`]) writes result files,
//! stored through [`crate::targeted::store`] (Table 4 on `/paper`).
//!
//! The pipeline writes run files under the job's out dir
//! (`<data dir>/jobs/<id>`) and keeps every finished call in the database
//! ([`DbCalls`]), so a restarted or resumed job repeats no finished call.
//!
//! Several servers may share one database. A running job is held by a lease
//! ([`db::jobs::Lease`]: this process's id and a time, [`LEASE_ENV`]) that a
//! heartbeat renews every third of its length. A server that dies stops
//! renewing; once its lease lapses, another server (or the same one,
//! restarted) takes the job over ([`JobManager::resume_abandoned`], polling
//! as often) and resumes it from its calls. A server that loses a lease (the
//! job was taken over, or cancelled on another server) stops its task and
//! records nothing. A server stopping cleanly ([`JobManager::stop`]) lets
//! its calls in flight finish and releases its leases at once.

use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use db::events::Change;
use db::jobs::{Lease, Outcome, Renewal};
use db::runs::OnDuplicate;
use db::Db;
use engine::benchmark::Benchmark;
use engine::jobs::{
    DlawbenchSettings, Endpoint as JobEndpoint, EndpointView, Experiment, Job, JobSpec, JobStatus,
    JobView, PlawbenchSettings, Progress,
};
use pipeline::cache::{CallStore, Calls, Completion, FileStore};
use pipeline::config::{Config, Endpoint, Limits, Tasks, UserCondition};
use pipeline::{CancellationToken, PipelineError};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::error::{Error, Result};
use crate::ingest::{self, RunFile};

/// The environment variable naming the data dir (job out dirs go under
/// `<data dir>/jobs/`).
pub const DATA_DIR_ENV: &str = "LEXPILOT_DATA_DIR";
/// The data dir when [`DATA_DIR_ENV`] is not set, relative to the working
/// directory at start-up.
pub const DEFAULT_DATA_DIR: &str = "lexpilot-data";
/// The environment variable setting the length of a job's lease in seconds
/// (default [`DEFAULT_LEASE`]): how long after its server dies another server
/// takes a job over.
pub const LEASE_ENV: &str = "LEXPILOT_JOB_LEASE_SECS";
/// A job's lease when [`LEASE_ENV`] is not set.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(30);
/// The shortest time between two progress writes of one job.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(500);
/// The most repetitions one job may make.
pub const MAX_RUNS: u32 = 20;
/// The most requests in flight per endpoint.
pub const MAX_CONCURRENCY: u32 = 64;
/// The longest DLawBench horizon a job may ask for.
pub const MAX_HORIZON: u32 = 50;
/// The most requests per PLawBench judge (or DLawBench judge call or lawyer
/// step) until its reply parses.
pub const MAX_JUDGE_ATTEMPTS: u32 = 10;
/// The largest `max_tokens` a PLawBench job may ask for.
pub const MAX_TOKENS: u32 = 262_144;
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
    /// This process's id in job leases.
    owner: Arc<str>,
    lease: Duration,
    /// Set when the server stops: jobs cut off then are left to others.
    stopping: Arc<AtomicBool>,
    /// The prefix every endpoint's key variable must have
    /// ([`engine::jobs::check_key_env_prefix`]).
    key_env_prefix: Arc<str>,
}

impl JobManager {
    /// A manager writing job out dirs under `data_dir` (made absolute, so a
    /// restart from another working directory finds the same files), with
    /// leases of [`DEFAULT_LEASE`].
    pub fn new(data_dir: impl Into<PathBuf>) -> JobManager {
        let data_dir = data_dir.into();
        JobManager {
            data_dir: std::path::absolute(&data_dir).unwrap_or(data_dir),
            running: Arc::default(),
            owner: server_id().into(),
            lease: DEFAULT_LEASE,
            stopping: Arc::default(),
            key_env_prefix: engine::jobs::DEFAULT_KEY_ENV_PREFIX.into(),
        }
    }

    /// The same manager reading endpoint keys only from variables that
    /// start with `prefix`.
    pub fn with_key_env_prefix(mut self, prefix: &str) -> JobManager {
        self.key_env_prefix = prefix.into();
        self
    }

    /// The prefix every endpoint's key variable must have.
    pub fn key_env_prefix(&self) -> &str {
        &self.key_env_prefix
    }

    /// The same manager with leases of `lease` (at least a second).
    pub fn with_lease(mut self, lease: Duration) -> JobManager {
        self.lease = lease.max(Duration::from_secs(1));
        self
    }

    /// The same manager with the lease [`LEASE_ENV`] sets, if it does.
    pub fn with_lease_from_env(self) -> JobManager {
        match lease_from_env() {
            Some(lease) => self.with_lease(lease),
            None => self,
        }
    }

    /// Where job out dirs go.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// The out dir of job `id`.
    pub fn out_dir(&self, id: i64) -> PathBuf {
        self.data_dir.join("jobs").join(id.to_string())
    }

    /// This process's id in job leases.
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// A lease of this process from now.
    fn lease_from_now(&self) -> Lease<'_> {
        let length = i64::try_from(self.lease.as_millis()).unwrap_or(i64::MAX);
        Lease {
            owner: &self.owner,
            until: db::jobs::now_ms().saturating_add(length),
        }
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
    pub fn start(&self, db: &Db, job: &Job) -> Result<(), String> {
        self.spawn(db, job, false)
    }

    /// Runs `job` in a background task: a job this process claimed (marked
    /// running and held) when `claimed`, else a queued one it marks running.
    fn spawn(&self, db: &Db, job: &Job, claimed: bool) -> Result<(), String> {
        let spec = job.spec.clone();
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
            manager: self.clone(),
            claimed,
            lost: Arc::default(),
        };
        let running = self.running.clone();
        let (db, id, owner) = (db.clone(), job.id, self.owner.clone());
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
                if let Err(e) = db::jobs::finish(&db, id, Some(&owner), outcome).await {
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

    /// Takes over, every third of a lease, each job whose server's lease
    /// lapsed (it died, or lost the database) and resumes it here, until the
    /// server stops. Runs in a background task; see the
    /// [module documentation](self).
    pub fn resume_abandoned(&self, db: &Db) -> JoinHandle<()> {
        let (manager, db) = (self.clone(), db.clone());
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(manager.lease / 3);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                while !manager.stopping.load(Ordering::SeqCst) {
                    let lease = manager.lease_from_now();
                    match db::jobs::claim_abandoned(&db, lease, db::jobs::now_ms()).await {
                        Ok(Some(job)) => manager.resume(&db, &job).await,
                        Ok(None) => break,
                        Err(e) => {
                            tracing::warn!("cannot look for abandoned benchmark jobs: {e}");
                            break;
                        }
                    }
                }
            }
        })
    }

    /// Resumes `job`, just claimed; if it cannot run here, it fails with
    /// the reason.
    async fn resume(&self, db: &Db, job: &Job) {
        // Our own lease lapsed while our task still runs (its heartbeat was
        // late: a loaded machine, a slow write lock): the claim has only
        // renewed it, and the task goes on holding it.
        if self
            .registry()
            .get(&job.id)
            .is_some_and(RunningJob::is_running)
        {
            tracing::warn!(
                "benchmark job {}: its lease lapsed while it ran here; renewed",
                job.id
            );
            return;
        }
        tracing::info!(
            "benchmark job {}: its server's lease lapsed; resuming it here from its calls",
            job.id
        );
        if let Err(reason) = self.spawn(db, job, true) {
            let outcome = Outcome {
                status: JobStatus::Failed,
                progress: None,
                error: Some(&reason),
                runs_stored: 0,
            };
            if let Err(e) = db::jobs::finish(db, job.id, Some(&self.owner), outcome).await {
                tracing::error!("benchmark job {}: cannot record the failure: {e}", job.id);
            }
        }
    }

    /// Stops this server's jobs for a server stop: no new call starts, calls
    /// in flight finish (and are kept) for up to `grace`, nothing is recorded
    /// as their end, and their leases are released so that another server
    /// (or this one, restarted) resumes them at once. Returns how many jobs
    /// were released.
    pub async fn stop(&self, db: &Db, grace: Duration) -> u64 {
        self.stopping.store(true, Ordering::SeqCst);
        for job in self.registry().values() {
            job.cancel.cancel();
        }
        let deadline = tokio::time::Instant::now() + grace;
        while self.registry().values().any(RunningJob::is_running)
            && tokio::time::Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        match db::jobs::release(db, &self.owner).await {
            Ok(n) => n,
            Err(e) => {
                tracing::warn!("cannot release the leases of this server's jobs: {e}");
                0
            }
        }
    }
}

/// This process's id in job leases: host, process id and start time, so a
/// restarted process on the same host is another.
fn server_id() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_owned())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".to_owned());
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{host}/{}/{started:x}", std::process::id())
}

/// The lease length [`LEASE_ENV`] sets, if it holds a whole number of
/// seconds (a warning otherwise).
fn lease_from_env() -> Option<Duration> {
    let value = std::env::var(LEASE_ENV).ok()?;
    match value.trim().parse::<u64>() {
        Ok(secs) if secs >= 1 => Some(Duration::from_secs(secs)),
        _ => {
            tracing::warn!(
                "{LEASE_ENV}={value:?} is not a whole number of seconds (at least 1); using {}s",
                DEFAULT_LEASE.as_secs()
            );
            None
        }
    }
}

/// Keeps a running job's lease while its task runs: renews it every third
/// of its length, and at once when the change feed says the job stopped
/// (cancelled on another server). When the lease is lost, marks `lost` and
/// cancels the job's task.
async fn heartbeat(
    db: Db,
    id: i64,
    manager: JobManager,
    cancel: CancellationToken,
    lost: Arc<AtomicBool>,
) {
    let mut feed = Some(db.subscribe());
    loop {
        let stopped_elsewhere = async {
            match feed.as_mut() {
                Some(f) => match f.recv().await {
                    Ok(Change::JobProgress { job_id, status }) => {
                        job_id == id && !status.is_active()
                    }
                    Ok(_) => false,
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => true,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => {
                        feed = None;
                        false
                    }
                },
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = tokio::time::sleep(manager.lease / 3) => {}
            check = stopped_elsewhere => if !check { continue },
        }
        match db::jobs::renew(&db, id, manager.lease_from_now()).await {
            Ok(Renewal::Held) => {}
            Ok(Renewal::Lost) => {
                lost.store(true, Ordering::SeqCst);
                cancel.cancel();
                return;
            }
            Err(e) => tracing::warn!("benchmark job {id}: cannot renew its lease: {e}"),
        }
    }
}

/// A finished call as the database keeps it.
fn kept(key: String, c: &Completion) -> db::jobs::Call {
    db::jobs::Call {
        key,
        content: c.content.clone(),
        prompt_tokens: i64::try_from(c.prompt_tokens).unwrap_or(i64::MAX),
        completion_tokens: i64::try_from(c.completion_tokens).unwrap_or(i64::MAX),
        finish_reason: c.finish_reason.clone(),
    }
}

/// A job's calls kept in the database ([`db::jobs::calls`]), where any
/// server resuming it finds them. Calls a cache file under the job's out dir
/// holds (jobs started before calls were kept in the database) are taken in
/// when the job is resumed.
#[derive(Debug)]
pub struct DbCalls {
    db: Db,
    job: i64,
    out_dir: PathBuf,
}

impl DbCalls {
    /// The calls of job `job`, whose out dir is `out_dir`.
    pub fn new(db: Db, job: i64, out_dir: PathBuf) -> DbCalls {
        DbCalls { db, job, out_dir }
    }

    fn error(&self, action: &'static str) -> impl Fn(String) -> PipelineError + '_ {
        move |message| PipelineError::CallStore {
            action,
            location: self.location(),
            message,
        }
    }

    async fn load_all(&self) -> std::result::Result<Vec<(String, Completion)>, PipelineError> {
        let read = self.error("read");
        let file = pipeline::cache::Cache::file_in(&self.out_dir);
        let from_file =
            FileStore::read(&file).map_err(|e| read(format!("{}: {e}", file.display())))?;
        if !from_file.is_empty() {
            let calls: Vec<db::jobs::Call> = from_file
                .into_iter()
                .map(|(key, c)| kept(key, &c))
                .collect();
            db::jobs::store_calls(&self.db, self.job, &calls)
                .await
                .map_err(|e| read(e.to_string()))?;
        }
        let calls = db::jobs::calls(&self.db, self.job)
            .await
            .map_err(|e| read(e.to_string()))?;
        Ok(calls
            .into_iter()
            .map(|c| {
                let completion = Completion {
                    content: c.content,
                    prompt_tokens: u64::try_from(c.prompt_tokens).unwrap_or(0),
                    completion_tokens: u64::try_from(c.completion_tokens).unwrap_or(0),
                    finish_reason: c.finish_reason,
                };
                (c.key, completion)
            })
            .collect())
    }
}

impl CallStore for DbCalls {
    fn load(
        &self,
    ) -> futures_util::future::BoxFuture<
        '_,
        std::result::Result<Vec<(String, Completion)>, PipelineError>,
    > {
        Box::pin(self.load_all())
    }

    fn append<'a>(
        &'a self,
        key: &'a str,
        completion: &'a Completion,
    ) -> futures_util::future::BoxFuture<'a, std::result::Result<(), PipelineError>> {
        Box::pin(async move {
            db::jobs::store_calls(&self.db, self.job, &[kept(key.to_owned(), completion)])
                .await
                .map_err(|e| self.error("write")(e.to_string()))
        })
    }

    fn location(&self) -> String {
        format!("the database (job {})", self.job)
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
    manager: JobManager,
    /// Whether this process claimed the job (marked running and held).
    claimed: bool,
    /// Set by the heartbeat when the job is no longer this server's.
    lost: Arc<AtomicBool>,
}

/// Why a job did not finish.
enum Stop {
    Cancelled,
    Failed(String),
    /// The job is no longer this server's.
    Lost,
}

impl Work {
    async fn run(self) {
        let owner = self.manager.owner();
        if !self.claimed {
            let lease = self.manager.lease_from_now();
            if let Err(e) = db::jobs::mark_running(&self.db, self.id, lease).await {
                tracing::warn!("benchmark job {} not started: {e}", self.id);
                return;
            }
        }
        let heartbeat = tokio::spawn(heartbeat(
            self.db.clone(),
            self.id,
            self.manager.clone(),
            self.cancel.clone(),
            self.lost.clone(),
        ));
        let mut last_progress = None;
        let result = self.execute(&mut last_progress).await;
        heartbeat.abort();
        if self.lost.load(Ordering::SeqCst) || matches!(result, Err(Stop::Lost)) {
            tracing::info!(
                "benchmark job {} is no longer this server's (taken over, or stopped on another \
                 server); its task here ends",
                self.id
            );
            return;
        }
        if self.manager.stopping.load(Ordering::SeqCst) && matches!(result, Err(Stop::Cancelled)) {
            tracing::info!(
                "benchmark job {} left to the next server as this one stops",
                self.id
            );
            return;
        }
        let (status, error, runs_stored) = match &result {
            Ok(stored) => (JobStatus::Done, None, *stored),
            Err(Stop::Cancelled) => (JobStatus::Cancelled, Some(CANCELLED), 0),
            Err(Stop::Failed(message)) => (JobStatus::Failed, Some(message.as_str()), 0),
            Err(Stop::Lost) => return,
        };
        if let Some(message) = error {
            tracing::info!("benchmark job {} {}: {message}", self.id, status.as_str());
        }
        let outcome = Outcome {
            status,
            progress: last_progress.as_ref(),
            error,
            runs_stored,
        };
        match db::jobs::finish(&self.db, self.id, Some(owner), outcome).await {
            Ok(()) => {}
            Err(db::DbError::Conflict(_)) => tracing::info!(
                "benchmark job {} is no longer this server's; its end here is not recorded",
                self.id
            ),
            Err(e) => tracing::error!("benchmark job {}: cannot record its end: {e}", self.id),
        }
    }

    /// Where the job's calls are kept: the database.
    fn calls(&self) -> Calls {
        Calls::Store(Arc::new(DbCalls::new(
            self.db.clone(),
            self.id,
            self.out_dir.clone(),
        )))
    }

    /// Fails with [`Stop::Lost`] unless this server still holds the job:
    /// checked before storing anything.
    async fn still_held(&self) -> Result<(), Stop> {
        match db::jobs::holds(&self.db, self.id, self.manager.owner()).await {
            Ok(true) => Ok(()),
            Ok(false) => Err(Stop::Lost),
            Err(e) => Err(Stop::Failed(format!("cannot read the job's lease: {e}"))),
        }
    }

    /// Runs the job and stores its runs; returns how many were stored.
    async fn execute(&self, last: &mut Option<Progress>) -> Result<usize, Stop> {
        if self.cancel.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        // An endpoint saved before the prefix was set (or under another)
        // has its key read by no job.
        let prefix = self.manager.key_env_prefix();
        for endpoint in std::iter::once(&self.spec.model)
            .chain(&self.spec.user)
            .chain(&self.spec.judges)
        {
            if let Some(var) = &endpoint.key_env {
                engine::jobs::check_key_env_prefix(var, prefix).map_err(|message| {
                    Stop::Failed(format!("endpoint {}: {message}", endpoint.name))
                })?;
            }
        }
        match self.spec.experiment {
            Some(Experiment::Targeted) => return self.targeted(last).await,
            Some(Experiment::Fidelity) => return self.fidelity(last).await,
            None => {}
        }
        let files = match self.spec.benchmark {
            Benchmark::Lexpilot => self.lexpilot_runs(last).await?,
            Benchmark::Plawbench => self.plawbench_runs(last).await?,
            Benchmark::Dlawbench => self.dlawbench_runs(last).await?,
        };
        let dataset = db::datasets::by_id(&self.db, self.dataset_id)
            .await
            .map_err(|e| Stop::Failed(format!("cannot read the dataset: {e}")))?;
        self.still_held().await?;
        let stored = ingest::store(
            &self.db,
            &dataset,
            &files,
            self.created_by,
            OnDuplicate::Refuse,
        )
        .await
        .map_err(|e| match e {
            Error::InvalidFile(name, errors) => Stop::Failed(format!(
                "{name} does not validate against the dataset: {errors}"
            )),
            other => Stop::Failed(format!("cannot store the runs: {other}")),
        })?;
        Ok(stored.len())
    }

    /// The Targeted vs Off-target experiment on the job's cases: its result
    /// files stored in one transaction; how many.
    async fn targeted(&self, last: &mut Option<Progress>) -> Result<usize, Stop> {
        let dataset = db::datasets::by_id(&self.db, self.dataset_id)
            .await
            .map_err(|e| Stop::Failed(format!("cannot read the dataset: {e}")))?;
        let cases = db::cases::all(&self.db, self.dataset_id)
            .await
            .map_err(|e| Stop::Failed(format!("cannot read the dataset: {e}")))?;
        let mut config = targeted_config(&self.spec, self.out_dir.clone()).map_err(Stop::Failed)?;
        config.calls = self.calls();
        let job = pipeline::targeted::Job::new(config, cases.to_vec())
            .map_err(|e| Stop::Failed(e.to_string()))?;
        let (total, progress) = (job.total_items(), job.progress());
        let outputs = self
            .follow(total, progress, job.run(self.cancel.clone()), last)
            .await?;
        let files: Vec<RunFile> = outputs
            .into_iter()
            .map(|o| RunFile::new(format!("run {}", o.run), o.parsed.to_jsonl()))
            .collect();
        self.still_held().await?;
        let stored = crate::targeted::store(
            &self.db,
            &dataset,
            &files,
            self.created_by,
            OnDuplicate::Refuse,
        )
        .await
        .map_err(|e| Stop::Failed(format!("cannot store the results: {e}")))?;
        Ok(stored.len())
    }

    /// The user-simulator fidelity study over the version's stored probes:
    /// its replies stored with one review item each, in one transaction.
    async fn fidelity(&self, last: &mut Option<Progress>) -> Result<usize, Stop> {
        let read = |e: Error| Stop::Failed(format!("cannot read the dataset: {e}"));
        let dataset = db::datasets::by_id(&self.db, self.dataset_id)
            .await
            .map_err(|e| read(e.into()))?;
        let cases = db::cases::all(&self.db, self.dataset_id)
            .await
            .map_err(|e| read(e.into()))?;
        let probes = crate::fidelity::probes(&self.db, &dataset)
            .await
            .map_err(read)?;
        let mut config = fidelity_config(&self.spec, self.out_dir.clone()).map_err(Stop::Failed)?;
        config.calls = self.calls();
        let job = pipeline::fidelity::Job::new(config, probes, &cases)
            .map_err(|e| Stop::Failed(e.to_string()))?;
        let (total, progress) = (job.total_items(), job.progress());
        let output = self
            .follow(total, progress, job.run(self.cancel.clone()), last)
            .await?;
        let file = RunFile::new("study", output.parsed.to_jsonl());
        self.still_held().await?;
        crate::fidelity::store_study(&self.db, &dataset, &file, self.created_by)
            .await
            .map_err(|e| Stop::Failed(format!("cannot store the study: {e}")))?;
        Ok(1)
    }

    /// A LexPilot job's runs, each covering the whole dataset.
    async fn lexpilot_runs(&self, last: &mut Option<Progress>) -> Result<Vec<RunFile>, Stop> {
        let cases = db::cases::all(&self.db, self.dataset_id)
            .await
            .map_err(|e| Stop::Failed(format!("cannot read the dataset: {e}")))?;
        let limit = self.spec.limit.map_or(cases.len(), |n| n as usize);
        let mut config = pipeline_config(&self.spec, self.out_dir.clone()).map_err(Stop::Failed)?;
        config.calls = self.calls();
        let job = pipeline::Job::new(config, cases.iter().take(limit).cloned().collect())
            .map_err(|e| Stop::Failed(e.to_string()))?;
        let (total, progress) = (job.total_items(), job.progress());
        let outputs = self
            .follow(total, progress, job.run(self.cancel.clone()), last)
            .await?;
        let reason = format!("not run: the job was limited to the first {limit} cases");
        Ok(outputs
            .into_iter()
            .map(|output| {
                let mut run = output.parsed;
                run.cover_dataset(&cases, &reason);
                RunFile::new(format!("run {}", output.run), run.to_jsonl())
            })
            .collect())
    }

    /// A PLawBench job's runs, each covering the whole dataset.
    async fn plawbench_runs(&self, last: &mut Option<Progress>) -> Result<Vec<RunFile>, Stop> {
        let items: Arc<Vec<engine::plawbench::dataset::Item>> =
            db::items::all(&self.db, self.dataset_id)
                .await
                .map_err(|e| Stop::Failed(format!("cannot read the dataset: {e}")))?;
        let limit = self.spec.limit.map_or(items.len(), |n| n as usize);
        let mut config =
            plawbench_config(&self.spec, self.out_dir.clone()).map_err(Stop::Failed)?;
        config.calls = self.calls();
        let job =
            pipeline::plawbench::Job::new(config, items.iter().take(limit).cloned().collect())
                .map_err(|e| Stop::Failed(e.to_string()))?;
        let (total, progress) = (job.total_items(), job.progress());
        let outputs = self
            .follow(total, progress, job.run(self.cancel.clone()), last)
            .await?;
        let reason = format!("not run: the job was limited to the first {limit} items");
        Ok(outputs
            .into_iter()
            .map(|output| {
                let mut run = output.parsed;
                run.cover_dataset(&items, &reason);
                RunFile::new(format!("run {}", output.run), run.to_stored())
            })
            .collect())
    }

    /// A DLawBench job's runs, each covering the whole dataset in every style
    /// the job runs.
    async fn dlawbench_runs(&self, last: &mut Option<Progress>) -> Result<Vec<RunFile>, Stop> {
        let cases: Arc<Vec<engine::dlawbench::dataset::Case>> =
            db::items::all(&self.db, self.dataset_id)
                .await
                .map_err(|e| Stop::Failed(format!("cannot read the dataset: {e}")))?;
        let limit = self.spec.limit.map_or(cases.len(), |n| n as usize);
        let mut config =
            dlawbench_config(&self.spec, self.out_dir.clone()).map_err(Stop::Failed)?;
        config.calls = self.calls();
        let job =
            pipeline::dlawbench::Job::new(config, cases.iter().take(limit).cloned().collect())
                .map_err(|e| Stop::Failed(e.to_string()))?;
        let (total, progress) = (job.total_items(), job.progress());
        let outputs = self
            .follow(total, progress, job.run(self.cancel.clone()), last)
            .await?;
        let reason = format!("not run: the job was limited to the first {limit} cases");
        Ok(outputs
            .into_iter()
            .map(|output| {
                let mut run = output.parsed;
                run.cover_dataset(&cases, &reason);
                RunFile::new(format!("run {}", output.run), run.to_stored())
            })
            .collect())
    }

    /// Awaits a pipeline job of `total` items, recording its progress as it
    /// goes (`last` keeps the latest); its outputs, or why it stopped.
    async fn follow<T>(
        &self,
        total: usize,
        mut progress: watch::Receiver<Progress>,
        run: impl Future<Output = std::result::Result<T, PipelineError>>,
        last: &mut Option<Progress>,
    ) -> Result<T, Stop> {
        *last = Some(Progress {
            total,
            ..Progress::default()
        });
        self.save_progress(last.as_ref()).await;
        tokio::pin!(run);
        let mut tick = tokio::time::interval(PROGRESS_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let result = loop {
            tokio::select! {
                result = &mut run => break result,
                _ = tick.tick() => {
                    if progress.has_changed().unwrap_or(false) {
                        *last = Some(progress.borrow_and_update().clone());
                        self.save_progress(last.as_ref()).await;
                    }
                }
            }
        };
        let ended = progress.borrow().clone();
        let all_failed = every_item_failed(&ended).then(|| {
            format!(
                "every one of the job's {} items failed, so no run was stored; the first \
                 failure: {}",
                ended.total,
                ended.first_failure.as_deref().unwrap_or("(not recorded)")
            )
        });
        *last = Some(ended);
        match result {
            Ok(_) if all_failed.is_some() => Err(Stop::Failed(all_failed.unwrap_or_default())),
            Ok(outputs) => Ok(outputs),
            Err(PipelineError::Cancelled { .. }) => Err(Stop::Cancelled),
            Err(e) => Err(Stop::Failed(e.to_string())),
        }
    }

    async fn save_progress(&self, progress: Option<&Progress>) {
        let Some(progress) = progress else { return };
        if let Err(e) =
            db::jobs::set_progress(&self.db, self.id, self.manager.owner(), progress).await
        {
            tracing::warn!("benchmark job {}: cannot record progress: {e}", self.id);
        }
    }
}

/// Whether a finished job's every item is unavailable: its runs would be
/// nothing but failures (and the endpoint's answers to them), so none is
/// stored.
fn every_item_failed(progress: &Progress) -> bool {
    progress.total > 0 && progress.failures >= progress.total
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

/// The limits every job's settings keep, whatever the benchmark; the first
/// judge.
fn check_common(spec: &JobSpec) -> Result<&JobEndpoint, String> {
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
    spec.judges
        .first()
        .ok_or_else(|| "pick at least one judge endpoint".into())
}

/// Whether `spec` can run: the checks of its benchmark's configuration
/// ([`pipeline_config`], [`plawbench_config`]); `Err` with a message for the
/// admin.
pub fn check_spec(spec: &JobSpec) -> Result<(), String> {
    match spec.experiment {
        Some(Experiment::Targeted) => return targeted_config(spec, PathBuf::new()).map(drop),
        Some(Experiment::Fidelity) => return fidelity_config(spec, PathBuf::new()).map(drop),
        None => {}
    }
    match spec.benchmark {
        Benchmark::Lexpilot => pipeline_config(spec, PathBuf::new()).map(drop),
        Benchmark::Plawbench => plawbench_config(spec, PathBuf::new()).map(drop),
        Benchmark::Dlawbench => dlawbench_config(spec, PathBuf::new()).map(drop),
    }
}

/// The pipeline configuration of LexPilot job `spec`, writing under
/// `out_dir`; `Err` with a message for the admin when the settings cannot
/// run. Keys are not read here ([`pipeline::Job::new`] does).
pub fn pipeline_config(spec: &JobSpec, out_dir: PathBuf) -> Result<Config, String> {
    if spec.benchmark != Benchmark::Lexpilot {
        return Err(format!("a {} job is not a LexPilot job", spec.benchmark));
    }
    let tasks = Tasks::parse(&spec.tasks.join(","))?;
    let condition = UserCondition::parse(&spec.user_condition).ok_or_else(|| {
        format!(
            "unknown user condition {:?}; expected one of {}",
            spec.user_condition,
            UserCondition::ALL.map(UserCondition::as_str).join(", ")
        )
    })?;
    let first_judge = check_common(spec)?;
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
    config.family = spec.family;
    config.tasks = tasks;
    config.user_condition = condition;
    config.runs = spec.runs;
    config.first_run = spec.first_run;
    config.dataset_name = Some(spec.header_dataset());
    config.limits = Limits {
        concurrency: spec.concurrency as usize,
        requests_per_minute: None,
    };
    Ok(config)
}

/// The configuration of Targeted vs Off-target job `spec` (a LexPilot job
/// with that experiment: the evaluated model, the user model, the first
/// judge), writing under `out_dir`; `Err` with a message for the admin.
pub fn targeted_config(
    spec: &JobSpec,
    out_dir: PathBuf,
) -> Result<pipeline::targeted::Config, String> {
    if spec.benchmark != Benchmark::Lexpilot || spec.experiment != Some(Experiment::Targeted) {
        return Err("not a LexPilot Targeted vs Off-target job".into());
    }
    let judge = check_common(spec)?;
    if spec.limit.is_some() {
        return Err(
            "the Targeted vs Off-target experiment runs on every underspecified case; \
             leave the limit empty (or use `lexpilot experiment targeted --limit`)"
                .into(),
        );
    }
    let user = spec
        .user
        .as_ref()
        .ok_or("the Targeted vs Off-target experiment needs a user model endpoint")?;
    let mut config = pipeline::targeted::Config::new(
        endpoint(&spec.model, false),
        endpoint(user, false),
        endpoint(judge, true),
        out_dir,
    );
    config.family = spec.family;
    config.runs = spec.runs;
    config.first_run = spec.first_run;
    config.dataset_name = Some(spec.header_dataset());
    config.limits = Limits {
        concurrency: spec.concurrency as usize,
        requests_per_minute: None,
    };
    Ok(config)
}

/// The configuration of fidelity job `spec` (a LexPilot job with that
/// experiment: the user model under study and the first judge as the DCG
/// judge), writing under `out_dir`; `Err` with a message for the admin.
pub fn fidelity_config(
    spec: &JobSpec,
    out_dir: PathBuf,
) -> Result<pipeline::fidelity::Config, String> {
    if spec.benchmark != Benchmark::Lexpilot || spec.experiment != Some(Experiment::Fidelity) {
        return Err("not a LexPilot user-simulator fidelity job".into());
    }
    let judge = check_common(spec)?;
    if spec.limit.is_some() {
        return Err(
            "the fidelity study asks every stored probe; leave the limit empty (edit the probes \
             to change what is asked)"
                .into(),
        );
    }
    let user = spec
        .user
        .as_ref()
        .ok_or("the fidelity study needs a user model endpoint: the simulator under study")?;
    let mut config =
        pipeline::fidelity::Config::new(endpoint(user, false), endpoint(judge, true), out_dir);
    config.dataset_name = Some(spec.header_dataset());
    config.limits = Limits {
        concurrency: spec.concurrency as usize,
        requests_per_minute: None,
    };
    Ok(config)
}

/// The pipeline configuration of PLawBench job `spec` (its settings, else
/// [`PlawbenchSettings::default`]), writing under `out_dir`; `Err` with a
/// message for the admin when the settings cannot run. Keys are not read
/// here ([`pipeline::plawbench::Job::new`] does).
pub fn plawbench_config(
    spec: &JobSpec,
    out_dir: PathBuf,
) -> Result<pipeline::plawbench::Config, String> {
    if spec.benchmark != Benchmark::Plawbench {
        return Err(format!("a {} job is not a PLawBench job", spec.benchmark));
    }
    let first_judge = check_common(spec)?;
    let settings = spec.plawbench.clone().unwrap_or_default();
    if !(1..=MAX_JUDGE_ATTEMPTS).contains(&settings.judge_attempts) {
        return Err(format!(
            "judge attempts must be between 1 and {MAX_JUDGE_ATTEMPTS}"
        ));
    }
    if !(1..=MAX_TOKENS).contains(&settings.max_tokens) {
        return Err(format!("max tokens must be between 1 and {MAX_TOKENS}"));
    }
    let mut models = BTreeSet::new();
    if let Some(twice) = spec
        .judges
        .iter()
        .find(|j| !models.insert(j.model.as_str()))
    {
        return Err(format!(
            "two judge endpoints name the model {}; a panel's judges are different models",
            twice.model
        ));
    }
    let with_tokens = |mut e: Endpoint| {
        e.settings.max_tokens = settings.max_tokens;
        e
    };
    let judge = |j: &JobEndpoint| with_tokens(endpoint(j, true));
    let mut config = pipeline::plawbench::Config::new(
        with_tokens(endpoint(&spec.model, false)),
        judge(first_judge),
        out_dir,
    );
    config.judges = spec.judges.iter().map(judge).collect();
    config.family = spec.family;
    config.model_family = settings.model_family.clone();
    config.aggregation = settings.judge_aggregation;
    config.parse = settings.judge_parse;
    config.retry.judge_attempts = settings.judge_attempts;
    config.runs = spec.runs;
    config.first_run = spec.first_run;
    config.dataset_name = Some(spec.header_dataset());
    config.limits = Limits {
        concurrency: spec.concurrency as usize,
        requests_per_minute: None,
    };
    Ok(config)
}

/// The pipeline configuration of DLawBench job `spec` (its settings, else
/// [`DlawbenchSettings::default`]): the model as the lawyer, `user` as the
/// client simulator, the judges as the panel, writing under `out_dir`;
/// `Err` with a message for the admin when the settings cannot run (the
/// pipeline's own checks, recusal leaving a seat among them, run in
/// [`pipeline::dlawbench::Job::new`], which also reads the keys).
pub fn dlawbench_config(
    spec: &JobSpec,
    out_dir: PathBuf,
) -> Result<pipeline::dlawbench::Config, String> {
    if spec.benchmark != Benchmark::Dlawbench {
        return Err(format!("a {} job is not a DLawBench job", spec.benchmark));
    }
    let first_judge = check_common(spec)?;
    let client = spec
        .user
        .as_ref()
        .ok_or("a DLawBench job needs a client simulator: pick its endpoint as the user model")?;
    let settings = spec.dlawbench.clone().unwrap_or_default();
    if settings.styles.is_empty() {
        return Err("pick at least one style".into());
    }
    if !(1..=MAX_HORIZON).contains(&settings.horizon) {
        return Err(format!("the horizon must be between 1 and {MAX_HORIZON}"));
    }
    for (what, n) in [
        ("lawyer", settings.lawyer_attempts),
        ("judge", settings.judge_attempts),
    ] {
        if !(1..=MAX_JUDGE_ATTEMPTS).contains(&n) {
            return Err(format!(
                "{what} attempts must be between 1 and {MAX_JUDGE_ATTEMPTS}"
            ));
        }
    }
    let mut config = pipeline::dlawbench::Config::new(
        endpoint(&spec.model, false),
        endpoint(client, false),
        endpoint(first_judge, true),
        out_dir,
    );
    config.judges = spec.judges.iter().map(|j| endpoint(j, true)).collect();
    config.family = spec.family;
    config.styles = settings.styles;
    config.horizon = settings.horizon;
    config.lawyer_attempts = settings.lawyer_attempts;
    config.retry.judge_attempts = settings.judge_attempts;
    config.runs = spec.runs;
    config.first_run = spec.first_run;
    config.dataset_name = Some(spec.header_dataset());
    config.limits = Limits {
        concurrency: spec.concurrency as usize,
        requests_per_minute: None,
    };
    Ok(config)
}

/// How many jobs the list shows.
pub const JOBS_LISTED: i64 = 50;

/// Endpoint `e` as the page shows it, with whether its key variable is set.
pub fn endpoint_view(endpoint: JobEndpoint) -> EndpointView {
    let key_set = endpoint.key_env.as_deref().is_some_and(key_is_set);
    EndpointView { endpoint, key_set }
}

/// What an admin asks a new job to run, read from the form: endpoints by id.
/// A PLawBench job takes no user model, tasks or user condition (those
/// given are dropped) and its `plawbench` settings (the defaults when
/// `None`); a DLawBench job takes the user model as its client simulator,
/// no tasks or user condition, and its `dlawbench` settings; a LexPilot job
/// ignores both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewJobRequest {
    pub benchmark: Benchmark,
    pub model: i64,
    pub user: Option<i64>,
    pub judges: Vec<i64>,
    pub tasks: Vec<String>,
    pub runs: u32,
    pub concurrency: u32,
    pub user_condition: String,
    pub limit: Option<u32>,
    pub family: Option<engine::core::entry::Family>,
    pub plawbench: Option<PlawbenchSettings>,
    pub dlawbench: Option<DlawbenchSettings>,
    /// LexPilot: an experiment instead of the tasks (which are dropped).
    pub experiment: Option<Experiment>,
}

/// Refuses a fidelity job on `dataset` when it has no probes to ask or has
/// its study already (one per version).
async fn fidelity_ready(db: &Db, dataset: &db::datasets::DatasetInfo) -> Result<()> {
    if db::fidelity::has_study(db, dataset.id).await? {
        return Err(Error::Conflict(format!(
            "dataset {} version {} has its fidelity study already (Table 13 on /paper); a \
             version has one",
            dataset.name, dataset.version
        )));
    }
    if db::fidelity::probes(db, dataset.id).await?.is_empty() {
        return Err(Error::Invalid(format!(
            "dataset {} version {} has no probes yet; the experts write them at /review/fidelity",
            dataset.name, dataset.version
        )));
    }
    Ok(())
}

impl JobManager {
    /// `job` as the page shows it.
    pub fn view(&self, job: Job) -> JobView {
        let cancel_requested = job.status.is_active() && self.cancel_requested(job.id);
        JobView {
            active: job.status.is_active(),
            restartable: job.status.is_restartable(),
            job,
            cancel_requested,
        }
    }

    /// The latest jobs, newest first.
    pub async fn list(&self, db: &Db) -> Result<Vec<JobView>> {
        let jobs = db::jobs::list_jobs(db, JOBS_LISTED).await?;
        Ok(jobs.into_iter().map(|j| self.view(j)).collect())
    }

    /// Job `id`.
    pub async fn get(&self, db: &Db, id: i64) -> Result<JobView> {
        Ok(self.view(db::jobs::job(db, id).await?))
    }

    /// Creates a job on `dataset` (a version of the request's benchmark)
    /// from `request` (its endpoints copied into its settings, its run
    /// numbers after every stored or reserved one) and starts it in the
    /// background; returns it queued (or failed, when it could not start,
    /// with the reason).
    pub async fn create(
        &self,
        db: &Db,
        dataset: &db::datasets::DatasetInfo,
        request: NewJobRequest,
        account: &db::users::User,
    ) -> Result<JobView> {
        let spec = job_spec(db, dataset, request).await?;
        let new = db::jobs::NewJob {
            dataset_id: dataset.id,
            spec: &spec,
            created_by: account.id,
        };
        let job = db::jobs::create_job(db, new, self.lease_from_now(), |id| {
            self.out_dir(id).display().to_string()
        })
        .await?;
        self.launch(db, job).await
    }

    /// Asks job `id` to stop: no new call starts, calls in flight finish and
    /// are cached, and the job ends `cancelled` with nothing stored.
    pub async fn cancel_job(&self, db: &Db, id: i64) -> Result<JobView> {
        let job = db::jobs::job(db, id).await?;
        if !job.status.is_active() {
            return Err(Error::Conflict(format!(
                "job {id} is {}; only a queued or running job can be cancelled",
                job.status.as_str()
            )));
        }
        if !self.cancel(id) {
            // Active in the table but no task of this process runs it: the
            // server running it (if any) finds its lease gone and stops.
            let outcome = Outcome {
                status: JobStatus::Cancelled,
                progress: None,
                error: Some(CANCELLED),
                runs_stored: 0,
            };
            db::jobs::finish(db, id, None, outcome).await?;
        }
        self.get(db, id).await
    }

    /// Starts failed, cancelled or interrupted job `id` again with the same
    /// settings and out dir: every call its cache holds is not made again.
    pub async fn restart(&self, db: &Db, id: i64) -> Result<JobView> {
        let job = db::jobs::requeue(db, id, self.lease_from_now()).await?;
        self.launch(db, job).await
    }

    /// Hands queued `job` to the runner; if it cannot start, it is marked
    /// failed with the reason.
    async fn launch(&self, db: &Db, job: Job) -> Result<JobView> {
        let id = job.id;
        if let Err(reason) = self.start(db, &job) {
            let outcome = Outcome {
                status: JobStatus::Failed,
                progress: None,
                error: Some(&reason),
                runs_stored: 0,
            };
            db::jobs::finish(db, id, None, outcome).await?;
        }
        self.get(db, id).await
    }
}

/// A copy of endpoint `id` for a job's settings; an unknown id is a bad
/// request, not a missing page.
/// The job `request` asks for on `dataset`, checked as [`JobManager::create`]
/// stores it (endpoints copied in, the first free run number, the limit and
/// each benchmark's settings), without storing it.
pub async fn job_spec(
    db: &Db,
    dataset: &db::datasets::DatasetInfo,
    request: NewJobRequest,
) -> Result<JobSpec> {
    if crate::ingest::hosted(dataset)? != request.benchmark {
        return Err(Error::Invalid(format!(
            "dataset {} is a {} dataset, not {}",
            dataset.name,
            dataset.benchmark,
            request.benchmark.as_str()
        )));
    }
    let plawbench = request.benchmark == Benchmark::Plawbench;
    let dlawbench = request.benchmark == Benchmark::Dlawbench;
    let mut judges: Vec<JobEndpoint> = Vec::with_capacity(request.judges.len());
    for id in request.judges {
        if judges.iter().all(|j| j.id != id) {
            judges.push(job_endpoint(db, id).await?);
        }
    }
    let model = job_endpoint(db, request.model).await?;
    let user = match request.user.filter(|_| !plawbench) {
        Some(id) => Some(job_endpoint(db, id).await?),
        None => None,
    };
    let experiment = match request.experiment {
        Some(e) if request.benchmark != Benchmark::Lexpilot => {
            return Err(Error::Invalid(format!("{} is LexPilot's", e.label_en())))
        }
        e => e,
    };
    if experiment == Some(Experiment::Fidelity) {
        fidelity_ready(db, dataset).await?;
    }
    let first_run = match experiment {
        Some(Experiment::Targeted) => {
            db::targeted::next_run_number(db, dataset.id, &model.model).await?
        }
        Some(Experiment::Fidelity) => 1,
        None => first_free_run(db, dataset.id, &model.model).await?,
    };
    let (tasks, user_condition) = if experiment.is_some() {
        (Vec::new(), "standard".to_owned())
    } else if plawbench || dlawbench {
        (Vec::new(), String::new())
    } else {
        let tasks = request
            .tasks
            .into_iter()
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty())
            .collect();
        (tasks, request.user_condition.trim().to_owned())
    };
    let spec = JobSpec {
        benchmark: request.benchmark,
        dataset: dataset.name.clone(),
        model,
        user,
        judges,
        tasks,
        runs: request.runs,
        first_run,
        concurrency: request.concurrency,
        user_condition,
        limit: request.limit.filter(|&n| i64::from(n) < dataset.case_count),
        family: request.family,
        plawbench: plawbench.then(|| request.plawbench.unwrap_or_default()),
        dlawbench: dlawbench.then(|| request.dlawbench.unwrap_or_default()),
        experiment,
    };
    check_spec(&spec).map_err(Error::Invalid)?;
    Ok(spec)
}

/// The pipeline's judge attempts in a LexPilot job (its jobs keep none).
pub fn lexpilot_judge_attempts() -> u32 {
    pipeline::config::RetryPolicy::default().judge_attempts
}

/// The calls job `request` would make on `dataset`
/// ([`engine::estimate::estimate_calls`]), checked as a start would check
/// it; `None` for an experiment.
pub async fn estimate(
    db: &Db,
    dataset: &db::datasets::DatasetInfo,
    request: NewJobRequest,
) -> Result<Option<engine::estimate::CallEstimate>> {
    let spec = job_spec(db, dataset, request).await?;
    let cases = usize::try_from(dataset.case_count).unwrap_or(0);
    Ok(engine::estimate::estimate_calls(
        &spec,
        cases,
        lexpilot_judge_attempts(),
    ))
}

/// How long the test call of an endpoint may take.
pub const TEST_CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// One real chat call to endpoint `id` through the pipeline's client
/// ([`pipeline::test_call`]: its key from the variable it names, no retry,
/// at most [`TEST_CALL_TIMEOUT`]): the reply, or why there is none. An
/// endpoint that fails is an answer here, not an error.
pub async fn test_endpoint(db: &Db, id: i64) -> Result<engine::jobs::EndpointTest> {
    let saved = job_endpoint(db, id).await?;
    let started = std::time::Instant::now();
    let outcome = pipeline::test_call(&endpoint(&saved, false), TEST_CALL_TIMEOUT).await;
    let millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    Ok(match outcome {
        Ok(reply) => engine::jobs::EndpointTest {
            endpoint: saved.name,
            model: saved.model,
            reply: Some(reply.content),
            error: None,
            millis,
        },
        Err(error) => engine::jobs::EndpointTest {
            endpoint: saved.name,
            model: saved.model,
            reply: None,
            error: Some(error),
            millis,
        },
    })
}

async fn job_endpoint(db: &Db, id: i64) -> Result<JobEndpoint> {
    db::jobs::endpoint(db, id).await.map_err(|e| match e {
        db::DbError::NotFound(m) => Error::Invalid(m),
        other => other.into(),
    })
}

/// The first run number of `model` on the dataset that no stored run and no
/// unfinished job (which may still store its runs) has taken.
async fn first_free_run(db: &Db, dataset_id: i64, model: &str) -> Result<u32> {
    let after_stored = db::runs::next_run_number(db, dataset_id, model).await?;
    let after_reserved = db::jobs::unfinished_jobs(db, dataset_id)
        .await?
        .iter()
        .filter(|j| j.spec.model.model == model)
        .map(|j| j.spec.first_run.saturating_add(j.spec.runs))
        .max()
        .unwrap_or(1);
    Ok(after_stored.max(after_reserved))
}

#[cfg(test)]
mod tests {
    use engine::core::entry::Family;

    use super::*;

    fn spec() -> JobSpec {
        let e = |id, model: &str| JobEndpoint {
            id,
            name: model.to_lowercase(),
            base_url: "http://127.0.0.1:9/v1".into(),
            model: model.into(),
            key_env: Some("K".into()),
            vendor: None,
            created_at: String::new(),
        };
        JobSpec {
            benchmark: Benchmark::Lexpilot,
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
            family: Some(Family::Open),
            plawbench: None,
            dlawbench: None,
            experiment: None,
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
    fn a_targeted_spec_becomes_the_experiment_configuration() {
        let targeted = JobSpec {
            user: Some(spec().model),
            tasks: Vec::new(),
            limit: None,
            experiment: Some(Experiment::Targeted),
            ..spec()
        };
        let config = targeted_config(&targeted, PathBuf::from("/out")).expect("config");
        assert_eq!((config.runs, config.first_run), (2, 3));
        assert_eq!(config.judge.settings, pipeline::config::Settings::JUDGE);
        assert_eq!(config.dataset_name.as_deref(), Some("demo"));
        assert!(check_spec(&targeted).is_ok());
        for (bad, why) in [
            (
                JobSpec {
                    user: None,
                    ..targeted.clone()
                },
                "user model",
            ),
            (
                JobSpec {
                    limit: Some(5),
                    ..targeted.clone()
                },
                "limit",
            ),
            (
                JobSpec {
                    experiment: None,
                    ..targeted.clone()
                },
                "not a LexPilot",
            ),
        ] {
            let e = targeted_config(&bad, PathBuf::new()).expect_err("refused");
            assert!(e.contains(why), "{e}");
        }
        assert!(
            pipeline_config(&targeted, PathBuf::new()).is_err(),
            "no tasks"
        );
    }

    #[test]
    fn a_plawbench_spec_becomes_its_pipeline_configuration() {
        use engine::core::panel::Aggregation;
        use engine::plawbench::run::ParseMode;

        let plaw = JobSpec {
            benchmark: Benchmark::Plawbench,
            tasks: Vec::new(),
            user_condition: String::new(),
            plawbench: Some(PlawbenchSettings {
                judge_aggregation: Aggregation::Median,
                judge_parse: ParseMode::Strict,
                judge_attempts: 3,
                max_tokens: 16_384,
                model_family: Some("Acme".into()),
            }),
            ..spec()
        };
        assert_eq!(check_spec(&plaw), Ok(()));
        let config = plawbench_config(&plaw, PathBuf::from("/out")).expect("config");
        assert_eq!(config.dataset_name.as_deref(), Some("demo-first5"));
        assert_eq!((config.runs, config.first_run), (2, 3));
        assert_eq!(
            (
                config.aggregation,
                config.parse,
                config.retry.judge_attempts
            ),
            (Aggregation::Median, ParseMode::Strict, 3)
        );
        assert_eq!(config.model.settings.max_tokens, 16_384);
        assert_eq!(config.judges[0].settings.max_tokens, 16_384);
        assert_eq!(config.judges[0].settings.temperature, 0.1);
        assert_eq!(config.model_family.as_deref(), Some("Acme"));
        assert!(pipeline_config(&plaw, PathBuf::new()).is_err());

        let defaults = plawbench_config(
            &JobSpec {
                plawbench: None,
                ..plaw.clone()
            },
            PathBuf::new(),
        )
        .expect("defaults");
        assert_eq!(defaults.retry.judge_attempts, 1);
        assert_eq!(defaults.parse, ParseMode::Lenient);
        let bad = |settings: PlawbenchSettings| JobSpec {
            plawbench: Some(settings),
            ..plaw.clone()
        };
        for spec in [
            bad(PlawbenchSettings {
                judge_attempts: 0,
                ..PlawbenchSettings::default()
            }),
            bad(PlawbenchSettings {
                max_tokens: 0,
                ..PlawbenchSettings::default()
            }),
            JobSpec {
                judges: vec![
                    plaw.judges[0].clone(),
                    JobEndpoint {
                        id: 9,
                        ..plaw.judges[0].clone()
                    },
                ],
                ..plaw.clone()
            },
        ] {
            assert!(check_spec(&spec).is_err(), "{spec:?}");
        }
    }

    #[test]
    fn a_dlawbench_spec_becomes_its_pipeline_configuration_and_waits_for_hosting() {
        use engine::dlawbench::dataset::Style;

        let dlaw = JobSpec {
            benchmark: Benchmark::Dlawbench,
            tasks: Vec::new(),
            user_condition: String::new(),
            user: Some(JobEndpoint {
                id: 7,
                model: "C".into(),
                ..spec().judges[0].clone()
            }),
            dlawbench: Some(DlawbenchSettings {
                styles: vec![Style::Withdrawn, Style::Adversarial],
                horizon: 4,
                lawyer_attempts: 2,
                judge_attempts: 5,
            }),
            ..spec()
        };
        let config = dlawbench_config(&dlaw, PathBuf::from("/out")).expect("config");
        assert_eq!(config.dataset_name.as_deref(), Some("demo-first5"));
        assert_eq!((config.runs, config.first_run), (2, 3));
        assert_eq!(config.client.model, "C");
        assert_eq!(config.styles, [Style::Withdrawn, Style::Adversarial]);
        assert_eq!(
            (
                config.horizon,
                config.lawyer_attempts,
                config.retry.judge_attempts
            ),
            (4, 2, 5)
        );
        assert_eq!(config.judges[0].settings, pipeline::config::Settings::JUDGE);
        assert!(plawbench_config(&dlaw, PathBuf::new()).is_err());

        let defaults = dlawbench_config(
            &JobSpec {
                dlawbench: None,
                ..dlaw.clone()
            },
            PathBuf::new(),
        )
        .expect("defaults");
        assert_eq!((defaults.styles.len(), defaults.horizon), (4, 10));
        assert_eq!(
            (defaults.lawyer_attempts, defaults.retry.judge_attempts),
            (6, 3)
        );
        let bad = |settings: DlawbenchSettings| JobSpec {
            dlawbench: Some(settings),
            ..dlaw.clone()
        };
        for spec in [
            bad(DlawbenchSettings {
                styles: Vec::new(),
                ..DlawbenchSettings::default()
            }),
            bad(DlawbenchSettings {
                horizon: 0,
                ..DlawbenchSettings::default()
            }),
            bad(DlawbenchSettings {
                lawyer_attempts: 0,
                ..DlawbenchSettings::default()
            }),
            JobSpec {
                user: None,
                ..dlaw.clone()
            },
        ] {
            assert!(dlawbench_config(&spec, PathBuf::new()).is_err(), "{spec:?}");
        }
        // A job is checked as its benchmark's: this one is whole.
        assert_eq!(check_spec(&dlaw), Ok(()));
    }
}
