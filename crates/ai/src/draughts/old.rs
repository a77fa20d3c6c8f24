//! The simple draughts player: Facile plays a random legal move; the other levels look one move
//! ahead and at every answer (captures and promotions count through the material, a piece left
//! hanging is seen in the answers): material after the best answer, men 100, kings 300.
//! Issue 5 replaces this with a real search.

use draughts::{Color, Game, MoveInfo, Role};

use crate::{pick_best, Level, Limits, Rng};

const MAN: i64 = 100;
const KING: i64 = 300;

/// The move to play for the side to move, or `None` if there is none or the search was
/// cancelled.
pub fn choose(game: &Game, level: Level, limits: &Limits) -> Option<MoveInfo> {
    if game.outcome().is_some() || limits.cancelled() {
        return None;
    }
    let moves = game.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let mut rng = Rng::new(limits.seed ^ game.hash());
    if level == Level::Facile {
        return Some(moves[rng.below(moves.len())].clone());
    }
    let me = game.side_to_move();
    let mut scores = Vec::with_capacity(moves.len());
    for mv in &moves {
        if limits.cancelled() {
            return None;
        }
        scores.push(score_after(game, mv, me));
    }
    pick_best(&scores, &mut rng).map(|i| moves[i].clone())
}

/// Material balance for `me` after `mv` and the opponent's best answer.
fn score_after(game: &Game, mv: &MoveInfo, me: Color) -> i64 {
    let mut after = game.clone();
    if after.play_notation(&mv.notation).is_err() {
        return i64::MIN;
    }
    if let Some(outcome) = after.outcome() {
        return match outcome.winner() {
            Some(w) if w == me => 1_000_000,
            Some(_) => -1_000_000,
            None => 0,
        };
    }
    after
        .legal_moves()
        .iter()
        .map(|answer| {
            let mut reply = after.clone();
            match reply.play_notation(&answer.notation) {
                Ok(_) => material(&reply, me),
                Err(_) => i64::MAX,
            }
        })
        .min()
        .unwrap_or_else(|| material(&after, me))
}

/// Material of `me` minus the opponent's.
pub fn material(game: &Game, me: Color) -> i64 {
    game.pieces()
        .iter()
        .map(|(_, p)| {
            let value = if p.role == Role::King { KING } else { MAN };
            if p.color == me {
                value
            } else {
                -value
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::{Rules, Variant};

    fn limits(seed: u64) -> Limits {
        Limits {
            seed,
            ..Limits::default()
        }
    }

    #[test]
    fn every_level_plays_a_legal_move_and_is_deterministic() {
        let game = Game::new(Rules::new(Variant::International));
        for level in Level::ALL {
            let a = choose(&game, level, &limits(5)).unwrap();
            assert!(game.legal_moves().contains(&a));
            assert_eq!(Some(a), choose(&game, level, &limits(5)));
        }
    }

    #[test]
    fn the_greedy_player_takes_a_free_piece() {
        // White man on 28 can take the black man on 23 (landing on 19); nothing recaptures.
        let game = Game::from_fen(Rules::new(Variant::International), "W:W28,46:B23,5").unwrap();
        let mv = choose(&game, Level::Normal, &limits(0)).unwrap();
        assert_eq!(mv.captures.len(), 1, "{mv:?}");
    }

    #[test]
    fn the_greedy_player_does_not_hang_a_piece() {
        // 32-28 would be taken by 23x32; 31-27 or 31-26 ... are safe.
        let game = Game::from_fen(Rules::new(Variant::International), "W:W32,31:B23,3").unwrap();
        let mv = choose(&game, Level::Normal, &limits(0)).unwrap();
        assert_ne!(mv.notation, "32-28", "{mv:?}");
    }

    #[test]
    fn two_simple_players_finish_a_game() {
        let mut game = Game::new(Rules::new(Variant::Brazilian));
        let mut n = 0;
        while game.outcome().is_none() {
            let mv = choose(
                &game,
                if n % 2 == 0 {
                    Level::Normal
                } else {
                    Level::Facile
                },
                &limits(n),
            )
            .unwrap();
            game.play_notation(&mv.notation).unwrap();
            n += 1;
            assert!(n < 5000);
        }
    }
}
