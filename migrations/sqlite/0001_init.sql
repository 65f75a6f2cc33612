-- Datasets, cases, accounts and sessions.

-- One row per imported dataset version. Re-importing an identical file is a
-- no-op (same name and content hash); a changed file under the same name gets
-- the next version number.
CREATE TABLE datasets (
    id           INTEGER PRIMARY KEY,
    name         TEXT    NOT NULL,
    version      INTEGER NOT NULL,
    content_hash TEXT    NOT NULL,
    synthetic    INTEGER NOT NULL DEFAULT 0,
    source       TEXT    NOT NULL,
    case_count   INTEGER NOT NULL,
    created_at   TEXT    NOT NULL,
    UNIQUE (name, version),
    UNIQUE (name, content_hash)
);

-- One row per case of a dataset version. `data` is the case exactly as in the
-- dataset file (docs/formats.md §2); the other columns are derived from it for
-- filtering and listing.
CREATE TABLE cases (
    id             INTEGER PRIMARY KEY,
    dataset_id     INTEGER NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    position       INTEGER NOT NULL,
    case_id        TEXT    NOT NULL,
    cause          TEXT    NOT NULL,
    class          TEXT    NOT NULL,
    plaintiff_type TEXT    NOT NULL,
    seed           INTEGER NOT NULL,
    search_text    TEXT    NOT NULL,
    data           TEXT    NOT NULL,
    UNIQUE (dataset_id, case_id),
    UNIQUE (dataset_id, position)
);
CREATE INDEX cases_class ON cases (dataset_id, class);

CREATE TABLE case_claims (
    case_pk INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
    verdict TEXT    NOT NULL
);
CREATE INDEX case_claims_case ON case_claims (case_pk, verdict);

CREATE TABLE case_focal_points (
    case_pk    INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
    point_type TEXT    NOT NULL
);
CREATE INDEX case_focal_points_case ON case_focal_points (case_pk, point_type);

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,
    role          TEXT NOT NULL CHECK (role IN ('admin', 'expert', 'researcher')),
    password_hash TEXT NOT NULL,
    created_at    TEXT NOT NULL
);

-- Server-side sessions: the cookie carries a random token, the table its SHA-256.
CREATE TABLE sessions (
    token_hash TEXT    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TEXT    NOT NULL,
    expires_at TEXT    NOT NULL
);

-- Failed sign-ins, for throttling.
CREATE TABLE sign_in_failures (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    at   TEXT NOT NULL
);
CREATE INDEX sign_in_failures_name ON sign_in_failures (name, at);
