//! Connection timeouts and caps (docs/security.md, "Limits"): the server loop of
//! [`crate::serve`], on hyper's HTTP/1.1 connections, with
//! - a **header-read timeout**: a request's head must be complete within
//!   [`Network::header_timeout`] of the connection's opening or of the head's first byte
//!   (slow-header attacks); a late one is answered `408 timeout` and the connection closed;
//! - an **idle timeout**: a kept-alive connection with no request for
//!   [`Network::idle_timeout`] is closed (what HTTP allows for idle connections);
//! - a **global cap** below the open-file limit ([`default_max_connections`]), WebSockets
//!   included: more connections are answered `503 overloaded` and closed;
//! - a **per-address cap** on connections ([`Network::max_connections_per_ip`], not applied to
//!   trusted proxies): `429 too_many_connections`;
//! - a **per-client cap on WebSockets** ([`WebSockets`], after proxies): the upgrade is
//!   answered `429 too_many_connections`.
//!
//! A request being handled, a connection upgraded to a WebSocket (which has its own ping and
//! silence rule, crate::ws) and a stream of server-sent events (its heartbeat,
//! crate::http::events) are never timed out here; a slow body is `crate::http`'s.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

use super::client_ip::limit_key;
use crate::error::AppError;
use crate::net::Network;

/// Open files kept for everything but connections: the database, its WAL, the push client's
/// sockets, logs, the listener.
const RESERVED_FILES: u64 = 64;
/// Refusals being written at the same time at most; beyond, a connection is just closed.
const REFUSING: usize = 64;
/// Largest request head read (hyper's minimum is 8 KiB): bounds the memory of a slow head.
const MAX_HEAD: usize = 16 * 1024;

/// Raises the soft open-file limit to the hard one (what `dames serve` does at start) and
/// returns the soft limit now in force, if it can be read.
pub fn raise_open_file_limit() -> Option<u64> {
    use rustix::process::{getrlimit, setrlimit, Resource};
    let limit = getrlimit(Resource::Nofile);
    if limit.maximum.is_some_and(|max| limit.current < Some(max)) || limit.current.is_none() {
        let raised = rustix::process::Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        if setrlimit(Resource::Nofile, raised).is_ok() {
            return limit.maximum;
        }
    }
    limit.current
}

/// The default global cap: the soft open-file limit minus a tenth and [`RESERVED_FILES`]
/// (at least 32; 1024 → 858).
pub fn default_max_connections() -> usize {
    let soft = rustix::process::getrlimit(rustix::process::Resource::Nofile)
        .current
        .unwrap_or(65_536);
    let cap = soft.saturating_sub(soft / 10 + RESERVED_FILES).max(32);
    usize::try_from(cap).unwrap_or(usize::MAX)
}

/// Counts per address, with a cap; a [`Slot`] gives its place back when dropped.
#[derive(Debug, Default)]
pub struct Counter {
    counts: Mutex<HashMap<IpAddr, usize>>,
}

/// One counted connection or WebSocket of an address.
#[derive(Debug)]
pub struct Slot {
    counter: Arc<Counter>,
    key: IpAddr,
}

impl Counter {
    /// Takes a place for `key` if it has fewer than `cap`.
    pub fn take(self: &Arc<Self>, key: IpAddr, cap: usize) -> Option<Slot> {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let n = counts.entry(key).or_insert(0);
        if *n >= cap {
            return None;
        }
        *n += 1;
        Some(Slot {
            counter: self.clone(),
            key,
        })
    }

    /// Places taken by `key` now.
    pub fn count(&self, key: IpAddr) -> usize {
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.get(&key).copied().unwrap_or(0)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self
            .counter
            .counts
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(n) = counts.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.key);
            }
        }
    }
}

/// The open WebSockets per client address (IPv6: per /64), shared by the upgrade handlers.
#[derive(Debug)]
pub struct WebSockets {
    counter: Arc<Counter>,
    cap: usize,
}

impl WebSockets {
    /// At most `cap` WebSockets per client address.
    pub fn new(cap: usize) -> Self {
        Self {
            counter: Arc::default(),
            cap,
        }
    }

    /// A place for one more WebSocket of `ip`, held as long as the socket is open.
    ///
    /// # Errors
    /// `too_many_connections` when this address has [`Network::max_websockets_per_ip`] open.
    pub fn open(&self, ip: IpAddr) -> Result<Slot, AppError> {
        let slot = self.counter.take(limit_key(ip), self.cap);
        crate::metrics::METRICS.websocket_opened(slot.is_some());
        slot.ok_or(AppError::TooManyConnections)
    }
}

/// What a connection is doing, for its timeouts.
#[derive(Debug)]
struct ConnState {
    /// Requests being handled now.
    active: usize,
    /// Requests handled so far.
    served: u64,
    /// Upgraded to a WebSocket: no timeout here any more.
    upgraded: bool,
    /// Last byte read or written, or the end of the last request.
    last: Instant,
    /// First byte of a request head not yet complete.
    head_since: Option<Instant>,
}

#[derive(Clone, Debug)]
struct Conn(Arc<Mutex<ConnState>>);

/// Marks a request in progress; dropped when its response is ready.
struct Busy(Conn);

impl Drop for Busy {
    fn drop(&mut self) {
        let mut s = self.0.lock();
        s.active -= 1;
        s.last = Instant::now();
    }
}

impl Conn {
    fn new() -> Self {
        Self(Arc::new(Mutex::new(ConnState {
            active: 0,
            served: 0,
            upgraded: false,
            last: Instant::now(),
            head_since: None,
        })))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ConnState> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn begin(&self) -> Busy {
        let mut s = self.lock();
        s.active += 1;
        s.served += 1;
        s.head_since = None;
        Busy(self.clone())
    }

    fn on_io(&self, read: bool) {
        let mut s = self.lock();
        let now = Instant::now();
        s.last = now;
        if read && s.active == 0 && s.head_since.is_none() {
            s.head_since = Some(now);
        }
    }

    /// When reading must have progressed, and whether a head is half received then.
    fn deadline(&self, net: &Network) -> Option<(Instant, bool)> {
        let s = self.lock();
        if s.upgraded || s.active > 0 {
            return None;
        }
        Some(match s.head_since {
            Some(since) => (since + net.header_timeout, true),
            None if s.served == 0 => (s.last + net.header_timeout, false),
            None => (s.last + net.idle_timeout, false),
        })
    }
}

/// The TCP stream of one connection with its read deadline, and its places in the counts
/// (given back when the stream is dropped, WebSocket or not).
struct Guarded {
    io: TcpStream,
    conn: Conn,
    net: Arc<Network>,
    sleep: Pin<Box<Sleep>>,
    _slots: (Slot, Option<Slot>),
}

impl AsyncRead for Guarded {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.io).poll_read(cx, buf) {
            Poll::Ready(result) => {
                if buf.filled().len() > before {
                    this.conn.on_io(true);
                }
                return Poll::Ready(result);
            }
            Poll::Pending => {}
        }
        let Some((deadline, half_head)) = this.conn.deadline(&this.net) else {
            return Poll::Pending;
        };
        if this.sleep.deadline() != deadline {
            this.sleep.as_mut().reset(deadline);
        }
        if this.sleep.as_mut().poll(cx).is_pending() {
            return Poll::Pending;
        }
        if half_head {
            // Nothing of a response is under way: a short answer before closing.
            let _ = this.io.try_write(&raw_response(&AppError::Timeout));
        }
        Poll::Ready(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "connection timed out",
        )))
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.io).poll_write(cx, buf);
        if matches!(written, Poll::Ready(Ok(n)) if n > 0) {
            this.conn.on_io(false);
        }
        written
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        if matches!(written, Poll::Ready(Ok(n)) if n > 0) {
            this.conn.on_io(false);
        }
        written
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

/// A complete HTTP/1.1 answer carrying `err`'s JSON, for refusals made before or outside
/// hyper (connection caps, a head that never came).
pub fn raw_response(err: &AppError) -> Vec<u8> {
    let body = serde_json::json!({ "error": err.to_json() }).to_string();
    let status = err.status();
    let retry = err
        .retry_after()
        .map(|s| format!("retry-after: {s}\r\n"))
        .unwrap_or_default();
    format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\n{retry}\r\n{body}",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    )
    .into_bytes()
}

/// Writes `err` and closes, reading (and dropping) what the client sends for a moment so that
/// the answer is not lost to a reset.
async fn refuse(mut stream: TcpStream, err: AppError) {
    let write = async {
        stream.write_all(&raw_response(&err)).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 4096];
        for _ in 0..16 {
            if tokio::io::AsyncReadExt::read(&mut stream, &mut sink).await? == 0 {
                break;
            }
        }
        io::Result::Ok(())
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
}

/// Every open connection of the server, by peer address.
struct Tracker {
    all: Arc<Counter>,
    per_ip: Arc<Counter>,
    refusing: Arc<tokio::sync::Semaphore>,
    max: usize,
}

/// The global key of [`Tracker::all`].
const ALL: IpAddr = IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED);

impl Tracker {
    /// Places for a connection from `peer`, or the refusal to send.
    fn admit(&self, peer: IpAddr, net: &Network) -> Result<(Slot, Option<Slot>), AppError> {
        let all = self.all.take(ALL, self.max).ok_or(AppError::Overloaded)?;
        let proxy = net.trusted_proxies.iter().any(|c| c.contains(peer));
        if proxy {
            return Ok((all, None));
        }
        let mine = self
            .per_ip
            .take(limit_key(peer), net.max_connections_per_ip)
            .ok_or(AppError::TooManyConnections)?;
        Ok((all, Some(mine)))
    }
}

/// Accepts connections on `listener` and serves `router` on each until `shutdown` completes,
/// then lets the requests under way finish (WebSocket sessions close on their own signal).
///
/// # Errors
/// If the listener's address cannot be read.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    net: Network,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    listener.local_addr()?;
    let tracker = Tracker {
        all: Arc::default(),
        per_ip: Arc::default(),
        refusing: Arc::new(tokio::sync::Semaphore::new(REFUSING)),
        max: net.max_connections.unwrap_or_else(default_max_connections),
    };
    let net = Arc::new(net);
    let (stop, stopped) = watch::channel(());
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(err) => {
                    accept_error(err).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        match tracker.admit(peer.ip(), &net) {
            Ok(slots) => {
                let connection = Connection {
                    router: router.clone(),
                    net: net.clone(),
                    peer,
                };
                tokio::spawn(connection.run(stream, slots, stopped.clone()));
            }
            Err(err) => {
                crate::metrics::METRICS.connection_refused(matches!(err, AppError::Overloaded));
                tracing::debug!("connection from {peer} refused: {err}");
                if let Ok(permit) = tracker.refusing.clone().try_acquire_owned() {
                    tokio::spawn(async move {
                        refuse(stream, err).await;
                        drop(permit);
                    });
                }
            }
        }
    }
    drop(listener);
    drop(stopped);
    stop.send_replace(());
    stop.closed().await;
    Ok(())
}

/// Accept errors are the system's (no more files, no more memory): wait a little, go on.
async fn accept_error(err: io::Error) {
    if matches!(
        err.kind(),
        io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
    ) {
        return;
    }
    tracing::error!("accept failed: {err}");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

/// One accepted connection.
struct Connection {
    router: Router,
    net: Arc<Network>,
    peer: SocketAddr,
}

impl Connection {
    async fn run(
        self,
        stream: TcpStream,
        slots: (Slot, Option<Slot>),
        mut stopped: watch::Receiver<()>,
    ) {
        let conn = Conn::new();
        let watched = conn.clone();
        let io = Guarded {
            io: stream,
            conn: conn.clone(),
            net: self.net.clone(),
            sleep: Box::pin(tokio::time::sleep(Duration::ZERO)),
            _slots: slots,
        };
        let (router, peer) = (self.router, self.peer);
        let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
            let busy = conn.begin();
            let conn = conn.clone();
            req.extensions_mut().insert(ConnectInfo(peer));
            let router = router.clone();
            async move {
                let response = match router.oneshot(req.map(axum::body::Body::new)).await {
                    Ok(response) => response,
                    Err(never) => match never {},
                };
                // A WebSocket, or a stream of server-sent events (crate::http::events): each
                // has its own heartbeat, and ends when a write to a closed peer fails.
                let streams = response
                    .headers()
                    .get(axum::http::header::CONTENT_TYPE)
                    .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
                if response.status() == StatusCode::SWITCHING_PROTOCOLS || streams {
                    conn.lock().upgraded = true;
                }
                drop(busy);
                Ok::<_, Infallible>(response)
            }
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder.max_buf_size(MAX_HEAD).max_headers(64);
        let connection = builder
            .serve_connection(TokioIo::new(io), service)
            .with_upgrades();
        tokio::pin!(connection);
        tokio::select! {
            result = connection.as_mut() => {
                if let Err(err) = result {
                    tracing::debug!("connection from {peer}: {err}");
                }
            }
            _ = stopped.changed() => {
                connection.as_mut().graceful_shutdown();
                let _ = tokio::time::timeout(self.net.drain_timeout, connection).await;
            }
            // Dropping the connection closes it.
            () = watchdog(&watched, &self.net) => {}
        }
    }
}

/// Completes when the connection has been idle past its deadline. Hyper does not always read
/// again after a response, so the read side alone cannot notice an idle connection; a head
/// half received is the read side's to answer (with its 408), this is only a fallback for it.
async fn watchdog(conn: &Conn, net: &Network) {
    let grace = Duration::from_secs(1);
    loop {
        let next = match conn.deadline(net) {
            Some((deadline, false)) if deadline <= Instant::now() => return,
            Some((deadline, true)) if deadline + grace <= Instant::now() => return,
            Some((deadline, false)) => deadline,
            Some((deadline, true)) => deadline + grace,
            None => Instant::now() + net.header_timeout.min(net.idle_timeout),
        };
        tokio::time::sleep_until(next).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_caps_each_key_and_gives_places_back() {
        let counter = Arc::new(Counter::default());
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        let held: Vec<Slot> = (0..3).map(|_| counter.take(ip, 3).unwrap()).collect();
        assert!(counter.take(ip, 3).is_none());
        assert!(counter.take("192.0.2.2".parse().unwrap(), 3).is_some());
        drop(held);
        assert_eq!(counter.count(ip), 0);
        assert!(counter.take(ip, 3).is_some());
    }

    #[test]
    fn websockets_of_one_ipv6_64_share_their_cap() {
        let ws = WebSockets::new(2);
        let a = ws.open("2001:db8::1".parse().unwrap()).unwrap();
        let _b = ws.open("2001:db8::ffff:2".parse().unwrap()).unwrap();
        let err = ws.open("2001:db8::3".parse().unwrap()).unwrap_err();
        assert_eq!(err.code(), "too_many_connections");
        assert!(ws.open("2001:db8:0:1::1".parse().unwrap()).is_ok());
        drop(a);
        assert!(ws.open("2001:db8::3".parse().unwrap()).is_ok());
    }

    #[test]
    fn refusals_are_complete_http_answers() {
        let raw = String::from_utf8(raw_response(&AppError::Overloaded)).unwrap();
        assert!(
            raw.starts_with("HTTP/1.1 503 Service Unavailable\r\n"),
            "{raw}"
        );
        let (head, body) = raw.split_once("\r\n\r\n").unwrap();
        assert!(head.contains(&format!("content-length: {}", body.len())));
        assert!(head.contains("retry-after: 5"));
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(json["error"]["code"], "overloaded");
    }
}
