//! The network edge's defences (docs/security.md): who the client is behind a proxy
//! ([`client_ip`]), cross-site requests ([`origin`]), connection timeouts and caps ([`limits`]),
//! and the listening socket itself ([`listen`]).
pub mod client_ip;
pub mod limits;
pub mod listen;
pub mod origin;

use std::time::Duration;

/// The network edge (docs/security.md, "Limits").
#[derive(Clone, Debug)]
pub struct Network {
    /// Reverse proxies whose `Forwarded` / `X-Forwarded-For` headers name the client
    /// (crate::net::client_ip); none by default.
    pub trusted_proxies: Vec<client_ip::Cidr>,
    /// A request's head must arrive within this time of the connection's opening or of its own
    /// first byte (10 s); a slow one is answered `408` and closed.
    pub header_timeout: Duration,
    /// A kept-alive connection with no request for this long is closed (30 s).
    pub idle_timeout: Duration,
    /// Open connections at most (WebSockets included); `None`: from the open-file limit
    /// (crate::net::limits::default_max_connections). More are answered `503` and closed.
    pub max_connections: Option<usize>,
    /// Open connections from one address (IPv6: one /64) at most, except from trusted
    /// proxies (256). More are answered `429`.
    pub max_connections_per_ip: usize,
    /// Open WebSockets from one client address (after proxies; IPv6: one /64) at most (50).
    /// More upgrades are answered `429 too_many_connections`.
    pub max_websockets_per_ip: usize,
    /// On SIGTERM or Ctrl-C, how long the drain may take (10 s): requests in progress finish,
    /// WebSockets are told to reconnect, the writer commits what it was given; then the
    /// process exits whatever is left.
    pub drain_timeout: Duration,
}

impl Default for Network {
    fn default() -> Self {
        Self {
            trusted_proxies: Vec::new(),
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            max_connections: None,
            max_connections_per_ip: 256,
            max_websockets_per_ip: 50,
            drain_timeout: Duration::from_secs(10),
        }
    }
}
