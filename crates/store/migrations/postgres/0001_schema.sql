-- Dames storage on PostgreSQL: the same tables as the SQLite migrations 0001–0005 of the parent
-- folder, as they stand after them (docs/storage.md explains every table and the retention rules).
-- Times are Unix milliseconds (BIGINT); JSON columns hold the protocol's JSON as text, exactly as
-- SQLite keeps it, so that both backends read and write the same strings.

-- One row per room; `version` is what the per-room version check of every change compares
-- (docs/cluster.md).
CREATE TABLE rooms (
    code         TEXT    PRIMARY KEY,
    game         TEXT    NOT NULL CHECK (game IN ('cc', 'draughts')),
    settings     TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished')),
    version      BIGINT  NOT NULL,
    game_no      BIGINT  NOT NULL,
    first_seat   BIGINT  NOT NULL,
    draw_offer   BIGINT,
    created_at   BIGINT  NOT NULL,
    active_at    BIGINT  NOT NULL,
    last_move_at BIGINT,
    finished_at  BIGINT,
    start_fen    TEXT
);
CREATE INDEX rooms_by_status ON rooms (status);

CREATE TABLE seats (
    code       TEXT    NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    seat       BIGINT  NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('empty', 'human', 'cpu')),
    name       TEXT,
    level      TEXT,
    token_hash BYTEA,                               -- SHA-256 of the seat token
    client     TEXT,
    ready      BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (code, seat)
);
CREATE INDEX seats_by_client ON seats (client) WHERE client IS NOT NULL;

CREATE TABLE actions (
    code      TEXT    NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    game_no   BIGINT  NOT NULL,
    seq       BIGINT  NOT NULL,
    seat      BIGINT,
    kind      TEXT    NOT NULL CHECK (kind IN ('move', 'resign', 'draw', 'abandon', 'stop')),
    data      TEXT,
    client_id TEXT,
    at        BIGINT  NOT NULL,
    PRIMARY KEY (code, game_no, seq)
);
CREATE UNIQUE INDEX actions_client_id ON actions (code, client_id) WHERE client_id IS NOT NULL;

CREATE TABLE events (
    code    TEXT    NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    version BIGINT  NOT NULL,
    event   TEXT    NOT NULL,
    at      BIGINT  NOT NULL,
    PRIMARY KEY (code, version)
);

CREATE TABLE games (
    code        TEXT    NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    game_no     BIGINT  NOT NULL,
    settings    TEXT    NOT NULL,
    seats       TEXT,
    first_seat  BIGINT  NOT NULL,
    start_fen   TEXT,
    started_at  BIGINT,
    finished_at BIGINT,
    outcome     TEXT,
    PRIMARY KEY (code, game_no)
);
CREATE INDEX games_by_finished ON games (finished_at) WHERE finished_at IS NOT NULL;

CREATE TABLE server_keys (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE push_subscriptions (
    code       TEXT   NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    seat       BIGINT NOT NULL,
    endpoint   TEXT   NOT NULL,
    p256dh     TEXT   NOT NULL,
    auth       TEXT   NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (code, seat)
);

CREATE TABLE played (
    client TEXT   NOT NULL,
    game   TEXT   NOT NULL,
    at     BIGINT NOT NULL,
    PRIMARY KEY (client, game)
);

CREATE TABLE feedback (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind       TEXT   NOT NULL CHECK (kind IN ('review', 'request', 'problem', 'rule')),
    game       TEXT   CHECK (game IN ('cc', 'draughts')),
    stars      BIGINT CHECK (stars BETWEEN 1 AND 5),
    body       TEXT   NOT NULL,
    name       TEXT,
    status     TEXT   NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'planned', 'done', 'declined')),
    client     TEXT   NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX feedback_created ON feedback (created_at);
