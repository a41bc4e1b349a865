//! The greedy walk of `pattern::Shape::matches_in`, shared by all the
//! rules of a group: a trie over the sequences of literal pieces.
//!
//! A pattern `p0*p1*…*pm` is matched by checking that the target starts
//! with `p0`, then placing each piece at its leftmost occurrence after the
//! previous one. Where that walk stands after `p0 … pk` depends only on
//! those pieces, not on the rule: so every rule's walk is a path from the
//! root of a trie whose edges are pieces (numbered: equal pieces, equal
//! numbers), and a decision computes each node's position once, however
//! many rules pass through it. The last piece is not an edge: it is
//! placed per rule (at the very end when the pattern is anchored).
//!
//! A decision that tries few of the group's rules (the longest rules
//! probed first, or the candidates of a short target) walks each rule's
//! path without a memo ([`PieceTrie::walk_end`]) through [`Searched`],
//! which searches a numbered piece with that piece's own `memmem`
//! searcher, built once for the group on the piece's first search and
//! kept: a `memchr::memmem::find` call builds its searcher every time,
//! which costs more than a search that stops a few octets on.
//!
//! # Complexity
//!
//! Building: one pass over the pieces, O(Σ |pattern|) with hashing; the
//! trie has at most one node per piece of every rule. A decision: each
//! node is evaluated at most once (one search of its piece), each rule
//! costs O(1) beyond its path, and the memo is one `u32` per node,
//! allocated per decision: use it for decisions over many rules. A walk
//! without memo costs one search per piece of the rule's pattern (each
//! O(|target| + |piece|)), nothing allocated but the caller's path
//! buffer. A piece's searcher is O(|piece|) to build and to keep, built
//! once per group. Knows nothing of rules' kinds, agents or precedence;
//! never panics.

use std::collections::HashMap;
use std::sync::OnceLock;

use memchr::memmem::Finder;

use crate::pattern::{Find, Plain, Shape};

/// Longer targets are not walked here (the memo holds positions as
/// `u32`); the caller matches rule by rule instead.
const MAX_TARGET: usize = (u32::MAX / 2) as usize;

/// The root: the walk before any piece, at octet 0.
const ROOT: u32 = 0;

/// A node: its parent and the piece on the edge from it.
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    piece: u32,
    /// The edge is the first piece: a prefix test, not a search.
    first: bool,
}

/// How one rule's pattern ends its walk.
#[derive(Clone, Copy, Debug)]
struct Walk {
    /// The node after the first and the middle pieces.
    node: u32,
    /// Those pieces' numbers: `PieceTrie::steps[steps.0..steps.1]`.
    steps: (u32, u32),
    /// The last piece, when the pattern has a wildcard.
    last: Option<u32>,
    anchored: bool,
}

/// The trie of one group's patterns (each rule's first shape).
#[derive(Clone, Debug, Default)]
pub(crate) struct PieceTrie {
    nodes: Vec<Node>,
    /// The pieces, by number.
    pieces: Vec<Box<[u8]>>,
    /// Each piece's searcher, by number, built on its first search.
    finders: Vec<OnceLock<Finder<'static>>>,
    /// By rule position; `None` for a rule given no shape.
    rules: Vec<Option<Walk>>,
    /// Each rule's first and middle pieces, by number, rule after rule.
    steps: Vec<u32>,
}

/// What a decision knows about each node: 0 not yet, 1 no match, else
/// 2 + the position after the node's piece.
pub(crate) struct Memo(Vec<u32>);

impl PieceTrie {
    /// The trie of these patterns, one per rule in order (`None`: the
    /// rule has none).
    pub fn new<'r>(mains: impl Iterator<Item = Option<Shape<'r>>>) -> Self {
        let root = Node { parent: ROOT, piece: 0, first: false };
        let mut t = PieceTrie { nodes: vec![root], ..PieceTrie::default() };
        let mut numbers: HashMap<&'r [u8], u32> = HashMap::new();
        let mut children: HashMap<(u32, u32), u32> = HashMap::new();
        for main in mains {
            let Some(shape) = main else {
                t.rules.push(None);
                continue;
            };
            let pieces: Vec<&[u8]> = shape.pieces().collect();
            let mut number = |piece: &'r [u8]| {
                *numbers.entry(piece).or_insert_with(|| {
                    t.pieces.push(piece.into());
                    // OK: a group has far fewer than 2^32 pieces.
                    (t.pieces.len() - 1) as u32
                })
            };
            let (walked, last) = match pieces.split_last() {
                Some((&last, rest)) if !rest.is_empty() => {
                    (rest, Some(number(last)))
                }
                _ => (&pieces[..], None),
            };
            let mut node = ROOT;
            // OK: a group's pieces number far fewer than 2^32.
            let from = t.steps.len() as u32;
            for (k, &piece) in walked.iter().enumerate() {
                let piece = number(piece);
                t.steps.push(piece);
                node = *children.entry((node, piece)).or_insert_with(|| {
                    let first = k == 0;
                    t.nodes.push(Node { parent: node, piece, first });
                    // OK: at most one node per piece, far below 2^32.
                    (t.nodes.len() - 1) as u32
                });
            }
            let anchored = shape.is_anchored();
            let steps = (from, t.steps.len() as u32);
            t.rules.push(Some(Walk { node, steps, last, anchored }));
        }
        t.finders = t.pieces.iter().map(|_| OnceLock::new()).collect();
        t
    }

    /// Piece `id`'s searcher, built on first use; `None` past the last
    /// piece.
    fn finder(&self, id: u32) -> Option<&Finder<'static>> {
        let piece = self.pieces.get(id as usize)?;
        let cell = self.finders.get(id as usize)?;
        Some(cell.get_or_init(|| Finder::new(&piece[..]).into_owned()))
    }

    /// `target`, searched through this trie's kept searchers.
    pub fn searched<'a, 't>(&'a self, target: &'t [u8]) -> Searched<'a, 't> {
        Searched { trie: self, target }
    }

    /// How many distinct pieces there are (numbers are below this).
    pub fn piece_count(&self) -> usize {
        self.pieces.len()
    }

    /// A fresh memo for one decision.
    pub fn memo(&self) -> Memo {
        Memo(vec![0; self.nodes.len()])
    }

    /// Where the shortest match of rule `r`'s pattern against `hay` ends
    /// (as `Shape::matches_in`); `Err(())` when the trie does not hold
    /// rule `r`.
    #[allow(clippy::result_unit_err)]
    pub fn match_end(
        &self,
        r: usize,
        hay: &impl Find,
        memo: &mut Memo,
    ) -> Result<Option<usize>, ()> {
        self.end_by(r, hay, |walk| self.position(walk.node, hay, memo))
    }

    /// [`PieceTrie::match_end`] without a memo: the rule's pieces are
    /// searched in order, none remembered.
    #[allow(clippy::result_unit_err)]
    pub fn walk_end(
        &self,
        r: usize,
        hay: &impl Find,
    ) -> Result<Option<usize>, ()> {
        self.end_by(r, hay, |walk| {
            let (from, to) = walk.steps;
            let steps = self.steps.get(from as usize..to as usize)?;
            let mut pos = 0;
            for (k, &id) in steps.iter().enumerate() {
                let piece = &self.pieces[id as usize];
                pos = match (k, piece.is_empty()) {
                    (0, _) => hay.bytes().starts_with(piece).then_some(0)?,
                    (_, true) => pos,
                    _ => hay.find_numbered(id, piece, pos)?,
                } + piece.len();
            }
            Some(pos)
        })
    }

    /// The end of rule `r`'s match, given `position`: where its walk
    /// stands after its first and middle pieces (`None`: it fails).
    fn end_by(
        &self,
        r: usize,
        hay: &impl Find,
        position: impl FnOnce(Walk) -> Option<usize>,
    ) -> Result<Option<usize>, ()> {
        let walk = self.rules.get(r).copied().flatten().ok_or(())?;
        let target = hay.bytes();
        if target.len() > MAX_TARGET {
            return Err(());
        }
        if walk.anchored {
            let last = walk.last.map_or(&[][..], |l| &self.pieces[l as usize]);
            if !target.ends_with(last) {
                return Ok(None);
            }
        }
        let Some(pos) = position(walk) else {
            return Ok(None);
        };
        let end = match walk.last {
            None => (!walk.anchored || pos == target.len()).then_some(pos),
            Some(id) => {
                let last = &self.pieces[id as usize];
                match walk.anchored {
                    true => (target.len() >= pos + last.len())
                        .then_some(target.len()),
                    false => hay
                        .find_numbered(id, last, pos)
                        .map(|at| at + last.len()),
                }
            }
        };
        Ok(end)
    }

    /// Where the walk stands after node `n`'s piece, from `pos`.
    fn step(&self, n: u32, pos: usize, hay: &impl Find) -> Option<usize> {
        let node = *self.nodes.get(n as usize)?;
        let piece = &self.pieces[node.piece as usize];
        let next = match (node.first, piece.is_empty()) {
            (true, _) => hay.bytes().starts_with(piece).then_some(0),
            (false, true) => Some(pos),
            (false, false) => hay.find_numbered(node.piece, piece, pos),
        };
        next.map(|at| at + piece.len())
    }

    /// The walk's position after `node`, computing (and remembering) the
    /// unknown nodes on its path from the nearest known ancestor.
    fn position(
        &self,
        node: u32,
        hay: &impl Find,
        memo: &mut Memo,
    ) -> Option<usize> {
        let mut path = Vec::new();
        let mut at = node;
        let mut pos = loop {
            if at == ROOT {
                break 0;
            }
            match memo.0.get(at as usize).copied()? {
                0 => path.push(at),
                1 => return None,
                known => break known as usize - 2,
            }
            at = self.nodes[at as usize].parent;
        };
        while let Some(n) = path.pop() {
            let Some(next) = self.step(n, pos, hay) else {
                memo.0[n as usize] = 1;
                // Every unknown node below fails too.
                for &below in &path {
                    memo.0[below as usize] = 1;
                }
                return None;
            };
            // OK: next <= target.len() <= MAX_TARGET < 2^32 - 2.
            memo.0[n as usize] = (next + 2) as u32;
            pos = next;
        }
        Some(pos)
    }
}

/// Targets shorter than this are searched octet by octet: a searcher's
/// start-up would cost more than the search.
const SEARCHER_MIN_LEN: usize = 64;

/// A target whose numbered pieces are searched with the trie's kept
/// searchers (see the module doc); other needles as `Haystack::direct`
/// would.
pub(crate) struct Searched<'a, 't> {
    trie: &'a PieceTrie,
    target: &'t [u8],
}

impl Find for Searched<'_, '_> {
    fn bytes(&self) -> &[u8] {
        self.target
    }

    fn find(&self, needle: &[u8], from: usize) -> Option<usize> {
        crate::haystack::Haystack::direct(self.target).find(needle, from)
    }

    fn find_numbered(
        &self,
        id: u32,
        needle: &[u8],
        from: usize,
    ) -> Option<usize> {
        let hay = self.target.get(from..)?;
        if hay.starts_with(needle) {
            return Some(from);
        }
        if let [octet] = needle {
            return memchr::memchr(*octet, hay).map(|i| i + from);
        }
        if self.target.len() < SEARCHER_MIN_LEN {
            return Plain(self.target).find(needle, from);
        }
        match self.trie.finder(id) {
            Some(f) if f.needle() == needle => f.find(hay).map(|i| i + from),
            _ => memchr::memmem::find(hay, needle).map(|i| i + from),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::haystack::Haystack;
    use crate::pattern::Pattern;
    use crate::profile::Profile;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 1_000, failure_persistence: None, ..Default::default()
        })]

        #[test]
        fn the_shared_walk_ends_where_each_rule_alone_does(
            patterns in proptest::collection::vec("[ab/*]{0,7}\\$?", 1..30),
            target in "/[ab/]{0,150}",
        ) {
            let p = Profile::rfc9309();
            let compiled: Vec<Pattern> =
                patterns.iter().map(|v| Pattern::compile(v.as_bytes(), &p)).collect();
            let shapes: Vec<Shape<'_>> = compiled
                .iter()
                .zip(&patterns)
                .map(|(c, v)| c.shape(v.as_bytes()))
                .collect();
            let trie = PieceTrie::new(shapes.iter().copied().map(Some));
            let t = target.as_bytes();
            for hay in [Haystack::table(t), Haystack::direct(t)] {
                let hay = hay.numbered(trie.piece_count());
                let mut memo = trie.memo();
                for (r, s) in shapes.iter().enumerate() {
                    let got = trie.match_end(r, &hay, &mut memo);
                    proptest::prop_assert_eq!(got, Ok(s.matches(t)), "{}", patterns[r]);
                }
            }
        }
    }

    #[test]
    fn a_rule_not_in_the_trie_is_reported() {
        let trie = PieceTrie::new(std::iter::once(None));
        let hay = Haystack::direct(b"/a");
        assert_eq!(trie.match_end(0, &hay, &mut trie.memo()), Err(()));
        assert_eq!(trie.match_end(7, &hay, &mut trie.memo()), Err(()));
    }
}
