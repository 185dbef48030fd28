//! The committed OpenAPI document (`openapi/halma.json`) must be what the server generates.
//! Run with `HALMA_BLESS=1` to rewrite it after changing the API (then regenerate the client
//! with `cargo run -p xtask -- gen-client`).

use halma_server::openapi::ApiDoc;
use utoipa::OpenApi as _;

fn committed_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../openapi/halma.json")
}

#[test]
fn the_committed_openapi_document_matches_the_server() {
    let generated = ApiDoc::openapi().to_pretty_json().unwrap() + "\n";
    let path = committed_path();
    if std::env::var("HALMA_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "openapi/halma.json differs from the server's document: run `HALMA_BLESS=1 cargo test -p halma-server --test server openapi`, then `cargo run -p xtask -- gen-client`, and commit both"
    );
}
