//! The summary table printed at the end of a matrix run (and at the top
//! of `matrix.md`): per adapter the profile it claims beside the one its
//! outcomes are judged under, its outcome counts and its scores per
//! level, in columns as wide as the longest adapter name.
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

/// The adapters × outcomes table, with scores per level, and a legend.
///
/// # Errors
///
/// On any I/O error.
pub fn write(m: &Matrix, out: &mut impl Write) -> std::io::Result<()> {
    let w = m
        .adapters
        .iter()
        .map(|c| c.info.name.chars().count())
        .chain(["adapter".len()])
        .max()
        .unwrap_or(0);
    writeln!(
        out,
        "{:<w$} {:<8} {:<8} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5}  {:<16} {:<16} GOOGLE",
        "adapter",
        "claims",
        "judged",
        "pass",
        "fail",
        "n/a",
        "unsc",
        "err",
        "crash",
        "tmout",
        "MUST",
        "SHOULD",
    )?;
    let mut judged_elsewhere = false;
    for c in &m.adapters {
        // `{:<w$}` pads by characters, so a name of any length keeps
        // the columns after it aligned.
        let name = &c.info.name;
        if c.status != "ready" {
            writeln!(
                out,
                "{name:<w$} unavailable: {} (fix: {})",
                c.why.as_deref().unwrap_or(""),
                c.fix.as_deref().unwrap_or("")
            )?;
            continue;
        }
        let judged = counting_profile(&m.profile, &c.info);
        judged_elsewhere |= judged != c.info.profile;
        writeln!(
            out,
            "{name:<w$} {:<8} {:<8} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5}  {:<16} {:<16} {}",
            c.info.profile,
            judged,
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
    )?;
    writeln!(
        out,
        "claims: the profile the adapter says it follows; judged: the \
         expectations its outcomes are counted under (--profile)."
    )?;
    if judged_elsewhere {
        writeln!(
            out,
            "An adapter judged under a profile it does not claim fails \
             where the readings differ, as expected; --profile claimed \
             judges each under its own claim."
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn column(name: &str, profile: &str) -> Column {
        let mut c = crate::matrix::test_column(name, profile);
        c.counts = [("pass".to_string(), 7)].into();
        c
    }

    fn matrix(profile: &str, adapters: Vec<Column>) -> Matrix {
        Matrix {
            tool: "t".into(),
            profile: profile.into(),
            cases_dir: "d".into(),
            seconds: 0.0,
            explain_seconds: 0.0,
            busy_limit: 1,
            busy_peak: 0,
            adapters,
            clauses: BTreeMap::new(),
            cases: BTreeMap::new(),
            checks: vec![],
        }
    }

    fn render(m: &Matrix) -> String {
        let mut out = Vec::new();
        write(m, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn long_names_keep_the_columns_aligned() {
        let long = "python-a-very-long-adapter-name-from-another-repository";
        let text = render(&matrix(
            "rfc9309",
            vec![column("reference", "rfc9309"), column(long, "google")],
        ));
        let lines: Vec<&str> = text.lines().collect();
        // Every column starts at the same character on every row: the
        // `claims` column right after the longest name plus one space.
        let at = long.len() + 1;
        assert_eq!(&lines[0][at..at + 6], "claims", "{text}");
        assert_eq!(&lines[1][at..at + 7], "rfc9309", "{text}");
        assert_eq!(&lines[2][at..at + 6], "google", "{text}");
        let pass_end = |l: &str| l.find("    7").map(|i| i + 5);
        assert_eq!(pass_end(lines[1]), pass_end(lines[2]), "{text}");
        assert_eq!(lines[0].find(" pass").map(|i| i + 5), pass_end(lines[1]));
    }

    #[test]
    fn the_claimed_profile_sits_beside_the_judging_one() {
        let m = matrix(
            "rfc9309",
            vec![column("reference", "rfc9309"), column("ref-g", "google")],
        );
        let text = render(&m);
        let g = text.lines().find(|l| l.starts_with("ref-g")).unwrap();
        assert!(g.contains("google   rfc9309"), "{text}");
        assert!(text.contains("--profile claimed judges each"), "{text}");
        // Judged under its own claims: no note.
        let text = render(&matrix("claimed", m.adapters.clone()));
        let g = text.lines().find(|l| l.starts_with("ref-g")).unwrap();
        assert!(g.contains("google   google"), "{text}");
        assert!(!text.contains("does not claim"), "{text}");
    }
}
