//! The CPU players' pool (docs/performance.md, "CPU players"): every search — a CPU seat's turn
//! or a hint — runs on a thread of its own at low priority, but at most `workers` of them
//! compute at once. They take turns in slices of [`SLICE`]: one queue per room (only its first
//! search computes), the rooms served round-robin, so that a room thinking for 30 s never holds
//! a worker while another room's 1 s CPU waits for it. Each search keeps its own wall-clock
//! deadline: a paused search is simply searching less, never answering late; and one past its
//! deadline is let through at once to answer.
//!
//! Background searches (the analyses of finished games, « Analyser »: [`Scheduler::run_background`])
//! come after all of those: one takes a worker only while no other search waits for one, and
//! gives it back at its next clock poll (every 128 nodes, well under a millisecond) as soon as
//! one does; between themselves they take turns in slices, in their own ring.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a search computes before handing its worker to the next room waiting for one.
pub const SLICE: Duration = Duration::from_millis(50);
/// Nice value of the search threads: the server's own threads (requests, commits) come first.
const NICE: i32 = 10;
/// Nice value of the background searches' threads: the lowest priority.
const NICE_BACKGROUND: i32 = 19;
/// A background search has no deadline: this far ahead is never reached.
const NO_DEADLINE: Duration = Duration::from_secs(7 * 24 * 3600);
/// Longest sleep of a waiting search between looks at its cancel flag.
const LOOK_EVERY: Duration = Duration::from_millis(100);

/// The default number of workers: the cores available but one (the server's own work), at least
/// one.
pub fn default_workers() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .saturating_sub(1)
        .max(1)
}

/// The pool: how many searches may compute at once, and who waits for a slice.
#[derive(Debug)]
pub struct Scheduler {
    workers: usize,
    queues: Mutex<Queues>,
    turn: Condvar,
}

#[derive(Debug, Default)]
struct Queues {
    /// Searches computing now.
    running: usize,
    /// Each room's searches in arrival order; only the first one computes.
    rooms: HashMap<String, VecDeque<u64>>,
    /// The first search of each room waiting for a slice, in turn order.
    ring: VecDeque<u64>,
    /// The background searches waiting for a slice, in turn order (served when `ring` is empty).
    idle: VecDeque<u64>,
    next_id: u64,
}

impl Scheduler {
    /// A pool of `workers` (at least one).
    pub fn new(workers: usize) -> Arc<Self> {
        Arc::new(Self {
            workers: workers.max(1),
            queues: Mutex::new(Queues::default()),
            turn: Condvar::new(),
        })
    }

    /// Searches that may compute at once.
    pub fn workers(&self) -> usize {
        self.workers
    }

    fn lock(&self) -> MutexGuard<'_, Queues> {
        self.queues.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `search` for `room` on a new low-priority thread when its turn comes, sliced with the
    /// other rooms' searches; `deadline` is when its answer is due (it is let through then even
    /// if its turn has not come), `cancel` stops a waiting search from waiting. `None` if the
    /// thread could not start or panicked.
    pub async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        room: &str,
        deadline: Instant,
        cancel: Arc<AtomicBool>,
        search: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let id = self.enter(room);
        self.spawn(room, id, deadline, cancel, false, search).await
    }

    /// Runs `search` in the background (see the module documentation): only while no other
    /// search waits for a worker, taking turns with the other background searches; `cancel`
    /// stops it from waiting. `None` if the thread could not start or panicked.
    pub async fn run_background<T: Send + 'static>(
        self: &Arc<Self>,
        cancel: Arc<AtomicBool>,
        search: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let id = {
            let mut q = self.lock();
            let id = q.next_id;
            q.next_id += 1;
            q.idle.push_back(id);
            id
        };
        let deadline = Instant::now() + NO_DEADLINE;
        self.spawn("", id, deadline, cancel, true, search).await
    }

    async fn spawn<T: Send + 'static>(
        self: &Arc<Self>,
        room: &str,
        id: u64,
        deadline: Instant,
        cancel: Arc<AtomicBool>,
        background: bool,
        search: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let turn = Turn {
            pool: self.clone(),
            room: room.to_owned(),
            id,
            deadline,
            cancel,
            background,
            holding: false,
            slice: Instant::now(),
        };
        let nice = if background { NICE_BACKGROUND } else { NICE };
        let spawned = std::thread::Builder::new()
            .name(
                if background {
                    "cpu-background"
                } else {
                    "cpu-player"
                }
                .into(),
            )
            .spawn(move || {
                // Not fatal: the search then runs at the server's priority.
                let _ = rustix::process::setpriority_process(None, nice);
                let _ = tx.send(turn.run(search));
            });
        if let Err(err) = spawned {
            tracing::error!("no thread for a CPU search: {err}");
            self.leave(room, id, false);
            return None;
        }
        rx.await.ok()
    }

    /// Queues a search of `room`: the room enters the ring if it had none.
    fn enter(&self, room: &str) -> u64 {
        let mut q = self.lock();
        let id = q.next_id;
        q.next_id += 1;
        let searches = q.rooms.entry(room.to_owned()).or_default();
        searches.push_back(id);
        if searches.len() == 1 {
            q.ring.push_back(id);
        }
        id
    }

    /// A search of `room` is over: the room's next one (if any) joins the ring.
    fn leave(&self, room: &str, id: u64, holding: bool) {
        let mut q = self.lock();
        if holding {
            q.running -= 1;
        }
        q.ring.retain(|&x| x != id);
        q.idle.retain(|&x| x != id);
        if let Some(searches) = q.rooms.get_mut(room) {
            searches.retain(|&x| x != id);
            match searches.front().copied() {
                Some(next) if !q.ring.contains(&next) => q.ring.push_back(next),
                Some(_) => {}
                None => {
                    q.rooms.remove(room);
                }
            }
        }
        drop(q);
        self.turn.notify_all();
    }

    /// Searches waiting for a slice (background ones too) and computing now (for tests and
    /// logs).
    pub fn load(&self) -> (usize, usize) {
        let q = self.lock();
        (q.ring.len() + q.idle.len(), q.running)
    }
}

/// One search's place in the pool, on its thread.
struct Turn {
    pool: Arc<Scheduler>,
    room: String,
    id: u64,
    deadline: Instant,
    cancel: Arc<AtomicBool>,
    /// A background search ([`Scheduler::run_background`]).
    background: bool,
    /// Computing (counted in `running`).
    holding: bool,
    /// When the current slice began.
    slice: Instant,
}

impl Turn {
    fn run<T>(self, search: impl FnOnce() -> T) -> T {
        let turn = Rc::new(RefCell::new(self));
        turn.borrow_mut().acquire();
        let at_checkpoint = turn.clone();
        let out =
            dames_ai::with_checkpoint(move || at_checkpoint.borrow_mut().checkpoint(), search);
        let t = turn.borrow();
        t.pool.leave(&t.room, t.id, t.holding);
        out
    }

    /// Waits until this search is first in the ring and a worker is free (or it is cancelled or
    /// due), then counts it as computing.
    fn acquire(&mut self) {
        let asked = Instant::now();
        let pool = self.pool.clone();
        let mut q = pool.lock();
        loop {
            if q.running < pool.workers {
                if !self.background && q.ring.front() == Some(&self.id) {
                    q.ring.pop_front();
                    break;
                }
                if self.background && q.ring.is_empty() && q.idle.front() == Some(&self.id) {
                    q.idle.pop_front();
                    break;
                }
            }
            let now = Instant::now();
            if self.cancel.load(Ordering::Relaxed) || now >= self.deadline {
                // Answer now (a cancelled search stops at its next poll): let it through.
                q.ring.retain(|&x| x != self.id);
                q.idle.retain(|&x| x != self.id);
                break;
            }
            let wait = (self.deadline - now).min(LOOK_EVERY);
            q = pool
                .turn
                .wait_timeout(q, wait)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        q.running += 1;
        drop(q);
        if !self.background {
            crate::metrics::METRICS
                .cpu_wait
                .observe_time(asked.elapsed());
        }
        self.holding = true;
        self.slice = Instant::now();
        // Another worker may be free for the next room.
        pool.turn.notify_all();
    }

    /// Called by the search every few nodes: at the end of a slice, if another room waits, goes
    /// to the back of the ring and waits for its next turn.
    fn checkpoint(&mut self) {
        if self.background {
            return self.background_checkpoint();
        }
        if !self.holding || self.slice.elapsed() < SLICE {
            return;
        }
        let pool = self.pool.clone();
        let mut q = pool.lock();
        if q.ring.is_empty() || Instant::now() >= self.deadline {
            drop(q);
            self.slice = Instant::now();
            return;
        }
        q.ring.push_back(self.id);
        self.give_back(&pool, q);
    }

    /// Gives the worker back (this search already queued in `q` for its next turn), lets the
    /// next search take it, and waits for that turn.
    fn give_back(&mut self, pool: &Scheduler, mut q: MutexGuard<'_, Queues>) {
        q.running -= 1;
        drop(q);
        self.holding = false;
        pool.turn.notify_all();
        self.acquire();
    }
}

impl Turn {
    /// A background search's checkpoint: gives its worker back at once when another search
    /// waits for one, and at the end of its slice when another background search does.
    fn background_checkpoint(&mut self) {
        if !self.holding {
            return;
        }
        let pool = self.pool.clone();
        let mut q = pool.lock();
        let slice_over = self.slice.elapsed() >= SLICE && !q.idle.is_empty();
        if q.ring.is_empty() && !slice_over {
            return;
        }
        q.idle.push_back(self.id);
        self.give_back(&pool, q);
    }
}

impl super::Rooms {
    /// The CPU pool's searches waiting for a slice and computing now (crate::metrics).
    pub fn cpu_pool(&self) -> (usize, usize) {
        self.scheduler.load()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search that counts its slices by the time it computes: spins `total` of computing time,
    /// polling the checkpoint like the AI's clock does.
    fn spin(total: Duration) -> impl FnOnce() -> Duration + Send {
        move || {
            let started = Instant::now();
            let mut computed = Duration::ZERO;
            let mut last = Instant::now();
            let mut clock = dames_ai::Clock::new(None, None, Arc::new(AtomicBool::new(false)));
            while computed < total {
                clock.check();
                let now = Instant::now();
                // Time spent inside the checkpoint (paused) is not computing.
                computed += (now - last).min(Duration::from_millis(2));
                last = now;
            }
            started.elapsed()
        }
    }

    #[tokio::test]
    async fn a_short_search_is_served_between_the_slices_of_long_ones() {
        let pool = Scheduler::new(1);
        let far = Instant::now() + Duration::from_secs(60);
        let never = || Arc::new(AtomicBool::new(false));
        let long = |room: &'static str| {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.run(room, far, never(), spin(Duration::from_millis(1_500)))
                    .await
                    .unwrap();
                Instant::now()
            })
        };
        let (long_a, long_b) = (long("AAAAAA"), long("BBBBBB"));
        tokio::time::sleep(Duration::from_millis(100)).await;
        pool.run("CCCCCC", far, never(), spin(Duration::from_millis(100)))
            .await
            .unwrap();
        let short_done = Instant::now();
        // First come, first served, it would have waited for 3 s of the long searches; taking
        // turns, it is done while both are still computing (whatever the machine's load).
        let (a, b) = (long_a.await.unwrap(), long_b.await.unwrap());
        assert!(short_done < a && short_done < b);
        assert_eq!(pool.load(), (0, 0));
    }

    #[tokio::test]
    async fn searches_of_one_room_run_one_after_the_other() {
        let pool = Scheduler::new(2);
        let far = Instant::now() + Duration::from_secs(30);
        let both = futures_util::future::join(
            pool.run(
                "AAAAAA",
                far,
                Arc::default(),
                spin(Duration::from_millis(150)),
            ),
            pool.run(
                "AAAAAA",
                far,
                Arc::default(),
                spin(Duration::from_millis(150)),
            ),
        );
        let started = Instant::now();
        let (first, second) = both.await;
        let (first, second) = (first.unwrap(), second.unwrap());
        // Two workers, but one room: the second waits for the first.
        assert!(
            started.elapsed() >= Duration::from_millis(300),
            "{first:?} {second:?}"
        );
        assert_eq!(pool.load(), (0, 0));
    }

    #[tokio::test]
    async fn a_background_search_gives_its_worker_to_a_cpu_search_at_once() {
        let pool = Scheduler::new(1);
        let far = Instant::now() + Duration::from_secs(60);
        let background = tokio::spawn({
            let pool = pool.clone();
            async move {
                pool.run_background(Arc::default(), spin(Duration::from_millis(1_000)))
                    .await
                    .unwrap();
                Instant::now()
            }
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        let asked = Instant::now();
        pool.run(
            "AAAAAA",
            far,
            Arc::default(),
            spin(Duration::from_millis(200)),
        )
        .await
        .unwrap();
        let cpu_done = Instant::now();
        // The CPU's search computed without sharing its worker: done in about its own time,
        // not after the background search's second (whatever the machine's load, well before).
        let background_done = background.await.unwrap();
        assert!(cpu_done < background_done);
        assert!(
            background_done - cpu_done >= Duration::from_millis(500),
            "the background search waited: {:?} {:?}",
            cpu_done - asked,
            background_done - cpu_done
        );
        assert_eq!(pool.load(), (0, 0));
    }

    #[tokio::test]
    async fn background_searches_take_turns_among_themselves() {
        let pool = Scheduler::new(1);
        let run = |ms| {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.run_background(Arc::default(), spin(Duration::from_millis(ms)))
                    .await
                    .unwrap();
                Instant::now()
            })
        };
        let long = run(1_000);
        tokio::time::sleep(Duration::from_millis(100)).await;
        let short = run(100);
        let (long, short) = (long.await.unwrap(), short.await.unwrap());
        assert!(short < long, "the short one was served between slices");
        assert_eq!(pool.load(), (0, 0));
    }

    #[tokio::test]
    async fn a_due_search_is_let_through_without_its_turn() {
        let pool = Scheduler::new(1);
        let far = Instant::now() + Duration::from_secs(30);
        let long = tokio::spawn({
            let pool = pool.clone();
            async move {
                // Polls nothing: holds the worker for its whole run.
                pool.run("AAAAAA", far, Arc::default(), || {
                    std::thread::sleep(Duration::from_millis(800));
                })
                .await
            }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        let started = Instant::now();
        let due = Instant::now() + Duration::from_millis(200);
        pool.run("BBBBBB", due, Arc::default(), || ())
            .await
            .unwrap();
        let waited = started.elapsed();
        assert!(
            waited >= Duration::from_millis(190) && waited < Duration::from_millis(500),
            "{waited:?}"
        );
        long.await.unwrap().unwrap();
    }
}
