//! Turning games into the API's views: every body the game routes answer with is built here.

use std::time::Duration;

use halma_rules::{notation, Board, Cell, Game, LegalMove, Outcome, PlayedMove, Seat, Variant};

use crate::api::{
    ArmyView, GameRecord, GameResult, GameStatus, GameView, HandoverView, LegalMoveView,
    LegalMoves, LobbyGame, MoveView, PlaceView, ResignationView, SeatChangeKind, SeatChangeView,
    SeatKind, SeatView, SuggestionView,
};
use crate::games::document::{Header, PlayedBy, SeatChange};
use crate::store::Version;

impl From<PlayedBy> for SeatKind {
    fn from(kind: PlayedBy) -> Self {
        match kind {
            PlayedBy::Human => SeatKind::Human,
            PlayedBy::Ai => SeatKind::Ai,
            PlayedBy::Open => SeatKind::Open,
        }
    }
}

fn names(board: &Board, cells: impl IntoIterator<Item = halma_rules::Cell>) -> Vec<String> {
    cells
        .into_iter()
        .map(|c| board.name(c).to_owned())
        .collect()
}

fn bits(board: &Board, set: halma_rules::Bitboard) -> Vec<String> {
    set.iter()
        .filter_map(|i| board.cell(usize::from(i)))
        .map(|c| board.name(c).to_owned())
        .collect()
}

/// One move of the record.
pub fn move_view(board: &Board, ply: usize, m: &PlayedMove) -> MoveView {
    MoveView {
        ply: u32::try_from(ply + 1).unwrap_or(u32::MAX),
        seat: m.seat.index(),
        from: board.name(m.mv.from).to_owned(),
        to: board.name(m.mv.to).to_owned(),
        path: names(board, m.path.iter().copied()),
        notation: notation::format_path(board, &m.path),
        skipped: m.skipped.iter().map(|s| s.index()).collect(),
    }
}

/// A legal move with its path.
pub fn legal_move_view(board: &Board, m: &LegalMove) -> LegalMoveView {
    LegalMoveView {
        from: board.name(m.mv.from).to_owned(),
        to: board.name(m.mv.to).to_owned(),
        path: names(board, m.path.iter().copied()),
        notation: notation::format_path(board, &m.path),
    }
}

/// Legal moves of the seat to move in `game` at `version`.
pub fn legal_moves_view(version: Version, game: &Game, moves: &[LegalMove]) -> LegalMoves {
    let board = game.variant().board();
    LegalMoves {
        version,
        to_move: game.to_move().map(|s| s.index()),
        moves: moves.iter().map(|m| legal_move_view(board, m)).collect(),
    }
}

/// The AI's suggestion for `seat`, with `path` for its move, found at `level` within `budget`.
pub fn suggestion_view(
    version: Version,
    board: &Board,
    seat: Seat,
    suggestion: &halma_ai::Suggestion,
    path: &[Cell],
    level: u8,
    budget: Duration,
) -> SuggestionView {
    SuggestionView {
        version,
        seat: seat.index(),
        from: board.name(suggestion.mv.from).to_owned(),
        to: board.name(suggestion.mv.to).to_owned(),
        path: names(board, path.iter().copied()),
        notation: notation::format_path(board, path),
        score: suggestion.score,
        depth: suggestion.depth,
        nodes: suggestion.nodes,
        principal_variation: suggestion
            .pv
            .iter()
            .map(|m| format!("{}-{}", board.name(m.from), board.name(m.to)))
            .collect(),
        elapsed_ms: u64::try_from(suggestion.elapsed.as_millis()).unwrap_or(u64::MAX),
        level,
        time_budget_ms: u32::try_from(budget.as_millis()).unwrap_or(u32::MAX),
    }
}

/// The result of a finished game.
pub fn result_view(outcome: &Outcome) -> GameResult {
    GameResult {
        winner: outcome
            .winner()
            .map(|seats| seats.iter().map(|s| s.index()).collect()),
        draw: outcome.draw,
        ranking: outcome
            .ranking
            .iter()
            .map(|p| PlaceView {
                place: p.place,
                seats: p.seats.iter().map(|s| s.index()).collect(),
                standing: p.standing,
            })
            .collect(),
    }
}

/// The seats of `game` as the API shows them.
fn seat_views(header: &Header, game: &Game) -> Vec<SeatView> {
    let variant = game.variant();
    let pos = game.position();
    variant
        .seats()
        .map(|s| {
            let stored = &header.seats[usize::from(s.index())];
            SeatView {
                seat: s.index(),
                name: stored.name.clone(),
                kind: stored.kind.into(),
                level: stored.level,
                armies: variant.armies_of(s).map(|a| a as u8).collect(),
                partner: variant.partner(s).map(|p| p.index()),
                moves_made: pos.moves_made(s),
                finished: pos.is_finished(s),
                eliminated: pos.is_eliminated(s),
            }
        })
        .collect()
}

/// A game waiting for players as the lobby lists it, at `now` (seconds since the Unix epoch).
pub fn lobby_game_view(
    id: &str,
    version: Version,
    header: &Header,
    game: &Game,
    now: u64,
) -> LobbyGame {
    let setup = game.variant().setup();
    LobbyGame {
        id: id.to_owned(),
        version,
        board: setup.board,
        players: setup.players,
        options: setup.options.clone(),
        seats: seat_views(header, game),
        open_seats: header.open_seats(),
        created_at: header.created_at,
        age_secs: now.saturating_sub(header.created_at),
    }
}

/// The game as the API shows it.
pub fn game_view(id: &str, version: Version, header: &Header, game: &Game) -> GameView {
    let variant: &Variant = game.variant();
    let board = variant.board();
    let pos = game.position();
    let seats = seat_views(header, game);
    let armies = variant
        .armies()
        .iter()
        .enumerate()
        .map(|(i, a)| ArmyView {
            army: i as u8,
            seat: a.owner.index(),
            home_corner: a.home_corner.name().to_owned(),
            goal_corner: a.goal_corner.name().to_owned(),
            home: bits(board, a.home),
            goal: bits(board, a.goal),
            pieces: bits(board, pos.army(i)),
        })
        .collect();
    let record = game.record();
    let waiting = header.is_waiting();
    GameView {
        id: id.to_owned(),
        version,
        board: variant.setup().board,
        players: variant.players(),
        options: variant.setup().options.clone(),
        rules: *variant.options(),
        seats,
        armies,
        first_seat: game.first().index(),
        to_move: game.to_move().filter(|_| !waiting).map(|s| s.index()),
        status: if game.is_over() {
            GameStatus::Finished
        } else if waiting {
            GameStatus::Waiting
        } else {
            GameStatus::Ongoing
        },
        open_seats: header.open_seats(),
        public: header.public,
        result: game.outcome().map(result_view),
        move_count: u32::try_from(record.len()).unwrap_or(u32::MAX),
        last_event_id: header.changes(game),
        last_move: record.last().map(|m| move_view(board, record.len() - 1, m)),
        position: notation::format_position(variant, pos),
    }
}

/// The full record with its text export.
pub fn record_view(id: &str, version: Version, header: &Header, game: &Game) -> GameRecord {
    let variant = game.variant();
    let board = variant.board();
    let moves: Vec<MoveView> = game
        .record()
        .iter()
        .enumerate()
        .map(|(i, m)| move_view(board, i, m))
        .collect();
    let result = game.outcome().map(result_view);
    let position = notation::format_position(variant, game.position());
    let seats = |list: &[halma_rules::Seat]| list.iter().map(|s| s.index()).collect();
    let resignations = game
        .resignations()
        .iter()
        .map(|r| ResignationView {
            after: u32::try_from(r.after).unwrap_or(u32::MAX),
            seats: seats(&r.seats),
            skipped: seats(&r.skipped),
        })
        .collect::<Vec<_>>();
    GameRecord {
        id: id.to_owned(),
        version,
        board: variant.setup().board,
        players: variant.players(),
        options: variant.setup().options.clone(),
        first_seat: game.first().index(),
        export: export_text(id, header, game, &moves, &resignations),
        moves,
        resignations,
        handovers: header
            .handovers
            .iter()
            .map(|h| HandoverView {
                after: h.after,
                seat: h.seat,
                level: h.level,
            })
            .collect(),
        seat_changes: header
            .seat_changes
            .iter()
            .map(|c| match c {
                SeatChange::Joined { after, seat, name } => SeatChangeView {
                    after: *after,
                    seat: *seat,
                    change: SeatChangeKind::Joined,
                    name: Some(name.clone()),
                },
                SeatChange::Left { after, seat } => SeatChangeView {
                    after: *after,
                    seat: *seat,
                    change: SeatChangeKind::Left,
                    name: None,
                },
            })
            .collect(),
        result,
        start_position: header.start_position.clone(),
        position,
    }
}

/// The result as the export's `Result` tag says it: `*` while the game goes on, `draw
/// (repetition)`, `won by 1` (players counted from 1, partners joined by `+`), or `finished`.
pub fn result_text(game: &Game) -> String {
    match game.outcome() {
        None => "*".to_owned(),
        Some(o) => match (o.draw, o.winner()) {
            (Some(reason), _) => format!("draw ({reason:?})").to_lowercase(),
            (None, Some(w)) => format!(
                "won by {}",
                w.iter()
                    .map(|s| (s.index() + 1).to_string())
                    .collect::<Vec<_>>()
                    .join("+")
            ),
            (None, None) => "finished".to_owned(),
        },
    }
}

/// The game as text, for people: tag lines in brackets, then one move per line, with the
/// resignations and handovers between the moves in the order they happened. Players are
/// counted from 1 here (player `n` is seat `n - 1`), as in the position notation:
///
/// ```text
/// [Game "..."]
/// [Board "star"]
/// [Players "2"]
/// [Options "-"]
/// [Player1 "Ada"]
/// [Player2 "AI level 10"]
/// [First "1"]
/// [Result "*"]
/// [Start "star 2 - a1,... 1 0,0"]
///
/// 1. 1 d1-e5
/// 2. 2 n2-m3 (skipped 1)
/// 1 handed to the AI (level 6)
/// 2 resigned
/// ```
///
/// Exports written before the `Player` tags named them `Seat1`, `Seat2`, ... (also counted
/// from 1); the import reads both.
fn export_text(
    id: &str,
    header: &Header,
    game: &Game,
    moves: &[MoveView],
    resignations: &[ResignationView],
) -> String {
    use std::fmt::Write as _;
    let variant = game.variant();
    let setup = variant.setup();
    let mut out = String::new();
    let options = setup.options.to_text();
    let _ = writeln!(out, "[Game \"{id}\"]");
    let _ = writeln!(out, "[Board \"{}\"]", setup.board.name());
    let _ = writeln!(out, "[Players \"{}\"]", setup.players);
    let _ = writeln!(out, "[Options \"{options}\"]");
    for (i, s) in header.seats.iter().enumerate() {
        let _ = writeln!(
            out,
            "[Player{} \"{}\"]",
            i + 1,
            s.name.replace(['"', '\n', '\r'], "'")
        );
    }
    let _ = writeln!(out, "[First \"{}\"]", game.first().index() + 1);
    let _ = writeln!(out, "[Result \"{}\"]", result_text(game));
    let _ = writeln!(out, "[Start \"{}\"]", header.start_position);
    out.push('\n');
    let people = |seats: &[u8]| -> String {
        seats
            .iter()
            .map(|s| (s + 1).to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    // The resignations and handovers after `n` moves stand after the line of move `n`, a
    // handover after the resignations made before it.
    let changes_after = |n: u32, out: &mut String| {
        let mut handovers = header.handovers.iter().filter(|h| h.after == n).peekable();
        for (index, r) in resignations.iter().enumerate() {
            if r.after != n {
                continue;
            }
            while let Some(h) = handovers.next_if(|h| h.resignations as usize <= index) {
                let _ = writeln!(out, "{} handed to the AI (level {})", h.seat + 1, h.level);
            }
            let _ = write!(out, "{} resigned", people(&r.seats));
            if !r.skipped.is_empty() {
                let _ = write!(out, " (skipped {})", people(&r.skipped));
            }
            out.push('\n');
        }
        for h in handovers {
            let _ = writeln!(out, "{} handed to the AI (level {})", h.seat + 1, h.level);
        }
    };
    changes_after(0, &mut out);
    for m in moves {
        let _ = write!(out, "{}. {} {}", m.ply, m.seat + 1, m.notation);
        if !m.skipped.is_empty() {
            let _ = write!(out, " (skipped {})", people(&m.skipped));
        }
        out.push('\n');
        changes_after(m.ply, &mut out);
    }
    out
}
