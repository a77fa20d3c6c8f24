//! `dames`: the web site and the command-line tools of the Dames platform.
//!
//! With no subcommand it serves the site (`dames serve` with its defaults), so that
//! `cargo run --release` at the workspace root is all it takes to play.

use clap::{Parser, Subcommand};

#[cfg(feature = "server")]
mod backup;
#[cfg(feature = "cc")]
mod cc;
#[cfg(feature = "draughts")]
mod draughts;
#[cfg(feature = "server")]
mod fuzz;
#[cfg(feature = "ai")]
mod hub;
#[cfg(feature = "ai")]
mod hubmatch;
#[cfg(feature = "loadtest")]
mod loadtest;
#[cfg(feature = "ai")]
mod score;
#[cfg(feature = "ai")]
mod selfplay;
#[cfg(feature = "server")]
mod serve;
#[cfg(feature = "ai")]
mod tune;
#[cfg(feature = "ai")]
mod tune_cc;
#[cfg(feature = "ai")]
mod tune_patterns;

#[derive(Parser)]
#[command(
    name = "dames",
    version,
    about = "Chinese checkers and international draughts"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the web site (the default).
    #[cfg(feature = "server")]
    Serve(serve::Args),
    /// Apply the database's pending migrations and exit (apart from serving: a cluster's
    /// nodes can then start together on a ready schema).
    #[cfg(feature = "server")]
    Migrate(serve::MigrateArgs),
    /// Copy the SQLite database to a file while it is being served (online backup; a
    /// PostgreSQL database: pg_dump, docs/operations.md).
    #[cfg(feature = "server")]
    Backup(backup::Args),
    /// Chinese checkers tools: perft, legal moves.
    #[cfg(feature = "cc")]
    #[command(subcommand)]
    Cc(cc::Command),
    /// Draughts tools: perft, legal moves, endgame databases.
    #[cfg(feature = "draughts")]
    #[command(subcommand)]
    Draughts(draughts::Command),
    /// Play a match between two CPU levels and print the score.
    #[cfg(feature = "ai")]
    Selfplay(selfplay::Args),
    /// Speak the Hub protocol (version 2) on stdin/stdout: the draughts engine for GUIs.
    #[cfg(feature = "ai")]
    Hub,
    /// Load the server: held sockets, scripted games, reconnections, kill -9 (docs/performance.md).
    #[cfg(feature = "loadtest")]
    #[command(subcommand)]
    Loadtest(loadtest::Command),
    /// Play one Hub engine against another (paired openings, colours swapped) and print the
    /// score, W/D/L, Wilson interval and Elo.
    #[cfg(feature = "ai")]
    Match(hubmatch::Args),
    /// Fit the draughts evaluation on games: generate positions, read PDN, fit the weights.
    #[cfg(feature = "ai")]
    #[command(subcommand)]
    Tune(tune::Command),
    /// Fuzz every parser the network reaches (HTTP, WebSocket, moves, settings, names, headers,
    /// FEN, PDN, positions) and print inputs, time and panics (docs/security.md).
    #[cfg(feature = "server")]
    Fuzz(fuzz::Args),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    #[cfg(feature = "ai")]
    if plays_draughts(&cli) {
        draughts::egdb::install_from_env();
    }
    match cli.command {
        #[cfg(feature = "server")]
        None => serve::run(<serve::Args as Parser>::parse_from(["dames"])),
        #[cfg(not(feature = "server"))]
        None => {
            eprintln!("built without the server: pick a subcommand (see --help)");
            Ok(())
        }
        #[cfg(feature = "server")]
        Some(Command::Serve(args)) => serve::run(args),
        #[cfg(feature = "server")]
        Some(Command::Migrate(args)) => serve::migrate(&args),
        #[cfg(feature = "server")]
        Some(Command::Backup(args)) => backup::run(&args),
        #[cfg(feature = "cc")]
        Some(Command::Cc(cmd)) => cc::run(cmd),
        #[cfg(feature = "draughts")]
        Some(Command::Draughts(cmd)) => draughts::run(cmd),
        #[cfg(feature = "ai")]
        Some(Command::Selfplay(args)) => selfplay::run(args),
        #[cfg(feature = "ai")]
        Some(Command::Hub) => hub::run(),
        #[cfg(feature = "loadtest")]
        Some(Command::Loadtest(cmd)) => loadtest::run(cmd),
        #[cfg(feature = "ai")]
        Some(Command::Match(args)) => hubmatch::run(args),
        #[cfg(feature = "ai")]
        Some(Command::Tune(cmd)) => tune::run(cmd),
        #[cfg(feature = "server")]
        Some(Command::Fuzz(args)) => fuzz::run_command(args),
    }
}

/// Whether a command runs the draughts engine, and so probes the endgame tables of
/// `DAMES_EGDB` when set (the tables' own tools read their directory themselves).
#[cfg(feature = "ai")]
fn plays_draughts(cli: &Cli) -> bool {
    match &cli.command {
        #[cfg(feature = "server")]
        None | Some(Command::Serve(_)) => true,
        Some(Command::Hub | Command::Selfplay(_) | Command::Match(_)) => true,
        _ => false,
    }
}
