//! The results site: static pages built from the suite's outputs — an
//! index ranking the parsers, a page per parser (certificate by clause,
//! fitted reading, bugs on record with reproductions, history chart), a
//! page per clause (which parsers follow it, and its checks), the matrix
//! by clause — and an SVG badge per parser.
//!
//! The inputs are `matrix` runs' `report.json` and `history` runs'
//! `history.json` ([`input`]), and the bug register
//! (`robots_fingerprint::register`). Certificates and badges are
//! `robots_runner::certify` and `robots_runner::badge`, the ones
//! `certify` writes. Pages are self-contained (one shared style sheet by
//! a relative link, no script, no font or file from elsewhere), so they
//! work from `file://` and any static host.
//!
//! It never asks a parser and never judges an answer; every file it
//! writes goes to a temporary file and is renamed
//! (`robots_runner::output::atomic_write`).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod error;
pub mod html;
pub mod input;
pub mod model;
pub mod pages;

use std::path::{Path, PathBuf};

use robots_runner::output::{OutDir, atomic_write};

pub use error::SiteError;
use model::Site;

/// What a build wrote.
#[derive(Debug)]
pub struct Built {
    /// Every file, as (path under the site's folder, bytes), in the order
    /// written.
    pub files: Vec<(String, usize)>,
    /// Parsers ranked (a ready column).
    pub ranked: usize,
    /// Parsers with a page.
    pub parsers: usize,
    /// Clause pages.
    pub clauses: usize,
    /// What was left out, and why.
    pub notes: Vec<String>,
}

impl Built {
    /// The largest file: (path, bytes).
    pub fn largest(&self) -> Option<&(String, usize)> {
        self.files.iter().max_by_key(|(_, n)| *n)
    }

    /// All files' bytes.
    pub fn total(&self) -> usize {
        self.files.iter().map(|(_, n)| n).sum()
    }
}

/// The register of `bugs` (a folder of `<adapter>.toml`); `None`: the
/// project's `bugs/`, or none when that folder does not exist (a binary
/// run away from its source tree).
///
/// # Errors
///
/// A register file that does not read or breaks the register's rules,
/// naming it; a `bugs` folder given that does not exist.
pub fn register(
    bugs: Option<&Path>,
) -> Result<Vec<(PathBuf, robots_fingerprint::register::File)>, SiteError> {
    use robots_fingerprint::register::{default_dir, load};
    match bugs {
        Some(dir) => {
            if !dir.is_dir() {
                return Err(SiteError::Input {
                    path: dir.to_path_buf(),
                    why: "no such folder (--bugs names the register's folder of <adapter>.toml)"
                        .into(),
                });
            }
            Ok(load(dir)?)
        }
        None if default_dir().is_dir() => Ok(load(&default_dir())?),
        None => Ok(Vec::new()),
    }
}

/// Builds the site from `inputs` (files or folders, see [`input`]) and
/// the register's `bugs` folder ([`register`]) into `out`.
///
/// # Errors
///
/// A bad input or register file (named), or a page that cannot be written
/// (named; the pages written before it are whole, each written
/// atomically).
pub fn build(
    inputs: &[PathBuf],
    bugs: Option<&Path>,
    out: &Path,
) -> Result<Built, SiteError> {
    let read = input::read(inputs)?;
    let register = register(bugs)?;
    // A busy or unwritable folder is refused before any page is written.
    let dir = OutDir::claim(out)?;
    let site = Site::gather(read, register);
    let mut files = Vec::new();
    for (rel, bytes) in pages::all(&site) {
        let path = dir.path().join(&rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|source| {
                robots_runner::output::OutputError::Io {
                    path: parent.to_path_buf(),
                    source,
                }
            })?;
        }
        atomic_write(&path, &bytes)?;
        files.push((rel, bytes.len()));
    }
    Ok(Built {
        files,
        ranked: site.parsers.iter().filter(|p| p.ready()).count(),
        parsers: site.parsers.len(),
        clauses: site.clauses.len(),
        notes: site.notes,
    })
}
