-- PostgreSQL twin of migrations/sqlite/0002_api_tokens.sql; keep the two in step.
-- API tokens for scripts (`Authorization: Bearer TOKEN`). As with sessions,
-- only the SHA-256 of the token is stored.
CREATE TABLE api_tokens (
    token_hash   TEXT    PRIMARY KEY,
    user_id      BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   TEXT    NOT NULL
);
