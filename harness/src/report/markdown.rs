//! `matrix.md`: the summary table, scores per category, the review queue
//! (see [`super::review`]), and every check on which the adapters
//! disagree, with the oracle's explanation.
//!
//! A rendering only: it never changes an outcome.

use std::collections::BTreeSet;
use std::io::Write;

use crate::matrix::{Matrix, counting_profile};

/// Writes the Markdown report.
///
/// # Errors
///
/// On any I/O error.
pub fn write(m: &Matrix, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "# robots-conformance matrix\n")?;
    writeln!(
        out,
        "{}; profile `{}`; {} checks; {:.1} s.\n",
        m.tool,
        m.profile,
        m.checks.len(),
        m.seconds
    )?;
    writeln!(out, "## Summary\n")?;
    writeln!(out, "```")?;
    super::text::write(m, out)?;
    writeln!(out, "```\n")?;
    let ready: Vec<_> =
        m.adapters.iter().filter(|c| c.status == "ready").collect();
    if ready.iter().any(|c| c.fingerprint.is_some()) {
        writeln!(
            out,
            "## Fingerprints (the reading that best explains each parser)\n"
        )?;
        writeln!(out, "| adapter | claims | fingerprint |\n|---|---|---|")?;
        for col in &ready {
            let fp = col.fingerprint.as_deref().unwrap_or("-");
            writeln!(
                out,
                "| {} | {} | `{fp}` |",
                col.info.name, col.info.profile
            )?;
        }
        writeln!(out)?;
    }
    let cats: BTreeSet<&String> =
        ready.iter().flat_map(|c| c.categories.keys()).collect();
    writeln!(out, "## Score per category (passed / scored)\n")?;
    write!(out, "| adapter |")?;
    for c in &cats {
        write!(out, " {c} |")?;
    }
    writeln!(out)?;
    writeln!(out, "|---|{}", "---|".repeat(cats.len()))?;
    for col in &ready {
        write!(out, "| {} |", col.info.name)?;
        for c in &cats {
            match col.categories.get(*c) {
                Some([p, t]) => write!(out, " {p}/{t} |")?,
                None => write!(out, " - |")?,
            }
        }
        writeln!(out)?;
    }
    write_cost(m, out)?;
    write_review_queue(m, out)?;
    writeln!(out, "\n## Checks where adapters disagree\n")?;
    let names: Vec<&String> = ready.iter().map(|c| &c.info.name).collect();
    for row in &m.checks {
        let answers: BTreeSet<&str> = row
            .results
            .values()
            .map(|c| c.answer.split(':').next().unwrap_or(""))
            .collect();
        if answers.len() < 2 {
            continue;
        }
        writeln!(out, "### `{}`\n", row.name)?;
        let case = &m.cases[&row.case];
        writeln!(
            out,
            "{} — clauses {} — `{}`\n",
            row.question,
            row.clauses.join(", "),
            case.file
        )?;
        let expect: Vec<String> =
            row.expect.iter().map(|(p, e)| format!("{p}: {e}")).collect();
        writeln!(out, "Expected: {}.\n", expect.join("; "))?;
        let body: String = case.robots.chars().take(1000).collect();
        writeln!(out, "```\n{}\n```\n", body.trim_end())?;
        writeln!(out, "| adapter | answer | outcome |\n|---|---|---|")?;
        for n in &names {
            if let Some(cell) = row.results.get(*n) {
                let col = ready
                    .iter()
                    .find(|c| &c.info.name == *n)
                    .expect("ready column");
                let p = counting_profile(&m.profile, &col.info);
                let o = cell.outcome.get(p).map_or("-", |o| o.word());
                writeln!(
                    out,
                    "| {n} | {} | {o} |",
                    cell.answer.replace('|', "\\|")
                )?;
            }
        }
        if let Some(why) = row.oracle.get("rfc9309") {
            writeln!(
                out,
                "\nOracle (rfc9309):\n\n```\n{}\n```\n",
                why.trim_end()
            )?;
        }
    }
    Ok(())
}

/// The cost section (see [`super::cost`]).
fn write_cost(m: &Matrix, out: &mut impl Write) -> std::io::Result<()> {
    use super::cost;
    writeln!(out, "\n## Cost per adapter\n")?;
    writeln!(out, "{}\n", cost::summary(m))?;
    writeln!(out, "| {} |", cost::HEADERS.join(" | "))?;
    writeln!(out, "|{}", "---|".repeat(cost::HEADERS.len()))?;
    for row in cost::rows(m) {
        writeln!(out, "| {} |", row.join(" | "))?;
    }
    writeln!(out, "\nColumns:\n")?;
    for (head, about) in cost::LEGEND {
        writeln!(out, "- **{head}**: {about}.")?;
    }
    Ok(())
}

/// The review queue section.
fn write_review_queue(
    m: &Matrix,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let queue = super::review::queue(m);
    writeln!(out, "\n## Review queue ({})\n", super::review::PROFILE)?;
    writeln!(
        out,
        "Definite `{}` expectations that every RFC-claiming parser which answered \
         (at least {}, the oracle aside) answers against: re-check each against its clause.\n",
        super::review::PROFILE,
        super::review::MIN_ANSWERS
    )?;
    if queue.is_empty() {
        writeln!(out, "None.")?;
        return Ok(());
    }
    writeln!(
        out,
        "| check | expected | answers | clauses | case |\n|---|---|---|---|---|"
    )?;
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    for item in &queue {
        let answers: Vec<String> = item
            .answers
            .iter()
            .map(|(a, ans)| format!("{a}: {}", cell(ans)))
            .collect();
        let file = m.cases.get(&item.row.case).map_or("", |c| c.file.as_str());
        writeln!(
            out,
            "| `{}` | {} | {} | {} | `{}` |",
            cell(&item.row.name),
            cell(item.expected),
            answers.join("; "),
            item.row.clauses.join(", "),
            cell(file)
        )?;
    }
    Ok(())
}
