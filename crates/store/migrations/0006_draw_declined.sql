-- Draughts: the seat that declined the last draw offer, until the next move (« Le CPU refuse la
-- nulle »). Kept with the room so that a room reloaded (evicted from memory, another node's copy,
-- a restart) shows the refusal exactly as before. NULL: no refusal to show.
ALTER TABLE rooms ADD COLUMN draw_declined INTEGER;
