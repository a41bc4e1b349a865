//! The register of parser bugs (`bugs/<adapter>.toml`) holds: every entry
//! follows the format, its expected answers are the oracle's under each
//! profile it names, `bugs/index.md` is the one rendered from the files,
//! and every entry still reproduces on its adapter's pinned version
//! unless it records the release that fixed it (then it must not). An
//! adapter that is not set up here is skipped, saying so (in CI only the
//! adapters CI sets up are replayed).

mod common;

use std::collections::{BTreeMap, HashSet};

use common::{bin, scratch, text};
use robots_fingerprint::register::{self, Entry};
use robots_runner::matrix::selection;
use robots_runner::suite::{Filter, Suite};

/// Each adapter's status line from `adapters list`: ready or not, and
/// its version.
fn adapters() -> BTreeMap<String, (bool, String)> {
    let out = bin().args(["adapters", "list"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .skip(1)
        .filter_map(|l| {
            let name = l.split_whitespace().next()?.to_string();
            let ready = l.trim_end().ends_with(" ready");
            Some((name, (ready, l.to_string())))
        })
        .collect()
}

/// The first word `check` prints for `e` (with `--adapter`, or the
/// oracle under `--profile`).
fn answer(e: &Entry, with: &[&str], tag: &str) -> String {
    let dir = scratch(&format!("bug-register-{tag}"));
    let robots = dir.join("robots.txt");
    std::fs::write(&robots, e.robots.as_bytes()).unwrap();
    let out = bin()
        .arg("check")
        .args(with)
        .arg("--robots")
        .arg(&robots)
        .args(["--agent", &e.agent, &e.url])
        .args(e.status.map(|s| format!("--status={s}")))
        .args(
            e.content_encoding
                .as_ref()
                .map(|c| format!("--content-encoding={c}")),
        )
        .output()
        .unwrap();
    let said = text(&out.stdout);
    let err = text(&out.stderr);
    // A parser that panics or dies: `check` says so and exits 2.
    if out.status.code() == Some(2) && err.trim_end().ends_with(": crashed") {
        return "crashed".into();
    }
    assert_eq!(out.status.code(), Some(0), "{}: {said}{err}", e.id);
    said.split_whitespace().next().unwrap_or_default().to_string()
}

#[test]
fn the_register_is_well_formed_and_its_index_up_to_date() {
    let dir = register::default_dir();
    let files = register::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(!files.is_empty(), "no bugs/*.toml");
    let index = dir.join("index.md");
    let want = register::render_index(&files);
    if std::env::var_os("UPDATE_BUGS_INDEX").is_some() {
        std::fs::write(&index, &want).unwrap();
    }
    let have = std::fs::read_to_string(&index).unwrap_or_default();
    assert!(
        have == want,
        "bugs/index.md is out of date: run UPDATE_BUGS_INDEX=1 cargo test -p robots-conformance --test bug_register"
    );
}

#[test]
fn every_entry_names_checks_and_clauses_that_exist() {
    let files = register::load(&register::default_dir()).unwrap();
    let suite = Suite::load(&robots_runner::suite::default_root());
    assert!(suite.errors.is_empty(), "{:?}", suite.errors);
    let checks: HashSet<String> = selection(&suite, &Filter::default())
        .iter()
        .flat_map(|(_, checks)| checks.iter().map(|c| c.name.clone()))
        .collect();
    for (_, f) in &files {
        for e in &f.bug {
            for c in &e.cases {
                assert!(
                    checks.contains(c),
                    "{}: no check `{c}` in spec-cases",
                    e.id
                );
            }
            for c in &e.clauses {
                assert!(
                    suite.clauses.iter().any(|k| &k.id == c),
                    "{}: no clause `{c}` in spec-cases/clauses.toml",
                    e.id
                );
            }
        }
    }
}

#[test]
fn every_entry_expects_what_the_oracle_answers() {
    let files = register::load(&register::default_dir()).unwrap();
    for (_, f) in &files {
        for e in &f.bug {
            for (profile, expected) in &e.expected {
                let got = answer(e, &["--profile", profile], "oracle");
                assert_eq!(
                    got, expected.answer,
                    "{}: the oracle ({profile}) answers {got}, the entry expects {}",
                    e.id, expected.answer
                );
            }
        }
    }
}

#[test]
fn every_entry_reproduces_on_its_pinned_version_unless_fixed() {
    let files = register::load(&register::default_dir()).unwrap();
    let known = adapters();
    let mut replayed = 0;
    for (_, f) in &files {
        let Some((ready, line)) = known.get(&f.adapter) else {
            panic!("bugs/{}.toml: no adapter of that name", f.adapter);
        };
        if !*ready {
            eprintln!(
                "skipped bugs/{}.toml ({} entries): the adapter is not ready here: {}",
                f.adapter,
                f.bug.len(),
                line.split("unavailable:").nth(1).unwrap_or(line).trim()
            );
            continue;
        }
        for e in &f.bug {
            let got = answer(e, &["--adapter", &f.adapter], "adapter");
            match &e.fixed_in {
                None => assert_eq!(
                    got, e.actual,
                    "{}: no longer reproduces on the pinned version ({}): it answers \
                     {got}; if a release fixed it, record `fixed_in`",
                    e.id, line
                ),
                Some(v) => assert_ne!(
                    got, e.actual,
                    "{}: recorded as fixed in {v}, but the pinned version still answers {got}",
                    e.id
                ),
            }
            replayed += 1;
        }
    }
    eprintln!("replayed {replayed} entries");
}
