//! The fit on synthetic parsers: the oracle itself with a few switches
//! flipped, claiming a built-in profile, must come back as exactly those
//! switches, with nothing left over.

use std::path::Path;

use robots_adapters::reference::Reference;
use robots_fingerprint::answers::Selection;
use robots_fingerprint::{Answers, fingerprint};
use robots_oracle::fetch::{FetchProfile, fetch_switches};
use robots_oracle::{Profile, switches};
use robots_runner::matrix::selection;
use robots_runner::suite::{Filter, Suite};

/// The checks of the folders named: the fit re-asks the oracle a few
/// hundred times, so the tests keep to the folders the switches concern.
fn folders<'a>(suite: &'a Suite, names: &[&str]) -> Selection<'a> {
    let filter = Filter {
        include: names.iter().map(|n| format!("{n}::")).collect(),
        ..Filter::default()
    };
    let sel = selection(suite, &filter);
    assert!(!sel.is_empty(), "no checks in {names:?}");
    sel
}

fn suite() -> Suite {
    let s = Suite::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases"),
    );
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    s
}

fn rule_switch(name: &str) -> &'static robots_oracle::Switch {
    switches().iter().find(|s| s.name == name).expect(name)
}

fn fetch_switch(name: &str) -> &'static robots_oracle::fetch::FetchSwitch {
    fetch_switches().iter().find(|s| s.name == name).expect(name)
}

#[test]
fn the_oracle_with_two_rule_switches_flipped_is_found_as_those_two() {
    let suite = suite();
    let sel = folders(&suite, &["precedence", "encoding"]);
    let mut profile = Profile::rfc9309();
    (rule_switch("precedence=first-match").apply)(&mut profile);
    (rule_switch("decode_unreserved=false").apply)(&mut profile);
    // Still named rfc9309: the parser claims the RFC.
    let mut parser =
        Reference::with_fetch_profile(profile, FetchProfile::rfc9309());
    let answers = Answers::collect(&mut parser, &sel);
    let fit = fingerprint(&answers, &sel);
    assert_eq!(fit.base, "rfc9309");
    assert_eq!(
        fit.changes,
        vec!["precedence=first-match", "decode_unreserved=false"]
    );
    assert_eq!(fit.agree, fit.scored);
    assert!(fit.residual.is_empty(), "{:?}", fit.residual);
    assert!(fit.claimed_agree < fit.scored, "the flips must show");
    assert!(
        fit.line().starts_with(
            "reference ≈ rfc9309 + precedence=first-match + \
             decode_unreserved=false: agrees 100% of scored checks \
             (claimed profile "
        ),
        "{}",
        fit.line()
    );
}

#[test]
fn a_rule_switch_and_a_fetch_switch_flipped_from_google_are_found() {
    let suite = suite();
    let sel = folders(&suite, &["ua-matching", "fetch"]);
    let mut profile = Profile::google();
    (rule_switch("agent_match=prefix").apply)(&mut profile);
    let mut fetch = FetchProfile::google();
    (fetch_switch("status_429_unreachable=false").apply)(&mut fetch);
    let mut parser = Reference::with_fetch_profile(profile, fetch);
    let answers = Answers::collect(&mut parser, &sel);
    let fit = fingerprint(&answers, &sel);
    assert_eq!(fit.claimed, "google");
    assert_eq!(fit.base, "google");
    assert_eq!(
        fit.changes,
        vec!["agent_match=prefix", "status_429_unreachable=false"]
    );
    assert_eq!(fit.agree, fit.scored);
    assert!(fit.residual.is_empty(), "{:?}", fit.residual);
}

#[test]
fn the_unchanged_oracle_needs_no_switch() {
    let suite = suite();
    let sel = folders(&suite, &["grouping", "syntax"]);
    let mut parser = Reference::new(Profile::rfc9309());
    let answers = Answers::collect(&mut parser, &sel);
    let fit = fingerprint(&answers, &sel);
    assert_eq!((fit.base.as_str(), fit.changes.len()), ("rfc9309", 0));
    assert_eq!(fit.agree, fit.scored);
    assert_eq!(fit.claimed_agree, fit.scored);
    assert!(fit.scored > 100, "the suite is scored: {}", fit.scored);
}

#[test]
fn the_grouping_readings_outside_both_profiles_are_found() {
    let suite = suite();
    let sel = folders(&suite, &["grouping", "ua-matching"]);
    let mut profile = Profile::rfc9309();
    (rule_switch("groups_obeyed=first").apply)(&mut profile);
    (rule_switch("preamble_rules=star-group").apply)(&mut profile);
    let mut parser =
        Reference::with_fetch_profile(profile, FetchProfile::rfc9309());
    let answers = Answers::collect(&mut parser, &sel);
    let fit = fingerprint(&answers, &sel);
    assert_eq!(fit.base, "rfc9309");
    assert_eq!(
        fit.changes,
        vec!["groups_obeyed=first", "preamble_rules=star-group"]
    );
    assert_eq!(fit.agree, fit.scored);
    assert!(fit.claimed_agree < fit.scored, "the flips must show");
}
