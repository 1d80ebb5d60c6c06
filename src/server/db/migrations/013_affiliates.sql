-- The referral programme's affiliates: the code their links carry (`?referral=`), and the network account of
-- the affiliate when known (nobody is referred by their own code). Rows come from the affiliate portal.
CREATE TABLE affiliates (
  code TEXT PRIMARY KEY,
  facebook_id TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- The referral a discounted checkout was sold with.
ALTER TABLE checkout_sessions ADD COLUMN referral TEXT;
-- The referral discount a customer used, once per customer: written when the discounted checkout is paid.
CREATE TABLE referral_uses (
  user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  code TEXT NOT NULL,
  checkout_session_id TEXT NOT NULL,
  used_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
