//! The listening socket, with its accept queue sized for a deploy.
//!
//! A restart makes every player of the node reconnect at once. With the library's default
//! backlog (128) a burst of more connections than that overflows the accept queue: the kernel
//! drops the SYNs (`ListenOverflows` in `/proc/net/netstat`) and those clients wait for a TCP
//! retry — 1 s, then 3 s — however fast the server is. [`LISTEN_BACKLOG`] asks for 4,096; the
//! kernel caps it at `net.core.somaxconn` (4,096 by default since Linux 5.4; raise it for more),
//! and half-open connections are bounded by `net.ipv4.tcp_max_syn_backlog` (SYN cookies take
//! over past it). docs/performance.md has the figures.

use std::io;
use std::net::SocketAddr;

use tokio::net::{TcpListener, TcpSocket};

/// The accept queue asked for (the kernel's `somaxconn` caps it).
pub const LISTEN_BACKLOG: u32 = 4096;

/// A listener on `addr` (`SO_REUSEADDR`, so that a restarted node binds at once) with an
/// accept queue of [`LISTEN_BACKLOG`].
///
/// # Errors
/// If the address cannot be bound.
pub fn listen(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// 2,000 connections at once to a node that accepts none yet (busy restarting): every
    /// handshake completes from the queue, none waits for a SYN retry (1 s).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_burst_of_2000_connections_fits_the_accept_queue_without_a_syn_retry() {
        let listener = listen("127.0.0.1:0".parse().unwrap()).unwrap();
        let addr = listener.local_addr().unwrap();
        let connects = (0..2000).map(|_| {
            tokio::spawn(async move {
                let started = std::time::Instant::now();
                let stream = tokio::time::timeout(
                    Duration::from_millis(900),
                    tokio::net::TcpStream::connect(addr),
                )
                .await;
                (stream.is_ok_and(|s| s.is_ok()), started.elapsed())
            })
        });
        let mut done = Vec::new();
        for c in connects.collect::<Vec<_>>() {
            done.push(c.await.unwrap());
        }
        let late = done.iter().filter(|(ok, _)| !ok).count();
        assert_eq!(late, 0, "{late} of 2000 connections waited for a SYN retry");
        let slowest = done.iter().map(|(_, t)| *t).max().unwrap();
        assert!(slowest < Duration::from_millis(900), "{slowest:?}");
        drop(listener);
    }
}
