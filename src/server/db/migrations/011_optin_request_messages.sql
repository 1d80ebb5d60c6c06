-- The opt-in request messages sent ("Ask to subscribe" from a chat or a bulk job), by the network's message id
-- from the Send API's answer, so every device's chat shows such a message as a subscription request with its
-- title (the conversation the network answers carries no template title). optin_requests stays the weekly
-- limit's record (one row per person and title, no message ids).
CREATE TABLE optin_request_messages (
  page_id TEXT NOT NULL,
  psid TEXT NOT NULL,
  message_id TEXT NOT NULL,
  title TEXT NOT NULL,
  sent_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (page_id, message_id)
);
-- A chat reads one customer's requests, newest first.
CREATE INDEX optin_request_messages_customer ON optin_request_messages(page_id, psid, sent_at DESC);
