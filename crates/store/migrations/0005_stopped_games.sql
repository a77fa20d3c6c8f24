-- A game with no person left in play is stopped at once (issue 9): its log ends with a `stop`
-- entry. SQLite cannot change a CHECK constraint in place: the game log is copied into a table
-- that allows the new kind.
CREATE TABLE actions_new (
    code      TEXT    NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    game_no   INTEGER NOT NULL,
    seq       INTEGER NOT NULL,                     -- 0, 1, 2 ... within the game
    seat      INTEGER,
    kind      TEXT    NOT NULL CHECK (kind IN ('move', 'resign', 'draw', 'abandon', 'stop')),
    data      TEXT,                                 -- JSON of the move as played (a MoveInput)
    client_id TEXT,                                 -- the client's move id, applied at most once
    at        INTEGER NOT NULL,
    PRIMARY KEY (code, game_no, seq)
) WITHOUT ROWID;
INSERT INTO actions_new (code, game_no, seq, seat, kind, data, client_id, at)
SELECT code, game_no, seq, seat, kind, data, client_id, at FROM actions;
DROP TABLE actions;
ALTER TABLE actions_new RENAME TO actions;
CREATE UNIQUE INDEX actions_client_id ON actions (code, client_id) WHERE client_id IS NOT NULL;
