//! The differential fuzzer's classifier: names the oracle switch (or
//! pair) that explains a disagreement, with [`robots_oracle::classify`].
//!
//! The one module of the differential fuzzer that calls the oracle
//! directly, because classification re-decides under profiles no
//! adapter is registered for. It never supplies the verdicts a
//! disagreement is judged by: those come from the reference adapters
//! through the `Adapter` trait.

use robots_adapters::Reply;
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
