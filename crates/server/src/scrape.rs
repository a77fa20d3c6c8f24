//! The metrics address (`dames serve --metrics-listen`, off by default, never the public port):
//! `GET /metrics` answers the counters and histograms of [`crate::metrics`] with the gauges read
//! from the node's state (sockets open, rooms in memory, the CPU pool, the fan-out's catch-ups),
//! in the Prometheus text exposition format. docs/operations.md lists them.

use std::fmt::Write as _;

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::Router;
use tokio::net::TcpListener;

use crate::metrics::{counter_line, gauge_line, METRICS};
use crate::state::AppState;

/// The content type of the text exposition format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Everything `GET /metrics` answers for the node of `state`: [`METRICS`] and the gauges read
/// from the state.
pub fn render(state: &AppState) -> String {
    let mut out = METRICS.render_counters();
    // Every session holds a receiver of `sessions` until it has ended.
    let sockets = state.sessions.receiver_count();
    gauge_line(
        &mut out,
        "dames_websockets_open",
        "WebSocket sessions open.",
        sockets,
    );
    let rooms = state.rooms.in_memory();
    gauge_line(
        &mut out,
        "dames_rooms_in_memory",
        "Rooms held in memory.",
        rooms,
    );
    let (waiting, running) = state.rooms.cpu_pool();
    gauge_line(
        &mut out,
        "dames_cpu_queue",
        "CPU searches (CPU turns and hints) waiting for a worker.",
        waiting,
    );
    gauge_line(
        &mut out,
        "dames_cpu_running",
        "CPU searches computing now.",
        running,
    );
    gauge_line(
        &mut out,
        "dames_cpu_workers",
        "CPU searches that may compute at once (--cpu-workers).",
        state.config.cpu_workers,
    );
    let applied = state.rooms.catch_ups().applied();
    counter_line(
        &mut out,
        "dames_fanout_applied_total",
        "Changes of other nodes applied to a room held here from their fan-out message alone.",
        applied,
    );
    let clustered = u8::from(state.cluster.is_some());
    gauge_line(
        &mut out,
        "dames_cluster_node",
        "1 if this node shares its database with others through Redis, else 0.",
        clustered,
    );
    let _ = writeln!(
        out,
        "# HELP dames_build_info The version of this node.\n# TYPE dames_build_info gauge\n\
         dames_build_info{{version=\"{}\"}} 1",
        env!("CARGO_PKG_VERSION")
    );
    out
}

async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, CONTENT_TYPE)], render(&state))
}

/// The router of the metrics address: `GET /metrics` and nothing else.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/metrics", axum::routing::get(metrics))
        .with_state(state)
}

/// Serves [`router`] on `listener` (the metrics address, never the public one) until the
/// process ends. Scrapes are few (and the address private): no limits beyond the framework's.
///
/// # Errors
/// If the listener fails.
pub async fn serve(listener: TcpListener, state: AppState) -> std::io::Result<()> {
    axum::serve(listener, router(state)).await
}
