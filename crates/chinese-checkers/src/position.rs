//! The state of a game ([`Game`]) and playing moves on it (RULES.md 1.3–1.4).

use crate::cell::{
    Bitboard, Bits, Camp, Cell, BOARD, CAMPS_10, CAMPS_15, CELL_COUNT, HEXAGON, NEIGHBOUR, NONE,
};
use crate::lattice;
use crate::movegen::Move;
use crate::outcome::{Ending, Events, Finished, Outcome};
use crate::rules::{RuleSet, Rules, RulesError, Seat, UnusedCamps};
use crate::zobrist;

mod standing;

pub use standing::Standing;

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its colour: the camp its set started from; `None` for an inert piece of a filled camp.
    pub colour: Option<Camp>,
    /// The seat that moves it; `None` for an inert piece.
    pub seat: Option<Seat>,
    /// A Japanese king.
    pub king: bool,
}

/// Why a move was refused. The game is left untouched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The game is over.
    GameOver,
    /// `from` holds no piece of the side to move.
    NotYourPiece(Cell),
    /// The piece on `from` cannot reach `to` this turn.
    Unreachable(Move),
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IllegalMove::GameOver => write!(f, "the game is over"),
            IllegalMove::NotYourPiece(c) => write!(f, "{c} holds no piece of the player to move"),
            IllegalMove::Unreachable(m) => {
                write!(f, "the piece on {} cannot go to {}", m.from, m.to)
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Why a resignation was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResignError {
    /// The game is over.
    GameOver,
    /// No such seat, or it has already finished or resigned.
    NotPlaying(Seat),
}

impl std::fmt::Display for ResignError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResignError::GameOver => write!(f, "the game is over"),
            ResignError::NotPlaying(s) => write!(f, "{s} is not playing any more"),
        }
    }
}

impl std::error::Error for ResignError {}

/// Why the turn cannot be given to a seat ([`Game::give_turn`], [`Game::play_for`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// The game is over.
    GameOver,
    /// No such seat, or it has finished or resigned.
    NotPlaying(Seat),
    /// The seat has no legal move (its turn would be passed).
    NoMove(Seat),
}

impl std::fmt::Display for TurnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TurnError::GameOver => write!(f, "the game is over"),
            TurnError::NotPlaying(s) => write!(f, "{s} is not playing any more"),
            TurnError::NoMove(s) => write!(f, "{s} has no legal move"),
        }
    }
}

impl std::error::Error for TurnError {}

/// Why [`Game::play_for`] refused a move. The game is left untouched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayForError {
    /// The seat cannot be given the turn.
    Turn(TurnError),
    /// The move is not legal for the seat.
    Move(IllegalMove),
}

impl std::fmt::Display for PlayForError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayForError::Turn(e) => e.fmt(f),
            PlayForError::Move(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayForError {}

/// A game in progress or over: the board, the side to move, who has finished or resigned with
/// which place, the counters of the move limit and of stagnation, and the Zobrist hash.
///
/// `Game` is `Copy` (a few hundred bytes, no heap), so a search can copy-make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    /// Pieces by colour (the camp their set started from).
    pub(crate) pieces: [u128; 6],
    /// Inert pieces of filled unused camps.
    pub(crate) inert: u128,
    pub(crate) kings: u128,
    pub(crate) occupied: u128,
    /// `occupied` split by sublattice (see `lattice`), for the fast jump flood.
    pub(crate) sub_occupied: [lattice::Lane; 4],
    /// Number of empty neighbours of each hole (the step count of a piece standing there).
    /// (Packed: 4 bits per hole, 16 holes per word, so that a move updates it with a few adds.)
    pub(crate) free_neighbours: FreeNeighbours,
    to_move: u8,
    /// Seats that have finished or resigned.
    out: u8,
    resigned: u8,
    places: [u8; 6],
    turns: [u16; 6],
    best_progress: [u32; 6],
    quiet_turns: u32,
    hash: u64,
    outcome: Option<Outcome>,
    // Derived from the rules once.
    colours: [u8; 6],
    owner: [u8; 6],
    /// Current progress of each seat (see `progress`), kept incrementally.
    progress_now: [u32; 6],
    /// No option restricts plain moves: counting is a popcount of steps and lattice floods.
    pub(crate) plain_count: bool,
}

const NOBODY: u8 = u8::MAX;

impl Game {
    /// A new game from the starting position of `rules`, `first` to move.
    ///
    /// # Errors
    /// If the rules are invalid ([`Rules::validate`]) or `first` is not a seat.
    pub fn new(rules: Rules, first: Seat) -> Result<Game, RulesError> {
        let mut game = Game::empty(rules)?;
        if first.0 >= rules.players {
            return Err(RulesError::NoSuchSeat(first.0));
        }
        for colour in 0..6u8 {
            if game.owner[colour as usize] != NOBODY {
                game.pieces[colour as usize] = game.camp_mask(colour);
                if rules.rule_set == RuleSet::Japanese {
                    game.kings |= Camp::new_unchecked(colour).tip().bit();
                }
            }
        }
        game.inert = Game::standard_inert(&rules);
        game.to_move = first.0;
        game.refresh();
        Ok(game)
    }

    /// The inert pieces of filled unused camps, per the rules.
    pub(crate) fn standard_inert(rules: &Rules) -> u128 {
        match rules.unused_camps {
            UnusedCamps::Empty => 0,
            UnusedCamps::Filled => rules
                .unused_camps()
                .fold(0, |m, c| m | CAMPS_10[c.index() as usize]),
        }
    }

    /// An empty board for `rules`, seat 0 to move (for building positions).
    pub(crate) fn empty(rules: Rules) -> Result<Game, RulesError> {
        rules.validate()?;
        let mut game = Game {
            rules,
            pieces: [0; 6],
            inert: 0,
            kings: 0,
            occupied: 0,
            sub_occupied: [0; 4],
            free_neighbours: FreeNeighbours::default(),
            to_move: 0,
            out: 0,
            resigned: 0,
            places: [0; 6],
            turns: [0; 6],
            best_progress: [0; 6],
            quiet_turns: 0,
            hash: 0,
            outcome: None,
            colours: [0; 6],
            owner: [NOBODY; 6],
            progress_now: [0; 6],
            plain_count: rules.plain_jumps()
                && !rules.swap_rule
                && !rules.forced_exit
                && !rules.no_resting_in_foreign_camps
                && !rules.no_leaving_destination,
        };
        for seat in rules.seats() {
            for camp in rules.seat_camps(seat) {
                game.colours[seat.index()] |= 1 << camp.index();
                game.owner[camp.index() as usize] = seat.0;
            }
        }
        Ok(game)
    }

    /// Japanese rules: holes of other players' start and destination camps, minus `seat`'s own.
    fn japanese_forbidden(&self, seat: u8) -> u128 {
        if self.rules.rule_set != RuleSet::Japanese {
            return 0;
        }
        let camps_of = |s: u8| {
            Bits(u128::from(self.colours[s as usize])).fold(0, |m, c| {
                m | self.camp_mask(c) | self.camp_mask((c + 3) % 6)
            })
        };
        let others = (0..self.rules.players)
            .filter(|&s| s != seat)
            .fold(0, |m, s| m | camps_of(s));
        others & !camps_of(seat)
    }

    /// Recomputes occupancy, hash and progress from the pieces, then settles finished players,
    /// a finished game and a side to move that cannot move (used after building a position).
    pub(crate) fn refresh(&mut self) {
        self.occupied = self.pieces.iter().fold(self.inert, |m, p| m | p);
        self.sub_occupied = lattice::split(self.occupied);
        self.free_neighbours = FreeNeighbours::of(self.occupied);
        self.hash = self.compute_hash();
        self.recompute_progress();
        for seat in 0..self.rules.players {
            self.best_progress[seat as usize] = self.progress_now[seat as usize];
        }
        if self.outcome.is_some() {
            return;
        }
        let mut events = Report::default();
        for seat in 0..self.rules.players {
            if self.is_active(seat) && self.has_finished_now(seat) {
                self.finish(seat, &mut events);
            }
        }
        if self.check_end(Ending::Finished) {
            return;
        }
        let n = self.rules.players;
        let before = (self.to_move + n - 1) % n;
        self.advance(before, &mut events);
    }

    /// The rules of the game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The seat to move (meaningless once the game is over).
    pub fn to_move(&self) -> Seat {
        Seat(self.to_move)
    }

    /// The Zobrist hash of the position (pieces, kings and side to move).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Every occupied hole.
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.occupied)
    }

    /// The pieces of the set that started from `camp`.
    pub fn set_pieces(&self, camp: Camp) -> Bitboard {
        Bitboard(self.pieces[camp.index() as usize])
    }

    /// The pieces `seat` moves (all its sets).
    pub fn seat_pieces_of(&self, seat: Seat) -> Bitboard {
        Bitboard(self.seat_pieces(seat.0))
    }

    /// The inert pieces of filled unused camps.
    pub fn inert_pieces(&self) -> Bitboard {
        Bitboard(self.inert)
    }

    /// The Japanese kings.
    pub fn kings(&self) -> Bitboard {
        Bitboard(self.kings)
    }

    /// The piece on `cell`, if any.
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        let bit = cell.bit();
        if self.occupied & bit == 0 {
            return None;
        }
        let colour = self.colour_at(cell.index());
        Some(Piece {
            colour: colour.map(Camp::new_unchecked),
            seat: colour.map(|c| Seat(self.owner[c as usize])),
            king: self.kings & bit != 0,
        })
    }

    /// Whether `seat` has finished (its place is then [`Game::place`]).
    pub fn has_finished(&self, seat: Seat) -> bool {
        seat.0 < 6 && (self.out & !self.resigned) >> seat.0 & 1 != 0
    }

    /// Whether `seat` has resigned.
    pub fn has_resigned(&self, seat: Seat) -> bool {
        seat.0 < 6 && self.resigned >> seat.0 & 1 != 0
    }

    /// The place already decided for `seat` (finished or resigned), if any.
    pub fn place(&self, seat: Seat) -> Option<u8> {
        self.places.get(seat.index()).copied().filter(|&p| p != 0)
    }

    /// Turns `seat` has taken (moves and automatic passes), counted for the move limit.
    pub fn turns(&self, seat: Seat) -> u16 {
        self.turns.get(seat.index()).copied().unwrap_or(0)
    }

    /// Turns taken by unfinished players since one of them last improved their best progress.
    pub fn quiet_turns(&self) -> u32 {
        self.quiet_turns
    }

    pub(crate) fn colours_of(&self, seat: u8) -> u8 {
        self.colours[seat as usize]
    }

    pub(crate) fn owner_of(&self, colour: u8) -> Option<u8> {
        Some(self.owner[colour as usize]).filter(|&s| s != NOBODY)
    }

    pub(crate) fn camp_mask(&self, camp: u8) -> u128 {
        Camp::new_unchecked(camp).mask(self.rules.pieces)
    }

    /// Holes where pieces of `seat` may not land (Japanese rules), or 0.
    #[inline(always)]
    pub(crate) fn forbidden_landing(&self, seat: u8) -> u128 {
        if self.rules.rule_set == RuleSet::Japanese {
            self.japanese_forbidden(seat)
        } else {
            0
        }
    }

    /// Holes where a piece of `colour` may end its move (no resting in foreign camps), or all.
    #[inline(always)]
    pub(crate) fn end_ok(&self, colour: u8) -> u128 {
        if self.rules.no_resting_in_foreign_camps {
            HEXAGON | self.camp_mask(colour) | self.camp_mask((colour + 3) % 6)
        } else {
            BOARD
        }
    }

    pub(crate) fn seat_pieces(&self, seat: u8) -> u128 {
        Bits(u128::from(self.colours[seat as usize])).fold(0, |m, c| m | self.pieces[c as usize])
    }

    pub(crate) fn is_active(&self, seat: u8) -> bool {
        self.out >> seat & 1 == 0
    }

    fn active_count(&self) -> u32 {
        u32::from(self.rules.players) - self.out.count_ones()
    }

    fn finished_count(&self) -> u8 {
        (self.out & !self.resigned).count_ones() as u8
    }

    /// The colour of the piece on `c`, `None` for an inert piece or an empty hole.
    fn colour_at(&self, c: u8) -> Option<u8> {
        (0..6u8).find(|&colour| self.pieces[colour as usize] >> c & 1 != 0)
    }

    /// The colour among the bit set `colours` of the piece on `c` (0 if none: callers make sure
    /// there is one).
    #[inline(always)]
    fn colour_among(&self, colours: u8, c: u8) -> usize {
        if colours.is_power_of_two() {
            return colours.trailing_zeros() as usize;
        }
        let bit = 1u128 << c;
        let mut rest = colours;
        while rest != 0 {
            let colour = rest.trailing_zeros() as usize;
            if self.pieces[colour] & bit != 0 {
                return colour;
            }
            rest &= rest - 1;
        }
        0
    }

    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = zobrist::TO_MOVE[self.to_move as usize];
        for (colour, &bits) in self.pieces.iter().enumerate() {
            h ^= zobrist::hash_bits(colour, bits, &zobrist::PIECE);
        }
        h ^ zobrist::hash_bits(6, self.inert, &zobrist::PIECE) ^ zobrist::hash_kings(self.kings)
    }

    /// Plays `mv` for the side to move after checking that it is legal.
    ///
    /// # Errors
    /// [`IllegalMove`] if the game is over or the move is not legal; the game is then untouched.
    pub fn play(&mut self, mv: Move) -> Result<Events, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if self.seat_pieces(self.to_move) & mv.from.bit() == 0 {
            return Err(IllegalMove::NotYourPiece(mv.from));
        }
        if !self.is_legal(mv) {
            return Err(IllegalMove::Unreachable(mv));
        }
        let swapped = self.occupied & mv.to.bit() != 0;
        let start = self.to_move;
        let report = self.apply(mv);
        Ok(Events {
            swapped,
            ..self.events(start, report)
        })
    }

    /// Plays `mv` without checking it (for search).
    ///
    /// The move must be one of [`Game::legal_moves`] of this position (debug builds check the
    /// piece is the mover's); otherwise the game state becomes meaningless (no panic, no UB).
    pub fn play_unchecked(&mut self, mv: Move) {
        debug_assert!(!self.is_over(), "play_unchecked on a finished game");
        debug_assert!(
            self.seat_pieces(self.to_move) & mv.from.bit() != 0,
            "{mv}: not the mover's piece"
        );
        self.apply(mv);
    }

    /// Gives the turn to `seat`, whoever was to move: for searches in which any player may
    /// answer (Best-Reply Search), and analysis; a real game never needs it. Only the side to
    /// move (and the hash) change: turn counters, places and the stagnation count stay.
    ///
    /// # Errors
    /// [`TurnError`] if the game is over, `seat` is not playing or has no legal move; the game
    /// is then untouched.
    pub fn give_turn(&mut self, seat: Seat) -> Result<(), TurnError> {
        if self.is_over() {
            return Err(TurnError::GameOver);
        }
        if seat.0 >= self.rules.players || !self.is_active(seat.0) {
            return Err(TurnError::NotPlaying(seat));
        }
        if !self.has_legal_move(seat.0) {
            return Err(TurnError::NoMove(seat));
        }
        self.set_to_move(seat.0);
        Ok(())
    }

    /// Plays `mv` for `seat` as if it were its turn ([`Game::give_turn`], then
    /// [`Game::play`]); the turn then passes on from `seat` as after any move.
    ///
    /// # Errors
    /// [`PlayForError`] if `seat` cannot be given the turn or the move is not legal for it; the
    /// game is then untouched.
    pub fn play_for(&mut self, seat: Seat, mv: Move) -> Result<Events, PlayForError> {
        let mut next = *self;
        next.give_turn(seat).map_err(PlayForError::Turn)?;
        let events = next.play(mv).map_err(PlayForError::Move)?;
        *self = next;
        Ok(events)
    }

    fn apply(&mut self, mv: Move) -> Report {
        let seat = self.to_move;
        let (from, to) = (mv.from.index(), mv.to.index());
        let colour = self.colour_among(self.colours[seat as usize], from);
        let both = mv.from.bit() | mv.to.bit();
        let h = &zobrist::PIECE;
        if self.occupied & mv.to.bit() != 0 {
            // Swap rule: the opponent's piece on `to` goes to `from`.
            let other = self.colour_at(to).unwrap_or(0) as usize;
            self.move_progress(other, to, from);
            self.pieces[other] ^= both;
            self.hash ^= h[other][to as usize] ^ h[other][from as usize];
        } else {
            self.occupied ^= both;
            let (f, t) = (
                &lattice::COARSE_SPLIT[from as usize],
                &lattice::COARSE_SPLIT[to as usize],
            );
            for ((sub, f), t) in self.sub_occupied.iter_mut().zip(f).zip(t) {
                *sub ^= f ^ t;
            }
            self.free_neighbours.vacate_fill(from, to);
        }
        self.move_progress(colour, from, to);
        self.pieces[colour] ^= both;
        self.hash ^= h[colour][from as usize] ^ h[colour][to as usize];
        let kings = self.kings & both;
        if kings != 0 && kings != both {
            self.kings ^= both;
            self.hash ^= zobrist::KING[from as usize] ^ zobrist::KING[to as usize];
        }
        self.turns[seat as usize] = self.turns[seat as usize].saturating_add(1);
        let mut report = Report::default();
        self.end_turn(seat, both, &mut report);
        report
    }

    /// After `seat` moved: finishing, end of game, stagnation, then the next player.
    fn end_turn(&mut self, seat: u8, touched: u128, report: &mut Report) {
        let n = self.rules.players;
        // Finishing depends only on the camps' contents: a move within the hexagon changes none.
        if touched & !self.inner_holes() != 0 {
            let mut s = seat;
            for _ in 0..n {
                let touches_home = touched & self.destinations_of(s) != 0;
                if touches_home && self.is_active(s) && self.has_finished_now(s) {
                    self.finish(s, report);
                }
                s = if s + 1 == n { 0 } else { s + 1 };
            }
        }
        if self.check_end(Ending::Finished) {
            return;
        }
        let improved = report.finished != 0 || self.improved(seat);
        if self.count_quiet_turn(improved) {
            return;
        }
        self.advance(seat, report);
    }

    /// Counts a turn for stagnation; ends the game (and returns true) when the limit is reached.
    fn count_quiet_turn(&mut self, improved: bool) -> bool {
        if improved {
            self.quiet_turns = 0;
            return false;
        }
        self.quiet_turns = self.quiet_turns.saturating_add(1);
        let rounds = u32::from(self.rules.stagnation_rounds);
        if rounds > 0 && self.quiet_turns >= rounds * self.active_count() {
            self.end(Ending::Stagnation);
            return true;
        }
        false
    }

    /// Passes the turn on from `seat` to the next active seat that can move, passing automatically
    /// those that cannot; ends the game on the move limit, stagnation or when nobody can move.
    fn advance(&mut self, seat: u8, report: &mut Report) {
        let n = self.rules.players;
        let limit = self.rules.move_limit;
        let mut s = seat;
        for _ in 0..n {
            s = if s + 1 == n { 0 } else { s + 1 };
            if !self.is_active(s) {
                continue;
            }
            if limit > 0 && self.turns[s as usize] >= limit {
                self.end(Ending::MoveLimit);
                return;
            }
            if self.has_legal_move(s) {
                self.set_to_move(s);
                return;
            }
            report.passes |= 1 << s;
            self.turns[s as usize] = self.turns[s as usize].saturating_add(1);
            if self.count_quiet_turn(false) {
                return;
            }
        }
        self.end(Ending::Blocked);
    }

    fn set_to_move(&mut self, s: u8) {
        self.hash ^= zobrist::TO_MOVE[self.to_move as usize] ^ zobrist::TO_MOVE[s as usize];
        self.to_move = s;
    }

    /// Holes in no camp (of the game's camp size).
    #[inline(always)]
    fn inner_holes(&self) -> u128 {
        if self.rules.pieces == 15 {
            HEXAGON & !CAMPS_15.iter().fold(0, |m, c| m | c)
        } else {
            HEXAGON
        }
    }

    /// Whether every set of `seat` has finished (RULES.md 1.4, 1.6).
    /// The holes of the destination camps of `seat`.
    #[inline(always)]
    fn destinations_of(&self, seat: u8) -> u128 {
        let mut mask = 0;
        let mut rest = self.colours[seat as usize];
        while rest != 0 {
            mask |= self.camp_mask((rest.trailing_zeros() as u8 + 3) % 6);
            rest &= rest - 1;
        }
        mask
    }

    pub(crate) fn has_finished_now(&self, seat: u8) -> bool {
        Bits(u128::from(self.colours[seat as usize])).all(|c| self.set_finished(c))
    }

    fn set_finished(&self, colour: u8) -> bool {
        let dest = self.camp_mask((colour + 3) % 6);
        let own = self.pieces[colour as usize];
        let filled = if self.rules.anti_blocking {
            dest & !self.occupied == 0 && own & dest != 0
        } else {
            dest & !own == 0
        };
        let king = own & self.kings;
        let tip = Camp::new_unchecked((colour + 3) % 6).tip().bit();
        filled && (king == 0 || king & tip != 0)
    }

    fn finish(&mut self, seat: u8, report: &mut Report) {
        self.places[seat as usize] = self.finished_count() + 1;
        self.out |= 1 << seat;
        report.finished |= 1 << seat;
    }

    /// Ends the game if at most one player is left, or at the first finisher when playing to the
    /// end is off.
    fn check_end(&mut self, ending: Ending) -> bool {
        if self.active_count() <= 1 {
            self.end(ending);
        } else if self.finished_count() > 0 && !self.rules.play_to_the_end {
            self.end(Ending::FirstFinished);
        }
        self.is_over()
    }

    /// `seat` resigns (RULES.md 1.4): with 2 players the other wins; with more, the resigner takes
    /// the last free place, their pieces are removed and the others go on.
    ///
    /// # Errors
    /// [`ResignError`] if the game is over or the seat is not playing.
    pub fn resign(&mut self, seat: Seat) -> Result<Events, ResignError> {
        if self.is_over() {
            return Err(ResignError::GameOver);
        }
        if seat.0 >= self.rules.players || !self.is_active(seat.0) {
            return Err(ResignError::NotPlaying(seat));
        }
        let s = seat.0;
        self.places[s as usize] = self.rules.players - self.resigned.count_ones() as u8;
        self.out |= 1 << s;
        self.resigned |= 1 << s;
        if self.rules.players > 2 {
            for colour in Bits(u128::from(self.colours[s as usize])) {
                let bits = self.pieces[colour as usize];
                self.hash ^= zobrist::hash_bits(colour as usize, bits, &zobrist::PIECE);
                self.hash ^= zobrist::hash_kings(bits & self.kings);
                self.kings &= !bits;
                self.occupied &= !bits;
                self.pieces[colour as usize] = 0;
            }
            self.sub_occupied = lattice::split(self.occupied);
            self.free_neighbours = FreeNeighbours::of(self.occupied);
            self.recompute_progress();
        }
        let mut report = Report::default();
        if !self.check_end(Ending::Resignation) && s == self.to_move {
            self.advance(s, &mut report);
        }
        Ok(self.events(s, report))
    }

    /// Ends the game with no result (the server calls it after 45 days without a move).
    ///
    /// # Errors
    /// [`ResignError::GameOver`] if the game is already over.
    pub fn abandon(&mut self) -> Result<Outcome, ResignError> {
        if self.is_over() {
            return Err(ResignError::GameOver);
        }
        self.end(Ending::Abandoned);
        Ok(self.outcome.expect("just ended"))
    }

    /// Ends the game now, ranking the players still playing as for stagnation after those
    /// already placed ([`Ending::Stopped`]: the server stops a game where only CPU players are
    /// left in play).
    ///
    /// # Errors
    /// [`ResignError::GameOver`] if the game is already over.
    pub fn stop(&mut self) -> Result<Outcome, ResignError> {
        if self.is_over() {
            return Err(ResignError::GameOver);
        }
        self.end(Ending::Stopped);
        Ok(self.outcome.expect("just ended"))
    }

    fn events(&self, start: u8, report: Report) -> Events {
        let n = self.rules.players;
        let order = |mask: u8, first: u8| {
            (0..n)
                .map(move |k| (first + k) % n)
                .filter(move |s| mask >> s & 1 != 0)
        };
        Events {
            swapped: false,
            finished: order(report.finished, start)
                .map(|s| Finished {
                    seat: Seat(s),
                    place: self.places[s as usize],
                })
                .collect(),
            passes: order(report.passes, (start + 1) % n).map(Seat).collect(),
            outcome: self.outcome,
        }
    }

    /// Builds a game from explicit pieces (used by the position file).
    pub(crate) fn set_board(&mut self, pieces: [u128; 6], inert: u128, kings: u128, to_move: u8) {
        self.pieces = pieces;
        self.inert = inert;
        self.kings = kings;
        self.to_move = to_move;
    }

    /// Mutable access to the counters, for deserialising a saved game.
    pub(crate) fn set_state(&mut self, state: SavedState) {
        self.turns = state.turns;
        self.places = state.places;
        self.out = state.out;
        self.resigned = state.resigned;
        self.quiet_turns = state.quiet_turns;
        self.outcome = state.outcome;
    }

    /// Restores the best progress of each seat (stagnation), after [`Game::refresh`].
    pub(crate) fn set_best_progress(&mut self, best: &[u32]) {
        for (slot, &b) in self.best_progress.iter_mut().zip(best) {
            *slot = b;
        }
    }

    pub(crate) fn best_progress(&self) -> &[u32] {
        &self.best_progress[..self.rules.seat_count()]
    }

    pub(crate) fn saved_state(&self) -> SavedState {
        SavedState {
            turns: self.turns,
            places: self.places,
            out: self.out,
            resigned: self.resigned,
            quiet_turns: self.quiet_turns,
            outcome: self.outcome,
        }
    }

    /// Checks the internal invariants (for tests): pieces disjoint, occupancy and hash consistent.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut seen = self.inert;
        for (c, &p) in self.pieces.iter().enumerate() {
            if seen & p != 0 {
                return Err(format!("colour {c} overlaps another piece"));
            }
            seen |= p;
        }
        if seen != self.occupied || seen & !BOARD != 0 {
            return Err("occupancy differs from the pieces".into());
        }
        if self.sub_occupied != lattice::split(self.occupied) {
            return Err("sublattice occupancy differs".into());
        }
        if self.free_neighbours != FreeNeighbours::of(self.occupied) {
            return Err("free neighbour counts differ".into());
        }
        let mut copy = *self;
        copy.recompute_progress();
        if copy.progress_now != self.progress_now {
            return Err("incremental progress differs".into());
        }
        if self.kings & !self.occupied != 0 {
            return Err("a king on an empty hole".into());
        }
        if self.hash != self.compute_hash() {
            return Err("incremental hash differs from the recomputed one".into());
        }
        Ok(())
    }
}

/// Game counters that are not on the board (for a saved game).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SavedState {
    pub turns: [u16; 6],
    pub places: [u8; 6],
    pub out: u8,
    pub resigned: u8,
    pub quiet_turns: u32,
    pub outcome: Option<Outcome>,
}

/// Words of [`FreeNeighbours`].
const FREE_WORDS: usize = CELL_COUNT.div_ceil(16);

/// The neighbours of each hole as packed counters: 1 in the nibble of every neighbour.
static NEIGHBOUR_NIBBLES: [[u64; FREE_WORDS]; CELL_COUNT] = {
    let mut t = [[0u64; FREE_WORDS]; CELL_COUNT];
    let mut c = 0;
    while c < CELL_COUNT {
        let mut d = 0;
        while d < 6 {
            let n = NEIGHBOUR[c][d];
            if n != NONE {
                t[c][n as usize / 16] |= 1 << (4 * (n as usize % 16));
            }
            d += 1;
        }
        c += 1;
    }
    t
};

/// The number of empty neighbours of every hole (at most 6), 4 bits each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct FreeNeighbours([u64; FREE_WORDS]);

impl FreeNeighbours {
    /// The counts for the occupancy `occupied`: every empty hole counts for its neighbours.
    fn of(occupied: u128) -> FreeNeighbours {
        let mut out = FreeNeighbours::default();
        for e in Bits(BOARD & !occupied) {
            for (word, add) in out.0.iter_mut().zip(&NEIGHBOUR_NIBBLES[e as usize]) {
                *word += add;
            }
        }
        out
    }

    /// Empty neighbours of the hole `c`.
    #[inline(always)]
    pub(crate) fn get(&self, c: usize) -> u32 {
        ((self.0[c / 16] >> (4 * (c % 16))) & 15) as u32
    }

    /// Hole `from` empties and hole `to` fills. No nibble overflows or borrows: every count
    /// stays within 0..=6.
    #[inline(always)]
    fn vacate_fill(&mut self, from: u8, to: u8) {
        let (add, sub) = (
            &NEIGHBOUR_NIBBLES[from as usize],
            &NEIGHBOUR_NIBBLES[to as usize],
        );
        for ((word, a), s) in self.0.iter_mut().zip(add).zip(sub) {
            *word = word.wrapping_add(*a).wrapping_sub(*s);
        }
    }
}

/// What a turn did, as bit sets of seats.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Report {
    pub finished: u8,
    pub passes: u8,
}
