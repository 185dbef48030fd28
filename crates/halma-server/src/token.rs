//! Secret tokens: generated at random, handed out once, stored only as SHA-256 hashes.
//!
//! A game holds one token per seat and one host token. The client receives the
//! [`SecretToken`] when the game is created; the game document keeps its [`TokenHash`]. A
//! request presents the token as `Authorization: Bearer <token>` ([`bearer_token`]), and
//! [`TokenHash::matches`] compares the hashes in constant time.

use std::fmt;

use actix_web::http::header::{HeaderMap, AUTHORIZATION};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use rand::RngCore as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest as _, Sha256};
use subtle::ConstantTimeEq as _;

use crate::error::ApiError;

/// Random bytes in a token.
const TOKEN_BYTES: usize = 32;

/// A secret token: 32 random bytes, URL-safe base64 without padding (43 characters).
///
/// Its `Debug` output is redacted; only [`SecretToken::expose_secret`] reveals it.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretToken(String);

impl SecretToken {
    /// A new token from the thread-local cryptographically secure generator (seeded by the
    /// operating system).
    pub fn generate() -> Self {
        let mut bytes = [0_u8; TOKEN_BYTES];
        rand::rng().fill_bytes(&mut bytes);
        Self(URL_SAFE_NO_PAD.encode(bytes))
    }

    /// The token's text, to hand to its owner once.
    pub fn expose_secret(&self) -> &str {
        &self.0
    }

    /// The hash to store in place of the token.
    pub fn hash(&self) -> TokenHash {
        TokenHash::of(&self.0)
    }
}

impl fmt::Debug for SecretToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretToken(***)")
    }
}

/// The SHA-256 hash of a token, stored in place of the token. Serializes as 64 hex digits.
///
/// It has no `PartialEq`: compare a presented token with [`TokenHash::matches`], which takes
/// the same time whatever the bytes.
#[derive(Clone, Copy)]
pub struct TokenHash([u8; 32]);

impl TokenHash {
    /// The hash of a token's text.
    pub fn of(token: &str) -> Self {
        Self(Sha256::digest(token.as_bytes()).into())
    }

    /// Whether `presented` is the token this hash was made from, compared in constant time.
    ///
    /// ```
    /// use halma_server::token::SecretToken;
    /// let token = SecretToken::generate();
    /// let stored = token.hash();
    /// assert!(stored.matches(token.expose_secret()));
    /// assert!(!stored.matches("guess"));
    /// ```
    pub fn matches(&self, presented: &str) -> bool {
        Self::of(presented).0.ct_eq(&self.0).into()
    }

    /// The hash as 64 lowercase hex digits.
    pub fn to_hex(&self) -> String {
        use fmt::Write as _;
        self.0
            .iter()
            .fold(String::with_capacity(64), |mut hex, byte| {
                // Writing to a String cannot fail.
                let _ = write!(hex, "{byte:02x}");
                hex
            })
    }

    /// Reads a hash written by [`TokenHash::to_hex`].
    ///
    /// # Errors
    /// [`InvalidTokenHash`] unless `hex` is exactly 64 hex digits.
    pub fn from_hex(hex: &str) -> Result<Self, InvalidTokenHash> {
        let digits = hex.as_bytes();
        if digits.len() != 64 {
            return Err(InvalidTokenHash);
        }
        let mut bytes = [0_u8; 32];
        for (byte, pair) in bytes.iter_mut().zip(digits.chunks_exact(2)) {
            let text = std::str::from_utf8(pair).map_err(|_| InvalidTokenHash)?;
            *byte = u8::from_str_radix(text, 16).map_err(|_| InvalidTokenHash)?;
        }
        Ok(Self(bytes))
    }
}

impl fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("TokenHash").field(&self.to_hex()).finish()
    }
}

impl Serialize for TokenHash {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for TokenHash {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let hex = String::deserialize(deserializer)?;
        Self::from_hex(&hex).map_err(serde::de::Error::custom)
    }
}

/// A stored token hash that is not 64 hex digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a token hash must be 64 hexadecimal digits")]
pub struct InvalidTokenHash;

/// The token of an `Authorization: Bearer <token>` header.
///
/// # Errors
/// [`ApiError::MissingToken`] when the header is absent, not a bearer credential, or empty.
pub fn bearer_token(headers: &HeaderMap) -> Result<&str, ApiError> {
    let value = headers
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .ok_or(ApiError::MissingToken)?;
    let (scheme, token) = value.trim().split_once(' ').ok_or(ApiError::MissingToken)?;
    let token = token.trim();
    if scheme.eq_ignore_ascii_case("bearer") && !token.is_empty() {
        Ok(token)
    } else {
        Err(ApiError::MissingToken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::header::HeaderValue;

    #[test]
    fn tokens_are_43_url_safe_characters_and_distinct() {
        let tokens: Vec<SecretToken> = (0..100).map(|_| SecretToken::generate()).collect();
        for token in &tokens {
            let text = token.expose_secret();
            assert_eq!(text.len(), 43);
            assert!(text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        }
        let distinct: std::collections::HashSet<&str> =
            tokens.iter().map(SecretToken::expose_secret).collect();
        assert_eq!(distinct.len(), tokens.len());
    }

    #[test]
    fn hashes_match_only_their_token() {
        let token = SecretToken::generate();
        let other = SecretToken::generate();
        let hash = token.hash();
        assert!(hash.matches(token.expose_secret()));
        assert!(!hash.matches(other.expose_secret()));
        assert!(!hash.matches(""));
        assert!(!hash.matches(&token.expose_secret()[1..]));
    }

    #[test]
    fn hash_of_a_known_text() {
        // SHA-256("abc"), from FIPS 180-2.
        assert_eq!(
            TokenHash::of("abc").to_hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn hashes_round_trip_through_hex_and_json() {
        let hash = SecretToken::generate().hash();
        let back = TokenHash::from_hex(&hash.to_hex()).map(|back| back.to_hex());
        assert_eq!(back, Ok(hash.to_hex()));
        let json = serde_json::to_string(&hash).unwrap_or_default();
        assert_eq!(json, format!("\"{}\"", hash.to_hex()));
        let parsed: Result<TokenHash, _> = serde_json::from_str(&json);
        assert_eq!(
            parsed.map(|parsed| parsed.to_hex()).ok(),
            Some(hash.to_hex())
        );
        for bad in ["", "ab", &"g".repeat(64), &"a".repeat(65), &"é".repeat(32)] {
            assert_eq!(
                TokenHash::from_hex(bad).err(),
                Some(InvalidTokenHash),
                "{bad}"
            );
        }
    }

    #[test]
    fn secrets_stay_out_of_debug_output() {
        let token = SecretToken::generate();
        assert_eq!(format!("{token:?}"), "SecretToken(***)");
    }

    #[test]
    fn bearer_tokens_are_read_from_the_authorization_header() {
        let with = |value: &'static str| {
            let mut headers = HeaderMap::new();
            headers.insert(AUTHORIZATION, HeaderValue::from_static(value));
            headers
        };
        assert_eq!(bearer_token(&with("Bearer abc-123")).ok(), Some("abc-123"));
        assert_eq!(bearer_token(&with("bearer  abc ")).ok(), Some("abc"));
        for bad in ["Basic dXNlcjpwYXNz", "Bearer", "Bearer   ", "abc"] {
            assert!(
                matches!(bearer_token(&with(bad)), Err(ApiError::MissingToken)),
                "{bad}"
            );
        }
        assert!(matches!(
            bearer_token(&HeaderMap::new()),
            Err(ApiError::MissingToken)
        ));
    }
}
