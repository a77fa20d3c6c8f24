//! What every handler shares ([`AppState`]): the live rooms with their store, the rate limiter,
//! the configuration and the shutdown signal. Its own module so that the HTTP handlers, the
//! WebSocket sessions and the background jobs depend on it and never on each other or on the
//! router ([`crate::app`]).

use std::sync::Arc;

use axum::http::{header, HeaderMap};

use crate::cluster::Cluster;
use crate::config::Config;
use crate::error::AppError;
use crate::live::public::PublicLists;
use crate::live::streams::Streams;
use crate::live::Rooms;
use crate::net::limits::WebSockets;
use crate::pools::Pools;
use crate::ratelimit::RateLimiter;
use dames_store::{self, Store};

/// Name in `server_keys` of the key hashing the addresses that start games against CPUs.
const ADDRESS_KEY: &str = "cpu_address_key";

/// Name in `server_keys` of the key signing the browsers' `dames_client` ids (crate::http).
const CLIENT_KEY: &str = "client_cookie_key";

/// The server key `name`, made once for the whole deployment (every node reads the same).
async fn server_key(store: &Arc<dyn Store>, name: &'static str) -> Result<String, AppError> {
    let keys = store.clone();
    crate::live::blocking(move || match keys.server_key(name)? {
        Some(key) => Ok(key),
        None => keys.init_server_key(name, &dames_room::token::random_hex128()),
    })
    .await
}

/// What every handler shares.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The live rooms (with the store of rooms).
    pub rooms: Arc<Rooms>,
    /// The whole store: reviews and push subscriptions (`dames_store` says why one object).
    pub store: Arc<dyn Store>,
    /// Rate limits.
    pub limiter: Arc<RateLimiter>,
    /// Configuration.
    pub config: Arc<Config>,
    /// Turns `true` when the server shuts down (WebSocket sessions close).
    pub closing: Arc<tokio::sync::watch::Sender<bool>>,
    /// Every WebSocket session holds a receiver of this until it has ended (its presence
    /// counted off): the drain waits for `sessions.closed()`.
    pub sessions: Arc<tokio::sync::watch::Sender<()>>,
    /// Open WebSockets per client address (crate::net::limits).
    pub websockets: Arc<WebSockets>,
    /// The browsers' streams of « Mes parties » changes (crate::http::events).
    pub streams: Arc<Streams>,
    /// The other nodes, through Redis (`--redis`); `None`: this node is alone.
    pub cluster: Option<Arc<Cluster>>,
    /// The open tables and games to watch, and their feed (crate::http::public).
    pub public: Arc<PublicLists>,
    /// Open feeds of the public lists per client address (crate::http::public).
    pub public_feeds: Arc<crate::net::limits::Counter>,
    /// The key signing the browsers' ids in their cookie (`dames_room::token::signed_client_id`).
    pub client_key: Arc<str>,
    /// Quick pairing (crate::pools).
    pub pools: Arc<Pools>,
    /// The analyses of finished games in progress (crate::live::analysis).
    pub analyses: Arc<crate::live::analysis::Analyses>,
}

impl AppState {
    /// Opens the store of `config`, restores the rooms whose game goes on by itself (clocks and
    /// CPU seats resume: `Rooms::restore_all`).
    ///
    /// # Errors
    /// If the database cannot be opened or read.
    pub async fn open(config: Config) -> Result<Self, AppError> {
        let (path, database) = (config.db_path.clone(), config.database.clone());
        let store =
            tokio::task::spawn_blocking(move || dames_store::open(&path, database.as_deref()))
                .await
                .map_err(|e| AppError::internal("open", e))??;
        Self::with_store(store, config).await
    }

    /// The state over an already opened store.
    ///
    /// # Errors
    /// If the store cannot be read.
    pub async fn with_store(store: Arc<dyn Store>, config: Config) -> Result<Self, AppError> {
        let cluster = match &config.redis {
            Some(url) => Some(Arc::new(
                Cluster::connect(url, &config.redis_prefix)
                    .await
                    .map_err(|e| AppError::internal("cluster", e))?,
            )),
            None => None,
        };
        let rooms = Rooms::with_options(store.clone(), config.cpu_workers, config.commit.clone());
        if let Some(cluster) = &cluster {
            tracing::info!("cluster node {}", cluster.node());
            rooms.join_cluster(cluster.clone());
            rooms.start_fanout();
        }
        // The key of the addresses' hashes of games against CPUs (crate::live::cpu).
        rooms.set_address_key(server_key(&store, ADDRESS_KEY).await?);
        rooms.set_cpu_caps(&config.limits);
        let restored = rooms.restore_all().await?;
        tracing::info!("restored {restored} rooms whose game goes on with a clock or a CPU");
        let streams = Arc::new(Streams::new(config.limits.enabled));
        let notify = streams.clone();
        rooms.observe(Arc::new(
            move |room: &Arc<dames_room::room::Room>, _: &[(i64, dames_room::event::Event)], _| {
                notify.changed(room);
            },
        ));
        let pools = Pools::start(rooms.clone(), store.clone(), config.pools.clone());
        let leaves = pools.clone();
        rooms.observe(Arc::new(
            move |room: &Arc<dames_room::room::Room>,
                  events: &[(i64, dames_room::event::Event)],
                  origin: crate::live::Origin| {
                // The node that made the change records it (the store would keep one anyway).
                if origin == crate::live::Origin::Here {
                    leaves.record_leaves(room, events);
                }
            },
        ));
        let public = PublicLists::start(&rooms, cluster.clone());
        let limiter = Arc::new(RateLimiter::new(config.limits.clone()).shared(cluster.clone()));
        let client_key = server_key(&store, CLIENT_KEY).await?.into();
        let analyses = Arc::new(crate::live::analysis::Analyses::new(
            config.analysis.clone(),
            store.clone(),
        ));
        Ok(Self {
            analyses,
            pools,
            public,
            public_feeds: Arc::default(),
            cluster,
            client_key,
            streams,
            rooms,
            store,
            limiter,
            websockets: Arc::new(WebSockets::new(if config.limits.enabled {
                config.network.max_websockets_per_ip
            } else {
                usize::MAX
            })),
            config: Arc::new(config),
            closing: Arc::new(tokio::sync::watch::channel(false).0),
            sessions: Arc::new(tokio::sync::watch::channel(()).0),
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
