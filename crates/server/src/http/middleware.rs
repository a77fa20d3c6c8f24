//! The middleware of every request that needs the application state: the client's address
//! behind trusted proxies ([`crate::net::client_ip`]) and the cross-site guard
//! ([`crate::net::origin`]); and the gzip of the larger JSON answers ([`compress_json`]).

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::net::client_ip::{resolve, ClientIp};
use crate::net::origin::{changes_state, check};
use crate::state::AppState;

/// Puts the [`ClientIp`] of each request in its extensions.
pub async fn client_ip(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    if let Some(ConnectInfo(peer)) = req.extensions().get::<ConnectInfo<SocketAddr>>() {
        let ip = resolve(
            peer.ip(),
            req.headers(),
            &state.config.network.trusted_proxies,
        );
        req.extensions_mut().insert(ClientIp(ip));
    }
    next.run(req).await
}

/// Refuses state-changing requests and upgrades that come from another site.
pub async fn cross_site(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if changes_state(req.method(), req.headers()) {
        if let Err(err) = check(state.config.public_url.as_deref(), req.headers()) {
            return err.into_response();
        }
    }
    next.run(req).await
}

/// JSON answers at least this long are sent gzipped to a client that accepts it.
pub const COMPRESS_FROM: usize = 1024;

/// The most a JSON answer is read into memory to be compressed (larger ones go as they are).
const COMPRESS_AT_MOST: usize = 4 << 20;

/// Sends JSON answers of [`COMPRESS_FROM`] bytes or more gzipped when the request accepts
/// gzip (a room's view, legal moves, records, lists: 2–50 KiB, a fifth to a tenth of that once
/// compressed). The web client's files are compressed once at build time (crate::assets);
/// event streams and small answers go as they are.
pub async fn compress_json(req: Request, next: Next) -> Response {
    let gzip = req
        .headers()
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|c| {
            let mut parts = c.split(';').map(str::trim);
            parts
                .next()
                .is_some_and(|name| name.eq_ignore_ascii_case("gzip"))
                && !parts.any(|p| p.replace(' ', "") == "q=0")
        });
    let response = next.run(req).await;
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !gzip || !json || response.headers().contains_key(header::CONTENT_ENCODING) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let bytes = match axum::body::to_bytes(body, COMPRESS_AT_MOST).await {
        Ok(bytes) => bytes,
        Err(_) => {
            return (
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                "answer too large",
            )
                .into_response()
        }
    };
    parts
        .headers
        .append(header::VARY, HeaderValue::from_static("accept-encoding"));
    if bytes.len() < COMPRESS_FROM {
        return Response::from_parts(parts, axum::body::Body::from(bytes));
    }
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(bytes.len() / 4),
        flate2::Compression::new(5),
    );
    let compressed =
        std::io::Write::write_all(&mut encoder, &bytes).and_then(|()| encoder.finish());
    match compressed {
        Ok(gz) => {
            parts.headers.remove(header::CONTENT_LENGTH);
            parts
                .headers
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            Response::from_parts(parts, axum::body::Body::from(gz))
        }
        Err(_) => Response::from_parts(parts, axum::body::Body::from(bytes)),
    }
}
