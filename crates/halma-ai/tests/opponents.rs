//! What level 10 learns of its opponents: their latest moves found from the game's keys, the
//! greedy model's agreement with them, and the share of the best rival's score level 10's
//! ensemble takes from that.

// Test code: a failed setup should fail the test loudly.
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use halma_ai::brs::MODEL_RIVAL_SHARE;
use halma_ai::ensemble::{
    ENSEMBLE_DEEP, ENSEMBLE_DEPTH, ENSEMBLE_TOP, GREEDY_FIELD_RIVAL_SHARE, OTHER_FIELD_DEEP,
};
use halma_ai::opponents::{greedy_agreement, observe, MIN_OBSERVED, OBSERVED_PLIES};
use halma_ai::{
    suggest, Budget, Ensemble, Greedy, Opponents, RaceEvaluator, SearchLimits, Strategy,
};
use halma_rules::{BoardKind, GameSetup, Position, RuleOptions, Seat, SplitMix64, Variant};

fn star(players: u8) -> Variant {
    Variant::new(&GameSetup {
        board: BoardKind::Star,
        players,
        options: RuleOptions::default(),
    })
    .unwrap()
}

/// A game of `plies` moves in which the seats for which `random` says so play a random move
/// and the others the greedy player's: the position reached and every position key, the
/// start's first and the last position's last (as a game keeps them).
fn play(v: &Variant, plies: usize, random: impl Fn(Seat) -> bool) -> (Position, Vec<u64>) {
    let eval = RaceEvaluator::new(v);
    let mut greedy = Greedy::new(v, &eval, 0, 1);
    let mut rng = SplitMix64::new(5);
    let mut pos = Position::start(v, v.seat(0).unwrap());
    let mut keys = vec![pos.hash()];
    let mut moves = Vec::new();
    for _ in 0..plies {
        v.generate_moves(&pos, &mut moves);
        let mv = if random(pos.to_move()) {
            moves[rng.index(moves.len())]
        } else {
            greedy.choose(&pos, &keys, &Budget::depth(1)).unwrap().mv
        };
        v.play_unchecked(&mut pos, mv);
        keys.push(pos.hash());
    }
    (pos, keys)
}

/// Greedy racers are told apart from players who move otherwise; only the opponents' moves
/// count, and only the latest [`OBSERVED_PLIES`].
#[test]
fn greedy_opponents_are_told_from_others() {
    let v = star(6);
    let eval = RaceEvaluator::new(&v);
    let (pos, keys) = play(&v, 60, |_| false);
    let (agreed, seen) = greedy_agreement(&v, &eval, &pos, &keys);
    // OBSERVED_PLIES back, five of every six an opponent's (seat 0 moves next).
    assert_eq!(seen as usize, OBSERVED_PLIES / 6 * 5);
    // The greedy player and the model may break ties apart, but a tie counts as agreement.
    assert!(
        agreed * 10 >= seen * 9,
        "{agreed} of {seen} greedy moves predicted"
    );
    assert_eq!(observe(&v, &eval, &pos, &keys), Opponents::Greedy);
    // The key of the position itself may be left out.
    assert_eq!(
        greedy_agreement(&v, &eval, &pos, &keys[..keys.len() - 1]),
        (agreed, seen)
    );

    // Everybody random: the model predicts few of the moves.
    let (pos, keys) = play(&v, 60, |_| true);
    let (agreed, seen) = greedy_agreement(&v, &eval, &pos, &keys);
    assert_eq!(seen, 25);
    assert!(
        agreed * 2 < seen,
        "{agreed} of {seen} random moves predicted"
    );
    assert_eq!(observe(&v, &eval, &pos, &keys), Opponents::Other);

    // Only the seat to move plays at random: its own moves do not count.
    let me = v.seat(0).unwrap();
    let (pos, keys) = play(&v, 60, |s| s == me);
    assert_eq!(pos.to_move(), me);
    let (agreed_first, seen) = greedy_agreement(&v, &eval, &pos, &keys);
    assert_eq!(seen, 25);
    assert!(
        agreed_first * 10 >= seen * 9,
        "{agreed_first} of {seen} predicted"
    );
    // Seen from the next seat, seat 0 is one of the opponents, and it played at random.
    let mut next = pos;
    let mut moves = Vec::new();
    v.generate_moves(&next, &mut moves);
    v.play_unchecked(&mut next, moves[0]);
    let mut keys = keys;
    keys.push(next.hash());
    let (agreed, seen) = greedy_agreement(&v, &eval, &next, &keys);
    assert_eq!(seen, 25);
    assert!(
        agreed + 2 < agreed_first,
        "seat 0's random moves: {agreed} of {seen} predicted"
    );
}

/// Without enough moves to judge by (a new game, a position without its game, keys that do
/// not follow from one another) the opponents are unknown.
#[test]
fn too_little_evidence_is_unknown() {
    let v = star(6);
    let eval = RaceEvaluator::new(&v);
    let (pos, keys) = play(&v, 6, |_| false);
    assert!(greedy_agreement(&v, &eval, &pos, &keys).1 < MIN_OBSERVED);
    assert_eq!(observe(&v, &eval, &pos, &keys), Opponents::Unknown);
    let (pos, keys) = play(&v, 40, |_| false);
    assert_eq!(observe(&v, &eval, &pos, &[]), Opponents::Unknown);
    // Keys of another game: nothing is found.
    let (_, other) = play(&v, 40, |_| true);
    assert_eq!(greedy_agreement(&v, &eval, &pos, &other), (0, 0));
    // A gap in the keys stops the walk there: two plies are found before it.
    let mut gapped = keys.clone();
    let at = gapped.len() - 4;
    gapped.remove(at);
    assert_eq!(greedy_agreement(&v, &eval, &pos, &gapped).1, 2);
}

/// Level 10's ensemble plays against the opponents as they have played: against greedy
/// racers with [`GREEDY_FIELD_RIVAL_SHARE`] of the best rival's score, the deeper pass at
/// [`ENSEMBLE_DEEP`] and the mean over the models; against others and unknown opponents with
/// [`MODEL_RIVAL_SHARE`], the deeper pass at [`OTHER_FIELD_DEEP`], the worst value over
/// the models and plugs predicted. `suggest` at level 10 takes how they played from the
/// game's keys. Compared with the same ensembles built by hand.
#[test]
fn level_ten_plays_against_the_opponents_it_sees() {
    let v = star(6);
    let eval = RaceEvaluator::new(&v);
    let by_hand = |greedy_field: bool, pos: &Position, keys: &[u64], budget: &Budget| {
        let ensemble = Ensemble::modelling(&v, &eval, 14);
        let r = if greedy_field {
            ensemble
                .with_rival_share(GREEDY_FIELD_RIVAL_SHARE)
                .with_passes(ENSEMBLE_DEPTH, ENSEMBLE_DEEP, ENSEMBLE_TOP)
        } else {
            ensemble
                .with_rival_share(MODEL_RIVAL_SHARE)
                .with_passes(ENSEMBLE_DEPTH, OTHER_FIELD_DEEP, ENSEMBLE_TOP)
                .with_worst(true)
                .with_plugs(true)
        }
        .choose(pos, keys, budget)
        .unwrap();
        (r.mv, r.score, r.depth)
    };
    let against = |opponents, pos: &Position, keys: &[u64], budget: &Budget| {
        let r = Ensemble::against(&v, &eval, 14, opponents)
            .choose(pos, keys, budget)
            .unwrap();
        (r.mv, r.score, r.depth)
    };
    // Long enough for both of the ensemble's passes to complete even on a crowded machine (a
    // pass stops on its depth, not on the clock), so that the answer does not depend on the
    // clock: the depth-7 passes take about half a minute unoptimised, and 20 s was not
    // enough for a depth-5 run at the lowest priority beside two busy processes.
    let limits = SearchLimits::new(10, Duration::from_secs(600));
    let passes = Budget::timed(limits.time_budget, 64);
    let mut differs = 0;
    for plies in [36, 72] {
        let (pos, keys) = play(&v, plies, |_| false);
        // Both passes, cut at depth 5 so that the two fields differ in share and aggregation.
        let depth5 = Budget::depth(5);
        let greedy = by_hand(true, &pos, &keys, &depth5);
        let others = by_hand(false, &pos, &keys, &depth5);
        assert_eq!(against(Opponents::Greedy, &pos, &keys, &depth5), greedy);
        assert_eq!(against(Opponents::Other, &pos, &keys, &depth5), others);
        assert_eq!(against(Opponents::Unknown, &pos, &keys, &depth5), others);

        // suggest: the greedy racers' ensemble with the game's keys, the other without them,
        // each with its deeper pass complete.
        assert_eq!(observe(&v, &eval, &pos, &keys), Opponents::Greedy);
        let with_keys = suggest(&v, &pos, &keys, &limits).unwrap();
        let want = by_hand(true, &pos, &keys, &passes);
        assert_eq!(want.2, ENSEMBLE_DEEP, "after {plies} plies");
        assert_eq!(
            (with_keys.mv, with_keys.score, with_keys.depth),
            want,
            "after {plies} plies"
        );
        let without = suggest(&v, &pos, &[], &limits).unwrap();
        let want_without = by_hand(false, &pos, &[], &passes);
        assert_eq!(want_without.2, OTHER_FIELD_DEEP, "after {plies} plies");
        assert_eq!(
            (without.mv, without.score, without.depth),
            want_without,
            "after {plies} plies"
        );
        differs += usize::from((want.0, want.1) != (want_without.0, want_without.1));
    }
    assert!(differs > 0, "the two fields scored every position alike");
}
