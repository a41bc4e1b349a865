//! One decision's target, searched for the literal pieces of many rules:
//! the fast answer to "where does this piece next occur, at or after this
//! octet?" that `pattern::Shape::matches_in` asks once per piece.
//!
//! Two strategies, chosen per decision by the caller:
//!
//! - **Direct** ([`Haystack::direct`]): each question is a `memchr::memmem`
//!   search from the given octet, O(|target| + |piece|) at worst and
//!   nothing built. Right when few rules ask (one rule, however hostile,
//!   costs one scan of the target per piece: no per-decision table).
//! - **Table** ([`Haystack::table`]): bit-parallel. On first use of an
//!   octet its occurrence bitset is built (O(|target|), one bit per
//!   octet); on first use of a piece its start bitset is the AND of its
//!   octets' bitsets, each shifted by the octet's offset
//!   (O(|piece| · |target| / 64) word operations), kept for the decision.
//!   A question is then a masked word and, if that word is empty, a scan
//!   of a one-bit-per-word summary: O(1 + |target| / 4096). Right when
//!   many rules share a long target (a 500 KiB wildcard file).
//!
//! A group whose index numbered its pieces asks through [`Numbered`]:
//! the bitset of piece `id` is then found in an array slot, O(1), instead
//! of by hashing the piece.
//!
//! Memory: |target| / 8 bytes per distinct octet and per distinct piece
//! asked about, freed with the decision. Knows nothing of rules, agents
//! or precedence; never panics.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::pattern::{Find, Plain};

/// Targets shorter than this are searched octet by octet whatever the
/// caller asked: a table, or `memmem`'s set-up, would cost more than it
/// saves.
const TABLE_MIN_LEN: usize = 64;

/// A target and how pieces are found in it.
pub(crate) struct Haystack<'t> {
    target: &'t [u8],
    /// `None`: direct search.
    table: Option<OnceCell<Table>>,
}

impl<'t> Haystack<'t> {
    /// Searches `target` with `memmem`, building nothing.
    pub fn direct(target: &'t [u8]) -> Haystack<'t> {
        Haystack { target, table: None }
    }

    /// Searches `target` through bitsets built on first use (directly
    /// when the target is short).
    pub fn table(target: &'t [u8]) -> Haystack<'t> {
        let table = (target.len() >= TABLE_MIN_LEN).then(OnceCell::new);
        Haystack { target, table }
    }
}

impl<'t> Haystack<'t> {
    /// The target.
    pub fn target(&self) -> &'t [u8] {
        self.target
    }

    /// Searches go through shared bitsets.
    pub fn is_shared(&self) -> bool {
        self.table.is_some()
    }
}

impl Find for Haystack<'_> {
    fn bytes(&self) -> &[u8] {
        self.target
    }

    fn find(&self, needle: &[u8], from: usize) -> Option<usize> {
        let hay = self.target.get(from..)?;
        if hay.starts_with(needle) {
            // Where it is asked for (runs of `*a*a…` find it at once; an
            // empty needle is always there).
            return Some(from);
        }
        if let [octet] = needle {
            return memchr::memchr(*octet, hay).map(|i| i + from);
        }
        match &self.table {
            // `memmem` pays a set-up per search: short targets are
            // searched octet by octet.
            None if self.target.len() < TABLE_MIN_LEN => {
                Plain(self.target).find(needle, from)
            }
            None => memchr::memmem::find(hay, needle).map(|i| i + from),
            Some(cell) => {
                let table = cell.get_or_init(Table::default);
                table.next(self.target, needle, from)
            }
        }
    }
}

/// A [`Haystack`] seen by one group's rules, whose pieces the group's
/// index has numbered 0..count: in table mode a numbered piece's bitset
/// is found by its number (an array slot), not by hashing its octets.
pub(crate) struct Numbered<'h, 't> {
    hay: &'h Haystack<'t>,
    count: usize,
    /// 0: not built yet; else 1 + its place in `bits`. Allocated on the
    /// first numbered search.
    slots: RefCell<Vec<u32>>,
    bits: RefCell<Vec<Bits>>,
}

impl<'t> Haystack<'t> {
    /// This haystack for a group whose pieces are numbered below `count`.
    pub fn numbered(&self, count: usize) -> Numbered<'_, 't> {
        Numbered {
            hay: self,
            count,
            slots: RefCell::default(),
            bits: RefCell::default(),
        }
    }
}

impl Find for Numbered<'_, '_> {
    fn bytes(&self) -> &[u8] {
        self.hay.target
    }

    fn find(&self, needle: &[u8], from: usize) -> Option<usize> {
        self.hay.find(needle, from)
    }

    fn find_numbered(
        &self,
        id: u32,
        needle: &[u8],
        from: usize,
    ) -> Option<usize> {
        let Some(cell) = &self.hay.table else {
            return self.hay.find(needle, from);
        };
        let target = self.hay.target;
        if from > target.len() || id as usize >= self.count {
            return self.hay.find(needle, from);
        }
        if needle.is_empty() {
            return Some(from);
        }
        let mut slots = self.slots.borrow_mut();
        if slots.is_empty() {
            slots.resize(self.count, 0);
        }
        let slot = &mut slots[id as usize];
        let mut bits = self.bits.borrow_mut();
        if *slot == 0 {
            let table = cell.get_or_init(Table::default);
            bits.push(table.starts(target, needle));
            // OK: at most `count` (< 2^32) bitsets are pushed.
            *slot = bits.len() as u32;
        }
        bits[*slot as usize - 1].next(from)
    }
}

/// A set of positions of the target, one bit each, with a summary bit
/// per 64-bit word saying whether it has any bit set.
struct Bits {
    words: Box<[u64]>,
    summary: Box<[u64]>,
}

impl Bits {
    fn from_words(words: Box<[u64]>) -> Bits {
        let mut summary = vec![0u64; words.len().div_ceil(64)];
        for (w, &word) in words.iter().enumerate() {
            if word != 0 {
                summary[w / 64] |= 1 << (w % 64);
            }
        }
        Bits { words, summary: summary.into() }
    }

    /// The least position at or after `from` in the set.
    fn next(&self, from: usize) -> Option<usize> {
        let w = from / 64;
        let word = self.words.get(w)? & (u64::MAX << (from % 64));
        if word != 0 {
            return Some(w * 64 + word.trailing_zeros() as usize);
        }
        let first = w + 1;
        let mut s = first / 64;
        let mut mask = self.summary.get(s)?
            & u64::MAX.checked_shl((first % 64) as u32).unwrap_or(0);
        loop {
            if mask != 0 {
                let w = s * 64 + mask.trailing_zeros() as usize;
                let word = self.words[w];
                return Some(w * 64 + word.trailing_zeros() as usize);
            }
            s += 1;
            mask = *self.summary.get(s)?;
        }
    }
}

/// A fast hash for short byte strings (FxHash's multiply-rotate): the
/// table is looked up once per piece per rule, so SipHash would dominate.
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
    }

    fn write_u128(&mut self, n: u128) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        // OK: the two halves of n, each taken whole.
        for half in [n as u64, (n >> 64) as u64] {
            self.0 = (self.0.rotate_left(5) ^ half).wrapping_mul(K);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The bitsets of one target, built on first use.
#[derive(Default)]
struct Table {
    /// Where each octet occurs.
    octets: RefCell<HashMap<u8, Box<[u64]>, BuildHasherDefault<Fx>>>,
    /// Where each piece of at most 15 octets starts, by [`packed`] key.
    short: RefCell<HashMap<u128, Bits, BuildHasherDefault<Fx>>>,
    /// Where each longer piece starts.
    long: RefCell<HashMap<Box<[u8]>, Bits, BuildHasherDefault<Fx>>>,
}

/// A piece of at most 15 octets as one number (octets, then the length
/// in the top octet), so that a lookup compares one number, not bytes.
fn packed(piece: &[u8]) -> Option<u128> {
    (piece.len() < 16).then(|| {
        let mut word = [0u8; 16];
        word[..piece.len()].copy_from_slice(piece);
        // OK: piece.len() < 16.
        word[15] = piece.len() as u8;
        u128::from_le_bytes(word)
    })
}

impl Table {
    fn next(
        &self,
        target: &[u8],
        needle: &[u8],
        from: usize,
    ) -> Option<usize> {
        if let Some(key) = packed(needle) {
            if let Some(bits) = self.short.borrow().get(&key) {
                return bits.next(from);
            }
            let bits = self.starts(target, needle);
            let at = bits.next(from);
            self.short.borrow_mut().insert(key, bits);
            return at;
        }
        if let Some(bits) = self.long.borrow().get(needle) {
            return bits.next(from);
        }
        let bits = self.starts(target, needle);
        let at = bits.next(from);
        self.long.borrow_mut().insert(needle.into(), bits);
        at
    }

    /// Where `needle` (not empty) starts: bit i is set when every octet
    /// `needle[k]` is at `i + k`.
    fn starts(&self, target: &[u8], needle: &[u8]) -> Bits {
        // A start whose piece would run past the end finds a clear bit
        // (the last word's high bits are clear), so none is set.
        let mut acc = vec![0u64; target.len().div_ceil(64)];
        let mut octets = self.octets.borrow_mut();
        for (k, &b) in needle.iter().enumerate() {
            let occ =
                octets.entry(b).or_insert_with(|| occurrences(target, b));
            // acc[i] &= occ[i + k]: shift the octet's set down by k.
            let (ws, bs) = (k / 64, k % 64);
            let mut any = 0;
            for (w, a) in acc.iter_mut().enumerate() {
                let lo = occ.get(w + ws).copied().unwrap_or(0);
                let hi = occ.get(w + ws + 1).copied().unwrap_or(0);
                let shifted = match bs {
                    0 => lo,
                    _ => (lo >> bs) | (hi << (64 - bs)),
                };
                *a = if k == 0 { shifted } else { *a & shifted };
                any |= *a;
            }
            if any == 0 {
                break;
            }
        }
        Bits::from_words(acc.into())
    }
}

/// Bit i set where `target[i] == b`.
fn occurrences(target: &[u8], b: u8) -> Box<[u64]> {
    target
        .chunks(64)
        .map(|chunk| {
            chunk
                .iter()
                .enumerate()
                .fold(0u64, |w, (i, &x)| w | (u64::from(x == b) << i))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 2_000, failure_persistence: None, ..Default::default()
        })]

        #[test]
        fn every_strategy_finds_what_the_plain_search_finds(
            target in "[abc/]{0,300}",
            needle in "[abc/]{0,70}",
            from in 0usize..310,
        ) {
            let t = target.as_bytes();
            let n = needle.as_bytes();
            let want = Plain(t).find(n, from);
            proptest::prop_assert_eq!(Haystack::direct(t).find(n, from), want);
            let table = Haystack::table(t);
            proptest::prop_assert_eq!(table.find(n, from), want);
            // Asked again: from the kept bitset.
            proptest::prop_assert_eq!(table.find(n, from), want);
            let numbered = table.numbered(2);
            proptest::prop_assert_eq!(numbered.find_numbered(1, n, from), want);
            proptest::prop_assert_eq!(numbered.find_numbered(1, n, from), want);
            proptest::prop_assert_eq!(table.find(n, 0), Plain(t).find(n, 0));
        }

        #[test]
        fn the_octet_table_finds_what_the_plain_search_finds(
            pattern in "[abc*/]{0,10}\\$?",
            target in "/[abc/]{60,200}",
        ) {
            let p = crate::pattern::Pattern::compile(pattern.as_bytes(), &crate::profile::Profile::rfc9309());
            let s = p.shape(pattern.as_bytes());
            let t = target.as_bytes();
            proptest::prop_assert_eq!(
                s.matches_in(&Haystack::table(t)),
                s.matches(t)
            );
            proptest::prop_assert_eq!(
                s.matches_in(&Haystack::direct(t)),
                s.matches(t)
            );
        }
    }

    #[test]
    fn a_piece_found_only_at_the_very_end_of_a_long_target() {
        let mut t = vec![b'a'; 10_000];
        t.extend_from_slice(b"acb");
        let table = Haystack::table(&t);
        assert_eq!(table.find(b"cb", 0), Some(10_001));
        assert_eq!(table.find(b"acb", 9_000), Some(10_000));
        assert_eq!(table.find(b"acbx", 0), None);
        assert_eq!(table.find(b"a", 10_001), None);
        assert_eq!(table.find(b"b", 10_003), None);
    }
}
