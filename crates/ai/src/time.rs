//! The search clock: a deadline, a node cap and the cancel flag, polled every few nodes; and the
//! checkpoint a scheduler may install on a thread to take turns with other searches.

use std::cell::RefCell;
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
        CHECKPOINT.with(|c| {
            if let Some(checkpoint) = c.borrow_mut().as_mut() {
                checkpoint();
            }
        });
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

thread_local! {
    /// What every clock of this thread calls at each poll (see [`with_checkpoint`]).
    static CHECKPOINT: RefCell<Option<Box<dyn FnMut()>>> = const { RefCell::new(None) };
}

/// Runs `f` (a search) with `checkpoint` called at every poll of its clocks (every 128 nodes and
/// between iterations), on this thread. The checkpoint may block: the search then pauses, its
/// deadline still running; this is how a scheduler lets several searches take turns on fewer
/// cores (the game server's CPU players). Nested calls are not supported: the inner one
/// replaces the outer one's checkpoint until it returns.
pub fn with_checkpoint<R>(checkpoint: impl FnMut() + 'static, f: impl FnOnce() -> R) -> R {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            let old = CHECKPOINT.with(|c| c.borrow_mut().take());
            drop(old);
        }
    }
    CHECKPOINT.with(|c| *c.borrow_mut() = Some(Box::new(checkpoint)));
    let _reset = Reset;
    f()
}
