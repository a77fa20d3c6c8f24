//! Several nodes behind one PostgreSQL and one Redis (docs/cluster.md): what nodes share through
//! Redis. [`Cluster`] is this node's connection to it: its random node id, the key prefix every
//! key and channel of this deployment starts with (tests give each theirs, so that they run in
//! parallel on one Redis), a multiplexed connection for commands and the client from which
//! subscriptions are opened.
//!
//! With no `--redis` there is no `Cluster`: one node, and everything stays in its memory.
//!
//! ```no_run
//! # async fn run() -> Result<(), dames_server::cluster::ClusterError> {
//! use dames_server::cluster::Cluster;
//! let cluster = Cluster::connect("redis://127.0.0.1:6379", "dames:").await?;
//! let key = cluster.key(&["room", "ABC123"]); // "dames:room:ABC123"
//! # let _ = key; Ok(()) }
//! ```

pub mod lease;
pub mod places;

use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

/// Redis could not be reached or refused a command.
#[derive(Debug, thiserror::Error)]
#[error("redis: {0}")]
pub struct ClusterError(#[from] redis::RedisError);

/// This node's connection to the cluster's Redis.
#[derive(Clone)]
pub struct Cluster {
    node: String,
    prefix: String,
    client: redis::Client,
    conn: ConnectionManager,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The URL may hold a password: never printed.
        f.debug_struct("Cluster")
            .field("node", &self.node)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl Cluster {
    /// Connects to Redis at `url` (`redis://host:port/db`) with every key under `prefix`, and
    /// gives this node a random id.
    ///
    /// # Errors
    /// If the URL is invalid or Redis does not answer.
    pub async fn connect(url: &str, prefix: &str) -> Result<Self, ClusterError> {
        let client = redis::Client::open(url)?;
        // A few quick tries at start (a wrong address fails in about a second); once running,
        // the manager reconnects by itself, and a command that cannot be answered in time fails.
        let config = ConnectionManagerConfig::new()
            .set_number_of_retries(2)
            .set_max_delay(Duration::from_millis(500))
            .set_connection_timeout(Some(Duration::from_secs(2)))
            .set_response_timeout(Some(Duration::from_secs(2)));
        let conn = ConnectionManager::new_with_config(client.clone(), config).await?;
        let mut node = [0u8; 8];
        getrandom::fill(&mut node).map_err(|e| {
            redis::RedisError::from((
                redis::ErrorKind::Client,
                "no randomness for the node id",
                e.to_string(),
            ))
        })?;
        let node = node.iter().map(|b| format!("{b:02x}")).collect();
        Ok(Self {
            node,
            prefix: prefix.to_owned(),
            client,
            conn,
        })
    }

    /// This node's id (random, new at every start).
    pub fn node(&self) -> &str {
        &self.node
    }

    /// The key (or channel) made of `parts` under this deployment's prefix.
    pub fn key(&self, parts: &[&str]) -> String {
        let mut key = self.prefix.clone();
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                key.push(':');
            }
            key.push_str(part);
        }
        key
    }

    /// A connection for commands (multiplexed and reconnecting: clone it freely).
    pub fn conn(&self) -> ConnectionManager {
        self.conn.clone()
    }

    /// The client, to open subscriptions (`get_async_pubsub`).
    pub fn client(&self) -> &redis::Client {
        &self.client
    }

    /// Whether Redis answers (`/ready`).
    ///
    /// # Errors
    /// If it does not.
    pub async fn ping(&self) -> Result<(), ClusterError> {
        let mut conn = self.conn();
        let _: String = redis::cmd("PING").query_async(&mut conn).await?;
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The Redis of the tests (`DAMES_TEST_REDIS`, default the local one).
    pub fn test_url() -> String {
        std::env::var("DAMES_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
    }

    /// A key prefix no other test uses.
    pub fn scratch_prefix() -> String {
        format!("dames-test:{}:", dames_room::token::random_code())
    }

    #[tokio::test]
    async fn keys_are_under_the_deployment_prefix_and_nodes_get_distinct_ids() {
        let prefix = scratch_prefix();
        let a = Cluster::connect(&test_url(), &prefix).await.unwrap();
        let b = Cluster::connect(&test_url(), &prefix).await.unwrap();
        assert_eq!(a.key(&["room", "ABC123"]), format!("{prefix}room:ABC123"));
        assert_ne!(a.node(), b.node());
        assert_eq!(a.node().len(), 16);
        a.ping().await.unwrap();
    }

    #[tokio::test]
    async fn an_unreachable_redis_is_an_error() {
        assert!(Cluster::connect("redis://127.0.0.1:1", "x:").await.is_err());
        assert!(Cluster::connect("not a url", "x:").await.is_err());
    }
}
