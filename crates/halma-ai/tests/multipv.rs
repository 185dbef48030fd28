//! Multi-PV ([`suggest_lines`]): one line is the plain suggestion, the first of several lines
//! is too, every line is a different legal move, and the lines' scores are the exact values of
//! the best moves in order.

// Test code: a failed setup should fail the test loudly.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::time::Duration;

use halma_ai::{
    suggest, suggest_lines, Budget, ExcludeRootMoves, Greedy, Pvs, PvsOptions, RaceEvaluator,
    SearchLimits, Strategy, Suggestion,
};
use halma_rules::{BoardKind, GameSetup, Move, Position, RuleOptions, SplitMix64, Variant};

fn variant(board: BoardKind, players: u8) -> Variant {
    Variant::new(&GameSetup {
        board,
        players,
        options: RuleOptions::default(),
    })
    .unwrap()
}

/// Positions after a few random moves from the start, with the hashes of the positions the
/// game went through (the current one last).
fn positions(v: &Variant, count: usize, seed: u64) -> Vec<(Position, Vec<u64>)> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut pos = Position::start(v, v.seat(0).unwrap());
        let mut history = vec![pos.hash()];
        for _ in 0..rng.below(12) {
            v.generate_moves(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            v.play_unchecked(&mut pos, moves[rng.index(moves.len())]);
            history.push(pos.hash());
        }
        if pos.is_active(pos.to_move()) && v.has_moves(&pos) {
            out.push((pos, history));
        }
    }
    out
}

/// Everything but the time taken.
fn same(a: &Suggestion, b: &Suggestion) -> bool {
    (a.mv, a.score, a.depth, a.nodes, &a.pv) == (b.mv, b.score, b.depth, b.nodes, &b.pv)
}

/// Depth-limited levels (and the one-ply ones, by their seed) do not depend on the clock.
const DETERMINISTIC_LEVELS: [u8; 4] = [2, 4, 5, 6];

#[test]
fn one_line_is_the_plain_suggestion() {
    for (board, players) in [
        (BoardKind::Star, 2),
        (BoardKind::Star, 3),
        (BoardKind::Square8, 2),
        (BoardKind::Square16, 4),
    ] {
        let v = variant(board, players);
        for (i, (pos, history)) in positions(&v, 3, u64::from(players)).iter().enumerate() {
            for level in DETERMINISTIC_LEVELS {
                let limits = SearchLimits {
                    level,
                    time_budget: Duration::from_secs(60),
                    seed: i as u64,
                };
                let plain = suggest(&v, pos, history, &limits).unwrap();
                let lines = suggest_lines(&v, pos, history, &limits, 1);
                assert_eq!(lines.len(), 1);
                assert!(
                    same(&lines[0], &plain),
                    "{board:?} {players}, level {level}: {:?} against {plain:?}",
                    lines[0]
                );
            }
        }
    }
}

#[test]
fn the_first_of_several_lines_is_the_plain_suggestion_and_the_others_differ() {
    for (board, players) in [(BoardKind::Star, 2), (BoardKind::Star, 6)] {
        let v = variant(board, players);
        for (pos, history) in positions(&v, 3, 7) {
            for level in [4, 6] {
                let limits = SearchLimits {
                    level,
                    time_budget: Duration::from_secs(60),
                    seed: 3,
                };
                let plain = suggest(&v, &pos, &history, &limits).unwrap();
                let lines = suggest_lines(&v, &pos, &history, &limits, 4);
                assert_eq!(lines.len(), 4);
                assert!(same(&lines[0], &plain), "{:?} against {plain:?}", lines[0]);
                let distinct: BTreeSet<Move> = lines.iter().map(|l| l.mv).collect();
                assert_eq!(distinct.len(), 4, "{lines:?}");
                for line in &lines {
                    assert!(v.is_legal(&pos, line.mv));
                    assert_eq!(line.pv.first(), Some(&line.mv));
                }
            }
        }
    }
}

#[test]
fn asking_for_more_lines_than_moves_lists_every_move_once() {
    let v = variant(BoardKind::Square8, 2);
    let pos = Position::start(&v, v.seat(0).unwrap());
    let mut moves = Vec::new();
    v.generate_moves(&pos, &mut moves);
    let limits = SearchLimits {
        level: 5,
        time_budget: Duration::from_secs(60),
        seed: 0,
    };
    let lines = suggest_lines(&v, &pos, &[], &limits, moves.len() + 5);
    let listed: BTreeSet<Move> = lines.iter().map(|l| l.mv).collect();
    assert_eq!(lines.len(), moves.len());
    assert_eq!(listed, moves.into_iter().collect());
    assert!(suggest_lines(&v, &pos, &[], &limits, 0).is_empty());
}

/// The exact fixed-depth value of each root move: a plain search (no table, no selectivity)
/// restricted to that move alone.
fn move_values(v: &Variant, pos: &Position, depth: u32) -> Vec<(Move, i32)> {
    let eval = RaceEvaluator::new(v);
    let mut moves = Vec::new();
    v.generate_moves(pos, &mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut pvs = Pvs::new(v, &eval, exact());
            let others: Vec<Move> = moves.iter().copied().filter(|&m| m != mv).collect();
            pvs.exclude_root_moves(&others);
            let r = pvs.choose(pos, &[], &Budget::depth(depth)).unwrap();
            assert_eq!(r.mv, mv);
            (mv, r.score)
        })
        .collect()
}

fn exact() -> PvsOptions {
    PvsOptions {
        table_bits: None,
        repetitions: false,
        selective: false,
    }
}

#[test]
fn the_lines_have_the_exact_values_of_the_best_moves_in_order() {
    let v = variant(BoardKind::Square8, 2);
    let eval = RaceEvaluator::new(&v);
    for (pos, _) in positions(&v, 3, 11) {
        let depth = 2;
        let mut values: Vec<i32> = move_values(&v, &pos, depth)
            .iter()
            .map(|&(_, s)| s)
            .collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        // Multi-PV by exclusion with one search object, as `suggest_lines` does.
        let mut pvs = Pvs::new(&v, &eval, exact());
        let mut excluded = Vec::new();
        for (k, &want) in values.iter().take(5).enumerate() {
            pvs.exclude_root_moves(&excluded);
            let r = pvs.choose(&pos, &[], &Budget::depth(depth)).unwrap();
            assert_eq!(r.score, want, "line {}", k + 1);
            assert!(!excluded.contains(&r.mv));
            excluded.push(r.mv);
        }
    }
}

#[test]
fn excluding_every_move_leaves_no_choice() {
    let v = variant(BoardKind::Star, 2);
    let eval = RaceEvaluator::new(&v);
    let pos = Position::start(&v, v.seat(0).unwrap());
    let mut moves = Vec::new();
    v.generate_moves(&pos, &mut moves);
    let mut pvs = Pvs::new(&v, &eval, exact());
    pvs.exclude_root_moves(&moves);
    assert_eq!(pvs.choose(&pos, &[], &Budget::depth(2)), None);
    let mut greedy = Greedy::new(&v, &eval, 0, 1);
    greedy.exclude_root_moves(&moves);
    assert_eq!(greedy.choose(&pos, &[], &Budget::depth(1)), None);
    greedy.exclude_root_moves(&[]);
    assert!(greedy.choose(&pos, &[], &Budget::depth(1)).is_some());
}
