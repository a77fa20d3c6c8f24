use std::sync::OnceLock;
use std::time::Duration;

use draughts::{parse_fen, GameOf, International, Outcome, Position, Rules, WinReason};

use super::*;
use crate::draughts::analyse_with;
use crate::{Budget, Level, Limits};

/// Kings only: 3 against 1, 2 against 1, 1 against 1.
const THREE_KINGS: Material = Material {
    wm: 0,
    wk: 3,
    bm: 0,
    bk: 1,
};
/// A king and a man against a king.
const KING_AND_MAN: Material = Material {
    wm: 1,
    wk: 1,
    bm: 0,
    bk: 1,
};
/// Two men against a man.
const MEN: Material = Material {
    wm: 2,
    wk: 0,
    bm: 1,
    bk: 0,
};

/// The tables the tests share: every material of up to 3 pieces and three kings against one
/// (built once per test process, a few seconds).
fn tables() -> &'static Egdb {
    static TABLES: OnceLock<Egdb> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut wanted = Material::all(3);
        wanted.push(THREE_KINGS);
        build_for(&wanted, &mut |_, _| {}).unwrap()
    })
}

fn pos(fen: &str) -> Position<International> {
    parse_fen(fen).unwrap()
}

fn value(fen: &str) -> Option<(bool, u8)> {
    let p = Placement::of(&pos(fen));
    decode(tables().byte(&p).unwrap())
}

#[test]
fn a_side_to_move_without_a_move_has_lost() {
    // Black's man on 36 is blocked by 41 and cannot capture it (47 is taken).
    assert_eq!(value("B:W41,47:B36"), Some((false, 0)));
}

#[test]
fn a_king_that_can_take_the_last_piece_wins_in_one_ply() {
    // 5-10-14-19-23-28: the white king flies to 23 and takes, landing beyond.
    assert_eq!(value("W:WK5:BK23"), Some((true, 1)));
}

#[test]
fn a_lone_king_in_the_corner_facing_a_king_on_the_long_diagonal_is_lost_in_two_plies() {
    // Black's king on 46 can only go up the long diagonal, where the king on 5 takes it.
    assert_eq!(value("B:WK5:BK46"), Some((false, 2)));
}

#[test]
fn two_kings_do_not_beat_a_king_on_the_long_diagonal() {
    for fen in ["W:WK1,K2:BK46", "W:WK3,K35:BK28", "B:WK24,K45:BK10"] {
        assert_eq!(value(fen), None, "{fen}");
    }
}

#[test]
fn three_kings_do_not_beat_a_king_holding_the_long_diagonal() {
    for fen in ["W:WK1,K2,K3:BK46", "W:WK16,K17,K30:BK5"] {
        assert_eq!(value(fen), None, "{fen}");
    }
}

#[test]
fn three_kings_do_not_beat_a_lone_king_without_a_shot() {
    // On 10×10, three kings against one are a draw (hence the 16-move rule) unless a
    // combination wins at once: the table's longest win is short.
    for fen in [
        "W:WK46,K47,K48:BK3",
        "W:WK46,K40,K45:BK3",
        "B:WK28,K33,K39:BK1",
    ] {
        assert_eq!(value(fen), None, "{fen}");
    }
    let stats = build::stats(&THREE_KINGS, tables().table(&THREE_KINGS).unwrap());
    assert!(stats.wins > 0 && u32::from(stats.longest) < 32, "{stats:?}");
}

#[test]
fn a_win_longer_than_the_draw_rule_allows_is_a_draw() {
    // Counters of a three-against-a-king game after each ply of a walk without captures.
    let mut rng = crate::Rng::new(3);
    let mut g = GameOf::from_position(Rules::default(), pos("W:WK46,K47,K48:BK3"));
    let mut counters = vec![g.counters()];
    while counters.len() <= 32 {
        let quiet: Vec<_> = g
            .legal_moves()
            .into_iter()
            .filter(|&mv| {
                let after = g.position().play_unchecked(mv);
                !mv.is_capture() && !after.has_captures()
            })
            .collect();
        assert!(!quiet.is_empty() && g.outcome().is_none());
        g.play(quiet[rng.below(quiet.len())]).unwrap();
        counters.push(g.counters());
    }
    let won = longest_win(&THREE_KINGS, draughts::Color::White);
    let (_, d) = decode(tables().byte(&Placement::of(&won)).unwrap()).unwrap();
    let d = u32::from(d);
    let probe = |plies: u32| {
        let c = &counters[plies as usize];
        assert_eq!(c.endgame_plies(), plies);
        tables().probe(&won, c, &Rules::default()).unwrap().wdl
    };
    assert_eq!(probe(0), Wdl::Win);
    assert_eq!(probe(32 - d), Wdl::Win, "exactly {d} plies left");
    assert_eq!(probe(32 - d + 1), Wdl::Draw, "one ply short");
}

#[test]
fn every_stored_value_follows_from_its_successors() {
    assert_eq!(tables().pieces(), 3);
    for m in tables().materials() {
        assert!(check(tables(), &m).unwrap() > 0, "{}", m.name());
    }
}

#[test]
fn colour_mirrored_positions_have_the_same_value() {
    let p = Placement::of(&pos("B:WK5:BK46"));
    assert_eq!(mirror(&p), Placement::of(&pos("W:WK5:BK46")));
    for m in tables().materials() {
        let twin = Material {
            wm: m.bm,
            wk: m.bk,
            bm: m.wm,
            bk: m.wk,
        };
        if tables().table(&twin).is_some() {
            assert!(check_mirror(tables(), &m).unwrap() > 0, "{}", m.name());
        }
    }
}

#[test]
fn a_wrong_value_is_found_by_the_check() {
    let mut t = tables().clone();
    let m = KING_AND_MAN;
    let mut table = t.table(&m).unwrap().to_vec();
    let i = table.iter().position(|&b| b != DRAW).unwrap();
    table[i] = DRAW;
    t.insert(m, table);
    assert!(check(&t, &m).is_err());
}

/// Plays `fen` to the end with the Expert on both sides, both with the tables.
fn play_out(fen: &str) -> Outcome {
    let mut game = GameOf::from_position(Rules::default(), pos(fen));
    let limits = Limits {
        seed: 7,
        time: Duration::from_secs(20),
        ..Limits::default()
    };
    let budget = Budget {
        nodes: Some(3_000),
        depth: None,
    };
    for _ in 0..400 {
        if let Some(outcome) = game.outcome() {
            return outcome;
        }
        let a = analyse_with(
            &game,
            Level::Expert,
            &limits,
            &budget,
            None,
            Some(tables()),
            &mut |_| {},
        )
        .unwrap();
        game.play(a.best).unwrap();
    }
    panic!("{fen}: no result after 400 plies");
}

/// The longest win of a table with the given side to move (deterministic).
fn longest_win(m: &Material, side: draughts::Color) -> Position<International> {
    let table = tables().table(m).unwrap();
    let limit = Zone::of(m).limit();
    let (i, _) = table
        .iter()
        .enumerate()
        .filter(|&(i, &b)| {
            windowed(b, limit) == Wdl::Win && m.placement(i as u64).is_some_and(|p| p.side == side)
        })
        .max_by_key(|&(i, &b)| (decode(b).unwrap().1, std::cmp::Reverse(i)))
        .unwrap();
    m.position(i as u64).unwrap()
}

#[test]
fn the_expert_converts_the_longest_wins_of_each_table() {
    for m in [THREE_KINGS, KING_AND_MAN, MEN] {
        let start = longest_win(&m, draughts::Color::White);
        let fen = draughts::to_fen(&start);
        let outcome = play_out(&fen);
        assert_eq!(
            outcome,
            Outcome::Win {
                winner: draughts::Color::White,
                reason: WinReason::NoMoves
            },
            "{fen}"
        );
    }
}

#[test]
fn the_expert_holds_drawn_endings() {
    for fen in [
        "W:WK1,K2,K3:BK46",
        "B:WK1,K2,K3:BK46",
        "W:WK3,K35:BK28",
        "B:WK24,K45:BK10",
        "W:W33,K2:BK50",
    ] {
        assert_eq!(value(fen), None, "{fen} is a draw");
        let outcome = play_out(fen);
        assert!(outcome.winner().is_none(), "{fen}: {outcome}");
    }
}
