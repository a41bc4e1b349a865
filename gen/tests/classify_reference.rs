//! `classify` (which parses a body once per parse-relevant profile and
//! decides the rest on those parses, or in one pass) gives exactly the
//! classification of the plain reading: the body parsed afresh under
//! every toggled profile and decided in full (`RobotsTxt::decide`), on
//! generated checks under both built-in profiles.
//!
//! Also holds `Profile::parsing` to its promise on the same inputs: two
//! profiles with equal `parsing()` parse a body alike.

use robots_gen::{Classification, classify, from_seed};
use robots_oracle::{Profile, RobotsTxt, Switch, Verdict, switches};
use std::ops::Not as _;

/// The plain reading of `classify`: a full parse and decision per
/// profile, in the same order (singles, then pairs).
fn reference(
    body: &[u8],
    agent: &str,
    url: &str,
    base: &Profile,
    theirs: Verdict,
) -> Classification {
    let verdict = |p: &Profile| {
        RobotsTxt::parse(body, p).decide(agent, url).ok().map(|d| d.verdict)
    };
    let candidates: Vec<&'static Switch> =
        switches().iter().filter(|s| s.changes(base)).collect();
    for s in &candidates {
        if verdict(&s.applied_to(base)) == Some(theirs) {
            return Classification::Switches(vec![s]);
        }
    }
    for (i, a) in candidates.iter().enumerate() {
        let pa = a.applied_to(base);
        for b in &candidates[i + 1..] {
            if a.axis == b.axis
                && a.name.split('=').next() == b.name.split('=').next()
            {
                continue;
            }
            if verdict(&b.applied_to(&pa)) == Some(theirs) {
                return Classification::Switches(vec![a, b]);
            }
        }
    }
    Classification::Unexplained
}

/// Generated checks (seed 9309, as `diff` draws them), every URL, both
/// profiles, the verdict the base profile does not give (what a
/// disagreeing parser answers) and, on every fourth check, the one it
/// gives too.
#[test]
fn classify_equals_a_full_parse_per_profile() {
    let (mut compared, mut pairs, mut unexplained) = (0, 0, 0);
    for i in 0..300 {
        let c = from_seed(9309, i);
        if c.robots.len() > 64 * 1024 {
            continue; // the plain reading is slow on the huge bodies
        }
        for url in &c.urls {
            for base in [Profile::rfc9309(), Profile::google()] {
                let ours = RobotsTxt::parse(&c.robots, &base)
                    .decide(&c.agent, url)
                    .ok()
                    .map(|d| d.verdict);
                let mut asked =
                    vec![ours.map_or(Verdict::Allowed, Verdict::not)];
                if i % 4 == 0 {
                    asked.push(!asked[0]);
                }
                for theirs in asked {
                    let got =
                        classify(&c.robots, &c.agent, url, &base, theirs);
                    let want =
                        reference(&c.robots, &c.agent, url, &base, theirs);
                    assert_eq!(
                        got, want,
                        "check {i}, url {url:?}, base {}, theirs {theirs}",
                        base.name
                    );
                    compared += 1;
                    match &got {
                        Classification::Switches(s) if s.len() == 2 => {
                            pairs += 1
                        }
                        Classification::Unexplained => unexplained += 1,
                        _ => {}
                    }
                }
            }
        }
    }
    // The comparison reached every branch: singles, pairs, unexplained.
    assert!(compared > 500, "{compared} classifications compared");
    assert!(pairs > 0 && unexplained > 0, "{pairs} pairs, {unexplained} none");
}

/// A change to a body.
type Edit = fn(&[u8]) -> Vec<u8>;

/// Bases with a small parse limit and line cap, and bodies with and
/// without a BOM, CR, NUL or a long line: `classify` decides a switch
/// that cannot act on a body (a lexer field its octets never reach) by
/// the profile it settles like, and must still give the plain reading's
/// classification, on both sides of each limit.
#[test]
fn settled_switches_classify_as_the_plain_reading() {
    let mut bases = Vec::new();
    for mut base in [Profile::rfc9309(), Profile::google()] {
        bases.push(base.clone());
        base.parse_limit = 120;
        base.max_line_bytes = Some(24);
        bases.push(base);
    }
    let edits: [Edit; 5] = [
        |b| b.to_vec(),
        |b| [&b"\xEF\xBB\xBF"[..], b].concat(),
        |b| b.iter().map(|&c| if c == b'\n' { b'\r' } else { c }).collect(),
        |b| [b, &b"Disallow: /n\0x\n"[..]].concat(),
        |b| {
            [&b"Disallow: /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"[..], b]
                .concat()
        },
    ];
    let mut compared = 0;
    for i in 0..60 {
        let c = from_seed(4242, i);
        if c.robots.len() > 4 * 1024 {
            continue;
        }
        for edit in edits {
            let body = edit(&c.robots);
            for url in c.urls.iter().take(2) {
                for base in &bases {
                    let ours = RobotsTxt::parse(&body, base)
                        .decide(&c.agent, url)
                        .ok()
                        .map(|d| d.verdict);
                    let theirs = ours.map_or(Verdict::Allowed, Verdict::not);
                    let got = classify(&body, &c.agent, url, base, theirs);
                    let want = reference(&body, &c.agent, url, base, theirs);
                    assert_eq!(got, want, "check {i}, url {url:?}");
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 1000, "{compared} classifications compared");
}

#[test]
fn equal_parsing_views_parse_alike() {
    let decide_only: Vec<&Switch> = switches()
        .iter()
        .filter(|s| {
            let p = Profile::rfc9309();
            s.applied_to(&p).parsing() == p.parsing()
                && s.applied_to(&Profile::google()).parsing()
                    == Profile::google().parsing()
        })
        .collect();
    assert!(
        decide_only.len() >= 9,
        "{} decide-only switches",
        decide_only.len()
    );
    for i in 0..200 {
        let c = from_seed(9309, i);
        for base in [Profile::rfc9309(), Profile::google()] {
            let a = RobotsTxt::parse(&c.robots, &base);
            for s in &decide_only {
                let b = RobotsTxt::parse(&c.robots, &s.applied_to(&base));
                assert_eq!(a.groups(), b.groups(), "check {i}, {}", s.name);
                assert_eq!(a.records(), b.records(), "check {i}, {}", s.name);
                assert_eq!(a.diagnostics(), b.diagnostics(), "check {i}");
                assert!(a.sitemaps().eq(b.sitemaps()), "check {i}");
            }
        }
    }
}
