-- A device sends a job only while it holds the job's lease: `lease` (the epoch, moved on by every new holder)
-- and `lease_until`, renewed by the device's heartbeat. Every record a device sends carries the epoch, and a
-- record of an older epoch is refused. `keep_sending`: the owner chose "Keep sending when I close the app";
-- once such a job's device lease lapses (the browser was killed, the phone died, the tab froze) the server
-- takes the job and sends the rest with the page token the holder sealed when it took the lease.
ALTER TABLE messages
  ADD COLUMN lease_until TIMESTAMPTZ,
  ADD COLUMN keep_sending BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX messages_lapsing ON messages(lease_until)
  WHERE state = 'open' AND sender = 'device' AND keep_sending AND deleted_at IS NULL;
