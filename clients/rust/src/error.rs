//! [`HalmaError`]: what went wrong with a request, with the service's problem document typed.
//!
//! The problem's `code` and `reason` are the generated [`types::ProblemCode`] and
//! [`types::ProblemReason`]: the service's OpenAPI document lists them as string enums.

use std::fmt;
use std::time::Duration;

use reqwest::header::RETRY_AFTER;
use reqwest::StatusCode;

use crate::generated::types::{self, ProblemCode, ProblemReason};
use crate::Error;

/// An error answer of the service: its status and problem document.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiProblem {
    /// The HTTP status of the answer.
    pub status: StatusCode,
    /// The problem document as sent (`code`, `detail`, `reason`, `current_version`, ...).
    pub problem: types::Problem,
    /// The `Retry-After` header in seconds, sent with 503 `store_unavailable`.
    pub retry_after: Option<Duration>,
}

/// Why a request to the service failed.
///
/// Every operation of the generated [`Client`](crate::Client) fails with
/// [`Error<types::Problem>`](crate::Error); `?` turns it into a `HalmaError`, which keeps the
/// status, the problem document's `code` and `reason`, `current_version` and `Retry-After`:
///
/// ```
/// use halma_client::reqwest::{header::HeaderMap, StatusCode};
/// use halma_client::{types, Error, HalmaError, ProblemCode, ResponseValue};
///
/// // What the service answers to a write based on version 3 when the game is at version 5.
/// let problem = types::Problem {
///     code: ProblemCode::VersionMismatch,
///     current_version: Some(5),
///     detail: "The game has changed: its current version is 5.".to_owned(),
///     field: None,
///     limit_bytes: None,
///     move_number: None,
///     reason: None,
///     status: 412,
///     title: "Version mismatch".to_owned(),
///     type_: "urn:halma:problem:version_mismatch".to_owned(),
/// };
/// let answer = ResponseValue::new(problem, StatusCode::PRECONDITION_FAILED, HeaderMap::new());
/// let error = HalmaError::from(Error::ErrorResponse(answer));
/// assert_eq!(error.status(), Some(StatusCode::PRECONDITION_FAILED));
/// assert_eq!(error.code(), Some(&ProblemCode::VersionMismatch));
/// assert_eq!(error.current_version(), Some(5));
/// assert!(error.to_string().starts_with("412 version_mismatch"));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum HalmaError {
    /// The service answered with a problem document (any 4xx or 5xx status).
    Api(Box<ApiProblem>),
    /// The request was not sent: a parameter is missing or could not be converted (for
    /// example a header value with a line break), or a request builder was incomplete.
    InvalidRequest(String),
    /// The request could not be sent, or the answer not received (connection refused,
    /// timeout, connection closed while reading the body).
    Transport(reqwest::Error),
    /// The service answered with a status the API does not describe for the operation (for
    /// example `304 Not Modified` where the caller did not handle it).
    UnexpectedStatus(StatusCode),
    /// An event stream dropped again and again before its final event
    /// ([`EventStream`](crate::EventStream) reconnects a few times in a row first).
    StreamDropped {
        /// The game whose events were followed.
        game_id: String,
        /// The attempts made in a row.
        attempts: u32,
    },
    /// An event of a stream carries an id that is not an event number.
    InvalidEventId {
        /// The event's name.
        event: String,
        /// The id as sent.
        id: String,
    },
    /// The answer's body does not decode into the type the API describes.
    InvalidBody {
        /// The decoding error.
        source: serde_json::Error,
        /// The body, as text (invalid UTF-8 replaced).
        body: String,
    },
}

impl HalmaError {
    /// The problem document and its status, when the service answered with one.
    #[must_use]
    pub fn api(&self) -> Option<&ApiProblem> {
        match self {
            Self::Api(problem) => Some(problem),
            _ => None,
        }
    }

    /// The problem document, when the service answered with one.
    #[must_use]
    pub fn problem(&self) -> Option<&types::Problem> {
        self.api().map(|api| &api.problem)
    }

    /// The HTTP status of the answer, when there was one.
    #[must_use]
    pub fn status(&self) -> Option<StatusCode> {
        match self {
            Self::Api(problem) => Some(problem.status),
            Self::UnexpectedStatus(status) => Some(*status),
            Self::Transport(err) => err.status(),
            Self::InvalidRequest(_)
            | Self::InvalidBody { .. }
            | Self::StreamDropped { .. }
            | Self::InvalidEventId { .. } => None,
        }
    }

    /// The problem's code, when the service answered with a problem document.
    #[must_use]
    pub fn code(&self) -> Option<&ProblemCode> {
        self.problem().map(|problem| &problem.code)
    }

    /// Whether the service answered with a problem document of this code.
    #[must_use]
    pub fn is(&self, code: &ProblemCode) -> bool {
        self.code() == Some(code)
    }

    /// The reason of an `illegal_move` or `invalid_setup` problem, such as
    /// [`ProblemReason::NotYourTurn`].
    #[must_use]
    pub fn reason(&self) -> Option<&ProblemReason> {
        self.problem()?.reason.as_ref()
    }

    /// The game's current version, named by a `version_mismatch` problem.
    #[must_use]
    pub fn current_version(&self) -> Option<u64> {
        self.problem()?.current_version
    }

    /// With 422 `invalid_position`: where the problem is, as a path into the request
    /// (`position.placement`, `options.fifteen_pieces`).
    #[must_use]
    pub fn field(&self) -> Option<&str> {
        self.problem()?.field.as_deref()
    }

    /// With 422 `invalid_record`: the number of the record's move at fault (from 1; 0 before
    /// the first move), absent for its tags and start.
    #[must_use]
    pub fn move_number(&self) -> Option<u32> {
        self.problem()?.move_number
    }

    /// Whether the same request may succeed when sent again unchanged: transport failures,
    /// 503 `store_unavailable` and other 5xx answers. A 412 `version_mismatch` is not: the
    /// request must be based on the current version first.
    #[must_use]
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Transport(_) | Self::StreamDropped { .. } => true,
            Self::Api(problem) => problem.status.is_server_error(),
            Self::InvalidRequest(_)
            | Self::UnexpectedStatus(_)
            | Self::InvalidBody { .. }
            | Self::InvalidEventId { .. } => false,
        }
    }
}

impl fmt::Display for HalmaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Api(api) => {
                write!(f, "{} {}", api.status.as_u16(), api.problem.code)?;
                if let Some(reason) = &api.problem.reason {
                    write!(f, " ({reason})")?;
                }
                write!(f, ": {}", api.problem.detail)
            }
            Self::InvalidRequest(message) => write!(f, "invalid request: {message}"),
            Self::Transport(err) => write!(f, "cannot reach the halma service: {err}"),
            Self::UnexpectedStatus(status) => {
                write!(f, "unexpected answer from the halma service: {status}")
            }
            Self::InvalidBody { source, .. } => {
                write!(f, "the halma service's answer does not decode: {source}")
            }
            Self::StreamDropped { game_id, attempts } => write!(
                f,
                "the event stream of game {game_id} dropped {attempts} times in a row"
            ),
            Self::InvalidEventId { event, id } => write!(
                f,
                "the halma service sent a {event:?} event with the id {id:?}, not an event number"
            ),
        }
    }
}

impl std::error::Error for HalmaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Transport(err) => Some(err),
            Self::InvalidBody { source, .. } => Some(source),
            Self::Api(_)
            | Self::InvalidRequest(_)
            | Self::UnexpectedStatus(_)
            | Self::StreamDropped { .. }
            | Self::InvalidEventId { .. } => None,
        }
    }
}

impl From<Error<types::Problem>> for HalmaError {
    fn from(err: Error<types::Problem>) -> Self {
        match err {
            Error::ErrorResponse(answer) => {
                let status = answer.status();
                let retry_after = answer
                    .headers()
                    .get(RETRY_AFTER)
                    .and_then(|value| value.to_str().ok())
                    .and_then(|text| text.trim().parse().ok())
                    .map(Duration::from_secs);
                let problem = answer.into_inner();
                Self::Api(Box::new(ApiProblem {
                    status,
                    problem,
                    retry_after,
                }))
            }
            // `Custom` comes from request hooks, which run before a request is sent; this
            // client installs none.
            Error::InvalidRequest(message) | Error::Custom(message) => {
                Self::InvalidRequest(message)
            }
            Error::CommunicationError(err)
            | Error::InvalidUpgrade(err)
            | Error::ResponseBodyError(err) => Self::Transport(err),
            Error::InvalidResponsePayload(body, source) => Self::InvalidBody {
                source,
                body: String::from_utf8_lossy(&body).into_owned(),
            },
            Error::UnexpectedResponse(answer) => Self::UnexpectedStatus(answer.status()),
        }
    }
}

impl From<types::error::ConversionError> for HalmaError {
    /// A typed builder (`types::CreateGameRequest::builder()`, ...) that lacks a required
    /// field or was given a value it cannot convert.
    fn from(err: types::error::ConversionError) -> Self {
        Self::InvalidRequest(err.to_string())
    }
}

#[cfg(test)]
mod tests {
    use reqwest::header::{HeaderMap, HeaderValue};

    use super::*;
    use crate::ResponseValue;

    fn problem(
        status: StatusCode,
        code: ProblemCode,
        reason: Option<ProblemReason>,
    ) -> types::Problem {
        types::Problem {
            code,
            current_version: None,
            detail: format!("detail of {code}"),
            field: None,
            limit_bytes: None,
            move_number: None,
            reason,
            status: status.as_u16(),
            title: code.to_string(),
            type_: format!("urn:halma:problem:{code}"),
        }
    }

    #[test]
    fn problem_answers_keep_status_code_reason_and_retry_after() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, HeaderValue::from_static("2"));
        let answer = ResponseValue::new(
            problem(
                StatusCode::SERVICE_UNAVAILABLE,
                ProblemCode::StoreUnavailable,
                None,
            ),
            StatusCode::SERVICE_UNAVAILABLE,
            headers,
        );
        let err = HalmaError::from(Error::ErrorResponse(answer));
        assert!(err.is(&ProblemCode::StoreUnavailable));
        assert!(err.is_retryable());
        let api = err.api().map(|api| (api.status, api.retry_after));
        assert_eq!(
            api,
            Some((
                StatusCode::SERVICE_UNAVAILABLE,
                Some(Duration::from_secs(2))
            ))
        );

        let answer = ResponseValue::new(
            problem(
                StatusCode::UNPROCESSABLE_ENTITY,
                ProblemCode::IllegalMove,
                Some(ProblemReason::CellOccupied),
            ),
            StatusCode::UNPROCESSABLE_ENTITY,
            HeaderMap::new(),
        );
        let err = HalmaError::from(Error::ErrorResponse(answer));
        assert_eq!(err.code(), Some(&ProblemCode::IllegalMove));
        assert_eq!(err.reason(), Some(&ProblemReason::CellOccupied));
        assert_eq!(err.current_version(), None);
        assert!(!err.is_retryable());
        assert_eq!(
            err.to_string(),
            "422 illegal_move (cell_occupied): detail of illegal_move"
        );
    }

    #[test]
    fn other_failures_are_not_problems() {
        let err = HalmaError::from(Error::<types::Problem>::InvalidRequest(
            "id was not initialized".to_owned(),
        ));
        assert_eq!((err.status(), err.code()), (None, None));
        assert_eq!(err.to_string(), "invalid request: id was not initialized");

        let source = serde_json::from_str::<types::Problem>("{").err();
        if let Some(source) = source {
            let err = HalmaError::from(Error::<types::Problem>::InvalidResponsePayload(
                "{".into(),
                source,
            ));
            assert!(matches!(&err, HalmaError::InvalidBody { body, .. } if body == "{"));
            assert!(std::error::Error::source(&err).is_some());
        }

        let missing = types::Invitation::builder().seat(1_u8);
        let err = types::Invitation::try_from(missing).map_err(HalmaError::from);
        assert!(
            matches!(&err, Err(HalmaError::InvalidRequest(message)) if message.contains("code")),
            "{err:?}"
        );
    }
}
