//! Percent-encoding normalisation, shared by rules and URLs (R2.2.2-11,
//! R2.2.2-12, Figure 4, R2.2.3-2 and Figure 6).
//!
//! Both sides of a comparison are brought to one canonical form: octets
//! outside ASCII become `%XX`, `%xx` escapes get upper-case hex, escapes of
//! unreserved characters are decoded, a raw `*` or `$` that is data
//! becomes `%2A` / `%24`, and in the query `%3A` / `%2F` are read as the
//! `:` / `/` Figure 4 row 2 shows them equal to. Which of these steps
//! apply is the profile's choice. Knows nothing of patterns or wildcards;
//! see `pattern`.

use crate::profile::Profile;

/// The normalisation steps to apply to one byte string.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Canon {
    pub encode_non_ascii: bool,
    pub decode_unreserved: bool,
    pub uppercase_hex: bool,
    pub encode_star_dollar: bool,
    /// After the first raw `?`, `%3A` and `%2F` are read as `:` and `/`
    /// (profile `query_colon_slash_as_data`).
    pub query_colon_slash: bool,
    /// Every escape is decoded, reserved characters too (profile
    /// `decode_every_escape`); a decoded `%` or non-ASCII octet, and a
    /// `%` that starts no escape, are written as an upper-case escape,
    /// so that the form stays one-to-one.
    pub decode_every: bool,
}

impl Canon {
    /// The steps for literal text in a rule. Rules are always
    /// canonicalised (Google does so too, G-ENC-1); the profile decides
    /// whether unreserved escapes are decoded and whether hex digits are
    /// upper-cased (`uppercase_rule_hex`).
    pub fn for_pattern(p: &Profile) -> Canon {
        Canon {
            encode_non_ascii: true,
            decode_unreserved: p.decode_unreserved,
            uppercase_hex: p.uppercase_rule_hex,
            encode_star_dollar: p.encode_url_star_dollar,
            query_colon_slash: p.query_colon_slash_as_data,
            decode_every: p.decode_every_escape,
        }
    }

    /// The steps for the URL being decided.
    pub fn for_target(p: &Profile) -> Canon {
        Canon {
            encode_non_ascii: p.encode_url_non_ascii,
            decode_unreserved: p.decode_unreserved,
            uppercase_hex: p.uppercase_url_hex,
            encode_star_dollar: p.encode_url_star_dollar,
            query_colon_slash: p.query_colon_slash_as_data,
            decode_every: p.decode_every_escape,
        }
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// RFC 3986 §2.3: `ALPHA / DIGIT / "-" / "." / "_" / "~"`.
fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

fn push_escaped(out: &mut Vec<u8>, b: u8) {
    // OK: b >> 4 and b & 15 are both < 16 == HEX.len().
    out.extend_from_slice(&[
        b'%',
        HEX[usize::from(b >> 4)],
        HEX[usize::from(b & 15)],
    ]);
}

/// An octet no step can change: ASCII, not `%`, `*` or `$`.
fn is_plain(b: u8) -> bool {
    b < 0x80 && !matches!(b, b'%' | b'*' | b'$')
}

/// How many octets at the start of `input` are plain, eight at a time.
pub(crate) fn plain_run(input: &[u8]) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let mut n = 0;
    for chunk in input.chunks_exact(8) {
        // OK: `chunks_exact(8)` yields 8-octet chunks.
        let word = u64::from_le_bytes(chunk.try_into().expect("8 octets"));
        // A zero octet of `word ^ b·LO` is an octet equal to b; the lowest
        // flagged octet is exact (higher ones may be false alarms).
        let hits = [b'%', b'*', b'$'].iter().fold(word & HI, |acc, &b| {
            let x = word ^ (LO * u64::from(b));
            acc | (x.wrapping_sub(LO) & !x & HI)
        });
        if hits != 0 {
            return n + (hits.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + input[n..].iter().take_while(|&&b| is_plain(b)).count()
}

/// Appends the canonical form of `input` to `out`. Linear in the input;
/// runs of octets no step changes are copied at once.
pub(crate) fn canonicalize_into(input: &[u8], c: Canon, out: &mut Vec<u8>) {
    canonicalize_piece(input, c, out, &mut false);
}

/// [`canonicalize_into`] for one piece of a longer text (a pattern's
/// text between wildcards): `in_query` says whether a raw `?` came
/// before the piece, and is set when the piece holds one.
pub(crate) fn canonicalize_piece(
    input: &[u8],
    c: Canon,
    out: &mut Vec<u8>,
    in_query: &mut bool,
) {
    let mut i = 0;
    while i < input.len() {
        let run = plain_run(&input[i..]);
        let plain = &input[i..i + run];
        if !*in_query && memchr::memchr(b'?', plain).is_some() {
            *in_query = true;
        }
        out.extend_from_slice(plain);
        i += run;
        let Some(&b) = input.get(i) else { break };
        let escape = match (b, input.get(i + 1), input.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) => {
                hex_value(h).zip(hex_value(l)).map(|(h, l)| (h << 4) | l)
            }
            _ => None,
        };
        if let Some(v) = escape {
            if c.decode_every {
                *in_query |= v == b'?';
                push_decoded(out, v, c);
            } else if (c.decode_unreserved && is_unreserved(v))
                || (c.query_colon_slash
                    && *in_query
                    && matches!(v, b':' | b'/'))
            {
                out.push(v);
            } else if c.uppercase_hex {
                push_escaped(out, v);
            } else {
                out.extend_from_slice(&input[i..i + 3]);
            }
            i += 3;
            continue;
        }
        if (b >= 0x80 && c.encode_non_ascii)
            || (c.encode_star_dollar && matches!(b, b'*' | b'$'))
            || (c.decode_every && b == b'%')
        {
            push_escaped(out, b);
        } else {
            out.push(b);
        }
        i += 1;
    }
}

/// The octet `v` of a decoded escape, under `decode_every`: as itself,
/// unless it is a `%` or non-ASCII (always escaped, so that a decoded
/// octet and an escape never read alike) or a `*` / `$` the profile
/// writes as data.
fn push_decoded(out: &mut Vec<u8>, v: u8, c: Canon) {
    if v == b'%'
        || v >= 0x80
        || (c.encode_star_dollar && matches!(v, b'*' | b'$'))
    {
        push_escaped(out, v);
    } else {
        out.push(v);
    }
}

/// No step changes `input` (whatever the profile): it has no `%`, `*`,
/// `$` or non-ASCII octet. Two vectorised scans.
pub(crate) fn is_canonical(input: &[u8]) -> bool {
    input.is_ascii() && memchr::memchr3(b'%', b'*', b'$', input).is_none()
}

/// The canonical form of `input`.
pub(crate) fn canonicalize(input: &[u8], c: Canon) -> Vec<u8> {
    if is_canonical(input) {
        return input.to_vec();
    }
    let mut out = Vec::with_capacity(input.len());
    canonicalize_into(input, c, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rfc(s: &str) -> String {
        let c = Canon::for_target(&Profile::rfc9309());
        String::from_utf8(canonicalize(s.as_bytes(), c)).unwrap()
    }

    #[test]
    fn figure_4_rows() {
        assert_eq!(rfc("/foo/bar?baz=quz"), "/foo/bar?baz=quz");
        assert_eq!(rfc("/foo/bar/ツ"), "/foo/bar/%E3%83%84");
        assert_eq!(rfc("/foo/bar/%E3%83%84"), "/foo/bar/%E3%83%84");
        assert_eq!(rfc("/foo/bar/%62%61%7A"), "/foo/bar/baz");
    }

    #[test]
    fn reserved_escapes_stay_encoded_with_upper_hex() {
        assert_eq!(rfc("/a%2fb"), "/a%2Fb");
        assert_eq!(rfc("/%7euser"), "/~user");
    }

    #[test]
    fn star_and_dollar_in_urls_are_encoded() {
        assert_eq!(rfc("/a-*.html$"), "/a-%2A.html%24");
    }

    #[test]
    fn figure_4_row_2_query_colon_and_slash_are_one_spelling() {
        let want = "/foo/bar?baz=https://foo.bar";
        assert_eq!(rfc("/foo/bar?baz=https%3A%2F%2Ffoo.bar"), want);
        assert_eq!(rfc("/foo/bar?baz=https%3a%2f%2ffoo.bar"), want);
        assert_eq!(rfc(want), want);
        // In the path a `%2F` stays data (R2.2.2-12), and before the first
        // raw `?` an escaped `%3F` does not start the query.
        assert_eq!(rfc("/a%2Fb?c=%2F"), "/a%2Fb?c=/");
        assert_eq!(rfc("/a%3Fb=%2F"), "/a%3Fb=%2F");
        // Other reserved escapes in the query are kept.
        assert_eq!(rfc("/a?b=%3D%40"), "/a?b=%3D%40");
        let mut out = Vec::new();
        let mut in_query = false;
        let c = Canon::for_pattern(&Profile::rfc9309());
        canonicalize_piece(b"/a?x", c, &mut out, &mut in_query);
        canonicalize_piece(b"=%2F", c, &mut out, &mut in_query);
        assert_eq!(out, b"/a?x=/");
        let g = Canon::for_target(&Profile::google());
        assert_eq!(canonicalize(b"/a?b=%2F", g), b"/a?b=%2F");
    }

    #[test]
    fn invalid_escapes_are_kept() {
        assert_eq!(rfc("/%zz/%4"), "/%zz/%4");
        assert_eq!(rfc("/%"), "/%");
    }

    #[test]
    fn plain_runs_stop_at_the_first_octet_a_step_may_change() {
        for s in
            ["", "abc", "abcdefgh%", "abcdefghijklmno*p", "/a$", "ab\u{e9}"]
        {
            let want = s.bytes().take_while(|&b| is_plain(b)).count();
            assert_eq!(plain_run(s.as_bytes()), want, "{s}");
        }
    }

    #[test]
    fn google_leaves_urls_alone() {
        let c = Canon::for_target(&Profile::google());
        let got = canonicalize("/%62%e3/ツ*".as_bytes(), c);
        assert_eq!(got, "/%62%e3/ツ*".as_bytes());
    }

    #[test]
    fn google_encodes_non_ascii_in_rules() {
        let c = Canon::for_pattern(&Profile::google());
        let got = canonicalize("/%62%e3/ツ".as_bytes(), c);
        assert_eq!(got, b"/%62%E3/%E3%83%84");
    }
}
