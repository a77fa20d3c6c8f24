-- SQLite migration 0013: a change of one log entry and one event made at one moment (a move)
-- keeps its event in the entry's row instead of a row of `events`: one statement and one index
-- page fewer per move. `events_since` reads both tables.
ALTER TABLE actions ADD COLUMN version BIGINT;
ALTER TABLE actions ADD COLUMN event TEXT;
