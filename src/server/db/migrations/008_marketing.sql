-- Marketing messages (the network's paid, opt-in messages outside the 24-hour window).
-- marketing_pages: a page that turned them on, with the ad account the network bills. The user is whoever
--   turned it on; enabled goes false when turned off (subscribers are kept). tokens_synced_at / tokens_cursor:
--   the last read of the page's subscription token list.
CREATE TABLE marketing_pages (
  page_id TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  ad_account_id TEXT NOT NULL,
  ad_account_name TEXT NOT NULL DEFAULT '',
  currency TEXT NOT NULL,
  country TEXT,
  enabled BOOLEAN NOT NULL DEFAULT false,
  enabled_at TIMESTAMPTZ,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  tokens_synced_at TIMESTAMPTZ,
  tokens_cursor TEXT
);

-- One row per person and page. token: the subscription token, sealed with the page-token key (AES-256-GCM),
-- never returned to a client. event_at: the time of the newest event applied (an opt-in, opt-out or resume
-- webhook, or the token's creation in the page's token list); an older event never overrides a newer one.
-- An opt-out sets 'stopped' at once; a token past expires_at is not active whatever its status says.
CREATE TABLE marketing_subscribers (
  page_id TEXT NOT NULL,
  psid TEXT NOT NULL,
  token BYTEA NOT NULL,
  title TEXT,
  status TEXT NOT NULL CHECK (status IN ('active', 'stopped', 'expired')),
  expires_at TIMESTAMPTZ,
  timezone TEXT,
  event_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  source TEXT NOT NULL CHECK (source IN ('webhook', 'token_list')),
  PRIMARY KEY (page_id, psid)
);
CREATE INDEX marketing_subscribers_status ON marketing_subscribers(page_id, status);

-- The opt-in requests sent: one with the same title per person per week (the network's limit).
CREATE TABLE optin_requests (
  page_id TEXT NOT NULL,
  psid TEXT NOT NULL,
  title TEXT NOT NULL,
  sent_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (page_id, psid, title)
);
