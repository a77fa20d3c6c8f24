//! The simple Chinese checkers player: Facile plays a random legal move; the other levels play
//! the move that most reduces the distance to the destination (to the tip of the destination
//! camp), preferring to bring up the pieces left furthest behind. Issue 5 replaces this with a
//! real search.

use chinese_checkers::{Game, Move};

use crate::{pick_best, Level, Limits, Rng};

/// The move to play in `game` for the side to move, or `None` if the game is over, there is no
/// legal move, or the search was cancelled.
pub fn choose(game: &Game, level: Level, limits: &Limits) -> Option<Move> {
    if game.is_over() || limits.cancelled() {
        return None;
    }
    let moves = game.legal_moves_vec();
    let mut rng = Rng::new(limits.seed ^ game.hash());
    if moves.is_empty() {
        return None;
    }
    if level == Level::Facile {
        return Some(moves[rng.below(moves.len())]);
    }
    let scores: Vec<i64> = moves.iter().map(|&mv| score(game, mv)).collect();
    pick_best(&scores, &mut rng).map(|i| moves[i])
}

/// Distance gained towards the destination (×100), then how far behind the piece was.
fn score(game: &Game, mv: Move) -> i64 {
    let Some(target) = game
        .piece_at(mv.from)
        .and_then(|p| p.colour)
        .map(|c| c.opposite().tip())
    else {
        return i64::MIN;
    };
    let before = i64::from(mv.from.distance(target));
    let after = i64::from(mv.to.distance(target));
    (before - after) * 100 + before
}

#[cfg(test)]
mod tests {
    use super::*;
    use chinese_checkers::{Rules, Seat};

    fn limits(seed: u64) -> Limits {
        Limits {
            seed,
            ..Limits::default()
        }
    }

    #[test]
    fn every_level_plays_a_legal_move_and_is_deterministic() {
        let game = Game::new(Rules::default(), Seat(0)).unwrap();
        for level in Level::ALL {
            let a = choose(&game, level, &limits(3)).unwrap();
            assert!(game.legal_moves_vec().contains(&a));
            assert_eq!(Some(a), choose(&game, level, &limits(3)));
        }
    }

    #[test]
    fn greedy_players_jump_forward_when_they_can() {
        let game = Game::new(Rules::default(), Seat(0)).unwrap();
        let mv = choose(&game, Level::Normal, &limits(1)).unwrap();
        let tip = game
            .piece_at(mv.from)
            .unwrap()
            .colour
            .unwrap()
            .opposite()
            .tip();
        let best = game
            .legal_moves_vec()
            .iter()
            .map(|m| i64::from(m.from.distance(tip)) - i64::from(m.to.distance(tip)))
            .max();
        assert_eq!(
            Some(i64::from(mv.from.distance(tip)) - i64::from(mv.to.distance(tip))),
            best
        );
    }

    #[test]
    fn a_cancelled_search_returns_nothing() {
        let game = Game::new(Rules::default(), Seat(0)).unwrap();
        let l = limits(1);
        l.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(choose(&game, Level::Expert, &l), None);
    }

    #[test]
    fn two_greedy_players_finish_a_game() {
        let mut game = Game::new(Rules::default(), Seat(0)).unwrap();
        let mut plies = 0;
        while !game.is_over() {
            let mv = choose(&game, Level::Normal, &limits(plies)).unwrap();
            game.play(mv).unwrap();
            plies += 1;
        }
        assert!(game.outcome().is_some());
    }
}
