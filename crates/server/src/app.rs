//! The application: the router with its limits and headers, and the server loop that starts the
//! background jobs (notifications, retention) and serves until shutdown.

use std::net::SocketAddr;

use axum::extract::DefaultBodyLimit;
use axum::http::HeaderValue;
use axum::serve::ListenerExt;
use axum::Router;
use tokio::net::TcpListener;

use crate::state::AppState;
use crate::{assets, http, push, retention, ws};

/// The whole site: `/api`, `/ws`, the client's pages and static files.
pub fn app(state: AppState) -> Router {
    Router::new()
        .nest("/api", http::router())
        .merge(ws::router())
        .merge(assets::router())
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            http::client_cookie,
        ))
        .layer(axum::middleware::map_response(security_headers))
        .layer(DefaultBodyLimit::max(http::MAX_BODY))
        .with_state(state)
}

async fn security_headers(mut response: axum::response::Response) -> axum::response::Response {
    let h = response.headers_mut();
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    // Files under a content-hashed name (modules, images) are never documents nor workers: the
    // headers below would only add ~300 bytes to each of them (assets.rs).
    if assets::is_immutable(h) {
        return response;
    }
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    h.insert("referrer-policy", HeaderValue::from_static("same-origin"));
    // The client is plain modules from this origin: nothing inline, nothing from elsewhere.
    h.insert(
        "content-security-policy",
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; \
             connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        ),
    );
    response
}

/// Serves `state` on `listener` until `shutdown` completes, with the notifications and the
/// retention job running. Accepted sockets get `TCP_NODELAY`: the protocol's messages are small
/// and must leave at once, not wait for Nagle's algorithm to gather more.
///
/// # Errors
/// If the server fails.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    if let Err(err) = push::start(&state.rooms, &state.config.push).await {
        tracing::error!("notifications are off: {err}");
    }
    let sweeper = tokio::spawn(retention::run(
        state.rooms.clone(),
        state.config.retention.clone(),
    ));
    let closing = state.closing.clone();
    let rooms = state.rooms.clone();
    let shutdown = async move {
        shutdown.await;
        rooms.close();
        closing.send_replace(true);
    };
    let service = app(state).into_make_service_with_connect_info::<SocketAddr>();
    let listener = listener.tap_io(|tcp| {
        if let Err(err) = tcp.set_nodelay(true) {
            tracing::warn!("TCP_NODELAY not set: {err}");
        }
    });
    let result = axum::serve(listener, service)
        .with_graceful_shutdown(shutdown)
        .await;
    sweeper.abort();
    result
}
