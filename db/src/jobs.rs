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

/// A server's hold on a job: which server (its id, one per process) and
/// until when, in Unix milliseconds ([`now_ms`]). The server renews it while
/// the job runs ([`renew`]); once it lapses, any server may take the job
/// over ([`claim_abandoned`]) and resume it from its calls ([`calls`]).
#[derive(Debug, Clone, Copy)]
pub struct Lease<'a> {
    /// The holding server's id.
    pub owner: &'a str,
    /// When the hold lapses, in Unix milliseconds.
    pub until: i64,
}

/// The time now in Unix milliseconds: the clock leases are read against
/// (servers on one database need clocks that agree within a few seconds).
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// Stores a new `queued` job in one transaction, held by `lease` (so that a
/// server stopping before it starts the job leaves it to another); its out
/// dir is `out_dir(id)`, for the id the job gets.
pub async fn create_job(
    db: &Db,
    job: NewJob<'_>,
    lease: Lease<'_>,
    out_dir: impl FnOnce(i64) -> String,
) -> Result<Job> {
    let config = serde_json::to_string(job.spec).map_err(|e| DbError::Invalid(e.to_string()))?;
    let mut tx = crate::begin_write(db).await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO benchmark_jobs (dataset_id, config, status, out_dir, created_by, created_at,
                                     lease_owner, lease_until)
         VALUES ($1, $2, 'queued', '', $3, $4, $5, $6) RETURNING id",
    )
    .bind(job.dataset_id)
    .bind(config)
    .bind(job.created_by)
    .bind(now())
    .bind(lease.owner)
    .bind(lease.until)
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query("UPDATE benchmark_jobs SET out_dir = $1 WHERE id = $2")
        .bind(out_dir(id))
        .bind(id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    announce(db, id, JobStatus::Queued).await;
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

async fn announce(db: &Db, job_id: i64, status: JobStatus) {
    db.notify(Change::JobProgress { job_id, status }).await;
}

/// Marks queued job `id` running, held by `lease`; `Conflict` if it is not
/// queued (another server took it first, say).
pub async fn mark_running(db: &Db, id: i64, lease: Lease<'_>) -> Result<()> {
    let done = sqlx::query(
        "UPDATE benchmark_jobs
         SET status = 'running', started_at = $1, progress = NULL, lease_owner = $2,
             lease_until = $3
         WHERE id = $4 AND status = 'queued'",
    )
    .bind(now())
    .bind(lease.owner)
    .bind(lease.until)
    .bind(id)
    .execute(db.pool())
    .await?;
    if done.rows_affected() == 0 {
        return Err(DbError::Conflict(format!("job {id} is not queued")));
    }
    announce(db, id, JobStatus::Running).await;
    Ok(())
}

/// Takes over the oldest active job whose lease lapsed before `now` (its
/// server stopped or lost the database), holding it by `lease`; marks it
/// running, keeping its progress. On PostgreSQL the row is picked with
/// `FOR UPDATE SKIP LOCKED`, so servers claiming at once take different
/// jobs; SQLite runs one write at a time. Returns the job, if one was taken.
pub async fn claim_abandoned(db: &Db, lease: Lease<'_>, now: i64) -> Result<Option<Job>> {
    let lock = match db.backend() {
        crate::Backend::Postgres => "FOR UPDATE SKIP LOCKED",
        crate::Backend::Sqlite => "",
    };
    let lapsed = "status IN ('queued', 'running') AND (lease_until IS NULL OR lease_until < $3)";
    let id: Option<i64> = sqlx::query_scalar(&format!(
        "UPDATE benchmark_jobs
         SET status = 'running', started_at = COALESCE(started_at, $4), lease_owner = $1,
             lease_until = $2
         WHERE {lapsed}
           AND id = (SELECT id FROM benchmark_jobs WHERE {lapsed} ORDER BY id LIMIT 1 {lock})
         RETURNING id"
    ))
    .bind(lease.owner)
    .bind(lease.until)
    .bind(now)
    .bind(self::now())
    .fetch_optional(db.pool())
    .await?;
    let Some(id) = id else { return Ok(None) };
    announce(db, id, JobStatus::Running).await;
    job(db, id).await.map(Some)
}

/// What renewing a lease found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Renewal {
    /// The lease is renewed.
    Held,
    /// The job is no longer this server's: it stopped (cancelled from
    /// another server, say) or another server took it over.
    Lost,
}

/// Extends the lease of running job `id` to `lease.until` if `lease.owner`
/// still holds it.
pub async fn renew(db: &Db, id: i64, lease: Lease<'_>) -> Result<Renewal> {
    let done = sqlx::query(
        "UPDATE benchmark_jobs SET lease_until = $1
         WHERE id = $2 AND lease_owner = $3 AND status = 'running'",
    )
    .bind(lease.until)
    .bind(id)
    .bind(lease.owner)
    .execute(db.pool())
    .await?;
    Ok(if done.rows_affected() == 0 {
        Renewal::Lost
    } else {
        Renewal::Held
    })
}

/// Whether server `owner` still holds running job `id`.
pub async fn holds(db: &Db, id: i64, owner: &str) -> Result<bool> {
    let held: Option<i64> = sqlx::query_scalar(
        "SELECT id FROM benchmark_jobs WHERE id = $1 AND lease_owner = $2 AND status = 'running'",
    )
    .bind(id)
    .bind(owner)
    .fetch_optional(db.pool())
    .await?;
    Ok(held.is_some())
}

/// Lets go of every running job server `owner` holds, so that another
/// server (or this one, restarted) resumes them at once: called when a
/// server stops. Returns how many.
pub async fn release(db: &Db, owner: &str) -> Result<u64> {
    let done = sqlx::query(
        "UPDATE benchmark_jobs SET lease_until = 0
         WHERE lease_owner = $1 AND status IN ('queued', 'running')",
    )
    .bind(owner)
    .execute(db.pool())
    .await?;
    Ok(done.rows_affected())
}

/// Records the progress of job `id` while server `owner` runs it (a no-op
/// once it stopped or another server took it).
pub async fn set_progress(db: &Db, id: i64, owner: &str, progress: &Progress) -> Result<()> {
    let progress = serde_json::to_string(progress).map_err(|e| DbError::Invalid(e.to_string()))?;
    let done = sqlx::query(
        "UPDATE benchmark_jobs SET progress = $1
         WHERE id = $2 AND status = 'running' AND lease_owner = $3",
    )
    .bind(progress)
    .bind(id)
    .bind(owner)
    .execute(db.pool())
    .await?;
    if done.rows_affected() > 0 {
        announce(db, id, JobStatus::Running).await;
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

/// Records how active job `id` ended and drops its lease. With an `owner`,
/// only while that server holds it (the server running it); without, in
/// any case (an admin's cancel of a job no server of this process runs).
/// `Conflict` if it was not active or held by another server.
pub async fn finish(db: &Db, id: i64, owner: Option<&str>, outcome: Outcome<'_>) -> Result<()> {
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
    let held = if owner.is_some() {
        "AND lease_owner = $7"
    } else {
        ""
    };
    let query = format!(
        "UPDATE benchmark_jobs
         SET status = $1, progress = COALESCE($2, progress), error = $3, runs_stored = $4,
             finished_at = $5, lease_owner = NULL, lease_until = NULL
         WHERE id = $6 AND status IN ('queued', 'running') {held}"
    );
    let mut q = sqlx::query(&query)
        .bind(outcome.status.as_str())
        .bind(progress)
        .bind(outcome.error)
        .bind(i64::try_from(outcome.runs_stored).unwrap_or(i64::MAX))
        .bind(now())
        .bind(id);
    if let Some(owner) = owner {
        q = q.bind(owner);
    }
    let done = q.execute(db.pool()).await?;
    if done.rows_affected() == 0 {
        return Err(DbError::Conflict(format!(
            "job {id} is not active on this server"
        )));
    }
    announce(db, id, outcome.status).await;
    Ok(())
}

/// Queues stopped job `id` again (failed, cancelled or interrupted), held by
/// `lease`, keeping its settings, out dir, last progress and calls;
/// `Conflict` otherwise.
pub async fn requeue(db: &Db, id: i64, lease: Lease<'_>) -> Result<Job> {
    let done = sqlx::query(
        "UPDATE benchmark_jobs
         SET status = 'queued', error = NULL, runs_stored = 0, started_at = NULL,
             finished_at = NULL, lease_owner = $2, lease_until = $3
         WHERE id = $1 AND status IN ('failed', 'cancelled', 'interrupted')",
    )
    .bind(id)
    .bind(lease.owner)
    .bind(lease.until)
    .execute(db.pool())
    .await?;
    if done.rows_affected() == 0 {
        let current = job(db, id).await?;
        return Err(DbError::Conflict(format!(
            "job {id} is {}; only a failed, cancelled or interrupted job can be restarted",
            current.status.as_str()
        )));
    }
    announce(db, id, JobStatus::Queued).await;
    job(db, id).await
}

/// One finished LLM call of a job, as its call cache keeps it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Call {
    /// The call's cache key (a hash of its request).
    pub key: String,
    /// The reply text.
    pub content: String,
    /// Prompt tokens.
    pub prompt_tokens: i64,
    /// Completion tokens.
    pub completion_tokens: i64,
    /// How the reply ended, when the endpoint said.
    pub finish_reason: Option<String>,
}

/// Every finished call of job `id`.
pub async fn calls(db: &Db, id: i64) -> Result<Vec<Call>> {
    Ok(sqlx::query_as(
        "SELECT key, content, prompt_tokens, completion_tokens, finish_reason
         FROM job_calls WHERE job_id = $1",
    )
    .bind(id)
    .fetch_all(db.pool())
    .await?)
}

/// How many finished calls job `id` has.
pub async fn call_count(db: &Db, id: i64) -> Result<i64> {
    Ok(
        sqlx::query_scalar("SELECT COUNT(*) FROM job_calls WHERE job_id = $1")
            .bind(id)
            .fetch_one(db.pool())
            .await?,
    )
}

/// Keeps finished calls of job `id` (a call kept already is left as it is:
/// two servers may both have made it).
pub async fn store_calls(db: &Db, id: i64, calls: &[Call]) -> Result<()> {
    const INSERT: &str = "INSERT INTO job_calls (job_id, key, content, prompt_tokens,
                                                 completion_tokens, finish_reason)
                          VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (job_id, key) DO NOTHING";
    let insert = |call: &'_ Call| {
        sqlx::query(INSERT)
            .bind(id)
            .bind(call.key.clone())
            .bind(call.content.clone())
            .bind(call.prompt_tokens)
            .bind(call.completion_tokens)
            .bind(call.finish_reason.clone())
    };
    if let [call] = calls {
        // One call, the usual case: one statement, no write lock.
        insert(call).execute(db.pool()).await?;
        return Ok(());
    }
    let mut tx = crate::begin_write(db).await?;
    for call in calls {
        insert(call).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(())
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

    const A: &str = "server-a";
    const B: &str = "server-b";

    fn lease(owner: &str) -> Lease<'_> {
        Lease {
            owner,
            until: now_ms() + 60_000,
        }
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
        let job = create_job(&db, new, lease(A), |id| format!("/data/jobs/{id}"))
            .await
            .expect("job");
        assert_eq!(job.status, JobStatus::Queued);
        assert_eq!(job.out_dir, format!("/data/jobs/{}", job.id));
        assert_eq!(job.created_by.as_deref(), Some("admin"));
        assert!(matches!(
            requeue(&db, job.id, lease(A)).await,
            Err(DbError::Conflict(_))
        ));
        mark_running(&db, job.id, lease(A)).await.expect("running");
        assert!(matches!(
            mark_running(&db, job.id, lease(A)).await,
            Err(DbError::Conflict(_))
        ));
        let one = Progress {
            done: 1,
            ..Progress::default()
        };
        set_progress(&db, job.id, A, &one).await.expect("progress");
        let failed = Outcome {
            status: JobStatus::Failed,
            progress: None,
            error: Some("boom"),
            runs_stored: 0,
        };
        assert!(matches!(
            finish(&db, job.id, Some(B), failed).await,
            Err(DbError::Conflict(_))
        ));
        finish(&db, job.id, Some(A), failed).await.expect("finish");
        let stored = self::job(&db, job.id).await.expect("job");
        assert_eq!(stored.status, JobStatus::Failed);
        assert_eq!(stored.progress, Some(one));
        assert_eq!(stored.spec, spec);
        assert!(matches!(
            finish(&db, job.id, None, failed).await,
            Err(DbError::Conflict(_))
        ));
        // Progress after the end changes nothing and announces nothing.
        set_progress(&db, job.id, A, &Progress::default())
            .await
            .expect("no-op");
        let again = requeue(&db, job.id, lease(A)).await.expect("requeue");
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
    async fn a_lapsed_lease_lets_one_other_server_take_the_job_over() {
        let (db, dataset_id, user) = db_with_dataset().await;
        let spec = spec();
        let new = NewJob {
            dataset_id,
            spec: &spec,
            created_by: user,
        };
        let until = now_ms() + 60_000;
        let running = create_job(&db, new, Lease { owner: A, until }, |id| id.to_string())
            .await
            .expect("job");
        mark_running(&db, running.id, Lease { owner: A, until })
            .await
            .expect("running");
        let one = Progress {
            done: 1,
            ..Progress::default()
        };
        set_progress(&db, running.id, A, &one)
            .await
            .expect("progress");
        // A queued job whose server stopped before starting it.
        let queued = create_job(&db, new, Lease { owner: A, until }, |id| id.to_string())
            .await
            .expect("job");

        // While A's lease holds, B takes nothing.
        let b = Lease {
            owner: B,
            until: until + 60_000,
        };
        assert!(claim_abandoned(&db, b, now_ms())
            .await
            .expect("claim")
            .is_none());
        assert_eq!(
            renew(&db, running.id, Lease { owner: A, until })
                .await
                .expect("renew"),
            Renewal::Held
        );

        // Once it lapses, B takes both, oldest first, keeping the progress.
        let later = until + 1;
        let first = claim_abandoned(&db, b, later)
            .await
            .expect("claim")
            .expect("a job");
        assert_eq!((first.id, first.status), (running.id, JobStatus::Running));
        assert_eq!(first.progress.as_ref(), Some(&one));
        assert_eq!(first.started_at, running_started(&db, running.id).await);
        let second = claim_abandoned(&db, b, later)
            .await
            .expect("claim")
            .expect("a job");
        assert_eq!((second.id, second.status), (queued.id, JobStatus::Running));
        assert!(claim_abandoned(&db, b, later)
            .await
            .expect("claim")
            .is_none());

        // A, come back, holds nothing: it renews, records and ends nothing.
        assert_eq!(
            renew(&db, running.id, Lease { owner: A, until })
                .await
                .expect("renew"),
            Renewal::Lost
        );
        assert!(!holds(&db, running.id, A).await.expect("holds"));
        assert!(holds(&db, running.id, B).await.expect("holds"));
        set_progress(&db, running.id, A, &Progress::default())
            .await
            .expect("no-op");
        assert_eq!(job(&db, running.id).await.expect("job").progress, Some(one));
        let done = Outcome {
            status: JobStatus::Done,
            progress: None,
            error: None,
            runs_stored: 1,
        };
        assert!(matches!(
            finish(&db, running.id, Some(A), done).await,
            Err(DbError::Conflict(_))
        ));
        finish(&db, running.id, Some(B), done)
            .await
            .expect("B ends it");
        assert_eq!(
            job(&db, running.id).await.expect("job").status,
            JobStatus::Done
        );

        // A server that stops lets go at once.
        assert_eq!(release(&db, B).await.expect("release"), 1);
        let c = Lease {
            owner: "c",
            until: later + 60_000,
        };
        let taken = claim_abandoned(&db, c, now_ms())
            .await
            .expect("claim")
            .expect("a job");
        assert_eq!(taken.id, queued.id);
    }

    async fn running_started(db: &Db, id: i64) -> Option<String> {
        sqlx::query_scalar("SELECT started_at FROM benchmark_jobs WHERE id = $1")
            .bind(id)
            .fetch_one(db.pool())
            .await
            .expect("started_at")
    }

    #[tokio::test]
    async fn servers_claiming_at_once_take_different_jobs() {
        let (db, dataset_id, user) = db_with_dataset().await;
        let spec = spec();
        let new = NewJob {
            dataset_id,
            spec: &spec,
            created_by: user,
        };
        let gone = Lease {
            owner: "gone",
            until: 0,
        };
        for _ in 0..6 {
            create_job(&db, new, gone, |id| id.to_string())
                .await
                .expect("job");
        }
        let owners = ["s1", "s2", "s3"];
        let claims = owners.map(|owner| {
            let db = db.clone();
            tokio::spawn(async move {
                let lease = Lease {
                    owner,
                    until: now_ms() + 60_000,
                };
                let mut taken = Vec::new();
                while let Some(job) = claim_abandoned(&db, lease, now_ms()).await.expect("claim") {
                    taken.push(job.id);
                }
                taken
            })
        });
        let mut all = Vec::new();
        for claim in claims {
            all.extend(claim.await.expect("task"));
        }
        all.sort_unstable();
        let before = all.len();
        all.dedup();
        assert_eq!((before, all.len()), (6, 6), "each job taken once: {all:?}");
    }

    #[tokio::test]
    async fn a_jobs_calls_are_kept_once_each() {
        let (db, dataset_id, user) = db_with_dataset().await;
        let spec = spec();
        let new = NewJob {
            dataset_id,
            spec: &spec,
            created_by: user,
        };
        let job = create_job(&db, new, lease(A), |id| id.to_string())
            .await
            .expect("job");
        let call = |key: &str, content: &str| Call {
            key: key.into(),
            content: content.into(),
            prompt_tokens: 12,
            completion_tokens: 3,
            finish_reason: Some("stop".into()),
        };
        store_calls(&db, job.id, &[call("k1", "是")])
            .await
            .expect("one");
        // A call kept already stays as first kept.
        store_calls(&db, job.id, &[call("k1", "否"), call("k2", "不确定")])
            .await
            .expect("two");
        let mut kept = calls(&db, job.id).await.expect("calls");
        kept.sort_by(|a, b| a.key.cmp(&b.key));
        assert_eq!(kept, [call("k1", "是"), call("k2", "不确定")]);
        assert_eq!(call_count(&db, job.id).await.expect("count"), 2);
        assert!(calls(&db, job.id + 1).await.expect("none").is_empty());
    }
}
