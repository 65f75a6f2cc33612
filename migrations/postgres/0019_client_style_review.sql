-- PostgreSQL twin of migrations/sqlite/0019_client_style_review.sql; keep the two in step.
-- Simulated client style: review items where experts read a DLawBench
-- simulated client's turns and name its narrative style
-- (engine::dlawbench::client_style); judge_label holds the simulated style.
ALTER TABLE review_items
    DROP CONSTRAINT review_items_kind_check,
    ADD CONSTRAINT review_items_kind_check
        CHECK (kind IN ('seed_dialogue', 'case_check', 'judge_verdict', 'rubric_verdict',
                        'client_style'));
