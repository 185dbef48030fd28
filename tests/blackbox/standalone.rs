//! The client builds in a fresh workspace that depends only on `halma-client`, without
//! progenitor: `clients/rust/check-standalone.sh` packages the crate as it would be published
//! and builds a small program against it, offline, in a target directory of its own.
//!
//! It is a clean build of the client's dependency tree (about a minute on two cores), so it
//! runs only when asked: `cargo test -p halma-blackbox -- --ignored standalone`.

use std::path::Path;
use std::process::Command;

#[test]
#[ignore = "a clean build of the client in a fresh workspace; run with --ignored"]
fn client_builds_in_a_fresh_workspace() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../clients/rust/check-standalone.sh");
    let status = Command::new("bash").arg(&script).status().unwrap();
    assert!(status.success(), "{} failed: {status}", script.display());
}
