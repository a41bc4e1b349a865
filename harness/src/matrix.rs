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
//! [`crate::budget::Budget::for_cores`] instances ask at once
//! ([`crate::budget`]), the costliest adapters first, so the cores stay
//! busy without thrashing until the slowest adapter's last case. With an
//! answer cache ([`Options::cache`], [`crate::cache`]) the checks it
//! answers are judged without asking, and an adapter with nothing left to
//! ask is never started. What each column cost is in [`Column::cost`].
//!
//! A run is given one [`Options`] value (`matrix/options.rs`: the suite,
//! the filter, the adapters, the profile, and how to ask) and goes through
//! named stages ([`run`], `matrix/stages.rs`: lay the rows out, ask every
//! column and the oracle's explanations at once, file and count each
//! column, assemble).
//!
//! A [`Matrix`] reads back from the `report.json` it was written to
//! (`Deserialize`; the site builder reads it), fields added since an
//! older report was written taking their defaults.

mod options;
mod stages;

use std::collections::BTreeMap;

use robots_adapters::Info;
use serde::{Deserialize, Serialize};

use crate::case::{Case, Check};
use crate::cost::ColumnCost;
use crate::run::Outcome;
use crate::suite::{Filter, Suite};

pub use self::options::Options;
pub use self::stages::run;

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
