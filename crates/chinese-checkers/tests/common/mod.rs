//! A deliberately simple, obviously correct reference move generator: cube coordinates, hash
//! sets and recursion, written straight from RULES.md part 1 (and the interpretations in the crate
//! doc) without any of the engine's tables or bitboards. The engine is cross-checked against it
//! on random positions with random rules, and the variant perft figures in `variants.perft` were
//! produced by the engine and confirmed by this generator (see `reference.rs`).

#![allow(dead_code)]

use std::collections::{HashMap, HashSet};

use chinese_checkers::position_file::{PieceEntry, PieceSpec, PositionFile};
use chinese_checkers::{Cell, Game, RuleSet, Rules, Seat};

pub type Cube = (i32, i32, i32);

const DIRS: [Cube; 6] = [
    (1, -1, 0),
    (1, 0, -1),
    (0, 1, -1),
    (-1, 1, 0),
    (-1, 0, 1),
    (0, -1, 1),
];

pub fn on_board((x, y, z): Cube) -> bool {
    x + y + z == 0
        && [x, y, z].iter().all(|v| v.abs() <= 8)
        && ((x <= 4 && y <= 4 && z <= 4) || (x >= -4 && y >= -4 && z >= -4))
}

fn add((a, b, c): Cube, (x, y, z): Cube, k: i32) -> Cube {
    (a + k * x, b + k * y, c + k * z)
}

fn in_hexagon((x, y, z): Cube) -> bool {
    x.abs() <= 4 && y.abs() <= 4 && z.abs() <= 4
}

/// Whether `c` is in camp `camp` of `size` (10 or 15) holes, straight from RULES.md 1.1.
pub fn in_camp(c: Cube, camp: usize, size: u8) -> bool {
    let (x, y, z) = c;
    let v = [-z, x, -y, z, -x, y][camp];
    v > 4 || (size == 15 && v == 4 && in_hexagon(c))
}

#[derive(Clone, Copy, Debug)]
pub struct Man {
    pub seat: usize,
    pub colour: usize,
    pub king: bool,
}

/// A position as plain maps.
pub struct RefPosition {
    pub rules: Rules,
    pub men: HashMap<Cube, Man>,
    pub inert: HashSet<Cube>,
    pub to_move: usize,
    pub active: Vec<bool>,
}

fn cube(c: Cell) -> Cube {
    let [x, y, z] = c.to_cube();
    (x.into(), y.into(), z.into())
}

pub fn cell(c: Cube) -> Cell {
    Cell::from_cube(c.0, c.1, c.2).expect("on board")
}

impl RefPosition {
    /// Reads the board of `game` through its public API only.
    pub fn from_game(game: &Game) -> RefPosition {
        let rules = *game.rules();
        let mut men = HashMap::new();
        let mut inert = HashSet::new();
        for c in Cell::all() {
            if let Some(p) = game.piece_at(c) {
                match (p.seat, p.colour) {
                    (Some(seat), Some(colour)) => {
                        men.insert(
                            cube(c),
                            Man {
                                seat: seat.index(),
                                colour: colour.index().into(),
                                king: p.king,
                            },
                        );
                    }
                    _ => {
                        inert.insert(cube(c));
                    }
                }
            }
        }
        let active = rules
            .seats()
            .map(|s| !game.has_finished(s) && !game.has_resigned(s))
            .collect();
        RefPosition {
            rules,
            men,
            inert,
            to_move: game.to_move().index(),
            active,
        }
    }

    fn occupied(&self, c: Cube) -> bool {
        self.men.contains_key(&c) || self.inert.contains(&c)
    }

    fn is_king(&self, c: Cube) -> bool {
        self.men.get(&c).is_some_and(|m| m.king)
    }

    fn camps_of(&self, seat: usize) -> Vec<usize> {
        self.rules
            .seat_camps(Seat(seat as u8))
            .iter()
            .map(|c| usize::from(c.index()))
            .collect()
    }

    /// Japanese: holes in a camp (start or destination) of another player and in none of `seat`'s.
    fn forbidden(&self, seat: usize, c: Cube) -> bool {
        if self.rules.rule_set != RuleSet::Japanese {
            return false;
        }
        let size = self.rules.pieces;
        let touches = |s: usize| {
            self.camps_of(s)
                .iter()
                .any(|&k| in_camp(c, k, size) || in_camp(c, (k + 3) % 6, size))
        };
        !touches(seat) && (0..self.rules.seat_count()).any(|s| s != seat && touches(s))
    }

    /// Landings of one jump from `cur` in direction `d`, the mover standing nowhere (vacated).
    fn jumps_from(&self, cur: Cube, d: Cube, king: bool, vacated: Cube) -> Vec<Cube> {
        let occ = |c: Cube| c != vacated && self.occupied(c);
        let mut out = Vec::new();
        // Plain jump, or a king's row jump: k contiguous pieces, none a king, then an empty hole.
        let mut k = 1;
        while on_board(add(cur, d, k)) && occ(add(cur, d, k)) && !self.is_king(add(cur, d, k)) {
            let land = add(cur, d, k + 1);
            if on_board(land) && !occ(land) {
                out.push(land);
            }
            if !king {
                break;
            }
            k += 1;
        }
        // Long jump over a single piece m holes away.
        if self.rules.long_jumps {
            for m in 2..=8 {
                let over = add(cur, d, m);
                let land = add(cur, d, 2 * m);
                let clear = (1..2 * m)
                    .filter(|&i| i != m)
                    .all(|i| on_board(add(cur, d, i)) && !occ(add(cur, d, i)));
                if on_board(land) && occ(over) && !self.is_king(over) && clear && !occ(land) {
                    out.push(land);
                }
            }
        }
        out
    }

    /// Where a jump from `cur` would land on an occupied hole of `targets` if it were empty.
    fn swap_jumps_from(
        &self,
        cur: Cube,
        d: Cube,
        king: bool,
        vacated: Cube,
        targets: &HashSet<Cube>,
    ) -> Vec<Cube> {
        let occ = |c: Cube| c != vacated && self.occupied(c);
        let mut out = Vec::new();
        let mut k = 1;
        while on_board(add(cur, d, k)) && occ(add(cur, d, k)) && !self.is_king(add(cur, d, k)) {
            let land = add(cur, d, k + 1);
            if targets.contains(&land) {
                out.push(land);
            }
            if !king {
                break;
            }
            k += 1;
        }
        if self.rules.long_jumps {
            for m in 2..=8 {
                let over = add(cur, d, m);
                let land = add(cur, d, 2 * m);
                let clear = (1..2 * m)
                    .filter(|&i| i != m)
                    .all(|i| on_board(add(cur, d, i)) && !occ(add(cur, d, i)));
                if targets.contains(&land) && occ(over) && !self.is_king(over) && clear {
                    out.push(land);
                }
            }
        }
        out
    }

    fn chain(&self, cur: Cube, from: Cube, seat: usize, king: bool, seen: &mut HashSet<Cube>) {
        for d in DIRS {
            for land in self.jumps_from(cur, d, king, from) {
                if land != from && !self.forbidden(seat, land) && seen.insert(land) {
                    self.chain(land, from, seat, king, seen);
                }
            }
        }
    }

    /// Every move of `seat` before forced exit.
    pub fn raw_moves(&self, seat: usize) -> HashSet<(Cube, Cube)> {
        let mut out = HashSet::new();
        let size = self.rules.pieces;
        for (&from, man) in self.men.iter().filter(|(_, m)| m.seat == seat) {
            let dest = (man.colour + 3) % 6;
            let mut to = HashSet::new();
            for d in DIRS {
                let n = add(from, d, 1);
                if on_board(n) && !self.occupied(n) && !self.forbidden(seat, n) {
                    to.insert(n);
                }
            }
            let mut chain = HashSet::new();
            self.chain(from, from, seat, man.king, &mut chain);
            if self.rules.swap_rule {
                let targets: HashSet<Cube> = self
                    .men
                    .iter()
                    .filter(|(&c, m)| m.seat != seat && in_camp(c, dest, size))
                    .map(|(&c, _)| c)
                    .collect();
                for d in DIRS {
                    if targets.contains(&add(from, d, 1)) {
                        to.insert(add(from, d, 1));
                    }
                    for &c in chain.iter().chain([&from]) {
                        to.extend(self.swap_jumps_from(c, d, man.king, from, &targets));
                    }
                }
            }
            to.extend(chain);
            for t in to {
                let home = in_camp(t, man.colour, size) || in_camp(t, dest, size);
                if self.rules.no_resting_in_foreign_camps && !in_hexagon(t) && !home {
                    continue;
                }
                if self.rules.no_leaving_destination
                    && in_camp(from, dest, size)
                    && !in_camp(t, dest, size)
                {
                    continue;
                }
                out.insert((from, t));
            }
        }
        out
    }

    /// Every legal move of `seat` (RULES.md 1.3, 1.5, 1.6).
    pub fn moves(&self, seat: usize) -> HashSet<(Cube, Cube)> {
        let raw = self.raw_moves(seat);
        if !self.rules.forced_exit {
            return raw;
        }
        let size = self.rules.pieces;
        let all_holes: Vec<Cube> = Cell::all().map(cube).collect();
        let mut exits = HashSet::new();
        let mut forced = false;
        for camp in self.camps_of(seat) {
            let start: Vec<Cube> = all_holes
                .iter()
                .copied()
                .filter(|&c| in_camp(c, camp, size))
                .collect();
            let full = start.iter().all(|&c| self.occupied(c));
            let mine = start
                .iter()
                .any(|c| self.men.get(c).is_some_and(|m| m.seat == seat));
            let q = self
                .rules
                .camp_owner(chinese_checkers::Camp::new(((camp + 3) % 6) as u8).unwrap());
            let Some(q) = q.map(|q| q.index()) else {
                continue;
            };
            if !full || !mine || q == seat || !self.active[q] {
                continue;
            }
            if self
                .raw_moves(q)
                .iter()
                .any(|&(_, t)| in_camp(t, camp, size))
            {
                continue;
            }
            forced = true;
            exits.extend(
                raw.iter()
                    .copied()
                    .filter(|&(f, t)| in_camp(f, camp, size) && !in_camp(t, camp, size)),
            );
        }
        if forced && !exits.is_empty() {
            exits
        } else {
            raw
        }
    }

    /// Whether every set of `seat` has finished (RULES.md 1.4, 1.6).
    fn finished(&self, seat: usize) -> bool {
        let size = self.rules.pieces;
        self.camps_of(seat).iter().all(|&camp| {
            let dest = (camp + 3) % 6;
            let holes: Vec<Cube> = Cell::all()
                .map(cube)
                .filter(|&c| in_camp(c, dest, size))
                .collect();
            let own = |c: &Cube| self.men.get(c).is_some_and(|m| m.colour == camp);
            let filled = if self.rules.anti_blocking {
                holes.iter().all(|&c| self.occupied(c)) && holes.iter().any(own)
            } else {
                holes.iter().all(own)
            };
            let tip = holes
                .iter()
                .copied()
                .max_by_key(|&(x, y, z)| [-z, x, -y, z, -x, y][dest]);
            let king = self
                .men
                .iter()
                .find(|(_, m)| m.colour == camp && m.king)
                .map(|(c, _)| *c);
            filled && (king.is_none() || king == tip)
        })
    }

    /// Plays a move as RULES.md says (with the swap rule, the opponent goes to the start hole),
    /// then marks finished players and hands the turn to the next player who can move (automatic
    /// passes). Returns false if the game is over.
    pub fn play(&mut self, from: Cube, to: Cube) -> bool {
        let man = self.men.remove(&from).expect("a piece to move");
        if let Some(other) = self.men.remove(&to) {
            self.men.insert(from, other);
        }
        self.men.insert(to, man);
        let n = self.rules.seat_count();
        let mut any_finished = false;
        for s in 0..n {
            if self.active[s] && self.finished(s) {
                self.active[s] = false;
            }
            any_finished |= !self.active[s];
        }
        let active = self.active.iter().filter(|&&a| a).count();
        if active <= 1 || (any_finished && !self.rules.play_to_the_end) {
            return false;
        }
        for k in 1..=n {
            let s = (self.to_move + k) % n;
            if self.active[s] && !self.moves(s).is_empty() {
                self.to_move = s;
                return true;
            }
        }
        false
    }

    /// Perft (the finishing and passing rules above; fresh move and stagnation counters).
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(self.to_move);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        for (from, to) in moves {
            let saved = (self.men.clone(), self.to_move, self.active.clone());
            if self.play(from, to) {
                total += self.perft(depth - 1);
            }
            (self.men, self.to_move, self.active) = saved;
        }
        total
    }
}

/// The engine's legal moves as cube pairs.
pub fn engine_moves(game: &Game) -> HashSet<(Cube, Cube)> {
    game.legal_moves_vec()
        .into_iter()
        .map(|m| (cube(m.from), cube(m.to)))
        .collect()
}

/// A perft case of a `tests/*.perft` data file.
pub struct PerftCase {
    pub id: String,
    pub game: Game,
    pub depths: Vec<(u32, u64)>,
}

/// Reads a perft data file (format described in `start.perft`).
pub fn load_perft(text: &str) -> Vec<PerftCase> {
    let mut cases: Vec<PerftCase> = Vec::new();
    let mut id = String::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => id = rest.to_string(),
            "rules" => {
                let rules: Rules =
                    serde_json::from_str(rest).unwrap_or_else(|e| panic!("{id}: {e}"));
                let game = Game::new(rules, Seat(0)).unwrap_or_else(|e| panic!("{id}: {e}"));
                cases.push(PerftCase {
                    id: id.clone(),
                    game,
                    depths: Vec::new(),
                });
            }
            "position" => {
                let game = Game::from_position_json(rest).unwrap_or_else(|e| panic!("{id}: {e}"));
                cases.push(PerftCase {
                    id: id.clone(),
                    game,
                    depths: Vec::new(),
                });
            }
            "perft" => {
                let mut it = rest
                    .split_whitespace()
                    .map(|x| x.parse::<u64>().expect("a number"));
                let (depth, count) = (it.next().expect("depth") as u32, it.next().expect("count"));
                cases
                    .last_mut()
                    .expect("perft before rules")
                    .depths
                    .push((depth, count));
            }
            _ => panic!("unknown line {line:?}"),
        }
    }
    cases
}

impl RefPosition {
    /// Whether `b` is one jump from `a` for the piece that started on `from` (for checking paths).
    pub fn is_jump(&self, a: Cube, b: Cube, from: Cube, king: bool) -> bool {
        DIRS.iter()
            .any(|&d| self.jumps_from(a, d, king, from).contains(&b))
    }

    /// Whether `b` is one jump from `a` onto an occupied hole (a swap's last jump).
    pub fn is_swap_jump(&self, a: Cube, b: Cube, from: Cube, king: bool) -> bool {
        let targets = HashSet::from([b]);
        DIRS.iter().any(|&d| {
            self.swap_jumps_from(a, d, king, from, &targets)
                .contains(&b)
        })
    }
}

/// A small deterministic random generator for building test positions.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A random position for `rules`: each set gets a random number of pieces, biased towards its
/// start and destination camps so that the camp rules are exercised.
pub fn random_position(rules: Rules, seed: u64) -> Option<Game> {
    let mut rng = Rng(seed | 1);
    let inert = Game::new(rules, Seat(0)).ok()?.inert_pieces();
    let mut taken = inert.0;
    let mut seats = Vec::new();
    for seat in rules.seats() {
        let mut entries = Vec::new();
        for (set, camp) in (0u8..).zip(rules.seat_camps(seat)) {
            let count = rng.below(u64::from(rules.pieces) + 1);
            for k in 0..count {
                let pool = match rng.below(3) {
                    0 => camp.cells(rules.pieces).0,
                    1 => camp.opposite().cells(rules.pieces).0,
                    _ => (1u128 << 121) - 1,
                } & !taken;
                if pool == 0 {
                    continue;
                }
                let at = chinese_checkers::Bitboard(pool)
                    .nth(rng.below(u64::from(pool.count_ones())) as usize)?;
                taken |= 1u128 << at.index();
                let king = rules.rule_set == RuleSet::Japanese && k == 0 && rng.below(2) == 0;
                entries.push(PieceEntry::Detailed(PieceSpec { at, king, set }));
            }
        }
        seats.push(entries);
    }
    let to_move = rng.below(u64::from(rules.players)) as u8;
    PositionFile {
        rules,
        to_move,
        seats,
        inert: None,
        state: None,
    }
    .to_game()
    .ok()
}
