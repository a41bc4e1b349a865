//! A body's lines, lexed once and read again: for `classify`, which
//! parses one body under many profiles, most of which lex it alike.
//!
//! The lexer reads eight fields of a profile ([`LexView`]); two profiles
//! with the same view cut a body into the same lines. [`KeptLines`] holds
//! what `lex` made of a body's kept octets (see `parse::kept_len`), with
//! offsets in place of slices so that it can be kept beside the octets,
//! and [`KeptLines::lines`] gives the very lines back for the builder.
//! Nothing here decides how a line is read: `lex` does, once.
//!
//! Linear in the body; the kept lines cost [`KeptLines::bytes`]. Never
//! panics on lines of the octets they were lexed from (the only ones the
//! callers pass).

use std::ops::Range;

use crate::diag::DiagnosticKind;
use crate::lex::{Content, Key, lex};
use crate::profile::{BomHandling, Profile};

/// The fields of a profile the lexer reads (`lex` reads no other).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct LexView {
    bom: BomHandling,
    parse_limit: usize,
    max_line_bytes: Option<usize>,
    cr_ends_line: bool,
    nul_ends_line: bool,
    key_typos: bool,
    key_prefix_match: bool,
    missing_colon: bool,
}

impl LexView {
    /// The lexer's view of `p`.
    pub(crate) fn of(p: &Profile) -> LexView {
        LexView {
            bom: p.bom,
            parse_limit: p.parse_limit,
            max_line_bytes: p.max_line_bytes,
            cr_ends_line: p.cr_ends_line,
            nul_ends_line: p.nul_ends_line,
            key_typos: p.key_typos,
            key_prefix_match: p.key_prefix_match,
            missing_colon: p.missing_colon,
        }
    }
}

/// A key as `lex` recognised it, an other key by its offsets.
#[derive(Clone, Debug)]
enum KeptKey {
    UserAgent,
    Allow,
    Disallow,
    Sitemap,
    Other(Range<usize>),
}

/// A line's content, by offsets.
#[derive(Clone, Debug)]
enum KeptContent {
    Blank,
    Pair { key: KeptKey, value: Range<usize> },
    Invalid,
}

#[derive(Clone, Debug)]
struct KeptLine {
    number: u32,
    content: KeptContent,
    notes: Vec<DiagnosticKind>,
}

/// What `lex` made of some octets under one [`LexView`].
#[derive(Clone, Debug)]
pub(crate) struct KeptLines {
    lines: Vec<KeptLine>,
    /// A BOM was skipped.
    pub bom_skipped: bool,
    /// The octets were longer than the parse limit.
    pub limit_reached: bool,
}

/// Where `part`, a slice of `file`, lies in it.
fn offsets(file: &[u8], part: &[u8]) -> Range<usize> {
    let start =
        (part.as_ptr() as usize).saturating_sub(file.as_ptr() as usize);
    start..start + part.len()
}

impl KeptLines {
    /// Lexes `file` (a body's kept octets) under `p`.
    pub(crate) fn lex(file: &[u8], p: &Profile) -> KeptLines {
        let lexed = lex(file, p);
        let (bom_skipped, limit_reached) =
            (lexed.bom_skipped, lexed.limit_reached);
        let lines = lexed
            .lines
            .map(|l| {
                let content = match l.content {
                    Content::Blank => KeptContent::Blank,
                    Content::Invalid => KeptContent::Invalid,
                    Content::Pair { key, value } => KeptContent::Pair {
                        key: match key {
                            Key::UserAgent => KeptKey::UserAgent,
                            Key::Allow => KeptKey::Allow,
                            Key::Disallow => KeptKey::Disallow,
                            Key::Sitemap => KeptKey::Sitemap,
                            Key::Other(k) => KeptKey::Other(offsets(file, k)),
                        },
                        value: offsets(file, value),
                    },
                };
                KeptLine { number: l.number, content, notes: l.notes }
            })
            .collect();
        KeptLines { lines, bom_skipped, limit_reached }
    }

    /// The lines again, as `lex` gave them, on the `file` they were
    /// lexed from: number, content and notes.
    pub(crate) fn lines<'a>(
        &'a self,
        file: &'a [u8],
    ) -> impl Iterator<Item = (u32, Content<'a>, &'a [DiagnosticKind])> {
        let at = |r: &Range<usize>| file.get(r.clone()).unwrap_or_default();
        self.lines.iter().map(move |l| {
            let content = match &l.content {
                KeptContent::Blank => Content::Blank,
                KeptContent::Invalid => Content::Invalid,
                KeptContent::Pair { key, value } => Content::Pair {
                    key: match key {
                        KeptKey::UserAgent => Key::UserAgent,
                        KeptKey::Allow => Key::Allow,
                        KeptKey::Disallow => Key::Disallow,
                        KeptKey::Sitemap => Key::Sitemap,
                        KeptKey::Other(k) => Key::Other(at(k)),
                    },
                    value: at(value),
                },
            };
            (l.number, content, l.notes.as_slice())
        })
    }

    /// What the kept lines hold, generously.
    pub(crate) fn bytes(&self) -> usize {
        let notes: usize = self.lines.iter().map(|l| 64 * l.notes.len()).sum();
        64 + self.lines.len() * std::mem::size_of::<KeptLine>() + notes
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::profile::switches;

    /// Lines as `lex` gives them, as comparable text.
    fn direct(file: &[u8], p: &Profile) -> Vec<String> {
        lex(file, p)
            .lines
            .map(|l| format!("{} {:?} {:?}", l.number, l.content, l.notes))
            .collect()
    }

    fn kept(k: &KeptLines, file: &[u8]) -> Vec<String> {
        k.lines(file)
            .map(|(n, c, notes)| format!("{n} {c:?} {:?}", notes.to_vec()))
            .collect()
    }

    fn profile() -> impl Strategy<Value = Profile> {
        let n = switches().len();
        (any::<bool>(), prop::collection::vec(0..n, 0..8)).prop_map(
            |(google, picks)| {
                let mut p = if google {
                    Profile::google()
                } else {
                    Profile::rfc9309()
                };
                for i in picks {
                    p = switches()[i].applied_to(&p);
                }
                p
            },
        )
    }

    fn body() -> impl Strategy<Value = Vec<u8>> {
        let atoms: Vec<&'static [u8]> = vec![
            b"User-agent: a\n",
            b"useragent *\r\n",
            b"Disallow: /x",
            b"Allow:/",
            b"\n",
            b"\r",
            b"\0",
            b"\xEF\xBB\xBF",
            b"#c",
            b" ",
            b":",
            b"x y",
            b"Disalowed: /p",
            b"sitemap: /s",
            b"crawl-delay: 1",
        ];
        prop::collection::vec(prop::sample::select(atoms), 0..30)
            .prop_map(|parts| parts.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// Kept lines read back are `lex`'s lines, under the profile
        /// they were lexed with and under any other of the same view.
        #[test]
        fn kept_lines_are_the_lexers(
            b in body(),
            p in profile(),
            q in profile(),
        ) {
            let k = KeptLines::lex(&b, &p);
            prop_assert_eq!(kept(&k, &b), direct(&b, &p));
            let l = lex(&b, &p);
            prop_assert_eq!((k.bom_skipped, k.limit_reached), (l.bom_skipped, l.limit_reached));
            // `lex` reads only the view: `q` with `p`'s view lexes as `p`.
            let mut q = q;
            q.bom = p.bom;
            q.parse_limit = p.parse_limit;
            q.max_line_bytes = p.max_line_bytes;
            q.cr_ends_line = p.cr_ends_line;
            q.nul_ends_line = p.nul_ends_line;
            q.key_typos = p.key_typos;
            q.key_prefix_match = p.key_prefix_match;
            q.missing_colon = p.missing_colon;
            prop_assert_eq!(LexView::of(&q), LexView::of(&p));
            prop_assert_eq!(direct(&b, &q), direct(&b, &p));
        }
    }

    #[test]
    fn offsets_name_a_slice_of_the_file() {
        let file = b"abcdef";
        assert_eq!(offsets(file, &file[2..4]), 2..4);
        assert_eq!(offsets(file, &file[6..]), 6..6);
    }
}
