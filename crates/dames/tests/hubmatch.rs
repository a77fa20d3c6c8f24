//! `dames match` as a process: two `dames hub` subprocesses play a paired match, the runner
//! prints every game and the score, and writes the games as PDN.
#![cfg(feature = "ai")]

use std::process::Command;

#[test]
fn a_match_between_two_hub_engines_is_played_and_scored() {
    let bin = env!("CARGO_BIN_EXE_dames");
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("games.pdn");
    let output = Command::new(bin)
        .args(["match", "--games", "2", "--depth", "2", "--seed", "5"])
        .args([
            "--a",
            &format!("'{bin}' hub"),
            "--b",
            &format!("'{bin}' hub"),
        ])
        .args(["--b-param", "level=normal", "--pdn"])
        .arg(&pdn)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        text.contains("2 games on 1 openings, level depth=2"),
        "{text}"
    );
    // The same opening with the colours swapped.
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{text}");
    assert!(
        games[0].contains("A white") && games[1].contains("A black"),
        "{text}"
    );
    let opening = |l: &str| l.split('"').nth(1).map(String::from);
    assert_eq!(opening(games[0]), opening(games[1]));
    assert!(text.contains("A scores"), "{text}");
    assert!(text.contains("95 % CI"), "{text}");
    assert!(text.contains("Elo difference A − B"), "{text}");
    let pdn = std::fs::read_to_string(pdn).unwrap();
    assert_eq!(pdn.matches("[Round").count(), 2, "{pdn}");
    assert!(pdn.contains("[White \"Dames"), "{pdn}");
}
