//! What an operator sees inside a node, in the Prometheus text exposition format (version
//! 0.0.4): the counters and histograms, here, and the gauges read from the node's state when
//! scraped (sockets open, rooms in memory, the CPU pool's queue: crate::scrape, which serves
//! `GET /metrics` on its own address). docs/operations.md lists every metric and its meaning.
//!
//! They are plain atomics in one process-wide value, [`METRICS`], so that the code that counts
//! something does it in one line (`METRICS.moves.add(n)`) wherever it happens (the writer
//! thread, a WebSocket session, the push worker) without carrying a handle. One process is one
//! node: that is also what Prometheus scrapes. This module depends on no other of the server's
//! (every one may count).
//!
//! ```
//! use dames_server::metrics::METRICS;
//! METRICS.refused("create");
//! assert!(METRICS.render_counters().contains("dames_refusals_total{kind=\"create\"}"));
//! ```

use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A count that only goes up.
#[derive(Debug)]
pub struct Counter(AtomicU64);

impl Counter {
    const fn new() -> Self {
        Self(AtomicU64::new(0))
    }

    /// Adds one.
    pub fn inc(&self) {
        self.add(1);
    }

    /// Adds `n`.
    pub fn add(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }

    /// The count so far.
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// A value that goes up and down (kept here when nothing in the state holds it).
#[derive(Debug)]
pub struct Gauge(AtomicI64);

impl Gauge {
    const fn new() -> Self {
        Self(AtomicI64::new(0))
    }

    /// Adds `n` (negative: takes away).
    pub fn add(&self, n: i64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }

    /// The value now.
    pub fn get(&self) -> i64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Observations counted in buckets (`le` upper bounds), with their count and sum. Observations
/// are integers in the histogram's unit (microseconds for times, units for sizes); the
/// exposition divides by `scale` (1e6: seconds).
#[derive(Debug)]
pub struct Histogram<const N: usize> {
    bounds: [u64; N],
    scale: f64,
    /// Observations per bucket (not cumulative: the exposition sums them); the ones above the
    /// last bound are `count` minus the others.
    buckets: [AtomicU64; N],
    count: AtomicU64,
    sum: AtomicU64,
}

impl<const N: usize> Histogram<N> {
    const fn new(bounds: [u64; N], scale: f64) -> Self {
        Self {
            bounds,
            scale,
            buckets: [const { AtomicU64::new(0) }; N],
            count: AtomicU64::new(0),
            sum: AtomicU64::new(0),
        }
    }

    /// Counts one observation of `value` (in the histogram's unit).
    pub fn observe(&self, value: u64) {
        if let Some(i) = self.bounds.iter().position(|&b| value <= b) {
            self.buckets[i].fetch_add(1, Ordering::Relaxed);
        }
        self.sum.fetch_add(value, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a duration (a histogram of seconds).
    pub fn observe_time(&self, time: Duration) {
        self.observe(u64::try_from(time.as_micros()).unwrap_or(u64::MAX));
    }

    /// Observations so far.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    fn render(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        let mut cumulative = 0;
        for (bound, bucket) in self.bounds.iter().zip(&self.buckets) {
            cumulative += bucket.load(Ordering::Relaxed);
            let le = *bound as f64 / self.scale;
            let _ = writeln!(out, "{name}_bucket{{le=\"{le}\"}} {cumulative}");
        }
        // Read after the buckets: never fewer than they add up to.
        let count = self.count().max(cumulative);
        let sum = self.sum.load(Ordering::Relaxed) as f64 / self.scale;
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {count}");
    }
}

/// Seconds, in microseconds: 0.5 ms to 10 s.
const TIMES: [u64; 13] = [
    500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000,
    2_500_000, 10_000_000,
];
/// Seconds, in microseconds, for waits that may last a search: 1 ms to 30 s.
const WAITS: [u64; 12] = [
    1_000, 5_000, 10_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000,
    10_000_000, 30_000_000,
];
/// Changes per transaction, up to `crate::live::MAX_BATCH`.
const SIZES: [u64; 10] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];
const MICROS: f64 = 1e6;

/// The kinds of refusal counted by [`Metrics::refused`]: the rate limits (by the action
/// limited, crate::ratelimit), then the caps (crate::net::limits, crate::live::cpu).
pub const REFUSALS: [&str; 13] = [
    "create",
    "join",
    "unknown-code",
    "act",
    "hint",
    "feedback",
    "connect",
    "connections-per-ip",
    "connections",
    "websockets-per-ip",
    "cpu-games",
    "seek",
    "analysis",
];

/// Every counter and histogram of this process.
#[derive(Debug)]
pub struct Metrics {
    /// Moves (a log entry of kind `move`, by a person or a CPU) committed.
    pub moves: Counter,
    /// Changes of rooms committed (moves and everything else that writes a room).
    pub changes: Counter,
    /// Changes refused by the version check (the room changed on another node first).
    pub conflicts: Counter,
    /// Time from handing a change to the writer to its answer (what a move waits for its ack).
    pub commit_time: Histogram<13>,
    /// Changes in one transaction of the writer.
    pub batch_size: Histogram<10>,
    /// Time of one transaction of the writer: its writes and the fsync of the commit.
    pub batch_time: Histogram<13>,
    /// Changes handed to the writer and not answered yet.
    pub commit_in_flight: Gauge,
    /// Storage operations that failed (not counting conflicts).
    pub database_errors: Counter,
    /// Redis commands or subscriptions that failed (a cluster's fan-out, presence, leases,
    /// shared limits).
    pub redis_errors: Counter,
    /// Time a CPU search waited for a worker of the pool (before its first slice and between
    /// slices).
    pub cpu_wait: Histogram<12>,
    /// Web Push notifications accepted by the push service.
    pub push_sent: Counter,
    /// Web Push notifications given up (refused, subscription gone, retries exhausted).
    pub push_failed: Counter,
    /// Refusals by kind, in the order of [`REFUSALS`].
    refusals: [Counter; REFUSALS.len()],
    /// WebSocket sessions opened.
    pub websocket_connects: Counter,
    /// Fan-out messages published to the other nodes.
    pub fanout_sent: Counter,
    /// Fan-out messages that could not be published.
    pub fanout_failed: Counter,
    /// Fan-out messages received from the other nodes.
    pub fanout_received: Counter,
    /// Rooms made by quick pairing (crate::pools) on this node.
    pub pool_matches: Counter,
    /// Rooms reloaded from the store because this node's copy was behind (a fan-out message
    /// missed or not applicable, a conflict, a refusal on a stale copy).
    pub reloads: Counter,
    /// Of those, rooms found behind by asking the store (the sweep, or a request for a room
    /// held here), not by a message: each is a message that never came.
    pub stale_found: Counter,
}

/// The metrics of this process.
pub static METRICS: Metrics = Metrics {
    moves: Counter::new(),
    changes: Counter::new(),
    conflicts: Counter::new(),
    commit_time: Histogram::new(TIMES, MICROS),
    batch_size: Histogram::new(SIZES, 1.0),
    batch_time: Histogram::new(TIMES, MICROS),
    commit_in_flight: Gauge::new(),
    database_errors: Counter::new(),
    redis_errors: Counter::new(),
    cpu_wait: Histogram::new(WAITS, MICROS),
    push_sent: Counter::new(),
    push_failed: Counter::new(),
    refusals: [const { Counter::new() }; REFUSALS.len()],
    websocket_connects: Counter::new(),
    fanout_sent: Counter::new(),
    fanout_failed: Counter::new(),
    fanout_received: Counter::new(),
    pool_matches: Counter::new(),
    reloads: Counter::new(),
    stale_found: Counter::new(),
};

/// A change on its way through the writer: counted when its answer comes ([`CommitTimer::done`]).
#[derive(Debug)]
#[must_use]
pub struct CommitTimer {
    moves: u64,
    start: Instant,
}

impl CommitTimer {
    /// Starts timing `commit`.
    pub fn start(commit: &dames_store::Commit) -> Self {
        METRICS.commit_in_flight.add(1);
        let moves = commit.actions.iter().filter(|a| a.kind == "move").count();
        Self {
            moves: moves as u64,
            start: Instant::now(),
        }
    }

    /// The writer answered: the change is committed, or it was refused by the version check
    /// (`conflict`), or it failed (a database error, counted where it became an `AppError`:
    /// crate::error).
    pub fn done(self, committed: bool, conflict: bool) {
        METRICS.commit_time.observe_time(self.start.elapsed());
        if committed {
            METRICS.changes.inc();
            METRICS.moves.add(self.moves);
        } else if conflict {
            METRICS.conflicts.inc();
        }
    }
}

impl Drop for CommitTimer {
    /// Answered, or its caller went away (a dropped request) while the writer had it.
    fn drop(&mut self) {
        METRICS.commit_in_flight.add(-1);
    }
}

/// One transaction of the writer, counted when dropped.
#[derive(Debug)]
#[must_use]
pub struct BatchTimer {
    start: Instant,
}

impl BatchTimer {
    /// A transaction of `size` changes begins.
    pub fn start(size: usize) -> Self {
        METRICS.batch_size.observe(size as u64);
        Self {
            start: Instant::now(),
        }
    }
}

impl Drop for BatchTimer {
    fn drop(&mut self) {
        METRICS.batch_time.observe_time(self.start.elapsed());
    }
}

impl Metrics {
    /// Counts a refusal of `kind`, one of [`REFUSALS`] (the documented list; a kind not in it
    /// is a bug, caught by debug assertions, and not counted).
    pub fn refused(&self, kind: &str) {
        match REFUSALS.iter().position(|k| *k == kind) {
            Some(i) => self.refusals[i].inc(),
            None => debug_assert!(false, "refusal kind {kind:?} not in REFUSALS"),
        }
    }

    /// The refusals of `kind` so far.
    pub fn refusals(&self, kind: &str) -> u64 {
        REFUSALS
            .iter()
            .position(|k| *k == kind)
            .map_or(0, |i| self.refusals[i].get())
    }

    /// Counts a WebSocket opened (`true`) or refused by the cap per address (`false`).
    pub fn websocket_opened(&self, ok: bool) {
        if ok {
            self.websocket_connects.inc();
        } else {
            self.refused("websockets-per-ip");
        }
    }

    /// Counts a connection refused at accept (crate::net::limits): the cap per address, or the
    /// node's cap on open connections.
    pub fn connection_refused(&self, overloaded: bool) {
        if overloaded {
            self.refused("connections");
        } else {
            self.refused("connections-per-ip");
        }
    }

    /// Counts a fan-out message published (`true`) or not (`false`: a Redis error).
    pub fn fanout_published(&self, ok: bool) {
        if ok {
            self.fanout_sent.inc();
        } else {
            self.fanout_failed.inc();
            self.redis_errors.inc();
        }
    }

    /// The counters and histograms in the text format (the gauges of a node's state are added
    /// by crate::scrape).
    pub fn render_counters(&self) -> String {
        let mut out = String::with_capacity(8192);
        let counters: [(&str, &str, &Counter); 14] = [
            (
                "dames_moves_committed_total",
                "Moves committed (by people and CPUs).",
                &self.moves,
            ),
            (
                "dames_changes_committed_total",
                "Changes of rooms committed.",
                &self.changes,
            ),
            (
                "dames_commit_conflicts_total",
                "Changes refused because the room changed on another node first.",
                &self.conflicts,
            ),
            (
                "dames_database_errors_total",
                "Storage operations that failed (conflicts not counted).",
                &self.database_errors,
            ),
            (
                "dames_redis_errors_total",
                "Redis commands or subscriptions that failed.",
                &self.redis_errors,
            ),
            (
                "dames_push_sent_total",
                "Web Push notifications accepted by the push service.",
                &self.push_sent,
            ),
            (
                "dames_push_failed_total",
                "Web Push notifications given up (refused, gone, retries exhausted).",
                &self.push_failed,
            ),
            (
                "dames_websocket_connects_total",
                "WebSocket sessions opened.",
                &self.websocket_connects,
            ),
            (
                "dames_fanout_sent_total",
                "Fan-out messages published to the other nodes.",
                &self.fanout_sent,
            ),
            (
                "dames_fanout_send_failures_total",
                "Fan-out messages that could not be published.",
                &self.fanout_failed,
            ),
            (
                "dames_fanout_received_total",
                "Fan-out messages received from the other nodes.",
                &self.fanout_received,
            ),
            (
                "dames_pool_matches_total",
                "Rooms made by quick pairing on this node.",
                &self.pool_matches,
            ),
            (
                "dames_room_reloads_total",
                "Rooms reloaded from the store because this node's copy was behind \
                 (catch-ups after a gap or a conflict).",
                &self.reloads,
            ),
            (
                "dames_stale_rooms_found_total",
                "Rooms found behind the store by the sweep or a request, not by a message \
                 (a fan-out message that never came).",
                &self.stale_found,
            ),
        ];
        for (name, help, counter) in counters {
            counter_line(&mut out, name, help, counter.get());
        }
        out.push_str(
            "# HELP dames_refusals_total Requests, connections and actions refused by a limit, by kind.\n\
             # TYPE dames_refusals_total counter\n",
        );
        for (kind, counter) in REFUSALS.iter().zip(&self.refusals) {
            let _ = writeln!(
                out,
                "dames_refusals_total{{kind=\"{kind}\"}} {}",
                counter.get()
            );
        }
        gauge_line(
            &mut out,
            "dames_commit_in_flight",
            "Changes handed to the writer and not answered yet.",
            self.commit_in_flight.get(),
        );
        self.commit_time.render(
            &mut out,
            "dames_commit_seconds",
            "Time from handing a change to the writer to its answer (a move's wait for its ack).",
        );
        self.batch_size.render(
            &mut out,
            "dames_commit_batch_size",
            "Changes committed in one transaction (group commit).",
        );
        self.batch_time.render(
            &mut out,
            "dames_commit_batch_seconds",
            "Time of one transaction of the writer: its writes and the fsync of its commit.",
        );
        self.cpu_wait.render(
            &mut out,
            "dames_cpu_wait_seconds",
            "Time a CPU search waited for a worker of the pool.",
        );
        out
    }
}

/// Appends a counter with its help and type.
pub(crate) fn counter_line(out: &mut String, name: &str, help: &str, value: u64) {
    let _ = writeln!(
        out,
        "# HELP {name} {help}\n# TYPE {name} counter\n{name} {value}"
    );
}

/// Appends a gauge with its help and type.
pub(crate) fn gauge_line(out: &mut String, name: &str, help: &str, value: impl std::fmt::Display) {
    let _ = writeln!(
        out,
        "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_histogram_renders_cumulative_buckets_ending_with_its_count() {
        let h = Histogram::new([1_000, 10_000], MICROS);
        for micros in [500, 1_000, 5_000, 20_000] {
            h.observe(micros);
        }
        let mut out = String::new();
        h.render(&mut out, "t_seconds", "Test.");
        assert_eq!(
            out,
            "# HELP t_seconds Test.\n# TYPE t_seconds histogram\n\
             t_seconds_bucket{le=\"0.001\"} 2\nt_seconds_bucket{le=\"0.01\"} 3\n\
             t_seconds_bucket{le=\"+Inf\"} 4\nt_seconds_sum 0.0265\nt_seconds_count 4\n"
        );
    }

    #[test]
    fn sizes_are_rendered_in_their_own_unit() {
        let h = Histogram::new(SIZES, 1.0);
        h.observe(3);
        let mut out = String::new();
        h.render(&mut out, "b", "Test.");
        assert!(
            out.contains("b_bucket{le=\"2\"} 0\nb_bucket{le=\"4\"} 1\n"),
            "{out}"
        );
        assert!(out.ends_with("b_sum 3\nb_count 1\n"), "{out}");
    }

    #[test]
    fn each_refusal_kind_has_its_own_series() {
        let before = METRICS.refusals("hint");
        METRICS.refused("hint");
        assert!(METRICS.refusals("hint") > before);
        let text = METRICS.render_counters();
        for kind in REFUSALS {
            assert!(text.contains(&format!("dames_refusals_total{{kind=\"{kind}\"}} ")));
        }
    }

    #[test]
    fn a_failed_storage_operation_is_counted_as_a_database_error() {
        let before = METRICS.database_errors.get();
        let _ = crate::error::AppError::from(dames_store::StoreError::Failed("disk full".into()));
        assert!(METRICS.database_errors.get() > before);
    }
}
