-- Web Push: one subscription per device (the push service's endpoint is the key; the session that made it
-- ties it to the device, so signing out ends its notifications), and each user's notification settings.
-- `locale` is the app language of the device, in which the server words what the notification says.
CREATE TABLE push_subscriptions (
  endpoint TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  session_id BIGINT REFERENCES sessions(id) ON DELETE CASCADE,
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  device TEXT,
  locale TEXT NOT NULL DEFAULT 'en',
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id);
CREATE INDEX push_subscriptions_session ON push_subscriptions(session_id);

CREATE TABLE push_settings (
  user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  hide_text BOOLEAN NOT NULL DEFAULT false
);
