//! Generation from the sample utoipa-style document: down-conversion, progenitor, the committed
//! sample output, and the `gen-client`/`check-client` commands on a scratch workspace.

// Tests may unwrap: a failure is the report.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};
use xtask::downconvert::downconvert;
use xtask::tasks::{self, Layout, TaskError};
use xtask::{generate_client, generate_client_source};

const FIXTURE: &str = "tests/fixtures/sample-3.1.json";
/// The client generated from the fixture; tests/sample_client.rs compiles and runs it.
const SAMPLE_CLIENT: &str = "tests/fixtures/sample_client.rs";

fn manifest_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

fn fixture() -> Value {
    serde_json::from_str(&fs::read_to_string(manifest_path(FIXTURE)).unwrap()).unwrap()
}

/// A fresh, empty scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("xtask-{name}"));
    if dir.exists() {
        fs::remove_dir_all(&dir).unwrap();
    }
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn fixture_downconverts_to_a_3_0_document_openapiv3_reads() {
    let converted = downconvert(fixture()).unwrap();
    let text = converted.to_string();
    for leftover in [
        "u-int",
        "\"type\":[",
        "propertyNames",
        "\"examples\"",
        "identifier",
        "\"type\":\"null\"",
    ] {
        assert!(!text.contains(leftover), "`{leftover}` left in {text}");
    }
    let game = &converted["components"]["schemas"]["Game"]["properties"];
    assert_eq!(
        game["version"],
        json!({"type": "integer", "format": "uint64", "minimum": 0,
               "description": "Version of the game, increased by every move."})
    );
    assert_eq!(
        game["winner"],
        json!({"allOf": [{"$ref": "#/components/schemas/Player"}], "nullable": true,
               "description": "The winner, once the game is over."})
    );
    assert_eq!(
        game["board"],
        json!({"$ref": "#/components/schemas/BoardKind"})
    );
    assert_eq!(
        converted["components"]["schemas"]["NewGame"]["properties"]["ai_think_ms"],
        json!({"type": "integer", "format": "uint32", "nullable": true, "minimum": 0,
               "exclusiveMinimum": true,
               "description": "Time budget of the AI per move, when AI seats play."})
    );
    assert_eq!(
        converted["paths"]["/games/{id}"]["delete"]["responses"]["204"]["description"],
        "No Content"
    );

    let parsed: openapiv3::OpenAPI = serde_json::from_value(converted).unwrap();
    assert_eq!(parsed.openapi, "3.0.3");
    assert_eq!(parsed.paths.paths.len(), 3);
}

#[test]
fn fixture_generates_a_client_with_every_operation() {
    let client = generate_client(&fixture()).unwrap();
    let source = &client.source;
    assert!(source.starts_with(xtask::generate::GENERATED_HEADER));
    for expected in [
        // One builder method on `Client` per operation (builder interface, merged tags).
        "pub fn create_game(&self) -> builder::CreateGame",
        "pub fn get_game(&self) -> builder::GetGame",
        "pub fn delete_game(&self) -> builder::DeleteGame",
        "pub fn play_move(&self) -> builder::PlayMove",
        // Optional, non-nullable headers become plain setters.
        "pub fn if_match<V>(mut self, value: V) -> Self",
        "pub fn if_none_match<V>(mut self, value: V) -> Self",
        // Errors are typed by the shared problem schema (problem+json adjusted to JSON).
        "Result<ResponseValue<types::Game>, Error<types::Problem>>",
        "Result<ResponseValue<()>, Error<types::Problem>>",
        // Unsigned formats and nullable fields get the intended Rust types.
        "pub version: u64",
        "pub status: u16",
        "pub scores: ::std::collections::HashMap<::std::string::String, u32>",
        "pub winner: ::std::option::Option<Player>",
        "pub last_move: ::std::option::Option<::std::string::String>",
        // Limits (here `minimum: 1`) are the service's to check: the type stays the wire's.
        "pub ai_think_ms: ::std::option::Option<u32>",
        // Enums become Rust enums.
        "pub enum BoardKind",
        "pub enum ErrorCode",
    ] {
        assert!(
            source.contains(expected),
            "generated source lacks `{expected}`"
        );
    }
    assert!(
        !source.contains("serde_json::Value"),
        "untyped values in the generated client"
    );
    assert_eq!(generate_client_source(&fixture()).unwrap(), client.source);
    assert_eq!(client.spec_3_0["openapi"], "3.0.3");
}

#[test]
fn generation_is_deterministic_whatever_the_key_order() {
    // The same document with every object's keys reversed generates the same files.
    fn reversed(value: Value) -> Value {
        match value {
            Value::Object(object) => {
                let mut entries: Vec<_> = object.into_iter().collect();
                entries.reverse();
                Value::Object(entries.into_iter().map(|(k, v)| (k, reversed(v))).collect())
            }
            Value::Array(items) => Value::Array(items.into_iter().map(reversed).collect()),
            other => other,
        }
    }
    assert_eq!(
        generate_client(&reversed(fixture())).unwrap(),
        generate_client(&fixture()).unwrap()
    );
}

#[test]
fn committed_sample_client_is_current() {
    let source = generate_client_source(&fixture()).unwrap();
    let path = manifest_path(SAMPLE_CLIENT);
    if std::env::var_os("XTASK_BLESS").is_some() {
        fs::write(&path, &source).unwrap();
    }
    let committed = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == source,
        "{SAMPLE_CLIENT} differs from the client generated from {FIXTURE}; \
         rerun with XTASK_BLESS=1 to rewrite it"
    );
}

#[test]
fn gen_client_and_check_client_on_a_scratch_workspace() {
    let root = scratch("tasks");
    let layout = Layout::new(&root);
    fs::create_dir_all(root.join("openapi")).unwrap();
    fs::copy(manifest_path(FIXTURE), layout.spec_3_1()).unwrap();

    // Nothing generated yet: both files are reported missing.
    let err = tasks::check_client(&layout).unwrap_err();
    let TaskError::Stale { stale } = &err else {
        panic!("unexpected error {err}");
    };
    assert_eq!(stale.len(), 2);
    assert!(stale.iter().all(|file| file.difference == "missing"));

    let written = tasks::gen_client(&layout).unwrap();
    assert_eq!(written, vec![layout.spec_3_0(), layout.client_source()]);
    tasks::check_client(&layout).unwrap();

    let spec_3_0: Value =
        serde_json::from_str(&fs::read_to_string(layout.spec_3_0()).unwrap()).unwrap();
    assert_eq!(spec_3_0["openapi"], "3.0.3");
    assert_eq!(
        fs::read_to_string(layout.client_source()).unwrap(),
        generate_client_source(&fixture()).unwrap()
    );

    // A hand edit of the client is caught, with the file and the line.
    let source = fs::read_to_string(layout.client_source()).unwrap();
    fs::write(
        layout.client_source(),
        source.replacen("pub version: u64", "pub version: i64", 1),
    )
    .unwrap();
    let err = tasks::check_client(&layout).unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("clients/rust/src/generated.rs: line "),
        "{message}"
    );
    assert!(message.contains("`pub version: i64,`"), "{message}");
    assert!(
        message.contains("cargo run -p xtask -- gen-client"),
        "{message}"
    );
    assert!(!message.contains("halma-3.0.json"), "{message}");

    // So is a server change that was not followed by generation.
    tasks::gen_client(&layout).unwrap();
    let mut spec = fixture();
    spec["components"]["schemas"]["Move"]["properties"]["seat"]["format"] = json!("u-int16");
    fs::write(layout.spec_3_1(), spec.to_string()).unwrap();
    let err = tasks::check_client(&layout).unwrap_err();
    let TaskError::Stale { stale } = &err else {
        panic!("unexpected error {err}");
    };
    let paths: Vec<_> = stale.iter().map(|file| file.path.clone()).collect();
    assert_eq!(paths, vec![layout.spec_3_0(), layout.client_source()]);
}

#[test]
fn binary_runs_both_commands_and_fails_on_drift() {
    let root = scratch("binary");
    fs::create_dir_all(root.join("openapi")).unwrap();
    fs::copy(manifest_path(FIXTURE), root.join(Layout::SPEC_3_1)).unwrap();
    let run = |command: &str| {
        Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args([command, "--root"])
            .arg(&root)
            .output()
            .unwrap()
    };

    let generated = run("gen-client");
    assert!(generated.status.success(), "{generated:?}");
    assert!(String::from_utf8_lossy(&generated.stdout).contains("wrote "));
    let checked = run("check-client");
    assert!(checked.status.success(), "{checked:?}");

    fs::remove_file(root.join(Layout::SPEC_3_0)).unwrap();
    let drifted = run("check-client");
    assert_eq!(drifted.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&drifted.stderr);
    assert!(
        stderr.contains("openapi/halma-3.0.json: missing"),
        "{stderr}"
    );

    let usage = run("frobnicate");
    assert_eq!(usage.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&usage.stderr).contains("unknown command"));
}

#[test]
fn broken_input_is_reported_not_panicked() {
    let root = scratch("broken");
    let layout = Layout::new(&root);
    assert!(matches!(
        tasks::gen_client(&layout),
        Err(TaskError::Read { .. })
    ));
    fs::create_dir_all(root.join("openapi")).unwrap();
    fs::write(layout.spec_3_1(), "{not json").unwrap();
    assert!(matches!(
        tasks::gen_client(&layout),
        Err(TaskError::NotJson { .. })
    ));
    fs::write(
        layout.spec_3_1(),
        r#"{"openapi": "3.0.3", "info": {}, "paths": {}}"#,
    )
    .unwrap();
    let err = tasks::gen_client(&layout).unwrap_err();
    assert!(err.to_string().contains("only OpenAPI 3.1.x"), "{err}");
    assert!(!layout.client_source().exists());
}

/// The workspace's own committed files: once the server has written `openapi/halma.json`, the
/// 3.0 document and the client source must match it; before that, neither may exist.
#[test]
fn workspace_client_matches_the_committed_document() {
    let layout = Layout::workspace();
    if layout.spec_3_1().exists() {
        if let Err(err) = tasks::check_client(&layout) {
            panic!("{err}");
        }
    } else {
        assert!(
            !layout.spec_3_0().exists() && !layout.client_source().exists(),
            "generated client files exist without {}",
            Layout::SPEC_3_1
        );
    }
}
