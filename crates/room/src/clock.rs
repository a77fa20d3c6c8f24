//! « Pendule »: the clocks of a live game (issue 20, docs/protocol.md "Clocks"). Pure: the
//! server stamps each move with its arrival time (`now`) and the lag credit of the connection
//! that sent it; this module charges the mover, adds the increment or resets the time per move,
//! and says when the flag of the seat to move falls.
//!
//! - **Fischer** (`{"kind":"fischer","base_ms","increment_ms"}`): each seat starts with
//!   `base_ms`; a move costs the time it took and earns `increment_ms` (added after the move,
//!   as in FMJD play).
//! - **Per move** (`{"kind":"per_move","move_ms","reserve_ms"}`): each move has `move_ms`;
//!   what a move does not use is lost; a move that takes longer spends the overrun from the
//!   seat's reserve (`reserve_ms` at the start of the game).
//!
//! A seat's clock runs from the start of each of its turns: for the first player, from the start
//! of the game (the usual rule of online play, where nobody may stall by never moving first).
//! There is no pause. The seat's flag falls once its time is out **and** a further
//! [`MAX_LAG_CREDIT_MS`] has passed: the most a move may be credited for the network, so that a
//! move sent in time and credited its lag is never beaten by the flag.
//!
//! The lag credit of a move is `min(rtt / 2, MAX_LAG_CREDIT_MS)` where `rtt` is the round trip
//! the server measured on the connection that sent it; a move is charged
//! `max(0, elapsed − credit)`, never less than nothing.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::error::Detail;

/// The most a move is credited for the network (milliseconds): half the measured round trip,
/// up to this bound; also the wait between a time out and the flag falling.
pub const MAX_LAG_CREDIT_MS: i64 = 300;

/// Shortest and longest Fischer base (ms): from 1 s (the API's range; the presets of the web
/// page start at 3 minutes) to 3 hours.
pub const BASE_MS: (i64, i64) = (1_000, 10_800_000);
/// Fischer increment (ms): none to one minute.
pub const INCREMENT_MS: (i64, i64) = (0, 60_000);
/// Time per move (ms): 1 s to 10 minutes.
pub const MOVE_MS: (i64, i64) = (1_000, 600_000);
/// Reserve of the per-move clock (ms): none to one hour.
pub const RESERVE_MS: (i64, i64) = (0, 3_600_000);

/// The « Pendule » setting (docs/protocol.md `Settings.clock`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClockSettings {
    /// No clock (the default among friends).
    #[default]
    None,
    /// Base time and an increment per move.
    Fischer {
        /// Each seat's time at the start.
        base_ms: u64,
        /// Added after each move.
        increment_ms: u64,
    },
    /// A time per move, the overrun spent from a reserve.
    PerMove {
        /// Time of each move.
        move_ms: u64,
        /// Each seat's reserve at the start.
        reserve_ms: u64,
    },
}

/// Chinese checkers with 3 or more players: what becomes of a seat whose flag fell
/// (`Settings.on_flag`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnFlag {
    /// A CPU plays the seat to the end (without a clock).
    #[default]
    Cpu,
    /// The seat takes the last free place and leaves the game (as a resignation).
    Last,
}

impl ClockSettings {
    /// Whether the room has no clock.
    pub fn is_none(&self) -> bool {
        *self == Self::None
    }

    /// Each seat's time at the start of a game (Fischer: the base; per move: the reserve).
    fn initial(&self) -> Option<i64> {
        match *self {
            Self::None => None,
            Self::Fischer { base_ms, .. } => Some(ms(base_ms)),
            Self::PerMove { reserve_ms, .. } => Some(ms(reserve_ms)),
        }
    }

    /// Reads and checks `value` as the setting at `path`.
    ///
    /// # Errors
    /// The field refused and why (`wrong_type`, `not_allowed` for an unknown kind,
    /// `unknown_field`, `out_of_range`).
    pub fn parse(path: &str, value: &Value) -> Result<Self, Detail> {
        let obj = value.as_object().ok_or_else(|| {
            Detail::field(path, "wrong_type", format!("{path} must be an object"))
                .with("expected", "object")
        })?;
        let kind = obj.get("kind").and_then(Value::as_str).unwrap_or_default();
        let fields: &[(&str, (i64, i64))] = match kind {
            "none" => &[],
            "fischer" => &[("base_ms", BASE_MS), ("increment_ms", INCREMENT_MS)],
            "per_move" => &[("move_ms", MOVE_MS), ("reserve_ms", RESERVE_MS)],
            _ => {
                let allowed = json!(["none", "fischer", "per_move"]);
                return Err(Detail::field(
                    format!("{path}.kind"),
                    "not_allowed",
                    format!("{path}.kind must be one of {allowed}"),
                )
                .with("allowed", allowed));
            }
        };
        for (name, v) in obj {
            let at = format!("{path}.{name}");
            if name == "kind" {
                continue;
            }
            let Some((_, (min, max))) = fields.iter().find(|(f, _)| f == name) else {
                return Err(Detail::field(
                    &at,
                    "unknown_field",
                    format!("no setting {at:?}"),
                ));
            };
            let n = v.as_i64().ok_or_else(|| {
                Detail::field(&at, "wrong_type", format!("{at} must be integer"))
                    .with("expected", "integer")
            })?;
            if !(*min..=*max).contains(&n) {
                return Err(out_of_range(&at, *min, *max));
            }
        }
        if let Some((missing, _)) = fields.iter().find(|(f, _)| !obj.contains_key(*f)) {
            let at = format!("{path}.{missing}");
            return Err(Detail::field(&at, "missing", format!("{at} is missing")));
        }
        serde_json::from_value(value.clone())
            .map_err(|e| Detail::field(path, "other", e.to_string()))
    }

    /// What the setting accepts (`GET /api/settings`).
    pub fn schema() -> Value {
        let range = |(min, max): (i64, i64)| json!({"type": "int", "min": min, "max": max});
        json!({
            "type": "clock",
            "kinds": {
                "none": {},
                "fischer": {"base_ms": range(BASE_MS), "increment_ms": range(INCREMENT_MS)},
                "per_move": {"move_ms": range(MOVE_MS), "reserve_ms": range(RESERVE_MS)},
            }
        })
    }
}

/// `path` must be between `min` and `max` (the same detail as the settings table's).
fn out_of_range(path: &str, min: i64, max: i64) -> Detail {
    Detail::field(
        path,
        "out_of_range",
        format!("{path} must be between {min} and {max}"),
    )
    .with("min", min)
    .with("max", max)
}

fn ms(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX / 4)
}

/// The clocks of a game: stored with the room (`rooms.clock`), each move's result with the move
/// (`actions.clock`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    /// Each seat's time (ms) as of the start of the running turn: Fischer, what is left of its
    /// time; per move, what is left of its reserve.
    pub remaining: Vec<i64>,
    /// The seat whose clock runs (the seat to move), if any.
    pub running: Option<usize>,
    /// Since when it runs (Unix ms).
    pub since: i64,
    /// Seats whose flag fell and that play on without a clock (a CPU in their place).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flagged: Vec<usize>,
}

/// A move that came after its seat's time was out (its lag credit included): refused, the flag
/// falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeOut {
    /// By how much (ms).
    pub late_ms: i64,
}

/// The clocks as a view carries them (docs/protocol.md `ClockView`), as of the server's `now`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockView {
    /// Each seat's time (ms) at `now`: Fischer, its time left; per move, its reserve.
    pub remaining: Vec<i64>,
    /// Per move: the running seat's time left for this move at `now` (before its reserve).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_left: Option<i64>,
    /// The seat whose clock runs.
    pub running: Option<usize>,
    /// The server's time of these figures (Unix ms): the client ticks from them, by the offset
    /// between this stamp and its own clock when the message came.
    pub now: i64,
    /// Seats whose flag fell and that a CPU plays without a clock.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flagged: Vec<usize>,
}

impl Clock {
    /// The clocks of a game starting at `now` with `to_move` to move; `None` without a clock.
    pub fn start(
        settings: &ClockSettings,
        seats: usize,
        to_move: Option<usize>,
        now: i64,
    ) -> Option<Self> {
        let initial = settings.initial()?;
        Some(Self {
            remaining: vec![initial; seats],
            running: to_move,
            since: now,
            flagged: Vec::new(),
        })
    }

    /// The time `seat` has for its turn from its start, before its time is out.
    fn available(&self, settings: &ClockSettings, seat: usize) -> i64 {
        let left = self.remaining.get(seat).copied().unwrap_or(0);
        match *settings {
            ClockSettings::PerMove { move_ms, .. } => ms(move_ms).saturating_add(left),
            _ => left,
        }
    }

    /// When the running seat's time is out (Unix ms); its flag falls
    /// [`MAX_LAG_CREDIT_MS`] later.
    pub fn out_at(&self, settings: &ClockSettings) -> Option<i64> {
        let seat = self.running?;
        Some(self.since.saturating_add(self.available(settings, seat)))
    }

    /// When the running seat's flag falls (Unix ms).
    pub fn flag_at(&self, settings: &ClockSettings) -> Option<i64> {
        Some(self.out_at(settings)?.saturating_add(MAX_LAG_CREDIT_MS))
    }

    /// Charges `seat`, which moved at `now` with `lag_ms` of network credit: its time after the
    /// move (increment added). The clock stops until [`Clock::turn`] starts the next seat's. A
    /// seat whose clock is not running (a flagged seat's CPU) is charged nothing.
    ///
    /// # Errors
    /// [`TimeOut`] if the move came after the seat's time was out (nothing changed).
    pub fn charge(
        &mut self,
        settings: &ClockSettings,
        seat: usize,
        now: i64,
        lag_ms: i64,
    ) -> Result<(), TimeOut> {
        if self.running != Some(seat) {
            return Ok(());
        }
        let credit = lag_ms.clamp(0, MAX_LAG_CREDIT_MS);
        let charged = now.saturating_sub(self.since).saturating_sub(credit).max(0);
        let available = self.available(settings, seat);
        if charged > available {
            return Err(TimeOut {
                late_ms: charged - available,
            });
        }
        let left = &mut self.remaining[seat];
        match *settings {
            ClockSettings::None => {}
            ClockSettings::Fischer { increment_ms, .. } => {
                *left = *left - charged + ms(increment_ms);
            }
            ClockSettings::PerMove { move_ms, .. } => {
                *left -= charged.saturating_sub(ms(move_ms)).max(0);
            }
        }
        self.running = None;
        self.since = now;
        Ok(())
    }

    /// The turn is now `to_move`'s (`None`: nobody's, the game is over): its clock starts at
    /// `now` unless it already runs; a flagged seat's does not.
    pub fn turn(&mut self, to_move: Option<usize>, now: i64) {
        let to_move = to_move.filter(|s| !self.flagged.contains(s));
        if self.running != to_move {
            self.running = to_move;
            self.since = now;
        }
    }

    /// `seat`'s flag fell: no time left, and its clock never runs again this game.
    pub fn fall(&mut self, seat: usize, now: i64) {
        if let Some(left) = self.remaining.get_mut(seat) {
            *left = 0;
        }
        if !self.flagged.contains(&seat) {
            self.flagged.push(seat);
        }
        if self.running == Some(seat) {
            self.running = None;
            self.since = now;
        }
    }

    /// Whether `seat`'s flag fell this game (a CPU plays it without a clock).
    pub fn has_fallen(&self, seat: usize) -> bool {
        self.flagged.contains(&seat)
    }

    /// The clocks as of `now`, as a view carries them.
    pub fn view(&self, settings: &ClockSettings, now: i64) -> ClockView {
        let mut remaining = self.remaining.clone();
        let mut move_left = None;
        if let Some(seat) = self.running {
            let elapsed = now.saturating_sub(self.since).max(0);
            if let Some(left) = remaining.get_mut(seat) {
                match *settings {
                    ClockSettings::PerMove { move_ms, .. } => {
                        let over = elapsed.saturating_sub(ms(move_ms)).max(0);
                        move_left = Some(ms(move_ms).saturating_sub(elapsed).max(0));
                        *left = left.saturating_sub(over).max(0);
                    }
                    _ => *left = left.saturating_sub(elapsed).max(0),
                }
            }
        }
        ClockView {
            remaining,
            move_left,
            running: self.running,
            now,
            flagged: self.flagged.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FISCHER: ClockSettings = ClockSettings::Fischer {
        base_ms: 60_000,
        increment_ms: 2_000,
    };
    const PER_MOVE: ClockSettings = ClockSettings::PerMove {
        move_ms: 30_000,
        reserve_ms: 60_000,
    };

    #[test]
    fn a_move_is_charged_to_the_mover_with_the_increment_added_after() {
        let mut c = Clock::start(&FISCHER, 2, Some(0), 1_000).unwrap();
        c.charge(&FISCHER, 0, 11_000, 0).unwrap();
        assert_eq!(c.remaining, vec![60_000 - 10_000 + 2_000, 60_000]);
        assert_eq!(c.running, None, "stopped until the next turn starts");
        c.turn(Some(1), 11_000);
        c.charge(&FISCHER, 1, 14_000, 0).unwrap();
        assert_eq!(c.remaining, vec![52_000, 59_000]);
    }

    #[test]
    fn the_lag_credit_is_bounded_and_a_charge_never_goes_below_zero() {
        let mut c = Clock::start(&FISCHER, 2, Some(0), 0).unwrap();
        c.charge(&FISCHER, 0, 1_000, 5_000).unwrap();
        assert_eq!(
            c.remaining[0],
            60_000 - 700 + 2_000,
            "credit capped at 300 ms"
        );
        c.turn(Some(1), 1_000);
        c.charge(&FISCHER, 1, 1_100, 200).unwrap();
        assert_eq!(c.remaining[1], 62_000, "charged 0, not -100");
    }

    #[test]
    fn per_move_time_is_reset_each_move_and_the_overrun_spends_the_reserve() {
        let mut c = Clock::start(&PER_MOVE, 3, Some(0), 0).unwrap();
        c.charge(&PER_MOVE, 0, 10_000, 0).unwrap();
        assert_eq!(
            c.remaining[0], 60_000,
            "unused move time is lost, not banked"
        );
        c.turn(Some(1), 10_000);
        c.charge(&PER_MOVE, 1, 10_000 + 45_000, 0).unwrap();
        assert_eq!(c.remaining[1], 45_000, "15 s over the move time");
        c.turn(Some(2), 55_000);
        assert_eq!(c.out_at(&PER_MOVE), Some(55_000 + 90_000));
        assert_eq!(
            c.charge(&PER_MOVE, 2, 55_000 + 90_001, 0),
            Err(TimeOut { late_ms: 1 })
        );
    }

    #[test]
    fn a_move_after_the_time_is_out_is_refused_unless_its_lag_credit_covers_it() {
        let mut c = Clock::start(&FISCHER, 2, Some(0), 0).unwrap();
        assert_eq!(c.flag_at(&FISCHER), Some(60_000 + MAX_LAG_CREDIT_MS));
        let before = c.clone();
        assert_eq!(
            c.charge(&FISCHER, 0, 60_200, 100),
            Err(TimeOut { late_ms: 100 })
        );
        assert_eq!(c, before, "a refused charge changes nothing");
        c.charge(&FISCHER, 0, 60_200, 250).unwrap();
        assert_eq!(
            c.remaining[0],
            50 + 2_000,
            "59.95 s charged, then the increment"
        );
    }

    #[test]
    fn the_view_counts_down_the_running_seat_only() {
        let mut c = Clock::start(&PER_MOVE, 2, Some(1), 0).unwrap();
        let v = c.view(&PER_MOVE, 40_000);
        assert_eq!(v.remaining, vec![60_000, 50_000]);
        assert_eq!((v.move_left, v.running, v.now), (Some(0), Some(1), 40_000));
        c.fall(1, 40_000);
        let v = c.view(&PER_MOVE, 50_000);
        assert_eq!(
            (v.remaining, v.running, v.flagged),
            (vec![60_000, 0], None, vec![1])
        );
        c.turn(Some(1), 50_000);
        assert_eq!(c.running, None, "a flagged seat's clock never runs again");
    }

    #[test]
    fn the_setting_is_checked_field_by_field() {
        let ok = ClockSettings::parse(
            "clock",
            &json!({"kind": "fischer", "base_ms": 300_000, "increment_ms": 3_000}),
        );
        assert_eq!(
            ok,
            Ok(ClockSettings::Fischer {
                base_ms: 300_000,
                increment_ms: 3_000
            })
        );
        let reason = |v: Value| {
            let d = ClockSettings::parse("clock", &v).unwrap_err();
            (d.field.unwrap(), d.reason)
        };
        assert_eq!(
            reason(json!({"kind": "fischer", "base_ms": 500, "increment_ms": 0})),
            ("clock.base_ms".into(), "out_of_range")
        );
        assert_eq!(
            reason(json!({"kind": "hourglass"})),
            ("clock.kind".into(), "not_allowed")
        );
        assert_eq!(
            reason(json!({"kind": "per_move", "move_ms": 30_000})),
            ("clock.reserve_ms".into(), "missing")
        );
        assert_eq!(
            reason(json!({"kind": "none", "base_ms": 1_000})),
            ("clock.base_ms".into(), "unknown_field")
        );
        assert_eq!(reason(json!("5+3")), ("clock".into(), "wrong_type"));
    }
}
