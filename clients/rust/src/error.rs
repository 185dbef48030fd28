//! [`HalmaError`]: what went wrong with a request, with the service's problem document typed.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use reqwest::header::RETRY_AFTER;
use reqwest::StatusCode;

use crate::generated::types;
use crate::Error;

/// The stable machine-readable `code` of a problem document.
///
/// Codes this version of the client does not know arrive as [`ProblemCode::Other`], so a newer
/// service never breaks the decoding of its errors.
///
/// ```
/// use halma_client::ProblemCode;
/// assert_eq!("version_mismatch".parse(), Ok(ProblemCode::VersionMismatch));
/// assert_eq!(ProblemCode::IllegalMove.as_str(), "illegal_move");
/// assert_eq!(ProblemCode::from("teapot"), ProblemCode::Other("teapot".to_owned()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
    /// 412: the request was based on a version that is no longer current; the problem's
    /// `current_version` names the current one.
    VersionMismatch,
    /// 428: a write came without the version it is based on.
    PreconditionRequired,
    /// 422: the move breaks a rule; the problem's `reason` says which (`not_your_turn`,
    /// `game_over`, `cell_occupied`, `not_your_piece`, `unreachable`, `goal_locked`, ...).
    IllegalMove,
    /// 422: the game setup cannot be played; the problem's `reason` says why.
    InvalidSetup,
    /// 400: a malformed request that no other code describes.
    BadRequest,
    /// 400: the body is not the JSON the operation expects.
    InvalidJson,
    /// 400: a cell, move or position in the notation could not be read.
    BadNotation,
    /// 415: the body is not JSON.
    UnsupportedMediaType,
    /// 413: the body is larger than the service accepts (`limit_bytes` says how large).
    PayloadTooLarge,
    /// 503: the game store does not answer; retry after [`ApiProblem::retry_after`].
    StoreUnavailable,
    /// 500: a fault of the service.
    Internal,
    /// A code this version of the client does not know.
    Other(String),
}

/// The known codes and their text, in one table for both directions.
const CODES: [(ProblemCode, &str); 16] = [
    (ProblemCode::GameNotFound, "game_not_found"),
    (ProblemCode::NotFound, "not_found"),
    (ProblemCode::MethodNotAllowed, "method_not_allowed"),
    (ProblemCode::MissingToken, "missing_token"),
    (ProblemCode::InvalidToken, "invalid_token"),
    (ProblemCode::VersionMismatch, "version_mismatch"),
    (ProblemCode::PreconditionRequired, "precondition_required"),
    (ProblemCode::IllegalMove, "illegal_move"),
    (ProblemCode::InvalidSetup, "invalid_setup"),
    (ProblemCode::BadRequest, "bad_request"),
    (ProblemCode::InvalidJson, "invalid_json"),
    (ProblemCode::BadNotation, "bad_notation"),
    (ProblemCode::UnsupportedMediaType, "unsupported_media_type"),
    (ProblemCode::PayloadTooLarge, "payload_too_large"),
    (ProblemCode::StoreUnavailable, "store_unavailable"),
    (ProblemCode::Internal, "internal"),
];

impl ProblemCode {
    /// The code as the service writes it.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            Self::Other(code) => code,
            known => CODES
                .iter()
                .find(|(code, _)| code == known)
                .map_or("", |(_, text)| text),
        }
    }
}

impl From<&str> for ProblemCode {
    fn from(text: &str) -> Self {
        CODES
            .iter()
            .find(|(_, known)| *known == text)
            .map_or_else(|| Self::Other(text.to_owned()), |(code, _)| code.clone())
    }
}

impl FromStr for ProblemCode {
    type Err = std::convert::Infallible;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(Self::from(text))
    }
}

impl fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error answer of the service: its status and problem document, with the code typed.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiProblem {
    /// The HTTP status of the answer.
    pub status: StatusCode,
    /// The problem's `code`, typed.
    pub code: ProblemCode,
    /// The problem document as sent (`detail`, `reason`, `current_version`, ...).
    pub problem: types::Problem,
    /// The `Retry-After` header in seconds, sent with 503 `store_unavailable`.
    pub retry_after: Option<Duration>,
}

/// Why a request to the service failed.
///
/// Every operation of the generated [`Client`](crate::Client) fails with
/// [`Error<types::Problem>`](crate::Error); `?` turns it into a `HalmaError`, which types the
/// problem document's `code` and keeps the status, `reason` and `current_version`:
///
/// ```
/// use halma_client::reqwest::{header::HeaderMap, StatusCode};
/// use halma_client::{types, Error, HalmaError, ProblemCode, ResponseValue};
///
/// // What the service answers to a write based on version 3 when the game is at version 5.
/// let problem = types::Problem {
///     code: "version_mismatch".to_owned(),
///     current_version: Some(5),
///     detail: "The game has changed: its current version is 5.".to_owned(),
///     limit_bytes: None,
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
            Self::InvalidRequest(_) | Self::InvalidBody { .. } => None,
        }
    }

    /// The problem's code, when the service answered with a problem document.
    #[must_use]
    pub fn code(&self) -> Option<&ProblemCode> {
        self.api().map(|api| &api.code)
    }

    /// Whether the service answered with a problem document of this code.
    #[must_use]
    pub fn is(&self, code: &ProblemCode) -> bool {
        self.code() == Some(code)
    }

    /// The rule's reason code of an `illegal_move` or `invalid_setup` problem, such as
    /// `not_your_turn`.
    #[must_use]
    pub fn reason(&self) -> Option<&str> {
        self.problem()?.reason.as_deref()
    }

    /// The game's current version, named by a `version_mismatch` problem.
    #[must_use]
    pub fn current_version(&self) -> Option<u64> {
        self.problem()?.current_version
    }

    /// Whether the same request may succeed when sent again unchanged: transport failures,
    /// 503 `store_unavailable` and other 5xx answers. A 412 `version_mismatch` is not: the
    /// request must be based on the current version first.
    #[must_use]
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Transport(_) => true,
            Self::Api(problem) => problem.status.is_server_error(),
            Self::InvalidRequest(_) | Self::UnexpectedStatus(_) | Self::InvalidBody { .. } => false,
        }
    }
}

impl fmt::Display for HalmaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Api(api) => {
                write!(f, "{} {}", api.status.as_u16(), api.code)?;
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
        }
    }
}

impl std::error::Error for HalmaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Transport(err) => Some(err),
            Self::InvalidBody { source, .. } => Some(source),
            Self::Api(_) | Self::InvalidRequest(_) | Self::UnexpectedStatus(_) => None,
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
                    code: ProblemCode::from(problem.code.as_str()),
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

    fn problem(status: StatusCode, code: &str, reason: Option<&str>) -> types::Problem {
        types::Problem {
            code: code.to_owned(),
            current_version: None,
            detail: format!("detail of {code}"),
            limit_bytes: None,
            reason: reason.map(str::to_owned),
            status: status.as_u16(),
            title: code.to_owned(),
            type_: format!("urn:halma:problem:{code}"),
        }
    }

    #[test]
    fn every_known_code_round_trips() {
        for (code, text) in &CODES {
            assert_eq!(ProblemCode::from(*text), *code);
            assert_eq!(code.as_str(), *text);
            assert_eq!(code.to_string(), *text);
        }
        assert_eq!(ProblemCode::from("new_code").as_str(), "new_code");
    }

    #[test]
    fn problem_answers_keep_status_code_reason_and_retry_after() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, HeaderValue::from_static("2"));
        let answer = ResponseValue::new(
            problem(StatusCode::SERVICE_UNAVAILABLE, "store_unavailable", None),
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
                "illegal_move",
                Some("cell_occupied"),
            ),
            StatusCode::UNPROCESSABLE_ENTITY,
            HeaderMap::new(),
        );
        let err = HalmaError::from(Error::ErrorResponse(answer));
        assert_eq!(err.code(), Some(&ProblemCode::IllegalMove));
        assert_eq!(err.reason(), Some("cell_occupied"));
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

        let missing = types::CreateGameRequest::builder().players(2_u8);
        let err = types::CreateGameRequest::try_from(missing).map_err(HalmaError::from);
        assert!(
            matches!(&err, Err(HalmaError::InvalidRequest(message)) if message.contains("board")),
            "{err:?}"
        );
    }
}
