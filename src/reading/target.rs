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
use crate::profile::Profile;

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
    let (_, _, path) = split(url).ok_or_else(|| Error {
        input: url.to_string(),
        kind: ErrorKind::NotAPath,
    })?;
    let path = path.as_bytes();
    if path.first() == Some(&b'/') && is_canonical(path) {
        return Ok(Cow::Borrowed(path));
    }
    let canon = Canon::for_target(p);
    let mut out = canonicalize(path, canon);
    if out.first() != Some(&b'/') {
        out.insert(0, b'/');
    }
    Ok(Cow::Owned(out))
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
