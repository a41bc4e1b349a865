//! Known deviations of a parser's *matcher*: which rules it finds
//! matching depends on the URL, so, unlike [`crate::Known`], the body
//! cannot be rewritten once for every check. For one check, the oracle's
//! decision lists the rules that match ([`Decision::candidates`]); those
//! the parser's matcher misses are replaced by an empty `Disallow:`
//! (which matches nothing and keeps the group), and the oracle must then
//! give the parser's verdict.
//!
//! Each matcher here is a model of a mechanism, written from its
//! observed behaviour and described in `what`; it is never a copy of the
//! parser's code. Cost: one parse and one decision, then one run of the
//! model per matching rule (linear for the port's first-occurrence
//! matcher; at most pattern × target octets for texting_robots' glob).

use robots_oracle::{Profile, RobotsTxt, RuleMatch};

use crate::replace_lines;

/// A parser whose matcher misses some matches.
pub struct KnownMatcher {
    /// The adapter (`Info::name`).
    pub adapter: &'static str,
    /// A short name.
    pub name: &'static str,
    /// What the parser does, with where in its source.
    pub what: &'static str,
    /// Whether the parser finds `rule` (one the oracle finds) in
    /// `target` (the normalised path and query).
    pub matches: fn(rule: &RuleMatch, target: &[u8]) -> bool,
}

/// The known matcher deviations (fuzz/README.md, "Findings").
pub const KNOWN_MATCHERS: &[KnownMatcher] = &[
    KnownMatcher {
        adapter: "rust-robotstxt",
        name: "star-takes-first-occurrence",
        what: "after a `*`, only the first position where the next octet \
           occurs is tried (robotstxt 0.3.0 `matcher.rs` `matches`: the \
           position list is updated with `Vec::insert`, which shifts the \
           entry being read, so it is read again); `Allow: *ab` misses \
           `/aab`. Case findings::wildcards::\
           star-before-a-byte-the-path-repeats-still-matches",
        matches: |rule, target| {
            first_occurrence_match(rule.normalized.as_bytes(), target)
        },
    },
    KnownMatcher {
        adapter: "rust-texting_robots",
        name: "escape-case-kept",
        what: "a rule's `%xx` escapes keep the case of their hex digits and \
               are compared octet by octet with the URL's, so \
               `Disallow: /%e3x` misses `/%E3x` (texting_robots 0.2.2 \
               `percent_encode` leaves existing escapes as written; Google \
               upper-cases them, GRT-11). Case findings::fit-residuals::\
               lowercase-hex-in-rule-matches-uppercase-url",
        matches: crate::escapes::kept_case_matches,
    },
];

/// A `*` pattern matched without backtracking: the set of positions is
/// a range `lo..=hi` (after a `*`, every position from the smallest on;
/// after an octet, the one position after its first occurrence in the
/// range). A final `$` asks that the largest position be the end.
pub fn first_occurrence_match(pattern: &[u8], target: &[u8]) -> bool {
    let (mut lo, mut hi) = (0usize, 0usize);
    for (i, &c) in pattern.iter().enumerate() {
        if c == b'$' && i + 1 == pattern.len() {
            return hi == target.len();
        }
        if c == b'*' {
            hi = target.len();
            continue;
        }
        let end = hi.min(target.len().saturating_sub(1));
        let found = target
            .get(lo..=end)
            .filter(|_| lo < target.len())
            .and_then(|w| w.iter().position(|&b| b == c));
        match found {
            Some(q) => {
                lo += q + 1;
                hi = lo;
            }
            None => return false,
        }
    }
    true
}

/// `body` with the rules `m` misses for `url` replaced by `Disallow:`;
/// `None` when it misses none. Those are the rules that match `url` for
/// `agent` (under `profile`) but not for `m`, and also every other rule
/// of the body that `m` misses. A switch that `classify` tries next may
/// make `agent` obey another group (a substring agent match, say) or make
/// a rule match (an upper-cased URL), and the parser misses those rules
/// then too. Blanking a rule that matches nothing changes no verdict.
pub fn as_matched_by(
    m: &KnownMatcher,
    body: &[u8],
    agent: &str,
    url: &str,
    profile: &Profile,
) -> Option<Vec<u8>> {
    let parsed = RobotsTxt::parse(body, profile);
    let d = parsed.decide(agent, url).ok()?;
    let target = d.target.as_bytes();
    let mut missed: Vec<u32> = d
        .candidates
        .iter()
        .filter(|c| !(m.matches)(c, target))
        .map(|c| c.line)
        .collect();
    let candidate = |line: u32| d.candidates.iter().any(|c| c.line == line);
    for g in parsed.groups() {
        for r in g.rules.iter().filter(|r| !candidate(r.line)) {
            let rule = RuleMatch {
                line: r.line,
                kind: r.kind,
                pattern: String::from_utf8_lossy(&r.value).into_owned(),
                normalized: String::from_utf8_lossy(r.normalized())
                    .into_owned(),
                priority: 0,
            };
            if !(m.matches)(&rule, target) {
                missed.push(r.line);
            }
        }
    }
    let with: Vec<(u32, &[u8])> =
        missed.into_iter().map(|line| (line, &b"Disallow:"[..])).collect();
    (!with.is_empty()).then(|| replace_lines(body, &with))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_occurrence_is_the_only_one_tried() {
        let m = first_occurrence_match;
        assert!(!m(b"*ab", b"/aab"));
        assert!(m(b"*ab", b"/ab"));
        assert!(m(b"*", b"/anything"));
        assert!(m(b"/a*c$", b"/abc"));
        assert!(!m(b"/a*c$", b"/acbc"));
        assert!(m(b"/a*$", b"/abc"));
        assert!(m(b"/x", b"/xyz"));
        assert!(!m(b"/x", b"/"));
        assert!(m(b"", b""));
        assert!(!m(b"/a", b""));
        assert!(m(b"*$", b""));
    }

    #[test]
    fn the_port_s_verdict_on_the_finding_is_recognised_and_no_other() {
        use robots_oracle::Verdict;
        let body = b"User-agent: FooBot\nAllow: *ab\nDisallow: *\n";
        let google = Profile::google();
        let known = |adapter, url, theirs| {
            crate::known_deviation(
                adapter, body, "FooBot", url, &google, theirs,
            )
        };
        assert_eq!(
            known("rust-robotstxt", "/aab", Verdict::Disallowed).as_deref(),
            Some("star-takes-first-occurrence")
        );
        // Another parser is not excused by it, and a verdict the model
        // does not give is not explained.
        assert_eq!(
            known("rust-texting_robots", "/aab", Verdict::Disallowed),
            None
        );
        assert_eq!(known("rust-robotstxt", "/ab", Verdict::Disallowed), None);
    }
}
