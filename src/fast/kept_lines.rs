//! A body's lines, lexed once and read again: for `classify`, which
//! parses one body under many profiles, most of which lex it alike.
//!
//! The lexer reads eight fields of a profile ([`LexView`]); two profiles
//! with the same view cut a body into the same lines. [`KeptLines`] holds
//! what `lex` made of a body's kept octets (see `parse::kept_len`), with
//! offsets in place of slices so that it can be kept beside the octets,
//! and [`KeptLines::lines`] gives the lines back for the builder (a run
//! of blank lines as its last one). Nothing here decides how a line is
//! read: `lex` does, once. Held to the parse it stands for by the
//! property test `parses_on_kept_lines_are_parses`: the same groups,
//! rules, records, sitemaps and diagnostics as `RobotsTxt::parse`.
//!
//! Linear in the body; the kept lines cost [`KeptLines::bytes`]. Never
//! panics on lines of the octets they were lexed from (the only ones the
//! callers pass).

use std::ops::Range;
use std::sync::Arc;

use crate::diag::DiagnosticKind;
use crate::lex::{Content, Key, lex};
use crate::parse::{Lexed, RobotsTxt};
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
    Empty,
    Pair { key: KeptKey, value: Range<usize> },
    Invalid,
}

#[derive(Clone, Debug)]
struct KeptLine {
    number: u32,
    content: KeptContent,
    notes: Vec<DiagnosticKind>,
}

impl KeptLine {
    /// Blank, and nothing noted.
    fn is_plain_blank(&self) -> bool {
        matches!(self.content, KeptContent::Blank | KeptContent::Empty)
            && self.notes.is_empty()
    }
}

/// What `lex` made of some octets under one [`LexView`], but for runs of
/// blank lines with nothing noted, each kept as its last line: the
/// builder reads such a run as one line (a blank line ends the open group
/// or does nothing, and ending no group does nothing), and a file of
/// comments (one of 500 KiB is a hostile case) is then a few lines.
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
        let mut lines: Vec<KeptLine> = Vec::new();
        let kept = lexed.lines.map(|l| {
            let content = match l.content {
                Content::Blank => KeptContent::Blank,
                Content::Empty => KeptContent::Empty,
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
        });
        for line in kept {
            match lines.last_mut() {
                Some(last)
                    if last.is_plain_blank() && line.is_plain_blank() =>
                {
                    // An empty line in the run ends a group under every
                    // reading a blank line does: the run is empty then.
                    last.number = line.number;
                    if matches!(line.content, KeptContent::Empty) {
                        last.content = KeptContent::Empty;
                    }
                }
                _ => lines.push(line),
            }
        }
        KeptLines { lines, bom_skipped, limit_reached }
    }

    /// The lines again, as `lex` gave them (but for runs of blank lines,
    /// see [`KeptLines`]), on the `file` they were lexed from: number,
    /// content and notes.
    pub(crate) fn lines<'a>(
        &'a self,
        file: &'a [u8],
    ) -> impl Iterator<Item = (u32, Content<'a>, &'a [DiagnosticKind])> {
        let at = |r: &Range<usize>| file.get(r.clone()).unwrap_or_default();
        self.lines.iter().map(move |l| {
            let content = match &l.content {
                KeptContent::Blank => Content::Blank,
                KeptContent::Empty => Content::Empty,
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

    /// [`RobotsTxt::parse`] of a body whose kept octets are `file`
    /// (`body[..kept_len(body, p)]`), read from these lines, which `file`
    /// was lexed into under a profile with `p`'s [`LexView`]: several
    /// parses of one body then share one copy of it and one lexing
    /// (`classify` keeps many).
    pub(crate) fn parse(&self, file: &Arc<[u8]>, p: &Profile) -> RobotsTxt {
        let lexed = Lexed {
            lines: self.lines(file),
            bom_skipped: self.bom_skipped,
            limit_reached: self.limit_reached,
        };
        RobotsTxt::parse_lexed(file, p, lexed)
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

    use std::sync::Arc;

    use super::*;
    use crate::parse::{RobotsTxt, kept_len};
    use crate::test_support::{body, parsed, profile};

    /// Lines as `lex` gives them, runs of plain blank lines as their
    /// last, as comparable text.
    fn direct(file: &[u8], p: &Profile) -> Vec<String> {
        let mut out: Vec<(bool, String)> = Vec::new();
        for l in lex(file, p).lines {
            let plain = matches!(l.content, Content::Blank | Content::Empty)
                && l.notes.is_empty();
            let text = format!("{} {:?} {:?}", l.number, l.content, l.notes);
            match out.last_mut() {
                // A run keeps its last number, and is empty when any of
                // its lines is.
                Some((true, last)) if plain => {
                    let empty = l.content == Content::Empty
                        || last.contains(" Empty ");
                    let content =
                        if empty { Content::Empty } else { Content::Blank };
                    *last = format!("{} {content:?} {:?}", l.number, l.notes);
                }
                _ => out.push((plain, text)),
            }
        }
        out.into_iter().map(|(_, t)| t).collect()
    }

    fn kept(k: &KeptLines, file: &[u8]) -> Vec<String> {
        k.lines(file)
            .map(|(n, c, notes)| format!("{n} {c:?} {:?}", notes.to_vec()))
            .collect()
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn parses_on_kept_lines_are_parses(b in body(), p in profile()) {
            let file: Arc<[u8]> = Arc::from(&b[..kept_len(&b, &p)]);
            let kept = KeptLines::lex(&file, &p);
            let on_kept = kept.parse(&file, &p);
            prop_assert_eq!(parsed(&on_kept), parsed(&RobotsTxt::parse(&b, &p)));
        }
    }

    #[test]
    fn a_file_of_comments_is_kept_as_one_line() {
        let body =
            b"User-agent: *\n# a\n\n# b\nDisallow: /x\n# c\n# d\n".repeat(3);
        let kept = KeptLines::lex(&body, &Profile::rfc9309());
        assert_eq!(kept.lines.len(), 4 * 3);
        let last = kept.lines.last().map(|l| l.number);
        assert_eq!(last, Some(21));
    }

    #[test]
    fn offsets_name_a_slice_of_the_file() {
        let file = b"abcdef";
        assert_eq!(offsets(file, &file[2..4]), 2..4);
        assert_eq!(offsets(file, &file[6..]), 6..6);
    }
}
