//! A matrix run in named stages: lay the rows out ([`Layout::of`]), ask
//! every column and the oracle's explanations at once ([`ask_all`]), file
//! the explanations and each column's cells into the rows, counting the
//! column as it goes ([`Layout::file_column`]), and assemble the
//! [`Matrix`] ([`Layout::into_matrix`]).
//!
//! It asks only through the `Adapter` trait (the columns through
//! [`crate::column`], the explanations through the reference adapters);
//! it never judges an answer (the column does) and never writes a file
//! (the answer cache is the columns' to write).

use std::collections::BTreeMap;
use std::time::Instant;

use robots_adapters::Reply;
use robots_adapters::reference::Reference;
use robots_adapters::registry::{self, Host};

use super::{
    CaseInfo, Cell, Column, Matrix, Options, Row, counting_profile, cut,
    selection,
};
use crate::case::{Case, Check, PROFILES};
use crate::column::{confirm_wait, run_column};
use crate::render::{describe_question, describe_reply};
use crate::run::{Outcome, run_cases};

/// The selected checks, by case ([`selection`]).
type Selected<'a> = [(&'a Case, Vec<&'a Check>)];

/// The oracle's explanation of one check under one profile: (check,
/// profile, text).
type Explanation = (String, &'static str, String);

/// One column and its cells, by check name.
type Answered = (Column, Vec<(String, Cell)>);

/// Runs `options.entries` over the checks `options.filter` selects: every
/// adapter's column on a thread of its own, the oracle's explanations of
/// every row on another, at most `options.budget`'s size of adapter
/// instances asking at once; `options.progress` is called with (adapter,
/// checks done) as each case finishes.
pub fn run(options: &Options) -> Matrix {
    let started = Instant::now();
    let selected = selection(options.suite, options.filter);
    let mut layout = Layout::of(options, &selected);
    let keys = cache_keys(&selected);
    let ((explained, explain_seconds), columns) =
        ask_all(options, &selected, &keys);
    layout.explain(explained);
    let adapters = columns
        .into_iter()
        .map(|(column, cells)| {
            layout.file_column(column, cells, options.profile)
        })
        .collect();
    layout.into_matrix(options, adapters, explain_seconds, started)
}

/// The rows of a run, laid out before any answer, with the clauses and
/// cases they cite.
struct Layout {
    /// One row per selected check, in selection order.
    rows: Vec<Row>,
    /// Each check's row, by check name.
    index: BTreeMap<String, usize>,
    /// The clauses the rows cite: id → (level, section, text).
    clauses: BTreeMap<String, [String; 3]>,
    /// The cases the rows belong to, by name.
    cases: BTreeMap<String, CaseInfo>,
}

impl Layout {
    /// The rows of `selected`, no answer in them yet.
    fn of(options: &Options, selected: &Selected) -> Layout {
        let suite = options.suite;
        let mut layout = Layout {
            rows: Vec::new(),
            index: BTreeMap::new(),
            clauses: BTreeMap::new(),
            cases: BTreeMap::new(),
        };
        for (case, checks) in selected {
            for id in &case.clauses {
                if let Some(c) = suite.clause(id) {
                    layout.clauses.insert(
                        id.clone(),
                        [c.level.clone(), c.section.clone(), c.text.clone()],
                    );
                }
            }
            let level = suite.level_of(case).to_string();
            layout.cases.insert(case.name.clone(), case_info(case, &level));
            for check in checks {
                layout.index.insert(check.name.clone(), layout.rows.len());
                layout.rows.push(row_of(case, check, &level));
            }
        }
        layout
    }

    /// Files the oracle's explanations into their rows.
    fn explain(&mut self, explained: Vec<Explanation>) {
        for (check, p, text) in explained {
            self.rows[self.index[&check]].oracle.insert(p.to_string(), text);
        }
    }

    /// Files `column`'s cells into their rows and counts them into the
    /// column under its counting profile; the counted column.
    fn file_column(
        &mut self,
        mut column: Column,
        cells: Vec<(String, Cell)>,
        profile: &str,
    ) -> Column {
        let counting = counting_profile(profile, &column.info).to_string();
        for (name, cell) in cells {
            let row = &mut self.rows[self.index[&name]];
            let outcome = cell
                .outcome
                .get(&counting)
                .copied()
                .unwrap_or(Outcome::Unscored);
            tally(&mut column, outcome, row);
            row.results.insert(column.info.name.clone(), cell);
        }
        column
    }

    /// The finished matrix: the rows, the counted `adapters`, and what
    /// the run took.
    fn into_matrix(
        self,
        options: &Options,
        adapters: Vec<Column>,
        explain_seconds: f64,
        started: Instant,
    ) -> Matrix {
        Matrix {
            tool: format!("robots-conformance {}", env!("CARGO_PKG_VERSION")),
            profile: options.profile.to_string(),
            cases_dir: options.suite.root.display().to_string(),
            seconds: started.elapsed().as_secs_f64(),
            explain_seconds,
            busy_limit: options.budget.size(),
            busy_peak: options.budget.peak(),
            adapters,
            clauses: self.clauses,
            cases: self.cases,
            checks: self.rows,
        }
    }
}

/// What the rows of `case` share; `level` is its highest requirement
/// level.
fn case_info(case: &Case, level: &str) -> CaseInfo {
    CaseInfo {
        file: format!("{}:{}", case.file.display(), case.line),
        clauses: case.clauses.clone(),
        level: level.to_string(),
        categories: case.categories.clone(),
        source: case.source.clone(),
        robots: cut(&String::from_utf8_lossy(&case.robots), 4096),
        note: case.note.clone(),
    }
}

/// The row of `check` (of `case`, at `level`), no answer in it yet.
fn row_of(case: &Case, check: &Check, level: &str) -> Row {
    Row {
        name: check.name.clone(),
        case: case.name.clone(),
        question: cut(&describe_question(&check.request), 1024),
        level: level.to_string(),
        categories: case.categories.clone(),
        clauses: case.clauses.clone(),
        expect: PROFILES
            .iter()
            .map(|p| (p.to_string(), check.expected(p).describe()))
            .collect(),
        why: check.why.clone(),
        oracle: BTreeMap::new(),
        results: BTreeMap::new(),
    }
}

/// Counts one cell's `outcome` into `column`: its outcome counts and,
/// when the outcome is scored, the tallies of `row`'s level and
/// categories ([passed, scored]).
fn tally(column: &mut Column, outcome: Outcome, row: &Row) {
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
}

/// The checks' cache keys, by case, once for every column (a key hashes
/// the whole request, fetch scenarios and large bodies included).
fn cache_keys(selected: &Selected) -> Vec<Vec<String>> {
    selected
        .iter()
        .map(|(_, ks)| {
            ks.iter().map(|k| crate::cache::check_key(&k.request)).collect()
        })
        .collect()
}

/// Asks every column, each on a thread of its own, while the oracle's
/// explanations are asked on another: the explanations with the seconds
/// they took, and the columns in `options.entries` order.
fn ask_all(
    options: &Options,
    selected: &Selected,
    keys: &[Vec<String>],
) -> ((Vec<Explanation>, f64), Vec<Answered>) {
    std::thread::scope(|s| {
        let explainer = s.spawn(|| explain_all(options, selected, keys));
        let handles: Vec<_> = options
            .entries
            .iter()
            .map(|entry| {
                s.spawn(move || run_column(entry, selected, keys, options))
            })
            .collect();
        let columns: Vec<Answered> = handles
            .into_iter()
            .map(|h| h.join().expect("adapter thread panicked"))
            .collect();
        (explainer.join().expect("explanation thread panicked"), columns)
    })
}

/// The oracle's explanations of every selected check under every
/// profile, and the seconds they took.
fn explain_all(
    options: &Options,
    selected: &Selected,
    keys: &[Vec<String>],
) -> (Vec<Explanation>, f64) {
    let started = Instant::now();
    let mut out = Vec::new();
    for p in PROFILES {
        explain_under(p, options, selected, keys, &mut out);
    }
    (out, started.elapsed().as_secs_f64())
}

/// Profile `p`'s reference adapter's explanations of the selected
/// checks, into `out`. Its cached answers carry them: only the checks it
/// has no answer to are asked (the cache is the reference column's to
/// write, never this stage's).
fn explain_under(
    p: &'static str,
    options: &Options,
    selected: &Selected,
    keys: &[Vec<String>],
    out: &mut Vec<Explanation>,
) {
    let Some(entry) = registry::find(&Reference::name_for(p)) else {
        return;
    };
    let wait = confirm_wait(options.limits);
    let mut answers = options.cache.map(|c| c.load(&entry));
    let mut ask = Vec::new();
    for ((case, checks), case_keys) in selected.iter().zip(keys) {
        let mut missing = Vec::new();
        for (check, key) in checks.iter().zip(case_keys) {
            match answers.as_mut().and_then(|a| a.get(key, wait)) {
                Some(reply) => {
                    out.push((check.name.clone(), p, explanation(&reply)));
                }
                None => missing.push(*check),
            }
        }
        if !missing.is_empty() {
            ask.push((*case, missing));
        }
    }
    if ask.is_empty() {
        return;
    }
    let mut oracle = registry::open(&entry, options.limits, &Host::Thread);
    for r in run_cases(oracle.as_mut(), p, ask) {
        out.push((r.check, p, explanation(&r.reply)));
    }
}

/// The oracle's reply as a row shows it: the verdict and its
/// explanation, or the reply in one line (cut at 2 KiB).
fn explanation(reply: &Reply) -> String {
    let text = match reply {
        Reply::Verdict { verdict, explanation: Some(ex) } => {
            format!("{}\n{}", verdict.as_str(), ex.text)
        }
        other => describe_reply(other),
    };
    cut(&text, 2048)
}
