-- The analyses of finished games (« Analyser », docs/protocol.md "Analysis", docs/storage.md):
-- one per game, the engine's review of every position as JSON (dames_room::analysis), written
-- once the whole game is analysed. Deleted with its game (retention, the room's 200 games) and
-- with its room, by the cascade.
CREATE TABLE analyses (
    code     TEXT    NOT NULL,
    game_no  INTEGER NOT NULL,
    analysis TEXT    NOT NULL,                      -- JSON GameAnalysis
    at       INTEGER NOT NULL,                      -- when it was made (ms)
    PRIMARY KEY (code, game_no),
    FOREIGN KEY (code, game_no) REFERENCES games (code, game_no) ON DELETE CASCADE
) WITHOUT ROWID;
