-- Statutes: the articles of Chinese law imported from a data package
-- (`lexpilot import-statutes`), for citation lookup and checks. One import
-- replaces the last; the imports table keeps each one's source and counts.

CREATE TABLE statute_imports (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    laws INTEGER NOT NULL,
    articles INTEGER NOT NULL,
    skipped INTEGER NOT NULL,
    imported_by TEXT,
    imported_at TEXT NOT NULL
);

CREATE TABLE statute_laws (
    id INTEGER PRIMARY KEY,
    law_key TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('in_force', 'amended', 'historical', 'repealed')),
    effective_date TEXT
);

CREATE TABLE statute_articles (
    law_id INTEGER NOT NULL REFERENCES statute_laws (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    sub INTEGER NOT NULL,
    label TEXT NOT NULL,
    chapter TEXT,
    text TEXT NOT NULL,
    PRIMARY KEY (law_id, number, sub)
);
