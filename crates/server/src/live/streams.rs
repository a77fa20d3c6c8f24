//! The « Mes parties » streams of each browser (docs/protocol.md "Live lists"): every committed
//! change of a room tells the open streams of the browsers seated there (`games` with the
//! room's code and version). The route that serves them is `crate::http::events`.
//!
//! Bounded: at most [`PER_CLIENT`] streams per browser and [`PER_ADDRESS`] per address
//! (`429 too_many_connections` beyond); a stream's places are given back when it is dropped.
//! With a cluster the browser's streams are also counted in Redis
//! ([`crate::cluster::places`], renewed every [`RENEW_EVERY`] while the stream is open), so that
//! its [`PER_CLIENT`] holds for all the nodes together, not for each.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

use crate::cluster::{places, Cluster};
use crate::error::AppError;
use crate::net::client_ip::limit_key;
use crate::net::limits::{Counter, Slot};
use dames_room::room::{Occupant, Room};

/// Streams one browser may hold open (its tabs).
pub const PER_CLIENT: usize = 8;
/// Streams one address (IPv6: its /64) may hold open.
pub const PER_ADDRESS: usize = 64;
/// How long a stream's place in Redis lasts unless renewed (a node that dies leaves places that
/// lapse after this).
pub const PLACE_TTL: std::time::Duration = std::time::Duration::from_secs(60);
/// How often an open stream renews its place in Redis.
pub const RENEW_EVERY: std::time::Duration = std::time::Duration::from_secs(20);

/// Notices a stream may fall behind by before they are merged into one.
const QUEUE: usize = 16;

/// The open streams, by browser.
#[derive(Debug)]
pub struct Streams {
    clients: Mutex<HashMap<String, broadcast::Sender<Notice>>>,
    addresses: Arc<Counter>,
    per_address: usize,
}

/// A room of this browser changed.
#[derive(Clone, Debug)]
pub struct Notice {
    /// The room's code.
    pub code: String,
    /// Its version after the change.
    pub version: i64,
}

impl Streams {
    /// No stream yet; `limits` off (load tests) lifts the per-address cap.
    pub fn new(limits: bool) -> Self {
        Self {
            clients: Mutex::new(HashMap::new()),
            addresses: Arc::default(),
            per_address: if limits { PER_ADDRESS } else { usize::MAX },
        }
    }

    fn clients(&self) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<Notice>>> {
        self.clients.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells the browsers seated in `room` that it changed (called for every committed change;
    /// nothing is built when none of them listens).
    pub fn changed(&self, room: &Room) {
        let clients = self.clients();
        if clients.is_empty() {
            return;
        }
        for seat in &room.seats {
            if let Occupant::Human {
                client: Some(client),
                ..
            } = &seat.occupant
            {
                if let Some(tx) = clients.get(client) {
                    // No receiver left is fine: the last tab is closing.
                    let _ = tx.send(Notice {
                        code: room.code.clone(),
                        version: room.version,
                    });
                }
            }
        }
    }

    /// A new stream of `client` from `ip`.
    ///
    /// # Errors
    /// `too_many_connections` past [`PER_CLIENT`] or the per-address cap.
    pub fn open(self: &Arc<Self>, client: &str, ip: IpAddr) -> Result<Subscription, AppError> {
        let slot = self
            .addresses
            .take(limit_key(ip), self.per_address)
            .ok_or(AppError::TooManyConnections)?;
        let mut clients = self.clients();
        let tx = clients
            .entry(client.to_owned())
            .or_insert_with(|| broadcast::channel(QUEUE).0);
        if tx.receiver_count() >= PER_CLIENT {
            return Err(AppError::TooManyConnections);
        }
        Ok(Subscription {
            rx: tx.subscribe(),
            streams: self.clone(),
            client: client.to_owned(),
            _slot: slot,
            shared: None,
        })
    }

    /// Streams open now (tests, metrics).
    pub fn streams(&self) -> usize {
        self.clients().values().map(|tx| tx.receiver_count()).sum()
    }
}

/// One open stream: its notices, and its places in the counts (given back when dropped).
pub struct Subscription {
    /// The notices of this stream.
    pub rx: broadcast::Receiver<Notice>,
    streams: Arc<Streams>,
    client: String,
    _slot: Slot,
    /// Its place in the cluster's count: the cluster, the key, the stream's id.
    shared: Option<(Arc<Cluster>, String, String)>,
}

impl Subscription {
    /// Counts this stream in the cluster's count of its browser's streams.
    ///
    /// # Errors
    /// `too_many_connections` if the browser holds [`PER_CLIENT`] streams across the nodes
    /// already. When Redis does not answer, the node's count has decided alone.
    pub async fn share(&mut self, cluster: &Arc<Cluster>) -> Result<(), AppError> {
        let key = cluster.key(&["streams", "client", &self.client]);
        let id = dames_room::token::random_hex128();
        let keys = [(key.clone(), PER_CLIENT)];
        match places::take(cluster, &keys, &id, PLACE_TTL).await {
            Ok(true) => {
                self.shared = Some((cluster.clone(), key, id));
                Ok(())
            }
            Ok(false) => Err(AppError::TooManyConnections),
            Err(err) => {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("streams counted by this node alone (Redis: {err})");
                Ok(())
            }
        }
    }

    /// Renews this stream's place in the cluster's count (nothing without one).
    pub async fn renew(&self) {
        if let Some((cluster, key, id)) = &self.shared {
            if let Err(err) = places::renew(cluster, std::slice::from_ref(key), id, PLACE_TTL).await
            {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("a stream's place could not be renewed: {err}");
            }
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        if let Some((cluster, key, id)) = self.shared.take() {
            places::give_back(&cluster, vec![key], id);
        }
        let mut clients = self.streams.clients();
        // This receiver still counts while it is being dropped.
        if clients
            .get(&self.client)
            .is_some_and(|tx| tx.receiver_count() <= 1)
        {
            clients.remove(&self.client);
        }
    }
}
