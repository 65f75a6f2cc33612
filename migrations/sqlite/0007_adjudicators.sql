-- Designated adjudicators: an admin may let an expert adjudicate review items
-- (besides admins, who always may). 1 for a designated expert.
ALTER TABLE users ADD COLUMN adjudicator INTEGER NOT NULL DEFAULT 0;
