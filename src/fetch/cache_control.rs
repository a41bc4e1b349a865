//! The part of an HTTP `Cache-Control` value (RFC 9111 §5.2.2) that
//! robots.txt caching consults: `max-age`, `no-store` and `no-cache`.
//!
//! It reads a header value and nothing else: how the result changes a
//! cache lifetime is [`FetchProfile::lifetime`](super::FetchProfile::lifetime).
//! Linear in the value; never fails (unknown directives are skipped).

pub(super) struct CacheControl {
    /// `max-age=N` in seconds (an overflowing N: `u64::MAX`).
    pub(super) max_age: Option<u64>,
    /// `no-store` or `no-cache`: the copy must not be reused unchecked.
    pub(super) no_store: bool,
}

/// `max-age=N`, `no-store` and `no-cache` of a `Cache-Control` value
/// (RFC 9111 §5.2.2).
pub(super) fn parse_cache_control(value: &str) -> CacheControl {
    let mut out = CacheControl { max_age: None, no_store: false };
    for directive in value.split(',') {
        let (name, arg) = match directive.split_once('=') {
            Some((n, a)) => (n.trim(), Some(a.trim().trim_matches('"'))),
            None => (directive.trim(), None),
        };
        if name.eq_ignore_ascii_case("no-store")
            || name.eq_ignore_ascii_case("no-cache")
        {
            out.no_store = true;
        } else if name.eq_ignore_ascii_case("max-age") {
            // RFC 9111 §1.2.2: an overflowing delta-seconds is "infinity".
            out.max_age = arg.and_then(|a| {
                a.bytes()
                    .all(|b| b.is_ascii_digit())
                    .then(|| a.parse::<u64>().unwrap_or(u64::MAX))
            });
        }
    }
    out
}
