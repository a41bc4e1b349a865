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
//!
//! # Cost
//!
//! Most switches change only how a parsed file is *decided*
//! ([`Profile::parsing`] pins them), so the body is parsed once per
//! distinct parse-relevant profile, and each parse is decided under every
//! profile that shares it (the parse is the same; only the deciding
//! profile is swapped in). The parses are kept per thread for the body
//! classified last, so the other URLs of a check and the other parsers
//! disagreeing on it reuse them; what they hold is charged against
//! `MAX_KEPT_BYTES`, and past it a profile is decided by
//! [`RobotsTxt::check_once`], one pass that keeps nothing. Same result
//! as parsing the body afresh for every profile (tested against that
//! reading in `robots-gen`'s `classify_reference` test).

use std::cell::RefCell;
use std::collections::HashMap;

use crate::explain::Verdict;
use crate::parse::RobotsTxt;
use crate::profile::{Profile, Switch, switches};
use crate::target::match_octets;

/// What the parses one thread keeps may be charged together (see
/// `Parses::charge`).
const MAX_KEPT_BYTES: usize = 32 * 1024 * 1024;

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

/// The parses of one body by [`Profile::parsing`], kept between the
/// classifications of that body on one thread (the URLs of a check, the
/// parsers that disagree on it), within a budget of bytes.
struct Parses {
    body: Vec<u8>,
    by_view: HashMap<Profile, RobotsTxt>,
    /// What the parses are charged (see [`Parses::charge`]), and may be.
    bytes: usize,
    cap: usize,
}

thread_local! {
    static KEPT: RefCell<Parses> = RefCell::new(Parses::new(MAX_KEPT_BYTES));
}

impl Parses {
    fn new(cap: usize) -> Parses {
        let (body, by_view, bytes) = (Vec::new(), HashMap::new(), 0);
        Parses { body, by_view, bytes, cap }
    }

    /// Makes these the parses of `body` (dropping another body's).
    fn of(&mut self, body: &[u8]) -> &mut Parses {
        if self.body != body {
            self.by_view.clear();
            self.bytes = 0;
            self.body.clear();
            self.body.extend_from_slice(body);
        }
        self
    }

    /// A parse's charge: the file copy and a generous share for its
    /// groups, rules and diagnostics.
    fn charge(&self) -> usize {
        self.body.len().saturating_mul(3).saturating_add(1024)
    }

    /// The verdict under `p` for a URL that is a path (checked by
    /// [`classify`]): on the kept parse `p` shares, parsed now if there
    /// is room, else in one pass that keeps nothing.
    fn verdict(&mut self, p: &Profile, agent: &str, url: &str) -> Verdict {
        let key = p.parsing();
        let charge = self.charge();
        let allowed = match self.by_view.get_mut(&key) {
            Some(r) => {
                // The parse is the one `p` makes: `p.parsing()` is equal.
                r.profile = p.clone();
                r.is_allowed(agent, url)
            }
            None if self.bytes + charge <= self.cap => {
                self.bytes += charge;
                let r = RobotsTxt::parse(&self.body, p);
                let allowed = r.is_allowed(agent, url);
                self.by_view.insert(key, r);
                allowed
            }
            None => RobotsTxt::check_once(&self.body, p, agent, url),
        };
        match allowed {
            true => Verdict::Allowed,
            false => Verdict::Disallowed,
        }
    }
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
    KEPT.with_borrow_mut(|kept| {
        classify_in(kept.of(body), agent, url, base, theirs)
    })
}

/// [`classify`] on the parses given.
fn classify_in(
    parses: &mut Parses,
    agent: &str,
    url: &str,
    base: &Profile,
    theirs: Verdict,
) -> Classification {
    // A URL that is not a path has no verdict under any profile (the
    // error does not depend on the profile).
    if match_octets(url, base).is_err() {
        return Classification::Unexplained;
    }
    let mut under = |p: &Profile| parses.verdict(p, agent, url);
    let candidates: Vec<&'static Switch> =
        switches().iter().filter(|s| s.changes(base)).collect();
    for s in &candidates {
        if under(&s.applied_to(base)) == theirs {
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
            if under(&b.applied_to(&pa)) == theirs {
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

    /// Without room for any parse, every profile is decided in one pass:
    /// the same classifications.
    #[test]
    fn without_kept_parses_the_classification_is_the_same() {
        let bodies: [&[u8]; 4] = [
            b"User-agent: *\nDisallow: /a\nAllow: /a/b\n",
            b"useragent: FooBot\rDisalow: /x\nUser-agent: *\nAllow: /\n",
            b"Disallow: /p\nUser-agent: foobot\n\nDisallow: /*.pdf$\n",
            b"User-agent: Foo\nSitemap: /s\nUser-agent: Bar\nDisallow: /%7e\n",
        ];
        for body in bodies {
            for base in [Profile::rfc9309(), Profile::google()] {
                for url in ["/a/b", "/x", "/p", "/q.pdf", "/~", "/%7E"] {
                    for theirs in [Verdict::Allowed, Verdict::Disallowed] {
                        let kept =
                            classify(body, "FooBot", url, &base, theirs);
                        let mut none = Parses::new(0);
                        let none = none.of(body);
                        let got =
                            classify_in(none, "FooBot", url, &base, theirs);
                        assert_eq!(got, kept);
                        assert!(none.by_view.is_empty());
                    }
                }
            }
        }
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
