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
