//! A game in progress: the position, the moves played and the result, with every draw rule
//! tracked (RULES.md part 2). [`GameOf`] is generic over the board; [`Game`] picks the board at
//! run time from [`Rules::variant`] and speaks in square numbers and notation, for the server.

use std::fmt;

use crate::board::{Board, Brazilian, Canadian, Color, International, Square, Variant};
use crate::draw::{DrawCounters, DrawReason, Outcome, Rules, WinReason};
use crate::fen::{parse_fen, to_fen, ParseFenError};
use crate::moves::{Move, MoveList};
use crate::notation::{MoveInfo, ParseMoveError};
use crate::pdn::ParsePdnError;
use crate::position::{Piece, Position};

/// Why a move or an action was refused. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game is over.
    GameOver,
    /// The move is not legal in the current position.
    IllegalMove,
    /// The notation was malformed, illegal or ambiguous.
    Notation(ParseMoveError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => f.write_str("the game is over"),
            PlayError::IllegalMove => f.write_str("illegal move"),
            PlayError::Notation(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<ParseMoveError> for PlayError {
    fn from(e: ParseMoveError) -> Self {
        PlayError::Notation(e)
    }
}

/// A game on board `B`.
#[derive(Clone, Debug)]
pub struct GameOf<B: Board> {
    rules: Rules,
    start: Position<B>,
    position: Position<B>,
    hash: u64,
    moves: Vec<Move<B>>,
    /// Hashes of the positions since the last irreversible move, the current one last.
    since_irreversible: Vec<u64>,
    counters: DrawCounters,
    outcome: Option<Outcome>,
}

impl<B: Board> GameOf<B> {
    /// A game from the starting position. `rules.variant` is ignored: the board is `B`.
    pub fn new(rules: Rules) -> Self {
        Self::from_position(rules, Position::initial())
    }

    /// A game from `start`.
    pub fn from_position(rules: Rules, start: Position<B>) -> Self {
        let rules = Rules {
            variant: B::VARIANT,
            ..rules
        };
        let hash = start.zobrist();
        let mut game = GameOf {
            rules,
            start,
            position: start,
            hash,
            moves: Vec::new(),
            since_irreversible: vec![hash],
            counters: DrawCounters::new(&start),
            outcome: None,
        };
        game.outcome = game.automatic_outcome();
        game
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position<B> {
        &self.position
    }

    /// The starting position.
    pub fn start(&self) -> &Position<B> {
        &self.start
    }

    /// The current position's Zobrist hash (kept incrementally).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move<B>] {
        &self.moves
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The counters of the move-count draw rules in the current position (what a search needs
    /// to see those draws coming).
    pub fn counters(&self) -> DrawCounters {
        self.counters
    }

    /// The legal moves, none once the game is over.
    pub fn legal_moves(&self) -> MoveList<B> {
        if self.outcome.is_some() {
            return MoveList::new();
        }
        self.position.legal_moves()
    }

    /// Plays `mv`.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] or [`PlayError::IllegalMove`]; the game is then unchanged.
    pub fn play(&mut self, mv: Move<B>) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        if !self.position.is_legal(mv) {
            return Err(PlayError::IllegalMove);
        }
        self.play_legal(mv);
        Ok(())
    }

    /// Plays the move written `notation` and returns it.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] or [`PlayError::Notation`]; the game is then unchanged.
    pub fn play_notation(&mut self, notation: &str) -> Result<Move<B>, PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        let mv = self.position.parse_move(notation)?;
        self.play_legal(mv);
        Ok(mv)
    }

    fn play_legal(&mut self, mv: Move<B>) {
        let before = self.position;
        self.hash ^= before.zobrist_delta(mv);
        self.position = before.play_unchecked(mv);
        self.moves.push(mv);
        if !before.is_reversible(mv) {
            self.since_irreversible.clear();
        }
        self.since_irreversible.push(self.hash);
        self.counters.update(&before, mv, &self.position);
        self.outcome = self.automatic_outcome();
    }

    /// The result the rules impose on the current position, if any: a loss for a side to move
    /// with no move, else a draw rule.
    fn automatic_outcome(&self) -> Option<Outcome> {
        if !self.position.has_any_move() {
            return Some(Outcome::Win {
                winner: self.position.side_to_move().opponent(),
                reason: WinReason::NoMoves,
            });
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::Draw {
                reason: DrawReason::ThreefoldRepetition,
            });
        }
        self.counters
            .draw(&self.rules)
            .map(|reason| Outcome::Draw { reason })
    }

    /// The hashes of the positions since the last irreversible move (man move or capture), the
    /// current one last: what a search needs to see repetitions coming.
    pub fn reversible_history(&self) -> &[u64] {
        &self.since_irreversible
    }

    /// How many times the current position (same side to move) has occurred, counting now.
    pub fn repetitions(&self) -> usize {
        self.since_irreversible
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&h| h == self.hash)
            .count()
    }

    /// `color` resigns: the other side wins.
    ///
    /// # Errors
    /// [`PlayError::GameOver`].
    pub fn resign(&mut self, color: Color) -> Result<(), PlayError> {
        self.end(Outcome::Win {
            winner: color.opponent(),
            reason: WinReason::Resignation,
        })
    }

    /// The players agree to a draw.
    ///
    /// # Errors
    /// [`PlayError::GameOver`].
    pub fn agree_draw(&mut self) -> Result<(), PlayError> {
        self.end(Outcome::Draw {
            reason: DrawReason::Agreement,
        })
    }

    fn end(&mut self, outcome: Outcome) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        self.outcome = Some(outcome);
        Ok(())
    }

    /// Every move played, with its path and notation, replaying from the start.
    pub fn move_infos(&self) -> Vec<MoveInfo> {
        let mut pos = self.start;
        self.moves
            .iter()
            .map(|&mv| {
                let info = pos.move_info(mv);
                pos = pos.play_unchecked(mv);
                info
            })
            .collect()
    }
}

/// A game whose board is chosen at run time: the server's type. Square numbers are FMJD numbers
/// of the game's board; moves come and go as notation and [`MoveInfo`].
///
/// ```
/// use draughts::{Game, Rules, Variant};
///
/// let mut game = Game::new(Rules::new(Variant::International));
/// assert_eq!(game.legal_moves().len(), 9);
/// game.play_notation("32-28").unwrap();
/// assert!(game.play_notation("32-28").is_err());
/// assert_eq!(game.fen(), "B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20");
/// ```
#[derive(Clone, Debug)]
pub enum Game {
    /// 8×8.
    Brazilian(GameOf<Brazilian>),
    /// 10×10.
    International(GameOf<International>),
    /// 12×12.
    Canadian(GameOf<Canadian>),
}

macro_rules! each {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            Game::Brazilian($g) => $body,
            Game::International($g) => $body,
            Game::Canadian($g) => $body,
        }
    };
}

impl Game {
    /// A game from the starting position of `rules.variant`.
    pub fn new(rules: Rules) -> Self {
        match rules.variant {
            Variant::Brazilian => Game::Brazilian(GameOf::new(rules)),
            Variant::International => Game::International(GameOf::new(rules)),
            Variant::Canadian => Game::Canadian(GameOf::new(rules)),
        }
    }

    /// A game from a FEN position on `rules.variant`'s board.
    ///
    /// # Errors
    /// [`ParseFenError`] if the FEN does not describe a position of that board.
    pub fn from_fen(rules: Rules, fen: &str) -> Result<Self, ParseFenError> {
        Ok(match rules.variant {
            Variant::Brazilian => Game::Brazilian(GameOf::from_position(rules, parse_fen(fen)?)),
            Variant::International => {
                Game::International(GameOf::from_position(rules, parse_fen(fen)?))
            }
            Variant::Canadian => Game::Canadian(GameOf::from_position(rules, parse_fen(fen)?)),
        })
    }

    /// Replays `moves` (notation) from `start_fen` (the usual start if `None`): how a stored
    /// game comes back.
    ///
    /// # Errors
    /// [`ParsePdnError::Fen`] or [`ParsePdnError::Move`] (with the ply, from 1).
    pub fn replay<S: AsRef<str>>(
        rules: Rules,
        start_fen: Option<&str>,
        moves: &[S],
    ) -> Result<Self, ParsePdnError> {
        let mut game = match start_fen {
            Some(fen) => Game::from_fen(rules, fen).map_err(ParsePdnError::Fen)?,
            None => Game::new(rules),
        };
        for (i, text) in moves.iter().enumerate() {
            game.play_notation(text.as_ref())
                .map_err(|error| ParsePdnError::Move {
                    ply: i + 1,
                    text: text.as_ref().to_string(),
                    error,
                })?;
        }
        Ok(game)
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        each!(self, g => g.rules())
    }

    /// The board size.
    pub fn variant(&self) -> Variant {
        self.rules().variant
    }

    /// The side to move (also after the end: the side that would move).
    pub fn side_to_move(&self) -> Color {
        each!(self, g => g.position().side_to_move())
    }

    /// The current position in FEN.
    pub fn fen(&self) -> String {
        each!(self, g => to_fen(g.position()))
    }

    /// The starting position in FEN.
    pub fn start_fen(&self) -> String {
        each!(self, g => to_fen(g.start()))
    }

    /// Whether the game started from the variant's usual starting position.
    pub fn starts_from_initial(&self) -> bool {
        each!(self, g => *g.start() == Position::initial())
    }

    /// Every piece with its square, by increasing square number.
    pub fn pieces(&self) -> Vec<(Square, Piece)> {
        each!(self, g => g.position().iter().collect())
    }

    /// The current position's Zobrist hash.
    pub fn hash(&self) -> u64 {
        each!(self, g => g.hash())
    }

    /// Number of moves (plies) played.
    pub fn ply(&self) -> usize {
        each!(self, g => g.moves().len())
    }

    /// The legal moves with their paths, captures and notation; none once the game is over.
    pub fn legal_moves(&self) -> Vec<MoveInfo> {
        each!(self, g => {
            let pos = g.position();
            g.legal_moves().iter().map(|&mv| pos.move_info(mv)).collect()
        })
    }

    /// Plays the move written `notation` (every landing square, or the unambiguous short form)
    /// and returns it in full.
    ///
    /// # Errors
    /// [`PlayError`]; the game is then unchanged.
    pub fn play_notation(&mut self, notation: &str) -> Result<MoveInfo, PlayError> {
        each!(self, g => {
            let before = *g.position();
            let mv = g.play_notation(notation)?;
            Ok(before.move_info(mv))
        })
    }

    /// Every move played, in order, with paths and notation.
    pub fn moves(&self) -> Vec<MoveInfo> {
        each!(self, g => g.move_infos())
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        each!(self, g => g.outcome())
    }

    /// `color` resigns.
    ///
    /// # Errors
    /// [`PlayError::GameOver`].
    pub fn resign(&mut self, color: Color) -> Result<(), PlayError> {
        each!(self, g => g.resign(color))
    }

    /// The players agree to a draw.
    ///
    /// # Errors
    /// [`PlayError::GameOver`].
    pub fn agree_draw(&mut self) -> Result<(), PlayError> {
        each!(self, g => g.agree_draw())
    }
}
