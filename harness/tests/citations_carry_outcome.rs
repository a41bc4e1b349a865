//! Holds every case's citations to the outcome its checks state, by
//! reading the case TOML and `spec-cases/clauses.toml` directly.
//!
//! The rule (PROFILES.md, "Citations"): a check's `reason` names the part
//! of RFC 9309 that decided it when no rule did, or when two rules tied:
//!
//! | reason | the clause that carries it |
//! |---|---|
//! | `no-group` | R2.2.1-9: no group applies, "no rules apply" |
//! | `no-matching-rule` | R2.2.2-9: "If no match is found ... the URI is allowed" |
//! | `robots-txt-path` | R2.2.2-10: "The /robots.txt URI is implicitly allowed" |
//! | `tie-goes-to-allow` | R2.2.2-8: the allow rule SHOULD be used |
//!
//! A case all of whose checks carry one and the same of these reasons
//! rests on that clause for every outcome it states, so it must cite it:
//! citing only the clauses of the input's shape (a comment, a sitemap, an
//! invalid value) leaves the outcome itself uncited (the audit's
//! `commented-out-sitemap`). Each reason must also go with the verdict its
//! clause gives (`allowed`) under every profile where the check is
//! definite, and every clause a case cites must exist. `longest-match` is
//! not held to a clause: the winning rule's own clause is the case's
//! subject, whatever it is.
//!
//! Never edits cases; it only reports each breach as `file: case id: what`.

use std::collections::BTreeSet;

use toml::{Table, Value};

mod case_toml;
use case_toml::{cases, read_table, root};

/// The reasons a clause of RFC 9309 carries, and that clause.
const CARRIED: [(&str, &str); 4] = [
    ("no-group", "R2.2.1-9"),
    ("no-matching-rule", "R2.2.2-9"),
    ("robots-txt-path", "R2.2.2-10"),
    ("tie-goes-to-allow", "R2.2.2-8"),
];

fn clause_ids() -> BTreeSet<String> {
    let t = read_table(&root().join("clauses.toml"));
    let list = t.get("clause").and_then(Value::as_array).cloned();
    list.unwrap_or_default()
        .iter()
        .filter_map(|c| Some(c.get("id")?.as_str()?.to_string()))
        .collect()
}

/// The definite verdicts a check's `expect` states, over its profiles.
fn definite(expect: Option<&Value>) -> Vec<String> {
    let all: Vec<&str> = match expect {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Table(t)) => {
            t.values().filter_map(Value::as_str).collect()
        }
        _ => Vec::new(),
    };
    all.into_iter()
        .filter(|s| *s != "implementation-defined")
        .map(str::to_string)
        .collect()
}

/// Every breach of the rule in one case.
fn breaches(case: &Table, known: &BTreeSet<String>) -> Vec<String> {
    let cited: BTreeSet<&str> = case
        .get("clauses")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut out: Vec<String> = cited
        .iter()
        .filter(|c| !known.contains(**c))
        .map(|c| format!("cites {c}, which clauses.toml does not have"))
        .collect();
    let checks: Vec<&Table> = case
        .get("check")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_table)
        .collect();
    let reasons: BTreeSet<Option<&str>> = checks
        .iter()
        .map(|c| c.get("reason").and_then(Value::as_str))
        .collect();
    for (i, check) in checks.iter().enumerate() {
        let Some(reason) = check.get("reason").and_then(Value::as_str) else {
            continue;
        };
        if CARRIED.iter().any(|(r, _)| *r == reason) {
            for v in definite(check.get("expect")) {
                if v != "allowed" {
                    out.push(format!(
                        "check {}: reason {reason} with a {v} expectation",
                        i + 1
                    ));
                }
            }
        }
    }
    let single = match reasons.iter().copied().collect::<Vec<_>>()[..] {
        [Some(only)] => CARRIED.iter().find(|(r, _)| *r == only),
        _ => None,
    };
    if let Some((only, clause)) = single
        && !cited.contains(clause)
    {
        out.push(format!(
            "every check's reason is {only}, which {clause} carries; cite it"
        ));
    }
    out
}

#[test]
fn every_case_cites_the_clause_that_carries_its_outcome() {
    let known = clause_ids();
    let mut found = Vec::new();
    let all = cases();
    for (file, case) in &all {
        let id = case.get("id").and_then(Value::as_str).unwrap_or("?");
        let name = file.strip_prefix(root()).unwrap_or(file).display();
        for b in breaches(case, &known) {
            found.push(format!("{name}: {id}: {b}"));
        }
    }
    let read = all.len();
    assert!(read > 500, "only {read} cases read from {}", root().display());
    assert!(
        found.is_empty(),
        "{} breach(es):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_rule_reports_what_it_must() {
    let known: BTreeSet<String> =
        ["R2.2.4-1", "R2.2.1-9"].iter().map(|s| s.to_string()).collect();
    let case = |text: &str| text.parse::<Table>().unwrap();
    let uncited = case(
        r#"clauses = ["R2.2.4-1"]
check = [{ agent = "a", url = "/x", expect = "allowed", reason = "no-group" }]"#,
    );
    assert_eq!(breaches(&uncited, &known).len(), 1);
    let cited = case(
        r#"clauses = ["R2.2.4-1", "R2.2.1-9"]
check = [{ agent = "a", url = "/x", expect = "allowed", reason = "no-group" }]"#,
    );
    assert!(breaches(&cited, &known).is_empty());
    let mixed = case(
        r#"clauses = ["R2.2.4-1"]
check = [{ agent = "a", url = "/x", expect = "allowed", reason = "no-group" },
         { agent = "a", url = "/y", expect = "disallowed", reason = "longest-match" }]"#,
    );
    assert!(breaches(&mixed, &known).is_empty());
    let wrong = case(
        r#"clauses = ["R2.2.1-9", "X-1"]
check = [{ agent = "a", url = "/x", expect = { rfc9309 = "disallowed", google = "allowed" }, reason = "no-group" }]"#,
    );
    assert_eq!(breaches(&wrong, &known).len(), 2);
}
