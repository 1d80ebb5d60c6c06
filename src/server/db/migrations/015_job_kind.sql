-- What a bulk job is, fixed when it is created and checked by every sender (device and server):
--   'standard' (messages inside the window), 'marketing' (its subscribers outside the window are reached by
--   marketing messages of its campaign, sent by the server only) or 'optin_request' (opt-in requests).
-- Jobs from before: an opt-in job is 'optin_request', a job with a campaign or a marketing recipient is
-- 'marketing', any other is 'standard'.
ALTER TABLE messages ADD COLUMN kind TEXT;
UPDATE messages SET kind = CASE
  WHEN content_kind = 'optin_request' THEN 'optin_request'
  WHEN campaign_id IS NOT NULL
    OR EXISTS (SELECT 1 FROM message_recipients r WHERE r.message_id = messages.id AND r.way = 'marketing')
    THEN 'marketing'
  ELSE 'standard' END;
ALTER TABLE messages
  ALTER COLUMN kind SET NOT NULL,
  ADD CONSTRAINT messages_kind CHECK (kind IN ('standard', 'marketing', 'optin_request')),
  ADD CONSTRAINT messages_kind_content CHECK ((kind = 'optin_request') = (content_kind = 'optin_request'));
