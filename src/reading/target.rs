//! The request target: a URL (absolute, or a path with query) reduced to
//! the octets rules are matched against (R2.2.2-2, Figure 4; A7, A27),
//! and the location of the robots.txt file for a URL (R2.3-1, R2.3-3).
//!
//! The path and query are kept, the fragment is dropped, an empty path is
//! `/`. The scheme and authority are not checked against anything: which
//! host a robots.txt file governs is the fetcher's business (§2.3).

use std::fmt;

use std::borrow::Cow;

use crate::encode::{Canon, canonicalize, is_canonical};
use crate::profile::{DotSegments, Profile};

/// A URL the oracle cannot reduce to a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    input: String,
    kind: ErrorKind,
}

/// What is wrong with a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Neither an absolute URL with `//authority` nor a path from `/`.
    NotAPath,
    /// An absolute URL was needed (for `robots_txt_url`).
    NotAbsolute,
}

impl Error {
    /// What is wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ErrorKind::NotAPath => write!(
                f,
                "cannot match '{}': expected an absolute URL such as \
                 https://example.com/a or a path starting with '/'",
                self.input
            ),
            ErrorKind::NotAbsolute => write!(
                f,
                "'{}' is not an absolute URL with a scheme and authority",
                self.input
            ),
        }
    }
}

impl std::error::Error for Error {}

/// `scheme ":"` per RFC 3986 §3.1: its length including the colon.
/// Read up to the first octet a scheme cannot hold, so that a long path
/// is not scanned for a colon.
fn scheme_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let is_scheme = |c: &u8| c.is_ascii_alphanumeric() || b"+-.".contains(c);
    let colon = b.iter().position(|c| !is_scheme(c))?;
    (b[colon] == b':').then_some(colon + 1)
}

/// Splits `url` into (scheme with `:`, `//authority`, path-and-query),
/// the fragment dropped.
fn split(url: &str) -> Option<(&str, &str, &str)> {
    let url = match memchr::memchr(b'#', url.as_bytes()) {
        Some(hash) => &url[..hash],
        None => url,
    };
    split_parts(url)
}

/// [`split`] of a URL with no fragment.
fn split_parts(url: &str) -> Option<(&str, &str, &str)> {
    let after_scheme = match scheme_len(url) {
        Some(n) if url[n..].starts_with("//") => n,
        Some(_) if !url.starts_with('/') => return None,
        _ => 0,
    };
    let rest = &url[after_scheme..];
    let auth_len = match rest.strip_prefix("//") {
        Some(after) => 2 + after.find(['/', '?']).unwrap_or(after.len()),
        None => 0,
    };
    let path = &rest[auth_len..];
    if after_scheme == 0 && auth_len == 0 && !path.starts_with('/') {
        // A relative reference: only "" and "?query" make sense here.
        if !(path.is_empty() || path.starts_with('?')) {
            return None;
        }
    }
    Some((&url[..after_scheme], &rest[..auth_len], path))
}

/// `url` as scheme and authority, and the rest as written, fragment and
/// all, not canonicalised: what [`match_octets`] reduces, for a caller
/// that reads only a prefix of it (see `early`). `None` when `url` is
/// not a path from `/` (or when its scheme and authority cannot be told
/// apart without first cutting a fragment: then its head holds a `#`).
pub(crate) fn raw_path(url: &str) -> Option<(&[u8], &[u8])> {
    let (scheme, authority, path) = split_parts(url)?;
    let head = &url.as_bytes()[..scheme.len() + authority.len()];
    let path = path.as_bytes();
    let plain_head = memchr::memchr(b'#', head).is_none();
    (plain_head && path.first() == Some(&b'/')).then_some((head, path))
}

/// No octet of `raw` (a prefix of a raw path) ends the path (`#`) or is
/// changed by any canonicalisation step: [`match_octets`] keeps these
/// octets as they are.
pub(crate) fn is_plain(raw: &[u8]) -> bool {
    memchr::memchr(b'#', raw).is_none() && is_canonical(raw)
}

/// One of the URL shapes only Google's library takes (profile
/// `library_url_shapes`): empty, query-only (`?q`) or fragment-only
/// (`#f`).
fn is_library_url(url: &str) -> bool {
    url.is_empty() || url.starts_with(['?', '#'])
}

/// The octets rules are compared with: path and query, canonicalised;
/// borrowed from `url` when no step changes them (most paths).
pub(crate) fn match_octets<'u>(
    url: &'u str,
    p: &Profile,
) -> Result<Cow<'u, [u8]>, Error> {
    if !p.library_url_shapes && is_library_url(url) {
        let kind = ErrorKind::NotAPath;
        return Err(Error { input: url.to_string(), kind });
    }
    let (scheme, _, path) = split(url).ok_or_else(|| Error {
        input: url.to_string(),
        kind: ErrorKind::NotAPath,
    })?;
    let raw = path.as_bytes();
    let resolved = match p.dot_segments {
        DotSegments::Removed => without_dot_segments(raw),
        DotSegments::AbsoluteUrls if !scheme.is_empty() => {
            without_dot_segments(raw)
        }
        _ => None,
    };
    let path = resolved.as_deref().unwrap_or(raw);
    if path.first() == Some(&b'/') && is_canonical(path) {
        return Ok(match resolved {
            Some(owned) => Cow::Owned(owned),
            None => Cow::Borrowed(raw),
        });
    }
    let canon = Canon::for_target(p);
    let mut out = canonicalize(path, canon);
    if out.first() != Some(&b'/') {
        out.insert(0, b'/');
    }
    Ok(Cow::Owned(out))
}

/// A path segment that is `.` (`%2E` too, any case), or `..`.
fn dots(segment: &[u8]) -> Option<bool> {
    let dot = |s: &[u8]| s == b"." || s.eq_ignore_ascii_case(b"%2e");
    match segment.len() {
        1 | 3 if dot(segment) => Some(false),
        2 | 4 | 6 => (1..segment.len())
            .any(|cut| dot(&segment[..cut]) && dot(&segment[cut..]))
            .then_some(true),
        _ => None,
    }
}

/// `path` (a path from `/`, and its query) with the dot segments of the
/// path removed as a WHATWG URL parser removes them (profile
/// `dot_segments`): `.` is dropped, `..` drops the segment before
/// it, and either one last leaves the path ending in `/`; the query is
/// kept as written. `None` when the path has no dot segment. Linear in
/// the path.
fn without_dot_segments(path: &[u8]) -> Option<Vec<u8>> {
    let end = memchr::memchr(b'?', path).unwrap_or(path.len());
    let (head, query) = path.split_at(end);
    let rest = head.strip_prefix(b"/")?;
    let segments: Vec<&[u8]> = rest.split(|&b| b == b'/').collect();
    if segments.iter().all(|s| dots(s).is_none()) {
        return None;
    }
    let last = segments.len() - 1;
    let mut kept: Vec<&[u8]> = Vec::with_capacity(segments.len());
    for (i, s) in segments.into_iter().enumerate() {
        match dots(s) {
            Some(up) => {
                if up {
                    kept.pop();
                }
                if i == last {
                    kept.push(b"");
                }
            }
            None => kept.push(s),
        }
    }
    let mut out = Vec::with_capacity(path.len());
    for s in kept {
        out.push(b'/');
        out.extend_from_slice(s);
    }
    if out.is_empty() {
        out.push(b'/');
    }
    out.extend_from_slice(query);
    Some(out)
}

/// The URL of the robots.txt file that governs `url`:
/// `scheme:[//authority]/robots.txt` (R2.3-3).
///
/// ```
/// let u = robots_oracle::robots_txt_url("https://example.com:8080/a?b#c")?;
/// assert_eq!(u, "https://example.com:8080/robots.txt");
/// # Ok::<(), robots_oracle::Error>(())
/// ```
///
/// # Errors
///
/// When `url` has no scheme and authority.
pub fn robots_txt_url(url: &str) -> Result<String, Error> {
    match split(url) {
        Some((scheme, authority, _))
            if !scheme.is_empty() && authority.len() > 2 =>
        {
            Ok(format!(
                "{}{authority}/robots.txt",
                scheme.to_ascii_lowercase()
            ))
        }
        _ => {
            Err(Error { input: url.to_string(), kind: ErrorKind::NotAbsolute })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn octets(url: &str) -> String {
        let got = match_octets(url, &Profile::rfc9309()).unwrap();
        String::from_utf8(got.into_owned()).unwrap()
    }

    #[test]
    fn paths_queries_and_fragments() {
        assert_eq!(octets("/a/b?c=d#frag"), "/a/b?c=d");
        assert_eq!(
            octets("https://example.com/a/b?c=d&e=f#x"),
            "/a/b?c=d&e=f"
        );
        assert_eq!(octets("https://example.com"), "/");
        assert_eq!(octets("https://example.com?a"), "/?a");
        assert_eq!(octets("//example.com/b/c"), "/b/c");
        assert_eq!(octets("/a;p?q"), "/a;p?q");
    }

    #[test]
    fn library_shapes_only_under_the_switch() {
        let google = |url| {
            let got = match_octets(url, &Profile::google()).unwrap();
            String::from_utf8(got.into_owned()).unwrap()
        };
        assert_eq!(google(""), "/");
        assert_eq!(google("?a=b"), "/?a=b");
        assert_eq!(google("#top"), "/");
        for url in ["", "?a=b", "#top"] {
            let err = match_octets(url, &Profile::rfc9309()).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::NotAPath, "{url:?}");
        }
    }

    #[test]
    fn dot_segments_are_removed_only_under_the_switch() {
        let mut p = Profile::rfc9309();
        p.dot_segments = DotSegments::AbsoluteUrls;
        let mut every = Profile::rfc9309();
        every.dot_segments = DotSegments::Removed;
        let on = |url: &str| -> String {
            let got = match_octets(url, &p).unwrap();
            String::from_utf8(got.into_owned()).unwrap()
        };
        let e = "https://example.com";
        for (path, want) in [
            ("/a/../b", "/b"),
            ("/a/./b", "/a/b"),
            ("/.", "/"),
            ("/a/..", "/"),
            ("/a/../", "/"),
            ("/a/b/.", "/a/b/"),
            ("/..", "/"),
            ("/../../a", "/a"),
            ("/a/%2e%2E/b", "/b"),
            ("/a/.%2e/b?x=/../y", "/b?x=/../y"),
            ("/a//../b", "/a/b"),
            ("/a/.b/..c/...", "/a/.b/..c/..."),
            ("/%7e/./%41", "/~/A"),
        ] {
            assert_eq!(on(&format!("{e}{path}")), want, "{path}");
            // Not an absolute URL: compared as written, unless every
            // URL is resolved.
            assert_eq!(
                on(path),
                octets(path),
                "{path} as a path, not resolved"
            );
            let resolved = match_octets(path, &every).unwrap();
            assert_eq!(resolved.as_ref(), want.as_bytes(), "{path}");
        }
        // The switch off (both profiles): as written.
        assert_eq!(octets(&format!("{e}/a/../b")), "/a/../b");
        let g = match_octets("https://example.com/./a", &Profile::google());
        assert_eq!(g.unwrap().as_ref(), b"/./a");
    }

    #[test]
    fn relative_references_and_other_schemes_are_errors() {
        let p = Profile::rfc9309();
        assert_eq!(
            match_octets("mailto:a@b", &p).unwrap_err().kind(),
            ErrorKind::NotAPath
        );
        assert_eq!(
            match_octets("a/b", &p).unwrap_err().kind(),
            ErrorKind::NotAPath
        );
    }

    #[test]
    fn robots_url() {
        let u = robots_txt_url("ftp://ftp.example.com/pub/x").unwrap();
        assert_eq!(u, "ftp://ftp.example.com/robots.txt");
        assert!(robots_txt_url("/x").is_err());
    }
}
