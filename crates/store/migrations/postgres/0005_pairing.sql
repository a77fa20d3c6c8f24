-- Quick pairing (issue 20, docs/protocol.md "Pools"), as SQLite migration 0009. Browsers are
-- the signed browser ids of the `dames_client` cookie; they are never shown to anyone.
--
-- « Ne plus jouer avec cette personne »: `client` blocked `blocked`; pairing never seats the two
-- together, whichever blocked the other.
CREATE TABLE blocks (
    client TEXT NOT NULL,
    blocked TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (client, blocked)
);
CREATE INDEX blocks_blocked ON blocks (blocked);

-- Games left: a game lost by abandonment (or by time while away) counts once per room, game
-- and seat; the pools make that browser wait longer (docs/protocol.md "Leavers").
CREATE TABLE leaves (
    code TEXT NOT NULL,
    game_no BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    client TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (code, game_no, seat)
);
CREATE INDEX leaves_client ON leaves (client, at);
