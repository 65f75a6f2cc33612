-- Benchmark jobs started from the browser (/admin/runs).
--
-- `endpoints`: OpenAI-compatible chat-completions endpoints an admin may pick
-- for a job. `key_env` is the NAME of the server's environment variable that
-- holds the API key (NULL: no key, for local endpoints); a key itself is never
-- stored.
CREATE TABLE endpoints (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    base_url   TEXT NOT NULL,
    model      TEXT NOT NULL,
    key_env    TEXT,
    vendor     TEXT,
    created_at TEXT NOT NULL
);

-- One pipeline job. `config` is the job's settings as JSON, with a copy of
-- each endpoint it uses (so a later edit of an endpoint does not change what a
-- restart runs); `progress` the last progress reported, as JSON; `out_dir`
-- where the pipeline writes run files and its call cache (a restart reuses
-- it, so no finished call is repeated). A job still `queued` or `running`
-- when the server starts was cut off and is marked `interrupted`.
CREATE TABLE benchmark_jobs (
    id          INTEGER PRIMARY KEY,
    dataset_id  INTEGER REFERENCES datasets (id) ON DELETE SET NULL,
    config      TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN
                    ('queued', 'running', 'done', 'failed', 'cancelled', 'interrupted')),
    progress    TEXT,
    out_dir     TEXT    NOT NULL,
    error       TEXT,
    runs_stored INTEGER NOT NULL DEFAULT 0,
    created_by  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at  TEXT    NOT NULL,
    started_at  TEXT,
    finished_at TEXT
);

CREATE INDEX benchmark_jobs_status ON benchmark_jobs (status);
