//! Search tests: the optimised search against the plain reference, legality, levels,
//! determinism and (loosely) the time budget.

// Test code: a failed setup should fail the test loudly.
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use halma_ai::brs::{MODEL_RIVAL_SHARE, MODEL_ROOT_PROGRESS};
use halma_ai::ensemble::{Aggregate, ENSEMBLE_MODELS};
use halma_ai::eval::{Evaluator, FULL_RIVAL, ROW, WIN_THRESHOLD};
use halma_ai::{
    suggest, suggest_lines, Brs, Budget, Ensemble, ExcludeRootMoves, Greedy, MultiMode,
    MultiReference, Pvs, PvsOptions, RaceEvaluator, Reference, ReplyModel, SearchLimits, Sides,
    Strategy,
};
use halma_rules::{BoardKind, GameSetup, Move, Position, RuleOptions, SplitMix64, Variant};

fn variant(board: BoardKind, players: u8, options: RuleOptions) -> Variant {
    Variant::new(&GameSetup {
        board,
        players,
        options,
    })
    .unwrap()
}

/// A position after `plies` moves of noisy greedy play, with the hashes of the positions
/// before it; `None` when the game ended first.
fn random_position(v: &Variant, plies: usize, seed: u64) -> Option<(Position, Vec<u64>)> {
    let eval = RaceEvaluator::new(v);
    let mut pos = Position::start(v, v.seat(0).unwrap());
    let mut history = Vec::new();
    let mut greedy = Greedy::new(v, &eval, 64, seed);
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        v.generate_moves(&pos, &mut moves);
        if moves.is_empty() {
            return None;
        }
        history.push(pos.hash());
        let mv = if rng.below(4) == 0 {
            moves[rng.index(moves.len())]
        } else {
            greedy.choose(&pos, &[], &Budget::depth(1)).unwrap().mv
        };
        v.play_unchecked(&mut pos, mv);
        if !pos.is_active(pos.to_move()) || !v.has_moves(&pos) {
            return None;
        }
    }
    Some((pos, history))
}

fn check_against_reference(v: &Variant, depths: &[u32], positions: usize, max_plies: u64) {
    let eval = RaceEvaluator::new(v);
    let mut rng = SplitMix64::new(99);
    let mut checked = 0;
    while checked < positions {
        let plies = rng.below(max_plies) as usize;
        let Some((pos, history)) = random_position(v, plies, rng.next_u64()) else {
            continue;
        };
        checked += 1;
        for &depth in depths {
            // Table and ordering on, repetitions off: exactly the plain fixed-depth value.
            let mut reference = Reference::new(v, &eval, false);
            let (want, _) = reference.value(&pos, &[], depth);
            let mut pvs = Pvs::new(
                v,
                &eval,
                PvsOptions {
                    table_bits: Some(12),
                    repetitions: false,
                    selective: false,
                },
            );
            let got = pvs.choose(&pos, &[], &Budget::depth(depth)).unwrap();
            assert_eq!(got.score, want, "table on, depth {depth}, plies {plies}");
            assert_eq!(got.depth, depth.min(got.depth));
            // Repetitions on (the game's history and the search path), table off.
            let recent = &history[history.len().saturating_sub(6)..];
            let mut reference = Reference::new(v, &eval, true);
            let (want, _) = reference.value(&pos, recent, depth);
            let mut pvs = Pvs::new(
                v,
                &eval,
                PvsOptions {
                    table_bits: None,
                    repetitions: true,
                    selective: false,
                },
            );
            let got = pvs.choose(&pos, recent, &Budget::depth(depth)).unwrap();
            assert_eq!(
                got.score, want,
                "repetitions on, depth {depth}, plies {plies}"
            );
            assert!(v.is_legal(&pos, got.mv));
        }
    }
}

#[test]
fn pvs_matches_reference_on_small_stars() {
    let arm2 = variant(
        BoardKind::Star,
        2,
        RuleOptions {
            arm_size: Some(2),
            ..RuleOptions::default()
        },
    );
    check_against_reference(&arm2, &[1, 2, 3, 4], 6, 40);
    let arm3 = variant(
        BoardKind::Star,
        2,
        RuleOptions {
            arm_size: Some(3),
            ..RuleOptions::default()
        },
    );
    check_against_reference(&arm3, &[1, 2, 3], 3, 50);
}

#[test]
fn pvs_matches_reference_with_teams_and_leave_home() {
    // Two teams of two on a small star: partners move on the same side of the negamax.
    let teams = variant(
        BoardKind::Star,
        4,
        RuleOptions {
            arm_size: Some(2),
            teams: Some(true),
            leave_home_moves: Some(6),
            ..RuleOptions::default()
        },
    );
    check_against_reference(&teams, &[1, 2, 3], 5, 40);
    let square = variant(BoardKind::Square8, 2, RuleOptions::default());
    check_against_reference(&square, &[1, 2], 3, 60);
}

/// Best-Reply Search (and paranoid search) with its table and ordering, every reply
/// considered, against the plain search in the same layers: the same value at every depth,
/// with and without the game's recent positions counting as repetitions.
fn check_brs_against_reference(v: &Variant, mode: MultiMode, depths: &[u32], positions: usize) {
    check_brs_against_reference_with(v, mode, FULL_RIVAL, depths, positions);
}

/// [`check_brs_against_reference`] with `rival_share` percent of the best rival counted.
fn check_brs_against_reference_with(
    v: &Variant,
    mode: MultiMode,
    rival_share: i32,
    depths: &[u32],
    positions: usize,
) {
    let eval = RaceEvaluator::new(v);
    let mut rng = SplitMix64::new(17);
    let mut checked = 0;
    while checked < positions {
        let plies = rng.below(40) as usize;
        let Some((pos, history)) = random_position(v, plies, rng.next_u64()) else {
            continue;
        };
        checked += 1;
        let recent = &history[history.len().saturating_sub(6)..];
        for &depth in depths {
            for game in [&[][..], recent] {
                let mut reference =
                    MultiReference::new(v, &eval, mode).with_rival_share(rival_share);
                let (want, _) = reference.value(&pos, game, depth);
                let got = Brs::new(v, &eval, mode, 12)
                    .with_reply_limit(None)
                    .with_rival_share(rival_share)
                    .choose(&pos, game, &Budget::depth(depth))
                    .unwrap();
                // Ranking the replies near the root unit's pieces first changes the order
                // only, not the value, while every reply is considered.
                let near = Brs::new(v, &eval, mode, 12)
                    .with_reply_limit(None)
                    .with_rival_share(rival_share)
                    .with_near_replies(true)
                    .choose(&pos, game, &Budget::depth(depth))
                    .unwrap();
                let context = format!(
                    "{mode:?}, rivals {rival_share}%, depth {depth}, plies {plies}, {} seen",
                    game.len()
                );
                assert_eq!(got.depth, depth, "{context}");
                assert_eq!(got.score, want, "{context}");
                assert_eq!(near.score, want, "{context}, near replies first");
                assert!(v.is_legal(&pos, got.mv), "{context}");
            }
        }
    }
}

#[test]
fn brs_matches_reference_on_small_stars() {
    let small = |players, teams| {
        variant(
            BoardKind::Star,
            players,
            RuleOptions {
                arm_size: Some(2),
                teams: Some(teams),
                ..RuleOptions::default()
            },
        )
    };
    // Best-Reply Search runs odd depths only (each iteration ends on the root unit's moves).
    for v in [small(3, false), small(4, false), small(6, true)] {
        check_brs_against_reference(&v, MultiMode::BestReply, &[1, 3], 4);
        check_brs_against_reference(&v, MultiMode::Paranoid, &[1, 2, 3], 3);
    }
    // Deep enough for transpositions, where table entries decide nodes.
    let three = small(3, false);
    check_brs_against_reference(&three, MultiMode::BestReply, &[5], 1);
    check_brs_against_reference(&three, MultiMode::Paranoid, &[5], 2);
}

/// The root unit's own race (the opponents passing, or the best rival's score counted in
/// part or not at all), as level 10 plays with three or more units, against the plain search.
#[test]
fn solo_and_rival_shares_match_reference_on_small_stars() {
    let small = |players, teams| {
        variant(
            BoardKind::Star,
            players,
            RuleOptions {
                arm_size: Some(2),
                teams: Some(teams),
                ..RuleOptions::default()
            },
        )
    };
    for v in [small(3, false), small(4, false), small(6, true)] {
        check_brs_against_reference_with(&v, MultiMode::Solo, 0, &[1, 2, 3], 3);
        check_brs_against_reference_with(&v, MultiMode::BestReply, 0, &[1, 3], 3);
        check_brs_against_reference_with(&v, MultiMode::BestReply, 50, &[3], 2);
    }
    check_brs_against_reference_with(&small(3, false), MultiMode::Solo, 0, &[4], 2);
}

/// Opponent modelling (level 10 with three or more units), every own move considered, against
/// the plain search that plays the opponents' predicted moves in the same way: the same value
/// at every depth, by either reply model, with and without repetitions.
#[test]
fn model_matches_reference_on_small_stars() {
    for v in small_stars() {
        for model in [ReplyModel::Progress, ReplyModel::Greedy, ReplyModel::Rival] {
            check_model_against_reference(&v, model, (0, 0), WHOLE, &[1, 3], 3, 0..40);
        }
    }
    // Deep enough for transpositions, where table entries decide nodes.
    check_model_against_reference(
        &small_stars()[0],
        ReplyModel::Greedy,
        (0, 0),
        WHOLE,
        &[5],
        2,
        0..40,
    );
    // The full board, crowded enough for one opponent's predicted move to change another's.
    let full = variant(BoardKind::Star, 6, RuleOptions::default());
    check_model_against_reference(
        &full,
        ReplyModel::Greedy,
        (0, 0),
        WHOLE,
        &[1, 3],
        4,
        60..120,
    );
    // The bonus for a root move's progress and the cost of a waiting root move (an option),
    // with the whole rival's score and with level 10's scoring at six players.
    let level10 = (MODEL_RIVAL_SHARE, MODEL_ROOT_PROGRESS, 0);
    for scoring in [(FULL_RIVAL, ROW, 0), (FULL_RIVAL, 0, 2 * ROW), level10] {
        for v in small_stars().iter().chain([&full]) {
            check_model_against_reference(
                v,
                ReplyModel::Greedy,
                (0, 0),
                scoring,
                &[1, 3],
                3,
                0..60,
            );
        }
    }
}

/// Level 10's search (depth 3, 6-player star) on up to `count` positions after a number of
/// plies drawn from `plies`, with the root options that `units` gives for `large` and for 0
/// (units a row of the root move's progress earns, units a waiting root move costs): `check`
/// gets the position's moves, the evaluator, the position and the two chosen moves.
fn root_option_choices(
    seed: u64,
    count: usize,
    plies: std::ops::Range<u64>,
    units: fn(i32) -> (i32, i32),
    large: i32,
    mut check: impl FnMut(&[Move], &RaceEvaluator, &Position, Move, Move),
) {
    let v = variant(BoardKind::Star, 6, RuleOptions::default());
    let eval = RaceEvaluator::new(&v);
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    for _ in 0..count {
        let at = plies.start + rng.below(plies.end - plies.start);
        let Some((pos, history)) = random_position(&v, at as usize, rng.next_u64()) else {
            continue;
        };
        v.generate_moves(&pos, &mut moves);
        let choose = |n| {
            let (progress, waiting) = units(n);
            Brs::modelling(&v, &eval, 12)
                .with_root_progress(progress)
                .with_root_waiting(waiting)
                .choose(&pos, &history, &Budget::depth(3))
                .unwrap()
                .mv
        };
        check(&moves, &eval, &pos, choose(large), choose(0));
    }
}

/// A large enough cost for a root move that brings no piece forward makes the search play a
/// forward move whenever there is one, which it does not always do without the cost.
#[test]
fn root_waiting_cost_prefers_a_forward_move() {
    let mut waited = 0;
    let waiting: fn(i32) -> (i32, i32) = |units| (MODEL_ROOT_PROGRESS, units);
    root_option_choices(
        43,
        32,
        150..240,
        waiting,
        100 * ROW,
        |moves, eval, pos, large, none| {
            if moves.iter().any(|&m| eval.progress(pos, m) > 0) {
                assert!(eval.progress(pos, large) > 0);
                waited += usize::from(eval.progress(pos, none) <= 0);
            }
        },
    );
    // Without the cost the search waits in one of these positions (fixed seeds and depth).
    assert!(waited > 0, "the search never waited anyway");
}

/// A large enough bonus for the root move's progress makes the search play a move that
/// brings its piece the most rows forward, which it does not always do without the bonus.
#[test]
fn root_progress_prefers_progress_now() {
    let mut behind = 0;
    let progress: fn(i32) -> (i32, i32) = |units| (units, 0);
    root_option_choices(
        41,
        12,
        10..90,
        progress,
        100 * ROW,
        |moves, eval, pos, large, none| {
            let most = moves.iter().map(|&m| eval.progress(pos, m)).max().unwrap();
            assert_eq!(eval.progress(pos, large), most);
            behind += usize::from(eval.progress(pos, none) < most);
        },
    );
    assert!(
        behind > 0,
        "the search always took the most progress anyway"
    );
}

/// The same with threats in the first opponent layer ([`Brs::with_threats`]): the value
/// agrees with the plain search's, and the threats change it in some of the positions.
#[test]
fn model_with_threats_matches_reference() {
    let mut changed = 0;
    for v in small_stars() {
        changed +=
            check_model_against_reference(&v, ReplyModel::Greedy, (2, 1), WHOLE, &[3], 3, 0..40);
    }
    let first = &small_stars()[0];
    changed +=
        check_model_against_reference(first, ReplyModel::Greedy, (5, 0), WHOLE, &[5], 2, 0..40);
    let full = variant(BoardKind::Star, 6, RuleOptions::default());
    for (threats, next) in [(1, 0), (5, 0), (0, 3), (5, 2)] {
        let found = (threats, next);
        let checked = check_model_against_reference(
            &full,
            ReplyModel::Greedy,
            found,
            WHOLE,
            &[3],
            4,
            20..120,
        );
        if next > 0 {
            assert!(
                checked > 0,
                "{next} replies of the next opponent changed nothing"
            );
        }
        changed += checked;
    }
    assert!(changed > 0, "no threat changed a value");
}

/// Small stars (arm 2) of 3, 4 and 6 players, and 6 players in teams.
fn small_stars() -> [Variant; 4] {
    let small = |players, teams| {
        variant(
            BoardKind::Star,
            players,
            RuleOptions {
                arm_size: Some(2),
                teams: Some(teams),
                ..RuleOptions::default()
            },
        )
    };
    [
        small(3, false),
        small(4, false),
        small(6, false),
        small(6, true),
    ]
}

/// The scoring of the searches by default: the whole of the best rival's score, no bonus for
/// a root move's progress and no cost for a waiting root move.
const WHOLE: (i32, i32, i32) = (FULL_RIVAL, 0, 0);

/// Opponent modelling against the plain search on `positions` positions after a number of
/// plies in `plies`, with `(threats, next replies)` in the first opponent layer and the
/// scoring `(rival share, root progress)`; returns in how many searches the threats and
/// next replies changed the value (always 0 without them).
fn check_model_against_reference(
    v: &Variant,
    model: ReplyModel,
    (threats, next): (usize, usize),
    (rival_share, root_progress, root_waiting): (i32, i32, i32),
    depths: &[u32],
    positions: usize,
    plies: std::ops::Range<u64>,
) -> usize {
    let eval = RaceEvaluator::new(v);
    let mut rng = SplitMix64::new(23);
    let mut checked = 0;
    let mut changed = 0;
    while checked < positions {
        let plies = (plies.start + rng.below(plies.end - plies.start)) as usize;
        let Some((pos, history)) = random_position(v, plies, rng.next_u64()) else {
            continue;
        };
        checked += 1;
        let recent = &history[history.len().saturating_sub(6)..];
        for &depth in depths {
            for game in [&[][..], recent] {
                let reference = |threats, next| {
                    MultiReference::new(v, &eval, MultiMode::Model)
                        .with_reply_model(model)
                        .with_threats(threats)
                        .with_next_replies(next)
                        .with_rival_share(rival_share)
                        .with_root_progress(root_progress)
                        .with_root_waiting(root_waiting)
                        .value(&pos, game, depth)
                        .0
                };
                let want = reference(threats, next);
                if threats + next > 0 && want != reference(0, 0) {
                    changed += 1;
                }
                let got = Brs::new(v, &eval, MultiMode::Model, 12)
                    .with_reply_model(model)
                    .with_threats(threats)
                    .with_next_replies(next)
                    .with_rival_share(rival_share)
                    .with_root_progress(root_progress)
                    .with_root_waiting(root_waiting)
                    .choose(&pos, game, &Budget::depth(depth))
                    .unwrap();
                let context = format!(
                    "{model:?}, {threats} threats, {next} next, rivals {rival_share}%, root progress {root_progress}, root waiting {root_waiting}, {} players, depth {depth}, plies {plies}, {} seen",
                    v.players(),
                    game.len()
                );
                assert_eq!(got.depth, depth, "{context}");
                assert_eq!(got.score, want, "{context}");
                assert!(v.is_legal(&pos, got.mv), "{context}");
            }
        }
    }
    changed
}

#[test]
fn every_variant_gets_a_legal_move() {
    let cases = [
        (BoardKind::Star, 2, RuleOptions::default()),
        (BoardKind::Star, 3, RuleOptions::default()),
        (BoardKind::Star, 4, RuleOptions::default()),
        (BoardKind::Star, 6, RuleOptions::default()),
        (
            BoardKind::Star,
            6,
            RuleOptions {
                teams: Some(true),
                ..RuleOptions::default()
            },
        ),
        (
            BoardKind::Star,
            2,
            RuleOptions {
                colours_per_player: Some(2),
                ..RuleOptions::default()
            },
        ),
        (
            BoardKind::Star,
            2,
            RuleOptions {
                long_jumps: Some(true),
                ..RuleOptions::default()
            },
        ),
        (BoardKind::Square16, 2, RuleOptions::default()),
        (BoardKind::Square16, 4, RuleOptions::default()),
        (BoardKind::Square10, 2, RuleOptions::default()),
        (BoardKind::Square8, 2, RuleOptions::default()),
    ];
    for (board, players, options) in cases {
        let v = variant(board, players, options);
        for plies in [0, 25] {
            let Some((pos, history)) = random_position(&v, plies, 5) else {
                continue;
            };
            for level in [1, 4, 6, 10] {
                let limits = SearchLimits {
                    level,
                    time_budget: Duration::from_millis(30),
                    seed: 3,
                };
                let s = suggest(&v, &pos, &history, &limits).unwrap();
                assert!(v.is_legal(&pos, s.mv), "{board:?} {players}p level {level}");
                assert_eq!(s.pv.first(), Some(&s.mv));
                assert!(s.depth >= 1);
            }
        }
    }
}

#[test]
fn fixed_depth_levels_are_deterministic_and_seeds_matter_only_for_mistakes() {
    let v = variant(BoardKind::Star, 2, RuleOptions::default());
    let positions: Vec<(Position, Vec<u64>)> = (1..=4)
        .filter_map(|seed| random_position(&v, 12 + 4 * seed as usize, seed))
        .collect();
    assert!(positions.len() >= 3);
    let limits = |level, seed| SearchLimits {
        level,
        time_budget: Duration::from_secs(60),
        seed,
    };
    for (pos, history) in &positions {
        for level in 1..=8 {
            let a = suggest(&v, pos, history, &limits(level, 11)).unwrap();
            let b = suggest(&v, pos, history, &limits(level, 11)).unwrap();
            assert_eq!(
                (a.mv, a.score, a.nodes, &a.pv),
                (b.mv, b.score, b.nodes, &b.pv),
                "level {level}"
            );
        }
    }
    // The levels that err do not always play the same move over a few seeds; a level that
    // searches without mistakes does not depend on the seed.
    let moves = |level| -> std::collections::HashSet<Vec<Move>> {
        (0..8)
            .map(|seed| {
                positions
                    .iter()
                    .map(|(pos, history)| suggest(&v, pos, history, &limits(level, seed)).unwrap())
                    .map(|s| s.mv)
                    .collect()
            })
            .collect()
    };
    for level in [1, 3, 5] {
        assert!(moves(level).len() > 1, "level {level}");
    }
    assert_eq!(moves(7).len(), 1);
}

#[test]
fn time_budget_is_respected_loosely() {
    let v = variant(BoardKind::Square16, 2, RuleOptions::default());
    let (pos, history) = random_position(&v, 30, 2).unwrap();
    let budget = Duration::from_millis(100);
    let started = Instant::now();
    let s = suggest(&v, &pos, &history, &SearchLimits::new(10, budget)).unwrap();
    // A shared machine can be slow, so only a loose bound: the budget plus a generous margin.
    assert!(
        started.elapsed() < budget + Duration::from_millis(900),
        "took {:?}",
        started.elapsed()
    );
    assert!(s.nodes > 0);
}

#[test]
fn takes_an_immediate_win() {
    // Square 8 x 8: the first player's goal is the top-left camp; every piece is in it but
    // the one on b5, which steps to b6 and wins. The opponent is far from its goal.
    let text = "square8 2 leave_home=0 a8,b8,c8,d8,a7,b7,c7,a6,b5,a5/a1,b1,c1,d1,a2,b2,c2,a3,b3,a4 1 20,20";
    let (v, pos) = halma_rules::notation::parse_position(text).unwrap();
    let eval = RaceEvaluator::new(&v);
    for depth in 1..=3 {
        let r = Pvs::new(&v, &eval, PvsOptions::default())
            .choose(&pos, &[], &Budget::depth(depth))
            .unwrap();
        let mut next = pos;
        v.play_unchecked(&mut next, r.mv);
        assert!(next.is_finished(pos.to_move()), "depth {depth}: {:?}", r.mv);
        assert!(
            r.score > halma_ai::eval::WIN_THRESHOLD,
            "depth {depth}: {r:?}"
        );
    }
}

#[test]
fn brs_and_paranoid_give_legal_moves() {
    let v = variant(BoardKind::Star, 3, RuleOptions::default());
    let eval = RaceEvaluator::new(&v);
    for plies in [0, 30, 60] {
        let Some((pos, history)) = random_position(&v, plies, 8) else {
            continue;
        };
        for mode in [MultiMode::BestReply, MultiMode::Paranoid] {
            let r = Brs::new(&v, &eval, mode, 14)
                .choose(&pos, &history, &Budget::depth(3))
                .unwrap();
            assert!(v.is_legal(&pos, r.mv), "{mode:?}");
            assert_eq!(r.pv.first(), Some(&r.mv));
        }
    }
}

#[test]
fn brs_takes_an_immediate_win() {
    // Three players: the first has nine pieces in its goal (the N corner) and the tenth next to
    // the free goal cell; the others are still at home.
    let v = variant(BoardKind::Star, 3, RuleOptions::default());
    let board = v.board();
    let goal = v.armies()[0].goal;
    let hole = goal.iter().next().unwrap();
    let hole_cell = board.cell(usize::from(hole)).unwrap();
    let homes = v.armies()[1].home | v.armies()[2].home;
    let outside = board
        .neighbors(hole_cell)
        .into_iter()
        .find(|c| !goal.has(c.index()) && !homes.has(c.index()))
        .unwrap();
    let names = |cells: Vec<u8>| {
        cells
            .iter()
            .map(|&c| board.name(board.cell(usize::from(c)).unwrap()))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut first: Vec<u8> = goal.iter().filter(|&c| c != hole).collect();
    first.push(outside.index());
    let text = format!(
        "star 3 - {}/{}/{} 1 30,30,30",
        names(first),
        names(v.armies()[1].home.iter().collect()),
        names(v.armies()[2].home.iter().collect())
    );
    let (v, pos) = halma_rules::notation::parse_position(&text).unwrap();
    let eval = RaceEvaluator::new(&v);
    for depth in [1, 3] {
        let r = Brs::new(&v, &eval, MultiMode::BestReply, 14)
            .choose(&pos, &[], &Budget::depth(depth))
            .unwrap();
        let mut next = pos;
        v.play_unchecked(&mut next, r.mv);
        assert!(next.is_finished(pos.to_move()), "depth {depth}: {:?}", r.mv);
        assert!(r.score > halma_ai::eval::WIN_THRESHOLD);
    }
}

/// Opponent modelling with an endgame threshold plans alone, exactly as [`MultiMode::Solo`]
/// does, once the root unit's score is within the threshold, and models the opponents
/// before.
#[test]
fn model_plans_alone_in_the_endgame() {
    let v = variant(BoardKind::Star, 6, RuleOptions::default());
    let eval = RaceEvaluator::new(&v);
    let sides = halma_ai::Sides::new(&v);
    let mut rng = SplitMix64::new(5);
    let (mut alone, mut modelled, mut differ) = (0, 0, 0);
    while alone + modelled < 12 {
        let plies = 30 + rng.below(150) as usize;
        let Some((pos, history)) = random_position(&v, plies, rng.next_u64()) else {
            continue;
        };
        let unit = sides.unit(pos.to_move());
        let rows = -halma_ai::eval::unit_score(&eval, &sides, &pos, unit) / halma_ai::eval::ROW;
        for (threshold, plans_alone) in [(rows + 1, true), (rows - 1, false)] {
            let run = |mode| {
                Brs::new(&v, &eval, mode, 14)
                    .with_reply_model(ReplyModel::Greedy)
                    .with_endgame((mode == MultiMode::Model).then_some(threshold))
                    .choose(&pos, &history, &Budget::depth(3))
                    .unwrap()
            };
            let want = run(if plans_alone {
                MultiMode::Solo
            } else {
                MultiMode::Model
            });
            let got = run(MultiMode::Model);
            assert_eq!((got.mv, got.score), (want.mv, want.score), "plies {plies}");
            if plans_alone {
                alone += 1;
            } else {
                // Not vacuous: planning alone would have scored the position otherwise.
                differ += usize::from(run(MultiMode::Solo).score != got.score);
                modelled += 1;
            }
        }
    }
    assert!(differ > 0, "planning alone never changed a score");
}

/// The ensemble's searches as the plain reference runs them: every reply model of
/// [`ENSEMBLE_MODELS`], every own move considered, level 10's scoring at six units.
fn ensemble_of<'a>(v: &'a Variant, eval: &'a RaceEvaluator) -> Ensemble<'a, RaceEvaluator> {
    let searches = ENSEMBLE_MODELS
        .iter()
        .map(|&m| {
            Brs::new(v, eval, MultiMode::Model, 12)
                .with_reply_model(m)
                .with_rival_share(MODEL_RIVAL_SHARE)
                .with_root_progress(MODEL_ROOT_PROGRESS)
        })
        .collect();
    Ensemble::new(v, eval, searches)
}

/// The ensemble's value of root move `mv` at `depth` by the plain reference: the mean of the
/// reference's values of that move alone under every model, the least of them, or the middle
/// one (the lower middle one of an even number), as `aggregate` says.
fn reference_ensemble_value(
    v: &Variant,
    eval: &RaceEvaluator,
    pos: &Position,
    history: &[u64],
    mv: Move,
    depth: u32,
    aggregate: Aggregate,
) -> i32 {
    let values: Vec<i32> = ENSEMBLE_MODELS
        .iter()
        .map(|&m| {
            MultiReference::new(v, eval, MultiMode::Model)
                .with_reply_model(m)
                .with_rival_share(MODEL_RIVAL_SHARE)
                .with_root_progress(MODEL_ROOT_PROGRESS)
                .with_root_move(Some(mv))
                .value(pos, history, depth)
                .0
        })
        .collect();
    match aggregate {
        Aggregate::Mean => {
            let sum: i64 = values.iter().map(|&x| i64::from(x)).sum();
            i32::try_from(sum / values.len() as i64).unwrap()
        }
        Aggregate::Worst => *values.iter().min().unwrap(),
        Aggregate::Median => {
            let mut sorted = values.clone();
            sorted.sort();
            sorted[(sorted.len() - 1) / 2]
        }
    }
}

/// The ensemble's choice by the plain reference, as its documentation describes it: the most
/// forward moves first, ranked by their mean at `depth`, then the best `top` of them by their
/// mean at `deep` (0: no second pass), the first among equals; by their least or middle
/// value over the models instead of the mean as `aggregate` says. With `check` (the finish
/// check, `Ensemble::with_finish_check`), when the best of the moves scored last is a win,
/// each of them scored as a win keeps the lesser of that and its value with the opponents
/// standing still.
fn reference_ensemble_choice(
    v: &Variant,
    eval: &RaceEvaluator,
    pos: &Position,
    history: &[u64],
    (depth, deep, top): (u32, u32, usize),
    aggregate: Aggregate,
    check: bool,
) -> (i32, Move) {
    let mut moves = Vec::new();
    v.generate_moves(pos, &mut moves);
    moves.sort_by_key(|&m| std::cmp::Reverse(eval.progress(pos, m)));
    let mut ranked: Vec<(i32, Move)> = moves
        .iter()
        .map(|&mv| {
            (
                reference_ensemble_value(v, eval, pos, history, mv, depth, aggregate),
                mv,
            )
        })
        .collect();
    ranked.sort_by_key(|&(value, _)| std::cmp::Reverse(value));
    let (mut deciding, last) = if deep == 0 {
        (ranked, depth)
    } else {
        let scored = ranked
            .iter()
            .take(top)
            .map(|&(_, mv)| {
                (
                    reference_ensemble_value(v, eval, pos, history, mv, deep, aggregate),
                    mv,
                )
            })
            .collect();
        (scored, deep)
    };
    let first_best = |list: &[(i32, Move)]| {
        *list
            .iter()
            .fold(None::<&(i32, Move)>, |b, c| match b {
                Some(b) if b.0 >= c.0 => Some(b),
                _ => Some(c),
            })
            .unwrap()
    };
    if check && first_best(&deciding).0 >= WIN_THRESHOLD {
        for (value, mv) in &mut deciding {
            if *value >= WIN_THRESHOLD {
                let still = MultiReference::new(v, eval, MultiMode::Model)
                    .with_rival_share(MODEL_RIVAL_SHARE)
                    .with_root_progress(MODEL_ROOT_PROGRESS)
                    .with_standing_still(true)
                    .with_root_move(Some(*mv))
                    .value(pos, history, last)
                    .0;
                *value = (*value).min(still);
            }
        }
    }
    first_best(&deciding)
}

/// Level 10's ensemble (six units and more) against the plain reference: the same move and
/// value with one pass and with two, by the mean, the worst and the middle value, with and
/// without the game's recent positions, on the small and the full 6-player star.
#[test]
fn ensemble_matches_reference_on_six_player_stars() {
    let small = &small_stars()[2];
    let full = variant(BoardKind::Star, 6, RuleOptions::default());
    assert_eq!(Sides::new(small).units(), 6);
    let mut rng = SplitMix64::new(41);
    for (v, positions, plies, passes, aggregate) in [
        (small, 4, 0..40, (3, 0, 1), Aggregate::Mean),
        (small, 4, 0..40, (1, 3, 3), Aggregate::Mean),
        (small, 4, 0..40, (1, 3, 3), Aggregate::Worst),
        (small, 4, 0..40, (1, 3, 3), Aggregate::Median),
        (&full, 2, 60..120, (1, 3, 4), Aggregate::Mean),
        (&full, 2, 60..120, (1, 3, 4), Aggregate::Worst),
        (&full, 2, 60..120, (1, 3, 4), Aggregate::Median),
    ] {
        let eval = RaceEvaluator::new(v);
        let mut checked = 0;
        while checked < positions {
            let at = plies.start + rng.below(plies.end - plies.start);
            let Some((pos, history)) = random_position(v, at as usize, rng.next_u64()) else {
                continue;
            };
            checked += 1;
            let recent = &history[history.len().saturating_sub(6)..];
            for game in [&[][..], recent] {
                let (depth, deep, top) = passes;
                let got = ensemble_of(v, &eval)
                    .with_passes(depth, deep, top)
                    .with_aggregate(aggregate)
                    .choose(&pos, game, &Budget::depth(64))
                    .unwrap();
                let (value, mv) =
                    reference_ensemble_choice(v, &eval, &pos, game, passes, aggregate, false);
                let context = format!(
                    "passes {passes:?}, {aggregate:?}, plies {at}, {} seen",
                    game.len()
                );
                assert_eq!((got.score, got.mv), (value, mv), "{context}");
                assert_eq!(got.depth, if deep == 0 { depth } else { deep }, "{context}");
                assert_eq!(got.pv.first(), Some(&got.mv), "{context}");
            }
        }
    }
}

/// Level 10's finish check (`Ensemble::with_finish_check`) against the plain reference: the
/// same move and value, by the worst value over the models, with one pass and with two, on
/// positions of the small 6-player star near the seats' finishes with the game's recent
/// positions, where the models promise wins and the check changes some answers.
#[test]
fn finish_check_matches_reference_on_small_stars() {
    let v = &small_stars()[2];
    let eval = RaceEvaluator::new(v);
    let mut rng = SplitMix64::new(43);
    let (mut wins, mut changed, mut checked) = (0, 0, 0);
    while checked < 40 {
        let at = 24 + rng.below(40);
        let Some((pos, history)) = random_position(v, at as usize, rng.next_u64()) else {
            continue;
        };
        checked += 1;
        let recent = &history[history.len().saturating_sub(6)..];
        for passes in [(3, 0, 1), (1, 3, 3)] {
            let (depth, deep, top) = passes;
            let check = || {
                Brs::new(v, &eval, MultiMode::Model, 12)
                    .with_rival_share(MODEL_RIVAL_SHARE)
                    .with_root_progress(MODEL_ROOT_PROGRESS)
            };
            let got = ensemble_of(v, &eval)
                .with_finish_check(Some(check()))
                .with_passes(depth, deep, top)
                .with_aggregate(Aggregate::Worst)
                .choose(&pos, recent, &Budget::depth(64))
                .unwrap();
            let want =
                reference_ensemble_choice(v, &eval, &pos, recent, passes, Aggregate::Worst, true);
            let context = format!("passes {passes:?}, plies {at}");
            assert_eq!((got.score, got.mv), want, "{context}");
            let plain =
                reference_ensemble_choice(v, &eval, &pos, recent, passes, Aggregate::Worst, false);
            wins += usize::from(plain.0 >= WIN_THRESHOLD);
            changed += usize::from(plain != want);
        }
    }
    assert!(wins > 0, "no position with a promised win");
    assert!(
        changed > 0,
        "no position where the check changes the answer"
    );
}

/// The ensemble never plays a move it was told to leave out, answers within a tiny budget,
/// and is what level 10 plays at six units: several lines, all legal and different.
#[test]
fn ensemble_leaves_out_moves_and_answers_in_any_budget() {
    let v = variant(BoardKind::Star, 6, RuleOptions::default());
    let eval = RaceEvaluator::new(&v);
    let (pos, history) = random_position(&v, 90, 8).unwrap();
    let mut ensemble = Ensemble::modelling(&v, &eval, 12);
    let best = ensemble.choose(&pos, &history, &Budget::depth(3)).unwrap();
    assert_eq!(best.depth, 3, "no pass deeper than the budget's depth");
    ensemble.exclude_root_moves(&[best.mv]);
    let other = ensemble.choose(&pos, &history, &Budget::depth(3)).unwrap();
    assert_ne!(other.mv, best.mv);
    assert!(other.score <= best.score);
    ensemble.exclude_root_moves(&[]);
    let hurried = ensemble
        .choose(&pos, &history, &Budget::timed(Duration::from_micros(1), 64))
        .unwrap();
    assert!(v.is_legal(&pos, hurried.mv));
    let limits = SearchLimits {
        level: 10,
        time_budget: Duration::from_millis(300),
        seed: 0,
    };
    let lines = suggest_lines(&v, &pos, &history, &limits, 3);
    assert_eq!(lines.len(), 3);
    for (i, line) in lines.iter().enumerate() {
        assert!(v.is_legal(&pos, line.mv));
        assert!(lines[..i].iter().all(|l| l.mv != line.mv));
        assert!(line.depth >= 1);
    }
}
