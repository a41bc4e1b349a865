//! The fetch cases (`spec-cases/fetch/`) against parsers that fetch
//! robots.txt by themselves, through the loopback fixture server: Python's
//! `urllib.robotparser` (`set_url` + `read()`, over the process protocol;
//! needs only `python3`) and the Rust crate robotparser (its reqwest
//! fetch, in process).
//!
//! Each test asserts what the run shows: the fixture really served the
//! requests, every verdict check got an answer or an honest
//! not-applicable, and the known departures from RFC 9309 show up as
//! failures with the clause quoted (urllib: 401/403 → "disallow all").

use std::collections::BTreeMap;
use std::net::TcpStream;
use std::sync::Arc;

use robots_adapters::process::Limits;
use robots_adapters::registry::{self, Host, Status};
use robots_adapters::scenario::{Answer, Route, Scenario};
use robots_adapters::{Adapter, Reply, Request};
use robots_fixture::Fixture;
use robots_runner::render::failure;
use robots_runner::run::{CheckResult, Outcome, run_cases};
use robots_runner::suite::{Suite, default_root};

fn fetch_suite() -> Suite {
    let root = default_root();
    let fetch = root.join("fetch");
    let suite = Suite::load_only(&root, |f| f.starts_with(&fetch));
    assert!(suite.errors.is_empty(), "{:?}", suite.errors);
    assert!(suite.cases.len() > 40, "fetch cases not found");
    suite
}

/// Runs every verdict check of the fetch cases through `adapter`, judged
/// under `profile`.
fn run_all(
    suite: &Suite,
    adapter: &mut dyn Adapter,
    profile: &str,
) -> BTreeMap<String, CheckResult> {
    let selected =
        suite.cases.iter().filter(|c| c.ignore.is_none()).map(|c| {
            let checks = c
                .checks
                .iter()
                .filter(|k| matches!(k.request, Request::Fetch { .. }))
                .collect::<Vec<_>>();
            (c, checks)
        });
    run_cases(adapter, profile, selected)
        .into_iter()
        .map(|r| (r.check.clone(), r))
        .collect()
}

fn outcome(results: &BTreeMap<String, CheckResult>, name: &str) -> Outcome {
    results.get(name).unwrap_or_else(|| panic!("no result for {name}")).outcome
}

fn summary(results: &BTreeMap<String, CheckResult>) -> String {
    results
        .values()
        .filter(|r| r.outcome != Outcome::Pass)
        .map(|r| {
            format!("  {:<16} {} {}\n", r.outcome.word(), r.check, r.detail)
        })
        .collect()
}

fn urllib() -> Option<Box<dyn Adapter>> {
    let entry = registry::find("python-urllib").expect("python-urllib listed");
    if registry::status(&entry) != Status::Ready {
        eprintln!("python-urllib unavailable (python3 missing): skipped");
        return None;
    }
    assert!(entry.info.capabilities.fetch, "the manifest says fetch = true");
    Some(registry::open(&entry, Limits::default(), &Host::Thread))
}

#[test]
fn fetch_fixture_urllib_reads_from_the_fixture() {
    let Some(mut adapter) = urllib() else { return };
    let mut scenario = Scenario::single(Answer::redirect(
        301,
        "http://other.example/robots.txt",
    ));
    scenario.routes.push(Route {
        url: "http://other.example/robots.txt".into(),
        answer: Answer::ok(b"User-agent: *\nDisallow: /private\n"),
    });
    let fixture = Fixture::start(&scenario).expect("fixture starts");
    let addresses = fixture.addresses();
    assert!(addresses.iter().all(|(_, a)| a.ip().is_loopback()));
    let scenario = Arc::new(scenario);
    let ask = |url: &str| Request::Fetch {
        scenario: scenario.clone(),
        agent: "FooBot".into(),
        url: url.into(),
        live: Some(fixture.live(url)),
    };
    let replies = adapter.answer_batch(&[ask("/private/x"), ask("/public")]);
    let words: Vec<&str> = replies.iter().map(Reply::word).collect();
    assert_eq!(words, ["disallowed", "allowed"], "{replies:?}");
    // One fetch for both URLs, following the cross-host redirect.
    let hits = fixture.hits();
    let urls: Vec<&str> = hits.iter().map(|h| h.url.as_str()).collect();
    assert_eq!(
        urls,
        ["http://example.com/robots.txt", "http://other.example/robots.txt"]
    );
    assert!(
        hits[0]
            .user_agent
            .as_deref()
            .unwrap_or("")
            .starts_with("Python-urllib"),
        "{hits:?}"
    );
    fixture.stop();
    for (_, a) in addresses {
        assert!(TcpStream::connect(a).is_err(), "{a} is still listening");
    }
}

#[test]
fn fetch_fixture_urllib_against_the_rfc() {
    let Some(mut adapter) = urllib() else { return };
    let suite = fetch_suite();
    let results = run_all(&suite, adapter.as_mut(), "rfc9309");
    let table = summary(&results);
    eprintln!(
        "python-urllib, fetch checks not passed under rfc9309:\n{table}"
    );
    for r in results.values() {
        assert!(
            !matches!(
                r.outcome,
                Outcome::Crash | Outcome::Timeout | Outcome::ProtocolError
            ),
            "{} {}: {}",
            r.check,
            r.outcome.word(),
            r.detail
        );
    }
    // Followed as the RFC says.
    for name in [
        "fetch::status::ok-200-rules-followed::1",
        "fetch::status::unavailable-404::1",
        "fetch::status::unavailable-410::1",
        "fetch::status::unreachable-503::2",
        "fetch::status::too-many-requests-429::1",
        "fetch::redirects::redirect-301-followed::1",
        "fetch::redirects::five-hops-across-hosts::1",
        "fetch::redirects::cross-host-rules-apply-to-initial-authority::3",
        "fetch::content::rule-before-500-kib::1",
        "fetch::content::slow-answer-within-timeout::1",
        "fetch::location::uppercase-file-is-not-the-file::1",
    ] {
        assert_eq!(outcome(&results, name), Outcome::Pass, "{name}\n{table}");
    }
    // urllib.robotparser maps 401 and 403 to "disallow all": against the
    // RFC, which lets the crawler access any resource (R2.3.1.3-2).
    for name in [
        "fetch::status::unavailable-401::1",
        "fetch::status::unavailable-403::2",
    ] {
        assert_eq!(outcome(&results, name), Outcome::Fail, "{name}\n{table}");
    }
    let name = "fetch::status::unavailable-403::1";
    let r = &results[name];
    let (case, check) = suite
        .cases
        .iter()
        .find_map(|c| c.checks.iter().find(|k| k.name == name).map(|k| (c, k)))
        .expect("the check exists");
    let text = failure(
        &suite,
        case,
        check,
        "python-urllib",
        "rfc9309",
        &r.reply,
        &r.detail,
    );
    eprintln!("{text}");
    assert!(text.contains("want allowed, got disallowed"), "{text}");
    assert!(
        text.contains("R2.3.1.3-2: If a server status code indicates that the robots.txt file is unavailable to the crawler, then the crawler MAY access any resources on the server."),
        "{text}"
    );
    // Network errors are raised by read(), not decided.
    assert_eq!(
        outcome(&results, "fetch::status::network-dropped::1"),
        Outcome::Error,
        "{table}"
    );
    // Scenarios with crawler state are not served live.
    assert_eq!(
        outcome(&results, "fetch::caching::stale-copy-24h1s-refetched::1"),
        Outcome::NotApplicable
    );
    assert_eq!(
        outcome(&results, "fetch::status::network-dns::1"),
        Outcome::NotApplicable
    );
}

#[test]
fn fetch_fixture_rust_robotparser_against_the_rfc() {
    let Some(entry) = registry::find("rust-robotparser") else {
        eprintln!("rust-robotparser not built in: skipped");
        return;
    };
    let mut adapter = registry::open(&entry, Limits::default(), &Host::Thread);
    let suite = fetch_suite();
    let results = run_all(&suite, adapter.as_mut(), "rfc9309");
    let table = summary(&results);
    eprintln!(
        "rust-robotparser, fetch checks not passed under rfc9309:\n{table}"
    );
    assert_eq!(
        outcome(&results, "fetch::status::ok-200-rules-followed::1"),
        Outcome::Pass,
        "{table}"
    );
    assert_eq!(
        outcome(&results, "fetch::redirects::five-hops-across-hosts::1"),
        Outcome::Pass,
        "{table}"
    );
    // The crate answers "allow all" for any status but 200, 401 and 403:
    // a 503 must be a complete disallow (R2.3.1.4-1).
    assert_eq!(
        outcome(&results, "fetch::status::unreachable-503::1"),
        Outcome::Fail,
        "{table}"
    );
    assert_eq!(
        outcome(&results, "fetch::status::unavailable-401::1"),
        Outcome::Fail,
        "{table}"
    );
}

/// Every other ready adapter with `fetch = true`, for the record (not
/// asserted: they need `adapters setup`). Run with `--ignored --nocapture`.
#[test]
#[ignore = "needs the ext adapters installed (robots-conformance adapters setup)"]
fn fetch_fixture_every_fetching_adapter() {
    let suite = fetch_suite();
    for entry in registry::all() {
        if !entry.info.capabilities.fetch
            || registry::status(&entry) != Status::Ready
        {
            continue;
        }
        let mut adapter =
            registry::open(&entry, Limits::default(), &Host::Thread);
        let profile = entry.info.profile.clone();
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for check in ["rfc9309", "google"] {
            let results = run_all(&suite, adapter.as_mut(), check);
            let n = |o: Outcome| {
                results.values().filter(|r| r.outcome == o).count()
            };
            eprintln!(
                "{} (claims {profile}) under {check}: pass {} fail {} error {} timeout {} n/a {} unscored {}",
                entry.info.name,
                n(Outcome::Pass),
                n(Outcome::Fail),
                n(Outcome::Error),
                n(Outcome::Timeout),
                n(Outcome::NotApplicable),
                n(Outcome::Unscored)
            );
            if check == profile {
                eprint!(
                    "{}",
                    summary(&results)
                        .lines()
                        .filter(|l| !l.contains("not-applicable")
                            && !l.contains("unscored"))
                        .map(|l| format!("{}\n", &l[..l.len().min(170)]))
                        .collect::<String>()
                );
            }
            *counts.entry("runs").or_default() += 1;
        }
    }
}
