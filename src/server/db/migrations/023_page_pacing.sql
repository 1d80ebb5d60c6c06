-- One pacer per page, across every job the server sends for it: a send takes the page's slot (no other job
-- of the page may send until `next_send_at`), holds it while its request is on its way (`holder`), and its
-- record lets it go with the page's next pacing wait. So the floor between two sends holds for the page,
-- however many jobs it has, and a slow page holds only its own slot.
CREATE TABLE page_pacing (
  page_id TEXT PRIMARY KEY,
  next_send_at TIMESTAMPTZ NOT NULL,
  holder BIGINT
);
