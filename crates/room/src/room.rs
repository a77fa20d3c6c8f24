//! A room and its rules of play (RULES.md part 3, docs/protocol.md): seats, host, settings,
//! start, moves, resignation, draw offers, rematch, presence. Pure state changes: each operation
//! works on a copy of the room, records what it did in a [`Change`] (events to broadcast, game
//! log entries to persist), and the caller (the server's live rooms) commits the copy only once the
//! change is durable.

mod away;
mod flag;
mod move_ids;
mod transfer;

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use dames_ai::Level;

use crate::clock::Clock;
use crate::error::{Detail, Error};
use crate::event::Event;
use crate::game::{GameKind, GameRules, GameState, MoveInput};
use crate::protocol::{LegalMove, MoveRecord};
pub use crate::settings::{Rhythm, Settings, SettingsInput, MAX_CPU_MS};
pub use away::{AwayAction, AwayRequest, CLAIM_FACTOR};
pub use move_ids::MoveIds;
pub use transfer::{Transfer, TRANSFER_TTL_MS};

/// Where a room is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Seats being taken, settings being chosen.
    Lobby,
    /// A game is being played.
    Playing,
    /// The last game is over (a rematch may start the next one).
    Finished,
}

impl Status {
    /// The protocol's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Lobby => "lobby",
            Self::Playing => "playing",
            Self::Finished => "finished",
        }
    }

    /// From the protocol's name.
    pub fn from_name(name: &str) -> Option<Self> {
        [Self::Lobby, Self::Playing, Self::Finished]
            .into_iter()
            .find(|s| s.as_str() == name)
    }
}

/// Who sits on a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Occupant {
    /// Nobody.
    Empty,
    /// A person, proven by the seat token whose SHA-256 is kept.
    Human {
        /// Their name.
        name: String,
        /// SHA-256 of their seat token.
        token_hash: [u8; 32],
        /// Their `dames_client` cookie, if known.
        client: Option<String>,
    },
    /// A CPU player.
    Cpu(Level),
}

/// A seat of the room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// Who sits there.
    pub occupant: Occupant,
    /// Ready for a rematch.
    pub ready: bool,
    /// Open WebSocket connections of this seat (memory only).
    pub connections: u32,
    /// Connected to another live node of the cluster (memory only; the server's presence).
    pub elsewhere: bool,
    /// A person's seat played by a CPU of this level until they come back ("Away players").
    pub stand_in: Option<Level>,
    /// When the last connection of this seat closed (Unix ms; `None` while connected, or never
    /// seen leaving). No event: stored with the seat's row by the server when it matters.
    pub away_since: Option<i64>,
    /// A pending one-time link moving this seat to another browser (stored with the seat's row).
    pub transfer: Option<Transfer>,
}

impl Seat {
    /// Whether its person has an open connection, here or on another node.
    pub fn online(&self) -> bool {
        self.connections > 0 || self.elsewhere
    }

    fn empty() -> Self {
        Self {
            occupant: Occupant::Empty,
            ready: false,
            connections: 0,
            elsewhere: false,
            stand_in: None,
            away_since: None,
            transfer: None,
        }
    }

    /// Whether a person or a CPU sits here.
    pub fn is_taken(&self) -> bool {
        self.occupant != Occupant::Empty
    }
}

/// The current (or last) game of a room.
#[derive(Clone, Debug)]
pub struct Play {
    /// The engine's state.
    pub state: GameState,
    /// The moves of the game, in order. Each behind an `Arc`: a change is made on a copy of the
    /// room (the server's `Rooms::mutate`), and copying a game's moves then costs one count
    /// each, not the three allocations of a record.
    pub records: Vec<Arc<MoveRecord>>,
    /// Draughts: the seat offering a draw.
    pub draw_offer: Option<usize>,
    /// Draughts: the seat that declined the last offer, until the next move (so that everyone
    /// sees the answer, « Le CPU refuse la nulle »). Stored with the room (`rooms.draw_declined`).
    pub draw_declined: Option<usize>,
    /// Draughts: the CPU's last judgement of a draw offer, by ply (one search per position).
    pub draw_judged: Option<(usize, bool)>,
    /// Entries in the game log so far (next `seq`).
    pub log_len: i64,
    /// The clocks, in a room with a « Pendule » (crate::clock).
    pub clock: Option<Clock>,
}

impl Play {
    /// A game just started: no move, no offer, nothing logged.
    pub fn new(state: GameState) -> Self {
        Self {
            state,
            records: Vec::new(),
            draw_offer: None,
            draw_declined: None,
            draw_judged: None,
            log_len: 0,
            clock: None,
        }
    }
}

/// One entry of a game log (the `actions` table): what replaying needs.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// A move, with the client's id if it gave one, and each seat's time after it (a room with
    /// a clock).
    Move {
        seat: usize,
        mv: LegalMove,
        client_id: Option<String>,
        clock: Option<Vec<i64>>,
    },
    /// `seat`'s flag fell and it lost (or took the last place), with each seat's time then.
    Flag {
        seat: usize,
        clock: Option<Vec<i64>>,
    },
    /// A resignation.
    Resign { seat: usize },
    /// A loss by abandonment: the other player claimed the win ("Away players").
    Forfeit { seat: usize },
    /// A draw by agreement.
    Draw,
    /// The game ended with no result (45 days without a move).
    Abandon,
    /// The game was stopped: no person was left in play.
    Stop,
}

/// What one operation did.
#[derive(Clone, Debug, Default)]
pub struct Change {
    /// Events, in order (each gets the next version).
    pub events: Vec<Event>,
    /// Game log entries of the current game.
    pub actions: Vec<Action>,
    /// Whether this counts as activity for retention (everything but presence).
    pub activity: bool,
    /// The current game started or ended: its `games` row is written with the change.
    pub game: bool,
}

impl Change {
    fn event(&mut self, event: Event) {
        self.events.push(event);
        self.activity = true;
    }
}

/// A room.
#[derive(Clone, Debug)]
pub struct Room {
    pub code: String,
    pub kind: GameKind,
    pub settings: Settings,
    pub seats: Vec<Seat>,
    pub status: Status,
    /// Version of the last event.
    pub version: i64,
    /// 0 before the first start, then the number of the current game.
    pub game_no: i64,
    /// The seat that moves first in the current game.
    pub first_seat: usize,
    pub play: Option<Play>,
    pub created_at: i64,
    pub active_at: i64,
    pub last_move_at: Option<i64>,
    pub finished_at: Option<i64>,
    /// Client move ids already applied in this room.
    pub move_ids: MoveIds,
    /// The position every game of the room starts from: draughts, a FEN imported by the host
    /// (`crate::position`); Chinese checkers, `game::SOLITAIRE_START` for the crossing puzzle;
    /// `None` for the usual start.
    pub start: Option<String>,
    /// Games against CPUs: a keyed hash of the address that started the room's game (its /64
    /// for IPv6; the server's live::cpu, the cap per address), stored so that the cap survives a
    /// restart. Never the address itself.
    pub cpu_by: Option<String>,
}

/// Longest player name, in characters (after normalization; `GET /api/settings` gives it).
pub const NAME_MAX_CHARS: usize = crate::names::MAX_NAME;

/// Checks a player name and gives its stored form (crate::names: NFC, spaces collapsed, 1–24
/// characters, nothing invisible, not a CPU's name).
///
/// # Errors
/// `invalid_name` with field `name` and the reason of [`crate::names::NameError::as_str`].
pub fn valid_name(name: &str) -> Result<String, Error> {
    crate::names::name(name).map_err(|why| Error::InvalidName(why.into()))
}

/// The room's state forbids the action: `reason` for clients, `message` in English.
fn wrong_state(reason: &'static str, message: &str) -> Error {
    Error::WrongState(Detail::state(reason, message))
}

fn illegal(err: crate::game::PlayError) -> Error {
    Error::IllegalMove(err.to_string())
}

fn refused(err: crate::game::ActionError) -> Error {
    Error::WrongState(Detail::state("cannot_resign", err.to_string()))
}

impl Room {
    /// A new room in the lobby with its host on seat 0.
    pub fn new(
        code: String,
        kind: GameKind,
        settings: Settings,
        seats: usize,
        host: Occupant,
        now: i64,
    ) -> Self {
        let mut seats: Vec<Seat> = (0..seats).map(|_| Seat::empty()).collect();
        seats[0].occupant = host;
        Self {
            code,
            kind,
            settings,
            seats,
            status: Status::Lobby,
            version: 0,
            game_no: 0,
            first_seat: 0,
            play: None,
            created_at: now,
            active_at: now,
            last_move_at: None,
            finished_at: None,
            move_ids: MoveIds::default(),
            start: None,
            cpu_by: None,
        }
    }

    /// Draughts: the seat playing White in the current (or next) game — the first seat, unless
    /// the room's start position has Black to move.
    pub fn white_seat(&self) -> usize {
        if let Some(white) = self.play.as_ref().and_then(|p| p.state.white_seat()) {
            return white;
        }
        let first = self.first_seat.min(1);
        match &self.start {
            Some(fen) if fen.trim_start().starts_with(['B', 'b']) => 1 - first,
            _ => first,
        }
    }

    /// Whether the room plays the crossing puzzle (« Défi solitaire »).
    pub fn is_solitaire(&self) -> bool {
        self.kind == GameKind::Cc && self.start.as_deref() == Some(crate::game::SOLITAIRE_START)
    }

    /// The seat whose token is `token`, if any.
    pub fn seat_of_token(&self, token: &str) -> Option<usize> {
        // Every seat is compared (no early exit) so that timing tells nothing.
        let mut found = None;
        for (i, seat) in self.seats.iter().enumerate() {
            if let Occupant::Human { token_hash, .. } = &seat.occupant {
                if crate::token::token_matches(token, token_hash) {
                    found = Some(i);
                }
            }
        }
        found
    }

    fn seat(&self, n: usize) -> Result<&Seat, Error> {
        self.seats
            .get(n)
            .ok_or_else(|| wrong_state("no_such_seat", "this room has no such seat"))
    }

    fn require_lobby(&self) -> Result<(), Error> {
        match self.status {
            Status::Lobby => Ok(()),
            _ => Err(wrong_state("started", "the game has already started")),
        }
    }

    fn require_finished(&self) -> Result<(), Error> {
        match self.status {
            Status::Finished => Ok(()),
            _ => Err(wrong_state(
                "not_finished",
                "a rematch needs a finished game",
            )),
        }
    }

    fn require_playing(&self) -> Result<&Play, Error> {
        match (&self.play, self.status) {
            (Some(play), Status::Playing) => Ok(play),
            (_, Status::Lobby) => Err(wrong_state("not_started", "the game has not started")),
            _ => Err(wrong_state("over", "the game is over")),
        }
    }

    /// Seats a person: on `wanted` or the first free seat. Returns the seat.
    ///
    /// # Errors
    /// `wrong_state` outside the lobby, `seat_taken`, `room_full`.
    pub fn join(
        &mut self,
        wanted: Option<usize>,
        occupant: Occupant,
        ch: &mut Change,
    ) -> Result<usize, Error> {
        self.require_lobby()?;
        let n = match wanted {
            Some(n) if self.seat(n)?.is_taken() => return Err(Error::SeatTaken),
            Some(n) => n,
            None => self
                .seats
                .iter()
                .position(|s| !s.is_taken())
                .ok_or(Error::RoomFull)?,
        };
        let name = match &occupant {
            Occupant::Human { name, .. } => name.clone(),
            _ => String::new(),
        };
        self.seats[n].occupant = occupant;
        ch.event(Event::Joined { name, seat: n });
        Ok(n)
    }

    /// Frees `seat` in the lobby (not the host's).
    ///
    /// # Errors
    /// `wrong_state` outside the lobby or for the host.
    pub fn leave(&mut self, seat: usize, ch: &mut Change) -> Result<(), Error> {
        self.require_lobby()?;
        if seat == 0 {
            return Err(wrong_state(
                "host_cannot_leave",
                "the host cannot leave the room",
            ));
        }
        // A fresh seat: the connections of the one who left no longer count for it.
        self.seats[seat] = Seat::empty();
        ch.event(Event::Left { seat });
        Ok(())
    }

    /// Host: changes the settings (the seat count follows the rules; seats beyond it are freed).
    ///
    /// # Errors
    /// `wrong_state` outside the lobby, `invalid_settings`.
    pub fn set_settings(&mut self, input: &SettingsInput, ch: &mut Change) -> Result<(), Error> {
        self.require_lobby()?;
        let (settings, seats) = self.settings.with(self.kind, input)?;
        if self.start.is_some() && settings.rules != self.settings.rules {
            if let (GameRules::Draughts(new), GameRules::Draughts(old)) =
                (&settings.rules, &self.settings.rules)
            {
                if new.variant != old.variant {
                    return Err(Error::InvalidSettings(
                        Detail::field(
                            "rules.variant",
                            "conflict",
                            format!(
                                "the room plays an imported {} position: its board cannot change",
                                old.variant
                            ),
                        )
                        .with("with", "start"),
                    ));
                }
            }
        }
        self.settings = settings;
        for n in (seats..self.seats.len()).rev() {
            if self.seats[n].is_taken() {
                ch.event(Event::Left { seat: n });
            }
        }
        self.seats.resize_with(seats, Seat::empty);
        ch.event(Event::Settings);
        Ok(())
    }

    /// Host: puts a CPU on `seat`, removes one, or kicks a person (lobby).
    ///
    /// # Errors
    /// `wrong_state` outside the lobby or on the host's seat, `seat_taken` for a CPU on a
    /// person's seat.
    pub fn set_seat(
        &mut self,
        seat: usize,
        action: SeatAction,
        ch: &mut Change,
    ) -> Result<(), Error> {
        self.require_lobby()?;
        if seat == 0 {
            return Err(wrong_state(
                "host_seat",
                "the host's seat cannot be changed",
            ));
        }
        let current = self.seat(seat)?.occupant.clone();
        match (action, current) {
            (SeatAction::Cpu(level), Occupant::Empty | Occupant::Cpu(_)) => {
                self.seats[seat].occupant = Occupant::Cpu(level);
                ch.event(Event::Joined {
                    name: "CPU".into(),
                    seat,
                });
            }
            (SeatAction::Cpu(_), Occupant::Human { .. }) => return Err(Error::SeatTaken),
            (SeatAction::Empty, Occupant::Cpu(_)) | (SeatAction::Kick, Occupant::Human { .. }) => {
                self.seats[seat] = Seat::empty();
                ch.event(Event::Left { seat });
            }
            _ => {}
        }
        Ok(())
    }

    /// Host: starts the first game.
    ///
    /// # Errors
    /// `wrong_state` outside the lobby, `not_enough_players`.
    pub fn start(&mut self, random: u64, now: i64, ch: &mut Change) -> Result<(), Error> {
        self.require_lobby()?;
        if self.seats.iter().any(|s| !s.is_taken()) {
            return Err(Error::NotEnoughPlayers);
        }
        let first = if self.settings.random_first {
            (random % self.seats.len() as u64) as usize
        } else {
            0
        };
        self.begin_game(first, now, ch)
    }

    fn begin_game(&mut self, first: usize, now: i64, ch: &mut Change) -> Result<(), Error> {
        let state = GameState::new(&self.settings.rules, first, self.start.as_deref())
            .map_err(|e| Error::InvalidSettings(e.to_string().into()))?;
        self.game_no += 1;
        self.first_seat = first;
        self.move_ids.new_game();
        let mut play = Play::new(state);
        play.clock = Clock::start(
            &self.settings.clock,
            self.seats.len(),
            play.state.to_move(),
            now,
        );
        self.play = Some(play);
        self.status = Status::Playing;
        self.last_move_at = Some(now);
        self.finished_at = None;
        for seat in &mut self.seats {
            seat.ready = false;
        }
        ch.event(Event::Started {
            game_no: self.game_no,
        });
        ch.game = true;
        self.check_finished(now, ch);
        Ok(())
    }

    /// Reads a client's `MoveInput` for this room's game.
    ///
    /// # Errors
    /// `illegal_move` if it is not a move of this game.
    pub fn parse_move(&self, input: &Value) -> Result<MoveInput, Error> {
        self.kind.parse_move(input).map_err(illegal)
    }

    /// `seat` plays `input`. Returns `false` if `client_id` was already applied (nothing done).
    ///
    /// # Errors
    /// `wrong_state`, `not_your_turn`, `illegal_move`.
    pub fn play_move(
        &mut self,
        seat: usize,
        client_id: Option<&str>,
        input: &MoveInput,
        now: i64,
        ch: &mut Change,
    ) -> Result<bool, Error> {
        self.play_move_lagged(seat, client_id, input, now, 0, ch)
    }

    /// [`Room::play_move`] for a move that came over a connection whose measured lag is
    /// `lag_ms` (half its round trip): in a room with a clock, the move is charged that much less
    /// (at most `crate::clock::MAX_LAG_CREDIT_MS`).
    ///
    /// # Errors
    /// As [`Room::play_move`], and `wrong_state` `time_out` for a move that came after its seat's
    /// time was out (the flag falls: [`Room::flag`]).
    pub fn play_move_lagged(
        &mut self,
        seat: usize,
        client_id: Option<&str>,
        input: &MoveInput,
        now: i64,
        lag_ms: i64,
        ch: &mut Change,
    ) -> Result<bool, Error> {
        if client_id.is_some_and(|id| self.move_ids.contains(id)) {
            return Ok(false);
        }
        let play = self.require_playing()?;
        if play.state.to_move() != Some(seat) {
            return Err(Error::NotYourTurn);
        }
        let clock = self.charged_clock(seat, now, lag_ms)?;
        let play = self.play.as_mut().ok_or(Error::Internal)?;
        let played = play.state.play(input).map_err(illegal)?;
        play.clock.clone_from(&clock);
        let record = MoveRecord {
            seat,
            mv: played.mv.clone(),
            passes: played.passes,
            finished: played.finished,
        };
        play.records.push(Arc::new(record.clone()));
        play.draw_offer = None;
        play.draw_declined = None;
        ch.event(Event::Move(record));
        if let Some(id) = client_id {
            self.move_ids.insert(id);
        }
        let client_id = client_id.map(str::to_owned);
        ch.actions.push(Action::Move {
            seat,
            mv: played.mv,
            client_id,
            clock: clock.map(|c| c.remaining),
        });
        self.last_move_at = Some(now);
        self.check_finished(now, ch);
        Ok(true)
    }

    /// `seat` resigns.
    ///
    /// # Errors
    /// `wrong_state` if no game is on or the engine refuses.
    pub fn resign(&mut self, seat: usize, now: i64, ch: &mut Change) -> Result<(), Error> {
        self.require_playing()?;
        let play = self.play.as_mut().ok_or(Error::Internal)?;
        play.state.resign(seat).map_err(refused)?;
        play.draw_offer = None;
        ch.event(Event::Resigned { seat });
        ch.actions.push(Action::Resign { seat });
        self.check_finished(now, ch);
        Ok(())
    }

    /// Draughts: `seat` offers, accepts or declines a draw. A CPU opponent answers an offer at
    /// once: it accepts when its evaluation says the position is dead drawn (or lost for it),
    /// and declines otherwise (`dames_ai::draughts::accepts_draw`).
    ///
    /// # Errors
    /// `wrong_state` for Chinese checkers, no game, or no offer to answer.
    pub fn draw(
        &mut self,
        seat: usize,
        action: DrawAction,
        now: i64,
        ch: &mut Change,
    ) -> Result<(), Error> {
        if self.kind != GameKind::Draughts {
            return Err(wrong_state(
                "no_draw_offers",
                "draw offers are for draughts",
            ));
        }
        let offer = self.require_playing()?.draw_offer;
        match (action, offer) {
            (DrawAction::Offer, None) => {
                self.offer_draw(seat, ch)?;
                self.cpu_answers_draw(seat, now, ch)
            }
            (DrawAction::Offer, Some(_)) => Err(wrong_state(
                "draw_offered",
                "a draw offer is already on the table",
            )),
            (DrawAction::Accept, Some(by)) if by != seat => self.accept_draw(seat, now, ch),
            (DrawAction::Decline, Some(by)) if by != seat => {
                self.decline_draw(seat, ch);
                Ok(())
            }
            _ => Err(wrong_state(
                "no_draw_offer",
                "there is no draw offer to answer",
            )),
        }
    }

    fn offer_draw(&mut self, seat: usize, ch: &mut Change) -> Result<(), Error> {
        let play = self.play.as_mut().ok_or(Error::Internal)?;
        play.draw_offer = Some(seat);
        play.draw_declined = None;
        ch.event(Event::DrawOffer { seat });
        Ok(())
    }

    /// The opponent of `seat`, if a CPU, judges the offer now.
    fn cpu_answers_draw(&mut self, seat: usize, now: i64, ch: &mut Change) -> Result<(), Error> {
        let other = 1 - seat.min(1);
        let cpu = self
            .seats
            .get(other)
            .is_some_and(|s| matches!(s.occupant, Occupant::Cpu(_)) || s.stand_in.is_some());
        if !cpu {
            return Ok(());
        }
        let ply = self.ply();
        let play = self.play.as_mut().ok_or(Error::Internal)?;
        // One judgement per position: offering again before a move gets the same answer free.
        let accepts = match play.draw_judged {
            Some((at, answer)) if at == ply => answer,
            _ => {
                let answer = play.state.cpu_accepts_draw(other);
                play.draw_judged = Some((ply, answer));
                answer
            }
        };
        if accepts {
            self.accept_draw(other, now, ch)
        } else {
            self.decline_draw(other, ch);
            Ok(())
        }
    }

    fn accept_draw(&mut self, seat: usize, now: i64, ch: &mut Change) -> Result<(), Error> {
        let play = self.play.as_mut().ok_or(Error::Internal)?;
        play.state
            .agree_draw()
            .map_err(|e| Error::WrongState(e.to_string().into()))?;
        play.draw_offer = None;
        ch.event(Event::DrawAccepted { seat });
        ch.actions.push(Action::Draw);
        self.check_finished(now, ch);
        Ok(())
    }

    fn decline_draw(&mut self, seat: usize, ch: &mut Change) {
        if let Some(play) = self.play.as_mut() {
            play.draw_offer = None;
            play.draw_declined = Some(seat);
        }
        ch.event(Event::DrawDeclined { seat });
    }

    /// Ends the game with no result (retention: 45 days without a move).
    pub fn abandon(&mut self, now: i64, ch: &mut Change) {
        if let (Some(play), Status::Playing) = (self.play.as_mut(), self.status) {
            play.state.abandon();
            ch.actions.push(Action::Abandon);
            self.check_finished(now, ch);
        }
    }

    /// `seat` is (not) ready for a rematch; when every person is, the next game starts.
    ///
    /// # Errors
    /// `wrong_state` unless the game is finished.
    pub fn rematch(
        &mut self,
        seat: usize,
        ready: bool,
        random: u64,
        now: i64,
        ch: &mut Change,
    ) -> Result<(), Error> {
        self.require_finished()?;
        self.seats[seat].ready = ready;
        ch.event(Event::Rematch { ready, seat });
        // A CPU, or one standing in for a person who left, is always ready.
        let all_ready = self
            .seats
            .iter()
            .all(|s| s.ready || s.stand_in.is_some() || matches!(s.occupant, Occupant::Cpu(_)));
        if all_ready {
            let n = self.seats.len();
            let first = if self.settings.random_first {
                (random % n as u64) as usize
            } else if self.settings.rotate_first {
                (self.first_seat + 1) % n
            } else {
                self.first_seat
            };
            self.begin_game(first, now, ch)?;
        }
        Ok(())
    }

    /// A seat's WebSocket count changed by `delta` at `now`: `Some(online)` when its presence
    /// flipped (the first connection opened or the last one closed). Memory only, like
    /// lila-ws's crowd: no event, no version, nothing stored (the server's `Rooms::presence`
    /// broadcasts it).
    pub fn presence(&mut self, seat: usize, delta: i32, now: i64) -> Option<bool> {
        let s = self.seats.get_mut(seat)?;
        let before = s.online();
        s.connections = s.connections.saturating_add_signed(delta);
        Self::flipped(s, before, now)
    }

    /// Whether `seat` is connected to another node of the cluster: `Some(online)` when its
    /// presence flipped.
    pub fn presence_elsewhere(&mut self, seat: usize, elsewhere: bool, now: i64) -> Option<bool> {
        let s = self.seats.get_mut(seat)?;
        let before = s.online();
        s.elsewhere = elsewhere;
        Self::flipped(s, before, now)
    }

    fn flipped(s: &mut Seat, before: bool, now: i64) -> Option<bool> {
        let after = s.online();
        s.away_since = if after {
            None
        } else {
            s.away_since.or(Some(now))
        };
        (before != after).then_some(after)
    }

    /// Moves the room to `finished` if the game just ended, or stops it if no person is left in
    /// play (every person finished or resigned): CPU players never play on alone.
    fn check_finished(&mut self, now: i64, ch: &mut Change) {
        self.stop_without_people(ch);
        self.finish_if_over(now, ch);
        self.turn_clock(now);
    }

    fn finish_if_over(&mut self, now: i64, ch: &mut Change) {
        let Some(outcome) = self.play.as_ref().and_then(|p| p.state.outcome()) else {
            return;
        };
        if self.status == Status::Playing {
            self.status = Status::Finished;
            self.finished_at = Some(now);
            if let Some(play) = self.play.as_mut() {
                play.draw_offer = None;
            }
            ch.event(Event::Finished { outcome });
            ch.game = true;
        }
    }

    fn stop_without_people(&mut self, ch: &mut Change) {
        let Some(play) = self.play.as_mut() else {
            return;
        };
        if self.status != Status::Playing || play.state.to_move().is_none() {
            return;
        }
        // A seat a CPU stands in for is not a person playing: CPUs never play on alone.
        let person_plays = self.seats.iter().enumerate().any(|(seat, s)| {
            matches!(s.occupant, Occupant::Human { .. })
                && s.stand_in.is_none()
                && play.state.in_play(seat)
        });
        if !person_plays {
            play.state.stop();
            ch.actions.push(Action::Stop);
        }
    }

    /// The position `seat` may ask a hint for: hints on, a game on, and `seat` to move.
    ///
    /// # Errors
    /// `hints_off`, `wrong_state` or `not_your_turn`.
    pub fn hint_position(&self, seat: usize) -> Result<GameState, Error> {
        if !self.settings.hints {
            return Err(Error::HintsOff);
        }
        let play = self.require_playing()?;
        if play.state.to_move() != Some(seat) {
            return Err(Error::NotYourTurn);
        }
        Ok(play.state.clone())
    }

    /// Whether a CPU sits in the room (its own seat, not a person's stand-in).
    pub fn has_cpu(&self) -> bool {
        self.seats
            .iter()
            .any(|s| matches!(s.occupant, Occupant::Cpu(_)))
    }

    /// Whether a CPU plays in this room: holding a seat, or standing in for an away person.
    /// What the caps on games against CPUs count.
    pub fn cpu_plays(&self) -> bool {
        self.has_cpu() || self.seats.iter().any(|s| s.stand_in.is_some())
    }

    /// The seat to move when it is a CPU's turn (a CPU seat, or a person's a CPU stands in
    /// for): (seat, level).
    pub fn cpu_to_move(&self) -> Option<(usize, Level)> {
        let seat = self.require_playing().ok()?.state.to_move()?;
        let s = self.seats.get(seat)?;
        match (&s.occupant, s.stand_in) {
            (Occupant::Cpu(level), _) => Some((seat, *level)),
            (Occupant::Human { .. }, Some(level)) => Some((seat, level)),
            _ => None,
        }
    }

    /// Number of moves played in the current game (identifies a turn with `game_no`).
    pub fn ply(&self) -> usize {
        self.play.as_ref().map_or(0, |p| p.records.len())
    }
}

/// What the host does to a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatAction {
    /// Put a CPU of this level.
    Cpu(Level),
    /// Remove the CPU.
    Empty,
    /// Free a person's seat.
    Kick,
}

/// Answers to a draw offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A person named `name` whose seat token is their name (the room's tests and its parts').
    pub(super) fn human(name: &str) -> Occupant {
        Occupant::Human {
            name: name.into(),
            token_hash: crate::token::hash_token(name),
            client: None,
        }
    }

    fn room(kind: GameKind, rules: Value) -> Room {
        let input = SettingsInput {
            rules: Some(rules),
            ..SettingsInput::default()
        };
        let (settings, seats) = Settings::new(kind, &input).unwrap();
        Room::new("K7M2QX".into(), kind, settings, seats, human("Ana"), 0)
    }

    #[test]
    fn join_fills_the_first_free_seat_then_the_room_is_full() {
        let mut r = room(GameKind::Cc, json!({"players": 3}));
        let mut ch = Change::default();
        assert_eq!(r.join(None, human("Bo"), &mut ch).unwrap(), 1);
        assert!(matches!(
            r.join(Some(1), human("Cy"), &mut ch),
            Err(Error::SeatTaken)
        ));
        assert_eq!(r.join(None, human("Cy"), &mut ch).unwrap(), 2);
        assert!(matches!(
            r.join(None, human("Di"), &mut ch),
            Err(Error::RoomFull)
        ));
        assert_eq!(r.seat_of_token("Cy"), Some(2));
        assert_eq!(r.seat_of_token("Eve"), None);
        assert_eq!(ch.events.len(), 2);
    }

    #[test]
    fn fewer_players_free_the_seats_beyond() {
        let mut r = room(GameKind::Cc, json!({"players": 4}));
        let mut ch = Change::default();
        r.join(Some(3), human("Bo"), &mut ch).unwrap();
        let input = SettingsInput {
            rules: Some(json!({"players": 2})),
            ..SettingsInput::default()
        };
        r.set_settings(&input, &mut ch).unwrap();
        assert_eq!(r.seats.len(), 2);
        assert_eq!(r.seat_of_token("Bo"), None);
        assert!(ch.events.contains(&Event::Left { seat: 3 }));
    }

    #[test]
    fn rematch_starts_when_every_person_is_ready_with_the_next_first_seat() {
        let mut r = room(GameKind::Draughts, json!({}));
        let mut ch = Change::default();
        r.join(None, human("Bo"), &mut ch).unwrap();
        r.start(0, 0, &mut ch).unwrap();
        assert_eq!((r.first_seat, r.game_no), (0, 1));
        r.resign(1, 0, &mut ch).unwrap();
        assert_eq!(r.status, Status::Finished);
        r.rematch(0, true, 0, 0, &mut ch).unwrap();
        assert_eq!(r.status, Status::Finished);
        r.rematch(1, true, 0, 0, &mut ch).unwrap();
        assert_eq!((r.status, r.first_seat, r.game_no), (Status::Playing, 1, 2));
        assert_eq!(r.play.as_ref().unwrap().state.to_move(), Some(1));
        assert!(r.seats.iter().all(|s| !s.ready));
    }

    #[test]
    fn without_rotation_the_same_seat_starts_again_and_random_draws_it() {
        let mut r = room(
            GameKind::Cc,
            json!({"players": 3, "rotate_first_player": false}),
        );
        let mut ch = Change::default();
        r.set_seat(1, SeatAction::Cpu(Level::Normal), &mut ch)
            .unwrap();
        r.set_seat(2, SeatAction::Cpu(Level::Facile), &mut ch)
            .unwrap();
        r.start(0, 0, &mut ch).unwrap();
        // The only person resigns: the CPUs do not play on alone.
        r.resign(0, 0, &mut ch).unwrap();
        assert_eq!(r.status, Status::Finished);
        assert_eq!(
            r.play.as_ref().unwrap().state.outcome().unwrap().reason,
            crate::protocol::Reason::Stopped
        );
        assert_eq!(ch.actions.last(), Some(&Action::Stop));
        // The CPUs are always ready: the host alone starts the next game, seat 0 first again.
        r.rematch(0, true, 0, 0, &mut ch).unwrap();
        assert_eq!((r.status, r.first_seat, r.game_no), (Status::Playing, 0, 2));
        let mut r = room(
            GameKind::Cc,
            json!({"players": 3, "random_first_player": true}),
        );
        r.set_seat(1, SeatAction::Cpu(Level::Normal), &mut ch)
            .unwrap();
        r.set_seat(2, SeatAction::Cpu(Level::Facile), &mut ch)
            .unwrap();
        r.start(5, 0, &mut ch).unwrap();
        assert_eq!(r.first_seat, 2);
    }

    #[test]
    fn presence_flips_only_with_the_first_and_last_connection() {
        let mut r = room(GameKind::Cc, json!({}));
        assert_eq!(r.presence(0, 1, 5), Some(true));
        assert_eq!(r.presence(0, 1, 6), None);
        assert_eq!(r.presence(0, -1, 7), None);
        assert_eq!(r.seats[0].away_since, None, "still connected");
        assert_eq!(r.presence(0, -1, 8), Some(false));
        assert_eq!(
            r.seats[0].away_since,
            Some(8),
            "gone since the last one closed"
        );
        assert_eq!(r.presence(0, -1, 9), None, "never below zero");
        assert_eq!(r.seats[0].away_since, Some(8));
        assert_eq!(r.presence(9, 1, 10), None);
        assert_eq!(r.version, 0, "presence is no event");
    }

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(valid_name("  Ana ").unwrap(), "Ana");
        assert_eq!(valid_name(&"é".repeat(24)).unwrap().chars().count(), 24);
        for bad in ["", "   ", "a\tb", "\u{1b}[31m", &"x".repeat(25)] {
            assert!(valid_name(bad).is_err(), "{bad:?}");
        }
    }
}
