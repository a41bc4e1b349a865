//! The decision sooner (§2.2.2 as `decide` reads it): the same decisions
//! as the plain reading (`RobotsTxt::decide_linear`), found faster.
//!
//! [`RobotsTxt::decide`] explains its decision as the plain reading does
//! (`decide::RobotsTxt::decide_with`), but finds the matching rules
//! another way ([`Sooner`]): once a group has been consulted a few times
//! it tries only the rules `index` names as candidates, and it searches
//! the target through `haystack::Haystack`: `memmem` when few rules ask,
//! shared bitsets when many rules ask about a long target (`tries`).
//!
//! [`RobotsTxt::is_allowed`] wants the verdict alone, so it stops early:
//! under first-match precedence at the first rule that matches; under
//! longest match by pattern octets it tries rules from the longest
//! pattern down (an indexed group's candidates in the index's order of
//! pattern length, else in file order skipping those too short to
//! matter) and stops once no untried rule can reach the best match so
//! far (`decide::Best::settled`). On a target of at least `PROBE_TARGET`
//! octets an indexed group's `PROBE_RULES` longest rules are tried first
//! (`probe`), each walked through the group's trie with kept searchers;
//! for a URL that long the probe runs first on its raw path (`early`). A
//! rule whose pattern must end in an octet the target does not end in is
//! skipped in O(1) (`Index::rejects`). Other readings (priority by
//! matched octets) take the full path.
//!
//! # Complexity
//!
//! A decision is O(Σ over the rules tried of |target| · |pattern|) at
//! worst (see `pattern`), plus the index lookup, O(|target| +
//! candidates), and for the early stop a sort of the candidates (few) or
//! one walk of the group's rules in length order (many). Never worse than
//! trying every rule. Must never give another decision than the plain
//! reading (`decide_indexed` compares them on every spec case).

use crate::agent::{Selection, select};
use crate::aipref::usage::UsageDecision;
use crate::decide::{Best, FindHits, Hit, bound, verdict_of};
use crate::early::Raw;
use crate::explain::{Decision, Verdict};
use crate::haystack::Haystack;
use crate::index::{Index, LazyIndex};
use crate::parse::{RobotsTxt, Rule, RuleKind};
use crate::profile::{Precedence, Priority};
use crate::target::{Error, match_octets};
use crate::tries::Tries;

impl RobotsTxt {
    /// Decides whether the crawler with product token `agent` may access
    /// `url` (an absolute URL, or a path with optional query), and why.
    ///
    /// A relative reference with an empty path (`""`, a bare query `?q`,
    /// a bare fragment `#x`) is normalised as resolved against the root
    /// (RFC 3986 §5.2: `""` and `#x` are `/`, `?q` is `/?q`). The harness
    /// does not pass them on: the protocol (`robots-conformance serve`),
    /// `check` and the case loader refuse them, so that every parser is
    /// asked the same URL.
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
        self.decide_with(agent, url, &Sooner(Scan::Adaptive))
    }

    /// The fast paths at their most, for tests, which run every case
    /// through it and compare it with [`RobotsTxt::decide_linear`]: the
    /// file parsed again for `agent` alone ([`RobotsTxt::parse_for`]),
    /// every group's rule index built at once whatever its size, and the
    /// decision explained. When the verdict-only paths of
    /// [`RobotsTxt::is_allowed`] (on that parse, indexed; and on this
    /// one, as it stands) or [`RobotsTxt::check_once`] give another
    /// verdict, the decision's `target` says so, and so cannot equal the
    /// plain reading's.
    #[doc(hidden)]
    pub fn decide_indexed(
        &self,
        agent: &str,
        url: &str,
    ) -> Result<Decision, Error> {
        let focused =
            RobotsTxt::parse_focused(&self.file, &self.profile, agent);
        let mut d = focused.decide_with(agent, url, &Sooner(Scan::Indexed))?;
        let selection = select(&focused.groups, agent, &focused.profile);
        let indexed =
            focused.url_verdict(agent, &selection, url, Scan::Indexed);
        let here = match self.is_allowed(agent, url) {
            true => Verdict::Allowed,
            false => Verdict::Disallowed,
        };
        let once =
            match RobotsTxt::check_once(&self.file, &self.profile, agent, url)
            {
                true => Verdict::Allowed,
                false => Verdict::Disallowed,
            };
        if indexed != d.verdict || here != d.verdict || once != d.verdict {
            d.target = format!(
                "fast verdicts differ: decide {}, is_allowed on the \
                 parse for the agent {indexed}, is_allowed {here}, \
                 check_once {once}",
                d.verdict
            );
        }
        Ok(d)
    }

    /// The decision for a crawler with several product tokens, most
    /// specific first ([`RobotsTxt::token_obeyed`]); no tokens decide as
    /// an empty token, which only a group with an empty value names.
    ///
    /// ```
    /// use robots_oracle::{Profile, RobotsTxt, Verdict};
    /// let body = b"User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n";
    /// let r = RobotsTxt::parse(body, &Profile::google());
    /// let d = r.decide_tokens(&["Googlebot-Image", "Googlebot"], "/a")?;
    /// assert_eq!(d.verdict, Verdict::Disallowed);
    /// # Ok::<(), robots_oracle::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When `url` is neither an absolute URL nor a path from `/`.
    pub fn decide_tokens(
        &self,
        tokens: &[&str],
        url: &str,
    ) -> Result<Decision, Error> {
        self.decide(self.token_obeyed(tokens).unwrap_or(""), url)
    }

    /// The usage preferences for `agent` on `url` (attach-05 §3.1).
    ///
    /// ```
    /// use robots_oracle::{Preference, Profile, RobotsTxt};
    /// let body = b"User-Agent: *\nAllow: /\nDisallow: /never/\n\
    ///     Content-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n";
    /// let robots = RobotsTxt::parse(body, &Profile::aipref());
    /// let u = robots.usage("AnyBot", "/ai-ok/test")?;
    /// assert_eq!(u.preferences.unwrap().train_ai, Preference::Allowed);
    /// assert!(robots.usage("AnyBot", "/never/test")?.preferences.is_none());
    /// # Ok::<(), robots_oracle::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When `url` is neither an absolute URL nor a path from `/`.
    pub fn usage(
        &self,
        agent: &str,
        url: &str,
    ) -> Result<UsageDecision, Error> {
        self.usage_with(agent, url, &Sooner(Scan::Adaptive))
    }

    /// `decide(..).is_allowed()`, with a URL that is not a path allowed.
    /// Takes the same path as [`RobotsTxt::decide`] but writes no
    /// explanation.
    pub fn is_allowed(&self, agent: &str, url: &str) -> bool {
        let selection = select(&self.groups, agent, &self.profile);
        self.is_allowed_in(agent, &selection, url)
    }

    /// [`RobotsTxt::is_allowed`] for `agent`, whose groups `selection`
    /// are (`select` of this file for `agent`, made once by the caller).
    pub(crate) fn is_allowed_in(
        &self,
        agent: &str,
        selection: &Selection,
        url: &str,
    ) -> bool {
        let v = self.url_verdict(agent, selection, url, Scan::Adaptive);
        v == Verdict::Allowed
    }

    /// The verdict for `url` (allowed when it is not a path): first on
    /// its raw path when that settles it (`early`), else on its match
    /// octets.
    fn url_verdict(
        &self,
        agent: &str,
        selection: &Selection,
        url: &str,
        scan: Scan,
    ) -> Verdict {
        let raw = match self.settle_raw(selection, url, scan) {
            Raw::Settled(v) => return v,
            raw => raw,
        };
        let Ok(target) = match_octets(url, &self.profile) else {
            return Verdict::Allowed;
        };
        // The probe already ran on these very octets.
        let probed = matches!(raw, Raw::Probed(r) if *r == *target);
        self.verdict_in(agent, selection, &target, scan, probed)
    }

    /// Group `i`'s index, if `scan` uses one (and, when adaptive, the
    /// group has earned one).
    pub(crate) fn index_of(&self, i: usize, scan: Scan) -> Option<&Index> {
        let rules = &self.groups[i].rules;
        let build = || {
            Index::new(rules.iter().map(Rule::shapes))
                .with_kinds(rules.iter().map(|r| r.kind == RuleKind::Allow))
        };
        let force = scan == Scan::Indexed;
        LazyIndex::get(&self.memos[i], rules.len(), force, build)
    }

    /// The verdict of [`RobotsTxt::settle`] over `selection`, the groups
    /// `agent` obeys, stopping as soon as it is known (see the module
    /// doc); `probed`: the probe of the longest rules already ran on
    /// `target` and settled nothing.
    fn verdict_in(
        &self,
        agent: &str,
        selection: &Selection,
        target: &[u8],
        scan: Scan,
        probed: bool,
    ) -> Verdict {
        let p = &self.profile;
        let first = match (p.precedence, p.priority) {
            (Precedence::FirstMatch, _) => true,
            (Precedence::LongestMatch, Priority::PatternOctets) => false,
            (Precedence::LongestMatch, Priority::MatchedOctets) => {
                return self.settle(agent, target, &Sooner(scan)).0;
            }
        };
        if p.implicit_robots_txt_allow && target == b"/robots.txt" {
            return Verdict::Allowed;
        }
        let rules: usize =
            selection.groups.iter().map(|&i| self.groups[i].rules.len()).sum();
        let hay = match rules >= SHARED_SEARCH_RULES {
            true => Haystack::table(target),
            false => Haystack::direct(target),
        };
        let how = p.priority;
        let group =
            |i: usize| (&self.groups[i].rules[..], self.index_of(i, scan));
        let obeyed = Obeyed::collect(&selection.groups, group);
        let groups = obeyed.as_slice();
        if first {
            for &(rules, index) in groups {
                let mut tries = Tries::new(index, &hay);
                let found = match index {
                    Some(index) => {
                        in_order(index.candidates(target), rules.len())
                            .into_iter()
                            .find_map(|r| tries.hit(rules, r, how))
                    }
                    None => {
                        (0..rules.len()).find_map(|r| tries.hit(rules, r, how))
                    }
                };
                if let Some(h) = found {
                    return verdict_of(h.rule.kind);
                }
            }
            return Verdict::Allowed;
        }
        // Longest match by pattern octets.
        let tops = tops(groups);
        let tie = p.tie_goes_to_allow;
        let mut best = Best::default();
        if target.len() >= PROBE_TARGET && !probed {
            let probe = probe(groups, target, &tops, tie);
            if let Some(v) = probe.verdict {
                return v;
            }
            best = probe.best;
        }
        for &(rules, index) in groups {
            let mut tries = Tries::new(index, &hay);
            match index {
                Some(index) => {
                    let order = index.by_bound(index.candidates(target));
                    for r in order {
                        if best.beats(index.bound(r)) {
                            break;
                        }
                        best.add(tries.hit(rules, r, how));
                        if let Some(v) = best.settled(&tops, tie) {
                            return v;
                        }
                    }
                }
                None => {
                    for (r, rule) in rules.iter().enumerate() {
                        if !best.beats(bound(rule)) {
                            best.add(tries.hit(rules, r, how));
                            if let Some(v) = best.settled(&tops, tie) {
                                return v;
                            }
                        }
                    }
                }
            }
        }
        best.verdict(tie)
    }
}

/// The matching rules found through each group's index, once it has
/// one, and a haystack shared by the group's searches.
pub(crate) struct Sooner(pub Scan);

impl FindHits for Sooner {
    fn hits<'r>(
        &self,
        robots: &'r RobotsTxt,
        groups: &[usize],
        target: &[u8],
        how: Priority,
    ) -> Vec<Hit<'r>> {
        let rules: usize =
            groups.iter().map(|&i| robots.groups[i].rules.len()).sum();
        let hay = match rules >= SHARED_SEARCH_RULES {
            true => Haystack::table(target),
            false => Haystack::direct(target),
        };
        let mut hits = Vec::new();
        for &i in groups {
            let rules = &robots.groups[i].rules;
            let index = robots.index_of(i, self.0);
            let mut tries = Tries::new(index, &hay);
            match index {
                Some(index) => {
                    // In file order, so that the hits need no sort.
                    let candidates =
                        in_order(index.candidates(target), rules.len());
                    hits.extend(
                        candidates
                            .into_iter()
                            .filter_map(|r| tries.hit(rules, r, how)),
                    );
                }
                None => hits.extend(
                    (0..rules.len()).filter_map(|r| tries.hit(rules, r, how)),
                ),
            }
        }
        hits
    }
}

/// The highest bound of any rule of each kind in `groups`.
pub(crate) fn tops(groups: &[GroupRules<'_>]) -> Best {
    let mut tops = Best::default();
    for &(rules, index) in groups {
        match index.and_then(Index::tops) {
            Some(t) => tops.join(t),
            None => {
                rules.iter().for_each(|r| tops.add_match(r.kind, bound(r)))
            }
        }
    }
    tops
}

/// What [`probe`] found.
pub(crate) struct Probe {
    /// The best matches found.
    pub best: Best,
    /// The verdict, when they settle it (see `Best::settled`).
    pub verdict: Option<Verdict>,
    /// The furthest octet of `target` any of those matches reached.
    pub reach: usize,
}

/// Under longest match by pattern octets, each indexed group's
/// [`PROBE_RULES`] longest rules tried first, walked through its trie:
/// on a long target one of them often settles the verdict before the
/// index's scan of the whole target would (`tops`: the groups' highest
/// bounds, `tie`: ties allow).
pub(crate) fn probe(
    groups: &[GroupRules<'_>],
    target: &[u8],
    tops: &Best,
    tie: bool,
) -> Probe {
    let mut found = Probe { best: Best::default(), verdict: None, reach: 0 };
    for &(rules, index) in groups {
        let Some(index) = index else { continue };
        let mut tries = Tries::walk(index, target);
        for r in index.longest(PROBE_RULES) {
            if found.best.beats(index.bound(r)) {
                break;
            }
            let Some(hit) = tries.hit(rules, r, Priority::PatternOctets)
            else {
                continue;
            };
            found.reach = found.reach.max(hit.end);
            found.best.add(Some(hit));
            if let Some(v) = found.best.settled(tops, tie) {
                found.verdict = Some(v);
                return found;
            }
        }
    }
    found
}

/// `candidates` (distinct rule positions below `rules`) in increasing
/// order: sorted when few, else read off a bitset (O(rules / 64)).
fn in_order(mut candidates: Vec<usize>, rules: usize) -> Vec<usize> {
    if candidates.len() < rules / 64 + 16 {
        candidates.sort_unstable();
        return candidates;
    }
    let mut bits = vec![0u64; rules.div_ceil(64)];
    for &c in &candidates {
        if let Some(word) = bits.get_mut(c / 64) {
            *word |= 1 << (c % 64);
        }
    }
    candidates.clear();
    for (w, &word) in bits.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            candidates.push(w * 64 + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    }
    candidates
}

/// Targets at least this long are first tried against a group's
/// [`PROBE_RULES`] longest rules (see `RobotsTxt::verdict`).
pub(crate) const PROBE_TARGET: usize = 256;

/// How many of an indexed group's longest rules are tried first.
const PROBE_RULES: usize = 16;

/// Decisions over at least this many rules search the target through
/// shared bitsets (see `haystack`); fewer, with `memmem` per piece.
const SHARED_SEARCH_RULES: usize = 32;

/// One obeyed group's rules and its index, if it has one.
pub(crate) type GroupRules<'r> = (&'r [Rule], Option<&'r Index>);

/// The rules (and index) of each obeyed group; one group, the usual
/// case, without allocation.
pub(crate) enum Obeyed<'r> {
    One([GroupRules<'r>; 1]),
    Many(Vec<GroupRules<'r>>),
}

impl<'r> Obeyed<'r> {
    /// `group(i)` for each group index, in order.
    pub(crate) fn collect(
        indices: &[usize],
        group: impl Fn(usize) -> GroupRules<'r>,
    ) -> Obeyed<'r> {
        match indices {
            [i] => Obeyed::One([group(*i)]),
            _ => Obeyed::Many(indices.iter().map(|&i| group(i)).collect()),
        }
    }

    /// The groups, as a slice.
    pub(crate) fn as_slice(&self) -> &[GroupRules<'r>] {
        match self {
            Obeyed::One(one) => one,
            Obeyed::Many(many) => many,
        }
    }
}

/// Which rules a decision tries.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scan {
    /// The index's candidates once the group has an index (see
    /// `index::LazyIndex`), else every rule; long targets are searched
    /// through their octet table.
    Adaptive,
    /// As `Adaptive`, with every group indexed at once.
    Indexed,
}
