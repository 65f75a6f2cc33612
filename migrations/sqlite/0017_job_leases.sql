-- Several servers on one database (issue 14): a running job is held by a
-- lease (the server's id and the time it lapses, in Unix milliseconds) that
-- its server renews; a lapsed lease lets another server resume the job. Each
-- job's finished LLM calls are kept in the database, so whichever server
-- resumes it repeats none.
ALTER TABLE benchmark_jobs ADD COLUMN lease_owner TEXT;
ALTER TABLE benchmark_jobs ADD COLUMN lease_until INTEGER;

CREATE INDEX benchmark_jobs_lease ON benchmark_jobs (status, lease_until);

CREATE TABLE job_calls (
    job_id            INTEGER NOT NULL REFERENCES benchmark_jobs (id) ON DELETE CASCADE,
    key               TEXT    NOT NULL,
    content           TEXT    NOT NULL,
    prompt_tokens     INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    finish_reason     TEXT,
    PRIMARY KEY (job_id, key)
);
