-- A page's send history: the ended sends of an owner and page, newest first, kept 90 days (dismissed from the
-- cards or not) and then purged; a report counts the recipients who wrote to the page within 24 h after
-- receiving the send (page_messages_customer serves that).
CREATE INDEX messages_page_history ON messages(user_id, page_id, id DESC);
CREATE INDEX messages_ended_created ON messages(created_at) WHERE state IN ('finished', 'stopped', 'cancelled');
