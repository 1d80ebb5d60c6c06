-- The device that holds a job's lease: a stable id of its browser profile (kept in that profile's IndexedDB,
-- not a secret). The same profile asking again without its epoch (a reload or a crash before its new worker
-- learnt it) takes the lease back at once with the next epoch; another device waits for the lease to lapse.
ALTER TABLE messages ADD COLUMN lease_holder TEXT;
