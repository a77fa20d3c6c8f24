//! Room settings (RULES.md 1.2, 1.4–1.6): [`Rules`], their validation and the seating of
//! RULES.md 1.2.

use serde::{Deserialize, Serialize};

use crate::cell::Camp;

/// A seat at the table, 0-based in turn order (seats are ordered by increasing first camp).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat index as a `usize`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// « Type de règles » (RULES.md 1.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleSet {
    /// 10 (or 15) pieces, no king, 2–6 players.
    #[default]
    International,
    /// 2–3 players, 15 pieces of which one is a king; no landing in other players' camps.
    Japanese,
}

/// What the camps nobody starts from nor goes to hold (RULES.md 1.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnusedCamps {
    /// Empty holes (default).
    #[default]
    Empty,
    /// Inert pieces that never move and belong to nobody (the 10-hole points).
    Filled,
}

/// Every setting of a game room that the rules depend on. The defaults are those of RULES.md:
/// international rules, 2 players, 1 set, 10 pieces, anti-blocking on, play to the end on, 200 moves
/// per player, stagnation after 30 rounds, 5 players allowed, every option of 1.5 off.
///
/// The serde form uses these field names; missing fields take their defaults, so `{"players": 3}`
/// is a complete value. Unknown fields are refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Number of players, 2..=6.
    pub players: u8,
    /// Sets (camps) each player controls: 1, or 2–3 with 2 players, 2 with 3 players.
    pub sets: u8,
    /// Pieces per set: 10, or 15 with 2–3 players and one set each (always 15 in Japanese rules).
    pub pieces: u8,
    /// International or Japanese.
    pub rule_set: RuleSet,
    /// Empty or filled unused camps.
    pub unused_camps: UnusedCamps,
    /// « Antiblocage » (1.4): a full destination with at least one own piece finishes.
    pub anti_blocking: bool,
    /// « Jouer jusqu'au bout » (1.4): from 3 players, go on after the first finisher.
    pub play_to_the_end: bool,
    /// Turns per player after which the unfinished players draw (1.4); 0 means no limit.
    pub move_limit: u16,
    /// Rounds without progress after which the game ends (1.4); 0 means never.
    pub stagnation_rounds: u16,
    /// Whether the room allows 5 players (RULES.md 1.2).
    pub allow_five_players: bool,
    /// « Changer qui commence »: each new game in the room starts with the next seat.
    pub rotate_first_player: bool,
    /// The first player is drawn at random (by the server) instead.
    pub random_first_player: bool,
    /// 1.5: a piece may end its move only in its start camp, the hexagon or its destination.
    pub no_resting_in_foreign_camps: bool,
    /// 1.5: a player whose full start camp blocks the player going there must move out of it.
    pub forced_exit: bool,
    /// 1.5: a piece in its destination camp may only move inside it.
    pub no_leaving_destination: bool,
    /// 1.5 (Masters, 2002): a piece may swap with an opponent's piece in its destination.
    pub swap_rule: bool,
    /// 1.5: jump over a single piece at any distance, landing as far beyond it.
    pub long_jumps: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            players: 2,
            sets: 1,
            pieces: 10,
            rule_set: RuleSet::International,
            unused_camps: UnusedCamps::Empty,
            anti_blocking: true,
            play_to_the_end: true,
            move_limit: 200,
            stagnation_rounds: 30,
            allow_five_players: true,
            rotate_first_player: true,
            random_first_player: false,
            no_resting_in_foreign_camps: false,
            forced_exit: false,
            no_leaving_destination: false,
            swap_rule: false,
            long_jumps: false,
        }
    }
}

/// Why a [`Rules`] value cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// Chinese checkers is for 2 to 6 players.
    PlayerCount(u8),
    /// The room forbids 5 players.
    FivePlayersForbidden,
    /// More sets per player than the star has camps for (RULES.md 1.2).
    TooManySets {
        /// Players in the room.
        players: u8,
        /// Sets asked for.
        sets: u8,
    },
    /// Pieces per set must be 10 or 15.
    PieceCount(u8),
    /// 15 pieces need 2 or 3 players with one set each.
    FifteenPiecesNeedTwoOrThreePlayers,
    /// The Japanese rules are for 2 or 3 players.
    JapaneseNeedsTwoOrThreePlayers,
    /// The Japanese rules play with 15 pieces.
    JapaneseNeedsFifteenPieces,
    /// The swap rule and anti-blocking exclude each other (RULES.md 1.5).
    SwapRuleWithAntiBlocking,
    /// The first seat does not exist.
    NoSuchSeat(u8),
}

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RulesError::PlayerCount(n) => write!(f, "{n} players: Chinese checkers is for 2 to 6"),
            RulesError::FivePlayersForbidden => write!(f, "this room does not allow 5 players"),
            RulesError::TooManySets { players, sets } => write!(
                f,
                "{sets} sets per player with {players} players: the star has only 6 camps \
                 (2 players: up to 3 sets, 3 players: up to 2, otherwise 1)"
            ),
            RulesError::PieceCount(n) => write!(f, "{n} pieces per set: must be 10 or 15"),
            RulesError::FifteenPiecesNeedTwoOrThreePlayers => {
                write!(f, "15 pieces need 2 or 3 players with one set each")
            }
            RulesError::JapaneseNeedsTwoOrThreePlayers => {
                write!(f, "the Japanese rules are for 2 or 3 players")
            }
            RulesError::JapaneseNeedsFifteenPieces => {
                write!(
                    f,
                    "the Japanese rules play with 15 pieces: set pieces to 15"
                )
            }
            RulesError::SwapRuleWithAntiBlocking => {
                write!(
                    f,
                    "the swap rule and anti-blocking exclude each other: pick one"
                )
            }
            RulesError::NoSuchSeat(s) => write!(f, "seat {s} does not exist"),
        }
    }
}

impl std::error::Error for RulesError {}

const C0: Camp = Camp::new_unchecked(0);
const C1: Camp = Camp::new_unchecked(1);
const C2: Camp = Camp::new_unchecked(2);
const C3: Camp = Camp::new_unchecked(3);
const C4: Camp = Camp::new_unchecked(4);
const C5: Camp = Camp::new_unchecked(5);

/// Start camps of each seat, by (players, sets) (RULES.md 1.2).
fn layout(players: u8, sets: u8) -> &'static [&'static [Camp]] {
    match (players, sets) {
        (2, 2) => &[&[C0, C1], &[C3, C4]],
        (2, 3) => &[&[C0, C1, C2], &[C3, C4, C5]],
        (2, _) => &[&[C0], &[C3]],
        (3, 2) => &[&[C0, C1], &[C2, C3], &[C4, C5]],
        (3, _) => &[&[C0], &[C2], &[C4]],
        (4, _) => &[&[C0], &[C1], &[C3], &[C4]],
        (5, _) => &[&[C0], &[C1], &[C2], &[C3], &[C4]],
        _ => &[&[C0], &[C1], &[C2], &[C3], &[C4], &[C5]],
    }
}

impl Rules {
    /// The Japanese rules for `players` (2 or 3) with their 15 pieces, other settings default.
    pub fn japanese(players: u8) -> Rules {
        Rules {
            players,
            pieces: 15,
            rule_set: RuleSet::Japanese,
            ..Rules::default()
        }
    }

    /// Checks that the settings can be played.
    ///
    /// # Errors
    /// The first problem found, as a [`RulesError`] that says what is wrong.
    pub fn validate(&self) -> Result<(), RulesError> {
        if !(2..=6).contains(&self.players) {
            return Err(RulesError::PlayerCount(self.players));
        }
        if self.players == 5 && !self.allow_five_players {
            return Err(RulesError::FivePlayersForbidden);
        }
        let max_sets = match self.players {
            2 => 3,
            3 => 2,
            _ => 1,
        };
        if self.sets == 0 || self.sets > max_sets {
            return Err(RulesError::TooManySets {
                players: self.players,
                sets: self.sets,
            });
        }
        if self.pieces != 10 && self.pieces != 15 {
            return Err(RulesError::PieceCount(self.pieces));
        }
        if self.rule_set == RuleSet::Japanese {
            if self.players > 3 {
                return Err(RulesError::JapaneseNeedsTwoOrThreePlayers);
            }
            if self.pieces != 15 {
                return Err(RulesError::JapaneseNeedsFifteenPieces);
            }
        }
        if self.pieces == 15 && (self.players > 3 || self.sets != 1) {
            return Err(RulesError::FifteenPiecesNeedTwoOrThreePlayers);
        }
        if self.swap_rule && self.anti_blocking {
            return Err(RulesError::SwapRuleWithAntiBlocking);
        }
        Ok(())
    }

    /// Number of seats (players).
    pub const fn seat_count(&self) -> usize {
        self.players as usize
    }

    /// Every seat, in turn order.
    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        (0..self.players).map(Seat)
    }

    /// The start camps of `seat` (its sets), in increasing order; each set's destination is the
    /// opposite camp. Empty for a seat that does not exist.
    pub fn seat_camps(&self, seat: Seat) -> &'static [Camp] {
        layout(self.players, self.sets)
            .get(seat.index())
            .copied()
            .unwrap_or(&[])
    }

    /// The destination camps of `seat`, in the order of [`Rules::seat_camps`].
    pub fn seat_destinations(&self, seat: Seat) -> impl Iterator<Item = Camp> {
        self.seat_camps(seat).iter().map(|c| c.opposite())
    }

    /// The seat that starts from `camp`, if any.
    pub fn camp_owner(&self, camp: Camp) -> Option<Seat> {
        self.seats().find(|&s| self.seat_camps(s).contains(&camp))
    }

    /// Camps that are nobody's start nor destination: filled with inert pieces when
    /// [`Rules::unused_camps`] is [`UnusedCamps::Filled`].
    pub fn unused_camps(&self) -> impl Iterator<Item = Camp> + '_ {
        (0..6).map(Camp::new_unchecked).filter(move |&camp| {
            self.camp_owner(camp).is_none() && self.camp_owner(camp.opposite()).is_none()
        })
    }

    /// The seat that moves first in the `game_number`-th game (0-based) of a room: seat 0 for the
    /// first game, then the next seat each game when [`Rules::rotate_first_player`] is on. With
    /// [`Rules::random_first_player`] the server draws the seat itself and ignores this.
    pub fn first_seat_for_game(&self, game_number: u64) -> Seat {
        if self.rotate_first_player && self.players > 0 {
            Seat((game_number % u64::from(self.players)) as u8)
        } else {
            Seat(0)
        }
    }

    /// Whether the fast move generator applies (no kings, no long jumps).
    pub(crate) fn plain_jumps(&self) -> bool {
        self.rule_set == RuleSet::International && !self.long_jumps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_those_of_rules_md() {
        let r = Rules::default();
        assert_eq!(
            (
                r.players,
                r.sets,
                r.pieces,
                r.move_limit,
                r.stagnation_rounds
            ),
            (2, 1, 10, 200, 30)
        );
        assert!(
            r.anti_blocking && r.play_to_the_end && r.allow_five_players && r.rotate_first_player
        );
        assert!(!(r.swap_rule || r.long_jumps || r.forced_exit || r.no_leaving_destination));
        assert!(!r.no_resting_in_foreign_camps);
        assert_eq!(r.validate(), Ok(()));
    }

    #[test]
    fn partial_json_takes_defaults() {
        let r: Rules = serde_json::from_str(r#"{"players":3}"#).unwrap();
        assert_eq!(
            r,
            Rules {
                players: 3,
                ..Rules::default()
            }
        );
        assert!(serde_json::from_str::<Rules>(r#"{"playerz":3}"#).is_err());
        let back: Rules = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn invalid_combinations_are_refused() {
        let d = Rules::default();
        let cases = [
            (Rules { players: 7, ..d }, RulesError::PlayerCount(7)),
            (Rules { players: 1, ..d }, RulesError::PlayerCount(1)),
            (
                Rules {
                    players: 5,
                    allow_five_players: false,
                    ..d
                },
                RulesError::FivePlayersForbidden,
            ),
            (
                Rules {
                    players: 3,
                    sets: 3,
                    ..d
                },
                RulesError::TooManySets {
                    players: 3,
                    sets: 3,
                },
            ),
            (
                Rules {
                    players: 4,
                    sets: 2,
                    ..d
                },
                RulesError::TooManySets {
                    players: 4,
                    sets: 2,
                },
            ),
            (
                Rules {
                    players: 2,
                    sets: 4,
                    ..d
                },
                RulesError::TooManySets {
                    players: 2,
                    sets: 4,
                },
            ),
            (Rules { pieces: 12, ..d }, RulesError::PieceCount(12)),
            (
                Rules {
                    players: 4,
                    pieces: 15,
                    ..d
                },
                RulesError::FifteenPiecesNeedTwoOrThreePlayers,
            ),
            (
                Rules {
                    sets: 2,
                    pieces: 15,
                    ..d
                },
                RulesError::FifteenPiecesNeedTwoOrThreePlayers,
            ),
            (
                Rules {
                    players: 4,
                    ..Rules::japanese(4)
                },
                RulesError::JapaneseNeedsTwoOrThreePlayers,
            ),
            (
                Rules {
                    pieces: 10,
                    ..Rules::japanese(2)
                },
                RulesError::JapaneseNeedsFifteenPieces,
            ),
            (
                Rules {
                    swap_rule: true,
                    ..d
                },
                RulesError::SwapRuleWithAntiBlocking,
            ),
        ];
        for (rules, err) in cases {
            assert_eq!(rules.validate(), Err(err), "{rules:?}");
            assert!(!err.to_string().is_empty());
        }
        assert_eq!(
            Rules {
                swap_rule: true,
                anti_blocking: false,
                ..d
            }
            .validate(),
            Ok(())
        );
        assert_eq!(Rules::japanese(3).validate(), Ok(()));
        assert_eq!(
            Rules {
                players: 3,
                sets: 2,
                ..d
            }
            .validate(),
            Ok(())
        );
    }

    #[test]
    fn seats_follow_rules_md_1_2() {
        let camps = |players, sets| {
            let r = Rules {
                players,
                sets,
                ..Rules::default()
            };
            r.seats()
                .map(|s| {
                    r.seat_camps(s)
                        .iter()
                        .map(|c| c.index())
                        .collect::<Vec<_>>()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(camps(2, 1), vec![vec![0], vec![3]]);
        assert_eq!(camps(2, 2), vec![vec![0, 1], vec![3, 4]]);
        assert_eq!(camps(2, 3), vec![vec![0, 1, 2], vec![3, 4, 5]]);
        assert_eq!(camps(3, 1), vec![vec![0], vec![2], vec![4]]);
        assert_eq!(camps(3, 2), vec![vec![0, 1], vec![2, 3], vec![4, 5]]);
        assert_eq!(camps(4, 1), vec![vec![0], vec![1], vec![3], vec![4]]);
        assert_eq!(
            camps(5, 1),
            vec![vec![0], vec![1], vec![2], vec![3], vec![4]]
        );
        assert_eq!(camps(6, 1).len(), 6);
        let four = Rules {
            players: 4,
            ..Rules::default()
        };
        assert_eq!(
            four.unused_camps().map(|c| c.index()).collect::<Vec<_>>(),
            vec![2, 5]
        );
        let three = Rules {
            players: 3,
            ..Rules::default()
        };
        assert_eq!(three.unused_camps().count(), 0);
    }

    #[test]
    fn first_player_rotates_per_game() {
        let r = Rules {
            players: 3,
            ..Rules::default()
        };
        let firsts: Vec<u8> = (0..4).map(|g| r.first_seat_for_game(g).0).collect();
        assert_eq!(firsts, vec![0, 1, 2, 0]);
        let fixed = Rules {
            rotate_first_player: false,
            ..r
        };
        assert_eq!(fixed.first_seat_for_game(5), Seat(0));
    }
}
