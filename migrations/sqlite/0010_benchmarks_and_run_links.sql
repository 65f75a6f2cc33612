-- Three benchmarks in one workbench, runs scored on every dataset version
-- they are valid for without copying them, and a counter for caches.

-- Every dataset and run belongs to one benchmark (docs/benchmarks/*.md §0.3);
-- everything stored so far is LexPilot's.
ALTER TABLE datasets ADD COLUMN benchmark TEXT NOT NULL DEFAULT 'lexpilot';
ALTER TABLE runs ADD COLUMN benchmark TEXT NOT NULL DEFAULT 'lexpilot';

-- A run's scores on each dataset version it is scored on. `runs.dataset_id`
-- stays the version the run was stored on; a case correction makes a new
-- version and links every run that still validates, re-scored, instead of
-- copying its items. `model` and `run_number` repeat the run's, so that a
-- version holds one run per model and run number.
CREATE TABLE run_scores (
    run_id     INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    dataset_id INTEGER NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    model      TEXT    NOT NULL,
    run_number INTEGER NOT NULL,
    scores     TEXT    NOT NULL,
    PRIMARY KEY (run_id, dataset_id),
    UNIQUE (dataset_id, model, run_number)
);
INSERT INTO run_scores (run_id, dataset_id, model, run_number, scores)
SELECT id, dataset_id, model, run_number, scores FROM runs;

-- Corrections made so far copied every run into the new version: keep the
-- first copy of each, linked to every version its copies were on.
CREATE TEMPORARY TABLE run_copies (copy INTEGER PRIMARY KEY, original INTEGER NOT NULL);
INSERT INTO run_copies (copy, original)
SELECT r.id,
       (SELECT MIN(o.id) FROM runs o JOIN datasets od ON od.id = o.dataset_id
        WHERE od.name = rd.name AND o.model = r.model AND o.run_number = r.run_number
          AND o.created_at = r.created_at AND o.items = r.items)
FROM runs r JOIN datasets rd ON rd.id = r.dataset_id;
DELETE FROM run_copies WHERE copy = original;
UPDATE run_scores
SET run_id = (SELECT original FROM run_copies WHERE copy = run_scores.run_id)
WHERE run_id IN (SELECT copy FROM run_copies);
UPDATE review_items
SET run_id = (SELECT original FROM run_copies WHERE copy = review_items.run_id)
WHERE run_id IN (SELECT copy FROM run_copies);
DELETE FROM runs WHERE id IN (SELECT copy FROM run_copies);
DROP TABLE run_copies;

ALTER TABLE runs DROP COLUMN scores;

-- Bumped by every transaction that changes stored runs, their scores or the
-- dataset versions, so that figures derived from them can be cached against
-- it (in this process or another server on the same database).
CREATE TABLE generation (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    value INTEGER NOT NULL
);
INSERT INTO generation (id, value) VALUES (1, 0);
