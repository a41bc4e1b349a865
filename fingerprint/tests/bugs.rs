//! `bugs` end to end on a synthetic parser: the oracle with one
//! deliberate bug no reading explains (rule patterns are matched
//! case-insensitively) must come back as bug reports that reproduce it,
//! minimised, with the clause quoted and the case named.

use std::path::Path;

use robots_adapters::reference::Reference;
use robots_adapters::{Adapter, Info, Reply, Request};
use robots_fingerprint::bugs::{About, find_bugs, write_bugs};
use robots_fingerprint::{Answers, fingerprint};
use robots_oracle::Profile;
use robots_runner::matrix::selection;
use robots_runner::suite::{Filter, Suite};

/// The RFC oracle, except that it lower-cases the URL's path and every
/// rule before matching: `Disallow: /Foo` disallows `/foo`, and
/// `Disallow: /foo` disallows `/FOO`.
struct CaseBlind(Reference);

impl Adapter for CaseBlind {
    fn info(&self) -> Info {
        Info { name: "case-blind".into(), ..self.0.info() }
    }

    fn answer(&mut self, request: &Request) -> Reply {
        match request {
            Request::Decide { robots, agent, url } => {
                let lower: Vec<u8> = robots.to_ascii_lowercase();
                self.0.answer(&Request::Decide {
                    robots: lower.into(),
                    agent: agent.clone(),
                    url: url.to_ascii_lowercase(),
                })
            }
            other => self.0.answer(other),
        }
    }
}

#[test]
fn a_deliberate_bug_is_reported_minimised_with_its_clause_and_case() {
    let suite = Suite::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases"),
    );
    assert!(suite.errors.is_empty(), "{:?}", suite.errors);
    let filter = Filter {
        include: vec!["syntax::".into(), "precedence::".into()],
        ..Filter::default()
    };
    let sel = selection(&suite, &filter);
    let mut parser = CaseBlind(Reference::new(Profile::rfc9309()));
    let answers = Answers::collect(&mut parser, &sel);
    let fit = fingerprint(&answers, &sel);
    assert!(!fit.residual.is_empty(), "the bug must show: {}", fit.line());
    let bugs = find_bugs(&mut parser, &answers, &sel, &fit, &suite.clauses);
    assert!(!bugs.is_empty());
    let total: usize = bugs.iter().map(|b| b.checks.len()).sum();
    assert_eq!(total, fit.residual.len(), "every residual check is in a bug");
    for b in &bugs {
        assert_eq!(b.op, "decide");
        assert_ne!(b.actual, b.fitted);
        // The minimised input still shows the bug: the synthetic parser
        // and the RFC oracle still disagree on it.
        let req = Request::Decide {
            robots: b.robots.clone().into(),
            agent: b.agent.clone(),
            url: b.url.clone(),
        };
        let ours = Reference::new(Profile::rfc9309()).answer(&req);
        let theirs = parser.answer(&req);
        assert!(!robots_fingerprint::agree(&ours, &theirs), "{b:?}");
        assert!(b.minimised);
        assert!(suite.cases.iter().any(|c| c.name == b.case), "{}", b.case);
        assert!(!b.clauses.is_empty(), "{}", b.case);
    }
    // A case-blind match is at its smallest a rule and a URL that differ
    // in case only: the minimised body is at most a few short lines.
    assert!(bugs.iter().any(|b| b.robots.len() < 60), "{:?}", bugs[0]);

    let dir =
        std::env::temp_dir().join(format!("rc-bugs-{}", std::process::id()));
    let about = About {
        adapter: "case-blind".into(),
        language: "rust".into(),
        version: "synthetic 1".into(),
    };
    let files = write_bugs(&dir, &about, &fit, &bugs).unwrap();
    assert_eq!(files.len(), bugs.len() + 2);
    let index = std::fs::read_to_string(dir.join("index.md")).unwrap();
    assert!(index.contains("bug-001.md"), "{index}");
    assert!(index.contains(&format!("{} distinct classes", bugs.len())));
    let first = std::fs::read_to_string(dir.join("bug-001.md")).unwrap();
    for part in [
        "synthetic 1",
        "## Reproduce",
        "## Expected vs actual",
        "## What the specification says",
        "> ",
        &bugs[0].case,
        "claimed profile `rfc9309`",
    ] {
        assert!(first.contains(part), "{part:?} missing from\n{first}");
    }
    // A second run with fewer bugs leaves no stale report behind.
    write_bugs(&dir, &about, &fit, &bugs[..1]).unwrap();
    assert!(!dir.join("bug-002.md").exists() || bugs.len() == 1);
    std::fs::remove_dir_all(&dir).unwrap();
}
