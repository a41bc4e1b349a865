//! The decision (§2.2.2): match every rule of the obeyed groups against the
//! URL; the most specific match wins (R2.2.2-5, R2.2.2-6); an allow and a
//! disallow of equal specificity give allow (R2.2.2-8); no match, or no
//! group, gives allow (R2.2.2-9, R2.2.1-9); `/robots.txt` is always
//! allowed (R2.2.2-10).
//!
//! [`RobotsTxt::decide_linear`] is the plain reading: every rule of the
//! obeyed groups, each piece searched octet by octet ([`EveryRule`]).
//! What the rules' matches decide (precedence, ties, the explanation) is
//! read here once; *which* rules match may be found another way, through
//! [`FindHits`]: the fast room's `adaptive` finds them through rule
//! indexes and shared searches ([`RobotsTxt::decide`]), and must find
//! the same ones. [`Best`] is longest match's tally of the best allow and
//! disallow so far, which also says when no rule left can change the
//! verdict (what the fast room's early stops rest on). Must never name a
//! fast path.
//!
//! # Complexity
//!
//! A decision is O(Σ over the rules of the obeyed groups of |target| ·
//! |pattern|) at worst (see `pattern`), plus a sort of the matches by
//! line (already in order: linear).

use crate::agent::{Selection, is_valid_product_token, select};
use crate::explain::{Decision, Reason, RuleMatch, Verdict};
use crate::parse::{RobotsTxt, Rule, RuleKind};
use crate::pattern::{Plain, Shape};
use crate::profile::{Precedence, Priority};
use crate::target::{Error, match_octets};

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// How a decision finds which rules of the obeyed groups match.
pub(crate) trait FindHits {
    /// The rules of `robots`' groups `groups` (positions in
    /// `robots.groups`, in file order) that match `target`, each with its
    /// priority under `how`: every one that matches, each group's in file
    /// order.
    fn hits<'r>(
        &self,
        robots: &'r RobotsTxt,
        groups: &[usize],
        target: &[u8],
        how: Priority,
    ) -> Vec<Hit<'r>>;
}

/// The plain reading: every rule tried, octet by octet.
pub(crate) struct EveryRule;

impl FindHits for EveryRule {
    fn hits<'r>(
        &self,
        robots: &'r RobotsTxt,
        groups: &[usize],
        target: &[u8],
        how: Priority,
    ) -> Vec<Hit<'r>> {
        let plain = Plain(target);
        let rules = groups.iter().flat_map(|&i| &robots.groups[i].rules);
        rules
            .filter_map(|r| hit(r, how, |_, s| s.matches_in(&plain)))
            .collect()
    }
}

impl RobotsTxt {
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
        self.decide_with(agent, url, &EveryRule)
    }

    /// The decision explained, the matching rules found by `find`.
    ///
    /// # Errors
    ///
    /// When `url` is neither an absolute URL nor a path from `/`.
    pub(crate) fn decide_with(
        &self,
        agent: &str,
        url: &str,
        find: &impl FindHits,
    ) -> Result<Decision, Error> {
        let target = match_octets(url, &self.profile)?;
        let (verdict, reason, hits, winner, selection) =
            self.settle(agent, &target, find);
        let explain = |h: &Hit<'_>| RuleMatch {
            line: h.rule.line,
            kind: h.rule.kind,
            pattern: lossy(&h.rule.value),
            normalized: lossy(h.normalized),
            priority: h.priority,
        };
        Ok(Decision {
            verdict,
            reason,
            target: lossy(&target),
            groups: selection
                .groups
                .iter()
                .map(|&i| self.groups[i].line())
                .collect(),
            global: selection.global,
            candidates: hits.iter().map(explain).collect(),
            winner: winner.map(|w| explain(&hits[w])),
            agent_is_valid: is_valid_product_token(agent),
        })
    }

    /// The decision without its explanation: verdict, reason, the rules
    /// that matched in file order, which of them won, and the groups.
    pub(crate) fn settle(
        &self,
        agent: &str,
        target: &[u8],
        find: &impl FindHits,
    ) -> Settled<'_> {
        let p = &self.profile;
        if p.implicit_robots_txt_allow && target == b"/robots.txt" {
            let none = Selection { groups: Vec::new(), global: false };
            return (
                Verdict::Allowed,
                Reason::RobotsTxtPath,
                vec![],
                None,
                none,
            );
        }
        let selection = select(&self.groups, agent, p);
        if selection.groups.is_empty() {
            return (
                Verdict::Allowed,
                Reason::NoGroup,
                vec![],
                None,
                selection,
            );
        }
        let mut hits = find.hits(self, &selection.groups, target, p.priority);
        // Groups are disjoint and selected in file order, so this only
        // checks (in linear time) when each group's hits are in order.
        hits.sort_by_key(|h| h.rule.line);
        let (verdict, reason, winner) = match p.precedence {
            Precedence::FirstMatch => first_match(&hits),
            Precedence::LongestMatch => {
                longest_match(&hits, p.tie_goes_to_allow)
            }
        };
        (verdict, reason, hits, winner, selection)
    }
}

/// Verdict, reason, hits, the winner's position among them, the groups.
pub(crate) type Settled<'r> =
    (Verdict, Reason, Vec<Hit<'r>>, Option<usize>, Selection);

/// The highest priority any of a rule's patterns can have (pattern
/// octets): the longest non-empty shape.
pub(crate) fn bound(rule: &Rule) -> usize {
    shapes_bound(rule.shapes())
}

/// [`bound`] of a rule given by its shapes.
pub(crate) fn shapes_bound<'r>(
    shapes: impl Iterator<Item = Shape<'r>>,
) -> usize {
    shapes
        .filter(|s| !s.is_empty())
        .map(|s| s.normalized().len())
        .max()
        .unwrap_or(0)
}

/// The best allow and disallow priorities found so far.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Best {
    allow: Option<usize>,
    disallow: Option<usize>,
}

impl Best {
    /// A rule of priority at most `bound` can no longer change the
    /// verdict (ties still can: equal is not beaten).
    pub fn beats(&self, bound: usize) -> bool {
        self.allow.max(self.disallow).is_some_and(|top| bound < top)
    }

    /// A rule matched, if `hit` is one.
    pub fn add(&mut self, hit: Option<Hit<'_>>) {
        if let Some(h) = hit {
            self.add_match(h.rule.kind, h.priority);
        }
    }

    /// A rule of `kind` matched with `priority`.
    pub fn add_match(&mut self, kind: RuleKind, priority: usize) {
        let slot = match kind {
            RuleKind::Allow => &mut self.allow,
            RuleKind::Disallow => &mut self.disallow,
        };
        *slot = (*slot).max(Some(priority));
    }

    /// Both of `other`'s priorities too (for bounds: the most any rule
    /// of each kind can have).
    pub fn join(&mut self, other: Best) {
        self.allow = self.allow.max(other.allow);
        self.disallow = self.disallow.max(other.disallow);
    }

    /// The verdict, if no rule left can change it: `tops` holds the
    /// highest bound of any rule of each kind. A disallow above every
    /// allow's bound (or equal, when ties disallow) decides, and so does
    /// an allow above every disallow's (or equal, when ties allow).
    pub fn settled(&self, tops: &Best, tie_allows: bool) -> Option<Verdict> {
        let above = |found: Option<usize>, top: Option<usize>, tie_wins| {
            found.is_some_and(|f| match top {
                None => true,
                Some(t) => f > t || (f == t && tie_wins),
            })
        };
        if above(self.disallow, tops.allow, !tie_allows) {
            return Some(Verdict::Disallowed);
        }
        if above(self.allow, tops.disallow, tie_allows) {
            return Some(Verdict::Allowed);
        }
        None
    }

    /// As `longest_match`.
    pub fn verdict(&self, tie_allows: bool) -> Verdict {
        match (self.allow, self.disallow) {
            (_, None) => Verdict::Allowed,
            (None, Some(_)) => Verdict::Disallowed,
            (Some(a), Some(d)) if a > d => Verdict::Allowed,
            (Some(a), Some(d)) if a < d => Verdict::Disallowed,
            _ if tie_allows => Verdict::Allowed,
            _ => Verdict::Disallowed,
        }
    }
}

/// A rule that matched: the pattern that did, its priority, and where
/// the match ended.
pub(crate) struct Hit<'r> {
    /// The rule.
    pub rule: &'r Rule,
    /// Its pattern that matched, normalised.
    pub normalized: &'r [u8],
    /// The match's priority.
    pub priority: usize,
    /// Where the match ended in the target.
    pub end: usize,
}

/// How `rule` matches, if it does, where `end(k, shape)` is where the
/// shortest match of the rule's k-th shape ends. Empty rules never match
/// (A8).
pub(crate) fn hit<'r>(
    rule: &'r Rule,
    how: Priority,
    mut end: impl FnMut(usize, Shape<'r>) -> Option<usize>,
) -> Option<Hit<'r>> {
    if rule.directory.is_none() {
        // One pattern (nearly every rule): as below, without iterators.
        let shape = rule.pattern.shape(&rule.value);
        if shape.is_empty() {
            return None;
        }
        let end = end(0, shape)?;
        let normalized = shape.normalized();
        let priority = match how {
            Priority::PatternOctets => normalized.len(),
            Priority::MatchedOctets => end,
        };
        return Some(Hit { rule, normalized, priority, end });
    }
    let (shape, priority, end) = shape_end(rule.shapes(), how, end)?;
    Some(Hit { rule, normalized: shape.normalized(), priority, end })
}

/// The first of a rule's `shapes` that matches (`end(k, shape)`: where
/// the shortest match of the k-th ends), and the match's priority.
/// Empty patterns never match (A8).
pub(crate) fn shape_hit<'r>(
    shapes: impl Iterator<Item = Shape<'r>>,
    how: Priority,
    end: impl FnMut(usize, Shape<'r>) -> Option<usize>,
) -> Option<(Shape<'r>, usize)> {
    shape_end(shapes, how, end).map(|(shape, priority, _)| (shape, priority))
}

/// [`shape_hit`], and where the match ends.
fn shape_end<'r>(
    shapes: impl Iterator<Item = Shape<'r>>,
    how: Priority,
    mut end: impl FnMut(usize, Shape<'r>) -> Option<usize>,
) -> Option<(Shape<'r>, usize, usize)> {
    let (shape, end) = shapes
        .enumerate()
        .filter(|(_, s)| !s.is_empty())
        .find_map(|(k, s)| end(k, s).map(|end| (s, end)))?;
    let priority = match how {
        Priority::PatternOctets => shape.normalized().len(),
        Priority::MatchedOctets => end,
    };
    Some((shape, priority, end))
}

type Outcome = (Verdict, Reason, Option<usize>);

/// The verdict a rule of `kind` gives.
pub(crate) fn verdict_of(kind: RuleKind) -> Verdict {
    match kind {
        RuleKind::Allow => Verdict::Allowed,
        RuleKind::Disallow => Verdict::Disallowed,
    }
}

fn first_match(hits: &[Hit<'_>]) -> Outcome {
    match hits.first() {
        Some(h) => (verdict_of(h.rule.kind), Reason::FirstMatch, Some(0)),
        None => (Verdict::Allowed, Reason::NoMatchingRule, None),
    }
}

/// The first hit of `kind` with the highest priority.
fn best(hits: &[Hit<'_>], kind: RuleKind) -> Option<(usize, usize)> {
    hits.iter().enumerate().filter(|(_, h)| h.rule.kind == kind).fold(
        None,
        |b, (i, h)| match b {
            Some((_, p)) if p >= h.priority => b,
            _ => Some((i, h.priority)),
        },
    )
}

fn longest_match(hits: &[Hit<'_>], tie_allows: bool) -> Outcome {
    let allow = best(hits, RuleKind::Allow);
    let disallow = best(hits, RuleKind::Disallow);
    match (allow, disallow) {
        (None, None) => (Verdict::Allowed, Reason::NoMatchingRule, None),
        (Some((a, _)), None) => {
            (Verdict::Allowed, Reason::LongestMatch, Some(a))
        }
        (None, Some((d, _))) => {
            (Verdict::Disallowed, Reason::LongestMatch, Some(d))
        }
        (Some((a, pa)), Some((_, pd))) if pa > pd => {
            (Verdict::Allowed, Reason::LongestMatch, Some(a))
        }
        (Some((_, pa)), Some((d, pd))) if pa < pd => {
            (Verdict::Disallowed, Reason::LongestMatch, Some(d))
        }
        (Some((a, _)), Some(_)) if tie_allows => {
            (Verdict::Allowed, Reason::TieGoesToAllow, Some(a))
        }
        (Some(_), Some((d, _))) => {
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
