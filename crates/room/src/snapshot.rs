//! Between a [`Room`] and its stored rows: what a commit writes, and how a stored room is
//! rebuilt by replaying its game log through the rules engine.

use serde_json::Value;

use dames_ai::Level;

use crate::game::{GameKind, GameState};
use crate::protocol::MoveRecord;
use crate::room::{Action, Occupant, Play, Room, Seat, Settings, Status, Transfer};
use crate::rows::{ActionRow, GameRow, RoomRow, RoomState, SeatRow, StoredRoom};

impl Room {
    /// The `rooms` row.
    pub fn to_row(&self) -> RoomRow {
        RoomRow {
            code: self.code.clone(),
            game: self.kind.as_str().into(),
            settings: self.settings.to_json().to_string(),
            start_fen: self.start.clone(),
            created_at: self.created_at,
            state: self.room_state(),
        }
    }

    /// The `rooms` columns that play changes.
    pub fn room_state(&self) -> RoomState {
        RoomState {
            status: self.status.as_str().into(),
            version: self.version,
            game_no: self.game_no,
            first_seat: self.first_seat as i64,
            draw_offer: self
                .play
                .as_ref()
                .and_then(|p| p.draw_offer)
                .map(|s| s as i64),
            draw_declined: self
                .play
                .as_ref()
                .and_then(|p| p.draw_declined)
                .map(|s| s as i64),
            cpu_by: self.cpu_by.clone(),
            active_at: self.active_at,
            last_move_at: self.last_move_at,
            finished_at: self.finished_at,
            clock: self
                .play
                .as_ref()
                .and_then(|p| p.clock.as_ref())
                .and_then(|c| serde_json::to_string(c).ok()),
        }
    }

    /// The `games` row of the current game as it is now (`now`: its start time, kept only by
    /// the first write).
    pub fn game_row(&self, now: i64) -> GameRow {
        let seats: Vec<_> = self
            .seat_views()
            .into_iter()
            .map(|mut v| {
                // Who was there, not who is connected now.
                v.online = false;
                v.ready = false;
                v
            })
            .collect();
        GameRow {
            game_no: self.game_no,
            settings: self.settings.to_json().to_string(),
            seats: serde_json::to_string(&seats).ok(),
            first_seat: self.first_seat as i64,
            start_fen: self.start.clone(),
            started_at: Some(now),
            finished_at: self.finished_at,
            outcome: self
                .play
                .as_ref()
                .and_then(|p| p.state.outcome())
                .and_then(|o| serde_json::to_string(&o).ok()),
        }
    }

    /// The `seats` rows.
    pub fn seat_rows(&self) -> Vec<SeatRow> {
        self.seats
            .iter()
            .enumerate()
            .map(|(n, seat)| {
                let mut row = SeatRow {
                    seat: n as i64,
                    kind: "empty".into(),
                    name: None,
                    level: None,
                    token_hash: None,
                    client: None,
                    ready: seat.ready,
                    away_since: seat.away_since,
                    transfer_hash: seat.transfer.as_ref().map(|t| t.hash.to_vec()),
                    transfer_expires_at: seat.transfer.as_ref().map(|t| t.expires_at),
                };
                match &seat.occupant {
                    Occupant::Empty => {}
                    Occupant::Human {
                        name,
                        token_hash,
                        client,
                    } => {
                        row.kind = "human".into();
                        row.name = Some(name.clone());
                        row.token_hash = Some(token_hash.to_vec());
                        row.client.clone_from(client);
                        row.level = seat.stand_in.map(|l| l.name().into());
                    }
                    Occupant::Cpu(level) => {
                        row.kind = "cpu".into();
                        row.level = Some(level.name().into());
                    }
                }
                row
            })
            .collect()
    }

    /// Rebuilds a stored room, replaying the current game's log through the engine.
    ///
    /// # Errors
    /// A message if the stored data does not make a valid room (corruption, or an engine that
    /// changed its rules).
    pub fn from_stored(stored: &StoredRoom) -> Result<Room, String> {
        let (r, state) = (&stored.room, &stored.room.state);
        let kind = GameKind::from_name(&r.game).ok_or("unknown game")?;
        let settings_json: Value = serde_json::from_str(&r.settings).map_err(|e| e.to_string())?;
        let (settings, _) = Settings::from_json(kind, &settings_json)?;
        let seats = stored
            .seats
            .iter()
            .map(seat_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        let mut room = Room::new(
            r.code.clone(),
            kind,
            settings,
            seats.len().max(1),
            Occupant::Empty,
            r.created_at,
        );
        room.seats = seats;
        let status = room.set_columns(state)?;
        room.start.clone_from(&r.start_fen);
        room.move_ids = stored.client_ids.iter().collect();
        if status != Status::Lobby {
            let mut play = replay(&room, &stored.actions)?;
            set_play_columns(&mut play, state)?;
            room.play = Some(play);
        }
        Ok(room)
    }

    /// Takes the `rooms` columns that play changes (`state`, but the draw columns, which are
    /// the play's: [`set_play_columns`]); returns the status.
    fn set_columns(&mut self, state: &RoomState) -> Result<Status, String> {
        let status = Status::from_name(&state.status).ok_or("unknown status")?;
        self.status = status;
        self.version = state.version;
        self.game_no = state.game_no;
        self.first_seat = usize::try_from(state.first_seat).map_err(|e| e.to_string())?;
        self.active_at = state.active_at;
        self.last_move_at = state.last_move_at;
        self.finished_at = state.finished_at;
        self.cpu_by.clone_from(&state.cpu_by);
        Ok(status)
    }

    /// Applies a change another node committed (the server's fan-out) to this copy of the room,
    /// which must be the stored room at the version the change was computed from: the `rooms`
    /// columns that play changes (`state`), the seat rows if they changed (the memory-only part
    /// of a seat whose occupant stays is kept), and the new log entries of the current game,
    /// played through the engine as [`Room::from_stored`] replays them.
    ///
    /// # Errors
    /// A message if the change does not follow this copy (a log entry out of sequence or of
    /// another game, one the engine refuses, a bad row): the copy is then partly changed, and
    /// the caller, which applied it to a clone, reloads the room instead.
    pub fn apply_committed(
        &mut self,
        state: &RoomState,
        seats: Option<&[SeatRow]>,
        actions: &[ActionRow],
    ) -> Result<(), String> {
        if let Some(rows) = seats {
            let fresh = rows
                .iter()
                .map(seat_from_row)
                .collect::<Result<Vec<_>, _>>()?;
            let old = std::mem::replace(&mut self.seats, fresh);
            self.keep_memory_of(&old);
        }
        let new_game = state.game_no != self.game_no;
        let status = self.set_columns(state)?;
        if status == Status::Lobby {
            if !actions.is_empty() {
                return Err("log entries in the lobby".into());
            }
            self.play = None;
            return Ok(());
        }
        let mut play = match self.play.take() {
            Some(play) if !new_game => play,
            _ => replay(self, &[])?,
        };
        for row in actions {
            if (row.game_no, row.seq) != (self.game_no, play.log_len) {
                return Err(format!(
                    "log entry {}/{} where {}/{} was due",
                    row.game_no, row.seq, self.game_no, play.log_len
                ));
            }
            play_row(self.kind, &mut play, row)?;
            if let Some(id) = &row.client_id {
                self.move_ids.insert(id);
            }
        }
        set_play_columns(&mut play, state)?;
        self.play = Some(play);
        Ok(())
    }

    /// Keeps what only this node's memory knows of `old` seats (who is connected here or
    /// elsewhere) on these seats, just read from the store; for a seat whose occupant stays,
    /// the away clock this node saw start (else the stored one; none while connected) and its
    /// pending transfer if the store has none.
    pub fn keep_memory_of(&mut self, old: &[Seat]) {
        for (seat, old) in self.seats.iter_mut().zip(old) {
            seat.connections = old.connections;
            seat.elsewhere = old.elsewhere;
            if seat.occupant == old.occupant {
                seat.away_since = old.away_since.or(seat.away_since);
                if seat.transfer.is_none() {
                    seat.transfer.clone_from(&old.transfer);
                }
            }
            if seat.online() {
                seat.away_since = None;
            }
        }
    }

    /// Takes the transfer links stored in `rows` (read from the store) for the seats still held
    /// by the same person (the same seat token): a link made through another node of a cluster.
    pub fn take_stored_transfers(&mut self, rows: &[SeatRow]) {
        for (seat, row) in self.seats.iter_mut().zip(rows) {
            let same = match &seat.occupant {
                Occupant::Human { token_hash, .. } => {
                    row.token_hash.as_deref() == Some(token_hash.as_slice())
                }
                _ => false,
            };
            if let (true, Ok(Some(transfer))) = (same, transfer_of(row)) {
                seat.transfer = Some(transfer);
            }
        }
    }
}

/// The columns of `state` that are the play's: the draw offer pending, the seat that declined
/// the last one, and the clocks.
fn set_play_columns(play: &mut Play, state: &RoomState) -> Result<(), String> {
    play.draw_offer = state.draw_offer.map(|s| s as usize);
    play.draw_declined = state.draw_declined.map(|s| s as usize);
    play.clock = match &state.clock {
        Some(text) => Some(serde_json::from_str(text).map_err(|e| format!("clock: {e}"))?),
        None => None,
    };
    Ok(())
}

fn seat_from_row(row: &SeatRow) -> Result<Seat, String> {
    // A person's row with a level: a CPU stands in for them (crate::room, "Away players").
    let stand_in = match row.kind.as_str() {
        "human" => row.level.as_deref().and_then(Level::from_name),
        _ => None,
    };
    let occupant = match row.kind.as_str() {
        "empty" => Occupant::Empty,
        "human" => Occupant::Human {
            name: row.name.clone().unwrap_or_default(),
            token_hash: row
                .token_hash
                .as_deref()
                .and_then(|h| h.try_into().ok())
                .ok_or("bad token hash")?,
            client: row.client.clone(),
        },
        "cpu" => Occupant::Cpu(
            row.level
                .as_deref()
                .and_then(Level::from_name)
                .ok_or("bad CPU level")?,
        ),
        other => return Err(format!("unknown seat kind {other}")),
    };
    Ok(Seat {
        occupant,
        ready: row.ready,
        connections: 0,
        elsewhere: false,
        stand_in,
        // The away clock and a pending transfer: stored with the seat (they survive a restart
        // and are the same on every node). A person's only.
        away_since: row.away_since.filter(|_| row.kind == "human"),
        transfer: transfer_of(row)?,
    })
}

/// The pending transfer link a stored seat holds (a person's only).
fn transfer_of(row: &SeatRow) -> Result<Option<Transfer>, String> {
    match (&row.transfer_hash, row.transfer_expires_at) {
        (Some(hash), Some(expires_at)) if row.kind == "human" => Ok(Some(Transfer {
            hash: hash
                .as_slice()
                .try_into()
                .map_err(|_| "bad transfer hash")?,
            expires_at,
        })),
        _ => Ok(None),
    }
}

/// A loss by abandonment ([`Action::Forfeit`]) is stored as a resignation with this data: a
/// resignation whose outcome's reason is `abandonment` (the log's kinds are fixed by the
/// database's CHECK constraint).
pub const FORFEIT_DATA: &str = r#"{"reason":"abandonment"}"#;

/// A fallen flag that ended the seat's game ([`Action::Flag`]) is stored as a resignation with
/// this data, as [`FORFEIT_DATA`].
pub const FLAG_DATA: &str = r#"{"reason":"time"}"#;

/// Whether a stored `resign` row is a fallen flag.
pub fn is_flag(row: &ActionRow) -> bool {
    row.data.as_deref() == Some(FLAG_DATA)
}

/// Whether a stored `resign` row is a loss by abandonment.
pub fn is_forfeit(row: &ActionRow) -> bool {
    row.data.as_deref() == Some(FORFEIT_DATA)
}

fn replay(room: &Room, actions: &[ActionRow]) -> Result<Play, String> {
    let state = GameState::new(&room.settings.rules, room.first_seat, room.start.as_deref())
        .map_err(|e| e.to_string())?;
    let mut play = Play::new(state);
    for row in actions {
        play_row(room.kind, &mut play, row)?;
    }
    Ok(play)
}

/// Plays one stored log entry on the game (the next one: `row.seq` is `play.log_len`).
fn play_row(kind: GameKind, play: &mut Play, row: &ActionRow) -> Result<(), String> {
    let seat = row.seat.map(|s| s as usize);
    match (row.kind.as_str(), seat) {
        ("move", Some(seat)) => {
            let input: Value = serde_json::from_str(row.data.as_deref().unwrap_or("null"))
                .map_err(|e| e.to_string())?;
            if play.state.to_move() != Some(seat) {
                return Err(format!(
                    "replay: move {} by seat {seat} out of turn",
                    row.seq
                ));
            }
            let played = kind
                .parse_move(&input)
                .and_then(|input| play.state.play(&input))
                .map_err(|e| format!("replay: move {}: {e}", row.seq))?;
            play.records.push(std::sync::Arc::new(MoveRecord {
                seat,
                mv: played.mv,
                passes: played.passes,
                finished: played.finished,
            }));
        }
        ("resign", Some(seat)) if is_forfeit(row) => {
            play.state.forfeit(seat).map_err(|e| e.to_string())?;
        }
        ("resign", Some(seat)) if is_flag(row) => {
            play.state.flag(seat).map_err(|e| e.to_string())?;
        }
        ("resign", Some(seat)) => play.state.resign(seat).map_err(|e| e.to_string())?,
        ("draw", _) => play.state.agree_draw().map_err(|e| e.to_string())?,
        ("abandon", _) => play.state.abandon(),
        ("stop", _) => play.state.stop(),
        (kind, _) => return Err(format!("replay: bad action {kind}")),
    }
    play.log_len += 1;
    Ok(())
}

/// The `actions` rows of a change, numbered from `first_seq`.
pub fn action_rows(game_no: i64, first_seq: i64, actions: &[Action], now: i64) -> Vec<ActionRow> {
    actions
        .iter()
        .enumerate()
        .map(|(i, action)| {
            let (seat, kind, data, client_id) = match action {
                Action::Move {
                    seat,
                    mv,
                    client_id,
                    ..
                } => (
                    Some(*seat),
                    "move",
                    serde_json::to_string(mv).ok(),
                    client_id.clone(),
                ),
                Action::Resign { seat } => (Some(*seat), "resign", None, None),
                Action::Forfeit { seat } => {
                    (Some(*seat), "resign", Some(FORFEIT_DATA.to_owned()), None)
                }
                Action::Flag { seat, .. } => {
                    (Some(*seat), "resign", Some(FLAG_DATA.to_owned()), None)
                }
                Action::Draw => (None, "draw", None, None),
                Action::Abandon => (None, "abandon", None, None),
                Action::Stop => (None, "stop", None, None),
            };
            let clock = match action {
                Action::Move { clock, .. } | Action::Flag { clock, .. } => clock.as_ref(),
                _ => None,
            };
            ActionRow {
                game_no,
                seq: first_seq + i as i64,
                seat: seat.map(|s| s as i64),
                kind: kind.into(),
                data,
                client_id,
                at: now,
                clock: clock.and_then(|c| serde_json::to_string(c).ok()),
            }
        })
        .collect()
}
