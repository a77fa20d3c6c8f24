//! Perft speed, in leaves per second (criterion's "elements"): the 10×10 start with and
//! without bulk counting at the last ply, the other boards and two FMJD test positions.
//!
//! `cargo bench -p draughts` (single thread).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use draughts::{parse_fen, perft, Board, Brazilian, Canadian, International, Position};

fn bench_position<B: Board>(c: &mut Criterion, name: &str, fen: Option<&str>, depth: u32) {
    let pos: Position<B> = fen.map_or_else(Position::initial, |f| parse_fen(f).unwrap());
    let leaves = perft(&pos, depth, true);
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(leaves));
    group.sample_size(10);
    for bulk in [true, false] {
        let id = BenchmarkId::new(if bulk { "bulk" } else { "every-leaf" }, depth);
        group.bench_with_input(id, &depth, |b, &d| b.iter(|| perft(&pos, d, bulk)));
    }
    group.finish();
}

fn perft_benches(c: &mut Criterion) {
    bench_position::<International>(c, "international-start", None, 8);
    bench_position::<Brazilian>(c, "brazilian-start", None, 9);
    bench_position::<Canadian>(c, "canadian-start", None, 7);
    bench_position::<International>(
        c,
        "woldouby",
        Some("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"),
        12,
    );
    bench_position::<International>(
        c,
        "random178",
        Some("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"),
        6,
    );
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
