//! One test per rule of RULES.md part 2, named after the rule.

use std::collections::HashSet;

use draughts::{
    parse_fen, Color, DrawReason, Game, GameOf, International, Outcome, PlayError, Position, Role,
    Rules, Square, Variant, WinReason,
};

type Pos = Position<International>;

fn pos(fen: &str) -> Pos {
    parse_fen(fen).expect("valid FEN")
}

/// The legal moves in notation, sorted.
fn moves(fen: &str) -> Vec<String> {
    let p = pos(fen);
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|&m| p.move_notation(m))
        .collect();
    v.sort();
    v
}

fn game(fen: &str, rules: Rules) -> Game {
    Game::from_fen(rules, fen).expect("valid FEN")
}

#[test]
fn men_move_forward_only() {
    assert_eq!(moves("W:W28:B1"), ["28-22", "28-23"]);
    assert_eq!(moves("B:W50:B23"), ["23-28", "23-29"]);
}

#[test]
fn men_capture_backward() {
    // White man on 23, black on 28 behind it: the capture backwards is compulsory.
    assert_eq!(moves("W:W23:B28"), ["23x32"]);
}

#[test]
fn capture_is_compulsory() {
    // 32 could step to 27 or 28, but 33 can capture 29 and must.
    assert_eq!(moves("W:W32,33:B29"), ["33x24"]);
}

#[test]
fn kings_fly() {
    // A king in the corner 46 moves along the whole long diagonal.
    assert_eq!(moves("W:WK46:B1").len(), 9);
}

#[test]
fn maximum_capture_king_capturing_more_than_man() {
    // The man on 32 can take 27 (one piece); the king on 45 can take 34 and 18 (two): only the
    // king's captures are legal, one per landing square after 18.
    assert_eq!(
        moves("W:WK45,32:B34,18,27"),
        ["45x29x1", "45x29x12", "45x29x7"]
    );
}

#[test]
fn maximum_capture_counts_kings_and_men_the_same() {
    // 39 could take the king on 34; 32 takes two men (27 and 17): two beats one, whatever they are.
    assert_eq!(moves("W:W32,39:B27,17,K34"), ["32x21x12"]);
}

#[test]
fn turkish_strike_removal_at_end() {
    // The king on 37 takes 32, 22, 12 and 13 in a circle. With immediate removal it could then
    // fly back over 32's square and take 41 as well; but captured pieces stay on the board until
    // the move ends, so 32 blocks the way and the maximum is four.
    let p = pos("W:WK37:B12,13,22,32,41");
    let legal = p.legal_moves();
    assert!(!legal.is_empty());
    for mv in legal.iter() {
        let caught: Vec<u8> = mv.captured().map(Square::number).collect();
        assert_eq!(caught, [12, 13, 22, 32]);
    }
    // After the move all four are gone at once and 41 remains.
    let after = p.play_unchecked(legal[0]);
    assert_eq!(after.count(Color::Black), (1, 0));
    assert!(after.piece_at(Square(41)).is_some());
}

#[test]
fn piece_may_not_be_jumped_twice() {
    // A black man on 28 next to a white king on 33: after taking it the king may not come back
    // over it; only one capture.
    let p = pos("W:WK33:B28");
    assert!(p.legal_moves().iter().all(|m| m.capture_count() == 1));
}

#[test]
fn man_passing_crowning_row_during_capture_is_not_crowned() {
    // 13 takes 8 landing on 2 (the crowning row) and must go on taking 7 to 11: no crown.
    let p = pos("W:W13:B7,8");
    let mv = p.parse_move("13x2x11").unwrap();
    let after = p.play_unchecked(mv);
    assert_eq!(after.piece_at(Square(11)).unwrap().role, Role::Man);
}

#[test]
fn man_ending_on_crowning_row_is_crowned() {
    let p = pos("W:W13:B8");
    let after = p.play_unchecked(p.parse_move("13x2").unwrap());
    assert_eq!(after.piece_at(Square(2)).unwrap().role, Role::King);
    let p = pos("W:W7:B50");
    let after = p.play_unchecked(p.parse_move("7-1").unwrap());
    assert_eq!(after.count(Color::White), (0, 1));
}

#[test]
fn king_flying_capture_several_landing_squares() {
    // The king on 46 takes 32 and may land on any free square beyond it.
    assert_eq!(
        moves("W:WK46:B32"),
        ["46x10", "46x14", "46x19", "46x23", "46x28", "46x5"]
    );
    // Unless a landing square lets it go on capturing: then it must land there (23, to take 18).
    assert_eq!(moves("W:WK46:B32,18"), ["46x23x1", "46x23x12", "46x23x7"]);
}

#[test]
fn same_start_end_and_captures_is_one_move() {
    // A man taking four pieces round a square can go either way round: one move.
    let p = pos("W:W37:B31,32,21,22");
    let legal = p.legal_moves();
    assert_eq!(legal.len(), 1);
    assert_eq!(legal[0].capture_count(), 4);
    assert_eq!(legal[0].from(), legal[0].to());
}

#[test]
fn loss_when_no_moves() {
    let g = game("W:W46:B41,37", Rules::default());
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::NoMoves
        })
    );
    let g = game("B:W18:B", Rules::default());
    assert_eq!(g.outcome().and_then(|o| o.winner()), Some(Color::White));
}

#[test]
fn loss_when_last_piece_is_captured() {
    let mut g = game("W:W33:B29", Rules::default());
    g.play_notation("33x24").unwrap();
    assert_eq!(g.outcome().and_then(|o| o.winner()), Some(Color::White));
    assert_eq!(g.play_notation("24-19"), Err(PlayError::GameOver));
}

#[test]
fn resign_loses() {
    let mut g = Game::new(Rules::default());
    g.resign(Color::White).unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Resignation
        })
    );
    assert_eq!(g.resign(Color::Black), Err(PlayError::GameOver));
}

#[test]
fn draw_by_agreement() {
    let mut g = Game::new(Rules::new(Variant::Brazilian));
    g.agree_draw().unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Agreement
        })
    );
}

#[test]
fn illegal_move_leaves_game_unchanged() {
    let mut g = Game::new(Rules::default());
    let before = (g.fen(), g.hash(), g.ply());
    assert!(matches!(
        g.play_notation("32-26"),
        Err(PlayError::Notation(_))
    ));
    assert!(matches!(
        g.play_notation("garbage"),
        Err(PlayError::Notation(_))
    ));
    assert_eq!((g.fen(), g.hash(), g.ply()), before);
    let mut typed = GameOf::<International>::new(Rules::default());
    let black_move = pos("B:W31-50:B1-20").legal_moves()[0];
    assert_eq!(typed.play(black_move), Err(PlayError::IllegalMove));
    assert_eq!(typed.moves().len(), 0);
}

fn play_all(g: &mut Game, notation: &[&str]) {
    for n in notation {
        assert_eq!(g.outcome(), None, "game over before {n}");
        g.play_notation(n).unwrap_or_else(|e| panic!("{n}: {e}"));
    }
}

#[test]
fn draw_threefold_repetition() {
    let mut g = game("W:WK47,36:BK4,15", Rules::default());
    let cycle = ["47-42", "4-10", "42-47", "10-4"];
    play_all(&mut g, &cycle);
    play_all(&mut g, &cycle[..3]);
    assert_eq!(g.outcome(), None);
    play_all(&mut g, &cycle[3..]);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::ThreefoldRepetition
        })
    );
}

#[test]
fn draw_25_king_moves() {
    // White's king cycles over three squares and Black's over five, so no position comes back a
    // third time within 50 plies; the men on 50 and 1 never move.
    let mut g = game("W:WK46,50:BK4,1", Rules::default());
    let white = ["46-41", "41-37", "37-46"];
    let black = ["4-9", "9-13", "13-18", "18-22", "22-4"];
    for i in 0..25 {
        play_all(&mut g, &[white[i % 3], black[i % 5]]);
        if i < 24 {
            assert_eq!(g.outcome(), None, "after move {}", i + 1);
        }
    }
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::TwentyFiveKingMoves
        })
    );
}

#[test]
fn draw_25_king_moves_counter_resets_on_man_move() {
    let mut g = game("W:WK46,50:BK4,1", Rules::default());
    let white = ["46-41", "41-37", "37-46"];
    let black = ["4-9", "9-13", "13-18", "18-22", "22-4"];
    for i in 0..24 {
        play_all(&mut g, &[white[i % 3], black[i % 5]]);
    }
    play_all(&mut g, &["50-45", black[24 % 5]]);
    assert_eq!(g.outcome(), None);
}

/// Plays `plies` non-capturing moves that never repeat a position and never allow a capture;
/// returns the ply at which the game ended, if it did.
fn shuffle(g: &mut Game, plies: usize) -> Option<usize> {
    let mut seen = HashSet::new();
    for ply in 0..plies {
        if g.outcome().is_some() {
            return Some(ply);
        }
        let Game::International(inner) = g else {
            unreachable!()
        };
        let p = *inner.position();
        let mv = p
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| {
                let next = p.play_unchecked(m);
                !m.is_capture() && !next.has_captures() && !seen.contains(&next.zobrist())
            })
            .expect("a quiet move");
        seen.insert(p.play_unchecked(mv).zobrist());
        g.play_notation(&p.move_notation(mv)).unwrap();
    }
    g.outcome().map(|_| plies)
}

/// White's king cycles 46-41-37 and Black's lone king 4-9-13-18-22 (no capture is ever possible,
/// no position comes back a third time within 60 plies); returns the ply at which the game ended.
fn cycle_kings(g: &mut Game, plies: usize) -> Option<usize> {
    let white = ["46-41", "41-37", "37-46"];
    let black = ["4-9", "9-13", "13-18", "18-22", "22-4"];
    for ply in 0..plies {
        if g.outcome().is_some() {
            return Some(ply);
        }
        let mv = if ply % 2 == 0 {
            white[ply / 2 % 3]
        } else {
            black[ply / 2 % 5]
        };
        g.play_notation(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    g.outcome().map(|_| plies)
}

#[test]
fn draw_three_vs_lone_king_16_moves() {
    // A king and two men against a lone king.
    let fen = "W:WK46,49,50:BK4";
    let mut g = game(fen, Rules::default());
    assert_eq!(cycle_kings(&mut g, 40), Some(32));
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::ThreeVsLoneKing
        })
    );
}

#[test]
fn draw_three_vs_lone_king_10_moves_option() {
    let rules = Rules {
        three_vs_king_moves: 10,
        ..Rules::default()
    };
    let mut g = game("W:WK46,49,50:BK4", rules);
    assert_eq!(cycle_kings(&mut g, 40), Some(20));
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::ThreeVsLoneKing
        })
    );
}

#[test]
fn draw_two_vs_lone_king_5_moves() {
    let mut g = game("W:WK46,50:BK4", Rules::default());
    assert_eq!(cycle_kings(&mut g, 40), Some(10));
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::TwoVsLoneKing
        })
    );
    // A lone king against a lone king too.
    let mut g = game("W:WK46:BK4", Rules::default());
    assert_eq!(cycle_kings(&mut g, 40), Some(10));
}

#[test]
fn lone_king_rules_need_at_most_three_pieces() {
    // Four pieces against a lone king: no move count applies.
    let mut g = game("W:WK46,48,49,50:BK4", Rules::default());
    assert_eq!(cycle_kings(&mut g, 40), None);
}

#[test]
fn lone_king_rule_needs_a_king_on_the_strong_side() {
    // Three men against a lone king: no special count (the men keep moving anyway).
    let mut g = game("W:W46,47,48:BK5", Rules::default());
    assert_eq!(shuffle(&mut g, 12), None);
}

#[test]
fn white_moves_first_and_counts_are_the_published_ones() {
    for (variant, n) in [
        (Variant::Brazilian, 7),
        (Variant::International, 9),
        (Variant::Canadian, 11),
    ] {
        let g = Game::new(Rules::new(variant));
        assert_eq!(g.side_to_move(), Color::White);
        assert_eq!(g.legal_moves().len(), n);
    }
}

#[test]
fn crowning_rows_on_every_board() {
    use draughts::{Brazilian, Canadian};
    // 8×8: White's man on 5 reaches 1; Black's man on 28 reaches 32.
    let p: Position<Brazilian> = parse_fen("W:W5:B28").unwrap();
    let p = p.play_unchecked(p.parse_move("5-1").unwrap());
    assert_eq!(p.piece_at(Square(1)).unwrap().role, Role::King);
    let p = p.play_unchecked(p.parse_move("28-32").unwrap());
    assert_eq!(p.piece_at(Square(32)).unwrap().role, Role::King);
    // 12×12: White's man on 7 reaches 1; Black's man on 66 reaches 72.
    let p: Position<Canadian> = parse_fen("W:W7:B66").unwrap();
    let p = p.play_unchecked(p.parse_move("7-1").unwrap());
    assert_eq!(p.piece_at(Square(1)).unwrap().role, Role::King);
    let p = p.play_unchecked(p.parse_move("66-72").unwrap());
    assert_eq!(p.piece_at(Square(72)).unwrap().role, Role::King);
}

#[test]
fn diagram_shows_the_fmjd_layout() {
    let p = pos("W:W46,K50:B1,K5");
    let text = p.to_string();
    let rows: Vec<&str> = text.lines().collect();
    // Square 1 is the second square of the top row, 46 the first of the bottom row.
    assert_eq!(
        rows[0].split_whitespace().collect::<Vec<_>>(),
        ["b", ".", ".", ".", "B"]
    );
    assert!(rows[0].starts_with("   b"), "{:?}", rows[0]);
    assert!(rows[9].starts_with(" w"), "{:?}", rows[9]);
    assert_eq!(rows[10], "white to move");
}
