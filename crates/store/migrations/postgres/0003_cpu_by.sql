-- Games against CPUs: a keyed hash of the address that started the room's game, so that the cap
-- per address survives a restart (SQLite migration 0007). Never the address itself.
ALTER TABLE rooms ADD COLUMN cpu_by TEXT;
