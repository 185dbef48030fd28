//! The `gen-client` and `check-client` tasks over the files of a workspace.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::generate::{generate_client, GenerateError, GeneratedClient};

/// Where the tasks read and write, relative to a workspace root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    root: PathBuf,
}

impl Layout {
    /// The committed OpenAPI 3.1 document the server writes.
    pub const SPEC_3_1: &'static str = "openapi/halma.json";
    /// The OpenAPI 3.0 document progenitor reads.
    pub const SPEC_3_0: &'static str = "openapi/halma-3.0.json";
    /// The generated client source.
    pub const CLIENT_SOURCE: &'static str = "clients/rust/src/generated.rs";

    /// A layout rooted at `root`.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    /// The layout of the workspace this crate belongs to (the parent of `xtask/`).
    #[must_use]
    pub fn workspace() -> Self {
        let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        Self::new(manifest_dir.parent().unwrap_or(manifest_dir))
    }

    /// The workspace root.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Path of the OpenAPI 3.1 document.
    #[must_use]
    pub fn spec_3_1(&self) -> PathBuf {
        self.root.join(Self::SPEC_3_1)
    }

    /// Path of the OpenAPI 3.0 document.
    #[must_use]
    pub fn spec_3_0(&self) -> PathBuf {
        self.root.join(Self::SPEC_3_0)
    }

    /// Path of the generated client source.
    #[must_use]
    pub fn client_source(&self) -> PathBuf {
        self.root.join(Self::CLIENT_SOURCE)
    }
}

/// A committed file that differs from what generation produces now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleFile {
    /// The file.
    pub path: PathBuf,
    /// What differs: missing, or the first line that differs.
    pub difference: String,
}

impl fmt::Display for StaleFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.difference)
    }
}

/// Why a task failed.
#[derive(Debug, thiserror::Error)]
pub enum TaskError {
    /// A file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// The OpenAPI document is not JSON.
    #[error("{} is not JSON: {source}", path.display())]
    NotJson {
        /// The file.
        path: PathBuf,
        /// The parse error.
        source: serde_json::Error,
    },
    /// Generation failed.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// A file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// Committed generated files differ from a fresh generation.
    #[error(
        "the generated client is out of date with {}:\n{}\nRun `cargo run -p xtask -- gen-client` and commit the result.",
        Layout::SPEC_3_1,
        .stale.iter().map(|file| format!("  {file}")).collect::<Vec<_>>().join("\n")
    )]
    Stale {
        /// The files that differ.
        stale: Vec<StaleFile>,
    },
}

/// Reads the OpenAPI 3.1 document of `layout` and generates the client from it, in memory.
///
/// # Errors
/// [`TaskError::Read`] or [`TaskError::NotJson`] for the document, [`TaskError::Generate`]
/// when generation fails.
pub fn generate(layout: &Layout) -> Result<GeneratedClient, TaskError> {
    let path = layout.spec_3_1();
    let text = fs::read_to_string(&path).map_err(|source| TaskError::Read {
        path: path.clone(),
        source,
    })?;
    let spec = serde_json::from_str(&text).map_err(|source| TaskError::NotJson { path, source })?;
    Ok(generate_client(&spec)?)
}

/// `gen-client`: generates the client and writes the 3.0 document and the client source,
/// creating their folders when needed. Returns the paths written.
///
/// # Errors
/// As [`generate`], and [`TaskError::Write`] when a file cannot be written.
pub fn gen_client(layout: &Layout) -> Result<Vec<PathBuf>, TaskError> {
    let client = generate(layout)?;
    let outputs = [
        (layout.spec_3_0(), client.spec_3_0_json()),
        (layout.client_source(), client.source),
    ];
    let mut written = Vec::with_capacity(outputs.len());
    for (path, contents) in outputs {
        write_file(&path, &contents)?;
        written.push(path);
    }
    Ok(written)
}

/// `check-client`: generates the client in memory and compares it with the committed files.
///
/// # Errors
/// [`TaskError::Stale`] naming every committed file that is missing or differs (with the first
/// differing line), and the errors of [`generate`].
pub fn check_client(layout: &Layout) -> Result<(), TaskError> {
    let client = generate(layout)?;
    let expected = [
        (layout.spec_3_0(), client.spec_3_0_json()),
        (layout.client_source(), client.source),
    ];
    let mut stale = Vec::new();
    for (path, contents) in expected {
        let difference = match fs::read_to_string(&path) {
            Ok(committed) => first_difference(&committed, &contents),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Some("missing".to_owned()),
            Err(source) => return Err(TaskError::Read { path, source }),
        };
        if let Some(difference) = difference {
            stale.push(StaleFile { path, difference });
        }
    }
    if stale.is_empty() {
        Ok(())
    } else {
        Err(TaskError::Stale { stale })
    }
}

fn write_file(path: &Path, contents: &str) -> Result<(), TaskError> {
    let result = match path.parent() {
        Some(parent) => fs::create_dir_all(parent).and_then(|()| fs::write(path, contents)),
        None => fs::write(path, contents),
    };
    result.map_err(|source| TaskError::Write {
        path: path.to_owned(),
        source,
    })
}

/// Describes where `committed` first differs from `expected`, or `None` if they are equal.
fn first_difference(committed: &str, expected: &str) -> Option<String> {
    if committed == expected {
        return None;
    }
    let mut committed_lines = committed.lines();
    let mut expected_lines = expected.lines();
    let mut number = 1;
    loop {
        match (committed_lines.next(), expected_lines.next()) {
            (Some(a), Some(b)) if a == b => number += 1,
            (Some(a), Some(b)) => {
                return Some(format!(
                    "line {number} differs: committed `{}`, generated `{}`",
                    a.trim(),
                    b.trim()
                ));
            }
            (Some(_), None) => {
                return Some(format!("committed file has extra lines from line {number}"));
            }
            (None, Some(_)) => {
                return Some(format!("committed file ends before line {number}"));
            }
            (None, None) => return Some("line endings or final newline differ".to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::first_difference;

    #[test]
    fn first_difference_names_the_line() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(
            first_difference("a\nb\nc\n", "a\nx\nc\n").as_deref(),
            Some("line 2 differs: committed `b`, generated `x`")
        );
        assert_eq!(
            first_difference("a\n", "a\nb\n").as_deref(),
            Some("committed file ends before line 2")
        );
        assert_eq!(
            first_difference("a\nb\n", "a\n").as_deref(),
            Some("committed file has extra lines from line 2")
        );
        assert_eq!(
            first_difference("a\r\n", "a\n").as_deref(),
            Some("line endings or final newline differ")
        );
    }
}
