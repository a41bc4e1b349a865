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

use crate::agent::{Selection, is_valid_product_token, select};
use crate::explain::{Decision, Reason, RuleMatch, Verdict};
use crate::haystack::Haystack;
use crate::index::Index;
use crate::parse::{RobotsTxt, Rule, RuleKind};
use crate::pattern::{Plain, Shape};
use crate::profile::{Precedence, Priority};
use crate::target::{Error, match_octets};

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

    /// `decide(..).is_allowed()`, with a URL that is not a path allowed.
    /// Takes the same path as [`RobotsTxt::decide`] but writes no
    /// explanation.
    pub fn is_allowed(&self, agent: &str, url: &str) -> bool {
        let Ok(target) = match_octets(url, &self.profile) else {
            return true;
        };
        let (verdict, ..) = self.settle(agent, &target, Scan::Adaptive);
        verdict == Verdict::Allowed
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
        for &i in &selection.groups {
            let rules = &self.groups[i].rules;
            let build = || Index::new(rules.iter().map(Rule::shapes));
            let index = match scan {
                Scan::Linear => None,
                Scan::Adaptive => {
                    self.indexes[i].get(rules.len(), false, build)
                }
                Scan::Indexed => self.indexes[i].get(rules.len(), true, build),
            };
            let how = p.priority;
            match (scan, index) {
                (Scan::Linear, _) => {
                    let plain = Plain(target);
                    hits.extend(rules.iter().filter_map(|r| {
                        hit(r, how, |_, s| s.matches_in(&plain))
                    }))
                }
                (_, Some(index)) => {
                    // In file order, so that the hits need no sort.
                    let candidates =
                        in_order(index.candidates(target), rules.len());
                    if hay.is_shared() {
                        let trie = index.trie();
                        let hay = hay.numbered(trie.piece_count());
                        let mut memo = trie.memo();
                        hits.extend(candidates.into_iter().filter_map(|r| {
                            hit(&rules[r], how, |k, shape| match k {
                                0 => trie
                                    .match_end(r, &hay, &mut memo)
                                    .unwrap_or_else(|()| {
                                        shape.matches_in(&hay)
                                    }),
                                _ => shape.matches_in(&hay),
                            })
                        }))
                    } else {
                        hits.extend(candidates.into_iter().filter_map(|r| {
                            hit(&rules[r], how, |_, s| s.matches_in(&hay))
                        }))
                    }
                }
                (_, None) => {
                    hits.extend(rules.iter().filter_map(|r| {
                        hit(r, how, |_, s| s.matches_in(&hay))
                    }))
                }
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

/// Decisions over at least this many rules search the target through
/// shared bitsets (see `haystack`); fewer, with `memmem` per piece.
const SHARED_SEARCH_RULES: usize = 32;

/// Verdict, reason, hits, the winner's position among them, the groups.
type Settled<'r> = (Verdict, Reason, Vec<Hit<'r>>, Option<usize>, Selection);

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

/// A rule that matched: the pattern that did and its priority.
struct Hit<'r> {
    rule: &'r Rule,
    normalized: &'r [u8],
    priority: usize,
}

/// How `rule` matches, if it does, where `end(k, shape)` is where the
/// shortest match of the rule's k-th shape ends. Empty rules never match
/// (A8).
fn hit<'r>(
    rule: &'r Rule,
    how: Priority,
    mut end: impl FnMut(usize, Shape<'r>) -> Option<usize>,
) -> Option<Hit<'r>> {
    let (shape, end) = rule
        .shapes()
        .enumerate()
        .filter(|(_, s)| !s.is_empty())
        .find_map(|(k, s)| end(k, s).map(|end| (s, end)))?;
    let priority = match how {
        Priority::PatternOctets => shape.normalized().len(),
        Priority::MatchedOctets => end,
    };
    Some(Hit { rule, normalized: shape.normalized(), priority })
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
