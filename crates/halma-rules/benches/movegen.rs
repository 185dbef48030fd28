//! Move generation speed: perft from the starting positions (both implementations, each run
//! checked against its known count) and move listing on mid-game positions.
#![allow(clippy::unwrap_used)] // benchmark set-up: a panic is the failure report
#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use halma_rules::{perft, BoardKind, Move, Position};

mod support;
use support::midgame::{positions, variant, SETUPS};

fn bench_perft(c: &mut Criterion) {
    let star = variant(BoardKind::Star, 2);
    let start = Position::start(&star, star.seat(0).unwrap());
    assert_eq!(perft::perft(&star, &start, 5), 3_188_520);
    assert_eq!(perft::perft_plain(&star, &start, 5), 3_188_520);
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function("star2 depth 5 (incremental)", |b| {
        b.iter(|| assert_eq!(perft::perft(&star, black_box(&start), 5), 3_188_520));
    });
    group.bench_function("star2 depth 5 (plain)", |b| {
        b.iter(|| assert_eq!(perft::perft_plain(&star, black_box(&start), 5), 3_188_520));
    });
    let sq = variant(BoardKind::Square16, 2);
    let sq_start = Position::start(&sq, sq.seat(0).unwrap());
    group.bench_function("square16 depth 4 (plain)", |b| {
        b.iter(|| assert_eq!(perft::perft_plain(&sq, black_box(&sq_start), 4), 4_562_496));
    });
    group.finish();
}

fn bench_listing(c: &mut Criterion) {
    let mut group = c.benchmark_group("listing");
    for (name, board, players) in SETUPS {
        let v = variant(board, players);
        let positions: Vec<Position> = positions(&v);
        let total: usize = positions
            .iter()
            .map(|p| {
                let mut l = Vec::new();
                v.generate_moves(p, &mut l);
                l.len()
            })
            .sum();
        assert!(total > 0, "the mid-game positions have moves");
        let mut list: Vec<Move> = Vec::with_capacity(512);
        group.bench_function(format!("{name} generate_moves x20"), |b| {
            b.iter(|| {
                let mut n = 0;
                for p in &positions {
                    v.generate_moves(black_box(p), &mut list);
                    n += list.len();
                }
                assert_eq!(n, total);
            });
        });
        group.bench_function(format!("{name} count_moves x20"), |b| {
            b.iter(|| {
                let n: u32 = positions.iter().map(|p| v.count_moves(black_box(p))).sum();
                assert_eq!(n as usize, total);
            });
        });
        group.bench_function(format!("{name} legal_moves_with_paths x20"), |b| {
            b.iter(|| {
                let n: usize = positions
                    .iter()
                    .map(|p| v.legal_moves_with_paths(black_box(p)).len())
                    .sum();
                assert_eq!(n, total);
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_listing);
criterion_main!(benches);
