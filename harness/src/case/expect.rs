//! Expectations from their TOML: one word for every profile, or a table
//! with exactly one word per profile in [`PROFILES`], each word from a
//! [`Vocabulary`] (verdicts for checks, access policies for `policy`).
//!
//! It reads words; it never decides which word is right for a case (the
//! case's author and the oracle do).

use std::collections::BTreeMap;

use super::fetch::Policy;
use super::model::{Expected, PROFILES};
use super::schema::ExpectToml;

/// The words an expectation may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vocabulary {
    /// `allowed`, `disallowed`, `implementation-defined`.
    Verdict,
    /// An access policy (`parse-body`, …) or `implementation-defined`.
    Policy,
}

impl Vocabulary {
    fn noun(self) -> &'static str {
        match self {
            Vocabulary::Verdict => "expect",
            Vocabulary::Policy => "policy",
        }
    }

    fn words(self) -> &'static str {
        match self {
            Vocabulary::Verdict => {
                "allowed, disallowed or implementation-defined"
            }
            Vocabulary::Policy => {
                "parse-body, allow-all, disallow-all, use-cache or implementation-defined"
            }
        }
    }

    /// The expectation a word means, if it is one of this vocabulary.
    fn read(self, word: &str) -> Option<Expected> {
        if word == "implementation-defined" {
            return Some(Expected::ImplementationDefined);
        }
        match self {
            Vocabulary::Verdict => match word {
                "allowed" => Some(Expected::Allowed),
                "disallowed" => Some(Expected::Disallowed),
                _ => None,
            },
            Vocabulary::Policy => Policy::from_name(word)
                .map(|p| Expected::Value(p.as_str().into())),
        }
    }
}

/// Why an expectation cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExpectError {
    /// A word outside the vocabulary.
    #[error("{} `{word}`: use {}", .vocabulary.noun(), .vocabulary.words())]
    UnknownWord {
        /// The word as written.
        word: String,
        /// The vocabulary it should be from.
        vocabulary: Vocabulary,
    },
    /// A per-profile table whose keys are not exactly [`PROFILES`].
    #[error(
        "a per-profile {} needs exactly the keys {}; got {}",
        .vocabulary.noun(),
        PROFILES.join(", "),
        .got.join(", ")
    )]
    ProfileKeys {
        /// The keys given.
        got: Vec<String>,
        /// The vocabulary of the expectation.
        vocabulary: Vocabulary,
    },
}

/// The expectation under each profile in [`PROFILES`].
pub(super) fn expectation(
    e: &ExpectToml,
    vocabulary: Vocabulary,
) -> Result<BTreeMap<String, Expected>, ExpectError> {
    let read = |word: &str| {
        vocabulary.read(word).ok_or_else(|| ExpectError::UnknownWord {
            word: word.to_string(),
            vocabulary,
        })
    };
    match e {
        ExpectToml::Same(word) => Ok(same_for_all(read(word)?)),
        ExpectToml::PerProfile(map) => {
            let mut want: Vec<&str> = PROFILES.to_vec();
            want.sort_unstable();
            // A BTreeMap's keys come sorted.
            if !map.keys().map(String::as_str).eq(want) {
                return Err(ExpectError::ProfileKeys {
                    got: map.keys().cloned().collect(),
                    vocabulary,
                });
            }
            map.iter().map(|(k, v)| Ok((k.clone(), read(v)?))).collect()
        }
    }
}

/// The same expectation under every profile.
pub(super) fn same_for_all(e: Expected) -> BTreeMap<String, Expected> {
    PROFILES.iter().map(|p| (p.to_string(), e.clone())).collect()
}

/// Whether any profile leaves the outcome open.
pub(super) fn is_open(expect: &BTreeMap<String, Expected>) -> bool {
    expect.values().any(|e| *e == Expected::ImplementationDefined)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_parser_reads_both_vocabularies() {
        let same = ExpectToml::Same("use-cache".into());
        let got = expectation(&same, Vocabulary::Policy).unwrap();
        assert_eq!(got["google"], Expected::Value("use-cache".into()));
        let err = expectation(&same, Vocabulary::Verdict).unwrap_err();
        assert_eq!(
            err.to_string(),
            "expect `use-cache`: use allowed, disallowed or implementation-defined"
        );
        let partial = ExpectToml::PerProfile(
            [("google".to_string(), "allowed".to_string())].into(),
        );
        let err = expectation(&partial, Vocabulary::Policy).unwrap_err();
        assert_eq!(
            err.to_string(),
            "a per-profile policy needs exactly the keys rfc9309, google; got google"
        );
    }
}
