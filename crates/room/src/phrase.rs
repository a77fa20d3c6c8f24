//! Preset phrases (issue 20, « Conduite sans comptes »; docs/protocol.md "Phrases"): the only
//! words strangers exchange in a room. No free text: a seated person sends a phrase's id, every
//! connection of the room receives the id and shows it in its reader's language. A seat may say
//! at most [`BURST`] phrases in [`BURST_MS`] and [`PER_MINUTE`] in a minute ([`Budget`]).

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A preset phrase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phrase {
    /// « Bonjour ».
    Hello,
    /// « Bonne partie ».
    GoodGame,
    /// « Bien joué ».
    WellPlayed,
    /// « Merci ».
    Thanks,
    /// « Oups ».
    Oops,
    /// « Revanche ? ».
    Rematch,
}

impl Phrase {
    /// Every phrase, in the order the client offers them.
    pub const ALL: [Self; 6] = [
        Self::Hello,
        Self::GoodGame,
        Self::WellPlayed,
        Self::Thanks,
        Self::Oops,
        Self::Rematch,
    ];

    /// The protocol's id.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hello => "hello",
            Self::GoodGame => "good_game",
            Self::WellPlayed => "well_played",
            Self::Thanks => "thanks",
            Self::Oops => "oops",
            Self::Rematch => "rematch",
        }
    }
}

impl fmt::Display for Phrase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A phrase id that is none of [`Phrase::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPhrase;

impl FromStr for Phrase {
    type Err = UnknownPhrase;

    fn from_str(s: &str) -> Result<Self, UnknownPhrase> {
        Self::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or(UnknownPhrase)
    }
}

/// Phrases a seat may say in [`BURST_MS`].
pub const BURST: usize = 3;
/// See [`BURST`].
pub const BURST_MS: i64 = 10_000;
/// Phrases a seat may say in a minute.
pub const PER_MINUTE: usize = 10;
const MINUTE_MS: i64 = 60_000;

/// What one seat has said lately: the times of its last phrases (at most [`PER_MINUTE`]).
#[derive(Clone, Debug, Default)]
pub struct Budget {
    said: VecDeque<i64>,
}

impl Budget {
    /// Counts a phrase said at `now` (Unix ms) if the seat is within both limits.
    ///
    /// # Errors
    /// The milliseconds to wait until a phrase is allowed again; nothing is counted.
    pub fn take(&mut self, now: i64) -> Result<(), i64> {
        while self.said.front().is_some_and(|&t| t <= now - MINUTE_MS) {
            self.said.pop_front();
        }
        if self.said.len() >= PER_MINUTE {
            return Err(self.said[self.said.len() - PER_MINUTE] + MINUTE_MS - now);
        }
        let recent = self.said.iter().filter(|&&t| t > now - BURST_MS).count();
        if recent >= BURST {
            let oldest = self.said[self.said.len() - BURST];
            return Err(oldest + BURST_MS - now);
        }
        self.said.push_back(now);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_phrase_reads_back_from_its_id_and_nothing_else_does() {
        for p in Phrase::ALL {
            assert_eq!(p.as_str().parse::<Phrase>(), Ok(p));
            assert_eq!(serde_json::to_value(p).unwrap(), p.as_str());
        }
        for bad in ["", "Hello", "hello ", "insult", "bonjour"] {
            assert_eq!(bad.parse::<Phrase>(), Err(UnknownPhrase), "{bad:?}");
        }
    }

    #[test]
    fn three_phrases_in_ten_seconds_then_a_wait() {
        let mut b = Budget::default();
        for t in [0, 1_000, 2_000] {
            assert_eq!(b.take(t), Ok(()));
        }
        assert_eq!(b.take(3_000), Err(7_000));
        // Refused phrases are not counted: the wait does not grow.
        assert_eq!(b.take(9_999), Err(1));
        assert_eq!(b.take(10_000), Ok(()));
    }

    #[test]
    fn ten_phrases_a_minute_at_most() {
        let mut b = Budget::default();
        // One every 4 s stays under the burst limit: the minute's limit stops the eleventh.
        for n in 0..10 {
            assert_eq!(b.take(n * 4_000), Ok(()), "phrase {n}");
        }
        assert_eq!(b.take(40_000), Err(20_000));
        assert_eq!(b.take(60_000), Ok(()));
    }
}
