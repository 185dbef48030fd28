//! Perft counts from `tests/data/perft.txt`, with both perft implementations, and the moves of
//! every listed position against the reference generator.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::Reference;
use halma_rules::{notation, perft, Move, Position, Variant};

/// Perft with the reference generator: its moves at every node, made with `play_unchecked`.
fn reference_perft(reference: &Reference, variant: &Variant, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = reference.moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    let board = variant.board();
    moves
        .iter()
        .map(|&(from, to)| {
            let mut next = *pos;
            let cell = |c: u8| board.cell(usize::from(c)).unwrap();
            variant.play_unchecked(
                &mut next,
                Move {
                    from: cell(from),
                    to: cell(to),
                },
            );
            reference_perft(reference, variant, &next, depth - 1)
        })
        .sum()
}

struct Case {
    line: usize,
    depth: u32,
    count: u64,
    position: String,
    release_only: bool,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let (release_only, rest) = match l.strip_prefix("@release ") {
                Some(r) => (true, r),
                None => (false, l),
            };
            let mut parts = rest.splitn(3, ' ');
            let depth = parts.next().unwrap().parse().unwrap();
            let count = parts.next().unwrap().parse().unwrap();
            let position = parts.next().unwrap().to_owned();
            Case {
                line: i + 1,
                depth,
                count,
                position,
                release_only,
            }
        })
        .collect()
}

#[test]
fn perft_counts_match_the_data_file() {
    let all = cases();
    assert!(all.len() > 100, "the data file was not read");
    let mut ran = 0;
    for case in all {
        if case.release_only {
            // `deep_perft_in_release` counts these.
            continue;
        }
        let (variant, pos) = notation::parse_position(&case.position)
            .unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        let fast = perft::perft(&variant, &pos, case.depth);
        assert_eq!(
            fast, case.count,
            "line {}: perft {} of {}",
            case.line, case.depth, case.position
        );
        if case.depth <= 3 {
            let plain = perft::perft_plain(&variant, &pos, case.depth);
            assert_eq!(plain, case.count, "line {}: plain perft", case.line);
        }
        if case.count <= 20_000 {
            let reference = Reference::new(&variant);
            let count = reference_perft(&reference, &variant, &pos, case.depth);
            assert_eq!(count, case.count, "line {}: reference perft", case.line);
        }
        if case.depth == 1 {
            let mut list = Vec::new();
            variant.generate_moves(&pos, &mut list);
            let got: std::collections::BTreeSet<_> = list
                .iter()
                .map(|m| (m.from.index(), m.to.index()))
                .collect();
            assert_eq!(
                got,
                common::reference_moves(&variant, &pos),
                "line {}",
                case.line
            );
        }
        ran += 1;
    }
    assert!(ran > 100);
}

/// Perft 6 from the 2-player star start (87,946,884), and the deeper counts of the data file,
/// with both perft implementations: only in optimised builds
/// (`cargo test --release -p halma-rules --test perft`, a step of `.ci/run`).
#[test]
#[cfg_attr(debug_assertions, ignore = "too slow unoptimised; run with --release")]
fn deep_perft_in_release() {
    let release: Vec<Case> = cases().into_iter().filter(|c| c.release_only).collect();
    assert!(!release.is_empty());
    for case in release {
        let (variant, pos) = notation::parse_position(&case.position).unwrap();
        assert_eq!(
            perft::perft(&variant, &pos, case.depth),
            case.count,
            "line {}",
            case.line
        );
        assert_eq!(
            perft::perft_plain(&variant, &pos, case.depth),
            case.count,
            "line {}: plain perft",
            case.line
        );
    }
}
