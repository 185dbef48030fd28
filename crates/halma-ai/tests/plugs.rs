//! Plugs: under the anti-blocking rule an opponent whose grace period has not run out can
//! take the last empty cell of a seat's goal and so keep it from finishing
//! (`Brs::with_plugs`), and level 10's cost for goal cells left open to them
//! (`Brs::with_exposure`).

// Test code: a failed setup should fail the test loudly.
#![allow(clippy::unwrap_used)]

use halma_ai::brs::{
    EXPOSURE_FOREIGN, EXPOSURE_GAPS, EXPOSURE_HOLE, MODEL_RIVAL_SHARE, MODEL_ROOT_PROGRESS,
};
use halma_ai::ensemble::OTHER_FIELD_DEEP;
use halma_ai::eval::{ROW, WIN_THRESHOLD};
use halma_ai::sides::Sides;
use halma_ai::{
    Brs, Budget, Ensemble, Greedy, MultiMode, MultiReference, Opponents, RaceEvaluator, ReplyModel,
    Strategy,
};
use halma_rules::{notation, BoardKind, GameSetup, Position, RuleOptions, Variant};

fn star6() -> Variant {
    Variant::new(&GameSetup {
        board: BoardKind::Star,
        players: 6,
        options: RuleOptions::default(),
    })
    .unwrap()
}

/// Seat 1 (army 0) to move with nine pieces in its goal and the tenth two moves from the
/// last empty goal cell, which it cannot fill this move; a piece of seat 2 stands next to
/// that cell, or with `plugged` on it. Every seat has made `made` moves. Seat 4, whose home is
/// seat 1's goal, has nine pieces in seat 1's home and one in the middle of the board; the
/// others stand at home. Up to `wanted` such positions, in the board's order of cells.
fn last_holes(made: u16, plugged: bool, wanted: usize) -> Vec<(Variant, Position)> {
    let v = star6();
    let board = v.board();
    let armies = v.armies();
    let corners = armies
        .iter()
        .fold(halma_rules::Bitboard::EMPTY, |b, a| b | a.home | a.goal);
    let middle = |c: u8| !corners.has(c);
    let cell = |i: u8| board.cell(usize::from(i)).unwrap();
    let goal = armies[0].goal;
    let name = |c: u8| board.name(cell(c)).to_owned();
    let list = |cells: Vec<u8>| cells.into_iter().map(name).collect::<Vec<_>>().join(",");
    let made = vec![made.to_string(); 6].join(",");
    let mut found = Vec::new();
    let mut moves = Vec::new();
    for hole in goal.iter() {
        for by in board.neighbors(cell(hole)) {
            let by = by.index();
            if !middle(by) {
                continue;
            }
            for n in board.neighbors(cell(by)) {
                for far in board.neighbors(n) {
                    let far = far.index();
                    if !middle(far) || far == by || n.index() == hole {
                        continue;
                    }
                    let Some(spare) = (0..board.len() as u8).find(|&c| {
                        middle(c)
                            && ![by, far].contains(&c)
                            && board
                                .neighbors(cell(c))
                                .iter()
                                .all(|n| !goal.has(n.index()) && ![by, far].contains(&n.index()))
                    }) else {
                        continue;
                    };
                    let placement: Vec<String> = armies
                        .iter()
                        .enumerate()
                        .map(|(i, a)| {
                            list(match i {
                                0 => goal.iter().filter(|&c| c != hole).chain([far]).collect(),
                                1 => {
                                    let plug = if plugged { hole } else { by };
                                    a.home.iter().skip(1).chain([plug]).collect()
                                }
                                3 => a.goal.iter().skip(1).chain([spare]).collect(),
                                _ => a.home.iter().collect(),
                            })
                        })
                        .collect();
                    let text = format!("star 6 - {} 1 {made}", placement.join("/"));
                    let (v, pos) = notation::parse_position(&text).unwrap();
                    v.generate_moves(&pos, &mut moves);
                    let finishes = |m: &halma_rules::Move| {
                        let mut next = pos;
                        v.play_unchecked(&mut next, *m);
                        next.is_finished(pos.to_move())
                    };
                    if !moves.iter().any(finishes) {
                        found.push((v, pos));
                        if found.len() == wanted {
                            return found;
                        }
                    }
                }
            }
        }
    }
    found
}

/// Whether the seat after the one that played `mv` at `pos` can then move a piece onto an
/// empty cell of the mover's goal.
fn leaves_a_plug(v: &Variant, pos: &Position, mv: halma_rules::Move) -> bool {
    let goal = v.armies()[0].goal;
    let mut next = *pos;
    v.play_unchecked(&mut next, mv);
    let mut moves = Vec::new();
    v.generate_moves(&next, &mut moves);
    moves
        .iter()
        .any(|m| goal.has(m.to.index()) && !next.occupied().has(m.to.index()))
}

/// The model search finishes two moves on either way, but only with plugs does it see that
/// seat 2 would take a hole left next to its piece: it plays a move after which seat 2 cannot
/// reach an empty goal cell, where without plugs it leaves one in reach. Once the seats'
/// pieces would count in the goal (their grace period over), no plug is predicted.
#[test]
fn an_opponent_takes_the_last_hole() {
    for (made, plugged) in [(30, true), (39, false)] {
        let (v, pos) = last_holes(made, false, 1).remove(0);
        let eval = RaceEvaluator::new(&v);
        let choose = |plugs: bool| {
            Brs::modelling(&v, &eval, 14)
                .with_plugs(plugs)
                .choose(&pos, &[pos.hash()], &Budget::depth(3))
                .unwrap()
        };
        let (plain, with) = (choose(false), choose(true));
        let text = notation::format_position(&v, &pos);
        assert!(plain.score >= WIN_THRESHOLD, "{text}");
        assert!(with.score >= WIN_THRESHOLD, "{text}");
        assert!(leaves_a_plug(&v, &pos, plain.mv), "{text}");
        assert_eq!(leaves_a_plug(&v, &pos, with.mv), !plugged, "{text}");
        if !plugged {
            assert_eq!((with.mv, with.score), (plain.mv, plain.score), "{text}");
        }
    }
}

/// Level 10's ensemble predicts plugs against fields not judged greedy (searching players
/// take a last hole; greedy racers never do): on the built positions it then plays a move
/// after which seat 2 cannot reach an empty goal cell, and against greedy racers one after
/// which it can (the quicker finish).
#[test]
fn level_ten_expects_plugs_from_fields_not_greedy() {
    for (v, pos) in last_holes(30, false, 2) {
        let eval = RaceEvaluator::new(&v);
        let choose = |opponents| {
            Ensemble::against(&v, &eval, 14, opponents)
                .choose(&pos, &[pos.hash()], &Budget::depth(OTHER_FIELD_DEEP))
                .unwrap()
        };
        let text = notation::format_position(&v, &pos);
        for opponents in [Opponents::Other, Opponents::Unknown] {
            let r = choose(opponents);
            assert!(r.score >= WIN_THRESHOLD, "{opponents:?}: {text}");
            assert!(!leaves_a_plug(&v, &pos, r.mv), "{opponents:?}: {text}");
        }
        let greedy = choose(Opponents::Greedy);
        assert!(greedy.score >= WIN_THRESHOLD, "{text}");
        assert!(leaves_a_plug(&v, &pos, greedy.mv), "{text}");
    }
}

/// Positions of noisy greedy self-play on the 6-player star in which the seat to move has at
/// most two empty goal cells, with each one's earlier position keys.
fn endgames(seed: u64, wanted: usize) -> Vec<(Position, Vec<u64>)> {
    let v = star6();
    let eval = RaceEvaluator::new(&v);
    let mut found = Vec::new();
    for game in 0..u64::from(u16::MAX) {
        let mut player = Greedy::new(&v, &eval, 2 * ROW, seed + game);
        let mut pos = Position::start(&v, v.seat(0).unwrap());
        let mut keys = Vec::new();
        for _ in 0..400 {
            if Sides::new(&v).game_over(&pos) || found.len() >= wanted {
                break;
            }
            let seat = pos.to_move();
            let holes: u32 = v
                .armies_of(seat)
                .map(|a| (v.armies()[a].goal & !pos.occupied()).count())
                .sum();
            if holes <= 2 && keys.len() % 3 == 0 {
                found.push((pos, keys.clone()));
            }
            keys.push(pos.hash());
            let Some(r) = player.choose(&pos, &keys, &Budget::depth(1)) else {
                break;
            };
            v.play_unchecked(&mut pos, r.mv);
        }
        if found.len() >= wanted {
            break;
        }
    }
    found
}

/// With plugs, the model search and its plain reference agree on every value, under each
/// reply model, on endgame positions of self-play and on built ones (a last hole within an
/// opponent's reach, or taken by it, in and after its grace period), where plugs change
/// the reference's values.
#[test]
fn plugs_match_the_reference() {
    let v = star6();
    let eval = RaceEvaluator::new(&v);
    let mut changed = 0;
    let built = [(30, false), (30, true), (39, true)]
        .into_iter()
        .flat_map(|(made, plugged)| last_holes(made, plugged, 4))
        .map(|(_, pos)| (pos, Vec::new()));
    for (pos, keys) in endgames(7, 8).into_iter().chain(built) {
        for model in [ReplyModel::Greedy, ReplyModel::Progress, ReplyModel::Rival] {
            for depth in [1, 3] {
                let reference = |plugs| {
                    MultiReference::new(&v, &eval, MultiMode::Model)
                        .with_reply_model(model)
                        .with_rival_share(MODEL_RIVAL_SHARE)
                        .with_root_progress(MODEL_ROOT_PROGRESS)
                        .with_plugs(plugs)
                        .value(&pos, &keys, depth)
                        .0
                };
                let want = reference(true);
                changed += usize::from(want != reference(false));
                let got = Brs::new(&v, &eval, MultiMode::Model, 12)
                    .with_reply_model(model)
                    .with_rival_share(MODEL_RIVAL_SHARE)
                    .with_root_progress(MODEL_ROOT_PROGRESS)
                    .with_plugs(true)
                    .choose(&pos, &keys, &Budget::depth(depth))
                    .unwrap();
                let text = notation::format_position(&v, &pos);
                assert_eq!(got.score, want, "{model:?}, depth {depth}: {text}");
            }
        }
    }
    assert!(changed > 0, "no position where plugs matter");
}

/// With plugs and level 10's cost for an open goal, the model search and its plain reference
/// (which finds the holes an opponent can reach from the cells' coordinates) agree on every
/// value, under each reply model, on endgame positions of self-play and on built ones (an
/// open last hole or a plug, in and at the end of the opponent's grace period), where the
/// cost changes the reference's values.
#[test]
fn exposure_matches_the_reference() {
    let v = star6();
    let eval = RaceEvaluator::new(&v);
    let mut changed = 0;
    let built = [(30, false), (30, true), (39, false), (39, true)]
        .into_iter()
        .flat_map(|(made, plugged)| last_holes(made, plugged, 4))
        .map(|(_, pos)| (pos, Vec::new()));
    for (pos, keys) in endgames(11, 8).into_iter().chain(built) {
        for model in [ReplyModel::Greedy, ReplyModel::Progress, ReplyModel::Rival] {
            for depth in [1, 3] {
                let reference = |hole, foreign| {
                    MultiReference::new(&v, &eval, MultiMode::Model)
                        .with_reply_model(model)
                        .with_rival_share(MODEL_RIVAL_SHARE)
                        .with_root_progress(MODEL_ROOT_PROGRESS)
                        .with_plugs(true)
                        .with_exposure(hole, foreign, EXPOSURE_GAPS)
                        .value(&pos, &keys, depth)
                        .0
                };
                let want = reference(EXPOSURE_HOLE, EXPOSURE_FOREIGN);
                changed += usize::from(want != reference(0, 0));
                let got = Brs::new(&v, &eval, MultiMode::Model, 12)
                    .with_reply_model(model)
                    .with_rival_share(MODEL_RIVAL_SHARE)
                    .with_root_progress(MODEL_ROOT_PROGRESS)
                    .with_plugs(true)
                    .with_exposure(EXPOSURE_HOLE, EXPOSURE_FOREIGN, EXPOSURE_GAPS)
                    .choose(&pos, &keys, &Budget::depth(depth))
                    .unwrap();
                let text = notation::format_position(&v, &pos);
                assert_eq!(got.score, want, "{model:?}, depth {depth}: {text}");
            }
        }
    }
    assert!(changed > 0, "no position where the cost matters");
}

/// With the opponents standing still (`Brs::with_standing_still`, level 10's check of a
/// finish), the model search and its plain reference agree on every value, with and without
/// plugs, on endgame positions of self-play and on built ones (a last hole in an opponent's
/// reach, taken or not, in its grace period). Standing still changes the reference's values
/// there (the pieces of others do not make way), and so do plugs while the others stand still
/// (the one move they make).
#[test]
fn standing_still_matches_the_reference() {
    let v = star6();
    let eval = RaceEvaluator::new(&v);
    let (mut still_changed, mut plugs_changed) = (0, 0);
    let built = [(30, false), (30, true)]
        .into_iter()
        .flat_map(|(made, plugged)| last_holes(made, plugged, 4))
        .map(|(_, pos)| (pos, Vec::new()));
    for (pos, keys) in endgames(11, 8).into_iter().chain(built) {
        for depth in [1, 3, 5] {
            let reference = |plugs, still| {
                MultiReference::new(&v, &eval, MultiMode::Model)
                    .with_reply_model(ReplyModel::Greedy)
                    .with_rival_share(MODEL_RIVAL_SHARE)
                    .with_root_progress(MODEL_ROOT_PROGRESS)
                    .with_plugs(plugs)
                    .with_standing_still(still)
                    .value(&pos, &keys, depth)
                    .0
            };
            for plugs in [false, true] {
                let want = reference(plugs, true);
                if plugs {
                    plugs_changed += usize::from(want != reference(false, true));
                } else {
                    still_changed += usize::from(want != reference(false, false));
                }
                let got = Brs::new(&v, &eval, MultiMode::Model, 12)
                    .with_reply_model(ReplyModel::Greedy)
                    .with_rival_share(MODEL_RIVAL_SHARE)
                    .with_root_progress(MODEL_ROOT_PROGRESS)
                    .with_plugs(plugs)
                    .with_standing_still(true)
                    .choose(&pos, &keys, &Budget::depth(depth))
                    .unwrap();
                let text = notation::format_position(&v, &pos);
                assert_eq!(got.score, want, "plugs {plugs}, depth {depth}: {text}");
            }
        }
    }
    assert!(
        still_changed > 0,
        "no position where standing still matters"
    );
    assert!(
        plugs_changed > 0,
        "no position where a plug matters to standing seats"
    );
}
