//! Reports: renderings of a finished [`Matrix`],
//! each a pure function writing to any `Write`.
//!
//! Reports never run anything and never decide an outcome.

pub mod html;
pub mod junit;
pub mod markdown;
pub mod review;
pub mod text;

use std::path::Path;

use crate::matrix::Matrix;
use crate::output::{OutputError, atomic_write_with};

/// Writes `report.json`, `junit.xml`, `matrix.md` and `matrix.html` into
/// `dir`, creating it; each file atomically (see [`crate::output`]), so a
/// reader never sees a half-written or mixed report.
///
/// # Errors
///
/// On any I/O error, naming the file or folder.
pub fn write_all(m: &Matrix, dir: &Path) -> Result<(), OutputError> {
    std::fs::create_dir_all(dir).map_err(|source| OutputError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    atomic_write_with(&dir.join("report.json"), |w| {
        serde_json::to_writer(&mut *w, m)?;
        w.flush()
    })?;
    atomic_write_with(&dir.join("junit.xml"), |mut w| {
        junit::write(m, &mut w)
    })?;
    atomic_write_with(&dir.join("matrix.md"), |mut w| {
        markdown::write(m, &mut w)
    })?;
    atomic_write_with(&dir.join("matrix.html"), |mut w| html::write(m, &mut w))
}
