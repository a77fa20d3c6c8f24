//! The retrograde generator: every signature in build order (captures and promotions lead to
//! signatures already built), each solved by a bucket queue over the distance.
//!
//! For one signature:
//! 1. **Forward pass.** Each position's legal moves come from the rules crate (captures
//!    compulsory, majority capture). Moves that stay in the signature (quiet, no promotion) are
//!    counted; the others are valued at once from the tables built before ([`step_value`]):
//!    an exit into a position lost for the opponent is a win in 1, and so on.
//! 2. **Backward pass.** Resolved positions are taken by increasing distance; each one's
//!    predecessors inside the signature come from un-moves (a king sliding back, a man stepping
//!    back). A predecessor of a loss is a win one ply longer; a predecessor of a win loses one
//!    of its remaining moves, and is a loss once none is left and no exit saved it.
//! 3. What is left unresolved is a draw.
//!
//! The hot loops allocate nothing: the move list and the bucket vectors are reused.

use std::fmt;
use std::time::{Duration, Instant};

use draughts::{bitboard::Bits, Color, International, MoveList, Position};

use super::index::{Material, Placement, SQUARES};
use super::{decode, encode, Egdb, Zone, DRAW, MAX_DISTANCE};

/// Not resolved yet (never stored).
const UNRESOLVED: u8 = 255;
/// Flag: a move leads out of the signature into a draw.
const DRAW_EXIT: u8 = 1;
/// Flag: the position's value went to its predecessors (or it has none to give).
const DONE: u8 = 2;
/// Flag: a capture is due, so no quiet move was legal here.
const CAPTURES: u8 = 4;

/// Why a build failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// A distance went past what a table byte holds.
    TooLong(Material),
    /// Only up to 4 pieces are supported.
    TooManyPieces(u32),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::TooLong(m) => {
                write!(f, "{}: a distance exceeds {MAX_DISTANCE} plies", m.name())
            }
            BuildError::TooManyPieces(n) => write!(f, "{n} pieces: at most 4 are supported"),
        }
    }
}

impl std::error::Error for BuildError {}

/// The figures of one signature's build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Positions (used slots).
    pub positions: u64,
    /// Won for the side to move (with fresh counters).
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// The longest distance in the table.
    pub longest: u8,
    /// Time taken.
    pub time: Duration,
}

/// The value of a move's result for the side that played it: a win or loss in so many plies
/// (in the mover's zone), or a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Win(u8),
    Loss(u8),
    Draw,
}

/// The value, for the mover, of `q` reached from a position of zone `from` (its material held
/// in `tables`): inside the zone the distance goes on, out of it the position counts with fresh
/// counters and the move is the last of the zone.
#[inline]
pub(crate) fn step_value(tables: &Egdb, from: Zone, q: &Position<International>) -> Step {
    let p = Placement::of(q);
    let own = if p.side == Color::White {
        p.wm | p.wk
    } else {
        p.bm | p.bk
    };
    if own == 0 {
        return Step::Win(1);
    }
    let m = p.material();
    let byte = tables.byte(&p).expect("successor tables are built first");
    let zone = Zone::of(&m);
    match decode(byte) {
        None => Step::Draw,
        Some((win, d)) if zone == from => {
            if win {
                Step::Loss(d + 1)
            } else {
                Step::Win(d + 1)
            }
        }
        Some((_, d)) if zone.limit().is_some_and(|l| u32::from(d) > l) => Step::Draw,
        Some((true, _)) => Step::Loss(1),
        Some((false, _)) => Step::Win(1),
    }
}

/// Builds every signature of 2 to `pieces` pieces, calling `progress` after each.
///
/// # Errors
/// [`BuildError`] if `pieces` exceeds 4 or a distance does not fit a byte.
pub fn build(
    pieces: u32,
    progress: &mut dyn FnMut(&Material, &BuildStats),
) -> Result<Egdb, BuildError> {
    if pieces > 4 {
        return Err(BuildError::TooManyPieces(pieces));
    }
    build_list(&Material::all(pieces), progress)
}

/// Builds the signatures `materials` need (each with every signature it leads to).
///
/// # Errors
/// [`BuildError::TooLong`] if a distance does not fit a byte.
pub fn build_for(
    materials: &[Material],
    progress: &mut dyn FnMut(&Material, &BuildStats),
) -> Result<Egdb, BuildError> {
    let mut all: Vec<Material> = materials.iter().flat_map(Material::closure).collect();
    all.sort_by_key(|m| (m.pieces(), m.men(), *m));
    all.dedup();
    build_list(&all, progress)
}

fn build_list(
    list: &[Material],
    progress: &mut dyn FnMut(&Material, &BuildStats),
) -> Result<Egdb, BuildError> {
    let mut tables = Egdb::new();
    for m in list {
        let start = Instant::now();
        let table = Solver::new(&tables, *m).solve()?;
        let mut stats = stats(m, &table);
        stats.time = start.elapsed();
        progress(m, &stats);
        tables.insert(*m, table);
    }
    Ok(tables)
}

/// Counts the values of a finished table.
pub fn stats(m: &Material, table: &[u8]) -> BuildStats {
    let limit = Zone::of(m).limit();
    let mut s = BuildStats::default();
    for (i, &b) in table.iter().enumerate() {
        if b == DRAW && m.placement(i as u64).is_none() {
            continue;
        }
        s.positions += 1;
        match super::windowed(b, limit) {
            super::Wdl::Win => s.wins += 1,
            super::Wdl::Draw => s.draws += 1,
            super::Wdl::Loss => s.losses += 1,
        }
        s.longest = s.longest.max(decode(b).map_or(0, |(_, d)| d));
    }
    s
}

/// One signature being solved.
struct Solver<'a> {
    tables: &'a Egdb,
    m: Material,
    zone: Zone,
    value: Vec<u8>,
    left: Vec<u8>,
    loss: Vec<u8>,
    win: Vec<u8>,
    flags: Vec<u8>,
    buckets: Vec<Vec<u32>>,
}

impl<'a> Solver<'a> {
    fn new(tables: &'a Egdb, m: Material) -> Self {
        let n = m.slots() as usize;
        Solver {
            tables,
            m,
            zone: Zone::of(&m),
            value: vec![UNRESOLVED; n],
            left: vec![0; n],
            loss: vec![0; n],
            win: vec![0; n],
            flags: vec![0; n],
            buckets: vec![Vec::new(); usize::from(MAX_DISTANCE) + 2],
        }
    }

    fn solve(mut self) -> Result<Vec<u8>, BuildError> {
        self.forward();
        for d in 0..=MAX_DISTANCE {
            let bucket = std::mem::take(&mut self.buckets[usize::from(d)]);
            for &i in &bucket {
                self.propagate(i as usize, d)?;
            }
        }
        if self.buckets.iter().any(|b| !b.is_empty()) {
            return Err(BuildError::TooLong(self.m));
        }
        for v in &mut self.value {
            if *v == UNRESOLVED {
                *v = DRAW;
            }
        }
        Ok(self.value)
    }

    fn resolve(&mut self, i: usize, win: bool, d: u8) {
        self.value[i] = encode(win, d.min(MAX_DISTANCE));
        self.buckets[usize::from(d.min(MAX_DISTANCE + 1))].push(i as u32);
    }

    /// Values every position from its moves out of the signature; counts the others.
    fn forward(&mut self) {
        let mut list = MoveList::<International>::new();
        for i in 0..self.m.slots() as usize {
            let Some(pos) = self.m.position(i as u64) else {
                self.value[i] = DRAW;
                self.flags[i] = DONE;
                continue;
            };
            pos.generate_moves(&mut list);
            if list.is_empty() {
                self.resolve(i, false, 0);
                continue;
            }
            if list[0].is_capture() {
                self.flags[i] |= CAPTURES;
            }
            let kings = pos.kings().count();
            let (mut win, mut loss, mut draw, mut inside) = (u8::MAX, 0u8, false, 0u8);
            for &mv in list.iter() {
                let q = pos.play_unchecked(mv);
                if !mv.is_capture() && q.kings().count() == kings {
                    inside += 1;
                    continue;
                }
                match step_value(self.tables, self.zone, &q) {
                    Step::Win(d) => win = win.min(d),
                    Step::Loss(d) => loss = loss.max(d),
                    Step::Draw => draw = true,
                }
            }
            self.left[i] = inside;
            self.loss[i] = loss;
            if draw {
                self.flags[i] |= DRAW_EXIT;
            }
            if win != u8::MAX {
                self.win[i] = win;
                self.buckets[usize::from(win.min(MAX_DISTANCE + 1))].push(i as u32);
            } else if inside == 0 {
                if draw {
                    self.value[i] = DRAW;
                    self.flags[i] |= DONE;
                } else {
                    self.resolve(i, false, loss);
                }
            }
        }
    }

    /// Hands the value of position `i`, resolved at distance `d`, to its predecessors.
    fn propagate(&mut self, i: usize, d: u8) -> Result<(), BuildError> {
        if self.flags[i] & DONE != 0 {
            return Ok(());
        }
        let win = match self.value[i] {
            UNRESOLVED if self.win[i] == d => {
                self.value[i] = encode(true, d);
                true
            }
            UNRESOLVED => return Ok(()),
            v => match decode(v) {
                Some((w, vd)) if vd == d => w,
                _ => return Ok(()),
            },
        };
        if d >= MAX_DISTANCE {
            return Err(BuildError::TooLong(self.m));
        }
        self.flags[i] |= DONE;
        let p = self.m.placement(i as u64).expect("a resolved slot is used");
        let m = self.m;
        for_each_unmove(&p, |r| {
            let r = m.index(&r) as usize;
            if self.value[r] != UNRESOLVED || self.flags[r] & CAPTURES != 0 {
                return;
            }
            if !win {
                // A pending win out of the signature at most as long comes from its bucket.
                if self.win[r] == 0 || self.win[r] > d + 1 {
                    self.resolve(r, true, d + 1);
                }
                return;
            }
            self.left[r] -= 1;
            self.loss[r] = self.loss[r].max(d + 1);
            if self.left[r] == 0 && self.win[r] == 0 && self.flags[r] & DRAW_EXIT == 0 {
                let l = self.loss[r];
                self.resolve(r, false, l);
            }
        });
        Ok(())
    }
}

/// `NEIGHBOUR[dir][s]`: the square one step from `s` (0-based) along `dir` (up-left, up-right,
/// down-left, down-right; up is towards square 1), or `NONE`.
const NONE: u8 = u8::MAX;
const NEIGHBOUR: [[u8; SQUARES as usize]; 4] = neighbours();

const fn neighbours() -> [[u8; SQUARES as usize]; 4] {
    let steps: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
    let mut out = [[NONE; SQUARES as usize]; 4];
    let mut s = 0;
    while s < SQUARES as usize {
        let row = (s / 5) as i32;
        let file = if row % 2 == 0 {
            2 * (s % 5) as i32 + 1
        } else {
            2 * (s % 5) as i32
        };
        let mut d = 0;
        while d < 4 {
            let (r, f) = (row + steps[d].0, file + steps[d].1);
            if r >= 0 && r < 10 && f >= 0 && f < 10 {
                out[d][s] = (r * 5 + f / 2) as u8;
            }
            d += 1;
        }
        s += 1;
    }
    out
}

/// Calls `f` with every placement from which the previous mover reached `p` by a quiet move
/// that kept the material: a king sliding back along a diagonal of empty squares, a man one
/// step back. (Whether that move was legal, i.e. no capture was due, is the caller's business.)
pub(crate) fn for_each_unmove(p: &Placement, mut f: impl FnMut(Placement)) {
    let mover = p.side.opponent();
    let occupied = p.wm | p.wk | p.bm | p.bk;
    let (men, kings, back) = match mover {
        Color::White => (p.wm, p.wk, [2, 3]),
        Color::Black => (p.bm, p.bk, [0, 1]),
    };
    let with = |from: u32, to: u32, king: bool| {
        let mut r = *p;
        r.side = mover;
        let moved = (1u64 << from) | (1u64 << to);
        match (mover, king) {
            (Color::White, false) => r.wm ^= moved,
            (Color::White, true) => r.wk ^= moved,
            (Color::Black, false) => r.bm ^= moved,
            (Color::Black, true) => r.bk ^= moved,
        }
        r
    };
    let mut set = kings;
    while set != 0 {
        let s = set.trailing_zeros();
        set &= set - 1;
        for ray in &NEIGHBOUR {
            let mut t = ray[s as usize];
            while t != NONE && occupied & (1u64 << t) == 0 {
                f(with(s, u32::from(t), true));
                t = ray[usize::from(t)];
            }
        }
    }
    let mut set = men;
    while set != 0 {
        let s = set.trailing_zeros();
        set &= set - 1;
        for dir in back {
            let t = NEIGHBOUR[dir][s as usize];
            if t != NONE && occupied & (1u64 << t) == 0 {
                f(with(s, u32::from(t), false));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::parse_fen;

    #[test]
    fn un_moves_are_exactly_the_quiet_moves_that_lead_back() {
        for fen in ["B:WK28,K30:BK5,12", "W:W33,K2:B12,K47", "B:W7,K45:B44,K1"] {
            let pos: Position<International> = parse_fen(fen).unwrap();
            let p = Placement::of(&pos);
            let m = p.material();
            let mut n = 0;
            for_each_unmove(&p, |r| {
                n += 1;
                let before = r.to_position();
                let kings = before.kings().count();
                let leads_back = before.legal_moves().iter().any(|&mv| {
                    let q = before.play_unchecked(mv);
                    !mv.is_capture() && q.kings().count() == kings && q == pos
                }) || before.has_captures();
                assert!(leads_back, "{fen}: {}", draughts::to_fen(&before));
                assert_eq!(r.material(), m);
            });
            assert!(n > 0, "{fen}");
        }
    }
}
