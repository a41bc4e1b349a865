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

/// The clause levels each tier adds, in the order of
/// [`Certificate::tiers`]: a tier holds when no clause of its levels or
/// of an earlier tier's fails.
pub const TIER_LEVELS: [&[&str]; 3] = [
    &["MUST", "MUST NOT", "ABNF", "DEF", "EXAMPLE"],
    &["SHOULD", "SHOULD NOT"],
    &["GOOGLE"],
];

/// How the clauses of some levels fared: passing, failing, not tested.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Clauses with a passing check and none failing.
    pub pass: usize,
    /// Clauses with a failing check.
    pub fail: usize,
    /// Clauses without a scored check.
    pub not_tested: usize,
}

impl Certificate {
    /// The clauses of `levels` ([`TIER_LEVELS`]), tallied by status.
    pub fn tally(&self, levels: &[&str]) -> Tally {
        let mut t = Tally::default();
        for c in
            self.clauses.iter().filter(|c| levels.contains(&c.level.as_str()))
        {
            match c.status.as_str() {
                "pass" => t.pass += 1,
                "fail" => t.fail += 1,
                _ => t.not_tested += 1,
            }
        }
        t
    }

    /// The failing clauses, most failing checks first (then by id), at
    /// most `n`.
    pub fn worst(&self, n: usize) -> Vec<&ClauseResult> {
        let mut failing: Vec<&ClauseResult> =
            self.clauses.iter().filter(|c| !c.failing.is_empty()).collect();
        failing.sort_by(|a, b| {
            b.failing.len().cmp(&a.failing.len()).then_with(|| a.id.cmp(&b.id))
        });
        failing.truncate(n);
        failing
    }
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
    let must = holds(TIER_LEVELS[0]);
    let should = must && holds(TIER_LEVELS[1]);
    let google = should && holds(TIER_LEVELS[2]);
    // The drafts' clauses count in the tiers too: name them when cited.
    let drafts = clauses.iter().any(|c| c.id.starts_with("AIPREF-"));
    let texts = match drafts {
        true => {
            "RFC 9309 and the AI preferences drafts (draft-ietf-aipref-attach-05, -vocab-07)"
        }
        false => "RFC 9309",
    };
    let tiers = vec![
        (
            format!(
                "follows every MUST of {texts} (and their grammar, definitions and examples)"
            ),
            must,
        ),
        (format!("follows every MUST and SHOULD of {texts}"), should),
        (
            format!(
                "also follows Google's documented behaviour ({profile} expectations)"
            ),
            google,
        ),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn clause(
        id: &str,
        level: &str,
        status: &str,
        failing: usize,
    ) -> ClauseResult {
        ClauseResult {
            id: id.into(),
            level: level.into(),
            text: String::new(),
            counts: BTreeMap::new(),
            failing: (0..failing).map(|i| format!("{id}::{i}")).collect(),
            status: status.into(),
        }
    }

    fn cert() -> Certificate {
        Certificate {
            adapter: "x".into(),
            version: "1".into(),
            profile: "rfc9309".into(),
            tool: "t".into(),
            tiers: vec![],
            clauses: vec![
                clause("A", "MUST", "pass", 0),
                clause("B", "MUST NOT", "fail", 1),
                clause("C", "ABNF", "not-tested", 0),
                clause("D", "SHOULD", "fail", 3),
                clause("E", "GOOGLE", "fail", 1),
            ],
        }
    }

    #[test]
    fn a_tally_counts_the_clauses_of_a_tiers_levels_by_status() {
        let c = cert();
        assert_eq!(
            c.tally(TIER_LEVELS[0]),
            Tally { pass: 1, fail: 1, not_tested: 1 }
        );
        assert_eq!(
            c.tally(TIER_LEVELS[1]),
            Tally { pass: 0, fail: 1, not_tested: 0 }
        );
        assert_eq!(
            c.tally(TIER_LEVELS[2]),
            Tally { pass: 0, fail: 1, not_tested: 0 }
        );
    }

    #[test]
    fn the_worst_clauses_come_most_failing_first_then_by_id() {
        let c = cert();
        let ids: Vec<&str> =
            c.worst(5).iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["D", "B", "E"]);
        assert_eq!(c.worst(1).len(), 1);
    }
}
