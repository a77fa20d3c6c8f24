//! The Chinese checkers evaluation (RULES.md part 1): each set is worth its progress towards its
//! destination camp, measured by the hex distance of every piece to the camp's tip with a
//! quadratic straggler term (a piece left behind costs more than its distance), a bonus for the
//! holes of the destination actually filled, and a king term in Japanese rules (the king must end
//! on the tip). A seat's value is the sum over its sets; the searching seat's utility is its value
//! minus the best of its unfinished opponents' (the race that decides its place).

use std::sync::OnceLock;

use chinese_checkers::{Camp, Cell, Game, Seat};

/// Centi-units per hole of distance.
pub const PER_HOLE: i32 = 10;
/// Bonus of a finished seat over any unfinished value.
const FINISHED: i32 = 2_000;
/// A piece inside its destination camp (it will not have to be brought in any more).
const HOME: i32 = 6;
/// The side to move is about one move ahead in a race.
pub const TEMPO: i32 = 12;
/// A jump lane: a piece with a forward jump ready (a piece to jump over, an empty hole beyond,
/// at least two holes of progress).
const LANE: i32 = 3;

/// Up to three forward jumps from a hole: (hole jumped over, landing hole); 255 = none.
type Lanes = [[(u8, u8); 3]; 121];

/// Per colour (camp the set started from), per hole: the value of a piece of that set there.
pub struct Tables {
    /// `[camp size 10/15][colour][hole]`.
    piece: [[[i32; 121]; 6]; 2],
    /// Tip distance, `[colour][hole]` (to the tip of the destination).
    tip: [[u8; 121]; 6],
    /// Forward jumps, `[colour][hole]`.
    lanes: [Lanes; 6],
}

/// The evaluation tables, built once.
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

fn build() -> Tables {
    let mut t = Tables {
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
                    HOME
                } else {
                    0
                };
                t.piece[size][colour as usize][cell.index() as usize] =
                    home - d * PER_HOLE - d * d / 4;
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
                        v += LANE;
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
    fn a_piece_is_worth_more_nearer_its_destination() {
        let t = tables();
        let dest_tip = Camp::new(3).unwrap().tip();
        let start_tip = Camp::new(0).unwrap().tip();
        assert!(t.piece(10, 0, dest_tip) > t.piece(10, 0, start_tip));
    }
}
