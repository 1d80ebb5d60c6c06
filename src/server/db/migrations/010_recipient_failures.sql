-- How many of a recipient's server sends answered a transient error. Only these count towards rejecting the
-- recipient: a throttled send, one whose answer never came or one refused for the page token says nothing about
-- the recipient (`attempts` counts every try and stays the write-ahead's counter).
ALTER TABLE message_recipients ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
