//! The application: shared state, the router with its limits and headers, and the server loop.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::Router;
use tokio::net::TcpListener;

use crate::config::Config;
use crate::error::AppError;
use crate::ratelimit::RateLimiter;
use crate::rooms::Rooms;
use crate::store::{SqliteStore, Store};
use crate::{assets, http, retention, ws};

/// What every handler shares.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The live rooms and the store.
    pub rooms: Arc<Rooms>,
    /// Rate limits.
    pub limiter: Arc<RateLimiter>,
    /// Configuration.
    pub config: Arc<Config>,
    /// Turns `true` when the server shuts down (WebSocket sessions close).
    pub closing: Arc<tokio::sync::watch::Sender<bool>>,
}

impl AppState {
    /// Opens the store of `config`, restores every unfinished room (CPU seats resume).
    ///
    /// # Errors
    /// If the database cannot be opened or read.
    pub async fn open(config: Config) -> Result<Self, AppError> {
        let path = config.db_path.clone();
        let store: Arc<dyn Store> = Arc::new(
            tokio::task::spawn_blocking(move || SqliteStore::open(&path))
                .await
                .map_err(|e| AppError::internal("open", e))??,
        );
        Self::with_store(store, config).await
    }

    /// The state over an already opened store.
    ///
    /// # Errors
    /// If the store cannot be read.
    pub async fn with_store(store: Arc<dyn Store>, config: Config) -> Result<Self, AppError> {
        let rooms = Rooms::new(store, config.cpu_workers);
        let restored = rooms.restore_all().await?;
        tracing::info!("restored {restored} unfinished rooms");
        Ok(Self {
            rooms,
            limiter: Arc::new(RateLimiter::new(config.limits.clone())),
            config: Arc::new(config),
            closing: Arc::new(tokio::sync::watch::channel(false).0),
        })
    }

    /// Whether cookies are marked `Secure` (the public URL is https).
    pub fn secure_cookies(&self) -> bool {
        self.config
            .public_url
            .as_deref()
            .is_some_and(|u| u.starts_with("https://"))
    }

    /// The origin of links: `--public-url`, or `http://{Host}` of the request.
    pub fn origin(&self, headers: &HeaderMap) -> String {
        if let Some(url) = &self.config.public_url {
            return url.trim_end_matches('/').to_owned();
        }
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .filter(|h| {
                !h.is_empty()
                    && h.len() <= 255
                    && h.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
            })
            .unwrap_or("localhost");
        format!("http://{host}")
    }
}

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

/// Serves `state` on `listener` until `shutdown` completes, with the retention job running.
///
/// # Errors
/// If the server fails.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let sweeper = tokio::spawn(retention::run(state.clone()));
    let closing = state.closing.clone();
    let rooms = state.rooms.clone();
    let shutdown = async move {
        shutdown.await;
        rooms.close();
        closing.send_replace(true);
    };
    let service = app(state).into_make_service_with_connect_info::<SocketAddr>();
    let result = axum::serve(listener, service)
        .with_graceful_shutdown(shutdown)
        .await;
    sweeper.abort();
    result
}
