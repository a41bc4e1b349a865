//! Mistakes in case files: a [`CaseError`] is where (file, line, case
//! id) and a [`CaseErrorKind`] is what.
//!
//! Every mistake the loader finds is one of these; it never panics on a
//! case file and never reports a mistake without its file.

use std::fmt;
use std::path::PathBuf;

use super::body::BodyError;
use super::expect::ExpectError;
use super::fetch::FetchError;
use super::model::{REASONS, SOURCES};

/// A mistake in a case file: file, line, case id, and what is wrong.
/// Displays as `file:line: case `ID`: what`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseError {
    /// The case file.
    pub file: PathBuf,
    /// The 1-based line, when known.
    pub line: Option<usize>,
    /// The case id, when known.
    pub case: Option<String>,
    /// What is wrong.
    pub kind: CaseErrorKind,
}

impl CaseError {
    /// What is wrong, in words (the part after the location).
    pub fn message(&self) -> String {
        self.kind.to_string()
    }
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(case) = &self.case {
            write!(f, ": case `{case}`")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for CaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.kind)
    }
}

/// Which check of a case a mistake is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum At {
    /// The n-th (1-based) `check` entry.
    Check(usize),
    /// The case's `policy`.
    Policy,
    /// The n-th (1-based) `governs` entry.
    Governs(usize),
    /// The n-th (1-based) `robots_url` entry.
    RobotsUrl(usize),
    /// The n-th (1-based) `usage` entry.
    Usage(usize),
    /// The n-th (1-based) `content_signal` entry.
    Signal(usize),
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Check(n) => write!(f, "check {n}"),
            At::Policy => write!(f, "policy"),
            At::Governs(n) => write!(f, "governs {n}"),
            At::RobotsUrl(n) => write!(f, "robots_url {n}"),
            At::Usage(n) => write!(f, "usage {n}"),
            At::Signal(n) => write!(f, "content_signal {n}"),
        }
    }
}

/// What is wrong in a case file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CaseErrorKind {
    /// The file cannot be read.
    #[error("cannot read: {0}")]
    Unreadable(String),
    /// The file is larger than a case file may be.
    #[error("the file is larger than {limit} bytes")]
    FileTooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The file is not UTF-8 (TOML must be).
    #[error(
        "not UTF-8: byte 0x{byte:02X} at column {column} (TOML files are UTF-8)"
    )]
    NotUtf8 {
        /// The first bad byte.
        byte: u8,
        /// Its 1-based column, in bytes.
        column: usize,
    },
    /// The file is not TOML, or not of the case schema.
    #[error("{0}")]
    Schema(String),
    /// The cases before this one already built [`MAX_FILE_BODIES_BYTES`]
    /// of bodies (each case's own bound is `MAX_BODY_BYTES`).
    ///
    /// [`MAX_FILE_BODIES_BYTES`]: super::load::MAX_FILE_BODIES_BYTES
    #[error(
        "the bodies of this file's cases would exceed {limit} bytes together"
    )]
    FileBodiesTooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// Two cases in one file have the same id.
    #[error("duplicate case id in this file")]
    DuplicateId,
    /// Two clauses in the index have the same id.
    #[error("duplicate clause id {0}")]
    DuplicateClause(String),
    /// The id is not kebab-case.
    #[error("id must be kebab-case (a-z, 0-9, -, .)")]
    BadId,
    /// The case cites no clause.
    #[error("cites no clause: add `clauses = [\"R...\"]`")]
    NoClause,
    /// The case cites clause ids the index does not have.
    #[error("cites unknown clause id(s) {} (see spec-cases/clauses.toml)", .0.join(", "))]
    UnknownClauses(Vec<String>),
    /// The case has no `source`.
    #[error("needs `source`")]
    NoSource,
    /// The `source` is not a known one.
    #[error("source `{0}` is not one of {sources}", sources = SOURCES.join(", "))]
    BadSource(String),
    /// The body cannot be built.
    #[error(transparent)]
    Body(#[from] BodyError),
    /// The fetch scenario cannot be built.
    #[error("fetch: {0}")]
    Fetch(#[from] FetchError),
    /// `policy` without `[case.fetch]`.
    #[error("`policy` needs a [case.fetch] table")]
    PolicyWithoutFetch,
    /// An expectation is malformed.
    #[error("{at}: {error}")]
    Expect {
        /// Which check.
        at: At,
        /// What is wrong with it.
        error: ExpectError,
    },
    /// An implementation-defined expectation without `why`.
    #[error("{0}: implementation-defined needs `why`")]
    NeedsWhy(At),
    /// A `reason` that explanations never give.
    #[error("{at}: reason `{reason}` is not one of {}", REASONS.join(", "))]
    BadReason {
        /// Which check.
        at: At,
        /// The reason as written.
        reason: String,
    },
    /// An `explains` or `explains_not` phrase that cannot be held.
    #[error("{at}: explains: {what}")]
    BadPhrase {
        /// Which check.
        at: At,
        /// What is wrong with it.
        what: String,
    },
    /// A `readings` entry that cannot be held.
    #[error("{at}: readings: {what}")]
    BadReading {
        /// Which check.
        at: At,
        /// What is wrong with it.
        what: String,
    },
    /// `also` (further product tokens) on a check of a fetch case.
    #[error("{0}: `also` (several product tokens) is not asked after a fetch")]
    TokensInFetch(At),
    /// A URL that is neither absolute nor a path starting with one `/`.
    #[error(
        "{at}: url `{url}` is neither an absolute URL nor a path starting with exactly one `/`"
    )]
    BadUrl {
        /// Which check.
        at: At,
        /// The URL as written.
        url: String,
    },
    /// A URL that must be absolute and is not.
    #[error(
        "{at}: url `{url}` is not an absolute URL (`scheme://authority…`)"
    )]
    NotAbsolute {
        /// Which check.
        at: At,
        /// The URL as written.
        url: String,
    },
    /// The case asks nothing.
    #[error("has no checks")]
    NoChecks,
}
