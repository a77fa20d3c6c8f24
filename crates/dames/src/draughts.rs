//! `dames draughts …`: Draughts tools.

/// Draughts subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Count leaf move sequences from a position.
    Perft,
}

pub fn run(_cmd: Command) -> anyhow::Result<()> {
    anyhow::bail!("not yet implemented")
}
