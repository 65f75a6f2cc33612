-- Stored runs (docs/formats.md §3), one row per run of one model. `items` is
-- the run as JSON Lines, the source every score is computed from; `scores` is
-- the engine's RunScores of those items, kept so the leaderboard need not
-- re-parse every run on each view (recomputable at any time).
CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    dataset_id  INTEGER NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    model       TEXT    NOT NULL,
    run_number  INTEGER NOT NULL,
    family      TEXT,
    entry_key   TEXT    NOT NULL,
    items       TEXT    NOT NULL,
    scores      TEXT    NOT NULL,
    unavailable INTEGER NOT NULL,
    uploaded_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at  TEXT    NOT NULL,
    UNIQUE (dataset_id, model, run_number)
);
