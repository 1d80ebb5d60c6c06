-- Sessions that can be listed and revoked by their owner, and that expire after a period without use.
-- `id` names a session to its owner (the token hash never leaves the server); `last_used_at` is moved
-- forward at most every few minutes per session; `user_agent` is captured at login to name the device.
ALTER TABLE sessions ADD COLUMN id BIGSERIAL;
ALTER TABLE sessions ADD CONSTRAINT sessions_id_unique UNIQUE (id);
ALTER TABLE sessions ADD COLUMN last_used_at TIMESTAMPTZ NOT NULL DEFAULT now();
ALTER TABLE sessions ADD COLUMN user_agent TEXT;
CREATE INDEX sessions_last_used ON sessions(last_used_at);
