//! A scripted player: one seat of a 2-player game over one WebSocket. It moves whenever the
//! server offers it legal moves (at once, or at the game's pace), picks a move from that list
//! (Chinese checkers: the greediest towards the opposite camp; draughts: at random), sends it
//! with an id, and measures send→ack; its opponent, in the same process, measures
//! send→opponent-receives. After a reconnection it resends its unacknowledged move by the same id.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use futures_util::SinkExt;
use tokio::sync::watch;
use tokio::time::{sleep, sleep_until, timeout, Instant};

use crate::api::{GameKind, SeatKey};
use crate::protocol::{self, Event, Incoming, LegalMove, RoomState, Ws, RESTARTING};
use crate::rng::Rng;
use crate::stats::Recorder;

/// How long a stopping player waits for the acknowledgement of its last move.
pub(crate) const ACK_WAIT: Duration = Duration::from_secs(10);
/// How long a WebSocket may take to open.
pub(crate) const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
/// A socket with no message for this long is given up (the server pings every 20 s).
const SILENCE: Duration = Duration::from_secs(60);
/// Refused moves after which a player gives up.
const MAX_REFUSALS: u32 = 20;
/// After an error that says "not now" rather than "not this move" (the database or Redis
/// failing, a timeout, overload), the same move is sent again by the same id this much later:
/// the move may be on disk already, and the id makes the server apply it at most once.
const RETRY_AFTER: Duration = Duration::from_millis(250);

/// The error codes after which a move is sent again rather than replaced (a browser's socket
/// does the same).
fn transient(code: &str) -> bool {
    matches!(code, "internal" | "timeout" | "overloaded")
}

/// How the players of a run behave.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Style {
    /// Time between two moves of a game (`None`: as fast as the server answers).
    pub pace: Option<Duration>,
    /// Ask for a rematch when a game ends (a steady load); otherwise a finished player stops.
    pub rematch: bool,
    /// Keep every acknowledged move (the crash check reads them back).
    pub record: bool,
}

/// A move that the server acknowledged, as the crash check expects to find it.
#[derive(Clone, Debug)]
pub(crate) struct Played {
    pub seat: usize,
    pub id: String,
    pub mv: LegalMove,
}

/// What the two players of one game share.
pub(crate) struct Link {
    pub kind: GameKind,
    /// Seat 0's key: the crash check reads the game with it.
    pub host: SeatKey,
    shared: Mutex<Shared>,
}

#[derive(Default)]
struct Shared {
    /// When the last move of the game was sent (the pace's anchor).
    last_move: Option<Instant>,
    /// The move on its way: its seat and when it was sent.
    in_flight: Option<(usize, Instant)>,
    /// Acknowledged moves by move number (first game only: no rematch when recording).
    acked: BTreeMap<usize, Played>,
    /// A player saw the game end.
    finished: bool,
}

impl Link {
    pub fn new(kind: GameKind, host: SeatKey) -> Arc<Link> {
        Arc::new(Link {
            kind,
            host,
            shared: Mutex::default(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The acknowledged moves by move number.
    pub fn acked(&self) -> BTreeMap<usize, Played> {
        self.lock().acked.clone()
    }

    /// How many moves were acknowledged.
    pub fn acked_len(&self) -> usize {
        self.lock().acked.len()
    }

    /// Whether a player saw the game end.
    pub fn finished(&self) -> bool {
        self.lock().finished
    }
}

/// A move sent and not yet acknowledged.
#[derive(Clone, Debug)]
pub(crate) struct Outstanding {
    pub id: String,
    pub mv: LegalMove,
    /// Its move number in the game.
    pub ply: usize,
    sent: Instant,
    /// Sent again after a reconnection (its latency means nothing).
    resent: bool,
    /// What the acknowledgement must say, when the crash check knows (`false`: the server
    /// already has it).
    pub expect_applied: Option<bool>,
}

/// The legal moves offered for move number `ply`.
struct Offer {
    ply: usize,
    legal: Vec<LegalMove>,
    due: Instant,
    /// A move of this offer is on its way.
    taken: bool,
}

/// Why a player's run ended.
#[derive(Debug)]
pub(crate) enum End {
    /// Asked to stop (and its last move was acknowledged, or waited for long enough).
    Stopped,
    /// The socket closed or failed.
    Closed(String),
    /// Its game finished and it does not ask for rematches.
    Done,
    /// The server refused its moves too often.
    Failed(String),
}

pub(crate) struct Player {
    pub key: SeatKey,
    pub link: Arc<Link>,
    rec: Arc<Recorder>,
    style: Style,
    rng: Rng,
    /// Last room version seen.
    version: i64,
    /// Moves played in the current game.
    ply: usize,
    game_no: u64,
    pub finished: bool,
    offer: Option<Offer>,
    /// Offers for earlier move numbers are stale.
    min_ply: usize,
    pub outstanding: Option<Outstanding>,
    /// Chinese checkers: the tip of the destination camp.
    target: Option<[i64; 3]>,
    next_id: u64,
    refusals: u32,
    rematch_asked: u64,
    paced_once: bool,
    /// When to send the outstanding move again (after a transient error).
    retry_at: Option<Instant>,
    /// When its last socket was lost, until the state comes on the next one.
    lost_at: Option<Instant>,
}

impl Player {
    pub fn new(
        key: SeatKey,
        link: Arc<Link>,
        rec: Arc<Recorder>,
        style: Style,
        rng: Rng,
    ) -> Player {
        Player {
            key,
            link,
            rec,
            style,
            rng,
            version: 0,
            ply: 0,
            game_no: 0,
            finished: false,
            offer: None,
            min_ply: 0,
            outstanding: None,
            target: None,
            next_id: 0,
            refusals: 0,
            rematch_asked: 0,
            paced_once: false,
            retry_at: None,
            lost_at: None,
        }
    }

    /// A lost or refused socket, counted in the report when the run reconnects players (the
    /// crash run, which does not, counts the ones that the kills do not explain itself).
    fn count_drop(&self, reconnects: u32, reason: &str) {
        if reconnects > 0 {
            self.rec.drops.add(reason);
        }
    }

    /// Opens the player's socket, asking for what it missed since the last version it saw.
    async fn connect(&self, base: &str) -> Result<Ws, String> {
        protocol::connect_within(
            base,
            &self.key.code,
            Some(&self.key.token),
            self.version,
            CONNECT_TIMEOUT,
        )
        .await
    }

    /// Plays on `ws` until stopped, done, failed or disconnected.
    pub async fn run(&mut self, ws: &mut Ws, stop: &mut watch::Receiver<bool>) -> End {
        if let Err(e) = self.resend(ws).await {
            return End::Closed(e);
        }
        let mut last_heard = Instant::now();
        let mut stopping: Option<Instant> = None;
        loop {
            if stopping.is_none() && *stop.borrow() {
                stopping = Some(Instant::now());
            }
            if let Some(since) = stopping {
                if self.outstanding.is_none() || since.elapsed() >= ACK_WAIT {
                    return End::Stopped;
                }
            }
            if self.finished && !self.style.rematch && self.outstanding.is_none() {
                return End::Done;
            }
            if self.refusals > MAX_REFUSALS {
                return End::Failed(format!("{} moves refused", self.refusals));
            }
            let due = stopping.is_none().then(|| self.due()).flatten();
            let retry = self.retry_at.filter(|_| self.outstanding.is_some());
            let wake = [due, retry, stopping.map(|s| s + ACK_WAIT)]
                .into_iter()
                .flatten()
                .fold(last_heard + SILENCE, Instant::min);
            tokio::select! {
                msg = protocol::next_message(ws) => match msg {
                    Ok(msg) => {
                        last_heard = Instant::now();
                        if let Err(e) = self.on_message(ws, msg).await {
                            return End::Closed(e);
                        }
                    }
                    Err(reason) => return End::Closed(reason),
                },
                () = sleep_until(wake) => {
                    if retry.is_some_and(|r| r <= Instant::now()) {
                        self.retry_at = None;
                        if let Err(e) = self.resend(ws).await {
                            return End::Closed(e);
                        }
                    } else if due.is_some_and(|d| d <= Instant::now()) {
                        if let Err(e) = self.play(ws).await {
                            return End::Closed(e);
                        }
                    } else if last_heard.elapsed() >= SILENCE {
                        return End::Closed(format!("no message for {SILENCE:?}"));
                    }
                }
                changed = stop.changed(), if stopping.is_none() => {
                    if changed.is_err() {
                        stopping = Some(Instant::now());
                    }
                }
            }
        }
    }

    /// When the next move is due, if one can be played.
    fn due(&self) -> Option<Instant> {
        if self.outstanding.is_some() || self.finished {
            return None;
        }
        self.offer
            .as_ref()
            .filter(|o| !o.taken && o.ply >= self.min_ply && !o.legal.is_empty())
            .map(|o| o.due)
    }

    async fn on_message(&mut self, ws: &mut Ws, msg: Incoming) -> Result<(), String> {
        match msg {
            Incoming::Ack { id, applied } => self.on_ack(&id, applied),
            Incoming::Error { id, code } => self.on_error(id.as_deref(), &code),
            Incoming::Event { version, event } => self.on_event(version, &event),
            Incoming::Delta { events } => {
                for (version, event) in &events {
                    self.on_event(*version, event);
                }
            }
            Incoming::State(state) => self.on_state(&state),
            Incoming::Turn {
                version,
                ply,
                legal,
            } => {
                if !matches!(version, Some(v) if v < self.version) {
                    self.offer(ply.unwrap_or(self.ply), legal);
                }
            }
            Incoming::Pong | Incoming::Other => {}
        }
        self.ask_rematch(ws).await
    }

    fn on_ack(&mut self, id: &str, applied: bool) {
        let Some(o) = self.outstanding.take_if(|o| o.id == id) else {
            return; // a rematch, or a repeat
        };
        let rec = &self.rec;
        if o.resent {
            let counter = if applied {
                &rec.resent_applied
            } else {
                &rec.resent_known
            };
            counter.fetch_add(1, Ordering::Relaxed);
        } else {
            rec.sample(&rec.ack, o.sent.elapsed());
        }
        if applied {
            rec.count(&rec.moves);
        }
        rec.acked_total.fetch_add(1, Ordering::Relaxed);
        if let Some(expected) = o.expect_applied.filter(|&e| e != applied) {
            rec.violation(format!(
                "room {} move {} ({}, id {}): acknowledged with applied={applied}, expected {expected}",
                self.key.code, o.ply, o.mv, o.id
            ));
        }
        if self.style.record {
            let played = Played {
                seat: self.key.seat,
                id: o.id,
                mv: o.mv,
            };
            self.link.lock().acked.insert(o.ply, played);
        }
        self.min_ply = o.ply + 1;
    }

    fn on_error(&mut self, id: Option<&str>, code: &str) {
        self.rec.errors.add(code);
        if code == "conflict" && id == Some(self.rematch_id().as_str()) {
            // The room changed meanwhile (the other player's rematch, committed on another
            // node): asked again on the room as it now is, as a person told so on the site would.
            self.rematch_asked = self.game_no.saturating_sub(1);
        }
        if transient(code)
            && self
                .outstanding
                .as_ref()
                .is_some_and(|o| id == Some(o.id.as_str()))
        {
            self.retry_at = Some(Instant::now() + RETRY_AFTER);
            return;
        }
        let Some(o) = self.outstanding.take_if(|o| id == Some(o.id.as_str())) else {
            return;
        };
        // Refused: the position did not change. Try another of the offered moves.
        self.refusals += 1;
        if let Some(offer) = self.offer.as_mut().filter(|offer| offer.ply == o.ply) {
            offer.legal.retain(|m| !m.same_as(&o.mv));
            offer.taken = false;
        }
    }

    fn on_event(&mut self, version: i64, event: &Event) {
        if version <= self.version {
            return;
        }
        self.version = version;
        match event.kind.as_str() {
            "move" => {
                self.ply += 1;
                self.offer = None;
                if event.seat != Some(self.key.seat) {
                    let mut shared = self.link.lock();
                    if let Some((_, sent)) = shared.in_flight.take_if(|f| Some(f.0) == event.seat) {
                        drop(shared);
                        self.rec.sample(&self.rec.opponent, sent.elapsed());
                    }
                }
            }
            "started" => self.new_game(event.game_no.unwrap_or(self.game_no + 1)),
            "finished" => self.set_finished(),
            _ => {}
        }
    }

    fn on_state(&mut self, state: &RoomState) {
        if let Some(lost) = self.lost_at.take() {
            self.rec.sample(&self.rec.reconnect, lost.elapsed());
        }
        if state.version < self.version {
            return;
        }
        self.version = state.version;
        if state.game_no != self.game_no {
            self.new_game(state.game_no);
        }
        self.ply = state.plies;
        if self.target.is_none() {
            self.target = state.your_camps.first().map(|&c| tip((c + 3) % 6));
        }
        match state.status.as_str() {
            "finished" => self.set_finished(),
            "playing" => self.finished = false,
            _ => {}
        }
        let my_turn = state.you.is_some() && state.to_move == state.you;
        if state.status == "playing" && my_turn && !state.legal.is_empty() {
            self.offer(state.plies, state.legal.clone());
        } else {
            self.offer = None;
        }
    }

    /// The server offers `legal` for move number `ply` (kept if it already did).
    fn offer(&mut self, ply: usize, legal: Vec<LegalMove>) {
        if ply < self.min_ply || self.offer.as_ref().is_some_and(|o| o.ply == ply) {
            return;
        }
        let now = Instant::now();
        let due = match self.style.pace {
            None => now,
            Some(pace) => {
                let last = self.link.lock().last_move;
                match last {
                    Some(t) => (t + pace).max(now),
                    // The first move of a game: at a random moment of the first period, so that
                    // paced games do not all move at once.
                    None if !self.paced_once => {
                        let ms = pace.as_millis().max(1) as u64;
                        now + Duration::from_millis(self.rng.below(ms))
                    }
                    None => now + pace,
                }
            }
        };
        self.offer = Some(Offer {
            ply,
            legal,
            due,
            taken: false,
        });
    }

    fn new_game(&mut self, game_no: u64) {
        self.game_no = game_no;
        self.ply = 0;
        self.min_ply = 0;
        self.offer = None;
        self.finished = false;
    }

    fn set_finished(&mut self) {
        if !self.finished {
            self.finished = true;
            self.link.lock().finished = true;
            self.offer = None;
            if self.key.seat == 0 {
                self.rec.count(&self.rec.games_finished);
            }
        }
    }

    async fn ask_rematch(&mut self, ws: &mut Ws) -> Result<(), String> {
        if !(self.style.rematch && self.finished && self.rematch_asked < self.game_no) {
            return Ok(());
        }
        self.rematch_asked = self.game_no;
        send(ws, protocol::rematch_message(&self.rematch_id())).await
    }

    /// The id of this player's rematch request for the current game.
    fn rematch_id(&self) -> String {
        format!("r{}-{}", self.key.seat, self.game_no)
    }

    /// Sends a move of the current offer.
    async fn play(&mut self, ws: &mut Ws) -> Result<(), String> {
        let Some(offer) = self.offer.as_mut() else {
            return Ok(());
        };
        let mv = match (self.link.kind, self.target) {
            (GameKind::Cc, Some(target)) => greedy(&offer.legal, target, &mut self.rng),
            _ => offer.legal[self.rng.below(offer.legal.len() as u64) as usize].clone(),
        };
        offer.taken = true;
        let ply = offer.ply;
        self.next_id += 1;
        let id = format!("m{}-{}", self.key.seat, self.next_id);
        let now = Instant::now();
        {
            let mut shared = self.link.lock();
            shared.last_move = Some(now);
            shared.in_flight = Some((self.key.seat, now));
        }
        self.paced_once = true;
        let message = protocol::move_message(&id, &mv);
        self.outstanding = Some(Outstanding {
            id,
            mv,
            ply,
            sent: now,
            resent: false,
            expect_applied: None,
        });
        send(ws, message).await
    }

    /// After a reconnection or a transient error: the unacknowledged move again, by its id.
    async fn resend(&mut self, ws: &mut Ws) -> Result<(), String> {
        self.retry_at = None;
        let Some(o) = self.outstanding.as_mut() else {
            return Ok(());
        };
        o.resent = true;
        o.sent = Instant::now();
        let message = protocol::move_message(&o.id, &o.mv);
        send(ws, message).await
    }
}

async fn send(ws: &mut Ws, message: protocol::Message) -> Result<(), String> {
    ws.send(message)
        .await
        .map_err(|e| protocol::short_error(&e))
}

/// How a player waits before it connects again after a lost socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backoff {
    /// A tenth of a second every time: the runs that count what reconnections cost the server,
    /// not how the page paces them.
    Fixed,
    /// As the page does (web/js/api.js, `scheduleReconnect`): 50–300 ms after the server said it
    /// restarts (close code 1012), else 500 ms doubling up to 10 s, each ±20 %.
    Page,
}

impl Backoff {
    /// The wait before attempt `failed + 1` of a reconnection whose first loss was `why`.
    fn delay(self, failed: u32, why: &str, rng: &mut Rng) -> Duration {
        let ms = match self {
            Backoff::Fixed => 100,
            Backoff::Page if failed == 0 && why == RESTARTING => rng.between(50, 300),
            Backoff::Page => {
                let base = (500u64 << failed.min(5)).min(10_000);
                rng.between(base * 8 / 10, base * 12 / 10)
            }
        };
        Duration::from_millis(ms)
    }
}

/// Connects `player` and plays until it is stopped, done or failed; after a dropped socket it
/// connects again (with `since`, resending its unacknowledged move) at most `reconnects` times,
/// `backoff` apart.
pub(crate) async fn drive(
    mut player: Player,
    base: String,
    mut stop: watch::Receiver<bool>,
    reconnects: u32,
    backoff: Backoff,
) -> (Player, End) {
    let mut end = End::Closed("not connected".into());
    // Attempts failed since the socket was last open, and why it was lost.
    let mut failed = 0;
    let mut lost = String::new();
    for attempt in 0..=reconnects {
        if attempt > 0 {
            let wait = backoff.delay(failed, &lost, &mut player.rng);
            sleep(wait).await;
            if *stop.borrow() {
                break;
            }
        }
        let mut ws = match player.connect(&base).await {
            Ok(ws) => ws,
            Err(reason) => {
                player.count_drop(reconnects, &reason);
                end = End::Closed(reason);
                failed += 1;
                continue;
            }
        };
        failed = 0;
        if attempt > 0 {
            player.rec.reconnections.fetch_add(1, Ordering::Relaxed);
        }
        end = player.run(&mut ws, &mut stop).await;
        if let End::Closed(reason) = &end {
            player.lost_at.get_or_insert_with(Instant::now);
            player.count_drop(reconnects, reason);
            lost.clone_from(reason);
        } else {
            let _ = timeout(Duration::from_secs(2), ws.close(None)).await;
            break;
        }
    }
    (player, end)
}

/// The tip hole of camp `c` (RULES.md 1.1 numbering) in cube coordinates.
fn tip(camp: u8) -> [i64; 3] {
    const TIPS: [[i64; 3]; 6] = [
        [4, 4, -8],
        [8, -4, -4],
        [4, -8, 4],
        [-4, -4, 8],
        [-8, 4, 4],
        [-4, 8, -4],
    ];
    TIPS[usize::from(camp % 6)]
}

fn cube(v: &serde_json::Value) -> Option<[i64; 3]> {
    let a = v.as_array()?;
    Some([
        a.first()?.as_i64()?,
        a.get(1)?.as_i64()?,
        a.get(2)?.as_i64()?,
    ])
}

fn distance(a: [i64; 3], b: [i64; 3]) -> i64 {
    (0..3).map(|i| (a[i] - b[i]).abs()).max().unwrap_or(0)
}

/// The Chinese checkers move that gains most towards `target` (ties at random).
fn greedy(legal: &[LegalMove], target: [i64; 3], rng: &mut Rng) -> LegalMove {
    let gain = |m: &LegalMove| match (cube(&m.from), cube(&m.to)) {
        (Some(from), Some(to)) => distance(from, target) - distance(to, target),
        _ => i64::MIN,
    };
    let best = legal.iter().map(gain).max().unwrap_or(i64::MIN);
    let best: Vec<&LegalMove> = legal.iter().filter(|m| gain(m) == best).collect();
    best[rng.below(best.len() as u64) as usize].clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cc(from: [i64; 3], to: [i64; 3]) -> LegalMove {
        LegalMove {
            from: json!(from),
            to: json!(to),
            notation: None,
        }
    }

    #[test]
    fn the_greedy_move_gains_most_towards_the_opposite_tip() {
        // Seat of camp 0 heads for camp 3's tip (-4,-4,8).
        let target = tip(3);
        let legal = [
            cc([1, 1, -2], [2, 0, -2]), // sideways
            cc([1, 1, -2], [0, 0, 0]),  // gains 2
            cc([1, 1, -2], [1, 0, -1]), // gains 1
            cc([2, 2, -4], [2, 2, -4]), // nothing
        ];
        let mut rng = Rng::new(3);
        for _ in 0..10 {
            assert_eq!(greedy(&legal, target, &mut rng), legal[1]);
        }
        assert_eq!(distance([0, 0, 0], target), 8);
    }

    #[test]
    fn tips_are_opposite_in_pairs() {
        for camp in 0..3 {
            let (a, b) = (tip(camp), tip(camp + 3));
            assert_eq!([a[0] + b[0], a[1] + b[1], a[2] + b[2]], [0, 0, 0]);
        }
    }
}
