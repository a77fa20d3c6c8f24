-- Draughts: the seat that declined the last draw offer, until the next move (SQLite migration
-- 0006): kept with the room so that a room reloaded shows the refusal exactly as before.
ALTER TABLE rooms ADD COLUMN draw_declined BIGINT;
