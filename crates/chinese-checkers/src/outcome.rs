//! How a game ends (RULES.md 1.4): [`Outcome`], [`Ending`], and the [`Events`] a move or a
//! resignation reports.

use serde::{Deserialize, Serialize};

use crate::rules::Seat;

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// Every place was decided by play: all players but one finished (the last takes the last
    /// place), or with 2 players one finished.
    Finished,
    /// « Jouer jusqu'au bout » off (3+ players): the first finisher ended the game; the others are
    /// ranked by the stagnation ranking.
    FirstFinished,
    /// The move limit was reached: the unfinished players share the best remaining place.
    MoveLimit,
    /// No unfinished player improved for the stagnation limit; they are ranked by pieces in their
    /// destination, then by remaining distance.
    Stagnation,
    /// No unfinished player had a legal move; ranked as for stagnation.
    Blocked,
    /// Resignations left at most one player (2 players: the other wins).
    Resignation,
    /// Abandoned (45 days without a move): no winner, no loser.
    Abandoned,
    /// Stopped because no person was left in play (the server does not let CPU players play on
    /// alone): the players still playing are ranked as for stagnation.
    Stopped,
}

/// The result of a finished game: why it ended and every seat's place (1 = first; equal places are
/// shared). An abandoned game has no places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    ending: Ending,
    players: u8,
    places: [u8; 6],
}

impl Outcome {
    pub(crate) fn new(ending: Ending, players: u8, places: [u8; 6]) -> Outcome {
        Outcome {
            ending,
            players,
            places,
        }
    }

    /// Why the game ended.
    pub fn ending(&self) -> Ending {
        self.ending
    }

    /// Every seat's place, in seat order, or `None` for an abandoned game.
    pub fn places(&self) -> Option<&[u8]> {
        (self.ending != Ending::Abandoned).then(|| &self.places[..usize::from(self.players)])
    }

    /// The place of `seat` (1 = first), or `None` for an abandoned game or a seat that does not
    /// exist.
    pub fn place(&self, seat: Seat) -> Option<u8> {
        self.places()?.get(seat.index()).copied()
    }

    /// The seats in first place.
    pub fn winners(&self) -> Vec<Seat> {
        let places = self.places().unwrap_or(&[]);
        (0..self.players)
            .filter(|&s| places.get(usize::from(s)) == Some(&1))
            .map(Seat)
            .collect()
    }

    /// Whether every seat shares the first place (or the game was abandoned): nobody won.
    pub fn is_draw(&self) -> bool {
        match self.places() {
            None => true,
            Some(p) => p.iter().all(|&x| x == 1),
        }
    }
}

#[derive(Serialize, Deserialize)]
struct OutcomeForm {
    ending: Ending,
    places: Option<Vec<u8>>,
}

impl Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        OutcomeForm {
            ending: self.ending,
            places: self.places().map(<[u8]>::to_vec),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Outcome {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        use serde::de::Error;
        let form = OutcomeForm::deserialize(d)?;
        let places = form.places.unwrap_or_default();
        if form.ending != Ending::Abandoned && !(2..=6).contains(&places.len()) {
            return Err(D::Error::custom(
                "an outcome needs a place for each of 2 to 6 seats",
            ));
        }
        if places
            .iter()
            .any(|&p| p == 0 || usize::from(p) > places.len())
        {
            return Err(D::Error::custom("places go from 1 to the number of seats"));
        }
        let mut array = [0u8; 6];
        array[..places.len().min(6)].copy_from_slice(&places[..places.len().min(6)]);
        Ok(Outcome {
            ending: form.ending,
            players: places.len() as u8,
            places: array,
        })
    }
}

/// A player who finished, with the place they took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finished {
    /// The seat that finished.
    pub seat: Seat,
    /// Its place (1 = first).
    pub place: u8,
}

/// What happened as a consequence of a move or a resignation, for the server to announce.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Events {
    /// With the swap rule: whether an opponent's piece was swapped onto the start hole.
    pub swapped: bool,
    /// Players who finished with this move (with anti-blocking, another player's destination can be
    /// completed by the mover), in turn order from the mover.
    pub finished: Vec<Finished>,
    /// Seats whose turn was then passed automatically (no legal move), in order.
    pub passes: Vec<Seat>,
    /// The outcome, if the game ended.
    pub outcome: Option<Outcome>,
}
