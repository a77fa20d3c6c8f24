//! The one error type of the load generator: what stopped a run before it could measure.
//! (What goes wrong *during* a run — a refused move, a dropped socket — is counted in the
//! report instead.)

/// Why a run could not be carried out.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The target is not on this machine: the load generator only talks to loopback addresses.
    #[error(
        "not a loopback URL: {0} (the load generator only talks to 127.0.0.1, ::1 or localhost)"
    )]
    NotLoopback(String),
    /// The server could not be started, or died, or did not stop.
    #[error("server: {0}")]
    Server(String),
    /// An HTTP answer that the run cannot go on without was an error.
    #[error("{0}")]
    Api(String),
    /// An HTTP request failed at the transport level.
    #[error("http: {0}")]
    Http(#[from] reqwest::Error),
    /// A WebSocket could not be opened.
    #[error("websocket: {0}")]
    Ws(#[from] tokio_tungstenite::tungstenite::Error),
    /// The crash self-test could not change the database.
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    /// A file, a pipe or a process.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    /// Something did not happen in time.
    #[error("timed out: {0}")]
    Timeout(String),
    /// The options ask for something impossible.
    #[error("{0}")]
    Usage(String),
}

/// A result of the load generator.
pub type Result<T, E = Error> = std::result::Result<T, E>;
