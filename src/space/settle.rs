//! Profiles that lex one body alike: the lexer's fields whose value cannot
//! change how *this* body is read, settled to one value.
//!
//! Five fields of [`Profile`] act only on octets a body may not have: the
//! BOM handling on a leading `EF`, `cr_ends_line` on a CR, `nul_ends_line`
//! on a NUL, `max_line_bytes` on a line longer than the cap and
//! `parse_limit` on a body longer than the limit (see `lex`, the only
//! reader of all five, and `parse::kept_len` of the last). [`Facts`]
//! finds in one pass which of those octets the body has; [`Facts::settle`]
//! sets each field that cannot act to a fixed value. Two profiles whose
//! settled forms are equal lex the body into the same lines, so they
//! parse it into the same file and decide every URL alike: `classify`
//! decides once per settled profile instead of once per profile.
//!
//! Sound by construction for those five fields and no others: the
//! lexer's other fields (keys, colons) depend on how lines split, which
//! these facts do not model, so they are never settled. Held to that by
//! the property test `settled_profiles_parse_alike` below: a body parsed
//! under a profile and under its settled form gives the same groups,
//! rules, records, sitemaps and diagnostics.
//!
//! Linear in the body (one `memchr` scan per octet looked for), no
//! allocation; never panics.

use crate::profile::{BomHandling, Profile};

/// What of a body the five settled fields can act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Facts {
    /// The body's length.
    len: usize,
    /// Its first octet is `EF` (the only start a BOM handling skips).
    bom_start: bool,
    /// It has a CR.
    cr: bool,
    /// It has a NUL.
    nul: bool,
    /// The longest run of octets between LFs (a bound on every line the
    /// lexer can cut, whatever ends a line).
    longest_run: usize,
}

impl Facts {
    /// The facts of `body`.
    pub(crate) fn of(body: &[u8]) -> Facts {
        let mut longest_run = 0;
        let mut at = 0;
        for nl in memchr::memchr_iter(b'\n', body) {
            longest_run = longest_run.max(nl - at);
            at = nl + 1;
        }
        longest_run = longest_run.max(body.len() - at);
        Facts {
            len: body.len(),
            bom_start: body.first() == Some(&0xEF),
            cr: memchr::memchr(b'\r', body).is_some(),
            nul: memchr::memchr(0, body).is_some(),
            longest_run,
        }
    }

    /// `p` with each of the five fields that cannot act on this body set
    /// to one fixed value (every other field as it is).
    pub(crate) fn settle(&self, p: &Profile) -> Profile {
        let mut s = p.clone();
        if !self.bom_start {
            s.bom = BomHandling::Keep;
        }
        if !self.cr {
            s.cr_ends_line = false;
        }
        if !self.nul {
            s.nul_ends_line = false;
        }
        if s.max_line_bytes.is_some_and(|max| self.longest_run <= max) {
            s.max_line_bytes = None;
        }
        if self.len <= s.parse_limit {
            s.parse_limit = usize::MAX;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_body_settles_google_and_rfc9309_lexing_alike() {
        let f = Facts::of(b"User-agent: *\nDisallow: /a\n");
        let (g, r) =
            (f.settle(&Profile::google()), f.settle(&Profile::rfc9309()));
        assert_eq!(g.bom, r.bom);
        assert_eq!(g.nul_ends_line, r.nul_ends_line);
        assert_eq!(g.cr_ends_line, r.cr_ends_line);
        assert_eq!(g.max_line_bytes, r.max_line_bytes);
        assert_eq!(g.parse_limit, r.parse_limit);
        // Fields the facts do not model stay.
        assert_eq!(g.key_typos, Profile::google().key_typos);
        assert_eq!(g.missing_colon, Profile::google().missing_colon);
    }

    #[test]
    fn each_octet_keeps_its_field() {
        let g = Profile::google();
        let f = Facts::of(b"\xEF\xBB\xBFa: b\rc: d\0\n");
        let s = f.settle(&g);
        assert_eq!(
            (s.bom, s.cr_ends_line, s.nul_ends_line),
            (g.bom, g.cr_ends_line, g.nul_ends_line)
        );
        let long = [b"Disallow: /".as_slice(), &[b'a'; 16_700]].concat();
        let f = Facts::of(&long);
        assert_eq!(f.settle(&g).max_line_bytes, g.max_line_bytes);
        let short = Facts::of(&long[..16_000]);
        assert_eq!(short.settle(&g).max_line_bytes, None);
    }

    #[test]
    fn the_parse_limit_stays_only_past_it() {
        let mut p = Profile::rfc9309();
        p.parse_limit = 10;
        assert_eq!(
            Facts::of(b"0123456789").settle(&p).parse_limit,
            usize::MAX
        );
        assert_eq!(Facts::of(b"0123456789a").settle(&p).parse_limit, 10);
    }

    #[test]
    fn runs_are_counted_between_line_feeds() {
        assert_eq!(Facts::of(b"").longest_run, 0);
        assert_eq!(Facts::of(b"abc").longest_run, 3);
        assert_eq!(Facts::of(b"a\nbcd\r\nef").longest_run, 4);
        assert_eq!(Facts::of(b"\n\n").longest_run, 0);
    }

    mod properties {
        use proptest::prelude::*;

        use super::*;
        use crate::parse::RobotsTxt;
        use crate::test_support::{body, parsed, profile};

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2000))]

            #[test]
            fn settled_profiles_parse_alike(b in body(), p in profile()) {
                let s = Facts::of(&b).settle(&p);
                let (under_p, settled) =
                    (RobotsTxt::parse(&b, &p), RobotsTxt::parse(&b, &s));
                prop_assert_eq!(parsed(&under_p), parsed(&settled));
            }
        }
    }
}
