-- A bulk job can go on on the server (the owner closed the app) and can be scheduled.
--   sender: who sends it now; the device (the browser's worker) or the server.
--   lease: the one counter that keeps one sender per job. Every hand-over, take-back and every start of a
--     server run moves it on; a sender whose lease is no longer the job's sends nothing more.
--   next_send_at: the pacing wait carried across a hand-over, so no side sends sooner than the other would.
--   server_state: what the server sender is doing (running, waiting for a token, throttled, ...).
--   busy_until: a server send is in flight until then (a take-back waits for it before answering).
--   scheduled_at: a scheduled send starts then; its audience is computed at that moment.
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_state_check;
ALTER TABLE messages ADD CONSTRAINT messages_state_check
  CHECK (state IN ('open', 'finished', 'stopped', 'scheduled', 'cancelled'));
ALTER TABLE messages
  ADD COLUMN sender TEXT NOT NULL DEFAULT 'device' CHECK (sender IN ('device', 'server')),
  ADD COLUMN lease INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN next_send_at TIMESTAMPTZ,
  ADD COLUMN server_state TEXT,
  ADD COLUMN busy_until TIMESTAMPTZ,
  ADD COLUMN messaging_type TEXT NOT NULL DEFAULT 'RESPONSE',
  ADD COLUMN branded_from INTEGER NOT NULL DEFAULT -1,
  ADD COLUMN attachment_id TEXT,
  ADD COLUMN scheduled_at TIMESTAMPTZ,
  ADD COLUMN time_zone TEXT,
  ADD COLUMN skipped_count INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN queue_job_id TEXT;
CREATE INDEX messages_scheduled ON messages(scheduled_at) WHERE state = 'scheduled';

-- The server's write-ahead for each send: attempted (attempt_at set) without a result is uncertain, and is
-- reconciled against the conversation before any retry, exactly as on the device.
ALTER TABLE message_recipients
  ADD COLUMN attempt_at TIMESTAMPTZ,
  ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN image_sent BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN attempt_branded BOOLEAN NOT NULL DEFAULT false;

-- The page token a server-held job sends with, encrypted (AES-256-GCM: nonce, ciphertext, tag). Deleted when
-- the job ends or the page is disconnected; never returned to a client.
CREATE TABLE message_page_tokens (
  message_id BIGINT PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  page_id TEXT NOT NULL,
  sealed BYTEA NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX message_page_tokens_page ON message_page_tokens(user_id, page_id);
