-- A user's binding to a page holds while the network vouches for it. It is checked again (debug_token of the
-- page token it was made with) when a page token of the user's fails on the server, on a schedule, and when the
-- network says the user removed the app.
--   sealed_token: the page token the binding was last made with, sealed like the tokens of server-held jobs
--     (AES-256-GCM); cleared once the network calls it expired, and never returned to a client.
--   checked_at: when the network last vouched for the binding (or a scheduled check took it up).
--   revoked_at / revoked_reason: the network says the user no longer manages the page. Their calls on the page
--     answer 403, its events and pushes no longer reach them, until they open it again with a valid token.
ALTER TABLE user_pages
  ADD COLUMN sealed_token BYTEA,
  ADD COLUMN checked_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  ADD COLUMN revoked_at TIMESTAMPTZ,
  ADD COLUMN revoked_reason TEXT;
-- The scheduled check takes the bindings whose last check is oldest.
CREATE INDEX user_pages_check_due ON user_pages(checked_at)
  WHERE revoked_at IS NULL AND sealed_token IS NOT NULL;
