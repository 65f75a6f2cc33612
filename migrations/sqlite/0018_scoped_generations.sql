-- Generations scoped to a dataset version and to one model's runs on it
-- (issue 40 point 1), beside the global `generation` row, which stays until
-- its last reader goes. Each is bumped in the transaction that changes what
-- it counts: storing or replacing runs bumps their models and their version;
-- a new version or a re-scoring bumps the version and every model on it; a
-- Targeted vs Off-target result bumps its version only. A missing row reads
-- as 0. A dataset version id names one benchmark's one version, so a store
-- on one benchmark never moves another's generations.
--
-- No foreign key to `datasets`, on purpose: were a version ever deleted and
-- its id used again (SQLite reuses the highest rowid), its counters would
-- go on from where they were instead of starting again, so a figure cached
-- against the old version could never match the new one.
-- (`dataset_id` is SQLite's rowid alias, so PostgreSQL's twin is an identity
-- column, as migrations/README.md maps it; nothing inserts without an id.)
CREATE TABLE dataset_generations (
    dataset_id INTEGER NOT NULL PRIMARY KEY,
    value      INTEGER NOT NULL
);

CREATE TABLE model_generations (
    dataset_id INTEGER NOT NULL,
    model      TEXT    NOT NULL,
    value      INTEGER NOT NULL,
    PRIMARY KEY (dataset_id, model)
);

-- What is stored already counts as changed once.
INSERT INTO dataset_generations (dataset_id, value) SELECT id, 1 FROM datasets;
INSERT INTO model_generations (dataset_id, model, value)
SELECT DISTINCT dataset_id, model, 1 FROM run_scores;
