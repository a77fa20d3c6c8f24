-- Dames storage, version 1 (docs/storage.md explains every table and the retention rules).
-- Times are Unix milliseconds. JSON columns hold the protocol's JSON (docs/protocol.md).

-- One row per room: its small mutable state, rewritten in the same transaction as the actions
-- and events of every change.
CREATE TABLE rooms (
    code         TEXT    PRIMARY KEY,               -- six characters, see docs/protocol.md
    game         TEXT    NOT NULL CHECK (game IN ('cc', 'draughts')),
    settings     TEXT    NOT NULL,                  -- JSON Settings, rules normalised by the engine
    status       TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished')),
    version      INTEGER NOT NULL,                  -- version of the last event
    game_no      INTEGER NOT NULL,                  -- 0 before the first start, then 1, 2, ...
    first_seat   INTEGER NOT NULL,                  -- seat that moves first in game `game_no`
    draw_offer   INTEGER,                           -- draughts: seat offering a draw
    created_at   INTEGER NOT NULL,
    active_at    INTEGER NOT NULL,                  -- last change other than presence
    last_move_at INTEGER,                           -- last move (or start) of the current game
    finished_at  INTEGER                            -- when the current game ended
) WITHOUT ROWID;
CREATE INDEX rooms_by_status ON rooms (status);

-- The seats of a room: who sits there and the SHA-256 of their seat token (never the token).
CREATE TABLE seats (
    code       TEXT    NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('empty', 'human', 'cpu')),
    name       TEXT,
    level      TEXT,                                -- CPU level
    token_hash BLOB,                                -- SHA-256 of the seat token
    client     TEXT,                                -- dames_client cookie of the person seated
    ready      INTEGER NOT NULL DEFAULT 0,          -- rematch readiness
    PRIMARY KEY (code, seat)
) WITHOUT ROWID;
CREATE INDEX seats_by_client ON seats (client) WHERE client IS NOT NULL;

-- The game log: what is replayed through the rules engine to rebuild a game on start.
CREATE TABLE actions (
    code      TEXT    NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    game_no   INTEGER NOT NULL,
    seq       INTEGER NOT NULL,                     -- 0, 1, 2 ... within the game
    seat      INTEGER,
    kind      TEXT    NOT NULL CHECK (kind IN ('move', 'resign', 'draw', 'abandon')),
    data      TEXT,                                 -- JSON of the move as played (a MoveInput)
    client_id TEXT,                                 -- the client's move id, applied at most once
    at        INTEGER NOT NULL,
    PRIMARY KEY (code, game_no, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX actions_client_id ON actions (code, client_id) WHERE client_id IS NOT NULL;

-- Every versioned room event, so that a reconnecting client gets what it missed.
CREATE TABLE events (
    code    TEXT    NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    event   TEXT    NOT NULL,                       -- JSON Event
    at      INTEGER NOT NULL,
    PRIMARY KEY (code, version)
) WITHOUT ROWID;
