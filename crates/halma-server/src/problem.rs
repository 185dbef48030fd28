//! RFC 9457 problem documents: the body of every error response.

use actix_web::body::MessageBody;
use actix_web::dev::ServiceResponse;
use actix_web::http::header;
use actix_web::http::StatusCode;
use actix_web::middleware::ErrorHandlerResponse;
use actix_web::ResponseError;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::ApiError;

/// The media type of problem documents.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// Prefix of the `type` member; the problem's `code` completes it.
const PROBLEM_TYPE_PREFIX: &str = "urn:halma:problem:";

/// An error response (RFC 9457 problem details) with a stable machine-readable `code`.
///
/// Codes: `game_not_found`, `not_found`, `method_not_allowed`, `missing_token`,
/// `invalid_token`, `version_mismatch` (with `current_version`), `precondition_required`,
/// `illegal_move` and `invalid_setup` (with `reason`), `bad_request`, `invalid_json`,
/// `bad_notation`, `unsupported_media_type`, `payload_too_large` (with `limit_bytes`),
/// `store_unavailable` (status 503, with a `Retry-After` header) and `internal`.
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
    pub code: String,
    /// With `version_mismatch`: the game's current version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_version: Option<u64>,
    /// With `illegal_move` and `invalid_setup`: the rule's reason code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// With `payload_too_large`: the body size limit in bytes, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_bytes: Option<u64>,
}

impl Problem {
    /// A problem of `status` with the given code, title and detail, and no extra members.
    pub fn new(status: StatusCode, code: &str, title: &str, detail: String) -> Self {
        Self {
            problem_type: format!("{PROBLEM_TYPE_PREFIX}{code}"),
            title: title.to_owned(),
            status: status.as_u16(),
            detail,
            code: code.to_owned(),
            current_version: None,
            reason: None,
            limit_bytes: None,
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
            "game_not_found",
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
            "version_mismatch",
            "Version mismatch",
            "stale".into(),
        );
        problem.current_version = Some(4);
        let back: Option<Problem> = serde_json::from_str(&problem.to_json()).ok();
        assert_eq!(back, Some(problem));
    }
}
