-- API tokens for scripts (`Authorization: Bearer TOKEN`). As with sessions,
-- only the SHA-256 of the token is stored.
CREATE TABLE api_tokens (
    token_hash   TEXT    PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   TEXT    NOT NULL
);
