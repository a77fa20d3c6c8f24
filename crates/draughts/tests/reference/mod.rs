//! A deliberately simple move generator: a square grid, explicit loops, no bit tricks. The
//! property tests check the fast generator against it on random positions.

use std::collections::BTreeSet;

use draughts::{Board, Color, Position, Role, Square};

/// A move as (start, end, sorted captured squares), in FMJD numbers.
pub type RefMove = (u8, u8, Vec<u8>);

const DIRS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

struct Grid {
    n: i32,
    /// `cells[r][f]`: `Some((color, role))` for a piece.
    cells: Vec<Vec<Option<(Color, Role)>>>,
}

impl Grid {
    fn from_position<B: Board>(pos: &Position<B>) -> Self {
        let n = B::N as i32;
        let mut cells = vec![vec![None; n as usize]; n as usize];
        for (sq, piece) in pos.iter() {
            let (r, f) = coords(n, sq.number());
            cells[r as usize][f as usize] = Some((piece.color, piece.role));
        }
        Grid { n, cells }
    }

    /// `None` off the board, else the square's content.
    fn at(&self, r: i32, f: i32) -> Option<Option<(Color, Role)>> {
        if (0..self.n).contains(&r) && (0..self.n).contains(&f) {
            Some(self.cells[r as usize][f as usize])
        } else {
            None
        }
    }
}

/// Row and file (0 = top, 0 = left) of square `s` on an `n`×`n` board.
fn coords(n: i32, s: u8) -> (i32, i32) {
    let h = n / 2;
    let i = i32::from(s) - 1;
    let r = i / h;
    let c = i % h;
    (r, if r % 2 == 0 { 2 * c + 1 } else { 2 * c })
}

fn number(n: i32, r: i32, f: i32) -> u8 {
    (r * (n / 2) + f / 2 + 1) as u8
}

/// Row and file.
type Cell = (i32, i32);

struct Search<'a> {
    grid: &'a Grid,
    side: Color,
    start: (i32, i32),
    king: bool,
    found: Vec<(Cell, Vec<Cell>)>,
}

impl Search<'_> {
    /// Empty, or the capturing piece's own start square.
    fn free(&self, r: i32, f: i32) -> bool {
        (r, f) == self.start || self.grid.at(r, f) == Some(None)
    }

    fn capturable(&self, r: i32, f: i32, captured: &[(i32, i32)]) -> bool {
        matches!(self.grid.at(r, f), Some(Some((c, _))) if c != self.side)
            && !captured.contains(&(r, f))
    }

    fn go(&mut self, at: (i32, i32), captured: &mut Vec<(i32, i32)>) {
        let mut extended = false;
        for (dr, df) in DIRS {
            let (mut r, mut f) = (at.0 + dr, at.1 + df);
            if self.king {
                while self.grid.at(r, f).is_some() && self.free(r, f) {
                    r += dr;
                    f += df;
                }
            }
            if !self.capturable(r, f, captured) {
                continue;
            }
            let (mut lr, mut lf) = (r + dr, f + df);
            while self.grid.at(lr, lf).is_some() && self.free(lr, lf) {
                extended = true;
                captured.push((r, f));
                self.go((lr, lf), captured);
                captured.pop();
                if !self.king {
                    break;
                }
                lr += dr;
                lf += df;
            }
        }
        if !extended && !captured.is_empty() {
            self.found.push((at, captured.clone()));
        }
    }
}

/// Every legal move of `pos`, found the simple way.
pub fn legal_moves<B: Board>(pos: &Position<B>) -> BTreeSet<RefMove> {
    let grid = Grid::from_position(pos);
    let n = grid.n;
    let side = pos.side_to_move();
    let own: Vec<(i32, i32, Role)> = pos
        .iter()
        .filter(|(_, p)| p.color == side)
        .map(|(s, p)| {
            let (r, f) = coords(n, s.number());
            (r, f, p.role)
        })
        .collect();
    let mut captures: Vec<RefMove> = Vec::new();
    for &(r, f, role) in &own {
        let mut search = Search {
            grid: &grid,
            side,
            start: (r, f),
            king: role == Role::King,
            found: Vec::new(),
        };
        search.go((r, f), &mut Vec::new());
        for ((tr, tf), caps) in search.found {
            let mut c: Vec<u8> = caps.iter().map(|&(a, b)| number(n, a, b)).collect();
            c.sort_unstable();
            captures.push((number(n, r, f), number(n, tr, tf), c));
        }
    }
    if let Some(best) = captures.iter().map(|m| m.2.len()).max() {
        return captures.into_iter().filter(|m| m.2.len() == best).collect();
    }
    let forward = if side == Color::White { -1 } else { 1 };
    let mut quiet = BTreeSet::new();
    for &(r, f, role) in &own {
        for (dr, df) in DIRS {
            if role == Role::Man && dr != forward {
                continue;
            }
            let (mut tr, mut tf) = (r + dr, f + df);
            while grid.at(tr, tf) == Some(None) {
                quiet.insert((number(n, r, f), number(n, tr, tf), Vec::new()));
                if role == Role::Man {
                    break;
                }
                tr += dr;
                tf += df;
            }
        }
    }
    quiet
}

/// The fast generator's moves in the same form.
pub fn fast_moves<B: Board>(pos: &Position<B>) -> BTreeSet<RefMove> {
    pos.legal_moves()
        .iter()
        .map(|m| {
            (
                m.from().number(),
                m.to().number(),
                m.captured().map(Square::number).collect(),
            )
        })
        .collect()
}
