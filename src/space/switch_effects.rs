//! Tests only: each of the readings added for the fits of issue 25
//! (`agent_case_sensitive`, `uppercase_rule_hex`, `decode_every_escape`,
//! `dot_segments`, `only_empty_line_ends_group`,
//! `delay_records_end_agent_list`) changes exactly the
//! answers it is meant to. Each gets examples it must change (under both
//! built-in profiles), and, but for the last, a property: over generated
//! files and URLs, a verdict that the switch changes is always one whose
//! file or URL holds what the switch reads (a case difference in an agent
//! value, a lowercase escape in a rule, a `%`, a dot segment), and the
//! fast paths agree with the plain reading under it.

use proptest::prelude::*;

use crate::explain::Verdict;
use crate::parse::RobotsTxt;
use crate::profile::{DotSegments, Profile};

fn verdict(body: &str, p: &Profile, agent: &str, url: &str) -> Verdict {
    let r = RobotsTxt::parse(body.as_bytes(), p);
    let plain = r.decide_linear(agent, url).map(|d| d.verdict);
    let fast = r.decide(agent, url).map(|d| d.verdict);
    assert_eq!(plain, fast, "{body:?} {agent} {url}");
    plain.unwrap()
}

fn with(base: &Profile, change: impl Fn(&mut Profile)) -> Profile {
    let mut p = base.clone();
    change(&mut p);
    p
}

const ALLOWED: Verdict = Verdict::Allowed;
const DISALLOWED: Verdict = Verdict::Disallowed;

fn bases() -> [Profile; 2] {
    [Profile::rfc9309(), Profile::google()]
}

#[test]
fn agent_case_sensitive_drops_only_the_groups_spelled_in_another_case() {
    let body = "User-agent: foobot\nDisallow: /a\n\nUser-agent: FooBot\n\
                Disallow: /b\n\nUser-agent: *\nDisallow: /c\n";
    for base in bases() {
        let on = with(&base, |p| p.agent_case_sensitive = true);
        // `foobot` names FooBot only in any case; `FooBot` in both.
        assert_eq!(verdict(body, &base, "FooBot", "/a"), DISALLOWED);
        assert_eq!(verdict(body, &on, "FooBot", "/a"), ALLOWED);
        assert_eq!(verdict(body, &on, "FooBot", "/b"), DISALLOWED);
        assert_eq!(verdict(body, &on, "FooBot", "/c"), ALLOWED);
        // A crawler no group names in any case: `*`, both ways.
        assert_eq!(verdict(body, &on, "Other", "/c"), DISALLOWED);
        // Only `foobot` names `foobot` exactly; `FooBot` no longer does.
        assert_eq!(verdict(body, &on, "foobot", "/b"), ALLOWED);
        assert_eq!(verdict(body, &base, "foobot", "/b"), DISALLOWED);
    }
    // With substring and prefix matching, too.
    let body = "User-agent: bot\nDisallow: /\n";
    for how in [crate::AgentMatch::Substring, crate::AgentMatch::Prefix] {
        let base = with(&Profile::rfc9309(), |p| p.agent_match = how);
        let on = with(&base, |p| p.agent_case_sensitive = true);
        assert_eq!(verdict(body, &base, "BOTx", "/"), DISALLOWED);
        assert_eq!(verdict(body, &on, "BOTx", "/"), ALLOWED);
        assert_eq!(verdict(body, &on, "botx", "/"), DISALLOWED);
    }
}

#[test]
fn uppercase_rule_hex_off_keeps_the_rule_s_escapes_as_written() {
    let body = "User-agent: *\nDisallow: /%e3%83%84\n";
    // rfc9309 upper-cases the URL: the rule's `%e3` no longer matches it.
    let r = Profile::rfc9309();
    let r_off = with(&r, |p| p.uppercase_rule_hex = false);
    for url in ["/%E3%83%84", "/%e3%83%84", "/ツ"] {
        assert_eq!(verdict(body, &r, "FooBot", url), DISALLOWED, "{url}");
        assert_eq!(verdict(body, &r_off, "FooBot", url), ALLOWED, "{url}");
    }
    // google compares the URL as given: only the same spelling matches.
    let g = Profile::google();
    let g_off = with(&g, |p| p.uppercase_rule_hex = false);
    assert_eq!(verdict(body, &g, "FooBot", "/%E3%83%84"), DISALLOWED);
    assert_eq!(verdict(body, &g_off, "FooBot", "/%E3%83%84"), ALLOWED);
    assert_eq!(verdict(body, &g, "FooBot", "/%e3%83%84"), ALLOWED);
    assert_eq!(verdict(body, &g_off, "FooBot", "/%e3%83%84"), DISALLOWED);
    // Upper-case escapes and raw non-ASCII in rules: no change.
    let body = "User-agent: *\nDisallow: /%E3%83%84\nDisallow: /é\n";
    for base in bases() {
        let off = with(&base, |p| p.uppercase_rule_hex = false);
        for url in ["/%E3%83%84", "/%C3%A9"] {
            let want = verdict(body, &base, "FooBot", url);
            assert_eq!(verdict(body, &off, "FooBot", url), want, "{url}");
        }
    }
}

#[test]
fn decode_every_escape_reads_reserved_escapes_as_their_characters() {
    for base in bases() {
        let on = with(&base, |p| p.decode_every_escape = true);
        let cases = [
            // (rule, URL, default verdict, verdict under the switch)
            ("/a%2Fb", "/a/b", ALLOWED, DISALLOWED),
            ("/a/b", "/a%2fb", ALLOWED, DISALLOWED),
            ("/a%3Fb", "/a?b", ALLOWED, DISALLOWED),
            ("/x%3Dy", "/x=y", ALLOWED, DISALLOWED),
            // A raw `%` that starts no escape is `%25`.
            ("/a%25b", "/a%b", ALLOWED, DISALLOWED),
            // A decoded `%` stays data: `%2541` is `%41`, not `A`.
            ("/%2541", "/A", ALLOWED, ALLOWED),
            // Unchanged: the same spelling, and no escape at all.
            ("/a%2Fb", "/a%2Fb", DISALLOWED, DISALLOWED),
            ("/a/b", "/a/b", DISALLOWED, DISALLOWED),
        ];
        for (rule, url, was, now) in cases {
            let body = format!("User-agent: *\nDisallow: {rule}\n");
            assert_eq!(verdict(&body, &base, "FooBot", url), was, "{rule}");
            assert_eq!(verdict(&body, &on, "FooBot", url), now, "{rule}");
        }
        // A decoded non-ASCII octet is its escape: `%C3%A9` ≡ raw `é`
        // in a rule (always encoded) and in an escaped URL.
        let body = "User-agent: *\nDisallow: /é\n";
        assert_eq!(verdict(body, &on, "FooBot", "/%c3%a9"), DISALLOWED);
    }
}

#[test]
fn dot_segments_resolve_absolute_urls_or_every_url() {
    use crate::profile::DotSegments::{AbsoluteUrls, Removed};
    let body = "User-agent: *\nDisallow: /$\nDisallow: /b\n";
    for base in bases() {
        let absolute = with(&base, |p| p.dot_segments = AbsoluteUrls);
        let every = with(&base, |p| p.dot_segments = Removed);
        for (url, was, abs, all) in [
            ("https://example.com/.", ALLOWED, DISALLOWED, DISALLOWED),
            ("https://example.com/a/../", ALLOWED, DISALLOWED, DISALLOWED),
            (
                "https://example.com/a/%2e%2e/b",
                ALLOWED,
                DISALLOWED,
                DISALLOWED,
            ),
            ("https://example.com/b/../a", DISALLOWED, ALLOWED, ALLOWED),
            // A path alone is resolved only under `removed`.
            ("/a/../", ALLOWED, ALLOWED, DISALLOWED),
            ("/b/./../a", DISALLOWED, DISALLOWED, ALLOWED),
            // No dot segment: no change.
            ("https://example.com/a/..b", ALLOWED, ALLOWED, ALLOWED),
            ("https://example.com/", DISALLOWED, DISALLOWED, DISALLOWED),
            ("/b/.x", DISALLOWED, DISALLOWED, DISALLOWED),
        ] {
            assert_eq!(verdict(body, &base, "FooBot", url), was, "{url}");
            assert_eq!(verdict(body, &absolute, "FooBot", url), abs, "{url}");
            assert_eq!(verdict(body, &every, "FooBot", url), all, "{url}");
        }
    }
}

#[test]
fn only_empty_line_ends_group_keeps_comment_and_whitespace_lines_inside() {
    let body = "User-agent: *\n# c\nDisallow: /a\n \t\nDisallow: /b\n\n\
                Disallow: /c\n";
    for base in bases() {
        let blank = with(&base, |p| p.blank_line_ends_group = true);
        let empty = with(&blank, |p| p.only_empty_line_ends_group = true);
        let alone = with(&base, |p| p.only_empty_line_ends_group = true);
        for (url, b, e) in [
            ("/a", ALLOWED, DISALLOWED),
            ("/b", ALLOWED, DISALLOWED),
            ("/c", ALLOWED, ALLOWED),
        ] {
            assert_eq!(verdict(body, &base, "FooBot", url), DISALLOWED);
            assert_eq!(verdict(body, &alone, "FooBot", url), DISALLOWED);
            assert_eq!(verdict(body, &blank, "FooBot", url), b, "{url}");
            assert_eq!(verdict(body, &empty, "FooBot", url), e, "{url}");
        }
    }
    // A run of blank lines holding an empty one ends the group.
    let body = "User-agent: *\n# c\n\n# d\nDisallow: /a\n";
    let empty = with(&Profile::rfc9309(), |p| {
        p.blank_line_ends_group = true;
        p.only_empty_line_ends_group = true;
    });
    assert_eq!(verdict(body, &empty, "FooBot", "/a"), ALLOWED);
}

#[test]
fn delay_records_end_the_agent_list_and_no_other_record_does() {
    let body = "User-agent: FooBot\nCrawl-delay: 3\nUser-agent: BarBot\n\
                Disallow: /\n";
    let other = "User-agent: FooBot\nSitemap: /s.xml\nX: y\n\
                 User-agent: BarBot\nDisallow: /\n";
    for base in bases() {
        let on = with(&base, |p| p.delay_records_end_agent_list = true);
        assert_eq!(verdict(body, &base, "FooBot", "/"), DISALLOWED);
        assert_eq!(verdict(body, &on, "FooBot", "/"), ALLOWED);
        assert_eq!(verdict(body, &on, "BarBot", "/"), DISALLOWED);
        assert_eq!(verdict(other, &on, "FooBot", "/"), DISALLOWED);
        let rate = body.replace("Crawl-delay: 3", "request-rate: 1/5");
        assert_eq!(verdict(&rate, &on, "FooBot", "/"), ALLOWED);
    }
}

/// Bodies of agent lines in several cases and rules with escapes, and
/// URLs with escapes and dot segments, absolute or not.
fn body() -> impl Strategy<Value = String> {
    let lines = prop::sample::select(vec![
        "User-agent: foobot\n",
        "User-agent: FooBot\n",
        "User-agent: FOOBOT\n",
        "User-agent: bot\n",
        "User-agent: *\n",
        "Disallow: /a%2Fb\n",
        "Allow: /a/\n",
        "Disallow: /%e3\n",
        "Allow: /%E3%83\n",
        "Disallow: /$\n",
        "Disallow: /b\n",
        "Allow: /100%\n",
        "Disallow: /*%3f\n",
        "Disallow: /a\n",
        "\n",
    ]);
    prop::collection::vec(lines, 0..12).prop_map(|l| l.concat())
}

fn url() -> impl Strategy<Value = String> {
    let heads = prop::sample::select(vec!["", "https://example.com"]);
    let pieces = prop::sample::select(vec![
        "/a", "/b", "/.", "/..", "/%2e", "/%2F", "%2fb", "/%e3", "/%E3",
        "%83", "?", "%3F", "/100%25", "%", "/",
    ]);
    (heads, prop::collection::vec(pieces, 1..6))
        .prop_map(|(h, p)| format!("{h}/{}", p.concat()))
}

fn agent() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["FooBot", "foobot", "FOOBOT", "Other"])
}

/// Whether `body` has a user-agent value that names `agent` in any case
/// but not in the case written (exact matching, both built-in profiles).
fn agent_case_differs(body: &str, agent: &str) -> bool {
    body.lines()
        .filter_map(|l| l.strip_prefix("User-agent: "))
        .any(|v| v.eq_ignore_ascii_case(agent) && v != agent)
}

/// Whether a rule of `body` holds an escape with a lowercase hex digit.
fn lowercase_rule_escape(body: &str) -> bool {
    body.lines().filter(|l| !l.starts_with("User-agent")).any(|l| {
        l.as_bytes().windows(3).any(|w| {
            w[0] == b'%'
                && w[1..].iter().all(u8::is_ascii_hexdigit)
                && w[1..].iter().any(u8::is_ascii_lowercase)
        })
    })
}

/// Whether `url` has a dot segment in its path (and is absolute, when
/// `absolute`).
fn dot_segment(url: &str, absolute: bool) -> bool {
    let rest = match url.strip_prefix("https://example.com") {
        Some(rest) => rest,
        None if absolute => return false,
        None => url,
    };
    let path = rest.split('?').next().unwrap_or(rest);
    path.split('/').any(|s| {
        [".", "..", "%2e", "%2e%2e", ".%2e", "%2e."]
            .iter()
            .any(|d| s.eq_ignore_ascii_case(d))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn each_switch_changes_only_the_verdicts_it_reads(
        b in body(),
        u in url(),
        a in agent(),
        google in any::<bool>(),
    ) {
        let base = if google { Profile::google() } else { Profile::rfc9309() };
        let was = verdict(&b, &base, a, &u);
        let sensitive = with(&base, |p| p.agent_case_sensitive = true);
        if verdict(&b, &sensitive, a, &u) != was {
            prop_assert!(agent_case_differs(&b, a));
        }
        let kept = with(&base, |p| p.uppercase_rule_hex = false);
        if verdict(&b, &kept, a, &u) != was {
            prop_assert!(lowercase_rule_escape(&b));
        }
        let decoded = with(&base, |p| p.decode_every_escape = true);
        if verdict(&b, &decoded, a, &u) != was {
            prop_assert!(b.contains('%') || u.contains('%'));
        }
        let absolute =
            with(&base, |p| p.dot_segments = DotSegments::AbsoluteUrls);
        if verdict(&b, &absolute, a, &u) != was {
            prop_assert!(dot_segment(&u, true));
        }
        let every = with(&base, |p| p.dot_segments = DotSegments::Removed);
        if verdict(&b, &every, a, &u) != was {
            prop_assert!(dot_segment(&u, false));
        }
    }
}
