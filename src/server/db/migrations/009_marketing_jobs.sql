-- Marketing messages in bulk jobs (the network's paid, opt-in reach outside the 24-hour window).
--   message_recipients.way: how a recipient is reached; 'marketing' recipients are sent as marketing messages
--     of the job's campaign, with the subscriber's token read at the moment of the send.
--   messages.content_kind: what the job sends, the owner's text or an opt-in request titled optin_title.
--   messages.ad_account_id … spend_read_at: the job's campaign, its budget (minor units of the ad account's
--     currency), the estimate shown before the start, and the spend the network last reported (and when).
ALTER TABLE message_recipients
  ADD COLUMN way TEXT NOT NULL DEFAULT 'standard' CHECK (way IN ('standard', 'marketing'));
ALTER TABLE messages
  ADD COLUMN content_kind TEXT NOT NULL DEFAULT 'text' CHECK (content_kind IN ('text', 'optin_request')),
  ADD COLUMN optin_title TEXT,
  ADD COLUMN ad_account_id TEXT,
  ADD COLUMN campaign_id TEXT,
  ADD COLUMN marketing_message_id TEXT,
  ADD COLUMN budget_kind TEXT CHECK (budget_kind IN ('daily', 'total')),
  ADD COLUMN budget_minor BIGINT CHECK (budget_minor > 0),
  ADD COLUMN currency TEXT,
  ADD COLUMN estimate_minor BIGINT,
  ADD COLUMN spend_minor BIGINT,
  ADD COLUMN spend_read_at TIMESTAMPTZ;
