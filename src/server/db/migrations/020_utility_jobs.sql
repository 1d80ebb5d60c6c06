-- Utility messages in bulk jobs: a job of kind 'utility' sends one of the page's approved utility templates
-- (an order or account update, an appointment or event reminder), also outside the 24-hour window.
--   messages.utility: the template's name, language, body and parameters ({name, language, body, params});
--     a parameter may hold "{first name}", filled per recipient at the send.
-- content_kind 'utility' goes with kind 'utility' and only with it, as an opt-in job's content goes with its kind.
ALTER TABLE messages ADD COLUMN utility JSONB;
ALTER TABLE messages
  DROP CONSTRAINT messages_content_kind_check,
  DROP CONSTRAINT messages_kind,
  DROP CONSTRAINT messages_kind_content;
ALTER TABLE messages
  ADD CONSTRAINT messages_content_kind_check CHECK (content_kind IN ('text', 'optin_request', 'utility')),
  ADD CONSTRAINT messages_kind CHECK (kind IN ('standard', 'marketing', 'optin_request', 'utility')),
  ADD CONSTRAINT messages_kind_content CHECK (
    (kind = 'optin_request') = (content_kind = 'optin_request')
    AND (kind = 'utility') = (content_kind = 'utility')
    AND (kind <> 'utility' OR utility IS NOT NULL)
  );
