//! `dames selfplay …`: matches between CPU levels.

/// Options of `dames selfplay`.
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("not yet implemented")
}
