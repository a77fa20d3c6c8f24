//! The Chinese checkers evaluation (RULES.md part 1): each set is worth its progress towards its
//! destination camp, measured by the hex distance of every piece to the camp's tip with a
//! quadratic straggler term (a piece left behind costs more than its distance), a bonus for the
//! holes of the destination actually filled, and a king term in Japanese rules (the king must end
//! on the tip). A seat's value is the sum over its sets; the searching seat's utility is its value
//! minus the best of its unfinished opponents' (the race that decides its place).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use chinese_checkers::{Camp, Cell, Game, Seat};

/// Centi-units per hole of distance.
pub const PER_HOLE: i32 = 10;
/// Bonus of a finished seat over any unfinished value.
const FINISHED: i32 = 2_000;

/// The evaluation's weights, in centi-units beside [`PER_HOLE`] (which sets the scale).
/// [`Weights::TUNED`] is what the CPU players use; `dames tune cc-fit` fits them on self-play
/// games (docs/ai.md, "Chinese checkers weights").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The straggler term: a piece at `d` holes from the tip costs `d² × straggler / 100` more
    /// (a piece left behind costs more than its distance).
    pub straggler: i32,
    /// A piece inside its destination camp (it will not have to be brought in any more).
    pub home: i32,
    /// A jump lane: a piece with a forward jump ready (a piece to jump over, an empty hole
    /// beyond, at least two holes of progress).
    pub lane: i32,
    /// The side to move is about one move ahead in a race (2 players).
    pub tempo: i32,
}

impl Weights {
    /// The weights set by hand before any tuning.
    pub const HAND: Weights = Weights {
        straggler: 25,
        home: 6,
        lane: 3,
        tempo: 12,
    };

    /// The weights the CPU players use: fitted by `dames tune cc-fit` on 600 self-play games of
    /// Expert at 4 000 nodes (53 816 positions; held-out loss 0.1753 → 0.1709), then checked in
    /// a match: 72.2 % (65.7–78.0) in 200 games against [`Weights::HAND`] (docs/ai.md).
    pub const TUNED: Weights = Weights {
        straggler: 33,
        home: 3,
        lane: 13,
        tempo: 17,
    };

    /// Parses `straggler=25,home=6,lane=3,tempo=12` (any subset; the others from `self`).
    ///
    /// # Errors
    /// An unknown name or a value that is not an integer.
    pub fn with(mut self, text: &str) -> Result<Weights, String> {
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = part
                .split_once('=')
                .ok_or_else(|| format!("expected name=value, got {part:?}"))?;
            let value: i32 = value
                .trim()
                .parse()
                .map_err(|_| format!("{name}: not an integer: {value:?}"))?;
            match name.trim() {
                "straggler" => self.straggler = value,
                "home" => self.home = value,
                "lane" => self.lane = value,
                "tempo" => self.tempo = value,
                other => {
                    return Err(format!(
                        "unknown weight {other:?} (straggler, home, lane, tempo)"
                    ))
                }
            }
        }
        Ok(self)
    }
}

impl std::fmt::Display for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "straggler={},home={},lane={},tempo={}",
            self.straggler, self.home, self.lane, self.tempo
        )
    }
}

/// Up to three forward jumps from a hole: (hole jumped over, landing hole); 255 = none.
type Lanes = [[(u8, u8); 3]; 121];

/// Per colour (camp the set started from), per hole: the value of a piece of that set there.
pub struct Tables {
    /// The weights the tables were built with.
    pub weights: Weights,
    /// `[camp size 10/15][colour][hole]`.
    piece: [[[i32; 121]; 6]; 2],
    /// Tip distance, `[colour][hole]` (to the tip of the destination).
    tip: [[u8; 121]; 6],
    /// Forward jumps, `[colour][hole]`.
    lanes: [Lanes; 6],
}

/// The evaluation tables: those of [`Weights::TUNED`], built once, unless this thread is inside
/// [`with_tables`].
#[inline]
pub fn tables() -> &'static Tables {
    if OVERRIDDEN.load(Ordering::Relaxed) {
        if let Some(t) = OVERRIDE.with(std::cell::Cell::get) {
            return t;
        }
    }
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| build(Weights::TUNED))
}

/// Set once any thread has used [`with_tables`]: until then [`tables`] reads no thread-local.
static OVERRIDDEN: AtomicBool = AtomicBool::new(false);

thread_local! {
    static OVERRIDE: std::cell::Cell<Option<&'static Tables>> = const { std::cell::Cell::new(None) };
}

/// Tables for other weights, kept for the life of the process (matches and tuning build a few).
pub fn leak_tables(weights: Weights) -> &'static Tables {
    Box::leak(Box::new(build(weights)))
}

/// Runs `f` with `tables` as this thread's evaluation (a match between two sets of weights).
pub fn with_tables<R>(tables: &'static Tables, f: impl FnOnce() -> R) -> R {
    OVERRIDDEN.store(true, Ordering::Relaxed);
    let previous = OVERRIDE.with(|c| c.replace(Some(tables)));
    let out = f();
    OVERRIDE.with(|c| c.set(previous));
    out
}

fn build(weights: Weights) -> Tables {
    let mut t = Tables {
        weights,
        piece: [[[0; 121]; 6]; 2],
        tip: [[0; 121]; 6],
        lanes: [[[(255, 255); 3]; 121]; 6],
    };
    for colour in 0..6u8 {
        let dest = Camp::new(colour).expect("camp").opposite();
        for cell in Cell::all() {
            let d = i32::from(cell.distance(dest.tip()));
            t.tip[colour as usize][cell.index() as usize] = d as u8;
            for (size, pieces) in [(0, 10u8), (1, 15u8)] {
                let home = if dest.cells(pieces).contains(cell) {
                    weights.home
                } else {
                    0
                };
                t.piece[size][colour as usize][cell.index() as usize] =
                    home - d * PER_HOLE - d * d * weights.straggler / 100;
            }
            let mut k = 0;
            for dir in 0..6 {
                let Some(over) = cell.neighbour(dir) else {
                    continue;
                };
                let Some(land) = over.neighbour(dir) else {
                    continue;
                };
                if i32::from(land.distance(dest.tip())) <= d - 2 && k < 3 {
                    t.lanes[colour as usize][cell.index() as usize][k] =
                        (over.index(), land.index());
                    k += 1;
                }
            }
        }
    }
    t
}

impl Tables {
    /// The value of a piece of `colour` on `cell` (camp size from `pieces`).
    #[inline(always)]
    pub fn piece(&self, pieces: u8, colour: u8, cell: Cell) -> i32 {
        self.piece[usize::from(pieces == 15)][colour as usize][cell.index() as usize]
    }

    /// Hex distance from `cell` to the tip of `colour`'s destination.
    #[inline(always)]
    pub fn tip(&self, colour: u8, cell: Cell) -> u8 {
        self.tip[colour as usize][cell.index() as usize]
    }
}

/// The value of `seat`'s position (higher is better), ignoring the others.
pub fn seat_value(game: &Game, seat: Seat) -> i32 {
    let t = tables();
    let pieces = game.rules().pieces;
    let mut v = if game.has_finished(seat) { FINISHED } else { 0 };
    let occupied = game.occupied().0;
    for &camp in game.rules().seat_camps(seat) {
        let colour = camp.index();
        let set = game.set_pieces(camp);
        let home = camp.opposite().cells(pieces).0;
        for cell in set {
            v += t.piece(pieces, colour, cell);
            if home >> cell.index() & 1 == 0 {
                for &(over, land) in &t.lanes[colour as usize][cell.index() as usize] {
                    if over != 255 && occupied >> over & 1 == 1 && occupied >> land & 1 == 0 {
                        v += t.weights.lane;
                    }
                }
            }
        }
        let kings = Bitboard(set.0 & game.kings().0);
        for king in kings {
            // The king must end on the tip: its distance counts twice more.
            v -= 2 * PER_HOLE * i32::from(t.tip(colour, king));
        }
    }
    v
}

use chinese_checkers::Bitboard;

/// The terms of `seat`'s value before weighting (for fitting the weights): the sum of its
/// pieces' distances to their destination's tip, the sum of their squares, the pieces in their
/// destination, and the jump lanes ready. With the king term left out (Japanese rules) and the
/// straggler term's rounding, `seat_value` is `home × w.home − PER_HOLE × Σd − Σd² × w.straggler /
/// 100 + lanes × w.lane`.
pub fn terms(game: &Game, seat: Seat) -> [i32; 4] {
    let t = tables();
    let pieces = game.rules().pieces;
    let occupied = game.occupied().0;
    let mut out = [0; 4];
    for &camp in game.rules().seat_camps(seat) {
        let colour = camp.index();
        let home = camp.opposite().cells(pieces).0;
        for cell in game.set_pieces(camp) {
            let d = i32::from(t.tip(colour, cell));
            out[0] += d;
            out[1] += d * d;
            if home >> cell.index() & 1 == 1 {
                out[2] += 1;
            } else {
                for &(over, land) in &t.lanes[colour as usize][cell.index() as usize] {
                    if over != 255 && occupied >> over & 1 == 1 && occupied >> land & 1 == 0 {
                        out[3] += 1;
                    }
                }
            }
        }
    }
    out
}

/// Every seat's value.
pub fn values(game: &Game) -> [i32; 6] {
    let mut v = [0; 6];
    for seat in game.rules().seats() {
        v[seat.index()] = seat_value(game, seat);
    }
    v
}

/// Utility of `me` given every seat's value: its value minus the best unfinished opponent's.
pub fn utility(game: &Game, values: &[i32; 6], me: Seat) -> i32 {
    let best_other = game
        .rules()
        .seats()
        .filter(|&s| s != me && !game.has_finished(s) && !game.has_resigned(s))
        .map(|s| values[s.index()])
        .max()
        .unwrap_or(0);
    values[me.index()] - best_other
}

#[cfg(test)]
mod tests {
    use super::*;
    use chinese_checkers::Rules;

    #[test]
    fn the_start_is_balanced_and_progress_counts() {
        let game = Game::new(Rules::default(), Seat(0)).unwrap();
        let v = values(&game);
        assert_eq!(v[0], v[1]);
        let mut moved = game;
        let mv = moved.legal_moves_vec()[0];
        moved.play(mv).unwrap();
        assert_ne!(values(&moved)[0], v[0]);
    }

    #[test]
    fn the_terms_weighted_give_the_value() {
        let flat = leak_tables(Weights {
            straggler: 0,
            ..Weights::HAND
        });
        let mut game = Game::new(Rules::default(), Seat(0)).unwrap();
        for ply in 0..40 {
            let moves = game.legal_moves_vec();
            let mv = moves[(ply * 7) % moves.len()];
            game.play(mv).unwrap();
            for seat in [Seat(0), Seat(1)] {
                let [d, _, home, lanes] = terms(&game, seat);
                let w = Weights::HAND;
                let expected = home * w.home - PER_HOLE * d + lanes * w.lane;
                assert_eq!(with_tables(flat, || seat_value(&game, seat)), expected);
            }
        }
    }

    #[test]
    fn weights_parse_and_print_alike() {
        let w = Weights::HAND.with("home=9, tempo=-3").unwrap();
        assert_eq!((w.home, w.tempo, w.lane), (9, -3, Weights::HAND.lane));
        assert_eq!(Weights::HAND.with(&w.to_string()).unwrap(), w);
        assert!(Weights::HAND.with("speed=3").is_err());
        assert!(Weights::HAND.with("home=x").is_err());
    }

    #[test]
    fn other_tables_apply_on_this_thread_only_inside_with_tables() {
        let other = leak_tables(Weights {
            home: 1_000,
            ..Weights::HAND
        });
        assert_eq!(tables().weights, Weights::TUNED);
        with_tables(other, || assert_eq!(tables().weights.home, 1_000));
        assert_eq!(tables().weights, Weights::TUNED);
    }

    #[test]
    fn a_piece_is_worth_more_nearer_its_destination() {
        let t = tables();
        let dest_tip = Camp::new(3).unwrap().tip();
        let start_tip = Camp::new(0).unwrap().tip();
        assert!(t.piece(10, 0, dest_tip) > t.piece(10, 0, start_tip));
    }
}
