//! Prints the engine's perft of the variants (to regenerate `variants.perft`):
//! `cargo test --release -p chinese-checkers --test gen_variants -- --ignored --nocapture`.

mod common;

use chinese_checkers::position_file::PositionFile;
use chinese_checkers::{perft, Game, Rules, Seat};
use common::{random_position, Rng};

const VARIANTS: [(&str, &str); 17] = [
    ("2p-15-pieces", r#"{"players":2,"pieces":15}"#),
    ("3p-15-pieces", r#"{"players":3,"pieces":15}"#),
    (
        "2p-japanese",
        r#"{"players":2,"pieces":15,"rule_set":"japanese"}"#,
    ),
    (
        "3p-japanese",
        r#"{"players":3,"pieces":15,"rule_set":"japanese"}"#,
    ),
    ("2p-long-jumps", r#"{"players":2,"long_jumps":true}"#),
    ("3p-long-jumps", r#"{"players":3,"long_jumps":true}"#),
    (
        "2p-japanese-long-jumps",
        r#"{"players":2,"pieces":15,"rule_set":"japanese","long_jumps":true}"#,
    ),
    (
        "2p-no-resting",
        r#"{"players":2,"no_resting_in_foreign_camps":true}"#,
    ),
    (
        "4p-no-resting",
        r#"{"players":4,"no_resting_in_foreign_camps":true}"#,
    ),
    ("2p-2-sets", r#"{"players":2,"sets":2}"#),
    ("2p-3-sets", r#"{"players":2,"sets":3}"#),
    ("3p-2-sets", r#"{"players":3,"sets":2}"#),
    ("2p-filled", r#"{"players":2,"unused_camps":"filled"}"#),
    ("4p-filled", r#"{"players":4,"unused_camps":"filled"}"#),
    ("5p", r#"{"players":5}"#),
    (
        "2p-no-leaving-swap",
        r#"{"players":2,"no_leaving_destination":true,"swap_rule":true,"anti_blocking":false}"#,
    ),
    ("2p-forced-exit", r#"{"players":2,"forced_exit":true}"#),
];

fn print_case(id: &str, line: &str, game: &Game, max_depth: u32) {
    println!("\nid {id}\n{line}");
    for depth in 1..=max_depth {
        let n = perft(game, depth);
        println!("perft {depth} {n}");
        if n > 20_000_000 {
            break;
        }
    }
}

fn position_line(game: &Game) -> String {
    let mut file = PositionFile::from_game(game);
    file.state = None;
    format!("position {}", serde_json::to_string(&file).unwrap())
}

#[test]
#[ignore = "prints the data of variants.perft"]
fn print_variants() {
    for (id, json) in VARIANTS {
        let rules: Rules = serde_json::from_str(json).unwrap();
        print_case(
            id,
            &format!("rules {json}"),
            &Game::new(rules, Seat(0)).unwrap(),
            5,
        );
    }
    // Mid-game positions: 40 random plies from the start.
    let mut rng = Rng(2026);
    for (id, json) in VARIANTS
        .iter()
        .filter(|(id, _)| id.contains("japanese") || id.contains("long"))
    {
        let rules: Rules = serde_json::from_str(json).unwrap();
        let mut game = Game::new(rules, Seat(0)).unwrap();
        for _ in 0..40 {
            let moves = game.legal_moves_vec();
            game.play(moves[rng.below(moves.len() as u64) as usize])
                .unwrap();
        }
        print_case(&format!("{id}-midgame"), &position_line(&game), &game, 4);
    }
    // Random positions with the camp options (swaps, forced exit, no leaving, no resting).
    let options =
        r#"{"players":2,"anti_blocking":false,"swap_rule":true,"no_leaving_destination":true}"#;
    let forced = r#"{"players":3,"forced_exit":true,"no_resting_in_foreign_camps":true}"#;
    for (id, json, seed) in [
        ("2p-swap-random", options, 7),
        ("3p-forced-exit-random", forced, 11),
    ] {
        let rules: Rules = serde_json::from_str(json).unwrap();
        let game = (seed..)
            .find_map(|s| random_position(rules, s).filter(|g| !g.is_over()))
            .unwrap();
        print_case(id, &position_line(&game), &game, 4);
    }
}
