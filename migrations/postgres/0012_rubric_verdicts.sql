-- PostgreSQL twin of migrations/sqlite/0012_rubric_verdicts.sql; keep the two in step.
-- Rubric verdicts: review items scored with points per rubric section on the
-- item's score sheet (PLawBench, see engine::review::Sheet). The item's input
-- holds the sheet (`input.sheet`), `target` the benchmark's task
-- (`case_analysis`), `case_id` the benchmark's item id, and `task` stays
-- LexPilot's.
--
-- SQLite rebuilds the three review tables to change the CHECK on
-- review_items.kind (same columns, ids, foreign keys and indexes after it);
-- PostgreSQL replaces the constraint in place.
ALTER TABLE review_items
    DROP CONSTRAINT review_items_kind_check,
    ADD CONSTRAINT review_items_kind_check
        CHECK (kind IN ('seed_dialogue', 'case_check', 'judge_verdict', 'rubric_verdict'));
