-- The analyses of finished games (« Analyser », docs/protocol.md "Analysis"), as SQLite
-- migration 0011: one per game, the engine's review of every position as JSON
-- (dames_room::analysis), written once the whole game is analysed. Deleted with its game
-- (retention, the room's 200 games) and with its room, by the cascade.
CREATE TABLE analyses (
    code     TEXT   NOT NULL,
    game_no  BIGINT NOT NULL,
    analysis TEXT   NOT NULL,                       -- JSON GameAnalysis
    at       BIGINT NOT NULL,                       -- when it was made (ms)
    PRIMARY KEY (code, game_no),
    FOREIGN KEY (code, game_no) REFERENCES games (code, game_no) ON DELETE CASCADE
);
