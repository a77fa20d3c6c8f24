//! Criterion benchmarks of move generation and perft (single thread).
//!
//! `cargo bench -p chinese-checkers`. The perft benches report leaf moves per second as
//! "elements/s" (criterion's throughput): 2-player perft 6 from the start has 87 946 884 leaves.

use chinese_checkers::{perft, perft_full, Game, MoveList, Rules, Seat};
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn start(players: u8) -> Game {
    Game::new(
        Rules {
            players,
            ..Rules::default()
        },
        Seat(0),
    )
    .unwrap()
}

/// A middle-game position: 30 deterministic plies from the 2-player start.
fn middle_game() -> Game {
    let mut game = start(2);
    let mut seed = 7u64;
    for _ in 0..30 {
        let moves = game.legal_moves_vec();
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        game.play(moves[(seed >> 33) as usize % moves.len()])
            .unwrap();
    }
    game
}

fn movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    for (name, game) in [
        ("start-2p", start(2)),
        ("start-6p", start(6)),
        ("middle-2p", middle_game()),
    ] {
        let mut list = MoveList::new();
        game.legal_moves(&mut list);
        group.throughput(Throughput::Elements(list.len() as u64));
        group.bench_with_input(BenchmarkId::new("legal_moves", name), &game, |b, g| {
            b.iter(|| {
                g.legal_moves(&mut list);
                black_box(list.len())
            })
        });
        group.bench_with_input(BenchmarkId::new("count", name), &game, |b, g| {
            b.iter(|| black_box(g.count_legal_moves()))
        });
    }
    group.finish();
}

fn perfts(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let cases = [
        ("2p", 2u8, 5u32, 3_188_520u64),
        ("2p", 2, 6, 87_946_884),
        ("3p", 3, 5, 1_618_400),
        ("6p", 6, 4, 40_189),
    ];
    for (name, players, depth, leaves) in cases {
        let game = start(players);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(BenchmarkId::new(format!("bulk-{name}"), depth), |b| {
            b.iter(|| assert_eq!(perft(black_box(&game), depth), leaves))
        });
    }
    let game = start(2);
    group.throughput(Throughput::Elements(3_188_520));
    group.bench_function(BenchmarkId::new("every-move-2p", 5), |b| {
        b.iter(|| assert_eq!(perft_full(black_box(&game), 5), 3_188_520))
    });
    group.finish();
}

criterion_group!(benches, movegen, perfts);
criterion_main!(benches);
