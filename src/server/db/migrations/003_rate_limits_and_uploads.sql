-- State every instance sharing the database must see alike: rate-limit counters and uploaded images.

-- One counter per (route, client key) and window; a hit past `expires_at` starts a new window.
CREATE TABLE rate_limits (
  route TEXT NOT NULL,
  key TEXT NOT NULL,
  count INTEGER NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (route, key)
);
CREATE INDEX rate_limits_expiry ON rate_limits(expires_at);

-- Re-encoded images served at /uploads/<name>; the name is a hash of the bytes, so one row per content.
CREATE TABLE uploads (
  name TEXT PRIMARY KEY,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL CHECK (size > 0),
  bytes BYTEA NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
