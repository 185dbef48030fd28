//! The reference web client at `/play/`.
//!
//! The page is built by Vite from `clients/web` into `clients/web/dist`, which is committed
//! (CI checks that a fresh build gives the same files), and compiled into the binary by
//! `rust-embed`: the service serves it with no npm, no network and no files beside the
//! binary. (Debug builds read the same folder from disk instead, so a rebuilt page shows on
//! reload.)
//!
//! Caching: Vite names every asset after a hash of its content, so `assets/...` may be kept
//! for a year (`immutable`); the page itself is revalidated every time (`no-cache`, with an
//! `ETag` from its content), so a new version of the service is seen at once.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{web, HttpRequest, HttpResponse};
use rust_embed::Embed;

use crate::error::ApiError;

/// Path of the web client's page.
pub const PLAY_PATH: &str = "/play/";

/// The built files of `clients/web` (`npm run build` there writes them).
#[derive(Embed)]
#[folder = "../../clients/web/dist"]
struct WebClient;

/// The page's content security policy: its own scripts and styles only, and requests to any
/// service (the page may be pointed at a service on another origin).
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; connect-src *; img-src 'self' data:; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Cache lifetime of the hashed assets: a year.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// Registers `/play` (a redirect to `/play/`, keeping the query; the fragment of an
/// invitation link stays with the browser) and the files under `/play/`.
pub fn configure(config: &mut web::ServiceConfig) {
    config
        .service(super::resource("/play").get(redirect).head(redirect))
        .service(super::resource("/play/{file:.*}").get(file).head(file));
}

/// `/play` → `/play/`, so that the page's relative asset links resolve under `/play/`.
async fn redirect(request: HttpRequest) -> HttpResponse {
    let query = request.query_string();
    let location = if query.is_empty() {
        PLAY_PATH.to_owned()
    } else {
        format!("{PLAY_PATH}?{query}")
    };
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, location))
        .finish()
}

/// One file of the web client; the page for `/play/`.
///
/// # Errors
/// 404 `not_found` (a problem document) for a file the client does not have.
async fn file(request: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let name = match path.as_str() {
        "" => "index.html",
        other => other,
    };
    let file = WebClient::get(name).ok_or(ApiError::RouteNotFound)?;
    let etag = format!("\"{}\"", hex(&file.metadata.sha256_hash()[..16]));
    let cache = if name.starts_with("assets/") {
        IMMUTABLE
    } else {
        "no-cache"
    };
    let unchanged = if_none_match(&request, &etag);
    let mut response = if unchanged {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, etag))
        .insert_header((header::CACHE_CONTROL, cache))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"));
    if unchanged {
        return Ok(response.finish());
    }
    let content_type = content_type(file.metadata.mimetype());
    if content_type.starts_with("text/html") {
        response.insert_header((header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY));
    }
    Ok(response
        .insert_header((header::CONTENT_TYPE, content_type))
        .body(file.data.into_owned()))
}

/// The `Content-Type` of a file with MIME type `mime` (guessed from its extension): text
/// types get `charset=utf-8` (Vite writes UTF-8).
fn content_type(mime: &str) -> String {
    let text = mime.starts_with("text/")
        || matches!(
            mime,
            "application/javascript" | "application/json" | "image/svg+xml"
        );
    if text && !mime.contains("charset") {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_owned()
    }
}

/// Whether the request's `If-None-Match` names `etag` (or is `*`).
fn if_none_match(request: &HttpRequest, etag: &str) -> bool {
    request
        .headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|value: &HeaderValue| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
