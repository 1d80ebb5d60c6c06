-- A job's next recipient, and the uncertain ones, are found by index whatever the job's size and how far it
-- got: the partial indexes hold only the recipients without a result, so the sender never walks the done
-- ones. A listed recipient's place in its job (0-based, in the list's order) is kept with it, so whether it
-- carries the branded footer is read from its row, not counted from the recipients before it.
ALTER TABLE message_recipients ADD COLUMN position INTEGER;

UPDATE message_recipients r SET position = o.n
  FROM (SELECT message_id, recipient_id, row_number() OVER (PARTITION BY message_id ORDER BY seq) - 1 AS n
          FROM message_recipients) o
 WHERE r.message_id = o.message_id AND r.recipient_id = o.recipient_id;

CREATE INDEX message_recipients_pending ON message_recipients (message_id, seq)
  WHERE status IS NULL AND attempt_at IS NULL;
CREATE INDEX message_recipients_uncertain ON message_recipients (message_id, seq)
  WHERE status IS NULL AND attempt_at IS NOT NULL;
