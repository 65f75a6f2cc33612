-- PostgreSQL twin of migrations/sqlite/0007_adjudicators.sql; keep the two in step.
-- Designated adjudicators: an admin may let an expert adjudicate review items
-- (besides admins, who always may). TRUE for a designated expert (SQLite: 1).
ALTER TABLE users ADD COLUMN adjudicator BOOLEAN NOT NULL DEFAULT FALSE;
