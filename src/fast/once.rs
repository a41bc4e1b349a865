//! One check in one pass: [`RobotsTxt::check_once`] parses a file for one
//! crawler and one URL and matches each rule of the groups the crawler
//! obeys as it is read, keeping no rule, group or copy of the file: the
//! verdict of `RobotsTxt::parse(body, profile).is_allowed(agent, url)`.
//!
//! The parser (`parse`, in its focused mode, see `focus`) decides which
//! groups apply; each rule it does not skip comes here, to the parse's
//! `RuleSink` that [`Stream`] is, with whether its group names the
//! crawler. Two tallies are kept, one for the groups
//! naming the crawler and one for the `*` groups (§2.2.1: the `*` groups
//! count only when no group names it), each the best allow and disallow
//! priorities (longest match) or the first match (first-match
//! precedence). Under longest match by pattern octets a rule too short to
//! reach the best match so far is not matched at all.
//!
//! # Complexity
//!
//! O(|file|) lexing plus, per rule of an obeyed group, one compilation
//! (O(|pattern|)) and at most one match, O(|target| · |pattern|) at worst
//! (`pattern`); memory O(|target| + longest pattern). Never panics.

use crate::decide::{Best, shape_hit, shapes_bound};
use crate::explain::Verdict;
use crate::haystack::Haystack;
use crate::parse::{RobotsTxt, RuleKind, RuleSink, Shapes};
use crate::profile::{Precedence, Priority, Profile};
use crate::target::match_octets;

/// What the rules of one kind of group decided so far.
#[derive(Default)]
struct Tally {
    best: Best,
    /// The kind of the first rule that matched (first-match precedence).
    first: Option<RuleKind>,
}

/// The rules of the obeyed groups, matched as the parser reads them.
pub(crate) struct Stream<'t> {
    hay: Haystack<'t>,
    how: Priority,
    first_match: bool,
    /// The groups naming the crawler.
    specific: Tally,
    /// The `*` groups.
    global: Tally,
}

impl<'t> Stream<'t> {
    fn new(target: &'t [u8], p: &Profile) -> Stream<'t> {
        Stream {
            hay: Haystack::direct(target),
            how: p.priority,
            first_match: p.precedence == Precedence::FirstMatch,
            specific: Tally::default(),
            global: Tally::default(),
        }
    }

    /// The verdict, `specific` telling whether a group named the crawler.
    fn verdict(&self, specific: bool, tie_allows: bool) -> Verdict {
        let tally = if specific { &self.specific } else { &self.global };
        match (self.first_match, tally.first) {
            (true, Some(RuleKind::Disallow)) => Verdict::Disallowed,
            (true, _) => Verdict::Allowed,
            (false, _) => tally.best.verdict(tie_allows),
        }
    }
}

impl RuleSink for Stream<'_> {
    /// A rule of an obeyed group (`specific`: one naming the crawler),
    /// given by its patterns.
    fn rule(&mut self, specific: bool, kind: RuleKind, shapes: Shapes<'_>) {
        let tally =
            if specific { &mut self.specific } else { &mut self.global };
        if self.first_match && tally.first.is_some() {
            return;
        }
        let prune = !self.first_match && self.how == Priority::PatternOctets;
        if prune && tally.best.beats(shapes_bound(shapes.clone())) {
            return;
        }
        let hay = &self.hay;
        let Some((_, priority)) =
            shape_hit(shapes, self.how, |_, s| s.matches_in(hay))
        else {
            return;
        };
        tally.first = tally.first.or(Some(kind));
        tally.best.add_match(kind, priority);
    }
}

impl RobotsTxt {
    /// Whether the crawler with product token `agent` may access `url`
    /// by `body`: the verdict of [`RobotsTxt::parse`] then
    /// [`RobotsTxt::is_allowed`], in one pass that keeps nothing (for a
    /// crawler that asks one URL of a file; to ask many, parse once with
    /// [`RobotsTxt::parse_for`]). A URL that is not a path is allowed.
    ///
    /// ```
    /// use robots_oracle::{Profile, RobotsTxt};
    /// let body = b"User-agent: *\nDisallow: /\n\nUser-agent: foobot\nAllow: /a\nDisallow: /\n";
    /// let p = Profile::rfc9309();
    /// assert!(RobotsTxt::check_once(body, &p, "FooBot", "/a/1"));
    /// assert!(!RobotsTxt::check_once(body, &p, "FooBot", "/b"));
    /// assert!(!RobotsTxt::check_once(body, &p, "OtherBot", "/a/1"));
    /// ```
    pub fn check_once(
        body: &[u8],
        profile: &Profile,
        agent: &str,
        url: &str,
    ) -> bool {
        let Ok(target) = match_octets(url, profile) else { return true };
        if profile.implicit_robots_txt_allow && *target == *b"/robots.txt" {
            return true;
        }
        if !profile.grouping_is_plain() {
            // The one pass knows only the plain grouping (see `parse`).
            return RobotsTxt::parse(body, profile).is_allowed(agent, url);
        }
        let mut stream = Stream::new(&target, profile);
        let Some(specific) =
            RobotsTxt::stream(body, profile, agent, &mut stream)
        else {
            return true;
        };
        stream.verdict(specific, profile.tie_goes_to_allow) == Verdict::Allowed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pass_gives_the_full_parse_verdict() {
        let bodies: [&[u8]; 4] = [
            b"User-agent: *\nDisallow: /all\nAllow: /all/in\n\n\
              User-agent: FooBot\nAllow: /p\nDisallow: /p/q\n\
              User-agent: *\nDisallow: /\n",
            b"User-agent: a\nDisallow: /\nUser-agent: *\nAllow: /x$\nDisallow: /x\n",
            b"Disallow: /\nUser-agent: foobot\nDisallow: /*.pdf$\nAllow: /*\n",
            b"",
        ];
        let mut first = Profile::rfc9309();
        first.precedence = Precedence::FirstMatch;
        let mut matched = Profile::google();
        matched.priority = Priority::MatchedOctets;
        for p in [Profile::rfc9309(), Profile::google(), first, matched] {
            for body in bodies {
                let full = RobotsTxt::parse(body, &p);
                for agent in ["FooBot", "a", "zz"] {
                    for url in [
                        "/",
                        "/all/in",
                        "/p/q",
                        "/x",
                        "/a.pdf",
                        "/robots.txt",
                        "x",
                    ] {
                        assert_eq!(
                            RobotsTxt::check_once(body, &p, agent, url),
                            full.is_allowed(agent, url),
                            "{agent} {url} {:?}",
                            String::from_utf8_lossy(body)
                        );
                    }
                }
            }
        }
    }
}
