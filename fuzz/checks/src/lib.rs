//! The invariants the fuzz targets check, one function per parser of `halma_rules::notation`.
//!
//! Each function takes the fuzzer's bytes, feeds them to a parser, and when the parser accepts
//! them checks what must then hold (a text formats back to one that parses to the same value,
//! cells are on their board, a parsed move is accepted exactly when move generation lists it).
//! A violated invariant panics with a message saying which one: that is what the fuzzer reports
//! as a crash. Rejected inputs only have to be rejected without a panic.
//!
//! The functions live in this ordinary library, not in the fuzz targets, so that the seed corpus
//! can be replayed on the stable toolchain (`cargo test` in this folder) and the corpus generator
//! (`src/bin/gen-corpus.rs`) can check what it writes.
//!
//! # Inputs
//! - [`cell`] and [`move_text`]: a board selector byte (see [`board_for`]) followed by the text;
//! - [`position`] and [`setup`]: the text alone;
//! - [`play`]: a position's text, a line break, then a move's text.
//!
//! Inputs that are not UTF-8 are skipped: the parsers take `&str`, and the service hands them
//! only what its JSON layer decoded.

use std::sync::Arc;

use halma_rules::notation;
use halma_rules::{Board, BoardKind, Game, Move, MoveInput, Position, Variant};

/// The boards the selector byte picks from: every star arm size on offer and the square boards.
pub const BOARDS: [(BoardKind, u8); 7] = [
    (BoardKind::Star, 4),
    (BoardKind::Star, 3),
    (BoardKind::Star, 2),
    (BoardKind::Star, 5),
    (BoardKind::Square16, 0),
    (BoardKind::Square10, 0),
    (BoardKind::Square8, 0),
];

/// The board a selector byte names: `b'0' + i` picks `BOARDS[i]` (so that the corpus files
/// are readable text); any other byte picks by its value modulo the number of boards.
///
/// # Panics
/// When `halma_rules` no longer offers one of [`BOARDS`] (an invariant of this crate).
#[must_use]
pub fn board_for(selector: u8) -> &'static Board {
    let i = usize::from(selector.wrapping_sub(b'0')) % BOARDS.len();
    let (kind, arm) = BOARDS[i];
    Board::get(kind, arm).unwrap_or_else(|e| panic!("board {kind:?} arm {arm} is offered: {e}"))
}

/// Splits a selector byte from UTF-8 text; `None` for an empty or non-UTF-8 input.
fn selector_and_text(data: &[u8]) -> Option<(&'static Board, &str)> {
    let (&first, rest) = data.split_first()?;
    Some((board_for(first), std::str::from_utf8(rest).ok()?))
}

/// [`Board::parse_cell`]: an accepted name is a cell of the board, is the board's own name for
/// that cell up to the letter's case, and the board's name parses back to the same cell.
pub fn cell(data: &[u8]) {
    let Some((board, text)) = selector_and_text(data) else {
        return;
    };
    let Ok(cell) = board.parse_cell(text) else {
        return;
    };
    assert!(
        board.cell(usize::from(cell.index())) == Some(cell),
        "{text:?} parsed to cell {} of a board of {} cells",
        cell.index(),
        board.len()
    );
    let name = board.name(cell);
    assert_eq!(
        name,
        text.to_ascii_lowercase(),
        "{text:?} parsed to the cell named {name:?}"
    );
    assert_eq!(
        board.parse_cell(name).ok(),
        Some(cell),
        "the name {name:?} does not parse back to its cell"
    );
}

/// [`notation::parse_move`]: an accepted move has at least two cells, all on the board, one per
/// `-`-separated part, each named by its part (up to case and surrounding spaces), and its
/// formatted text parses back to the same cells.
pub fn move_text(data: &[u8]) {
    let Some((board, text)) = selector_and_text(data) else {
        return;
    };
    let Ok(cells) = notation::parse_move(board, text) else {
        return;
    };
    assert!(cells.len() >= 2, "{text:?} parsed to {} cells", cells.len());
    let parts: Vec<&str> = text.trim().split('-').collect();
    assert_eq!(parts.len(), cells.len(), "{text:?}: parts and cells differ");
    for (part, &c) in parts.iter().zip(&cells) {
        assert!(
            usize::from(c.index()) < board.len(),
            "{text:?}: cell {} is off the board",
            c.index()
        );
        assert_eq!(
            board.name(c),
            part.trim().to_ascii_lowercase(),
            "{text:?}: part {part:?} parsed to another cell"
        );
    }
    let formatted = notation::format_path(board, &cells);
    assert_eq!(
        notation::parse_move(board, &formatted).as_ref(),
        Ok(&cells),
        "{text:?} formats as {formatted:?}, which reads otherwise"
    );
}

/// What must hold of a position the notation accepted: every piece on the board, armies
/// disjoint and their union the occupied set, the incremental hash equal to a full recompute,
/// and the position's text a fixed point that parses to the same setup and position (also
/// through [`notation::parse_position_with`] and [`notation::parse_placement`]).
///
/// # Panics
/// When one of these fails.
pub fn check_parsed_position(variant: &Variant, pos: &Position) {
    let board = variant.board();
    let mut union = halma_rules::Bitboard::EMPTY;
    for a in 0..variant.armies().len() {
        let army = pos.army(a);
        assert!(
            army.is_subset(&board.all()),
            "army {a} has a piece off the board"
        );
        assert!((army & union).is_empty(), "army {a} shares a cell");
        union |= army;
    }
    assert_eq!(union, pos.occupied(), "the occupied set is not the armies'");
    assert_eq!(pos.hash(), pos.compute_hash(), "incremental hash differs");
    assert!(
        usize::from(pos.to_move().index()) < usize::from(variant.players()),
        "seat {} to move in a game of {} players",
        pos.to_move().index(),
        variant.players()
    );

    let text = notation::format_position(variant, pos);
    let reread = notation::parse_position(&text)
        .unwrap_or_else(|e| panic!("the formatted position {text:?} does not read: {e}"));
    assert_eq!(reread.0.setup(), variant.setup(), "{text:?}: setup differs");
    assert_eq!(&reread.1, pos, "{text:?}: position differs");
    assert_eq!(
        notation::format_position(&reread.0, &reread.1),
        text,
        "formatting is not a fixed point"
    );
    assert_eq!(
        notation::parse_position_with(variant, &text).as_ref(),
        Ok(pos),
        "{text:?}: parse_position_with differs"
    );
    assert_eq!(
        notation::parse_placement(variant, &text).as_ref(),
        Ok(pos),
        "{text:?}: parse_placement differs"
    );
}

/// [`notation::parse_position`]: see [`check_parsed_position`]; and the setup alone
/// ([`notation::parse_setup`]) reads as the position's.
pub fn position(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok((variant, pos)) = notation::parse_position(text) else {
        return;
    };
    assert_eq!(
        notation::parse_setup(text).as_ref(),
        Ok(variant.setup()),
        "{text:?}: parse_setup differs from parse_position's setup"
    );
    check_parsed_position(&variant, &pos);
    // Checking against the variant must not panic, whatever it finds.
    let _ = variant.check_position(&pos);
}

/// [`notation::parse_setup`]: the options' text form reads back to the same setup; when the
/// setup can be played, every seat's start position passes [`Variant::check_position`] and
/// [`check_parsed_position`].
pub fn setup(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(setup) = notation::parse_setup(text) else {
        return;
    };
    let again = format!(
        "{} {} {} - 1 0",
        setup.board.name(),
        setup.players,
        setup.options.to_text()
    );
    assert_eq!(
        notation::parse_setup(&again).as_ref(),
        Ok(&setup),
        "{text:?} writes as {again:?}, which reads otherwise"
    );
    let Ok(variant) = Variant::new(&setup) else {
        return;
    };
    for seat in variant.seats() {
        let pos = Position::start(&variant, seat);
        if let Err(e) = variant.check_position(&pos) {
            panic!("{text:?}: the start position with seat {seat:?} first is rejected: {e}");
        }
        check_parsed_position(&variant, &pos);
    }
}

/// Every move of the seat to move in `pos`, sorted, after checking that move generation agrees
/// with itself (see [`play`]); `label` names the position in the messages.
fn checked_moves(variant: &Variant, pos: &Position, label: &str) -> Vec<Move> {
    let mut generated = Vec::new();
    variant.generate_moves(pos, &mut generated);
    generated.sort();
    let before = generated.len();
    generated.dedup();
    assert_eq!(
        before,
        generated.len(),
        "{label:?}: a move is generated twice"
    );
    assert_eq!(
        variant.count_moves(pos) as usize,
        generated.len(),
        "{label:?}: count_moves differs from generate_moves"
    );
    assert_eq!(
        variant.has_moves(pos),
        !generated.is_empty(),
        "{label:?}: has_moves differs from generate_moves"
    );
    for &mv in &generated {
        assert!(
            variant.is_legal(pos, mv),
            "{label:?}: {mv:?} generated but not legal"
        );
    }
    let with_paths = variant.legal_moves_with_paths(pos);
    let mut listed: Vec<Move> = with_paths.iter().map(|m| m.mv).collect();
    listed.sort();
    assert_eq!(listed, generated, "{label:?}: moves with paths differ");
    for lm in &with_paths {
        let checked = variant.check_path(pos, &lm.path);
        assert!(
            checked.as_ref().map(|c| c.mv) == Ok(lm.mv),
            "{label:?}: the witness path of {:?} is rejected: {checked:?}",
            lm.mv
        );
    }
    generated
}

/// Splits a [`play`] input into the position's and the move's text.
fn position_and_move(data: &[u8]) -> Option<(&str, &str)> {
    std::str::from_utf8(data).ok()?.split_once('\n')
}

/// A position and a move ([`notation::parse_position`] then [`notation::parse_move`], the way
/// the service reads a client's move), for a position that [`Variant::check_position`] accepts:
/// - move generation agrees with itself: [`Variant::count_moves`] and [`Variant::has_moves`]
///   with the list, every listed move [`Variant::is_legal`], the moves with witness paths are
///   the same set, and each witness path passes [`Variant::check_path`];
/// - the parsed move is accepted exactly when the list has it (two cells: start and end; more:
///   the full path, whose start and end then make a listed move);
/// - after an accepted move the game's position passes [`check_parsed_position`], the piece
///   stands on its destination and the record holds the move.
pub fn play(data: &[u8]) {
    let Some((pos_text, move_text)) = position_and_move(data) else {
        return;
    };
    let Ok((variant, pos)) = notation::parse_position(pos_text) else {
        return;
    };
    if variant.check_position(&pos).is_err() {
        return;
    }
    let generated = checked_moves(&variant, &pos, pos_text);
    let before_settle = pos;

    let Ok(cells) = notation::parse_move(variant.board(), move_text) else {
        return;
    };
    let (first, last) = (cells[0], cells[cells.len() - 1]);
    let input = if cells.len() == 2 {
        MoveInput::FromTo(first, last)
    } else {
        MoveInput::Path(cells.clone())
    };
    let mut game = Game::from_position(Arc::new(variant.clone()), pos.to_move(), pos);
    // Opening the game skips a seat to move that has no move, and may end the game: the move
    // is then checked against the game's position.
    let pos = *game.position();
    let generated = if game.is_over() {
        Vec::new()
    } else if pos == before_settle {
        generated
    } else {
        checked_moves(&variant, &pos, pos_text)
    };
    let checked = game.check(&input);
    let mv = Move {
        from: first,
        to: last,
    };
    let listed = generated.binary_search(&mv).is_ok();
    match (&checked, cells.len()) {
        (Ok(lm), _) => {
            assert_eq!(lm.mv, mv, "{move_text:?} accepted as another move");
            assert!(
                listed,
                "{move_text:?} accepted in {pos_text:?} but not generated"
            );
        }
        (Err(e), 2) => assert!(
            !listed,
            "{move_text:?} is generated in {pos_text:?} but rejected: {e}"
        ),
        (Err(_), _) => {}
    }
    let Ok(lm) = checked else {
        return;
    };
    let mover = pos.to_move();
    let played = game
        .play(&input)
        .unwrap_or_else(|e| panic!("{move_text:?} checked but not played: {e}"))
        .clone();
    assert_eq!((played.mv, played.seat), (mv, mover), "the record differs");
    assert_eq!(played.path, lm.path, "the recorded path differs");
    let after = game.position();
    assert!(
        !after.occupied().has(first.index()),
        "the start cell is still occupied"
    );
    assert_eq!(
        after.army_at(last),
        pos.army_at(first),
        "the piece is not on its destination"
    );
    assert_eq!(
        after.occupied().count(),
        pos.occupied().count(),
        "the number of pieces changed"
    );
    check_parsed_position(&variant, after);
}
