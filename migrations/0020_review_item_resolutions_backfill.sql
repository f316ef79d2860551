-- Hand-written (issue 29, docs/decisions/049): the review queue's card and unknown-account items were resolved by an
-- audit_log row (action review.credit / review.refuse, subject = the item's id) and read back from it. They are now
-- rows of review_item_resolutions; this copies every decision already taken, so the history stays and an item decided
-- before the change cannot be decided again. Crypto and card-mismatch reviews (subject rv_...) already had their row in
-- payment_review_resolutions. The audit detail's amount is naira; the row keeps kobo. The first decision wins.
INSERT INTO review_item_resolutions (item_id, kind, outcome, amount_kobo, operator_id, note, created_at)
SELECT
  subject,
  CASE WHEN subject LIKE 'ua\_%' ESCAPE '\' THEN 'transfer' ELSE 'card' END,
  CASE WHEN action = 'review.credit' THEN 'credited' ELSE 'refused' END,
  CASE WHEN json_extract(detail, '$.amount') IS NULL THEN NULL ELSE CAST(ROUND(json_extract(detail, '$.amount') * 100) AS INTEGER) END,
  COALESCE(json_extract(detail, '$.operatorId'), ''),
  COALESCE(reason, ''),
  created_at
FROM audit_log
WHERE action IN ('review.credit', 'review.refuse') AND subject IS NOT NULL AND subject NOT LIKE 'rv\_%' ESCAPE '\' AND json_valid(detail)
ORDER BY id
ON CONFLICT (item_id) DO NOTHING;
