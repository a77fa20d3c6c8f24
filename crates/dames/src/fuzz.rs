//! `dames fuzz`: feeds generated and mutated inputs to every parser the network reaches — HTTP
//! requests through the router, WebSocket messages through a session, move inputs, settings,
//! names, headers, push endpoints, FEN, PDN and position files — and prints the inputs run, the
//! time and the panics of each target (dames_fuzz, docs/security.md "Fuzzing"). Exits
//! with an error if anything panicked or answered other than a typed error.

use std::io::Write;
use std::time::Instant;

use dames_fuzz::{run, Options};

/// Options of `dames fuzz`.
#[derive(clap::Parser)]
pub struct Args {
    /// Inputs in all, shared among the targets.
    #[arg(long, default_value_t = 10_000_000)]
    pub inputs: u64,
    /// Seed of the generator (the same seed runs the same inputs).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only the targets whose name contains this (e.g. `http`, `fen`).
    #[arg(long)]
    pub only: Option<String>,
}

pub fn run_command(args: Args) -> anyhow::Result<()> {
    let options = Options {
        inputs: args.inputs,
        seed: args.seed,
        only: args.only,
    };
    println!(
        "fuzzing {} inputs, seed {}{}",
        options.inputs,
        options.seed,
        options
            .only
            .as_deref()
            .map(|o| format!(", targets matching {o:?}"))
            .unwrap_or_default()
    );
    let started = Instant::now();
    let mut slice = 0;
    let report = run(&options, |report| {
        slice += 1;
        eprint!(
            "\r{slice:>2}/20  {} inputs  {:.0} s  {} panics  {} failures ",
            report.inputs(),
            started.elapsed().as_secs_f64(),
            report.panics(),
            report.failures()
        );
        let _ = std::io::stderr().flush();
    });
    eprintln!();
    print!("{report}");
    println!("wall time {:.1} s", started.elapsed().as_secs_f64());
    if report.clean() {
        Ok(())
    } else {
        anyhow::bail!(
            "{} panics and {} failures",
            report.panics(),
            report.failures()
        )
    }
}
