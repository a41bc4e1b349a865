//! Which rules of a group can match a target, without trying them all: a
//! fast path for `decide`, which must give the same decisions as trying
//! every rule (`decide_linear`; property tests compare the two).
//!
//! Every target a pattern matches starts with the pattern's first literal
//! piece, contains each of its pieces and, when the pattern ends in `$`,
//! ends with its last piece. So a rule whose literal prefix has L ≥ 2
//! octets is filed under its first n = min(L, 64) octets (a hash, and n);
//! a target looks, for each length n some rule is filed under, in the
//! bucket of its own first n octets (one pass over at most 64 octets).
//! Rules with no such prefix are filed by the end of their last piece
//! when anchored (`/*.pdf$`), or by their longest piece, looked up at
//! every place in the target with a rolling hash (`/*x`); the rest (`/`,
//! `/*`) are tried for every target. A bucket may hold rules that do not
//! match (hash collisions, longer prefixes): the caller still matches
//! every candidate, so the index only ever leaves out rules that cannot
//! match.
//!
//! Building is linear in the rules' key octets (at most 64 per rule) and
//! memory is a few words per rule, but a build still costs a few scans of
//! the group: [`LazyIndex`] builds it only once the group has been
//! consulted [`BUILD_AFTER`] times, so a file decided once is scanned.
//! Knows nothing of agents or precedence.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::pattern::Shape;

/// The longest key.
const MAX_KEY: usize = 64;

/// Groups with fewer rules are scanned without an index.
const MIN_RULES: usize = 8;

/// A group is indexed on its consultation number `BUILD_AFTER`.
const BUILD_AFTER: u32 = 4;

/// One step of FNV-1a: small, and good enough to spread path prefixes.
fn step(h: u64, b: u8) -> u64 {
    (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
}

const SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// A rule filed under a key of `len` octets.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    rule: u32,
    len: u8,
}

/// Rules by the hash of their key, bucketed (CSR layout), with the set of
/// key lengths in use.
#[derive(Clone, Debug, Default)]
struct Table {
    /// `entries[starts[b]..starts[b + 1]]` is bucket `b`.
    starts: Vec<u32>,
    entries: Vec<Entry>,
    /// Bit n: some key has n octets.
    lens: u128,
}

impl Table {
    /// Appends the rules of bucket `b` whose key is `n` octets long.
    fn rules_in(&self, b: usize, n: usize, out: &mut Vec<usize>) {
        let bucket = &self.entries
            [self.starts[b] as usize..self.starts[b + 1] as usize];
        out.extend(
            bucket
                .iter()
                .filter(|e| usize::from(e.len) == n)
                .map(|e| e.rule as usize),
        );
    }

    /// Files each `(hash, entry)`; buckets keep file order.
    fn build(keyed: &[(u64, Entry)]) -> Table {
        if keyed.is_empty() {
            return Table::default();
        }
        let mask = keyed.len().next_power_of_two() - 1;
        let mut starts = vec![0u32; mask + 2];
        let mut lens = 0u128;
        for &(h, e) in keyed {
            starts[(h as usize & mask) + 1] += 1;
            lens |= 1 << e.len;
        }
        for b in 0..=mask {
            starts[b + 1] += starts[b];
        }
        let mut next = starts.clone();
        let mut entries = vec![Entry::default(); keyed.len()];
        for &(h, e) in keyed {
            let slot = &mut next[h as usize & mask];
            entries[*slot as usize] = e;
            *slot += 1;
        }
        Table { starts, entries, lens }
    }

    /// The rules filed under the key `octets[..n]` for some n (each rule
    /// once: only under its own length).
    fn look<'t>(
        &self,
        octets: impl Iterator<Item = &'t u8>,
        out: &mut Vec<usize>,
    ) {
        let mask = self.starts.len().saturating_sub(2);
        let mut h = SEED;
        for (i, &b) in octets.take(MAX_KEY).enumerate() {
            h = step(h, b);
            let n = i + 1;
            if self.lens & (1 << n) == 0 {
                continue;
            }
            self.rules_in(h as usize & mask, n, out);
        }
    }
}

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

/// The multiplier of the rolling (polynomial) hash of infix keys.
const BASE: u64 = 0x100_0000_01b3;

fn poly(key: &[u8]) -> u64 {
    key.iter().fold(0, |h, &b| h.wrapping_mul(BASE).wrapping_add(u64::from(b)))
}

impl Table {
    /// The rules filed under some substring of `target` of a length in
    /// use (polynomial hashes, rolled along the target).
    fn look_within(&self, target: &[u8], out: &mut Vec<usize>) {
        let mask = self.starts.len().saturating_sub(2);
        let mut buckets = Vec::new();
        for n in 1..=MAX_KEY.min(target.len()) {
            if self.lens & (1 << n) == 0 {
                continue;
            }
            // The buckets of every n-octet window, each visited once: a
            // key that occurs many times names its rules once.
            buckets.clear();
            let top = (1..n).fold(1u64, |p, _| p.wrapping_mul(BASE));
            let mut h = poly(&target[..n]);
            buckets.push(h as usize & mask);
            for (&gone, &new) in target.iter().zip(&target[n..]) {
                let gone = u64::from(gone).wrapping_mul(top);
                h = h.wrapping_sub(gone).wrapping_mul(BASE);
                h = h.wrapping_add(u64::from(new));
                buckets.push(h as usize & mask);
            }
            buckets.sort_unstable();
            buckets.dedup();
            for &b in &buckets {
                self.rules_in(b, n, out);
            }
        }
    }
}

/// The index of one group's rules.
#[derive(Clone, Debug)]
pub(crate) struct Index {
    /// Tried for every target.
    always: Vec<u32>,
    /// By the first octets of the literal prefix.
    prefix: Table,
    /// By the last octets of the literal suffix, read backwards.
    suffix: Table,
    /// By a literal piece, found anywhere in the target.
    infix: Table,
}

impl Index {
    /// Indexes rules, each given by its patterns (a rule's position in
    /// the sequence is what candidates name).
    pub fn new<'r, R>(rules: impl IntoIterator<Item = R>) -> Index
    where
        R: Iterator<Item = Shape<'r>>,
    {
        let mut always = Vec::new();
        let (mut prefix, mut suffix, mut infix) = (vec![], vec![], vec![]);
        for (i, shapes) in rules.into_iter().enumerate() {
            // OK: a group has far fewer than 2^32 rules, and keys have at
            // most MAX_KEY = 64 octets.
            let entry =
                |key: &[u8]| Entry { rule: i as u32, len: key.len() as u8 };
            match key(shapes) {
                Key::Prefix(p) => {
                    let h = p.iter().fold(SEED, |h, &b| step(h, b));
                    prefix.push((h, entry(p)));
                }
                Key::Suffix(x) => {
                    let h = x.iter().rev().fold(SEED, |h, &b| step(h, b));
                    suffix.push((h, entry(x)));
                }
                Key::Infix(x) => infix.push((poly(x), entry(x))),
                Key::Always => always.push(i as u32),
            }
        }
        Index {
            always,
            prefix: Table::build(&prefix),
            suffix: Table::build(&suffix),
            infix: Table::build(&infix),
        }
    }

    /// The rules that may match `target` (each once, in no particular
    /// order); every rule that matches is among them.
    pub fn candidates(&self, target: &[u8]) -> Vec<usize> {
        let mut found: Vec<usize> =
            self.always.iter().map(|&i| i as usize).collect();
        self.prefix.look(target.iter(), &mut found);
        self.suffix.look(target.iter().rev(), &mut found);
        self.infix.look_within(target, &mut found);
        found
    }
}

/// A group's index, built on the group's [`BUILD_AFTER`]th consultation
/// (or at once when forced). `Sync`: decisions may run on many threads.
#[derive(Debug, Default)]
pub(crate) struct LazyIndex {
    consulted: AtomicU32,
    index: OnceLock<Index>,
}

impl Clone for LazyIndex {
    fn clone(&self) -> LazyIndex {
        LazyIndex {
            consulted: AtomicU32::new(self.consulted.load(Ordering::Relaxed)),
            index: self.index.clone(),
        }
    }
}

impl LazyIndex {
    /// The index of a group of `rules` rules, built by `build` if it is
    /// (now) worth having; `force` builds it whatever the size and count.
    pub fn get(
        &self,
        rules: usize,
        force: bool,
        build: impl FnOnce() -> Index,
    ) -> Option<&Index> {
        if let Some(index) = self.index.get() {
            return Some(index);
        }
        let due = rules >= MIN_RULES
            && self.consulted.fetch_add(1, Ordering::Relaxed) + 1
                >= BUILD_AFTER;
        (force || due).then(|| self.index.get_or_init(build))
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
