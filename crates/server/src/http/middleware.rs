//! The middleware of every request that needs the application state: the client's address
//! behind trusted proxies ([`crate::net::client_ip`]) and the cross-site guard
//! ([`crate::net::origin`]).

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Request, State};
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
