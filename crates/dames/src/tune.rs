//! `dames tune`: fits the draughts evaluation's weights on games (logistic regression of the
//! results on the evaluation's features, "Texel tuning"; docs/ai.md).
//!
//! - `dames tune gen`: plays seeded games of the Expert level against itself at a node budget
//!   (random openings, the budget varied move by move) and writes their quiet positions with
//!   each game's result: reproducible from its arguments.
//! - `dames tune pdn`: the same from PDN games (e.g. `dames match --pdn` against another engine).
//! - `dames tune fit`: reads such files, finds the scale that best maps the current evaluation
//!   to results, then fits every weight (Adam on the mean squared error of the predicted score)
//!   and writes `crates/ai/src/draughts/weights.rs`.
//!
//! - `dames tune patterns` (`tune_patterns.rs`): the pattern evaluation's fit, from the same
//!   files.
//!
//! A data line is `<White's score: 1, 0.5 or 0> <FEN> [<the search's value for White>]`; `gen`
//! writes the search's value where it searched and a blank line after each game (the fits then
//! hold out whole games). Only 10×10 positions are used (the other boards share the weights,
//! see `eval.rs`); positions where the side to move must capture are skipped (the search never
//! evaluates them).

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{bail, Context};
use dames_ai::draughts::patterns::{INDICES, REGIONS};
use dames_ai::draughts::{features, weights, Feature, PHASE_ONE};
use dames_ai::{Budget, Level, Limits, Rng};
use draughts::{parse_fen, read_pdn, to_fen, Color, Game, GameOf, International, Position, Rules};

/// `dames tune …`.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Play games of Expert against itself and write their quiet positions with the results.
    Gen(GenArgs),
    /// Write the quiet positions of PDN games (10×10) with their results.
    Pdn(PdnArgs),
    /// Fit the evaluation's weights on position files and write them as Rust.
    Fit(FitArgs),
    /// Fit the pattern evaluation (the linear features and 4×4 windows) and write its
    /// weights file.
    Patterns(crate::tune_patterns::PatternArgs),
    /// Fit the Chinese checkers evaluation's weights on recorded self-play games.
    CcFit(crate::tune_cc::FitArgs),
}

/// Options of `dames tune gen`.
#[derive(clap::Args)]
pub struct GenArgs {
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Mean node budget a move (each move draws it between a half and one and a half times).
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Random plies at the start of each game.
    #[arg(long, default_value_t = 6)]
    random_plies: usize,
    /// Seed of the openings and budgets.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time (the output does not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The output file.
    #[arg(long)]
    out: PathBuf,
}

/// Options of `dames tune pdn`.
#[derive(clap::Args)]
pub struct PdnArgs {
    /// The output file.
    #[arg(long)]
    out: PathBuf,
    /// PDN files.
    files: Vec<PathBuf>,
}

/// Options of `dames tune fit`.
#[derive(clap::Args)]
pub struct FitArgs {
    /// Position files (from `gen` or `pdn`), repeatable.
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Passes of the optimiser over the data.
    #[arg(long, default_value_t = 1500)]
    epochs: usize,
    /// Step size of the optimiser, in hundredths of a man.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Weight decay towards the starting weights (per position).
    #[arg(long, default_value_t = 1e-7)]
    l2: f64,
    /// Write the weights here (Rust source), e.g. crates/ai/src/draughts/weights.rs.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Threads for the gradient.
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Gen(args) => gen(&args),
        Command::Pdn(args) => pdn(&args),
        Command::Fit(args) => fit(&args),
        Command::Patterns(args) => crate::tune_patterns::fit(&args),
        Command::CcFit(args) => crate::tune_cc::fit(&args),
    }
}

/// White's score as written in a data line.
fn score_text(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::White) => "1",
        Some(Color::Black) => "0",
        None => "0.5",
    }
}

/// The lines of one game's quiet positions (each position once per game), with the search's
/// value for White of the position before each move when `searched` has it.
fn game_lines(
    game: &GameOf<International>,
    score: &str,
    searched: &[Option<i32>],
    seen: &mut HashSet<u64>,
) -> Vec<String> {
    let mut pos = *game.start();
    let mut out = Vec::new();
    let mut keep = |pos: &Position<International>, value: Option<i32>, out: &mut Vec<String>| {
        if !pos.has_captures() && pos.has_any_move() && seen.insert(pos.zobrist()) {
            out.push(match value {
                Some(v) => format!("{score} {} {v}", to_fen(pos)),
                None => format!("{score} {}", to_fen(pos)),
            });
        }
    };
    for (ply, &mv) in game.moves().iter().enumerate() {
        keep(&pos, searched.get(ply).copied().flatten(), &mut out);
        pos = pos.play_unchecked(mv);
    }
    keep(&pos, None, &mut out);
    out
}

/// One self-play game: its lines, each with the search's value of its position.
fn gen_game(args: &GenArgs, g: usize) -> Vec<String> {
    let mut game = GameOf::<International>::new(Rules::default());
    let mut rng = Rng::new(args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ g as u64);
    let mut searched = Vec::new();
    while game.outcome().is_none() && game.moves().len() < 600 {
        let moves = game.legal_moves();
        let white = game.position().side_to_move() == Color::White;
        let (mv, value) = if game.moves().len() < args.random_plies {
            (moves.as_slice()[rng.below(moves.len())], None)
        } else {
            let nodes = args.nodes / 2 + rng.below(args.nodes.max(1) as usize) as u64;
            let limits = Limits {
                time: std::time::Duration::from_secs(60),
                seed: rng.next_u64(),
                ..Limits::default()
            };
            let budget = Budget {
                nodes: Some(nodes.max(1)),
                depth: None,
            };
            match dames_ai::draughts::analyse_of(
                &game,
                Level::Expert,
                &limits,
                &budget,
                &mut |_| {},
            ) {
                // A single legal move is played unsearched: its value is only the evaluation.
                Some(a) if a.depth > 0 => (a.best, Some(if white { a.score } else { -a.score })),
                Some(a) => (a.best, None),
                None => break,
            }
        };
        searched.push(value);
        game.play(mv).expect("a legal move");
    }
    let winner = game.outcome().and_then(|o| o.winner());
    // Positions of the random opening are kept too: the result was played out from them.
    game_lines(&game, score_text(winner), &searched, &mut HashSet::new())
}

fn gen(args: &GenArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let results = Arc::new(Mutex::new(Vec::<(usize, Vec<String>)>::new()));
    std::thread::scope(|s| {
        for _ in 0..args.threads.max(1) {
            let (next, results) = (next.clone(), results.clone());
            s.spawn(move || loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= args.games {
                    break;
                }
                let lines = gen_game(args, g);
                let mut r = results.lock().expect("results");
                r.push((g, lines));
                if r.len().is_multiple_of(100) {
                    eprintln!(
                        "{} games, {:.0} s",
                        r.len(),
                        started.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
    let mut results = Arc::try_unwrap(results)
        .map_err(|_| anyhow::anyhow!("workers still running"))?
        .into_inner()
        .expect("results");
    results.sort_by_key(|(g, _)| *g);
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(&args.out).with_context(|| format!("{}", args.out.display()))?,
    );
    let mut n = 0;
    let mut seen = HashSet::new();
    let mut scores = [0usize; 3];
    for (_, lines) in &results {
        let mut wrote = false;
        for line in lines {
            // The same position from several games is kept once per result.
            let key: Vec<&str> = line.split(' ').take(2).collect();
            if seen.insert(key.join(" ")) {
                writeln!(out, "{line}")?;
                n += 1;
                wrote = true;
            }
        }
        // A blank line ends each game: `fit` holds out whole games.
        if wrote {
            writeln!(out)?;
        }
        if let Some(first) = lines.first() {
            scores[match first.split(' ').next() {
                Some("1") => 0,
                Some("0.5") => 1,
                _ => 2,
            }] += 1;
        }
    }
    out.flush()?;
    eprintln!(
        "{} games ({} White wins, {} draws, {} Black wins), {n} positions in {:.0} s",
        results.len(),
        scores[0],
        scores[1],
        scores[2],
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn pdn(args: &PdnArgs) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(&args.out).with_context(|| format!("{}", args.out.display()))?,
    );
    let (mut games, mut n, mut skipped) = (0, 0, 0);
    for path in &args.files {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        for pdn in read_pdn(&text).with_context(|| format!("{}", path.display()))? {
            let score = match pdn.result.as_deref() {
                Some("2-0") => Some(Color::White),
                Some("0-2") => Some(Color::Black),
                Some("1-1") => None,
                _ => {
                    skipped += 1;
                    continue;
                }
            };
            let Ok(Game::International(game)) = Game::from_pdn(&pdn, Rules::default()) else {
                skipped += 1;
                continue;
            };
            for line in game_lines(&game, score_text(score), &[], &mut HashSet::new()) {
                writeln!(out, "{line}")?;
                n += 1;
            }
            games += 1;
        }
    }
    out.flush()?;
    eprintln!("{games} games ({skipped} skipped: no result or not 10×10), {n} positions");
    Ok(())
}

/// The training set: sparse features, flattened.
#[derive(Default)]
pub(crate) struct Data {
    /// Per position: the end of its features in `index`/`value`.
    ends: Vec<u32>,
    index: Vec<u32>,
    value: Vec<f32>,
    /// Per position: the opening and ending factors (phase and draw divisor folded in).
    mg: Vec<f32>,
    eg: Vec<f32>,
    /// What the fit aims at: the side to move's score (1, 0.5 or 0), or a blend of it with the
    /// search's value (see [`Data::blend`]).
    pub(crate) result: Vec<f32>,
    /// The side to move's score in the game.
    pub(crate) outcome: Vec<f32>,
    /// The search's value for the side to move, in hundredths of a man (NaN: none recorded).
    search: Vec<f32>,
}

impl Data {
    /// A position with White's score, the search's value for White if recorded, and with
    /// `patterns` the windows' indices as features after the linear ones (`dames tune
    /// patterns`).
    pub(crate) fn push_with(
        &mut self,
        pos: &Position<International>,
        white_score: f32,
        white_search: Option<i32>,
        patterns: bool,
    ) {
        let f = features(pos);
        for &(i, v) in &f.values {
            self.index.push(u32::from(i));
            self.value.push(f32::from(v));
        }
        let white = pos.side_to_move() == Color::White;
        let sign = if white { 1.0 } else { -1.0 };
        if patterns {
            let idx = dames_ai::draughts::patterns::indices(pos);
            for (r, pair) in idx[..REGIONS].iter().zip(&idx[REGIONS..]).enumerate() {
                let base = (Feature::COUNT + r * INDICES) as u32;
                self.index.push(base + u32::from(*pair.0));
                self.value.push(sign);
                self.index.push(base + u32::from(*pair.1));
                self.value.push(-sign);
            }
        }
        self.ends.push(self.index.len() as u32);
        let d = (PHASE_ONE * f.divisor) as f32;
        self.mg.push(f.phase as f32 / d);
        self.eg.push((PHASE_ONE - f.phase) as f32 / d);
        let score = if white {
            white_score
        } else {
            1.0 - white_score
        };
        self.result.push(score);
        self.outcome.push(score);
        self.search
            .push(white_search.map_or(f32::NAN, |v| sign * v as f32));
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Aims at `(1 − lambda) × result + lambda × sigmoid(search / scale)` where a search value
    /// was recorded (labels by the game and by our own engine's search).
    pub(crate) fn blend(&mut self, lambda: f64, scale: f64) {
        for p in 0..self.len() {
            let s = f64::from(self.search[p]);
            if !s.is_nan() {
                let r = f64::from(self.outcome[p]);
                self.result[p] = ((1.0 - lambda) * r + lambda * sigmoid(s / scale)) as f32;
            }
        }
    }

    /// The evaluation of position `p` with weights `w` (`[mg, eg]` per feature, flattened).
    #[inline]
    pub(crate) fn eval(&self, p: usize, w: &[f64]) -> f64 {
        let start = if p == 0 { 0 } else { self.ends[p - 1] as usize };
        let end = self.ends[p] as usize;
        let (mut mg, mut eg) = (0.0, 0.0);
        for k in start..end {
            let i = 2 * self.index[k] as usize;
            let v = f64::from(self.value[k]);
            mg += w[i] * v;
            eg += w[i + 1] * v;
        }
        mg * f64::from(self.mg[p]) + eg * f64::from(self.eg[p])
    }

    /// Mean squared error of the predicted scores over `range`.
    pub(crate) fn loss(&self, w: &[f64], scale: f64, range: std::ops::Range<usize>) -> f64 {
        self.loss_against(w, scale, range, &self.result)
    }

    /// Mean squared error of the predicted scores against `target` over `range`.
    pub(crate) fn loss_against(
        &self,
        w: &[f64],
        scale: f64,
        range: std::ops::Range<usize>,
        target: &[f32],
    ) -> f64 {
        let n = range.len().max(1) as f64;
        range
            .map(|p| {
                let e = sigmoid(self.eval(p, w) / scale) - f64::from(target[p]);
                e * e
            })
            .sum::<f64>()
            / n
    }

    /// The gradient of the whole set split over `threads` (scoped threads): each thread's sum of
    /// gradients and of losses over its share of the positions, in thread order.
    pub(crate) fn gradient_parts(
        &self,
        w: &[f64],
        scale: f64,
        threads: usize,
    ) -> Vec<(Vec<f64>, f64)> {
        let (n, len) = (w.len(), self.len());
        let chunk = len.div_ceil(threads);
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    s.spawn(move || {
                        let mut g = vec![0.0; n];
                        let range = (t * chunk).min(len)..((t + 1) * chunk).min(len);
                        let sum = self.gradient(w, scale, range, &mut g);
                        (g, sum)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("gradient thread"))
                .collect()
        })
    }

    /// Adds the gradient of the summed squared error over `range` to `grad`; returns that sum.
    pub(crate) fn gradient(
        &self,
        w: &[f64],
        scale: f64,
        range: std::ops::Range<usize>,
        grad: &mut [f64],
    ) -> f64 {
        let mut total = 0.0;
        for p in range {
            let s = sigmoid(self.eval(p, w) / scale);
            let e = s - f64::from(self.result[p]);
            total += e * e;
            let g = 2.0 * e * s * (1.0 - s) / scale;
            let (gm, ge) = (g * f64::from(self.mg[p]), g * f64::from(self.eg[p]));
            let start = if p == 0 { 0 } else { self.ends[p - 1] as usize };
            for k in start..self.ends[p] as usize {
                let i = 2 * self.index[k] as usize;
                let v = f64::from(self.value[k]);
                grad[i] += gm * v;
                grad[i + 1] += ge * v;
            }
        }
        total
    }
}

pub(crate) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A cheap stable hash of a line, to hold out the same positions every run.
pub(crate) fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Reads the data files: the training set and the held-out tenth.
fn load(paths: &[PathBuf]) -> anyhow::Result<(Data, Data)> {
    load_with(paths, false)
}

/// One data line: White's score, the position and the search's value for White if recorded.
fn parse_line(line: &str) -> anyhow::Result<(f32, &str, Option<i32>)> {
    let mut words = line.split_whitespace();
    let score: f32 = words.next().context("no score")?.parse().context("score")?;
    let fen = words.next().context("no FEN")?;
    let search = match words.next() {
        Some(w) => Some(w.parse().context("search value")?),
        None => None,
    };
    Ok((score, fen, search))
}

/// Reads the data files (with `patterns`, the windows' features too): the training set and the
/// held-out tenth. Files from `gen` separate games by a blank line, and then whole games are
/// held out (every tenth), so that no held-out position has a neighbour of its game in the
/// training set; in other files a tenth of the positions is held out by a hash of the FEN.
pub(crate) fn load_with(paths: &[PathBuf], patterns: bool) -> anyhow::Result<(Data, Data)> {
    let (mut train, mut valid) = (Data::default(), Data::default());
    let mut seen = HashSet::new();
    for path in paths {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let by_game = text.contains("\n\n");
        let mut game = 0u64;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                game += 1;
                continue;
            }
            let (score, fen, search) =
                parse_line(line).with_context(|| format!("{}:{}", path.display(), n + 1))?;
            if !seen.insert(fnv(fen) ^ score.to_bits() as u64) {
                continue;
            }
            let pos: Position<International> =
                parse_fen(fen).map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), n + 1))?;
            if pos.has_captures() {
                continue;
            }
            let held = if by_game {
                game % 10 == 9
            } else {
                fnv(fen).is_multiple_of(10)
            };
            let set = if held { &mut valid } else { &mut train };
            set.push_with(&pos, score, search, patterns);
        }
    }
    if train.len() == 0 || valid.len() == 0 {
        bail!("not enough positions");
    }
    Ok((train, valid))
}

/// The Adam optimiser (Kingma and Ba, 2015) over a vector of weights.
pub(crate) struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    steps: i32,
    eps: f64,
}

impl Adam {
    pub(crate) fn new(n: usize, eps: f64) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            steps: 0,
            eps,
        }
    }

    /// One step of `rate` down the gradient `g` (the mean over the data).
    pub(crate) fn step(&mut self, w: &mut [f64], g: &[f64], rate: f64) {
        let (b1, b2) = (0.9_f64, 0.999_f64);
        self.steps += 1;
        for i in 0..w.len() {
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g[i];
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g[i] * g[i];
            let mh = self.m[i] / (1.0 - b1.powi(self.steps));
            let vh = self.v[i] / (1.0 - b2.powi(self.steps));
            w[i] -= rate * mh / (vh.sqrt() + self.eps);
        }
    }
}

/// The scale (hundredths of a man) that best maps the evaluation to results: golden section.
pub(crate) fn fit_scale(data: &Data, w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (10.0_f64, 2000.0_f64);
    let g = (5.0_f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if data.loss(w, a, 0..data.len()) < data.loss(w, b, 0..data.len()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn fit(args: &FitArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let (train, valid) = load(&args.data)?;
    eprintln!(
        "{} positions to fit, {} held out ({:.0} s)",
        train.len(),
        valid.len(),
        started.elapsed().as_secs_f64()
    );
    let start: Vec<f64> = weights()
        .iter()
        .flat_map(|&[mg, eg]| [f64::from(mg), f64::from(eg)])
        .collect();
    let scale = fit_scale(&train, &start);
    let before = (
        train.loss(&start, scale, 0..train.len()),
        valid.loss(&start, scale, 0..valid.len()),
    );
    eprintln!(
        "scale {scale:.1}: loss {:.6} (held out {:.6}) with the current weights",
        before.0, before.1
    );
    let mut w = start.clone();
    let n = w.len();
    let mut adam = Adam::new(n, 1e-8);
    let threads = args.threads.max(1);
    let len = train.len();
    for epoch in 1..=args.epochs {
        let parts = train.gradient_parts(&w, scale, threads);
        let total: f64 = parts.iter().map(|(_, sum)| sum).sum();
        let grads: Vec<Vec<f64>> = parts.into_iter().map(|(g, _)| g).collect();
        let g: Vec<f64> = (0..n)
            .map(|i| {
                grads.iter().map(|g| g[i]).sum::<f64>() / len as f64
                    + 2.0 * args.l2 * (w[i] - start[i])
            })
            .collect();
        adam.step(&mut w, &g, args.rate);
        if epoch % 100 == 0 || epoch == args.epochs {
            eprintln!(
                "epoch {epoch}: loss {:.6} (held out {:.6}), {:.0} s",
                total / len as f64,
                valid.loss(&w, scale, 0..valid.len()),
                started.elapsed().as_secs_f64()
            );
        }
    }
    let rounded: Vec<[i16; 2]> = w
        .chunks(2)
        .map(|c| [c[0].round() as i16, c[1].round() as i16])
        .collect();
    let flat: Vec<f64> = rounded
        .iter()
        .flat_map(|&[a, b]| [f64::from(a), f64::from(b)])
        .collect();
    let after = (
        train.loss(&flat, scale, 0..train.len()),
        valid.loss(&flat, scale, 0..valid.len()),
    );
    eprintln!(
        "fitted: loss {:.6} (held out {:.6}), was {:.6} ({:.6})",
        after.0, after.1, before.0, before.1
    );
    let source = weights_source(&rounded, train.len() + valid.len(), scale, before, after);
    match &args.out {
        Some(path) => {
            std::fs::write(path, source).with_context(|| format!("writing {}", path.display()))?
        }
        None => print!("{source}"),
    }
    Ok(())
}

/// `weights.rs`: the fitted weights with how they were made.
fn weights_source(
    w: &[[i16; 2]],
    positions: usize,
    scale: f64,
    before: (f64, f64),
    after: (f64, f64),
) -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut s = String::new();
    s += "//! The weights of the draughts evaluation (`eval.rs`), `[opening, ending]` per feature in\n";
    s += "//! hundredths of a man. Written by `dames tune fit` (docs/ai.md, \"Tuning\"):\n";
    s += &format!("//! `dames {}`\n", args.join(" "));
    s += &format!(
        "//! {positions} positions, scale {scale:.1}; mean squared error {:.6} → {:.6}, held out {:.6} → {:.6}.\n",
        before.0, after.0, before.1, after.1
    );
    s += "\n";
    s += &format!(
        "pub(super) const WEIGHTS: [[i16; 2]; {}] = [\n",
        Feature::COUNT
    );
    for (f, [mg, eg]) in w.iter().enumerate() {
        s += &format!("    [{mg}, {eg}], // {}\n", Feature::name(f));
    }
    s += "];\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fit_moves_the_weights_towards_the_results() {
        // White wins every position where it has an extra man: the man's weights grow, the
        // loss falls.
        let mut data = Data::default();
        for fen in ["W:W31,32,33:B1,2", "B:W31,32,36:B1,2", "W:W40,44,45:B5,6"] {
            data.push_with(&parse_fen(fen).unwrap(), 1.0, None, false);
        }
        for fen in ["W:W31,32:B1,2", "B:W35,36:B3,4"] {
            data.push_with(&parse_fen(fen).unwrap(), 0.5, None, false);
        }
        let w: Vec<f64> = vec![0.0; 2 * Feature::COUNT];
        let mut g = vec![0.0; w.len()];
        let before = data.gradient(&w, 100.0, 0..data.len(), &mut g);
        assert!((before - data.loss(&w, 100.0, 0..data.len()) * 5.0).abs() < 1e-9);
        // A step against the gradient lowers the loss.
        let stepped: Vec<f64> = w.iter().zip(&g).map(|(w, g)| w - 1000.0 * g).collect();
        assert!(data.loss(&stepped, 100.0, 0..5) < data.loss(&w, 100.0, 0..5));
        // The evaluation of the data matches the engine's.
        let real: Vec<f64> = weights()
            .iter()
            .flat_map(|&[mg, eg]| [f64::from(mg), f64::from(eg)])
            .collect();
        let pos: Position<International> = parse_fen("B:W31,32,36:B1,2").unwrap();
        let e = dames_ai::draughts::evaluate_linear(&pos);
        assert!((data.eval(1, &real) - f64::from(e)).abs() <= 1.0, "{e}");
    }

    #[test]
    fn game_lines_keep_quiet_positions_with_the_result() {
        let mut game = GameOf::<International>::new(Rules::new(draughts::Variant::International));
        for mv in ["32-28", "19-23", "28x19", "14x23"] {
            game.play_notation(mv).unwrap();
        }
        let lines = game_lines(&game, "0.5", &[], &mut HashSet::new());
        // After 19-23 and after 28x19 the side to move must capture: left out. The start,
        // 32-28 and 14x23 stay.
        assert_eq!(lines.len(), 3);
        assert!(lines.iter().all(|l| l.starts_with("0.5 ")));
    }
}
