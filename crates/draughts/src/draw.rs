//! Game results and the FMJD draw rules (RULES.md part 2, "Draws"): threefold repetition, the
//! 25-move king-only rule, three pieces against a lone king (16 moves each, or 10 as an option)
//! and two pieces against a lone king (5 moves each).

use std::fmt;

use crate::bitboard::Bits;
use crate::board::{Board, Color, Variant};
use crate::moves::Move;
use crate::position::Position;

/// The settings of a game (a room's rules).
///
/// The serde form uses these field names; missing fields take their defaults, so
/// `{"variant": "brazilian"}` is a complete value. Unknown fields are refused; check a value read
/// from outside with [`Rules::validate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct Rules {
    /// The board size.
    pub variant: Variant,
    /// Moves each before three pieces (at least one a king) against a lone king are a draw:
    /// 16 (FMJD, the default) or 10 (seed 003).
    pub three_vs_king_moves: u8,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            variant: Variant::International,
            three_vs_king_moves: 16,
        }
    }
}

impl Rules {
    /// The default rules on `variant`'s board.
    pub fn new(variant: Variant) -> Self {
        Rules {
            variant,
            ..Rules::default()
        }
    }

    /// Checks that these rules can be played.
    ///
    /// # Errors
    /// [`RulesError::ThreeVsKingMoves`] unless `three_vs_king_moves` is 16 or 10.
    pub fn validate(&self) -> Result<(), RulesError> {
        match self.three_vs_king_moves {
            10 | 16 => Ok(()),
            n => Err(RulesError::ThreeVsKingMoves(n)),
        }
    }
}

/// Why a [`Rules`] value cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// Three pieces against a lone king are drawn after 16 moves each (FMJD) or 10 (seed 003).
    ThreeVsKingMoves(u8),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::ThreeVsKingMoves(n) => {
                write!(f, "three_vs_king_moves must be 16 or 10, not {n}")
            }
        }
    }
}

impl std::error::Error for RulesError {}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum WinReason {
    /// The loser had no legal move (or no piece) on their turn.
    NoMoves,
    /// The loser resigned.
    Resignation,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DrawReason {
    /// The players agreed.
    Agreement,
    /// The same position with the same side to move occurred three times.
    ThreefoldRepetition,
    /// 25 moves each with only non-capturing king moves.
    TwentyFiveKingMoves,
    /// Three pieces (at least one king) against a lone king for 16 (or 10) moves each.
    ThreeVsLoneKing,
    /// Two pieces or fewer (at least one king) against a lone king for 5 moves each.
    TwoVsLoneKing,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "snake_case"))]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// The PDN result token: `2-0` (White won), `0-2` or `1-1`.
    pub fn pdn_result(&self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "2-0",
            Some(Color::Black) => "0-2",
            None => "1-1",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => write!(f, "{winner} wins ({reason:?})"),
            Outcome::Draw { reason } => write!(f, "draw ({reason:?})"),
        }
    }
}

/// The material classes that start a draw count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Endgame {
    None,
    /// Three pieces, at least one a king, against a lone king.
    ThreeVsKing,
    /// One or two pieces, at least one a king, against a lone king.
    TwoVsKing,
}

fn endgame<B: Board>(pos: &Position<B>) -> Endgame {
    let lone_king = |c: Color| pos.count(c) == (0, 1);
    let has_king = |c: Color| !(pos.pieces(c) & pos.kings()).is_empty();
    for lone in [Color::White, Color::Black] {
        let strong = lone.opponent();
        if lone_king(lone) && has_king(strong) {
            return match pos.pieces(strong).count() {
                3 => Endgame::ThreeVsKing,
                1 | 2 => Endgame::TwoVsKing,
                _ => Endgame::None,
            };
        }
    }
    Endgame::None
}

/// The counters behind the move-count draw rules, updated after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DrawCounters {
    /// Successive plies that were non-capturing king moves.
    king_plies: u32,
    /// The material class and the plies played in it.
    endgame: Endgame,
    endgame_plies: u32,
}

impl DrawCounters {
    /// The counters for a game starting at `pos`.
    pub fn new<B: Board>(pos: &Position<B>) -> Self {
        DrawCounters {
            king_plies: 0,
            endgame: endgame(pos),
            endgame_plies: 0,
        }
    }

    /// Updates the counters for `mv` played in `before`, giving `after`.
    pub fn update<B: Board>(&mut self, before: &Position<B>, mv: Move<B>, after: &Position<B>) {
        if before.is_reversible(mv) {
            self.king_plies += 1;
        } else {
            self.king_plies = 0;
        }
        let class = endgame(after);
        if class == self.endgame {
            self.endgame_plies += 1;
        } else {
            self.endgame = class;
            self.endgame_plies = 0;
        }
    }

    /// Successive plies so far that were non-capturing king moves (the 25-move rule draws at 50).
    pub fn king_plies(&self) -> u32 {
        self.king_plies
    }

    /// Plies played since the material entered its current class (three pieces or two against
    /// a lone king); meaningful only while such a class holds.
    pub fn endgame_plies(&self) -> u32 {
        self.endgame_plies
    }

    /// The draw these counters call for, if any, under `rules`.
    pub fn draw(&self, rules: &Rules) -> Option<DrawReason> {
        match self.endgame {
            Endgame::ThreeVsKing
                if self.endgame_plies >= 2 * u32::from(rules.three_vs_king_moves) =>
            {
                return Some(DrawReason::ThreeVsLoneKing)
            }
            Endgame::TwoVsKing if self.endgame_plies >= 10 => {
                return Some(DrawReason::TwoVsLoneKing)
            }
            _ => {}
        }
        (self.king_plies >= 50).then_some(DrawReason::TwentyFiveKingMoves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_pieces_against_a_lone_king_are_drawn_after_16_or_10_moves_only() {
        assert_eq!(Rules::default().validate(), Ok(()));
        let ten = Rules {
            three_vs_king_moves: 10,
            ..Rules::default()
        };
        assert_eq!(ten.validate(), Ok(()));
        let twelve = Rules {
            three_vs_king_moves: 12,
            ..Rules::default()
        };
        assert_eq!(twelve.validate(), Err(RulesError::ThreeVsKingMoves(12)));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn rules_read_with_defaults_and_refuse_unknown_fields() {
        let r: Rules = serde_json::from_str(r#"{"variant": "brazilian"}"#).unwrap();
        assert_eq!(r, Rules::new(Variant::Brazilian));
        assert!(serde_json::from_str::<Rules>(r#"{"variant": "russian"}"#).is_err());
        assert!(serde_json::from_str::<Rules>(r#"{"flying_men": true}"#).is_err());
    }
}
