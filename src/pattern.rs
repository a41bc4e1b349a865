//! Path patterns: `*`, a final `$`, percent-encoding normalisation, and
//! the match itself (R2.2.2-4, R2.2.2-13, R2.2.3-1, R2.2.2-11/12).
//!
//! A pattern is compiled once into literal pieces separated by `*`, with
//! an end anchor when its last character is `$`. Knows nothing of groups
//! or agents; see `agent`. Knows nothing of which rule wins; see `decide`.
//!
//! # Complexity
//!
//! [`Pattern::matches`] places each literal piece at its leftmost
//! occurrence after the previous one. For patterns whose only operator is
//! `*` this greedy placement finds a match whenever one exists (any match
//! can be shifted left piece by piece), and it never backtracks: one call
//! costs O(|target| · |pattern|) at worst. [`matches_reference`] is the
//! plain dynamic-programming reading of the RFC; tests check that both
//! agree.

use crate::encode::{Canon, canonicalize_into};
use crate::profile::Profile;

/// A compiled path pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    /// Literal pieces, canonicalised; `pieces.len() - 1` wildcards.
    pieces: Vec<Box<[u8]>>,
    /// The pattern ended in `$`.
    anchored: bool,
    /// The canonical pattern text, `*` and `$` included.
    normalized: Box<[u8]>,
}

impl Pattern {
    /// Compiles a rule's value (trimmed, comment removed).
    pub fn compile(value: &[u8], p: &Profile) -> Pattern {
        let canon = Canon::for_pattern(p);
        let (body, anchored) = match value.split_last() {
            Some((b'$', rest)) if p.wildcards => (rest, true),
            _ => (value, false),
        };
        let mut pieces = Vec::new();
        let mut normalized = Vec::with_capacity(value.len());
        let raw_pieces: Vec<&[u8]> = if p.wildcards {
            body.split(|&b| b == b'*').collect()
        } else {
            vec![body]
        };
        for (i, raw) in raw_pieces.iter().enumerate() {
            if i > 0 {
                normalized.push(b'*');
            }
            let start = normalized.len();
            canonicalize_into(raw, canon, &mut normalized);
            pieces.push(normalized[start..].into());
        }
        if anchored {
            normalized.push(b'$');
        }
        Pattern { pieces, anchored, normalized: normalized.into() }
    }

    /// The canonical text; its length is the rule's priority (R2.2.2-6).
    pub fn normalized(&self) -> &[u8] {
        &self.normalized
    }

    /// The pattern is empty (`Disallow:`): it never matches (A8).
    pub fn is_empty(&self) -> bool {
        self.normalized.is_empty()
    }

    /// Where the shortest match of this pattern against the start of
    /// `target` ends, or `None` when it does not match. `target` must
    /// already be canonical (see `target`).
    pub fn matches(&self, target: &[u8]) -> Option<usize> {
        let (first, rest) = self.pieces.split_first()?;
        if !target.starts_with(first) {
            return None;
        }
        let mut pos = first.len();
        let Some((last, middle)) = rest.split_last() else {
            return (!self.anchored || pos == target.len()).then_some(pos);
        };
        for piece in middle {
            pos = find(&target[pos..], piece)? + pos + piece.len();
        }
        if self.anchored {
            let start = target.len().checked_sub(last.len())?;
            (start >= pos && target.ends_with(last)).then_some(target.len())
        } else {
            Some(find(&target[pos..], last)? + pos + last.len())
        }
    }
}

/// The leftmost occurrence of `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    let (&first, rest) = needle.split_first()?;
    let last_start = hay.len().checked_sub(needle.len())?;
    let mut i = 0;
    while i <= last_start {
        let off = hay[i..=last_start].iter().position(|&b| b == first)?;
        i += off;
        if hay[i + 1..i + needle.len()] == *rest {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The RFC read literally, as a dynamic programme over (pattern octet,
/// target octet): `*` matches any run, a final `$` the end of the target,
/// every other octet itself; the match succeeds when "the end of the path
/// from the rule is reached" (R2.2.2-13). Returns the shortest match end.
/// O(|target| · |pattern|) time, O(|target|) space. Used to test
/// [`Pattern::matches`].
#[cfg(test)]
pub(crate) fn matches_reference(p: &Pattern, target: &[u8]) -> Option<usize> {
    // reach[j]: the pattern consumed so far can end at target octet j.
    let n = target.len();
    let mut reach = vec![false; n + 1];
    reach[0] = true;
    for (k, piece) in p.pieces.iter().enumerate() {
        if k > 0 {
            // `*`: from the first reachable j, every later j is reachable.
            let first = reach.iter().position(|&r| r);
            for (j, r) in reach.iter_mut().enumerate() {
                *r = first.is_some_and(|f| j >= f);
            }
        }
        for &b in piece.iter() {
            for j in (0..=n).rev() {
                reach[j] = j > 0 && reach[j - 1] && target[j - 1] == b;
            }
        }
    }
    if p.anchored {
        reach[n].then_some(n)
    } else {
        reach.iter().position(|&r| r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, target: &str) -> Option<usize> {
        let p = Pattern::compile(pattern.as_bytes(), &Profile::rfc9309());
        let got = p.matches(target.as_bytes());
        assert_eq!(
            got,
            matches_reference(&p, target.as_bytes()),
            "{pattern} {target}"
        );
        got
    }

    #[test]
    fn prefix_match_from_the_first_octet() {
        assert_eq!(m("/fish", "/fish.html"), Some(5));
        assert_eq!(m("/fish", "/catfish"), None);
        assert_eq!(m("/fish", "/fis"), None);
    }

    #[test]
    fn star_and_dollar() {
        assert_eq!(m("/*.php$", "/a/b.php"), Some(8));
        assert_eq!(m("/*.php$", "/a/b.php?x"), None);
        assert_eq!(m("/*.php", "/a.php.php"), Some(6));
        assert_eq!(m("/fish*.php", "/fishheads/catfish.php?p"), Some(22));
        assert_eq!(m("/$", "/"), Some(1));
        assert_eq!(m("/$", "/a"), None);
        assert_eq!(m("*.gif$", "/a.gif"), Some(6));
        assert_eq!(m("/*a*a*b", "/aab"), Some(4));
        assert_eq!(m("/a*", "/a"), Some(2));
    }

    #[test]
    fn dollar_inside_is_literal() {
        let p = Pattern::compile(b"/a$b", &Profile::google());
        assert_eq!(p.matches(b"/a$b"), Some(4));
    }

    #[test]
    fn priority_counts_the_encoded_pattern() {
        let p = Pattern::compile("/ツ".as_bytes(), &Profile::rfc9309());
        assert_eq!(p.normalized(), b"/%E3%83%84");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 5_000, failure_persistence: None, ..Default::default()
        })]

        #[test]
        fn greedy_agrees_with_the_reference(
            pattern in "[ab*/]{0,8}\\$?",
            target in "[ab/]{0,12}",
        ) {
            let p = Pattern::compile(pattern.as_bytes(), &Profile::rfc9309());
            proptest::prop_assert_eq!(
                p.matches(target.as_bytes()),
                matches_reference(&p, target.as_bytes())
            );
        }
    }
}
