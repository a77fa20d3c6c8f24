//! `dames hub`: the draughts engine over the Hub protocol.

pub fn run() -> anyhow::Result<()> {
    anyhow::bail!("not yet implemented")
}
