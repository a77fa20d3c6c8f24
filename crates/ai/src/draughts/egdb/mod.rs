//! Endgame databases for international draughts (10×10): the exact value of every position
//! with few pieces (up to 4), built by retrograde analysis ([`build()`]), stored compressed with
//! a checksum ([`file`]), verified against the rules ([`check()`]) and probed by the search.
//!
//! # What a table holds
//! One table per [`Material`] signature, one byte per position ([`index`] numbers them):
//! draw, or win/loss for the side to move with a distance `d` in plies. The FMJD draw rules
//! (RULES.md part 2, « Draws »; the `draughts` crate's [`draughts::draw`]) cut some wins short,
//! so the distance is measured inside a [`Zone`]: the stretch of play during which one draw
//! counter runs.
//! - Three pieces (at least one king) against a lone king: the game is drawn 16 moves each
//!   (32 plies) after the material entered that class; two pieces or fewer against a lone king:
//!   5 moves each (10 plies). The zone is the class (its counter goes on across promotions and
//!   captures that stay in the class).
//! - Kings only and no lone king (2 kings against 2): the 25-king-move rule, 50 plies.
//! - Any other material (men on the board): a zone per signature, no limit (see below).
//!
//! `d` is the number of plies until the game ends or the play leaves the zone into a position
//! won for the same side (as valued on entry, i.e. with fresh counters). A position is a win
//! for the side to move when its counters leave at least `d` plies before the draw: the table's
//! two-bit values ([`Wdl`], the `.egdb` files' first section) are those on entry into the zone,
//! and [`Egdb::probe`] applies the game's own counters. A win that the draw rules make
//! impossible to realise is therefore never scored as a win.
//!
//! Not modelled: the 25-king-move counter inside signatures that still have men (it is reset by
//! every man move and capture; a win there that needed 25 successive king moves each without
//! touching a man would be scored as a win the rules may cut), and threefold repetition (a
//! shortest win never repeats a position; a draw is a draw either way).
//!
//! The tables are for the FMJD count of 16 moves in three-against-a-king; a game under the
//! 10-move option is not probed.

pub mod build;
pub mod check;
pub mod file;
pub mod index;
pub mod root;

use std::sync::OnceLock;

use draughts::bitboard::Bits;
use draughts::{Board, Color, DrawCounters, Position, Rules, Variant};

pub use build::{build, build_for, BuildError, BuildStats};
pub use check::{check, check_mirror, mirror, CheckError};
pub use file::EgdbError;
pub use index::{Material, Placement};
pub use root::{root_choice, RootChoice, TABLE_WIN};

/// A table byte for a drawn (or unused) slot.
pub const DRAW: u8 = 0;
/// The longest distance a table byte can hold.
pub const MAX_DISTANCE: u8 = 125;
/// The three-against-a-king count (moves each) the tables are built for.
pub const THREE_VS_KING_MOVES: u8 = 16;

/// A table byte: a win (`true`) or loss for the side to move in `d` plies.
#[inline]
pub fn encode(win: bool, d: u8) -> u8 {
    debug_assert!(d <= MAX_DISTANCE);
    1 + (d << 1 | u8::from(win))
}

/// The win flag and distance of a table byte; `None` for a draw.
#[inline]
pub fn decode(byte: u8) -> Option<(bool, u8)> {
    (byte != DRAW).then(|| ((byte - 1) & 1 == 1, (byte - 1) >> 1))
}

/// Win, draw or loss for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move wins.
    Win,
    /// Neither side can force a win in time.
    Draw,
    /// The side to move loses.
    Loss,
}

/// The stretch of play during which one draw counter runs (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Zone {
    /// Three pieces, at least one a king, against a lone king.
    ThreeVsKing,
    /// One or two pieces, at least one a king, against a lone king.
    TwoVsKing,
    /// Kings only, no lone king: the 25-king-move rule.
    KingsOnly(Material),
    /// Men on the board: no move-count limit.
    Signature(Material),
}

impl Zone {
    /// The zone of a material.
    pub fn of(m: &Material) -> Zone {
        for lone in [Color::White, Color::Black] {
            let strong = m.of(lone.opponent());
            if m.of(lone) == (0, 1) && strong.1 > 0 {
                match strong.0 + strong.1 {
                    3 => return Zone::ThreeVsKing,
                    1 | 2 => return Zone::TwoVsKing,
                    _ => {}
                }
            }
        }
        if m.men() == 0 {
            Zone::KingsOnly(*m)
        } else {
            Zone::Signature(*m)
        }
    }

    /// Plies the zone lasts from entry before the draw (`None`: no limit).
    pub fn limit(&self) -> Option<u32> {
        match self {
            Zone::ThreeVsKing => Some(2 * u32::from(THREE_VS_KING_MOVES)),
            Zone::TwoVsKing => Some(10),
            Zone::KingsOnly(_) => Some(50),
            Zone::Signature(_) => None,
        }
    }

    /// Plies left before the draw given a game's counters (`None`: no limit).
    pub fn plies_left(&self, counters: &DrawCounters) -> Option<u32> {
        let kings = 50u32.saturating_sub(counters.king_plies());
        match self {
            Zone::ThreeVsKing | Zone::TwoVsKing => Some(
                self.limit()
                    .unwrap_or(0)
                    .saturating_sub(counters.endgame_plies())
                    .min(kings),
            ),
            Zone::KingsOnly(_) => Some(kings),
            Zone::Signature(_) => None,
        }
    }
}

/// The value of a table byte when `left` plies remain before a draw rule ends the game.
pub fn windowed(byte: u8, left: Option<u32>) -> Wdl {
    match decode(byte) {
        None => Wdl::Draw,
        Some((_, d)) if left.is_some_and(|l| u32::from(d) > l) => Wdl::Draw,
        Some((true, _)) => Wdl::Win,
        Some((false, _)) => Wdl::Loss,
    }
}

/// What a probe answers: the value under the game's draw counters and the distance in the
/// position's zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Win, draw or loss for the side to move.
    pub wdl: Wdl,
    /// Plies to the end of the game or out of the zone (0 for a draw).
    pub distance: u32,
    /// The position's zone.
    pub zone: Zone,
}

/// A set of tables: one byte per position of each material held.
#[derive(Clone, Debug, Default)]
pub struct Egdb {
    tables: Vec<Option<Vec<u8>>>,
}

impl Egdb {
    /// No tables.
    pub fn new() -> Self {
        Egdb {
            tables: vec![None; Material::CODES],
        }
    }

    /// Adds (or replaces) the table of `m`.
    ///
    /// # Panics
    /// If the table's length is not `m.slots()` (a bug of the caller: files are checked first).
    pub fn insert(&mut self, m: Material, table: Vec<u8>) {
        assert_eq!(table.len() as u64, m.slots(), "table of {}", m.name());
        self.tables[m.code()] = Some(table);
    }

    /// The table of `m`, if held.
    pub fn table(&self, m: &Material) -> Option<&[u8]> {
        self.tables.get(m.code())?.as_deref()
    }

    /// Every material held, in build order.
    pub fn materials(&self) -> Vec<Material> {
        Material::all(4)
            .into_iter()
            .filter(|m| self.table(m).is_some())
            .collect()
    }

    /// The most pieces `n` such that every material of 2 to `n` pieces is held (0 if none).
    pub fn pieces(&self) -> u32 {
        (2..=4)
            .take_while(|&n| {
                Material::all(n)
                    .iter()
                    .all(|m| m.pieces() < n || self.table(m).is_some())
            })
            .last()
            .unwrap_or(0)
    }

    /// Total bytes held.
    pub fn bytes(&self) -> usize {
        self.tables.iter().flatten().map(Vec::len).sum()
    }

    /// The table byte of a placement, if its material is held.
    #[inline]
    pub fn byte(&self, p: &Placement) -> Option<u8> {
        let m = p.material();
        if m.wm.max(m.wk).max(m.bm).max(m.bk) > 4 {
            return None;
        }
        let t = self.table(&m)?;
        Some(t[m.index(p) as usize])
    }

    /// The value of a position of any board under a game's draw counters and rules: `None`
    /// unless it is a 10×10 position whose material is held, both sides have a piece and the
    /// rules are those the tables were built for.
    pub fn probe<B: Board>(
        &self,
        pos: &Position<B>,
        counters: &DrawCounters,
        rules: &Rules,
    ) -> Option<Probe> {
        if B::VARIANT != Variant::International
            || rules.three_vs_king_moves != THREE_VS_KING_MOVES
            || pos.occupied().count() > 4
        {
            return None;
        }
        let p = Placement::of(pos);
        let m = p.material();
        let byte = self.byte(&p)?;
        let zone = Zone::of(&m);
        let wdl = windowed(byte, zone.plies_left(counters));
        let distance = match wdl {
            Wdl::Draw => 0,
            _ => u32::from(decode(byte).map_or(0, |(_, d)| d)),
        };
        Some(Probe {
            wdl,
            distance,
            zone,
        })
    }

    /// [`Egdb::probe`] with the counters of a game starting at `pos` (on entry into its zone).
    pub fn probe_fresh(&self, pos: &Position<draughts::International>) -> Option<Probe> {
        self.probe(pos, &DrawCounters::new(pos), &Rules::default())
    }
}

static INSTALLED: OnceLock<Egdb> = OnceLock::new();

/// Makes `tables` the ones every later search of this process probes ([`installed`]).
///
/// # Errors
/// Gives `tables` back if some were installed already.
pub fn install(tables: Egdb) -> Result<(), Egdb> {
    INSTALLED.set(tables)
}

/// The tables installed for this process, if any.
pub fn installed() -> Option<&'static Egdb> {
    INSTALLED.get()
}

#[cfg(test)]
mod tests;
