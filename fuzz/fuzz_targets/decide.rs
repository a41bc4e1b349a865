//! `decide`: structured input (a `robots_gen::Check`: a body built from
//! groups, user-agent lines, rules and other records, a crawler token and
//! URLs derived from the rules). Under both built-in profiles, every
//! decision must satisfy the oracle's own invariants:
//!
//! - every candidate is a rule of an obeyed group, in file order, whose
//!   value is found on its line of the body; the winner is a candidate;
//! - the verdict agrees with the winner's kind and with the reason
//!   (no-group, no-matching-rule, robots-txt-path, longest-match,
//!   tie-goes-to-allow; first-match never occurs under these profiles);
//! - `/robots.txt` is allowed under rfc9309 (R2.2.2-10);
//! - deciding twice, or parsing twice, gives the same decision;
//! - permuting the rule lines inside each group (reversed, or rotated by
//!   one, chosen by the input) never changes a verdict (longest match is
//!   order-free, R2.2.2-5, R2.2.2-8).
//!
//! - under `aipref` too, and `usage` (draft-ietf-aipref-attach-05 §3.1)
//!   agrees with `decide` on whether the URL may be crawled: a URL that
//!   may not be crawled has no preference, one that may has one per
//!   category, and every deciding Content-Usage line is a candidate.
//!
//! Bodies over `MAX_BODY` are rejected (see `src/lib.rs`).

#![no_main]

use std::collections::HashMap;

use libfuzzer_sys::{Corpus, fuzz_target};
use robots_conformance_fuzz::{Input, MAX_BODY, lines};
use robots_oracle::{
    Decision, Precedence, Profile, Reason, RobotsTxt, RuleKind, Verdict,
};

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle)
}

fn verdict_of(kind: RuleKind) -> Verdict {
    match kind {
        RuleKind::Allow => Verdict::Allowed,
        RuleKind::Disallow => Verdict::Disallowed,
    }
}

/// The invariants of one decision.
fn check_decision(
    robots: &RobotsTxt,
    body: &[u8],
    lines: &[std::ops::Range<usize>],
    d: &Decision,
) {
    let p = robots.profile();
    // Candidates: rules of the obeyed groups, in file order, on real lines.
    let obeyed: HashMap<u32, _> = robots
        .groups()
        .iter()
        .filter(|g| d.groups.contains(&g.line()))
        .flat_map(|g| &g.rules)
        .map(|r| (r.line, r))
        .collect();
    assert!(d.candidates.is_sorted_by_key(|c| c.line), "{d:#?}");
    for c in &d.candidates {
        let rule = obeyed
            .get(&c.line)
            .unwrap_or_else(|| panic!("candidate {c:?} is no obeyed rule"));
        assert_eq!(rule.kind, c.kind);
        assert_eq!(String::from_utf8_lossy(&rule.value), c.pattern);
        let range = lines
            .get(c.line as usize - 1)
            .unwrap_or_else(|| panic!("line {} is not in the body", c.line));
        assert!(
            contains(&body[range.clone()], &rule.value),
            "line {} does not hold {:?}",
            c.line,
            c.pattern
        );
    }
    if let Some(w) = &d.winner {
        assert!(d.candidates.contains(w), "winner not a candidate: {d:#?}");
    }
    // The verdict follows from the reason and the winner.
    let best = d.candidates.iter().map(|c| c.priority).max();
    let top = |k| {
        d.candidates.iter().any(|c| c.kind == k && Some(c.priority) == best)
    };
    match d.reason {
        Reason::NoGroup => {
            assert!(d.groups.is_empty() && d.candidates.is_empty());
            assert!(d.winner.is_none() && d.verdict == Verdict::Allowed);
        }
        Reason::NoMatchingRule => {
            assert!(!d.groups.is_empty() && d.candidates.is_empty());
            assert!(d.winner.is_none() && d.verdict == Verdict::Allowed);
        }
        Reason::RobotsTxtPath => {
            assert!(p.implicit_robots_txt_allow, "{d:#?}");
            assert_eq!(d.target, "/robots.txt");
            assert!(d.winner.is_none() && d.verdict == Verdict::Allowed);
        }
        Reason::LongestMatch => {
            assert_eq!(p.precedence, Precedence::LongestMatch);
            let w = d.winner.as_ref().expect("longest match has a winner");
            assert_eq!(d.verdict, verdict_of(w.kind), "{d:#?}");
            assert_eq!(Some(w.priority), best, "{d:#?}");
            let other = match w.kind {
                RuleKind::Allow => RuleKind::Disallow,
                RuleKind::Disallow => RuleKind::Allow,
            };
            assert!(!top(other), "a tie reported as longest match: {d:#?}");
        }
        Reason::TieGoesToAllow => {
            assert_eq!(p.precedence, Precedence::LongestMatch);
            let w = d.winner.as_ref().expect("a tie has a winner");
            assert!(top(RuleKind::Allow) && top(RuleKind::Disallow), "{d:#?}");
            assert_eq!(Some(w.priority), best);
            let expected = if p.tie_goes_to_allow {
                RuleKind::Allow
            } else {
                RuleKind::Disallow
            };
            assert_eq!(w.kind, expected);
            assert_eq!(d.verdict, verdict_of(expected));
        }
        Reason::FirstMatch => {
            panic!("first-match under profile {}: {d:#?}", p.name)
        }
    }
}

/// The body with the rule lines of each group permuted by `perm` (which
/// reorders a list of line numbers); line ends and every other line stay.
fn reordered(
    robots: &RobotsTxt,
    body: &[u8],
    lines: &[std::ops::Range<usize>],
    perm: fn(&mut Vec<u32>),
) -> Vec<u8> {
    // Which line's content goes where.
    let mut source: Vec<usize> = (0..lines.len()).collect();
    for g in robots.groups() {
        let from: Vec<u32> = g.rules.iter().map(|r| r.line).collect();
        let mut to = from.clone();
        perm(&mut to);
        for (dst, src) in from.iter().zip(&to) {
            source[*dst as usize - 1] = *src as usize - 1;
        }
    }
    let mut out = Vec::with_capacity(body.len());
    let mut at = 0;
    for (i, range) in lines.iter().enumerate() {
        out.extend_from_slice(&body[at..range.start]); // the previous NL
        out.extend_from_slice(&body[lines[source[i]].clone()]);
        at = range.end;
    }
    out.extend_from_slice(&body[at..]);
    out
}

fuzz_target!(|input: Input| -> Corpus {
    let check = input.0;
    if check.robots.len() > MAX_BODY {
        return Corpus::Reject;
    }
    let body = &check.robots[..];
    let lines = lines(body);
    // One permutation per input, chosen by the input, to halve the cost.
    let perm: fn(&mut Vec<u32>) = if body.len().is_multiple_of(2) {
        |v| v.reverse()
    } else {
        |v| {
            let n = v.len().min(1);
            v.rotate_left(n)
        }
    };
    for profile in [Profile::rfc9309(), Profile::google(), Profile::aipref()] {
        let robots = RobotsTxt::parse(body, &profile);
        let mut verdicts = Vec::new();
        for (i, url) in check.urls.iter().enumerate() {
            let Ok(d) = robots.decide(&check.agent, url) else {
                verdicts.push(None);
                continue;
            };
            check_decision(&robots, body, &lines, &d);
            let u = robots.usage(&check.agent, url).expect("decide took it");
            assert_eq!(u.crawl, d, "usage decides crawling as decide does");
            assert_eq!(u.preferences.is_some(), d.is_allowed(), "{u:#?}");
            for line in &u.deciding {
                assert!(u.candidates.iter().any(|c| c.line == *line), "{u:#?}");
            }
            if i == 0 {
                // Determinism: decide again, and on a second parse.
                let again = RobotsTxt::parse(body, &profile);
                assert_eq!(robots.decide(&check.agent, url).as_ref(), Ok(&d));
                assert_eq!(again.decide(&check.agent, url).as_ref(), Ok(&d));
            }
            verdicts.push(Some(d.verdict));
        }
        if profile.implicit_robots_txt_allow {
            for url in ["/robots.txt", "https://example.com/robots.txt"] {
                let d = robots.decide(&check.agent, url).unwrap();
                assert_eq!(d.verdict, Verdict::Allowed, "{url}");
                assert_eq!(d.reason, Reason::RobotsTxtPath, "{url}");
            }
        }
        // Rule order. Past the parse limit a moved line could cross it.
        if body.len() + 8 >= profile.parse_limit {
            continue;
        }
        let body2 = reordered(&robots, body, &lines, perm);
        assert_eq!(body2.len(), body.len());
        let robots2 = RobotsTxt::parse(&body2, &profile);
        for (url, before) in check.urls.iter().zip(&verdicts) {
            let after =
                robots2.decide(&check.agent, url).ok().map(|d| d.verdict);
            assert_eq!(
                *before,
                after,
                "profile {}: reordering the rules changed the verdict for \
                 {url}\nbefore:\n{}\nafter:\n{}",
                profile.name,
                body.escape_ascii(),
                body2.escape_ascii()
            );
        }
    }
    Corpus::Keep
});
