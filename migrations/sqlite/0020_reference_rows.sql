-- Reference rows (issue 43 point 5): the figures a paper or a release
-- publishes (origin `published`, loaded from data/reference/*.csv) or a
-- lab's own earlier figures (origin: the label of its import), shown on a
-- benchmark's leaderboard beside the stored entries, never ranked.
-- `view` and `column_key` name where the figure goes
-- (engine::reference::allowed_columns), `value` is written on the scale the
-- leaderboard shows (PLawBench ×100), `source` where it is published.
-- An import replaces every row of its (benchmark, origin) in one
-- transaction; `position` keeps the file's order.
CREATE TABLE reference_rows (
    id          INTEGER PRIMARY KEY,
    benchmark   TEXT    NOT NULL,
    origin      TEXT    NOT NULL,
    position    INTEGER NOT NULL,
    model       TEXT    NOT NULL,
    family      TEXT,
    view        TEXT    NOT NULL,
    column_key  TEXT    NOT NULL,
    value       REAL    NOT NULL,
    source      TEXT    NOT NULL,
    imported_by TEXT,
    imported_at TEXT    NOT NULL,
    UNIQUE (benchmark, origin, model, view, column_key, source)
);

CREATE INDEX reference_rows_benchmark ON reference_rows (benchmark, origin, position);
