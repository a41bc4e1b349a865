//! A usage entry's `explains` and `explains_not` phrases, held to the
//! oracle's usage explanation (the text `check --usage --explain` prints:
//! the preferences, the clause they follow from, each matching
//! Content-Usage rule and whether it decides) under every profile whose
//! expectation is definite. A usage reply carries the answer, not this
//! text, so the runner cannot hold a parser to it: only the oracle is
//! asked, here.

use robots_adapters::Request;
use robots_oracle::{Profile, RobotsTxt};
use robots_runner::case::{Check, Expected, PROFILES};

/// What departs from a usage check's phrases, one line each.
pub fn usage_explains_differ(check: &Check) -> Vec<String> {
    let Request::Usage { robots, agent, url } = &check.request else {
        return vec![];
    };
    let mut out = Vec::new();
    for profile in PROFILES {
        if matches!(check.expected(profile), Expected::ImplementationDefined) {
            continue;
        }
        let Some(p) = Profile::by_name(profile) else { continue };
        let text = match RobotsTxt::parse(robots, &p).usage(agent, url) {
            Ok(decision) => decision.to_string(),
            Err(e) => format!("refused: {e}"),
        };
        for phrase in check.phrases_for(profile) {
            if !phrase.holds_in(&text) {
                let says = if phrase.present { "say" } else { "not say" };
                out.push(format!(
                    "usage explanation ({profile}): want it to {says} `{}`; \
                     it reads:\n{text}",
                    phrase.text
                ));
            }
        }
    }
    out
}
