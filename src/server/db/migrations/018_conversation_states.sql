-- Who is waiting for an answer, per (page, customer), the same for every person who manages the page:
--   customer_at / customer_text / customer_mid: the customer's last message (their own last words);
--   unread: the customer's messages since a person of the page last answered or opened the chat (the network
--     zeroes its own count whenever the page sends, a broadcast too);
--   answered_at: when a person of the page last answered (an echo that is no bulk, marketing or opt-in send);
--   done_at / done_by: someone marked it done without answering;
--   broadcast_at / broadcast_text: the page's last bulk, marketing or opt-in send to the customer.
-- The conversation needs a reply while customer_at is after both answered_at and done_at.
CREATE TABLE conversation_states (
  page_id TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  customer_at TIMESTAMPTZ,
  customer_text TEXT,
  customer_mid TEXT,
  unread INTEGER NOT NULL DEFAULT 0,
  answered_at TIMESTAMPTZ,
  done_at TIMESTAMPTZ,
  done_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
  broadcast_at TIMESTAMPTZ,
  broadcast_text TEXT,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (page_id, customer_id)
);
CREATE INDEX conversation_states_waiting ON conversation_states (page_id)
  WHERE customer_at IS NOT NULL;

-- A scheduled send leaves out the customers waiting for an answer unless its owner chose to include them.
ALTER TABLE messages ADD COLUMN include_waiting BOOLEAN NOT NULL DEFAULT false;
