//! The CPU players: after each change the room layer calls [`Rooms::after_change`], which
//! cancels a CPU turn that has nothing left to do and starts the one whose turn it is; the turn
//! ([`CpuJob`]) computes its move on the pool of [`super::scheduler`] and plays it through
//! [`Rooms::mutate`] once its think time is over. Hints are computed on the same pool.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{RoomCell, Rooms};
use crate::error::{AppError, RoomError};
use crate::options::Limits;
use dames_room::game::MoveInput;
use dames_room::protocol::LegalMove;
use dames_room::room::{Occupant, Room, Status};
use dames_room::token;

/// The CPU turn being thought in a room: which turn it is, and its cancellation flag.
#[derive(Debug)]
pub(super) struct CpuTurn {
    key: (i64, i64),
    pub(super) cancel: Arc<AtomicBool>,
}

impl Rooms {
    /// After each change: cancel a CPU that has nothing left to do, start one whose turn it is.
    pub(super) fn after_change(self: &Arc<Self>, cell: &Arc<RoomCell>, room: &Arc<Room>) {
        self.arm_clock(cell, room);
        if let Some(place) = self.cpu_games.update(room) {
            self.release_shared(place);
        }
        let cpu = room
            .cpu_to_move()
            .filter(|_| !self.closed.load(Ordering::SeqCst));
        let Some((seat, level)) = cpu else {
            cell.cancel_cpu();
            self.unmark_cpu(room);
            return;
        };
        let key = (room.game_no, room.play.as_ref().map_or(0, |p| p.log_len));
        let cancel = {
            let mut cpu = cell.cpu.lock().unwrap_or_else(|e| e.into_inner());
            if cpu.as_ref().is_some_and(|t| t.key == key) {
                return;
            }
            if let Some(old) = cpu.take() {
                old.cancel.store(true, Ordering::Relaxed);
            }
            let cancel = Arc::new(AtomicBool::new(false));
            *cpu = Some(CpuTurn {
                key,
                cancel: cancel.clone(),
            });
            cancel
        };
        let job = CpuJob {
            rooms: self.clone(),
            cell: cell.clone(),
            room: room.clone(),
            seat,
            level,
            key,
            cancel,
        };
        tokio::spawn(job.run());
    }
}

/// The rooms whose games are against CPUs: who started them and whether one is being played,
/// so that one browser or one address cannot keep the CPU players' pool busy with many games.
/// Rebuilt from the rooms themselves (the host's browser from its seat, the address from
/// `Room::cpu_by`): every game being played against a CPU is loaded at start
/// (`Rooms::restore_all`), so a restart forgets none.
#[derive(Debug, Default)]
pub(super) struct CpuGames {
    games: Mutex<HashMap<String, CpuGame>>,
    /// The key of the addresses' hashes ([`Rooms::set_address_key`]; a random one until set).
    key: std::sync::OnceLock<String>,
    /// The caps held at commit (per browser, per address: [`Rooms::set_cpu_caps`]); none
    /// until set.
    caps: std::sync::OnceLock<(usize, usize)>,
}

/// A place taken among the games against CPUs by a change about to be committed
/// ([`CpuGames::reserve`]): given back with [`CpuGames::release`] if the commit fails.
#[derive(Debug)]
pub(super) struct Reserved {
    place: Place,
    /// What the table held for the room before.
    previous: Option<CpuGame>,
}

/// The place a game against CPUs takes in the caps: its room, and who it counts for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Place {
    pub(super) code: String,
    /// The host's browser.
    pub(super) client: Option<String>,
    /// The keyed hash of the address that started it.
    pub(super) by: Option<String>,
}

impl CpuGame {
    fn place(&self, code: &str) -> Place {
        Place {
            code: code.to_owned(),
            client: self.client.clone(),
            by: self.by.clone(),
        }
    }
}

impl Reserved {
    /// The place taken.
    pub(super) fn place(&self) -> &Place {
        &self.place
    }
}

#[derive(Debug, Default, Clone)]
struct CpuGame {
    /// The host's browser (`dames_client`).
    client: Option<String>,
    /// The keyed hash of the address that started the game (`Room::cpu_by`).
    by: Option<String>,
    /// A game is being played.
    live: bool,
}

impl CpuGames {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, CpuGame>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The keyed hash of address `ip` (its /64 for IPv6): what `Room::cpu_by` keeps, so that
    /// the database never holds the address.
    fn address_hash(&self, ip: IpAddr) -> String {
        let key = self.key.get_or_init(token::random_hex128);
        let ip = crate::net::client_ip::limit_key(ip);
        token::hash_token(&format!("{key}|{ip}"))[..16]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// After each change of `room`.
    /// After each change of `room`: the place it held, if it no longer holds one (its game
    /// against CPUs ended or went back to the lobby), to give back across the cluster.
    pub(super) fn update(&self, room: &Room) -> Option<Place> {
        let mut games = self.lock();
        if room.status == Status::Lobby || !room.cpu_plays() {
            let gone = games.remove(&room.code)?;
            return gone.live.then(|| gone.place(&room.code));
        }
        let game = games.entry(room.code.clone()).or_default();
        let was_live = game.live;
        game.live = room.status == Status::Playing;
        game.client = match room.seats.first().map(|s| &s.occupant) {
            Some(Occupant::Human { client, .. }) => client.clone(),
            _ => None,
        };
        game.by.clone_from(&room.cpu_by);
        (was_live && !game.live).then(|| game.place(&room.code))
    }

    /// A room dropped from memory (deleted): the place it held, if any.
    pub(super) fn forget(&self, code: &str) -> Option<Place> {
        let gone = self.lock().remove(code)?;
        gone.live.then(|| gone.place(code))
    }

    /// The places of the games against CPUs being played here (kept alive across the cluster).
    pub(super) fn live_places(&self) -> Vec<Place> {
        let games = self.lock();
        games
            .iter()
            .filter(|(_, g)| g.live)
            .map(|(code, g)| g.place(code))
            .collect()
    }

    /// The caps (per browser, per address), if set.
    pub(super) fn caps(&self) -> Option<(usize, usize)> {
        self.caps.get().copied()
    }

    /// Takes a place for `room` if the change from `before` (`None`: a new room) starts a game
    /// that CPUs play — a start, a rematch, a stand-in CPU taking an away player's seat — and
    /// counts it at once, under the table's lock: two changes racing for the last place cannot
    /// both pass (the cap is held where the game is committed, not only where it is asked
    /// for). `None` when the change starts no such game or no cap is set.
    ///
    /// # Errors
    /// `too_many_cpu_games` if the host's browser or the address that started the game already
    /// plays its share.
    pub(super) fn reserve(
        &self,
        before: Option<&Room>,
        room: &Room,
    ) -> Result<Option<Reserved>, AppError> {
        let Some(&(per_client, per_ip)) = self.caps.get() else {
            return Ok(None);
        };
        let cpu_game = |r: &Room| r.status == Status::Playing && r.cpu_plays();
        if !cpu_game(room) || before.is_some_and(cpu_game) {
            return Ok(None);
        }
        let client = match room.seats.first().map(|s| &s.occupant) {
            Some(Occupant::Human { client, .. }) => client.clone(),
            _ => None,
        };
        let mut games = self.lock();
        let others = games.iter().filter(|(c, g)| g.live && **c != room.code);
        let (mut by_client, mut by_ip) = (0, 0);
        for (_, g) in others {
            by_client += usize::from(client.is_some() && g.client == client);
            by_ip += usize::from(room.cpu_by.is_some() && g.by == room.cpu_by);
        }
        if by_client >= per_client || by_ip >= per_ip {
            crate::metrics::METRICS.refused("cpu-games");
            return Err(AppError::TooManyCpuGames);
        }
        let game = CpuGame {
            client,
            by: room.cpu_by.clone(),
            live: true,
        };
        let place = game.place(&room.code);
        let previous = games.insert(room.code.clone(), game);
        Ok(Some(Reserved { place, previous }))
    }

    /// Gives back a place taken by [`CpuGames::reserve`] whose change was not committed.
    pub(super) fn release(&self, reserved: Reserved) {
        let mut games = self.lock();
        match reserved.previous {
            Some(previous) => games.insert(reserved.place.code, previous),
            None => games.remove(&reserved.place.code),
        };
    }
}

impl Rooms {
    /// Whether the caller (`ip`, `client`) may start a game against CPUs: in `room` if its
    /// seats hold a CPU (`None`: a new room against CPUs), not counting that room's own game.
    ///
    /// # Errors
    /// `too_many_cpu_games` if the browser or the address already plays its share
    /// ([`Limits::cpu_games_per_client`], [`Limits::cpu_games_per_ip`]); never with the limits
    /// off.
    pub fn check_cpu_games(
        &self,
        room: Option<&Room>,
        ip: IpAddr,
        client: &str,
        limits: &Limits,
    ) -> Result<(), AppError> {
        if !limits.enabled || room.is_some_and(|r| !r.has_cpu()) {
            return Ok(());
        }
        let by = self.cpu_games.address_hash(ip);
        let code = room.map(|r| r.code.as_str());
        let games = self.lock_cpu_games();
        let others = games
            .iter()
            .filter(|(c, g)| g.live && Some(c.as_str()) != code);
        let (mut by_client, mut by_ip) = (0, 0);
        for (_, g) in others {
            by_client += usize::from(g.client.as_deref() == Some(client));
            by_ip += usize::from(g.by.as_ref() == Some(&by));
        }
        if by_client >= limits.cpu_games_per_client || by_ip >= limits.cpu_games_per_ip {
            crate::metrics::METRICS.refused("cpu-games");
            return Err(AppError::TooManyCpuGames);
        }
        Ok(())
    }

    /// The keyed hash of address `ip` as the caps count it (`Room::cpu_by`): for a room made
    /// elsewhere than by a request of that address (quick pairing's CPU fill).
    pub fn address_hash(&self, ip: IpAddr) -> String {
        self.cpu_games.address_hash(ip)
    }

    /// Records in `room`, whose game is starting, that address `ip` started it if CPUs play
    /// it (its rematches count for it too): committed with the start, so the cap per address
    /// holds across a restart.
    pub fn claim_cpu_game(&self, room: &mut Room, ip: IpAddr) {
        if room.has_cpu() {
            room.cpu_by = Some(self.cpu_games.address_hash(ip));
        }
    }

    /// Sets the key of the addresses' hashes (`Room::cpu_by`), kept in the store so that the
    /// hashes stay comparable across restarts and nodes. Before any request; a second call
    /// changes nothing.
    pub fn set_address_key(&self, key: String) {
        let _ = self.cpu_games.key.set(key);
    }

    /// Holds the caps on games against CPUs at commit ([`CpuGames::reserve`]), whatever asked
    /// for the game: `limits` off sets none. Before any request; a second call changes
    /// nothing.
    pub fn set_cpu_caps(&self, limits: &Limits) {
        if limits.enabled {
            let caps = (limits.cpu_games_per_client, limits.cpu_games_per_ip);
            let _ = self.cpu_games.caps.set(caps);
        }
    }

    fn lock_cpu_games(&self) -> std::sync::MutexGuard<'_, HashMap<String, CpuGame>> {
        self.cpu_games.lock()
    }
}

/// Think time of a hint: short, so that the answer feels immediate, but at the strong level.
pub const HINT_TIME: Duration = Duration::from_millis(300);
/// The level hints are computed at.
pub const HINT_LEVEL: dames_ai::Level = dames_ai::Level::Difficile;

impl Rooms {
    /// A hint for `seat` of room `code` in `state`: the AI's move at [`HINT_LEVEL`] within
    /// [`HINT_TIME`], computed on the CPU players' pool as a search of room `code`. Nothing is
    /// stored or broadcast.
    ///
    /// # Errors
    /// `internal` if the AI finds nothing (the rate limit is the caller's:
    /// [`crate::ratelimit::Action::Hint`]).
    pub async fn hint(
        &self,
        code: &str,
        state: dames_room::game::GameState,
    ) -> Result<LegalMove, AppError> {
        let cancel = Arc::new(AtomicBool::new(false));
        let (seed, stop) = (random_seed(), cancel.clone());
        let due = Instant::now() + HINT_TIME;
        let search = move || state.hint(HINT_LEVEL, &limits_until(due, seed, stop));
        match self.scheduler.run(code, due, cancel, search).await {
            Some(Some(mv)) => Ok(mv),
            Some(None) => Err(AppError::internal("hint", "the AI found no legal move")),
            None => Err(AppError::internal("hint", "the search did not run")),
        }
    }
}

/// The limits of a search that must answer by `due`: the time left when its first slice comes
/// (at least a millisecond).
fn limits_until(due: Instant, seed: u64, cancel: Arc<AtomicBool>) -> dames_ai::Limits {
    dames_ai::Limits {
        time: due
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(1)),
        seed,
        cancel,
    }
}

/// A seed for a hint (hints need not be reproducible).
fn random_seed() -> u64 {
    u64::from_str_radix(&token::random_hex128()[..16], 16).unwrap_or(0)
}

/// The least a CPU thinks, however long its turn has already lasted (unless its budget is
/// smaller): a turn taken over late still gets a real search.
pub const MIN_THINK: Duration = Duration::from_millis(250);

/// When the CPU's turn in `room` began (Unix ms): the start of the turn (`turn_since`), or the
/// room's last change if later (a seat handed to a CPU during its turn, whose CPU starts then).
fn turn_began(room: &Room) -> i64 {
    room.last_move_at
        .unwrap_or(room.active_at)
        .max(room.active_at)
}

/// What is left at `now` of a CPU's think budget `cpu_ms` for a turn that began at `began`
/// (Unix ms): the budget less the time already spent since, never below [`MIN_THINK`] (nor
/// above the budget).
fn think_left(cpu_ms: u64, began: i64, now: i64) -> Duration {
    let budget = Duration::from_millis(cpu_ms);
    let spent = Duration::from_millis(u64::try_from(now.saturating_sub(began)).unwrap_or(0));
    budget.saturating_sub(spent).max(MIN_THINK.min(budget))
}

/// One CPU turn.
struct CpuJob {
    rooms: Arc<Rooms>,
    cell: Arc<RoomCell>,
    room: Arc<Room>,
    seat: usize,
    level: dames_ai::Level,
    key: (i64, i64),
    cancel: Arc<AtomicBool>,
}

impl CpuJob {
    /// Thinks and plays the turn; in a cluster, only with the room's CPU lease (another node
    /// holding it thinks this turn), kept while thinking and given up after.
    async fn run(self) {
        let Some(cluster) = self.rooms.cluster().cloned() else {
            self.play().await;
            return;
        };
        let lease = super::cpu_claim::lease(&cluster, &self.room.code);
        let keep = match self.take_lease(&cluster, &lease).await {
            Ok(true) => {
                let cancel = self.cancel.clone();
                Some(lease.keep(cluster.clone(), move || {
                    // Expired and taken by another node: that node thinks this turn.
                    cancel.store(true, Ordering::Relaxed);
                }))
            }
            Ok(false) => {
                self.cell.end_cpu_turn(&self.cancel);
                return;
            }
            Err(err) => {
                // Redis down: think anyway; the version check refuses a second node's move.
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("room {}: CPU lease not taken: {err}", self.room.code);
                None
            }
        };
        let (cell, cancel) = (self.cell.clone(), self.cancel.clone());
        self.play().await;
        drop(keep);
        // Unless this node already started the next turn of the room (it holds the lease on).
        if cell.end_cpu_turn(&cancel) {
            if let Err(err) = lease.release(&cluster).await {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("CPU lease {} not released: {err}", lease.key());
            }
        }
    }

    /// Marks the room as waiting for a CPU and takes its lease: whether this node holds it.
    async fn take_lease(
        &self,
        cluster: &crate::cluster::Cluster,
        lease: &crate::cluster::lease::Lease,
    ) -> Result<bool, crate::cluster::ClusterError> {
        super::cpu_claim::mark(cluster, &self.room.code, self.room.version).await?;
        lease.acquire(cluster).await
    }

    async fn play(self) {
        let started = Instant::now();
        // A turn taken over from a dead node, or resumed after a restart, has already been
        // thought for a while: only what is left of the budget.
        let now = super::now_ms();
        let mut think = think_left(self.room.settings.cpu_ms, turn_began(&self.room), now);
        // With a clock, the CPU is charged too: its move must come in time.
        if let Some(cap) = self.room.cpu_think_cap(now) {
            think = think.min(Duration::from_millis(cap));
        }
        // `None` when cancelled, or if the player failed: then the first legal move is played
        // rather than leaving the game stuck on a CPU's turn.
        let mv = self.think(started + think).await;
        tokio::time::sleep_until((started + think).into()).await;
        if self.cancel.load(Ordering::Relaxed) {
            return;
        }
        let (seat, key) = (self.seat, self.key);
        let result = self
            .rooms
            .mutate(&self.cell, move |room, ch, now| {
                let current = (room.game_no, room.play.as_ref().map_or(0, |p| p.log_len));
                if current != key || room.cpu_to_move().map(|c| c.0) != Some(seat) {
                    return Ok(());
                }
                let fallback = room
                    .play
                    .as_ref()
                    .and_then(|p| p.state.legal_moves().into_iter().next())
                    .map(|m| m.to_input());
                let Some(mv) = mv else {
                    let fallback = fallback.ok_or(AppError::Internal)?;
                    return Ok(room.play_move(seat, None, &fallback, now, ch).map(drop)?);
                };
                match room.play_move(seat, None, &mv, now, ch) {
                    Err(RoomError::IllegalMove(msg)) => {
                        tracing::error!(
                            "CPU move refused in room {}: {msg}; playing the first legal move",
                            room.code
                        );
                        let fallback = fallback.ok_or(AppError::Internal)?;
                        Ok(room.play_move(seat, None, &fallback, now, ch).map(drop)?)
                    }
                    other => Ok(other.map(drop)?),
                }
            })
            .await;
        if let Err(err) = result {
            tracing::warn!("CPU move not applied: {err}");
        }
    }

    /// Computes the move on the CPU players' pool, to be ready by `due`.
    async fn think(&self, due: Instant) -> Option<MoveInput> {
        if self.cancel.load(Ordering::Relaxed) {
            return None;
        }
        let state = self.room.play.as_ref()?.state.clone();
        let (level, seed, cancel) = (
            self.level,
            seed(&self.room.code, self.key),
            self.cancel.clone(),
        );
        // The budget left when its first slice comes. A zero budget means "the AI's default"
        // to the AI: the room asked for an instant answer.
        let search = move || state.cpu_move(level, &limits_until(due, seed, cancel));
        let cancel = self.cancel.clone();
        match self
            .rooms
            .scheduler
            .run(&self.room.code, due, cancel, search)
            .await
        {
            Some(None) if !self.cancel.load(Ordering::Relaxed) => {
                tracing::error!("CPU player found no move in room {}", self.room.code);
                None
            }
            Some(mv) => mv,
            None => {
                tracing::error!("CPU player failed in room {}", self.room.code);
                None
            }
        }
    }
}

/// The CPU's seed for a turn: fixed by room code, game and turn (reproducible games).
fn seed(code: &str, key: (i64, i64)) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in code
        .bytes()
        .chain(key.0.to_le_bytes())
        .chain(key.1.to_le_bytes())
    {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_already_begun_thinks_what_is_left_of_its_budget_and_never_less_than_the_minimum() {
        let ms = Duration::from_millis;
        assert_eq!(think_left(5_000, 1_000, 1_000), ms(5_000));
        assert_eq!(think_left(5_000, 1_000, 3_500), ms(2_500));
        assert_eq!(think_left(5_000, 1_000, 5_900), ms(250), "the minimum");
        assert_eq!(think_left(5_000, 1_000, 99_000), ms(250));
        // A clock gone back counts nothing spent; a budget under the minimum stays as asked.
        assert_eq!(think_left(5_000, 9_000, 1_000), ms(5_000));
        assert_eq!(think_left(100, 0, 50), ms(100));
        assert_eq!(think_left(0, 0, 50), ms(0));
    }
}
