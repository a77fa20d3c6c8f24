//! Verification of finished tables against the rules: every stored value must follow from the
//! values of its successors (the rules crate's legal moves), one position at a time.
//!
//! - a loss in `d` plies: every move leads to a win for the opponent, the longest in `d − 1`
//!   (or there is no move and `d = 0`);
//! - a win in `d`: some move leads to a loss for the opponent, the shortest in `d − 1`;
//! - a draw: no move leads to a loss for the opponent and at least one leads to a draw.
//!
//! Moves out of the position's zone count as one ply to a value taken with fresh counters (as
//! in the generator). Since distances strictly decrease along the proof of every win and loss,
//! these local checks together prove the whole table. [`check_mirror`] compares each table
//! with its colour-mirrored twin, solved separately.

use std::fmt;

use draughts::MoveList;

use super::build::{step_value, Step};
use super::index::{Material, Placement, SQUARES};
use super::{decode, encode, Egdb, Zone, DRAW};

/// A stored value that does not follow from its successors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError {
    /// The signature.
    pub material: Material,
    /// The position, in FEN.
    pub fen: String,
    /// The stored byte.
    pub stored: u8,
    /// The byte its successors call for.
    pub expected: u8,
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |b: u8| match decode(b) {
            None => "draw".to_string(),
            Some((true, d)) => format!("win in {d}"),
            Some((false, d)) => format!("loss in {d}"),
        };
        write!(
            f,
            "{} {}: stored {}, its moves give {}",
            self.material.name(),
            self.fen,
            show(self.stored),
            show(self.expected)
        )
    }
}

impl std::error::Error for CheckError {}

/// Checks every position of `m` in `tables` (which must hold every signature `m` leads to);
/// returns the number of positions checked.
///
/// # Errors
/// The first [`CheckError`] found.
pub fn check(tables: &Egdb, m: &Material) -> Result<u64, CheckError> {
    let table = tables.table(m).expect("the table to check is held");
    let zone = Zone::of(m);
    let mut list = MoveList::new();
    let mut checked = 0;
    for (i, &stored) in table.iter().enumerate() {
        let Some(pos) = m.position(i as u64) else {
            continue;
        };
        pos.generate_moves(&mut list);
        let (mut win, mut loss, mut draw) = (u8::MAX, 0u8, false);
        for &mv in list.iter() {
            match step_value(tables, zone, &pos.play_unchecked(mv)) {
                Step::Win(d) => win = win.min(d),
                Step::Loss(d) => loss = loss.max(d),
                Step::Draw => draw = true,
            }
        }
        let expected = if win != u8::MAX {
            encode(true, win)
        } else if draw {
            DRAW
        } else {
            encode(false, loss)
        };
        if stored != expected {
            return Err(CheckError {
                material: *m,
                fen: draughts::to_fen(&pos),
                stored,
                expected,
            });
        }
        checked += 1;
    }
    Ok(checked)
}

/// The colour-mirrored placement: the board turned half a turn and the colours swapped (a
/// symmetry of the rules, draw rules included).
pub fn mirror(p: &Placement) -> Placement {
    let turn = |set: u64| set.reverse_bits() >> (64 - SQUARES);
    Placement {
        side: p.side.opponent(),
        wm: turn(p.bm),
        wk: turn(p.bk),
        bm: turn(p.wm),
        bk: turn(p.wk),
    }
}

/// Compares every position of `m` with its mirror image in the mirrored material's table,
/// which the generator solved on its own (another signature, index order and direction of
/// play): a second computation of every value. Returns the number of positions compared.
///
/// # Errors
/// The first position whose mirror image holds another value (`expected` is the mirror's).
pub fn check_mirror(tables: &Egdb, m: &Material) -> Result<u64, CheckError> {
    let table = tables.table(m).expect("the table to check is held");
    let mut compared = 0;
    for (i, &stored) in table.iter().enumerate() {
        let Some(p) = m.placement(i as u64) else {
            continue;
        };
        let image = tables
            .byte(&mirror(&p))
            .expect("the mirrored table is held");
        if image != stored {
            return Err(CheckError {
                material: *m,
                fen: draughts::to_fen(&p.to_position()),
                stored,
                expected: image,
            });
        }
        compared += 1;
    }
    Ok(compared)
}
