//! Running checks through an adapter and judging the replies against the
//! case's expectation for a profile.
//!
//! It knows the case model, never robots.txt semantics: the answer comes
//! from the adapter, the expectation from the case, and this module only
//! compares them.

use robots_adapters::{Adapter, Reply, Request, Verdict};
use serde::Serialize;

use crate::case::{Case, Check, Expected};
use robots_fixture::{Fixture, FixtureError};

/// How one check went for one adapter.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The answer is the expected one.
    Pass,
    /// The answer is another one.
    Fail,
    /// The expectation is implementation-defined: any answer is fine.
    Unscored,
    /// The parser cannot express the check.
    NotApplicable,
    /// The parser reported an error for the input.
    Error,
    /// The parser panicked or its process died.
    Crash,
    /// The parser did not answer in time.
    Timeout,
    /// The adapter broke the protocol.
    ProtocolError,
}

impl Outcome {
    /// All outcomes, in report order.
    pub const ALL: [Outcome; 8] = [
        Outcome::Pass,
        Outcome::Fail,
        Outcome::Unscored,
        Outcome::NotApplicable,
        Outcome::Error,
        Outcome::Crash,
        Outcome::Timeout,
        Outcome::ProtocolError,
    ];

    /// The kebab-case word.
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Unscored => "unscored",
            Outcome::NotApplicable => "not-applicable",
            Outcome::Error => "error",
            Outcome::Crash => "crash",
            Outcome::Timeout => "timeout",
            Outcome::ProtocolError => "protocol-error",
        }
    }

    /// Counts against the parser (fail, error, crash, timeout, protocol).
    pub fn is_bad(self) -> bool {
        !matches!(
            self,
            Outcome::Pass | Outcome::Unscored | Outcome::NotApplicable
        )
    }

    /// Parses a word back.
    pub fn from_word(w: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.word() == w)
    }
}

/// Whether `adapter` answers fetch requests by fetching over HTTP, so
/// that the fixture server must serve the scenario.
fn fetches_live(caps: &robots_adapters::Capabilities) -> bool {
    caps.fetch && !caps.access_result
}

/// Starts a fixture for `scenario` when some of `requests` are live
/// fetches for an adapter that fetches by itself, and points them at it.
/// Requests the fixture cannot serve get their reply in `refused`.
fn serve_live(
    scenario: Option<&robots_adapters::scenario::Scenario>,
    requests: &mut [Request],
    refused: &mut [Option<Reply>],
) -> Option<Fixture> {
    let scenario = scenario?;
    if !requests.iter().any(|r| matches!(r, Request::Fetch { .. })) {
        return None;
    }
    let fixture = Fixture::start(scenario).map_err(|e| match e {
        FixtureError::Unsupported(why) => why.to_string(),
        other => format!("fixture server: {other}"),
    });
    match fixture {
        Ok(f) => {
            for r in requests.iter_mut() {
                if let Request::Fetch { url, live, .. } = r {
                    *live = Some(f.live(url));
                }
            }
            Some(f)
        }
        Err(why) => {
            for (r, slot) in requests.iter().zip(refused.iter_mut()) {
                if matches!(r, Request::Fetch { .. }) {
                    *slot = Some(Reply::not_applicable(why.clone()));
                }
            }
            None
        }
    }
}

/// Asks `adapter` `requests`, fetch requests about `scenario` among
/// them: an adapter that fetches by itself is asked while a [`Fixture`]
/// serves the scenario on loopback (stopped before this returns), a
/// model answers from the scenario. Requests the adapter cannot express
/// get its `not-applicable` reply. One reply per request, in order.
pub fn ask_with_scenario(
    adapter: &mut dyn Adapter,
    scenario: Option<&robots_adapters::scenario::Scenario>,
    requests: Vec<Request>,
) -> Vec<Reply> {
    let caps = adapter.info().capabilities;
    let mut built = requests;
    let mut replies: Vec<Option<Reply>> = vec![None; built.len()];
    let fixture = if fetches_live(&caps) {
        serve_live(scenario, &mut built, &mut replies)
    } else {
        None
    };
    let mut asked = Vec::new();
    let mut admitted = Vec::new();
    for (i, req) in built.into_iter().enumerate() {
        if replies[i].is_some() {
            continue;
        }
        match caps.admits(&req) {
            Ok(()) => {
                asked.push(i);
                admitted.push(req);
            }
            Err(why) => replies[i] = Some(why.into()),
        }
    }
    let mut answers = adapter.answer_batch(&admitted).into_iter();
    if let Some(f) = fixture {
        f.stop();
    }
    for slot in asked {
        replies[slot] = Some(answers.next().unwrap_or(Reply::ProtocolError {
            message: "the adapter returned fewer answers than requests".into(),
        }));
    }
    // OK: every slot was filled above, refused, not admitted or asked.
    replies
        .into_iter()
        .map(|r| r.expect("every reply slot is filled"))
        .collect()
}

/// Judges `reply` against what `check` expects under `profile`. The
/// string says what was wrong, when something was.
pub fn judge(
    check: &Check,
    profile: &str,
    reply: &Reply,
) -> (Outcome, String) {
    let expected = check.expected(profile);
    match reply {
        Reply::NotApplicable { why } => {
            return (Outcome::NotApplicable, why.clone());
        }
        Reply::Error { message } => return (Outcome::Error, message.clone()),
        Reply::Crashed { message } => {
            return (Outcome::Crash, message.clone());
        }
        Reply::TimedOut => {
            return (Outcome::Timeout, "no answer in time".into());
        }
        Reply::ProtocolError { message } => {
            return (Outcome::ProtocolError, message.clone());
        }
        Reply::Verdict { .. } | Reply::Value { .. } => {}
    }
    let want_verdict = match expected {
        Expected::ImplementationDefined => {
            return (Outcome::Unscored, String::new());
        }
        Expected::Allowed => Verdict::Allowed,
        Expected::Disallowed => Verdict::Disallowed,
        Expected::Value(want) => {
            return match reply {
                Reply::Value { value } if check.value_matches(want, value) => {
                    (Outcome::Pass, String::new())
                }
                Reply::Value { value } => {
                    (Outcome::Fail, format!("want {want}, got {value}"))
                }
                other => (
                    Outcome::ProtocolError,
                    format!("want a value, got {}", other.word()),
                ),
            };
        }
    };
    let Reply::Verdict { verdict, explanation } = reply else {
        return (Outcome::ProtocolError, "want a verdict, got a value".into());
    };
    if *verdict != want_verdict {
        return (
            Outcome::Fail,
            format!(
                "want {}, got {}",
                want_verdict.as_str(),
                verdict.as_str()
            ),
        );
    }
    if let Some(ex) = explanation {
        if let Some(line) = check.rule_line
            && ex.rule_line != Some(line)
        {
            let got =
                ex.rule_line.map_or("none".to_string(), |l| l.to_string());
            return (
                Outcome::Fail,
                format!("want winning rule at line {line}, got {got}"),
            );
        }
        if let Some(reason) = &check.reason
            && &ex.reason != reason
        {
            return (
                Outcome::Fail,
                format!("want reason {reason}, got {}", ex.reason),
            );
        }
        if let Some(p) =
            check.phrases_for(profile).find(|p| !p.holds_in(&ex.text))
        {
            let says = if p.present { "say" } else { "not say" };
            return (
                Outcome::Fail,
                format!(
                    "want the explanation to {says} `{}`; it reads:\n{}",
                    p.text, ex.text
                ),
            );
        }
    }
    (Outcome::Pass, String::new())
}

/// One check's result for one adapter.
#[derive(Clone, Debug, Serialize)]
pub struct CheckResult {
    /// The check's full name.
    pub check: String,
    /// The outcome.
    pub outcome: Outcome,
    /// What the adapter answered.
    pub reply: Reply,
    /// What was wrong, if anything.
    pub detail: String,
}

/// Asks `adapter` every check of `cases` (one batch per case), judging
/// against `profile`. Checks the adapter cannot express are not asked.
///
/// For an adapter that fetches robots.txt by itself (capability `fetch`),
/// the fetch checks of a case are asked while a [`Fixture`] serves the
/// case's scenario on loopback; the fixture is stopped before the next
/// case. Nothing is left running when this returns.
pub fn run_cases<'a>(
    adapter: &mut dyn Adapter,
    profile: &str,
    cases: impl IntoIterator<Item = (&'a Case, Vec<&'a Check>)>,
) -> Vec<CheckResult> {
    let mut results = Vec::new();
    for (case, checks) in cases {
        let requests =
            checks.iter().map(|check| check.request.clone()).collect();
        let replies =
            ask_with_scenario(adapter, case.fetch.as_deref(), requests);
        for (check, reply) in checks.iter().zip(replies) {
            let (outcome, detail) = judge(check, profile, &reply);
            results.push(CheckResult {
                check: check.name.clone(),
                outcome,
                reply,
                detail,
            });
        }
    }
    results
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use robots_adapters::Explanation;

    use super::*;
    use crate::case::Phrase;

    fn check(phrases: Vec<Phrase>) -> Check {
        let expect = [
            ("rfc9309", Expected::Allowed),
            ("google", Expected::ImplementationDefined),
        ]
        .into_iter()
        .map(|(p, e)| (p.to_string(), e))
        .collect::<BTreeMap<_, _>>();
        let request = Request::Decide {
            robots: Arc::from(&b""[..]),
            agent: "A".into(),
            url: "/".into(),
        };
        Check {
            explains: phrases,
            ..Check::new("c::1".into(), request, expect, Some("w".into()))
        }
    }

    fn said(text: &str) -> Reply {
        Reply::Verdict {
            verdict: Verdict::Allowed,
            explanation: Some(Box::new(Explanation {
                reason: "no-group".into(),
                rule_line: None,
                text: text.into(),
                json: serde_json::Value::Null,
            })),
        }
    }

    fn phrase(profile: Option<&str>, text: &str, present: bool) -> Phrase {
        let profile = profile.map(str::to_string);
        Phrase { profile, text: text.into(), present }
    }

    #[test]
    fn an_explanation_is_held_to_its_phrases_where_the_verdict_is_definite() {
        let c = check(vec![
            phrase(None, "policy: parse-body", true),
            phrase(Some("rfc9309"), "body cut", false),
        ]);
        let ok = said("  policy: parse-body (R2.3.1.1-1)\n");
        assert_eq!(judge(&c, "rfc9309", &ok).0, Outcome::Pass);
        let missing = said("  policy: use-cache (R2.4-1)\n");
        let (outcome, detail) = judge(&c, "rfc9309", &missing);
        assert_eq!(outcome, Outcome::Fail);
        assert!(detail.contains("to say `policy: parse-body`"), "{detail}");
        let cut = said("  policy: parse-body\n  body cut from 9 to 5 bytes\n");
        let (outcome, detail) = judge(&c, "rfc9309", &cut);
        assert_eq!(outcome, Outcome::Fail);
        assert!(detail.contains("to not say `body cut`"), "{detail}");
        // Under an implementation-defined expectation nothing is scored.
        assert_eq!(judge(&c, "google", &missing).0, Outcome::Unscored);
        // A parser that does not explain is not held to the words.
        let bare =
            Reply::Verdict { verdict: Verdict::Allowed, explanation: None };
        assert_eq!(judge(&c, "rfc9309", &bare).0, Outcome::Pass);
    }
}
