//! Long games played to the end on every setup of `common::variants` (every board, arm size and
//! option; 4-player 16 x 16 with and without forbidden camps among them): a seeded player that
//! mostly races its pieces to their goals, the generator checked against the reference at every
//! ply, and the result checked against the rule book.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use common::{fast_moves, variants, Reference};
use halma_rules::{notation, DrawReason, Game, MoveInput, Position, Seat, Standing, Variant};

/// Plies after which a game that has not ended fails the test.
const MAX_PLIES: usize = 8000;

/// Whether all of `seat`'s goals are filled in the rule book's sense: with the anti-blocking
/// rule, no empty goal cell and at least one own piece in it (so `strict` is false); without
/// it (or `strict`), the own pieces alone fill it.
fn goals_filled(variant: &Variant, pos: &Position, seat: Seat, strict: bool) -> bool {
    variant.armies_of(seat).all(|a| {
        let goal = variant.armies()[a].goal;
        let own = pos.army(a) & goal;
        if variant.options().anti_blocking && !strict {
            goal.is_subset(&pos.occupied()) && !own.is_empty()
        } else {
            goal.is_subset(&pos.army(a))
        }
    })
}

/// The seat to move replaced in a position (through the notation).
fn with_seat_to_move(variant: &Variant, pos: &Position, seat: Seat) -> Position {
    let text = notation::format_position(variant, pos);
    let mut fields: Vec<String> = text.split(' ').map(str::to_owned).collect();
    fields[4] = (seat.index() + 1).to_string();
    notation::parse_position_with(variant, &fields.join(" ")).unwrap()
}

/// Plays one game to its end and checks every ply and the result.
fn play_to_the_end(variant: &Arc<Variant>, seed: u64) -> (usize, String) {
    let reference = Reference::new(variant);
    let geo = &reference.geometry;
    let board = variant.board();
    // Each army races to the cell of its goal farthest from the board's centre.
    let centre = board
        .all()
        .iter()
        .max_by(|&a, &b| {
            let far = |c| {
                board
                    .all()
                    .iter()
                    .map(|o| geo.distance(c, o))
                    .fold(0.0, f64::max)
            };
            far(b).total_cmp(&far(a))
        })
        .unwrap();
    let tips: Vec<u8> = variant
        .armies()
        .iter()
        .map(|a| {
            a.goal
                .iter()
                .max_by(|&x, &y| geo.distance(x, centre).total_cmp(&geo.distance(y, centre)))
                .unwrap()
        })
        .collect();
    let mut rng = halma_rules::SplitMix64::new(seed);
    let first = variant
        .seat(rng.index(usize::from(variant.players())))
        .unwrap();
    let mut game = Game::new(variant.clone(), first);
    let mut finish_order: Vec<Seat> = Vec::new();
    let text = |game: &Game| notation::format_position(variant, game.position());
    while !game.is_over() {
        assert!(
            game.record().len() < MAX_PLIES,
            "no end after {MAX_PLIES} plies: {}",
            text(&game)
        );
        let pos = *game.position();
        let expected = reference.moves(&pos);
        assert_eq!(
            fast_moves(variant, &pos),
            expected,
            "ply {}: {}",
            game.record().len(),
            text(&game)
        );
        let legal = game.legal_moves();
        let listed: BTreeSet<(u8, u8)> = legal
            .iter()
            .map(|m| (m.mv.from.index(), m.mv.to.index()))
            .collect();
        assert_eq!(
            listed,
            expected,
            "legal_moves at ply {}",
            game.record().len()
        );
        assert!(
            !legal.is_empty(),
            "the seat to move of a game not over has a move: {}",
            text(&game)
        );
        // Mostly the move that brings a piece nearest its target, sometimes any move. A piece
        // outside its goal heads for the goal's nearest empty cell, one inside it for the tip.
        let army_of = |c: u8| {
            variant
                .armies_of(pos.to_move())
                .find(|&a| pos.army(a).has(c))
                .unwrap()
        };
        let gain = |m: &halma_rules::LegalMove| {
            let (from, to) = (m.mv.from.index(), m.mv.to.index());
            let a = army_of(from);
            let goal = variant.armies()[a].goal;
            let target = if goal.has(from) {
                tips[a]
            } else {
                (goal & !pos.occupied())
                    .iter()
                    .min_by(|&x, &y| geo.distance(from, x).total_cmp(&geo.distance(from, y)))
                    .unwrap_or(tips[a])
            };
            geo.distance(from, target) - geo.distance(to, target)
        };
        let pick = if rng.index(8) == 0 {
            &legal[rng.index(legal.len())]
        } else {
            let best = legal.iter().map(gain).fold(f64::MIN, f64::max);
            let top: Vec<_> = legal.iter().filter(|m| gain(m) >= best - 1e-9).collect();
            top[rng.index(top.len())]
        };
        let input = if rng.index(2) == 0 {
            MoveInput::Path(pick.path.clone())
        } else {
            MoveInput::FromTo(pick.mv.from, pick.mv.to)
        };
        let mover = pos.to_move();
        let played = game.play(&input).unwrap().clone();
        let after = *game.position();
        for seat in variant.seats() {
            if after.is_finished(seat) && !pos.is_finished(seat) {
                assert!(
                    goals_filled(variant, &after, seat, false),
                    "{seat:?} finished with a goal not filled: {}",
                    text(&game)
                );
                finish_order.push(seat);
            }
            if after.is_eliminated(seat) && !pos.is_eliminated(seat) {
                let limit = variant.options().leave_home_moves.unwrap();
                assert!(
                    variant.unit(mover).any(|s| s == seat),
                    "{seat:?} lost on {mover:?}'s move"
                );
                assert!(after.moves_made(mover) >= limit);
                let at_home = variant
                    .armies_of(mover)
                    .any(|a| !(after.army(a) & variant.armies()[a].home).is_empty());
                assert!(
                    at_home,
                    "{seat:?} lost by the leave-home rule with no piece at home"
                );
            }
            if after.is_active(seat) && goals_filled(variant, &after, seat, true) {
                // Own pieces alone filling every goal is a finish under every rule set, unless
                // the game waits for a partner.
                assert!(
                    variant.options().teams,
                    "{seat:?} filled its goal but plays on: {}",
                    text(&game)
                );
            }
        }
        for &s in &played.skipped {
            let turn = with_seat_to_move(variant, &after, s);
            assert!(
                reference.moves(&turn).is_empty(),
                "{s:?} was skipped but can move"
            );
        }
    }
    let outcome = game.outcome().unwrap().clone();
    let ranked: Vec<Seat> = outcome
        .ranking
        .iter()
        .flat_map(|p| p.seats.clone())
        .collect();
    let mut sorted = ranked.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        variant.seats().collect::<Vec<_>>(),
        "every seat is ranked once"
    );
    let places: Vec<u8> = outcome.ranking.iter().filter_map(|p| p.place).collect();
    assert!(places.windows(2).all(|w| w[0] <= w[1]), "{outcome:?}");
    // Finished groups come first, in the order they finished.
    let finished: Vec<Seat> = outcome
        .ranking
        .iter()
        .filter(|p| p.standing == Standing::Finished)
        .flat_map(|p| p.seats.clone())
        .collect();
    let mut order = finish_order.clone();
    if variant.options().teams {
        // A team is ranked when both partners are home, at the later of the two.
        order.retain(|s| finished.contains(s));
        let mut by_team = Vec::new();
        for s in &order {
            let partner = variant.partner(*s).unwrap();
            if order.iter().position(|x| x == s) > order.iter().position(|x| *x == partner) {
                by_team.extend([partner.min(*s), partner.max(*s)]);
            }
        }
        order = by_team;
    }
    assert_eq!(finished, order, "{outcome:?}");
    let end = *game.position();
    match outcome.draw {
        Some(DrawReason::NoLegalMoves) => {
            for s in variant.seats().filter(|&s| end.is_active(s)) {
                assert!(reference
                    .moves(&with_seat_to_move(variant, &end, s))
                    .is_empty());
            }
        }
        Some(DrawReason::Repetition) => assert!(variant.options().repetition_draw),
        Some(DrawReason::Deadlock) | None => {}
    }
    if outcome.draw.is_none() && variant.options().play_on {
        let playing = variant.seats().filter(|&s| end.is_active(s)).count();
        assert!(
            playing <= usize::from(variant.options().teams) + 1,
            "{outcome:?}"
        );
    }
    let summary = match outcome.draw {
        Some(reason) => format!("draw ({reason:?})"),
        None => format!("{} finished", finished.len()),
    };
    (game.record().len(), summary)
}

#[test]
fn long_games_end_and_agree_with_the_reference_at_every_ply() {
    let mut total = 0;
    for (i, setup) in variants().into_iter().enumerate() {
        let variant = Arc::new(Variant::new(&setup).unwrap());
        for game in 0..3 {
            let (plies, result) = play_to_the_end(&variant, 0xD1CE_0000 + 16 * i as u64 + game);
            eprintln!(
                "{} {} {}: {plies} plies, {result}",
                setup.board.name(),
                setup.players,
                setup.options.to_text()
            );
            total += plies;
        }
    }
    assert!(total > 10_000, "the games were long: {total} plies");
}
