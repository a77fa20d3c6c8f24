//! `dames hub`: the draughts engine over the Hub protocol, version 2 (the text protocol of the
//! Scan engine, understood by draughts GUIs and match tools). See docs/hub.md.
//!
//! Lines are read by a thread and handed to the main loop through a channel; a search runs on
//! its own thread and writes `info` lines after every iteration and `done` at the end, so that
//! `ping` and `stop` are answered while it thinks.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use dames_ai::{Analysis, Budget, Level, Limits, Table};
use draughts::{Board, Brazilian, Canadian, GameOf, International, Move, Position, Rules};

/// Where answers go (stdout, or a buffer in tests).
type Out = Arc<Mutex<dyn Write + Send>>;

/// Runs the protocol on stdin and stdout until `quit` or the end of the input.
pub fn run() -> anyhow::Result<()> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let out: Out = Arc::new(Mutex::new(std::io::stdout()));
    serve(rx, out);
    Ok(())
}

/// How long to think.
#[derive(Clone, Copy, Debug)]
enum Limit {
    Time(Duration),
    Depth(u32),
    Infinite,
}

/// The state between commands.
struct Engine {
    out: Out,
    level: Level,
    limit: Limit,
    /// The position to search: `pos` parsed into a game of the right board.
    game: Option<AnyGame>,
    search: Option<(Arc<AtomicBool>, JoinHandle<()>)>,
    /// A transposition table kept from move to move (cleared by `new-game`), when
    /// `set-param name=hash` gave it a size; else each search sizes its own.
    table: Option<Arc<Mutex<Table>>>,
    /// Its size in MiB (0: none kept).
    hash_mb: usize,
}

/// A kept table of this many MiB, from `set-param name=hash` (0: none).
fn table(mb: usize) -> Option<Arc<Mutex<Table>>> {
    (mb > 0).then(|| Arc::new(Mutex::new(Table::new(mb))))
}

/// A game on one of the three boards (the `pos` string's length tells which).
#[derive(Clone)]
enum AnyGame {
    Brazilian(GameOf<Brazilian>),
    International(GameOf<International>),
    Canadian(GameOf<Canadian>),
}

/// Serves the protocol: one command per line from `lines`, answers to `out`.
fn serve(lines: Receiver<String>, out: Out) {
    let mut engine = Engine {
        out,
        level: Level::Expert,
        limit: Limit::Time(Duration::from_secs(2)),
        game: None,
        search: None,
        table: None,
        hash_mb: 0,
    };
    while let Ok(line) = lines.recv() {
        if !engine.command(&line) {
            break;
        }
    }
    engine.stop();
}

/// Splits `command arg=value arg="quoted value" flag` into the command and its arguments.
fn parse(line: &str) -> (String, Vec<(String, String)>) {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    let mut it = words.into_iter();
    let command = it.next().unwrap_or_default();
    let args = it
        .map(|w| match w.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (w, String::new()),
        })
        .collect();
    (command, args)
}

fn arg<'a>(args: &'a [(String, String)], name: &str) -> Option<&'a str> {
    args.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

impl Engine {
    fn say(&self, line: &str) {
        let mut out = self.out.lock().expect("output");
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    /// Handles one line; `false` to quit.
    fn command(&mut self, line: &str) -> bool {
        let (command, args) = parse(line);
        match command.as_str() {
            "hub" => {
                self.say(&format!(
                    "id name=Dames version={} author=\"Dames\" country=France",
                    env!("CARGO_PKG_VERSION")
                ));
                self.say("param name=variant value=normal type=enum values=\"normal\"");
                self.say("param name=hash value=0 type=int min=0 max=4096");
                self.say(
                    "param name=level value=expert type=enum \
                     values=\"facile normal difficile expert\"",
                );
                self.say("wait");
            }
            "set-param" => self.set_param(&args),
            "init" => self.say("ready"),
            "ping" => self.say("pong"),
            "new-game" => {
                self.stop();
                self.game = None;
                self.table = table(self.hash_mb);
            }
            "pos" => {
                self.stop();
                // A refused position forgets the previous one: `go` must not answer for it.
                self.game = None;
                match position(&args) {
                    Ok(game) => self.game = Some(game),
                    Err(message) => self.error(&message),
                }
            }
            "level" => self.set_level(&args),
            "go" => self.go(),
            "stop" => self.stop(),
            "quit" => return false,
            "" => {}
            _ => {} // The protocol says to ignore unknown commands.
        }
        true
    }

    fn error(&self, message: &str) {
        self.say(&format!("error message=\"{}\"", message.replace('"', "'")));
    }

    fn set_param(&mut self, args: &[(String, String)]) {
        match arg(args, "name") {
            Some("level") => match arg(args, "value").and_then(Level::from_name) {
                Some(level) => self.level = level,
                None => self.error("unknown level"),
            },
            Some("hash") => match arg(args, "value").and_then(|v| v.parse::<usize>().ok()) {
                Some(mb) if mb <= 4096 => {
                    self.stop();
                    self.hash_mb = mb;
                    self.table = table(mb);
                }
                _ => self.error("hash: a size in MiB from 0 to 4096"),
            },
            _ => {}
        }
    }

    fn set_level(&mut self, args: &[(String, String)]) {
        let num = |name: &str| arg(args, name).and_then(|v| v.parse::<f64>().ok());
        self.limit = if arg(args, "infinite").is_some() {
            Limit::Infinite
        } else if let Some(d) = num("depth") {
            Limit::Depth(d.max(1.0) as u32)
        } else if let Some(t) = num("move-time") {
            Limit::Time(Duration::from_secs_f64(t.max(0.001)))
        } else if let Some(t) = num("time") {
            // A share of the remaining time, plus the increment.
            let moves = num("moves").unwrap_or(30.0).max(1.0);
            let inc = num("inc").unwrap_or(0.0);
            let per = (t / moves + inc).min(t * 0.9).max(0.01);
            Limit::Time(Duration::from_secs_f64(per))
        } else {
            self.limit
        };
    }

    /// Stops a running search and waits for its `done`.
    fn stop(&mut self) {
        if let Some((cancel, handle)) = self.search.take() {
            cancel.store(true, Ordering::Relaxed);
            let _ = handle.join();
        }
    }

    fn go(&mut self) {
        self.stop();
        let Some(game) = self.game.clone() else {
            self.error("no position");
            return;
        };
        let cancel = Arc::new(AtomicBool::new(false));
        let (time, budget) = match self.limit {
            Limit::Time(t) => (t, Budget::default()),
            Limit::Depth(d) => (
                Duration::from_secs(3600),
                Budget {
                    depth: Some(d),
                    nodes: None,
                },
            ),
            Limit::Infinite => (Duration::from_secs(365 * 24 * 3600), Budget::default()),
        };
        let limits = Limits {
            time,
            seed: 0,
            cancel: cancel.clone(),
        };
        let (out, level, table) = (self.out.clone(), self.level, self.table.clone());
        let handle = std::thread::spawn(move || {
            let mut kept = table.as_ref().map(|t| t.lock().expect("table"));
            let t = kept.as_deref_mut();
            match game {
                AnyGame::Brazilian(g) => think(&g, level, &limits, &budget, t, &out),
                AnyGame::International(g) => think(&g, level, &limits, &budget, t, &out),
                AnyGame::Canadian(g) => think(&g, level, &limits, &budget, t, &out),
            }
        });
        self.search = Some((cancel, handle));
    }
}

/// Searches and writes `info` lines and the final `done`.
fn think<B: Board>(
    game: &GameOf<B>,
    level: Level,
    limits: &Limits,
    budget: &Budget,
    table: Option<&mut Table>,
    out: &Out,
) {
    let root = *game.position();
    let say = |line: String| {
        let mut o = out.lock().expect("output");
        let _ = writeln!(o, "{line}");
        let _ = o.flush();
    };
    let mut report = |a: &Analysis<Move<B>>| say(info(&root, a));
    let result = dames_ai::draughts::analyse_in(game, level, limits, budget, table, &mut report);
    let fallback = || game.legal_moves().first().copied();
    let (best, ponder) = match &result {
        Some(a) => {
            let ponder = (a.pv.first() == Some(&a.best))
                .then(|| a.pv.get(1).copied())
                .flatten();
            (Some(a.best), ponder)
        }
        None => (fallback(), None),
    };
    match best {
        Some(mv) => {
            let mut line = format!("done move={}", notation(&root, mv));
            if let Some(p) = ponder {
                line += &format!(" ponder={}", notation(&root.play_unchecked(mv), p));
            }
            say(line);
        }
        None => say("error message=\"no legal move\"".into()),
    }
}

/// An `info` line: depth, score in men, nodes, time in seconds, speed in Mnodes/s, PV.
fn info<B: Board>(root: &Position<B>, a: &Analysis<Move<B>>) -> String {
    let secs = a.elapsed.as_secs_f64();
    let mut pos = *root;
    let mut pv = Vec::new();
    for &mv in &a.pv {
        pv.push(notation(&pos, mv));
        pos = pos.play_unchecked(mv);
    }
    format!(
        "info depth={} score={:.2} nodes={} time={:.3} nps={:.1} pv=\"{}\"",
        a.depth,
        f64::from(a.score) / 100.0,
        a.nodes,
        secs,
        a.nodes as f64 / secs.max(1e-6) / 1e6,
        pv.join(" ")
    )
}

/// Hub notation: `32-28`, or `from x to x captured x …` for captures.
fn notation<B: Board>(_pos: &Position<B>, mv: Move<B>) -> String {
    if mv.is_capture() {
        let mut s = format!("{}x{}", mv.from(), mv.to());
        for c in mv.captured() {
            s += &format!("x{c}");
        }
        s
    } else {
        format!("{}-{}", mv.from(), mv.to())
    }
}

/// The legal move written `text` in Hub notation (captured pieces in any order).
fn parse_move<B: Board>(pos: &Position<B>, text: &str) -> Option<Move<B>> {
    let numbers: Vec<u8> = text
        .split(['-', 'x'])
        .map(|n| n.trim().parse().ok())
        .collect::<Option<_>>()?;
    let (&from, rest) = numbers.split_first()?;
    let (&to, captured) = rest.split_first()?;
    let mut captured = captured.to_vec();
    captured.sort_unstable();
    pos.legal_moves().into_iter().find(|mv| {
        mv.from().number() == from
            && mv.to().number() == to
            && mv.captured().map(|s| s.number()).collect::<Vec<_>>() == captured
    })
}

/// The game of a `pos` command: the position, then the moves played from it.
fn position(args: &[(String, String)]) -> Result<AnyGame, String> {
    let text = arg(args, "pos").ok_or("pos: missing pos=")?;
    let moves = arg(args, "moves").unwrap_or("");
    match text.len() {
        33 => Ok(AnyGame::Brazilian(game_of(text, moves)?)),
        51 => Ok(AnyGame::International(game_of(text, moves)?)),
        73 => Ok(AnyGame::Canadian(game_of(text, moves)?)),
        n => Err(format!("pos: {n} characters (33, 51 or 73 expected)")),
    }
}

fn game_of<B: Board>(text: &str, moves: &str) -> Result<GameOf<B>, String> {
    let start = hub_position::<B>(text)?;
    let mut game = GameOf::from_position(Rules::new(B::VARIANT), start);
    for m in moves.split_whitespace() {
        let mv = parse_move(game.position(), m).ok_or_else(|| format!("illegal move {m}"))?;
        game.play(mv).map_err(|e| format!("{m}: {e}"))?;
    }
    Ok(game)
}

/// Scan's position string: `W` or `B` to move, then one of `w b W B e` per square.
fn hub_position<B: Board>(text: &str) -> Result<Position<B>, String> {
    let mut chars = text.chars();
    let side = match chars.next() {
        Some('W') => draughts::Color::White,
        Some('B') => draughts::Color::Black,
        _ => return Err("pos: side to move must be W or B".into()),
    };
    let mut pos = Position::<B>::empty(side);
    for (i, c) in chars.enumerate() {
        let (color, role) = match c {
            'w' => (draughts::Color::White, draughts::Role::Man),
            'b' => (draughts::Color::Black, draughts::Role::Man),
            'W' => (draughts::Color::White, draughts::Role::King),
            'B' => (draughts::Color::Black, draughts::Role::King),
            'e' => continue,
            other => return Err(format!("pos: unexpected {other:?}")),
        };
        let square = draughts::Square(i as u8 + 1);
        pos = pos
            .put(square, draughts::Piece { color, role })
            .ok_or("pos: square off the board")?;
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::Sender;
    use std::time::Instant;

    /// A shared buffer the engine writes into.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Buffer {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }

        /// Waits until the output holds `needle` (10 s at most).
        fn wait_for(&self, needle: &str) -> String {
            self.wait_count(needle, 1)
        }

        /// Waits until the output holds `needle` `n` times (10 s at most).
        fn wait_count(&self, needle: &str, n: usize) -> String {
            let start = Instant::now();
            loop {
                let text = self.text();
                if text.matches(needle).count() >= n || start.elapsed() > Duration::from_secs(10) {
                    return text;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }

    fn engine() -> (Sender<String>, Buffer, JoinHandle<()>) {
        let (tx, rx) = channel();
        let buf = Buffer::default();
        let out: Out = Arc::new(Mutex::new(buf.clone()));
        let handle = std::thread::spawn(move || serve(rx, out));
        (tx, buf, handle)
    }

    const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

    #[test]
    fn a_whole_session_over_the_protocol() {
        let (tx, out, handle) = engine();
        let send = |l: &str| tx.send(l.to_string()).unwrap();
        send("hub");
        let text = out.wait_for("wait");
        assert!(text.starts_with("id name=Dames"), "{text}");
        assert!(text.contains("param name=level"), "{text}");
        assert!(text.contains("param name=hash value=0"), "{text}");
        send("set-param name=hash value=8");
        send("set-param name=level value=expert");
        send("init");
        out.wait_for("ready");
        send("ping");
        out.wait_for("pong");
        send(&format!("pos pos={START}"));
        send("level depth=4");
        send("go think");
        let text = out.wait_for("done move=");
        let done = text.lines().find(|l| l.starts_with("done")).unwrap();
        let mv = done
            .split_whitespace()
            .nth(1)
            .unwrap()
            .trim_start_matches("move=");
        let start = hub_position::<International>(START).unwrap();
        assert!(parse_move(&start, mv).is_some(), "{done}");
        assert!(text.contains("info depth=4 score="), "{text}");
        // A shot in Hub notation: captured pieces listed after the landing square.
        send("new-game");
        send(&format!(
            "pos pos={} moves=\"32-28\"",
            fen_to_hub("W", &[32, 33, 37, 41], &[22, 23])
        ));
        send("level move-time=0.5");
        send("go think");
        let text = out.wait_for("done move=23x32x28");
        assert!(text.contains("done move=23x32x28"), "{text}");
        // Analysis until stop, with ping answered during the search.
        send(&format!("pos pos={START}"));
        send("level infinite");
        send("go analyze");
        std::thread::sleep(Duration::from_millis(100));
        send("ping");
        send("stop");
        let text = out.wait_count("pong", 2);
        assert!(text.matches("pong").count() >= 2, "{text}");
        let after = out
            .wait_count("done move=", 3)
            .matches("done move=")
            .count();
        send("quit");
        handle.join().unwrap();
        assert_eq!(out.text().matches("done move=").count(), after);
        assert_eq!(after, 3);
    }

    #[test]
    fn errors_are_answered_not_fatal() {
        let (tx, out, handle) = engine();
        tx.send("pos pos=Wxyz".into()).unwrap();
        tx.send("go think".into()).unwrap();
        tx.send("ping".into()).unwrap();
        tx.send("quit".into()).unwrap();
        handle.join().unwrap();
        let text = out.text();
        assert!(text.contains("error message="), "{text}");
        assert!(text.contains("pong"), "{text}");
    }

    #[test]
    fn after_a_refused_pos_go_answers_an_error_not_a_move() {
        let (tx, out, handle) = engine();
        let send = |l: &str| tx.send(l.to_string()).unwrap();
        send("level depth=1");
        send(&format!("pos pos={START}"));
        send(&format!("pos pos={START} moves=\"32-28 19-23 28x19\""));
        send("go think");
        send("ping");
        out.wait_for("pong");
        send("quit");
        handle.join().unwrap();
        let text = out.text();
        assert!(
            text.contains("error message=\"illegal move 28x19\""),
            "{text}"
        );
        assert!(text.contains("error message=\"no position\""), "{text}");
        assert!(!text.contains("done"), "{text}");
    }

    #[test]
    fn brazilian_positions_are_read_from_their_length() {
        let pos = format!("W{}{}{}", "b".repeat(12), "e".repeat(8), "w".repeat(12));
        assert!(matches!(
            position(&[("pos".into(), pos)]),
            Ok(AnyGame::Brazilian(_))
        ));
    }

    /// A 10×10 Hub position from square lists.
    fn fen_to_hub(side: &str, white: &[u8], black: &[u8]) -> String {
        let mut s = side.to_string();
        for sq in 1..=50 {
            s.push(if white.contains(&sq) {
                'w'
            } else if black.contains(&sq) {
                'b'
            } else {
                'e'
            });
        }
        s
    }
}
