//! Whole games: wins (with and without the anti-blocking rule), team wins, places, the
//! leave-home rule, repetition, skipped turns and draws, and the reasons for illegal moves.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

use std::sync::Arc;

use halma_rules::{
    notation, BoardKind, DrawReason, Game, GameSetup, IllegalMove, MoveInput, ResignError,
    RuleOptions, Seat, Standing, Variant,
};

fn game_at(text: &str) -> Game {
    let (variant, pos) = notation::parse_position(text).unwrap();
    let first = pos.to_move();
    Game::from_position(Arc::new(variant), first, pos)
}

fn mv(game: &Game, text: &str) -> MoveInput {
    let cells = notation::parse_move(game.variant().board(), text).unwrap();
    if cells.len() == 2 {
        MoveInput::FromTo(cells[0], cells[1])
    } else {
        MoveInput::Path(cells)
    }
}

/// A new 2-player game on `board` with the default options, seat 0 to move.
fn two_player_game(board: BoardKind) -> Game {
    let variant = Variant::new(&GameSetup {
        board,
        players: 2,
        options: RuleOptions::default(),
    })
    .unwrap();
    let first = variant.seat(0).unwrap();
    Game::new(Arc::new(variant), first)
}

fn seat(i: u8) -> Seat {
    Variant::new(&GameSetup {
        board: BoardKind::Star,
        players: 6,
        options: RuleOptions::default(),
    })
    .unwrap()
    .seat(usize::from(i))
    .unwrap()
}

/// The S army fills its goal (the N corner) although N's owner left a piece on q1: with the
/// anti-blocking rule that is a win once N's owner has made the grace period's 40 moves.
const BLOCKED_GOAL: &str = "n1,n2,n3,o1,o2,o3,p1,p2,m8,i5/q1,i1,i2,i3,i4,i6,i7,i8,i9,h1 1";

#[test]
fn anti_blocking_win() {
    let mut game = game_at(&format!("star 2 - {BLOCKED_GOAL} 0,40"));
    assert!(!game.is_over());
    let m = mv(&game, "m8-n4");
    game.play(&m).unwrap();
    let outcome = game.outcome().expect("the game is over");
    assert_eq!(outcome.winner(), Some(&[seat(0)][..]));
    assert_eq!(outcome.ranking[0].standing, Standing::Finished);
    assert_eq!(outcome.ranking[1].place, Some(2));
    assert_eq!(outcome.draw, None);
    assert_eq!(game.check(&m), Err(IllegalMove::GameOver));
    assert_eq!(game.to_move(), None);
}

#[test]
fn without_anti_blocking_a_blocked_goal_is_not_filled() {
    let mut game = game_at(&format!("star 2 anti_blocking=0 {BLOCKED_GOAL} 0,40"));
    game.play(&mv(&game, "m8-n4")).unwrap();
    assert!(!game.is_over());
    assert_eq!(game.to_move(), Some(seat(1)));
}

#[test]
fn a_rival_piece_is_no_blocker_before_its_owner_has_made_the_grace_moves() {
    // N's owner has made 39 moves: its piece on q1 does not fill S's goal yet.
    let mut game = game_at(&format!("star 2 - {BLOCKED_GOAL} 0,39"));
    game.play(&mv(&game, "m8-n4")).unwrap();
    assert!(!game.is_over(), "q1 is not a blocker yet");
    assert!(!game.position().is_finished(seat(0)));
    // N's 40th move, away from the goals: q1 now counts, and S finishes on N's move.
    game.play(&mv(&game, "h1-g2")).unwrap();
    let outcome = game.outcome().expect("S finished on the rival's 40th move");
    assert_eq!(outcome.winner(), Some(&[seat(0)][..]));
}

#[test]
fn without_a_grace_period_any_piece_fills_a_goal() {
    let mut game = game_at(&format!("star 2 anti_blocking_grace=0 {BLOCKED_GOAL} 0,0"));
    game.play(&mv(&game, "m8-n4")).unwrap();
    let outcome = game.outcome().expect("the old rule: q1 counts at once");
    assert_eq!(outcome.winner(), Some(&[seat(0)][..]));
}

/// Three players: S (seat 1) needs n4 for its goal, the N corner, where a piece of NW (seat 2)
/// stands on q1. NW's own goal (the SE corner) is full, with S's piece on h10.
const THREE: &str = "n1,n2,n3,o1,o2,o3,p1,p2,m8,h10/q1,e10,e11,e12,e13,f10,f11,f12,g10,g11/j10,k10,k11,l10,l11,l12,m10,m11,m12,m13 1";

#[test]
fn a_finished_owners_pieces_are_blockers_at_once() {
    // NW finished after 12 moves (S's h10 counted: S has made 45).
    let mut game = game_at(&format!("star 3 - {THREE} 45,12f,45"));
    game.play(&mv(&game, "m8-n4")).unwrap();
    assert!(game.position().is_finished(seat(0)));
}

#[test]
fn an_owner_out_by_the_leave_home_rule_leaves_blockers() {
    // Leave-home at 40 moves and anti-blocking with a grace of 60: NW is out after 41 moves,
    // so its q1 counts although 41 is below the grace period.
    let options = "anti_blocking=1,anti_blocking_grace=60,leave_home=1";
    let mut game = game_at(&format!("star 3 {options} {THREE} 45,41x,45"));
    game.play(&mv(&game, "m8-n4")).unwrap();
    assert!(game.position().is_finished(seat(0)));
    // The same with NW still playing (and away from home) at 41 moves: q1 is no blocker.
    let mut game = game_at(&format!("star 3 {options} {THREE} 45,41,45"));
    game.play(&mv(&game, "m8-n4")).unwrap();
    assert!(!game.position().is_finished(seat(0)));
}

#[test]
fn one_finish_can_make_the_blockers_of_another() {
    // S's 40th move fills its goal but for NW's q1 (NW has made 5 moves), and makes S's h10 a
    // blocker in NW's goal: NW finishes, so q1 becomes a blocker and S finishes too.
    let mut game = game_at(&format!("star 3 - {THREE} 39,5,39"));
    game.play(&mv(&game, "m8-n4")).unwrap();
    assert!(game.position().is_finished(seat(0)));
    assert!(game.position().is_finished(seat(1)));
    let outcome = game.outcome().expect("only one player is left");
    assert_eq!(outcome.ranking.len(), 3);
    // The same move as S's 39th: h10 is no blocker yet, nobody finishes.
    let mut game = game_at(&format!("star 3 - {THREE} 38,5,38"));
    game.play(&mv(&game, "m8-n4")).unwrap();
    assert!(!game.position().is_finished(seat(0)));
    assert!(!game.position().is_finished(seat(1)));
}

/// Four players in teams: seats 1 and 3 (S and N) are partners. Seat 1 needs n4 to fill the N
/// corner; seat 3's army already fills the S corner.
const TEAM: &str = "n1,n2,n3,o1,o2,o3,p1,p2,q1,m8/i1,i2,i3,i4,i5,i6,i7,i8,i9,h1/a1,b1,b2,c1,c2,c3,d1,d2,d3,d4/j1,j2,j3,j4,j5,j6,j7,j8,j9,j10 1 5,5,5f,5";

#[test]
fn team_wins_when_both_partners_are_home() {
    let mut game = game_at(&format!("star 4 teams=1 {TEAM}"));
    assert!(!game.is_over());
    game.play(&mv(&game, "m8-n4")).unwrap();
    let outcome = game
        .outcome()
        .expect("the team of seats 1 and 3 is complete");
    assert_eq!(outcome.winner(), Some(&[seat(0), seat(2)][..]));
    assert_eq!(outcome.ranking[1].seats, vec![seat(1), seat(3)]);
    assert_eq!(outcome.ranking[1].place, Some(2));
}

#[test]
fn a_team_is_not_done_while_one_partner_is_out() {
    // The same, but seat 3 has not finished (its pieces stand elsewhere): seat 1 finishes alone,
    // stops moving, and the game goes on.
    let text = TEAM
        .replace(
            "a1,b1,b2,c1,c2,c3,d1,d2,d3,d4",
            "f4,f5,f6,f7,f8,g3,g4,g5,g6,g7",
        )
        .replace("5f", "5");
    let mut game = game_at(&format!("star 4 teams=1 {text}"));
    game.play(&mv(&game, "m8-n4")).unwrap();
    assert!(!game.is_over());
    assert!(game.position().is_finished(seat(0)));
    assert_eq!(game.to_move(), Some(seat(1)));
}

#[test]
fn play_on_for_places_and_finished_players_are_skipped() {
    // Three players; seat 1 fills its goal (N) with its next move, the others play on.
    let text = "star 3 - n1,n2,n3,o1,o2,o3,p1,p2,q1,m8/i1,i2,i3,i4,i5,i6,i7,i8,i9,h1/g1,g2,g3,g4,g5,g6,g7,g8,g9,g10 1 9,9,9";
    let mut game = game_at(text);
    game.play(&mv(&game, "m8-n4")).unwrap();
    assert!(
        !game.is_over(),
        "two players are still playing for second place"
    );
    assert!(game.position().is_finished(seat(0)));
    assert_eq!(game.to_move(), Some(seat(1)));
    game.play(&mv(&game, "i1-h2")).unwrap();
    assert_eq!(game.to_move(), Some(seat(2)));
    game.play(&mv(&game, "g1-f1")).unwrap();
    assert_eq!(
        game.to_move(),
        Some(seat(1)),
        "the finished seat is skipped"
    );
}

#[test]
fn without_play_on_the_game_ends_at_the_first_finish() {
    let text = "star 3 play_on=0 n1,n2,n3,o1,o2,o3,p1,p2,q1,m8/i1,i2,i3,i4,i5,i6,i7,i8,i9,h1/g1,g2,g3,g4,g5,g6,g7,g8,g9,g10 1 9,9,9";
    let mut game = game_at(text);
    game.play(&mv(&game, "m8-n4")).unwrap();
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner(), Some(&[seat(0)][..]));
    assert_eq!(outcome.ranking.len(), 3);
    assert!(outcome.ranking[1..]
        .iter()
        .all(|p| p.place.is_none() && p.standing == Standing::Unplaced));
}

#[test]
fn leave_home_in_time() {
    // 8 x 8: a player with a piece in their own camp after their 30th move loses. Seat 1 (camp
    // in the bottom-right corner) has made 29 moves and still has a piece on h4.
    let text = "square8 2 - h4,d4,d5,c4,c5,e4,e5,b2,b3,c2/a8,a7,b8,f6,f7,g6,g7,e6,e7,f8 1 29,29";
    let mut stays = game_at(text);
    stays.play(&mv(&stays, "d4-d3")).unwrap();
    let outcome = stays.outcome().expect("seat 1 lost");
    assert_eq!(outcome.winner(), Some(&[seat(1)][..]));
    assert_eq!(outcome.ranking[1].standing, Standing::LeftHomeTooLate);
    // Leaving the camp with that move saves the game.
    let mut leaves = game_at(text);
    leaves.play(&mv(&leaves, "h4-h5")).unwrap();
    assert!(!leaves.is_over());
    // ... and moving back in after the 30th move loses.
    let text = "square8 2 - h5,d4,d5,c4,c5,e4,e5,b2,b3,c2/a8,a7,b8,f6,f7,g6,g7,e6,e7,f8 1 31,31";
    let mut back = game_at(text);
    back.play(&mv(&back, "h5-h4")).unwrap();
    assert_eq!(back.outcome().unwrap().winner(), Some(&[seat(1)][..]));
}

#[test]
fn three_fold_repetition_is_a_draw() {
    let mut game = two_player_game(BoardKind::Square8);
    for round in 0..2 {
        for text in ["h4-h5", "a5-a4", "h5-h4", "a4-a5"] {
            assert!(!game.is_over(), "round {round}");
            game.play(&mv(&game, text)).unwrap();
        }
    }
    let outcome = game.outcome().expect("third occurrence of the start");
    assert_eq!(outcome.draw, Some(DrawReason::Repetition));
    assert_eq!(outcome.winner(), None);
    assert!(outcome
        .ranking
        .iter()
        .all(|p| p.place == Some(1) && p.standing == Standing::Drawn));
}

#[test]
fn repetition_is_off_by_default_on_the_star() {
    let mut game = two_player_game(BoardKind::Star);
    for _ in 0..3 {
        for text in ["d1-e5", "n1-m5", "e5-d1", "m5-n1"] {
            game.play(&mv(&game, text)).unwrap();
        }
    }
    assert!(!game.is_over());
}

#[test]
fn a_player_who_cannot_move_is_skipped() {
    // Seat 1's only piece sits in the h1 corner, walled in: every neighbour is taken and every
    // cell behind them too.
    let text = "square8 2 leave_home=0 h1/g1,g2,h2,f1,f3,h3,a8 1 0,0";
    let mut game = game_at(text);
    assert_eq!(game.to_move(), Some(seat(1)), "seat 1 was skipped at once");
    let played = game.play(&mv(&game, "a8-b8")).unwrap();
    assert_eq!(played.skipped, vec![seat(0)]);
    assert_eq!(game.to_move(), Some(seat(1)));
}

#[test]
fn nobody_can_move_is_a_draw() {
    let low: Vec<String> = (1..=4)
        .flat_map(|r| "abcdefgh".chars().map(move |f| format!("{f}{r}")))
        .collect();
    let high: Vec<String> = (5..=8)
        .flat_map(|r| "abcdefgh".chars().map(move |f| format!("{f}{r}")))
        .collect();
    let text = format!("square8 2 - {}/{} 1 0,0", low.join(","), high.join(","));
    let game = game_at(&text);
    let outcome = game.outcome().expect("a full board is a draw");
    assert_eq!(outcome.draw, Some(DrawReason::NoLegalMoves));
}

/// A 6-player game the AI arena played into a dead end: four players finished, some of them
/// by the anti-blocking rule with a rival's piece left in their goal. Seat 4's piece on a1 (the
/// S tip) is walled in by seat 3's finished pieces, and seat 1's piece on e12 by seat 2's; the
/// pieces of both that could still move stand locked in their own goals. Neither can ever
/// finish, and they would otherwise play on forever.
const DEADLOCK: &str = "star 6 - n1,n2,n3,n4,o1,o2,o3,p1,p2,q1/e12,j10,k10,k11,l10,l12,m10,m11,m12,m13/e9,e10,e13,f9,f10,f11,f12,g10,g11,h10/b1,b2,c1,c2,c3,d1,d3,d4,e11,f5/a1,e1,e2,e3,f1,f2,f3,g1,g2,h1/j1,k1,k2,l1,l2,l3,m1,m2,m3,m4 2 39f,677,39f,31f,677,37f";

#[test]
fn players_walled_in_for_good_draw_by_deadlock() {
    let game = game_at(DEADLOCK);
    let outcome = game.outcome().expect("nobody left in the game can finish");
    assert_eq!(outcome.draw, Some(DrawReason::Deadlock));
    let drawn: Vec<Seat> = outcome
        .ranking
        .iter()
        .filter(|p| p.standing == Standing::Drawn)
        .flat_map(|p| p.seats.clone())
        .collect();
    assert_eq!(drawn, vec![seat(1), seat(4)]);
    assert_eq!(
        outcome
            .ranking
            .iter()
            .filter(|p| p.standing == Standing::Finished)
            .count(),
        4
    );
}

#[test]
fn a_deadlock_needs_every_player_left_to_be_stuck() {
    // Seat 4's piece on a1 gets out: its neighbour b1 is free (seat 3's piece stands on d2
    // instead). Seat 1 is still walled in, but seat 4 can finish, so the game goes on.
    let freed = DEADLOCK.replace("b1,b2,c1,c2,c3,d1,d3,d4", "d2,b2,c1,c2,c3,d1,d3,d4");
    let game = game_at(&freed);
    assert!(!game.is_over(), "{:?}", game.outcome());
    // Without the goal lock, seat 1's pieces in its goal may leave it again to help fill
    // seat 4's goal, so nothing is decided either.
    let unlocked = DEADLOCK.replace("star 6 -", "star 6 goal_lock=0");
    assert!(!game_at(&unlocked).is_over());
    // Without the anti-blocking rule a walled-in piece alone means its owner cannot finish.
    let strict = DEADLOCK.replace("star 6 -", "star 6 anti_blocking=0");
    let outcome = game_at(&strict).outcome().cloned();
    assert_eq!(outcome.map(|o| o.draw), Some(Some(DrawReason::Deadlock)));
}

#[test]
fn illegal_moves_say_why() {
    let variant = Arc::new(
        Variant::new(&GameSetup {
            board: BoardKind::Star,
            players: 2,
            options: RuleOptions::default(),
        })
        .unwrap(),
    );
    let game = Game::new(variant, seat(0));
    let err = |text: &str| game.check(&mv(&game, text)).unwrap_err().code();
    assert_eq!(err("n1-m5"), "not_your_piece");
    assert_eq!(err("i5-i6"), "empty_cell");
    assert_eq!(err("d1-d2"), "cell_occupied");
    assert_eq!(err("d1-i5"), "unreachable");
    assert_eq!(err("c1-e3-f4"), "not_a_jump");
    assert_eq!(err("c2-e6-e7"), "step_in_chain");
    let locked = game_at("star 2 - n2/m7,m8 1 0,0");
    assert_eq!(
        locked.check(&mv(&locked, "n2-m6")).unwrap_err().code(),
        "goal_locked"
    );
    assert_eq!(
        locked.check(&mv(&locked, "n2-l7")).unwrap_err().code(),
        "goal_locked"
    );
    let corner = game_at("star 2 foreign_corners=pass_only e5/e4,f3 1 0,0");
    assert_eq!(
        corner.check(&mv(&corner, "e5-e3")).unwrap_err().code(),
        "foreign_corner"
    );
    assert!(corner.check(&mv(&corner, "e5-e3-g3")).is_ok());
    let forbidden = game_at("star 2 foreign_corners=forbidden e5/e4,f3 1 0,0");
    assert_eq!(
        forbidden
            .check(&mv(&forbidden, "e5-e3-g3"))
            .unwrap_err()
            .code(),
        "forbidden_camp"
    );
    let loop_back = game_at("star 2 - i5/i4,i6 1 0,0");
    assert_eq!(
        loop_back
            .check(&mv(&loop_back, "i5-i7-i5"))
            .unwrap_err()
            .code(),
        "returns_to_start"
    );
    assert!(
        loop_back.check(&mv(&loop_back, "i5-i7-i5-i3")).is_ok(),
        "a chain may pass its start cell"
    );
    let backward = game_at("square8 2 backward_steps=no_straight_back d4/e5 1 0,0");
    assert_eq!(
        backward.check(&mv(&backward, "d4-e3")).unwrap_err().code(),
        "step_direction"
    );
}

#[test]
fn five_players_are_rejected_with_a_reason() {
    let err = Variant::new(&GameSetup {
        board: BoardKind::Star,
        players: 5,
        options: RuleOptions::default(),
    })
    .unwrap_err();
    assert!(err.to_string().contains("5 is not a legal setup"), "{err}");
}

#[test]
fn the_moves_of_one_piece_are_those_of_the_seat_to_move_only() {
    let game = two_player_game(BoardKind::Star);
    let board = game.variant().board();
    let all = game.legal_moves();
    let mut total = 0;
    for cell in (0..board.len()).filter_map(|i| board.cell(i)) {
        let own = game.legal_moves_from(cell);
        assert!(
            own.iter().all(|m| m.mv.from == cell),
            "{}",
            board.name(cell)
        );
        assert!(own.iter().all(|m| all.contains(m)), "{}", board.name(cell));
        total += own.len();
    }
    assert_eq!(total, all.len());
    // A rival's piece and an empty cell have no moves for the seat to move.
    let rival = board.parse_cell("n1").unwrap();
    let empty = board.parse_cell("i5").unwrap();
    assert!(game.position().army_at(rival).is_some());
    assert!(game.legal_moves_from(rival).is_empty());
    assert!(game.legal_moves_from(empty).is_empty());
}

#[test]
fn a_resigned_seat_is_out_and_the_others_play_on() {
    // S's 39th move leaves q1 (NW's piece, NW at 5 moves) the only non-blocker in its goal.
    let mut game = game_at(&format!("star 3 - {THREE} 38,5,38"));
    game.play(&mv(&game, "m8-n4")).unwrap();
    assert!(!game.position().is_finished(seat(0)));
    // NW cannot move (q1 is walled in, its other pieces are locked in its full goal): skipped.
    assert_eq!(game.to_move(), Some(seat(2)));
    // NW resigns: out of the game, its pieces stay, q1 is a blocker now, so S is finished; NE
    // is the last one left and the game is over.
    let r = game.resign(seat(1)).unwrap().clone();
    assert_eq!((r.after, r.seats.clone()), (1, vec![seat(1)]));
    assert!(game.position().is_eliminated(seat(1)));
    assert!(game.position().is_finished(seat(0)));
    let board = game.variant().board();
    let q1 = board.parse_cell("q1").unwrap();
    assert_eq!(
        game.position().army_at(q1),
        Some(1),
        "the pieces stay on the board"
    );
    let outcome = game.outcome().expect("one player is left");
    let standings: Vec<(Vec<Seat>, Option<u8>, Standing)> = outcome
        .ranking
        .iter()
        .map(|p| (p.seats.clone(), p.place, p.standing))
        .collect();
    assert_eq!(
        standings,
        [
            (vec![seat(0)], Some(1), Standing::Finished),
            (vec![seat(2)], Some(2), Standing::Last),
            (vec![seat(1)], Some(3), Standing::Resigned),
        ]
    );
    assert_eq!(game.resign(seat(2)), Err(ResignError::GameOver));
}

#[test]
fn a_resignation_passes_the_turn_and_is_kept_in_snapshots() {
    let mut game = game_at("star 3 - a1,b1,b2,c1,c2,c3,d1,d2,d3,d4/j1,k1,k2,l1,l2,l3,m1,m2,m3,m4/j10,k10,k11,l10,l11,l12,m10,m11,m12,m13 1 0,0,0");
    game.play(&mv(&game, "d1-e5")).unwrap();
    // Seat 3 resigns out of turn: seat 2 is still to move, and seat 3 is skipped from now on.
    game.resign(seat(2)).unwrap();
    assert_eq!(game.to_move(), Some(seat(1)));
    assert_eq!(game.resign(seat(2)), Err(ResignError::NotPlaying(seat(2))));
    let moves = game.legal_moves();
    game.play(&MoveInput::Path(moves[0].path.clone())).unwrap();
    assert_eq!(
        game.to_move(),
        Some(seat(0)),
        "the resigned seat is skipped"
    );
    assert!(!game.is_over());
    // Seat 1 resigns on its turn: seat 2 is the only one left and ranks first.
    game.resign(seat(0)).unwrap();
    let outcome = game.outcome().expect("one player is left");
    assert_eq!(outcome.winner(), Some(&[seat(1)][..]));
    assert_eq!(outcome.ranking[1].standing, Standing::Resigned);
    assert_eq!(outcome.ranking[1].seats, vec![seat(0)]);
    assert_eq!(outcome.ranking[2].seats, vec![seat(2)]);
    // A snapshot keeps the resignations, and the restored game ranks them the same.
    let snapshot = game.snapshot();
    assert_eq!(snapshot.resignations.len(), 2);
    let restored = Game::restore(std::sync::Arc::clone(game.variant()), &snapshot).unwrap();
    assert_eq!(restored.resignations(), game.resignations());
    assert_eq!(restored.outcome(), game.outcome());
    assert_eq!(restored.snapshot(), snapshot);
}

#[test]
fn a_partner_resigns_for_the_team() {
    let text = "star 4 teams=1 a1,b1,b2,c1,c2,c3,d1,d2,d3,d4/e1,e2,e3,e4,f1,f2,f3,g1,g2,h1/n1,n2,n3,n4,o1,o2,o3,p1,p2,q1/j10,k10,k11,l10,l11,l12,m10,m11,m12,m13 1 0,0,0,0";
    let mut game = game_at(text);
    let r = game.resign(seat(1)).unwrap();
    assert_eq!(r.seats, vec![seat(1), seat(3)]);
    let outcome = game.outcome().expect("two teams: the other one wins");
    assert_eq!(outcome.winner(), Some(&[seat(0), seat(2)][..]));
    assert_eq!(outcome.ranking[1].standing, Standing::Resigned);
}

#[test]
fn recent_keys_follow_the_game() {
    // On the star there is no repetition draw to end the shuffling first moves.
    let mut game = two_player_game(BoardKind::Star);
    assert_eq!(game.recent_keys(), &[game.position().hash()]);
    let mut keys = vec![game.position().hash()];
    for _ in 0..(halma_rules::RECENT_KEYS + 5) {
        let first = game.legal_moves()[0].mv;
        game.play(&MoveInput::FromTo(first.from, first.to)).unwrap();
        keys.push(game.position().hash());
    }
    let newest = &keys[keys.len() - halma_rules::RECENT_KEYS..];
    assert_eq!(game.recent_keys(), newest);
    // A resignation is a position of its own (another seat to move).
    let mover = game.to_move().unwrap();
    game.resign(mover).unwrap();
    assert_eq!(game.recent_keys().last(), Some(&game.position().hash()));
    assert_eq!(game.recent_keys().len(), halma_rules::RECENT_KEYS);
    // Kept in snapshots.
    let restored = Game::restore(Arc::clone(game.variant()), &game.snapshot()).unwrap();
    assert_eq!(restored.recent_keys(), game.recent_keys());
}

/// Every move of a game is found again from the position keys alone ([`Variant::take_back`]),
/// walking back from the newest position: the move, its mover and the position before it,
/// except a move that changed a seat's standing (the keys do not show standings), where the
/// walk stops; and a resignation's keys are explained by no move.
#[test]
fn moves_are_taken_back_from_the_keys() {
    use halma_rules::SplitMix64;
    let mut stopped_at_finish = 0;
    for (board, players, teams) in [
        (BoardKind::Star, 6, false),
        (BoardKind::Star, 3, false),
        (BoardKind::Star, 4, true),
        (BoardKind::Square16, 4, false),
        (BoardKind::Square8, 2, false),
    ] {
        let options = RuleOptions {
            teams: Some(teams),
            ..RuleOptions::default()
        };
        let variant = Arc::new(
            Variant::new(&GameSetup {
                board,
                players,
                options,
            })
            .unwrap(),
        );
        let mut rng = SplitMix64::new(u64::from(players));
        for length in [30, 60, 120, 400] {
            let mut game = Game::new(Arc::clone(&variant), variant.seat(0).unwrap());
            let mut positions = vec![*game.position()];
            while !game.is_over() && game.record().len() < length {
                let moves = game.legal_moves();
                // Mostly forward moves, so that seats finish and standings change.
                let mv = moves[rng.index(moves.len())].mv;
                let forward = moves.iter().max_by_key(|m| m.path.len()).unwrap().mv;
                let mv = if rng.below(3) == 0 { mv } else { forward };
                game.play(&MoveInput::FromTo(mv.from, mv.to)).unwrap();
                positions.push(*game.position());
            }
            let keys = game.recent_keys();
            let record = game.record();
            let mut pos = *game.position();
            let mut walked = 0;
            for (k, &key) in keys.iter().rev().skip(1).enumerate() {
                let played = &record[record.len() - 1 - k];
                let before = positions[positions.len() - 2 - k];
                match variant.take_back(&pos, key) {
                    Some((prev, mv)) => {
                        assert_eq!(mv, played.mv, "{board:?} {players}: move {k} back");
                        assert_eq!(prev, before, "{board:?} {players}: position {k} back");
                        assert_eq!(prev.to_move(), played.seat);
                        pos = prev;
                        walked += 1;
                    }
                    None => {
                        let standings = |p: &halma_rules::Position| {
                            variant.seats().map(|s| p.is_active(s)).collect::<Vec<_>>()
                        };
                        assert_ne!(
                            standings(&pos),
                            standings(&before),
                            "{board:?} {players}: move {k} back not found, standings unchanged"
                        );
                        stopped_at_finish += 1;
                        break;
                    }
                }
            }
            // Only a game's last move (which ended it) may stop the walk at once.
            assert!(
                walked > 0 || game.is_over(),
                "{board:?} {players}: nothing taken back"
            );
            // A resignation changes no placement: no move explains its keys.
            let mut resigning = Game::new(Arc::clone(&variant), variant.seat(0).unwrap());
            let before = resigning.position().hash();
            if resigning.resign(variant.seat(1).unwrap()).is_ok() {
                assert!(variant.take_back(resigning.position(), before).is_none());
            }
        }
    }
    assert!(stopped_at_finish > 0, "no walk met a change of standing");
}
