//! Property tests: the fast generator against a simple reference on random positions, and
//! random playouts checking notation and FEN round-trips, the incremental hash and material.

mod reference;

use draughts::{
    parse_fen, to_fen, Board, Brazilian, Canadian, Color, Game, GameOf, International, Piece,
    Position, Role, Rules, Square,
};
use proptest::prelude::*;

/// A position from one byte per square: mostly empty, some men and kings of both colours.
fn position_from<B: Board>(cells: &[u8], black_to_move: bool) -> Position<B> {
    let side = if black_to_move {
        Color::Black
    } else {
        Color::White
    };
    let mut pos = Position::<B>::empty(side);
    for (i, &c) in cells.iter().enumerate().take(B::SQUARES as usize) {
        let piece = match c % 16 {
            0..=2 => Piece {
                color: Color::White,
                role: Role::Man,
            },
            3..=5 => Piece {
                color: Color::Black,
                role: Role::Man,
            },
            6 => Piece {
                color: Color::White,
                role: Role::King,
            },
            7 => Piece {
                color: Color::Black,
                role: Role::King,
            },
            _ => continue,
        };
        pos = pos.put(Square(i as u8 + 1), piece).unwrap();
    }
    pos
}

fn same_as_reference<B: Board>(pos: &Position<B>) -> Result<(), TestCaseError> {
    let fast = reference::fast_moves(pos);
    prop_assert_eq!(
        fast.len(),
        pos.legal_moves().len(),
        "duplicate moves in {:?}",
        pos
    );
    prop_assert_eq!(
        &fast,
        &reference::legal_moves(pos),
        "moves differ in {:?}",
        pos
    );
    let mut scratch = draughts::MoveList::new();
    prop_assert_eq!(pos.count_moves(&mut scratch), fast.len());
    prop_assert_eq!(pos.has_captures(), fast.iter().any(|m| !m.2.is_empty()));
    Ok(())
}

/// Checks every invariant on `pos` and each of its legal moves.
fn check_position<B: Board>(pos: &Position<B>) -> Result<(), TestCaseError> {
    // FEN round trip.
    let fen = to_fen(pos);
    prop_assert_eq!(&parse_fen::<B>(&fen).unwrap(), pos, "{}", fen);
    let side = pos.side_to_move();
    let (own_men, own_kings) = pos.count(side);
    let (opp_men, opp_kings) = pos.count(side.opponent());
    for &mv in pos.legal_moves().iter() {
        // Notation round trip, with every landing square and in the short form when unique.
        let info = pos.move_info(mv);
        prop_assert_eq!(
            pos.parse_move(&info.notation).unwrap(),
            mv,
            "{}",
            info.notation
        );
        prop_assert_eq!(info.captures.len() as u32, mv.capture_count());
        prop_assert_eq!(info.path.len(), 1 + mv.capture_count().max(1) as usize);
        let short = format!("{}x{}", info.from, info.to);
        if let Ok(m) = pos.parse_move(&short) {
            prop_assert_eq!(m.from(), mv.from());
            prop_assert_eq!(m.to(), mv.to());
        }
        // Incremental hash.
        let next = pos.play_unchecked(mv);
        prop_assert_eq!(pos.zobrist() ^ pos.zobrist_delta(mv), next.zobrist());
        // Material: the mover keeps every piece (one man may become a king), the opponent
        // loses exactly the captured pieces.
        let (men, kings) = next.count(side);
        prop_assert_eq!(men + kings, own_men + own_kings);
        prop_assert!(kings == own_kings || kings == own_kings + 1);
        let (om, ok) = next.count(side.opponent());
        prop_assert_eq!(om + ok + mv.capture_count(), opp_men + opp_kings);
        prop_assert_eq!(next.side_to_move(), side.opponent());
    }
    Ok(())
}

/// Plays `choices` (indices into the legal moves) from the start, checking every position, and
/// replays the game through its PDN text.
fn playout<B: Board>(choices: &[u16]) -> Result<(), TestCaseError> {
    let mut game = GameOf::<B>::new(Rules::default());
    for &c in choices {
        let pos = *game.position();
        check_position(&pos)?;
        same_as_reference(&pos)?;
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[c as usize % moves.len()];
        game.play(mv).unwrap();
        prop_assert_eq!(game.hash(), game.position().zobrist());
    }
    // Replay through notation and PDN.
    let mut dynamic = Game::new(Rules::new(B::VARIANT));
    let mut pos = Position::<B>::initial();
    for &mv in game.moves() {
        dynamic.play_notation(&pos.move_notation(mv)).unwrap();
        pos = pos.play_unchecked(mv);
    }
    prop_assert_eq!(dynamic.fen(), to_fen(game.position()));
    let text = dynamic.to_pdn(&[]);
    let back = Game::from_pdn(&draughts::read_pdn(&text).unwrap()[0], Rules::default()).unwrap();
    prop_assert_eq!(back.fen(), dynamic.fen());
    prop_assert_eq!(back.hash(), dynamic.hash());
    prop_assert_eq!(back.outcome(), dynamic.outcome());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn playouts_international(choices in prop::collection::vec(any::<u16>(), 0..160)) {
        playout::<International>(&choices)?;
    }

    #[test]
    fn playouts_brazilian(choices in prop::collection::vec(any::<u16>(), 0..120)) {
        playout::<Brazilian>(&choices)?;
    }

    #[test]
    fn playouts_canadian(choices in prop::collection::vec(any::<u16>(), 0..160)) {
        playout::<Canadian>(&choices)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_positions_match_reference(
        cells in prop::collection::vec(any::<u8>(), 72),
        black in any::<bool>(),
        sparse in 0u8..3,
    ) {
        // Thin the board out sometimes so that kings have room to fly.
        let cells: Vec<u8> = cells.iter().map(|&c| if sparse > 0 && c % 3 != 0 { 255 } else { c }).collect();
        same_as_reference(&position_from::<International>(&cells, black))?;
        same_as_reference(&position_from::<Brazilian>(&cells, black))?;
        same_as_reference(&position_from::<Canadian>(&cells, black))?;
        check_position(&position_from::<International>(&cells, black))?;
    }
}

/// Plays random moves until the game ends; the draw rules guarantee that it does (every 50
/// plies at most there is a man move or a capture, and there are finitely many of those).
fn random_game<B: Board>(choices: &[u16]) -> Result<(), TestCaseError> {
    let mut game = GameOf::<B>::new(Rules::default());
    let mut i = 0;
    while game.outcome().is_none() {
        let moves = game.legal_moves();
        prop_assert!(!moves.is_empty());
        let c = choices[i % choices.len()] as usize + i;
        game.play(moves[c % moves.len()]).unwrap();
        i += 1;
        prop_assert!(i < 20_000, "game does not end");
    }
    let pos = *game.position();
    match game.outcome().unwrap() {
        draughts::Outcome::Win { winner, reason } => {
            prop_assert_eq!(reason, draughts::WinReason::NoMoves);
            prop_assert_eq!(winner, pos.side_to_move().opponent());
            prop_assert!(pos.legal_moves().is_empty());
        }
        draughts::Outcome::Draw { reason } => {
            prop_assert!(pos.has_any_move());
            match reason {
                draughts::DrawReason::ThreefoldRepetition => prop_assert!(game.repetitions() >= 3),
                draughts::DrawReason::TwentyFiveKingMoves => {
                    // The last 50 plies were king moves without capture.
                    let mut p = *game.start();
                    let n = game.moves().len();
                    for (k, &mv) in game.moves().iter().enumerate() {
                        if k >= n - 50 {
                            prop_assert!(p.is_reversible(mv));
                        }
                        p = p.play_unchecked(mv);
                    }
                }
                draughts::DrawReason::ThreeVsLoneKing | draughts::DrawReason::TwoVsLoneKing => {
                    let (w, b) = (pos.count(Color::White), pos.count(Color::Black));
                    prop_assert!(w == (0, 1) || b == (0, 1), "{:?} {:?}", w, b);
                }
                draughts::DrawReason::Agreement => prop_assert!(false, "nobody agreed"),
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_games_end_consistently(choices in prop::collection::vec(any::<u16>(), 1..64)) {
        random_game::<International>(&choices)?;
        random_game::<Brazilian>(&choices)?;
        random_game::<Canadian>(&choices)?;
    }
}
