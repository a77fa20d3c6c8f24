//! The pools of quick pairing (docs/protocol.md "Pools"): one per game, number of players, rule
//! set and pace, each named by a short id (`draughts10-live`, `cc4-intl-turn`…), and the one
//! function that turns a pool into the settings of the room it makes ([`PoolSpec::settings_json`]).

use serde_json::{json, Value};

use dames_room::clock::ClockSettings;
use dames_room::game::GameKind;

/// Live (with a clock) or turn by turn with notifications (RULES.md part 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// Everyone present, a clock running.
    Live,
    /// Play when you want; told when it is your turn.
    Turn,
}

/// What a pool pairs people for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    /// Chinese checkers for `players`, with the Japanese rules (2–3 players only, RULES.md 1.6)
    /// or the international ones.
    Cc {
        /// 2, 3, 4 or 6.
        players: usize,
        /// « variante japonaise ».
        japanese: bool,
    },
    /// Draughts on a board of `size` (10: international, 8: Brazilian, 12: Canadian).
    Draughts {
        /// 8, 10 or 12.
        size: usize,
    },
}

/// One pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolSpec {
    /// Its id (`cc3-jp-live`).
    pub id: &'static str,
    /// The game and its variant.
    pub game: Game,
    /// Its pace.
    pub pace: Pace,
}

macro_rules! pools {
    ($($id:literal => $game:expr, $pace:ident;)*) => {
        /// Every pool, in the order the home page shows them.
        pub const POOLS: &[PoolSpec] = &[
            $(PoolSpec { id: $id, game: $game, pace: Pace::$pace },)*
        ];
    };
}

const fn cc(players: usize, japanese: bool) -> Game {
    Game::Cc { players, japanese }
}

const fn draughts(size: usize) -> Game {
    Game::Draughts { size }
}

pools! {
    "draughts10-live" => draughts(10), Live;
    "draughts10-turn" => draughts(10), Turn;
    "draughts8-live" => draughts(8), Live;
    "draughts8-turn" => draughts(8), Turn;
    "draughts12-live" => draughts(12), Live;
    "draughts12-turn" => draughts(12), Turn;
    "cc2-intl-live" => cc(2, false), Live;
    "cc2-intl-turn" => cc(2, false), Turn;
    "cc3-intl-live" => cc(3, false), Live;
    "cc3-intl-turn" => cc(3, false), Turn;
    "cc4-intl-live" => cc(4, false), Live;
    "cc4-intl-turn" => cc(4, false), Turn;
    "cc6-intl-live" => cc(6, false), Live;
    "cc6-intl-turn" => cc(6, false), Turn;
    "cc2-jp-live" => cc(2, true), Live;
    "cc2-jp-turn" => cc(2, true), Turn;
    "cc3-jp-live" => cc(3, true), Live;
    "cc3-jp-turn" => cc(3, true), Turn;
}

/// Default live clock of the draughts pools: 5 minutes and 3 seconds a move (Fischer), the
/// blitz most played on draughts sites. `dames serve --pool-clock-draughts` sets another.
pub const DRAUGHTS_CLOCK: ClockSettings = ClockSettings::Fischer {
    base_ms: 300_000,
    increment_ms: 3_000,
};
/// Default live clock of the Chinese checkers pools: 30 s a move and a 60 s reserve.
/// `dames serve --pool-clock-cc` sets another.
pub const CC_CLOCK: ClockSettings = ClockSettings::PerMove {
    move_ms: 30_000,
    reserve_ms: 60_000,
};

/// The clocks of the live pools (operator options, [`DRAUGHTS_CLOCK`] and [`CC_CLOCK`] by
/// default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolClocks {
    /// Every live draughts pool's.
    pub draughts: ClockSettings,
    /// Every live Chinese checkers pool's.
    pub cc: ClockSettings,
}

impl Default for PoolClocks {
    fn default() -> Self {
        Self {
            draughts: DRAUGHTS_CLOCK,
            cc: CC_CLOCK,
        }
    }
}

impl PoolSpec {
    /// The pool named `id`.
    pub fn find(id: &str) -> Option<&'static PoolSpec> {
        POOLS.iter().find(|p| p.id == id)
    }

    /// Persons and CPUs seated in a room of this pool.
    pub fn players(&self) -> usize {
        match self.game {
            Game::Cc { players, .. } => players,
            Game::Draughts { .. } => 2,
        }
    }

    /// Its game kind.
    pub fn kind(&self) -> GameKind {
        match self.game {
            Game::Cc { .. } => GameKind::Cc,
            Game::Draughts { .. } => GameKind::Draughts,
        }
    }

    /// Whether empty seats may go to CPUs after the wait (3 players or more: a 2-player pool
    /// with a CPU is a game against the CPU, which the home page already offers).
    pub fn cpu_fill(&self) -> bool {
        self.players() >= 3
    }

    /// The clock of this pool's rooms (`None` when turn by turn).
    pub fn clock(&self, clocks: &PoolClocks) -> ClockSettings {
        match (self.pace, self.game) {
            (Pace::Turn, _) => ClockSettings::None,
            (Pace::Live, Game::Draughts { .. }) => clocks.draughts,
            (Pace::Live, Game::Cc { .. }) => clocks.cc,
        }
    }

    /// The settings (a `SettingsInput` JSON object) of the rooms this pool makes: the rules of
    /// its game, its pace, public, and a clock when live.
    pub fn settings_json(&self, clocks: &PoolClocks) -> Value {
        let rules = match self.game {
            Game::Cc {
                players,
                japanese: true,
            } => json!({"players": players, "rule_set": "japanese", "pieces": 15}),
            Game::Cc { players, .. } => json!({"players": players}),
            Game::Draughts { size } => json!({"variant": match size {
                8 => "brazilian",
                12 => "canadian",
                _ => "international",
            }}),
        };
        let rhythm = match self.pace {
            Pace::Live => "live",
            Pace::Turn => "turn",
        };
        // A pool's room is public (« Jouer en ligne » lists it among the games to watch), and
        // a live one has a clock (docs/protocol.md "Pools").
        let mut settings = json!({"rules": rules, "rhythm": rhythm, "public": true});
        if self.pace == Pace::Live {
            settings["clock"] = json!(self.clock(clocks));
        }
        settings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dames_room::room::{Settings, SettingsInput};

    #[test]
    fn every_pool_makes_valid_settings_with_its_number_of_seats() {
        for pool in POOLS {
            let input =
                SettingsInput::parse(pool.kind(), &pool.settings_json(&PoolClocks::default()))
                    .unwrap();
            let (settings, seats) = Settings::new(pool.kind(), &input).unwrap();
            assert_eq!(seats, pool.players(), "{}", pool.id);
            let live = settings.rhythm == dames_room::settings::Rhythm::Live;
            assert_eq!(live, pool.pace == Pace::Live, "{}", pool.id);
            assert!(settings.public, "{}: a pool's room is listed", pool.id);
            let clocked = settings.clock != dames_room::clock::ClockSettings::None;
            assert_eq!(clocked, live, "{}: live pools have a clock", pool.id);
        }
    }

    #[test]
    fn the_operators_clocks_reach_the_live_pools_rooms_and_never_the_turn_by_turn_ones() {
        let clocks = PoolClocks {
            draughts: ClockSettings::Fischer {
                base_ms: 4_000,
                increment_ms: 0,
            },
            cc: ClockSettings::PerMove {
                move_ms: 2_000,
                reserve_ms: 1_000,
            },
        };
        for pool in POOLS {
            let input = SettingsInput::parse(pool.kind(), &pool.settings_json(&clocks)).unwrap();
            let (settings, _) = Settings::new(pool.kind(), &input).unwrap();
            let expected = match (pool.pace, pool.kind()) {
                (Pace::Turn, _) => ClockSettings::None,
                (Pace::Live, GameKind::Draughts) => clocks.draughts,
                (Pace::Live, GameKind::Cc) => clocks.cc,
            };
            assert_eq!(settings.clock, expected, "{}", pool.id);
        }
    }

    #[test]
    fn ids_are_unique_and_found() {
        for (i, pool) in POOLS.iter().enumerate() {
            assert_eq!(PoolSpec::find(pool.id), Some(pool));
            assert!(POOLS[i + 1..].iter().all(|p| p.id != pool.id));
        }
        assert!(PoolSpec::find("cc5-intl-live").is_none());
        assert!(
            PoolSpec::find("cc4-jp-live").is_none(),
            "Japanese rules: 2–3 players"
        );
    }
}
