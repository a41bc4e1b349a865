//! `matrix.html`: a self-contained page (no network) with the report's
//! JSON embedded; the page's script renders the cases × parsers table,
//! the pruned view, the filters and the per-cell details.
//!
//! It never fetches anything at view time and never embeds unescaped text.

use std::io::Write;

use crate::matrix::Matrix;

const TEMPLATE: &str = include_str!("matrix.html");
const SLOT: &str = "/*REPORT_JSON*/null";

/// Writes the HTML report.
///
/// # Errors
///
/// On any I/O error.
pub fn write(m: &Matrix, out: &mut impl Write) -> std::io::Result<()> {
    let json = serde_json::to_string(m).map_err(std::io::Error::other)?;
    // Inside a script element neither `</script` nor `<!--` may appear:
    // escape every `<` (JSON reads `\u003c` as `<`).
    let json = json.replace('<', "\\u003c");
    let (head, tail) = TEMPLATE.split_once(SLOT).unwrap_or((TEMPLATE, ""));
    out.write_all(head.as_bytes())?;
    out.write_all(json.as_bytes())?;
    out.write_all(tail.as_bytes())
}
