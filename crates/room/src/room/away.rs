//! Away players (issue 11 item 1, docs/protocol.md "Away players"): a person who leaves a live
//! game does not strand the others.
//!
//! In a live game, once the seat to move has had no open connection for the room's
//! `away_after` seconds (counted from its last connection's closing, or from the start of its
//! turn if later), any other seated person may hand it to a CPU of a chosen level
//! ([`Room::hand_to_cpu`], event `stand_in`): the CPU plays that seat until its person comes
//! back, who takes it back on connecting ([`Room::take_back`], event `returned`). In a
//! 2-player game, after three times as long, the other player may instead claim the win
//! ([`Room::claim_win`], event `claimed`, outcome reason `abandonment`). Turn-by-turn games keep
//! the 45-day rule (the server's retention): neither is offered. The server alone decides the timing:
//! asked too early, it answers `not_away` with the milliseconds left.

use dames_ai::Level;
use serde::Deserialize;

use super::{wrong_state, Action, Change, Occupant, Rhythm, Room, Seat, Status};
use crate::error::{Detail, Error};
use crate::event::Event;

/// The claim of a win waits this many times `away_after`.
pub const CLAIM_FACTOR: i64 = 3;

/// What the other players do about an away seat: hand it to a CPU, or claim the win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AwayAction {
    /// « Confier à un CPU ».
    Cpu,
    /// « Réclamer la victoire ».
    Claim,
}

/// `{"seat":n,"action":"cpu","level":"normal"}` or `{"seat":n,"action":"claim"}` (HTTP body;
/// the WebSocket's `away` message has the same fields).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AwayRequest {
    /// The away seat.
    pub seat: usize,
    /// What to do.
    pub action: AwayAction,
    /// The CPU's level (`cpu`; Normal when absent).
    #[serde(default)]
    pub level: Option<String>,
}

impl Room {
    /// `by` acts on an away seat as `req` says.
    ///
    /// # Errors
    /// As [`Room::hand_to_cpu`] and [`Room::claim_win`]; `invalid_settings` on `level` for an
    /// unknown level.
    pub fn away(
        &mut self,
        by: usize,
        req: &AwayRequest,
        now: i64,
        ch: &mut Change,
    ) -> Result<(), Error> {
        match req.action {
            AwayAction::Cpu => {
                let level = match req.level.as_deref() {
                    Some(name) => crate::settings::level("level", name)?,
                    None => Level::Normal,
                };
                self.hand_to_cpu(by, req.seat, level, now, ch)
            }
            AwayAction::Claim => self.claim_win(by, req.seat, now, ch),
        }
    }

    /// Since when `seat` has been away on its turn (Unix ms): a live game being played, `seat`
    /// to move, a person with no open connection and no CPU standing in. The later of its last
    /// connection's closing (the room's turn start if none since the room was loaded) and the
    /// start of its turn.
    pub fn away_since(&self, seat: usize) -> Option<i64> {
        if self.settings.rhythm != Rhythm::Live || self.status != Status::Playing {
            return None;
        }
        let play = self.play.as_ref()?;
        if play.state.to_move() != Some(seat) {
            return None;
        }
        let s = self.seats.get(seat)?;
        if !matches!(s.occupant, Occupant::Human { .. }) || s.online() || s.stand_in.is_some() {
            return None;
        }
        let turn = self.last_move_at.unwrap_or(self.active_at);
        Some(s.away_since.map_or(turn, |gone| gone.max(turn)))
    }

    /// Whether `by` may act on `seat` away for `wait_ms` by `now`.
    fn check_away(&self, by: usize, seat: usize, wait_ms: i64, now: i64) -> Result<(), Error> {
        self.require_playing()?;
        if self.settings.rhythm != Rhythm::Live {
            return Err(wrong_state(
                "turn_rhythm",
                "turn-by-turn games wait for their players (45 days)",
            ));
        }
        if by == seat {
            return Err(wrong_state("own_seat", "this is your own seat"));
        }
        let target = self.seat(seat)?;
        if !matches!(target.occupant, Occupant::Human { .. }) {
            return Err(wrong_state("not_a_person", "no person sits on this seat"));
        }
        if target.stand_in.is_some() {
            return Err(wrong_state("stand_in", "a CPU already plays this seat"));
        }
        let Some(since) = self.away_since(seat) else {
            let (reason, message) = if target.online() {
                ("present", "this player is connected")
            } else {
                ("not_their_turn", "this player is not the one to move")
            };
            return Err(Error::NotAway(Detail::state(reason, message)));
        };
        let left = since + wait_ms - now;
        if left > 0 {
            return Err(Error::NotAway(
                Detail::state(
                    "too_early",
                    format!(
                        "this player has been away for less than {} s",
                        wait_ms / 1000
                    ),
                )
                .with("wait_ms", left),
            ));
        }
        Ok(())
    }

    /// Whether the room holds, at `now`, memory-only state that a reload from the store would
    /// change (the server's eviction keeps such a room in memory): an unexpired link to move a
    /// seat ([`Room::offer_transfer`]), or a seat away on its turn since after its turn began
    /// while that time still decides anything (until the claim of a win is open). Both last a
    /// bounded time, so memory stays bounded by the rooms in use.
    pub fn holds_memory_state(&self, now: i64) -> bool {
        let transfer = self
            .seats
            .iter()
            .any(|s| s.transfer.as_ref().is_some_and(|t| t.expires_at > now));
        let turn = self.last_move_at.unwrap_or(self.active_at);
        let claim_ms = self.away_ms().saturating_mul(CLAIM_FACTOR);
        let away = (0..self.seats.len()).any(|n| {
            let gone = self.seats[n].away_since.filter(|&gone| gone > turn);
            gone.is_some_and(|gone| {
                self.away_since(n).is_some() && gone.saturating_add(claim_ms) > now
            })
        });
        transfer || away
    }

    /// The room's `away_after` in milliseconds.
    fn away_ms(&self) -> i64 {
        i64::try_from(self.settings.away_after)
            .unwrap_or(i64::MAX / 4)
            .saturating_mul(1000)
    }

    /// `by` hands `seat`, away on its turn, to a CPU of `level` until its person comes back.
    ///
    /// # Errors
    /// `not_away` (present, not their turn, or too early: `wait_ms`), `wrong_state`
    /// (`turn_rhythm`, `own_seat`, `not_a_person`, `stand_in`, no game on).
    pub fn hand_to_cpu(
        &mut self,
        by: usize,
        seat: usize,
        level: Level,
        now: i64,
        ch: &mut Change,
    ) -> Result<(), Error> {
        self.check_away(by, seat, self.away_ms(), now)?;
        self.seats[seat].stand_in = Some(level);
        ch.event(Event::StandIn {
            by,
            level: level.name().into(),
            seat,
        });
        Ok(())
    }

    /// A finished game: `seat` is ready for the rematch and starts it without the persons who
    /// left — every other person's seat with no open connection that is not ready is handed to
    /// a CPU of `level` (event `stand_in`, as during a game: they take it back on coming back).
    ///
    /// # Errors
    /// As [`Room::rematch`].
    pub fn rematch_without_absent(
        &mut self,
        seat: usize,
        level: Level,
        random: u64,
        now: i64,
        ch: &mut Change,
    ) -> Result<(), Error> {
        self.require_finished()?;
        for n in self.absent_seats(seat) {
            self.seats[n].stand_in = Some(level);
            ch.event(Event::StandIn {
                by: seat,
                level: level.name().into(),
                seat: n,
            });
        }
        self.rematch(seat, true, random, now, ch)
    }

    /// The persons who left a finished game, as `seat` sees them: every other person's seat with
    /// no open connection that is not ready and that no CPU plays.
    fn absent_seats(&self, seat: usize) -> Vec<usize> {
        (0..self.seats.len())
            .filter(|&n| {
                let s = &self.seats[n];
                n != seat
                    && matches!(s.occupant, Occupant::Human { .. })
                    && !s.online()
                    && !s.ready
                    && s.stand_in.is_none()
            })
            .collect()
    }

    /// A finished game: the host sends the room back to the lobby without the persons who left
    /// (the host's other choice beside CPUs in their seats, [`Room::rematch_without_absent`]):
    /// their seats are freed (`left` each), then `reopened`. In the lobby the seats are taken by
    /// whoever joins with the code, or given to CPUs, or the settings changed, and the host
    /// starts the next game as the first one.
    ///
    /// # Errors
    /// `wrong_state`: `not_finished`, `host_only` for another seat, `nobody_absent` when every
    /// person is there.
    pub fn reopen_without_absent(&mut self, seat: usize, ch: &mut Change) -> Result<(), Error> {
        self.require_finished()?;
        if seat != 0 {
            return Err(wrong_state(
                "host_only",
                "only the host frees the seats of those who left",
            ));
        }
        let absent = self.absent_seats(seat);
        if absent.is_empty() {
            return Err(wrong_state("nobody_absent", "nobody has left"));
        }
        for n in absent {
            self.seats[n] = Seat::empty();
            ch.event(Event::Left { seat: n });
        }
        for s in &mut self.seats {
            s.ready = false;
            s.stand_in = None;
        }
        self.status = Status::Lobby;
        self.play = None;
        self.finished_at = None;
        ch.event(Event::Reopened { by: seat });
        Ok(())
    }

    /// The person of `seat` is back: the CPU standing in for them stops (nothing to do if none
    /// does). Returns whether it did.
    pub fn take_back(&mut self, seat: usize, ch: &mut Change) -> bool {
        // A seat whose flag fell is the CPU's to the end of the game (crate::clock).
        if self.has_flagged(seat) {
            return false;
        }
        let Some(s) = self.seats.get_mut(seat) else {
            return false;
        };
        if s.stand_in.take().is_none() {
            return false;
        }
        ch.event(Event::Returned { seat });
        true
    }

    /// 2-player live games: `by` claims the win over `seat`, away on its turn for
    /// [`CLAIM_FACTOR`] × `away_after`. The game ends, `seat` losing by abandonment.
    ///
    /// # Errors
    /// As [`Room::hand_to_cpu`], and `wrong_state` `not_two_players`.
    pub fn claim_win(
        &mut self,
        by: usize,
        seat: usize,
        now: i64,
        ch: &mut Change,
    ) -> Result<(), Error> {
        if self.seats.len() != 2 {
            return Err(wrong_state(
                "not_two_players",
                "a win can be claimed in a 2-player game only",
            ));
        }
        self.check_away(by, seat, self.away_ms().saturating_mul(CLAIM_FACTOR), now)?;
        let play = self.play.as_mut().ok_or(Error::Internal)?;
        play.state.forfeit(seat).map_err(super::refused)?;
        play.draw_offer = None;
        ch.event(Event::Claimed {
            away: seat,
            seat: by,
        });
        ch.actions.push(Action::Forfeit { seat });
        self.check_finished(now, ch);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::game::GameKind;
    use crate::room::tests::human;
    use crate::room::{SeatAction, Settings, SettingsInput};

    /// A live draughts game Ana (seat 0, White, to move) against Bo, started at 0, Ana's
    /// connection closed at 1 000 ms, `away_after` 10 s.
    fn game() -> Room {
        let input = SettingsInput {
            away_after: Some(10),
            ..SettingsInput::default()
        };
        let (settings, seats) = Settings::new(GameKind::Draughts, &input).unwrap();
        let mut r = Room::new(
            "K7M2QX".into(),
            GameKind::Draughts,
            settings,
            seats,
            human("Ana"),
            0,
        );
        let mut ch = Change::default();
        r.join(None, human("Bo"), &mut ch).unwrap();
        r.start(0, 0, &mut ch).unwrap();
        r.presence(0, 1, 0);
        r.presence(1, 1, 0);
        r.presence(0, -1, 1_000);
        r
    }

    fn reason(err: Error) -> (&'static str, &'static str) {
        let code = err.code();
        (code, err.detail().map_or("", |d| d.reason))
    }

    #[test]
    fn a_cpu_stands_in_once_the_seat_to_move_is_away_long_enough_and_leaves_when_they_return() {
        let mut r = game();
        let mut ch = Change::default();
        assert_eq!(r.away_since(0), Some(1_000));
        let early = r
            .hand_to_cpu(1, 0, Level::Normal, 10_999, &mut ch)
            .unwrap_err();
        assert_eq!(reason(early), ("not_away", "too_early"));
        assert_eq!(
            r.hand_to_cpu(1, 0, Level::Normal, 10_000, &mut ch)
                .unwrap_err()
                .to_json()["detail"]["wait_ms"],
            1_000
        );
        assert_eq!(
            reason(
                r.hand_to_cpu(0, 0, Level::Normal, 99_000, &mut ch)
                    .unwrap_err()
            ),
            ("wrong_state", "own_seat")
        );
        assert_eq!(
            reason(
                r.hand_to_cpu(0, 1, Level::Normal, 99_000, &mut ch)
                    .unwrap_err()
            ),
            ("not_away", "present")
        );
        r.hand_to_cpu(1, 0, Level::Facile, 11_000, &mut ch).unwrap();
        assert_eq!(r.cpu_to_move(), Some((0, Level::Facile)));
        assert_eq!(
            r.away_since(0),
            None,
            "played by the CPU: not away any more"
        );
        assert_eq!(
            reason(
                r.hand_to_cpu(1, 0, Level::Normal, 99_000, &mut ch)
                    .unwrap_err()
            ),
            ("wrong_state", "stand_in")
        );
        assert!(r.take_back(0, &mut ch));
        assert!(!r.take_back(0, &mut ch), "once");
        assert_eq!(r.cpu_to_move(), None);
        let kinds: Vec<_> = ch.events.iter().map(Event::kind).collect();
        assert!(kinds.ends_with(&["stand_in", "returned"]));
    }

    #[test]
    fn the_time_a_seat_left_is_kept_in_memory_only_while_it_decides_something() {
        // Ana (to move) left at 1 s, her turn began at 0: a reload would count from 0.
        let mut r = game();
        assert!(r.holds_memory_state(1_000));
        assert!(r.holds_memory_state(30_999), "the claim opens at 31 s");
        assert!(!r.holds_memory_state(31_000));
        // Left before her turn began: the turn's start is what counts, stored already.
        r.last_move_at = Some(2_000);
        assert!(!r.holds_memory_state(2_000));
        // A pending link to move a seat is memory only too, until it expires.
        let mut r = game();
        r.presence(0, 1, 5_000);
        assert!(!r.holds_memory_state(5_000));
        let (_, expires) = r.offer_transfer(1, 5_000).unwrap();
        assert!(r.holds_memory_state(expires - 1));
        assert!(!r.holds_memory_state(expires));
    }

    #[test]
    fn a_rematch_starts_without_the_absent_whose_seats_cpus_play() {
        let mut r = game();
        let mut ch = Change::default();
        assert!(r
            .rematch_without_absent(1, Level::Normal, 0, 2_000, &mut ch)
            .is_err());
        r.resign(1, 2_000, &mut ch).unwrap();
        r.rematch_without_absent(1, Level::Difficile, 0, 3_000, &mut ch)
            .unwrap();
        assert_eq!((r.status, r.game_no), (Status::Playing, 2));
        assert_eq!(
            r.seats[0].stand_in,
            Some(Level::Difficile),
            "Ana left: a CPU plays for her"
        );
        assert_eq!(r.seats[1].stand_in, None);
        assert!(r.take_back(0, &mut ch), "until she comes back");
    }

    #[test]
    fn the_host_may_free_the_seats_of_those_who_left_and_go_back_to_the_lobby() {
        let mut r = game();
        let mut ch = Change::default();
        r.presence(0, 1, 2_000);
        assert_eq!(
            reason(r.reopen_without_absent(0, &mut ch).unwrap_err()),
            ("wrong_state", "not_finished")
        );
        r.resign(0, 2_000, &mut ch).unwrap();
        assert_eq!(
            reason(r.reopen_without_absent(0, &mut ch).unwrap_err()),
            ("wrong_state", "nobody_absent"),
            "Bo is still there"
        );
        r.presence(1, -1, 3_000);
        assert_eq!(
            reason(r.reopen_without_absent(1, &mut ch).unwrap_err()),
            ("wrong_state", "host_only")
        );
        let mut ch = Change::default();
        r.reopen_without_absent(0, &mut ch).unwrap();
        assert_eq!(r.status, Status::Lobby);
        assert!(r.play.is_none());
        assert!(!r.seats[1].is_taken(), "Bo's seat is free");
        assert!(r.seats[0].is_taken(), "the host stays");
        assert_eq!(
            ch.events,
            vec![Event::Left { seat: 1 }, Event::Reopened { by: 0 }]
        );
        // Someone else takes the seat with the code; the host starts game 2 as the first one.
        r.join(None, human("Cy"), &mut ch).unwrap();
        r.start(0, 4_000, &mut ch).unwrap();
        assert_eq!((r.status, r.game_no), (Status::Playing, 2));
    }

    #[test]
    fn the_wait_counts_from_the_start_of_the_turn_when_later() {
        let mut r = game();
        r.last_move_at = Some(50_000);
        assert_eq!(r.away_since(0), Some(50_000));
        let mut ch = Change::default();
        assert_eq!(
            reason(
                r.hand_to_cpu(1, 0, Level::Normal, 59_999, &mut ch)
                    .unwrap_err()
            ),
            ("not_away", "too_early")
        );
        r.hand_to_cpu(1, 0, Level::Normal, 60_000, &mut ch).unwrap();
    }

    #[test]
    fn a_win_is_claimed_after_three_times_as_long_in_two_player_games_only() {
        let mut r = game();
        let mut ch = Change::default();
        assert_eq!(
            reason(r.claim_win(1, 0, 30_999, &mut ch).unwrap_err()),
            ("not_away", "too_early")
        );
        r.claim_win(1, 0, 31_000, &mut ch).unwrap();
        assert_eq!(r.status, Status::Finished);
        let outcome = r.play.as_ref().unwrap().state.outcome().unwrap();
        assert_eq!(outcome.reason, crate::protocol::Reason::Abandonment);
        assert_eq!(outcome.places, vec![Some(2), Some(1)]);
        assert_eq!(ch.actions.last(), Some(&Action::Forfeit { seat: 0 }));

        // Three players: no claim; turn-by-turn: nothing at all.
        let input = SettingsInput {
            rules: Some(json!({"players": 3})),
            ..SettingsInput::default()
        };
        let (settings, seats) = Settings::new(GameKind::Cc, &input).unwrap();
        let mut r = Room::new(
            "K7M2QX".into(),
            GameKind::Cc,
            settings,
            seats,
            human("Ana"),
            0,
        );
        r.join(None, human("Bo"), &mut ch).unwrap();
        r.set_seat(2, SeatAction::Cpu(Level::Normal), &mut ch)
            .unwrap();
        r.start(0, 0, &mut ch).unwrap();
        assert_eq!(
            reason(r.claim_win(1, 0, 999_000, &mut ch).unwrap_err()),
            ("wrong_state", "not_two_players")
        );
        let mut r = game();
        r.settings.rhythm = Rhythm::Turn;
        assert_eq!(r.away_since(0), None);
        assert_eq!(
            reason(
                r.hand_to_cpu(1, 0, Level::Normal, 999_000, &mut ch)
                    .unwrap_err()
            ),
            ("wrong_state", "turn_rhythm")
        );
    }
}
