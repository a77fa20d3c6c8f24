-- Clocks (issue 20, « Pendule »): a live game's clocks survive a restart and a move through
-- another node.
-- rooms.clock: JSON of the current game's clocks (each seat's time in ms as of the start of the
-- running turn, the seat whose clock runs and since when, the seats whose flag fell); NULL
-- without a clock.
-- actions.clock: JSON `[ms, …]`, each seat's time after that move (or fallen flag): the game
-- record's times; NULL without a clock.
ALTER TABLE rooms ADD COLUMN clock TEXT;
ALTER TABLE actions ADD COLUMN clock TEXT;
