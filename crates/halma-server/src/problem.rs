//! RFC 9457 problem documents: the body of every error response.

use std::fmt;

use actix_web::body::MessageBody;
use actix_web::dev::ServiceResponse;
use actix_web::http::header;
use actix_web::http::StatusCode;
use actix_web::middleware::ErrorHandlerResponse;
use actix_web::ResponseError;
use halma_rules::{IllegalMove, SetupError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::ApiError;

/// The media type of problem documents.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// Prefix of the `type` member; the problem's `code` completes it.
const PROBLEM_TYPE_PREFIX: &str = "urn:halma:problem:";

/// The stable machine-readable `code` of a problem document; each code comes with one HTTP
/// status.
//
// The only list of the codes: one per `ApiError` variant (see `ApiError::classify`), published
// as a string enum in the OpenAPI document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProblemCode {
    /// 404: no game has this id, or it expired.
    GameNotFound,
    /// 404: no resource at this path.
    NotFound,
    /// 405: the resource does not support the method.
    MethodNotAllowed,
    /// 401: the request carries no bearer token where one is required.
    MissingToken,
    /// 403: the token does not grant the action (a wrong token, or a seat token where the host
    /// token is required).
    InvalidToken,
    /// 412: the request was based on a version that is no longer current; `current_version`
    /// names the current one.
    VersionMismatch,
    /// 428: a write came without the version it is based on.
    PreconditionRequired,
    /// 422: the move breaks a rule; `reason` says which.
    IllegalMove,
    /// 422: the game setup cannot be played; `reason` says why.
    InvalidSetup,
    /// 400: a malformed request that no other code describes.
    BadRequest,
    /// 400: the body is not the JSON the operation expects.
    InvalidJson,
    /// 400: a cell, move or position in the notation could not be read.
    BadNotation,
    /// 415: the body is not JSON.
    UnsupportedMediaType,
    /// 413: the body is larger than the service accepts; `limit_bytes` says how large.
    PayloadTooLarge,
    /// 503: the game store does not answer; retry after the `Retry-After` header's seconds.
    StoreUnavailable,
    /// 409: the seat finished or is out of the game already.
    SeatNotPlaying,
    /// 409: the seat is played by the AI already.
    SeatIsAi,
    /// 409: the game waits for players to join its open seats; nothing is played before.
    GameWaiting,
    /// 409: the game no longer waits for players (every seat is taken, or it is over).
    GameNotWaiting,
    /// 409: the seat is not open: someone has taken it, or it was never open.
    SeatTaken,
    /// 409: the seat's player did not join it through an invitation, so it cannot be left
    /// (the host cancels the game instead).
    SeatNotJoined,
    /// 403: the invitation code is not the seat's (wrong, or replaced by a newer one).
    InvalidInvitation,
    /// 503: this instance holds as many event streams as it may; retry after the
    /// `Retry-After` header's seconds (another instance may have room).
    TooManyStreams,
    /// 422: a position (in the notation) cannot be played: `field` names the field of the
    /// request and of the position (`position.placement`), or the rule option it needs
    /// (`options.fifteen_pieces`), and `reason` says what is wrong.
    InvalidPosition,
    /// 422: a record to import cannot be replayed: `move_number` names the line of the record
    /// (the move's number, from 1; absent for its tags and start position) and `reason` says
    /// why (an illegal-move reason such as `cell_occupied`, or one of the record's own such as
    /// `unreadable` or `wrong_player`).
    InvalidRecord,
    /// 429: the client has spent a rate limit's bucket; `reason` names it (`requests`,
    /// `writes`, `game_creation`, `ai_time`), and the `Retry-After` header says in how many
    /// seconds it holds enough again.
    RateLimited,
    /// 500: a fault of the service.
    Internal,
}

impl ProblemCode {
    /// The code as it is written on the wire, e.g. `game_not_found`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::GameNotFound => "game_not_found",
            Self::NotFound => "not_found",
            Self::MethodNotAllowed => "method_not_allowed",
            Self::MissingToken => "missing_token",
            Self::InvalidToken => "invalid_token",
            Self::VersionMismatch => "version_mismatch",
            Self::PreconditionRequired => "precondition_required",
            Self::IllegalMove => "illegal_move",
            Self::InvalidSetup => "invalid_setup",
            Self::BadRequest => "bad_request",
            Self::InvalidJson => "invalid_json",
            Self::BadNotation => "bad_notation",
            Self::UnsupportedMediaType => "unsupported_media_type",
            Self::PayloadTooLarge => "payload_too_large",
            Self::StoreUnavailable => "store_unavailable",
            Self::TooManyStreams => "too_many_streams",
            Self::SeatNotPlaying => "seat_not_playing",
            Self::SeatIsAi => "seat_is_ai",
            Self::InvalidPosition => "invalid_position",
            Self::InvalidRecord => "invalid_record",
            Self::GameWaiting => "game_waiting",
            Self::GameNotWaiting => "game_not_waiting",
            Self::SeatTaken => "seat_taken",
            Self::SeatNotJoined => "seat_not_joined",
            Self::InvalidInvitation => "invalid_invitation",
            Self::RateLimited => "rate_limited",
            Self::Internal => "internal",
        }
    }
}

impl fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The `reason` of an `illegal_move` or `invalid_setup` problem: which rule the move breaks, or
/// why the setup cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProblemReason {
    /// `illegal_move`: the game is over.
    GameOver,
    /// `illegal_move`: a path needs at least a start and an end cell.
    PathTooShort,
    /// `illegal_move`: there is no piece on the start cell.
    EmptyCell,
    /// `illegal_move`: the piece on the start cell belongs to another player.
    NotYourPiece,
    /// `illegal_move`: the destination is occupied.
    CellOccupied,
    /// `illegal_move`: a piece in its goal may not leave it.
    GoalLocked,
    /// `illegal_move`: the move would end in a corner that is neither the piece's home nor its
    /// goal.
    ForeignCorner,
    /// `illegal_move`: the move would enter a camp that is neither the piece's home nor its
    /// goal.
    ForbiddenCamp,
    /// `illegal_move`: the game's step rules do not allow this step direction.
    StepDirection,
    /// `illegal_move`: a hop of the path is neither a step nor a jump over one piece.
    NotAJump,
    /// `illegal_move`: a step inside a jump chain.
    StepInChain,
    /// `illegal_move`: the move ends where it started.
    ReturnsToStart,
    /// `illegal_move`: no step or jump chain leads from the start to the end cell.
    Unreachable,
    /// `illegal_move`: another seat is to move (the token is a seat's).
    NotYourTurn,
    /// `illegal_move`: the seat to move is not played by the AI (AI turns).
    NotAiTurn,
    /// `invalid_setup`: the board does not seat this many players.
    Players,
    /// `invalid_setup`: a rule option does not fit the board or player count.
    Option,
    /// `invalid_setup`: `first_seat` is not a seat of the game.
    FirstSeat,
    /// `invalid_setup`: the seat list does not fit (count, names, levels).
    Seats,
    /// `invalid_setup`: the request gives more than one start (`position`, `record`,
    /// `record_json`), or a start together with what it already says (`first_seat`).
    StartConflict,
    /// `invalid_position`, `invalid_record`: a field, line or tag does not read.
    Unreadable,
    /// `invalid_position`: an army has another number of pieces than the setup gives it
    /// (`field` names the option that would fit, when one does).
    PieceCount,
    /// `invalid_position`: the request's `options` set an option to another value than the
    /// position does.
    OptionsDisagree,
    /// `invalid_position`: the player to move has finished or is out of the game.
    NotPlaying,
    /// `invalid_position`: a player still playing has filled its goal; mark it finished.
    FinishNotMarked,
    /// `invalid_position`: a player still playing is out by the leave-home rule; mark it so.
    LeaveHomeNotMarked,
    /// `invalid_record`: the record says another player made the move than the one to move.
    WrongPlayer,
    /// `invalid_record`: the players the record says were skipped are not the ones the rules
    /// skip.
    Skipped,
    /// `invalid_record`: a resignation or a handover the rules do not allow there (a player
    /// who no longer plays, a game that is over).
    NotAllowed,
    /// `invalid_record`: the record's stated result or final position is not the one its moves
    /// reach.
    Mismatch,
    /// `rate_limited`: the client's requests (per address).
    Requests,
    /// `rate_limited`: the writes of the client's token (or address, without a token).
    Writes,
    /// `rate_limited`: the games the client's address may create.
    GameCreation,
    /// `rate_limited`: the AI search time of the client's address.
    AiTime,
}

impl From<&IllegalMove> for ProblemReason {
    fn from(err: &IllegalMove) -> Self {
        match err {
            IllegalMove::GameOver => Self::GameOver,
            IllegalMove::PathTooShort => Self::PathTooShort,
            IllegalMove::EmptyCell { .. } => Self::EmptyCell,
            IllegalMove::NotYourPiece { .. } => Self::NotYourPiece,
            IllegalMove::CellOccupied { .. } => Self::CellOccupied,
            IllegalMove::GoalLocked { .. } => Self::GoalLocked,
            IllegalMove::ForeignCorner { .. } => Self::ForeignCorner,
            IllegalMove::ForbiddenCamp { .. } => Self::ForbiddenCamp,
            IllegalMove::StepDirection { .. } => Self::StepDirection,
            IllegalMove::NotAJump { .. } => Self::NotAJump,
            IllegalMove::StepInChain => Self::StepInChain,
            IllegalMove::ReturnsToStart => Self::ReturnsToStart,
            IllegalMove::Unreachable { .. } => Self::Unreachable,
        }
    }
}

impl From<&SetupError> for ProblemReason {
    fn from(err: &SetupError) -> Self {
        match err {
            SetupError::Players { .. } => Self::Players,
            SetupError::Option(_) => Self::Option,
        }
    }
}

/// An error response (RFC 9457 problem details) with a stable machine-readable `code`:
/// `version_mismatch` adds `current_version`, `illegal_move` and `invalid_setup` add a
/// `reason`, `invalid_position` a `reason` and a `field`, `invalid_record` a `reason` and a
/// `move_number`, `payload_too_large` adds `limit_bytes`, `rate_limited` a `reason`, and
/// `store_unavailable` (503) and `rate_limited` (429) come with a `Retry-After` header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:halma:problem:version_mismatch",
    "title": "Version mismatch",
    "status": 412,
    "detail": "The game has changed: its current version is 8. Read it again and retry with that version.",
    "code": "version_mismatch",
    "current_version": 8
}))]
pub struct Problem {
    /// Identifies the problem type: `urn:halma:problem:` followed by the `code`.
    #[serde(rename = "type")]
    pub problem_type: String,
    /// A short summary of the problem type.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// An explanation of this occurrence.
    pub detail: String,
    /// The stable machine-readable error code.
    pub code: ProblemCode,
    /// With `version_mismatch`: the game's current version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_version: Option<u64>,
    /// With `illegal_move`, `invalid_setup`, `invalid_position` and `invalid_record`: which
    /// rule the move breaks, or why the setup, position or record cannot be played; with
    /// `rate_limited`: the limit the client has reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<ProblemReason>,
    /// With `payload_too_large`: the body size limit in bytes, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_bytes: Option<u64>,
    /// With `invalid_position`: where the problem is, as a path into the request
    /// (`position.placement`, `recent[2].to_move`, `options.fifteen_pieces`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// With `invalid_record`: the number of the record's move at fault, from 1 (also for a
    /// resignation or handover: the move it follows; 0 before the first move); absent for a
    /// problem with the record's tags or start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_number: Option<u32>,
}

impl Problem {
    /// A problem of `status` with the given code, title and detail, and no extra members.
    pub fn new(status: StatusCode, code: ProblemCode, title: &str, detail: String) -> Self {
        Self {
            problem_type: format!("{PROBLEM_TYPE_PREFIX}{code}"),
            title: title.to_owned(),
            status: status.as_u16(),
            detail,
            code,
            current_version: None,
            reason: None,
            limit_bytes: None,
            field: None,
            move_number: None,
        }
    }

    /// The document as JSON text.
    pub fn to_json(&self) -> String {
        match serde_json::to_string(self) {
            Ok(json) => json,
            // Serializing strings and integers cannot fail; keep a valid body regardless.
            Err(_) => concat!(
                r#"{"type":"urn:halma:problem:internal","title":"Internal error","#,
                r#""status":500,"detail":"An internal error occurred.","code":"internal"}"#
            )
            .to_owned(),
        }
    }
}

/// Error-handler middleware body (for `actix_web::middleware::ErrorHandlers`): turns error
/// responses that actix produced itself (unknown method, unreadable body, ...) into problem
/// documents, so that clients see one error format.
///
/// Responses that already are problem documents, and statuses without an [`ApiError`]
/// counterpart, pass unchanged.
///
/// # Errors
/// Never; the signature is the one `ErrorHandlers` expects.
pub fn problem_fallback<B: MessageBody>(
    response: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes().starts_with(PROBLEM_JSON.as_bytes()));
    if is_problem {
        return Ok(ErrorHandlerResponse::Response(
            response.map_into_left_body(),
        ));
    }
    let cause = response.response().error().map(ToString::to_string);
    let err = match response.status() {
        StatusCode::BAD_REQUEST => {
            ApiError::BadRequest(cause.unwrap_or_else(|| "The request is malformed.".to_owned()))
        }
        StatusCode::NOT_FOUND => ApiError::RouteNotFound,
        StatusCode::METHOD_NOT_ALLOWED => ApiError::MethodNotAllowed,
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge { limit: None },
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::UnsupportedMediaType,
        StatusCode::INTERNAL_SERVER_ERROR => {
            ApiError::internal(cause.unwrap_or_else(|| "unspecified server error".to_owned()))
        }
        _ => {
            return Ok(ErrorHandlerResponse::Response(
                response.map_into_left_body(),
            ))
        }
    };
    let (request, _) = response.into_parts();
    let replaced = ServiceResponse::new(request, err.error_response());
    Ok(ErrorHandlerResponse::Response(
        replaced.map_into_right_body(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_with_rfc_9457_member_names_and_omits_empty_extras() {
        let problem = Problem::new(
            StatusCode::NOT_FOUND,
            ProblemCode::GameNotFound,
            "Game not found",
            "gone".into(),
        );
        let value: serde_json::Value = serde_json::from_str(&problem.to_json()).unwrap_or_default();
        assert_eq!(
            value,
            serde_json::json!({
                "type": "urn:halma:problem:game_not_found",
                "title": "Game not found",
                "status": 404,
                "detail": "gone",
                "code": "game_not_found"
            })
        );
    }

    #[test]
    fn round_trips_with_extras() {
        let mut problem = Problem::new(
            StatusCode::PRECONDITION_FAILED,
            ProblemCode::VersionMismatch,
            "Version mismatch",
            "stale".into(),
        );
        problem.current_version = Some(4);
        let back: Option<Problem> = serde_json::from_str(&problem.to_json()).ok();
        assert_eq!(back, Some(problem));
    }

    /// The values the OpenAPI schema of `T` lists.
    fn schema_values<T: utoipa::PartialSchema>() -> Vec<String> {
        let schema = serde_json::to_value(T::schema()).unwrap_or_default();
        schema["enum"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect()
    }

    #[test]
    fn every_code_is_written_as_its_wire_name() {
        let names = schema_values::<ProblemCode>();
        assert!(names.contains(&"game_not_found".to_owned()), "{names:?}");
        for name in names {
            let code: Result<ProblemCode, _> = serde_json::from_value(name.clone().into());
            assert_eq!(code.map(ProblemCode::as_str).ok(), Some(name.as_str()));
        }
    }

    #[test]
    fn illegal_move_reasons_are_the_rules_codes() {
        let cell = || "e5".to_owned();
        let every = [
            IllegalMove::GameOver,
            IllegalMove::PathTooShort,
            IllegalMove::EmptyCell { cell: cell() },
            IllegalMove::NotYourPiece { cell: cell() },
            IllegalMove::CellOccupied { cell: cell() },
            IllegalMove::GoalLocked { cell: cell() },
            IllegalMove::ForeignCorner { cell: cell() },
            IllegalMove::ForbiddenCamp { cell: cell() },
            IllegalMove::StepDirection {
                from: cell(),
                to: cell(),
            },
            IllegalMove::NotAJump {
                hop: 1,
                from: cell(),
                to: cell(),
            },
            IllegalMove::StepInChain,
            IllegalMove::ReturnsToStart,
            IllegalMove::Unreachable {
                from: cell(),
                to: cell(),
            },
        ];
        let reasons = schema_values::<ProblemReason>();
        for err in &every {
            let reason = serde_json::to_value(ProblemReason::from(err)).unwrap_or_default();
            assert_eq!(reason, err.code(), "{err:?}");
            assert!(reasons.iter().any(|r| r == err.code()), "{err:?}");
        }
    }
}
