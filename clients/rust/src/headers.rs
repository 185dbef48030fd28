//! The headers of the optimistic versioning protocol (`ETag`, `If-Match`, `If-None-Match`) and
//! of the bearer tokens, for callers of the generated builders; and a client constructor that
//! reports failures instead of panicking.

use std::time::Duration;

use reqwest::header::{HeaderMap, ETAG};

use crate::Client;

/// The entity tag of a game version, as the service writes it in `ETag` and expects it in
/// `If-Match` and `If-None-Match`: the version in double quotes.
///
/// ```
/// assert_eq!(halma_client::entity_tag(7), "\"7\"");
/// ```
#[must_use]
pub fn entity_tag(version: u64) -> String {
    format!("\"{version}\"")
}

/// The game version named by the `ETag` header of an answer (`"7"`, or the weak form `W/"7"`),
/// or `None` when the header is absent or names no version.
///
/// Every answer about one game carries its version this way: creating, reading, listing moves,
/// playing, the suggestion and the record.
///
/// ```
/// use halma_client::reqwest::header::{HeaderMap, HeaderValue, ETAG};
///
/// let mut headers = HeaderMap::new();
/// assert_eq!(halma_client::etag_version(&headers), None);
/// headers.insert(ETAG, HeaderValue::from_static("\"12\""));
/// assert_eq!(halma_client::etag_version(&headers), Some(12));
/// headers.insert(ETAG, HeaderValue::from_static("W/\"3\""));
/// assert_eq!(halma_client::etag_version(&headers), Some(3));
/// ```
///
/// With a generated builder:
///
/// ```no_run
/// # async fn run() -> Result<(), halma_client::HalmaError> {
/// let client = halma_client::Client::new("http://127.0.0.1:8080");
/// let answer = client.get_game().id("k3x9q2").send().await?;
/// let version = halma_client::etag_version(answer.headers());
/// assert_eq!(version, Some(answer.version));
/// # Ok(())
/// # }
/// ```
#[must_use]
pub fn etag_version(headers: &HeaderMap) -> Option<u64> {
    let tag = headers.get(ETAG)?.to_str().ok()?.trim();
    let tag = tag.strip_prefix("W/").unwrap_or(tag);
    tag.strip_prefix('"')?.strip_suffix('"')?.parse().ok()
}

/// The value of the `Authorization` header for a game token: `Bearer <token>`.
///
/// ```
/// assert_eq!(halma_client::bearer("s3cr3t"), "Bearer s3cr3t");
/// ```
#[must_use]
pub fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// A client for the service at `base_url` (`http://host:port`, no trailing slash) whose
/// requests time out after `timeout`, for long polls longer than the 15 s that
/// [`Client::new`] allows.
///
/// ```
/// use std::time::Duration;
/// let client = halma_client::build_client("http://127.0.0.1:8080", Duration::from_secs(40))?;
/// # let _ = client;
/// # Ok::<(), halma_client::reqwest::Error>(())
/// ```
///
/// # Errors
/// The reqwest error when the HTTP client cannot be built (its TLS backend, when one is
/// enabled, failed to start).
pub fn build_client(base_url: &str, timeout: Duration) -> Result<Client, reqwest::Error> {
    let http = reqwest::Client::builder()
        .connect_timeout(timeout.min(Duration::from_secs(15)))
        .timeout(timeout)
        .build()?;
    Ok(Client::new_with_client(base_url, http))
}

#[cfg(test)]
mod tests {
    use reqwest::header::HeaderValue;

    use super::*;

    fn with_etag(value: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(ETAG, HeaderValue::from_static(value));
        headers
    }

    #[test]
    fn entity_tags_round_trip() {
        for version in [1, 7, 12_345, u64::MAX] {
            let headers = with_etag_string(&entity_tag(version));
            assert_eq!(etag_version(&headers), Some(version));
        }
    }

    fn with_etag_string(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Ok(value) = HeaderValue::from_str(value) {
            headers.insert(ETAG, value);
        }
        headers
    }

    #[test]
    fn tags_that_name_no_version_are_none() {
        for tag in ["", "\"\"", "7", "\"x\"", "\"7", "W/7", "\"-1\"", "*"] {
            assert_eq!(etag_version(&with_etag(tag)), None, "{tag:?}");
        }
        assert_eq!(etag_version(&with_etag(" W/\"9\" ")), Some(9));
    }
}
