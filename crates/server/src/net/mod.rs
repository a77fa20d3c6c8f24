//! The network edge's defences (docs/security.md): who the client is behind a proxy
//! ([`client_ip`]), cross-site requests ([`origin`]), connection timeouts and caps ([`limits`]).
pub mod client_ip;
pub mod limits;
pub mod origin;
