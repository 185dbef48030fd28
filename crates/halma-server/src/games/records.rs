//! Importing a record: the text export of a game (tags, then one line per move, resignation
//! and handover) or its JSON form, replayed move by move against the rules into a game that
//! goes on from there. Every error names the record's move at fault.

use std::sync::Arc;

use halma_rules::{notation, BoardKind, Game, GameSetup, MoveInput, ResignError, RuleOptions};
use serde::{Deserialize, Serialize};

use super::document::Handover;
use super::views;
use crate::api::{GameResult, HandoverView, ResignationView};
use crate::error::ApiError;
use crate::games::variants::VariantCache;
use crate::position_input;
use crate::problem::ProblemReason;

/// Most moves, resignations and handovers a record may hold.
pub const MAX_RECORD_ENTRIES: usize = 20_000;

/// The JSON form of a record to import: the body of `GET /v1/games/{id}/record` (see
/// `CreateGameRequest::record_json` for the fields read and checked).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordImport {
    /// Not read: the id of the game the record comes from.
    #[serde(default)]
    pub id: Option<String>,
    /// Not read: that game's version.
    #[serde(default)]
    pub version: Option<u64>,
    /// The board.
    pub board: BoardKind,
    /// Number of players.
    pub players: u8,
    /// The options the game was created with.
    #[serde(default)]
    pub options: RuleOptions,
    /// The seat that moved first.
    pub first_seat: u8,
    /// Every move.
    #[serde(default)]
    pub moves: Vec<MoveImport>,
    /// Every resignation, in order.
    #[serde(default)]
    pub resignations: Vec<ResignationView>,
    /// Every seat handed to the AI, in order.
    #[serde(default)]
    pub handovers: Vec<HandoverView>,
    /// Not read: the seats taken and given up while the game waited for players (the seats
    /// of an imported game are set up anew).
    #[serde(default)]
    pub seat_changes: Vec<crate::api::SeatChangeView>,
    /// Checked: the result the moves must reach (absent or `null`: the game goes on).
    #[serde(default)]
    pub result: Option<GameResult>,
    /// The starting position in the notation (absent: the initial setup).
    #[serde(default)]
    pub start_position: Option<String>,
    /// Checked: the position the moves must reach.
    #[serde(default)]
    pub position: Option<String>,
    /// Not read: the text export.
    #[serde(default)]
    pub export: Option<String>,
}

/// One move of [`RecordImport`], as `MoveView` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveImport {
    /// Checked: the move's number, from 1.
    #[serde(default)]
    pub ply: Option<u32>,
    /// The seat that moved.
    pub seat: u8,
    /// Checked: the start cell.
    #[serde(default)]
    pub from: Option<String>,
    /// Checked: the end cell.
    #[serde(default)]
    pub to: Option<String>,
    /// Every cell the piece visited (or give `notation` alone).
    #[serde(default)]
    pub path: Vec<String>,
    /// The path in the notation (checked against `path` when both are given).
    #[serde(default)]
    pub notation: Option<String>,
    /// The seats skipped right after the move.
    #[serde(default)]
    pub skipped: Vec<u8>,
}

/// A game built from a record, with what its stored header keeps besides the game.
#[derive(Debug)]
pub struct Imported {
    /// The game after every move of the record.
    pub game: Game,
    /// Its start position in the notation.
    pub start_position: String,
    /// The seats handed to the AI, in order.
    pub handovers: Vec<Handover>,
    /// The seats' names from the record, where it has them.
    pub names: Vec<Option<String>>,
}

/// One line of a record after the tags.
#[derive(Clone, Debug)]
enum Entry {
    /// A move: its number, the seat, the cells, the seats skipped after it.
    Move {
        number: u32,
        seat: u8,
        cells: Vec<String>,
        skipped: Vec<u8>,
    },
    /// A resignation: the seats that left, the seats skipped after it.
    Resign { seats: Vec<u8>, skipped: Vec<u8> },
    /// A seat handed to the AI.
    Handover { seat: u8, level: u8 },
}

/// What the record says the game reached.
#[derive(Clone, Debug)]
enum Expected {
    /// The text export's `Result` tag.
    Text(String),
    /// The JSON form's `result`.
    Json(Option<GameResult>),
}

/// A record read, not yet replayed.
#[derive(Clone, Debug)]
struct Parsed {
    setup: GameSetup,
    first: Option<u8>,
    start: Option<String>,
    names: Vec<Option<String>>,
    entries: Vec<Entry>,
    result: Expected,
    position: Option<String>,
}

fn unreadable(move_number: Option<u32>, detail: String) -> ApiError {
    ApiError::InvalidRecord {
        reason: ProblemReason::Unreadable,
        move_number,
        detail,
    }
}

/// Players as people count them (`1,3`) into seats.
fn players(text: &str, count: u8, line: usize, at: u32) -> Result<Vec<u8>, ApiError> {
    text.split(',')
        .map(|p| {
            p.trim()
                .parse::<u8>()
                .ok()
                .filter(|n| (1..=count).contains(n))
                .map(|n| n - 1)
                .ok_or_else(|| {
                    unreadable(
                        Some(at),
                        format!("Line {line}: '{p}' is not a player from 1 to {count}."),
                    )
                })
        })
        .collect()
}

/// Splits `rest (skipped 1,2)` into `rest` and the skipped players' text.
fn skipped_part(text: &str) -> (&str, Option<&str>) {
    match text
        .strip_suffix(')')
        .and_then(|t| t.rsplit_once(" (skipped "))
    {
        Some((rest, list)) => (rest.trim_end(), Some(list)),
        None => (text, None),
    }
}

/// Reads the text export.
fn parse_text(text: &str) -> Result<Parsed, ApiError> {
    let mut board = None;
    let mut players_tag: Option<u8> = None;
    let mut options = RuleOptions::default();
    let mut first = None;
    let mut start = None;
    let mut result = None;
    let mut names: Vec<(u8, String)> = Vec::new();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let mut body: Vec<(usize, &str)> = Vec::new();
    for (line, l) in lines.by_ref() {
        if l.is_empty() {
            continue;
        }
        let Some(tag) = l.strip_prefix('[').and_then(|t| t.strip_suffix(']')) else {
            body.push((line, l));
            break;
        };
        let (name, value) = tag
            .split_once(' ')
            .ok_or_else(|| unreadable(None, format!("Line {line}: a tag is [Name \"value\"].")))?;
        let value = value
            .trim()
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .ok_or_else(|| {
                unreadable(
                    None,
                    format!("Line {line}: the tag's value is not in quotes."),
                )
            })?;
        let bad = |what: &str| unreadable(None, format!("Line {line}: {what}."));
        match name {
            "Board" => {
                board = Some(
                    BoardKind::ALL
                        .into_iter()
                        .find(|b| b.name() == value)
                        .ok_or_else(|| bad(&format!("'{value}' is not a board")))?,
                );
            }
            "Players" => {
                players_tag = Some(
                    value
                        .parse()
                        .map_err(|_| bad(&format!("'{value}' is not a player count")))?,
                );
            }
            "Options" if value != "-" => {
                for pair in value.split(',') {
                    let (k, v) = pair
                        .split_once('=')
                        .ok_or_else(|| bad(&format!("option '{pair}' is not key=value")))?;
                    options.set_pair(k, v).map_err(|m| bad(&m))?;
                }
            }
            "First" => first = Some(value.to_owned()),
            "Start" => start = Some(value.to_owned()),
            "Result" => result = Some(value.to_owned()),
            _ => {
                // `Player1` (and `Seat1` in older exports) name player 1; other tags
                // (`Game`, `Options "-"`, tags of other tools) are not read.
                let number = name
                    .strip_prefix("Player")
                    .or_else(|| name.strip_prefix("Seat"))
                    .and_then(|n| n.parse::<u8>().ok());
                if let Some(n) = number.filter(|&n| n >= 1) {
                    let name = super::new_game::checked_name(value)
                        .ok_or_else(|| bad(super::new_game::NAME_RULE.trim_end_matches('.')))?;
                    names.push((n - 1, name));
                }
            }
        }
    }
    body.extend(lines.filter(|(_, l)| !l.is_empty()));
    let board = board.ok_or_else(|| unreadable(None, "The record has no Board tag.".into()))?;
    let count =
        players_tag.ok_or_else(|| unreadable(None, "The record has no Players tag.".into()))?;
    let first = first
        .map(|f| players(&f, count, 0, 0).map(|p| p[0]))
        .transpose()
        .map_err(|_| unreadable(None, "The First tag is not a player of the game.".into()))?;
    let mut seat_names = vec![None; usize::from(count)];
    for (seat, name) in names {
        if let Some(slot) = seat_names.get_mut(usize::from(seat)) {
            *slot = Some(name);
        }
    }
    let mut entries = Vec::new();
    let mut moves = 0u32;
    for (line, l) in body {
        if entries.len() >= MAX_RECORD_ENTRIES {
            return Err(unreadable(
                Some(moves),
                format!("A record holds at most {MAX_RECORD_ENTRIES} moves, resignations and handovers."),
            ));
        }
        let next = moves + 1;
        if l.starts_with('[') {
            return Err(unreadable(
                Some(moves),
                format!("Line {line}: tags come before the moves."),
            ));
        }
        if let Some((number, rest)) = l.split_once(". ") {
            if let Ok(number) = number.parse::<u32>() {
                if number != next {
                    return Err(unreadable(
                        Some(next),
                        format!("Line {line}: move {number} where move {next} is due."),
                    ));
                }
                let (rest, skipped) = skipped_part(rest);
                let (player, path) = rest.split_once(' ').ok_or_else(|| {
                    unreadable(
                        Some(next),
                        format!("Line {line}: a move is '{next}. PLAYER PATH'."),
                    )
                })?;
                let seat = players(player, count, line, next)?[0];
                let skipped = match skipped {
                    Some(list) => players(list, count, line, next)?,
                    None => Vec::new(),
                };
                entries.push(Entry::Move {
                    number,
                    seat,
                    cells: path.trim().split('-').map(str::to_owned).collect(),
                    skipped,
                });
                moves = next;
                continue;
            }
        }
        let (rest, skipped) = skipped_part(l);
        if let Some(who) = rest.strip_suffix(" resigned") {
            entries.push(Entry::Resign {
                seats: players(who, count, line, moves)?,
                skipped: match skipped {
                    Some(list) => players(list, count, line, moves)?,
                    None => Vec::new(),
                },
            });
            continue;
        }
        if let Some((who, level)) = l
            .strip_suffix(')')
            .and_then(|t| t.split_once(" handed to the AI (level "))
        {
            let seat = players(who, count, line, moves)?[0];
            let level = level.parse().map_err(|_| {
                unreadable(
                    Some(moves),
                    format!("Line {line}: '{level}' is not an AI level."),
                )
            })?;
            entries.push(Entry::Handover { seat, level });
            continue;
        }
        return Err(unreadable(
            Some(moves),
            format!(
                "Line {line}: '{l}' is neither a move ('{next}. PLAYER PATH'), a resignation \
                 ('PLAYER resigned') nor a handover ('PLAYER handed to the AI (level N)')."
            ),
        ));
    }
    Ok(Parsed {
        setup: GameSetup {
            board,
            players: count,
            options,
        },
        first,
        start,
        names: seat_names,
        entries,
        result: Expected::Text(result.unwrap_or_else(|| "*".to_owned())),
        position: None,
    })
}

/// Reads the JSON form.
fn parse_json(record: &RecordImport) -> Result<Parsed, ApiError> {
    let moves = record.moves.len();
    if moves + record.resignations.len() + record.handovers.len() > MAX_RECORD_ENTRIES {
        return Err(unreadable(
            None,
            format!(
                "A record holds at most {MAX_RECORD_ENTRIES} moves, resignations and handovers."
            ),
        ));
    }
    let after_end = |after: u32, what: &str| {
        unreadable(
            Some(after),
            format!("A {what} after move {after}, but the record has {moves} moves."),
        )
    };
    for r in &record.resignations {
        if r.after as usize > moves {
            return Err(after_end(r.after, "resignation"));
        }
    }
    for h in &record.handovers {
        if h.after as usize > moves {
            return Err(after_end(h.after, "handover"));
        }
    }
    // After each move (and before the first): the handovers, then the resignations.
    let mut entries = Vec::with_capacity(moves * 2);
    let changes_after = |n: u32, entries: &mut Vec<Entry>| {
        for h in record.handovers.iter().filter(|h| h.after == n) {
            entries.push(Entry::Handover {
                seat: h.seat,
                level: h.level,
            });
        }
        for r in record.resignations.iter().filter(|r| r.after == n) {
            entries.push(Entry::Resign {
                seats: r.seats.clone(),
                skipped: r.skipped.clone(),
            });
        }
    };
    changes_after(0, &mut entries);
    for (i, m) in record.moves.iter().enumerate() {
        let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let bad = |what: String| unreadable(Some(number), format!("Move {number}: {what}."));
        if m.ply.is_some_and(|p| p != number) {
            return Err(bad(format!("its ply is {}", m.ply.unwrap_or_default())));
        }
        let cells: Vec<String> = if m.path.is_empty() {
            match &m.notation {
                Some(text) => text.split('-').map(|c| c.trim().to_owned()).collect(),
                None => return Err(bad("it has neither a path nor a notation".into())),
            }
        } else {
            m.path.clone()
        };
        if m.notation.as_ref().is_some_and(|n| *n != cells.join("-")) {
            return Err(bad("its notation is not its path".into()));
        }
        if m.from.as_ref().is_some_and(|f| Some(f) != cells.first())
            || m.to.as_ref().is_some_and(|t| Some(t) != cells.last())
        {
            return Err(bad("its from and to are not its path's ends".into()));
        }
        if usize::from(m.seat) >= usize::from(record.players)
            || m.skipped.iter().any(|&s| s >= record.players)
        {
            return Err(bad(format!(
                "seats are numbered 0 to {}",
                record.players.saturating_sub(1)
            )));
        }
        entries.push(Entry::Move {
            number,
            seat: m.seat,
            cells,
            skipped: m.skipped.clone(),
        });
        changes_after(number, &mut entries);
    }
    Ok(Parsed {
        setup: GameSetup {
            board: record.board,
            players: record.players,
            options: record.options.clone(),
        },
        first: Some(record.first_seat),
        start: record.start_position.clone(),
        names: vec![None; usize::from(record.players)],
        entries,
        result: Expected::Json(record.result.clone()),
        position: record.position.clone(),
    })
}

/// A record's problem, at `move_number`.
fn record_error(move_number: u32, reason: ProblemReason, detail: String) -> ApiError {
    ApiError::InvalidRecord {
        reason,
        move_number: Some(move_number),
        detail,
    }
}

/// People's numbers of seats: `1,3`.
fn people(seats: &[u8]) -> String {
    if seats.is_empty() {
        return "nobody".to_owned();
    }
    seats
        .iter()
        .map(|s| (s + 1).to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Imports the text export `text` (`json: None`) or the JSON form, with `options` added to the
/// record's own.
///
/// # Errors
/// 422 `invalid_record` with the `move_number` at fault and a `reason`; 422
/// `invalid_position` or `invalid_setup` when the record's setup and the request's options
/// do not go together.
pub fn import(
    variants: &VariantCache,
    text: Option<&str>,
    json: Option<&RecordImport>,
    options: &RuleOptions,
) -> Result<Imported, ApiError> {
    let parsed = match (text, json) {
        (Some(text), _) => parse_text(text)?,
        (None, Some(json)) => parse_json(json)?,
        (None, None) => return Err(ApiError::internal("import without a record")),
    };
    replay(variants, parsed, options)
}

/// Replays a record read.
fn replay(
    variants: &VariantCache,
    parsed: Parsed,
    extra: &RuleOptions,
) -> Result<Imported, ApiError> {
    let setup = position_input::with_options("record", &parsed.setup, extra)?;
    let variant = variants.get(&setup).map_err(|e| ApiError::InvalidRecord {
        reason: ProblemReason::from(&e),
        move_number: None,
        detail: format!("The record's setup cannot be played: {e}."),
    })?;
    let start = match &parsed.start {
        Some(text) => {
            position_input::read_position_of(&variant, &parsed.setup.options, "record start", text)
                .map_err(|e| match e {
                    ApiError::InvalidPosition { reason, detail, .. } => ApiError::InvalidRecord {
                        reason,
                        move_number: None,
                        detail,
                    },
                    other => other,
                })?
        }
        None => {
            let first = parsed
                .first
                .and_then(|f| variant.seat(usize::from(f)))
                .ok_or_else(|| {
                    unreadable(
                        None,
                        "The record has neither a Start position nor a First player.".into(),
                    )
                })?;
            halma_rules::Position::start(&variant, first)
        }
    };
    let first = match parsed.first {
        Some(f) => variant.seat(usize::from(f)).ok_or_else(|| {
            unreadable(
                None,
                format!("The first seat {f} is not a seat of the game."),
            )
        })?,
        None => start.to_move(),
    };
    let mut game = Game::from_position(Arc::clone(&variant), first, start);
    let start_position = notation::format_position(&variant, game.position());
    let board = variant.board();
    let mut handovers: Vec<Handover> = Vec::new();
    for entry in parsed.entries {
        let moves = u32::try_from(game.record().len()).unwrap_or(u32::MAX);
        match entry {
            Entry::Move {
                number,
                seat,
                cells,
                skipped,
            } => {
                let Some(to_move) = game.to_move() else {
                    return Err(record_error(
                        number,
                        ProblemReason::GameOver,
                        format!("Move {number}: the game is over already."),
                    ));
                };
                if to_move.index() != seat {
                    return Err(record_error(
                        number,
                        ProblemReason::WrongPlayer,
                        format!(
                            "Move {number}: the record says player {} moved, but player {} is to move.",
                            seat + 1,
                            to_move.index() + 1
                        ),
                    ));
                }
                let path = notation::parse_move(board, &cells.join("-"))
                    .map_err(|e| unreadable(Some(number), format!("Move {number}: {e}.")))?;
                let input = if path.len() == 2 {
                    MoveInput::FromTo(path[0], path[1])
                } else {
                    MoveInput::Path(path)
                };
                let played = game.play(&input).map_err(|e| {
                    record_error(
                        number,
                        ProblemReason::from(&e),
                        format!("Move {number} ({}): {e}.", cells.join("-")),
                    )
                })?;
                let rules_skip: Vec<u8> = played.skipped.iter().map(|s| s.index()).collect();
                if rules_skip != skipped {
                    return Err(record_error(
                        number,
                        ProblemReason::Skipped,
                        format!(
                            "Move {number}: the record skips {} after it, the rules skip {}.",
                            people(&skipped),
                            people(&rules_skip)
                        ),
                    ));
                }
            }
            Entry::Resign { seats, skipped } => {
                let Some(seat) = seats.first().and_then(|&s| variant.seat(usize::from(s))) else {
                    return Err(unreadable(
                        Some(moves),
                        "A resignation names no seat.".into(),
                    ));
                };
                let resignation = game.resign(seat).map_err(|e| {
                    let why = match e {
                        ResignError::GameOver => "the game is over".to_owned(),
                        ResignError::NotPlaying(_) => {
                            format!("player {} no longer plays", seat.index() + 1)
                        }
                    };
                    record_error(
                        moves,
                        ProblemReason::NotAllowed,
                        format!(
                            "The resignation of player {} after move {moves}: {why}.",
                            seat.index() + 1
                        ),
                    )
                })?;
                let left: Vec<u8> = resignation.seats.iter().map(|s| s.index()).collect();
                let rules_skip: Vec<u8> = resignation.skipped.iter().map(|s| s.index()).collect();
                if left != seats {
                    return Err(record_error(
                        moves,
                        ProblemReason::Mismatch,
                        format!(
                            "The resignation after move {moves}: the record says {} left, the rules take out {}.",
                            people(&seats),
                            people(&left)
                        ),
                    ));
                }
                if rules_skip != skipped {
                    return Err(record_error(
                        moves,
                        ProblemReason::Skipped,
                        format!(
                            "The resignation after move {moves}: the record skips {}, the rules skip {}.",
                            people(&skipped),
                            people(&rules_skip)
                        ),
                    ));
                }
            }
            Entry::Handover { seat, level } => {
                let not_allowed = |why: String| {
                    record_error(
                        moves,
                        ProblemReason::NotAllowed,
                        format!(
                            "Player {} handed to the AI after move {moves}: {why}.",
                            seat + 1
                        ),
                    )
                };
                let Some(handed) = variant.seat(usize::from(seat)) else {
                    return Err(unreadable(
                        Some(moves),
                        format!("A handover names seat {seat}, which the game does not have."),
                    ));
                };
                if !(1..=halma_ai::MAX_LEVEL).contains(&level) {
                    return Err(not_allowed(format!(
                        "level {level} is not from 1 to {}",
                        halma_ai::MAX_LEVEL
                    )));
                }
                if game.is_over() {
                    return Err(not_allowed("the game is over".into()));
                }
                if !game.position().is_active(handed) {
                    return Err(not_allowed("the player no longer plays".into()));
                }
                if handovers.iter().any(|h| h.seat == seat) {
                    return Err(not_allowed("the AI plays it already".into()));
                }
                handovers.push(Handover {
                    after: moves,
                    resignations: u32::try_from(game.resignations().len()).unwrap_or(u32::MAX),
                    seat,
                    level,
                });
            }
        }
    }
    let mismatch = |detail: String| ApiError::InvalidRecord {
        reason: ProblemReason::Mismatch,
        move_number: None,
        detail,
    };
    match parsed.result {
        Expected::Text(said) => {
            let reached = views::result_text(&game);
            if said != reached {
                return Err(mismatch(format!(
                    "The record's result is '{said}', its moves reach '{reached}'."
                )));
            }
        }
        Expected::Json(said) => {
            let reached = game.outcome().map(views::result_view);
            if said != reached {
                return Err(mismatch(format!(
                    "The record's result is {said:?}, its moves reach {reached:?}."
                )));
            }
        }
    }
    if let Some(said) = parsed.position {
        let reached = notation::format_position(&variant, game.position());
        // The setup fields may differ by the options the request added.
        if said
            .split_whitespace()
            .skip(3)
            .ne(reached.split_whitespace().skip(3))
        {
            return Err(mismatch(format!(
                "The record's position is '{said}', its moves reach '{reached}'."
            )));
        }
    }
    Ok(Imported {
        game,
        start_position,
        handovers,
        names: parsed.names,
    })
}
