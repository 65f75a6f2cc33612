-- Blind labels: the label (and seed correction) an expert gave before any
-- other expert's label of the item could be shown to them. Agreement figures
-- and the automatic "agreed" decision use these; a revision made after the
-- reveal is kept as the current label (for the adjudicator to read) but never
-- turns a disagreement into an agreement.
ALTER TABLE review_assignments ADD COLUMN blind_label TEXT;
ALTER TABLE review_assignments ADD COLUMN blind_proposal TEXT;

-- Existing labels: the expert's last submission made while no other expert
-- of the item had submitted, else their first submission.
UPDATE review_assignments
SET blind_label = (
        SELECT h.label FROM review_label_history h
        WHERE h.item_id = review_assignments.item_id
          AND h.author_id = review_assignments.expert_id
          AND h.action = 'submit'
          AND (NOT EXISTS (SELECT 1 FROM review_label_history o
                           WHERE o.item_id = h.item_id AND o.action = 'submit'
                             AND o.author_id IS NOT h.author_id AND o.id < h.id)
               OR h.id = (SELECT MIN(f.id) FROM review_label_history f
                          WHERE f.item_id = h.item_id AND f.author_id = h.author_id
                            AND f.action = 'submit'))
        ORDER BY h.id DESC LIMIT 1),
    blind_proposal = (
        SELECT h.proposal FROM review_label_history h
        WHERE h.item_id = review_assignments.item_id
          AND h.author_id = review_assignments.expert_id
          AND h.action = 'submit'
          AND (NOT EXISTS (SELECT 1 FROM review_label_history o
                           WHERE o.item_id = h.item_id AND o.action = 'submit'
                             AND o.author_id IS NOT h.author_id AND o.id < h.id)
               OR h.id = (SELECT MIN(f.id) FROM review_label_history f
                          WHERE f.item_id = h.item_id AND f.author_id = h.author_id
                            AND f.action = 'submit'))
        ORDER BY h.id DESC LIMIT 1)
WHERE label IS NOT NULL;

-- A label without history (its author's account was deleted and re-made):
-- the current label is all there is.
UPDATE review_assignments SET blind_label = label, blind_proposal = proposal
WHERE label IS NOT NULL AND blind_label IS NULL;
