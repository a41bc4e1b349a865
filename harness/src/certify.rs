//! The per-parser compliance report: every clause with the parser's
//! outcomes on the checks citing it, and a verdict in tiers.
//!
//! It renders outcomes the runner already judged; it never asks an adapter
//! or changes an outcome.

use std::collections::BTreeMap;
use std::io::Write;

use serde::Serialize;

use crate::matrix::{Matrix, counting_profile};
use crate::run::Outcome;

/// One clause's line in the certificate.
#[derive(Clone, Debug, Serialize)]
pub struct ClauseResult {
    /// The clause id.
    pub id: String,
    /// Its level.
    pub level: String,
    /// Its text.
    pub text: String,
    /// Outcome counts over the checks citing it.
    pub counts: BTreeMap<String, usize>,
    /// The failing checks.
    pub failing: Vec<String>,
    /// `pass`, `fail`, or `not-tested` (no scored check).
    pub status: String,
}

/// The certificate.
#[derive(Clone, Debug, Serialize)]
pub struct Certificate {
    /// The adapter.
    pub adapter: String,
    /// Its version.
    pub version: String,
    /// The profile judged against.
    pub profile: String,
    /// Tool and version.
    pub tool: String,
    /// The tiers reached, in order.
    pub tiers: Vec<(String, bool)>,
    /// Per clause.
    pub clauses: Vec<ClauseResult>,
}

/// Builds the certificate for `adapter` from a matrix containing it.
pub fn certify(m: &Matrix, adapter: &str) -> Option<Certificate> {
    let col = m
        .adapters
        .iter()
        .find(|c| c.info.name == adapter && c.status == "ready")?;
    let profile = counting_profile(&m.profile, &col.info).to_string();
    let mut by_clause: BTreeMap<&str, ClauseResult> = BTreeMap::new();
    for row in &m.checks {
        let Some(cell) = row.results.get(adapter) else { continue };
        let o =
            cell.outcome.get(&profile).copied().unwrap_or(Outcome::Unscored);
        for id in &row.clauses {
            let [level, _, text] =
                m.clauses.get(id).cloned().unwrap_or_default();
            let entry = by_clause.entry(id).or_insert_with(|| ClauseResult {
                id: id.clone(),
                level,
                text,
                counts: BTreeMap::new(),
                failing: vec![],
                status: String::new(),
            });
            *entry.counts.entry(o.word().to_string()).or_default() += 1;
            if o.is_bad() {
                entry.failing.push(row.name.clone());
            }
        }
    }
    let mut clauses: Vec<ClauseResult> = by_clause.into_values().collect();
    for c in &mut clauses {
        let passed = c.counts.get("pass").copied().unwrap_or(0);
        c.status = if !c.failing.is_empty() {
            "fail".into()
        } else if passed > 0 {
            "pass".into()
        } else {
            "not-tested".into()
        };
    }
    let holds = |levels: &[&str]| {
        clauses
            .iter()
            .filter(|c| levels.contains(&c.level.as_str()))
            .all(|c| c.status != "fail")
    };
    let must = holds(&["MUST", "MUST NOT", "ABNF", "DEF", "EXAMPLE"]);
    let should = must && holds(&["SHOULD", "SHOULD NOT"]);
    let google = should && holds(&["GOOGLE"]);
    let tiers = vec![
        ("follows every MUST of RFC 9309 (and its grammar, definitions and examples)".to_string(), must),
        ("follows every MUST and SHOULD of RFC 9309".to_string(), should),
        (format!("also follows Google's documented behaviour ({profile} expectations)"), google),
    ];
    Some(Certificate {
        adapter: adapter.to_string(),
        version: col.info.version.clone(),
        profile,
        tool: m.tool.clone(),
        tiers,
        clauses,
    })
}

/// The certificate as Markdown, ready to publish.
///
/// # Errors
///
/// On any I/O error.
pub fn write_markdown(
    c: &Certificate,
    out: &mut impl Write,
) -> std::io::Result<()> {
    writeln!(out, "# RFC 9309 compliance: {} ({})\n", c.adapter, c.version)?;
    writeln!(
        out,
        "Tested by {} against the `{}` expectations.\n",
        c.tool, c.profile
    )?;
    writeln!(out, "## Verdict\n")?;
    for (tier, ok) in &c.tiers {
        writeln!(out, "- [{}] {tier}", if *ok { "x" } else { " " })?;
    }
    writeln!(out, "\n## Clauses\n")?;
    writeln!(
        out,
        "| clause | level | status | pass | fail | other | text |\n|---|---|---|---|---|---|---|"
    )?;
    for cl in &c.clauses {
        let get = |k: &str| cl.counts.get(k).copied().unwrap_or(0);
        let other: usize =
            cl.counts.values().sum::<usize>() - get("pass") - get("fail");
        let text: String =
            cl.text.split_whitespace().collect::<Vec<_>>().join(" ");
        let text: String = text.chars().take(120).collect();
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {other} | {} |",
            cl.id,
            cl.level,
            cl.status,
            get("pass"),
            get("fail"),
            text.replace('|', "\\|")
        )?;
    }
    let failing: Vec<&ClauseResult> =
        c.clauses.iter().filter(|c| !c.failing.is_empty()).collect();
    if !failing.is_empty() {
        writeln!(out, "\n## Failing checks\n")?;
        for cl in failing {
            for f in &cl.failing {
                writeln!(out, "- {} — `{f}`", cl.id)?;
            }
        }
    }
    Ok(())
}
