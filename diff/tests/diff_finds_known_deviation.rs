//! The differential fuzzer finds a parser with a known deviation,
//! minimises the input to a few lines and classifies it on the right
//! axis. The "parser" is the oracle with first-match precedence (the
//! 1996 draft's rule, as Python's urllib.robotparser has it).

use robots_adapters::Adapter;
use robots_adapters::reference::Reference;
use robots_diff::Settings;
use robots_oracle::{Precedence, Profile};

fn first_match_parser() -> Box<dyn Adapter> {
    let mut p = Profile::rfc9309();
    p.precedence = Precedence::FirstMatch;
    p.name = "first-match";
    Box::new(Reference::new(p))
}

#[test]
fn a_first_match_parser_is_found_minimised_and_classified_as_precedence() {
    let mut adapters = vec![first_match_parser()];
    let settings = Settings {
        seed: 42,
        start: 0,
        max_inputs: Some(400),
        time: None,
        minimise_budget: 400,
        per_key: 3,
        batch: 32,
        fits: Default::default(),
    };
    let mut inputs = (0..)
        .map(|i| (format!("seed 42 check {i}"), robots_gen::from_seed(42, i)));
    let report = robots_diff::run(
        &mut adapters,
        &mut inputs,
        &settings,
        &mut |_, _| {},
    );
    assert!(report.checks > 1000, "{}", report.checks);
    let totals = &report.adapters["reference-first-match"];
    assert!(totals.disagreements > 0);
    // Every disagreement is explained by precedence and nothing else.
    assert_eq!(
        totals.axes.keys().collect::<Vec<_>>(),
        ["precedence"],
        "{:?}",
        totals.axes
    );
    let f = report
        .findings
        .iter()
        .find(|f| f.explanation == "precedence=first-match")
        .expect("a first-match finding");
    let lines = String::from_utf8_lossy(&f.robots)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count();
    assert!(
        lines <= 4,
        "not minimised: {:?}",
        String::from_utf8_lossy(&f.robots)
    );
    assert!(f.clauses.contains(&"R2.2.2-5".to_string()), "{:?}", f.clauses);
    // And it is a ready-to-promote case in the spec-cases format.
    let toml = robots_diff::finding::to_toml(f);
    assert!(toml.contains("source = \"fuzz-finding\""), "{toml}");
}

/// The report says where the time went: every part is counted once, so
/// the parsers' share and the loop's own add up to the wall time, and
/// each part that ran was timed.
#[test]
fn the_time_is_split_between_the_parsers_and_the_loop() {
    let mut adapters = vec![first_match_parser()];
    let settings = Settings {
        seed: 42,
        start: 0,
        max_inputs: Some(100),
        time: None,
        minimise_budget: 100,
        per_key: 1,
        batch: 32,
        fits: Default::default(),
    };
    let mut inputs = (0..)
        .map(|i| (format!("seed 42 check {i}"), robots_gen::from_seed(42, i)));
    let r = robots_diff::run(
        &mut adapters,
        &mut inputs,
        &settings,
        &mut |_, _| {},
    );
    let t = &r.timing;
    assert!(!r.findings.is_empty(), "nothing was minimised");
    let parts = [
        t.parsers,
        t.minimise_parsers,
        t.share_parsers,
        t.generate,
        t.oracle,
        t.classify,
        t.minimise,
        t.other,
    ];
    assert!(parts.iter().all(|&p| p >= 0.0), "{t:?}");
    let sum = t.parsers_total() + t.loop_total();
    assert!((sum - r.seconds).abs() <= 1e-6 * r.seconds.max(1.0), "{t:?}");
    for (name, part) in [
        ("parsers", t.parsers),
        ("minimise_parsers", t.minimise_parsers),
        ("oracle", t.oracle),
        ("classify", t.classify),
        ("minimise", t.minimise),
    ] {
        assert!(part > 0.0, "{name} was not timed: {t:?}");
    }
    let a = &r.adapters["reference-first-match"];
    assert!(a.seconds > 0.0 && a.minimise_seconds > 0.0, "{a:?}");
    assert!(r.rate() > 0.0 && r.loop_rate() > 0.0);
}
