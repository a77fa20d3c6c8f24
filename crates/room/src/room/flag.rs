//! The clocks of a room's game (crate::clock, docs/protocol.md "Clocks"): each move charged to
//! its seat, the next seat's clock started, and the flag: when the time of the seat to move is
//! out, [`Room::flag`] ends its game — draughts and 2-player Chinese checkers, it loses (reason
//! `time`); Chinese checkers with 3 or more players, as the room's `on_flag` says, a CPU plays
//! its seat to the end without a clock (`cpu`) or it takes the last free place and leaves the
//! game, the others playing on (`last`). The server sets a timer at [`Room::flag_deadline`];
//! asked earlier, [`Room::flag`] refuses and nothing changes.

use dames_ai::Level;

use super::{wrong_state, Action, Change, Occupant, Room, Status};
use crate::clock::{Clock, ClockView, OnFlag, TimeOut};
use crate::error::{Detail, Error};
use crate::event::{Event, FlagThen};
use crate::game::GameKind;

/// The level of the CPU that plays a seat whose flag fell (`on_flag: "cpu"`).
pub const FLAG_CPU_LEVEL: Level = Level::Normal;

/// The most a CPU thinks in a game with a clock, as a share of its time: a Fischer CPU spends
/// about 1/20 of its time plus most of its increment; a per-move CPU, 3/4 of the move's time.
/// It always keeps [`CPU_MARGIN_MS`] in hand for the move's way through the server.
const CPU_SHARE: i64 = 20;
/// See [`CPU_SHARE`].
pub const CPU_MARGIN_MS: i64 = 500;

impl Room {
    /// The clocks after `seat` moved at `now` with `lag_ms` of credit (a copy: the caller keeps
    /// it only if the move is legal); `None` without a clock.
    pub(super) fn charged_clock(
        &self,
        seat: usize,
        now: i64,
        lag_ms: i64,
    ) -> Result<Option<Clock>, Error> {
        let Some(mut clock) = self.play.as_ref().and_then(|p| p.clock.clone()) else {
            return Ok(None);
        };
        clock
            .charge(&self.settings.clock, seat, now, lag_ms)
            .map_err(|TimeOut { late_ms }| {
                Error::WrongState(
                    Detail::state("time_out", "your time is out: the flag falls")
                        .with("late_ms", late_ms),
                )
            })?;
        Ok(Some(clock))
    }

    /// After any change of the game: the clock of the seat to move runs (from `now` if its turn
    /// just began); none once the game is over.
    pub(super) fn turn_clock(&mut self, now: i64) {
        let playing = self.status == Status::Playing;
        if let Some(play) = self.play.as_mut() {
            let to_move = play.state.to_move().filter(|_| playing);
            if let Some(clock) = play.clock.as_mut() {
                clock.turn(to_move, now);
            }
        }
    }

    /// When the flag of the seat to move falls (Unix ms): its time out plus the largest lag
    /// credit. `None` when no clock runs. The server's timer fires then ([`Room::flag`]).
    pub fn flag_deadline(&self) -> Option<i64> {
        if self.status != Status::Playing {
            return None;
        }
        self.play
            .as_ref()?
            .clock
            .as_ref()?
            .flag_at(&self.settings.clock)
    }

    /// The clocks as of the server's `now`, as views carry them.
    pub fn clock_view(&self, now: i64) -> Option<ClockView> {
        let clock = self.play.as_ref()?.clock.as_ref()?;
        Some(clock.view(&self.settings.clock, now))
    }

    /// Whether `seat`'s flag fell in this game (a CPU plays it to the end: its person does not
    /// take it back).
    pub fn has_flagged(&self, seat: usize) -> bool {
        self.play
            .as_ref()
            .and_then(|p| p.clock.as_ref())
            .is_some_and(|c| c.has_fallen(seat))
    }

    /// The most the CPU of the seat to move may think at `now` (ms) in a game with a clock, so
    /// that its move comes in time; `None` without a running clock (the room's `cpu_ms` alone).
    pub fn cpu_think_cap(&self, now: i64) -> Option<u64> {
        let clock = self.play.as_ref()?.clock.as_ref()?;
        let seat = clock.running?;
        let out = clock.out_at(&self.settings.clock)?;
        let left = out.saturating_sub(now).saturating_sub(CPU_MARGIN_MS).max(0);
        let share = match self.settings.clock {
            crate::clock::ClockSettings::Fischer { increment_ms, .. } => {
                let bank = clock.remaining.get(seat).copied().unwrap_or(0);
                bank / CPU_SHARE + i64::try_from(increment_ms).unwrap_or(0) * 3 / 4
            }
            crate::clock::ClockSettings::PerMove { move_ms, .. } => {
                i64::try_from(move_ms).unwrap_or(0) * 3 / 4
            }
            crate::clock::ClockSettings::None => return None,
        };
        u64::try_from(share.min(left)).ok()
    }

    /// The flag of the seat to move falls at `now`: the game goes on or ends as the module says.
    /// Returns the seat.
    ///
    /// # Errors
    /// `wrong_state`: no game on (`not_started`, `over`), `no_clock` (no clock runs), or
    /// `time_left` with `wait_ms` before the deadline (nothing changes).
    pub fn flag(&mut self, now: i64, ch: &mut Change) -> Result<usize, Error> {
        self.require_playing()?;
        let (Some(deadline), Some(seat)) = (
            self.flag_deadline(),
            self.play
                .as_ref()
                .and_then(|p| p.clock.as_ref())
                .and_then(|c| c.running),
        ) else {
            return Err(wrong_state("no_clock", "no clock is running"));
        };
        if now < deadline {
            return Err(Error::WrongState(
                Detail::state("time_left", "the time of the seat to move is not out")
                    .with("wait_ms", deadline - now),
            ));
        }
        let play = self.play.as_mut().ok_or(Error::Internal)?;
        let clock = play.clock.as_mut().ok_or(Error::Internal)?;
        clock.fall(seat, now);
        let remaining = clock.remaining.clone();
        let to_cpu = self.kind == GameKind::Cc
            && self.seats.len() > 2
            && self.settings.on_flag == OnFlag::Cpu;
        if to_cpu {
            if matches!(self.seats[seat].occupant, Occupant::Human { .. }) {
                self.seats[seat].stand_in = Some(FLAG_CPU_LEVEL);
            }
            ch.event(Event::Flag {
                seat,
                then: FlagThen::Cpu,
            });
        } else {
            play.state.flag(seat).map_err(super::refused)?;
            play.draw_offer = None;
            let then = if self.seats.len() > 2 {
                FlagThen::Last
            } else {
                FlagThen::Lost
            };
            ch.event(Event::Flag { seat, then });
            ch.actions.push(Action::Flag {
                seat,
                clock: Some(remaining),
            });
        }
        self.check_finished(now, ch);
        Ok(seat)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::clock::ClockSettings;
    use crate::protocol::Reason;
    use crate::room::tests::human;
    use crate::room::SeatAction;
    use crate::rows::StoredRoom;
    use crate::snapshot::action_rows;
    use crate::{Settings, SettingsInput};

    fn clocked(kind: GameKind, settings: serde_json::Value, seats: &[&str]) -> Room {
        let input = SettingsInput::parse(kind, &settings).unwrap();
        let (settings, n) = Settings::new(kind, &input).unwrap();
        let mut room = Room::new("K7M2QX".into(), kind, settings, n, human(seats[0]), 0);
        let mut ch = Change::default();
        for (n, name) in seats.iter().enumerate().skip(1) {
            if *name == "CPU" {
                room.set_seat(n, SeatAction::Cpu(Level::Facile), &mut ch)
                    .unwrap();
            } else {
                room.join(Some(n), human(name), &mut ch).unwrap();
            }
        }
        room.start(0, 1_000, &mut ch).unwrap();
        room
    }

    fn draughts(base_ms: u64, increment_ms: u64) -> Room {
        let clock = json!({"kind": "fischer", "base_ms": base_ms, "increment_ms": increment_ms});
        clocked(
            GameKind::Draughts,
            json!({ "clock": clock }),
            &["Ana", "Bo"],
        )
    }

    fn play(room: &mut Room, seat: usize, notation: &str, now: i64, lag: i64) -> Change {
        let input = room.parse_move(&json!({ "notation": notation })).unwrap();
        let mut ch = Change::default();
        room.play_move_lagged(seat, None, &input, now, lag, &mut ch)
            .unwrap();
        ch
    }

    /// The first legal move of the seat to move.
    fn any_move(room: &mut Room, now: i64) -> Change {
        let play = room.play.as_ref().unwrap();
        let seat = play.state.to_move().unwrap();
        let input = play.state.legal_moves()[0].to_input();
        let mut ch = Change::default();
        room.play_move(seat, None, &input, now, &mut ch).unwrap();
        ch
    }

    fn remaining(room: &Room) -> Vec<i64> {
        room.play
            .as_ref()
            .unwrap()
            .clock
            .as_ref()
            .unwrap()
            .remaining
            .clone()
    }

    #[test]
    fn each_move_is_charged_to_its_side_and_the_increment_added() {
        let mut r = draughts(60_000, 2_000);
        let white = r.white_seat();
        // White's clock runs from the start of the game.
        assert_eq!(r.flag_deadline(), Some(1_000 + 60_000 + 300));
        let ch = play(&mut r, white, "32-28", 11_000, 0);
        let mut expect = vec![60_000; 2];
        expect[white] = 52_000;
        assert_eq!(remaining(&r), expect);
        assert!(matches!(
            &ch.actions[0],
            Action::Move { clock: Some(c), .. } if *c == expect
        ));
        // Black's runs from White's move; the lag credit is taken off its charge.
        assert_eq!(r.flag_deadline(), Some(11_000 + 60_000 + 300));
        play(&mut r, 1 - white, "19-23", 15_000, 250);
        expect[1 - white] = 60_000 - 3_750 + 2_000;
        assert_eq!(remaining(&r), expect);
        let view = r.clock_view(16_000).unwrap();
        expect[white] -= 1_000;
        assert_eq!(
            (view.remaining, view.running, view.now),
            (expect, Some(white), 16_000)
        );
    }

    #[test]
    fn the_flag_falls_at_its_deadline_and_not_before() {
        let mut r = draughts(10_000, 0);
        let white = r.white_seat();
        let deadline = r.flag_deadline().unwrap();
        let before = r.clone();
        let mut ch = Change::default();
        let err = r.flag(deadline - 1, &mut ch).unwrap_err();
        assert!(
            matches!(&err, Error::WrongState(d) if d.reason == "time_left" && d.params["wait_ms"] == 1)
        );
        assert!(ch.events.is_empty() && ch.actions.is_empty());
        assert_eq!(r.status, before.status);
        // A move after the time is out, its credit too small, is refused: the flag falls.
        let input = r.parse_move(&json!({"notation": "32-28"})).unwrap();
        let late = r.play_move_lagged(white, None, &input, deadline - 100, 100, &mut ch);
        assert!(matches!(late, Err(Error::WrongState(d)) if d.reason == "time_out"));
        assert_eq!(r.ply(), 0);
        assert_eq!(r.flag(deadline, &mut ch).unwrap(), white);
        assert_eq!(r.status, Status::Finished);
        let outcome = r.play.as_ref().unwrap().state.outcome().unwrap();
        assert_eq!(outcome.reason, Reason::Time);
        assert_eq!(outcome.places[1 - white], Some(1));
        assert!(ch.events.contains(&Event::Flag {
            seat: white,
            then: FlagThen::Lost
        }));
        assert_eq!(r.flag_deadline(), None, "no clock runs once over");
        assert!(
            matches!(r.flag(deadline + 10, &mut Change::default()), Err(Error::WrongState(d)) if d.reason == "over")
        );
    }

    #[test]
    fn per_move_time_resets_each_move_and_spends_the_reserve() {
        let clock = json!({"kind": "per_move", "move_ms": 30_000, "reserve_ms": 60_000});
        let mut r = clocked(GameKind::Cc, json!({ "clock": clock }), &["Ana", "Bo"]);
        any_move(&mut r, 1_000 + 20_000);
        assert_eq!(remaining(&r), vec![60_000, 60_000]);
        any_move(&mut r, 21_000 + 40_000);
        assert_eq!(remaining(&r), vec![60_000, 50_000]);
        assert_eq!(r.flag_deadline(), Some(61_000 + 90_000 + 300));
        // Chinese checkers for two: the player whose flag falls loses.
        r.flag(61_000 + 90_300, &mut Change::default()).unwrap();
        let outcome = r.play.as_ref().unwrap().state.outcome().unwrap();
        assert_eq!(
            (outcome.reason, outcome.places.clone()),
            (Reason::Time, vec![Some(2), Some(1)])
        );
    }

    #[test]
    fn three_or_more_a_fallen_flag_hands_the_seat_to_a_cpu_or_the_last_place() {
        let clock = json!({"kind": "per_move", "move_ms": 5_000, "reserve_ms": 0});
        let rules = json!({"players": 3});
        let mut r = clocked(
            GameKind::Cc,
            json!({"clock": clock, "rules": rules}),
            &["Ana", "Bo", "Cy"],
        );
        let mut ch = Change::default();
        assert_eq!(r.flag(1_000 + 5_300, &mut ch).unwrap(), 0);
        assert_eq!(r.status, Status::Playing);
        assert_eq!(r.seats[0].stand_in, Some(FLAG_CPU_LEVEL));
        assert_eq!(r.cpu_to_move().map(|c| c.0), Some(0));
        assert_eq!(
            r.flag_deadline(),
            None,
            "the CPU plays that seat without a clock"
        );
        assert!(!r.take_back(0, &mut ch), "the person does not take it back");
        any_move(&mut r, 7_000);
        assert_eq!(
            r.flag_deadline(),
            Some(7_000 + 5_300),
            "the next seat's runs"
        );
        assert!(r.has_flagged(0) && !r.has_flagged(1));

        let mut r = clocked(
            GameKind::Cc,
            json!({"clock": clock, "rules": rules, "on_flag": "last"}),
            &["Ana", "Bo", "Cy"],
        );
        let mut ch = Change::default();
        r.flag(6_300, &mut ch).unwrap();
        assert!(ch.events.contains(&Event::Flag {
            seat: 0,
            then: FlagThen::Last
        }));
        let play = r.play.as_ref().unwrap();
        assert!(!play.state.in_play(0));
        assert_eq!((r.status, play.state.to_move()), (Status::Playing, Some(1)));
        assert_eq!(
            r.flag_deadline(),
            Some(6_300 + 5_300),
            "the next seat's clock starts then"
        );
    }

    #[test]
    fn a_cpu_thinks_within_its_time() {
        let mut r = clocked(
            GameKind::Draughts,
            json!({"clock": {"kind": "fischer", "base_ms": 60_000, "increment_ms": 2_000}}),
            &["Ana", "CPU"],
        );
        assert_eq!(r.cpu_think_cap(1_000), Some(3_000 + 1_500));
        assert_eq!(r.cpu_think_cap(1_000 + 59_000), Some(500));
        assert_eq!(r.cpu_think_cap(1_000 + 70_000), Some(0));
        any_move(&mut r, 2_000);
        assert!(r.cpu_to_move().is_some());
    }

    #[test]
    fn the_time_is_stored_with_each_move_and_restored_by_the_rows() {
        let mut r = draughts(60_000, 2_000);
        let mut log = Vec::new();
        for (n, now) in [5_000, 9_000, 20_000].into_iter().enumerate() {
            let ch = any_move(&mut r, now);
            log.extend(action_rows(r.game_no, n as i64, &ch.actions, now));
        }
        assert_eq!(log[2].clock.as_deref(), Some("[49000,58000]"));
        let stored = StoredRoom {
            room: r.to_row(),
            seats: r.seat_rows(),
            actions: log,
            client_ids: Vec::new(),
        };
        let back = Room::from_stored(&stored).unwrap();
        assert_eq!(
            back.play.as_ref().unwrap().clock,
            r.play.as_ref().unwrap().clock
        );
        assert_eq!(back.flag_deadline(), r.flag_deadline());
        assert_eq!(back.clock_view(30_000), r.clock_view(30_000));
    }

    #[test]
    fn a_clock_is_for_live_games_only() {
        let clock = json!({"kind": "fischer", "base_ms": 60_000, "increment_ms": 0});
        let input = SettingsInput::parse(
            GameKind::Draughts,
            &json!({"clock": clock, "rhythm": "turn"}),
        )
        .unwrap();
        let err = Settings::new(GameKind::Draughts, &input).unwrap_err();
        assert!(matches!(err, Error::InvalidSettings(d) if d.field.as_deref() == Some("clock")));
        let input = SettingsInput::parse(GameKind::Draughts, &json!({"clock": clock})).unwrap();
        let (live, _) = Settings::new(GameKind::Draughts, &input).unwrap();
        let turn = SettingsInput::parse(GameKind::Draughts, &json!({"rhythm": "turn"})).unwrap();
        let (turn, _) = live.with(GameKind::Draughts, &turn).unwrap();
        assert_eq!(
            turn.clock,
            ClockSettings::None,
            "going turn by turn drops the clock"
        );
    }
}
