//! Extractor configuration: body limits, and extractor failures as [`ApiError`]s.
//!
//! Register the four configurations as app data (the application does so); then a malformed
//! JSON body is a 400 `invalid_json` with serde's message, an oversized body a 413
//! `payload_too_large`, a body that is not JSON a 415, and a bad query string or path segment
//! a 400 `bad_request`, all as problem documents. `PayloadConfig` takes no error handler in
//! actix: its failures (for `Bytes`/`String` bodies) are turned into problem documents by
//! [`crate::problem::problem_fallback`].
//!
//! Request bodies are read with [`Json`], which reads numbers as the OpenAPI document's JSON
//! Schema does: an integer may be written with a zero fraction (`12.0`).

use std::ops::Deref;

use actix_web::dev::Payload;
use actix_web::error::{JsonPayloadError, PathError, PayloadError, QueryPayloadError};
use actix_web::web::{self, JsonConfig, PathConfig, PayloadConfig, QueryConfig};
use actix_web::{FromRequest, HttpRequest};
use futures_util::future::LocalBoxFuture;
use serde::de::value::{MapAccessDeserializer, MapDeserializer, SeqDeserializer};
use serde::de::{self, DeserializeOwned, Deserializer, IntoDeserializer, Unexpected, Visitor};
use serde_json::{Number, Value};

use crate::error::ApiError;

/// A JSON request body of type `T`, read as JSON Schema reads it (the OpenAPI document's
/// `type: integer` admits `12.0`, a number with a zero fraction, as the integer 12): the body
/// is parsed into a JSON value with the limits and error answers of [`json_config`], every
/// number with a zero fraction that fits a 64-bit integer becomes that integer, and the value
/// is then read as `T`. A body that is not a JSON object (every request body of the API is
/// one) is a 400 `invalid_json`, and so is a value that does not fit `T` is a 400 `invalid_json` with serde's
/// message.
#[derive(Debug)]
pub struct Json<T>(pub T);

impl<T> Json<T> {
    /// The body.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for Json<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for Json<T> {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let value = web::Json::<Value>::from_request(req, payload);
        Box::pin(async move {
            let mut value = value.await?.into_inner();
            // serde reads a struct from an array of its fields too; the API's bodies are
            // objects.
            if !value.is_object() {
                return Err(ApiError::InvalidJson(
                    "the request body must be a JSON object.".to_owned(),
                )
                .into());
            }
            integers_without_fractions(&mut value);
            T::deserialize(Strict(&value))
                .map(Json)
                .map_err(|err| ApiError::InvalidJson(err.to_string()).into())
        })
    }
}

/// A JSON value read as the OpenAPI document's schemas describe it: like `serde_json`'s own
/// reading of a [`Value`], except that a struct is only ever read from an object (serde also
/// reads a struct from an array of its fields in order, which no schema of the API allows).
struct Strict<'a>(&'a Value);

impl<'de, 'a> Deserializer<'de> for Strict<'a> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => visitor.visit_u64(u),
                (None, Some(i), _) => visitor.visit_i64(i),
                (None, None, Some(f)) => visitor.visit_f64(f),
                (None, None, None) => Err(de::Error::custom("a number out of range")),
            },
            Value::String(text) => visitor.visit_str(text),
            Value::Array(items) => {
                visitor.visit_seq(SeqDeserializer::new(items.iter().map(Strict)))
            }
            Value::Object(members) => visitor.visit_map(MapDeserializer::new(
                members
                    .iter()
                    .map(|(key, value)| (key.as_str(), Strict(value))),
            )),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Object(_) => self.deserialize_any(visitor),
            other => Err(de::Error::invalid_type(unexpected(other), &"an object")),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::String(text) => visitor.visit_enum(text.as_str().into_deserializer()),
            Value::Object(members) => {
                visitor.visit_enum(MapAccessDeserializer::new(MapDeserializer::new(
                    members
                        .iter()
                        .map(|(key, value)| (key.as_str(), Strict(value))),
                )))
            }
            other => Err(de::Error::invalid_type(unexpected(other), &"an enum")),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map identifier ignored_any
    }
}

impl<'de, 'a> IntoDeserializer<'de, de::value::Error> for Strict<'a> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

/// What a JSON value is, for an error message.
fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (None, Some(i)) => Unexpected::Signed(i),
            (None, None) => Unexpected::Float(n.as_f64().unwrap_or_default()),
        },
        Value::String(text) => Unexpected::Str(text),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// Rewrites every number of `value` that has a zero fraction and fits `i64` or `u64` (`12.0`,
/// `-3.0`) as that integer.
fn integers_without_fractions(value: &mut Value) {
    match value {
        Value::Number(number) => {
            if let Some(integer) = number.as_f64().and_then(integer_of) {
                *number = integer;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integers_without_fractions),
        Value::Object(members) => members.values_mut().for_each(integers_without_fractions),
        Value::Null | Value::Bool(_) | Value::String(_) => {}
    }
}

/// The integer `float` stands for, when it has no fraction and fits `i64` or `u64`.
fn integer_of(float: f64) -> Option<Number> {
    // 2^63 and 2^64 are exact as floats; the bounds are checked before the casts.
    const I64_END: f64 = 9_223_372_036_854_775_808.0;
    const U64_END: f64 = 18_446_744_073_709_551_616.0;
    if !float.is_finite() || float.fract() != 0.0 {
        return None;
    }
    if (0.0..U64_END).contains(&float) {
        // In range and without fraction: the cast is exact.
        return Some(Number::from(float as u64));
    }
    if (-I64_END..0.0).contains(&float) {
        return Some(Number::from(float as i64));
    }
    None
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Inner {
        a: Option<u8>,
        b: Option<u8>,
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Human,
        Ai,
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Outer {
        inner: Option<Inner>,
        #[serde(default)]
        list: Vec<Inner>,
        kind: Option<Kind>,
        name: Option<String>,
    }

    fn strict<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, String> {
        T::deserialize(Strict(&value)).map_err(|err| err.to_string())
    }

    #[test]
    fn structs_are_read_from_objects_only() {
        let read: Result<Outer, _> = strict(serde_json::json!({
            "inner": {"a": 1}, "list": [{"b": 2}], "kind": "ai", "name": "Ada"
        }));
        assert_eq!(
            read,
            Ok(Outer {
                inner: Some(Inner {
                    a: Some(1),
                    b: None
                }),
                list: vec![Inner {
                    a: None,
                    b: Some(2)
                }],
                kind: Some(Kind::Ai),
                name: Some("Ada".to_owned()),
            })
        );
        let nulls: Result<Outer, _> = strict(serde_json::json!({"inner": null, "kind": null}));
        assert!(nulls.is_ok(), "{nulls:?}");
        for body in [
            serde_json::json!({"inner": [null, null]}),
            serde_json::json!({"list": [[1, 2]]}),
            serde_json::json!([null, [], null, null]),
        ] {
            let read: Result<Outer, _> = strict(body.clone());
            let err = read.err().unwrap_or_default();
            assert!(err.contains("expected an object"), "{body}: {err}");
        }
        let unknown: Result<Outer, _> = strict(serde_json::json!({"inner": {"c": 1}}));
        assert!(unknown.is_err());
        let wide: Result<Inner, _> = strict(serde_json::json!({"a": 256}));
        assert!(wide.err().unwrap_or_default().contains("256"));
        let human: Result<Kind, _> = strict(serde_json::json!("human"));
        assert_eq!(human, Ok(Kind::Human));
        assert!(strict::<Kind>(serde_json::json!("robot")).is_err());
    }

    #[test]
    fn integers_may_be_written_with_a_zero_fraction() {
        let mut value = serde_json::json!({
            "a": 12.0, "b": [1.0, -3.0, 2.5], "c": {"d": 7}, "e": 1e300, "f": "4.0", "g": -0.0
        });
        integers_without_fractions(&mut value);
        assert_eq!(
            value,
            serde_json::json!({
                "a": 12, "b": [1, -3, 2.5], "c": {"d": 7}, "e": 1e300, "f": "4.0", "g": 0
            })
        );
        assert!(value["a"].is_u64());
        assert_eq!(
            integer_of(18_446_744_073_709_549_568.0),
            Some(Number::from(18_446_744_073_709_549_568_u64))
        );
        assert_eq!(integer_of(18_446_744_073_709_551_616.0), None);
        assert_eq!(
            integer_of(-9_223_372_036_854_775_808.0),
            Some(Number::from(i64::MIN))
        );
        assert_eq!(integer_of(f64::NAN), None);
        assert_eq!(integer_of(0.5), None);
    }
}
