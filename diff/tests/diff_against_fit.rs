//! `diff` against a fitted reading: a parser judged by the reading it is
//! known to follow yields no finding for that reading, and a further
//! departure is classified against the fit (so it names only what the
//! fit does not already explain).

use robots_adapters::Adapter;
use robots_adapters::reference::Reference;
use robots_diff::Settings;
use robots_diff::classifier::{Fits, Fitted};
use robots_oracle::fetch::FetchProfile;
use robots_oracle::{Precedence, Profile};

fn parser(p: Profile) -> Box<dyn Adapter> {
    Box::new(Reference::new(p))
}

fn settings(fits: Fits) -> Settings {
    Settings {
        seed: 42,
        start: 0,
        max_inputs: Some(300),
        time: None,
        minimise_budget: 200,
        per_key: 2,
        batch: 32,
        fits,
    }
}

fn first_match() -> Profile {
    let mut p = Profile::rfc9309();
    p.precedence = Precedence::FirstMatch;
    p.name = "first-match";
    p
}

fn fit_of(p: Profile) -> Fits {
    let mut fits = Fits::new();
    fits.insert(
        "reference-first-match".into(),
        Fitted::new(p, FetchProfile::rfc9309(), "rfc9309 + …".into()),
    );
    fits
}

fn run(p: Profile, fits: Fits) -> robots_diff::Report {
    let mut adapters = vec![parser(p)];
    let mut inputs = (0..)
        .map(|i| (format!("seed 42 check {i}"), robots_gen::from_seed(42, i)));
    robots_diff::run(
        &mut adapters,
        &mut inputs,
        &settings(fits),
        &mut |_, _| {},
    )
}

#[test]
fn a_parser_judged_by_its_fitted_reading_has_no_finding() {
    let without = run(first_match(), Fits::new());
    assert!(without.adapters["reference-first-match"].disagreements > 0);
    let with = run(first_match(), fit_of(first_match()));
    let t = &with.adapters["reference-first-match"];
    assert_eq!(t.disagreements, 0, "{:?}", t.axes);
    assert!(with.findings.is_empty());
}

#[test]
fn a_further_departure_is_classified_against_the_fit() {
    let mut both = first_match();
    both.wildcards = false;
    let report = run(both, fit_of(first_match()));
    let t = &report.adapters["reference-first-match"];
    assert!(t.disagreements > 0);
    // Precedence is the fit's: no finding names it.
    assert!(
        report.findings.iter().all(|f| !f.explanation.contains("precedence")),
        "{:?}",
        report.findings.iter().map(|f| &f.explanation).collect::<Vec<_>>()
    );
    assert!(
        report.findings.iter().any(|f| f.explanation == "wildcards=false"),
        "{:?}",
        report.findings.iter().map(|f| &f.explanation).collect::<Vec<_>>()
    );
}
