//! `dames match`: one Hub engine against another (docs/hub.md), each a shell command run as a
//! subprocess (`dames hub`, or any engine that speaks Hub), for measuring the draughts engine
//! against engines nobody here wrote.
//!
//! Openings come in pairs: every opening is played twice, A taking White once and Black once.
//! The openings are random plies from the start (seeded) or lines from a file. One engine
//! thinks at a time (the games are played one after the other), each with the same time per move
//! (`level move-time=`) or depth (`level depth=`, reproducible games). The runner is the referee:
//! it keeps the game with the rules crate, ends it by the FMJD rules (no move, threefold
//! repetition, the 25-move and lone-king draw counters), and scores an illegal move, a crash or a
//! move far beyond its time as a loss. It prints each game, then A's score, W/D/L, the 95 %
//! Wilson interval, the Elo difference and each engine's time and depth a move, with the load
//! average of the machine (shared machines make time-limited matches noisy).
//!
//! With `--sprt ELO0,ELO1` the match is a sequential test ([`Sprt`]): after every pair of games
//! the log-likelihood ratio of the pairs' results (pentanomial) is printed, and the match stops
//! as soon as it crosses a bound (H1: A is at least ELO1 stronger; H0: at most ELO0), or after
//! `--games` without a verdict.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use dames_ai::Rng;
use draughts::{Color, Game, MoveInfo, Role, Rules, Variant};

use crate::score::{elo, wilson, Sprt, Verdict};

/// Options of `dames match`.
#[derive(clap::Args)]
pub struct Args {
    /// Engine A: a shell command that speaks Hub on stdin/stdout (e.g. `dames hub`).
    #[arg(long)]
    a: String,
    /// Engine B (same).
    #[arg(long)]
    b: String,
    /// Number of games, rounded up to a whole number of pairs.
    #[arg(long, default_value_t = 40)]
    games: usize,
    /// Seconds a move for both engines (`level move-time=`).
    #[arg(long, default_value_t = 0.2)]
    move_time: f64,
    /// Search depth instead of time (`level depth=`): games reproducible from the arguments.
    #[arg(long)]
    depth: Option<u32>,
    /// Random plies from the start in each opening.
    #[arg(long, default_value_t = 4)]
    random_plies: usize,
    /// Openings file: one opening a line, its moves from the start in PDN or Hub notation
    /// (`32-28 19-23`); used in order, instead of random ones.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// `name=value` sent to engine A as `set-param` after `hub` (repeatable).
    #[arg(long)]
    a_param: Vec<String>,
    /// `name=value` sent to engine B (repeatable).
    #[arg(long)]
    b_param: Vec<String>,
    /// Board: international (10×10), brazilian (8×8) or canadian (12×12); the engines must
    /// know the board from the length of Hub's `pos` string.
    #[arg(long, default_value = "international")]
    variant: String,
    /// Write the games here as PDN (the opening included; `Round` is the game number).
    #[arg(long)]
    pdn: Option<PathBuf>,
    /// Plies after which a game is scored a draw (the FMJD counters end games long before).
    #[arg(long, default_value_t = 1000)]
    max_plies: usize,
    /// A sequential test of H0 "A − B ≤ ELO0" against H1 "A − B ≥ ELO1" (logistic Elo, e.g.
    /// `0,20`): stop when the log-likelihood ratio crosses a bound, `--games` at most.
    #[arg(long, value_parser = parse_elo_pair, allow_hyphen_values = true)]
    sprt: Option<(f64, f64)>,
    /// The SPRT's chance of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The SPRT's chance of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
}

/// `ELO0,ELO1` with ELO0 < ELO1.
fn parse_elo_pair(text: &str) -> Result<(f64, f64), String> {
    let (a, b) = text
        .split_once(',')
        .ok_or_else(|| format!("{text:?}: ELO0,ELO1 expected"))?;
    let parse = |t: &str| t.trim().parse::<f64>().map_err(|e| format!("{t:?}: {e}"));
    let (elo0, elo1) = (parse(a)?, parse(b)?);
    if elo0 >= elo1 {
        return Err(format!("ELO0 ({elo0}) must be below ELO1 ({elo1})"));
    }
    Ok((elo0, elo1))
}

/// A Hub engine running as a subprocess.
struct Engine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// What an engine answered to `go think`.
struct Answer {
    mv: String,
    /// Depth of the last `info` line before `done`.
    depth: Option<f64>,
    elapsed: Duration,
}

impl Engine {
    /// Starts `command` with `sh -c`, says `hub`, sets `params`, then `init`.
    fn start(command: &str, params: &[String]) -> anyhow::Result<Engine> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("starting {command:?}"))?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let stdout = child.stdout.take().context("engine stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            name: command.to_string(),
            child,
            stdin,
            lines,
        };
        engine.send("hub")?;
        let mut id = None;
        engine.read_until(Duration::from_secs(30), |line| {
            if line.starts_with("id ") {
                id = field(line, "name").map(String::from);
            }
            line == "wait"
        })?;
        if let Some(id) = id {
            engine.name = format!("{id} ({command})");
        }
        for p in params {
            let (name, value) = p
                .split_once('=')
                .with_context(|| format!("parameter {p:?}: name=value expected"))?;
            engine.send(&format!("set-param name={name} value={}", quoted(value)))?;
        }
        engine.send("init")?;
        engine.read_until(Duration::from_secs(30), |line| line == "ready")?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> anyhow::Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .with_context(|| format!("{} closed its input", self.name))
    }

    /// Reads lines until `stop` says so; an error on timeout or end of output.
    fn read_until(
        &mut self,
        timeout: Duration,
        mut stop: impl FnMut(&str) -> bool,
    ) -> anyhow::Result<()> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if stop(line.trim()) {
                        return Ok(());
                    }
                }
                Err(RecvTimeoutError::Timeout) => bail!("{}: no answer in time", self.name),
                Err(RecvTimeoutError::Disconnected) => bail!("{}: exited", self.name),
            }
        }
    }

    /// Sends the position and the limit, then `go think`; the move of `done`.
    fn think(
        &mut self,
        pos: &str,
        moves: &[String],
        limit: &str,
        timeout: Duration,
    ) -> anyhow::Result<Answer> {
        if moves.is_empty() {
            self.send(&format!("pos pos={pos}"))?;
        } else {
            self.send(&format!("pos pos={pos} moves=\"{}\"", moves.join(" ")))?;
        }
        self.send(limit)?;
        let start = Instant::now();
        self.send("go think")?;
        let (mut depth, mut mv, mut error) = (None, None, None);
        self.read_until(timeout, |line| {
            if line.starts_with("info ") {
                depth = field(line, "depth").and_then(|d| d.parse().ok()).or(depth);
            } else if line.starts_with("done") {
                mv = field(line, "move").map(String::from);
                return true;
            } else if line.starts_with("error") {
                error = Some(line.to_string());
                return true;
            }
            false
        })?;
        match (mv, error) {
            (Some(mv), _) => Ok(Answer {
                mv,
                depth,
                elapsed: start.elapsed(),
            }),
            (None, Some(e)) => bail!("{}: {e}", self.name),
            (None, None) => bail!("{}: done without a move", self.name),
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value of `name=` in a Hub line (quotes removed).
fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("{name}=");
    let mut rest = line;
    while let Some(i) = rest.find(&key) {
        let at_word = i == 0 || rest[..i].ends_with(' ');
        let value = &rest[i + key.len()..];
        if at_word {
            return Some(match value.strip_prefix('"') {
                Some(q) => q.split('"').next().unwrap_or(""),
                None => value.split_whitespace().next().unwrap_or(""),
            });
        }
        rest = value;
    }
    None
}

fn quoted(value: &str) -> String {
    if value.contains(' ') || value.is_empty() {
        format!("\"{value}\"")
    } else {
        value.to_string()
    }
}

/// Hub notation of a move: `32-28`, or `from x to x captured…` (captured by square number).
pub fn hub_move(mv: &MoveInfo) -> String {
    if mv.captures.is_empty() {
        return format!("{}-{}", mv.from.number(), mv.to.number());
    }
    let mut captured: Vec<u8> = mv.captures.iter().map(|s| s.number()).collect();
    captured.sort_unstable();
    let mut s = format!("{}x{}", mv.from.number(), mv.to.number());
    for c in captured {
        s += &format!("x{c}");
    }
    s
}

/// The legal move of `game` an engine wrote `text` (Hub notation, captured squares in any order;
/// a capture given by its start and end alone when only one matches).
pub fn find_move(game: &Game, text: &str) -> Option<MoveInfo> {
    let numbers: Vec<u8> = text
        .trim()
        .split(['-', 'x'])
        .map(|n| n.parse().ok())
        .collect::<Option<_>>()?;
    let (&from, rest) = numbers.split_first()?;
    let (&to, captured) = rest.split_first()?;
    let mut captured = captured.to_vec();
    captured.sort_unstable();
    let mut matching = game.legal_moves().into_iter().filter(|mv| {
        let mut c: Vec<u8> = mv.captures.iter().map(|s| s.number()).collect();
        c.sort_unstable();
        mv.from.number() == from && mv.to.number() == to && (c == captured || captured.is_empty())
    });
    let first = matching.next()?;
    matching.next().is_none().then_some(first)
}

/// Hub's position string: the side to move (`W`/`B`), then `w b W B e` for every square.
pub fn hub_position(game: &Game) -> String {
    let n = game.variant().squares() as usize;
    let mut squares = vec!['e'; n];
    for (sq, piece) in game.pieces() {
        squares[usize::from(sq.number()) - 1] = match (piece.color, piece.role) {
            (Color::White, Role::Man) => 'w',
            (Color::Black, Role::Man) => 'b',
            (Color::White, Role::King) => 'W',
            (Color::Black, Role::King) => 'B',
        };
    }
    let side = match game.side_to_move() {
        Color::White => 'W',
        Color::Black => 'B',
    };
    std::iter::once(side).chain(squares).collect()
}

/// How a game ended for the runner.
struct Played {
    /// A's score: 1, ½ or 0.
    score: f64,
    reason: String,
    game: Game,
}

/// Per engine: moves, time and depth summed over the match.
#[derive(Default, Clone, Copy)]
struct Usage {
    moves: u64,
    time: Duration,
    depth: f64,
    depth_moves: u64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let variant: Variant = args.variant.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let pairs = args.games.div_ceil(2).max(1);
    let openings = openings(&args, variant, pairs)?;
    let limit = match args.depth {
        Some(d) => format!("level depth={d}"),
        None => format!("level move-time={}", args.move_time),
    };
    let timeout = match args.depth {
        Some(_) => Duration::from_secs(600),
        None => Duration::from_secs_f64(args.move_time * 5.0 + 2.0),
    };
    let sprt = args.sprt.map(|(elo0, elo1)| Sprt {
        elo0,
        elo1,
        alpha: args.alpha,
        beta: args.beta,
    });
    let load_before = load_average();
    let started = Instant::now();
    let mut engines = [
        Engine::start(&args.a, &args.a_param)?,
        Engine::start(&args.b, &args.b_param)?,
    ];
    println!(
        "A = {}\nB = {}\n{} games on {} openings, {limit}, load average {load_before}",
        engines[0].name,
        engines[1].name,
        2 * pairs,
        pairs
    );
    if let Some(t) = &sprt {
        let (lower, upper) = t.bounds();
        println!(
            "SPRT: H0 A − B ≤ {} Elo, H1 A − B ≥ {} Elo (logistic), α {} β {}, bounds {lower:.2} {upper:.2}",
            t.elo0, t.elo1, t.alpha, t.beta
        );
    }
    let mut usage = [Usage::default(); 2];
    let mut scores = Vec::new();
    let mut pdn = String::new();
    for g in 0..2 * pairs {
        let a_colour = if g % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let opening = &openings[g / 2];
        let played = play(
            &mut engines,
            &mut usage,
            variant,
            opening,
            a_colour,
            &limit,
            timeout,
            args.max_plies,
        )?;
        println!(
            "game {:>3}: opening {:>3} \"{}\", A {}: A scores {} ({}, {} plies)",
            g + 1,
            g / 2 + 1,
            opening.join(" "),
            if a_colour == Color::White {
                "white"
            } else {
                "black"
            },
            played.score,
            played.reason,
            played.game.ply()
        );
        let (white, black) = match a_colour {
            Color::White => (&engines[0].name, &engines[1].name),
            Color::Black => (&engines[1].name, &engines[0].name),
        };
        let tags = [
            ("Event", "dames match".to_string()),
            ("Round", (g + 1).to_string()),
            ("White", white.clone()),
            ("Black", black.clone()),
        ];
        let tags: Vec<(String, String)> =
            tags.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        pdn += &played.game.to_pdn(&tags);
        pdn += "\n";
        scores.push(played.score);
        // Quit a crashed engine's match rather than scoring every later game as lost.
        if played.reason.contains("exited") {
            bail!("{}", played.reason);
        }
        if let (Some(t), 1) = (&sprt, g % 2) {
            let llr = t.llr(&pentanomial(&scores));
            println!("pair {:>3}: LLR {llr:.2}", g / 2 + 1);
            if t.verdict(llr).is_some() {
                break;
            }
        }
    }
    if let Some(path) = &args.pdn {
        std::fs::write(path, pdn).with_context(|| format!("writing {}", path.display()))?;
    }
    let names = [engines[0].name.clone(), engines[1].name.clone()];
    drop(engines);
    summary(&names, &scores, &usage, started.elapsed(), &load_before);
    if let Some(t) = &sprt {
        println!("{}", sprt_summary(t, &scores));
    }
    Ok(())
}

/// Pairs of games (A White then A Black on one opening) by A's points in the pair: 0, ½, 1,
/// 1½, 2 (an unfinished last pair is left out).
fn pentanomial(scores: &[f64]) -> [u64; 5] {
    let mut counts = [0; 5];
    for pair in scores.chunks_exact(2) {
        counts[((pair[0] + pair[1]) * 2.0).round() as usize] += 1;
    }
    counts
}

/// The SPRT's last lines: the pairs, the LLR, its bounds and the verdict.
fn sprt_summary(t: &Sprt, scores: &[f64]) -> String {
    let counts = pentanomial(scores);
    let llr = t.llr(&counts);
    let (lower, upper) = t.bounds();
    let verdict = match t.verdict(llr) {
        Some(Verdict::H1) => format!("H1 accepted: A is at least {} Elo stronger", t.elo1),
        Some(Verdict::H0) => format!("H0 accepted: A is at most {} Elo stronger", t.elo0),
        None => format!("no verdict after {} games", scores.len()),
    };
    format!(
        "SPRT [{}, {}]: pairs scoring 0 / ½ / 1 / 1½ / 2: {} / {} / {} / {} / {}\n\
         LLR {llr:.2} (bounds {lower:.2}, {upper:.2}): {verdict}",
        t.elo0, t.elo1, counts[0], counts[1], counts[2], counts[3], counts[4]
    )
}

/// The moves of every opening: from the file, or `random_plies` seeded random moves.
fn openings(args: &Args, variant: Variant, pairs: usize) -> anyhow::Result<Vec<Vec<String>>> {
    if let Some(path) = &args.openings {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let lines: Vec<Vec<String>> = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter(|l| !l.is_empty())
            .map(|l| l.split_whitespace().map(String::from).collect())
            .collect();
        if lines.len() < pairs {
            bail!("{} openings in the file, {pairs} needed", lines.len());
        }
        return Ok(lines.into_iter().take(pairs).collect());
    }
    Ok((0..pairs)
        .map(|k| {
            let mut rng = Rng::new(args.seed.wrapping_mul(0x9E37_79B9) ^ k as u64);
            let mut game = Game::new(Rules::new(variant));
            let mut line = Vec::new();
            for _ in 0..args.random_plies {
                let moves = game.legal_moves();
                if moves.is_empty() || game.outcome().is_some() {
                    break;
                }
                let mv = &moves[rng.below(moves.len())];
                line.push(hub_move(mv));
                game.play_notation(&mv.notation).expect("a legal move");
            }
            line
        })
        .collect())
}

/// One game: the opening, then the engines in turn until the rules end it.
#[allow(clippy::too_many_arguments)]
fn play(
    engines: &mut [Engine; 2],
    usage: &mut [Usage; 2],
    variant: Variant,
    opening: &[String],
    a_colour: Color,
    limit: &str,
    timeout: Duration,
    max_plies: usize,
) -> anyhow::Result<Played> {
    let mut game = Game::new(Rules::new(variant));
    for text in opening {
        let mv = find_move(&game, text).with_context(|| format!("opening move {text}"))?;
        game.play_notation(&mv.notation)?;
    }
    let start = hub_position(&game);
    let mut moves: Vec<String> = Vec::new();
    let a_score = |winner: Color| if winner == a_colour { 1.0 } else { 0.0 };
    while game.outcome().is_none() {
        if moves.len() >= max_plies {
            return Ok(Played {
                score: 0.5,
                reason: format!("draw adjudicated after {max_plies} plies"),
                game,
            });
        }
        let side = game.side_to_move();
        let e = usize::from(side != a_colour);
        let answer = match engines[e].think(&start, &moves, limit, timeout) {
            Ok(a) => a,
            Err(err) => {
                return Ok(Played {
                    score: a_score(side.opponent()),
                    reason: format!("{} loses: {err:#}", side_name(side)),
                    game,
                })
            }
        };
        let u = &mut usage[e];
        u.moves += 1;
        u.time += answer.elapsed;
        if let Some(d) = answer.depth {
            u.depth += d;
            u.depth_moves += 1;
        }
        let Some(mv) = find_move(&game, &answer.mv) else {
            return Ok(Played {
                score: a_score(side.opponent()),
                reason: format!("{} loses: illegal move {}", side_name(side), answer.mv),
                game,
            });
        };
        game.play_notation(&mv.notation)?;
        moves.push(hub_move(&mv));
    }
    let outcome = game.outcome().expect("the game is over");
    Ok(Played {
        score: outcome.winner().map_or(0.5, a_score),
        reason: outcome.to_string(),
        game,
    })
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The load averages of the machine (1, 5 and 15 minutes), as `uptime` shows them.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

fn summary(
    names: &[String; 2],
    scores: &[f64],
    usage: &[Usage; 2],
    elapsed: Duration,
    load_before: &str,
) {
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let (lo, hi) = wilson(mean, n);
    let wins = scores.iter().filter(|&&s| s > 0.99).count();
    let losses = scores.iter().filter(|&&s| s < 0.01).count();
    println!(
        "{} games in {:.0} s, load average {load_before} before, {} after",
        scores.len(),
        elapsed.as_secs_f64(),
        load_average()
    );
    println!(
        "A scores {:.1} % (95 % CI {:.1} – {:.1} %): {wins} won, {} drawn, {losses} lost",
        100.0 * mean,
        100.0 * lo,
        100.0 * hi,
        scores.len() - wins - losses
    );
    println!(
        "Elo difference A − B: {} (95 % CI {} to {})",
        elo(mean),
        elo(lo),
        elo(hi)
    );
    for (side, name) in ["A", "B"].iter().zip(names) {
        let u = usage[usize::from(*side == "B")];
        let per = u.moves.max(1) as f64;
        println!(
            "{side} {name}: {} moves, {:.1} ms a move, mean depth {:.1}",
            u.moves,
            u.time.as_secs_f64() * 1000.0 / per,
            u.depth / u.depth_moves.max(1) as f64
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hub_fields_and_moves_read_back() {
        let line = "info depth=12 score=0.10 nodes=5 pv=\"32-28 19-23\"";
        assert_eq!(field(line, "depth"), Some("12"));
        assert_eq!(field(line, "pv"), Some("32-28 19-23"));
        assert_eq!(
            field("done move=32x23x28 ponder=19-28", "move"),
            Some("32x23x28")
        );
        assert_eq!(field("info nodes=5", "depth"), None);
        let mut game = Game::new(Rules::default());
        assert_eq!(
            hub_position(&game),
            "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
        );
        for text in ["32-28", "19-23"] {
            let mv = find_move(&game, text).unwrap();
            assert_eq!(hub_move(&mv), text);
            game.play_notation(&mv.notation).unwrap();
        }
        // The capture 28x19 (over 23): with its captured square, or by its ends alone.
        assert_eq!(hub_move(&find_move(&game, "28x19").unwrap()), "28x19x23");
        assert!(find_move(&game, "28x19x23").is_some());
        assert!(find_move(&game, "28x19x24").is_none());
        assert!(find_move(&game, "31-26x").is_none());
    }

    #[test]
    fn sprt_options_and_pairs() {
        assert_eq!(parse_elo_pair("0,20"), Ok((0.0, 20.0)));
        assert_eq!(parse_elo_pair("-5, 15"), Ok((-5.0, 15.0)));
        assert!(parse_elo_pair("20,0").is_err() && parse_elo_pair("5").is_err());
        // Pairs: 2, 1½, ½, 1, 1 (the odd last game is left out).
        let scores = [1.0, 1.0, 1.0, 0.5, 0.0, 0.5, 0.5, 0.5, 1.0, 0.0, 1.0];
        assert_eq!(pentanomial(&scores), [0, 1, 2, 1, 1]);
        let t = Sprt {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let text = sprt_summary(&t, &scores);
        assert!(text.contains("0 / 1 / 2 / 1 / 1"), "{text}");
        assert!(text.contains("no verdict after 11 games"), "{text}");
    }
}
