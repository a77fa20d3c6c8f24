//! What every run does first: rooms created, joined and started over HTTP, a few at a time.

use std::sync::Arc;

use futures_util::{stream, StreamExt, TryStreamExt};

use crate::api::{Api, GameKind, SeatKey};
use crate::error::Result;
use crate::player::{Link, Player, Style};
use crate::rng::Rng;
use crate::stats::Recorder;

/// Room set-ups in flight at once.
pub(crate) const SETUP_CONCURRENCY: usize = 16;

/// `per_kind` started 2-player games of each of `kinds`.
pub(crate) async fn new_games(
    api: &Api,
    kinds: &[GameKind],
    per_kind: usize,
) -> Result<Vec<(GameKind, [SeatKey; 2])>> {
    let wanted = kinds
        .iter()
        .flat_map(|&k| std::iter::repeat(k).take(per_kind));
    stream::iter(wanted)
        .map(|kind| async move { Ok((kind, api.new_game(kind).await?)) })
        .buffer_unordered(SETUP_CONCURRENCY)
        .try_collect()
        .await
}

/// The two players of each game, with the games' links.
pub(crate) fn players(
    games: Vec<(GameKind, [SeatKey; 2])>,
    rec: &Arc<Recorder>,
    style: Style,
    rng: &mut Rng,
) -> (Vec<Arc<Link>>, Vec<Player>) {
    let mut links = Vec::with_capacity(games.len());
    let mut players = Vec::with_capacity(2 * games.len());
    for (kind, seats) in games {
        let link = Link::new(kind, seats[0].clone());
        for key in seats {
            players.push(Player::new(
                key,
                link.clone(),
                rec.clone(),
                style,
                rng.fork(),
            ));
        }
        links.push(link);
    }
    (links, players)
}

/// The game kinds of a comma-separated list (`cc,draughts`).
///
/// # Errors
/// An unknown name, or an empty list.
pub fn parse_kinds(list: &str) -> Result<Vec<GameKind>> {
    let mut kinds = list
        .split(',')
        .map(|k| GameKind::from_name(k.trim()))
        .collect::<Result<Vec<_>>>()?;
    kinds.sort();
    kinds.dedup();
    Ok(kinds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_read_from_a_list() {
        assert_eq!(
            parse_kinds("draughts, cc,cc").unwrap(),
            vec![GameKind::Cc, GameKind::Draughts]
        );
        assert!(parse_kinds("cc,go").is_err());
        assert!(parse_kinds("").is_err());
    }
}
