//! The decision (§2.2.2): match every rule of the obeyed groups against the
//! URL; the most specific match wins (R2.2.2-5, R2.2.2-6); an allow and a
//! disallow of equal specificity give allow (R2.2.2-8); no match, or no
//! group, gives allow (R2.2.2-9, R2.2.1-9); `/robots.txt` is always
//! allowed (R2.2.2-10).
//!
//! [`RobotsTxt::decide_linear`] is the plain reading: every rule, each
//! piece searched octet by octet. [`RobotsTxt::decide`] gets the same
//! decision faster: once a group has been consulted a few times it tries
//! only the rules `index` names as candidates, and it searches the target
//! through `haystack::Haystack`: `memmem` when few rules ask, shared
//! bitsets when many rules ask about a long target.
//!
//! [`RobotsTxt::is_allowed`] wants the verdict alone, so it stops early:
//! under first-match precedence at the first rule that matches; under
//! longest match by pattern octets it tries rules from the longest
//! pattern down (an indexed group's candidates in the index's order of
//! pattern length, else in file order skipping those too short to
//! matter) and stops once no untried rule can reach the best match so
//! far. On a target of at least `PROBE_TARGET` octets an indexed
//! group's `PROBE_RULES` longest rules are tried first (`probe`),
//! each walked through the group's trie with kept searchers; for a URL
//! that long the probe runs first on its raw path (`early`). A rule whose
//! pattern must end in an octet the target does not end in is skipped in
//! O(1) (`Index::rejects`). Other readings (priority by matched octets)
//! take the full path.
//!
//! # Complexity
//!
//! A decision is O(Σ over the rules tried of |target| · |pattern|) at
//! worst (see `pattern`), plus the index lookup, O(|target| +
//! candidates), and for the early stop a sort of the candidates (few) or
//! one walk of the group's rules in length order (many). Never worse than
//! trying every rule.

use crate::agent::{Selection, is_valid_product_token, select};
use crate::early::Raw;
use crate::explain::{Decision, Reason, RuleMatch, Verdict};
use crate::haystack::{Haystack, Numbered};
use crate::index::Index;
use crate::parse::{RobotsTxt, Rule, RuleKind};
use crate::pattern::{Find, Plain, Shape};
use crate::profile::{Precedence, Priority};
use crate::target::{Error, match_octets};
use crate::trie::{Memo, PieceTrie, Searched};

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

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
        let mut d = focused.decide_by(agent, url, Scan::Indexed)?;
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
        match scan {
            Scan::Linear => None,
            Scan::Adaptive => self.indexes[i].get(rules.len(), false, build),
            Scan::Indexed => self.indexes[i].get(rules.len(), true, build),
        }
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
                return self.settle(agent, target, scan).0;
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
                let mut tries = Tries::new(scan, index, &hay);
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
            let mut tries = Tries::new(scan, index, &hay);
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

    fn decide_by(
        &self,
        agent: &str,
        url: &str,
        scan: Scan,
    ) -> Result<Decision, Error> {
        let target = match_octets(url, &self.profile)?;
        let (verdict, reason, hits, winner, selection) =
            self.settle(agent, &target, scan);
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
    fn settle(&self, agent: &str, target: &[u8], scan: Scan) -> Settled<'_> {
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
        let rules: usize =
            selection.groups.iter().map(|&i| self.groups[i].rules.len()).sum();
        let hay = match rules >= SHARED_SEARCH_RULES {
            true => Haystack::table(target),
            false => Haystack::direct(target),
        };
        let mut hits = Vec::new();
        let how = p.priority;
        for &i in &selection.groups {
            let rules = &self.groups[i].rules;
            let index = self.index_of(i, scan);
            let mut tries = Tries::new(scan, index, &hay);
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

/// Verdict, reason, hits, the winner's position among them, the groups.
type Settled<'r> = (Verdict, Reason, Vec<Hit<'r>>, Option<usize>, Selection);

/// Which rules a decision tries.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scan {
    /// Every rule, searched octet by octet: the plain reading.
    Linear,
    /// The index's candidates once the group has an index (see
    /// `index::LazyIndex`), else every rule; long targets are searched
    /// through their octet table.
    Adaptive,
    /// As `Adaptive`, with every group indexed at once.
    Indexed,
}

/// How one decision tries the rules of one group.
enum Tries<'h, 't, 'r> {
    /// Octet by octet: the plain reading.
    Plain(Plain<'t>),
    /// Through the decision's haystack.
    Hay(&'h Haystack<'t>),
    /// Shared bitsets, the first shape walked through the group's trie.
    Trie {
        index: &'r Index,
        trie: &'r PieceTrie,
        hay: Numbered<'h, 't>,
        memo: Memo,
    },
    /// The first shape walked through the group's trie without a memo,
    /// each piece searched with its kept searcher: for few rules.
    Walk { index: &'r Index, trie: &'r PieceTrie, hay: Searched<'r, 't> },
}

impl<'h, 't, 'r> Tries<'h, 't, 'r> {
    fn new(
        scan: Scan,
        index: Option<&'r Index>,
        hay: &'h Haystack<'t>,
    ) -> Tries<'h, 't, 'r> {
        match (scan, index) {
            (Scan::Linear, _) => Tries::Plain(Plain(hay.target())),
            (_, Some(index)) if hay.is_shared() => {
                let trie = index.trie();
                let hay = hay.numbered(trie.piece_count());
                Tries::Trie { index, trie, hay, memo: trie.memo() }
            }
            (_, Some(index)) => Tries::walk(index, hay.target()),
            _ => Tries::Hay(hay),
        }
    }

    /// An indexed group's rules tried one by one through its trie.
    fn walk(index: &'r Index, target: &'t [u8]) -> Tries<'h, 't, 'r> {
        let trie = index.trie();
        Tries::Walk { index, trie, hay: trie.searched(target) }
    }

    /// How rule `r` of `rules` matches, if it does.
    fn hit(
        &mut self,
        rules: &'r [Rule],
        r: usize,
        how: Priority,
    ) -> Option<Hit<'r>> {
        let rule = rules.get(r)?;
        match self {
            Tries::Trie { index, hay, .. }
                if index.rejects(r, hay.bytes()) =>
            {
                None
            }
            Tries::Walk { index, hay, .. }
                if index.rejects(r, hay.bytes()) =>
            {
                None
            }
            Tries::Plain(plain) => hit(rule, how, |_, s| s.matches_in(plain)),
            Tries::Hay(hay) => hit(rule, how, |_, s| s.matches_in(*hay)),
            Tries::Trie { trie, hay, memo, .. } => {
                hit(rule, how, |k, shape| match k {
                    0 => trie
                        .match_end(r, hay, memo)
                        .unwrap_or_else(|()| shape.matches_in(hay)),
                    _ => shape.matches_in(hay),
                })
            }
            Tries::Walk { trie, hay, .. } => {
                hit(rule, how, |k, shape| match k {
                    0 => trie
                        .walk_end(r, hay)
                        .unwrap_or_else(|()| shape.matches_in(hay)),
                    _ => shape.matches_in(hay),
                })
            }
        }
    }
}

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

    fn add(&mut self, hit: Option<Hit<'_>>) {
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
struct Hit<'r> {
    rule: &'r Rule,
    normalized: &'r [u8],
    priority: usize,
    end: usize,
}

/// How `rule` matches, if it does, where `end(k, shape)` is where the
/// shortest match of the rule's k-th shape ends. Empty rules never match
/// (A8).
fn hit<'r>(
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

fn verdict_of(kind: RuleKind) -> Verdict {
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
