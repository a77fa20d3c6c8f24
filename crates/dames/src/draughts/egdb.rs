//! `dames draughts egdb …`: builds, checks and probes the 10×10 endgame databases of
//! `dames_ai::draughts::egdb`, and installs them for the process from `DAMES_EGDB`.
//!
//! The rules and the search stay free of I/O: this module reads and writes the `.egdb` files
//! (one per material signature) and hands their bytes to the library.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use dames_ai::draughts::egdb::{self, file, BuildStats, Egdb, Material};
use draughts::{parse_fen, International, Position};

/// The environment variable naming the directory of the tables the engine probes.
pub const ENV: &str = "DAMES_EGDB";

/// Endgame database subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Generate the tables of every material with 2 to `--pieces` pieces by retrograde
    /// analysis and write one `.egdb` file per material into `--out`.
    Build {
        /// Most pieces on the board (2 to 4).
        #[arg(long, default_value_t = 4)]
        pieces: u32,
        /// Directory to write the files into (created if missing).
        #[arg(long)]
        out: PathBuf,
    },
    /// Read every table of a directory (header, checksum, both sections), verify each stored
    /// value against its successors and against its colour-mirrored twin (solved separately).
    Check {
        /// The directory of `.egdb` files.
        dir: PathBuf,
    },
    /// For every game of a PDN file (e.g. `dames match --pdn`): the tables' value of the first
    /// position in them (under the game's draw counters) against the game's result, for the
    /// player whose name contains `--player`; an error if that player ever did worse.
    Audit {
        /// The directory of `.egdb` files.
        dir: PathBuf,
        /// The games.
        #[arg(long)]
        pdn: PathBuf,
        /// Part of the name (PDN `White`/`Black` tag) of the player to audit.
        #[arg(long)]
        player: String,
    },
    /// Print the tables' value of a position.
    Probe {
        /// The directory of `.egdb` files.
        dir: PathBuf,
        /// The position in FEN (10×10).
        #[arg(long)]
        fen: String,
    },
}

/// Runs an endgame database subcommand.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Build { pieces, out } => build(pieces, &out),
        Command::Check { dir } => check(&dir),
        Command::Probe { dir, fen } => probe(&dir, &fen),
        Command::Audit { dir, pdn, player } => audit(&dir, &pdn, &player),
    }
}

fn build(pieces: u32, out: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let start = Instant::now();
    let cpu = super::cpu_time();
    let mut total = BuildStats::default();
    let mut bytes = 0u64;
    println!("material  positions        wins       draws      losses  longest  time(s)");
    let tables = egdb::build(pieces, &mut |m, s| {
        total.positions += s.positions;
        total.wins += s.wins;
        total.draws += s.draws;
        total.losses += s.losses;
        total.longest = total.longest.max(s.longest);
        println!(
            "{:<8} {:>10} {:>11} {:>11} {:>11} {:>8} {:>8.2}",
            m.name(),
            s.positions,
            s.wins,
            s.draws,
            s.losses,
            s.longest,
            s.time.as_secs_f64()
        );
    })?;
    for m in tables.materials() {
        let data = file::encode_file(&m, tables.table(&m).expect("built"));
        let path = out.join(file::file_name(&m));
        std::fs::write(&path, &data).with_context(|| format!("writing {}", path.display()))?;
        bytes += data.len() as u64;
    }
    println!(
        "total: {} positions, {} wins, {} draws, {} losses, longest {} plies",
        total.positions, total.wins, total.draws, total.losses, total.longest
    );
    println!(
        "{} tables, {} bytes in memory, {} bytes on disk in {}",
        tables.materials().len(),
        tables.bytes(),
        bytes,
        out.display()
    );
    report_time(start, cpu);
    Ok(())
}

fn report_time(start: Instant, cpu: Option<f64>) {
    print!("time: {:.1} s", start.elapsed().as_secs_f64());
    if let (Some(a), Some(b)) = (cpu, super::cpu_time()) {
        print!(" ({:.1} s on CPU)", b - a);
    }
    println!();
}

/// Reads every `.egdb` file of `dir`.
///
/// # Errors
/// If the directory cannot be read or a file is refused (its name and the typed reason).
pub fn load(dir: &Path) -> anyhow::Result<Egdb> {
    let mut tables = Egdb::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "egdb"))
        .collect();
    names.sort();
    for path in names {
        let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        let (m, table) =
            file::decode_file(&bytes).with_context(|| format!("refusing {}", path.display()))?;
        tables.insert(m, table);
    }
    Ok(tables)
}

fn check(dir: &Path) -> anyhow::Result<()> {
    let start = Instant::now();
    let cpu = super::cpu_time();
    let tables = load(dir)?;
    println!(
        "{} tables read, checksums and sections agree ({} pieces complete)",
        tables.materials().len(),
        tables.pieces()
    );
    let mut total = 0;
    for m in tables.materials() {
        let missing: Vec<Material> = m
            .closure()
            .into_iter()
            .filter(|n| tables.table(n).is_none())
            .collect();
        anyhow::ensure!(
            missing.is_empty(),
            "{} needs the missing tables {:?}",
            m.name(),
            missing.iter().map(Material::name).collect::<Vec<_>>()
        );
        let n = egdb::check(&tables, &m)?;
        let twin = Material {
            wm: m.bm,
            wk: m.bk,
            bm: m.wm,
            bk: m.wk,
        };
        if tables.table(&twin).is_some() {
            egdb::check_mirror(&tables, &m)?;
        }
        let s = egdb::build::stats(&m, tables.table(&m).expect("held"));
        println!(
            "{:<8} {:>10} positions checked (and against their mirror images): {} wins, {} draws, {} losses",
            m.name(),
            n,
            s.wins,
            s.draws,
            s.losses
        );
        total += n;
    }
    println!("all {total} positions follow from their successors and match their mirror images");
    report_time(start, cpu);
    Ok(())
}

fn probe(dir: &Path, fen: &str) -> anyhow::Result<()> {
    let tables = load(dir)?;
    let pos: Position<International> =
        parse_fen(fen).with_context(|| format!("bad FEN {fen:?}"))?;
    match tables.probe_fresh(&pos) {
        None => println!("not in the tables"),
        Some(p) => println!("{:?} in {} plies ({:?})", p.wdl, p.distance, p.zone),
    }
    Ok(())
}

/// The first position of `game` in the tables: its side to move, value and ply.
fn first_in_tables(
    tables: &Egdb,
    pdn: &draughts::PdnGame,
) -> anyhow::Result<Option<(draughts::Color, egdb::Wdl, usize)>> {
    let mut game = draughts::GameOf::<International>::new(draughts::Rules::default());
    for (ply, text) in pdn.moves.iter().enumerate() {
        if let Some(p) = tables.probe(game.position(), &game.counters(), &game.rules()) {
            return Ok(Some((game.position().side_to_move(), p.wdl, ply)));
        }
        game.play_notation(text)
            .map_err(|e| anyhow::anyhow!("move {} {text:?}: {e}", ply + 1))?;
    }
    Ok(None)
}

fn audit(dir: &Path, pdn: &Path, player: &str) -> anyhow::Result<()> {
    use draughts::Color;
    let tables = load(dir)?;
    let text =
        std::fs::read_to_string(pdn).with_context(|| format!("reading {}", pdn.display()))?;
    let games = draughts::read_pdn(&text).map_err(|e| anyhow::anyhow!("{e}"))?;
    let (mut entered, mut worse) = (0, 0);
    let mut counts = std::collections::BTreeMap::new();
    for (n, g) in games.iter().enumerate() {
        let side = match (g.tag("White"), g.tag("Black")) {
            (Some(w), _) if w.contains(player) => Color::White,
            (_, Some(b)) if b.contains(player) => Color::Black,
            _ => continue,
        };
        let Some((to_move, wdl, ply)) = first_in_tables(&tables, g)? else {
            continue;
        };
        entered += 1;
        // The value and the result for `side`, as 2 (win), 1 (draw), 0 (loss).
        let value = match (wdl, to_move == side) {
            (egdb::Wdl::Draw, _) => 1,
            (egdb::Wdl::Win, true) | (egdb::Wdl::Loss, false) => 2,
            _ => 0,
        };
        let result = match (g.result.as_deref(), side) {
            (Some("2-0"), Color::White) | (Some("0-2"), Color::Black) => 2,
            (Some("1-1"), _) => 1,
            _ => 0,
        };
        *counts.entry((value, result)).or_insert(0) += 1;
        if result < value {
            worse += 1;
            println!(
                "game {}: in the tables at ply {ply} worth {value}/2, scored {result}/2",
                n + 1
            );
        }
    }
    println!(
        "{} games, {entered} reached the tables; (value, result) for {player}:",
        games.len()
    );
    for ((v, r), k) in counts {
        println!("  worth {v}/2, scored {r}/2: {k}");
    }
    anyhow::ensure!(worse == 0, "{worse} games scored below the tables' value");
    Ok(())
}

/// Installs the tables of the directory named by [`ENV`], if it is set: the searches of this
/// process then probe them. A missing or refused directory is reported on stderr and the
/// program goes on without tables.
pub fn install_from_env() {
    let Some(dir) = std::env::var_os(ENV) else {
        return;
    };
    let dir = PathBuf::from(dir);
    match load(&dir) {
        Ok(tables) => {
            eprintln!(
                "endgame tables: {} materials ({} pieces complete, {} MB) from {}",
                tables.materials().len(),
                tables.pieces(),
                tables.bytes() / 1_000_000,
                dir.display()
            );
            let _ = egdb::install(tables);
        }
        Err(e) => eprintln!("endgame tables not loaded from {}: {e:#}", dir.display()),
    }
}
