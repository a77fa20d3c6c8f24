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
