-- The items of datasets of the benchmarks other than LexPilot (whose cases
-- keep their own table with LexPilot's columns). One row per item of a
-- version: `data` is the item as its benchmark's engine reads it, `facet`
-- and `category` the two fields browsing filters on (PLawBench: the task
-- and the category; DLawBench: the jurisdiction and the domain), and
-- `search_text` what the search looks in.
CREATE TABLE items (
    id          INTEGER PRIMARY KEY,
    dataset_id  INTEGER NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    item_id     TEXT    NOT NULL,
    facet       TEXT    NOT NULL,
    category    TEXT    NOT NULL DEFAULT '',
    search_text TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    UNIQUE (dataset_id, item_id),
    UNIQUE (dataset_id, position)
);
CREATE INDEX items_facet ON items (dataset_id, facet, category);

-- The newest version of each benchmark is the one its pages show.
CREATE INDEX datasets_benchmark ON datasets (benchmark, id);
