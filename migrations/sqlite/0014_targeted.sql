-- Results of the Targeted vs Off-target experiment (the LexPilot paper's
-- Table 4, Appendix E.7), one row per evaluated model and repetition on a
-- dataset version. `items` is the result file (JSON Lines, the format of
-- engine::lexpilot::targeted), the source everything is computed from;
-- `scores` is the engine's TargetedScores of it, kept so that the paper page
-- need not re-parse the files (recomputable at any time). Not run files:
-- they never enter the leaderboard. A store bumps `generation`.
CREATE TABLE targeted_runs (
    id          INTEGER PRIMARY KEY,
    dataset_id  INTEGER NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    model       TEXT    NOT NULL,
    run_number  INTEGER NOT NULL,
    entry_key   TEXT    NOT NULL,
    items       TEXT    NOT NULL,
    scores      TEXT    NOT NULL,
    uploaded_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at  TEXT    NOT NULL,
    UNIQUE (dataset_id, model, run_number)
);
