//! Perft cases from the data files `tests/*.perft` (format described in `start.perft`).

use chinese_checkers::{perft, Game, PositionFile, Rules, Seat};

/// Counts up to this run in every test run; larger ones are `--ignored`.
const QUICK_LIMIT: u64 = 5_000_000;

struct Case {
    id: String,
    game: Game,
    depths: Vec<(u32, u64)>,
}

fn load(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut id = String::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => id = rest.to_string(),
            "rules" => {
                let rules: Rules =
                    serde_json::from_str(rest).unwrap_or_else(|e| panic!("{id}: {e}"));
                let game = Game::new(rules, Seat(0)).unwrap_or_else(|e| panic!("{id}: {e}"));
                cases.push(Case {
                    id: id.clone(),
                    game,
                    depths: Vec::new(),
                });
            }
            "position" => {
                let game = PositionFile::from_json(rest).and_then(|p| p.to_game());
                let game = game.unwrap_or_else(|e| panic!("{id}: {e}"));
                cases.push(Case {
                    id: id.clone(),
                    game,
                    depths: Vec::new(),
                });
            }
            "perft" => {
                let mut it = rest.split_whitespace().map(|x| x.parse::<u64>().unwrap());
                let (depth, count) = (it.next().unwrap() as u32, it.next().unwrap());
                cases
                    .last_mut()
                    .expect("perft before rules")
                    .depths
                    .push((depth, count));
            }
            _ => panic!("unknown line {line:?}"),
        }
    }
    cases
}

fn run(text: &str, quick: bool) {
    for case in load(text) {
        for &(depth, count) in &case.depths {
            if (count <= QUICK_LIMIT) == quick {
                assert_eq!(perft(&case.game, depth), count, "{} perft {depth}", case.id);
            }
        }
    }
}

#[test]
fn start_positions_quick() {
    run(include_str!("start.perft"), true);
}

#[test]
#[ignore = "deep perft, run with --ignored (or see the benchmark)"]
fn start_positions_deep() {
    run(include_str!("start.perft"), false);
}
