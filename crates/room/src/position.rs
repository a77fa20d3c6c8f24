//! Draughts positions imported from PDN or FEN text (issue 14), to play them against the CPU or a
//! friend: the rules engine reads the text (`draughts::pdn`, `draughts::fen`), replays a PDN
//! game's moves, and the position reached becomes the start of the room's games. Every refusal is
//! an [`ImportError`] with a reason clients translate (docs/protocol.md, `invalid_position`).

use std::fmt;

use draughts::{Color, Game, ParsePdnError, Rules, Variant};
use serde::Serialize;
use serde_json::{json, Value};

use crate::game::{GameRules, GameState};
use crate::protocol::Board;

/// Longest text accepted, in bytes (a long PDN game is a few KiB).
pub const MAX_TEXT: usize = 12 * 1024;

/// Why a text gives no position to play from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportError {
    /// Nothing but whitespace, or PDN without a game.
    Empty,
    /// Longer than [`MAX_TEXT`].
    TooLong,
    /// The FEN (or a PDN game's `FEN` tag) does not describe a position of the board.
    Fen(String),
    /// A PDN tag is malformed.
    Tag(String),
    /// A PDN comment or variation is not closed.
    Unterminated,
    /// The PDN `GameType` is not international, Brazilian or Canadian draughts.
    GameType(String),
    /// A PDN move cannot be played (ply counted from 1).
    Move {
        /// Which ply.
        ply: usize,
        /// The move as written.
        text: String,
    },
    /// The position reached has no legal move: the game is over.
    NoMoves,
    /// A side has no piece at all: nothing to play.
    NoPieces,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("no PDN game or FEN position in the text"),
            Self::TooLong => write!(f, "the text is longer than {MAX_TEXT} bytes"),
            Self::Fen(why) => write!(f, "FEN: {why}"),
            Self::Tag(tag) => write!(f, "malformed PDN tag {tag:?}"),
            Self::Unterminated => f.write_str("a PDN comment or variation is not closed"),
            Self::GameType(gt) => write!(
                f,
                "GameType {gt:?} is not international (20), Brazilian (26) or Canadian (27) draughts"
            ),
            Self::Move { ply, text } => write!(f, "move {text:?} (ply {ply}) cannot be played"),
            Self::NoMoves => f.write_str("the side to move has no legal move: the game is over"),
            Self::NoPieces => f.write_str("a side has no piece"),
        }
    }
}

impl std::error::Error for ImportError {}

impl ImportError {
    /// The protocol's `detail`: `{"reason"}` and the figures clients show.
    pub fn detail(&self) -> Value {
        match self {
            Self::Empty => json!({"reason": "empty"}),
            Self::TooLong => json!({"reason": "too_long", "max": MAX_TEXT}),
            Self::Fen(why) => json!({"reason": "fen", "why": why}),
            Self::Tag(tag) => json!({"reason": "tag", "tag": tag}),
            Self::Unterminated => json!({"reason": "unterminated"}),
            Self::GameType(gt) => json!({"reason": "game_type", "game_type": gt}),
            Self::Move { ply, text } => json!({"reason": "move", "ply": ply, "move": text}),
            Self::NoMoves => json!({"reason": "no_moves"}),
            Self::NoPieces => json!({"reason": "no_pieces"}),
        }
    }
}

impl From<ParsePdnError> for ImportError {
    fn from(err: ParsePdnError) -> Self {
        match err {
            ParsePdnError::BadTag(tag) => Self::Tag(tag),
            ParsePdnError::Unterminated => Self::Unterminated,
            ParsePdnError::UnsupportedGameType(gt) => Self::GameType(gt),
            ParsePdnError::Fen(e) => Self::Fen(e.to_string()),
            ParsePdnError::Move { ply, text, .. } => Self::Move { ply, text },
        }
    }
}

/// A position read from PDN or FEN (`POST /api/draughts/position`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Imported {
    /// The board (a PDN `GameType` decides it; else the variant asked for).
    pub variant: Variant,
    /// The position in FEN, as the engine writes it.
    pub fen: String,
    /// Whether it is the variant's usual start.
    pub initial: bool,
    /// The side to move.
    pub to_move: Color,
    /// Moves of the PDN game replayed to reach it (0 for a FEN).
    pub plies: usize,
    /// The pieces, as in a `GameView`.
    pub board: Board,
}

/// Whether `text` looks like a FEN (`W:…`, `B:…`, possibly quoted) rather than PDN.
fn is_fen(text: &str) -> bool {
    let mut chars = text
        .trim_start_matches(|c: char| c.is_whitespace() || c == '"')
        .chars()
        .filter(|c| !c.is_whitespace());
    matches!(chars.next(), Some('W' | 'B' | 'w' | 'b')) && chars.next() == Some(':')
}

/// Reads `text`: a FEN on `variant`'s board, or the first game of a PDN text (its `GameType`
/// tag, else `variant`; its `FEN` tag, else the usual start; then its moves). Result tokens are
/// ignored: the position reached is what counts.
///
/// # Errors
/// [`ImportError`].
pub fn import(text: &str, variant: Variant) -> Result<Imported, ImportError> {
    if text.len() > MAX_TEXT {
        return Err(ImportError::TooLong);
    }
    if text.trim().is_empty() {
        return Err(ImportError::Empty);
    }
    let (game, variant) = if is_fen(text) {
        let rules = Rules::new(variant);
        let game = Game::from_fen(rules, text).map_err(|e| ImportError::Fen(e.to_string()))?;
        (game, variant)
    } else {
        let games = draughts::read_pdn(text)?;
        let pdn = games.into_iter().next().ok_or(ImportError::Empty)?;
        if pdn.moves.is_empty() && pdn.tag("FEN").is_none() {
            return Err(ImportError::Empty);
        }
        let variant = match pdn.tag("GameType") {
            Some(gt) => gt
                .split(',')
                .next()
                .and_then(|n| n.trim().parse().ok())
                .and_then(Variant::from_pdn_game_type)
                .ok_or_else(|| ImportError::GameType(gt.to_owned()))?,
            None => variant,
        };
        let game = Game::replay(Rules::new(variant), pdn.tag("FEN"), &pdn.moves)?;
        (game, variant)
    };
    let pieces = game.pieces();
    if [Color::White, Color::Black]
        .iter()
        .any(|&c| !pieces.iter().any(|(_, p)| p.color == c))
    {
        return Err(ImportError::NoPieces);
    }
    if game.legal_moves().is_empty() {
        return Err(ImportError::NoMoves);
    }
    let fen = game.fen();
    let rules = Rules::new(variant);
    let initial = fen == Game::new(rules).fen();
    let board = GameState::new(&GameRules::Draughts(rules), 0, Some(&fen))
        .map_err(|e| ImportError::Fen(e.to_string()))?
        .board();
    Ok(Imported {
        variant,
        to_move: game.side_to_move(),
        plies: game.ply(),
        initial,
        fen,
        board,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fen_is_read_on_the_board_asked_for() {
        let got = import("W:W31,32:B1,K2", Variant::International).unwrap();
        assert_eq!(got.variant, Variant::International);
        assert_eq!(got.to_move, Color::White);
        assert_eq!(got.plies, 0);
        assert!(!got.initial);
        let quoted = import("\"B:W28:B19.\"", Variant::Brazilian).unwrap();
        assert_eq!(quoted.to_move, Color::Black);
        assert!(matches!(
            import("W:W51:B1", Variant::International),
            Err(ImportError::Fen(_))
        ));
        assert!(matches!(
            import("W:W33:B1", Variant::Brazilian),
            Err(ImportError::Fen(_))
        ));
    }

    #[test]
    fn a_pdn_game_is_replayed_on_its_game_type() {
        let text = "[GameType \"26\"]\n1. 22-18 11-15 2. 18x11 8x15 *";
        let got = import(text, Variant::International).unwrap();
        assert_eq!(got.variant, Variant::Brazilian);
        assert_eq!(got.plies, 4);
        assert_eq!(got.to_move, Color::White);
        let start = import(
            "[Event \"x\"]\n[FEN \"W:W31:B19\"] *",
            Variant::International,
        );
        assert_eq!(start.unwrap().fen, "W:W31:B19");
    }

    #[test]
    fn bad_texts_are_refused_with_their_reason() {
        let cases = [
            ("", "empty"),
            ("   \n", "empty"),
            ("[Event \"x\"] *", "empty"),
            ("[Event \"x", "tag"),
            ("1. 32-28 {never closed", "unterminated"),
            ("[GameType \"21\"] 1. 11-15 *", "game_type"),
            ("1. 32-28 32-28 *", "move"),
            ("[FEN \"W:W99:B1\"] 1. 32-28 *", "fen"),
            ("W:W31:B", "no_pieces"),
            ("W:W1:B19", "no_moves"),
        ];
        for (text, reason) in cases {
            let err = import(text, Variant::International).unwrap_err();
            assert_eq!(err.detail()["reason"], reason, "{text:?}: {err}");
        }
        let long = "1. 32-28 ".repeat(2000);
        assert_eq!(
            import(&long, Variant::International).unwrap_err(),
            ImportError::TooLong
        );
        let moved = import("1. 32-28 32-28 *", Variant::International).unwrap_err();
        assert_eq!(
            moved.detail(),
            json!({"reason": "move", "ply": 2, "move": "32-28"})
        );
    }
}
