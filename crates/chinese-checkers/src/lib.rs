//! Rules of Chinese checkers (« dames chinoises », RULES.md part 1): setup from a [`Rules`] value,
//! move generation, playing, places and outcome, Zobrist hashing. Pure and deterministic: no I/O,
//! no randomness, no threads.
//!
//! ```
//! use chinese_checkers::{Cell, Game, Move, MoveList, Rules, Seat};
//!
//! let rules: Rules = serde_json::from_str(r#"{"players": 3}"#).unwrap();
//! let mut game = Game::new(rules, rules.first_seat_for_game(0)).unwrap();
//! let mut moves = MoveList::new();
//! game.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 14);
//!
//! // Moves are (from, to) in cube coordinates; `path` gives one path for animation.
//! let step = Move::new(Cell::from_cube(1, 4, -5).unwrap(), Cell::from_cube(1, 3, -4).unwrap());
//! assert_eq!(game.path(step).unwrap().len(), 2);
//! let events = game.play(step).unwrap();
//! assert!(events.passes.is_empty() && events.outcome.is_none());
//! assert_eq!(game.to_move(), Seat(1));
//!
//! // An illegal move is refused and leaves the game untouched.
//! let before = game;
//! assert!(game.play(step).is_err());
//! assert_eq!(game, before);
//!
//! // Replaying the same moves from the same rules and first seat gives the same game.
//! let mut replay = Game::new(rules, Seat(0)).unwrap();
//! replay.play(step).unwrap();
//! assert_eq!(replay.hash(), game.hash());
//!
//! // Perft from the start (RULES.md, 3 players): 14, 196, 2744.
//! let start = Game::new(rules, Seat(0)).unwrap();
//! assert_eq!(chinese_checkers::perft(&start, 3), 2744);
//! ```
//!
//! # Model
//! - The board ([`cell`]): 121 holes indexed 0..121, sets of holes as `u128` [`Bitboard`]s,
//!   cube coordinates `[x, y, z]` at every interface (serde, CLI). [`Camp`]s 0..5 as in RULES.md 1.1.
//! - Seats ([`Seat`]) are 0-based in turn order; seat `s` controls the sets starting from
//!   [`Rules::seat_camps`] (RULES.md 1.2), each going to the opposite camp. A piece's *colour* is
//!   the camp its set started from.
//! - [`Game`] holds the board and everything the rules need: side to move, finished and resigned
//!   players with their places, turns per player (move limit), stagnation counter, Zobrist hash
//!   (kept incrementally). It is `Copy`. [`Game::play`] checks and plays a move and reports
//!   [`Events`] (players who finished, automatic passes, the outcome); [`Game::play_unchecked`]
//!   is for search. [`Game::resign`] and [`Game::abandon`] end a player's or everyone's game.
//!   [`Game::play_for`] and [`Game::give_turn`] let a seat move out of turn, for searches in
//!   which any opponent may reply (Best-Reply Search).
//! - The position file ([`position_file`]) is the JSON form of a position and of a [`Game`].
//! - [`Solitaire`] is the crossing puzzle (« Défi solitaire »): ten pieces alone on the board,
//!   to be taken from camp 0 to camp 3 in as few moves as possible (27 at best); a `Copy`
//!   16-byte position for solvers, which [`Solitaire::to_game`] turns into a [`Game`].
//!
//! # Performance
//! Holes are bits of a `u128`; steps and plain jumps come from tables built at compile time, and
//! nothing is allocated per move ([`MoveList`] is an array). Counting the moves of a position
//! with the default options (what perft does at its last ply, and what an AI can use for
//! mobility) goes further: jumps keep a piece on one of four sublattices of the board, each held
//! in a `u64` where every jump direction is a rotation, so the holes reachable by chains are
//! flood fills of six rotations per step; the empty holes split into jump components, each flooded
//! once per position and counted for every piece next to it; steps are read from per-hole counts
//! of empty neighbours kept incrementally. The options (kings, long jumps, camp restrictions,
//! swaps, forced exit) take a general path that walks rays. `cargo bench -p chinese-checkers`
//! measures generation and perft; `dames cc perft` prints leaves per second.
//!
//! Against the plain C generator of `../shared/bench/ccperft.c` (mailbox, flood fill per piece,
//! `gcc -O2`), `./scripts/ccperft-ratio` runs bulk 2-player perft 6 from the start, both pinned
//! to one core, in 5 interleaved pairs: median ratio **3.40× in wall time, 3.22× in CPU time**
//! (commit of the `u64` lanes, shared 2-core machine at load 12–16; 1.5–1.9× with the former
//! `u128` lanes). Measured again on commit `5e8e133` (same generator) at load 14, where wall
//! times swing: median **2.57× in wall time, 2.41× in CPU time** (CPU ratios 2.35–2.47).
//!
//! **CPU baseline**: the release binary targets plain x86-64 (no `.cargo/config.toml`, no
//! `target-cpu`). Measured on the same generator (perft 6, median CPU time of 9 interleaved
//! runs; instructions counted by cachegrind on perft 5): x86-64 558 ms (209 M instructions),
//! x86-64-v2 with `popcnt` 689 ms (196 M), x86-64-v3 513 ms (191 M), native 550 ms (186 M). The
//! instructions saved by a hardware popcount (6 %) do not show above the noise of a shared
//! machine, while a raised baseline would refuse to run on older or masked CPUs and rebuild
//! every dependency; runtime dispatch would need `unsafe`, which the workspace forbids.
//!
//! # Interpretations of RULES.md
//! Where RULES.md leaves room, this crate reads it as follows.
//! - **Turn order**: from the first seat (chosen by the server, see [`Rules::first_seat_for_game`])
//!   round the seats in increasing order. Finished and resigned players are skipped.
//! - **Automatic pass** (1.3): a player with no legal move passes; the pass counts as a turn for
//!   the move limit and for stagnation. If no unfinished player can move, the game ends
//!   ([`Ending::Blocked`]) with the stagnation ranking.
//! - **Finishing** (1.4): checked for every unfinished player after every move, so with
//!   anti-blocking a player can finish when an opponent fills the last hole of their destination
//!   (places are then given mover first, then in turn order). A player with several sets finishes
//!   when all their sets are finished at the same time; pieces of a finished set may still move.
//!   Inert pieces count as filling a hole. Japanese: the set's king must stand on the tip.
//! - **Places**: finishers take places 1, 2, … in finishing order; a resigner (3+ players) takes
//!   the last free place (the first to resign is last). When at most one player is left, they take
//!   the remaining place. Equal standings share the best of their places (1, 2, 2, 4).
//! - **Move limit** (1.4): counted in turns per player. Before a player's turn, if they have
//!   already taken `move_limit` turns, the game ends and every unfinished player shares the best
//!   remaining place (a draw for them). So with the first seat at the limit, everyone has had the
//!   same number of turns.
//! - **Stagnation** (1.4): a player's *progress* is (pieces in destination, then minus the summed
//!   distance of their pieces to their destination camp); each player's best progress is kept.
//!   The game ends when the unfinished players have taken `stagnation_rounds × (number of
//!   unfinished players)` turns in a row without anyone beating their best (a finish counts as an
//!   improvement). The ranking then is pieces in destination, then the total distance of the other
//!   pieces to the nearest destination hole *not holding one of the set's own pieces* (opponents'
//!   pieces there are expected to leave), equal values sharing a place ([`Game::standing`]).
//! - **Play to the end off** (1.4): the game ends at the first finisher; the others are ranked by
//!   the stagnation ranking ([`Ending::FirstFinished`]). With 2 players the first finisher wins.
//! - **Resigning** (1.4): with 2 players the other wins and the board is left as it is; with 3+
//!   the resigner's pieces are removed (so they may unblock others) and play goes on.
//! - **Filled unused camps** (1.2): the camps that are nobody's start nor destination get 10 inert
//!   pieces each (the 10-hole point, also with 15-piece camps).
//! - **No resting in foreign camps** (1.5): the end hole must be in the hexagon or in the piece's
//!   own start or destination camp (of the game's camp size); chains may cross other camps.
//! - **No leaving the destination** (1.5): a piece in its destination camp may only end its move in
//!   it (a chain may leave the camp on the way).
//! - **Forced exit** (1.5): for each set of the mover whose start camp S is full, holds one of the
//!   mover's pieces, and is the destination of an unfinished other player Q with no legal move
//!   ending in S: if the mover has a move from S to outside S, only such moves are legal.
//! - **Swap rule** (1.5): a step, or the last jump of a chain, may go into a hole of the piece's
//!   destination occupied by an opponent's piece (not an inert one); the move ends there and the
//!   opponent's piece goes to the start hole of the move, so a move stays identified by (from, to).
//! - **Japanese** (1.6): kings jump a whole row of contiguous pieces (one or more, none a king) and
//!   land on the first hole beyond it; nobody jumps a king. No piece may land (step, or any jump of
//!   a chain) in a camp of another player (their start or destination camps, 15-hole) unless it is
//!   also one of its own player's camps. Long jumps, when on, are open to kings too.
//! - **Long jumps** (1.5): over a single piece `m` holes away along a line, landing `m` holes beyond
//!   it, every hole in between empty; they mix freely with plain jumps in a chain.
//! - **Rotation of the first player** and **random first player** (1.2) are the server's business:
//!   it passes the first seat to [`Game::new`]; replaying the saved moves from the same rules and
//!   first seat rebuilds the same game (everything here is deterministic).
//! - **Perft** counts leaf move sequences with moves counted by distinct (from, to); automatic
//!   passes are not plies.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cell;
mod lattice;
mod movegen;
mod outcome;
mod perft;
mod position;
pub mod position_file;
mod rules;
pub mod solitaire;
mod zobrist;

pub use cell::{Bitboard, Camp, Cell, DIRECTIONS};
pub use movegen::{Move, MoveList, MAX_MOVES};
pub use outcome::{Ending, Events, Finished, Outcome};
pub use perft::{perft, perft_divide, perft_full};
pub use position::{Game, IllegalMove, Piece, PlayForError, ResignError, Standing, TurnError};
pub use position_file::{PositionError, PositionFile};
pub use rules::{RuleSet, Rules, RulesError, Seat, UnusedCamps};
pub use solitaire::{PieceCountError, Solitaire, SOLITAIRE_PIECES};
