//! Nodes per second of the searches on mid-game positions (reported by criterion as
//! elements per second). Mid-game positions are reached by a fixed sequence: 30 plies of
//! seeded greedy play from the start. Each benchmark checks that its search visited nodes.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use halma_ai::RaceEvaluator;

mod support;
use support::searches::{midgame, Kind, SEARCHES};

fn search(c: &mut Criterion) {
    for s in SEARCHES {
        let (variant, pos) = midgame(s.board, s.players);
        let eval = RaceEvaluator::new(&variant);
        let run = || {
            s.run(&variant, &eval, black_box(&pos))
                .map_or(0, |r| r.nodes)
        };
        let nodes = run();
        assert!(nodes > 0, "{}: the search visited no nodes", s.name);
        let mut group = c.benchmark_group(match s.kind {
            Kind::Pvs => "pvs",
            Kind::Brs => "brs",
            Kind::Model => "model",
            Kind::Mcts => "mcts",
        });
        group.sample_size(10);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(s.name, |b| b.iter(|| assert_eq!(run(), nodes)));
        group.finish();
    }
}

criterion_group!(benches, search);
criterion_main!(benches);
