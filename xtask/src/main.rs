//! Command line of the workspace tasks: `cargo run -p xtask -- <command> [--root DIR]`.

use std::path::PathBuf;
use std::process::ExitCode;

use xtask::tasks::{self, Layout};

const USAGE: &str = "\
usage: cargo run -p xtask -- <command> [--root DIR]

commands:
  gen-client     down-convert openapi/halma.json to openapi/halma-3.0.json and generate
                 clients/rust/src/generated.rs from it with progenitor
  check-client   generate in memory and fail if either committed file differs

options:
  --root DIR     workspace root to work in (default: the workspace holding xtask)";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut command = None;
    let mut root = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--root" => match args.next() {
                Some(dir) => root = Some(PathBuf::from(dir)),
                None => return usage_error("--root needs a directory"),
            },
            "-h" | "--help" | "help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ if command.is_none() && !arg.starts_with('-') => command = Some(arg),
            _ => return usage_error(&format!("unexpected argument `{arg}`")),
        }
    }
    let layout = root.map_or_else(Layout::workspace, Layout::new);

    let result = match command.as_deref() {
        Some("gen-client") => tasks::gen_client(&layout).map(|written| {
            for path in written {
                println!("wrote {}", path.display());
            }
        }),
        Some("check-client") => tasks::check_client(&layout).map(|()| {
            println!(
                "{} and {} are up to date with {}",
                Layout::SPEC_3_0,
                Layout::CLIENT_SOURCE,
                Layout::SPEC_3_1
            );
        }),
        Some(other) => return usage_error(&format!("unknown command `{other}`")),
        None => return usage_error("no command given"),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("error: {message}\n\n{USAGE}");
    ExitCode::from(2)
}
