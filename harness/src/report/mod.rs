//! Reports: renderings of a finished [`Matrix`],
//! each a pure function writing to any `Write`.
//!
//! Reports never run anything and never decide an outcome.

pub mod html;
pub mod junit;
pub mod markdown;
pub mod text;

use std::io::Write;
use std::path::Path;

use crate::matrix::Matrix;

/// Writes `report.json`, `junit.xml`, `matrix.md` and `matrix.html` into
/// `dir`, creating it.
///
/// # Errors
///
/// On any I/O error.
pub fn write_all(m: &Matrix, dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let create = |name: &str| {
        std::fs::File::create(dir.join(name)).map(std::io::BufWriter::new)
    };
    let mut f = create("report.json")?;
    serde_json::to_writer(&mut f, m)?;
    f.flush()?;
    let mut f = create("junit.xml")?;
    junit::write(m, &mut f)?;
    f.flush()?;
    let mut f = create("matrix.md")?;
    markdown::write(m, &mut f)?;
    f.flush()?;
    let mut f = create("matrix.html")?;
    html::write(m, &mut f)?;
    f.flush()
}
