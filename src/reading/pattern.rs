//! Path patterns: `*`, a final `$`, percent-encoding normalisation, and
//! the match itself (R2.2.2-4, R2.2.2-13, R2.2.3-1, R2.2.2-11/12).
//!
//! A pattern is compiled once into its canonical text (kept only when it
//! differs from the value as written, which is rare) and whether it ends
//! in an anchoring `$`; its literal pieces are the text between `*`s.
//! Knows nothing of groups or agents; see `agent`. Knows nothing of which
//! rule wins; see `decide`.
//!
//! # Complexity
//!
//! [`Shape::matches`] places each literal piece at its leftmost occurrence
//! after the previous one. For patterns whose only operator is `*` this
//! greedy placement finds a match whenever one exists (any match can be
//! shifted left piece by piece), and it never backtracks: one call costs
//! O(|target| · |pattern|) at worst, O(|target| + |pattern|) typically.
//! The "leftmost occurrence" question is asked through [`Find`]: [`Plain`]
//! octet by octet (the plain reading), or the fast room's haystack (`memmem`,
//! or bitsets shared by every rule of a decision).
//! [`matches_reference`] is the plain dynamic-programming reading of the
//! RFC; tests check that all of these agree.

use crate::encode::{Canon, canonicalize_into, canonicalize_piece, plain_run};
use crate::profile::Profile;

/// A compiled path pattern, stored beside the value it was compiled from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    /// The canonical text, `*` and `$` included, when it differs from the
    /// value as written; `None` when the value is already canonical.
    canonical: Option<Box<[u8]>>,
    /// The text's last octet is an anchoring `$`.
    anchored: bool,
    /// `*` in the text is a wildcard (profile `wildcards`).
    wildcards: bool,
}

/// A value no normalisation step changes: ASCII without `%`, and with
/// wildcards on, `$` only as the final anchor (a `*` is an operator).
fn is_canonical(value: &[u8], p: &Profile) -> bool {
    let body = match value.split_last() {
        Some((b'$', rest)) if p.wildcards => rest,
        _ => value,
    };
    // Runs of octets no step changes are skipped eight at a time; what
    // stops a run must be a wildcard to go on.
    let mut rest = body;
    loop {
        rest = &rest[plain_run(rest).min(rest.len())..];
        match rest.split_first() {
            None => return true,
            Some((b'*', after)) if p.wildcards => rest = after,
            Some(_) => return false,
        }
    }
}

impl Pattern {
    /// Compiles a rule's value (trimmed, comment removed).
    pub fn compile(value: &[u8], p: &Profile) -> Pattern {
        let (body, anchored) = match value.split_last() {
            Some((b'$', rest)) if p.wildcards => (rest, true),
            _ => (value, false),
        };
        let plain =
            Pattern { canonical: None, anchored, wildcards: p.wildcards };
        if is_canonical(value, p) {
            return plain;
        }
        let text = canonical_text(body, anchored, p);
        let canonical = (*text != *value).then(|| text.into());
        Pattern { canonical, ..plain }
    }

    /// The pattern's shape, given the value it was compiled from.
    pub fn shape<'a>(&'a self, value: &'a [u8]) -> Shape<'a> {
        Shape {
            text: self.canonical.as_deref().unwrap_or(value),
            anchored: self.anchored,
            wildcards: self.wildcards,
        }
    }
}

/// The canonical text of a pattern body: each piece canonicalised, the
/// wildcards and the anchor kept.
fn canonical_text(body: &[u8], anchored: bool, p: &Profile) -> Vec<u8> {
    let canon = Canon::for_pattern(p);
    let mut text = Vec::with_capacity(body.len() + 8);
    if p.wildcards {
        let mut in_query = false;
        for (i, raw) in body.split(|&b| b == b'*').enumerate() {
            if i > 0 {
                text.push(b'*');
            }
            canonicalize_piece(raw, canon, &mut text, &mut in_query);
        }
    } else {
        canonicalize_into(body, canon, &mut text);
    }
    if anchored {
        text.push(b'$');
    }
    text
}

/// A compiled pattern ready to match: its canonical text and operators.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape<'a> {
    text: &'a [u8],
    anchored: bool,
    wildcards: bool,
}

impl<'a> Shape<'a> {
    /// The canonical text; its length is the rule's priority (R2.2.2-6).
    pub fn normalized(&self) -> &'a [u8] {
        self.text
    }

    /// The pattern is empty (`Disallow:`): it never matches (A8).
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The literal pieces between wildcards (at least one, maybe empty).
    pub fn pieces(&self) -> impl Iterator<Item = &'a [u8]> + use<'a> {
        let body = &self.text[..self.text.len() - usize::from(self.anchored)];
        let wildcards = self.wildcards;
        body.split(move |&b| wildcards && b == b'*')
    }

    /// The pattern ends in an anchoring `$`.
    pub fn is_anchored(&self) -> bool {
        self.anchored
    }

    /// The last literal piece (after the last wildcard), found from the
    /// end in one `memrchr`.
    fn last_piece(&self) -> &'a [u8] {
        let body = &self.text[..self.text.len() - usize::from(self.anchored)];
        match self.wildcards.then(|| memchr::memrchr(b'*', body)).flatten() {
            Some(star) => &body[star + 1..],
            None => body,
        }
    }

    /// What every target the pattern matches starts with: the first piece.
    pub fn literal_prefix(&self) -> &'a [u8] {
        self.pieces().next().unwrap_or_default()
    }

    /// What every target the pattern matches ends with, if anchored: the
    /// last piece (when the pattern has a wildcard; else the whole text).
    pub fn literal_suffix(&self) -> Option<&'a [u8]> {
        self.anchored.then(|| self.pieces().last().unwrap_or_default())
    }

    /// Where the shortest match of this pattern against the start of
    /// `target` ends, or `None` when it does not match. `target` must
    /// already be canonical (see `target`).
    #[cfg(test)]
    pub fn matches(&self, target: &[u8]) -> Option<usize> {
        self.matches_in(&Plain(target))
    }

    /// [`Shape::matches`], looking up pieces with `hay`'s search.
    pub fn matches_in(&self, hay: &impl Find) -> Option<usize> {
        let target = hay.bytes();
        if self.anchored && !target.ends_with(self.last_piece()) {
            // Checked first: cheap, and it rejects most anchored patterns.
            return None;
        }
        let mut pieces = self.pieces();
        let first = pieces.next()?;
        if !target.starts_with(first) {
            return None;
        }
        let mut pos = first.len();
        let Some(mut piece) = pieces.next() else {
            return (!self.anchored || pos == target.len()).then_some(pos);
        };
        for next in pieces {
            // An empty piece (`**`) is found where it is asked for.
            if !piece.is_empty() {
                pos = hay.find(piece, pos)? + piece.len();
            }
            piece = next;
        }
        if self.anchored {
            let start = target.len().checked_sub(piece.len())?;
            (start >= pos && target.ends_with(piece)).then_some(target.len())
        } else {
            Some(hay.find(piece, pos)? + piece.len())
        }
    }
}

/// A target that can say where a piece next occurs.
pub(crate) trait Find {
    /// The target's octets.
    fn bytes(&self) -> &[u8];
    /// The leftmost occurrence of `needle` starting at or after `from`.
    fn find(&self, needle: &[u8], from: usize) -> Option<usize>;
    /// [`Find::find`] for a needle the caller has numbered `id` (equal
    /// ids, equal needles), which a finder may use to remember it.
    fn find_numbered(
        &self,
        _id: u32,
        needle: &[u8],
        from: usize,
    ) -> Option<usize> {
        self.find(needle, from)
    }
}

/// A target searched octet by octet: the plain reading.
pub(crate) struct Plain<'t>(pub &'t [u8]);

impl Find for Plain<'_> {
    fn bytes(&self) -> &[u8] {
        self.0
    }

    fn find(&self, needle: &[u8], from: usize) -> Option<usize> {
        let hay = self.0.get(from..)?;
        if needle.is_empty() {
            return Some(from);
        }
        hay.windows(needle.len()).position(|w| w == needle).map(|i| i + from)
    }
}

/// The RFC read literally, as a dynamic programme over (pattern octet,
/// target octet): `*` matches any run, a final `$` the end of the target,
/// every other octet itself; the match succeeds when "the end of the path
/// from the rule is reached" (R2.2.2-13). Returns the shortest match end.
/// O(|target| · |pattern|) time, O(|target|) space. Used to test
/// [`Shape::matches`].
#[cfg(test)]
pub(crate) fn matches_reference(p: Shape<'_>, target: &[u8]) -> Option<usize> {
    // reach[j]: the pattern consumed so far can end at target octet j.
    let n = target.len();
    let mut reach = vec![false; n + 1];
    reach[0] = true;
    for (k, piece) in p.pieces().enumerate() {
        if k > 0 {
            // `*`: from the first reachable j, every later j is reachable.
            let first = reach.iter().position(|&r| r);
            for (j, r) in reach.iter_mut().enumerate() {
                *r = first.is_some_and(|f| j >= f);
            }
        }
        for &b in piece {
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
        let s = p.shape(pattern.as_bytes());
        let got = s.matches(target.as_bytes());
        assert_eq!(
            got,
            matches_reference(s, target.as_bytes()),
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
        assert_eq!(p.shape(b"/a$b").matches(b"/a$b"), Some(4));
    }

    #[test]
    fn priority_counts_the_encoded_pattern() {
        let value = "/ツ".as_bytes();
        let p = Pattern::compile(value, &Profile::rfc9309());
        assert_eq!(p.shape(value).normalized(), b"/%E3%83%84");
    }

    #[test]
    fn plain_values_keep_no_copy() {
        let p = Pattern::compile(b"/shop/cart", &Profile::rfc9309());
        assert_eq!(p.canonical, None);
        let p = Pattern::compile(b"/shop/*.pdf$", &Profile::rfc9309());
        assert_eq!(p.canonical, None);
        let p = Pattern::compile(b"/%7euser", &Profile::rfc9309());
        assert_eq!(p.shape(b"/%7euser").normalized(), b"/~user");
    }

    #[test]
    fn without_wildcards_star_and_dollar_are_data() {
        let mut profile = Profile::google();
        profile.wildcards = false;
        let p = Pattern::compile(b"/a*b$", &profile);
        let s = p.shape(b"/a*b$");
        assert_eq!(s.matches(b"/a*b$x"), Some(5));
        assert_eq!(s.matches(b"/axb"), None);
    }

    #[test]
    fn literal_prefix_and_suffix() {
        let value = b"/shop*x*.pdf$";
        let p = Pattern::compile(value, &Profile::rfc9309());
        let s = p.shape(value);
        assert_eq!(s.literal_prefix(), b"/shop");
        assert_eq!(s.literal_suffix(), Some(&b".pdf"[..]));
        let p = Pattern::compile(b"/a", &Profile::rfc9309());
        assert_eq!(p.shape(b"/a").literal_suffix(), None);
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
            let s = p.shape(pattern.as_bytes());
            proptest::prop_assert_eq!(
                s.matches(target.as_bytes()),
                matches_reference(s, target.as_bytes())
            );
        }

        #[test]
        fn values_taken_as_canonical_are(
            value in "[a-c/*$%é2F]{0,10}",
            google in proptest::bool::ANY,
            wildcards in proptest::bool::ANY,
        ) {
            let mut p =
                if google { Profile::google() } else { Profile::rfc9309() };
            p.wildcards = wildcards;
            let v = value.as_bytes();
            if is_canonical(v, &p) {
                let anchored = wildcards && v.last() == Some(&b'$');
                let body = &v[..v.len() - usize::from(anchored)];
                let text = canonical_text(body, anchored, &p);
                proptest::prop_assert_eq!(text, v);
            }
        }
    }
}
