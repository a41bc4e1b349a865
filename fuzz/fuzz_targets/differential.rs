//! `differential`: structured input (a `robots_gen::Check`). Every URL of
//! the check is decided by the oracle and by each in-process Rust adapter
//! (the `robots_adapters::isolate::Parser` impls, called directly). Where
//! an adapter's verdict differs from the oracle's under the profile the
//! adapter claims (`Parser::info().profile`), `robots_gen::classify`
//! toggles the oracle's switches; the target panics only when **no switch
//! or pair explains** the disagreement **and** the adapter is declared
//! Google-compatible (the list below). Everything the switches explain is
//! a known axis and the `diff` command's business, not a crash: the
//! fuzzer hunts genuinely new behaviour.
//!
//! Skipped, by design: answers that are not a verdict (not-applicable,
//! errors, panics of a third-party crate: `robots_txt` 0.7.0 panics on
//! multibyte paths, a known bug), requests the adapter's capabilities
//! refuse (raw non-ASCII URLs for the Google port), URLs the oracle
//! rejects, URLs starting with `//` (see `network_path`), and the Google
//! port on bodies with a line of more than `MAX_STARS` `*` or on URLs
//! longer than `PORT_MAX_URL` (see there).
//!
//! Adapter deviations already found and understood are listed in
//! `robots_conformance_fuzz::KNOWN`, `KNOWN_MATCHERS` and
//! `KNOWN_READINGS` and skipped (each is recognised by its mechanism,
//! see `known_deviation`); fuzz/README.md, "Findings", lists them.
//!
//! `ROBOTS_FUZZ_HUNT=name,name` replaces the Google-compatible list (e.g.
//! to hunt in `rust-robotparser` against its claimed profile); an empty
//! value hunts nothing (the target then only checks for hangs and crashes
//! of the harness side).

#![no_main]

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, OnceLock};

use libfuzzer_sys::{Corpus, fuzz_target};
use robots_adapters::isolate::Parser;
use robots_adapters::rust::{
    robotparser::Robotparser, robots_txt::RobotsTxt as RobotsTxtCrate,
    robotstxt::Robotstxt, robotstxt_rs::RobotstxtRs, robotxt::Robotxt,
    texting_robots::TextingRobots,
};
use robots_adapters::{Reply, Request};
use robots_conformance_fuzz::{Input, MAX_BODY, known_deviation};
use robots_gen::{Classification, classify};
use robots_oracle::{Profile, RobotsTxt, Verdict};

/// The adapters declared Google-compatible: an unexplained disagreement
/// with the oracle's `google` profile is a crash.
///
/// - `rust-robotstxt`: the Rust port of Google's C++ parser; by
///   construction it should behave as the google profile describes.
/// - `rust-texting_robots`: claims `google` and agreed with the expected
///   answers on all 15 scored probe cases (adapters-probe.md §2).
///
/// Not listed although it claims `google`: `rust-robotparser`. It is a
/// port of Python's `urllib.robotparser` with extensions, and the probe
/// shows two deviations no profile switch models (it falls back to the
/// `*` group when the crawler's own group has no matching rule, case 5c;
/// it reads CR-only files as one line, case 10). Both are reached within
/// seconds, so listing it would make the target crash on known behaviour
/// instead of hunting new behaviour; `diff` reports it. The `rfc9309`
/// crates are not Google-compatible by their own claim.
const GOOGLE_COMPATIBLE: &[&str] = &["rust-robotstxt", "rust-texting_robots"];

/// The Google port's matcher (`robotstxt` 0.3.0, `matches`) keeps its
/// position list with `Vec::insert` instead of assignment, so every `*`
/// grows it by the path length and each step shifts it: the cost climbs
/// steeply with the number of `*` in a pattern (the adapters probe's H2
/// input hangs; the adapter runs it under a deadline, which this target,
/// calling the parser directly, does not have). Bodies with a line of
/// more than this many `*` are not given to the port; the other parsers
/// still decide them.
const MAX_STARS: usize = 8;

/// The port's matcher is also quadratic in the URL (`path.chars().nth(i)`
/// for every position, plus the `Vec::insert` shifts): a 16,700-byte URL
/// (the generator's long-line checks) takes it around a second per rule
/// under instrumentation. Longer URLs are not given to the port.
const PORT_MAX_URL: usize = 4096;

/// The name of the port the guards apply to.
const GOOGLE_PORT: &str = "rust-robotstxt";

/// A URL starting with `//` is a network-path reference (RFC 3986 §4.2):
/// the oracle reads `//x/y` as authority `x`, path `/y`, while the
/// adapters' helpers (`robots_adapters::rust::absolute`,
/// `path_and_query`) read it as the path `//x/y`. The generator makes
/// such URLs from patterns like `/*` filled with `/`; they measure that
/// harness inconsistency, not the parsers, so they are skipped.
fn network_path(url: &str) -> bool {
    url.starts_with("//")
}

fn hunted() -> &'static [String] {
    static HUNTED: OnceLock<Vec<String>> = OnceLock::new();
    HUNTED.get_or_init(|| match std::env::var("ROBOTS_FUZZ_HUNT") {
        Ok(list) => list
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect(),
        Err(_) => GOOGLE_COMPATIBLE.iter().map(|s| s.to_string()).collect(),
    })
}

thread_local! {
    static IN_ADAPTER: Cell<bool> = const { Cell::new(false) };
}

/// libFuzzer's panic hook aborts the process on any panic. Panics inside
/// a third-party parser are skipped answers here, so they must unwind:
/// this hook stays silent while an adapter runs and defers to the
/// previous (aborting) hook otherwise.
fn install_panic_hook() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_ADAPTER.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

/// The adapter's verdict, or `None` for any other answer (or a panic).
fn ask(parser: &mut dyn Parser, request: &Request) -> Option<Verdict> {
    IN_ADAPTER.with(|f| f.set(true));
    let reply = catch_unwind(AssertUnwindSafe(|| parser.answer(request)));
    IN_ADAPTER.with(|f| f.set(false));
    // One `Verdict` type: the adapters re-export the oracle's.
    match reply {
        Ok(Reply::Verdict { verdict, .. }) => Some(verdict),
        _ => None,
    }
}

fn max_stars_on_a_line(body: &[u8]) -> usize {
    body.split(|&b| b == b'\n' || b == b'\r')
        .map(|l| l.iter().filter(|&&b| b == b'*').count())
        .max()
        .unwrap_or(0)
}

/// `ROBOTS_FUZZ_REPORT=1`: print unexplained disagreements (one line
/// each, prefixed `UNEXPLAINED`) and known ones (`known`) to stderr instead
/// of panicking, to survey what a run finds.
fn report_only() -> bool {
    static REPORT: OnceLock<bool> = OnceLock::new();
    *REPORT.get_or_init(|| {
        std::env::var("ROBOTS_FUZZ_REPORT")
            .is_ok_and(|v| !v.is_empty() && v != "0")
    })
}

fn parsers() -> Vec<Box<dyn Parser>> {
    vec![
        Box::new(Robotstxt),
        Box::new(TextingRobots::default()),
        Box::new(Robotparser),
        Box::new(Robotxt::default()),
        Box::new(RobotsTxtCrate),
        Box::new(RobotstxtRs::default()),
    ]
}

fuzz_target!(|input: Input| -> Corpus {
    let check = input.0;
    if check.robots.len() > MAX_BODY {
        return Corpus::Reject;
    }
    install_panic_hook();
    let body: Arc<[u8]> = check.robots.clone().into();
    let many_stars = max_stars_on_a_line(&body) > MAX_STARS;
    let oracles: Vec<(Profile, RobotsTxt)> = Profile::NAMES
        .iter()
        .filter_map(|n| Profile::by_name(n))
        .map(|p| {
            let r = RobotsTxt::parse(&body, &p);
            (p, r)
        })
        .collect();
    for mut parser in parsers() {
        let info = parser.info();
        if many_stars && info.name == GOOGLE_PORT {
            continue;
        }
        let Some((profile, oracle)) =
            oracles.iter().find(|(p, _)| p.name == info.profile)
        else {
            continue;
        };
        let hunt = hunted().contains(&info.name);
        for url in &check.urls {
            if network_path(url)
                || (info.name == GOOGLE_PORT && url.len() > PORT_MAX_URL)
            {
                continue;
            }
            let request = Request::Decide {
                robots: body.clone(),
                agent: check.agent.clone(),
                url: url.clone(),
            };
            if info.capabilities.admits(&request).is_err() {
                continue;
            }
            let Ok(ours) = oracle.decide(&check.agent, url) else {
                continue;
            };
            let Some(theirs) = ask(&mut *parser, &request) else {
                continue;
            };
            if theirs == ours.verdict || !hunt {
                continue;
            }
            let why = classify(&body, &check.agent, url, profile, theirs);
            if why != Classification::Unexplained {
                continue;
            }
            if let Some(known) = known_deviation(
                &info.name,
                &body,
                &check.agent,
                url,
                profile,
                theirs,
            ) {
                if report_only() {
                    eprintln!("known {}: {}", info.name, known);
                }
                continue;
            }
            let message = format!(
                "unexplained disagreement\n  adapter: {} ({}), claims \
                 profile {}\n  agent: {:?}\n  url: {:?}\n  oracle ({}): {} \
                 ({})\n  adapter: {}\n  body (escaped): b\"{}\"\n  oracle \
                 explanation:\n{}",
                info.name,
                info.version,
                info.profile,
                check.agent,
                url,
                profile.name,
                ours.verdict,
                ours.reason.as_str(),
                theirs,
                body.escape_ascii(),
                ours
            );
            if report_only() {
                eprintln!("UNEXPLAINED {}", message.replace('\n', " | "));
            } else {
                panic!("{message}");
            }
        }
    }
    Corpus::Keep
});
