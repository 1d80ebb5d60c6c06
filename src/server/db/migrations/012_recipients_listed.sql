-- Whether a message was given its recipient list (PUT recipients, or a scheduled send when it starts): from
-- then on only those recipients can be touched; without a list, at most total_messages distinct ones.
ALTER TABLE messages ADD COLUMN recipients_listed BOOLEAN NOT NULL DEFAULT false;
-- A listed recipient carries its conversation; a recipient recorded by a touch alone does not.
UPDATE messages SET recipients_listed = true WHERE EXISTS (
  SELECT 1 FROM message_recipients r WHERE r.message_id = messages.id AND r.conversation_id IS NOT NULL
);
