//! `dames serve`: the web site.

/// Options of `dames serve`.
#[derive(clap::Parser)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", env = "DAMES_ADDR")]
    pub addr: String,
}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("not yet implemented")
}
