-- The away clock and a pending seat-transfer link, stored with the seat (issue 22): they used
-- to live in one node's memory only, so a restart forgot them (the away clock then started
-- again from the turn's start) and a link made through one node could not be used through
-- another. `away_since`: when the seat's last connection closed (Unix ms), while it has none.
-- `transfer_hash`: the SHA-256 of the link's one-time token (never the token), with the time
-- the link stops working.
ALTER TABLE seats ADD COLUMN away_since INTEGER;
ALTER TABLE seats ADD COLUMN transfer_hash BLOB;
ALTER TABLE seats ADD COLUMN transfer_expires_at INTEGER;
