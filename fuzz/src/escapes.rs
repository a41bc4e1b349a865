//! Two parsers' readings of the `%` escapes in a rule that no profile
//! switch models, found by the `differential` target (fuzz/README.md,
//! "Findings"):
//!
//! - the Google port (`robotstxt` 0.3.0) lets a `%` take the next two
//!   octets with it whether or not they are hex digits
//!   ([`port_rewrite`], a [`crate::Known`] rewrite);
//! - texting_robots keeps an escape's hex digits in the case the rule
//!   wrote them and compares them octet by octet with the URL's
//!   ([`kept_case_matches`], a [`crate::matchers::KnownMatcher`]).
//!
//! Each is a model written from the parser's observed answers (the unit
//! tests below are those answers), never a copy of its code. Everything
//! here is linear in the body, except [`glob_matches`]: at most the
//! pattern's length times the target's.

use robots_oracle::RuleMatch;

use crate::{NEVER_MATCHES, rewrite_patterns};

fn hex(b: Option<&u8>) -> bool {
    b.is_some_and(u8::is_ascii_hexdigit)
}

/// An escape (`%` and two hex digits) at `i` of `v`.
fn escape_at(v: &[u8], i: usize) -> bool {
    v.get(i) == Some(&b'%') && hex(v.get(i + 1)) && hex(v.get(i + 2))
}

/// How the port reads a pattern in which a `%` starts no escape.
#[derive(Debug, PartialEq, Eq)]
enum PortReading {
    /// Rewritten: escapes upper-cased, non-ASCII octets escaped, and each
    /// `%` that starts no escape dropped with the (up to) two octets
    /// after it.
    Escaped(Vec<u8>),
    /// Kept as written, because the port's first scan (which also lets a
    /// `%` swallow two octets) saw nothing to change; it then differs from
    /// Google's reading, which escapes or upper-cases what the swallowed
    /// octets hid. The port compares the raw octets with an ASCII URL, so
    /// a non-ASCII one never matches.
    Raw,
}

/// The port's reading of `value`, when a `%` at one of the positions its
/// walk visits starts no escape and the reading differs from Google's
/// (which keeps such a `%` and reads what follows as usual); `None`
/// otherwise.
///
/// Observed (adapter rust-robotstxt): `/%ツ` is read `/%84` (the `%`
/// swallows `E3 83`, `84` is escaped), `/%zzab%e3` is read `/ab%E3`,
/// `/%é` (`%` swallows `C3 A9`, nothing left to change) stays raw and
/// matches no URL.
fn port_reading(value: &[u8]) -> Option<PortReading> {
    // One walk over the positions the port visits (a `%` always steps
    // three): its first scan (is there a lone `%`, is there anything to
    // change) and its rewrite visit the same ones.
    let mut lone = false;
    let mut change = false;
    let mut out = Vec::with_capacity(value.len() * 3);
    let mut i = 0;
    while i < value.len() {
        match value[i] {
            b'%' => {
                if escape_at(value, i) {
                    let digits = &value[i + 1..i + 3];
                    change |= digits.iter().any(u8::is_ascii_lowercase);
                    out.push(b'%');
                    out.extend(digits.iter().map(u8::to_ascii_uppercase));
                } else {
                    lone = true;
                }
                i += 3;
            }
            b if b >= 0x80 => {
                change = true;
                out.extend_from_slice(format!("%{b:02X}").as_bytes());
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    if !lone {
        return None;
    }
    if change {
        return Some(PortReading::Escaped(out));
    }
    // Google's reading differs from the raw value only where it escapes a
    // high octet or upper-cases an escape.
    let lowercase_escape = (0..value.len()).any(|i| {
        escape_at(value, i)
            && value[i + 1..i + 3].iter().any(u8::is_ascii_lowercase)
    });
    let high = value.iter().any(|&b| b >= 0x80);
    (high || lowercase_escape).then_some(PortReading::Raw)
}

/// `body` with every rule the port reads differently (see
/// [`port_reading`]) written as the port reads it: the escaped pattern,
/// or one that matches no path. `None` when no rule is read differently.
pub(crate) fn port_rewrite(body: &[u8]) -> Option<Vec<u8>> {
    rewrite_patterns(body, |value| match port_reading(value)? {
        PortReading::Escaped(pattern) => Some(pattern),
        PortReading::Raw => Some(NEVER_MATCHES.to_vec()),
    })
}

/// Whether texting_robots finds `rule` in `target` (the normalised path
/// and query), keeping the case of the escapes the rule wrote: `%e3`
/// matches the URL's `%e3` only, not `%E3`. A rule whose google reading
/// is not this one upper-cased (another normalisation, e.g. the derived
/// `/dir/$` of `index.html`) is left to the oracle: `true`.
///
/// Observed (adapter rust-texting_robots): `Disallow: /%e3x` disallows
/// `/%e3x` and allows `/%E3x`; Google's parser upper-cases the rule.
/// (The first half, the URL's lowercase escape, is what the switch
/// `uppercase_url_hex=true` already explains.)
pub(crate) fn kept_case_matches(rule: &RuleMatch, target: &[u8]) -> bool {
    let written = rule.pattern.as_bytes();
    let mut kept = Vec::with_capacity(written.len() * 3);
    let mut google = Vec::with_capacity(written.len() * 3);
    let mut i = 0;
    while i < written.len() {
        if escape_at(written, i) {
            kept.extend_from_slice(&written[i..i + 3]);
            google.push(b'%');
            google.extend(
                written[i + 1..i + 3].iter().map(u8::to_ascii_uppercase),
            );
            i += 3;
        } else {
            let b = written[i];
            if b >= 0x80 {
                let e = format!("%{b:02X}");
                kept.extend_from_slice(e.as_bytes());
                google.extend_from_slice(e.as_bytes());
            } else {
                kept.push(b);
                google.push(b);
            }
            i += 1;
        }
    }
    if google != rule.normalized.as_bytes() {
        return true;
    }
    glob_matches(&kept, target)
}

/// Whether `pattern` (`*` any octets, a final `$` the end) matches a
/// prefix of `target`: the literal runs between `*`s, each found at its
/// leftmost place after the one before (which is exact for `*`-only
/// patterns).
pub(crate) fn glob_matches(pattern: &[u8], target: &[u8]) -> bool {
    let (pattern, anchored) = match pattern.strip_suffix(b"$") {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    let runs: Vec<&[u8]> = pattern.split(|&b| b == b'*').collect();
    let Some((first, rest)) = runs.split_first() else {
        return false; // never: a split yields at least one run
    };
    if !target.starts_with(first) {
        return false;
    }
    let Some((last, middle)) = rest.split_last() else {
        return !anchored || target.len() == first.len();
    };
    let mut at = first.len();
    for run in middle {
        match find(&target[at..], run) {
            Some(q) => at += q + run.len(),
            None => return false,
        }
    }
    if anchored {
        target.len() >= at + last.len() && target.ends_with(last)
    } else {
        find(&target[at..], last).is_some()
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use robots_oracle::RuleKind;

    fn escaped(v: &[u8]) -> Option<Vec<u8>> {
        match port_reading(v)? {
            PortReading::Escaped(p) => Some(p),
            PortReading::Raw => Some(b"RAW".to_vec()),
        }
    }

    #[test]
    fn the_port_s_readings_as_observed() {
        assert_eq!(escaped("/%ツ".as_bytes()).as_deref(), Some(&b"/%84"[..]));
        assert_eq!(escaped(b"/%zzab%e3").as_deref(), Some(&b"/ab%E3"[..]));
        assert_eq!(escaped("/%é".as_bytes()).as_deref(), Some(&b"RAW"[..]));
        // `%` swallows `%e`, so the port sees nothing to change and keeps
        // the lowercase `%e3` Google upper-cases.
        assert_eq!(escaped(b"/%%e3").as_deref(), Some(&b"RAW"[..]));
        // A `%` at the very end takes what is left.
        assert_eq!(
            escaped("/é%".as_bytes()).as_deref(),
            Some(&b"/%C3%A9"[..])
        );
        assert_eq!(
            escaped("/é%4".as_bytes()).as_deref(),
            Some(&b"/%C3%A9"[..])
        );
    }

    #[test]
    fn readings_like_google_s_are_not_the_port_s_deviation() {
        assert_eq!(port_reading(b"/a%2fb"), None); // no lone `%`
        assert_eq!(port_reading("/ツ".as_bytes()), None);
        assert_eq!(port_reading(b"/100%"), None); // lone, nothing to change
        assert_eq!(port_reading(b"/%zz"), None);
        assert_eq!(port_reading(b"/%%41"), None);
    }

    fn rule(pattern: &str, normalized: &str) -> RuleMatch {
        RuleMatch {
            line: 2,
            kind: RuleKind::Disallow,
            pattern: pattern.into(),
            normalized: normalized.into(),
            priority: normalized.len(),
        }
    }

    #[test]
    fn texting_keeps_the_case_of_an_escape() {
        let r = rule("/%e3x", "/%E3x");
        assert!(kept_case_matches(&r, b"/%e3x"));
        assert!(!kept_case_matches(&r, b"/%E3x"));
        let r = rule("/ツ*%2f$", "/%E3%83%84*%2F$");
        assert!(kept_case_matches(&r, b"/%E3%83%84/a%2f"));
        assert!(!kept_case_matches(&r, b"/%E3%83%84/a%2F"));
        // Another normalisation: left to the oracle.
        assert!(kept_case_matches(&rule("/d/index.html", "/d/$"), b"/d/"));
    }

    #[test]
    fn globs() {
        let m = glob_matches;
        assert!(m(b"/a", b"/abc"));
        assert!(!m(b"/a$", b"/abc"));
        assert!(m(b"/a*c$", b"/abcbc"));
        assert!(!m(b"/a*c$", b"/ab"));
        assert!(m(b"*ab", b"/aab"));
        assert!(m(b"/a**b*", b"/axxb"));
        assert!(m(b"*$", b""));
        assert!(m(b"", b""));
        assert!(!m(b"/a*bc$", b"/ab"));
        assert!(m(b"/*a*a$", b"/aa"));
        assert!(!m(b"/*a*a$", b"/a"));
    }
}
