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
//! rejects, and the Google port on bodies with a line of more than
//! `MAX_STARS` `*` (see there).
//!
//! `ROBOTS_FUZZ_HUNT=name,name` replaces the Google-compatible list (e.g.
//! to hunt in `rust-robotparser` against its claimed profile); an empty
//! value hunts nothing (the target then only checks for hangs and crashes
//! of the harness side).

#![no_main]

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use robots_adapters::isolate::Parser;
use robots_adapters::rust::{
    robotparser::Robotparser, robots_txt::RobotsTxt as RobotsTxtCrate,
    robotstxt::Robotstxt, robotstxt_rs::RobotstxtRs, robotxt::Robotxt,
    texting_robots::TextingRobots,
};
use robots_adapters::{Reply, Request, Verdict as AdapterVerdict};
use robots_conformance_fuzz::Input;
use robots_gen::{Explanation, classify};
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

/// The name of the port the `*` guard applies to.
const GOOGLE_PORT: &str = "rust-robotstxt";

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
    match reply {
        Ok(Reply::Verdict { verdict: AdapterVerdict::Allowed, .. }) => {
            Some(Verdict::Allowed)
        }
        Ok(Reply::Verdict { verdict: AdapterVerdict::Disallowed, .. }) => {
            Some(Verdict::Disallowed)
        }
        _ => None,
    }
}

fn max_stars_on_a_line(body: &[u8]) -> usize {
    body.split(|&b| b == b'\n' || b == b'\r')
        .map(|l| l.iter().filter(|&&b| b == b'*').count())
        .max()
        .unwrap_or(0)
}

fn parsers() -> Vec<Box<dyn Parser>> {
    vec![
        Box::new(Robotstxt),
        Box::new(TextingRobots),
        Box::new(Robotparser),
        Box::new(Robotxt),
        Box::new(RobotsTxtCrate),
        Box::new(RobotstxtRs),
    ]
}

fuzz_target!(|input: Input| {
    let check = input.0;
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
        let hunt = hunted().iter().any(|h| *h == info.name);
        for url in &check.urls {
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
            if why == Explanation::Unexplained {
                panic!(
                    "unexplained disagreement\n  adapter: {} ({}), claims \
                     profile {}\n  agent: {:?}\n  url: {:?}\n  oracle \
                     ({}): {} ({})\n  adapter: {}\n  body (escaped): \
                     b\"{}\"\n  oracle explanation:\n{}",
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
            }
        }
    }
});
