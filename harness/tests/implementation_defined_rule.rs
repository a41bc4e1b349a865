//! Holds every case to the implementation-defined rule of
//! `spec-cases/PROFILES.md`, mechanically, by reading the case TOML and
//! `spec-cases/clauses.toml` directly (not through the harness's case
//! model, so that the rule is checked on what authors wrote).
//!
//! The rule, per expectation (a check's `expect` under one profile, or a
//! fetch case's `policy`):
//!
//! 1. `implementation-defined` under any profile needs a non-empty `why`
//!    on the check or on its case.
//! 2. `implementation-defined` under `rfc9309` needs the case to cite a
//!    clause where the RFC leaves the outcome open: level `MAY`, `INFO`,
//!    `DEF`, or `SILENT` (an `S-…` entry of clauses.toml naming exactly what
//!    the RFC does not say). Citing only MUST/SHOULD/ABNF/EXAMPLE clauses
//!    means the RFC decides: the expectation must be definite.
//! 3. A definite `rfc9309` expectation needs the case to cite at least one
//!    RFC clause whose level is neither `MAY` nor `SILENT`: a MAY or a
//!    silence cannot make an outcome definite.
//! 4. `implementation-defined` under `google` only in `fetch/`: for the
//!    parse layer, Google's open-source parser always answers, and the
//!    google profile takes its answer where the documentation is silent.
//! 5. Every `SILENT` clause is cited by some case and starts with
//!    "The RFC does not say".
//!
//! Never edits cases; it only reports each breach as `file: case id:
//! what`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use toml::{Table, Value};

mod case_toml;
use case_toml::{cases, read_table, root};

const ID: &str = "implementation-defined";
const OPEN_LEVELS: [&str; 4] = ["MAY", "INFO", "DEF", "SILENT"];
const WEAK_LEVELS: [&str; 2] = ["MAY", "SILENT"];

struct Clause {
    level: String,
    rfc: bool,
    /// From the AI preference drafts (source `aipref-draft`).
    draft: bool,
}

fn clauses() -> BTreeMap<String, Clause> {
    let t = read_table(&root().join("clauses.toml"));
    let list = t.get("clause").and_then(Value::as_array).cloned();
    list.unwrap_or_default()
        .iter()
        .filter_map(Value::as_table)
        .filter_map(|c| {
            let id = c.get("id")?.as_str()?.to_string();
            let level = c.get("level")?.as_str()?.to_string();
            let source = c.get("source")?.as_str()?;
            let (rfc, draft) = (source == "rfc9309", source == "aipref-draft");
            Some((id, Clause { level, rfc, draft }))
        })
        .collect()
}

/// An expectation as (rfc9309, google); a plain string applies to both.
fn per_profile(v: &Value) -> Option<(String, String)> {
    match v {
        Value::String(s) => Some((s.clone(), s.clone())),
        Value::Table(t) => Some((
            t.get("rfc9309")?.as_str()?.to_string(),
            t.get("google")?.as_str()?.to_string(),
        )),
        _ => None,
    }
}

fn non_empty(v: Option<&Value>) -> bool {
    v.and_then(Value::as_str).is_some_and(|s| !s.trim().is_empty())
}

/// One expectation to hold to the rule.
struct Expectation<'a> {
    what: String,
    rfc: String,
    google: String,
    has_why: bool,
    case: &'a Table,
}

fn expectations(case: &Table) -> Vec<Expectation<'_>> {
    let case_why = non_empty(case.get("why"));
    let mut out = Vec::new();
    if let Some((rfc, google)) = case.get("policy").and_then(per_profile) {
        let has_why = case_why;
        out.push(Expectation {
            what: "policy".into(),
            rfc,
            google,
            has_why,
            case,
        });
    }
    // `usage` entries: held to the same rule for rfc9309 and google (the
    // aipref column is checked in `breaches`, against the drafts).
    let usage = case.get("usage").and_then(Value::as_array);
    for (i, u) in usage.into_iter().flatten().enumerate() {
        let Some(u) = u.as_table() else { continue };
        let Some((rfc, google)) = u.get("expect").and_then(per_profile) else {
            continue;
        };
        let has_why = case_why || non_empty(u.get("why"));
        out.push(Expectation {
            what: format!("usage {}", i + 1),
            rfc,
            google,
            has_why,
            case,
        });
    }
    let checks = case.get("check").and_then(Value::as_array);
    for (i, ch) in checks.into_iter().flatten().enumerate() {
        let Some(ch) = ch.as_table() else { continue };
        let expect = ch.get("expect").or_else(|| case.get("expect"));
        let Some((rfc, google)) = expect.and_then(per_profile) else {
            continue;
        };
        let has_why = case_why || non_empty(ch.get("why"));
        out.push(Expectation {
            what: format!("check {}", i + 1),
            rfc,
            google,
            has_why,
            case,
        });
    }
    out
}

fn breaches(
    file: &Path,
    case: &Table,
    index: &BTreeMap<String, Clause>,
    cited_silences: &mut BTreeSet<String>,
) -> Vec<String> {
    let id = case.get("id").and_then(Value::as_str).unwrap_or("?");
    let cited: Vec<&str> = case
        .get("clauses")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let levels: Vec<(&str, bool)> = cited
        .iter()
        .filter_map(|c| index.get(*c))
        .map(|c| (c.level.as_str(), c.rfc))
        .collect();
    for c in &cited {
        if index.get(*c).is_some_and(|c| c.level == "SILENT") {
            cited_silences.insert((*c).to_string());
        }
    }
    let open = levels.iter().any(|(l, _)| OPEN_LEVELS.contains(l));
    let decided =
        levels.iter().any(|(l, rfc)| *rfc && !WEAK_LEVELS.contains(l));
    let in_fetch = file.parent().is_some_and(|d| d.ends_with("fetch"));
    let name = file.strip_prefix(root()).unwrap_or(file).display();
    let mut out = Vec::new();
    // The aipref column of `usage` entries: implementation-defined only
    // on a clause of the drafts that leaves it open (a SILENT S-AIPREF-…
    // or a MAY), definite only on a clause of the drafts above MAY.
    let draft_open = cited
        .iter()
        .filter_map(|c| index.get(*c))
        .any(|c| c.draft && (c.level == "SILENT" || c.level == "MAY"));
    let draft_decided = cited
        .iter()
        .filter_map(|c| index.get(*c))
        .any(|c| c.draft && !WEAK_LEVELS.contains(&c.level.as_str()));
    let usage = case.get("usage").and_then(Value::as_array);
    for (i, u) in usage.into_iter().flatten().enumerate() {
        let Some(u) = u.as_table() else { continue };
        let aipref = match u.get("expect") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Table(t)) => t
                .get("aipref")
                .or_else(|| t.get("rfc9309"))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            _ => continue,
        };
        let tag = format!("{name}: {id}: usage {} [aipref]", i + 1);
        if aipref == ID && !draft_open {
            out.push(format!(
                "{tag}: implementation-defined under aipref, but the case \
                 cites no SILENT/MAY clause of the drafts"
            ));
        }
        if aipref != ID && !draft_decided {
            out.push(format!(
                "{tag}: definite under aipref, but the case cites no clause \
                 of the drafts above MAY"
            ));
        }
    }
    // `content_signal` entries: the same under every profile; open only
    // on a silence of the drafts (S-CS-SYNTAX), definite only on a clause
    // of the drafts above MAY.
    let signals = case.get("content_signal").and_then(Value::as_array);
    for (i, e) in signals.into_iter().flatten().enumerate() {
        let Some(e) = e.as_table() else { continue };
        let word = e.get("expect").and_then(Value::as_str).unwrap_or_default();
        let tag = format!("{name}: {id}: content_signal {}", i + 1);
        let has_why = non_empty(case.get("why")) || non_empty(e.get("why"));
        if word == ID && !has_why {
            out.push(format!("{tag}: implementation-defined without `why`"));
        }
        if word == ID && !draft_open {
            out.push(format!(
                "{tag}: implementation-defined, but the case cites no \
                 SILENT/MAY clause of the drafts"
            ));
        }
        if word != ID && !draft_decided {
            out.push(format!(
                "{tag}: definite, but the case cites no clause of the \
                 drafts above MAY"
            ));
        }
    }
    for e in expectations(case) {
        let _ = e.case;
        let tag = format!("{name}: {id}: {}", e.what);
        if (e.rfc == ID || e.google == ID) && !e.has_why {
            out.push(format!("{tag}: implementation-defined without `why`"));
        }
        if e.rfc == ID && !open {
            out.push(format!(
                "{tag}: implementation-defined under rfc9309, but the case \
                 cites no MAY/INFO/DEF/SILENT clause (cite the S-… clause \
                 naming what the RFC leaves open, or make it definite)"
            ));
        }
        if e.rfc != ID && !decided {
            out.push(format!(
                "{tag}: definite under rfc9309 (`{}`), but the case cites \
                 no RFC clause above MAY (cite the clause the outcome \
                 rests on)",
                e.rfc
            ));
        }
        if e.google == ID && !in_fetch && !e.what.starts_with("usage") {
            out.push(format!(
                "{tag}: implementation-defined under google outside fetch/ \
                 (Google's parser answers it: use its answer)"
            ));
        }
    }
    out
}

#[test]
fn every_case_follows_the_implementation_defined_rule() {
    let index = clauses();
    let all = cases();
    let files: BTreeSet<&PathBuf> = all.iter().map(|(f, _)| f).collect();
    assert!(files.len() > 40, "found only {} case files", files.len());
    let mut cited_silences = BTreeSet::new();
    let mut problems = Vec::new();
    let mut seen = 0usize;
    for (file, case) in all.iter().filter(|(_, c)| !c.contains_key("ignore")) {
        seen += 1;
        problems.extend(breaches(file, case, &index, &mut cited_silences));
    }
    assert!(seen > 500, "read only {seen} cases");
    for (id, c) in &index {
        if c.level == "SILENT" && !cited_silences.contains(id) {
            problems.push(format!(
                "clauses.toml: {id}: SILENT but cited by no case"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{} breach(es) of the implementation-defined rule \
         (spec-cases/PROFILES.md):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn silences_say_what_the_rfc_does_not_say() {
    let t = read_table(&root().join("clauses.toml"));
    let list = t.get("clause").and_then(Value::as_array).cloned();
    let mut n = 0;
    for c in list.unwrap_or_default().iter().filter_map(Value::as_table) {
        if c.get("level").and_then(Value::as_str) != Some("SILENT") {
            continue;
        }
        n += 1;
        let id = c.get("id").and_then(Value::as_str).unwrap_or("?");
        let text = c.get("text").and_then(Value::as_str).unwrap_or("");
        assert!(
            id.starts_with("S-"),
            "{id}: a SILENT clause id starts with S-"
        );
        assert!(
            text.starts_with("The RFC does not say")
                || text.starts_with("The draft does not say"),
            "{id}: a SILENT clause's text starts with \"The RFC does not say\""
        );
    }
    assert!(n > 0, "clauses.toml has no SILENT clause");
}

/// The rule itself, on small hand-made cases: each branch fires.
#[test]
fn the_rule_catches_each_kind_of_breach() {
    let mut index = BTreeMap::new();
    for (id, level, rfc) in [
        ("M", "MUST", true),
        ("Y", "MAY", true),
        ("S-X", "SILENT", true),
        ("G", "GOOGLE", false),
    ] {
        index.insert(
            id.to_string(),
            Clause { level: level.into(), rfc, draft: false },
        );
    }
    let check = |body: &str, dir: &str| {
        let case: Table = body.parse().unwrap();
        let file = root().join(dir).join("x.toml");
        breaches(&file, &case, &index, &mut BTreeSet::new())
    };
    let ok = "id = 'a'\nclauses = ['M', 'S-X']\n\
              check = [{ expect = { rfc9309 = 'implementation-defined', google = 'allowed' }, why = 'w' }]";
    assert!(check(ok, "syntax").is_empty());
    let no_why = "id = 'a'\nclauses = ['S-X', 'M']\n\
                  check = [{ expect = { rfc9309 = 'implementation-defined', google = 'allowed' } }]";
    assert_eq!(check(no_why, "syntax").len(), 1);
    let must_only = "id = 'a'\nclauses = ['M']\n\
                     check = [{ expect = { rfc9309 = 'implementation-defined', google = 'allowed' }, why = 'w' }]";
    assert_eq!(check(must_only, "syntax").len(), 1);
    let may_only =
        "id = 'a'\nclauses = ['Y', 'G']\ncheck = [{ expect = 'allowed' }]";
    assert_eq!(check(may_only, "syntax").len(), 1);
    let google_open = "id = 'a'\nclauses = ['M', 'Y']\n\
                       check = [{ expect = { rfc9309 = 'allowed', google = 'implementation-defined' }, why = 'w' }]";
    assert_eq!(check(google_open, "syntax").len(), 1);
    assert!(check(google_open, "fetch").is_empty());
    let policy =
        "id = 'a'\nclauses = ['M']\npolicy = 'implementation-defined'";
    assert_eq!(check(policy, "fetch").len(), 2);
}
