//! The fast path gives the plain reading's decisions: `decide` (rule
//! index once a group has been consulted a few times, octet tables for
//! long targets), `is_allowed` (stops early), `parse_for` (the agent's
//! groups only), `check_once` (one pass, nothing kept) and
//! `decide_indexed` (all of these, index at once) against
//! `decide_linear` (every rule, octet by octet), over generated files
//! with large groups and URLs derived from their rules (long ones too,
//! decided first on their raw path: `early`).

use proptest::prelude::*;
use robots_oracle::{Profile, RobotsTxt};

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 600,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn profile() -> impl Strategy<Value = Profile> {
    let lenient = {
        let mut p = Profile::google();
        p.wildcards = false;
        p.priority = robots_oracle::Priority::MatchedOctets;
        p
    };
    let first = {
        let mut p = Profile::rfc9309();
        p.precedence = robots_oracle::Precedence::FirstMatch;
        p
    };
    prop_oneof![
        3 => Just(Profile::rfc9309()),
        3 => Just(Profile::google()),
        1 => Just(lenient),
        1 => Just(first),
    ]
}

/// Patterns that share prefixes and suffixes, with `*`, `$`, escapes,
/// non-ASCII, `index.html` and empty values.
fn pattern() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        6 => "[ab]{1,3}",
        3 => Just("/".to_string()),
        3 => Just("*".to_string()),
        1 => Just("%61".to_string()),
        1 => Just("%2f".to_string()),
        1 => Just("é".to_string()),
        1 => Just("index.html".to_string()),
        1 => Just("?q=".to_string()),
    ];
    (prop::collection::vec(part, 0..7), any::<bool>(), 0..20u8).prop_map(
        |(parts, anchored, shape)| {
            let mut p = match shape {
                0 => String::new(),
                1 => "*".to_string(),
                _ => "/".to_string(),
            };
            p.push_str(&parts.concat());
            if anchored {
                p.push('$');
            }
            p
        },
    )
}

/// A file of a few groups, some large, for `FooBot` and others.
fn file() -> impl Strategy<Value = String> {
    let group = (
        prop::sample::select(vec!["*", "FooBot", "foobot", "OtherBot"]),
        prop::collection::vec((any::<bool>(), pattern()), 0..40),
    );
    prop::collection::vec(group, 1..4).prop_map(|groups| {
        let mut body = String::new();
        for (agent, rules) in groups {
            body.push_str(&format!("User-agent: {agent}\n"));
            for (allow, p) in rules {
                let key = if allow { "Allow" } else { "Disallow" };
                body.push_str(&format!("{key}: {p}\n"));
            }
        }
        body
    })
}

/// URLs near the rules: short ones, and long ones (octet tables).
fn url() -> impl Strategy<Value = String> {
    let part =
        prop_oneof!["[ab]{1,3}", Just("/".to_string()), Just("%61".into())];
    (prop::collection::vec(part, 0..8), 0..3usize).prop_map(|(parts, long)| {
        let tail = "ab/".repeat(long * 30);
        format!(
            "/{}{tail}{}",
            parts.concat(),
            if long == 2 { "x.html" } else { "" }
        )
    })
}

/// Long URLs (at least 256 octets: the longest rules are probed first,
/// on the raw path), with what canonicalisation changes (`%61`, `é`,
/// `*`, `$`) or a fragment (`#`) early, late or nowhere, absolute or
/// not, and `/robots.txt` with a long fragment.
fn long_url() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        6 => "[ab]{1,3}",
        3 => Just("/".to_string()),
        3 => (5..60usize).prop_map(|n| "ab/".repeat(n)),
        1 => Just("%61".to_string()),
        1 => Just("%2f".to_string()),
        1 => Just("é".to_string()),
        1 => Just("*".to_string()),
        1 => Just("$".to_string()),
        1 => Just("#".to_string()),
        1 => Just("?q=".to_string()),
    ];
    let head = prop_oneof![
        4 => Just(""),
        1 => Just("https://example.com"),
        1 => Just("https://ex#ample.com"),
        1 => Just("/robots.txt#"),
    ];
    (head, prop::collection::vec(part, 1..10)).prop_map(|(head, parts)| {
        let mut url = format!("{head}/{}", parts.concat());
        while url.len() < 300 {
            url.push_str("ab/");
        }
        url
    })
}

/// One large `*` group (hundreds of rules: indexed, keys in the
/// automaton, pieces numbered) and long targets (shared bitsets).
fn large_file() -> impl Strategy<Value = String> {
    prop::collection::vec((any::<bool>(), pattern()), 100..400).prop_map(
        |rules| {
            let mut body = String::from("User-agent: *\n");
            for (allow, p) in rules {
                let key = if allow { "Allow" } else { "Disallow" };
                body.push_str(&format!("{key}: {p}\n"));
            }
            body
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..config() })]

    #[test]
    fn large_groups_and_long_targets_decide_as_the_plain_reading(
        body in large_file(),
        urls in prop::collection::vec(prop_oneof![url(), long_url()], 1..8),
        p in profile(),
    ) {
        let robots = RobotsTxt::parse(body.as_bytes(), &p);
        for url in &urls {
            let plain = robots.decide_linear("FooBot", url).unwrap();
            let indexed = robots.decide_indexed("FooBot", url).unwrap();
            prop_assert_eq!(&indexed, &plain);
            for _ in 0..5 {
                prop_assert_eq!(robots.is_allowed("FooBot", url), plain.is_allowed());
            }
        }
        let mine = RobotsTxt::parse_for(body.as_bytes(), &p, "FooBot");
        for _ in 0..5 {
            for url in &urls {
                let plain = robots.decide_linear("FooBot", url).unwrap();
                prop_assert_eq!(mine.is_allowed(url), plain.is_allowed(), "{}", url);
            }
        }
    }
}

/// A group just large enough to be indexed (its longest rules are
/// probed, and often settle the verdict).
fn small_indexed_file() -> impl Strategy<Value = String> {
    prop::collection::vec((any::<bool>(), pattern()), 8..24).prop_map(
        |rules| {
            let mut body = String::from("User-agent: *\n");
            for (allow, p) in rules {
                let key = if allow { "Allow" } else { "Disallow" };
                body.push_str(&format!("{key}: {p}\n"));
            }
            body
        },
    )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn long_urls_settled_on_their_raw_path_decide_as_the_plain_reading(
        body in small_indexed_file(),
        urls in prop::collection::vec(long_url(), 1..6),
        p in profile(),
    ) {
        let robots = RobotsTxt::parse(body.as_bytes(), &p);
        let mine = RobotsTxt::parse_for(body.as_bytes(), &p, "FooBot");
        for url in &urls {
            let plain = robots.decide_linear("FooBot", url).unwrap();
            prop_assert_eq!(&robots.decide_indexed("FooBot", url).unwrap(), &plain);
            for _ in 0..5 {
                prop_assert_eq!(mine.is_allowed(url), plain.is_allowed(), "{}", url);
            }
        }
    }

    #[test]
    fn the_fast_path_decides_as_the_plain_reading(
        body in file(),
        urls in prop::collection::vec(url(), 1..12),
        p in profile(),
    ) {
        let robots = RobotsTxt::parse(body.as_bytes(), &p);
        for agent in ["FooBot", "NoBot"] {
            for url in &urls {
                let plain = robots.decide_linear(agent, url).unwrap();
                let indexed = robots.decide_indexed(agent, url).unwrap();
                prop_assert_eq!(&indexed, &plain);
                prop_assert_eq!(&robots.decide(agent, url).unwrap(), &plain);
                let allowed = robots.is_allowed(agent, url);
                prop_assert_eq!(allowed, plain.is_allowed());
                // The parse for one agent, and one check in one pass.
                let mine = RobotsTxt::parse_for(body.as_bytes(), &p, agent);
                prop_assert_eq!(&mine.decide(url).unwrap(), &plain);
                prop_assert_eq!(mine.is_allowed(url), plain.is_allowed());
                let once = RobotsTxt::check_once(body.as_bytes(), &p, agent, url);
                prop_assert_eq!(once, plain.is_allowed());
            }
        }
    }
}

#[test]
fn a_large_group_gets_an_index_and_keeps_its_answers() {
    let mut body = String::from("User-agent: *\n");
    for i in 0..3000 {
        body.push_str(&format!("Disallow: /d{i}/\nAllow: /d{i}/*.pdf$\n"));
    }
    let robots = RobotsTxt::parse(body.as_bytes(), &Profile::rfc9309());
    for _ in 0..8 {
        for url in ["/d17/a", "/d17/a.pdf", "/x", "/d2999/", "/d3000/"] {
            assert_eq!(
                robots.decide("FooBot", url).unwrap(),
                robots.decide_linear("FooBot", url).unwrap(),
                "{url}"
            );
        }
    }
}

#[test]
fn threads_share_a_parsed_file_and_its_index() {
    fn shared<T: Send + Sync>(_: &T) {}
    let mut body = String::from("User-agent: *\n");
    for i in 0..500 {
        body.push_str(&format!("Disallow: /p{i}/\nAllow: /*{i}.html$\n"));
    }
    let robots = RobotsTxt::parse(body.as_bytes(), &Profile::google());
    shared(&robots);
    std::thread::scope(|s| {
        for t in 0..2 {
            let robots = &robots;
            s.spawn(move || {
                for i in 0..200 {
                    let url = format!("/p{}/{t}{i}.html", i * 7 % 600);
                    assert_eq!(
                        robots.decide("FooBot", &url).unwrap(),
                        robots.decide_linear("FooBot", &url).unwrap(),
                    );
                }
            });
        }
    });
}

/// `User-agent: *`, `Disallow: FIRST`, then ten `Disallow: /xN` rules
/// (enough rules for the probe of a long URL to run).
fn disallows_then_ten_more(first: &str) -> String {
    let mut body = format!("User-agent: *\nDisallow: {first}\n");
    for i in 0..10 {
        body.push_str(&format!("Disallow: /x{i}\n"));
    }
    body
}

#[test]
fn a_long_fragment_after_robots_txt_leaves_it_allowed() {
    // Every rule is a disallow and `/` matches: the probe settles
    // "disallowed" on the raw path at its first octet; but the URL is
    // `/robots.txt` (its fragment dropped, or `%2E` decoded), always
    // allowed (R2.2.2-10).
    let body = disallows_then_ten_more("/");
    let p = Profile::rfc9309();
    let robots = RobotsTxt::parse(body.as_bytes(), &p);
    let mine = RobotsTxt::parse_for(body.as_bytes(), &p, "FooBot");
    let tail = "a".repeat(300);
    for url in [format!("/robots.txt#{tail}"), format!("/robots%2Etxt#{tail}")]
    {
        for _ in 0..6 {
            assert!(mine.is_allowed(&url), "{url}");
            assert!(robots.is_allowed("FooBot", &url), "{url}");
        }
        assert_eq!(
            robots.decide_indexed("FooBot", &url).unwrap(),
            robots.decide_linear("FooBot", &url).unwrap()
        );
    }
    assert!(!mine.is_allowed(&format!("/robots.txt/{tail}")));
}

#[test]
fn a_fragment_before_the_path_leaves_only_the_root() {
    // `/ab` settles "disallowed" on what follows the `#`; but the URL's
    // path is `/` (the `#` starts its fragment), which no rule matches.
    let body = disallows_then_ten_more("/ab");
    let p = Profile::rfc9309();
    let robots = RobotsTxt::parse(body.as_bytes(), &p);
    let mine = RobotsTxt::parse_for(body.as_bytes(), &p, "FooBot");
    let url = format!("https://ex#ample.com/ab{}", "/a".repeat(200));
    for _ in 0..6 {
        assert!(mine.is_allowed(&url));
    }
    assert_eq!(
        robots.decide_indexed("FooBot", &url).unwrap(),
        robots.decide_linear("FooBot", &url).unwrap()
    );
    let path = format!("https://example.com/ab{}", "/a".repeat(200));
    assert!(!mine.is_allowed(&path));
}
