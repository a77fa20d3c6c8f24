-- The away clock and a pending seat-transfer link, stored with the seat (issue 22; SQLite
-- migration 0012): a restart keeps them, and every node reads them.
ALTER TABLE seats ADD COLUMN away_since BIGINT;
ALTER TABLE seats ADD COLUMN transfer_hash BYTEA;
ALTER TABLE seats ADD COLUMN transfer_expires_at BIGINT;
