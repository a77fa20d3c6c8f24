//! The draughts evaluation (RULES.md part 2), for the side to move, in hundredths of a man:
//! material (a king is worth three men), tempo (how far the men have advanced), centre, the back
//! row kept as a guard, outposts (an advanced man backed by two), runaway men (nothing can stop
//! them crowning), a bonus for trading down when ahead, and scaling towards a draw in the endings
//! the draw rules make hopeless (a lone king against few pieces).

use draughts::bitboard::Bits;
use draughts::{Board, Color, Position};

const MAN: i32 = 100;
const KING: i32 = 300;
const TEMPO: i32 = 3;
const CENTRE: i32 = 5;
const BACK_ROW: i32 = 6;
const OUTPOST: i32 = 8;
/// A man that cannot be stopped, minus this per row still to go.
const RUNAWAY: i32 = 220;
const RUNAWAY_ROW: i32 = 30;

/// Board directions (see `draughts::board`): up is towards square 1 (White's way).
const UP_LEFT: usize = 0;
const UP_RIGHT: usize = 1;
const DOWN_LEFT: usize = 2;
const DOWN_RIGHT: usize = 3;

/// The value of `pos` for the side to move.
pub fn evaluate<B: Board>(pos: &Position<B>) -> i32 {
    let white = side::<B>(pos, Color::White);
    let black = side::<B>(pos, Color::Black);
    let mut v = white - black;
    let (wm, wk) = pos.count(Color::White);
    let (bm, bk) = pos.count(Color::Black);
    let (w, b) = ((wm + wk) as i32, (bm + bk) as i32);
    let material = (wm as i32 - bm as i32) * MAN + (wk as i32 - bk as i32) * KING;
    // Trade down when ahead.
    v += material * 6 / (w + b + 6);
    v = scale_drawish(v, (wm, wk), (bm, bk));
    if pos.side_to_move() == Color::White {
        v
    } else {
        -v
    }
}

/// Endings the draw rules make drawn unless a shot decides them.
fn scale_drawish(v: i32, (wm, wk): (u32, u32), (bm, bk): (u32, u32)) -> i32 {
    let lone = |m: u32, k: u32| m == 0 && k == 1;
    let few = |m: u32, k: u32| m + k <= 3 && k >= 1;
    if (lone(bm, bk) && few(wm, wk)) || (lone(wm, wk) && few(bm, bk)) {
        return v / 16;
    }
    if wm == 0 && bm == 0 && (wk as i32 - bk as i32).abs() <= 1 {
        return v / 4;
    }
    v
}

fn side<B: Board>(pos: &Position<B>, color: Color) -> i32 {
    let men = pos.men_of(color);
    let kings = pos.kings_of(color);
    let enemy = pos.pieces(color.opponent());
    let enemy_kings = pos.kings_of(color.opponent());
    let n = B::N;
    let mut v = men.count() as i32 * MAN + kings.count() as i32 * KING;
    let fwd = match color {
        Color::White => [UP_LEFT, UP_RIGHT],
        Color::Black => [DOWN_LEFT, DOWN_RIGHT],
    };
    let supported = B::step(men, fwd[0]) & B::step(men, fwd[1]);
    for bit in men.iter() {
        let row = B::row_of(bit);
        let to_go = match color {
            Color::White => row,
            Color::Black => n - 1 - row,
        };
        let advanced = (n - 1 - to_go) as i32;
        v += TEMPO * advanced;
        let file2 = column::<B>(bit);
        if (3..=2 * n as i32 - 5).contains(&file2) && (2..n - 2).contains(&row) {
            v += CENTRE;
        }
        if to_go == n - 1 && enemy_kings.is_empty() {
            v += BACK_ROW;
        }
        let b = B::Bits::bit(bit);
        if to_go < n / 2 && !(supported & b).is_empty() {
            v += OUTPOST;
        }
        if to_go <= n / 2 && runaway::<B>(b, to_go, fwd, enemy, pos.occupied()) {
            v += (RUNAWAY - RUNAWAY_ROW * to_go as i32).max(0);
        }
    }
    v
}

/// Twice the file plus one parity correction: 0..2N, for centre tests.
fn column<B: Board>(bit: u32) -> i32 {
    let s = bit - bit / (B::N + 1);
    let row = s / B::H;
    let f = 2 * (s % B::H) + if row % 2 == 0 { 1 } else { 0 };
    2 * f as i32
}

/// Whether a man on `b` has a free run: no enemy piece in the cone of squares ahead of it and
/// its own next squares not all blocked.
fn runaway<B: Board>(
    b: B::Bits,
    to_go: u32,
    fwd: [usize; 2],
    enemy: B::Bits,
    occ: B::Bits,
) -> bool {
    let mut front = b;
    let mut cone = B::Bits::ZERO;
    for _ in 0..to_go {
        front = B::step(front, fwd[0]) | B::step(front, fwd[1]);
        // Widen by one on each side: an enemy next to the path can still intercept.
        cone |= front;
    }
    let wide = cone | B::step(cone, fwd[0]) | B::step(cone, fwd[1]);
    let next = B::step(b, fwd[0]) | B::step(b, fwd[1]);
    (wide & enemy).is_empty() && !(next & !occ).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::{parse_fen, International};

    #[test]
    fn the_start_is_level_and_material_counts() {
        let start = Position::<International>::initial();
        assert_eq!(evaluate(&start), 0);
        let up: Position<International> = parse_fen("W:W31,32,33:B1,2").unwrap();
        assert!(evaluate(&up) > 50);
        let flipped = up.with_side_to_move(Color::Black);
        assert_eq!(evaluate(&flipped), -evaluate(&up));
    }

    #[test]
    fn a_runaway_man_is_worth_nearly_a_king() {
        let free: Position<International> = parse_fen("W:W16,46:B5").unwrap();
        let blocked: Position<International> = parse_fen("W:W16,46:B7").unwrap();
        assert!(evaluate(&free) > evaluate(&blocked) + 100);
    }
}
