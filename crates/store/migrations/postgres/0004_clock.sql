-- Clocks (issue 20, « Pendule »; SQLite migration 0008): rooms.clock holds the current game's
-- clocks (JSON; NULL without a clock), actions.clock each seat's time after that entry
-- (JSON `[ms, …]`).
ALTER TABLE rooms ADD COLUMN clock TEXT;
ALTER TABLE actions ADD COLUMN clock TEXT;
