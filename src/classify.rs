//! Classifying a disagreement by mechanism: re-decide the check with the
//! profile switches ([`switches`]) toggled one at a time (then two at a
//! time); the switch that makes the oracle agree with the other parser
//! names the axis of the disagreement. What no switch explains is
//! [`Classification::Unexplained`].
//!
//! Used by the generator's tools (`robots-gen`, cargo-fuzz) and the
//! differential fuzzer's classifier. It only re-decides with other
//! profiles; it never judges which reading is right (the cases do), and
//! it stays polynomial: at most one decision per switch and per pair.

use crate::explain::Verdict;
use crate::parse::RobotsTxt;
use crate::profile::{Profile, Switch, switches};

/// Why a parser answered differently from the oracle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Classification {
    /// These switches (one, or a pair), applied to the oracle's profile,
    /// make it give the parser's verdict.
    Switches(Vec<&'static Switch>),
    /// No single switch or pair does.
    Unexplained,
}

impl Classification {
    /// The axis (`precedence`, `encoding`, ...) or `unexplained`; a pair
    /// on two axes is named `a+b`.
    pub fn axis(&self) -> String {
        match self {
            Classification::Unexplained => "unexplained".into(),
            Classification::Switches(s) => {
                let mut axes: Vec<&str> = s.iter().map(|s| s.axis).collect();
                axes.dedup();
                axes.join("+")
            }
        }
    }

    /// The switch names, `+`-joined, or `unexplained`.
    pub fn name(&self) -> String {
        match self {
            Classification::Unexplained => "unexplained".into(),
            Classification::Switches(s) => {
                s.iter().map(|s| s.name).collect::<Vec<_>>().join("+")
            }
        }
    }

    /// The clauses the switches concern.
    pub fn clauses(&self) -> Vec<&'static str> {
        match self {
            Classification::Unexplained => vec![],
            Classification::Switches(s) => {
                let mut c: Vec<&str> =
                    s.iter().flat_map(|s| s.clauses.iter().copied()).collect();
                c.sort_unstable();
                c.dedup();
                c
            }
        }
    }
}

fn verdict(
    body: &[u8],
    agent: &str,
    url: &str,
    p: &Profile,
) -> Option<Verdict> {
    RobotsTxt::parse(body, p).decide(agent, url).ok().map(|d| d.verdict)
}

/// Explains why a parser answered `theirs` where the oracle under `base`
/// answers otherwise. Single switches are tried first, in
/// [`switches`] order; then pairs.
pub fn classify(
    body: &[u8],
    agent: &str,
    url: &str,
    base: &Profile,
    theirs: Verdict,
) -> Classification {
    let candidates: Vec<&'static Switch> =
        switches().iter().filter(|s| s.changes(base)).collect();
    for s in &candidates {
        if verdict(body, agent, url, &s.applied_to(base)) == Some(theirs) {
            return Classification::Switches(vec![s]);
        }
    }
    for (i, a) in candidates.iter().enumerate() {
        let pa = a.applied_to(base);
        for b in &candidates[i + 1..] {
            if a.axis == b.axis
                && a.name.split('=').next() == b.name.split('=').next()
            {
                continue; // two values of one field
            }
            if verdict(body, agent, url, &b.applied_to(&pa)) == Some(theirs) {
                return Classification::Switches(vec![a, b]);
            }
        }
    }
    Classification::Unexplained
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_match_is_precedence() {
        let body = b"User-agent: *\nDisallow: /a\nAllow: /a/b\n";
        let e = classify(
            body,
            "x",
            "/a/b",
            &Profile::rfc9309(),
            Verdict::Disallowed,
        );
        assert_eq!(e.name(), "precedence=first-match");
        assert_eq!(e.axis(), "precedence");
    }

    #[test]
    fn substring_agents_are_ua_matching() {
        let body = b"User-agent: Foo\nDisallow: /\n";
        let e = classify(
            body,
            "FooBot",
            "/x",
            &Profile::rfc9309(),
            Verdict::Disallowed,
        );
        assert_eq!(e.axis(), "ua-matching");
    }

    #[test]
    fn nothing_explains_disallowing_an_empty_file() {
        let e =
            classify(b"", "x", "/x", &Profile::rfc9309(), Verdict::Disallowed);
        assert_eq!(e, Classification::Unexplained);
    }
}

#[cfg(test)]
mod cr_tests {
    use super::*;

    #[test]
    fn lf_only_parsers_are_line_syntax() {
        let body = b"user-agent:FOOBOT\rDisallow:/";
        let e = classify(
            body,
            "FooBot",
            "/",
            &Profile::rfc9309(),
            Verdict::Allowed,
        );
        assert_eq!(e.name(), "cr_ends_line=false");
    }
}
