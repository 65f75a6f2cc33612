-- The user-simulator fidelity study (the LexPilot paper's Table 13,
-- Appendix E.3.2–E.3.3) on a dataset version.
--
-- `fidelity_probes`: the probes experts wrote, one per case (the engine's
-- engine::lexpilot::fidelity::Probe as JSON), replaced when rewritten.
-- `fidelity_runs`: the simulator's replies and the DCG judge's decisions
-- (the result file, JSON Lines), one study per version. The replies are
-- labelled as review items (kind 'rubric_verdict', sheet task
-- 'simulator_fidelity', target the condition, model the user model).
CREATE TABLE fidelity_probes (
    id          INTEGER PRIMARY KEY,
    dataset_id  INTEGER NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    case_id     TEXT    NOT NULL,
    probe       TEXT    NOT NULL,
    author_id   INTEGER REFERENCES users (id) ON DELETE SET NULL,
    updated_at  TEXT    NOT NULL,
    UNIQUE (dataset_id, case_id)
);

CREATE TABLE fidelity_runs (
    id          INTEGER PRIMARY KEY,
    dataset_id  INTEGER NOT NULL UNIQUE REFERENCES datasets (id) ON DELETE CASCADE,
    user_model  TEXT    NOT NULL,
    items       TEXT    NOT NULL,
    uploaded_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at  TEXT    NOT NULL
);
