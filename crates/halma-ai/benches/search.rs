//! Nodes per second of the searches on mid-game positions (reported by criterion as
//! elements per second). Mid-game positions are reached by a fixed sequence: 30 plies of
//! seeded greedy play from the start. Each benchmark checks that its search visited nodes.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use halma_ai::{Brs, Budget, Greedy, MultiMode, Pvs, PvsOptions, RaceEvaluator, Strategy};
use halma_rules::{BoardKind, GameSetup, Position, RuleOptions, Variant};

fn midgame(board: BoardKind, players: u8) -> (Variant, Position) {
    let setup = GameSetup {
        board,
        players,
        options: RuleOptions::default(),
    };
    let variant = match Variant::new(&setup) {
        Ok(v) => v,
        Err(e) => panic!("setup: {e}"),
    };
    let eval = RaceEvaluator::new(&variant);
    let Some(first) = variant.seat(0) else {
        panic!("no seat 0")
    };
    let mut pos = Position::start(&variant, first);
    let mut greedy = Greedy::new(&variant, &eval, 16, 7);
    for _ in 0..30 {
        let Some(r) = greedy.choose(&pos, &[], &Budget::depth(1)) else {
            break;
        };
        variant.play_unchecked(&mut pos, r.mv);
    }
    (variant, pos)
}

fn bench_pvs(c: &mut Criterion, name: &str, board: BoardKind, depth: u32) {
    let (variant, pos) = midgame(board, 2);
    let eval = RaceEvaluator::new(&variant);
    let run = || {
        let mut pvs = Pvs::new(
            &variant,
            &eval,
            PvsOptions {
                table_bits: Some(18),
                repetitions: true,
                selective: true,
            },
        );
        let r = pvs.choose(&pos, &[], &Budget::depth(depth));
        r.map_or(0, |r| r.nodes)
    };
    let nodes = run();
    assert!(nodes > 0, "{name}: the search visited no nodes");
    let mut group = c.benchmark_group("pvs");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(name, |b| b.iter(|| assert!(black_box(run()) > 0)));
    group.finish();
}

fn bench_brs(c: &mut Criterion, name: &str, players: u8, depth: u32) {
    let (variant, pos) = midgame(BoardKind::Star, players);
    let eval = RaceEvaluator::new(&variant);
    let run = || {
        let mut brs = Brs::new(&variant, &eval, MultiMode::BestReply, 18);
        let r = brs.choose(&pos, &[], &Budget::depth(depth));
        r.map_or(0, |r| r.nodes)
    };
    let nodes = run();
    assert!(nodes > 0, "{name}: the search visited no nodes");
    let mut group = c.benchmark_group("brs");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(name, |b| b.iter(|| assert!(black_box(run()) > 0)));
    group.finish();
}

fn search(c: &mut Criterion) {
    bench_pvs(c, "star2_depth4", BoardKind::Star, 4);
    bench_pvs(c, "square16_depth3", BoardKind::Square16, 3);
    bench_pvs(c, "square8_depth4", BoardKind::Square8, 4);
    bench_brs(c, "star3_depth5", 3, 5);
    bench_brs(c, "star6_depth3", 6, 3);
}

criterion_group!(benches, search);
criterion_main!(benches);
