//! The search clock: a deadline, a node cap and the cancel flag, polled every few nodes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often (in nodes) the clock reads the time and the cancel flag.
const POLL_EVERY: u64 = 128;
/// Share of the time budget the search plans to use: the rest absorbs the last poll interval,
/// the unwinding and a busy machine's scheduling delays (measured: see docs/ai.md).
const TIME_SHARE: f64 = 0.94;

/// When a search must stop.
#[derive(Clone, Debug)]
pub struct Clock {
    start: Instant,
    deadline: Option<Instant>,
    node_limit: u64,
    cancel: Arc<AtomicBool>,
    /// Nodes counted so far.
    pub nodes: u64,
    stopped: bool,
}

impl Clock {
    /// A clock that stops after `time` (none: never) or `nodes` nodes, or when `cancel` is set.
    pub fn new(time: Option<Duration>, nodes: Option<u64>, cancel: Arc<AtomicBool>) -> Clock {
        let start = Instant::now();
        Clock {
            start,
            deadline: time.map(|t| start + t.mul_f64(TIME_SHARE)),
            node_limit: nodes.unwrap_or(u64::MAX),
            cancel,
            nodes: 0,
            stopped: false,
        }
    }

    /// Counts a node; `true` when the search must stop.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & (POLL_EVERY - 1) == 0 {
            self.poll();
        }
        self.stopped
    }

    /// Whether the search must stop (as of the last poll).
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    fn poll(&mut self) {
        if self.nodes >= self.node_limit
            || self.cancel.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.stopped = true;
        }
    }

    /// Checks the limits now (between iterations).
    pub fn check(&mut self) -> bool {
        self.poll();
        self.stopped
    }

    /// Whether the cancel flag is set.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Time since the clock started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}
