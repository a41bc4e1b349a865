//! Lines: raw bytes to key-value lines (§2.2 `EOL`, `NL`, `WS`, `comment`;
//! R2.3.1.5-1 "try to parse each line"; R2.5-2 the parse limit).
//!
//! Handles the BOM, the parse limit, CR / LF / CRLF line ends, the
//! profile's line length cap, comments, whitespace around keys and colons,
//! and key recognition (exact, or lenient per profile). Knows nothing of
//! groups; see `parse`.

use crate::diag::DiagnosticKind;
use crate::profile::{BomHandling, Profile};

/// The keys the protocol defines, plus everything else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Key<'a> {
    UserAgent,
    Allow,
    Disallow,
    Sitemap,
    /// Any other key, as written (an "other record", §2.2.4).
    Other(&'a [u8]),
}

/// What one line holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Content<'a> {
    /// Whitespace only, or a comment only (`emptyline`).
    Blank,
    /// No octets at all (`emptyline` too; told apart from [`Content::Blank`]
    /// for the profile's `only_empty_line_ends_group`).
    Empty,
    /// `key: value`, both trimmed, comment removed.
    Pair { key: Key<'a>, value: &'a [u8] },
    /// Not a key-value line.
    Invalid,
}

/// One line and what the lexer noticed about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line<'a> {
    pub number: u32,
    pub content: Content<'a>,
    pub notes: Vec<DiagnosticKind>,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The bytes after a BOM the profile skips, and whether one was skipped.
fn skip_bom(body: &[u8], how: BomHandling) -> (&[u8], bool) {
    let n = match how {
        BomHandling::Keep => 0,
        BomHandling::Full if body.starts_with(BOM) => 3,
        BomHandling::Full => 0,
        BomHandling::FullOrPartial => {
            BOM.iter().zip(body).take_while(|(a, b)| a == b).count()
        }
    };
    (&body[n..], n > 0)
}

/// `WS = %x20 / %x09`.
fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn trim(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if !is_ws(*first) {
            break;
        }
        s = rest;
    }
    while let [rest @ .., last] = s {
        if !is_ws(*last) {
            break;
        }
        s = rest;
    }
    s
}

fn starts_with_ignore_case(s: &[u8], prefix: &[u8]) -> bool {
    s.len() >= prefix.len() && s[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// Recognises a key, exactly (the ABNF's case-insensitive literals) or as
/// the profile's leniency allows. The second value says it was lenient.
fn recognise_key<'a>(key: &'a [u8], p: &Profile) -> (Key<'a>, bool) {
    const KEYS: [(&[u8], Key<'static>); 4] = [
        (b"user-agent", Key::UserAgent),
        (b"allow", Key::Allow),
        (b"disallow", Key::Disallow),
        (b"sitemap", Key::Sitemap),
    ];
    const TYPOS: [(&[u8], Key<'static>); 8] = [
        (b"useragent", Key::UserAgent),
        (b"user agent", Key::UserAgent),
        (b"dissallow", Key::Disallow),
        (b"dissalow", Key::Disallow),
        (b"disalow", Key::Disallow),
        (b"diasllow", Key::Disallow),
        (b"disallaw", Key::Disallow),
        (b"site-map", Key::Sitemap),
    ];
    for (name, k) in KEYS {
        if key.eq_ignore_ascii_case(name) {
            return (k, false);
        }
    }
    // Google's parser tries user-agent, allow, disallow, sitemap in turn,
    // each as a prefix and with its typos; the order matters for keys
    // such as `allowed` and `disallowed`.
    for (name, k) in KEYS {
        let prefix = p.key_prefix_match && starts_with_ignore_case(key, name);
        let typo = p.key_typos
            && TYPOS.iter().any(|(t, tk)| {
                *tk == k
                    && (key.eq_ignore_ascii_case(t)
                        || (p.key_prefix_match
                            && starts_with_ignore_case(key, t)))
            });
        if prefix || typo {
            return (k, true);
        }
    }
    (Key::Other(key), false)
}

/// Splits a line (comment removed, trimmed, non-empty) into key and value.
fn split_pair<'a>(
    line: &'a [u8],
    p: &Profile,
    notes: &mut Vec<DiagnosticKind>,
) -> Option<(&'a [u8], &'a [u8])> {
    if let Some(colon) = memchr::memchr(b':', line) {
        let key = trim(&line[..colon]);
        return (!key.is_empty()).then(|| (key, trim(&line[colon + 1..])));
    }
    let split = p.missing_colon.then(|| line.iter().position(|&b| is_ws(b)));
    if let Some(Some(ws)) = split {
        let value = trim(&line[ws..]);
        if !value.iter().any(|&b| is_ws(b)) {
            notes.push(DiagnosticKind::AcceptedWithoutColon);
            return Some((&line[..ws], value));
        }
    }
    notes.push(DiagnosticKind::MissingColon);
    None
}

/// Reads one physical line (without its line end); `hash` is where its
/// comment starts, if it has one.
fn lex_line<'a>(
    raw: &'a [u8],
    hash: Option<usize>,
    number: u32,
    p: &Profile,
) -> Line<'a> {
    let mut notes = Vec::new();
    let mut text = raw;
    if let Some(max) = p.max_line_bytes
        && text.len() > max
    {
        text = &text[..max];
        notes.push(DiagnosticKind::LineTruncated);
    }
    if p.nul_ends_line
        && let Some(nul) = memchr::memchr(0, text)
    {
        text = &text[..nul];
    }
    if let Some(hash) = hash.filter(|&h| h < text.len()) {
        text = &text[..hash];
    }
    let text = trim(text);
    let content = if raw.is_empty() {
        Content::Empty
    } else if text.is_empty() {
        Content::Blank
    } else {
        match split_pair(text, p, &mut notes) {
            Some((key, value)) => {
                let (key, lenient) = recognise_key(key, p);
                if lenient {
                    let written = raw_key_text(text);
                    notes.push(DiagnosticKind::LenientKey(written));
                }
                Content::Pair { key, value }
            }
            None => Content::Invalid,
        }
    };
    Line { number, content, notes }
}

fn raw_key_text(line: &[u8]) -> String {
    let end = line.iter().position(|&b| b == b':').unwrap_or(line.len());
    String::from_utf8_lossy(trim(&line[..end])).into_owned()
}

/// The lines of a robots.txt body, with file-level notes (BOM, limit).
pub(crate) struct Lexed<'a, 'p> {
    pub lines: Lines<'a, 'p>,
    pub bom_skipped: bool,
    pub limit_reached: bool,
}

/// The lines of a body, read one at a time (nothing is collected).
pub(crate) struct Lines<'a, 'p> {
    body: &'a [u8],
    number: u32,
    profile: &'p Profile,
}

impl<'a> Iterator for Lines<'a, '_> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        if self.body.is_empty() {
            return None;
        }
        let cr_ends = self.profile.cr_ends_line;
        let body = self.body;
        // The octets that end a line (`\n` twice when CR does not).
        let ends = if cr_ends { [b'\n', b'\r'] } else { [b'\n', b'\n'] };
        let (hash, end) = match find_any(body, [ends[0], ends[1], b'#']) {
            Some(h) if body[h] == b'#' => {
                let rest = find_any(&body[h..], ends);
                (Some(h), rest.map(|e| h + e))
            }
            other => (None, other),
        };
        let end = end.unwrap_or(body.len());
        let mut text = &self.body[..end];
        if !cr_ends && self.body.get(end) == Some(&b'\n') {
            // LF-only line ends still treat CRLF as one.
            text = text.strip_suffix(b"\r").unwrap_or(text);
        }
        let line = lex_line(text, hash, self.number, self.profile);
        let crlf = self.body[end..].starts_with(b"\r\n");
        let next = (end + 1 + usize::from(crlf)).min(self.body.len());
        self.body = &self.body[next..];
        self.number = self.number.saturating_add(1);
        Some(line)
    }
}

/// The byte ranges of a body's physical lines, without their line ends,
/// split as the lexer splits them by default (§2.2 `NL`: CR, LF or CRLF;
/// a last line without NL is still a line; an empty body has no lines).
///
/// Line *n* of the oracle's diagnostics and explanations is item *n − 1*.
/// No BOM is skipped and no parse limit applies: this is for tools that
/// show, number or edit lines of a body, so that they count lines exactly
/// as the oracle does. Linear in the body, allocation-free.
pub fn line_ranges(body: &[u8]) -> LineRanges<'_> {
    LineRanges { body, at: 0 }
}

/// The iterator of [`line_ranges`].
#[derive(Clone, Debug)]
pub struct LineRanges<'a> {
    body: &'a [u8],
    at: usize,
}

impl Iterator for LineRanges<'_> {
    type Item = std::ops::Range<usize>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.body.get(self.at..).filter(|r| !r.is_empty())?;
        let end = find_any(rest, [b'\n', b'\r']).unwrap_or(rest.len());
        let crlf = rest[end..].starts_with(b"\r\n");
        let range = self.at..self.at + end;
        self.at = (range.end + 1 + usize::from(crlf)).min(self.body.len());
        Some(range)
    }
}

/// The position of the first octet of `hay` in `set` (of one to three
/// octets), found with `memchr`'s vectorised search: lines are scanned
/// once, and this is the scan.
fn find_any<const N: usize>(hay: &[u8], set: [u8; N]) -> Option<usize> {
    match set.as_slice() {
        [a] => memchr::memchr(*a, hay),
        [a, b] => memchr::memchr2(*a, *b, hay),
        [a, b, c] => memchr::memchr3(*a, *b, *c, hay),
        _ => hay.iter().position(|b| set.contains(b)),
    }
}

/// Splits `body` into lines at CR, LF or CRLF (`NL`), after skipping a BOM
/// and cutting at the parse limit. A last line without NL is still a line.
pub(crate) fn lex<'a, 'p>(body: &'a [u8], p: &'p Profile) -> Lexed<'a, 'p> {
    let (body, bom_skipped) = skip_bom(body, p.bom);
    let limit_reached = body.len() > p.parse_limit;
    let body = &body[..body.len().min(p.parse_limit)];
    let lines = Lines { body, number: 1, profile: p };
    Lexed { lines, bom_skipped, limit_reached }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contents(body: &str, p: &Profile) -> Vec<Content<'static>> {
        let body: &'static [u8] = Box::leak(body.as_bytes().into());
        lex(body, p).lines.map(|l| l.content).collect()
    }

    #[test]
    fn find_any_finds_the_first_octet_of_the_set() {
        for hay in [&b""[..], b"abc", b"abcdefgh#", b"abcdefghijklmnop\rq\n"] {
            let want = hay.iter().position(|b| b"\n\r#".contains(b));
            assert_eq!(find_any(hay, [b'\n', b'\r', b'#']), want, "{hay:?}");
        }
        let hay = b"\x80\x0b#\n\n\n\n\n\n\n";
        assert_eq!(find_any(hay, [b'#']), Some(2));
    }

    #[test]
    fn line_ranges_split_like_the_lexer() {
        let body = b"a: 1\nb: 2\r\nc: 3\rd: 4\n\n\r\re";
        let got: Vec<_> = line_ranges(body).map(|r| &body[r]).collect();
        let want: [&[u8]; 8] =
            [b"a: 1", b"b: 2", b"c: 3", b"d: 4", b"", b"", b"", b"e"];
        assert_eq!(got, want);
        let lexed = lex(body, &Profile::rfc9309()).lines.count();
        assert_eq!(lexed, want.len());
        assert_eq!(line_ranges(b"").count(), 0);
        assert_eq!(
            line_ranges(b"\n").map(|r| r.len()).collect::<Vec<_>>(),
            [0]
        );
    }

    #[test]
    fn every_line_end_counts() {
        let p = Profile::rfc9309();
        assert_eq!(contents("a: 1\nb: 2\r\nc: 3\rd: 4", &p).len(), 4);
    }

    #[test]
    fn whitespace_and_comments_are_trimmed() {
        let got =
            contents("  User-agent\t:\tFooBot  # c\n", &Profile::rfc9309());
        assert_eq!(
            got,
            [Content::Pair { key: Key::UserAgent, value: b"FooBot" }]
        );
    }

    #[test]
    fn prefix_keys_need_the_google_profile() {
        let line = "Disallowed: /x\n";
        let rfc = contents(line, &Profile::rfc9309());
        assert_eq!(
            rfc,
            [Content::Pair { key: Key::Other(b"Disallowed"), value: b"/x" }]
        );
        let google = contents(line, &Profile::google());
        assert_eq!(
            google,
            [Content::Pair { key: Key::Disallow, value: b"/x" }]
        );
    }

    #[test]
    fn missing_colon_needs_exactly_two_tokens() {
        let g = Profile::google();
        assert_eq!(
            contents("disallow /x\n", &g),
            [Content::Pair { key: Key::Disallow, value: b"/x" }]
        );
        assert_eq!(contents("disallow /x /y\n", &g), [Content::Invalid]);
        assert_eq!(
            contents("disallow /x\n", &Profile::rfc9309()),
            [Content::Invalid]
        );
    }

    #[test]
    fn nul_ends_the_line_only_under_google() {
        let body = "Disallow: /x\0y\n";
        let google = contents(body, &Profile::google());
        assert_eq!(
            google,
            [Content::Pair { key: Key::Disallow, value: b"/x" }]
        );
        let rfc = contents(body, &Profile::rfc9309());
        assert_eq!(
            rfc,
            [Content::Pair { key: Key::Disallow, value: b"/x\0y" }]
        );
    }

    #[test]
    fn partial_bom_only_under_google() {
        let (rest, skipped) =
            skip_bom(b"\xEF\xBBx", BomHandling::FullOrPartial);
        assert_eq!((rest, skipped), (&b"x"[..], true));
        let (rest, skipped) = skip_bom(b"\xEF\xBBx", BomHandling::Full);
        assert_eq!((rest, skipped), (&b"\xEF\xBBx"[..], false));
    }
}
