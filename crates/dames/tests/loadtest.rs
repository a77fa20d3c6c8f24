//! `dames loadtest crash` as CI runs it: 50 games, `kill -9` three times under load, every
//! acknowledged move still there and resent moves applied at most once; and the self-test, which
//! deletes a committed move while the server is down and must report exactly that loss; and two
//! nodes on one PostgreSQL database, the seats of each game spread over them, each node killed
//! once in turn.
#![cfg(feature = "loadtest")]

use std::process::Command;

use serde_json::Value;

/// Runs `dames loadtest crash {args} --json`: exit code and report.
fn crash(args: &[&str]) -> (Option<i32>, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_dames"))
        .args(["loadtest", "crash", "--json"])
        .args(args)
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

#[test]
fn every_acknowledged_move_survives_three_kills_under_load() {
    let (code, report) = crash(&["--games", "25", "--kills", "3"]);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["kills"], 3, "{report:#}");
    assert_eq!(report["checks"], 4, "{report:#}");
    assert_eq!(report["losses"], Value::Array(vec![]));
    assert_eq!(report["violations"], Value::Array(vec![]));
    assert_eq!(report["players_failed"], 0);
    // Three kills at 100–400 acknowledged moves apart: the games were really under way.
    assert!(report["moves_acked"].as_u64().unwrap() >= 300, "{report:#}");
}

#[test]
fn the_self_test_reports_the_move_it_deleted() {
    let (code, report) = crash(&["--games", "5", "--kills", "1", "--self-test"]);
    assert_eq!(code, Some(3), "{report:#}");
    let planted = &report["planted"];
    let losses = report["losses"].as_array().unwrap();
    assert_eq!(losses.len(), 1, "{report:#}");
    assert_eq!(
        (&losses[0]["code"], &losses[0]["ply"], &losses[0]["id"]),
        (&planted["code"], &planted["ply"], &planted["id"])
    );
    assert_eq!(losses[0]["found"], Value::Null);
}

/// The two seats of each game on different nodes: every move crosses through the fan-out, and a
/// node killed between its commit and its message leaves the survivor to catch up from the store
/// (live/fanout.rs); each game is read back from its host's node, survivor or not.
#[test]
fn two_nodes_on_postgresql_lose_no_acknowledged_move_when_one_is_killed() {
    let pg = dames_store::ScratchDatabase::create().unwrap();
    let redis =
        std::env::var("DAMES_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
    let url = pg.url();
    let (code, report) = crash(&[
        "--games",
        "10",
        "--kills",
        "2",
        "--nodes",
        "2",
        "--spread",
        "seats",
        "--database",
        &url,
        "--redis",
        &redis,
    ]);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["kills"], 2, "{report:#}");
    assert_eq!(report["losses"], Value::Array(vec![]));
    assert_eq!(report["violations"], Value::Array(vec![]));
    assert_eq!(report["players_failed"], 0, "{report:#}");
    assert!(report["moves_acked"].as_u64().unwrap() >= 200, "{report:#}");
}

/// Runs `dames loadtest pair {args} --json`: exit code and report.
fn pair(args: &[&str]) -> (Option<i32>, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_dames"))
        .args(["loadtest", "pair", "--json"])
        .args(args)
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

/// What every clean `pair` run shows: everybody matched, cancelled or listed as waiting, nobody
/// twice, nobody lost, pairing fast once a partner is there.
fn assert_clean_pairing(code: Option<i32>, report: &Value, seekers: u64) {
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["paired_twice"], 0, "{report:#}");
    assert_eq!(report["lost"], 0, "{report:#}");
    let accounted = ["matched", "cancelled", "waiting"]
        .iter()
        .map(|k| report[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(accounted, seekers, "{report:#}");
    assert!(report["rooms"].as_u64().unwrap() >= 20, "{report:#}");
    // A generous bound for a loaded CI machine; docs/performance.md has the measured figures.
    let p99 = report["time_to_pair"]["p99_ms"].as_f64().unwrap();
    assert!(p99 < 1000.0, "{report:#}");
}

/// Quick pairing on one node: 200 browsers over 2 s in random pools, some cancelling.
#[test]
fn seekers_on_one_node_pair_once_and_none_is_lost() {
    let (code, report) = pair(&["--seekers", "200", "--over", "2s", "--settle", "1s"]);
    assert_clean_pairing(code, &report, 200);
    assert_eq!(report["nodes"], 1);
}

/// The same across two nodes on PostgreSQL and Redis: the seekers on the nodes in turn, so most
/// groups are made of people on different nodes.
#[test]
fn seekers_on_two_nodes_pair_once_and_none_is_lost() {
    let pg = dames_store::ScratchDatabase::create().unwrap();
    let redis =
        std::env::var("DAMES_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
    let url = pg.url();
    let (code, report) = pair(&[
        "--seekers",
        "200",
        "--over",
        "2s",
        "--settle",
        "1s",
        "--nodes",
        "2",
        "--database",
        &url,
        "--redis",
        &redis,
    ]);
    assert_clean_pairing(code, &report, 200);
    assert_eq!(report["nodes"], 2);
}
