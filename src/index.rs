//! Which rules of a group can match a target, without trying them all: a
//! fast path for `decide`, which must give the same decisions as trying
//! every rule (`decide_linear`; property tests compare the two).
//!
//! Every target a pattern matches starts with the pattern's first literal
//! piece and, when the pattern ends in `$`, ends with its last piece. So
//! a rule whose literal prefix has L ≥ 2 octets is filed under its first
//! n = min(L, 64) octets (a hash, and n); a target looks, for each length
//! n some rule is filed under, in the bucket of its own first n octets
//! (one pass over at most 64 octets). Anchored rules with no such prefix
//! (`/*.pdf$`) are filed the same way by the end of their last piece. The
//! rest (`/*x`, `/`) are tried for every target. A bucket may hold rules
//! that do not match (hash collisions, longer prefixes): the caller still
//! matches every candidate, so the index only ever leaves out rules that
//! cannot match.
//!
//! Building is linear in the rules' key octets (at most 64 per rule) and
//! memory is a few words per rule, but a build still costs a few scans of
//! the group: [`LazyIndex`] builds it only once the group has been
//! consulted [`BUILD_AFTER`] times, so a file decided once is scanned.
//! Knows nothing of agents or precedence.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::parse::Rule;

/// The longest key.
const MAX_KEY: usize = 64;

/// Groups with fewer rules are scanned without an index.
const MIN_RULES: usize = 8;

/// A group is indexed on its consultation number `BUILD_AFTER`.
pub(crate) const BUILD_AFTER: u32 = 4;

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
            let b = h as usize & mask;
            let bucket = &self.entries
                [self.starts[b] as usize..self.starts[b + 1] as usize];
            out.extend(
                bucket
                    .iter()
                    .filter(|e| usize::from(e.len) == n)
                    .map(|e| e.rule as usize),
            );
        }
    }
}

/// Where a rule is filed.
enum Key<'a> {
    Prefix(&'a [u8]),
    Suffix(&'a [u8]),
    Always,
}

fn shorter<'a>(a: Option<&'a [u8]>, b: &'a [u8]) -> &'a [u8] {
    match a {
        Some(a) if a.len() <= b.len() => a,
        _ => b,
    }
}

/// The key of a rule: the shortest prefix (and, failing that, suffix)
/// among its patterns, so that it is found through any of them; at most
/// [`MAX_KEY`] octets of it.
fn key(rule: &Rule) -> Key<'_> {
    let mut prefix = None;
    let mut suffix = None;
    let mut unanchored = false;
    for s in rule.shapes() {
        prefix = Some(shorter(prefix, s.literal_prefix()));
        match s.literal_suffix() {
            Some(x) => suffix = Some(shorter(suffix, x)),
            None => unanchored = true,
        }
    }
    match (prefix, suffix) {
        (Some(p), _) if p.len() >= 2 => {
            Key::Prefix(&p[..p.len().min(MAX_KEY)])
        }
        (_, Some(x)) if !unanchored && !x.is_empty() => {
            Key::Suffix(&x[x.len().saturating_sub(MAX_KEY)..])
        }
        _ => Key::Always,
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
}

impl Index {
    /// Indexes `rules` (positions in the slice are what candidates name).
    pub fn new(rules: &[Rule]) -> Index {
        let mut always = Vec::new();
        let mut prefix = Vec::new();
        let mut suffix = Vec::new();
        for (i, r) in rules.iter().enumerate() {
            // OK: a group has far fewer than 2^32 rules.
            let rule = i as u32;
            match key(r) {
                Key::Prefix(p) => {
                    let h = p.iter().fold(SEED, |h, &b| step(h, b));
                    // OK: keys have at most MAX_KEY = 64 octets.
                    prefix.push((h, Entry { rule, len: p.len() as u8 }));
                }
                Key::Suffix(x) => {
                    let h = x.iter().rev().fold(SEED, |h, &b| step(h, b));
                    suffix.push((h, Entry { rule, len: x.len() as u8 }));
                }
                Key::Always => always.push(rule),
            }
        }
        Index {
            always,
            prefix: Table::build(&prefix),
            suffix: Table::build(&suffix),
        }
    }

    /// The rules that may match `target` (each once, in no particular
    /// order); every rule that matches is among them.
    pub fn candidates(&self, target: &[u8]) -> Vec<usize> {
        let mut found: Vec<usize> =
            self.always.iter().map(|&i| i as usize).collect();
        self.prefix.look(target.iter(), &mut found);
        self.suffix.look(target.iter().rev(), &mut found);
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
    /// The index of `rules` if it is (now) worth having; `force` builds
    /// it whatever the size and count.
    pub fn get(&self, rules: &[Rule], force: bool) -> Option<&Index> {
        if let Some(index) = self.index.get() {
            return Some(index);
        }
        let due = rules.len() >= MIN_RULES
            && self.consulted.fetch_add(1, Ordering::Relaxed) + 1
                >= BUILD_AFTER;
        (force || due).then(|| self.index.get_or_init(|| Index::new(rules)))
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
        let index = Index::new(&robots.groups()[0].rules);
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
