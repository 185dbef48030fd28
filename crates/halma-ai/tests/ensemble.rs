//! Level 10's ensemble of reply-model searches (`halma_ai::Ensemble`) on positions where the
//! game's end is near: a search that proves a win stops deepening there, and such a value
//! counts at every depth of the ensemble's passes. Also: an option set on the ensemble reaches
//! every one of its searches, and the threats of `Ensemble::with_leader_threats` are tried only
//! while the seat to move leads.

// Test code: a failed setup should fail the test loudly.
#![allow(clippy::unwrap_used)]

use halma_ai::brs::{MODEL_OWN_LIMIT, MODEL_RIVAL_SHARE, MODEL_ROOT_PROGRESS};
use halma_ai::ensemble::{ENSEMBLE_DEEP, ENSEMBLE_MODELS, FINISH_PASS, OTHER_FIELD_DEEP};
use halma_ai::eval::{scores_best, Evaluator, WIN, WIN_THRESHOLD};
use halma_ai::search::ExcludeRootMoves;
use halma_ai::{
    Brs, Budget, Ensemble, Greedy, MultiMode, MultiReference, Opponents, RaceEvaluator, ReplyModel,
    Sides, Strategy,
};
use halma_rules::{notation, Bitboard, BoardKind, GameSetup, Move, Position, RuleOptions, Variant};

/// Seat 1 (army 0) to move on the 6-player star, every seat past the anti-blocking rule's
/// grace period (45 moves made): eight of its pieces in its goal, a piece of seat 4 (army 3)
/// on a ninth goal cell, where it counts as a blocker, the tenth goal cell empty with a piece
/// of seat 1 next to it, and seat 1's last piece in the middle of the board where some move
/// (a jump over a piece of seat 4 there) brings it further forward than the finishing step.
/// Seat 4's other pieces stand in its own goal, the other seats at home. The first such
/// position in the board's order of cells.
fn finish_behind_a_longer_move() -> (Variant, Position) {
    let v = six_player_star();
    let board = v.board();
    let armies = v.armies();
    let corners = armies
        .iter()
        .fold(Bitboard::EMPTY, |b, a| b | a.home | a.goal);
    let middle: Vec<u8> = (0..board.len() as u8)
        .filter(|&c| !corners.has(c))
        .collect();
    let cell = |i: u8| board.cell(usize::from(i)).unwrap();
    let name = |c: u8| board.name(cell(c)).to_owned();
    let list = |cells: &[u8]| cells.iter().map(|&c| name(c)).collect::<Vec<_>>().join(",");
    let eval = RaceEvaluator::new(&v);
    let goal = armies[0].goal;
    let mut moves = Vec::new();
    for hole in goal.iter() {
        for next_to in board.neighbors(cell(hole)) {
            let next_to = next_to.index();
            if !middle.contains(&next_to) {
                continue;
            }
            for blocker in goal.iter().filter(|&c| c != hole) {
                for (&last, &stone) in middle
                    .iter()
                    .flat_map(|l| middle.iter().map(move |s| (l, s)))
                {
                    if last == stone || [last, stone].contains(&next_to) {
                        continue;
                    }
                    let own: Vec<u8> = goal
                        .iter()
                        .filter(|&c| c != hole && c != blocker)
                        .chain([next_to, last])
                        .collect();
                    let placement: Vec<String> = armies
                        .iter()
                        .enumerate()
                        .map(|(i, a)| match i {
                            0 => list(&own),
                            3 => {
                                let cells: Vec<u8> =
                                    a.goal.iter().skip(2).chain([blocker, stone]).collect();
                                list(&cells)
                            }
                            _ => list(&a.home.iter().collect::<Vec<_>>()),
                        })
                        .collect();
                    let text = format!("star 6 - {} 1 45,45,45,45,45,45", placement.join("/"));
                    let (v, pos) = notation::parse_position(&text).unwrap();
                    v.generate_moves(&pos, &mut moves);
                    let best_of = |finishing: bool| {
                        moves
                            .iter()
                            .filter(|&&m| finishes(&v, &pos, m) == finishing)
                            .map(|&m| eval.progress(&pos, m))
                            .max()
                    };
                    if let (Some(finish), Some(other)) = (best_of(true), best_of(false)) {
                        if other > finish {
                            return (v, pos);
                        }
                    }
                }
            }
        }
    }
    panic!("no position with a finishing move behind a longer one");
}

/// The 6-player star with the rule book's default options.
fn six_player_star() -> Variant {
    Variant::new(&GameSetup {
        board: BoardKind::Star,
        players: 6,
        options: RuleOptions::default(),
    })
    .unwrap()
}

/// The move, value and nodes of `ensemble`'s first pass alone (depth 3, every root move) at
/// `pos`.
fn first_pass(ensemble: Ensemble<'_, RaceEvaluator>, pos: &Position) -> (Move, i32, u64) {
    let r = ensemble
        .with_passes(3, 0, 1)
        .choose(pos, &[pos.hash()], &Budget::depth(3))
        .unwrap();
    (r.mv, r.score, r.nodes)
}

/// Whether the seat to move at `pos` finishes with `mv`.
fn finishes(v: &Variant, pos: &Position, mv: Move) -> bool {
    let mut next = *pos;
    v.play_unchecked(&mut next, mv);
    next.is_finished(pos.to_move())
}

/// A move that finishes proves the win in the first iteration of the ensemble's searches,
/// below the depth of its first pass: the ensemble plays it, whatever field it judges,
/// although moves that bring a piece further forward are searched first.
#[test]
fn level_ten_finishes_when_it_can() {
    let (v, pos) = finish_behind_a_longer_move();
    let eval = RaceEvaluator::new(&v);
    let text = notation::format_position(&v, &pos);
    for opponents in [Opponents::Greedy, Opponents::Other, Opponents::Unknown] {
        for depth in [ENSEMBLE_DEEP, OTHER_FIELD_DEEP] {
            let r = Ensemble::against(&v, &eval, 14, opponents)
                .choose(&pos, &[pos.hash()], &Budget::depth(depth))
                .unwrap();
            assert!(finishes(&v, &pos, r.mv), "{opponents:?}: {text}");
            assert!(r.score >= WIN_THRESHOLD, "{opponents:?}: {text}");
        }
    }
}

/// The root unit's adjustments of a root move (the root progress, the waiting cost) judge
/// positions still in play and leave proven wins alone: a finish now scores higher than a
/// move that brings a piece two rows forward and finishes later, in the reference search
/// (which searches every move to the full depth) and in Best-Reply Search with the other root
/// moves left out (as the ensemble searches each), which agree on both values.
#[test]
fn a_quicker_win_scores_higher() {
    let (v, pos) = finish_behind_a_longer_move();
    let eval = RaceEvaluator::new(&v);
    let text = notation::format_position(&v, &pos);
    let mut moves = Vec::new();
    v.generate_moves(&pos, &mut moves);
    let finishes = |mv: Move| finishes(&v, &pos, mv);
    let finish = moves.iter().copied().find(|&m| finishes(m)).unwrap();
    let forward = moves
        .iter()
        .copied()
        .max_by_key(|&m| eval.progress(&pos, m))
        .unwrap();
    assert!(!finishes(forward), "{text}");
    let depth = 5;
    let reference = |root: Option<Move>| {
        MultiReference::new(&v, &eval, MultiMode::Model)
            .with_reply_model(ReplyModel::Greedy)
            .with_rival_share(MODEL_RIVAL_SHARE)
            .with_root_progress(MODEL_ROOT_PROGRESS)
            .with_root_move(root)
            .value(&pos, &[pos.hash()], depth)
    };
    let brs = |mv: Move| {
        let others: Vec<Move> = moves.iter().copied().filter(|&m| m != mv).collect();
        let mut search = Brs::modelling(&v, &eval, 14);
        search.exclude_root_moves(&others);
        search
            .choose(&pos, &[pos.hash()], &Budget::depth(depth))
            .unwrap()
            .score
    };
    let (now, later) = (reference(Some(finish)).0, reference(Some(forward)).0);
    assert_eq!(now, WIN - 1, "{text}");
    // The forward move also wins within the depth, by a finish two own moves later.
    assert!(later >= WIN_THRESHOLD && later < now, "{later}: {text}");
    assert_eq!((brs(finish), brs(forward)), (now, later), "{text}");
    let (best, mv) = reference(None);
    assert_eq!((best, mv.map(finishes)), (now, Some(true)), "{text}");
}

/// [`Ensemble::with_own_limit`] reaches every search of the ensemble: level 10's own limit
/// changes nothing, and one own move below the root searches fewer nodes than ten.
#[test]
fn own_limit_reaches_every_search() {
    let v = six_player_star();
    let eval = RaceEvaluator::new(&v);
    let pos = Position::start(&v, v.seat(0).unwrap());
    let run = |limit: Option<usize>| {
        let ensemble = Ensemble::modelling(&v, &eval, 14);
        let ensemble = match limit {
            Some(l) => ensemble.with_own_limit(l),
            None => ensemble,
        };
        first_pass(ensemble, &pos)
    };
    let level = run(None);
    assert_eq!(run(Some(MODEL_OWN_LIMIT)), level);
    let one = run(Some(1));
    assert!(
        one.2 < level.2,
        "{} nodes with one own move, {} with ten",
        one.2,
        level.2
    );
}

/// [`Ensemble::with_leader_threats`]: while the seat to move scores best of all seats still
/// racing, the ensemble answers as one whose searches all try the threats
/// ([`Brs::with_threats`]); otherwise as one without them. Along a greedy game on the
/// 6-player star both kinds of position occur, and the threats change some answers.
#[test]
fn leader_threats_only_while_leading() {
    let v = six_player_star();
    let eval = RaceEvaluator::new(&v);
    let sides = Sides::new(&v);
    let leads = |pos: &Position| scores_best(&eval, &sides, pos, sides.unit(pos.to_move()));
    let threatening = |n: usize| {
        let searches = ENSEMBLE_MODELS
            .iter()
            .map(|&m| {
                Brs::modelling(&v, &eval, 14)
                    .with_reply_model(m)
                    .with_threats(n)
            })
            .collect();
        Ensemble::new(&v, &eval, searches)
    };
    let mut pos = Position::start(&v, v.seat(0).unwrap());
    // Every seat alike at the start; after one forward move the next seat trails.
    assert!(leads(&pos));
    let (mut leading, mut trailing, mut changed) = (0, 0, 0);
    for ply in 0..120 {
        if leading == 3 && trailing == 3 {
            break;
        }
        let leader = leads(&pos);
        if (leader && leading < 3) || (!leader && trailing < 3 && ply % 7 == 0) {
            let found = first_pass(
                Ensemble::modelling(&v, &eval, 14).with_leader_threats(2),
                &pos,
            );
            let plain = first_pass(Ensemble::modelling(&v, &eval, 14), &pos);
            if leader {
                leading += 1;
                assert_eq!(found, first_pass(threatening(2), &pos), "ply {ply}");
                changed += usize::from(found != plain);
            } else {
                trailing += 1;
                assert_eq!(found, plain, "ply {ply}");
            }
        }
        let mv = Greedy::new(&v, &eval, 0, 1)
            .choose(&pos, &[], &Budget::depth(1))
            .unwrap()
            .mv;
        v.play_unchecked(&mut pos, mv);
        if ply == 0 {
            assert!(!leads(&pos));
        }
    }
    assert!(
        leading > 0 && trailing > 0 && changed > 0,
        "{leading} positions led, {trailing} trailed, threats changed {changed}"
    );
}

/// A position of a recorded game (arena, five paranoid searches, seed 92, game 22, ply 226):
/// seat 5 (army 4) to move, nine rows from its finish; seat 1 (army 0), with two pieces out
/// of its goal, finished first there fifteen plies later, seat 5 second.
const BEHIND_A_RIVAL: &str = "star 6 - k4,m5,n2,n4,o1,o2,o3,p1,p2,q1/g10,h9,i9,k10,k11,l11,\
l12,m11,m12,m13/e8,e10,e11,e12,e13,f11,f12,g6,g11,j8/a1,b1,b2,c2,c3,d1,d2,e5,e6,g3/e1,e2,e4,\
f1,f2,f3,g1,g2,h2,i3/h1,j4,k1,l1,l2,l5,m1,m2,m3,n1 5 38,38,38,38,37,37";

/// The same game in the middle of the race (ply 120, seat 1 to move), every seat far from
/// its finish.
const MIDDLE_OF_THE_RACE: &str = "star 6 - d2,f8,g8,h8,m6,m8,m9,n4,o3,p2/g3,g4,h5,h6,j9,l12,\
m3,m10,m12,m13/d3,e7,e10,e12,e13,j7,j8,k4,l3,m2/d1,e5,f3,f4,f5,f6,g5,h4,k5,o2/e3,e6,f2,f9,g6,\
i2,i3,i4,l4,l10/f7,f10,h1,i8,j2,k2,k6,k7,l1,m1 1 20,20,20,20,20,20";

/// [`Ensemble::with_finish_pass`]: near the finish the deeper pass's moves are searched once
/// more, to the pass's depth, and that pass decides; in the middle of the race it does not
/// run. Level 10 runs it against fields not judged greedy ([`FINISH_PASS`]).
#[test]
fn the_finish_pass_runs_near_the_finish_only() {
    let budget = Budget::depth(10);
    let (v, pos) = notation::parse_position(BEHIND_A_RIVAL).unwrap();
    let eval = RaceEvaluator::new(&v);
    for (opponents, depth) in [
        (Opponents::Other, FINISH_PASS.1),
        (Opponents::Unknown, FINISH_PASS.1),
        (Opponents::Greedy, ENSEMBLE_DEEP),
    ] {
        let r = Ensemble::against(&v, &eval, 14, opponents)
            .choose(&pos, &[pos.hash()], &budget)
            .unwrap();
        assert_eq!(r.depth, depth, "{opponents:?}");
    }
    let [off, on] = [None, Some((40, 9))].map(|pass| {
        Ensemble::against(&v, &eval, 14, Opponents::Other)
            .with_finish_pass(pass)
            .choose(&pos, &[pos.hash()], &budget)
            .unwrap()
    });
    assert_eq!((off.depth, on.depth), (OTHER_FIELD_DEEP, 9));

    let (v, pos) = notation::parse_position(MIDDLE_OF_THE_RACE).unwrap();
    let eval = RaceEvaluator::new(&v);
    let [off, on] = [None, Some((40, 9))].map(|pass| {
        Ensemble::against(&v, &eval, 14, Opponents::Other)
            .with_finish_pass(pass)
            .choose(&pos, &[pos.hash()], &budget)
            .unwrap()
    });
    assert_eq!(
        (off.mv, off.score, off.depth),
        (on.mv, on.score, OTHER_FIELD_DEEP)
    );
}

/// A position of level 10's own games (arena, 6-player star, five paranoid searches, seed
/// 107, game 11, ply 185): level 10 in seat 6 with eight pieces in its goal, one beside it
/// (j2) and one outside (m7) whose way in runs over two pieces of seat 1 (m6, m5). Every reply
/// model predicts that seat 1 moves them on towards its own goal, so without the check level
/// 10 counts on finishing in three moves and marks time (in the game it went j2-k3, k3-j2,
/// j2-k3 while seat 1 kept its pieces there, and came last).
const A_FINISH_THAT_NEEDS_A_PIECE_TO_MOVE: &str = "star 6 - \
    k5,k9,l4,m5,m6,n1,o2,o3,p1,p2/i9,j8,j9,k10,k11,l11,l12,m12,m13,n4/\
    e10,e12,e13,f10,f11,f12,g10,g11,h8,k8/a1,b1,b2,c1,c2,c3,d2,e5,e8,g6/\
    e1,e2,e3,f1,f3,f4,f6,g1,g2,g4/j1,j2,k1,l1,l2,l3,m1,m2,m4,m7 6 31,31,31,31,31,30";

/// `Ensemble::with_finish_check`: a win the reply models promise is searched again with the
/// opponents standing still, and the move played is one whose finish holds that way too.
/// Level 10 checks its finishes against fields not judged greedy (`Ensemble::against`).
#[test]
fn the_finish_check_plays_a_finish_that_holds_with_the_others_standing_still() {
    let (v, pos) = notation::parse_position(A_FINISH_THAT_NEEDS_A_PIECE_TO_MOVE).unwrap();
    let eval = RaceEvaluator::new(&v);
    let budget = Budget::depth(FINISH_PASS.1);
    let level_ten = || Ensemble::against(&v, &eval, 14, Opponents::Other);
    let standing_still = |mv: Move| {
        let mut moves = Vec::new();
        v.generate_moves(&pos, &mut moves);
        moves.retain(|&m| m != mv);
        let mut still = Brs::modelling(&v, &eval, 14)
            .with_plugs(true)
            .with_standing_still(true);
        still.exclude_root_moves(&moves);
        still.choose(&pos, &[], &budget).unwrap().score
    };
    let unchecked = level_ten()
        .with_finish_check(None)
        .choose(&pos, &[], &budget)
        .unwrap();
    assert!(
        unchecked.score >= WIN_THRESHOLD,
        "the models promise a finish"
    );
    assert!(
        standing_still(unchecked.mv) < unchecked.score,
        "{:?}: the promised finish needs another seat's pieces to move",
        unchecked
    );
    for mut ensemble in [
        level_ten(),
        level_ten()
            .with_finish_check(None)
            .with_finish_check(Some(Brs::modelling(&v, &eval, 14).with_plugs(true))),
    ] {
        let checked = ensemble.choose(&pos, &[], &budget).unwrap();
        assert_ne!(checked.mv, unchecked.mv);
        assert!(checked.score >= WIN_THRESHOLD, "{checked:?}");
        assert_eq!(checked.score, standing_still(checked.mv), "{checked:?}");
        assert!(checked.score > standing_still(unchecked.mv));
    }
}
