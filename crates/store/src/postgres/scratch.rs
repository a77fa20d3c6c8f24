//! A database of its own for one test or one load run, on the PostgreSQL server named by
//! `DAMES_TEST_POSTGRES` (default `postgres://postgres@127.0.0.1:5432`): created with a random
//! name, dropped when the [`ScratchDatabase`] is, so that tests run in parallel on one server.

use postgres::{Client, NoTls};

use crate::error::StoreError;

/// The server tests use when `DAMES_TEST_POSTGRES` is not set.
pub const DEFAULT_TEST_SERVER: &str = "postgres://postgres@127.0.0.1:5432";

/// A database created for a test, dropped with this value.
#[derive(Debug)]
pub struct ScratchDatabase {
    server: String,
    name: String,
}

impl ScratchDatabase {
    /// Creates an empty database with a random name on the test server.
    ///
    /// # Errors
    /// If the server cannot be reached or refuses.
    pub fn create() -> Result<Self, StoreError> {
        // The synchronous client runs a runtime of its own: never on an async one's thread.
        std::thread::spawn(Self::create_here)
            .join()
            .unwrap_or_else(|_| Err(StoreError::Failed("creating the database panicked".into())))
    }

    fn create_here() -> Result<Self, StoreError> {
        let server = std::env::var("DAMES_TEST_POSTGRES")
            .unwrap_or_else(|_| DEFAULT_TEST_SERVER.to_owned())
            .trim_end_matches('/')
            .to_owned();
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).map_err(|e| StoreError::Failed(e.to_string()))?;
        let name: String = std::iter::once("dames_test_".to_owned())
            .chain(bytes.iter().map(|b| format!("{b:02x}")))
            .collect();
        let mut admin = Client::connect(&format!("{server}/postgres"), NoTls)?;
        // The name is ours (letters, digits, underscores): no quoting issue.
        admin.batch_execute(&format!("CREATE DATABASE {name}"))?;
        Ok(Self { server, name })
    }

    /// The URL of the database (`postgres://…/dames_test_…`).
    pub fn url(&self) -> String {
        format!("{}/{}", self.server, self.name)
    }
}

impl Drop for ScratchDatabase {
    fn drop(&mut self) {
        let (admin, name) = (format!("{}/postgres", self.server), self.name.clone());
        let dropped = std::thread::spawn(move || {
            // FORCE: connections a test left open (a server still stopping) do not keep it.
            let mut client = Client::connect(&admin, NoTls)?;
            client.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            eprintln!(
                "the test database {} was not dropped: {dropped:?}",
                self.name
            );
        }
    }
}
