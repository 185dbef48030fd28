//! The one error type of the HTTP layer, and its mapping to status codes.
//!
//! Every [`ApiError`] renders as an RFC 9457 problem document ([`Problem`]) with a stable
//! machine-readable `code`. What the client reads is chosen here, variant by variant; the
//! error's sources (a Redis error, a corrupt record) only go to the log.

use std::error::Error as StdError;
use std::time::Duration;

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};

use halma_rules::{IllegalMove, SetupError};

use crate::limits::{Bucket, Denied};
use crate::problem::{Problem, ProblemCode, ProblemReason, PROBLEM_JSON};
use crate::store::{StoreError, Version};

/// Seconds a client is asked to wait (`Retry-After`) when the store is unavailable.
pub const RETRY_AFTER_SECS: u32 = 2;

/// An error answered to an HTTP client.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// No game has this id (or it expired).
    #[error("game not found")]
    GameNotFound,
    /// No route matches the request path.
    #[error("no route matches the request path")]
    RouteNotFound,
    /// The route exists but not for this method.
    #[error("method not allowed")]
    MethodNotAllowed,
    /// The request carries no bearer token where one is required.
    #[error("missing bearer token")]
    MissingToken,
    /// The bearer token does not grant the requested action.
    #[error("invalid token")]
    InvalidToken,
    /// The request was based on a version that is no longer current.
    #[error("version mismatch: the current version is {current}")]
    VersionMismatch {
        /// The game's current version.
        current: Version,
    },
    /// A write came without the version it is based on.
    #[error("precondition required")]
    PreconditionRequired,
    /// The move breaks a rule.
    #[error("illegal move ({reason:?}): {detail}")]
    IllegalMove {
        /// Which rule the move breaks, such as [`ProblemReason::NotYourTurn`].
        reason: ProblemReason,
        /// A human-readable explanation.
        detail: String,
    },
    /// The requested game setup is not valid.
    #[error("invalid setup ({reason:?}): {detail}")]
    InvalidSetup {
        /// Why the setup cannot be played.
        reason: ProblemReason,
        /// A human-readable explanation.
        detail: String,
    },
    /// A position in the notation cannot be played.
    #[error("invalid position ({reason:?}) at {field}: {detail}")]
    InvalidPosition {
        /// What is wrong, such as [`ProblemReason::PieceCount`].
        reason: ProblemReason,
        /// Where: a path into the request (`position.placement`) or the option it needs.
        field: String,
        /// A human-readable explanation.
        detail: String,
    },
    /// A record to import cannot be replayed.
    #[error("invalid record ({reason:?}) at move {move_number:?}: {detail}")]
    InvalidRecord {
        /// Why, such as [`ProblemReason::CellOccupied`] or [`ProblemReason::WrongPlayer`].
        reason: ProblemReason,
        /// The record's move at fault, from 1 (0 before the first move); `None` for its tags
        /// and start.
        move_number: Option<u32>,
        /// A human-readable explanation.
        detail: String,
    },
    /// The request is malformed in a way the other variants do not describe.
    #[error("bad request: {0}")]
    BadRequest(String),
    /// The body is not the JSON expected; carries serde's message.
    #[error("invalid JSON: {0}")]
    InvalidJson(String),
    /// A move or position in text notation could not be read.
    #[error("bad notation: {0}")]
    BadNotation(String),
    /// The body is not JSON (by its `Content-Type`).
    #[error("unsupported media type")]
    UnsupportedMediaType,
    /// The body is larger than the configured limit.
    #[error("payload too large")]
    PayloadTooLarge {
        /// The limit in bytes, when known.
        limit: Option<usize>,
    },
    /// The seat finished or is out of the game already.
    #[error("seat {seat} is no longer playing")]
    SeatNotPlaying {
        /// The seat.
        seat: u8,
    },
    /// The seat is played by the AI already.
    #[error("seat {seat} is played by the AI already")]
    SeatIsAi {
        /// The seat.
        seat: u8,
    },
    /// The game waits for players; nothing is played before every seat is taken.
    #[error("the game waits for players")]
    GameWaiting,
    /// The game no longer waits for players.
    #[error("the game no longer waits for players")]
    GameNotWaiting,
    /// The seat is not open.
    #[error("seat {seat} is not open")]
    SeatTaken {
        /// The seat.
        seat: u8,
    },
    /// The seat was not joined through an invitation.
    #[error("seat {seat} was not joined")]
    SeatNotJoined {
        /// The seat.
        seat: u8,
    },
    /// The invitation code does not open the seat.
    #[error("invalid invitation code")]
    InvalidInvitation,
    /// This instance holds as many event streams as it may; the client should retry (another
    /// instance may have room).
    #[error("too many open event streams")]
    TooManyStreams,
    /// The client has spent one of its rate limits' buckets.
    #[error("rate limited ({}): retry after {retry_after:?}", bucket.as_str())]
    RateLimited {
        /// The bucket that is empty.
        bucket: Bucket,
        /// How long until it holds enough again.
        retry_after: Duration,
    },
    /// The game store cannot be reached; the client should retry.
    #[error("the game store is unavailable")]
    StoreUnavailable(#[source] StoreError),
    /// A fault on our side; the details are logged, never sent.
    #[error("internal error")]
    Internal(#[source] Box<dyn StdError + Send + Sync + 'static>),
}

impl ApiError {
    /// An internal error with `source` as its logged cause.
    pub fn internal(source: impl Into<Box<dyn StdError + Send + Sync + 'static>>) -> Self {
        Self::Internal(source.into())
    }

    /// The HTTP status, the stable code and the title of this error, in one exhaustive match.
    fn classify(&self) -> (StatusCode, ProblemCode, &'static str) {
        match self {
            Self::GameNotFound => (
                StatusCode::NOT_FOUND,
                ProblemCode::GameNotFound,
                "Game not found",
            ),
            Self::RouteNotFound => (StatusCode::NOT_FOUND, ProblemCode::NotFound, "Not found"),
            Self::MethodNotAllowed => (
                StatusCode::METHOD_NOT_ALLOWED,
                ProblemCode::MethodNotAllowed,
                "Method not allowed",
            ),
            Self::MissingToken => (
                StatusCode::UNAUTHORIZED,
                ProblemCode::MissingToken,
                "Missing token",
            ),
            Self::InvalidToken => (
                StatusCode::FORBIDDEN,
                ProblemCode::InvalidToken,
                "Invalid token",
            ),
            Self::VersionMismatch { .. } => (
                StatusCode::PRECONDITION_FAILED,
                ProblemCode::VersionMismatch,
                "Version mismatch",
            ),
            Self::PreconditionRequired => (
                StatusCode::PRECONDITION_REQUIRED,
                ProblemCode::PreconditionRequired,
                "Precondition required",
            ),
            Self::IllegalMove { .. } => (
                StatusCode::UNPROCESSABLE_ENTITY,
                ProblemCode::IllegalMove,
                "Illegal move",
            ),
            Self::InvalidSetup { .. } => (
                StatusCode::UNPROCESSABLE_ENTITY,
                ProblemCode::InvalidSetup,
                "Invalid setup",
            ),
            Self::InvalidPosition { .. } => (
                StatusCode::UNPROCESSABLE_ENTITY,
                ProblemCode::InvalidPosition,
                "Invalid position",
            ),
            Self::InvalidRecord { .. } => (
                StatusCode::UNPROCESSABLE_ENTITY,
                ProblemCode::InvalidRecord,
                "Invalid record",
            ),
            Self::BadRequest(_) => (
                StatusCode::BAD_REQUEST,
                ProblemCode::BadRequest,
                "Bad request",
            ),
            Self::InvalidJson(_) => (
                StatusCode::BAD_REQUEST,
                ProblemCode::InvalidJson,
                "Invalid JSON",
            ),
            Self::BadNotation(_) => (
                StatusCode::BAD_REQUEST,
                ProblemCode::BadNotation,
                "Bad notation",
            ),
            Self::UnsupportedMediaType => (
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ProblemCode::UnsupportedMediaType,
                "Unsupported media type",
            ),
            Self::PayloadTooLarge { .. } => (
                StatusCode::PAYLOAD_TOO_LARGE,
                ProblemCode::PayloadTooLarge,
                "Payload too large",
            ),
            Self::SeatNotPlaying { .. } => (
                StatusCode::CONFLICT,
                ProblemCode::SeatNotPlaying,
                "Seat not playing",
            ),
            Self::SeatIsAi { .. } => (
                StatusCode::CONFLICT,
                ProblemCode::SeatIsAi,
                "Seat is the AI's",
            ),
            Self::GameWaiting => (
                StatusCode::CONFLICT,
                ProblemCode::GameWaiting,
                "Game waiting for players",
            ),
            Self::GameNotWaiting => (
                StatusCode::CONFLICT,
                ProblemCode::GameNotWaiting,
                "Game not waiting",
            ),
            Self::SeatTaken { .. } => (StatusCode::CONFLICT, ProblemCode::SeatTaken, "Seat taken"),
            Self::SeatNotJoined { .. } => (
                StatusCode::CONFLICT,
                ProblemCode::SeatNotJoined,
                "Seat not joined",
            ),
            Self::InvalidInvitation => (
                StatusCode::FORBIDDEN,
                ProblemCode::InvalidInvitation,
                "Invalid invitation",
            ),
            Self::TooManyStreams => (
                StatusCode::SERVICE_UNAVAILABLE,
                ProblemCode::TooManyStreams,
                "Too many streams",
            ),
            Self::RateLimited { .. } => (
                StatusCode::TOO_MANY_REQUESTS,
                ProblemCode::RateLimited,
                "Rate limited",
            ),
            Self::StoreUnavailable(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                ProblemCode::StoreUnavailable,
                "Store unavailable",
            ),
            Self::Internal(_) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                ProblemCode::Internal,
                "Internal error",
            ),
        }
    }

    /// The stable machine-readable code, e.g. [`ProblemCode::GameNotFound`].
    pub fn code(&self) -> ProblemCode {
        self.classify().1
    }

    /// The problem document the client receives.
    pub fn problem(&self) -> Problem {
        let (status, code, title) = self.classify();
        let mut problem = Problem::new(status, code, title, self.client_detail());
        match self {
            Self::VersionMismatch { current } => problem.current_version = Some(*current),
            Self::IllegalMove { reason, .. } | Self::InvalidSetup { reason, .. } => {
                problem.reason = Some(*reason);
            }
            Self::InvalidPosition { reason, field, .. } => {
                problem.reason = Some(*reason);
                problem.field = Some(field.clone());
            }
            Self::InvalidRecord {
                reason,
                move_number,
                ..
            } => {
                problem.reason = Some(*reason);
                problem.move_number = *move_number;
            }
            Self::PayloadTooLarge { limit } => {
                problem.limit_bytes = limit.and_then(|limit| u64::try_from(limit).ok());
            }
            Self::RateLimited { bucket, .. } => problem.reason = Some(bucket.reason()),
            _ => {}
        }
        problem
    }

    /// The `detail` member: an explanation safe to show, without internal causes.
    fn client_detail(&self) -> String {
        match self {
            Self::GameNotFound => "No game with this id exists, or it has expired.".to_owned(),
            Self::RouteNotFound => "No resource exists at this path.".to_owned(),
            Self::MethodNotAllowed => "This resource does not support the method.".to_owned(),
            Self::MissingToken => {
                "Send the seat's or the host's token as `Authorization: Bearer <token>`.".to_owned()
            }
            Self::InvalidToken => "The token does not grant this action.".to_owned(),
            Self::VersionMismatch { current } => format!(
                "The game has changed: its current version is {current}. \
                 Read it again and retry with that version."
            ),
            Self::PreconditionRequired => {
                "Send the version the change is based on (If-Match with the game's ETag)."
                    .to_owned()
            }
            Self::IllegalMove { detail, .. }
            | Self::InvalidSetup { detail, .. }
            | Self::InvalidPosition { detail, .. }
            | Self::InvalidRecord { detail, .. }
            | Self::BadRequest(detail)
            | Self::InvalidJson(detail)
            | Self::BadNotation(detail) => detail.clone(),
            Self::UnsupportedMediaType => "The body must be JSON (application/json).".to_owned(),
            Self::PayloadTooLarge { limit: Some(limit) } => {
                format!("The request body exceeds the limit of {limit} bytes.")
            }
            Self::PayloadTooLarge { limit: None } => {
                "The request body exceeds the size limit.".to_owned()
            }
            Self::SeatNotPlaying { seat } => {
                format!("Seat {seat} has finished or is out of the game already.")
            }
            Self::SeatIsAi { seat } => format!("Seat {seat} is played by the AI already."),
            Self::GameWaiting => "The game waits for players to join its open seats; \
                nothing is played before every seat is taken."
                .to_owned(),
            Self::GameNotWaiting => {
                "The game no longer waits for players: every seat is taken.".to_owned()
            }
            Self::SeatTaken { seat } => format!("Seat {seat} is not open."),
            Self::SeatNotJoined { seat } => format!(
                "Seat {seat} was not joined through an invitation: only a player who joined \
                 leaves; the host cancels the game instead."
            ),
            Self::InvalidInvitation => {
                "The invitation code does not open this seat (wrong, or replaced by a newer one)."
                    .to_owned()
            }
            Self::TooManyStreams => {
                "This instance holds as many event streams as it may; retry later.".to_owned()
            }
            Self::RateLimited {
                bucket,
                retry_after,
            } => {
                let what = match bucket {
                    Bucket::Requests => "requests from this address",
                    Bucket::Writes => "writes with this token",
                    Bucket::Games => "games created from this address",
                    Bucket::AiTime => "AI search time asked from this address",
                };
                format!(
                    "Too many {what} for now; retry in {} s.",
                    retry_after_secs(*retry_after)
                )
            }
            Self::StoreUnavailable(_) => {
                "The game store is temporarily unavailable; retry later.".to_owned()
            }
            Self::Internal(_) => "An internal error occurred.".to_owned(),
        }
    }

    /// Writes this error to the log: faults with their causes (an unavailable store is an
    /// outage, not a bug: a warning), client errors briefly at debug level.
    fn log(&self, status: StatusCode) {
        let code = self.code().as_str();
        let status = status.as_u16();
        match self {
            Self::Internal(_) => {
                tracing::error!(code, status, error = %ErrorChain(self), "request failed");
            }
            Self::StoreUnavailable(_) => {
                tracing::warn!(code, status, error = %ErrorChain(self), "request failed");
            }
            _ => tracing::debug!(code, status, error = %self, "request rejected"),
        }
    }
}

/// Whole seconds to wait (`Retry-After`), rounded up, at least one.
fn retry_after_secs(wait: Duration) -> u64 {
    let whole = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    whole.max(1)
}

impl From<Denied> for ApiError {
    fn from(denied: Denied) -> Self {
        Self::RateLimited {
            bucket: denied.bucket,
            retry_after: denied.retry_after,
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::NotFound => Self::GameNotFound,
            StoreError::VersionMismatch { current } => Self::VersionMismatch { current },
            StoreError::Unavailable(_) | StoreError::TimedOut(_) => Self::StoreUnavailable(err),
            StoreError::AlreadyExists | StoreError::Corrupt { .. } => Self::internal(err),
        }
    }
}

impl From<IllegalMove> for ApiError {
    fn from(err: IllegalMove) -> Self {
        Self::IllegalMove {
            reason: ProblemReason::from(&err),
            detail: format!("{err}."),
        }
    }
}

impl From<SetupError> for ApiError {
    fn from(err: SetupError) -> Self {
        Self::InvalidSetup {
            reason: ProblemReason::from(&err),
            detail: format!("{err}."),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.classify().0
    }

    fn error_response(&self) -> HttpResponse {
        let problem = self.problem();
        let status = self.status_code();
        self.log(status);
        if let Self::VersionMismatch { .. } = self {
            metrics::counter!(crate::observability::VERSION_CONFLICTS).increment(1);
        }
        let mut response = HttpResponse::build(status);
        response.insert_header((header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON)));
        match self {
            Self::StoreUnavailable(_) | Self::TooManyStreams => {
                response.insert_header((header::RETRY_AFTER, RETRY_AFTER_SECS));
            }
            Self::RateLimited { retry_after, .. } => {
                response.insert_header((header::RETRY_AFTER, retry_after_secs(*retry_after)));
            }
            Self::MissingToken => {
                response.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
            }
            _ => {}
        }
        response.body(problem.to_json())
    }
}

/// Displays an error followed by its chain of sources, skipping a cause whose text the
/// message already holds (some errors repeat their source in their own message).
struct ErrorChain<'a>(&'a (dyn StdError + 'static));

impl std::fmt::Display for ErrorChain<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut message = self.0.to_string();
        let mut source = self.0.source();
        while let Some(cause) = source {
            let text = cause.to_string();
            if !message.contains(&text) {
                message = format!("{message}: {text}");
            }
            source = cause.source();
        }
        f.write_str(&message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_variants() -> Vec<(ApiError, u16, &'static str)> {
        vec![
            (ApiError::GameNotFound, 404, "game_not_found"),
            (ApiError::RouteNotFound, 404, "not_found"),
            (ApiError::MethodNotAllowed, 405, "method_not_allowed"),
            (ApiError::MissingToken, 401, "missing_token"),
            (ApiError::InvalidToken, 403, "invalid_token"),
            (
                ApiError::VersionMismatch { current: 7 },
                412,
                "version_mismatch",
            ),
            (ApiError::PreconditionRequired, 428, "precondition_required"),
            (
                ApiError::IllegalMove {
                    reason: ProblemReason::NotYourTurn,
                    detail: "It is blue's turn.".into(),
                },
                422,
                "illegal_move",
            ),
            (
                ApiError::InvalidSetup {
                    reason: ProblemReason::Players,
                    detail: "A square board seats at most 4 players.".into(),
                },
                422,
                "invalid_setup",
            ),
            (
                ApiError::InvalidPosition {
                    reason: ProblemReason::PieceCount,
                    field: "options.fifteen_pieces".into(),
                    detail: "Army 1 has 15 pieces.".into(),
                },
                422,
                "invalid_position",
            ),
            (
                ApiError::InvalidRecord {
                    reason: ProblemReason::CellOccupied,
                    move_number: Some(12),
                    detail: "Move 12: e5 is occupied.".into(),
                },
                422,
                "invalid_record",
            ),
            (ApiError::BadRequest("x".into()), 400, "bad_request"),
            (ApiError::InvalidJson("x".into()), 400, "invalid_json"),
            (ApiError::BadNotation("x".into()), 400, "bad_notation"),
            (
                ApiError::UnsupportedMediaType,
                415,
                "unsupported_media_type",
            ),
            (
                ApiError::PayloadTooLarge { limit: Some(10) },
                413,
                "payload_too_large",
            ),
            (
                ApiError::StoreUnavailable(StoreError::TimedOut(Duration::from_secs(1))),
                503,
                "store_unavailable",
            ),
            (
                ApiError::RateLimited {
                    bucket: Bucket::Games,
                    retry_after: Duration::from_millis(1500),
                },
                429,
                "rate_limited",
            ),
            (ApiError::internal("boom"), 500, "internal"),
        ]
    }

    #[test]
    fn rate_limited_names_the_bucket_and_rounds_the_wait_up() {
        let err = ApiError::RateLimited {
            bucket: Bucket::AiTime,
            retry_after: Duration::from_millis(1500),
        };
        let response = err.error_response();
        assert_eq!(
            response.headers().get(header::RETRY_AFTER),
            Some(&HeaderValue::from_static("2"))
        );
        let problem = err.problem();
        assert_eq!(problem.reason, Some(ProblemReason::AiTime));
        assert!(
            problem.detail.contains("retry in 2 s"),
            "{}",
            problem.detail
        );
        assert_eq!(retry_after_secs(Duration::ZERO), 1);
        assert_eq!(retry_after_secs(Duration::from_secs(3)), 3);
        assert_eq!(retry_after_secs(Duration::from_micros(3_000_001)), 4);
    }

    #[test]
    fn every_variant_has_its_status_and_code() {
        for (err, status, code) in all_variants() {
            let response = err.error_response();
            assert_eq!(response.status().as_u16(), status, "{err:?}");
            assert_eq!(err.code().as_str(), code);
            assert_eq!(
                response.headers().get(header::CONTENT_TYPE),
                Some(&HeaderValue::from_static(PROBLEM_JSON))
            );
            let problem = err.problem();
            assert_eq!(problem.status, status);
            assert_eq!(problem.code, err.code());
            assert_eq!(problem.problem_type, format!("urn:halma:problem:{code}"));
            assert!(!problem.title.is_empty() && !problem.detail.is_empty());
        }
    }

    #[test]
    fn extra_members_are_set() {
        let problem = ApiError::VersionMismatch { current: 12 }.problem();
        assert_eq!(problem.current_version, Some(12));
        let problem = ApiError::IllegalMove {
            reason: ProblemReason::CellOccupied,
            detail: "Cell e5 is occupied.".into(),
        }
        .problem();
        assert_eq!(problem.reason, Some(ProblemReason::CellOccupied));
        assert_eq!(problem.detail, "Cell e5 is occupied.");
        let problem = ApiError::PayloadTooLarge { limit: Some(1024) }.problem();
        assert_eq!(problem.limit_bytes, Some(1024));
        let problem = ApiError::InvalidPosition {
            reason: ProblemReason::PieceCount,
            field: "options.fifteen_pieces".into(),
            detail: "x".into(),
        }
        .problem();
        assert_eq!(problem.field.as_deref(), Some("options.fifteen_pieces"));
        assert_eq!(problem.reason, Some(ProblemReason::PieceCount));
        let problem = ApiError::InvalidRecord {
            reason: ProblemReason::WrongPlayer,
            move_number: Some(3),
            detail: "x".into(),
        }
        .problem();
        assert_eq!(problem.move_number, Some(3));
        assert_eq!(problem.reason, Some(ProblemReason::WrongPlayer));
    }

    #[test]
    fn unavailable_store_sets_retry_after_and_missing_token_a_challenge() {
        let err = ApiError::from(StoreError::TimedOut(Duration::from_secs(1)));
        let response = err.error_response();
        assert_eq!(
            response.headers().get(header::RETRY_AFTER),
            Some(&HeaderValue::from_static("2"))
        );
        let response = ApiError::MissingToken.error_response();
        assert_eq!(
            response.headers().get(header::WWW_AUTHENTICATE),
            Some(&HeaderValue::from_static("Bearer"))
        );
    }

    #[test]
    fn internal_causes_stay_out_of_the_response() {
        let err = ApiError::from(StoreError::Corrupt {
            key: "halma:game:abc".into(),
            detail: "version field is not an integer".into(),
        });
        assert_eq!(err.code(), ProblemCode::Internal);
        let body = err.problem().to_json();
        assert!(!body.contains("halma:game:abc"), "{body}");
        assert!(!body.contains("integer"), "{body}");
        assert!(ErrorChain(&err).to_string().contains("not an integer"));
    }

    #[test]
    fn logged_chains_hold_every_cause_once() {
        let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        let err = ApiError::from(StoreError::Unavailable(::redis::RedisError::from(refused)));
        let chain = ErrorChain(&err).to_string();
        assert!(
            chain.starts_with("the game store is unavailable: "),
            "{chain}"
        );
        assert_eq!(chain.matches("refused").count(), 1, "{chain}");
        let err = ApiError::internal(std::io::Error::other("disk full"));
        assert_eq!(ErrorChain(&err).to_string(), "internal error: disk full");
    }

    #[test]
    fn store_errors_map_to_their_api_errors() {
        assert_eq!(
            ApiError::from(StoreError::NotFound).code(),
            ProblemCode::GameNotFound
        );
        let err = ApiError::from(StoreError::VersionMismatch { current: 3 });
        assert_eq!(err.problem().current_version, Some(3));
        assert_eq!(
            ApiError::from(StoreError::AlreadyExists).code(),
            ProblemCode::Internal
        );
    }
}
