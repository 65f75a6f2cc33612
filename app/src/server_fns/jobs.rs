//! Benchmark endpoints and jobs (the `/admin/runs` page): configure
//! OpenAI-compatible endpoints, start a pipeline job in the background, watch,
//! cancel and restart it. Admins only: every function starts with
//! `require(Permission::RunBenchmark)`, whatever the page shows.
//!
//! An endpoint names the environment variable holding its API key; keys are
//! read by the job when it starts and appear in no row and no response. The
//! runner itself is [`crate::jobs`].

// `start_job` takes one argument per form field; the `#[server]` macro also
// generates the browser's caller of it, which an attribute on the function
// does not reach.
#![allow(clippy::too_many_arguments)]

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// A configured endpoint, as the page shows it.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct EndpointView {
    pub id: i64,
    pub name: String,
    pub base_url: String,
    pub model: String,
    /// The name of the environment variable holding the key.
    pub key_env: Option<String>,
    pub vendor: Option<String>,
    /// Whether that variable is set (non-empty) in the server's environment.
    pub key_set: bool,
}

/// An endpoint as a job uses it: a copy kept with the job, so that editing
/// or deleting the endpoint later changes nothing a restart runs.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct JobEndpoint {
    pub id: i64,
    pub name: String,
    pub base_url: String,
    pub model: String,
    pub key_env: Option<String>,
    pub vendor: Option<String>,
}

/// What a job runs, stored with it as JSON.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct JobSpec {
    /// The name of the dataset version it runs on.
    pub dataset: String,
    /// The evaluated model.
    pub model: JobEndpoint,
    /// The user model (simulated plaintiff), if the tasks need one.
    pub user: Option<JobEndpoint>,
    /// The judge panel (one judge, or several).
    pub judges: Vec<JobEndpoint>,
    /// `lca`, `dcg`, `ljp:direct`, `ljp:interaction`, `ljp:gold`.
    pub tasks: Vec<String>,
    /// Repetitions.
    pub runs: u32,
    /// The number of the first repetition, after those stored or reserved.
    pub first_run: u32,
    /// Requests in flight per endpoint.
    pub concurrency: u32,
    /// One of the seven user conditions (`standard`, …).
    pub user_condition: String,
    /// Only the first N cases (set only when N is below the case count).
    pub limit: Option<u32>,
    /// `legal`, `open` or `closed`.
    pub family: Option<String>,
}

/// How far a job is, as last recorded.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug, Default)]
pub struct JobProgressView {
    pub done: usize,
    pub total: usize,
    /// Items marked unavailable.
    pub failures: usize,
    /// HTTP requests sent.
    pub calls: u64,
    /// Calls served from the cache.
    pub cached_calls: u64,
    pub retries: u64,
    pub runs_written: usize,
    pub elapsed_secs: f64,
}

/// A job, as the page shows it.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct JobView {
    pub id: i64,
    /// `queued`, `running`, `done`, `failed`, `cancelled` or `interrupted`.
    pub status: String,
    /// Queued or running: it can be cancelled.
    pub active: bool,
    /// Failed, cancelled or interrupted: it can be restarted.
    pub restartable: bool,
    /// A cancel was asked for and the job is finishing its calls in flight.
    pub cancel_requested: bool,
    pub spec: JobSpec,
    pub progress: Option<JobProgressView>,
    pub error: Option<String>,
    pub runs_stored: i64,
    pub created_by: Option<String>,
    pub created_at: String,
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
}

/// Every configured endpoint, by name.
#[server(prefix = "/sfn")]
pub async fn list_endpoints() -> Result<Vec<EndpointView>, ServerFnError> {
    use crate::ssr::{db, from_db, require};

    require(engine::accounts::Permission::RunBenchmark).await?;
    let endpoints = db::jobs::list_endpoints(&db()?).await.map_err(from_db)?;
    Ok(endpoints.into_iter().map(ssr::endpoint_view).collect())
}

/// Creates an endpoint, or updates endpoint `id`. `key_env` is the NAME of
/// an environment variable (`[A-Z_][A-Z0-9_]*`); anything that looks like a
/// key is refused, without echoing it.
#[server(prefix = "/sfn")]
pub async fn save_endpoint(
    id: Option<i64>,
    name: String,
    base_url: String,
    model: String,
    key_env: Option<String>,
    vendor: Option<String>,
) -> Result<EndpointView, ServerFnError> {
    use crate::jobs::{check_endpoint, EndpointInput};
    use crate::ssr::{db, from_db, require};

    require(engine::accounts::Permission::RunBenchmark).await?;
    let input = EndpointInput {
        name: &name,
        base_url: &base_url,
        model: &model,
        key_env: key_env.as_deref(),
        vendor: vendor.as_deref(),
    };
    let fields = check_endpoint(&input).map_err(ssr::bad_request)?;
    let saved = db::jobs::save_endpoint(&db()?, id, fields)
        .await
        .map_err(from_db)?;
    Ok(ssr::endpoint_view(saved))
}

/// Deletes endpoint `id` (jobs keep their own copy of it).
#[server(prefix = "/sfn")]
pub async fn delete_endpoint(id: i64) -> Result<(), ServerFnError> {
    use crate::ssr::{db, from_db, require};

    require(engine::accounts::Permission::RunBenchmark).await?;
    db::jobs::delete_endpoint(&db()?, id).await.map_err(from_db)
}

/// The latest jobs, newest first.
#[server(prefix = "/sfn")]
pub async fn list_jobs() -> Result<Vec<JobView>, ServerFnError> {
    use crate::ssr::{db, from_db, require};

    require(engine::accounts::Permission::RunBenchmark).await?;
    let jobs = db::jobs::list_jobs(&db()?, ssr::JOBS_LISTED)
        .await
        .map_err(from_db)?;
    let manager = ssr::manager()?;
    jobs.into_iter()
        .map(|j| ssr::job_view(j, &manager))
        .collect()
}

/// Job `id`.
#[server(prefix = "/sfn")]
pub async fn get_job(id: i64) -> Result<JobView, ServerFnError> {
    use crate::ssr::{db, from_db, require};

    require(engine::accounts::Permission::RunBenchmark).await?;
    let job = db::jobs::job(&db()?, id).await.map_err(from_db)?;
    ssr::job_view(job, &ssr::manager()?)
}

/// Starts a job on the current dataset in the background and returns it
/// queued. `model`, `user` and `judges` are endpoint ids (`user` may be empty
/// when no task needs the user model); `tasks` are `lca`, `dcg`, `ljp`,
/// `ljp:direct`, `ljp:interaction`, `ljp:gold`; `limit` (optional) runs the
/// first N cases only. A form sends lists as `judges[0]=…&judges[1]=…`.
// One argument per form field. `allow`, not `expect`: the `server` macro
// copies the attribute onto items where the lint does not fire.
#[server(prefix = "/sfn")]
pub async fn start_job(
    model: i64,
    user: Option<String>,
    judges: Option<Vec<i64>>,
    tasks: Option<Vec<String>>,
    runs: u32,
    concurrency: u32,
    user_condition: String,
    limit: Option<String>,
    family: Option<String>,
) -> Result<JobView, ServerFnError> {
    use crate::ssr::{current_dataset, db, from_db, require};

    let account = require(engine::accounts::Permission::RunBenchmark).await?;
    let db = db()?;
    let manager = ssr::manager()?;
    let dataset = current_dataset(&db).await?;
    let user = match user.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
        None => None,
        Some(u) => Some(u.parse::<i64>().map_err(|_| {
            ssr::bad_request(format!(
                "the user endpoint must be an endpoint id, not {u:?}"
            ))
        })?),
    };
    let limit = match limit.as_deref().map(str::trim).filter(|l| !l.is_empty()) {
        None => None,
        Some(l) => match l.parse::<u32>() {
            Ok(n) if n >= 1 => Some(n),
            _ => {
                return Err(ssr::bad_request(
                    "the limit must be a whole number of at least 1",
                ))
            }
        },
    };
    let judge_ids = judges.unwrap_or_default();
    let mut judge_endpoints = Vec::with_capacity(judge_ids.len());
    for id in judge_ids {
        if judge_endpoints.iter().all(|j: &JobEndpoint| j.id != id) {
            judge_endpoints.push(ssr::job_endpoint(&db, id).await?);
        }
    }
    let model = ssr::job_endpoint(&db, model).await?;
    let user = match user {
        Some(id) => Some(ssr::job_endpoint(&db, id).await?),
        None => None,
    };
    let runs_reserved = ssr::first_free_run(&db, dataset.id, &model.model).await?;
    let spec = JobSpec {
        dataset: dataset.name.clone(),
        model,
        user,
        judges: judge_endpoints,
        tasks: tasks
            .unwrap_or_default()
            .into_iter()
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty())
            .collect(),
        runs,
        first_run: runs_reserved,
        concurrency,
        user_condition: user_condition.trim().to_owned(),
        limit: limit.filter(|&n| i64::from(n) < dataset.case_count),
        family: family
            .map(|f| f.trim().to_owned())
            .filter(|f| !f.is_empty()),
    };
    crate::jobs::pipeline_config(&spec, std::path::PathBuf::new()).map_err(ssr::bad_request)?;
    let config = serde_json::to_string(&spec).map_err(crate::ssr::internal)?;
    let new = db::jobs::NewJob {
        dataset_id: dataset.id,
        config: &config,
        created_by: account.id,
    };
    let job = db::jobs::create_job(&db, new, |id| manager.out_dir(id).display().to_string())
        .await
        .map_err(from_db)?;
    ssr::launch(&db, &manager, job).await
}

/// Asks job `id` to stop: no new call starts, calls in flight finish and are
/// cached, and the job ends `cancelled` with nothing stored.
#[server(prefix = "/sfn")]
pub async fn cancel_job(id: i64) -> Result<JobView, ServerFnError> {
    use crate::ssr::{db, from_db, require};
    use db::jobs::{JobStatus, Outcome};

    require(engine::accounts::Permission::RunBenchmark).await?;
    let db = db()?;
    let manager = ssr::manager()?;
    let job = db::jobs::job(&db, id).await.map_err(from_db)?;
    if !job.status.is_active() {
        return Err(ssr::bad_request(format!(
            "job {id} is {}; only a queued or running job can be cancelled",
            job.status.as_str()
        )));
    }
    if !manager.cancel(id) {
        // Active in the table but no task of this process runs it.
        let outcome = Outcome {
            status: JobStatus::Cancelled,
            progress: None,
            error: Some(crate::jobs::CANCELLED),
            runs_stored: 0,
        };
        db::jobs::finish(&db, id, outcome).await.map_err(from_db)?;
    }
    let job = db::jobs::job(&db, id).await.map_err(from_db)?;
    ssr::job_view(job, &manager)
}

/// Starts failed, cancelled or interrupted job `id` again with the same
/// settings and out dir: every call its cache holds is not made again.
#[server(prefix = "/sfn")]
pub async fn restart_job(id: i64) -> Result<JobView, ServerFnError> {
    use crate::ssr::{db, from_db, require};

    require(engine::accounts::Permission::RunBenchmark).await?;
    let db = db()?;
    let manager = ssr::manager()?;
    let job = db::jobs::requeue(&db, id).await.map_err(from_db)?;
    ssr::launch(&db, &manager, job).await
}

#[cfg(feature = "ssr")]
mod ssr {
    use axum::http::StatusCode;
    use db::jobs::{JobStatus, Outcome};
    use db::Db;
    use leptos::prelude::*;

    use super::{EndpointView, JobEndpoint, JobSpec, JobView};
    use crate::jobs::JobManager;
    use crate::ssr::{from_db, internal, set_status};

    /// How many jobs the list shows.
    pub const JOBS_LISTED: i64 = 50;

    /// A 400 error with `message`.
    pub fn bad_request(message: impl Into<String>) -> ServerFnError {
        set_status(StatusCode::BAD_REQUEST);
        ServerFnError::new(message.into())
    }

    /// The job runner of this server.
    pub fn manager() -> Result<JobManager, ServerFnError> {
        use_context::<crate::ssr::AppState>()
            .map(|s| s.jobs)
            .ok_or_else(|| ServerFnError::new("application state is missing"))
    }

    pub fn endpoint_view(e: db::jobs::Endpoint) -> EndpointView {
        let key_set = e.key_env.as_deref().is_some_and(crate::jobs::key_is_set);
        EndpointView {
            id: e.id,
            name: e.name,
            base_url: e.base_url,
            model: e.model,
            key_env: e.key_env,
            vendor: e.vendor,
            key_set,
        }
    }

    /// A copy of endpoint `id` for a job's settings.
    pub async fn job_endpoint(db: &Db, id: i64) -> Result<JobEndpoint, ServerFnError> {
        let e = db::jobs::endpoint(db, id).await.map_err(|e| match e {
            db::DbError::NotFound(m) => bad_request(m),
            other => from_db(other),
        })?;
        Ok(JobEndpoint {
            id: e.id,
            name: e.name,
            base_url: e.base_url,
            model: e.model,
            key_env: e.key_env,
            vendor: e.vendor,
        })
    }

    /// The first run number of `model` on the dataset that no stored run and
    /// no unfinished job (which may still store its runs) has taken.
    pub async fn first_free_run(
        db: &Db,
        dataset_id: i64,
        model: &str,
    ) -> Result<u32, ServerFnError> {
        let after_stored = db::jobs::next_run_number(db, dataset_id, model)
            .await
            .map_err(from_db)?;
        let unfinished = db::jobs::unfinished_jobs(db, dataset_id)
            .await
            .map_err(from_db)?;
        let after_reserved = unfinished
            .iter()
            .filter_map(|j| serde_json::from_str::<JobSpec>(&j.config).ok())
            .filter(|s| s.model.model == model)
            .map(|s| s.first_run.saturating_add(s.runs))
            .max()
            .unwrap_or(1);
        Ok(after_stored.max(after_reserved))
    }

    /// Hands queued `job` to the runner; if it cannot start, it is marked
    /// failed with the reason.
    pub async fn launch(
        db: &Db,
        manager: &JobManager,
        job: db::jobs::Job,
    ) -> Result<JobView, ServerFnError> {
        let id = job.id;
        if let Err(reason) = manager.start(db, &job) {
            let outcome = Outcome {
                status: JobStatus::Failed,
                progress: None,
                error: Some(&reason),
                runs_stored: 0,
            };
            db::jobs::finish(db, id, outcome).await.map_err(from_db)?;
        }
        let job = db::jobs::job(db, id).await.map_err(from_db)?;
        job_view(job, manager)
    }

    pub fn job_view(job: db::jobs::Job, manager: &JobManager) -> Result<JobView, ServerFnError> {
        let spec: JobSpec = serde_json::from_str(&job.config)
            .map_err(|e| internal(format!("job {}: stored settings: {e}", job.id)))?;
        let progress = job
            .progress
            .as_deref()
            .and_then(|p| serde_json::from_str(p).ok());
        Ok(JobView {
            id: job.id,
            status: job.status.as_str().to_owned(),
            active: job.status.is_active(),
            restartable: job.status.is_restartable(),
            cancel_requested: job.status.is_active() && manager.cancel_requested(job.id),
            spec,
            progress,
            error: job.error,
            runs_stored: job.runs_stored,
            created_by: job.created_by,
            created_at: job.created_at,
            started_at: job.started_at,
            finished_at: job.finished_at,
        })
    }
}
