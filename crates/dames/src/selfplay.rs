//! `dames selfplay …`: matches between CPU levels, with opening variety, seats alternated, and the
//! score with its 95 % confidence interval and the Elo difference.
//!
//! Two players: games go in pairs on the same random opening, A playing each colour once. Three
//! to six Chinese checkers players: A takes one seat against B in every other seat, A's seat
//! rotating game by game over the same opening; A's score for a game is `(K − place) / (K − 1)`
//! (1 first, 0 last), so that equal players score 50 %.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use dames_ai::cc::eval::{self, Tables as CcTables, Weights};
use dames_ai::{Budget, Level, Limits, Rng};

use crate::score::{elo, wilson};

/// Options of `dames selfplay`.
#[derive(clap::Args)]
pub struct Args {
    /// `cc` (Chinese checkers) or `draughts`.
    #[arg(long)]
    game: String,
    /// Player A: facile, normal, difficile, expert (or greedy, Chinese checkers only).
    #[arg(long)]
    a: String,
    /// Player B (same names).
    #[arg(long)]
    b: String,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Chinese checkers players (2–6).
    #[arg(long, default_value_t = 2)]
    players: u8,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Full budget per move in milliseconds (Expert uses it all, the other levels a share).
    #[arg(long, default_value_t = 100)]
    ms: u64,
    /// Node budget per move for the full budget (reproducible matches); the time stays a cap.
    #[arg(long)]
    nodes: Option<u64>,
    /// Random plies at the start of each opening (default: 2 per player in Chinese checkers
    /// (forward moves only), 4 in draughts).
    #[arg(long)]
    random_plies: Option<usize>,
    /// Draughts board: international, brazilian or canadian.
    #[arg(long, default_value = "international")]
    variant: String,
    /// Chinese checkers rules as JSON (e.g. `{"rule_set":"japanese","pieces":15}`); `players`
    /// is taken from --players.
    #[arg(long)]
    rules: Option<String>,
    /// Multi-player search for A in Chinese checkers: focused (the default), paranoid, maxn or
    /// brs (Best-Reply Search).
    #[arg(long, default_value = "focused")]
    a_multi: String,
    /// Multi-player search for B.
    #[arg(long, default_value = "focused")]
    b_multi: String,
    /// Seed of the openings and of the players' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print every game's result.
    #[arg(long)]
    verbose: bool,
    /// Chinese checkers evaluation weights of A, e.g. `home=8,lane=2` (the others as the CPU
    /// players use them; names: straggler, home, lane, tempo).
    #[arg(long)]
    a_weights: Option<String>,
    /// The same for B.
    #[arg(long)]
    b_weights: Option<String>,
    /// Write every Chinese checkers game to this file, one line each: seat 0's score, then the
    /// moves as `from-to` hole indices (the data of `dames tune cc-fit`).
    #[arg(long)]
    record: Option<PathBuf>,
}

/// A player of the match.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Player {
    Level(Level, dames_ai::cc::MultiSearch),
    Greedy,
}

impl Player {
    fn parse(name: &str, multi: &str) -> anyhow::Result<Player> {
        let multi = match multi {
            "focused" => dames_ai::cc::MultiSearch::Focused,
            "paranoid" => dames_ai::cc::MultiSearch::Paranoid,
            "maxn" => dames_ai::cc::MultiSearch::MaxN,
            "brs" => dames_ai::cc::MultiSearch::BestReply,
            other => bail!("unknown multi-player search {other:?} (focused, paranoid, maxn, brs)"),
        };
        if name.eq_ignore_ascii_case("greedy") {
            return Ok(Player::Greedy);
        }
        Level::from_name(name)
            .map(|l| Player::Level(l, multi))
            .with_context(|| format!("unknown level {name:?}"))
    }

    fn name(self) -> String {
        match self {
            Player::Level(l, dames_ai::cc::MultiSearch::MaxN) => format!("{}(maxn)", l.name()),
            Player::Level(l, dames_ai::cc::MultiSearch::BestReply) => format!("{}(brs)", l.name()),
            Player::Level(l, dames_ai::cc::MultiSearch::Paranoid) => {
                format!("{}(paranoid)", l.name())
            }
            Player::Level(l, _) => l.name().to_string(),
            Player::Greedy => "greedy".into(),
        }
    }
}

/// What the match settings give each game.
struct Setup {
    a: Player,
    b: Player,
    limits_time: Duration,
    budget: Budget,
    seed: u64,
    random_plies: usize,
    cc_rules: Option<chinese_checkers::Rules>,
    variant: draughts::Variant,
    /// Evaluation tables of A and B (Chinese checkers) when not the default ones.
    tables: [Option<&'static CcTables>; 2],
    /// Keep each 2-player game's moves (--record).
    record: bool,
}

/// One game's result for A, and per-player move statistics.
#[derive(Default)]
struct Tally {
    score: f64,
    /// The game as `dames tune cc-fit` reads it (Chinese checkers, with --record).
    record: Option<String>,
    moves: [u64; 2],
    time: [Duration; 2],
    nodes: [u64; 2],
    depth: [u64; 2],
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let a = Player::parse(&args.a, &args.a_multi)?;
    let b = Player::parse(&args.b, &args.b_multi)?;
    let cc_rules = match args.game.as_str() {
        "cc" => {
            let mut rules: chinese_checkers::Rules = match &args.rules {
                Some(json) => serde_json::from_str(json).context("--rules")?,
                None => chinese_checkers::Rules::default(),
            };
            rules.players = args.players;
            rules.validate().map_err(|e| anyhow::anyhow!("{e:?}"))?;
            Some(rules)
        }
        "draughts" => None,
        other => bail!("unknown game {other:?} (cc, draughts)"),
    };
    if cc_rules.is_none() && (a == Player::Greedy || b == Player::Greedy) {
        bail!("greedy is the Chinese checkers baseline");
    }
    let variant: draughts::Variant = args.variant.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let random_plies = args.random_plies.unwrap_or(match cc_rules {
        Some(r) => 2 * usize::from(r.players),
        None => 4,
    });
    let weights = |text: &Option<String>| -> anyhow::Result<Option<&'static CcTables>> {
        let Some(text) = text else { return Ok(None) };
        let w = Weights::TUNED
            .with(text)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(Some(eval::leak_tables(w)))
    };
    let tables = [weights(&args.a_weights)?, weights(&args.b_weights)?];
    if cc_rules.is_none() && (tables.iter().any(Option::is_some) || args.record.is_some()) {
        bail!("--a-weights, --b-weights and --record are for Chinese checkers");
    }
    let setup = Arc::new(Setup {
        a,
        b,
        limits_time: Duration::from_millis(args.ms.max(1)),
        budget: Budget {
            nodes: args.nodes,
            depth: None,
        },
        seed: args.seed,
        random_plies,
        cc_rules,
        variant,
        tables,
        record: args.record.is_some(),
    });
    let next = Arc::new(AtomicUsize::new(0));
    let results = Arc::new(Mutex::new(Vec::<(usize, Tally)>::new()));
    let done = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let games = args.games;
    let verbose = args.verbose;
    let workers: Vec<_> = (0..args.threads.max(1))
        .map(|_| {
            let (setup, next, results, done) =
                (setup.clone(), next.clone(), results.clone(), done.clone());
            std::thread::spawn(move || loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= games {
                    break;
                }
                let tally = play_game(&setup, g);
                if verbose {
                    eprintln!("game {g}: A scores {:.2}", tally.score);
                }
                done.fetch_add(1, Ordering::Relaxed);
                results.lock().expect("results").push((g, tally));
            })
        })
        .collect();
    for w in workers {
        w.join().map_err(|_| anyhow::anyhow!("a game panicked"))?;
    }
    let mut results = results.lock().expect("results");
    if let Some(path) = &args.record {
        results.sort_by_key(|(g, _)| *g);
        let mut out = String::new();
        for (_, tally) in results.iter() {
            if let Some(line) = &tally.record {
                out.push_str(line);
                out.push('\n');
            }
        }
        std::fs::write(path, out).with_context(|| format!("writing {}", path.display()))?;
    }
    report(&args, &setup, &results, started.elapsed());
    Ok(())
}

fn play_game(setup: &Setup, g: usize) -> Tally {
    match setup.cc_rules {
        Some(rules) => play_cc(setup, rules, g),
        None => play_draughts(setup, g),
    }
}

fn limits(setup: &Setup, g: usize, ply: usize) -> Limits {
    let mut r = Rng::new(setup.seed ^ (g as u64) << 32 ^ ply as u64);
    Limits {
        time: setup.limits_time,
        seed: r.next_u64(),
        ..Limits::default()
    }
}

fn play_cc(setup: &Setup, rules: chinese_checkers::Rules, g: usize) -> Tally {
    use chinese_checkers::{Game, Seat};
    let k = usize::from(rules.players);
    let a_seat = g % k;
    let opening = g / k;
    let mut game = Game::new(rules, Seat(0)).expect("valid rules");
    let mut rng = Rng::new(setup.seed.wrapping_mul(0x9E37) ^ opening as u64);
    let mut tally = Tally::default();
    let mut played = Vec::new();
    let mut ply = 0;
    while !game.is_over() {
        let mover = game.to_move().index();
        let side = usize::from(mover != a_seat);
        let player = if side == 0 { setup.a } else { setup.b };
        let mv = if ply < setup.random_plies {
            random_forward(&game, &mut rng)
        } else {
            let t = Instant::now();
            let l = limits(setup, g, ply);
            let mv = match player {
                Player::Greedy => dames_ai::cc::greedy(&game, l.seed),
                Player::Level(level, multi) => {
                    let search =
                        || dames_ai::cc::analyse_with(&game, level, &l, &setup.budget, multi);
                    let analysis = match setup.tables[side] {
                        Some(tables) => eval::with_tables(tables, search),
                        None => search(),
                    };
                    analysis.map(|a| {
                        tally.nodes[side] += a.nodes;
                        tally.depth[side] += u64::from(a.depth);
                        a.best
                    })
                }
            };
            tally.moves[side] += 1;
            tally.time[side] += t.elapsed();
            mv
        };
        let Some(mv) = mv else { break };
        game.play(mv).expect("the AI plays legal moves");
        if setup.record {
            played.push(format!("{}-{}", mv.from.index(), mv.to.index()));
        }
        ply += 1;
    }
    if setup.record && k == 2 {
        let seat0 = game.outcome().map_or(0.5, |o| {
            if o.is_draw() {
                0.5
            } else if o.place(Seat(0)) == Some(1) {
                1.0
            } else {
                0.0
            }
        });
        tally.record = Some(format!("{seat0} {}", played.join(" ")));
    }
    let place = game
        .outcome()
        .and_then(|o| o.place(Seat(a_seat as u8)))
        .unwrap_or(1);
    tally.score = if game.outcome().is_some_and(|o| o.is_draw()) {
        0.5
    } else {
        (k as f64 - f64::from(place)) / (k as f64 - 1.0)
    };
    tally
}

/// A random move among those that do not go backwards (openings).
fn random_forward(game: &chinese_checkers::Game, rng: &mut Rng) -> Option<chinese_checkers::Move> {
    let moves = game.legal_moves_vec();
    let camps = game.rules().seat_camps(game.to_move());
    let forward: Vec<_> = moves
        .iter()
        .copied()
        .filter(|mv| {
            camps.iter().any(|c| {
                let tip = c.opposite().tip();
                game.set_pieces(*c).contains(mv.from) && mv.to.distance(tip) < mv.from.distance(tip)
            })
        })
        .collect();
    let pool = if forward.is_empty() { &moves } else { &forward };
    (!pool.is_empty()).then(|| pool[rng.below(pool.len())])
}

fn play_draughts(setup: &Setup, g: usize) -> Tally {
    use draughts::{Color, Game, Rules};
    let a_colour = if g & 1 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let mut game = Game::new(Rules::new(setup.variant));
    let mut rng = Rng::new(setup.seed.wrapping_mul(0x9E37) ^ (g / 2) as u64);
    let mut tally = Tally::default();
    let mut ply = 0;
    while game.outcome().is_none() {
        let side = usize::from(game.side_to_move() != a_colour);
        let player = if side == 0 { setup.a } else { setup.b };
        let mv = if ply < setup.random_plies {
            let moves = game.legal_moves();
            (!moves.is_empty()).then(|| moves[rng.below(moves.len())].clone())
        } else {
            let Player::Level(level, _) = player else {
                unreachable!("checked in run")
            };
            let t = Instant::now();
            let l = limits(setup, g, ply);
            let a = dames_ai::draughts::analyse(&game, level, &l, &setup.budget);
            tally.moves[side] += 1;
            tally.time[side] += t.elapsed();
            a.map(|a| {
                tally.nodes[side] += a.nodes;
                tally.depth[side] += u64::from(a.depth);
                a.best
            })
        };
        let Some(mv) = mv else { break };
        game.play_notation(&mv.notation)
            .expect("the AI plays legal moves");
        ply += 1;
    }
    tally.score = match game.outcome().and_then(|o| o.winner()) {
        Some(c) if c == a_colour => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    tally
}

fn report(args: &Args, setup: &Setup, results: &[(usize, Tally)], elapsed: Duration) {
    let n = results.len() as f64;
    let scores: Vec<f64> = results.iter().map(|(_, t)| t.score).collect();
    let mean = scores.iter().sum::<f64>() / n;
    let (lo, hi) = wilson(mean, n);
    let wins = scores.iter().filter(|&&s| s > 0.99).count();
    let losses = scores.iter().filter(|&&s| s < 0.01).count();
    let game = match setup.cc_rules {
        Some(r) => format!("cc, {} players", r.players),
        None => format!("draughts ({})", setup.variant),
    };
    let budget = match args.nodes {
        Some(nodes) => format!("{nodes} nodes (cap {} ms)", args.ms),
        None => format!("{} ms", args.ms),
    };
    println!(
        "{game}: A = {} vs B = {}, {} games, full budget {budget} a move, {:.0} s",
        setup.a.name(),
        setup.b.name(),
        results.len(),
        elapsed.as_secs_f64()
    );
    println!(
        "A scores {:.1} % (95 % CI {:.1} – {:.1} %): {wins} won, {} between, {losses} lost",
        100.0 * mean,
        100.0 * lo,
        100.0 * hi,
        results.len() - wins - losses
    );
    println!(
        "Elo difference A − B: {} (95 % CI {} to {})",
        elo(mean),
        elo(lo),
        elo(hi)
    );
    for (side, player) in [(0, setup.a), (1, setup.b)] {
        let moves: u64 = results.iter().map(|(_, t)| t.moves[side]).sum();
        let time: Duration = results.iter().map(|(_, t)| t.time[side]).sum();
        let nodes: u64 = results.iter().map(|(_, t)| t.nodes[side]).sum();
        let depth: u64 = results.iter().map(|(_, t)| t.depth[side]).sum();
        let per = moves.max(1) as f64;
        println!(
            "{}: {} moves, {:.1} ms a move, {:.0} nodes a move, depth {:.1}, {:.0} knodes/s",
            player.name(),
            moves,
            time.as_secs_f64() * 1000.0 / per,
            nodes as f64 / per,
            depth as f64 / per,
            nodes as f64 / time.as_secs_f64().max(1e-9) / 1000.0
        );
    }
}
