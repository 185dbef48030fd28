//! Live events of a game, for the `text/event-stream` route: what happened after a given event,
//! built from the game's record, and the per-instance feeds that tell every open stream of a
//! game about its new versions.
//!
//! Event ids count the game's events: the move of ply `n` has id `n`, and the result (once the
//! game is over) has id `plies + 1`. The first event of a stream, the whole game, carries the
//! id of the last event it includes. Since every event is built from the stored record, a
//! client that reconnects with `Last-Event-ID` gets exactly what it missed, whichever instance
//! it reaches and whatever happened to the instance it was on.

mod feed;

use halma_rules::Game;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::{GameResult, MoveView};
use crate::games::views;

pub use feed::{FeedState, Feeds};

/// The data of a `move` event: one move of the record, and whose turn it is after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MoveEvent {
    /// The game's version when the event was sent (a move and the AI replies it triggers are
    /// stored in one version, so several move events can carry the same version).
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
    /// The game's version.
    pub version: u64,
    /// The result.
    pub result: GameResult,
}

/// One event of a game's stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEvent {
    /// A move (`event: move`).
    Move(MoveEvent),
    /// The result (`event: result`).
    Result(ResultEvent),
}

impl GameEvent {
    /// The SSE event name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Move(_) => "move",
            Self::Result(_) => "result",
        }
    }
}

/// The id of the last event of `game`: its number of plies, one more once it is over.
pub fn last_event_id(game: &Game) -> u64 {
    let plies = game.record().len() as u64;
    plies + u64::from(game.is_over())
}

/// The events of `game` (at `version`) after the event with id `after`, in order, with their ids.
pub fn events_after(version: u64, game: &Game, after: u64) -> Vec<(u64, GameEvent)> {
    let board = game.variant().board();
    let record = game.record();
    let plies = record.len() as u64;
    let mut events = Vec::new();
    let first = usize::try_from(after).unwrap_or(usize::MAX);
    for (index, played) in record.iter().enumerate().skip(first) {
        let to_move = match record.get(index + 1) {
            Some(next) => Some(next.seat.index()),
            None => game.to_move().map(|s| s.index()),
        };
        events.push((
            index as u64 + 1,
            GameEvent::Move(MoveEvent {
                version,
                played: views::move_view(board, index, played),
                to_move,
            }),
        ));
    }
    if let Some(outcome) = game.outcome() {
        if after <= plies {
            events.push((
                plies + 1,
                GameEvent::Result(ResultEvent {
                    version,
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
        assert_eq!(last_event_id(&game), 3);
        let all = events_after(4, &game, 0);
        let ids: Vec<u64> = all.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids, [1, 2, 3]);
        let turns: Vec<Option<u8>> = all
            .iter()
            .map(|(_, e)| match e {
                GameEvent::Move(m) => m.to_move,
                GameEvent::Result(_) => None,
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
        assert_eq!(events_after(4, &game, 2).len(), 1);
        assert!(events_after(4, &game, 3).is_empty());
        assert!(events_after(4, &game, 99).is_empty());
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
        assert_eq!(last_event_id(&game), plies + 1);
        let tail = events_after(9, &game, plies - 1);
        assert_eq!(tail.len(), 2);
        assert!(matches!(&tail[0].1, GameEvent::Move(m) if m.to_move.is_none()));
        assert_eq!(tail[1].0, plies + 1);
        assert_eq!(tail[1].1.name(), "result");
        assert!(events_after(9, &game, plies + 1).is_empty());
    }
}
