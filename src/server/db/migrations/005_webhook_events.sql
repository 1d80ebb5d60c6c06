-- The network's webhooks (messages, echoes, delivery and read receipts, opt-ins) and what the owners' open
-- apps must hear of them (the event stream), plus which of an owner's tabs are visible (push decides on it).

-- Every signed webhook body as received, written before the 200: a crash after answering loses nothing,
-- an unprocessed row is taken up again at the next start. A body received twice is stored once.
CREATE TABLE webhook_events (
  id BIGSERIAL PRIMARY KEY,
  body_sha256 TEXT NOT NULL UNIQUE,
  body TEXT NOT NULL,
  received_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  processed_at TIMESTAMPTZ,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT
);
CREATE INDEX webhook_events_pending ON webhook_events(id) WHERE processed_at IS NULL;

-- Messages of a page's conversations as the webhooks told them: the customers' and the page's own (echoes).
-- The message id is the network's `mid`: a redelivered message is the same row.
CREATE TABLE page_messages (
  page_id TEXT NOT NULL,
  mid TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  from_page BOOLEAN NOT NULL,
  text TEXT,
  attachments JSONB NOT NULL DEFAULT '[]',
  created_time TIMESTAMPTZ NOT NULL,
  received_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (page_id, mid)
);
CREATE INDEX page_messages_customer ON page_messages(page_id, customer_id, created_time);

-- Delivery and read watermarks per (page, customer): they only move forward.
CREATE TABLE page_receipts (
  page_id TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  delivered_watermark TIMESTAMPTZ,
  read_watermark TIMESTAMPTZ,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (page_id, customer_id)
);

-- Opt-ins (marketing messages, Send to Messenger): the whole `optin` object is kept for the marketing features.
CREATE TABLE messaging_optins (
  id BIGSERIAL PRIMARY KEY,
  page_id TEXT NOT NULL,
  customer_id TEXT,
  user_ref TEXT,
  type TEXT,
  payload TEXT,
  notification_messages_token TEXT,
  optin JSONB NOT NULL,
  event_time TIMESTAMPTZ NOT NULL,
  received_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- One row per opt-in event, whether it names the person by PSID or by user_ref.
CREATE UNIQUE INDEX messaging_optins_once
  ON messaging_optins(page_id, COALESCE(customer_id, ''), COALESCE(user_ref, ''), event_time, COALESCE(type, ''));

-- What each owner's apps must hear, in order; the id is the stream's event id (Last-Event-ID).
CREATE TABLE owner_events (
  id BIGSERIAL PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  data JSONB NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX owner_events_user ON owner_events(user_id, id);
CREATE INDEX owner_events_created ON owner_events(created_at);

-- Up to which event id an owner's older events were deleted: a stream resuming from before it refetches.
CREATE TABLE owner_event_floors (
  user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  pruned_through BIGINT NOT NULL
);

-- The app's tabs and whether each is visible (reported by the app; a report older than 90 s does not count).
CREATE TABLE tab_presence (
  tab TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  visible BOOLEAN NOT NULL,
  seen_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX tab_presence_user ON tab_presence(user_id, seen_at);

-- Whether the page is subscribed to this app's webhooks (POST /{page-id}/subscribed_apps at connection).
ALTER TABLE pages ADD COLUMN webhooks_ok BOOLEAN;
ALTER TABLE pages ADD COLUMN webhooks_error TEXT;
ALTER TABLE pages ADD COLUMN webhooks_checked_at TIMESTAMPTZ;

-- Bulk receipts: a recipient is delivered / read once a watermark at or after its send time arrives.
ALTER TABLE message_recipients ADD COLUMN delivered_at TIMESTAMPTZ;
ALTER TABLE message_recipients ADD COLUMN read_at TIMESTAMPTZ;
ALTER TABLE messages ADD COLUMN delivered_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN read_count INTEGER NOT NULL DEFAULT 0;
CREATE INDEX message_recipients_recipient ON message_recipients(recipient_id) WHERE status = 'OK';
