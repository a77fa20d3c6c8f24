//! The position file parser: round trips, typed errors, and fuzzing (a proptest-based fuzz
//! target that runs in the test suite): malformed input is an error, never a panic.

use chinese_checkers::{Game, PositionError, PositionFile, RuleSet, Rules, RulesError, Seat};
use proptest::prelude::*;

const SAMPLE: &str = r#"{
  "rules": {"players": 2, "pieces": 15, "rule_set": "japanese"},
  "to_move": 1,
  "seats": [
    [[4,4,-8], [3,4,-7], {"at": [4,3,-7], "king": true}],
    [[-4,-4,8], [0,0,0]]
  ]
}"#;

fn valid_files() -> Vec<String> {
    let mut files = vec![SAMPLE.to_string(), r#"{"seats":[[],[]]}"#.to_string()];
    for players in 2..=6 {
        let rules = Rules {
            players,
            ..Rules::default()
        };
        files.push(Game::new(rules, Seat(0)).unwrap().to_position_json());
    }
    let two_sets = Rules {
        players: 3,
        sets: 2,
        unused_camps: chinese_checkers::UnusedCamps::Filled,
        ..Rules::default()
    };
    files.push(Game::new(two_sets, Seat(2)).unwrap().to_position_json());
    files
}

#[test]
fn sample_file_parses() {
    let game = Game::from_position_json(SAMPLE).unwrap();
    assert_eq!(game.to_move(), Seat(1));
    assert_eq!(game.rules().rule_set, RuleSet::Japanese);
    assert_eq!(game.seat_pieces_of(Seat(0)).count(), 3);
    assert_eq!(game.kings().count(), 1);
    let back = Game::from_position_json(&game.to_position_json()).unwrap();
    assert_eq!(back, game);
}

#[test]
fn game_serde_round_trips() {
    let mut game = Game::new(
        Rules {
            players: 3,
            ..Rules::default()
        },
        Seat(1),
    )
    .unwrap();
    for _ in 0..10 {
        let mv = game.legal_moves_vec()[0];
        game.play(mv).unwrap();
    }
    let json = serde_json::to_string(&game).unwrap();
    let back: Game = serde_json::from_str(&json).unwrap();
    assert_eq!(back, game);
}

#[test]
fn errors_say_what_is_wrong() {
    let cases = [
        ("{", "Json"),
        (r#"{"seats":[[]]}"#, "SeatCount"),
        (r#"{"to_move":2,"seats":[[],[]]}"#, "ToMove"),
        (r#"{"seats":[[[0,0,0],[0,0,0]],[]]}"#, "TwoPiecesOnOneHole"),
        (r#"{"seats":[[[9,0,-9]],[]]}"#, "Json"),
        (r#"{"seats":[[{"at":[0,0,0],"king":true}],[]]}"#, "BadKing"),
        (r#"{"seats":[[{"at":[0,0,0],"set":1}],[]]}"#, "NoSuchSet"),
        (r#"{"rules":{"players":9},"seats":[]}"#, "Rules"),
        (r#"{"seats":[[],[]],"extra":1}"#, "Json"),
    ];
    for (text, kind) in cases {
        let err = Game::from_position_json(text).unwrap_err();
        assert!(format!("{err:?}").starts_with(kind), "{text}: {err:?}");
        assert!(!err.to_string().is_empty());
    }
    let eleven: Vec<String> = chinese_checkers::Camp::new(0)
        .unwrap()
        .cells(15)
        .take(11)
        .map(|c| format!("{:?}", c.to_cube()))
        .collect();
    let text = format!(r#"{{"seats":[[{}],[]]}}"#, eleven.join(","));
    assert!(matches!(
        Game::from_position_json(&text),
        Err(PositionError::TooManyPieces { seat: 0, count: 11 })
    ));
    let rules = Game::from_position_json(r#"{"rules":{"swap_rule":true},"seats":[[],[]]}"#);
    assert_eq!(
        rules.unwrap_err(),
        PositionError::Rules(RulesError::SwapRuleWithAntiBlocking)
    );
}

fn mutate(text: &str, edits: &[(usize, u8, u8)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    const ALPHABET: &[u8] = b"{}[],:\"-0123456789 truefalsnkigat_xyz";
    for &(pos, kind, ch) in edits {
        if bytes.is_empty() {
            break;
        }
        let pos = pos % bytes.len();
        let ch = ALPHABET[usize::from(ch) % ALPHABET.len()];
        match kind % 3 {
            0 => bytes[pos] = ch,
            1 => bytes.insert(pos, ch),
            _ => drop(bytes.remove(pos)),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Random bytes never make the parser panic.
    #[test]
    fn fuzz_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = Game::from_position_json(&String::from_utf8_lossy(&bytes));
    }

    /// Random edits of valid files never make the parser panic, and whatever parses is a
    /// consistent game that plays on.
    #[test]
    fn fuzz_mutated_files(pick in any::<usize>(), edits in proptest::collection::vec(any::<(usize, u8, u8)>(), 1..6)) {
        let files = valid_files();
        let text = mutate(&files[pick % files.len()], &edits);
        if let Ok(game) = Game::from_position_json(&text) {
            game.check_invariants().unwrap();
            let moves = game.legal_moves_vec();
            if let Some(&mv) = moves.first() {
                let mut next = game;
                next.play(mv).unwrap();
            }
        }
    }

    /// Random numbers in the state and pieces never make the parser panic.
    #[test]
    fn fuzz_state_values(turns in any::<[u16; 2]>(), places in any::<[u8; 2]>(), quiet in any::<u32>(), x in -10i32..10, y in -10i32..10) {
        let text = format!(
            r#"{{"seats":[[[{x},{y},{}]],[[0,0,0]]],"state":{{"turns":[{},{}],"places":[{},{}],"quiet_turns":{quiet}}}}}"#,
            -x - y, turns[0], turns[1], places[0], places[1]
        );
        if let Ok(mut game) = Game::from_position_json(&text) {
            game.check_invariants().unwrap();
            if let Some(&mv) = game.legal_moves_vec().first() {
                game.play(mv).unwrap();
            }
        }
    }
}

#[test]
fn position_file_struct_round_trips() {
    for text in valid_files() {
        let file = PositionFile::from_json(&text).unwrap();
        let again = PositionFile::from_json(&serde_json::to_string(&file).unwrap()).unwrap();
        assert_eq!(again, file);
    }
}
