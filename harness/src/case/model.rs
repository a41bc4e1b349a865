//! The case model: a [`Case`] (a body, or a fetch scenario, and the
//! checks on it), each [`Check`] holding the adapter [`Request`] it asks
//! and what it [`Expected`] under each profile.
//!
//! Plain data. It never reads files or TOML (that is [`super::load`] and
//! [`super::schema`]) and never judges an answer (that is the runner).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use robots_adapters::Request;

use super::fetch::Scenario;

/// The profiles every expectation is stated for.
pub const PROFILES: [&str; 3] = ["rfc9309", "google", "aipref"];

/// Where a case comes from.
pub const SOURCES: [&str; 6] = [
    "rfc9309",
    "google-doc",
    "google-parser",
    "regression",
    "fuzz-finding",
    "aipref-draft",
];

/// The reasons an explanation may give.
pub const REASONS: [&str; 5] = [
    "no-group",
    "no-matching-rule",
    "robots-txt-path",
    "longest-match",
    "tie-goes-to-allow",
];

/// What a check expects under one profile.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// The URL is allowed.
    Allowed,
    /// The URL is disallowed.
    Disallowed,
    /// The RFC says MAY or is silent: any answer is acceptable.
    ImplementationDefined,
    /// A value (sitemap list, crawl-delay, token validity, URL, policy).
    Value(serde_json::Value),
}

impl Expected {
    /// `allowed`, `disallowed`, `implementation-defined` or the value.
    pub fn describe(&self) -> String {
        match self {
            Expected::Allowed => "allowed".into(),
            Expected::Disallowed => "disallowed".into(),
            Expected::ImplementationDefined => "implementation-defined".into(),
            Expected::Value(v) => v.to_string(),
        }
    }
}

/// One check of a case: the request it asks and its expectation per
/// profile.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// The full name, `<folder>::<stem>::<case id>::<suffix>`.
    pub name: String,
    /// What is asked, exactly as an adapter is asked it (the body or the
    /// fetch scenario shared with the case).
    pub request: Request,
    /// The expectation under each profile in [`PROFILES`].
    pub expect: BTreeMap<String, Expected>,
    /// Why the outcome is implementation-defined, if it is anywhere.
    pub why: Option<String>,
    /// The expected line of the winning rule in the explanation.
    pub rule_line: Option<u32>,
    /// The expected reason in the explanation.
    pub reason: Option<String>,
    /// What the explanation must say, or must not, in words.
    pub explains: Vec<Phrase>,
    /// What the oracle answers under named readings, each a switch of
    /// the oracle's switch space applied to `rfc9309` (`name`) or to
    /// another profile (`google+name`): the readings `fingerprint` and
    /// `bugs` name parsers by, held to what the switch says it does. No
    /// parser is scored against them (a reading is not a profile); the
    /// `spec` target asks the oracle.
    pub readings: BTreeMap<String, Expected>,
}

/// A phrase a check's explanation must contain, or must not.
///
/// Explanations are prose for people (`check --explain`, the reports);
/// a phrase pins the part of it a case is about: the clause a fetch
/// decision cites, a duration, the lines of the groups obeyed, a note on
/// the file. Only an adapter that explains its answers is held to them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phrase {
    /// The profile it applies under; `None`: every profile.
    pub profile: Option<String>,
    /// The words, matched as a substring.
    pub text: String,
    /// Whether the explanation must contain it (`explains`) or must not
    /// (`explains_not`).
    pub present: bool,
}

impl Phrase {
    /// Whether `explanation` says what this phrase asks.
    pub fn holds_in(&self, explanation: &str) -> bool {
        explanation.contains(&self.text) == self.present
    }
}

impl Check {
    /// A check of `request` expecting `expect` (the reason `why`, where it
    /// is open), with nothing more to say of the explanation and no
    /// readings: every check but a decide check's starts so.
    pub fn new(
        name: String,
        request: Request,
        expect: BTreeMap<String, Expected>,
        why: Option<String>,
    ) -> Check {
        Check {
            name,
            request,
            expect,
            why,
            rule_line: None,
            reason: None,
            explains: Vec::new(),
            readings: BTreeMap::new(),
        }
    }

    /// Whether the value `got` answers this check's expected value `want`.
    /// Values are equal JSON, except crawl-delay values, which the protocol
    /// defines as decimal numbers written as strings: `"1.50"`, `"1.5"` and
    /// `"01.5"` are one value (PROTOCOL.md, "Other operations").
    pub fn value_matches(
        &self,
        want: &serde_json::Value,
        got: &serde_json::Value,
    ) -> bool {
        if want == got {
            return true;
        }
        match (&self.request, want.as_str(), got.as_str()) {
            (Request::CrawlDelay { .. }, Some(w), Some(g)) => {
                match (canonical_decimal(w), canonical_decimal(g)) {
                    (Some(w), Some(g)) => w == g,
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// The phrases its explanation is held to under `profile`.
    pub fn phrases_for<'a>(
        &'a self,
        profile: &'a str,
    ) -> impl Iterator<Item = &'a Phrase> + 'a {
        self.explains
            .iter()
            .filter(move |p| p.profile.as_deref().is_none_or(|q| q == profile))
    }

    /// The expectation under `profile` (implementation-defined if the
    /// profile is not one of [`PROFILES`]).
    pub fn expected(&self, profile: &str) -> &Expected {
        self.expect.get(profile).unwrap_or(&Expected::ImplementationDefined)
    }
}

/// One case: a body and the checks on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The file it is in.
    pub file: PathBuf,
    /// The line its `[[case]]` starts at.
    pub line: usize,
    /// `<folder>::<stem>::<id>`.
    pub name: String,
    /// The id, unique in the file.
    pub id: String,
    /// The clause ids it tests.
    pub clauses: Vec<String>,
    /// Where it comes from.
    pub source: String,
    /// Its categories.
    pub categories: Vec<String>,
    /// A note (often the RFC sentence).
    pub note: Option<String>,
    /// The robots.txt body.
    pub robots: Arc<[u8]>,
    /// The fetch scenario, for fetch cases (`[case.fetch]`).
    pub fetch: Option<Arc<Scenario>>,
    /// The checks.
    pub checks: Vec<Check>,
    /// Why the case is parked, if it is.
    pub ignore: Option<String>,
}

/// `digits[.digits]` with leading zeros of the integer part and trailing
/// zeros of the fraction dropped (`"030"` → `"30"`, `"1.50"` → `"1.5"`,
/// `"0.0"` → `"0"`); `None` for anything else (signs, exponents, spaces).
fn canonical_decimal(s: &str) -> Option<String> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() && frac.is_empty() || !digits(int) || !digits(frac) {
        return None;
    }
    if s.ends_with('.') || s.starts_with('.') {
        return None;
    }
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    Some(if frac.is_empty() {
        int.to_string()
    } else {
        format!("{int}.{frac}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(request: Request) -> Check {
        Check::new("x".into(), request, BTreeMap::new(), None)
    }

    #[test]
    fn crawl_delay_values_compare_as_decimal_numbers() {
        let c = check(Request::CrawlDelay {
            robots: Arc::from(&b""[..]),
            agent: "a".into(),
        });
        let yes = [("1.50", "1.5"), ("030", "30"), ("0", "0.0"), ("10", "10")];
        for (w, g) in yes {
            assert!(c.value_matches(&w.into(), &g.into()), "{w} = {g}");
        }
        let no = [
            ("1.5", "15"),
            ("1", "-1"),
            ("1", "1e0"),
            ("1", " 1"),
            ("5", ".5"),
            ("5", "5."),
        ];
        for (w, g) in no {
            assert!(!c.value_matches(&w.into(), &g.into()), "{w} != {g}");
        }
        assert!(!c.value_matches(&"5".into(), &serde_json::Value::Null));
    }

    #[test]
    fn other_values_compare_as_json() {
        let c = check(Request::ValidToken { token: "a".into() });
        assert!(c.value_matches(&"1.50".into(), &"1.50".into()));
        assert!(!c.value_matches(&"1.50".into(), &"1.5".into()));
    }
}
