-- Turn-by-turn games (issue 6): Web Push subscriptions per seat, the server's VAPID key, who has
-- played which game (for reviews), reviews and requests. Times are Unix milliseconds.

-- Small server-wide values: the VAPID private key ('vapid_private', base64url of the P-256 scalar),
-- generated on first start.
CREATE TABLE server_keys (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- One Web Push subscription per seat of a room; deleted with the room, when its game ends, or
-- when the push service answers 404/410.
CREATE TABLE push_subscriptions (
    code       TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    endpoint   TEXT NOT NULL,
    p256dh     TEXT NOT NULL,
    auth       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (code, seat)
);

-- A browser (`dames_client`) held a seat in a finished game of this kind: it may review it.
-- Kept 2 years after the last such game.
CREATE TABLE played (
    client TEXT NOT NULL,
    game   TEXT NOT NULL,
    at     INTEGER NOT NULL,
    PRIMARY KEY (client, game)
);

-- Reviews (1–5 stars and a text) and requests (a wish, a problem, a rule setting), public with
-- their status. `client` is the author's `dames_client`, never shown. Kept 2 years.
CREATE TABLE feedback (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    kind       TEXT NOT NULL CHECK (kind IN ('review', 'request', 'problem', 'rule')),
    game       TEXT CHECK (game IN ('cc', 'draughts')),
    stars      INTEGER CHECK (stars BETWEEN 1 AND 5),
    body       TEXT NOT NULL,
    name       TEXT,
    status     TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'planned', 'done', 'declined')),
    client     TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX feedback_created ON feedback (created_at);
