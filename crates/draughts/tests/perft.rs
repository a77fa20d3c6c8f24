//! Perft against the published counts of `tests/data/perft.txt` (sources cited there).

use draughts::{parse_fen, perft, Board, Brazilian, Canadian, International, Position, Variant};

/// Counts above this run only with `cargo test -- --ignored` (or in the benchmark).
const QUICK_LIMIT: u64 = 12_000_000;

struct Case {
    id: String,
    variant: Variant,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    let mut cases: Vec<Case> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').expect("key value");
        match key {
            "id" => cases.push(Case {
                id: value.to_string(),
                variant: Variant::International,
                fen: String::new(),
                counts: Vec::new(),
            }),
            "variant" => cases.last_mut().unwrap().variant = value.parse().unwrap(),
            "fen" => cases.last_mut().unwrap().fen = value.to_string(),
            "perft" => {
                let (d, n) = value.split_once(' ').unwrap();
                let case = cases.last_mut().unwrap();
                case.counts.push((d.parse().unwrap(), n.parse().unwrap()));
            }
            _ => panic!("unknown line {line:?}"),
        }
    }
    cases
}

fn check<B: Board>(case: &Case, deep: bool) {
    let pos: Position<B> = parse_fen(&case.fen).unwrap();
    for &(depth, expected) in &case.counts {
        if (expected > QUICK_LIMIT) != deep {
            continue;
        }
        assert_eq!(
            perft(&pos, depth, true),
            expected,
            "{} perft {depth}",
            case.id
        );
        if !deep && expected < 2_000_000 {
            assert_eq!(
                perft(&pos, depth, false),
                expected,
                "{} perft {depth} no bulk",
                case.id
            );
        }
    }
}

fn run(deep: bool) {
    let cases = cases();
    assert_eq!(cases.len(), 7);
    for case in &cases {
        match case.variant {
            Variant::Brazilian => check::<Brazilian>(case, deep),
            Variant::International => check::<International>(case, deep),
            Variant::Canadian => check::<Canadian>(case, deep),
        }
    }
}

#[test]
fn perft_published_counts() {
    run(false);
}

#[test]
#[ignore = "minutes of computation: cargo test -p draughts --release -- --ignored"]
fn perft_published_counts_deep() {
    run(true);
}

#[test]
fn start_fens_are_the_initial_positions() {
    for case in cases().iter().filter(|c| c.id.ends_with("-start")) {
        let ok = match case.variant {
            Variant::Brazilian => parse_fen::<Brazilian>(&case.fen).unwrap() == Position::initial(),
            Variant::International => {
                parse_fen::<International>(&case.fen).unwrap() == Position::initial()
            }
            Variant::Canadian => parse_fen::<Canadian>(&case.fen).unwrap() == Position::initial(),
        };
        assert!(ok, "{}", case.id);
    }
}

#[test]
fn divide_adds_up_to_perft() {
    let pos: Position<International> =
        parse_fen("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38").unwrap();
    for depth in 1..=6 {
        let parts = draughts::divide(&pos, depth);
        assert_eq!(parts.len(), pos.legal_moves().len());
        let sum: u64 = parts.iter().map(|(_, n)| n).sum();
        assert_eq!(sum, perft(&pos, depth, true));
    }
}
