-- The change log (issue 40): every change a process announces
-- (db::events::Change, as JSON) with the random id of the database handle
-- that announced it, so that a server on the same SQLite file takes
-- another process's changes (the command line's imports) into its own
-- feed, scoped to their benchmark, and never mistakes its own writes for
-- someone else's. Written after the change's transaction commits, read by
-- each server's poll when `PRAGMA data_version` moved; only the newest few
-- thousand rows are kept.
CREATE TABLE change_log (
    seq    INTEGER PRIMARY KEY,
    origin INTEGER NOT NULL,
    change TEXT    NOT NULL
);
