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
    /// AI usage preferences: `disallowed` (not crawlable, so none),
    /// `train-ai=y|n|unknown, search=y|n|unknown`, or
    /// `implementation-defined`.
    Usage,
    /// Content-Signal values: `none`, or `key=value` pairs (`search`,
    /// `ai-input`, `ai-train`: yes/no; `use`: immediate/reference/full)
    /// in that order, or `implementation-defined`.
    Signal,
}

impl Vocabulary {
    fn noun(self) -> &'static str {
        match self {
            Vocabulary::Verdict => "expect",
            Vocabulary::Policy => "policy",
            Vocabulary::Usage => "usage expect",
            Vocabulary::Signal => "content_signal expect",
        }
    }

    pub(super) fn words(self) -> &'static str {
        match self {
            Vocabulary::Verdict => {
                "allowed, disallowed or implementation-defined"
            }
            Vocabulary::Policy => {
                "parse-body, allow-all, disallow-all, use-cache or implementation-defined"
            }
            Vocabulary::Usage => {
                "disallowed, `train-ai=y|n|unknown, search=y|n|unknown` or \
                 implementation-defined"
            }
            Vocabulary::Signal => {
                "none, `search=yes|no, ai-input=yes|no, ai-train=yes|no, \
                 use=immediate|reference|full` (any of them, in that order) or \
                 implementation-defined"
            }
        }
    }

    /// The expectation a word means, if it is one of this vocabulary.
    pub(super) fn read(self, word: &str) -> Option<Expected> {
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
            Vocabulary::Usage => usage_value(word).map(Expected::Value),
            Vocabulary::Signal => signal_value(word).map(Expected::Value),
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
    /// A per-profile table whose keys are not exactly [`PROFILES`]
    /// (`aipref` may be left out: it then expects what `rfc9309` does).
    #[error(
        "a per-profile {} needs exactly the keys {} (aipref optional); got {}",
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
            let mut without_aipref = want.clone();
            without_aipref.retain(|p| *p != "aipref");
            // A BTreeMap's keys come sorted.
            let keys = || map.keys().map(String::as_str);
            if !keys().eq(want) && !keys().eq(without_aipref) {
                return Err(ExpectError::ProfileKeys {
                    got: map.keys().cloned().collect(),
                    vocabulary,
                });
            }
            let mut out: BTreeMap<String, Expected> = map
                .iter()
                .map(|(k, v)| Ok((k.clone(), read(v)?)))
                .collect::<Result<_, ExpectError>>()?;
            // `aipref` is `rfc9309` plus the AI preference drafts: where a
            // table leaves it out, it expects what `rfc9309` does.
            if let Some(rfc) = out.get("rfc9309").cloned() {
                out.entry("aipref".into()).or_insert(rfc);
            }
            Ok(out)
        }
    }
}

/// The `usage` answer a usage word means (adapters/PROTOCOL.md):
/// `disallowed` → `{"crawlable": false, "usage": null}`;
/// `train-ai=n, search=unknown` → `{"crawlable": true, "usage":
/// {"train-ai": "n", "search": "unknown"}}` (both categories, in that
/// order, each `y`, `n` or `unknown`).
fn usage_value(word: &str) -> Option<serde_json::Value> {
    if word == "disallowed" {
        return Some(serde_json::json!({"crawlable": false, "usage": null}));
    }
    let mut usage = serde_json::Map::new();
    let labels = ["train-ai", "search"];
    let pairs: Vec<&str> = word.split(',').map(str::trim).collect();
    if pairs.len() != labels.len() {
        return None;
    }
    for (pair, label) in pairs.iter().zip(labels) {
        let (k, v) = pair.split_once('=')?;
        if k != label || !matches!(v, "y" | "n" | "unknown") {
            return None;
        }
        usage.insert(k.to_string(), v.into());
    }
    Some(serde_json::json!({"crawlable": true, "usage": usage}))
}

/// The `content-signal` answer a word means (adapters/PROTOCOL.md):
/// `none` → every key null; `search=yes, ai-train=no` → those set, the
/// others null. Keys in the order search, ai-input, ai-train, use, each
/// at most once.
fn signal_value(word: &str) -> Option<serde_json::Value> {
    const KEYS: [(&str, &[&str]); 4] = [
        ("search", &["yes", "no"]),
        ("ai-input", &["yes", "no"]),
        ("ai-train", &["yes", "no"]),
        ("use", &["immediate", "reference", "full"]),
    ];
    let mut out = serde_json::Map::new();
    for (k, _) in KEYS {
        out.insert(k.to_string(), serde_json::Value::Null);
    }
    if word == "none" {
        return Some(serde_json::Value::Object(out));
    }
    let mut next = 0;
    for pair in word.split(',').map(str::trim) {
        let (k, v) = pair.split_once('=')?;
        let at = KEYS.iter().position(|(key, _)| *key == k)?;
        if at < next || !KEYS[at].1.contains(&v) {
            return None;
        }
        next = at + 1;
        out.insert(k.to_string(), v.into());
    }
    Some(serde_json::Value::Object(out))
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
            "a per-profile policy needs exactly the keys rfc9309, google, \
             aipref (aipref optional); got google"
        );
        // A table without aipref expects under aipref what rfc9309 does.
        let two = ExpectToml::PerProfile(
            [
                ("google".to_string(), "allowed".to_string()),
                ("rfc9309".to_string(), "disallowed".to_string()),
            ]
            .into(),
        );
        let got = expectation(&two, Vocabulary::Verdict).unwrap();
        assert_eq!(got["aipref"], Expected::Disallowed);
        // Usage words.
        let usage = ExpectToml::Same("train-ai=n, search=unknown".into());
        let got = expectation(&usage, Vocabulary::Usage).unwrap();
        assert_eq!(
            got["aipref"],
            Expected::Value(serde_json::json!({"crawlable": true,
                "usage": {"train-ai": "n", "search": "unknown"}}))
        );
        for bad in
            ["search=n, train-ai=n", "train-ai=no, search=y", "train-ai=n"]
        {
            let e = ExpectToml::Same(bad.into());
            assert!(expectation(&e, Vocabulary::Usage).is_err(), "{bad}");
        }
    }
}
