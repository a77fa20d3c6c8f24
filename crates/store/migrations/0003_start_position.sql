-- Draughts positions imported by a host (PDN or FEN, issue 14): every game of the room starts from
-- this position instead of the usual one. NULL: the usual start.
ALTER TABLE rooms ADD COLUMN start_fen TEXT;                -- FEN, as written by the rules engine
