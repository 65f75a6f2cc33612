-- Simulated client style: review items where experts read a DLawBench
-- simulated client's turns and name its narrative style (the paper's human
-- check of the client simulator; engine::dlawbench::client_style). The
-- item's judge_label holds the simulated style (the gold, shown only once
-- the expert has submitted), `target` a key that does not name the style,
-- `case_id` the case, `model`/`run_number` the run.
--
-- As in 0012: SQLite cannot change a CHECK constraint in place, so the
-- three review tables are moved aside, made again under their names with
-- the new kind allowed (with 0016's columns), filled from the old ones
-- (same ids), and the old ones dropped, children first.

ALTER TABLE review_label_history RENAME TO review_label_history_0018;
ALTER TABLE review_assignments RENAME TO review_assignments_0018;
ALTER TABLE review_items RENAME TO review_items_0018;

CREATE TABLE review_items (
    id             INTEGER PRIMARY KEY,
    dataset_id     INTEGER NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    dataset_name   TEXT    NOT NULL,
    kind           TEXT    NOT NULL
                   CHECK (kind IN ('seed_dialogue', 'case_check', 'judge_verdict', 'rubric_verdict',
                                    'client_style')),
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
    final_label    TEXT,
    final_proposal TEXT,
    final_source   TEXT    CHECK (final_source IN ('agreed', 'adjudicated')),
    final_reason   TEXT,
    final_by       INTEGER REFERENCES users (id) ON DELETE SET NULL,
    final_at       TEXT
);

CREATE TABLE review_assignments (
    item_id        INTEGER NOT NULL REFERENCES review_items (id) ON DELETE CASCADE,
    expert_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    assigned_at    TEXT    NOT NULL,
    label          TEXT,
    comment        TEXT,
    proposal       TEXT,
    draft          TEXT,
    draft_at       TEXT,
    submitted_at   TEXT,
    blind_label    TEXT,
    blind_proposal TEXT,
    seconds        INTEGER,
    unclear        TEXT,
    unclear_at     TEXT,
    PRIMARY KEY (item_id, expert_id)
);

CREATE TABLE review_label_history (
    id        INTEGER PRIMARY KEY,
    item_id   INTEGER NOT NULL REFERENCES review_items (id) ON DELETE CASCADE,
    author_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    author    TEXT    NOT NULL,
    action    TEXT    NOT NULL CHECK (action IN ('submit', 'adjudicate')),
    label     TEXT    NOT NULL,
    comment   TEXT    NOT NULL,
    proposal  TEXT,
    at        TEXT    NOT NULL,
    seconds   INTEGER
);

INSERT INTO review_items (id, dataset_id, dataset_name, kind, case_id, run_id, model,
        run_number, task, target, judge_label, input, created_by, created_at, final_label,
        final_proposal, final_source, final_reason, final_by, final_at)
    SELECT id, dataset_id, dataset_name, kind, case_id, run_id, model, run_number, task,
        target, judge_label, input, created_by, created_at, final_label, final_proposal,
        final_source, final_reason, final_by, final_at
    FROM review_items_0018;
INSERT INTO review_assignments (item_id, expert_id, assigned_at, label, comment, proposal,
        draft, draft_at, submitted_at, blind_label, blind_proposal, seconds, unclear, unclear_at)
    SELECT item_id, expert_id, assigned_at, label, comment, proposal, draft, draft_at,
        submitted_at, blind_label, blind_proposal, seconds, unclear, unclear_at
    FROM review_assignments_0018;
INSERT INTO review_label_history (id, item_id, author_id, author, action, label, comment,
        proposal, at, seconds)
    SELECT id, item_id, author_id, author, action, label, comment, proposal, at, seconds
    FROM review_label_history_0018;

DROP TABLE review_label_history_0018;
DROP TABLE review_assignments_0018;
DROP TABLE review_items_0018;

CREATE UNIQUE INDEX review_items_natural_key ON review_items (
    dataset_name, kind, case_id, COALESCE(task, ''), COALESCE(target, ''),
    COALESCE(model, ''), COALESCE(run_number, 0)
);
CREATE INDEX review_items_dataset ON review_items (dataset_name, kind, task);
CREATE INDEX review_assignments_expert ON review_assignments (expert_id, item_id);
CREATE INDEX review_label_history_item ON review_label_history (item_id, id);
