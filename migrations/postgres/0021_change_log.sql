-- PostgreSQL twin of migrations/sqlite/0021_change_log.sql; keep the two in
-- step. PostgreSQL servers pass changes by NOTIFY (db::events::CHANNEL) and
-- leave this table empty; it exists so that both schemas are the same
-- (`lexpilot copy` moves every table).
CREATE TABLE change_log (
    seq    BIGINT PRIMARY KEY,
    origin BIGINT NOT NULL,
    change TEXT   NOT NULL
);
