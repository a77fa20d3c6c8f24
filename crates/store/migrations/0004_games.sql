-- Every game of a room (issue 14): a rematch starts the next game without replacing the last one,
-- so that each finished game can be looked at again and downloaded. Written in the same
-- transaction as the game's start and its end; its log is the `actions` rows of the same
-- (code, game_no). Deleted with its room, or 30 days after it ended once its room has gone on to a
-- later game (docs/storage.md, "Retention").
CREATE TABLE games (
    code        TEXT    NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    game_no     INTEGER NOT NULL,                   -- 1, 2, ... within the room
    settings    TEXT    NOT NULL,                   -- JSON Settings the game was played under
    seats       TEXT,                               -- JSON [SeatView] at its start (names, CPU
                                                    -- levels, camps, colours); NULL for games from
                                                    -- before this table: the room's seats
    first_seat  INTEGER NOT NULL,                   -- the seat that moved first
    start_fen   TEXT,                               -- draughts: imported start; NULL: the usual one
    started_at  INTEGER,                            -- NULL when not known (from before this table)
    finished_at INTEGER,                            -- NULL while it is being played
    outcome     TEXT,                               -- JSON Outcome once over (NULL before this table)
    PRIMARY KEY (code, game_no)
) WITHOUT ROWID;
CREATE INDEX games_by_finished ON games (finished_at) WHERE finished_at IS NOT NULL;

-- The games played before this table. The current (or last) one of each room from the room ...
INSERT INTO games (code, game_no, settings, first_seat, start_fen, finished_at)
SELECT code, game_no, settings, first_seat, start_fen, finished_at FROM rooms WHERE game_no >= 1;
-- ... and the earlier ones from their logs, which were never deleted: the first move of a game is
-- made by its first seat, its first entry is when it started and its last entry ended it.
INSERT INTO games (code, game_no, settings, first_seat, start_fen, started_at, finished_at)
SELECT a.code, a.game_no, r.settings,
       COALESCE((SELECT m.seat FROM actions m
                 WHERE m.code = a.code AND m.game_no = a.game_no AND m.kind = 'move'
                 ORDER BY m.seq LIMIT 1), r.first_seat),
       r.start_fen, MIN(a.at), MAX(a.at)
FROM actions a JOIN rooms r ON r.code = a.code
WHERE a.game_no < r.game_no
GROUP BY a.code, a.game_no;
