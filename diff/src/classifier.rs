//! The differential fuzzer's classifier: names the oracle switch (or
//! pair) that explains a disagreement, with [`robots_oracle::classify`].
//!
//! The one module of the differential fuzzer that calls the oracle
//! directly, because classification re-decides under profiles no
//! adapter is registered for. It never supplies the verdicts a
//! disagreement is judged by: those come from the reference adapters
//! through the `Adapter` trait.

use std::collections::BTreeMap;

use robots_adapters::reference::Reference;
use robots_adapters::{Adapter, Reply};
use robots_oracle::fetch::FetchProfile;
use robots_oracle::{Classification, Profile, classify};

use super::minimise::Subject;

/// Why an adapter's answer differs: a classification by switches, or a
/// failure word (`crashed`, `timeout`, `error`, ...).
pub enum Why {
    /// A verdict, classified against the oracle.
    Oracle(Classification),
    /// No verdict.
    Failure(String),
}

impl Why {
    /// The switch names or the failure word.
    pub fn name(&self) -> String {
        match self {
            Why::Oracle(e) => e.name(),
            Why::Failure(w) => w.clone(),
        }
    }

    /// The axis or the failure word.
    pub fn axis(&self) -> String {
        match self {
            Why::Oracle(e) => e.axis(),
            Why::Failure(w) => w.clone(),
        }
    }

    /// The clauses the switches concern.
    pub fn clauses(&self) -> Vec<String> {
        match self {
            Why::Oracle(e) => {
                e.clauses().into_iter().map(String::from).collect()
            }
            Why::Failure(_) => vec![],
        }
    }
}

/// Classifies `reply` to `s` against the oracle under the built-in
/// profile an adapter claims (`profile`, a name from its `Info`); a
/// profile the oracle does not know is compared as `rfc9309`, the
/// default reading.
pub fn why(s: &Subject, profile: &str, reply: &Reply) -> Why {
    match reply {
        Reply::Verdict { verdict, .. } => {
            let base =
                Profile::by_name(profile).unwrap_or_else(Profile::rfc9309);
            Why::Oracle(classify(&s.robots, &s.agent, &s.url, &base, *verdict))
        }
        other => Why::Failure(other.word().to_string()),
    }
}

/// A parser's fitted reading (from `robots-fingerprint`): what its
/// answers are judged and classified against instead of its claimed
/// profile, so that a disagreement restating a reading the parser is
/// known to follow is no finding.
#[derive(Clone, Debug)]
pub struct Fitted {
    profile: Profile,
    fetch: FetchProfile,
    /// The fit in words (`google + precedence=first-match`), for reports.
    pub label: String,
}

impl Fitted {
    /// The reading `profile` + `fetch`, described as `label`.
    pub fn new(
        profile: Profile,
        fetch: FetchProfile,
        label: String,
    ) -> Fitted {
        Fitted { profile, fetch, label }
    }

    /// The reference adapter under this reading: the verdicts the parser
    /// is judged by come from it, through the `Adapter` trait.
    pub fn reference(&self) -> Box<dyn Adapter> {
        Box::new(
            Reference::with_fetch_profile(
                self.profile.clone(),
                self.fetch.clone(),
            )
            .verdicts_only(),
        )
    }

    /// Classifies `reply` to `s` against this reading.
    pub fn why(&self, s: &Subject, reply: &Reply) -> Why {
        match reply {
            Reply::Verdict { verdict, .. } => Why::Oracle(classify(
                &s.robots,
                &s.agent,
                &s.url,
                &self.profile,
                *verdict,
            )),
            other => Why::Failure(other.word().to_string()),
        }
    }
}

/// Fitted readings by adapter name (empty: every adapter is judged by
/// its claimed profile).
pub type Fits = BTreeMap<String, Fitted>;
