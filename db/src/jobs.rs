//! Benchmark endpoints and jobs (the `/admin/runs` page): the endpoints an
//! admin configured, and each pipeline job with its status, last progress and
//! outcome. An endpoint stores the *name* of the environment variable that
//! holds its API key, never a key.
//!
//! Rows come back as the engine's types ([`engine::jobs`]): a job's settings
//! and progress are kept as their JSON. Status changes are guarded in SQL (a job is
//! only started from `queued`, restarted from a stopped state), so two
//! requests racing on one job cannot both win. Every write announces
//! [`Change::JobProgress`] after it commits.

pub use engine::jobs::{Endpoint, EndpointFields, Job, JobSpec, JobStatus, Progress};

use crate::events::Change;
use crate::{now, Db, DbError, Result};

/// An endpoint row.
#[derive(sqlx::FromRow)]
struct EndpointRow {
    id: i64,
    name: String,
    base_url: String,
    model: String,
    key_env: Option<String>,
    vendor: Option<String>,
    created_at: String,
}

impl From<EndpointRow> for Endpoint {
    fn from(r: EndpointRow) -> Endpoint {
        Endpoint {
            id: r.id,
            name: r.name,
            base_url: r.base_url,
            model: r.model,
            key_env: r.key_env,
            vendor: r.vendor,
            created_at: r.created_at,
        }
    }
}

const ENDPOINT_COLUMNS: &str = "id, name, base_url, model, key_env, vendor, created_at";

/// Every endpoint, by name.
pub async fn list_endpoints(db: &Db) -> Result<Vec<Endpoint>> {
    let rows: Vec<EndpointRow> = sqlx::query_as(&format!(
        "SELECT {ENDPOINT_COLUMNS} FROM endpoints ORDER BY name"
    ))
    .fetch_all(db.pool())
    .await?;
    Ok(rows.into_iter().map(Endpoint::from).collect())
}

/// The endpoint `id`; `NotFound` if there is none.
pub async fn endpoint(db: &Db, id: i64) -> Result<Endpoint> {
    sqlx::query_as::<_, EndpointRow>(&format!(
        "SELECT {ENDPOINT_COLUMNS} FROM endpoints WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(db.pool())
    .await?
    .map(Endpoint::from)
    .ok_or_else(|| DbError::NotFound(format!("no endpoint with id {id}")))
}

fn name_taken(e: sqlx::Error, name: &str) -> DbError {
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => {
            DbError::Conflict(format!("an endpoint named {name} exists already"))
        }
        _ => DbError::from(e),
    }
}

/// Creates an endpoint (`id` `None`) or updates endpoint `id`. `Conflict` when
/// another endpoint has the name, `NotFound` for an unknown `id`.
pub async fn save_endpoint(
    db: &Db,
    id: Option<i64>,
    fields: EndpointFields<'_>,
) -> Result<Endpoint> {
    let query = match id {
        None => format!(
            "INSERT INTO endpoints (name, base_url, model, key_env, vendor, created_at)
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING {ENDPOINT_COLUMNS}"
        ),
        Some(_) => format!(
            "UPDATE endpoints SET name = $1, base_url = $2, model = $3, key_env = $4, vendor = $5
             WHERE id = $6 RETURNING {ENDPOINT_COLUMNS}"
        ),
    };
    let mut q = sqlx::query_as::<_, EndpointRow>(&query)
        .bind(fields.name)
        .bind(fields.base_url)
        .bind(fields.model)
        .bind(fields.key_env)
        .bind(fields.vendor);
    q = match id {
        None => q.bind(now()),
        Some(id) => q.bind(id),
    };
    q.fetch_optional(db.pool())
        .await
        .map_err(|e| name_taken(e, fields.name))?
        .map(Endpoint::from)
        .ok_or_else(|| DbError::NotFound(format!("no endpoint with id {}", id.unwrap_or(0))))
}

/// Deletes endpoint `id`. Jobs keep their own copy of the endpoints they use,
/// so they are not affected. `NotFound` if there is none.
pub async fn delete_endpoint(db: &Db, id: i64) -> Result<()> {
    let done = sqlx::query("DELETE FROM endpoints WHERE id = $1")
        .bind(id)
        .execute(db.pool())
        .await?;
    if done.rows_affected() == 0 {
        return Err(DbError::NotFound(format!("no endpoint with id {id}")));
    }
    Ok(())
}

#[derive(sqlx::FromRow)]
struct JobRow {
    id: i64,
    dataset_id: Option<i64>,
    config: String,
    status: String,
    progress: Option<String>,
    out_dir: String,
    error: Option<String>,
    runs_stored: i64,
    created_by_id: Option<i64>,
    created_by: Option<String>,
    created_at: String,
    started_at: Option<String>,
    finished_at: Option<String>,
}

impl TryFrom<JobRow> for Job {
    type Error = DbError;

    fn try_from(r: JobRow) -> Result<Job> {
        let status = JobStatus::parse(&r.status)
            .ok_or_else(|| DbError::Corrupt(format!("job status {:?}", r.status)))?;
        let spec = serde_json::from_str(&r.config)
            .map_err(|e| DbError::Corrupt(format!("job {}: stored settings: {e}", r.id)))?;
        // Progress is a report: one that no longer reads is shown as none.
        let progress = r.progress.and_then(|p| serde_json::from_str(&p).ok());
        Ok(Job {
            id: r.id,
            dataset_id: r.dataset_id,
            spec,
            status,
            progress,
            out_dir: r.out_dir,
            error: r.error,
            runs_stored: r.runs_stored,
            created_by_id: r.created_by_id,
            created_by: r.created_by,
            created_at: r.created_at,
            started_at: r.started_at,
            finished_at: r.finished_at,
        })
    }
}

const JOB_SELECT: &str = "SELECT j.id, j.dataset_id, j.config, j.status, j.progress, j.out_dir,
        j.error, j.runs_stored, j.created_by AS created_by_id, u.name AS created_by, j.created_at, j.started_at, j.finished_at
     FROM benchmark_jobs j LEFT JOIN users u ON u.id = j.created_by";

/// What a new job is.
#[derive(Debug, Clone, Copy)]
pub struct NewJob<'a> {
    /// The dataset version it runs on.
    pub dataset_id: i64,
    /// Its settings.
    pub spec: &'a JobSpec,
    /// The account starting it.
    pub created_by: i64,
}

/// Stores a new `queued` job in one transaction; its out dir is
/// `out_dir(id)`, for the id the job gets.
pub async fn create_job(
    db: &Db,
    job: NewJob<'_>,
    out_dir: impl FnOnce(i64) -> String,
) -> Result<Job> {
    let config = serde_json::to_string(job.spec).map_err(|e| DbError::Invalid(e.to_string()))?;
    let mut tx = crate::begin_write(db).await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO benchmark_jobs (dataset_id, config, status, out_dir, created_by, created_at)
         VALUES ($1, $2, 'queued', '', $3, $4) RETURNING id",
    )
    .bind(job.dataset_id)
    .bind(config)
    .bind(job.created_by)
    .bind(now())
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query("UPDATE benchmark_jobs SET out_dir = $1 WHERE id = $2")
        .bind(out_dir(id))
        .bind(id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    announce(db, id, JobStatus::Queued);
    self::job(db, id).await
}

/// The job `id`; `NotFound` if there is none.
pub async fn job(db: &Db, id: i64) -> Result<Job> {
    sqlx::query_as::<_, JobRow>(&format!("{JOB_SELECT} WHERE j.id = $1"))
        .bind(id)
        .fetch_optional(db.pool())
        .await?
        .ok_or_else(|| DbError::NotFound(format!("no benchmark job with id {id}")))?
        .try_into()
}

/// The latest `limit` jobs, newest first.
pub async fn list_jobs(db: &Db, limit: i64) -> Result<Vec<Job>> {
    sqlx::query_as::<_, JobRow>(&format!("{JOB_SELECT} ORDER BY j.id DESC LIMIT $1"))
        .bind(limit)
        .fetch_all(db.pool())
        .await?
        .into_iter()
        .map(Job::try_from)
        .collect()
}

/// Every job of dataset version `dataset_id` that is not done (active or
/// restartable), oldest first: the run numbers they will store are taken.
pub async fn unfinished_jobs(db: &Db, dataset_id: i64) -> Result<Vec<Job>> {
    sqlx::query_as::<_, JobRow>(&format!(
        "{JOB_SELECT} WHERE j.dataset_id = $1 AND j.status <> 'done' ORDER BY j.id"
    ))
    .bind(dataset_id)
    .fetch_all(db.pool())
    .await?
    .into_iter()
    .map(Job::try_from)
    .collect()
}

fn announce(db: &Db, job_id: i64, status: JobStatus) {
    db.notify(Change::JobProgress { job_id, status });
}

/// Marks queued job `id` running; `Conflict` if it is not queued.
pub async fn mark_running(db: &Db, id: i64) -> Result<()> {
    let done = sqlx::query(
        "UPDATE benchmark_jobs SET status = 'running', started_at = $1, progress = NULL
         WHERE id = $2 AND status = 'queued'",
    )
    .bind(now())
    .bind(id)
    .execute(db.pool())
    .await?;
    if done.rows_affected() == 0 {
        return Err(DbError::Conflict(format!("job {id} is not queued")));
    }
    announce(db, id, JobStatus::Running);
    Ok(())
}

/// Records the progress of running job `id` (a no-op once it stopped).
pub async fn set_progress(db: &Db, id: i64, progress: &Progress) -> Result<()> {
    let progress = serde_json::to_string(progress).map_err(|e| DbError::Invalid(e.to_string()))?;
    let done =
        sqlx::query("UPDATE benchmark_jobs SET progress = $1 WHERE id = $2 AND status = 'running'")
            .bind(progress)
            .bind(id)
            .execute(db.pool())
            .await?;
    if done.rows_affected() > 0 {
        announce(db, id, JobStatus::Running);
    }
    Ok(())
}

/// How a job ended.
#[derive(Debug, Clone, Copy)]
pub struct Outcome<'a> {
    /// `Done`, `Failed` or `Cancelled`.
    pub status: JobStatus,
    /// The last progress.
    pub progress: Option<&'a Progress>,
    /// Why it failed or stopped.
    pub error: Option<&'a str>,
    /// Runs stored.
    pub runs_stored: usize,
}

/// Records how active job `id` ended; `Conflict` if it was not active (it
/// was marked interrupted meanwhile, say).
pub async fn finish(db: &Db, id: i64, outcome: Outcome<'_>) -> Result<()> {
    if outcome.status.is_active() {
        return Err(DbError::Invalid(format!(
            "a job cannot finish as {}",
            outcome.status.as_str()
        )));
    }
    let progress = outcome
        .progress
        .map(serde_json::to_string)
        .transpose()
        .map_err(|e| DbError::Invalid(e.to_string()))?;
    let done = sqlx::query(
        "UPDATE benchmark_jobs
         SET status = $1, progress = COALESCE($2, progress), error = $3, runs_stored = $4,
             finished_at = $5
         WHERE id = $6 AND status IN ('queued', 'running')",
    )
    .bind(outcome.status.as_str())
    .bind(progress)
    .bind(outcome.error)
    .bind(i64::try_from(outcome.runs_stored).unwrap_or(i64::MAX))
    .bind(now())
    .bind(id)
    .execute(db.pool())
    .await?;
    if done.rows_affected() == 0 {
        return Err(DbError::Conflict(format!("job {id} is not active")));
    }
    announce(db, id, outcome.status);
    Ok(())
}

/// Queues stopped job `id` again (failed, cancelled or interrupted), keeping
/// its settings, out dir and last progress; `Conflict` otherwise.
pub async fn requeue(db: &Db, id: i64) -> Result<Job> {
    let done = sqlx::query(
        "UPDATE benchmark_jobs
         SET status = 'queued', error = NULL, runs_stored = 0, started_at = NULL,
             finished_at = NULL
         WHERE id = $1 AND status IN ('failed', 'cancelled', 'interrupted')",
    )
    .bind(id)
    .execute(db.pool())
    .await?;
    if done.rows_affected() == 0 {
        let current = job(db, id).await?;
        return Err(DbError::Conflict(format!(
            "job {id} is {}; only a failed, cancelled or interrupted job can be restarted",
            current.status.as_str()
        )));
    }
    announce(db, id, JobStatus::Queued);
    job(db, id).await
}

/// The message of a job cut off by a server stop.
pub const INTERRUPTED: &str =
    "the server stopped while the job was running; restart it to resume from its call cache";

/// Marks every queued or running job interrupted: called once at start-up,
/// when no job of this process can be running yet. Returns how many.
pub async fn interrupt_unfinished(db: &Db) -> Result<u64> {
    let done = sqlx::query(
        "UPDATE benchmark_jobs SET status = 'interrupted', error = $1, finished_at = $2
         WHERE status IN ('queued', 'running')",
    )
    .bind(INTERRUPTED)
    .bind(now())
    .execute(db.pool())
    .await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn db_with_dataset() -> (Db, i64, i64) {
        let db = Db::open_for_test(None).await.expect("db");
        let user = crate::users::create(&db, "admin", engine::accounts::Role::Admin, "password1")
            .await
            .expect("user");
        let dataset: i64 = sqlx::query_scalar(
            "INSERT INTO datasets (name, version, content_hash, synthetic, source, case_count,
                                   created_at)
             VALUES ('d', 1, 'h', FALSE, 's', 0, 'now') RETURNING id",
        )
        .fetch_one(db.pool())
        .await
        .expect("dataset");
        (db, dataset, user.id)
    }

    fn spec() -> JobSpec {
        let endpoint = Endpoint {
            id: 1,
            name: "m".into(),
            base_url: "http://127.0.0.1:9/v1".into(),
            model: "M".into(),
            key_env: None,
            vendor: None,
            created_at: String::new(),
        };
        JobSpec {
            benchmark: engine::benchmark::Benchmark::Lexpilot,
            dataset: "d".into(),
            model: endpoint.clone(),
            user: None,
            judges: vec![endpoint],
            tasks: vec!["lca".into()],
            runs: 1,
            first_run: 1,
            concurrency: 1,
            user_condition: "standard".into(),
            limit: None,
            family: None,
            plawbench: None,
            dlawbench: None,
            experiment: None,
        }
    }

    fn fields<'a>(name: &'a str) -> EndpointFields<'a> {
        EndpointFields {
            name,
            base_url: "http://127.0.0.1:9/v1",
            model: "M",
            key_env: Some("M_KEY"),
            vendor: None,
        }
    }

    #[tokio::test]
    async fn endpoints_are_created_updated_and_deleted_with_unique_names() {
        let (db, _, _) = db_with_dataset().await;
        let a = save_endpoint(&db, None, fields("a")).await.expect("a");
        let b = save_endpoint(&db, None, fields("b")).await.expect("b");
        assert!(matches!(
            save_endpoint(&db, None, fields("a")).await,
            Err(DbError::Conflict(_))
        ));
        assert!(matches!(
            save_endpoint(&db, Some(b.id), fields("a")).await,
            Err(DbError::Conflict(_))
        ));
        let renamed = save_endpoint(&db, Some(a.id), fields("c"))
            .await
            .expect("update");
        assert_eq!((renamed.id, renamed.name.as_str()), (a.id, "c"));
        assert_eq!(renamed.created_at, a.created_at);
        assert!(matches!(
            save_endpoint(&db, Some(999), fields("z")).await,
            Err(DbError::NotFound(_))
        ));
        delete_endpoint(&db, a.id).await.expect("delete");
        assert!(matches!(
            delete_endpoint(&db, a.id).await,
            Err(DbError::NotFound(_))
        ));
        let names: Vec<String> = list_endpoints(&db)
            .await
            .expect("list")
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["b"]);
    }

    #[tokio::test]
    async fn a_job_moves_through_guarded_states_and_announces_each() {
        let (db, dataset_id, user) = db_with_dataset().await;
        let mut feed = db.subscribe();
        let spec = spec();
        let new = NewJob {
            dataset_id,
            spec: &spec,
            created_by: user,
        };
        let job = create_job(&db, new, |id| format!("/data/jobs/{id}"))
            .await
            .expect("job");
        assert_eq!(job.status, JobStatus::Queued);
        assert_eq!(job.out_dir, format!("/data/jobs/{}", job.id));
        assert_eq!(job.created_by.as_deref(), Some("admin"));
        assert!(matches!(
            requeue(&db, job.id).await,
            Err(DbError::Conflict(_))
        ));
        mark_running(&db, job.id).await.expect("running");
        assert!(matches!(
            mark_running(&db, job.id).await,
            Err(DbError::Conflict(_))
        ));
        let one = Progress {
            done: 1,
            ..Progress::default()
        };
        set_progress(&db, job.id, &one).await.expect("progress");
        let failed = Outcome {
            status: JobStatus::Failed,
            progress: None,
            error: Some("boom"),
            runs_stored: 0,
        };
        finish(&db, job.id, failed).await.expect("finish");
        let stored = self::job(&db, job.id).await.expect("job");
        assert_eq!(stored.status, JobStatus::Failed);
        assert_eq!(stored.progress, Some(one));
        assert_eq!(stored.spec, spec);
        assert!(matches!(
            finish(&db, job.id, failed).await,
            Err(DbError::Conflict(_))
        ));
        // Progress after the end changes nothing and announces nothing.
        set_progress(&db, job.id, &Progress::default())
            .await
            .expect("no-op");
        let again = requeue(&db, job.id).await.expect("requeue");
        assert_eq!((again.status, again.error), (JobStatus::Queued, None));

        let mut statuses = Vec::new();
        while let Ok(change) = feed.try_recv() {
            assert_eq!(change.event_name(), "jobs");
            if let Change::JobProgress { job_id, status } = change {
                assert_eq!(job_id, job.id);
                statuses.push(status);
            }
        }
        use JobStatus::*;
        assert_eq!(statuses, [Queued, Running, Running, Failed, Queued]);
    }

    #[tokio::test]
    async fn unfinished_jobs_are_interrupted_at_start_up() {
        let (db, dataset_id, user) = db_with_dataset().await;
        let spec = spec();
        let new = NewJob {
            dataset_id,
            spec: &spec,
            created_by: user,
        };
        let queued = create_job(&db, new, |id| id.to_string()).await.expect("q");
        let running = create_job(&db, new, |id| id.to_string()).await.expect("r");
        mark_running(&db, running.id).await.expect("running");
        assert_eq!(interrupt_unfinished(&db).await.expect("interrupt"), 2);
        for id in [queued.id, running.id] {
            let job = job(&db, id).await.expect("job");
            assert_eq!(job.status, JobStatus::Interrupted);
            assert_eq!(job.error.as_deref(), Some(INTERRUPTED));
            assert!(job.status.is_restartable());
        }
        assert_eq!(list_jobs(&db, 10).await.expect("list")[0].id, running.id);
    }
}
