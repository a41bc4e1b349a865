//! Reports: renderings of a finished [`Matrix`],
//! each a pure function writing to any `Write`.
//!
//! Reports never run anything and never decide an outcome.

pub mod cost;
pub mod html;
pub mod junit;
pub mod markdown;
pub mod review;
pub mod text;

use std::path::Path;

use crate::matrix::Matrix;
use crate::output::{OutputError, atomic_write_with};

/// `report.json`: the matrix, plus the names of the checks in the review
/// queue (see [`review`]).
#[derive(serde::Serialize)]
struct Json<'a> {
    #[serde(flatten)]
    matrix: &'a Matrix,
    review_queue: Vec<&'a str>,
}

impl<'a> Json<'a> {
    fn of(m: &'a Matrix) -> Json<'a> {
        let review_queue =
            review::queue(m).iter().map(|i| i.row.name.as_str()).collect();
        Json { matrix: m, review_queue }
    }
}

/// The files [`write_all`] writes.
pub const FILES: [&str; 4] =
    ["report.json", "junit.xml", "matrix.md", "matrix.html"];

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
        serde_json::to_writer(&mut *w, &Json::of(m))?;
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
