//! What can stop an audit as a whole. Bad input never does: a file that
//! cannot be read, a truncated stream or a record that is not HTTP is a
//! counted error row (see `row::ErrorRow`); these errors are about the
//! run itself (its arguments, its output folder, a shard set to merge).

use std::path::PathBuf;

/// An audit could not run or could not write its output.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The command line asks for something impossible.
    #[error("{0}")]
    Usage(String),
    /// An adapter named on the command line is unknown or not ready.
    #[error("adapter {name}: {why}")]
    Adapter {
        /// The name given.
        name: String,
        /// Why it cannot be used.
        why: String,
    },
    /// Reading the list of inputs from standard input failed.
    #[error("reading input paths from stdin: {0}")]
    Stdin(#[source] std::io::Error),
    /// An output file could not be written.
    #[error("writing {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// An earlier audit's `audit.json` (for `render`) cannot be read.
    #[error("reading {path}: {why}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// A shard folder given to `merge` cannot be used.
    #[error("merging {path}: {why}")]
    Merge {
        /// The folder or file.
        path: PathBuf,
        /// Why.
        why: String,
    },
}

impl Error {
    pub(crate) fn write(
        path: impl Into<PathBuf>,
        source: std::io::Error,
    ) -> Error {
        Error::Write { path: path.into(), source }
    }

    pub(crate) fn merge(
        path: impl Into<PathBuf>,
        why: impl Into<String>,
    ) -> Error {
        Error::Merge { path: path.into(), why: why.into() }
    }
}
