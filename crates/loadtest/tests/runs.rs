//! Each run against a real server started in this process on a random port with a fresh
//! database (the crash run, which needs the `dames` binary to kill, is tested in
//! crates/dames/tests/loadtest.rs).

use std::time::Duration;

use dames_loadtest::{connections, play, reconnect, GameKind, RunReport, Target};
use dames_server::{AppState, Config};

/// A server on 127.0.0.1 without rate limits; its address and the directory of its database.
async fn server() -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::new(dir.path().join("dames.db"));
    config.limits.enabled = false;
    let state = AppState::open(config).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        dames_server::serve(listener, state, std::future::pending())
            .await
            .unwrap();
    });
    (format!("http://{addr}"), dir)
}

fn target(base: &str) -> Target {
    Target::running(base, Some(std::process::id())).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_commits_moves_of_both_games_and_measures_both_latencies() {
    let (base, _dir) = server().await;
    let config = play::Config {
        target: target(&base),
        games: 2,
        kinds: vec![GameKind::Cc, GameKind::Draughts],
        warmup: Duration::from_millis(200),
        duration: Duration::from_secs(2),
        pace: None,
        seed: Some(7),
    };
    let report = play::run(&config).await.unwrap();
    assert_eq!(report.failures(), 0, "{report}");
    assert_eq!(report.games.values().sum::<usize>(), 4);
    assert!(report.moves >= 20, "{report}");
    let ack = report.ack.unwrap();
    let opponent = report.opponent.unwrap();
    // Every committed move was acknowledged to its sender, and nearly all of them reached the
    // opponent inside the window too.
    assert_eq!(ack.count as u64, report.moves, "{report}");
    assert!(opponent.count as u64 + 4 >= report.moves, "{report}");
    assert!(ack.p50_ms <= ack.p99_ms && ack.p99_ms <= ack.max_ms);
    assert!(report.server_cpu_pct.is_some() && report.server_rss_kib.is_some());
    assert!(report.to_string().contains("moves/s"));
    // The median of identical runs is that run (the report survives its JSON form).
    let median = play::Report::median(&[report.clone(), report.clone(), report.clone()]).unwrap();
    assert_eq!(median.to_json(), report.to_json());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_at_a_pace_moves_each_game_about_once_per_period() {
    let (base, _dir) = server().await;
    let config = play::Config {
        target: target(&base),
        games: 3,
        kinds: vec![GameKind::Draughts],
        warmup: Duration::from_millis(500),
        duration: Duration::from_secs(2),
        pace: Some(Duration::from_millis(250)),
        seed: Some(1),
    };
    let report = play::run(&config).await.unwrap();
    assert_eq!(report.failures(), 0, "{report}");
    // 3 games × 2 s / 0.25 s = 24 moves, give or take the window's edges.
    assert!((18..=30).contains(&report.moves), "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_are_held_and_answer_a_ping_at_the_end() {
    let (base, _dir) = server().await;
    let config = connections::Config {
        target: target(&base),
        sockets: 60,
        rooms: 4,
        hold: Duration::from_millis(500),
        concurrency: 16,
    };
    let report = connections::run(&config).await.unwrap();
    assert_eq!(
        (report.opened, report.alive, report.failures()),
        (60, 60, 0),
        "{report}"
    );
    assert_eq!(report.connect.unwrap().count, 60);
    assert!(report.server_kib_per_socket.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnect_counts_connections_and_the_events_they_store() {
    let (base, _dir) = server().await;
    let config = reconnect::Config {
        target: target(&base),
        games: 2,
        kind: GameKind::Cc,
        duration: Duration::from_secs(1),
    };
    let report = reconnect::run(&config).await.unwrap();
    assert_eq!(report.failures(), 0, "{report}");
    assert_eq!(report.clients, 4);
    assert!(report.connections >= 8, "{report}");
    assert!(report.versions_per_connection.is_some());
}

#[tokio::test]
async fn a_target_off_this_machine_is_refused() {
    assert!(Target::running("http://192.0.2.1:8080", None).is_err());
    let config = play::Config {
        target: Target::running("http://127.0.0.1:1", None).unwrap(),
        ..play::Config::default()
    };
    // Nothing listens on port 1: the set-up fails with an error, not a hang.
    assert!(play::run(&config).await.is_err());
}
