//! `dames backup`: a copy of the SQLite database taken while the server serves it (SQLite's
//! online backup, `dames_store::sqlite_backup`), to restore by starting `dames serve --db` on
//! the copy. A PostgreSQL deployment is backed up with `pg_dump` instead (docs/operations.md,
//! "Backups").

use std::path::PathBuf;
use std::time::Instant;

/// Options of `dames backup`.
#[derive(clap::Parser)]
pub struct Args {
    /// The SQLite database file to back up (the one `dames serve --db` serves; it may be
    /// serving).
    #[arg(
        long,
        visible_alias = "database",
        default_value = "dames.db",
        env = "DAMES_DB"
    )]
    pub db: PathBuf,
    /// The backup file to write (replaced if it exists, only once the copy is complete).
    #[arg(long)]
    pub to: PathBuf,
}

/// Takes the backup and prints what it copied.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let db = args.db.to_string_lossy();
    anyhow::ensure!(
        !(db.starts_with("postgres://") || db.starts_with("postgresql://")),
        "a PostgreSQL database is backed up with pg_dump (docs/operations.md, \"Backups\")"
    );
    anyhow::ensure!(
        args.db != args.to,
        "the backup must be another file than the database"
    );
    let start = Instant::now();
    let summary = dames_store::sqlite_backup(&args.db, &args.to)
        .map_err(|e| anyhow::anyhow!("backup failed: {e}"))?;
    println!(
        "backup of {} written to {}: {} rooms, {} pages, {} bytes, in {} ms",
        args.db.display(),
        args.to.display(),
        summary.rooms,
        summary.pages,
        summary.bytes,
        start.elapsed().as_millis()
    );
    Ok(())
}
