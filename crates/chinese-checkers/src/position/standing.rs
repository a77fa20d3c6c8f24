//! Places at the end of a game and the stagnation rule (RULES.md 1.4): each player's progress,
//! kept incrementally, and the ranking by pieces home then remaining distance.

use super::Game;
use crate::cell::{Bits, Camp, Cell, CELL_COUNT, COORDS};
use crate::outcome::{Ending, Outcome};
use crate::rules::Seat;

/// Distance from each hole to the nearest hole of each camp, for 10- and 15-hole camps.
const fn camp_distances(pieces: u8) -> [[u8; CELL_COUNT]; 6] {
    let mut t = [[0u8; CELL_COUNT]; 6];
    let mut camp = 0;
    while camp < 6 {
        let mask = Camp::new_unchecked(camp as u8).mask(pieces);
        let mut i = 0;
        while i < CELL_COUNT {
            let mut best = u8::MAX;
            let mut j = 0;
            while j < CELL_COUNT {
                if (mask >> j) & 1 != 0 {
                    let d = Cell::from_index(i as u8)
                        .unwrap()
                        .distance(Cell::from_index(j as u8).unwrap());
                    if d < best {
                        best = d;
                    }
                }
                j += 1;
            }
            t[camp][i] = best;
            i += 1;
        }
        camp += 1;
    }
    t
}

/// `PROGRESS[size][colour][cell]`: what a piece of `colour` on `cell` adds to its seat's progress:
/// `1 << 16` in its destination, minus its distance to the destination otherwise.
const PROGRESS: [[[i32; CELL_COUNT]; 6]; 2] = {
    let d10 = camp_distances(10);
    let d15 = camp_distances(15);
    let mut t = [[[0i32; CELL_COUNT]; 6]; 2];
    let mut colour = 0;
    while colour < 6 {
        let dest = (colour + 3) % 6;
        let mut i = 0;
        while i < CELL_COUNT {
            t[0][colour][i] = if d10[dest][i] == 0 {
                1 << 16
            } else {
                -(d10[dest][i] as i32)
            };
            t[1][colour][i] = if d15[dest][i] == 0 {
                1 << 16
            } else {
                -(d15[dest][i] as i32)
            };
            i += 1;
        }
        colour += 1;
    }
    t
};

impl Game {
    /// Whether `seat`'s progress beat its best (and records it).
    pub(super) fn improved(&mut self, seat: u8) -> bool {
        if self.rules.stagnation_rounds == 0 || !self.is_active(seat) {
            return false;
        }
        let p = self.progress_now[seat as usize];
        let better = p > self.best_progress[seat as usize];
        if better {
            self.best_progress[seat as usize] = p;
        }
        better
    }

    /// Ends the game, placing the active seats after those already placed.
    pub(super) fn end(&mut self, ending: Ending) {
        let top = self.finished_count() + 1;
        let mut places = self.places;
        let keys: Vec<(u8, (u32, i32))> = (0..self.rules.players)
            .filter(|&s| self.is_active(s))
            .map(|s| (s, self.standing_key(s)))
            .collect();
        for &(s, key) in &keys {
            let better = match ending {
                Ending::MoveLimit | Ending::Abandoned => 0,
                _ => keys.iter().filter(|(_, k)| *k > key).count() as u8,
            };
            places[s as usize] = top + better;
        }
        self.outcome = Some(Outcome::new(ending, self.rules.players, places));
    }

    /// Where `seat` stands for the stagnation ranking of RULES.md 1.4.
    pub fn standing(&self, seat: Seat) -> Standing {
        let (home, distance) = self.standing_key(seat.0);
        Standing {
            in_destination: home,
            distance: distance.unsigned_abs(),
        }
    }

    /// The stagnation ranking key of `seat` (higher is better): pieces in the destination, then
    /// minus the total distance of the others to the nearest destination hole not holding one of
    /// the set's own pieces.
    fn standing_key(&self, seat: u8) -> (u32, i32) {
        let (mut home, mut distance) = (0u32, 0i32);
        for colour in Bits(u128::from(
            self.colours.get(seat as usize).copied().unwrap_or(0),
        )) {
            let dest = self.camp_mask((colour + 3) % 6);
            let own = self.pieces[colour as usize];
            home += (own & dest).count_ones();
            let free = dest & !own;
            for p in Bits(own & !dest) {
                let nearest = Bits(free)
                    .map(|f| distance_between(p, f))
                    .min()
                    .unwrap_or(0);
                distance += i32::from(nearest);
            }
        }
        (home, -distance)
    }

    /// Progress of `seat` for stagnation (higher is better): `0xffff` plus, for each piece,
    /// `1 << 16` if it is in its destination and minus its distance to it otherwise. So more
    /// pieces home is better, then a smaller total distance.
    pub(super) fn progress(&self, seat: u8) -> u32 {
        let table = &PROGRESS[usize::from(self.rules.pieces == 15)];
        let mut total = 0xffff_i64;
        for colour in Bits(u128::from(self.colours[seat as usize])) {
            for p in Bits(self.pieces[colour as usize]) {
                total += i64::from(table[colour as usize][p as usize]);
            }
        }
        total.clamp(0, i64::from(u32::MAX)) as u32
    }

    pub(super) fn recompute_progress(&mut self) {
        for seat in 0..self.rules.players {
            self.progress_now[seat as usize] = self.progress(seat);
        }
    }

    /// Updates the progress of the owner of `colour` for its piece going from `from` to `to`.
    #[inline(always)]
    pub(super) fn move_progress(&mut self, colour: usize, from: u8, to: u8) {
        let table = &PROGRESS[usize::from(self.rules.pieces == 15)][colour];
        let seat = self.owner[colour] as usize % 6;
        let delta = table[to as usize] - table[from as usize];
        self.progress_now[seat] = self.progress_now[seat].wrapping_add_signed(delta);
    }
}

/// A player's standing for the stagnation ranking (RULES.md 1.4): more pieces in the destination
/// first, then the shorter remaining distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Standing {
    /// Pieces in their destination camp (all sets).
    pub in_destination: u32,
    /// Sum over the other pieces of the hex distance to the nearest destination hole that does not
    /// hold one of the set's own pieces.
    pub distance: u32,
}

fn distance_between(a: u8, b: u8) -> u8 {
    let (p, q) = (COORDS[a as usize], COORDS[b as usize]);
    (p[0] - q[0])
        .unsigned_abs()
        .max((p[1] - q[1]).unsigned_abs())
        .max((p[2] - q[2]).unsigned_abs())
}
