//! The case format: TOML files under `spec-cases/` (schema in
//! `spec-cases/README.md`), loaded into [`Case`]s with every structural
//! mistake reported as a [`CaseError`] naming file, line and case id.
//!
//! Knows the *shape* of a case (body bytes, agent, URL, expectation per
//! profile, clause ids), never robots.txt semantics.

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use base64::Engine;
use robots_adapters::scenario::{
    Answer, Cached, DEFAULT_START, NetworkError, Policy, Response, Route,
    Scenario,
};
use serde::Deserialize;
use toml::Spanned;

/// The profiles every expectation is stated for.
pub const PROFILES: [&str; 2] = ["rfc9309", "google"];

/// Where a case comes from.
pub const SOURCES: [&str; 5] =
    ["rfc9309", "google-doc", "google-parser", "regression", "fuzz-finding"];

/// A mistake in a case file: file, line, case id, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseError {
    /// The case file.
    pub file: PathBuf,
    /// The 1-based line, when known.
    pub line: Option<usize>,
    /// The case id, when known.
    pub case: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(case) = &self.case {
            write!(f, ": case `{case}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for CaseError {}

/// What a check expects under one profile.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// The URL is allowed.
    Allowed,
    /// The URL is disallowed.
    Disallowed,
    /// The RFC says MAY or is silent: any answer is acceptable.
    ImplementationDefined,
    /// A value (sitemap list, crawl-delay, token validity, URL).
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

/// What is asked in one check.
#[derive(Clone, Debug, PartialEq)]
pub enum Question {
    /// May `agent` access `url`?
    Decide {
        /// The crawler's product token.
        agent: String,
        /// The URL.
        url: String,
    },
    /// The file's sitemaps.
    Sitemaps,
    /// The crawl-delay of `agent`'s group.
    CrawlDelay {
        /// The crawler's product token.
        agent: String,
    },
    /// Is `token` a valid product token?
    ValidToken {
        /// The token.
        token: String,
    },
    /// Where does the robots.txt for `url` live?
    RobotsUrl {
        /// The URL.
        url: String,
    },
    /// After the case's fetch, may `agent` access `url`?
    Fetch {
        /// The crawler's product token.
        agent: String,
        /// The URL.
        url: String,
    },
    /// After the case's fetch, which policy applies?
    FetchPolicy,
    /// Does the robots.txt file at `robots_url` govern `url`?
    Governs {
        /// A robots.txt URL.
        robots_url: String,
        /// An absolute URL.
        url: String,
    },
}

/// One check of a case: a question and its expectation per profile.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// The full name, `<folder>::<stem>::<case id>::<suffix>`.
    pub name: String,
    /// What is asked.
    pub question: Question,
    /// The expectation under each profile in [`PROFILES`].
    pub expect: BTreeMap<String, Expected>,
    /// Why the outcome is implementation-defined, if it is anywhere.
    pub why: Option<String>,
    /// The expected line of the winning rule in the explanation.
    pub rule_line: Option<u32>,
    /// The expected reason in the explanation.
    pub reason: Option<String>,
}

impl Check {
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileToml {
    case: Vec<Spanned<CaseToml>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseToml {
    id: String,
    #[serde(default)]
    clauses: Vec<String>,
    source: Option<String>,
    categories: Option<Vec<String>>,
    note: Option<String>,
    why: Option<String>,
    robots: Option<String>,
    robots_hex: Option<String>,
    robots_base64: Option<String>,
    robots_parts: Option<Vec<PartToml>>,
    #[serde(default)]
    check: Vec<CheckToml>,
    sitemaps: Option<Vec<String>>,
    #[serde(default)]
    crawl_delay: Vec<CrawlDelayToml>,
    #[serde(default)]
    tokens: Vec<TokenToml>,
    #[serde(default)]
    robots_url: Vec<RobotsUrlToml>,
    fetch: Option<FetchToml>,
    policy: Option<ExpectToml>,
    #[serde(default)]
    governs: Vec<GovernsToml>,
    ignore: Option<String>,
}

/// The fields of one answer, in `[case.fetch]` (for the start URL) and
/// in each route.
macro_rules! answer_toml {
    ($(#[$m:meta])* struct $name:ident { $($extra:tt)* }) => {
        $(#[$m])*
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct $name {
            $($extra)*
            status: Option<u16>,
            network: Option<String>,
            location: Option<String>,
            content_type: Option<String>,
            #[serde(default)]
            headers: BTreeMap<String, String>,
            body: Option<String>,
            delay_ms: Option<u64>,
        }

        impl $name {
            fn answer(&self) -> AnswerToml<'_> {
                AnswerToml {
                    status: self.status,
                    network: self.network.as_deref(),
                    location: self.location.as_deref(),
                    content_type: self.content_type.as_deref(),
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
        start: Option<String>,
        #[serde(default)]
        routes: Vec<RouteToml>,
        cached: Option<CachedToml>,
        unreachable_for: Option<String>,
        site_available: Option<bool>,
    }
}

answer_toml! {
    /// One route: a URL and its answer.
    struct RouteToml {
        at: String,
    }
}

/// One answer as written.
struct AnswerToml<'a> {
    status: Option<u16>,
    network: Option<&'a str>,
    location: Option<&'a str>,
    content_type: Option<&'a str>,
    headers: &'a BTreeMap<String, String>,
    body: Option<&'a str>,
    delay_ms: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CachedToml {
    age: String,
    robots: Option<String>,
    cache_control: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GovernsToml {
    robots: String,
    url: String,
    expect: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PartToml {
    text: Option<String>,
    hex: Option<String>,
    repeat: Option<String>,
    times: Option<usize>,
    pad: Option<String>,
    to: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckToml {
    agent: String,
    url: String,
    expect: ExpectToml,
    why: Option<String>,
    rule_line: Option<u32>,
    reason: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ExpectToml {
    Same(String),
    PerProfile(BTreeMap<String, String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CrawlDelayToml {
    agent: String,
    value: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenToml {
    token: String,
    valid: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RobotsUrlToml {
    url: String,
    expect: String,
}

/// The reasons an explanation may give.
pub const REASONS: [&str; 5] = [
    "no-group",
    "no-matching-rule",
    "robots-txt-path",
    "longest-match",
    "tie-goes-to-allow",
];

fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

fn hex_bytes(s: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> =
        s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !digits.len().is_multiple_of(2) {
        return Err("hex has an odd number of digits".into());
    }
    digits
        .chunks(2)
        .map(|pair| {
            let text = std::str::from_utf8(pair).map_err(|e| e.to_string())?;
            u8::from_str_radix(text, 16)
                .map_err(|_| format!("bad hex byte `{text}`"))
        })
        .collect()
}

fn body_of(c: &CaseToml) -> Result<Vec<u8>, String> {
    let given = [
        c.robots.is_some(),
        c.robots_hex.is_some(),
        c.robots_base64.is_some(),
        c.robots_parts.is_some(),
    ];
    let n = given.iter().filter(|&&g| g).count();
    // A fetch case's body is what the site serves (may be none); a case
    // with only governs checks needs none.
    let optional = c.fetch.is_some()
        || (c.check.is_empty()
            && c.sitemaps.is_none()
            && c.crawl_delay.is_empty()
            && !c.governs.is_empty());
    if n == 0 && optional {
        return Ok(Vec::new());
    }
    if n != 1 {
        return Err("needs exactly one of robots, robots_hex, robots_base64, robots_parts".into());
    }
    if let Some(s) = &c.robots {
        return Ok(s.clone().into_bytes());
    }
    if let Some(h) = &c.robots_hex {
        return hex_bytes(h);
    }
    if let Some(b) = &c.robots_base64 {
        return base64::engine::general_purpose::STANDARD
            .decode(b.trim())
            .map_err(|e| format!("bad base64: {e}"));
    }
    let mut body = Vec::new();
    for part in c.robots_parts.iter().flatten() {
        match part {
            PartToml {
                text: Some(t),
                hex: None,
                repeat: None,
                pad: None,
                ..
            } => body.extend_from_slice(t.as_bytes()),
            PartToml {
                hex: Some(h),
                text: None,
                repeat: None,
                pad: None,
                ..
            } => body.extend(hex_bytes(h)?),
            PartToml {
                repeat: Some(r),
                times: Some(n),
                text: None,
                hex: None,
                pad: None,
                ..
            } => body.extend(r.as_bytes().repeat(*n)),
            PartToml {
                pad: Some(p),
                to: Some(to),
                text: None,
                hex: None,
                repeat: None,
                ..
            } => {
                if p.is_empty() || body.len() > *to {
                    return Err(format!(
                        "cannot pad a {}-byte body to {to}",
                        body.len()
                    ));
                }
                while body.len() < *to {
                    let n = p.len().min(to - body.len());
                    body.extend_from_slice(&p.as_bytes()[..n]);
                }
            }
            _ => {
                return Err("a robots_parts entry is one of {text}, {hex}, {repeat, times}, {pad, to}".into());
            }
        }
    }
    Ok(body)
}

fn is_kebab(id: &str) -> bool {
    !id.is_empty()
        && id.bytes().all(|b| {
            b.is_ascii_lowercase()
                || b.is_ascii_digit()
                || b == b'-'
                || b == b'.'
        })
        && !id.starts_with('-')
        && !id.ends_with('-')
}

fn expected_verdict(word: &str) -> Result<Expected, String> {
    match word {
        "allowed" => Ok(Expected::Allowed),
        "disallowed" => Ok(Expected::Disallowed),
        "implementation-defined" => Ok(Expected::ImplementationDefined),
        other => Err(format!(
            "expect `{other}`: use allowed, disallowed or implementation-defined"
        )),
    }
}

/// A duration such as `23h`, `24h 1s`, `30d`, `90m`, `45s` or `0`, in
/// seconds.
pub fn parse_duration(text: &str) -> Result<u64, String> {
    let bad = || {
        format!("duration `{text}`: write e.g. `13h`, `24h 1s`, `31d`, `90m`")
    };
    let mut total: u64 = 0;
    for part in text.split_whitespace() {
        let (digits, unit) = part.split_at(
            part.find(|c: char| !c.is_ascii_digit()).unwrap_or(part.len()),
        );
        let n: u64 = digits.parse().map_err(|_| bad())?;
        let scale = match unit {
            "" if n == 0 => 0,
            "s" => 1,
            "m" => 60,
            "h" => 3600,
            "d" => 86_400,
            _ => return Err(bad()),
        };
        total = total
            .checked_add(n.checked_mul(scale).ok_or_else(bad)?)
            .ok_or_else(bad)?;
    }
    if text.trim().is_empty() {
        return Err(bad());
    }
    Ok(total)
}

/// An absolute URL for a route's `at` or a `start`: a path is on the
/// start's authority.
fn absolute_on(start: &str, at: &str) -> String {
    if at.starts_with('/') {
        let origin =
            robots_adapters::scenario::origin(start).unwrap_or_default();
        format!("{origin}{at}")
    } else {
        at.to_string()
    }
}

/// One answer of `[case.fetch]` or a route; `body` is the case's body,
/// served by a 2xx answer that gives none of its own.
fn answer_of(a: &AnswerToml<'_>, body: &Arc<[u8]>) -> Result<Answer, String> {
    match (a.status, a.network) {
        (Some(_), Some(_)) | (None, None) => {
            Err("an answer has exactly one of `status`, `network`".into())
        }
        (None, Some(n)) => {
            let given = a.location.is_some()
                || a.content_type.is_some()
                || !a.headers.is_empty()
                || a.body.is_some()
                || a.delay_ms.is_some();
            if given {
                return Err(format!(
                    "network error `{n}` takes no location, headers, body or delay"
                ));
            }
            NetworkError::from_name(n).map(Answer::Network).ok_or_else(|| {
                let names: Vec<&str> =
                    NetworkError::ALL.iter().map(|e| e.as_str()).collect();
                format!("network `{n}` is not one of {}", names.join(", "))
            })
        }
        (Some(status), None) => {
            if !(100..=999).contains(&status) {
                return Err(format!("status {status} is not 100..=999"));
            }
            let is_redirect = (300..=399).contains(&status);
            if a.location.is_some() && !is_redirect {
                return Err("only a 3xx answer takes `location`".into());
            }
            let mut headers: Vec<(String, String)> = Vec::new();
            if let Some(l) = &a.location {
                headers.push(("Location".into(), l.to_string()));
            }
            let success = (200..=299).contains(&status);
            let body: Arc<[u8]> = match &a.body {
                Some(b) => Arc::from(b.as_bytes()),
                None if success => body.clone(),
                None => Arc::from(&b""[..]),
            };
            match a.content_type {
                Some(t) => {
                    headers.push(("Content-Type".into(), t.to_string()))
                }
                None if !body.is_empty() => headers.push((
                    "Content-Type".into(),
                    "text/plain; charset=utf-8".into(),
                )),
                None => {}
            }
            headers
                .extend(a.headers.iter().map(|(k, v)| (k.clone(), v.clone())));
            Ok(Answer::Response(Response {
                status,
                headers,
                body,
                delay_ms: a.delay_ms.unwrap_or(0),
            }))
        }
    }
}

/// Builds the scenario of `[case.fetch]`.
fn scenario_of(f: &FetchToml, body: &Arc<[u8]>) -> Result<Scenario, String> {
    let start = f.start.clone().unwrap_or_else(|| DEFAULT_START.into());
    if robots_adapters::scenario::origin(&start).is_none() {
        return Err(format!("start `{start}` is not an absolute URL"));
    }
    let mut routes = Vec::new();
    let first = f.answer();
    let shorthand = first.status.is_some() || first.network.is_some();
    if shorthand {
        routes.push(Route {
            url: start.clone(),
            answer: answer_of(&first, body)?,
        });
    } else if first.location.is_some()
        || first.content_type.is_some()
        || !first.headers.is_empty()
        || first.body.is_some()
        || first.delay_ms.is_some()
    {
        return Err(
            "answer fields in [case.fetch] need `status` or `network`".into(),
        );
    }
    for r in &f.routes {
        let url = absolute_on(&start, &r.at);
        if robots_adapters::scenario::origin(&url).is_none() {
            return Err(format!(
                "route `{}` is not a path or absolute URL",
                r.at
            ));
        }
        if routes.iter().any(|x: &Route| x.url == url) {
            return Err(format!("two answers for `{url}`"));
        }
        routes.push(Route { url, answer: answer_of(&r.answer(), body)? });
    }
    if routes.is_empty() {
        return Err(
            "[case.fetch] needs `status`, `network` or `routes`".into()
        );
    }
    let cached = match &f.cached {
        Some(c) => Some(Cached {
            body: c
                .robots
                .as_ref()
                .map_or_else(|| body.clone(), |t| Arc::from(t.as_bytes())),
            age: parse_duration(&c.age)?,
            cache_control: c.cache_control.clone(),
        }),
        None => None,
    };
    Ok(Scenario {
        start,
        routes,
        cached,
        unreachable_for: match &f.unreachable_for {
            Some(d) => parse_duration(d)?,
            None => 0,
        },
        site_available: f.site_available.unwrap_or(true),
    })
}

fn expected_policy(word: &str) -> Result<Expected, String> {
    if word == "implementation-defined" {
        return Ok(Expected::ImplementationDefined);
    }
    Policy::from_name(word)
        .map(|p| Expected::Value(p.as_str().into()))
        .ok_or_else(|| {
            format!(
                "policy `{word}`: use parse-body, allow-all, disallow-all, \
                 use-cache or implementation-defined"
            )
        })
}

fn policy_expectation(
    e: &ExpectToml,
) -> Result<BTreeMap<String, Expected>, String> {
    match e {
        ExpectToml::Same(word) => Ok(same_for_all(expected_policy(word)?)),
        ExpectToml::PerProfile(map) => {
            let mut keys: Vec<&str> = map.keys().map(String::as_str).collect();
            keys.sort_unstable();
            let mut want: Vec<&str> = PROFILES.to_vec();
            want.sort_unstable();
            if keys != want {
                return Err(format!(
                    "a per-profile policy needs exactly the keys {}",
                    PROFILES.join(", ")
                ));
            }
            map.iter()
                .map(|(k, v)| Ok((k.clone(), expected_policy(v)?)))
                .collect()
        }
    }
}

fn same_for_all(e: Expected) -> BTreeMap<String, Expected> {
    PROFILES.iter().map(|p| (p.to_string(), e.clone())).collect()
}

fn expectation(e: &ExpectToml) -> Result<BTreeMap<String, Expected>, String> {
    match e {
        ExpectToml::Same(word) => Ok(same_for_all(expected_verdict(word)?)),
        ExpectToml::PerProfile(map) => {
            let keys: Vec<&str> = map.keys().map(String::as_str).collect();
            let mut want: Vec<&str> = PROFILES.to_vec();
            want.sort_unstable();
            if keys != want {
                return Err(format!(
                    "a per-profile expect needs exactly the keys {}; got {}",
                    PROFILES.join(", "),
                    keys.join(", ")
                ));
            }
            map.iter()
                .map(|(k, v)| Ok((k.clone(), expected_verdict(v)?)))
                .collect()
        }
    }
}

/// The `<folder>::<stem>` prefix of the names of the cases in `file`.
pub fn name_prefix(root: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(root).unwrap_or(file).with_extension("");
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("::")
}

/// What a case file must agree with: the known clause ids.
pub struct Known<'a> {
    /// Clause ids from `clauses.toml`.
    pub clauses: &'a HashSet<String>,
}

/// Builds one case; `Err(message)` for a structural mistake.
fn build_case(
    c: &CaseToml,
    prefix: &str,
    default_category: &str,
    known: &Known<'_>,
) -> Result<(Case, Vec<String>), String> {
    if !is_kebab(&c.id) {
        return Err("id must be kebab-case (a-z, 0-9, -, .)".into());
    }
    if c.clauses.is_empty() {
        return Err("cites no clause: add `clauses = [\"R...\"]`".into());
    }
    let unknown: Vec<&String> =
        c.clauses.iter().filter(|id| !known.clauses.contains(*id)).collect();
    if !unknown.is_empty() {
        let list: Vec<&str> = unknown.iter().map(|s| s.as_str()).collect();
        return Err(format!(
            "cites unknown clause id(s) {} (see spec-cases/clauses.toml)",
            list.join(", ")
        ));
    }
    let source = c.source.clone().ok_or("needs `source`")?;
    if !SOURCES.contains(&source.as_str()) {
        return Err(format!(
            "source `{source}` is not one of {}",
            SOURCES.join(", ")
        ));
    }
    let robots: Arc<[u8]> = body_of(c)?.into();
    let fetch = match &c.fetch {
        Some(f) => Some(Arc::new(
            scenario_of(f, &robots).map_err(|e| format!("fetch: {e}"))?,
        )),
        None => None,
    };
    if c.policy.is_some() && fetch.is_none() {
        return Err("`policy` needs a [case.fetch] table".into());
    }
    let name = format!("{prefix}::{}", c.id);
    let mut checks = Vec::new();
    let mut warnings = Vec::new();
    for (i, ch) in c.check.iter().enumerate() {
        let expect = expectation(&ch.expect)
            .map_err(|e| format!("check {}: {e}", i + 1))?;
        let why = ch.why.clone().or_else(|| c.why.clone());
        let open =
            expect.values().any(|e| *e == Expected::ImplementationDefined);
        if open && why.is_none() {
            return Err(format!(
                "check {}: implementation-defined needs `why`",
                i + 1
            ));
        }
        if let Some(r) = &ch.reason
            && !REASONS.contains(&r.as_str())
        {
            return Err(format!(
                "check {}: reason `{r}` is not one of {}",
                i + 1,
                REASONS.join(", ")
            ));
        }
        let question = match fetch {
            Some(_) => Question::Fetch {
                agent: ch.agent.clone(),
                url: ch.url.clone(),
            },
            None => Question::Decide {
                agent: ch.agent.clone(),
                url: ch.url.clone(),
            },
        };
        checks.push(Check {
            name: format!("{name}::{}", i + 1),
            question,
            expect,
            why,
            rule_line: ch.rule_line,
            reason: ch.reason.clone(),
        });
    }
    let value_check =
        |suffix: String, question: Question, value: serde_json::Value| Check {
            name: format!("{name}::{suffix}"),
            question,
            expect: same_for_all(Expected::Value(value)),
            why: None,
            rule_line: None,
            reason: None,
        };
    if let Some(s) = &c.sitemaps {
        checks.push(value_check(
            "sitemaps".into(),
            Question::Sitemaps,
            s.clone().into(),
        ));
    }
    for (i, d) in c.crawl_delay.iter().enumerate() {
        let value = if d.value.is_empty() {
            serde_json::Value::Null
        } else {
            d.value.clone().into()
        };
        checks.push(value_check(
            format!("crawl-delay-{}", i + 1),
            Question::CrawlDelay { agent: d.agent.clone() },
            value,
        ));
    }
    for (i, t) in c.tokens.iter().enumerate() {
        checks.push(value_check(
            format!("token-{}", i + 1),
            Question::ValidToken { token: t.token.clone() },
            t.valid.into(),
        ));
    }
    for (i, r) in c.robots_url.iter().enumerate() {
        checks.push(value_check(
            format!("robots-url-{}", i + 1),
            Question::RobotsUrl { url: r.url.clone() },
            r.expect.clone().into(),
        ));
    }
    if let Some(p) = &c.policy {
        let expect =
            policy_expectation(p).map_err(|e| format!("policy: {e}"))?;
        let open =
            expect.values().any(|e| *e == Expected::ImplementationDefined);
        if open && c.why.is_none() {
            return Err("policy: implementation-defined needs `why`".into());
        }
        checks.push(Check {
            name: format!("{name}::policy"),
            question: Question::FetchPolicy,
            expect,
            why: c.why.clone(),
            rule_line: None,
            reason: None,
        });
    }
    for (i, g) in c.governs.iter().enumerate() {
        checks.push(value_check(
            format!("governs-{}", i + 1),
            Question::Governs {
                robots_url: g.robots.clone(),
                url: g.url.clone(),
            },
            g.expect.into(),
        ));
    }
    if checks.is_empty() {
        return Err("has no checks".into());
    }
    if c.why.is_some() && c.check.is_empty() && c.policy.is_none() {
        warnings.push("`why` on a case without verdict checks".to_string());
    }
    let case = Case {
        file: PathBuf::new(),
        line: 0,
        name,
        id: c.id.clone(),
        clauses: c.clauses.clone(),
        source,
        categories: c
            .categories
            .clone()
            .unwrap_or_else(|| vec![default_category.to_string()]),
        note: c.note.clone(),
        robots,
        fetch,
        checks,
        ignore: c.ignore.clone(),
    };
    Ok((case, warnings))
}

/// Loads one case file. Returns the good cases and one error per
/// mistake; a file that is not valid TOML yields just the error.
pub fn load_file(
    root: &Path,
    file: &Path,
    known: &Known<'_>,
) -> (Vec<Case>, Vec<CaseError>) {
    let err =
        |line: Option<usize>, case: Option<&str>, message: String| CaseError {
            file: file.to_path_buf(),
            line,
            case: case.map(str::to_string),
            message,
        };
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            return (
                vec![],
                vec![err(None, None, format!("cannot read: {e}"))],
            );
        }
    };
    let parsed: FileToml = match toml::from_str(&text) {
        Ok(p) => p,
        Err(e) => {
            let line = e.span().map(|s| line_of(&text, s.start));
            let message = e.message().to_string();
            // Name the case the error sits in, if the id is findable.
            let case = line.and_then(|l| enclosing_case_id(&text, l));
            return (vec![], vec![err(line, case.as_deref(), message)]);
        }
    };
    let prefix = name_prefix(root, file);
    let default_category =
        prefix.split("::").next().unwrap_or_default().to_string();
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    let mut seen = HashSet::new();
    for spanned in &parsed.case {
        let line = line_of(&text, spanned.span().start);
        let c = spanned.get_ref();
        if !seen.insert(c.id.clone()) {
            errors.push(err(
                Some(line),
                Some(&c.id),
                "duplicate case id in this file".into(),
            ));
            continue;
        }
        match build_case(c, &prefix, &default_category, known) {
            Ok((mut case, _warnings)) => {
                case.file = file.to_path_buf();
                case.line = line;
                cases.push(case);
            }
            Err(message) => errors.push(err(Some(line), Some(&c.id), message)),
        }
    }
    (cases, errors)
}

/// The id of the `[[case]]` whose text contains `line`, found textually.
fn enclosing_case_id(text: &str, line: usize) -> Option<String> {
    text.lines()
        .take(line)
        .filter_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix("id")?.trim_start().strip_prefix('=')?;
            Some(rest.trim().trim_matches('"').to_string())
        })
        .last()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> (Vec<Case>, Vec<CaseError>) {
        static N: std::sync::atomic::AtomicUsize =
            std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir()
            .join(format!("rc-case-{}-{n}", std::process::id()));
        let file = dir.join("grouping").join("t.toml");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, text).unwrap();
        let clauses: HashSet<String> = ["R1".to_string()].into();
        let got = load_file(&dir, &file, &Known { clauses: &clauses });
        std::fs::remove_dir_all(&dir).unwrap();
        got
    }

    #[test]
    fn a_good_case_loads_with_names_and_expectations() {
        let (cases, errors) = load(
            "[[case]]\nid = \"a\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\n\
             robots = \"x\"\ncheck = [{ agent = \"A\", url = \"/\", expect = { rfc9309 = \"allowed\", google = \"disallowed\" } }]\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(cases[0].checks[0].name, "grouping::t::a::1");
        assert_eq!(
            cases[0].checks[0].expected("google"),
            &Expected::Disallowed
        );
        assert_eq!(cases[0].categories, ["grouping"]);
    }

    #[test]
    fn unknown_clause_names_file_line_and_case() {
        let (_, errors) = load(
            "# c\n[[case]]\nid = \"b\"\nclauses = [\"R9\"]\nsource = \"rfc9309\"\nrobots = \"\"\n\
             check = [{ agent = \"A\", url = \"/\", expect = \"allowed\" }]\n",
        );
        let e = &errors[0];
        assert_eq!((e.line, e.case.as_deref()), (Some(2), Some("b")));
        assert!(e.message.contains("R9"), "{e}");
    }

    #[test]
    fn duplicates_and_bad_toml_are_errors() {
        let case = "[[case]]\nid = \"c\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\nrobots = \"\"\n\
                    check = [{ agent = \"A\", url = \"/\", expect = \"allowed\" }]\n";
        let (_, errors) = load(&format!("{case}{case}"));
        assert_eq!(errors[0].message, "duplicate case id in this file");
        let (_, errors) = load("[[case]]\nid = \"d\"\nrobots = \n");
        assert_eq!(errors[0].line, Some(3));
        assert_eq!(errors[0].case.as_deref(), Some("d"));
    }

    #[test]
    fn implementation_defined_needs_why() {
        let (_, errors) = load(
            "[[case]]\nid = \"e\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\nrobots = \"\"\n\
             check = [{ agent = \"A\", url = \"/\", expect = \"implementation-defined\" }]\n",
        );
        assert!(errors[0].message.contains("why"), "{}", errors[0]);
    }

    #[test]
    fn robots_parts_pad_to_an_exact_length() {
        let (cases, errors) = load(
            "[[case]]\nid = \"f\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\n\
             robots_parts = [{ text = \"ab\" }, { pad = \"xyz\", to = 7 }, { hex = \"0A\" }]\n\
             check = [{ agent = \"A\", url = \"/\", expect = \"allowed\" }]\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(&*cases[0].robots, b"abxyzxy\n");
    }
}
