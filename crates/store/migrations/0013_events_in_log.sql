-- A change of one log entry and one event (a move, a resignation…: nearly every change of a game
-- being played) keeps its event in the entry's row instead of a row of `events` (docs/storage.md,
-- "Events"): one B-tree page fewer written per move, where each move wrote a page of `actions`,
-- one of its client-id index and one of `events` (docs/performance.md, "Cost per move").
-- `events_since` reads both tables. NULL in every row written before, and in the entries of
-- changes that are not one entry and one event.
ALTER TABLE actions ADD COLUMN version INTEGER;
ALTER TABLE actions ADD COLUMN event TEXT;
