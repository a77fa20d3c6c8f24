-- Games against CPUs (issue 9, a cap per browser and per address): a keyed hash of the address
-- that started the room's game (SHA-256 under a random key of `server_keys`, over the address or
-- its /64), so that the cap per address still counts the games being played after a restart.
-- Never the address itself. NULL: no game against CPUs.
ALTER TABLE rooms ADD COLUMN cpu_by TEXT;
