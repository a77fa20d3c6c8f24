//! `dames loadtest faults` as CI runs it, one test per fault (docs/cluster.md, "Faults"): two
//! nodes playing while their Redis restarts, while their PostgreSQL crashes and restarts, while
//! one of them is cut off from Redis (not from PostgreSQL); one node playing while its SQLite
//! disk is full; three nodes behind nginx stopped and started again in turn (a deploy). Each run
//! starts its own Redis, PostgreSQL, file system and nginx, so that breaking
//! them disturbs no other test. In every case: no acknowledged move lost, none applied twice,
//! no player left hanging, and every game moves again by itself once the fault ends.
#![cfg(feature = "loadtest")]

use std::process::Command;

use serde_json::Value;

/// Runs `dames loadtest faults --fault {fault} --json` on a small load: exit code and report.
fn faults(fault: &str) -> (Option<i32>, Value) {
    faults_with(fault, &["--games", "6", "--before", "60"])
}

/// [`faults`] with these `--games` and `--before`.
fn faults_with(fault: &str, load: &[&str]) -> (Option<i32>, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_dames"))
        .args(["loadtest", "faults", "--json", "--fault", fault])
        .args(load)
        .args(["--down", "3s", "--after", "1s"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report = serde_json::from_str(&stdout).unwrap_or_else(|_| {
        panic!(
            "no JSON report ({}): {stdout}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), report)
}

/// What every fault must show.
fn assert_survived(code: Option<i32>, report: &Value) {
    assert_eq!(report["losses"], Value::Array(vec![]), "{report:#}");
    assert_eq!(report["violations"], Value::Array(vec![]), "{report:#}");
    assert_eq!(report["players_failed"], 0, "{report:#}");
    assert_eq!(
        report["games_recovered"], report["games_live"],
        "{report:#}"
    );
    assert!(report["games_live"].as_u64().unwrap() > 0, "{report:#}");
    assert!(report["recovery_ms"].is_number(), "{report:#}");
    assert!(report["moves_before"].as_u64().unwrap() >= 60, "{report:#}");
    assert!(report["moves_after"].as_u64().unwrap() > 0, "{report:#}");
    assert_eq!(code, Some(0), "{report:#}");
}

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

#[test]
fn redis_killed_and_restarted_under_load_loses_nothing() {
    assert!(
        have("redis-server"),
        "redis-server is needed (scripts/test installs it)"
    );
    let (code, report) = faults("redis-restart");
    assert_survived(code, &report);
}

#[test]
fn postgresql_crashed_and_restarted_under_load_loses_nothing() {
    assert!(
        have("psql"),
        "PostgreSQL is needed (scripts/test installs it)"
    );
    let (code, report) = faults("postgres-restart");
    assert_survived(code, &report);
    // The database was really gone: moves were refused meanwhile, with a typed error.
    assert!(
        report["errors"]["internal"].as_u64().unwrap_or(0) > 0,
        "{report:#}"
    );
}

#[test]
fn a_node_cut_off_from_redis_loses_nothing_and_catches_up() {
    assert!(
        have("redis-server"),
        "redis-server is needed (scripts/test installs it)"
    );
    let (code, report) = faults("redis-cut");
    assert_survived(code, &report);
}

#[test]
fn a_full_disk_refuses_moves_with_an_error_and_loses_nothing() {
    if !is_root() {
        // CI runs as root (the README's test command); a tmpfs cannot be mounted otherwise.
        eprintln!("skipped: mounting a tmpfs needs root");
        return;
    }
    let (code, report) = faults("disk-full");
    assert_survived(code, &report);
    assert!(
        report["errors"]["internal"].as_u64().unwrap_or(0) > 0,
        "{report:#}"
    );
}

#[test]
fn three_nodes_behind_nginx_restarted_in_turn_lose_nothing_and_everyone_comes_back() {
    assert!(
        have("redis-server") && have("psql"),
        "PostgreSQL and redis-server are needed (scripts/test installs them)"
    );
    // 60 games, 120 players: enough for the deploy's old nginx site (a node marked failed for
    // good while its probe's WebSocket stayed open) to answer 502 to most reconnections and
    // lose 113 of the 120 players; 6 games hid it.
    let (code, report) = faults_with("rolling-restart", &["--games", "30", "--before", "200"]);
    assert_survived(code, &report);
    assert_eq!(report["nodes"], 3, "{report:#}");
    // Each node stopped cleanly (the run fails otherwise) and told its sockets to reconnect:
    // the players came back through nginx to a node that was up, at the first try.
    assert!(report["reconnections"].as_u64().unwrap() > 0, "{report:#}");
    let causes: Vec<&String> = report["player_failures"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(causes, ["closed: restarting"], "{report:#}");
    assert!(report["reconnect"]["p99_ms"].is_number(), "{report:#}");
}
