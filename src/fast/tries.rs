//! How one decision tries the rules of one group (`adaptive`): through
//! the decision's haystack (`haystack`), or, for an indexed group, its
//! first pattern walked through the group's trie (`trie`): with shared
//! bitsets and a memo on a long target searched by many rules, else each
//! piece with the group's kept searcher. A rule the index rejects in O(1)
//! (`Index::rejects`) is not tried. Every way gives the plain reading's
//! match (`decide::hit`); must never report one the plain search would
//! not.

use crate::decide::{Hit, hit};
use crate::haystack::{Haystack, Numbered};
use crate::index::Index;
use crate::parse::Rule;
use crate::pattern::Find;
use crate::profile::Priority;
use crate::trie::{Memo, PieceTrie, Searched};

/// How one decision tries the rules of one group.
pub(crate) enum Tries<'h, 't, 'r> {
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
    /// The way for a group with `index`, if it has one, searched in
    /// `hay`.
    pub(crate) fn new(
        index: Option<&'r Index>,
        hay: &'h Haystack<'t>,
    ) -> Tries<'h, 't, 'r> {
        match index {
            Some(index) if hay.is_shared() => {
                let trie = index.trie();
                let hay = hay.numbered(trie.piece_count());
                Tries::Trie { index, trie, hay, memo: trie.memo() }
            }
            Some(index) => Tries::walk(index, hay.target()),
            None => Tries::Hay(hay),
        }
    }

    /// An indexed group's rules tried one by one through its trie.
    pub(crate) fn walk(
        index: &'r Index,
        target: &'t [u8],
    ) -> Tries<'h, 't, 'r> {
        let trie = index.trie();
        Tries::Walk { index, trie, hay: trie.searched(target) }
    }

    /// How rule `r` of `rules` matches, if it does.
    pub(crate) fn hit(
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
