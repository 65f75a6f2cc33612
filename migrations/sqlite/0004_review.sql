-- Expert review (the LexPilot paper, Appendix B and E.3.1): items to review,
-- their assignment to experts with each expert's label, and every label ever
-- given.

-- One row per thing to review: a seed dialogue, a case to check, or a judge
-- verdict drawn from a stored run. `input` is what the expert sees besides
-- the case (for a judge verdict, the judge's input: the model's reply, the
-- request texts, the claims); `judge_label` never leaves the server before
-- the expert has submitted. The natural key (dataset name, kind, case, task,
-- target, model, run number) makes re-creating items a no-op, also on a later
-- version of the same dataset.
CREATE TABLE review_items (
    id             INTEGER PRIMARY KEY,
    dataset_id     INTEGER NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    dataset_name   TEXT    NOT NULL,
    kind           TEXT    NOT NULL
                   CHECK (kind IN ('seed_dialogue', 'case_check', 'judge_verdict')),
    case_id        TEXT    NOT NULL,
    run_id         INTEGER REFERENCES runs (id) ON DELETE CASCADE,
    model          TEXT,
    run_number     INTEGER,
    task           TEXT    CHECK (task IN ('lca', 'dcg', 'ljp')),
    target         TEXT,
    judge_label    TEXT,
    input          TEXT    NOT NULL,
    created_by     INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at     TEXT    NOT NULL,
    -- Set when every expert agreed ('agreed') or an adjudicator decided ('adjudicated').
    final_label    TEXT,
    final_proposal TEXT,
    final_source   TEXT    CHECK (final_source IN ('agreed', 'adjudicated')),
    final_reason   TEXT,
    final_by       INTEGER REFERENCES users (id) ON DELETE SET NULL,
    final_at       TEXT
);
CREATE UNIQUE INDEX review_items_natural_key ON review_items (
    dataset_name, kind, case_id, COALESCE(task, ''), COALESCE(target, ''),
    COALESCE(model, ''), COALESCE(run_number, 0)
);
CREATE INDEX review_items_dataset ON review_items (dataset_name, kind, task);

-- One row per (item, expert): the expert's autosaved draft and submitted
-- label. `label` is in its stored form (engine::review::canonical_label);
-- `proposal` is the corrected case of a seed correction.
CREATE TABLE review_assignments (
    item_id      INTEGER NOT NULL REFERENCES review_items (id) ON DELETE CASCADE,
    expert_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    assigned_at  TEXT    NOT NULL,
    label        TEXT,
    comment      TEXT,
    proposal     TEXT,
    draft        TEXT,
    draft_at     TEXT,
    submitted_at TEXT,
    PRIMARY KEY (item_id, expert_id)
);
CREATE INDEX review_assignments_expert ON review_assignments (expert_id, item_id);

-- Every submission and adjudication, never updated or deleted (but with its
-- item). `author` is the account name at the time.
CREATE TABLE review_label_history (
    id        INTEGER PRIMARY KEY,
    item_id   INTEGER NOT NULL REFERENCES review_items (id) ON DELETE CASCADE,
    author_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    author    TEXT    NOT NULL,
    action    TEXT    NOT NULL CHECK (action IN ('submit', 'adjudicate')),
    label     TEXT    NOT NULL,
    comment   TEXT    NOT NULL,
    proposal  TEXT,
    at        TEXT    NOT NULL
);
CREATE INDEX review_label_history_item ON review_label_history (item_id, id);
