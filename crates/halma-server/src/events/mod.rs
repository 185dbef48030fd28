//! Live events of a game, for the `text/event-stream` route: what happened after a given event,
//! built from the game's record, and the per-instance feeds that tell every open stream of a
//! game about its new versions.
//!
//! Event ids count the game's events in order: the seats taken and given up while the game
//! waited for players, its moves, resignations and seats handed to the AI, then the result
//! (once the game is over). In a game without any of these changes besides moves, the move of
//! ply `n` has id `n`. The
//! first event of a stream, the whole game, carries the id of the last event it includes. Since every event is built from the stored record, a
//! client that reconnects with `Last-Event-ID` gets exactly what it missed, whichever instance
//! it reaches and whatever happened to the instance it was on.

mod feed;

use halma_rules::Game;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::{GameResult, MoveView};
use crate::games::document::{Handover, Header, SeatChange};
use crate::games::views;

pub use feed::{FeedState, Feeds};

/// The data of a `move` event: one move of the record, and whose turn it is after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MoveEvent {
    /// The version that stored the move (a move and the AI replies it triggers are stored in
    /// one version, so several move events can carry the same version). When the event says
    /// it is a seat's turn, this is the version to base that seat's move on, unless the game
    /// changed otherwise since.
    pub version: u64,
    /// The move.
    #[serde(rename = "move")]
    pub played: MoveView,
    /// The seat to move after this move; absent when the game ended with it.
    pub to_move: Option<u8>,
}

/// The data of a `result` event, the last event of a stream.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ResultEvent {
    /// The version that stored the end of the game.
    pub version: u64,
    /// The result.
    pub result: GameResult,
}

/// The data of a `resigned` event: a seat (with its partner in a team game) left the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ResignedEvent {
    /// The version that stored the resignation.
    pub version: u64,
    /// The seats that left: the seat that resigned, and its partner in a team game.
    pub seats: Vec<u8>,
    /// Seats skipped right after it because they could not move.
    pub skipped: Vec<u8>,
    /// The seat to move after it; absent when the game ended with it.
    pub to_move: Option<u8>,
}

/// The data of a `handed_to_ai` event: a seat is played by the AI from now on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct HandoverEvent {
    /// The version that stored the change.
    pub version: u64,
    /// The seat.
    pub seat: u8,
    /// The AI level that plays it.
    pub level: u8,
    /// The seat to move after it.
    pub to_move: Option<u8>,
}

/// The data of a `seat_joined` event: someone took an open seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatJoinedEvent {
    /// The version that stored the change.
    pub version: u64,
    /// The seat.
    pub seat: u8,
    /// The name the player joined with.
    pub name: String,
    /// The seats still open after it; when none is, the game has started.
    pub open_seats: Vec<u8>,
    /// The seat to move, once this join started the game.
    pub to_move: Option<u8>,
}

/// The data of a `seat_left` event: a player who had joined left the waiting game; the seat is
/// open again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatLeftEvent {
    /// The version that stored the change.
    pub version: u64,
    /// The seat.
    pub seat: u8,
    /// The seats open after it.
    pub open_seats: Vec<u8>,
}

/// One event of a game's stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEvent {
    /// Someone took an open seat (`event: seat_joined`).
    SeatJoined(SeatJoinedEvent),
    /// A player left a waiting game (`event: seat_left`).
    SeatLeft(SeatLeftEvent),
    /// A seat handed to the AI (`event: handed_to_ai`).
    HandedToAi(HandoverEvent),
    /// A move (`event: move`).
    Move(MoveEvent),
    /// A resignation (`event: resigned`).
    Resigned(ResignedEvent),
    /// The result (`event: result`).
    Result(ResultEvent),
}

impl GameEvent {
    /// The SSE event name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::SeatJoined(_) => "seat_joined",
            Self::SeatLeft(_) => "seat_left",
            Self::Move(_) => "move",
            Self::Resigned(_) => "resigned",
            Self::HandedToAi(_) => "handed_to_ai",
            Self::Result(_) => "result",
        }
    }
}

/// What a game's header adds to its record: the seats handed to the AI, and the seats taken
/// and given up while it waited for players.
#[derive(Clone, Copy, Debug, Default)]
pub struct SeatHistory<'a> {
    /// The seats handed to the AI, in order.
    pub handovers: &'a [Handover],
    /// The seats taken and given up, in order.
    pub seat_changes: &'a [SeatChange],
    /// The seats open now.
    pub open_now: &'a [u8],
}

impl Header {
    /// The seat history this header keeps; `open_now` must be [`Header::open_seats`].
    pub fn history<'a>(&'a self, open_now: &'a [u8]) -> SeatHistory<'a> {
        SeatHistory {
            handovers: &self.handovers,
            seat_changes: &self.seat_changes,
            open_now,
        }
    }

    /// [`changes`] of `game` with this header's history.
    pub fn changes(&self, game: &Game) -> u64 {
        changes(game, self.history(&self.open_seats()))
    }
}

/// The number of changes of `game` (moves, resignations, seats handed to the AI, seats taken
/// and given up): the id of its last event before the result.
pub fn changes(game: &Game, history: SeatHistory<'_>) -> u64 {
    (game.record().len()
        + game.resignations().len()
        + history.handovers.len()
        + history.seat_changes.len()) as u64
}

/// The id of the last event of `game`: its changes, one more once it is over.
pub fn last_event_id(game: &Game, history: SeatHistory<'_>) -> u64 {
    changes(game, history) + u64::from(game.is_over())
}

/// A change that is not a move, at its place in the game.
enum Change<'a> {
    Seat(&'a SeatChange),
    Resigned(&'a halma_rules::Resignation),
    HandedToAi(&'a Handover),
}

/// The seat changes, resignations and handovers of a game in the order they happened, each
/// with the number of moves played before it.
fn seat_changes<'a>(game: &'a Game, history: SeatHistory<'a>) -> Vec<(usize, Change<'a>)> {
    // Seats are taken and given up only while the game waits, before anything else happens
    // after the same move; a handover made after `m` resignations comes before the
    // resignation numbered `m`.
    let mut changes: Vec<((usize, u8, usize, u8), Change<'a>)> = history
        .seat_changes
        .iter()
        .enumerate()
        .map(|(j, c)| ((c.after() as usize, 0, j, 0), Change::Seat(c)))
        .chain(
            game.resignations()
                .iter()
                .enumerate()
                .map(|(j, r)| ((r.after, 1, j, 1), Change::Resigned(r))),
        )
        .chain(history.handovers.iter().map(|h| {
            (
                (h.after as usize, 1, h.resignations as usize, 0),
                Change::HandedToAi(h),
            )
        }))
        .collect();
    changes.sort_by_key(|(key, _)| *key);
    changes
        .into_iter()
        .map(|((after, ..), c)| (after, c))
        .collect()
}

/// The seats open before the first seat change: those open now, and every seat that changed
/// (the first change of a seat is always a join of a seat created open).
fn open_at_start(history: SeatHistory<'_>) -> std::collections::BTreeSet<u8> {
    history
        .open_now
        .iter()
        .copied()
        .chain(history.seat_changes.iter().map(SeatChange::seat))
        .collect()
}

/// Which version stored which event: from the count of changes after each write (see
/// [`Header::changes_by_version`](crate::games::document::Header::changes_by_version)).
#[derive(Clone, Copy, Debug)]
pub struct Versions<'a> {
    /// The game's current version.
    pub current: u64,
    /// Moves and resignations after each version, entry `v - 1` for version `v`.
    pub changes_by_version: &'a [u32],
}

impl Versions<'_> {
    /// The version that stored the event with id `id`: the first version after which the game
    /// had at least `id` changes; the current version when the counts do not say (a game
    /// stored before they were kept, or the result).
    pub fn of(&self, id: u64) -> u64 {
        let first = self
            .changes_by_version
            .partition_point(|&changes| u64::from(changes) < id);
        if first < self.changes_by_version.len() {
            first as u64 + 1
        } else {
            self.current
        }
    }
}

/// The events of `game` (with the seat `history` of its header) after the event with id
/// `after`, in order, with their ids.
pub fn events_after(
    versions: Versions<'_>,
    game: &Game,
    history: SeatHistory<'_>,
    after: u64,
) -> Vec<(u64, GameEvent)> {
    let board = game.variant().board();
    let record = game.record();
    // Whose turn it is after the change at this place: the seat of the next move, or the
    // seat to move now after the last change.
    let next_mover = |moves_played: usize| match record.get(moves_played) {
        Some(next) => Some(next.seat.index()),
        None => game.to_move().map(|s| s.index()),
    };
    let seats = |list: &[halma_rules::Seat]| list.iter().map(|s| s.index()).collect();
    let mut events = Vec::new();
    let mut id = 0u64;
    let mut pending = seat_changes(game, history).into_iter().peekable();
    let mut open = open_at_start(history);
    for index in 0..=record.len() {
        // The changes made after `index` moves come before the next move.
        while let Some((_, change)) = pending.next_if(|(at, _)| *at <= index) {
            id += 1;
            if let Change::Seat(c) = change {
                match c {
                    SeatChange::Joined { seat, .. } => open.remove(seat),
                    SeatChange::Left { seat, .. } => open.insert(*seat),
                };
            }
            if id <= after {
                continue;
            }
            let event = match change {
                Change::Seat(SeatChange::Joined { seat, name, .. }) => {
                    GameEvent::SeatJoined(SeatJoinedEvent {
                        version: versions.of(id),
                        seat: *seat,
                        name: name.clone(),
                        open_seats: open.iter().copied().collect(),
                        to_move: if open.is_empty() {
                            next_mover(index)
                        } else {
                            None
                        },
                    })
                }
                Change::Seat(SeatChange::Left { seat, .. }) => GameEvent::SeatLeft(SeatLeftEvent {
                    version: versions.of(id),
                    seat: *seat,
                    open_seats: open.iter().copied().collect(),
                }),
                Change::Resigned(r) => GameEvent::Resigned(ResignedEvent {
                    version: versions.of(id),
                    seats: seats(&r.seats),
                    skipped: seats(&r.skipped),
                    to_move: next_mover(index),
                }),
                Change::HandedToAi(h) => GameEvent::HandedToAi(HandoverEvent {
                    version: versions.of(id),
                    seat: h.seat,
                    level: h.level,
                    to_move: next_mover(index),
                }),
            };
            events.push((id, event));
        }
        let Some(played) = record.get(index) else {
            break;
        };
        id += 1;
        if id > after {
            events.push((
                id,
                GameEvent::Move(MoveEvent {
                    version: versions.of(id),
                    played: views::move_view(board, index, played),
                    to_move: next_mover(index + 1),
                }),
            ));
        }
    }
    if let Some(outcome) = game.outcome() {
        id += 1;
        if id > after {
            events.push((
                id,
                GameEvent::Result(ResultEvent {
                    version: versions.of(id - 1),
                    result: views::result_view(outcome),
                }),
            ));
        }
    }
    events
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use halma_rules::{notation, BoardKind, GameSetup, MoveInput, RuleOptions, Variant};

    use super::*;

    /// Versions of a game whose counts are unknown: every event at the current version.
    fn current(version: u64) -> Versions<'static> {
        Versions {
            current: version,
            changes_by_version: &[],
        }
    }

    #[test]
    fn each_event_gets_the_version_that_stored_it() {
        // Version 1: created with 1 move (an AI seat), version 2: +2 moves, version 3: +1.
        let versions = Versions {
            current: 3,
            changes_by_version: &[1, 3, 4],
        };
        let of: Vec<u64> = (1..=5).map(|id| versions.of(id)).collect();
        assert_eq!(of, [1, 2, 2, 3, 3]);
        // A write with no new move (none in this service today) takes no event.
        let gaps = Versions {
            current: 4,
            changes_by_version: &[0, 2, 2, 3],
        };
        let of: Vec<u64> = (1..=3).map(|id| gaps.of(id)).collect();
        assert_eq!(of, [2, 2, 4]);
    }

    /// A new 2-player game on `board`, seat 0 to move.
    fn new_game(board: BoardKind) -> Game {
        let variant = Arc::new(
            Variant::new(&GameSetup {
                board,
                players: 2,
                options: RuleOptions::default(),
            })
            .unwrap_or_else(|e| panic!("{e}")),
        );
        let first = variant.seat(0).unwrap_or_else(|| panic!("no seat"));
        Game::new(variant, first)
    }

    fn game_of(moves: &[&str]) -> Game {
        let mut game = new_game(BoardKind::Star);
        let variant = Arc::clone(game.variant());
        for m in moves {
            let path = notation::parse_move(variant.board(), m).unwrap_or_else(|e| panic!("{e}"));
            game.play(&MoveInput::Path(path))
                .unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        game
    }

    #[test]
    fn events_count_the_plies_and_say_whose_turn_is_next() {
        let game = game_of(&["d1-e5", "n1-m6", "d2-e6"]);
        assert_eq!(last_event_id(&game, SeatHistory::default()), 3);
        let all = events_after(current(4), &game, SeatHistory::default(), 0);
        let ids: Vec<u64> = all.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids, [1, 2, 3]);
        let turns: Vec<Option<u8>> = all
            .iter()
            .map(|(_, e)| match e {
                GameEvent::Move(m) => m.to_move,
                _ => None,
            })
            .collect();
        assert_eq!(turns, [Some(1), Some(0), Some(1)]);
        let GameEvent::Move(second) = &all[1].1 else {
            panic!("not a move")
        };
        assert_eq!(second.played.notation, "n1-m6");
        assert_eq!(second.played.ply, 2);
        assert_eq!(second.version, 4);
        // After an event, only what came later; after the last, nothing.
        assert_eq!(
            events_after(current(4), &game, SeatHistory::default(), 2).len(),
            1
        );
        assert!(events_after(current(4), &game, SeatHistory::default(), 3).is_empty());
        assert!(events_after(current(4), &game, SeatHistory::default(), 99).is_empty());
    }

    #[test]
    fn resignations_take_their_place_among_the_moves() {
        let variant = Arc::new(
            Variant::new(&GameSetup {
                board: BoardKind::Star,
                players: 3,
                options: RuleOptions::default(),
            })
            .unwrap_or_else(|e| panic!("{e}")),
        );
        let seat = |i| variant.seat(i).unwrap_or_else(|| panic!("no seat {i}"));
        let mut game = Game::new(Arc::clone(&variant), seat(0));
        let play_first = |game: &mut Game| {
            let first = game.legal_moves()[0].path.clone();
            game.play(&MoveInput::Path(first))
                .unwrap_or_else(|e| panic!("{e}"));
        };
        play_first(&mut game);
        game.resign(seat(2)).unwrap_or_else(|e| panic!("{e}"));
        play_first(&mut game);
        assert_eq!(last_event_id(&game, SeatHistory::default()), 3);
        let all = events_after(current(5), &game, SeatHistory::default(), 0);
        let names: Vec<(u64, &str)> = all.iter().map(|(id, e)| (*id, e.name())).collect();
        assert_eq!(names, [(1, "move"), (2, "resigned"), (3, "move")]);
        let GameEvent::Resigned(r) = &all[1].1 else {
            panic!("not a resignation")
        };
        assert_eq!((r.seats.clone(), r.to_move), (vec![2], Some(1)));
        // The first move says seat 1 is next; after the second, seat 0 (seat 2 is out).
        let turns: Vec<Option<u8>> = all
            .iter()
            .filter_map(|(_, e)| match e {
                GameEvent::Move(m) => Some(m.to_move),
                _ => None,
            })
            .collect();
        assert_eq!(turns, [Some(1), Some(0)]);
        assert_eq!(
            events_after(current(5), &game, SeatHistory::default(), 2).len(),
            1
        );
    }

    #[test]
    fn a_finished_game_ends_with_its_result() {
        // Level 4 plays both seats to the end.
        let mut game = new_game(BoardKind::Square8);
        let variant = Arc::clone(game.variant());
        let limits = halma_ai::SearchLimits {
            level: 4,
            time_budget: std::time::Duration::from_millis(5),
            seed: 1,
        };
        while !game.is_over() && game.record().len() < 2000 {
            let s = halma_ai::suggest(&variant, game.position(), game.recent_keys(), &limits)
                .unwrap_or_else(|| panic!("no move"));
            game.play(&MoveInput::FromTo(s.mv.from, s.mv.to))
                .unwrap_or_else(|e| panic!("{e}"));
        }
        assert!(game.is_over());
        let plies = game.record().len() as u64;
        assert_eq!(last_event_id(&game, SeatHistory::default()), plies + 1);
        let tail = events_after(current(9), &game, SeatHistory::default(), plies - 1);
        assert_eq!(tail.len(), 2);
        assert!(matches!(&tail[0].1, GameEvent::Move(m) if m.to_move.is_none()));
        assert_eq!(tail[1].0, plies + 1);
        assert_eq!(tail[1].1.name(), "result");
        assert!(events_after(current(9), &game, SeatHistory::default(), plies + 1).is_empty());
    }

    #[test]
    fn seats_taken_and_given_up_come_before_the_moves() {
        let variant = Arc::new(
            Variant::new(&GameSetup {
                board: BoardKind::Star,
                players: 3,
                options: RuleOptions::default(),
            })
            .unwrap_or_else(|e| panic!("{e}")),
        );
        let first = variant.seat(0).unwrap_or_else(|| panic!("no seat"));
        let mut game = Game::new(Arc::clone(&variant), first);
        let joined = |seat, name: &str| SeatChange::Joined {
            after: 0,
            seat,
            name: name.to_owned(),
        };
        // Seats 1 and 2 were open; Bo joins 1 and leaves, Cy takes 1, Di takes 2.
        let seat_changes = [
            joined(1, "Bo"),
            SeatChange::Left { after: 0, seat: 1 },
            joined(1, "Cy"),
            joined(2, "Di"),
        ];
        let history = SeatHistory {
            handovers: &[],
            seat_changes: &seat_changes,
            open_now: &[],
        };
        let path = game.legal_moves()[0].path.clone();
        game.play(&MoveInput::Path(path))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(last_event_id(&game, history), 5);
        let all = events_after(current(6), &game, history, 0);
        let names: Vec<&str> = all.iter().map(|(_, e)| e.name()).collect();
        assert_eq!(
            names,
            [
                "seat_joined",
                "seat_left",
                "seat_joined",
                "seat_joined",
                "move"
            ]
        );
        let open: Vec<(Vec<u8>, Option<u8>)> = all
            .iter()
            .filter_map(|(_, e)| match e {
                GameEvent::SeatJoined(j) => Some((j.open_seats.clone(), j.to_move)),
                GameEvent::SeatLeft(l) => Some((l.open_seats.clone(), None)),
                _ => None,
            })
            .collect();
        assert_eq!(
            open,
            [
                (vec![2], None),
                (vec![1, 2], None),
                (vec![2], None),
                (vec![], Some(0)),
            ]
        );
        let GameEvent::SeatJoined(last) = &all[3].1 else {
            panic!("not a join")
        };
        assert_eq!((last.seat, last.name.as_str()), (2, "Di"));
        // Resuming after the leave gives the rest.
        let ids: Vec<u64> = events_after(current(6), &game, history, 2)
            .iter()
            .map(|(id, _)| *id)
            .collect();
        assert_eq!(ids, [3, 4, 5]);
    }
}
