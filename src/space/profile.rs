//! Profiles: the named switches where readings of robots.txt differ.
//!
//! Each field of [`Profile`] is one behaviour, named after what it does,
//! with its source. The built-in profiles are bundles of switches:
//! [`Profile::rfc9309`] (the RFC-literal reading, the default) and
//! [`Profile::google`] (Google's documentation, and Google's open-source
//! parser where the documentation is silent). Switches are independent, so
//! a tool can toggle one at a time to explain why two parsers disagree.
//!
//! This module holds data only; it never parses or matches anything.

pub use crate::aipref::signal::SignalScope;
pub use crate::aipref::vocab::Vocabulary;

/// How the specificity ("priority") of a matching rule is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Priority {
    /// Octets of the rule's pattern after normalisation, `*` and `$`
    /// counted as one each (Google's documentation and parser).
    PatternOctets,
    /// Octets of the URL consumed by the shortest match of the pattern.
    MatchedOctets,
}

/// Which rule decides when several match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Precedence {
    /// The most specific match wins (R2.2.2-5).
    LongestMatch,
    /// The first matching rule in file order wins (the 1996 draft; Python's
    /// `urllib.robotparser`).
    FirstMatch,
}

/// How a robots.txt user-agent value is compared with a crawler's token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum AgentMatch {
    /// Case-insensitive equality (R2.2.1-6, Figure 2).
    Exact,
    /// The line's value occurs, case-insensitively, anywhere in the
    /// crawler's token (`urllib.robotparser`, protego).
    Substring,
    /// The crawler's token starts with the line's value.
    Prefix,
}

/// Whether dot segments (`.`, `..`, and their `%2E` spellings) are
/// removed from the URL's path before it is matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum DotSegments {
    /// The path is matched as written (Google's parser; both profiles).
    Kept,
    /// Removed from an absolute URL only; a URL given as a path is
    /// matched as written (texting_robots: `Robot::prepare_url` parses
    /// an absolute URL with the url crate, and percent-encodes anything
    /// else as it is).
    AbsoluteUrls,
    /// Removed from every URL, a path being resolved against the site
    /// as a WHATWG URL parser resolves it (seen in rust-robotparser,
    /// go-colly, node-crawlee, node-robots-parser, python-fast-robotstxt:
    /// `/a/../b` is `/b` to them).
    Removed,
}

/// What is skipped at the start of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum BomHandling {
    /// Nothing: a BOM makes the first line unparseable (the ABNF has none).
    Keep,
    /// A complete UTF-8 BOM `EF BB BF`.
    Full,
    /// A complete BOM or any prefix of it (`EF BB`, `EF`).
    FullOrPartial,
}

/// Which of the groups naming a crawler it obeys (and, separately, which
/// of the `*` groups when none names it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum GroupsObeyed {
    /// Every matching group, combined (R2.2.1-7, MUST).
    All,
    /// Only the first matching group in file order (`urllib.robotparser`
    /// returns the first entry that applies; the 1996 draft's "the first
    /// record that matches").
    First,
    /// Only the last matching group (parsers that keep groups in a map
    /// keyed by agent, so a later group replaces an earlier one).
    Last,
}

/// What becomes of allow and disallow lines before the first user-agent
/// line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum PreambleRules {
    /// Ignored (R2.2.2-15, SHOULD).
    Ignored,
    /// They form a `*` group, as if `User-agent: *` preceded them
    /// (Perl's `WWW::RobotRules`: "assume that User-agent: * was
    /// intended").
    StarGroup,
    /// They apply to every crawler, in addition to the groups it obeys.
    EveryCrawler,
}

/// The behaviour switches. Built-in bundles: [`Profile::rfc9309`] and
/// [`Profile::google`]; start from one and change fields to explore.
///
/// ```
/// let mut p = robots_oracle::Profile::rfc9309();
/// p.key_typos = true;
/// assert_ne!(p, robots_oracle::Profile::rfc9309());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Profile {
    /// The profile's name, for reports.
    pub name: &'static str,

    /// Bytes parsed; the rest of the file is ignored.
    /// Source: R2.5-2 (at least 500 KiB); Google: "Content which is after
    /// the maximum file size is ignored" (G-FMT-7).
    /// Default: rfc9309 = 512,000; google = 512,000.
    pub parse_limit: usize,

    /// A line is cut after this many bytes; the cut line is still used.
    /// Departs from the ABNF (no line limit). Evidence: Google's parser
    /// (`robots.cc`, a 2083 × 8 = 16,664-byte buffer holding 16,663 bytes
    /// plus NUL; GRT-8). Default: rfc9309 = None; google = Some(16,663).
    pub max_line_bytes: Option<usize>,

    /// A lone CR ends a line, as LF and CRLF do (`NL = %x0D / %x0A /
    /// %x0D.0A`, R2.2-13; Google: G-FMT-2). Off models parsers that split
    /// on LF only. Default: rfc9309 = true; google = true.
    pub cr_ends_line: bool,

    /// A NUL octet ends the line's content: the rest of the physical line
    /// is ignored. The RFC only says out-of-range characters "should be
    /// rejected as invalid" (§3, R3-4), so what a parser keeps of such a
    /// line is open. Evidence for on: Google's parser copies each line
    /// into a NUL-terminated buffer and reads it as a C string
    /// (`robots.cc` ParseAndEmitLine), so `Disallow: /x<00>y` is
    /// `Disallow: /x`. Default: rfc9309 = false; google = true.
    pub nul_ends_line: bool,

    /// A BOM at the start of the file is skipped.
    /// The ABNF has no BOM; RFC 3629 §6 allows one as a signature and
    /// Google ignores it (G-FMT-3); Google's parser also skips a partial
    /// one (GRT-9). Default: rfc9309 = Full; google = FullOrPartial.
    pub bom: BomHandling,

    /// Misspelt keys are accepted: `useragent`, `user agent`, `dissallow`,
    /// `dissalow`, `disalow`, `diasllow`, `disallaw`, `site-map`.
    /// Departs from R2.2-3 and R2.2-4 (the ABNF keys). Evidence: Google's
    /// parser key matching (GRT-3). Default: rfc9309 = false; google = true.
    pub key_typos: bool,

    /// A key that merely starts with `user-agent`, `allow`, `disallow` or
    /// `sitemap` counts as that key (`Disallowed: /x` disallows).
    /// Departs from R2.2-4. Evidence: Google's parser (`StartsWithIgnoreCase`,
    /// GRT-3). Default: rfc9309 = false; google = true.
    pub key_prefix_match: bool,

    /// A line without a colon is read as `key value` when it has exactly
    /// two whitespace-separated tokens.
    /// Departs from R2.2-3/R2.2-4 (`":"` is required). Evidence: Google's
    /// parser (GRT-2). Default: rfc9309 = false; google = true.
    pub missing_colon: bool,

    /// A user-agent value is cut at its first character outside
    /// `[A-Za-z_-]` (`googlebot/1.2` ≡ `googlebot`, `MJ12bot` ≡ `MJ`), and
    /// the cut value is matched like a product token. An empty result
    /// starts a group that matches nothing. Off, such a value names no
    /// crawler (the line still ends the group above it; see
    /// `invalid_agent_ends_group`).
    /// Whether a crawler matches a value that is not a product token is
    /// implementation-defined under RFC 9309: R2.2.1-1 says crawlers MUST
    /// use valid product tokens (letters, `_`, `-`) and R2.2-9 gives the
    /// line's value the same grammar, but the RFC never says how a value
    /// outside that grammar is compared, so "names no crawler" is the
    /// oracle's choice and cases mark it implementation-defined.
    /// Evidence for the cut: Google's documentation (G-UA-2) and parser
    /// (GRT-4). Default: rfc9309 = false; google = true.
    pub agent_value_prefix: bool,

    /// A user-agent line whose value is not a product token still ends the
    /// group above it (and starts or joins a group of its own). Source:
    /// §2.1 R2.1-3, "The group is terminated by a user-agent line or end of
    /// file" — it speaks of lines, not of valid tokens. Off models parsers
    /// that drop such a line, so that the rules after it join the previous
    /// group (one crawler gets another's rules). Default: rfc9309 = true;
    /// google = true.
    pub invalid_agent_ends_group: bool,

    /// A user-agent value of `*` followed by whitespace and more text is
    /// the global `*`. Departs from R2.2-6 (product-token). Evidence:
    /// Google's parser (GRT-5). Default: rfc9309 = false; google = true.
    pub star_with_suffix_is_global: bool,

    /// How a user-agent value is compared with the crawler's token.
    /// R2.2.1-6 and Figure 2 say exact, case-insensitive.
    /// Default: rfc9309 = Exact; google = Exact.
    pub agent_match: AgentMatch,

    /// A user-agent value is compared with the crawler's token in the
    /// case written: `User-agent: foobot` does not name `FooBot`. Departs
    /// from R2.2.1-6 ("Crawlers MUST use case-insensitive matching", and
    /// Figure 2's example). Evidence: parsers that look agents up in a
    /// map keyed by the value as written, or compare with `==`.
    /// Default: rfc9309 = false; google = false.
    pub agent_case_sensitive: bool,

    /// Which of the groups naming the crawler it obeys (and which of the
    /// `*` groups, when none names it). R2.2.1-7: every matching group,
    /// combined (MUST). Evidence for `First`: `urllib.robotparser` and the
    /// parsers modelled on it; for `Last`: parsers keyed by agent.
    /// Default: rfc9309 = All; google = All.
    pub groups_obeyed: GroupsObeyed,

    /// The `*` groups are obeyed by a crawler that a group names, too, in
    /// addition to that group. Departs from R2.2.1-8 (`*` only "if no
    /// matching group exists"). Evidence: some crawler libraries merge the
    /// global rules into every crawler's.
    /// Default: rfc9309 = false; google = false.
    pub star_groups_join_named: bool,

    /// A record other than user-agent, allow and disallow (`Sitemap`,
    /// `Crawl-delay`, an unknown key) ends the list of user-agent lines:
    /// a user-agent line after it starts a new group, so the agents above
    /// it get no rules. Departs from R2.2.4-3 (other records MUST NOT
    /// interfere with the parsing of the defined ones). Evidence: several
    /// parsers close the user-agent list at any non-user-agent line.
    /// Default: rfc9309 = false; google = false.
    pub records_end_agent_list: bool,

    /// A `Crawl-delay` or `Request-rate` line ends the list of user-agent
    /// lines, as `records_end_agent_list` does for every record, but no
    /// other record does. Departs from R2.2.4-3 (other records MUST NOT
    /// interfere with the parsing of the defined ones). Evidence:
    /// `urllib.robotparser` (`RobotFileParser.parse` sets state 2 after
    /// these two keys, as after a rule, and after no other).
    /// Default: rfc9309 = false; google = false.
    pub delay_records_end_agent_list: bool,

    /// What rules before the first user-agent line do. R2.2.2-15: the
    /// crawler SHOULD ignore them, so another treatment is
    /// implementation-defined. Evidence for `StarGroup`: Perl's
    /// `WWW::RobotRules` and reppy. Default: rfc9309 = Ignored;
    /// google = Ignored.
    pub preamble_rules: PreambleRules,

    /// A blank line ends a group: later rules are outside any group until
    /// the next user-agent line. Departs from R2.2-2 (`emptyline` inside a
    /// group). Evidence: the 1994 convention; `urllib.robotparser`.
    /// Default: rfc9309 = false; google = false.
    pub blank_line_ends_group: bool,

    /// With `blank_line_ends_group`, only a line with no octets at all
    /// ends the group: a line of whitespace or a comment alone does not.
    /// No effect otherwise. Evidence: `urllib.robotparser`
    /// (`RobotFileParser.parse` tests `if not line` on the line as split,
    /// before it cuts the comment and strips it), so a comment line inside
    /// a group keeps it open there. Departs, with `blank_line_ends_group`,
    /// from R2.2-2. Default: rfc9309 = false; google = false.
    pub only_empty_line_ends_group: bool,

    /// A rule value must start with `/` or `*`; others make the line
    /// invalid. Source: R2.2-7 (`path-pattern = "/" ...`), widened to `*`
    /// because the RFC's own §5.1 uses `*.gif$` (erratum 7995).
    /// Default: rfc9309 = true; google = false (used as written).
    pub require_pattern_start: bool,

    /// A rule whose pattern is not valid UTF-8 makes the line invalid.
    /// Source: R2.2-15..20 (the ABNF admits UTF-8 only). Google's parser
    /// percent-encodes any high byte instead (G-FMT-6, GRT-11).
    /// Default: rfc9309 = true; google = false.
    pub reject_invalid_utf8_patterns: bool,

    /// `*` and a final `$` are special in patterns. Source: R2.2.3-1 (MUST).
    /// Off models parsers without wildcards (`urllib.robotparser`).
    /// Default: rfc9309 = true; google = true.
    pub wildcards: bool,

    /// Which rule decides. Source: R2.2.2-5.
    /// Default: rfc9309 = LongestMatch; google = LongestMatch.
    pub precedence: Precedence,

    /// How specificity is measured. R2.2.2-6 says "the match that has the
    /// most octets" (ambiguous, A2); Google's documentation says "the
    /// length of the rule path" (G-PREC-4 fixes it as pattern length).
    /// Default: rfc9309 = PatternOctets; google = PatternOctets.
    pub priority: Priority,

    /// An allow and a disallow of equal priority: the allow wins.
    /// Source: R2.2.2-8 (SHOULD); Google G-PREC-2.
    /// Default: rfc9309 = true; google = true.
    pub tie_goes_to_allow: bool,

    /// `/robots.txt` itself is always allowed. Source: R2.2.2-10.
    /// Google's parser does not special-case it (GRT-15).
    /// Default: rfc9309 = true; google = false.
    pub implicit_robots_txt_allow: bool,

    /// `%xx` escapes of unreserved characters (`A-Z a-z 0-9 - . _ ~`) are
    /// decoded, in rules and URLs alike, before comparison. Source:
    /// R2.2.2-12 and Figure 4 (`%62%61%7A` ≡ `baz`). Google's parser never
    /// decodes (GRT-11). Default: rfc9309 = true; google = false.
    pub decode_unreserved: bool,

    /// Raw non-ASCII octets in the URL are percent-encoded before
    /// comparison (they always are in rules). Source: R2.2.2-11 ("the URI
    /// ... MUST be percent-encoded before comparison" with the rule).
    /// Off: the URL is matched as given, so a raw `/foo/bar/ツ` does not
    /// match `Allow: /foo/bar/ツ` (canonicalised to `%E3%83%84`). Evidence
    /// for off: Google's library expects the caller to pass a
    /// percent-encoded URL (robots_test.cc `ID_Encoding`: "the URL is
    /// expected to be percent-encoded"), and Google's published spec-test
    /// expects raw `/foo/bar/ツ` not to match `Allow: /foo/bar/ツ`; G-ENC-1
    /// describes Google's crawler, which encodes URLs before asking.
    /// Default: rfc9309 = true; google = false.
    pub encode_url_non_ascii: bool,

    /// `%xx` hex digits in the URL are upper-cased before comparison (they
    /// always are in rules). Source: RFC 3986 §6.2.2.1 via R2.2.2-11;
    /// Google's parser upper-cases rules only (GRT-11).
    /// Default: rfc9309 = true; google = false.
    pub uppercase_url_hex: bool,

    /// The `%xx` escapes of a rule keep the case of their hex digits as
    /// written (`%e3` stays `%e3`), where otherwise they are upper-cased.
    /// RFC 9309 is silent (S-HEX-CASE): R2.2.2-13 compares octets, and
    /// that `%e3` equals `%E3` is RFC 3986's equivalence (§2.1,
    /// §6.2.2.1), which R2.2.2-11 names only for how raw octets are
    /// encoded. Google's parser upper-cases a rule's escapes (GRT-11).
    /// Evidence for off: texting_robots (its pattern's escapes are
    /// compared octet by octet with the URL), temoto/robotstxt (raw
    /// string prefixes). Off together with `uppercase_url_hex=false`,
    /// escapes match only when spelled alike.
    /// Default: rfc9309 = true; google = true.
    pub uppercase_rule_hex: bool,

    /// Every `%xx` escape, in rules and URLs alike, is decoded before
    /// comparison, reserved characters included (`%2F` ≡ `/`, `%3F` ≡
    /// `?`), and the decoded octets are compared: Python's
    /// `urllib.robotparser`, which `unquote`s each rule's value and each
    /// URL and `quote`s them again (a one-to-one re-encoding, so the
    /// decoded octets decide; the oracle writes a decoded `%` and a
    /// decoded non-ASCII octet as an upper-case escape, so they stay
    /// data). Departs from R2.2.2-12 (a percent-encoded reserved
    /// character MUST NOT be unencoded) and Figure 4 rows 3-5 (a path's
    /// `%2F` is data, not the `/` delimiter): definite.
    /// Default: rfc9309 = false; google = false.
    pub decode_every_escape: bool,

    /// Whether the dot segments of the URL's path (`.` and `..`, also
    /// written `%2E`) are removed before comparison (RFC 3986 §5.2.4, as
    /// a WHATWG URL parser does), so that `/a/../b` is matched as `/b`:
    /// see [`DotSegments`]. RFC 9309 is silent (S-DOT-SEGMENTS): it
    /// matches rules against the URI's path (R2.2.2-2) and names RFC
    /// 3986 only for percent-encoding (R2.2.2-11). Google's parser
    /// compares the path as given (GRT-12).
    /// Default: rfc9309 = Kept; google = Kept.
    pub dot_segments: DotSegments,

    /// A raw `*` or `$` in the URL is compared as `%2A` / `%24`, so a rule
    /// written `%2A` matches it. Source: R2.2.3-2 and Figure 6 (SHOULD).
    /// Google's parser compares the URL as given.
    /// Default: rfc9309 = true; google = false.
    pub encode_url_star_dollar: bool,

    /// In the query (after the first raw `?`), a raw `:` or `/` and its
    /// escape `%3A` / `%2F` are one spelling, in rules and URLs alike.
    /// Source: R2.2.2-11 and Figure 4 row 2, whose Path
    /// `/foo/bar?baz=https://foo.bar` has the Path to Match
    /// `/foo/bar?baz=https%3A%2F%2Ffoo.bar` (RFC 3986 §3.4: `/` in a query
    /// is data). The oracle reads both spellings as the raw one, so a
    /// rule's specificity counts `%3A` / `%2F` in a query as one octet. A
    /// `%2F` in the path stays data, never the `/` delimiter (R2.2.2-12,
    /// Figure 4 rows 3-5 keep the path's `/` raw). Google's parser compares
    /// them as given (GRT-11). Default: rfc9309 = true; google = false.
    pub query_colon_slash_as_data: bool,

    /// `Allow: /dir/index.html` (or `.htm`) also allows `/dir/` exactly.
    /// Not in the RFC. Evidence: Google's parser (GRT-7).
    /// Default: rfc9309 = false; google = true.
    pub index_html_is_dir: bool,

    /// The URL shapes Google's library takes besides absolute URLs and
    /// paths from `/` are decided: the empty URL (read as `/`), a
    /// query-only URL (`?q`, read as `/?q`) and a fragment-only one (`#f`,
    /// read as `/`). Source: Google's parser (GRT-12: `GetPathParamsQuery`
    /// returns `/` for a URL without a path and prepends `/` to one that
    /// starts with `?`; GRT-18: robots_test.cc `GoogleOnly_SystemTest`
    /// expects the empty URL to be disallowed by `disallow: /`). Off: such
    /// a URL is refused (`ErrorKind::NotAPath`): RFC 9309 decides URIs and
    /// their paths (R2.2.2-2), and none of these names one.
    /// Default: rfc9309 = false; google = true.
    pub library_url_shapes: bool,

    /// A `Content-Usage` line is a rule (draft-ietf-aipref-attach-05 §3,
    /// which "Updates: 9309"): it belongs to its group and, like allow and
    /// disallow, ends the group's list of user-agent lines, so
    /// `User-agent: A` / `Content-Usage: train-ai=n` / `User-agent: B` /
    /// `Disallow: /` is two groups and A may crawl everything. Off, it is
    /// an unknown line, an other record that never ends a group
    /// (R2.2.4-3), and A and B share one group: RFC 9309 as published and
    /// Google's parser, which lists `content-usage` among known but
    /// unsupported tags (`reporting_robots.cc`).
    /// Default: rfc9309 = false; google = false; aipref = true.
    pub content_usage_rule: bool,

    /// Which draft of the vocabulary reads a statement of preference.
    /// Default: every profile = `Vocab07` (draft-ietf-aipref-vocab-07);
    /// `Vocab06` reads files written to the older drafts (see
    /// [`Vocabulary`]). Does not act on Allow/Disallow verdicts.
    pub usage_vocabulary: Vocabulary,

    /// Where a `Content-Signal` line applies (Cloudflare's Content
    /// Signals; no text specifies it): see [`SignalScope`] and
    /// `spec-cases/PROFILES.md`. Does not act on Allow/Disallow verdicts.
    /// Default: every profile = `Group`.
    pub content_signal_scope: SignalScope,
}

/// 500 KiB, the minimum parse limit of R2.5-2.
pub const FIVE_HUNDRED_KIB: usize = 500 * 1024;

impl Profile {
    /// The RFC-literal reading of RFC 9309.
    pub fn rfc9309() -> Profile {
        Profile {
            name: "rfc9309",
            parse_limit: FIVE_HUNDRED_KIB,
            max_line_bytes: None,
            cr_ends_line: true,
            nul_ends_line: false,
            bom: BomHandling::Full,
            key_typos: false,
            key_prefix_match: false,
            missing_colon: false,
            agent_value_prefix: false,
            invalid_agent_ends_group: true,
            star_with_suffix_is_global: false,
            agent_match: AgentMatch::Exact,
            agent_case_sensitive: false,
            groups_obeyed: GroupsObeyed::All,
            star_groups_join_named: false,
            preamble_rules: PreambleRules::Ignored,
            records_end_agent_list: false,
            delay_records_end_agent_list: false,
            blank_line_ends_group: false,
            only_empty_line_ends_group: false,
            require_pattern_start: true,
            reject_invalid_utf8_patterns: true,
            wildcards: true,
            precedence: Precedence::LongestMatch,
            priority: Priority::PatternOctets,
            tie_goes_to_allow: true,
            implicit_robots_txt_allow: true,
            decode_unreserved: true,
            encode_url_non_ascii: true,
            uppercase_url_hex: true,
            uppercase_rule_hex: true,
            decode_every_escape: false,
            dot_segments: DotSegments::Kept,
            encode_url_star_dollar: true,
            query_colon_slash_as_data: true,
            index_html_is_dir: false,
            library_url_shapes: false,
            content_usage_rule: false,
            usage_vocabulary: Vocabulary::Vocab07,
            content_signal_scope: SignalScope::Group,
        }
    }

    /// RFC 9309 as updated by draft-ietf-aipref-attach-05, with the
    /// vocabulary of draft-ietf-aipref-vocab-07: `rfc9309` plus the
    /// Content-Usage rule.
    pub fn aipref() -> Profile {
        Profile {
            name: "aipref",
            content_usage_rule: true,
            ..Profile::rfc9309()
        }
    }

    /// Google's documented behaviour; Google's open-source parser where the
    /// documentation is silent.
    pub fn google() -> Profile {
        Profile {
            name: "google",
            max_line_bytes: Some(GOOGLE_LINE_BYTES),
            nul_ends_line: true,
            bom: BomHandling::FullOrPartial,
            key_typos: true,
            key_prefix_match: true,
            missing_colon: true,
            agent_value_prefix: true,
            star_with_suffix_is_global: true,
            require_pattern_start: false,
            reject_invalid_utf8_patterns: false,
            implicit_robots_txt_allow: false,
            decode_unreserved: false,
            encode_url_non_ascii: false,
            uppercase_url_hex: false,
            encode_url_star_dollar: false,
            query_colon_slash_as_data: false,
            index_html_is_dir: true,
            library_url_shapes: true,
            ..Profile::rfc9309()
        }
    }

    /// Whether groups are formed and selected as RFC 9309 and Google do:
    /// every group naming the crawler merged, else the `*` groups; rules
    /// before the first user-agent line ignored; other records leaving
    /// the user-agent list open. The one-pass parse for one crawler
    /// (`RobotsTxt::parse_for`, `check_once`) relies on it and reads the
    /// whole file otherwise.
    pub fn grouping_is_plain(&self) -> bool {
        self.groups_obeyed == GroupsObeyed::All
            && !self.star_groups_join_named
            && !self.records_end_agent_list
            && !self.delay_records_end_agent_list
            && self.preamble_rules == PreambleRules::Ignored
    }

    /// This profile with every switch that only affects *deciding* (not
    /// what `RobotsTxt::parse` builds) set to one fixed value: two
    /// profiles with equal `parsing()` parse every body into the same
    /// groups, rules, records and diagnostics. A field not listed here
    /// counts as a parsing one, so a new switch is safe by default.
    /// (`classify` parses once per distinct value of this.)
    pub fn parsing(&self) -> Profile {
        let r = Profile::rfc9309();
        Profile {
            name: r.name,
            agent_match: r.agent_match,
            agent_case_sensitive: r.agent_case_sensitive,
            groups_obeyed: r.groups_obeyed,
            star_groups_join_named: r.star_groups_join_named,
            precedence: r.precedence,
            priority: r.priority,
            tie_goes_to_allow: r.tie_goes_to_allow,
            implicit_robots_txt_allow: r.implicit_robots_txt_allow,
            encode_url_non_ascii: r.encode_url_non_ascii,
            uppercase_url_hex: r.uppercase_url_hex,
            dot_segments: r.dot_segments,
            library_url_shapes: r.library_url_shapes,
            ..self.clone()
        }
    }

    /// The built-in profile of that name (`rfc9309` or `google`).
    pub fn by_name(name: &str) -> Option<Profile> {
        match name {
            "rfc9309" | "rfc" => Some(Profile::rfc9309()),
            "google" => Some(Profile::google()),
            "aipref" => Some(Profile::aipref()),
            _ => None,
        }
    }

    /// The names of the built-in profiles.
    pub const NAMES: [&'static str; 3] = ["rfc9309", "google", "aipref"];
}

/// Bytes of a line Google's parser keeps (its buffer is 16,664 bytes,
/// one of which holds the terminating NUL).
pub const GOOGLE_LINE_BYTES: usize = 2083 * 8 - 1;

impl Default for Profile {
    fn default() -> Profile {
        Profile::rfc9309()
    }
}

/// One way of changing one behaviour of a profile: the unit in which
/// disagreements between parsers are explained.
#[derive(Clone, Copy, Debug)]
pub struct Switch {
    /// `field=value`, e.g. `precedence=first-match`.
    pub name: &'static str,
    /// The axis of disagreement it belongs to: `precedence`, `encoding`,
    /// `grouping`, `ua-matching`, `wildcards`, `line-syntax`, `limits`,
    /// `special-cases`.
    pub axis: &'static str,
    /// The clause ids the behaviour concerns.
    pub clauses: &'static [&'static str],
    /// Applies the change.
    pub apply: fn(&mut Profile),
}

/// Every single-behaviour change of a profile, each as the value a field
/// takes in another reading. Applying one that equals the profile's
/// current value changes nothing; [`Switch::changes`] tells.
pub fn switches() -> &'static [Switch] {
    macro_rules! sw {
        ($name:literal, $axis:literal, [$($c:literal),*], |$p:ident| $body:expr) => {
            Switch { name: $name, axis: $axis, clauses: &[$($c),*], apply: |$p: &mut Profile| { $body; } }
        };
    }
    const ALL: &[Switch] = &[
        sw!("precedence=first-match", "precedence", ["R2.2.2-5"], |p| p
            .precedence =
            Precedence::FirstMatch),
        sw!("precedence=longest-match", "precedence", ["R2.2.2-5"], |p| p
            .precedence =
            Precedence::LongestMatch),
        sw!("priority=matched-octets", "precedence", ["R2.2.2-6"], |p| p
            .priority =
            Priority::MatchedOctets),
        sw!("priority=pattern-octets", "precedence", ["R2.2.2-6"], |p| p
            .priority =
            Priority::PatternOctets),
        sw!("tie_goes_to_allow=false", "precedence", ["R2.2.2-8"], |p| p
            .tie_goes_to_allow =
            false),
        sw!("tie_goes_to_allow=true", "precedence", ["R2.2.2-8"], |p| p
            .tie_goes_to_allow =
            true),
        sw!("decode_unreserved=false", "encoding", ["R2.2.2-12"], |p| p
            .decode_unreserved =
            false),
        sw!("decode_unreserved=true", "encoding", ["R2.2.2-12"], |p| p
            .decode_unreserved =
            true),
        sw!("encode_url_non_ascii=false", "encoding", ["R2.2.2-11"], |p| p
            .encode_url_non_ascii =
            false),
        sw!("encode_url_non_ascii=true", "encoding", ["R2.2.2-11"], |p| p
            .encode_url_non_ascii =
            true),
        sw!("uppercase_url_hex=false", "encoding", ["R2.2.2-11"], |p| p
            .uppercase_url_hex =
            false),
        sw!("uppercase_url_hex=true", "encoding", ["R2.2.2-11"], |p| p
            .uppercase_url_hex =
            true),
        sw!("encode_url_star_dollar=false", "encoding", ["R2.2.3-2"], |p| p
            .encode_url_star_dollar =
            false),
        sw!("encode_url_star_dollar=true", "encoding", ["R2.2.3-2"], |p| p
            .encode_url_star_dollar =
            true),
        sw!(
            "query_colon_slash_as_data=false",
            "encoding",
            ["R2.2.2-11", "R2.2.2-14"],
            |p| p.query_colon_slash_as_data = false
        ),
        sw!(
            "query_colon_slash_as_data=true",
            "encoding",
            ["R2.2.2-11", "R2.2.2-14"],
            |p| p.query_colon_slash_as_data = true
        ),
        sw!(
            "library_url_shapes=true",
            "special-cases",
            ["GRT-12", "GRT-18"],
            |p| p.library_url_shapes = true
        ),
        sw!(
            "library_url_shapes=false",
            "special-cases",
            ["GRT-12", "GRT-18"],
            |p| p.library_url_shapes = false
        ),
        sw!(
            "reject_invalid_utf8_patterns=false",
            "encoding",
            ["R2.2-15", "R2.2.2-16"],
            |p| p.reject_invalid_utf8_patterns = false
        ),
        sw!(
            "reject_invalid_utf8_patterns=true",
            "encoding",
            ["R2.2-15", "R2.2.2-16"],
            |p| p.reject_invalid_utf8_patterns = true
        ),
        sw!(
            "blank_line_ends_group=true",
            "grouping",
            ["R2.2-2", "R2.1-3"],
            |p| p.blank_line_ends_group = true
        ),
        sw!(
            "blank_line_ends_group=false",
            "grouping",
            ["R2.2-2", "R2.1-3"],
            |p| p.blank_line_ends_group = false
        ),
        sw!("groups_obeyed=all", "grouping", ["R2.2.1-7"], |p| p
            .groups_obeyed =
            GroupsObeyed::All),
        sw!("groups_obeyed=first", "grouping", ["R2.2.1-7"], |p| p
            .groups_obeyed =
            GroupsObeyed::First),
        sw!("groups_obeyed=last", "grouping", ["R2.2.1-7"], |p| p
            .groups_obeyed =
            GroupsObeyed::Last),
        sw!("star_groups_join_named=true", "grouping", ["R2.2.1-8"], |p| p
            .star_groups_join_named =
            true),
        sw!("star_groups_join_named=false", "grouping", ["R2.2.1-8"], |p| p
            .star_groups_join_named =
            false),
        sw!("records_end_agent_list=true", "grouping", ["R2.2.4-3"], |p| p
            .records_end_agent_list =
            true),
        sw!("records_end_agent_list=false", "grouping", ["R2.2.4-3"], |p| p
            .records_end_agent_list =
            false),
        sw!("preamble_rules=ignored", "grouping", ["R2.2.2-15"], |p| p
            .preamble_rules =
            PreambleRules::Ignored),
        sw!("preamble_rules=star-group", "grouping", ["R2.2.2-15"], |p| p
            .preamble_rules =
            PreambleRules::StarGroup),
        sw!("preamble_rules=every-crawler", "grouping", ["R2.2.2-15"], |p| {
            p.preamble_rules = PreambleRules::EveryCrawler
        }),
        sw!("agent_match=substring", "ua-matching", ["R2.2.1-6"], |p| p
            .agent_match =
            AgentMatch::Substring),
        sw!("agent_match=prefix", "ua-matching", ["R2.2.1-6"], |p| p
            .agent_match =
            AgentMatch::Prefix),
        sw!("agent_match=exact", "ua-matching", ["R2.2.1-6"], |p| p
            .agent_match =
            AgentMatch::Exact),
        sw!(
            "agent_value_prefix=true",
            "ua-matching",
            ["R2.2-9", "GRT-4"],
            |p| p.agent_value_prefix = true
        ),
        sw!(
            "agent_value_prefix=false",
            "ua-matching",
            ["R2.2-9", "GRT-4"],
            |p| p.agent_value_prefix = false
        ),
        sw!(
            "invalid_agent_ends_group=false",
            "grouping",
            ["R2.1-3", "R2.2-9"],
            |p| p.invalid_agent_ends_group = false
        ),
        sw!(
            "invalid_agent_ends_group=true",
            "grouping",
            ["R2.1-3", "R2.2-9"],
            |p| p.invalid_agent_ends_group = true
        ),
        sw!(
            "star_with_suffix_is_global=true",
            "ua-matching",
            ["R2.2-6", "GRT-5"],
            |p| p.star_with_suffix_is_global = true
        ),
        sw!(
            "star_with_suffix_is_global=false",
            "ua-matching",
            ["R2.2-6", "GRT-5"],
            |p| p.star_with_suffix_is_global = false
        ),
        sw!("wildcards=false", "wildcards", ["R2.2.3-1"], |p| p.wildcards =
            false),
        sw!("wildcards=true", "wildcards", ["R2.2.3-1"], |p| p.wildcards =
            true),
        sw!("key_typos=true", "line-syntax", ["R2.2-4", "GRT-3"], |p| p
            .key_typos =
            true),
        sw!("key_typos=false", "line-syntax", ["R2.2-4", "GRT-3"], |p| p
            .key_typos =
            false),
        sw!(
            "key_prefix_match=true",
            "line-syntax",
            ["R2.2-4", "GRT-3"],
            |p| p.key_prefix_match = true
        ),
        sw!(
            "key_prefix_match=false",
            "line-syntax",
            ["R2.2-4", "GRT-3"],
            |p| p.key_prefix_match = false
        ),
        sw!("missing_colon=true", "line-syntax", ["R2.2-4", "GRT-2"], |p| p
            .missing_colon =
            true),
        sw!("missing_colon=false", "line-syntax", ["R2.2-4", "GRT-2"], |p| {
            p.missing_colon = false
        }),
        sw!(
            "cr_ends_line=false",
            "line-syntax",
            ["R2.2-13", "G-FMT-2"],
            |p| p.cr_ends_line = false
        ),
        sw!("cr_ends_line=true", "line-syntax", ["R2.2-13", "G-FMT-2"], |p| {
            p.cr_ends_line = true
        }),
        sw!("nul_ends_line=true", "line-syntax", ["R3-4"], |p| p
            .nul_ends_line =
            true),
        sw!("nul_ends_line=false", "line-syntax", ["R3-4"], |p| p
            .nul_ends_line =
            false),
        sw!("bom=keep", "line-syntax", ["R2.2-20", "G-FMT-3"], |p| p.bom =
            BomHandling::Keep),
        sw!("bom=full", "line-syntax", ["R2.2-20", "G-FMT-3"], |p| p.bom =
            BomHandling::Full),
        sw!("bom=full-or-partial", "line-syntax", ["R2.2-20", "GRT-9"], |p| {
            p.bom = BomHandling::FullOrPartial
        }),
        sw!("require_pattern_start=false", "line-syntax", ["R2.2-7"], |p| p
            .require_pattern_start =
            false),
        sw!("require_pattern_start=true", "line-syntax", ["R2.2-7"], |p| p
            .require_pattern_start =
            true),
        sw!("parse_limit=unlimited", "limits", ["R2.5-2"], |p| p
            .parse_limit =
            usize::MAX),
        sw!("parse_limit=500KiB", "limits", ["R2.5-2"], |p| p.parse_limit =
            FIVE_HUNDRED_KIB),
        sw!("max_line_bytes=none", "limits", ["GRT-8"], |p| p
            .max_line_bytes =
            None),
        sw!("max_line_bytes=16663", "limits", ["GRT-8"], |p| p
            .max_line_bytes =
            Some(GOOGLE_LINE_BYTES)),
        sw!(
            "implicit_robots_txt_allow=false",
            "special-cases",
            ["R2.2.2-10"],
            |p| p.implicit_robots_txt_allow = false
        ),
        sw!(
            "implicit_robots_txt_allow=true",
            "special-cases",
            ["R2.2.2-10"],
            |p| p.implicit_robots_txt_allow = true
        ),
        sw!("index_html_is_dir=true", "special-cases", ["GRT-7"], |p| p
            .index_html_is_dir =
            true),
        sw!("index_html_is_dir=false", "special-cases", ["GRT-7"], |p| p
            .index_html_is_dir =
            false),
        sw!(
            "content_usage_rule=true",
            "grouping",
            ["AIPREF-ATTACH-3-2", "R2.1-3"],
            |p| p.content_usage_rule = true
        ),
        sw!(
            "content_usage_rule=false",
            "grouping",
            ["AIPREF-ATTACH-3-2", "R2.1-3"],
            |p| p.content_usage_rule = false
        ),
        // The readings added for the fits of issue 25, last, so that a
        // disagreement an older switch explains keeps its name.
        sw!(
            "uppercase_rule_hex=false",
            "encoding",
            ["R2.2.2-13", "S-HEX-CASE"],
            |p| p.uppercase_rule_hex = false
        ),
        sw!(
            "uppercase_rule_hex=true",
            "encoding",
            ["R2.2.2-13", "S-HEX-CASE"],
            |p| p.uppercase_rule_hex = true
        ),
        sw!("decode_every_escape=true", "encoding", ["R2.2.2-12"], |p| p
            .decode_every_escape =
            true),
        sw!("decode_every_escape=false", "encoding", ["R2.2.2-12"], |p| p
            .decode_every_escape =
            false),
        sw!(
            "dot_segments=kept",
            "encoding",
            ["R2.2.2-2", "S-DOT-SEGMENTS"],
            |p| p.dot_segments = DotSegments::Kept
        ),
        sw!(
            "dot_segments=absolute-urls",
            "encoding",
            ["R2.2.2-2", "S-DOT-SEGMENTS"],
            |p| p.dot_segments = DotSegments::AbsoluteUrls
        ),
        sw!(
            "dot_segments=removed",
            "encoding",
            ["R2.2.2-2", "S-DOT-SEGMENTS"],
            |p| p.dot_segments = DotSegments::Removed
        ),
        sw!("agent_case_sensitive=true", "ua-matching", ["R2.2.1-6"], |p| p
            .agent_case_sensitive =
            true),
        sw!("agent_case_sensitive=false", "ua-matching", ["R2.2.1-6"], |p| {
            p.agent_case_sensitive = false
        }),
        sw!(
            "delay_records_end_agent_list=true",
            "grouping",
            ["R2.2.4-3"],
            |p| p.delay_records_end_agent_list = true
        ),
        sw!(
            "delay_records_end_agent_list=false",
            "grouping",
            ["R2.2.4-3"],
            |p| p.delay_records_end_agent_list = false
        ),
        sw!(
            "only_empty_line_ends_group=true",
            "grouping",
            ["R2.2-2", "R2.1-3"],
            |p| p.only_empty_line_ends_group = true
        ),
        sw!(
            "only_empty_line_ends_group=false",
            "grouping",
            ["R2.2-2", "R2.1-3"],
            |p| p.only_empty_line_ends_group = false
        ),
    ];
    ALL
}

impl Switch {
    /// The profile with this switch applied.
    pub fn applied_to(&self, p: &Profile) -> Profile {
        let mut q = p.clone();
        (self.apply)(&mut q);
        q
    }

    /// Whether applying it to `p` changes anything.
    pub fn changes(&self, p: &Profile) -> bool {
        self.applied_to(p) != *p
    }
}

/// Switches are the same when their names are.
impl PartialEq for Switch {
    fn eq(&self, other: &Switch) -> bool {
        self.name == other.name
    }
}

impl Eq for Switch {}
