-- Corrections of a case (text, missing facts, gold verdicts), kept as numbered
-- revisions per dataset name and case id. Revision 1 is the case as imported,
-- written when the first correction is saved; every later revision made a new
-- dataset version (`dataset_version`), so a score always names what it scored.
CREATE TABLE case_revisions (
    id              INTEGER PRIMARY KEY,
    dataset_name    TEXT    NOT NULL,
    case_id         TEXT    NOT NULL,
    revision        INTEGER NOT NULL,
    data            TEXT    NOT NULL,
    author_id       INTEGER REFERENCES users (id) ON DELETE SET NULL,
    reason          TEXT    NOT NULL,
    dataset_version INTEGER NOT NULL,
    created_at      TEXT    NOT NULL,
    UNIQUE (dataset_name, case_id, revision)
);
