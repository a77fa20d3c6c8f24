-- Open tables and games to watch (issue 20): a room whose settings say `"public": true` is listed
-- on « Jouer en ligne ». The flag lives in the settings JSON, the one place a room's settings are
-- written; this column is computed from it by SQLite itself, so that it can never disagree with
-- the settings, and indexed so that the lists read only the public rooms.
ALTER TABLE rooms ADD COLUMN public INTEGER
    GENERATED ALWAYS AS (coalesce(json_extract(settings, '$.public'), 0) = 1) VIRTUAL;
CREATE INDEX rooms_public ON rooms (public, status);

-- « Signaler » (issue 20): a report about a player goes to the operator through the feedback
-- table, as kind `report` (never listed publicly, unlike reviews and requests). SQLite cannot
-- change a CHECK constraint in place: the table is copied into one that allows the new kind.
CREATE TABLE feedback_new (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    kind       TEXT NOT NULL CHECK (kind IN ('review', 'request', 'problem', 'rule', 'report')),
    game       TEXT CHECK (game IN ('cc', 'draughts')),
    stars      INTEGER CHECK (stars BETWEEN 1 AND 5),
    body       TEXT NOT NULL,
    name       TEXT,
    status     TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'planned', 'done', 'declined')),
    client     TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
INSERT INTO feedback_new (id, kind, game, stars, body, name, status, client, created_at)
SELECT id, kind, game, stars, body, name, status, client, created_at FROM feedback;
DROP TABLE feedback;
ALTER TABLE feedback_new RENAME TO feedback;
CREATE INDEX feedback_created ON feedback (created_at);
CREATE INDEX feedback_by_client ON feedback (client, kind, created_at);
