//! Web Push: the subscriptions of seats and the server's VAPID key.

use crate::error::StoreError;

/// A Web Push subscription of a seat (`PushSubscription.toJSON()` of the browser).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushSub {
    pub code: String,
    pub seat: i64,
    pub endpoint: String,
    /// base64url of the browser's P-256 public key (65 bytes, uncompressed).
    pub p256dh: String,
    /// base64url of the browser's 16-byte auth secret.
    pub auth: String,
}

/// The storage of push subscriptions and of server-wide keys.
pub trait PushStore: Send + Sync + 'static {
    /// A server-wide value (the VAPID key).
    fn server_key(&self, name: &str) -> Result<Option<String>, StoreError>;
    /// Sets a server-wide value unless one is set; returns the value kept (so that servers
    /// starting together agree on one).
    fn init_server_key(&self, name: &str, value: &str) -> Result<String, StoreError>;
    /// Stores (replaces) the subscription of a seat; its room must exist.
    fn save_push(&self, sub: &PushSub, now: i64) -> Result<(), StoreError>;
    /// The subscription of a seat.
    fn push_of(&self, code: &str, seat: i64) -> Result<Option<PushSub>, StoreError>;
    /// Deletes a subscription by endpoint (the push service said it is gone).
    fn delete_push_endpoint(&self, endpoint: &str) -> Result<(), StoreError>;
    /// Deletes the subscription of a seat.
    fn delete_push_seat(&self, code: &str, seat: i64) -> Result<(), StoreError>;
    /// Deletes every subscription of a room (its game ended).
    fn delete_push_room(&self, code: &str) -> Result<(), StoreError>;
    /// Retention: deletes the subscriptions of rooms whose game finished before
    /// `finished_before` (the notifier deletes them as soon as it has announced the end; this
    /// catches what it missed). Returns the rows deleted.
    fn sweep_push(&self, finished_before: i64) -> Result<usize, StoreError>;
}
