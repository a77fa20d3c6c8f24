//! A CPU player's answer to a draw offer (RULES.md part 2: a draw by agreement). The CPU asks its
//! evaluation, through a short search of a fixed size so that the answer is quick and the same on
//! every machine: it accepts a position that is dead drawn — level, and simplified to kings on
//! both sides or a handful of pieces — or one it is clearly losing, and declines everything else
//! (a level middle game still has play in it).

use std::time::Duration;

use draughts::{Color, Game, Role};

use super::analyse;
use crate::{Budget, Level, Limits};

/// Within this many hundredths of a man of 0 (for the CPU), a position is level.
pub const LEVEL_MARGIN: i32 = 20;
/// At or below this score (for the CPU), the CPU is clearly worse and takes the draw.
pub const LOST_SCORE: i32 = -150;
/// At most this many pieces on the board, a level position counts as simplified.
pub const FEW_PIECES: usize = 6;
/// Nodes of the judgement's search (a few milliseconds).
pub const NODES: u64 = 20_000;
/// A safety cap on its time, for a very slow machine.
const TIME_CAP: Duration = Duration::from_millis(250);

/// Whether the CPU playing `cpu` accepts a draw offered in `game` (see the module doc). `false`
/// when the game is over or has no legal move.
pub fn accepts_draw(game: &Game, cpu: Color) -> bool {
    let limits = Limits {
        time: TIME_CAP,
        seed: 0,
        ..Limits::default()
    };
    let budget = Budget {
        nodes: Some(NODES),
        depth: Some(12),
    };
    let Some(analysis) = analyse(game, Level::Expert, &limits, &budget) else {
        return false;
    };
    let score = if game.side_to_move() == cpu {
        analysis.score
    } else {
        -analysis.score
    };
    score <= LOST_SCORE || (score.abs() <= LEVEL_MARGIN && simplified(game))
}

/// Kings on both sides, or few pieces left.
fn simplified(game: &Game) -> bool {
    let pieces = game.pieces();
    let has_king = |c: Color| {
        pieces
            .iter()
            .any(|(_, p)| p.color == c && p.role == Role::King)
    };
    pieces.len() <= FEW_PIECES || (has_king(Color::White) && has_king(Color::Black))
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::{Rules, Variant};

    fn game(fen: &str) -> Game {
        Game::from_fen(Rules::new(Variant::International), fen).unwrap()
    }

    #[test]
    fn a_level_opening_still_has_play_in_it_and_is_declined() {
        let start = Game::new(Rules::new(Variant::International));
        assert!(!accepts_draw(&start, Color::Black));
        assert!(!accepts_draw(&start, Color::White));
    }

    #[test]
    fn king_against_king_is_dead_drawn_and_accepted() {
        let g = game("W:WK46:BK3");
        assert!(accepts_draw(&g, Color::White));
        assert!(accepts_draw(&g, Color::Black));
    }

    #[test]
    fn the_winning_side_declines_and_the_losing_side_accepts() {
        // White has three kings against a lone black man.
        let g = game("W:WK46,K47,K48:B5");
        assert!(!accepts_draw(&g, Color::White));
        assert!(accepts_draw(&g, Color::Black));
    }

    #[test]
    fn a_finished_game_is_not_judged() {
        // Black has no piece left: White has won.
        let g = game("B:WK46:B");
        assert!(!accepts_draw(&g, Color::White));
    }
}
