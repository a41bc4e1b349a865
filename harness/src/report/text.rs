//! The summary table printed at the end of a matrix run.
//!
//! A rendering only: it never changes an outcome.

use std::io::Write;

use crate::matrix::{Column, Matrix, counting_profile};

fn pct(score: Option<(usize, usize)>) -> String {
    match score {
        Some((p, t)) if t > 0 => {
            format!("{:.0}% ({p}/{t})", 100.0 * p as f64 / t as f64)
        }
        _ => "-".into(),
    }
}

fn count(c: &Column, word: &str) -> usize {
    c.counts.get(word).copied().unwrap_or(0)
}

/// The adapters × outcomes table, with scores per level.
///
/// # Errors
///
/// On any I/O error.
pub fn write(m: &Matrix, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<30} {:<8} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5}  {:<16} {:<16} {:<16}",
        "adapter",
        "profile",
        "pass",
        "fail",
        "n/a",
        "unsc",
        "err",
        "crash",
        "tmout",
        "MUST",
        "SHOULD",
        "GOOGLE"
    )?;
    for c in &m.adapters {
        if c.status != "ready" {
            writeln!(
                out,
                "{:<30} unavailable: {} (fix: {})",
                c.info.name,
                c.why.as_deref().unwrap_or(""),
                c.fix.as_deref().unwrap_or("")
            )?;
            continue;
        }
        writeln!(
            out,
            "{:<30} {:<8} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5}  {:<16} {:<16} {:<16}",
            c.info.name,
            counting_profile(&m.profile, &c.info),
            count(c, "pass"),
            count(c, "fail"),
            count(c, "not-applicable"),
            count(c, "unscored"),
            count(c, "error") + count(c, "protocol-error"),
            count(c, "crash"),
            count(c, "timeout"),
            pct(c.score("MUST")),
            pct(c.score("SHOULD")),
            pct(c.score("GOOGLE")),
        )?;
    }
    writeln!(
        out,
        "{} checks, {} adapters, {:.1} s",
        m.checks.len(),
        m.adapters.len(),
        m.seconds
    )
}
