//! Positions that clients send in the notation (a new game's `position`, a record's start, the
//! analysis endpoints' positions): read, joined with the request's rule options, and checked,
//! with errors that name the field at fault.

use std::sync::Arc;

use halma_rules::notation::{self, PositionTextError};
use halma_rules::{GameSetup, Position, PositionError, RuleOptions, SetupError, Variant};

use crate::error::ApiError;
use crate::games::variants::VariantCache;
use crate::problem::ProblemReason;

/// Most positions an analysis request may list as recent (the AI looks at the last 64).
pub const MAX_RECENT: usize = 64;

/// Reads the position `text` found at `field` of the request (`position`, `recent[3]`), with
/// the request's `options` added to the position's own: the position's options field and
/// `options` may each set an option, but not to two different values. The position must be
/// one a game of its setup can reach (see [`Variant::check_position`]).
///
/// # Errors
/// 422 `invalid_position` with the `field` (`position.placement`, or the option the position
/// needs, `options.fifteen_pieces`) and a `reason`: `unreadable`, `options_disagree`,
/// `players`, `option`, `piece_count`, `not_playing`, `finish_not_marked`,
/// `leave_home_not_marked`.
pub fn read_position(
    variants: &VariantCache,
    field: &str,
    text: &str,
    options: &RuleOptions,
) -> Result<(Arc<Variant>, Position), ApiError> {
    let own = notation::parse_setup(text).map_err(|e| text_error(field, &e))?;
    let setup = with_options(field, &own, options)?;
    let variant = variants.get(&setup).map_err(|e| {
        // Blame the position when its own setup cannot be played, else the added options.
        let own_fails = Variant::new(&own).is_err();
        setup_error(field, own_fails, &e)
    })?;
    let pos = notation::parse_placement(&variant, text).map_err(|e| text_error(field, &e))?;
    variant
        .check_position(&pos)
        .map_err(|e| position_error(field, &e))?;
    Ok((variant, pos))
}

/// Reads a position of a setup already known (a recent position of an analysis request, a
/// record's start): its board and players must be the variant's and its options field the
/// setup's own options (`own_options`, before the request added any).
///
/// # Errors
/// As [`read_position`]; a position of another setup is `unreadable`.
pub fn read_position_of(
    variant: &Variant,
    own_options: &RuleOptions,
    field: &str,
    text: &str,
) -> Result<Position, ApiError> {
    let setup = notation::parse_setup(text).map_err(|e| text_error(field, &e))?;
    if setup.options != *own_options {
        return Err(ApiError::InvalidPosition {
            reason: ProblemReason::Unreadable,
            field: format!("{field}.options"),
            detail: format!(
                "{field}, field 3 (options): '{}' is not the setup's options '{}'.",
                setup.options.to_text(),
                own_options.to_text()
            ),
        });
    }
    let pos = notation::parse_placement(variant, text).map_err(|e| text_error(field, &e))?;
    variant
        .check_position(&pos)
        .map_err(|e| position_error(field, &e))?;
    Ok(pos)
}

/// `own` with `extra`'s options added.
///
/// # Errors
/// 422 `invalid_position` (`options_disagree`) naming the first option the two set to
/// different values.
pub fn with_options(
    field: &str,
    own: &GameSetup,
    extra: &RuleOptions,
) -> Result<GameSetup, ApiError> {
    let mut options = own.options.clone();
    let mine = own.options.to_pairs();
    for (key, value) in extra.to_pairs() {
        if let Some((_, theirs)) = mine.iter().find(|(k, _)| *k == key) {
            if *theirs != value {
                return Err(ApiError::InvalidPosition {
                    reason: ProblemReason::OptionsDisagree,
                    field: format!("options.{key}"),
                    detail: format!(
                        "options.{key} is {value}, but the {field} says {key}={theirs}."
                    ),
                });
            }
        }
        options
            .set_pair(key, &value)
            .map_err(|message| ApiError::internal(format!("option {key}={value}: {message}")))?;
    }
    Ok(GameSetup {
        options,
        ..own.clone()
    })
}

/// The request path of a notation field: `position.to_move` for field 5 of `position`.
fn field_path(field: &str, name: &str) -> String {
    format!("{field}.{}", name.replace('-', "_"))
}

fn text_error(field: &str, err: &PositionTextError) -> ApiError {
    match err {
        PositionTextError::Fields(_) => ApiError::InvalidPosition {
            reason: ProblemReason::Unreadable,
            field: field.to_owned(),
            detail: format!("{field}: {err}."),
        },
        PositionTextError::Field { name, .. } => ApiError::InvalidPosition {
            reason: ProblemReason::Unreadable,
            field: field_path(field, name),
            detail: format!("{field}, {err}."),
        },
        PositionTextError::Setup(setup) => setup_error(field, true, setup),
    }
}

fn setup_error(field: &str, in_position: bool, err: &SetupError) -> ApiError {
    let (name, reason) = match err {
        SetupError::Players { .. } => ("players", ProblemReason::Players),
        SetupError::Option(_) => ("options", ProblemReason::Option),
    };
    let (path, place) = if in_position {
        (field_path(field, name), format!("{field}: "))
    } else {
        ("options".to_owned(), format!("options with the {field}: "))
    };
    ApiError::InvalidPosition {
        reason,
        field: path,
        detail: format!("{place}{err}."),
    }
}

fn position_error(field: &str, err: &PositionError) -> ApiError {
    let (n, name) = err.field();
    let reason = match err {
        PositionError::PieceCount { .. } => ProblemReason::PieceCount,
        PositionError::NotPlaying { .. } => ProblemReason::NotPlaying,
        PositionError::FinishNotMarked { .. } => ProblemReason::FinishNotMarked,
        PositionError::LeaveHomeNotMarked { .. } => ProblemReason::LeaveHomeNotMarked,
    };
    let path = match err {
        PositionError::PieceCount {
            fits: Some(hint), ..
        } => format!("options.{}", hint.option),
        _ => field_path(field, name),
    };
    ApiError::InvalidPosition {
        reason,
        field: path,
        detail: format!("{field}, field {n} ({name}): {err}."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(result: Result<(Arc<Variant>, Position), ApiError>) -> (ProblemReason, String) {
        match result {
            Err(ApiError::InvalidPosition { reason, field, .. }) => (reason, field),
            other => panic!("not an invalid position: {other:?}"),
        }
    }

    const SQUARE8: &str =
        "square8 2 - h1,g1,f1,e1,h2,g2,f2,h3,g3,h4/a8,b8,c8,d8,a7,b7,c7,a6,b6,a5 1 0,0";

    #[test]
    fn positions_and_their_faults() {
        let variants = VariantCache::default();
        let none = RuleOptions::default();
        let read =
            |text: &str, options: &RuleOptions| read_position(&variants, "position", text, options);
        assert!(read(SQUARE8, &none).is_ok());
        let cases = [
            ("square8 2 -", ProblemReason::Unreadable, "position"),
            (
                "square9 2 - a1/b2 1 0,0",
                ProblemReason::Unreadable,
                "position.board",
            ),
            (
                "square8 3 - a1/b2 1 0,0",
                ProblemReason::Players,
                "position.players",
            ),
            (
                &SQUARE8.replace("h1,", "z9,"),
                ProblemReason::Unreadable,
                "position.placement",
            ),
            (
                &SQUARE8.replace("h1,", ""),
                ProblemReason::PieceCount,
                "position.placement",
            ),
            (
                &SQUARE8.replace(" 1 0,0", " 3 0,0"),
                ProblemReason::Unreadable,
                "position.to_move",
            ),
            (
                &SQUARE8.replace(" 1 0,0", " 1 0f,0"),
                ProblemReason::NotPlaying,
                "position.to_move",
            ),
        ];
        for (text, reason, field) in cases {
            assert_eq!(
                problem(read(text, &none)),
                (reason, field.to_owned()),
                "{text}"
            );
        }
        // Options given twice must agree; options the board does not have are the request's.
        let leave_home_off = RuleOptions {
            leave_home: Some(false),
            ..RuleOptions::default()
        };
        assert!(read(SQUARE8, &leave_home_off).is_ok());
        let with_it = SQUARE8.replace(" - ", " leave_home=1 ");
        assert_eq!(
            problem(read(&with_it, &leave_home_off)),
            (
                ProblemReason::OptionsDisagree,
                "options.leave_home".to_owned()
            )
        );
        let teams = RuleOptions {
            teams: Some(true),
            ..RuleOptions::default()
        };
        assert_eq!(
            problem(read(SQUARE8, &teams)),
            (ProblemReason::Option, "options".to_owned())
        );
    }

    #[test]
    fn a_missing_option_is_named() {
        let variants = VariantCache::default();
        let fifteen = RuleOptions {
            fifteen_pieces: Some(true),
            ..RuleOptions::default()
        };
        let v = Variant::new(&GameSetup {
            board: halma_rules::BoardKind::Star,
            players: 2,
            options: fifteen.clone(),
        })
        .unwrap_or_else(|e| panic!("{e}"));
        let seat = v.seat(0).unwrap_or_else(|| panic!("no seat"));
        let text = notation::format_position(&v, &Position::start(&v, seat))
            .replace("fifteen_pieces=1", "-");
        let none = RuleOptions::default();
        assert_eq!(
            problem(read_position(&variants, "position", &text, &none)),
            (
                ProblemReason::PieceCount,
                "options.fifteen_pieces".to_owned()
            )
        );
        // With the option in the request, the same text is a position of that setup.
        let (variant, _) =
            read_position(&variants, "position", &text, &fifteen).unwrap_or_else(|e| panic!("{e}"));
        assert!(variant.options().fifteen_pieces);
    }
}
