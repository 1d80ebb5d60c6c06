-- What "Mark as done" replaced, so the person who marked it can take it back while nothing newer happened in
-- the conversation: the earlier done_at, done_by and unread count.
ALTER TABLE conversation_states
  ADD COLUMN done_prev_at TIMESTAMPTZ,
  ADD COLUMN done_prev_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN done_prev_unread INTEGER NOT NULL DEFAULT 0;
