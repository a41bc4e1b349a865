//! Why a site could not be built. Every variant names the file or folder.
//!
//! It only describes; it never retries or skips an input.

use std::path::PathBuf;

/// Why a site could not be built.
#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    /// An input cannot be read (missing, unreadable, too large).
    #[error("{}: {why}", .path.display())]
    Input {
        /// The file or folder.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A file is neither a matrix's report.json nor a history.json.
    #[error(
        "{}: neither a report.json of `matrix` ({matrix}) nor a history.json of `history` ({history})",
        .path.display()
    )]
    Format {
        /// The file.
        path: PathBuf,
        /// Why it is no report.json.
        matrix: String,
        /// Why it is no history.json.
        history: String,
    },
    /// The inputs hold no report and no history.
    #[error("no report.json or history.json in {0}")]
    Empty(String),
    /// The bug register cannot be read.
    #[error(transparent)]
    Register(#[from] robots_fingerprint::register::RegisterError),
    /// A page cannot be written.
    #[error(transparent)]
    Output(#[from] robots_runner::output::OutputError),
}
