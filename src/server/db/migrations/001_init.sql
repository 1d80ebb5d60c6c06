-- Accounts, sessions and subscriptions. One subscription row per user carries the allowance.
CREATE TABLE users (
  id BIGSERIAL PRIMARY KEY,
  facebook_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  email TEXT,
  picture_url TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Only the SHA-256 of a bearer token is stored; the token itself exists only in the client's cookie.
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE terms (
  id SERIAL PRIMARY KEY,
  content TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE subscriptions (
  user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  access BOOLEAN NOT NULL DEFAULT true,
  access_type TEXT CHECK (access_type IN ('trial', 'paid')),
  product TEXT NOT NULL DEFAULT 'trial',
  price_id TEXT,
  amount NUMERIC(10, 2) NOT NULL DEFAULT 0,
  billing_interval TEXT,
  current_period_end TIMESTAMPTZ,
  cancel_at_period_end BOOLEAN NOT NULL DEFAULT false,
  cancellation_reason TEXT,
  provider_subscription_id TEXT,
  subscriptions_messages BIGINT NOT NULL DEFAULT 0 CHECK (subscriptions_messages >= 0),
  addons_messages BIGINT NOT NULL DEFAULT 0 CHECK (addons_messages >= 0),
  is_unlimited BOOLEAN NOT NULL DEFAULT false,
  unlimited_blocked BOOLEAN NOT NULL DEFAULT false,
  unlimited_sent BIGINT NOT NULL DEFAULT 0,
  use_branded_messages BOOLEAN NOT NULL DEFAULT false,
  accepted_terms_id INTEGER REFERENCES terms(id),
  referral TEXT,
  coupon TEXT,
  trial_page_id TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Pages as the network names them; banned and trial use are facts about the page, whoever opens it.
CREATE TABLE pages (
  id TEXT PRIMARY KEY,
  name TEXT,
  category TEXT,
  picture TEXT,
  fan_count BIGINT,
  banned BOOLEAN NOT NULL DEFAULT false,
  trial_used BOOLEAN NOT NULL DEFAULT false,
  trial_user_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE user_pages (
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  page_id TEXT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, page_id)
);

CREATE TABLE messages (
  id BIGSERIAL PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  page_id TEXT NOT NULL,
  message_type_id SMALLINT NOT NULL,
  message TEXT NOT NULL,
  image_url TEXT,
  label TEXT NOT NULL,
  tag TEXT,
  total_messages INTEGER NOT NULL,
  branded_messages_amount INTEGER NOT NULL,
  ok_count INTEGER NOT NULL DEFAULT 0,
  ng_count INTEGER NOT NULL DEFAULT 0,
  branded_count INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'finished', 'stopped')),
  stop_reason TEXT,
  deleted_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX messages_user ON messages(user_id, created_at);

-- At most one result per (message, recipient): the primary key is what makes a retried touch harmless.
CREATE TABLE message_recipients (
  seq BIGSERIAL UNIQUE,
  message_id BIGINT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  recipient_id TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  conversation_id TEXT,
  status TEXT CHECK (status IN ('OK', 'NG')),
  sent_as_branded BOOLEAN NOT NULL DEFAULT false,
  spent_from TEXT,
  error_data JSONB,
  touched_at TIMESTAMPTZ,
  PRIMARY KEY (message_id, recipient_id)
);
CREATE INDEX message_recipients_order ON message_recipients(message_id, seq);

CREATE TABLE checkout_sessions (
  id TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  provider_session_id TEXT UNIQUE,
  price_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('plan', 'addon')),
  amount NUMERIC(10, 2) NOT NULL,
  discount_percent INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'completed')),
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  completed_at TIMESTAMPTZ
);

-- Payment provider events already handled: a redelivered event is acknowledged and ignored.
CREATE TABLE payment_events (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  received_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
