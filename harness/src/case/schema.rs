//! The TOML schema of a case file (documented in `spec-cases/README.md`),
//! both ways: the reader's serde types, and the writer that turns a case
//! made elsewhere (a fuzz finding) into a file in the same schema.
//!
//! Only the shape of the text lives here: it never decodes a body, builds
//! a scenario or validates a value (that is [`super::build`]).

use std::collections::BTreeMap;

use base64::Engine;
use serde::{Deserialize, Serialize};
use toml::Spanned;

/// A case file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileToml {
    pub case: Vec<Spanned<CaseToml>>,
}

/// One `[[case]]`.
#[derive(Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct CaseToml {
    pub id: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clauses: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub categories: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub robots: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub robots_hex: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub robots_base64: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub robots_parts: Option<Vec<PartToml>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub check: Vec<CheckToml>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sitemaps: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub crawl_delay: Vec<CrawlDelayToml>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub usage: Vec<UsageToml>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub content_signal: Vec<SignalToml>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tokens: Vec<TokenToml>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub robots_url: Vec<RobotsUrlToml>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fetch: Option<FetchToml>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<ExpectToml>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub governs: Vec<GovernsToml>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignore: Option<String>,
}

/// The fields of one answer, in `[case.fetch]` (for the start URL) and
/// in each route.
macro_rules! answer_toml {
    ($(#[$m:meta])* struct $name:ident { $($extra:tt)* }) => {
        $(#[$m])*
        #[derive(Deserialize, Serialize)]
        #[serde(deny_unknown_fields)]
        pub(super) struct $name {
            $($extra)*
            #[serde(skip_serializing_if = "Option::is_none")]
            pub status: Option<u16>,
            #[serde(skip_serializing_if = "Option::is_none")]
            pub network: Option<String>,
            #[serde(skip_serializing_if = "Option::is_none")]
            pub location: Option<String>,
            #[serde(skip_serializing_if = "Option::is_none")]
            pub content_type: Option<String>,
            #[serde(skip_serializing_if = "Option::is_none")]
            pub content_encoding: Option<String>,
            #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
            pub headers: BTreeMap<String, String>,
            #[serde(skip_serializing_if = "Option::is_none")]
            pub body: Option<String>,
            #[serde(skip_serializing_if = "Option::is_none")]
            pub delay_ms: Option<u64>,
        }

        impl $name {
            /// The answer fields, borrowed.
            pub fn answer(&self) -> AnswerToml<'_> {
                AnswerToml {
                    status: self.status,
                    network: self.network.as_deref(),
                    location: self.location.as_deref(),
                    content_type: self.content_type.as_deref(),
                    content_encoding: self.content_encoding.as_deref(),
                    headers: &self.headers,
                    body: self.body.as_deref(),
                    delay_ms: self.delay_ms,
                }
            }
        }
    };
}

answer_toml! {
    /// `[case.fetch]`: how the site answers, and the crawler's state.
    struct FetchToml {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub start: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub routes: Vec<RouteToml>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub cached: Option<CachedToml>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub unreachable_for: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub site_available: Option<bool>,
    }
}

answer_toml! {
    /// One route: a URL and its answer.
    struct RouteToml {
        pub at: String,
    }
}

/// One answer as written.
pub(super) struct AnswerToml<'a> {
    pub status: Option<u16>,
    pub network: Option<&'a str>,
    pub location: Option<&'a str>,
    pub content_type: Option<&'a str>,
    /// `gzip` or `deflate`, or a list of them in the order applied
    /// (`deflate, gzip`): the body is served compressed, with that
    /// `Content-Encoding`.
    pub content_encoding: Option<&'a str>,
    pub headers: &'a BTreeMap<String, String>,
    pub body: Option<&'a str>,
    pub delay_ms: Option<u64>,
}

impl AnswerToml<'_> {
    /// Whether any field besides `status` and `network` is given.
    pub fn has_details(&self) -> bool {
        self.location.is_some()
            || self.content_type.is_some()
            || self.content_encoding.is_some()
            || !self.headers.is_empty()
            || self.body.is_some()
            || self.delay_ms.is_some()
    }
}

/// `[case.fetch.cached]`: the crawler's cached copy.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CachedToml {
    pub age: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub robots: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_control: Option<String>,
}

/// One `governs` entry.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GovernsToml {
    pub robots: String,
    pub url: String,
    pub expect: bool,
}

/// One `robots_parts` entry.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PartToml {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub times: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pad: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<u64>,
}

/// One `check` entry (a decide or, in a fetch case, a fetch question).
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CheckToml {
    pub agent: String,
    /// The crawler's further product tokens, less specific than `agent`,
    /// in order (`agent = "Googlebot-Image", also = ["Googlebot"]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
    pub url: String,
    pub expect: ExpectToml,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Phrases the explanation must contain (`explains`) or must not
    /// (`explains_not`): one list for every profile, or one per profile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explains: Option<PhrasesToml>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explains_not: Option<PhrasesToml>,
    /// What the oracle answers under named readings (a switch applied to
    /// a profile): `{ "tie_goes_to_allow=false" = "disallowed" }`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readings: Option<BTreeMap<String, String>>,
}

/// Phrases of an explanation: one list for every profile, or one per
/// profile.
#[derive(Deserialize, Serialize)]
#[serde(untagged)]
pub(super) enum PhrasesToml {
    Same(Vec<String>),
    PerProfile(BTreeMap<String, Vec<String>>),
}

/// An expectation: one word for every profile, or one per profile.
#[derive(Deserialize, Serialize)]
#[serde(untagged)]
pub(super) enum ExpectToml {
    Same(String),
    PerProfile(BTreeMap<String, String>),
}

/// One `crawl_delay` entry.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CrawlDelayToml {
    pub agent: String,
    pub value: String,
}

/// One `tokens` entry.
/// One `usage` entry: the AI usage preferences `agent` finds for `url`.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct UsageToml {
    pub agent: String,
    pub url: String,
    pub expect: ExpectToml,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// What the oracle answers under named usage readings (a switch of
    /// the oracle's `usage_switches`, `profile+switch`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readings: Option<BTreeMap<String, String>>,
    /// Phrases the usage explanation must contain, or must not (as a
    /// check's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explains: Option<PhrasesToml>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explains_not: Option<PhrasesToml>,
}

/// One `content_signal` entry: the Content-Signal values for `agent`.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SignalToml {
    pub agent: String,
    pub expect: ExpectToml,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// As [`UsageToml::readings`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readings: Option<BTreeMap<String, String>>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TokenToml {
    pub token: String,
    pub valid: bool,
}

/// One `robots_url` entry.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RobotsUrlToml {
    pub url: String,
    pub expect: String,
}

/// A decide case to write: a body and checks of agent, URL and the
/// expected verdict per profile.
#[derive(Clone, Debug)]
pub struct DecideCase<'a> {
    /// The case id.
    pub id: String,
    /// The clause ids it cites.
    pub clauses: Vec<String>,
    /// Where it comes from (one of [`super::SOURCES`]).
    pub source: &'a str,
    /// Its categories.
    pub categories: Vec<String>,
    /// The note.
    pub note: String,
    /// The body, raw bytes.
    pub robots: &'a [u8],
    /// The checks.
    pub checks: Vec<DecideCheck<'a>>,
}

/// One check of a [`DecideCase`].
#[derive(Clone, Debug)]
pub struct DecideCheck<'a> {
    /// The crawler's product token.
    pub agent: &'a str,
    /// The URL.
    pub url: &'a str,
    /// The expected verdict word per profile.
    pub expect: &'a BTreeMap<String, String>,
}

/// A case could not be written as TOML.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the case as TOML: {0}")]
pub struct WriteError(#[from] toml::ser::Error);

#[derive(Serialize)]
struct FileOut {
    case: Vec<CaseToml>,
}

/// The cases as the text of a case file. A body that is UTF-8 without
/// NUL is written as `robots` text, any other as `robots_base64`.
///
/// # Errors
///
/// When the TOML serialiser refuses a value.
pub fn write_cases(cases: &[DecideCase<'_>]) -> Result<String, WriteError> {
    let file = FileOut { case: cases.iter().map(case_toml).collect() };
    Ok(toml::to_string(&file)?)
}

fn case_toml(c: &DecideCase<'_>) -> CaseToml {
    let text =
        std::str::from_utf8(c.robots).ok().filter(|t| !t.contains('\u{0}'));
    CaseToml {
        id: c.id.clone(),
        clauses: c.clauses.clone(),
        source: Some(c.source.to_string()),
        categories: Some(c.categories.clone()),
        note: Some(c.note.clone()),
        robots: text.map(str::to_string),
        robots_base64: match text {
            Some(_) => None,
            None => Some(
                base64::engine::general_purpose::STANDARD.encode(c.robots),
            ),
        },
        check: c
            .checks
            .iter()
            .map(|k| CheckToml {
                agent: k.agent.to_string(),
                also: Vec::new(),
                url: k.url.to_string(),
                expect: ExpectToml::PerProfile(k.expect.clone()),
                why: None,
                rule_line: None,
                reason: None,
                explains: None,
                explains_not: None,
                readings: None,
            })
            .collect(),
        ..CaseToml::default()
    }
}
