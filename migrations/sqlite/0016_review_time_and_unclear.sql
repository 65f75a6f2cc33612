-- Expert review at a working pace (issue 17): the time an expert spent on an
-- item, recorded with the label for the paper's cost accounting (Appendix B),
-- and an item flagged as unclear without labelling it.
--
-- `review_assignments.seconds`: the active seconds on the item (the page
-- visible), summed over the expert's submissions; NULL for labels given
-- before this column or through the API without a time.
-- `review_label_history.seconds`: the seconds of that one submission.
-- `review_assignments.unclear`: the expert's comment when they flagged the
-- item as unclear (NULL when not flagged), `unclear_at` when.
ALTER TABLE review_assignments ADD COLUMN seconds INTEGER;
ALTER TABLE review_label_history ADD COLUMN seconds INTEGER;
ALTER TABLE review_assignments ADD COLUMN unclear TEXT;
ALTER TABLE review_assignments ADD COLUMN unclear_at TEXT;
