//! The decision (§2.2.2): match every rule of the obeyed groups against the
//! URL; the most specific match wins (R2.2.2-5, R2.2.2-6); an allow and a
//! disallow of equal specificity give allow (R2.2.2-8); no match, or no
//! group, gives allow (R2.2.2-9, R2.2.1-9); `/robots.txt` is always
//! allowed (R2.2.2-10).
//!
//! [`RobotsTxt::decide_linear`] is the plain reading: every rule, each
//! piece searched octet by octet. [`RobotsTxt::decide`] gets the same
//! decision faster: once a group has been consulted a few times it tries
//! only the rules `index` names as candidates, and it searches long
//! targets through `pattern::Haystack`.

use crate::agent::{is_valid_product_token, select};
use crate::explain::{Decision, Reason, RuleMatch, Verdict};

use crate::parse::{RobotsTxt, Rule, RuleKind};
use crate::pattern::{Find, Haystack, Plain};
use crate::profile::{Precedence, Priority};
use crate::target::{Error, match_octets};

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl RobotsTxt {
    /// Decides whether the crawler with product token `agent` may access
    /// `url` (an absolute URL, or a path with optional query), and why.
    ///
    /// ```
    /// use robots_oracle::{Profile, RobotsTxt, Verdict};
    /// let body = b"User-agent: *\nAllow: /p\nDisallow: /\n";
    /// let robots = RobotsTxt::parse(body, &Profile::rfc9309());
    /// let d = robots.decide("FooBot", "https://example.com/page")?;
    /// assert_eq!(d.verdict, Verdict::Allowed);
    /// assert_eq!(d.winner.map(|w| w.line), Some(2));
    /// # Ok::<(), robots_oracle::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When `url` is neither an absolute URL nor a path from `/`.
    pub fn decide(&self, agent: &str, url: &str) -> Result<Decision, Error> {
        self.decide_by(agent, url, Scan::Adaptive)
    }

    /// The plain reading of [`RobotsTxt::decide`]: every rule of the
    /// obeyed groups is matched, in file order. Same decision, slower on
    /// large groups; kept as the reference the fast path is tested
    /// against.
    ///
    /// # Errors
    ///
    /// When `url` is neither an absolute URL nor a path from `/`.
    pub fn decide_linear(
        &self,
        agent: &str,
        url: &str,
    ) -> Result<Decision, Error> {
        self.decide_by(agent, url, Scan::Linear)
    }

    /// [`RobotsTxt::decide`] with every group's rule index built at once,
    /// whatever its size: tests run every case through this path too.
    #[doc(hidden)]
    pub fn decide_indexed(
        &self,
        agent: &str,
        url: &str,
    ) -> Result<Decision, Error> {
        self.decide_by(agent, url, Scan::Indexed)
    }

    fn decide_by(
        &self,
        agent: &str,
        url: &str,
        scan: Scan,
    ) -> Result<Decision, Error> {
        let p = &self.profile;
        let target = match_octets(url, p)?;
        let mut d = Decision {
            verdict: Verdict::Allowed,
            reason: Reason::NoGroup,
            target: lossy(&target),
            groups: Vec::new(),
            global: false,
            candidates: Vec::new(),
            winner: None,
            agent_is_valid: is_valid_product_token(agent),
        };
        if p.implicit_robots_txt_allow && target == b"/robots.txt" {
            d.reason = Reason::RobotsTxtPath;
            return Ok(d);
        }
        let selection = select(&self.groups, agent, p);
        d.global = selection.global;
        d.groups =
            selection.groups.iter().map(|&i| self.groups[i].line()).collect();
        if selection.groups.is_empty() {
            return Ok(d);
        }
        let hay = Haystack::new(&target);
        let how = p.priority;
        for &i in &selection.groups {
            let rules = &self.groups[i].rules;
            let index = match scan {
                Scan::Linear => None,
                Scan::Adaptive => self.indexes[i].get(rules, false),
                Scan::Indexed => self.indexes[i].get(rules, true),
            };
            let found = match (scan, index) {
                (Scan::Linear, _) => {
                    let plain = Plain(&target);
                    rules
                        .iter()
                        .filter_map(|r| rule_match(r, &plain, how))
                        .collect()
                }
                (_, Some(index)) => index
                    .candidates(&target)
                    .into_iter()
                    .filter_map(|r| rule_match(&rules[r], &hay, how))
                    .collect(),
                (_, None) => rules
                    .iter()
                    .filter_map(|r| rule_match(r, &hay, how))
                    .collect(),
            };
            d.candidates.extend::<Vec<_>>(found);
        }
        d.candidates.sort_by_key(|c| c.line);
        let (verdict, reason, winner) = match p.precedence {
            Precedence::FirstMatch => first_match(&d.candidates),
            Precedence::LongestMatch => {
                longest_match(&d.candidates, p.tie_goes_to_allow)
            }
        };
        d.verdict = verdict;
        d.reason = reason;
        d.winner = winner.cloned();
        Ok(d)
    }

    /// `decide(..).is_allowed()`, with a URL that is not a path allowed.
    pub fn is_allowed(&self, agent: &str, url: &str) -> bool {
        self.decide(agent, url).map_or(true, |d| d.is_allowed())
    }
}

/// Which rules a decision tries.
#[derive(Clone, Copy)]
enum Scan {
    /// Every rule, searched octet by octet: the plain reading.
    Linear,
    /// The index's candidates once the group has an index (see
    /// `index::LazyIndex`), else every rule; long targets are searched
    /// through their octet table.
    Adaptive,
    /// As `Adaptive`, with every group indexed at once.
    Indexed,
}

/// How `rule` matches `target`, if it does. Empty rules never match (A8).
fn rule_match(
    rule: &Rule,
    target: &impl Find,
    how: Priority,
) -> Option<RuleMatch> {
    let (shape, end) = rule
        .shapes()
        .filter(|s| !s.is_empty())
        .find_map(|s| s.matches_in(target).map(|end| (s, end)))?;
    let priority = match how {
        Priority::PatternOctets => shape.normalized().len(),
        Priority::MatchedOctets => end,
    };
    Some(RuleMatch {
        line: rule.line,
        kind: rule.kind,
        pattern: lossy(&rule.value),
        normalized: lossy(shape.normalized()),
        priority,
    })
}

type Outcome<'a> = (Verdict, Reason, Option<&'a RuleMatch>);

fn verdict_of(kind: RuleKind) -> Verdict {
    match kind {
        RuleKind::Allow => Verdict::Allowed,
        RuleKind::Disallow => Verdict::Disallowed,
    }
}

fn first_match(candidates: &[RuleMatch]) -> Outcome<'_> {
    match candidates.first() {
        Some(c) => (verdict_of(c.kind), Reason::FirstMatch, Some(c)),
        None => (Verdict::Allowed, Reason::NoMatchingRule, None),
    }
}

/// The first rule of `kind` with the highest priority.
fn best(candidates: &[RuleMatch], kind: RuleKind) -> Option<&RuleMatch> {
    candidates.iter().filter(|c| c.kind == kind).fold(
        None,
        |b: Option<&RuleMatch>, c| match b {
            Some(b) if b.priority >= c.priority => Some(b),
            _ => Some(c),
        },
    )
}

fn longest_match(candidates: &[RuleMatch], tie_allows: bool) -> Outcome<'_> {
    let allow = best(candidates, RuleKind::Allow);
    let disallow = best(candidates, RuleKind::Disallow);
    match (allow, disallow) {
        (None, None) => (Verdict::Allowed, Reason::NoMatchingRule, None),
        (Some(a), None) => (Verdict::Allowed, Reason::LongestMatch, Some(a)),
        (None, Some(d)) => {
            (Verdict::Disallowed, Reason::LongestMatch, Some(d))
        }
        (Some(a), Some(d)) if a.priority > d.priority => {
            (Verdict::Allowed, Reason::LongestMatch, Some(a))
        }
        (Some(a), Some(d)) if a.priority < d.priority => {
            (Verdict::Disallowed, Reason::LongestMatch, Some(d))
        }
        (Some(a), Some(_)) if tie_allows => {
            (Verdict::Allowed, Reason::TieGoesToAllow, Some(a))
        }
        (Some(_), Some(d)) => {
            (Verdict::Disallowed, Reason::TieGoesToAllow, Some(d))
        }
    }
}

impl RobotsTxt {
    /// The value of the first record named `key` (case-insensitive, e.g.
    /// `crawl-delay`, `content-signal`) in the groups `agent` obeys.
    pub fn group_record(&self, agent: &str, key: &str) -> Option<&str> {
        let selection = select(&self.groups, agent, &self.profile);
        selection
            .groups
            .iter()
            .flat_map(|&i| &self.groups[i].records)
            .find(|r| r.key.eq_ignore_ascii_case(key))
            .map(|r| r.value.as_str())
    }

    /// The crawl-delay value of the groups `agent` obeys, as written.
    pub fn crawl_delay(&self, agent: &str) -> Option<&str> {
        self.group_record(agent, "crawl-delay")
    }
}
