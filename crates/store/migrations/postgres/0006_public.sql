-- Open tables and games to watch (issue 20; SQLite migration 0010): `public` is computed from the
-- settings JSON (the one place a room's settings are written), so that it never disagrees with
-- them, and indexed so that the lists read only the public rooms.
ALTER TABLE rooms ADD COLUMN public BOOLEAN
    GENERATED ALWAYS AS (coalesce((settings::jsonb ->> 'public')::boolean, false)) STORED;
CREATE INDEX rooms_public ON rooms (public, status);

-- « Signaler »: reports to the operator are feedback of kind `report` (never listed publicly).
ALTER TABLE feedback DROP CONSTRAINT feedback_kind_check;
ALTER TABLE feedback ADD CONSTRAINT feedback_kind_check
    CHECK (kind IN ('review', 'request', 'problem', 'rule', 'report'));
CREATE INDEX feedback_by_client ON feedback (client, kind, created_at);
