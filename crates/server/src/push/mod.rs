//! Notifications of turn-by-turn games (issue 6): after each committed change the room layer
//! calls the observer installed by [`start`], which queues — never on the request path — one Web
//! Push message to the seat whose turn it now is (turn-by-turn rooms; live rooms only when that
//! seat has no open connection), and a "game over" message when a game ends (then the room's
//! subscriptions are deleted). A worker task delivers them: RFC 8291 encryption, a VAPID
//! `Authorization`, a few bounded retries; an endpoint answering 404 or 410 is deleted.
//! It also records which browsers finished a game of which kind (reviews need it).
//!
//! In a cluster (docs/cluster.md, "Push once per turn"), a message is sent only by the node that
//! first claims it: a key per room, version and seat taken with `SET NX` before sending, so that
//! a change seen by several nodes (the one that committed it, one that caught up after a
//! conflict, one that got it through the fan-out) or a duplicated job pushes once.

pub mod crypto;
pub mod ssrf;

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, Semaphore};

use crate::cluster::Cluster;
use crate::error::AppError;
use crate::live::{blocking, now_ms, Rooms};
use crate::options;
use crypto::Vapid;
use dames_room::event::Event;
use dames_room::game::GameKind;
use dames_room::protocol::{MoveRecord, Outcome};
use dames_room::room::{Occupant, Rhythm, Room, Status};
use dames_store::{PushStore, PushSub};

/// Name of the VAPID private key in `server_keys`.
const VAPID_KEY: &str = "vapid_private";
pub use ssrf::MAX_ENDPOINT;
/// Messages waiting for delivery at most; more are dropped (and logged).
const QUEUE: usize = 1024;
/// Deliveries in flight at most.
const IN_FLIGHT: usize = 8;
/// Attempts per message (the first and two retries).
const ATTEMPTS: u32 = 3;
/// How long a push service keeps an undelivered message (seconds): a turn lasts.
const TTL_SECS: u32 = 7 * 24 * 3600;
/// How long the claim of a sent message is kept in Redis (a change is seen by every node
/// within seconds; a day is ample).
const SENT_FOR_MS: u64 = 24 * 3600 * 1000;

/// Claims the message of `version` of room `code` to `seat` for this node: whether it is this
/// node's to send (always with no cluster; also if Redis fails: twice rather than never).
async fn first_claim(cluster: Option<&Cluster>, code: &str, version: i64, seat: i64) -> bool {
    let Some(cluster) = cluster else {
        return true;
    };
    let key = cluster.key(&["pushed", code, &version.to_string(), &seat.to_string()]);
    let mut conn = cluster.conn();
    let claimed: Result<Option<String>, _> = redis::cmd("SET")
        .arg(&key)
        .arg(cluster.node())
        .arg("NX")
        .arg("PX")
        .arg(SENT_FOR_MS)
        .query_async(&mut conn)
        .await;
    match claimed {
        Ok(set) => set.is_some(),
        Err(err) => {
            crate::metrics::METRICS.redis_errors.inc();
            tracing::warn!("push of {code} not claimed ({err}): sending anyway");
            true
        }
    }
}

/// The server's VAPID key, generated and stored on first use.
///
/// # Errors
/// If the store fails.
pub async fn vapid(store: Arc<dyn PushStore>) -> Result<Vapid, AppError> {
    let stored = blocking(move || {
        if let Some(key) = store.server_key(VAPID_KEY)? {
            return Ok(key);
        }
        store.init_server_key(VAPID_KEY, &Vapid::generate().secret_b64())
    })
    .await?;
    Vapid::from_b64(&stored).ok_or_else(|| AppError::internal("vapid", "stored key unreadable"))
}

/// Checks a subscription endpoint (see [`ssrf`]).
///
/// # Errors
/// `invalid_input` saying why.
pub fn check_endpoint(endpoint: &str, push: &crate::options::Push) -> Result<(), AppError> {
    ssrf::check_endpoint(endpoint, &ssrf::Policy::of(push))
}

/// What a push message says (docs/protocol.md, "Notifications"); the service worker shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Notification {
    /// It is `seat`'s turn in room `code`.
    Turn {
        /// The room.
        code: String,
        /// Its game.
        game: GameKind,
        /// The room's page (`/r/{CODE}`).
        url: String,
        /// The seat to move.
        seat: usize,
        /// The moves played so far (the turn is for the next).
        ply: usize,
    },
    /// The game of room `code` is over.
    Finished {
        /// The room.
        code: String,
        /// Its game.
        game: GameKind,
        /// The room's page (`/r/{CODE}`).
        url: String,
        /// The result.
        outcome: Outcome,
    },
}

/// One message to deliver, or a record to write.
#[derive(Debug)]
enum Job {
    /// Push `payload` to the subscription of `seat` in room `code`.
    Notify {
        code: String,
        /// The version of the change that asks for it.
        version: i64,
        seat: i64,
        payload: Notification,
    },
    /// The person of a seat left it (or was kicked): their subscription goes with them.
    Forget { code: String, seat: i64 },
    /// The game of `code` ended: these seats are told, then the room's subscriptions deleted
    /// (who played it is recorded by the commit that finished it, `crate::live::commit`).
    Finished {
        code: String,
        version: i64,
        seats: Vec<i64>,
        payload: Notification,
    },
}

/// The notifications being sent, until the server stops: [`Push::drain`] delivers what is
/// queued and in flight before the process exits.
pub struct Push {
    /// The queue's sending end, shared with the observer of changes (`None` once draining).
    queue: Arc<std::sync::Mutex<Option<mpsc::Sender<Job>>>>,
    worker: tokio::task::JoinHandle<()>,
}

/// How long a stopping server waits at most for the notifications queued and in flight.
pub const DRAIN: Duration = Duration::from_secs(5);

impl Push {
    /// Takes no more notifications and waits, `limit` at most, for those queued and in flight
    /// to be delivered (a retry waiting for its turn counts as in flight). Called once no change
    /// can be committed any more (the rooms are closed and flushed).
    pub async fn drain(self, limit: Duration) {
        drop(self.queue.lock().unwrap_or_else(|e| e.into_inner()).take());
        if tokio::time::timeout(limit, self.worker).await.is_err() {
            tracing::warn!("notifications still undelivered after {limit:?}: dropped");
        }
    }
}

/// Installs the observer of committed changes and starts the delivery worker. Called once
/// when the server starts serving.
///
/// # Errors
/// If the VAPID key cannot be read or created.
pub async fn start(
    rooms: &Rooms,
    store: Arc<dyn PushStore>,
    config: &options::Push,
) -> Result<Push, AppError> {
    let key = vapid(store.clone()).await?;
    let (tx, rx) = mpsc::channel(QUEUE);
    let queue = Arc::new(std::sync::Mutex::new(Some(tx)));
    let sender = queue.clone();
    rooms.observe(Arc::new(
        move |room: &Arc<Room>, events: &[(i64, Event)], origin| {
            // Only the node that committed the change sends (once per turn, not per node).
            if origin != crate::live::Origin::Here {
                return;
            }
            let tx = sender.lock().unwrap_or_else(|e| e.into_inner());
            for job in jobs(room, events) {
                let sent = tx.as_ref().is_some_and(|tx| tx.try_send(job).is_ok());
                if !sent {
                    tracing::warn!(
                        "push queue full or closed: a notification of {} is dropped",
                        room.code
                    );
                }
            }
        },
    ));
    let policy = Arc::new(ssrf::Policy::of(config));
    let worker = Worker {
        cluster: rooms.cluster().cloned(),
        store,
        key,
        subject: config.subject.clone(),
        // Every address it connects to comes from the guarded resolver (IP literals are
        // checked before sending); no proxy from the environment, no redirects.
        http: reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .dns_resolver(Arc::new(ssrf::GuardedResolver::new(policy.clone())))
            .build()
            .map_err(|e| AppError::internal("push client", e))?,
        policy,
        permits: Arc::new(Semaphore::new(IN_FLIGHT)),
    };
    let worker = tokio::spawn(worker.run(rx));
    Ok(Push { queue, worker })
}

/// The plain text of a push message: the notification's JSON.
fn payload_bytes(n: &Notification) -> Vec<u8> {
    // Strings, numbers and an outcome: this cannot fail.
    serde_json::to_vec(n).unwrap_or_default()
}

/// What a committed change asks to send.
fn jobs(room: &Room, events: &[(i64, Event)]) -> Vec<Job> {
    let url = format!("/r/{}", room.code);
    let version = events.iter().map(|(v, _)| *v).max().unwrap_or(room.version);
    let mut out = Vec::new();
    for (_, e) in events {
        if let Event::Left { seat } = e {
            out.push(Job::Forget {
                code: room.code.clone(),
                seat: *seat as i64,
            });
        }
    }
    if let Some(outcome) = events.iter().find_map(|(_, e)| match e {
        Event::Finished { outcome } => Some(outcome),
        _ => None,
    }) {
        // The seat that ended it (a last move or a resignation) knows already.
        let actor = events.iter().rev().find_map(|(_, e)| match e {
            Event::Move(MoveRecord { seat, .. }) | Event::Resigned { seat } => Some(*seat),
            _ => None,
        });
        let mut seats = Vec::new();
        for (n, seat) in room.seats.iter().enumerate() {
            if let Occupant::Human { .. } = &seat.occupant {
                // Like a turn: live players with the page open see the end there.
                let away = room.settings.rhythm == Rhythm::Turn || !seat.online();
                if Some(n) != actor && away {
                    seats.push(n as i64);
                }
            }
        }
        out.push(Job::Finished {
            code: room.code.clone(),
            version,
            seats,
            payload: Notification::Finished {
                code: room.code.clone(),
                game: room.kind,
                url,
                outcome: outcome.clone(),
            },
        });
        return out;
    }
    let moved = events.iter().any(|(_, e)| {
        matches!(
            e,
            Event::Move(_) | Event::Started { .. } | Event::Flag { .. }
        )
    });
    if room.status != Status::Playing || !moved {
        return out;
    }
    let Some(seat) = room.play.as_ref().and_then(|p| p.state.to_move()) else {
        return out;
    };
    let Some(s) = room.seats.get(seat) else {
        return out;
    };
    let human = matches!(s.occupant, Occupant::Human { .. });
    if human && (room.settings.rhythm == Rhythm::Turn || !s.online()) {
        out.push(Job::Notify {
            code: room.code.clone(),
            version,
            seat: seat as i64,
            payload: Notification::Turn {
                code: room.code.clone(),
                game: room.kind,
                url,
                seat,
                ply: room.ply(),
            },
        });
    }
    out
}

/// Delivers queued messages.
struct Worker {
    /// The other nodes, which may see the same changes.
    cluster: Option<Arc<Cluster>>,
    store: Arc<dyn PushStore>,
    key: Vapid,
    subject: String,
    http: reqwest::Client,
    policy: Arc<ssrf::Policy>,
    permits: Arc<Semaphore>,
}

/// How one delivery attempt ended.
enum Sent {
    /// Accepted by the push service.
    Done,
    /// Refused for good (4xx): retrying would not help.
    Refused,
    /// The subscription is gone (404, 410) or not allowed: it is deleted.
    Gone,
    /// Worth another attempt (5xx, 429, no answer).
    Retry,
}

impl Worker {
    /// Until the queue is closed ([`Push::drain`]) and emptied, then until every delivery
    /// started has ended.
    async fn run(self, mut rx: mpsc::Receiver<Job>) {
        let this = Arc::new(self);
        let mut deliveries = tokio::task::JoinSet::new();
        while let Some(job) = rx.recv().await {
            while deliveries.try_join_next().is_some() {}
            match job {
                Job::Forget { code, seat } => {
                    let store = this.store.clone();
                    match blocking(move || store.delete_push_seat(&code, seat)).await {
                        Err(err) if err.is_shutting_down() => return,
                        Err(err) => tracing::error!("forgetting a subscription: {err}"),
                        Ok(()) => {}
                    }
                }
                Job::Notify {
                    code,
                    version,
                    seat,
                    payload,
                } => {
                    deliveries.spawn(this.clone().send(code, version, seat, payload));
                }
                Job::Finished {
                    code,
                    version,
                    seats,
                    payload,
                } => {
                    // Load the subscriptions before they are deleted, then send.
                    let mut subs = Vec::new();
                    for seat in seats {
                        let cluster = this.cluster.as_deref();
                        if !first_claim(cluster, &code, version, seat).await {
                            continue;
                        }
                        if let Some(sub) = this.load(&code, seat).await {
                            subs.push(sub);
                        }
                    }
                    let store = this.store.clone();
                    let room = code.clone();
                    match blocking(move || store.delete_push_room(&room)).await {
                        Err(err) if err.is_shutting_down() => return,
                        Err(err) => tracing::error!("deleting subscriptions of {code}: {err}"),
                        Ok(()) => {}
                    }
                    for sub in subs {
                        deliveries.spawn(this.clone().deliver(sub, payload.clone()));
                    }
                }
            }
        }
        while deliveries.join_next().await.is_some() {}
    }

    async fn send(self: Arc<Self>, code: String, version: i64, seat: i64, payload: Notification) {
        if !first_claim(self.cluster.as_deref(), &code, version, seat).await {
            return;
        }
        if let Some(sub) = self.load(&code, seat).await {
            self.deliver(sub, payload).await;
        }
    }

    async fn load(&self, code: &str, seat: i64) -> Option<PushSub> {
        let store = self.store.clone();
        let code = code.to_owned();
        match blocking(move || store.push_of(&code, seat)).await {
            Ok(sub) => sub,
            Err(err) => {
                tracing::error!("loading a push subscription: {err}");
                None
            }
        }
    }

    async fn deliver(self: Arc<Self>, sub: PushSub, payload: Notification) {
        let Ok(_permit) = self.permits.clone().acquire_owned().await else {
            return;
        };
        let Ok((public, auth)) = crypto::check_keys(&sub.p256dh, &sub.auth) else {
            return;
        };
        for attempt in 0..ATTEMPTS {
            if attempt > 0 {
                tokio::time::sleep(Duration::from_secs(2u64.pow(attempt))).await;
            }
            let body = crypto::encrypt(&public, &auth, &payload_bytes(&payload));
            match self.send_once(&sub.endpoint, body).await {
                Sent::Done => {
                    crate::metrics::METRICS.push_sent.inc();
                    return;
                }
                Sent::Refused => {
                    crate::metrics::METRICS.push_failed.inc();
                    return;
                }
                Sent::Gone => {
                    crate::metrics::METRICS.push_failed.inc();
                    let store = self.store.clone();
                    let endpoint = sub.endpoint.clone();
                    if let Err(err) = blocking(move || store.delete_push_endpoint(&endpoint)).await
                    {
                        tracing::error!("deleting a gone subscription: {err}");
                    }
                    return;
                }
                Sent::Retry => {}
            }
        }
        crate::metrics::METRICS.push_failed.inc();
        tracing::warn!("push to a seat of {} failed {ATTEMPTS} times", sub.code);
    }

    async fn send_once(&self, endpoint: &str, body: Vec<u8>) -> Sent {
        let host = ssrf::host_of(endpoint);
        // Stored before these rules, or allowed by a looser configuration: checked again.
        if let Err(err) = ssrf::check_endpoint(endpoint, &self.policy) {
            tracing::warn!("push to {host} refused, subscription dropped: {err}");
            return Sent::Gone;
        }
        let Ok(url) = reqwest::Url::parse(endpoint) else {
            return Sent::Gone;
        };
        let audience = url.origin().ascii_serialization();
        let exp = now_ms() / 1000 + 12 * 3600;
        let request = self
            .http
            .post(url)
            .header(
                "authorization",
                self.key.authorization(&audience, &self.subject, exp),
            )
            .header("content-encoding", "aes128gcm")
            .header("content-type", "application/octet-stream")
            .header("ttl", TTL_SECS.to_string())
            .header("urgency", "normal")
            .body(body);
        match request.send().await {
            Ok(r) if r.status().is_success() => Sent::Done,
            Ok(r) if matches!(r.status().as_u16(), 404 | 410) => Sent::Gone,
            Ok(r) if r.status().is_server_error() || r.status().as_u16() == 429 => Sent::Retry,
            Ok(r) => {
                // 400, 401, 403, 413: retrying would not help.
                tracing::warn!("push service {host} answered {}", r.status());
                Sent::Refused
            }
            Err(err) if ssrf::is_refused(&err) => {
                // Never the URL (reqwest's errors carry it): its path is the subscription's secret.
                tracing::warn!(
                    "push to {host} refused, subscription dropped: {}",
                    err.without_url()
                );
                Sent::Gone
            }
            Err(err) => {
                // Never the URL: its path is the subscription's secret.
                tracing::warn!("push delivery to {host} failed: {}", err.without_url());
                Sent::Retry
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dames_room::protocol::{OutcomeKind, Reason};

    #[tokio::test]
    async fn a_message_is_claimed_by_one_node_once() {
        let prefix = crate::cluster::tests::scratch_prefix();
        let url = crate::cluster::tests::test_url();
        let a = Cluster::connect(&url, &prefix).await.unwrap();
        let b = Cluster::connect(&url, &prefix).await.unwrap();
        assert!(first_claim(Some(&a), "ABCDEF", 7, 1).await);
        // The same change seen by another node, or the same job twice: not sent again.
        assert!(!first_claim(Some(&b), "ABCDEF", 7, 1).await);
        assert!(!first_claim(Some(&a), "ABCDEF", 7, 1).await);
        // Another turn, another seat, another room: their own messages.
        assert!(first_claim(Some(&b), "ABCDEF", 8, 1).await);
        assert!(first_claim(Some(&b), "ABCDEF", 7, 0).await);
        assert!(first_claim(Some(&a), "ABCDEG", 7, 1).await);
        // One node alone sends everything it is asked to.
        assert!(first_claim(None, "ABCDEF", 7, 1).await);
        assert!(first_claim(None, "ABCDEF", 7, 1).await);
        let mut conn = a.conn();
        let keys: Vec<String> = redis::cmd("KEYS")
            .arg(format!("{prefix}*"))
            .query_async(&mut conn)
            .await
            .unwrap();
        let _: i64 = redis::cmd("DEL")
            .arg(&keys)
            .query_async(&mut conn)
            .await
            .unwrap();
    }

    #[test]
    fn notifications_are_the_documented_payloads() {
        let doc = include_str!("../../../../docs/protocol.md");
        let section = doc
            .split("Payloads (")
            .nth(1)
            .and_then(|s| s.split("Delivery runs").next())
            .expect("docs/protocol.md describes the push payloads");
        let documented: Vec<(String, Vec<String>)> = section
            .split('`')
            .filter(|q| q.starts_with("{\"kind\""))
            .map(|example| {
                let names: Vec<String> = example
                    .trim_matches(['{', '}'])
                    .split(',')
                    .map(|f| {
                        f.split(':')
                            .next()
                            .unwrap_or_default()
                            .trim_matches('"')
                            .to_owned()
                    })
                    .collect();
                let kind = example.split('"').nth(3).unwrap_or_default().to_owned();
                (kind, names)
            })
            .collect();
        let made = [
            Notification::Turn {
                code: "K7M2QX".into(),
                game: GameKind::Cc,
                url: "/r/K7M2QX".into(),
                seat: 2,
                ply: 14,
            },
            Notification::Finished {
                code: "K7M2QX".into(),
                game: GameKind::Draughts,
                url: "/r/K7M2QX".into(),
                outcome: Outcome {
                    kind: OutcomeKind::Win,
                    reason: Reason::Resignation,
                    places: vec![Some(1), Some(2)],
                },
            },
        ];
        assert_eq!(documented.len(), made.len(), "{documented:?}");
        for (n, (kind, names)) in made.iter().zip(&documented) {
            let json: serde_json::Value = serde_json::from_slice(&payload_bytes(n)).unwrap();
            assert_eq!(json["kind"], kind.as_str());
            let mut fields: Vec<&String> = json.as_object().unwrap().keys().collect();
            let mut names: Vec<&String> = names.iter().collect();
            fields.sort();
            names.sort();
            assert_eq!(fields, names, "the fields of the `{kind}` push");
            assert_eq!(&serde_json::from_value::<Notification>(json).unwrap(), n);
        }
    }
}
