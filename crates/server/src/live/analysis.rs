//! The analyses of finished games in progress (« Analyser », docs/protocol.md "Analysis"): one
//! job per game at a time (a second request joins the first), each a background search of the
//! CPU pool ([`super::scheduler::Scheduler::run_background`]: it never holds a worker a CPU seat
//! or a hint waits for), bounded by a node budget per position and a number of moves, stored
//! with the game once done, and cancelled when nobody asked about it for
//! [`AnalysisOptions::watch`] (the page polls while it shows the progress; a page closed stops
//! polling).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{blocking, now_ms, Rooms};
use crate::error::AppError;
use dames_ai::draughts::review::{self, ReviewBudget};
use dames_room::analysis::GameAnalysis;

/// How much the analyses may do.
#[derive(Clone, Debug)]
pub struct AnalysisOptions {
    /// Nodes searched for each position.
    pub nodes: u64,
    /// Moves analysed at most (the first ones of a longer game).
    pub max_plies: usize,
    /// A job nobody asked about for this long is cancelled.
    pub watch: Duration,
    /// Jobs in progress at once on this node; more are refused (`analysis_busy`).
    pub max_jobs: usize,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        Self {
            nodes: 200_000,
            max_plies: 400,
            watch: Duration::from_secs(20),
            max_jobs: 4,
        }
    }
}

/// One game's analysis in progress.
#[derive(Debug)]
pub struct Job {
    /// Positions searched so far.
    pub done: AtomicUsize,
    /// Positions to search.
    pub total: AtomicUsize,
    /// When someone last asked about it.
    seen: Mutex<Instant>,
    cancel: Arc<AtomicBool>,
}

impl Job {
    /// Someone asked about it: it goes on.
    pub fn touch(&self) {
        *self.seen.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    fn unseen_for(&self) -> Duration {
        self.seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
    }

    /// `(done, total)` positions.
    pub fn progress(&self) -> (usize, usize) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }
}

/// The jobs in progress on this node, by room and game.
#[derive(Debug)]
pub struct Analyses {
    jobs: Mutex<HashMap<(String, i64), Arc<Job>>>,
    options: AnalysisOptions,
    store: Arc<dyn dames_store::Store>,
}

/// What asking for an analysis did.
pub enum Asked {
    /// A job for this game was in progress: the caller joins it.
    Joined(Arc<Job>),
    /// A new job started.
    Started(Arc<Job>),
}

impl Analyses {
    /// The registry, with these options, storing into `store`.
    pub fn new(options: AnalysisOptions, store: Arc<dyn dames_store::Store>) -> Self {
        Self {
            jobs: Mutex::default(),
            options,
            store,
        }
    }

    /// The options.
    pub fn options(&self) -> &AnalysisOptions {
        &self.options
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, i64), Arc<Job>>> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The job of game `game_no` of room `code` in progress, touched.
    pub fn find(&self, code: &str, game_no: i64) -> Option<Arc<Job>> {
        let job = self.lock().get(&(code.to_owned(), game_no)).cloned()?;
        job.touch();
        Some(job)
    }

    /// Fails with `analysis_busy` when [`AnalysisOptions::max_jobs`] are in progress (checked
    /// again by [`Analyses::ask`]; first, before a request takes its rate-limit token).
    ///
    /// # Errors
    /// `analysis_busy`.
    pub fn check_room(&self) -> Result<(), AppError> {
        if self.lock().len() >= self.options.max_jobs {
            return Err(AppError::AnalysisBusy);
        }
        Ok(())
    }

    /// Analyses `game` (game `game_no` of room `code`, finished) on `rooms`' CPU pool unless a
    /// job for it is in progress, which the caller then joins.
    ///
    /// # Errors
    /// `analysis_busy` when [`AnalysisOptions::max_jobs`] are in progress.
    pub fn ask(
        self: &Arc<Self>,
        rooms: &Arc<Rooms>,
        code: &str,
        game_no: i64,
        game: draughts::Game,
    ) -> Result<Asked, AppError> {
        let key = (code.to_owned(), game_no);
        let job = {
            let mut jobs = self.lock();
            if let Some(job) = jobs.get(&key) {
                job.touch();
                return Ok(Asked::Joined(job.clone()));
            }
            if jobs.len() >= self.options.max_jobs {
                return Err(AppError::AnalysisBusy);
            }
            let plies = game.ply().min(self.options.max_plies);
            let job = Arc::new(Job {
                done: AtomicUsize::new(0),
                total: AtomicUsize::new(plies + 1),
                seen: Mutex::new(Instant::now()),
                cancel: Arc::default(),
            });
            jobs.insert(key.clone(), job.clone());
            job
        };
        tokio::spawn(self.clone().watch(rooms.clone(), job.clone()));
        tokio::spawn(self.clone().run(rooms.clone(), key, game, job.clone()));
        Ok(Asked::Started(job))
    }

    /// Cancels `job` once nobody asked about it for [`AnalysisOptions::watch`], or when the
    /// server begins to stop (its CPU players stop then too).
    async fn watch(self: Arc<Self>, rooms: Arc<Rooms>, job: Arc<Job>) {
        let every =
            (self.options.watch / 4).clamp(Duration::from_millis(100), Duration::from_secs(1));
        loop {
            tokio::time::sleep(every).await;
            if !self.holds(&job) {
                return;
            }
            if rooms.closed.load(Ordering::SeqCst) {
                job.cancel.store(true, Ordering::Relaxed);
                return;
            }
            if job.unseen_for() >= self.options.watch {
                tracing::info!("analysis cancelled: nobody watches it any more");
                job.cancel.store(true, Ordering::Relaxed);
                return;
            }
        }
    }

    /// Stores an analysis with its game.
    async fn save(&self, key: &(String, i64), analysis: &GameAnalysis) -> Result<(), AppError> {
        let text =
            serde_json::to_string(analysis).map_err(|e| AppError::internal("analysis", e))?;
        let store = self.store.clone();
        let (code, game_no, at) = (key.0.clone(), key.1, analysis.at);
        blocking(move || store.save_analysis(&code, game_no, &text, at)).await?;
        Ok(())
    }

    fn holds(&self, job: &Arc<Job>) -> bool {
        self.lock().values().any(|j| Arc::ptr_eq(j, job))
    }

    /// Runs the job, stores its analysis, then forgets it (in that order: a request in
    /// between finds one or the other).
    async fn run(
        self: Arc<Self>,
        rooms: Arc<Rooms>,
        key: (String, i64),
        game: draughts::Game,
        job: Arc<Job>,
    ) {
        let started = Instant::now();
        let budget = ReviewBudget {
            nodes: self.options.nodes,
            max_plies: self.options.max_plies,
        };
        let found = rooms.review(&game, budget, &job).await;
        if let Some(reviewed) = found {
            let ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            let analysis = GameAnalysis::from_review(&reviewed, budget.nodes, now_ms(), ms);
            tracing::info!(
                "analysed game {} of room {}: {} positions in {ms} ms",
                key.1,
                key.0,
                analysis.positions.len()
            );
            if let Err(err) = self.save(&key, &analysis).await {
                tracing::warn!(
                    "analysis of game {} of room {} not stored: {err}",
                    key.1,
                    key.0
                );
            }
        }
        self.lock().remove(&key);
    }
}

impl Rooms {
    /// Reviews `game` as a background search of the CPU pool, counting the positions done in
    /// `job`; `None` if cancelled or failed.
    async fn review(
        &self,
        game: &draughts::Game,
        budget: ReviewBudget,
        job: &Arc<Job>,
    ) -> Option<review::Review> {
        let cancel = job.cancel.clone();
        let limits = dames_ai::Limits {
            cancel: cancel.clone(),
            ..dames_ai::Limits::default()
        };
        let (game, counter) = (game.clone(), job.clone());
        let search = move || {
            review::review(&game, &budget, &limits, &mut |done, total| {
                counter.total.store(total, Ordering::Relaxed);
                counter.done.store(done, Ordering::Relaxed);
            })
        };
        self.scheduler
            .run_background(cancel, search)
            .await
            .flatten()
    }
}
