//! The application: the router with its limits and headers, and the server loop that starts the
//! background jobs (notifications, retention) and serves until shutdown.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::IntoResponse;
use axum::Router;
use tokio::net::TcpListener;

use crate::config::Config;
use crate::error::AppError;
use crate::state::AppState;
use crate::{assets, http, net, push, retention, ws};

/// The whole site: `/api`, `/ws`, the client's pages and static files.
/// Liveness: the process answers.
async fn health() -> &'static str {
    "ok"
}

/// Readiness: the database answers a query (503 when it does not).
async fn ready(State(state): State<AppState>) -> (StatusCode, &'static str) {
    let store = state.store.clone();
    if let Err(err) = crate::live::blocking(move || store.ping()).await {
        tracing::warn!("not ready: {err}");
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "the database does not answer",
        );
    }
    if let Some(cluster) = &state.cluster {
        if let Err(err) = cluster.ping().await {
            tracing::warn!("not ready: {err}");
            return (StatusCode::SERVICE_UNAVAILABLE, "redis does not answer");
        }
    }
    (StatusCode::OK, "ready")
}

pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/health", axum::routing::get(health))
        .route("/ready", axum::routing::get(ready))
        .nest("/api", http::router())
        .merge(ws::router())
        .merge(http::pools::ws_router())
        .merge(assets::router())
        .layer(axum::middleware::from_fn(typed_api_errors))
        .layer(axum::middleware::from_fn(http::middleware::compress_json))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            http::client_cookie,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            http::middleware::client_ip,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            http::middleware::cross_site,
        ))
        .layer(axum::middleware::map_response_with_state(
            state.clone(),
            security_headers,
        ))
        .layer(DefaultBodyLimit::max(http::MAX_BODY))
        .with_state(state)
}

async fn security_headers(
    State(state): State<AppState>,
    response: axum::response::Response,
) -> axum::response::Response {
    let mut response = typed_method_not_allowed(response);
    let h = response.headers_mut();
    if state.secure_cookies() {
        // The site is https only: browsers never try http again for a year. Not
        // `includeSubDomains`: other sites of the operator's domain are not ours to decide.
        h.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        );
    }
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

/// Under `/api`, a refusal of the framework itself (a path parameter that is not a number or
/// not UTF-8, a query that cannot be read…) gets the typed JSON error like every other refusal,
/// never a plain-text body.
async fn typed_api_errors(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let path = req.uri().path();
    let api = path == "/api" || path.starts_with("/api/");
    let response = next.run(req).await;
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !api || json || !response.status().is_client_error() {
        return response;
    }
    let typed = match response.status() {
        StatusCode::NOT_FOUND => AppError::NotFound,
        StatusCode::METHOD_NOT_ALLOWED => return typed_method_not_allowed(response),
        StatusCode::PAYLOAD_TOO_LARGE => AppError::TooLarge,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => AppError::NotJson,
        StatusCode::REQUEST_TIMEOUT => AppError::Timeout,
        _ => AppError::Invalid("the request's path or query cannot be read".into()),
    };
    typed.into_response()
}

/// A 405 from the router (a known path, another method) gets the typed JSON error like every
/// other refusal, keeping its `Allow` header.
fn typed_method_not_allowed(response: axum::response::Response) -> axum::response::Response {
    if response.status() != StatusCode::METHOD_NOT_ALLOWED
        || response.headers().contains_key(header::CONTENT_TYPE)
    {
        return response;
    }
    let allow = response.headers().get(header::ALLOW).cloned();
    let mut typed = AppError::MethodNotAllowed.into_response();
    if let Some(allow) = allow {
        typed.headers_mut().insert(header::ALLOW, allow);
    }
    typed
}

/// What an operator should hear about at start: a site reachable from other machines whose
/// links and QR codes would follow the `Host` header of each request.
pub fn startup_warnings(config: &Config, addr: SocketAddr) -> Vec<String> {
    let mut warnings = Vec::new();
    if config.public_url.is_none() && !addr.ip().is_loopback() {
        warnings.push(format!(
            "listening on {addr} without --public-url: room links and QR codes are built from \
             each request's Host header; set --public-url to the site's address"
        ));
    }
    warnings
}

/// Serves `state` on `listener` until `shutdown` completes, with the notifications and the
/// retention job running, behind the connection timeouts and caps of [`net::limits`] (which
/// also sets `TCP_NODELAY` on accepted sockets: the protocol's messages are small and must
/// leave at once).
///
/// # Errors
/// If the server fails.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    if let Ok(addr) = listener.local_addr() {
        for warning in startup_warnings(&state.config, addr) {
            tracing::warn!("{warning}");
        }
    }
    let push = match push::start(&state.rooms, state.store.clone(), &state.config.push).await {
        Ok(push) => Some(push),
        Err(err) => {
            tracing::error!("notifications are off: {err}");
            None
        }
    };
    let sweeper = tokio::spawn(retention::run(
        state.rooms.clone(),
        state.store.clone(),
        state.config.retention.clone(),
    ));
    let closing = state.closing.clone();
    let rooms = state.rooms.clone();
    let sessions = state.sessions.clone();
    let drain = state.config.network.drain_timeout;
    let signalled = Arc::new(std::sync::OnceLock::new());
    let shutdown = {
        let signalled = signalled.clone();
        async move {
            shutdown.await;
            let _ = signalled.set(tokio::time::Instant::now());
            tracing::info!("draining (at most {drain:?})");
            // The WebSockets are told to reconnect; the listener closes (net::limits).
            closing.send_replace(true);
        }
    };
    let mut network = state.config.network.clone();
    if !state.config.limits.enabled {
        // Load tests open thousands of sockets from one address.
        network.max_connections_per_ip = usize::MAX;
    }
    // Returns once the listener is closed and every HTTP connection has finished its request
    // in progress (each within `drain`).
    let result = net::limits::serve(listener, app(state), network, shutdown).await;
    sweeper.abort();
    let deadline = signalled
        .get()
        .map_or_else(tokio::time::Instant::now, |at| *at + drain);
    let finish = async {
        // Each session has counted its seat off (its last store write goes through the writer).
        sessions.closed().await;
        // No change from now on (CPU players stop), then what the writer holds is committed.
        rooms.close();
        rooms.flush().await;
    };
    if tokio::time::timeout_at(deadline, finish).await.is_err() {
        rooms.close();
        tracing::warn!(
            "the drain took longer than {drain:?}: stopping with {} WebSockets still open",
            sessions.receiver_count()
        );
    } else {
        tracing::info!("drained");
    }
    // Every change is committed: what it asked to notify is delivered before the exit.
    if let Some(push) = push {
        push.drain(push::DRAIN).await;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_address_without_public_url_is_warned_about() {
        let mut config = Config::new("x.db");
        let public: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let local: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        assert_eq!(startup_warnings(&config, public).len(), 1);
        assert!(startup_warnings(&config, local).is_empty());
        config.public_url = Some("https://dames.example".into());
        assert!(startup_warnings(&config, public).is_empty());
    }
}
