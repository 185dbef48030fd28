//! Extractor configuration: body limits, and extractor failures as [`ApiError`]s.
//!
//! Register the four configurations as app data (the application does so); then a malformed
//! JSON body is a 400 `invalid_json` with serde's message, an oversized body a 413
//! `payload_too_large`, a body that is not JSON a 415, and a bad query string or path segment
//! a 400 `bad_request`, all as problem documents. `PayloadConfig` takes no error handler in
//! actix: its failures (for `Bytes`/`String` bodies) are turned into problem documents by
//! [`crate::problem::problem_fallback`].

use actix_web::error::{JsonPayloadError, PathError, PayloadError, QueryPayloadError};
use actix_web::web::{JsonConfig, PathConfig, PayloadConfig, QueryConfig};

use crate::error::ApiError;

/// JSON bodies: at most `limit` bytes; errors as problem documents.
pub fn json_config(limit: usize) -> JsonConfig {
    JsonConfig::default()
        .limit(limit)
        .error_handler(|err, _request| ApiError::from(err).into())
}

/// Raw bodies (`Bytes`, `String`): at most `limit` bytes.
pub fn payload_config(limit: usize) -> PayloadConfig {
    PayloadConfig::new(limit)
}

/// Query strings: errors as problem documents.
pub fn query_config() -> QueryConfig {
    QueryConfig::default().error_handler(|err, _request| ApiError::from(err).into())
}

/// Path segments: errors as problem documents.
pub fn path_config() -> PathConfig {
    PathConfig::default().error_handler(|err, _request| ApiError::from(err).into())
}

impl From<JsonPayloadError> for ApiError {
    fn from(err: JsonPayloadError) -> Self {
        match err {
            JsonPayloadError::OverflowKnownLength { limit, .. }
            | JsonPayloadError::Overflow { limit } => Self::PayloadTooLarge { limit: Some(limit) },
            JsonPayloadError::ContentType => Self::UnsupportedMediaType,
            JsonPayloadError::Deserialize(source) => Self::InvalidJson(source.to_string()),
            JsonPayloadError::Payload(source) => Self::from(source),
            JsonPayloadError::Serialize(source) => Self::internal(source),
            // The enum is non-exhaustive; anything new is a problem with the request body.
            other => Self::BadRequest(other.to_string()),
        }
    }
}

impl From<PayloadError> for ApiError {
    fn from(err: PayloadError) -> Self {
        match err {
            PayloadError::Overflow => Self::PayloadTooLarge { limit: None },
            other => Self::BadRequest(format!("The request body could not be read: {other}")),
        }
    }
}

impl From<QueryPayloadError> for ApiError {
    fn from(err: QueryPayloadError) -> Self {
        match err {
            QueryPayloadError::Deserialize(source) => {
                Self::BadRequest(format!("Invalid query string: {source}"))
            }
            other => Self::BadRequest(format!("Invalid query string: {other}")),
        }
    }
}

impl From<PathError> for ApiError {
    fn from(err: PathError) -> Self {
        match err {
            PathError::Deserialize(source) => {
                Self::BadRequest(format!("Invalid path parameter: {source}"))
            }
            other => Self::BadRequest(format!("Invalid path parameter: {other}")),
        }
    }
}
