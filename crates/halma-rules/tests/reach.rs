//! Every cell of every board can be entered by a step and by a jump, and left again, for every
//! setup of `common::variants` (every board, arm size and option): one hand-built position per
//! cell, direction and army, written in the notation, each checked against the reference
//! generator (whose geometry comes from the cells' coordinates, not the crate's tables).
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use std::collections::BTreeSet;

use common::{fast_moves, variants, Reference};
use halma_rules::{notation, Bitboard, ForeignCorners, Move, Position, Variant};

/// A position of `variant` with the given pieces of army `army` (and no other piece), the
/// army's owner to move, read from its text.
fn position(variant: &Variant, army: usize, cells: &[u8]) -> Position {
    let board = variant.board();
    let groups: Vec<String> = (0..variant.armies().len())
        .map(|a| {
            if a == army {
                cells
                    .iter()
                    .map(|&c| board.cells()[usize::from(c)].name.clone())
                    .collect::<Vec<_>>()
                    .join(",")
            } else {
                "-".to_owned()
            }
        })
        .collect();
    let setup = variant.setup();
    let seats = vec!["0"; usize::from(setup.players)].join(",");
    let text = format!(
        "{} {} {} {} {} {seats}",
        setup.board.name(),
        setup.players,
        setup.options.to_text(),
        groups.join("/"),
        variant.armies()[army].owner.index() + 1
    );
    notation::parse_position_with(variant, &text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The moves of `pos` by the reference, checked against the generator, the move count and,
/// for `(from, to)` when it is legal, the path checks and the witness path.
fn checked_moves(reference: &Reference, pos: &Position, from: u8, to: u8) -> BTreeSet<(u8, u8)> {
    let variant = reference.variant;
    let expected = reference.moves(pos);
    let text = || notation::format_position(variant, pos);
    assert_eq!(fast_moves(variant, pos), expected, "{}", text());
    assert_eq!(
        variant.count_moves(pos) as usize,
        expected.len(),
        "{}",
        text()
    );
    let board = variant.board();
    let (f, t) = (
        board.cell(usize::from(from)).unwrap(),
        board.cell(usize::from(to)).unwrap(),
    );
    let legal = expected.contains(&(from, to));
    assert_eq!(
        variant.check_from_to(pos, f, t).is_ok(),
        legal,
        "{}",
        text()
    );
    assert_eq!(
        variant.check_path(pos, &[f, t]).is_ok(),
        legal,
        "{}",
        text()
    );
    let witness = variant.witness_path(pos, Move { from: f, to: t });
    assert_eq!(witness.map(|p| p.len()), legal.then_some(2), "{}", text());
    expected
}

#[test]
fn every_cell_can_be_entered_by_a_step_and_a_jump_and_left() {
    for setup in variants() {
        let variant = Variant::new(&setup).unwrap();
        let reference = Reference::new(&variant);
        let geo = &reference.geometry;
        let board = variant.board();
        let o = variant.options();
        // Cells no army may end a move on: corners foreign to every army under a foreign-corner
        // rule. Every other cell must be reachable.
        let mut never_end = board.all();
        for a in variant.armies() {
            never_end &= if o.foreign_corners == ForeignCorners::Allowed {
                Bitboard::EMPTY
            } else {
                a.foreign
            };
        }
        let (mut by_step, mut by_jump, mut left) =
            (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
        for target in board.all().iter() {
            for d in 0..geo.directions() {
                let back = geo.opposite(d);
                // A step into `target` in direction `d`, and a jump over the cell before it.
                let line = geo.ray(target, back);
                for army in 0..variant.armies().len() {
                    if let Some(&from) = line.first() {
                        let pos = position(&variant, army, &[from]);
                        if checked_moves(&reference, &pos, from, target).contains(&(from, target)) {
                            by_step.set(target);
                        }
                    }
                    if let [over, from, ..] = *line {
                        let pos = position(&variant, army, &[from, over]);
                        if checked_moves(&reference, &pos, from, target).contains(&(from, target)) {
                            by_jump.set(target);
                        }
                    }
                }
            }
            for army in 0..variant.armies().len() {
                let pos = position(&variant, army, &[target]);
                let moves = reference.moves(&pos);
                assert_eq!(
                    fast_moves(&variant, &pos),
                    moves,
                    "{}",
                    notation::format_position(&variant, &pos)
                );
                if moves.iter().any(|&(f, _)| f == target) {
                    left.set(target);
                }
            }
        }
        let name = |set: Bitboard| -> Vec<String> {
            set.iter()
                .map(|c| board.cells()[usize::from(c)].name.clone())
                .collect()
        };
        let expected = board.all() & !never_end;
        assert_eq!(
            name(expected & !by_step),
            Vec::<String>::new(),
            "{setup:?}: never entered by a step"
        );
        assert_eq!(
            name(expected & !by_jump),
            Vec::<String>::new(),
            "{setup:?}: never entered by a jump"
        );
        assert_eq!(
            name(expected & !left),
            Vec::<String>::new(),
            "{setup:?}: never left"
        );
        assert_eq!(by_step & never_end, Bitboard::EMPTY, "{setup:?}");
    }
}
