//! Leases in Redis (docs/cluster.md, "Leases"): a key holding the id of the node that may do a
//! piece of work (think a CPU turn, run the retention sweep), with an expiry. The holder renews
//! it while it works and deletes it when done; a node that dies stops renewing, and the key
//! expires so that another node takes the work over. Renewing and releasing compare the holder
//! first (in one Lua script), so a node whose lease expired never extends or deletes another
//! node's.

use std::time::Duration;

use super::{Cluster, ClusterError};

/// Takes the lease if nobody holds it, or extends it if this node already does: 1 if it is
/// this node's now.
const ACQUIRE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0";

/// Extends the lease if this node holds it: 1 if it does.
const RENEW: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0";

/// Deletes the lease if this node holds it: 1 if it did.
const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0";

/// One lease: its key and how long it lasts unless renewed.
#[derive(Debug, Clone)]
pub struct Lease {
    key: String,
    ttl: Duration,
}

impl Lease {
    /// The lease `key` (a full key: [`Cluster::key`]) lasting `ttl` unless renewed.
    pub fn new(key: String, ttl: Duration) -> Self {
        Self { key, ttl }
    }

    /// Its key.
    pub fn key(&self) -> &str {
        &self.key
    }

    fn ttl_ms(&self) -> u64 {
        u64::try_from(self.ttl.as_millis())
            .unwrap_or(u64::MAX)
            .max(1)
    }

    async fn script(&self, cluster: &Cluster, code: &str) -> Result<bool, ClusterError> {
        let mut conn = cluster.conn();
        let held: i64 = redis::Script::new(code)
            .key(&self.key)
            .arg(cluster.node())
            .arg(self.ttl_ms())
            .invoke_async(&mut conn)
            .await?;
        Ok(held == 1)
    }

    /// Takes the lease for this node if it is free (or extends it if it is already this node's):
    /// whether this node holds it now.
    ///
    /// # Errors
    /// If Redis does not answer.
    pub async fn acquire(&self, cluster: &Cluster) -> Result<bool, ClusterError> {
        self.script(cluster, ACQUIRE).await
    }

    /// Extends the lease if this node holds it: whether it still does.
    ///
    /// # Errors
    /// If Redis does not answer.
    pub async fn renew(&self, cluster: &Cluster) -> Result<bool, ClusterError> {
        self.script(cluster, RENEW).await
    }

    /// Gives the lease up if this node holds it (another node's is left alone).
    ///
    /// # Errors
    /// If Redis does not answer.
    pub async fn release(&self, cluster: &Cluster) -> Result<bool, ClusterError> {
        let mut conn = cluster.conn();
        let released: i64 = redis::Script::new(RELEASE)
            .key(&self.key)
            .arg(cluster.node())
            .invoke_async(&mut conn)
            .await?;
        Ok(released == 1)
    }

    /// The node holding the lease, if any.
    ///
    /// # Errors
    /// If Redis does not answer.
    pub async fn holder(&self, cluster: &Cluster) -> Result<Option<String>, ClusterError> {
        let mut conn = cluster.conn();
        Ok(redis::cmd("GET")
            .arg(&self.key)
            .query_async(&mut conn)
            .await?)
    }

    /// Renews the lease every third of its life until the returned guard is dropped; `lost` is
    /// called once if this node no longer holds it (it expired and another node took it).
    /// A Redis error is not a loss: the lease is tried again at the next renewal.
    pub fn keep(
        &self,
        cluster: std::sync::Arc<Cluster>,
        lost: impl FnOnce() + Send + 'static,
    ) -> KeepGuard {
        let lease = self.clone();
        let every = (self.ttl / 3).max(Duration::from_millis(10));
        let task = tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.tick().await;
            loop {
                tick.tick().await;
                match lease.renew(&cluster).await {
                    Ok(true) => {}
                    Ok(false) => {
                        lost();
                        return;
                    }
                    Err(err) => {
                        crate::metrics::METRICS.redis_errors.inc();
                        tracing::warn!("lease {} not renewed: {err}", lease.key);
                    }
                }
            }
        });
        KeepGuard(task)
    }
}

/// Stops renewing a lease when dropped ([`Lease::keep`]).
#[derive(Debug)]
pub struct KeepGuard(tokio::task::JoinHandle<()>);

impl Drop for KeepGuard {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    use super::*;
    use crate::cluster::tests::{scratch_prefix, test_url};

    async fn two_nodes() -> (Arc<Cluster>, Arc<Cluster>) {
        let prefix = scratch_prefix();
        let a = Cluster::connect(&test_url(), &prefix).await.unwrap();
        let b = Cluster::connect(&test_url(), &prefix).await.unwrap();
        (Arc::new(a), Arc::new(b))
    }

    fn lease(cluster: &Cluster, ttl_ms: u64) -> Lease {
        Lease::new(cluster.key(&["lease"]), Duration::from_millis(ttl_ms))
    }

    #[tokio::test]
    async fn one_node_holds_a_lease_until_it_releases_it() {
        let (a, b) = two_nodes().await;
        let l = lease(&a, 5_000);
        assert!(l.acquire(&a).await.unwrap());
        assert!(l.acquire(&a).await.unwrap(), "taken again by its holder");
        assert!(!l.acquire(&b).await.unwrap());
        assert!(!l.renew(&b).await.unwrap());
        assert!(!l.release(&b).await.unwrap(), "not b's to release");
        assert_eq!(l.holder(&b).await.unwrap().as_deref(), Some(a.node()));
        assert!(l.renew(&a).await.unwrap());
        assert!(l.release(&a).await.unwrap());
        assert!(l.acquire(&b).await.unwrap());
        assert!(l.release(&b).await.unwrap());
    }

    #[tokio::test]
    async fn an_unrenewed_lease_expires_and_its_old_holder_cannot_renew_it() {
        let (a, b) = two_nodes().await;
        let l = lease(&a, 200);
        assert!(l.acquire(&a).await.unwrap());
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !l.acquire(&b).await.unwrap() {
            assert!(tokio::time::Instant::now() < deadline, "never expired");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(!l.renew(&a).await.unwrap());
        assert!(!l.release(&a).await.unwrap());
        assert_eq!(l.holder(&a).await.unwrap().as_deref(), Some(b.node()));
        l.release(&b).await.unwrap();
    }

    #[tokio::test]
    async fn a_kept_lease_outlives_its_ttl_and_a_taken_one_is_reported_lost() {
        let (a, b) = two_nodes().await;
        let l = lease(&a, 300);
        assert!(l.acquire(&a).await.unwrap());
        let lost = Arc::new(AtomicBool::new(false));
        let flag = lost.clone();
        let guard = l.keep(a.clone(), move || flag.store(true, Ordering::SeqCst));
        tokio::time::sleep(Duration::from_millis(900)).await;
        assert!(!l.acquire(&b).await.unwrap(), "renewed by its holder");
        // Taken away (as if it had expired): the keeper notices.
        let mut conn = b.conn();
        let _: () = redis::cmd("SET")
            .arg(l.key())
            .arg(b.node())
            .query_async(&mut conn)
            .await
            .unwrap();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !lost.load(Ordering::SeqCst) {
            assert!(tokio::time::Instant::now() < deadline, "loss not seen");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        drop(guard);
        l.release(&b).await.unwrap();
    }
}
