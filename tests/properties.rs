//! Properties of the oracle over generated robots.txt files, each over
//! thousands of inputs (PROPTEST_CASES overrides the count).

use proptest::prelude::*;
use robots_oracle::{Profile, Reason, RobotsTxt, Verdict};

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 2_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn profile() -> impl Strategy<Value = Profile> {
    prop_oneof![Just(Profile::rfc9309()), Just(Profile::google())]
}

/// Path patterns biased towards what matters: `*`, `$`, `%`, non-ASCII.
fn pattern() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => "[a-c/]{1,3}",
            2 => Just("*".to_string()),
            1 => Just("$".to_string()),
            1 => Just("%61".to_string()),
            1 => Just("%2F".to_string()),
            1 => Just("é".to_string()),
        ],
        0..6,
    )
    .prop_map(|parts| format!("/{}", parts.concat()))
}

fn path() -> impl Strategy<Value = String> {
    "(/[a-c/%é?=$*]{0,12})|(/robots\\.txt)"
}

fn rule() -> impl Strategy<Value = (bool, String)> {
    (any::<bool>(), pattern())
}

fn body(agent: &str, rules: &[(bool, String)]) -> String {
    let mut b = format!("User-agent: {agent}\n");
    for (allow, p) in rules {
        b.push_str(if *allow { "Allow: " } else { "Disallow: " });
        b.push_str(p);
        b.push('\n');
    }
    b
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn parse_and_decide_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..600),
        url in ".{0,40}",
        p in profile(),
    ) {
        let robots = RobotsTxt::parse(&bytes, &p);
        let _ = robots.decide("FooBot", &url);
        let _ = robots.decide("", "/");
    }

    #[test]
    fn rule_order_never_changes_a_verdict(
        rules in prop::collection::vec(rule(), 0..8),
        url in path(),
        p in profile(),
        seed in any::<u64>(),
    ) {
        let mut shuffled = rules.clone();
        // A deterministic permutation from the seed.
        let n = shuffled.len();
        for i in (1..n).rev() {
            let j = (seed.rotate_left(i as u32) as usize) % (i + 1);
            shuffled.swap(i, j);
        }
        let a = RobotsTxt::parse(body("*", &rules).as_bytes(), &p);
        let b = RobotsTxt::parse(body("*", &shuffled).as_bytes(), &p);
        prop_assert_eq!(
            a.decide("FooBot", &url).unwrap().verdict,
            b.decide("FooBot", &url).unwrap().verdict
        );
    }

    #[test]
    fn robots_txt_is_always_allowed_under_rfc9309(
        rules in prop::collection::vec(rule(), 0..8),
    ) {
        let r = RobotsTxt::parse(body("*", &rules).as_bytes(), &Profile::rfc9309());
        let d = r.decide("FooBot", "/robots.txt").unwrap();
        prop_assert_eq!(d.verdict, Verdict::Allowed);
        prop_assert_eq!(d.reason, Reason::RobotsTxtPath);
    }

    #[test]
    fn allow_and_disallow_of_one_pattern_allow(
        pat in pattern(),
        others in prop::collection::vec(rule(), 0..4),
        url in path(),
        p in profile(),
    ) {
        let mut rules = others;
        rules.push((false, pat.clone()));
        rules.push((true, pat.clone()));
        let r = RobotsTxt::parse(body("*", &rules).as_bytes(), &p);
        let d = r.decide("FooBot", &url).unwrap();
        // When the shared pattern is among the best matches, allow wins.
        let shared = d.candidates.iter().filter(|c| c.pattern == pat).map(|c| c.priority).max();
        let best = d.candidates.iter().map(|c| c.priority).max();
        if shared.is_some() && shared == best {
            prop_assert_eq!(d.verdict, Verdict::Allowed);
        }
    }

    #[test]
    fn no_rule_for_the_agent_means_allowed(
        rules in prop::collection::vec(rule(), 0..8),
        url in path(),
        p in profile(),
    ) {
        let r = RobotsTxt::parse(body("OtherBot", &rules).as_bytes(), &p);
        let d = r.decide("FooBot", &url).unwrap();
        prop_assert_eq!(d.verdict, Verdict::Allowed);
        prop_assert!(matches!(d.reason, Reason::NoGroup | Reason::RobotsTxtPath), "{:?}", d.reason);
    }

    #[test]
    fn a_check_is_deterministic(
        bytes in prop::collection::vec(any::<u8>(), 0..300),
        rules in prop::collection::vec(rule(), 0..6),
        url in path(),
        p in profile(),
    ) {
        let mut b = bytes;
        b.extend(body("*", &rules).into_bytes());
        let r1 = RobotsTxt::parse(&b, &p);
        let r2 = RobotsTxt::parse(&b, &p);
        prop_assert_eq!(r1.decide("FooBot", &url), r2.decide("FooBot", &url));
        prop_assert_eq!(r1.decide("FooBot", &url), r1.decide("FooBot", &url));
    }

    #[test]
    fn the_winner_is_a_candidate_on_a_real_line(
        rules in prop::collection::vec(rule(), 0..8),
        url in path(),
        p in profile(),
    ) {
        let text = body("*", &rules);
        let r = RobotsTxt::parse(text.as_bytes(), &p);
        let d = r.decide("FooBot", &url).unwrap();
        if let Some(w) = &d.winner {
            prop_assert!(d.candidates.contains(w));
            prop_assert!((w.line as usize) <= text.lines().count());
        }
    }
}
