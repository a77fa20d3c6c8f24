//! Fuzzing the text parsers with proptest: random bytes, random strings built from the formats'
//! own characters, and mutations of valid inputs. Every input must give a value or a typed
//! error, never a panic.

use draughts::{parse_fen, read_pdn, Brazilian, Canadian, Game, International, Position, Rules};
use proptest::prelude::*;

const VALID_FENS: [&str; 4] = [
    "W:W31-50:B1-20",
    "W:W31,32,K45:B1,2,K10",
    "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
    "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
];

const VALID_PDN: &str = r#"[Event "Fuzz"]
[GameType "20"]
[FEN "W:W31-50:B1-20"]
1. 32-28 19-23 2. 28x19 14x23 {comment} 3. 37-32 (3. 33-28 23x32) 10-14 $1 4. 34-29! 23x34 5. 40x29 *
"#;

/// Text from the characters these formats use.
fn format_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(
            "WBKwbk0123456789:,-x.\" []{}()*;$!?\n\tHF/\\é"
                .chars()
                .collect::<Vec<_>>(),
        ),
        0..80,
    )
    .prop_map(|v| v.into_iter().collect())
}

/// `text` with some characters deleted, replaced or inserted.
fn mutate(text: &str, edits: &[(usize, u8, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(at, kind, c) in edits {
        if chars.is_empty() {
            chars.push(c);
            continue;
        }
        let i = at % chars.len();
        match kind % 3 {
            0 => {
                chars.remove(i);
            }
            1 => chars[i] = c,
            _ => chars.insert(i, c),
        }
    }
    chars.into_iter().collect()
}

fn edits() -> impl Strategy<Value = Vec<(usize, u8, char)>> {
    prop::collection::vec(
        (
            any::<usize>(),
            any::<u8>(),
            prop::sample::select("WBK0159:,-x.\"[]{}() ".chars().collect::<Vec<_>>()),
        ),
        1..6,
    )
}

/// Every parser on one input.
fn parse_everything(text: &str) {
    let _ = parse_fen::<International>(text);
    let _ = parse_fen::<Brazilian>(text);
    let _ = parse_fen::<Canadian>(text);
    let start = Position::<International>::initial();
    let _ = start.parse_move(text);
    let mut game = Game::new(Rules::default());
    let _ = game.play_notation(text);
    if let Ok(games) = read_pdn(text) {
        for g in &games {
            let _ = Game::from_pdn(g, Rules::default());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        parse_everything(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn format_like_text_never_panics(text in format_text()) {
        parse_everything(&text);
    }

    #[test]
    fn mutated_fens_never_panic(i in 0..VALID_FENS.len(), e in edits()) {
        let text = mutate(VALID_FENS[i], &e);
        if let Ok(p) = parse_fen::<International>(&text) {
            // Whatever parses writes back to something that parses to the same position.
            prop_assert_eq!(parse_fen::<International>(&draughts::to_fen(&p)).unwrap(), p);
        }
        parse_everything(&text);
    }

    #[test]
    fn mutated_pdn_never_panics(e in edits()) {
        parse_everything(&mutate(VALID_PDN, &e));
    }

    #[test]
    fn mutated_moves_never_panic(e in edits()) {
        let pos = Position::<International>::initial();
        let _ = pos.parse_move(&mutate("32-28", &e));
        let _ = pos.parse_move(&mutate("28x19x10", &e));
    }
}

#[test]
fn the_valid_inputs_are_valid() {
    for fen in VALID_FENS {
        parse_fen::<International>(fen).unwrap();
    }
    let games = read_pdn(VALID_PDN).unwrap();
    let game = Game::from_pdn(&games[0], Rules::default()).unwrap();
    assert_eq!(game.ply(), 9);
}
