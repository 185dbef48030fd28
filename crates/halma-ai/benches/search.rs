//! Nodes per second of the searches on mid-game positions (reported by criterion as
//! elements per second). Mid-game positions are reached by a fixed sequence: 30 plies of
//! seeded greedy play from the start. Each benchmark checks that its search visited nodes.
//!
//! Group `opponents`: what level 10 spends at six players, before its search, on finding
//! the opponents' latest moves from the game's keys and judging them
//! (`halma_ai::opponents::observe`): 30 plies of greedy play after the position of
//! `model/star6_model_depth5`, all of them found and judged.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use halma_ai::opponents::{greedy_agreement, observe, OBSERVED_PLIES};
use halma_ai::{Budget, Greedy, RaceEvaluator, Strategy};
use halma_rules::{BoardKind, Position};

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

fn opponents(c: &mut Criterion) {
    let (variant, start) = midgame(BoardKind::Star, 6);
    let eval = RaceEvaluator::new(&variant);
    // The keys of the midgame position and of OBSERVED_PLIES greedy plies after it.
    let mut greedy = Greedy::new(&variant, &eval, 0, 3);
    let mut pos: Position = start;
    let mut keys = vec![pos.hash()];
    for _ in 0..OBSERVED_PLIES {
        let Some(r) = greedy.choose(&pos, &keys, &Budget::depth(1)) else {
            break;
        };
        variant.play_unchecked(&mut pos, r.mv);
        keys.push(pos.hash());
    }
    let (_, seen) = greedy_agreement(&variant, &eval, &pos, &keys);
    assert!(seen >= 20, "only {seen} opponent moves found");
    let mut group = c.benchmark_group("opponents");
    group.sample_size(20);
    group.bench_function("star6_observe", |b| {
        b.iter(|| observe(&variant, &eval, black_box(&pos), black_box(&keys)));
    });
    group.finish();
}

criterion_group!(benches, search, opponents);
criterion_main!(benches);
