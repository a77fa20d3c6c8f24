//! Legal move generation (RULES.md part 2): men step forward and capture both ways, kings fly,
//! capturing is compulsory and only the sequences that capture the most pieces are legal.
//!
//! Captured pieces stay on the board until the sequence ends: they block the capturing piece's
//! path and cannot be jumped twice (the "Turkish strike" rule), while empty squares may be crossed
//! several times and the capturing piece's start square counts as empty. Sequences with the same
//! start, end and captured set are one move.

use crate::bitboard::Bits;
use crate::board::{Board, Color, DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT};
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// The two directions at right angles to each direction.
const PERPENDICULAR: [[usize; 2]; 4] = [
    [UP_RIGHT, DOWN_LEFT],
    [UP_LEFT, DOWN_RIGHT],
    [UP_LEFT, DOWN_RIGHT],
    [UP_RIGHT, DOWN_LEFT],
];

/// The padded bit one step back from `bit` against `dir`.
#[inline(always)]
fn back<B: Board>(bit: u32, dir: usize) -> u32 {
    match dir {
        UP_LEFT => bit + B::H + 1,
        UP_RIGHT => bit + B::H,
        DOWN_LEFT => bit - B::H,
        _ => bit - B::H - 1,
    }
}

/// The squares one step against `dir`.
#[inline(always)]
fn step_back<B: Board>(x: B::Bits, dir: usize) -> B::Bits {
    B::step(x, 3 - dir)
}

/// The forward directions of `side`'s men.
#[inline(always)]
fn forward(side: Color) -> [usize; 2] {
    match side {
        Color::White => [UP_LEFT, UP_RIGHT],
        Color::Black => [DOWN_LEFT, DOWN_RIGHT],
    }
}

/// The capture search for one position: the best count so far and the moves that reach it.
struct Captures<'a, B: Board> {
    list: &'a mut Vec<Move<B>>,
    best: u32,
    from: u32,
    opp: B::Bits,
    empty: B::Bits,
}

impl<B: Board> Captures<'_, B> {
    /// Records a finished sequence of `n` captures ending on `at`.
    #[inline(always)]
    fn add(&mut self, at: B::Bits, captured: B::Bits, n: u32, may_repeat: bool) {
        if n < self.best {
            return;
        }
        if n > self.best {
            self.best = n;
            self.list.clear();
        }
        let mv = Move::from_parts(self.from, at.lowest(), captured);
        if may_repeat && self.list.contains(&mv) {
            return;
        }
        self.list.push(mv);
    }

    /// Continues a man's sequence standing on `at` after `n` captures.
    fn man(&mut self, at: B::Bits, captured: B::Bits, n: u32) {
        let targets = self.opp & !captured;
        let mut more = false;
        for dir in [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT] {
            let jumped = B::step(at, dir) & targets;
            if !jumped.is_empty() {
                let land = B::step(jumped, dir) & self.empty;
                if !land.is_empty() {
                    more = true;
                    self.man(land, captured | jumped, n + 1);
                }
            }
        }
        if !more {
            // Two routes to the same end over the same pieces need at least four captures.
            self.add(at, captured, n, n >= 4);
        }
    }

    /// A king on padded bit `at` looks along `dir` for a piece to capture; returns whether it
    /// found one (and then has searched every continuation).
    #[inline]
    fn king_dir(&mut self, at: u32, dir: usize, captured: B::Bits, n: u32) -> bool {
        let blockers = B::ray(dir, at) & !self.empty;
        if blockers.is_empty() {
            return false;
        }
        let victim = B::nearest(dir, blockers);
        if !(self.opp & !captured).has(victim) {
            return false;
        }
        if (B::step(B::Bits::bit(victim), dir) & self.empty).is_empty() {
            return false;
        }
        self.king_run(victim, dir, captured | B::Bits::bit(victim), n + 1);
        true
    }

    /// A king has just captured the piece on `victim` along `dir` and may land on any empty
    /// square beyond it, up to the next piece.
    fn king_run(&mut self, victim: u32, dir: usize, captured: B::Bits, n: u32) {
        let beyond = B::ray(dir, victim);
        let blockers = beyond & !self.empty;
        let landing = if blockers.is_empty() {
            beyond
        } else {
            let next = B::nearest(dir, blockers);
            beyond & !(B::ray(dir, next) | B::Bits::bit(next))
        };
        let [p1, p2] = PERPENDICULAR[dir];
        let mut more = false;
        for l in landing.iter() {
            more |= self.king_dir(l, p1, captured, n);
            more |= self.king_dir(l, p2, captured, n);
        }
        // Going on along `dir` is the same from every landing square: try it once.
        more |= self.king_dir(victim, dir, captured, n);
        if !more {
            for l in landing.iter() {
                self.add(B::Bits::bit(l), captured, n, n >= 2);
            }
        }
    }
}

impl<B: Board> Position<B> {
    /// The side to move's pieces and the opponent's.
    #[inline(always)]
    pub(crate) fn own_opp(&self) -> (B::Bits, B::Bits) {
        match self.side {
            Color::White => (self.white, self.black),
            Color::Black => (self.black, self.white),
        }
    }

    /// The empty squares.
    #[inline(always)]
    pub(crate) fn empty_squares(&self) -> B::Bits {
        B::ALL & !(self.white | self.black)
    }

    /// Every legal move (a fresh list; see [`Position::generate_moves`] to reuse one).
    pub fn legal_moves(&self) -> MoveList<B> {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    /// Fills `list` with every legal move: the maximum captures if any capture exists, else the
    /// quiet moves. No move means the side to move has lost.
    #[inline]
    pub fn generate_moves(&self, list: &mut MoveList<B>) {
        list.clear();
        if self.has_captures() {
            self.generate_captures(list);
        } else {
            self.generate_quiet(list);
        }
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move<B>) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// Whether the side to move has a capture (and so must capture).
    #[inline]
    pub fn has_captures(&self) -> bool {
        let (own, opp) = self.own_opp();
        let empty = self.empty_squares();
        let men = own & !self.kings;
        for dir in [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT] {
            if !(B::step(B::step(men, dir) & opp, dir) & empty).is_empty() {
                return true;
            }
        }
        let kings = own & self.kings;
        if kings.is_empty() {
            return false;
        }
        for dir in [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT] {
            let mut front = B::step(kings, dir);
            let mut reach = front;
            loop {
                front = B::step(front & empty, dir);
                if front.is_empty() {
                    break;
                }
                reach |= front;
            }
            if !(B::step(reach & opp, dir) & empty).is_empty() {
                return true;
            }
        }
        false
    }

    /// Fills `list` with the maximum captures (assumes it is empty).
    fn generate_captures(&self, list: &mut MoveList<B>) {
        let (own, opp) = self.own_opp();
        let empty = self.empty_squares();
        let mut search = Captures {
            list: &mut list.moves,
            best: 1,
            from: 0,
            opp,
            empty,
        };
        let men = own & !self.kings;
        let mut capturers = B::Bits::ZERO;
        for dir in [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT] {
            capturers |= step_back::<B>(step_back::<B>(empty, dir) & opp, dir);
        }
        for from in (men & capturers).iter() {
            let at = B::Bits::bit(from);
            search.from = from;
            search.empty = empty | at;
            search.man(at, B::Bits::ZERO, 0);
        }
        for from in (own & self.kings).iter() {
            search.from = from;
            search.empty = empty | B::Bits::bit(from);
            for dir in [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT] {
                search.king_dir(from, dir, B::Bits::ZERO, 0);
            }
        }
    }

    /// Fills `list` with the non-capturing moves (assumes it is empty).
    fn generate_quiet(&self, list: &mut MoveList<B>) {
        let (own, _) = self.own_opp();
        let empty = self.empty_squares();
        let men = own & !self.kings;
        for dir in forward(self.side) {
            for to in (B::step(men, dir) & empty).iter() {
                list.moves
                    .push(Move::from_parts(back::<B>(to, dir), to, B::Bits::ZERO));
            }
        }
        for from in (own & self.kings).iter() {
            for dir in [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT] {
                let ray = B::ray(dir, from);
                let blockers = ray & !empty;
                let targets = if blockers.is_empty() {
                    ray
                } else {
                    let b = B::nearest(dir, blockers);
                    ray & !(B::ray(dir, b) | B::Bits::bit(b))
                };
                for to in targets.iter() {
                    list.moves.push(Move::from_parts(from, to, B::Bits::ZERO));
                }
            }
        }
    }

    /// The number of legal moves, without listing the quiet ones (`scratch` is used when there
    /// are captures).
    #[inline]
    pub fn count_moves(&self, scratch: &mut MoveList<B>) -> usize {
        if self.has_captures() {
            scratch.clear();
            self.generate_captures(scratch);
            return scratch.len();
        }
        self.count_quiet()
    }

    /// Whether the side to move has a legal move (if not, it has lost).
    #[inline]
    pub fn has_any_move(&self) -> bool {
        self.has_captures() || self.count_quiet() > 0
    }

    /// The number of quiet moves (legal when there is no capture).
    #[inline(always)]
    fn count_quiet(&self) -> usize {
        let (own, _) = self.own_opp();
        let empty = self.empty_squares();
        let men = own & !self.kings;
        let [d1, d2] = forward(self.side);
        let mut n = (B::step(men, d1) & empty).count() + (B::step(men, d2) & empty).count();
        let kings = own & self.kings;
        if !kings.is_empty() {
            // Along one direction each empty square is reached by at most one king.
            for dir in [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT] {
                let mut s = B::step(kings, dir) & empty;
                while !s.is_empty() {
                    n += s.count();
                    s = B::step(s, dir) & empty;
                }
            }
        }
        n as usize
    }
}
