//! `matrix::run` given one `Options` value: each field reaches the stage
//! it is for — the filter selects the rows, the profile counts the
//! columns, the budget bounds the instances, the progress callback hears
//! every check, the cache answers a second run — and the stages file
//! every cell and every explanation into its row.
//!
//! Only the reference adapters are asked (in process): the oracle is the
//! judge, so every scored check of theirs passes under the profile it
//! claims.

use std::collections::BTreeMap;
use std::sync::Mutex;

use robots_adapters::registry::{self, Entry};
use robots_runner::budget::Budget;
use robots_runner::cache::Cache;
use robots_runner::case::PROFILES;
use robots_runner::matrix::{self, Matrix, Options, selection};
use robots_runner::suite::{Filter, Suite, default_root};

/// The precedence cases: small, and every check a verdict.
fn suite() -> Suite {
    let root = default_root();
    let only = root.join("precedence");
    let suite = Suite::load_only(&root, |f| f.starts_with(&only));
    assert!(suite.errors.is_empty(), "{:?}", suite.errors);
    assert!(suite.cases.len() > 3, "precedence cases not found");
    suite
}

fn references() -> Vec<Entry> {
    ["reference", "reference-google"]
        .iter()
        .map(|n| registry::find(n).expect("the reference adapters"))
        .collect()
}

/// The filter of the first two selectable cases' names.
fn two_cases(suite: &Suite) -> Filter {
    let all = selection(suite, &Filter::default());
    Filter {
        include: all.iter().take(2).map(|(c, _)| c.name.clone()).collect(),
        ..Filter::default()
    }
}

/// Each check's answer per adapter.
fn answers(m: &Matrix) -> BTreeMap<(String, String), String> {
    m.checks
        .iter()
        .flat_map(|r| {
            r.results
                .iter()
                .map(|(a, c)| ((r.name.clone(), a.clone()), c.answer.clone()))
        })
        .collect()
}

#[test]
fn the_filter_selects_the_rows_and_every_row_is_filled() {
    let suite = suite();
    let entries = references();
    let filter = two_cases(&suite);
    let wanted: Vec<String> = selection(&suite, &filter)
        .iter()
        .flat_map(|(_, ks)| ks.iter().map(|k| k.name.clone()))
        .collect();
    let every = selection(&suite, &Filter::default())
        .iter()
        .map(|(_, ks)| ks.len())
        .sum::<usize>();
    assert!(!wanted.is_empty() && wanted.len() < every);
    let m = matrix::run(&Options {
        filter: &filter,
        ..Options::new(&suite, &entries, "rfc9309")
    });
    let rows: Vec<String> = m.checks.iter().map(|r| r.name.clone()).collect();
    assert_eq!(rows, wanted, "the rows are the filtered checks, in order");
    assert_eq!(m.profile, "rfc9309");
    assert_eq!(m.adapters.len(), 2);
    for row in &m.checks {
        assert!(m.cases.contains_key(&row.case), "{}: no case info", row.name);
        for id in &row.clauses {
            assert!(m.clauses.contains_key(id), "{}: clause {id}", row.name);
        }
        for p in PROFILES {
            assert!(
                row.oracle.contains_key(p),
                "{}: no {p} explanation",
                row.name
            );
        }
        for e in &entries {
            assert!(
                row.results.contains_key(&e.info.name),
                "{}: no cell of {}",
                row.name,
                e.info.name
            );
        }
    }
    // The reference under rfc9309, counted under rfc9309: every scored
    // check passes, and the tallies add up to the rows.
    let column = &m.adapters[0];
    assert_eq!(column.info.name, "reference");
    assert_eq!(column.counts.values().sum::<usize>(), rows.len());
    assert_eq!(column.counts.get("fail"), None, "{:?}", column.counts);
    let scored: usize = column.levels.values().map(|[_, t]| t).sum();
    let passed: usize = column.levels.values().map(|[p, _]| p).sum();
    assert_eq!(passed, scored);
    assert_eq!(passed, column.counts.get("pass").copied().unwrap_or(0));
    assert!(passed > 0);
}

#[test]
fn claimed_counts_each_column_under_its_own_profile() {
    let suite = suite();
    let entries = references();
    let m = matrix::run(&Options::new(&suite, &entries, "claimed"));
    assert_eq!(m.profile, "claimed");
    for column in &m.adapters {
        assert_eq!(
            column.counts.get("fail"),
            None,
            "{} under its claimed {}: {:?}",
            column.info.name,
            column.info.profile,
            column.counts
        );
        assert!(column.counts.get("pass").copied().unwrap_or(0) > 0);
    }
}

#[test]
fn the_budget_bounds_the_instances_and_progress_hears_every_check() {
    let suite = suite();
    let entries = references();
    let default = matrix::run(&Options::new(&suite, &entries, "rfc9309"));
    assert_eq!(default.busy_limit, Budget::for_cores().size());
    let heard: Mutex<BTreeMap<String, usize>> = Mutex::new(BTreeMap::new());
    let progress = |adapter: &str, done: usize| {
        let mut h = heard.lock().unwrap();
        let d = h.entry(adapter.to_string()).or_default();
        *d = (*d).max(done);
    };
    let m = matrix::run(&Options {
        budget: Budget::new(1),
        progress: &progress,
        ..Options::new(&suite, &entries, "rfc9309")
    });
    assert_eq!(m.busy_limit, 1);
    assert_eq!(m.busy_peak, 1, "one instance at a time, and one did ask");
    let heard = heard.into_inner().unwrap();
    for e in &entries {
        assert_eq!(heard.get(&e.info.name), Some(&m.checks.len()));
    }
    assert_eq!(answers(&m), answers(&default), "the budget changes no answer");
}

#[test]
fn the_cache_answers_a_second_run_with_the_same_cells() {
    let suite = suite();
    let entries = references();
    let dir = std::env::temp_dir()
        .join(format!("rc-matrix-options-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = Cache::at(&dir);
    let filter = two_cases(&suite);
    let options = || Options {
        filter: &filter,
        cache: Some(&cache),
        ..Options::new(&suite, &entries, "rfc9309")
    };
    let first = matrix::run(&options());
    let second = matrix::run(&options());
    let _ = std::fs::remove_dir_all(&dir);
    let n = first.checks.len();
    for (a, b) in first.adapters.iter().zip(&second.adapters) {
        assert_eq!((a.cost.asked, a.cost.cached), (n, 0), "{}", a.info.name);
        assert_eq!((b.cost.asked, b.cost.cached), (0, n), "{}", b.info.name);
        assert_eq!(a.counts, b.counts, "{}", a.info.name);
    }
    assert_eq!(answers(&first), answers(&second));
    let explained = |m: &Matrix| -> Vec<_> {
        m.checks.iter().map(|r| r.oracle.clone()).collect()
    };
    assert_eq!(explained(&first), explained(&second), "from the cache too");
}
