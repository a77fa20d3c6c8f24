//! Fuzzing of everything the network can feed the Dames server (docs/security.md, "Fuzzing"), on the
//! stable toolchain: a small in-tree generator ([`mutate`]) starts from valid inputs — the
//! requests a client sends, the legal moves it is shown, the positions of games being played —
//! and mutates them, so that the parsers' deep paths are reached and not only their first
//! refusal. The inputs go to the very functions the server calls:
//!
//! - [`app::Http`]: HTTP requests through the router (every route, middleware, extractor and
//!   handler; rooms and an in-memory store behind), while playing real games;
//! - [`app::Ws`]: WebSocket client messages through a session's own reading and handling code
//!   (moves, resignations, draws, rematches, away, preset phrases);
//! - [`app::PoolsWs`]: the messages of `/ws/pools` (quick pairing) through the seeking socket's
//!   own code, from a few browsers that come and go while the pools pair them;
//! - [`parsers`]: move inputs of both games on live positions, settings and rules, names and
//!   texts, request headers, room codes, seat tokens and push endpoints, and the engines' text
//!   formats (draughts FEN and PDN, Chinese checkers position files), the draughts position
//!   import (`POST /api/draughts/position`).
//!
//! A panic anywhere — in a target, in a task the server spawned, in a blocking thread — counts
//! and fails the run, and so does an answer that is not a typed error (a 500, an `/api` error
//! without its JSON). [`run`] reports the inputs, the time and the first problem with the input
//! that caused it; `dames fuzz` prints it, and a short run is part of `cargo test`.

pub mod app;
pub mod mutate;
pub mod parsers;
pub mod target;

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mutate::Rng;
pub use target::Target;

/// The targets, with their share of the inputs (their speeds differ a hundredfold: the share
/// gives each about the same time).
pub const TARGETS: &[(&str, u64)] = &[
    ("move input", 22),
    ("settings and rules", 8),
    ("names and texts", 16),
    ("headers, codes, endpoints", 16),
    ("draughts FEN", 14),
    ("draughts PDN", 6),
    ("draughts position import", 6),
    ("Chinese checkers positions", 10),
    ("HTTP requests (router)", 5),
    ("WebSocket messages (session)", 3),
    ("pool messages (seeking socket)", 3),
];

fn make(name: &str, rng: &mut Rng) -> Option<Box<dyn Target>> {
    Some(match name {
        "move input" => Box::new(parsers::Moves::new(rng)),
        "settings and rules" => Box::new(parsers::Rules::new()),
        "names and texts" => Box::new(parsers::Names::new()),
        "headers, codes, endpoints" => Box::new(parsers::Headers::new()),
        "draughts FEN" => Box::new(parsers::Fen::new()),
        "draughts PDN" => Box::new(parsers::Pdn::new()),
        "draughts position import" => Box::new(parsers::Position::new()),
        "Chinese checkers positions" => Box::new(parsers::CcPosition::new()),
        "HTTP requests (router)" => Box::new(app::Http::new()),
        "WebSocket messages (session)" => Box::new(app::Ws::new()),
        "pool messages (seeking socket)" => Box::new(app::PoolsWs::new()),
        _ => return None,
    })
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Inputs in all, shared among the targets by [`TARGETS`].
    pub inputs: u64,
    /// The seed: the same seed runs the same inputs.
    pub seed: u64,
    /// Only the targets whose name contains this (case-insensitive).
    pub only: Option<String>,
}

/// What one target did.
#[derive(Clone, Debug)]
pub struct TargetReport {
    /// Its name.
    pub name: &'static str,
    /// Inputs run.
    pub inputs: u64,
    /// Panics.
    pub panics: u64,
    /// Answers that were not typed errors.
    pub failures: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// How deep the inputs went ([`Target::depth`]).
    pub depth: String,
    /// The first answer of each kind that was not a typed error, described.
    pub failed: Option<String>,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Each target's figures.
    pub targets: Vec<TargetReport>,
    /// The first panic: target, message, input.
    pub first_problem: Option<String>,
}

impl Report {
    /// Inputs run in all.
    pub fn inputs(&self) -> u64 {
        self.targets.iter().map(|t| t.inputs).sum()
    }

    /// Panics in all.
    pub fn panics(&self) -> u64 {
        self.targets.iter().map(|t| t.panics).sum()
    }

    /// Failures in all.
    pub fn failures(&self) -> u64 {
        self.targets.iter().map(|t| t.failures).sum()
    }

    /// Time in all.
    pub fn elapsed(&self) -> Duration {
        self.targets.iter().map(|t| t.elapsed).sum()
    }

    /// Whether nothing went wrong.
    pub fn clean(&self) -> bool {
        self.panics() == 0 && self.failures() == 0
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{:<30} {:>12} {:>9} {:>12} {:>7} {:>9}",
            "target", "inputs", "time s", "inputs/s", "panics", "failures"
        )?;
        for t in &self.targets {
            writeln!(
                f,
                "{:<30} {:>12} {:>9.1} {:>12.0} {:>7} {:>9}",
                t.name,
                t.inputs,
                t.elapsed.as_secs_f64(),
                t.inputs as f64 / t.elapsed.as_secs_f64().max(1e-9),
                t.panics,
                t.failures
            )?;
        }
        writeln!(
            f,
            "{:<30} {:>12} {:>9.1} {:>12.0} {:>7} {:>9}",
            "total",
            self.inputs(),
            self.elapsed().as_secs_f64(),
            self.inputs() as f64 / self.elapsed().as_secs_f64().max(1e-9),
            self.panics(),
            self.failures()
        )?;
        for t in self.targets.iter().filter(|t| !t.depth.is_empty()) {
            writeln!(f, "{}: {}", t.name, t.depth)?;
        }
        if let Some(problem) = &self.first_problem {
            writeln!(f, "first panic: {problem}")?;
        }
        for t in &self.targets {
            if let Some(failed) = &t.failed {
                writeln!(f, "failures in {}:\n  {failed}", t.name)?;
            }
        }
        Ok(())
    }
}

/// Panics seen by the hook installed for a run, wherever they happened, and the first message.
#[derive(Default)]
struct Panics {
    count: AtomicU64,
    first: Mutex<Option<String>>,
}

/// Runs the targets of `options` (in slices, interleaved, so that a run cut short has touched
/// every target), with `progress` called after each slice.
///
/// The process's panic hook is replaced during the run (panics are counted, not printed) and
/// put back after: run it alone in its process (`dames fuzz`, its own test binary).
pub fn run(options: &Options, mut progress: impl FnMut(&Report)) -> Report {
    // The targets are made first, under the usual hook: a target that cannot start is a bug of
    // the harness, reported as usual.
    for (name, _) in TARGETS {
        make(name, &mut Rng::new(options.seed));
    }
    let panics = Arc::new(Panics::default());
    let previous = panic::take_hook();
    {
        let panics = panics.clone();
        panic::set_hook(Box::new(move |info| {
            panics.count.fetch_add(1, Ordering::SeqCst);
            let mut first = panics.first.lock().unwrap_or_else(|e| e.into_inner());
            if first.is_none() {
                *first = Some(info.to_string());
            }
        }));
    }
    let report = run_targets(options, &panics, &mut progress);
    let _ = panic::take_hook();
    panic::set_hook(previous);
    report
}

fn run_targets(options: &Options, panics: &Panics, progress: &mut impl FnMut(&Report)) -> Report {
    let only = options.only.as_deref().map(str::to_lowercase);
    let chosen: Vec<(&'static str, u64)> = TARGETS
        .iter()
        .filter(|(name, _)| match &only {
            None => true,
            Some(o) => name.to_lowercase().contains(o.as_str()),
        })
        .copied()
        .collect();
    let total_weight: u64 = chosen.iter().map(|(_, w)| w).sum::<u64>().max(1);
    let mut quotas: Vec<u64> = chosen
        .iter()
        .map(|(_, w)| options.inputs * w / total_weight)
        .collect();
    if let Some(first) = quotas.first_mut() {
        *first += options.inputs
            - chosen
                .iter()
                .map(|(_, w)| options.inputs * w / total_weight)
                .sum::<u64>();
    }
    let mut rng = Rng::new(options.seed);
    let mut report = Report::default();
    let mut targets = Vec::new();
    for (i, (name, _)) in chosen.iter().enumerate() {
        let target = make(name, &mut rng).expect("every listed target exists");
        // Each target its own random source: a target's inputs do not depend on the others.
        let own = Rng::new(options.seed ^ ((i as u64 + 1) << 32));
        targets.push((target, quotas[i], own, 0u64));
        report.targets.push(TargetReport {
            name,
            inputs: 0,
            panics: 0,
            failures: 0,
            elapsed: Duration::ZERO,
            depth: String::new(),
            failed: None,
        });
    }
    const SLICES: u64 = 20;
    for slice in 1..=SLICES {
        for (i, (target, quota, rng, earlier_failures)) in targets.iter_mut().enumerate() {
            let stats = &mut report.targets[i];
            let until = *quota * slice / SLICES;
            let started = Instant::now();
            while stats.inputs < until {
                let before = panics.count.load(Ordering::SeqCst);
                let outcome = panic::catch_unwind(AssertUnwindSafe(|| target.one(rng)));
                stats.inputs += 1;
                let after = panics.count.load(Ordering::SeqCst);
                if outcome.is_err() || after > before {
                    stats.panics += (after - before).max(1);
                    if report.first_problem.is_none() {
                        let message = panics
                            .first
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .clone()
                            .unwrap_or_default();
                        report.first_problem = Some(format!(
                            "panic in {}: {message}\n  input: {}",
                            stats.name,
                            target.last_input()
                        ));
                    }
                    // The target's state may be half changed: start it again.
                    if let Some(fresh) = make(stats.name, rng) {
                        *earlier_failures += target.failures().0;
                        *target = fresh;
                    }
                }
            }
            stats.elapsed += started.elapsed();
            let (failures, first) = target.failures();
            stats.failures = *earlier_failures + failures;
            stats.depth = target.depth();
            if first.is_some() {
                stats.failed = first;
            }
        }
        progress(&report);
    }
    report
}
