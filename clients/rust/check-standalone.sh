#!/usr/bin/env bash
# Builds halma-client the way a third party gets it: packaged as for publishing (workspace
# inheritance resolved by `cargo package`), used by a fresh workspace that depends on nothing
# else, built offline from the local registry cache in a target directory of its own. Fails
# if progenitor (the generator, as opposed to its small runtime progenitor-client) is in the
# dependency tree. Prints the clean build time.
#
#   clients/rust/check-standalone.sh            # from anywhere
#   KEEP=1 clients/rust/check-standalone.sh     # keep the scratch directory to look at it
set -euo pipefail

client_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
manifest="$client_dir/Cargo.toml"
work="$(mktemp -d "${TMPDIR:-/tmp}/halma-client-standalone.XXXXXX")"
if [[ "${KEEP:-}" == 1 ]]; then
    echo "scratch directory: $work"
else
    trap 'rm -rf "$work"' EXIT
fi

# The version, from `cargo pkgid` (path+file:///...#halma-client@0.1.0).
version="$(cargo pkgid --offline --manifest-path "$manifest" -p halma-client)"
version="${version##*@}"

echo "packaging halma-client $version"
cargo package --offline --allow-dirty --no-verify --quiet \
    --manifest-path "$manifest" -p halma-client --target-dir "$work/package-target"
tar -xzf "$work/package-target/package/halma-client-$version.crate" -C "$work"

mkdir -p "$work/consumer/src"
cat >"$work/consumer/Cargo.toml" <<EOF
[package]
name = "halma-consumer"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
halma-client = { path = "../halma-client-$version" }

[workspace]
EOF
cat >"$work/consumer/src/main.rs" <<'EOF'
//! A program using halma-client, built but not run (it would need a service).

use halma_client::{types, Client, GameSession, HalmaError};

async fn first_move(client: &Client) -> Result<(), HalmaError> {
    let request = types::CreateGameRequest::builder()
        .board(types::BoardName::Star)
        .players(2_u8);
    let (mut session, _tokens) = GameSession::create(client, request.try_into()?).await?;
    let moves = session.legal_moves().await?;
    let first = &moves.moves[0];
    session.play(&first.from, &first.to).await?;
    Ok(())
}

fn main() {
    let client = Client::new("http://127.0.0.1:8080");
    // The future is built and dropped without being polled: this program only has to compile.
    drop(first_move(&client));
    println!("halma-client builds standalone");
}
EOF

cd "$work/consumer"
if cargo tree --offline --edges normal --prefix none --format '{p}' | grep -q '^progenitor v'; then
    echo "error: progenitor is in the client's dependency tree" >&2
    exit 1
fi
echo "building a fresh workspace that depends only on halma-client (offline, clean target)"
start=$(date +%s%N)
CARGO_TARGET_DIR="$work/target" cargo build --offline --quiet
end=$(date +%s%N)
CARGO_TARGET_DIR="$work/target" cargo run --offline --quiet
# Every package once (`cargo tree` marks repeated subtrees with ` (*)`), less the two at the top.
crates=$(cargo tree --offline --edges normal --prefix none --format '{p}' | sed 's/ (\*)$//' | sort -u | wc -l)
elapsed_ms=$(((end - start) / 1000000))
printf 'clean debug build of halma-client and its %d crates: %d.%03d s on %s CPUs\n' \
    "$((crates - 2))" "$((elapsed_ms / 1000))" "$((elapsed_ms % 1000))" "$(nproc)"
