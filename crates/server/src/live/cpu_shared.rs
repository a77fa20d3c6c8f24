//! The caps on games against CPUs across the cluster (docs/security.md, "Limits"): with
//! `--redis`, the places taken live in Redis as well, so that a browser or an address gets its
//! share once for the whole deployment, not once per node.
//!
//! Each capped key — the host's browser (`cpu:client:{id}`), the address's keyed hash
//! (`cpu:addr:{hash}`) — holds the room codes of its games ([`crate::cluster::places`]: taken by
//! one script that checks and adds, so two nodes racing for the last place cannot both have
//! it). The node holding a game renews its place every [`RENEW_EVERY`] (a place lasts
//! [`PLACE_TTL`]), so the places of a node that died lapse by themselves, unless another node
//! takes the room over (it renews them then). A game that ends gives its place back at once. When Redis does not answer, the node's own count (live/cpu.rs)
//! decides alone: one node's share, never unlimited.

use std::sync::Arc;
use std::time::Duration;

use super::cpu::Place;
use super::Rooms;
use crate::cluster::places;

/// How long a place lasts unless its node renews it.
pub const PLACE_TTL: Duration = Duration::from_secs(60);

/// How often a node renews the places of the games it holds.
pub const RENEW_EVERY: Duration = Duration::from_secs(20);

impl Rooms {
    /// The keys of `place`, with their caps.
    fn place_keys(&self, place: &Place) -> Vec<(String, usize)> {
        let (Some(cluster), Some((per_client, per_ip))) =
            (self.cluster.get(), self.cpu_games.caps())
        else {
            return Vec::new();
        };
        let mut keys = Vec::with_capacity(2);
        if let Some(client) = &place.client {
            keys.push((cluster.key(&["cpu", "client", client]), per_client));
        }
        if let Some(by) = &place.by {
            keys.push((cluster.key(&["cpu", "addr", by]), per_ip));
        }
        keys
    }

    /// Takes `place` across the cluster: whether it may be taken (always without a cluster, or
    /// when Redis does not answer: the node's own count has decided).
    pub(super) async fn reserve_shared(&self, place: &Place) -> bool {
        let keys = self.place_keys(place);
        let Some(cluster) = self.cluster.get().filter(|_| !keys.is_empty()) else {
            return true;
        };
        match places::take(cluster, &keys, &place.code, PLACE_TTL).await {
            Ok(taken) => taken,
            Err(err) => {
                crate::metrics::METRICS.redis_errors.inc();
                tracing::warn!("CPU games counted by this node alone (Redis: {err})");
                true
            }
        }
    }

    /// Gives `place` back across the cluster (in a task; nothing without a cluster).
    pub(super) fn release_shared(&self, place: Place) {
        let keys = self.place_keys(&place);
        if let Some(cluster) = self.cluster.get().filter(|_| !keys.is_empty()) {
            places::give_back(
                cluster,
                keys.into_iter().map(|(k, _)| k).collect(),
                place.code,
            );
        }
    }

    /// Renews the places of the games against CPUs held here, every [`RENEW_EVERY`], for as long
    /// as the node runs (started with the fan-out, with a cluster only).
    pub(super) async fn renew_places(self: Arc<Self>) {
        let mut every = tokio::time::interval(RENEW_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        while !self.closed.load(std::sync::atomic::Ordering::SeqCst) {
            every.tick().await;
            let Some(cluster) = self.cluster.get() else {
                return;
            };
            for place in self.cpu_games.live_places() {
                let keys: Vec<String> = self
                    .place_keys(&place)
                    .into_iter()
                    .map(|(k, _)| k)
                    .collect();
                if keys.is_empty() {
                    continue;
                }
                if let Err(err) = places::renew(cluster, &keys, &place.code, PLACE_TTL).await {
                    crate::metrics::METRICS.redis_errors.inc();
                    tracing::warn!("the places of CPU games could not be renewed: {err}");
                    break;
                }
            }
        }
    }
}
