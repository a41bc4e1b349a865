//! Which rules of a group can match a target, without trying them all: a
//! fast path for `decide`, which must give the same decisions as trying
//! every rule (`decide_linear`; property tests compare the two).
//!
//! Every target a pattern matches starts with the pattern's first literal
//! piece, contains each of its pieces and, when the pattern ends in `$`,
//! ends with its last piece. So each rule is filed under one key: its
//! literal prefix when that has L ≥ 2 octets (a *prefix* key: it must
//! occur at the target's start), else the literal suffix of an anchored
//! pattern (`/*.pdf$`: a *suffix* key, at the target's end) or its longest
//! piece (`/*x`: an *infix* key, anywhere); keys are cut to 64 octets.
//! The rest (`/`, `/*`) are tried for every target. All the distinct keys
//! of a group go into one Aho-Corasick automaton (the `aho-corasick`
//! crate); a target is scanned once, overlapping, and each key found
//! names its rules when it is where its kind requires. The index only
//! ever leaves out rules that cannot match: the caller still matches every
//! candidate.
//!
//! # Complexity
//!
//! Building: linear in the keys' octets (at most 64 per rule) for the
//! automaton, plus a few words per rule. A lookup: O(|target| + keys
//! found) automaton steps, each key's rules appended once (a bitset over
//! the keys), so O(|target| + candidates). A build still costs a few
//! scans of the group: [`LazyIndex`] builds it only once the group has
//! been consulted [`BUILD_AFTER`] times, so a file decided once is
//! scanned. Knows nothing of agents or precedence.
//!
//! The automaton is a contiguous NFA, never a DFA (the crate's automatic
//! choice for 100 keys or fewer): a group is indexed after a few
//! decisions, so building is paid per file, and a DFA's build dominated.
//! Measured (`cargo run --release -p robots-bench --example spin --
//! corpus-probes`: each real-corpus file parsed for one agent, then 8
//! paths): 395 ms per corpus pass with the automatic choice, 221 ms with
//! the contiguous NFA (callgrind: 5.55 G against 2.51 G instructions);
//! on the 20,000-rule file (`large-file`, where the automatic choice is
//! the contiguous NFA already) both 0.32 µs per check.
//!
//! For decisions that stop early (`decide`, verdict only), the index also
//! keeps each rule's *bound* (the longest of its patterns, in octets: the
//! most a match of it can weigh) and the rules in decreasing bound, one
//! sort at build time, O(n log n); [`Index::by_bound`] puts a lookup's
//! candidates in that order: a sort when they are few, else one walk of
//! the whole order over a bitset of them, O(rules / 64 + rules).

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

use crate::decide::Best;
use crate::memo::GroupMemo;
use crate::parse::RuleKind;
use crate::pattern::Shape;
use crate::trie::PieceTrie;

/// The longest key.
const MAX_KEY: usize = 64;

/// Groups with fewer rules are scanned without an index.
const MIN_RULES: usize = 8;

/// A group is indexed on its consultation number `BUILD_AFTER`.
const BUILD_AFTER: u32 = 4;

/// Where a rule is filed.
enum Key<'a> {
    /// Every target it matches starts with this.
    Prefix(&'a [u8]),
    /// Every target it matches ends with this.
    Suffix(&'a [u8]),
    /// Every target it matches contains this.
    Infix(&'a [u8]),
    Always,
}

/// At most [`MAX_KEY`] octets of `key`, from its start or its end.
fn cut(key: &[u8], from_end: bool) -> &[u8] {
    let n = key.len().min(MAX_KEY);
    if from_end { &key[key.len() - n..] } else { &key[..n] }
}

/// The key of a rule: its literal prefix if it has two octets or more,
/// else the longer of the literal suffix of an anchored pattern and the
/// longest literal piece (which every target it matches must contain). A
/// rule with a second pattern (`/dir/$` for `/dir/index.html`) matches
/// when either does, so it is filed under the shortest prefix, which must
/// be a prefix of the other, or tried always.
fn key<'r>(mut shapes: impl Iterator<Item = Shape<'r>>) -> Key<'r> {
    let Some(main) = shapes.next() else { return Key::Always };
    let prefix = main.literal_prefix();
    if let Some(other) = shapes.next() {
        let p = other.literal_prefix();
        let shorter = if p.len() < prefix.len() { p } else { prefix };
        let related = p.starts_with(prefix) || prefix.starts_with(p);
        return match related && shorter.len() >= 2 {
            true => Key::Prefix(cut(shorter, false)),
            false => Key::Always,
        };
    }
    if prefix.len() >= 2 {
        return Key::Prefix(cut(prefix, false));
    }
    let suffix = main.literal_suffix().unwrap_or_default();
    let longest = main.pieces().max_by_key(|p| p.len()).unwrap_or_default();
    match (suffix.len(), longest.len()) {
        (s, l) if s > 0 && s >= l => Key::Suffix(cut(suffix, true)),
        (_, l) if l >= 2 => Key::Infix(cut(longest, false)),
        (s, _) if s > 0 => Key::Suffix(cut(suffix, true)),
        _ => Key::Always,
    }
}

/// Where a key must be found for its rules to be candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Start,
    End,
    Anywhere,
}

/// A rule filed under a key, and where the key must be.
#[derive(Clone, Copy, Debug)]
struct Entry {
    rule: u32,
    place: Place,
}

/// The distinct keys of a group in one automaton, each with the rules
/// filed under it (CSR layout: `entries[starts[k]..starts[k + 1]]`).
#[derive(Clone, Debug)]
struct Keys {
    automaton: AhoCorasick,
    starts: Vec<u32>,
    entries: Vec<Entry>,
}

impl Keys {
    /// The automaton over `filed` (key, entry) pairs; `None` when it
    /// cannot be built (then the caller tries those rules always).
    fn build(filed: &[(&[u8], Entry)]) -> Option<Keys> {
        let mut numbers: HashMap<&[u8], usize> = HashMap::new();
        let mut keys: Vec<&[u8]> = Vec::new();
        let mut counts: Vec<u32> = Vec::new();
        let numbered: Vec<(usize, Entry)> = filed
            .iter()
            .map(|&(key, e)| {
                let k = *numbers.entry(key).or_insert_with(|| {
                    keys.push(key);
                    counts.push(0);
                    keys.len() - 1
                });
                counts[k] += 1;
                (k, e)
            })
            .collect();
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .kind(Some(AhoCorasickKind::ContiguousNFA))
            .build(&keys)
            .ok()?;
        let mut starts = vec![0u32; keys.len() + 1];
        for (k, &c) in counts.iter().enumerate() {
            starts[k + 1] = starts[k] + c;
        }
        let mut next = starts.clone();
        let blank = Entry { rule: 0, place: Place::Anywhere };
        let mut entries = vec![blank; numbered.len()];
        for (k, e) in numbered {
            entries[next[k] as usize] = e;
            next[k] += 1;
        }
        Some(Keys { automaton, starts, entries })
    }

    /// Appends the rules whose key is found in `target` where its place
    /// requires, each once.
    fn look(&self, target: &[u8], out: &mut Vec<usize>) {
        let keys = self.starts.len() - 1;
        // Keys whose `Anywhere` rules were appended already.
        let mut seen = vec![0u64; keys.div_ceil(64)];
        for m in self.automaton.find_overlapping_iter(target) {
            let k = m.pattern().as_usize();
            let at_start = m.start() == 0;
            let at_end = m.end() == target.len();
            let first = seen[k / 64] & (1 << (k % 64)) == 0;
            if !(first || at_start || at_end) {
                continue;
            }
            let bucket = &self.entries
                [self.starts[k] as usize..self.starts[k + 1] as usize];
            for e in bucket {
                let due = match e.place {
                    Place::Start => at_start,
                    Place::End => at_end,
                    Place::Anywhere => first,
                };
                if due {
                    out.push(e.rule as usize);
                }
            }
            seen[k / 64] |= 1 << (k % 64);
        }
    }
}

/// The index of one group's rules.
#[derive(Clone, Debug)]
pub(crate) struct Index {
    /// Tried for every target.
    always: Vec<u32>,
    /// The others, by key.
    keys: Option<Keys>,
    /// The rules' patterns' pieces, as a trie.
    trie: PieceTrie,
    /// Each rule's bound: its longest pattern, in octets.
    bounds: Vec<u32>,
    /// The rules in decreasing bound (file order among equals).
    by_bound: Vec<u32>,
    /// The highest bound of any allow and of any disallow rule, when
    /// the kinds are known.
    tops: Option<Best>,
    /// Each rule's last octet, when every target it matches ends with
    /// it (one anchored pattern ending in a literal); [`NO_TAIL`] else.
    tails: Vec<u16>,
}

/// In `Index::tails`: the rule may match a target ending in any octet.
const NO_TAIL: u16 = 256;

/// The octet every target `shapes` match ends with, if there is one:
/// a single anchored pattern whose last piece is not empty.
fn tail<'r>(shapes: &[Shape<'r>]) -> u16 {
    match shapes {
        [only] if only.is_anchored() => only
            .literal_suffix()
            .and_then(|s| s.last())
            .map_or(NO_TAIL, |&b| u16::from(b)),
        _ => NO_TAIL,
    }
}

impl Index {
    /// Indexes rules, each given by its patterns (a rule's position in
    /// the sequence is what candidates name).
    pub fn new<'r, R>(rules: impl IntoIterator<Item = R>) -> Index
    where
        R: Iterator<Item = Shape<'r>>,
    {
        let mut always = Vec::new();
        let mut filed = Vec::new();
        let mut mains = Vec::new();
        let mut bounds = Vec::new();
        let mut tails = Vec::new();
        for (i, shapes) in rules.into_iter().enumerate() {
            let shapes: Vec<Shape<'r>> = shapes.collect();
            tails.push(tail(&shapes));
            mains.push(shapes.first().copied());
            let bound = shapes
                .iter()
                .filter(|s| !s.is_empty())
                .map(|s| s.normalized().len())
                .max()
                .unwrap_or(0);
            // OK: a pattern is a line of a file far below 4 GiB.
            bounds.push(u32::try_from(bound).unwrap_or(u32::MAX));
            // OK: a group has far fewer than 2^32 rules.
            let rule = i as u32;
            let place = match key(shapes.into_iter()) {
                Key::Prefix(p) => Some((p, Place::Start)),
                Key::Suffix(x) => Some((x, Place::End)),
                Key::Infix(x) => Some((x, Place::Anywhere)),
                Key::Always => None,
            };
            match place {
                Some((key, place)) => filed.push((key, Entry { rule, place })),
                None => always.push(rule),
            }
        }
        let keys = Keys::build(&filed);
        if keys.is_none() {
            always.extend(filed.iter().map(|(_, e)| e.rule));
            always.sort_unstable();
        }
        let mut by_bound: Vec<u32> = (0..bounds.len() as u32).collect();
        by_bound.sort_by_key(|&r| std::cmp::Reverse(bounds[r as usize]));
        let trie = PieceTrie::new(mains.into_iter());
        Index { always, keys, trie, bounds, by_bound, tops: None, tails }
    }

    /// Rule `r` cannot match `target`: it must end in another octet
    /// (O(1); `false` says nothing).
    pub fn rejects(&self, r: usize, target: &[u8]) -> bool {
        match self.tails.get(r) {
            Some(&NO_TAIL) | None => false,
            Some(&t) => target.last().is_none_or(|&b| u16::from(b) != t),
        }
    }

    /// The index, knowing the rules' kinds (`allows`, in rule order), so
    /// that a decision knows the highest bound of each kind.
    pub fn with_kinds(mut self, allows: impl Iterator<Item = bool>) -> Index {
        let mut tops = Best::default();
        for (r, allow) in allows.enumerate() {
            let kind =
                if allow { RuleKind::Allow } else { RuleKind::Disallow };
            tops.add_match(kind, self.bound(r));
        }
        self.tops = Some(tops);
        self
    }

    /// The highest bound of any allow rule and of any disallow rule
    /// (`None` in either: there is none of that kind); `None` unless the
    /// index was built [`Index::with_kinds`].
    pub fn tops(&self) -> Option<Best> {
        self.tops
    }

    /// The `n` rules of highest bound, highest first.
    pub fn longest(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        self.by_bound.iter().take(n).map(|&r| r as usize)
    }

    /// Rule `r`'s bound: the priority (pattern octets) of its longest
    /// pattern, the most a match of it can have.
    pub fn bound(&self, r: usize) -> usize {
        self.bounds.get(r).map_or(0, |&b| b as usize)
    }

    /// `candidates` (distinct rule positions) in decreasing bound.
    pub fn by_bound(&self, mut candidates: Vec<usize>) -> Vec<usize> {
        let rules = self.bounds.len();
        if candidates.len() < rules / 64 + 16 {
            candidates.sort_by_key(|&r| std::cmp::Reverse(self.bound(r)));
            return candidates;
        }
        let mut bits = vec![0u64; rules.div_ceil(64)];
        for &c in &candidates {
            if let Some(word) = bits.get_mut(c / 64) {
                *word |= 1 << (c % 64);
            }
        }
        candidates.clear();
        let marked = |r: usize| {
            bits.get(r / 64).is_some_and(|w| w & (1 << (r % 64)) != 0)
        };
        candidates.extend(
            self.by_bound.iter().map(|&r| r as usize).filter(|&r| marked(r)),
        );
        candidates
    }

    /// The rules that may match `target` (each once, in no particular
    /// order); every rule that matches is among them.
    pub fn candidates(&self, target: &[u8]) -> Vec<usize> {
        let mut found: Vec<usize> =
            self.always.iter().map(|&i| i as usize).collect();
        if let Some(keys) = &self.keys {
            keys.look(target, &mut found);
        }
        found
    }

    /// The trie of the rules' patterns.
    pub fn trie(&self) -> &PieceTrie {
        &self.trie
    }
}

/// A group's index, kept in the group's memo (`memo::GroupMemo`) and
/// built on the group's [`BUILD_AFTER`]th consultation (or at once when
/// forced).
pub(crate) struct LazyIndex;

impl LazyIndex {
    /// The index, if it is built (counts no consultation).
    pub fn built(memo: &GroupMemo) -> Option<&Index> {
        memo.kept()
    }

    /// The index of a group of `rules` rules, built by `build` if it is
    /// (now) worth having; `force` builds it whatever the size and count.
    pub fn get(
        memo: &GroupMemo,
        rules: usize,
        force: bool,
        build: impl FnOnce() -> Index,
    ) -> Option<&Index> {
        if let Some(index) = memo.kept() {
            return Some(index);
        }
        let due = rules >= MIN_RULES && memo.consult() >= BUILD_AFTER;
        (force || due).then(|| memo.keep(build)).flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::RobotsTxt;
    use crate::profile::Profile;

    fn candidates(rules: &[&str], target: &str) -> Vec<usize> {
        let body: String =
            rules.iter().map(|r| format!("Disallow: {r}\n")).collect();
        let robots = RobotsTxt::parse(
            format!("User-agent: *\n{body}").as_bytes(),
            &Profile::rfc9309(),
        );
        let rules = &robots.groups()[0].rules;
        let index = Index::new(rules.iter().map(|r| r.shapes()));
        let mut got = index.candidates(target.as_bytes());
        got.sort();
        got
    }

    #[test]
    fn every_matching_rule_is_a_candidate() {
        let rules = ["/shop/", "/shop/cart", "/blog", "/", "/*.pdf$", "/*x"];
        for (target, matching) in [
            ("/shop/cart/1", &[0, 1, 3][..]),
            ("/a.pdf", &[3, 4]),
            ("/", &[3]),
            ("/x", &[3, 5]),
        ] {
            let got = candidates(&rules, target);
            for m in matching {
                assert!(got.contains(m), "{target}: {m} not in {got:?}");
            }
        }
    }

    #[test]
    fn a_large_group_yields_few_candidates() {
        let owned: Vec<String> = (0..2000)
            .map(|i| match i % 4 {
                0 => format!("/d{i}/"),
                1 => format!("/d{i}/page$"),
                2 => format!("/*{i}.pdf$"),
                _ => format!("/section-{i}/*/x"),
            })
            .collect();
        let rules: Vec<&str> = owned.iter().map(String::as_str).collect();
        let got = candidates(&rules, "/d1000/page");
        assert!(got.contains(&1000), "{got:?}");
        assert!(got.len() < 20, "{} candidates", got.len());
        let got = candidates(&rules, "/a/b/1002.pdf");
        assert!(got.contains(&1002), "{got:?}");
        assert!(got.len() < 20, "{} candidates", got.len());
    }
}
