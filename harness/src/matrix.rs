//! The matrix: every selected check against every selected adapter, in
//! parallel across adapters, judged under each profile, plus the oracle's
//! explanation of every check. Reports are renderings of a [`Matrix`].
//!
//! It reaches every parser, the oracle too, only through the `Adapter`
//! trait; a misbehaving adapter costs only its own cells, never the run.
//!
//! Scheduling: every adapter's column runs at once ([`crate::column`]),
//! each with one instance per core ([`instances_per_adapter`]) taking the
//! next case from one shared queue; across all adapters at most
//! [`Budget::for_cores`] instances ask at once ([`crate::budget`]), the
//! costliest adapters first, so the cores stay busy without thrashing
//! until the slowest adapter's last case. With an answer cache
//! ([`run_cached`], [`crate::cache`]) the checks it answers are judged
//! without asking, and an adapter with nothing left to ask is never
//! started. What each column cost is in [`Column::cost`].
//!
//! A [`Matrix`] reads back from the `report.json` it was written to
//! (`Deserialize`; the site builder reads it), fields added since an
//! older report was written taking their defaults.

use std::collections::BTreeMap;
use std::time::Instant;

use robots_adapters::process::Limits;
use robots_adapters::registry::{self, Entry, Host};
use robots_adapters::{Info, Reply};
use serde::{Deserialize, Serialize};

use crate::budget::Budget;
use crate::cache::Cache;
use crate::case::{Case, Check, Expected, PROFILES};
use crate::column::run_column;
use crate::cost::ColumnCost;
use crate::render::{describe_question, describe_reply};
use crate::run::{Outcome, run_cases};
use crate::suite::{Filter, Suite};

/// One adapter's answer to one check, judged under every profile.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Cell {
    /// The answer in one line (`allowed`, `crashed: ...`, a value).
    pub answer: String,
    /// The outcome under each profile.
    pub outcome: BTreeMap<String, Outcome>,
    /// What was wrong, under the matrix's profile.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

/// What the rows of one case share.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaseInfo {
    /// File and line of the case.
    pub file: String,
    /// Its clause ids.
    pub clauses: Vec<String>,
    /// The highest requirement level among them.
    pub level: String,
    /// Its categories.
    pub categories: Vec<String>,
    /// Where it comes from.
    pub source: String,
    /// The body (lossy UTF-8, cut at 4 KiB).
    pub robots: String,
    /// The case's note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One check's row.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Row {
    /// Full check name.
    pub name: String,
    /// The case's name (a key of [`Matrix::cases`]).
    pub case: String,
    /// The question in one line (cut at 1 KiB).
    pub question: String,
    /// The highest requirement level of the case's clauses.
    pub level: String,
    /// The case's categories.
    pub categories: Vec<String>,
    /// The case's clause ids.
    pub clauses: Vec<String>,
    /// The expectation per profile.
    pub expect: BTreeMap<String, String>,
    /// Why implementation-defined, when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// The oracle's explanation under each profile.
    pub oracle: BTreeMap<String, String>,
    /// Each adapter's cell, by adapter name.
    pub results: BTreeMap<String, Cell>,
}

/// One adapter's column.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Column {
    /// Who it is.
    #[serde(flatten)]
    pub info: Info,
    /// `ready` or `unavailable`.
    pub status: String,
    /// Why unavailable, and the fix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// The command that makes it available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
    /// Wall time of its run.
    pub seconds: f64,
    /// What asking it cost ([`crate::cost`]).
    #[serde(default)]
    pub cost: ColumnCost,
    /// Outcome counts under the matrix's profile.
    pub counts: BTreeMap<String, usize>,
    /// Per requirement level: [passed, scored].
    pub levels: BTreeMap<String, [usize; 2]>,
    /// Per category: [passed, scored].
    pub categories: BTreeMap<String, [usize; 2]>,
    /// `≈ BASE + switch=value + … (X%)`, when fitted (`matrix --fingerprint`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
}

/// A finished run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Matrix {
    /// Tool name and version.
    pub tool: String,
    /// The profile outcomes are counted under (`claimed`: each adapter's
    /// own).
    pub profile: String,
    /// The cases folder.
    pub cases_dir: String,
    /// Wall time of the whole run.
    pub seconds: f64,
    /// Wall time of the oracle's explanations of every row (asked while
    /// the columns run; what the reference adapters' cache holds is not
    /// asked again).
    #[serde(default)]
    pub explain_seconds: f64,
    /// The run's budget of busy adapter instances ([`crate::budget`];
    /// 0: no limit).
    #[serde(default)]
    pub busy_limit: usize,
    /// The most adapter instances that were asking at once.
    #[serde(default)]
    pub busy_peak: usize,
    /// The columns, in selection order.
    pub adapters: Vec<Column>,
    /// The clauses the rows cite: id → (level, section, text).
    pub clauses: BTreeMap<String, [String; 3]>,
    /// The cases the rows belong to, by name.
    pub cases: BTreeMap<String, CaseInfo>,
    /// The rows.
    pub checks: Vec<Row>,
}

/// The checks a run covers: non-ignored cases, filtered by name.
pub fn selection<'a>(
    suite: &'a Suite,
    filter: &Filter,
) -> Vec<(&'a Case, Vec<&'a Check>)> {
    suite
        .cases
        .iter()
        .filter(|c| c.ignore.is_none())
        .map(|c| {
            (
                c,
                c.checks
                    .iter()
                    .filter(|k| filter.selects(&k.name))
                    .collect::<Vec<_>>(),
            )
        })
        .filter(|(_, ks)| !ks.is_empty())
        .collect()
}

/// The profile a column is counted under.
pub fn counting_profile<'a>(profile: &'a str, info: &'a Info) -> &'a str {
    if profile == "claimed" { &info.profile } else { profile }
}

/// `text` cut to at most `max` bytes (at a character boundary), with a
/// note of the full length.
fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes in all)", &text[..end], text.len())
}

fn expect_word(e: &Expected) -> String {
    e.describe()
}

/// Runs `entries` over the selection, one thread per adapter. `progress`
/// is called with (adapter, checks done) as each case finishes.
pub fn run(
    suite: &Suite,
    filter: &Filter,
    entries: &[Entry],
    profile: &str,
    limits: Limits,
    host: &Host,
    progress: &(dyn Fn(&str, usize) + Sync),
) -> Matrix {
    run_cached(suite, filter, entries, profile, limits, host, progress, None)
}

/// [`run`], answering from `cache` what it holds and filing there what
/// the adapters answer (see [`crate::cache`]).
#[allow(clippy::too_many_arguments)]
pub fn run_cached(
    suite: &Suite,
    filter: &Filter,
    entries: &[Entry],
    profile: &str,
    limits: Limits,
    host: &Host,
    progress: &(dyn Fn(&str, usize) + Sync),
    cache: Option<&Cache>,
) -> Matrix {
    let budget = Budget::for_cores();
    run_with(
        suite, filter, entries, profile, limits, host, progress, cache,
        &budget,
    )
}

/// [`run_cached`] with at most `budget`'s size of adapter instances asking
/// at once.
#[allow(clippy::too_many_arguments)]
pub fn run_with(
    suite: &Suite,
    filter: &Filter,
    entries: &[Entry],
    profile: &str,
    limits: Limits,
    host: &Host,
    progress: &(dyn Fn(&str, usize) + Sync),
    cache: Option<&Cache>,
    budget: &Budget,
) -> Matrix {
    let started = Instant::now();
    let selected = selection(suite, filter);
    let mut rows: Vec<Row> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut clauses = BTreeMap::new();
    let mut cases = BTreeMap::new();
    for (case, checks) in &selected {
        for id in &case.clauses {
            if let Some(c) = suite.clause(id) {
                clauses.insert(
                    id.clone(),
                    [c.level.clone(), c.section.clone(), c.text.clone()],
                );
            }
        }
        let level = suite.level_of(case).to_string();
        cases.insert(
            case.name.clone(),
            CaseInfo {
                file: format!("{}:{}", case.file.display(), case.line),
                clauses: case.clauses.clone(),
                level: level.clone(),
                categories: case.categories.clone(),
                source: case.source.clone(),
                robots: cut(&String::from_utf8_lossy(&case.robots), 4096),
                note: case.note.clone(),
            },
        );
        for check in checks {
            index.insert(check.name.clone(), rows.len());
            rows.push(Row {
                name: check.name.clone(),
                case: case.name.clone(),
                question: cut(&describe_question(&check.request), 1024),
                level: level.clone(),
                categories: case.categories.clone(),
                clauses: case.clauses.clone(),
                expect: PROFILES
                    .iter()
                    .map(|p| (p.to_string(), expect_word(check.expected(p))))
                    .collect(),
                why: check.why.clone(),
                oracle: BTreeMap::new(),
                results: BTreeMap::new(),
            });
        }
    }
    // The oracle's explanations of every row, on a thread of its own
    // while the columns run; every adapter in its own thread.
    // The checks' cache keys, once for every column.
    let keys: Vec<Vec<String>> = selected
        .iter()
        .map(|(_, ks)| {
            ks.iter().map(|k| crate::cache::check_key(&k.request)).collect()
        })
        .collect();
    let explain = || {
        let started = Instant::now();
        let mut out = Vec::new();
        let text_of = |reply: &Reply| {
            let text = match reply {
                Reply::Verdict { verdict, explanation: Some(ex) } => {
                    format!("{}\n{}", verdict.as_str(), ex.text)
                }
                other => describe_reply(other),
            };
            cut(&text, 2048)
        };
        for p in PROFILES {
            let name = robots_adapters::reference::Reference::name_for(p);
            let Some(entry) = registry::find(&name) else { continue };
            // The reference's cached answers carry its explanations: only
            // the checks it has no answer to are asked (the cache is the
            // reference column's to write).
            let mut answers = cache.map(|c| c.load(&entry));
            let mut ask = Vec::new();
            for ((case, checks), case_keys) in selected.iter().zip(&keys) {
                let mut missing = Vec::new();
                for (check, key) in checks.iter().zip(case_keys) {
                    let wait = crate::column::confirm_wait(limits);
                    match answers.as_mut().and_then(|a| a.get(key, wait)) {
                        Some(reply) => {
                            out.push((check.name.clone(), p, text_of(&reply)));
                        }
                        None => missing.push(*check),
                    }
                }
                if !missing.is_empty() {
                    ask.push((*case, missing));
                }
            }
            if ask.is_empty() {
                continue;
            }
            let mut oracle = registry::open(&entry, limits, &Host::Thread);
            for r in run_cases(oracle.as_mut(), p, ask) {
                out.push((r.check, p, text_of(&r.reply)));
            }
        }
        (out, started.elapsed().as_secs_f64())
    };
    let ((explained, explain_seconds), columns) = std::thread::scope(|s| {
        let explainer = s.spawn(explain);
        let handles: Vec<_> = entries
            .iter()
            .map(|entry| {
                let (selected, keys) = (&selected, &keys);
                s.spawn(move || {
                    run_column(
                        entry, selected, keys, profile, limits, host, budget,
                        progress, cache,
                    )
                })
            })
            .collect();
        let columns: Vec<(Column, Vec<(String, Cell)>)> = handles
            .into_iter()
            .map(|h| h.join().expect("adapter thread panicked"))
            .collect();
        (explainer.join().expect("explanation thread panicked"), columns)
    });
    for (check, p, text) in explained {
        rows[index[&check]].oracle.insert(p.to_string(), text);
    }
    let mut adapters = Vec::new();
    for (mut column, cells) in columns {
        let counting = counting_profile(profile, &column.info).to_string();
        for (name, cell) in cells {
            let row = &rows[index[&name]];
            let outcome = cell
                .outcome
                .get(&counting)
                .copied()
                .unwrap_or(Outcome::Unscored);
            *column.counts.entry(outcome.word().to_string()).or_default() += 1;
            let scored =
                !matches!(outcome, Outcome::Unscored | Outcome::NotApplicable);
            if scored {
                let pass = usize::from(outcome == Outcome::Pass);
                let l = column.levels.entry(row.level.clone()).or_default();
                l[0] += pass;
                l[1] += 1;
                for cat in &row.categories {
                    let c = column.categories.entry(cat.clone()).or_default();
                    c[0] += pass;
                    c[1] += 1;
                }
            }
            rows[index[&name]].results.insert(column.info.name.clone(), cell);
        }
        adapters.push(column);
    }
    Matrix {
        tool: format!("robots-conformance {}", env!("CARGO_PKG_VERSION")),
        profile: profile.to_string(),
        cases_dir: suite.root.display().to_string(),
        seconds: started.elapsed().as_secs_f64(),
        explain_seconds,
        busy_limit: budget.size(),
        busy_peak: budget.peak(),
        adapters,
        clauses,
        cases,
        checks: rows,
    }
}

pub use crate::column::instances_per_adapter;

impl Column {
    /// A ready column for `info`, nothing counted yet.
    pub fn new(info: Info) -> Column {
        Column {
            info,
            status: "ready".into(),
            why: None,
            fix: None,
            seconds: 0.0,
            cost: ColumnCost::default(),
            counts: BTreeMap::new(),
            levels: BTreeMap::new(),
            categories: BTreeMap::new(),
            fingerprint: None,
        }
    }

    /// Passed over scored checks at `level`, if any were scored.
    pub fn score(&self, level: &str) -> Option<(usize, usize)> {
        self.levels.get(level).map(|[p, t]| (*p, *t))
    }
}

/// A ready column with no answers, for the reports' unit tests.
#[cfg(test)]
pub(crate) fn test_column(name: &str, profile: &str) -> Column {
    Column {
        info: robots_adapters::Info {
            name: name.into(),
            language: "rust".into(),
            version: "1".into(),
            profile: profile.into(),
            capabilities: robots_adapters::Capabilities::decide_only(),
        },
        status: "ready".into(),
        why: None,
        fix: None,
        seconds: 0.0,
        cost: Default::default(),
        counts: BTreeMap::new(),
        levels: BTreeMap::new(),
        categories: BTreeMap::new(),
        fingerprint: None,
    }
}
