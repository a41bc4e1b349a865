//! Access results (§2.3.1), caching (§2.4) and the location of the file
//! (§2.3): from what a fetch of robots.txt returned to what the crawler
//! may do. Pure: no I/O, no clock; never panics.
//!
//! The input is a [`Scenario`]: how a site answers GET requests (a route
//! table of [`Answer`]s: a response with status, headers and body, or a
//! [`NetworkError`]), plus the crawler's state (a [`Cached`] copy and its
//! age, how long the file has been unreachable, whether the site is
//! otherwise up). [`access`] follows the redirects and returns an
//! [`Access`]: the [`Policy`] (use the fetched rules, allow all, disallow
//! all, use the cached copy), the clause that decided it, and the trace.
//! [`Access::decide`] then answers for one URL. The readings that differ
//! are the switches of a [`FetchProfile`]: [`FetchProfile::rfc9309`] and
//! [`FetchProfile::google`].
//!
//! # Where each clause lives
//!
//! | clause | rule | here |
//! |---|---|---|
//! | §2.3 R2.3-1, R2.3-3; G-LOC-1..8 | the file is `scheme://authority/robots.txt` and governs that origin only | [`governs`], [`origin`] |
//! | §2.3.1.1 R2.3.1.1-1; G-STATUS-1 | 2xx: follow the parseable rules | [`Policy::ParseBody`] |
//! | §2.3.1.2 R2.3.1.2-1..3; G-STATUS-2 | follow at least five redirects, across hosts; the rules apply to the initial authority | [`FetchProfile::max_redirects`] |
//! | §2.3.1.2 R2.3.1.2-4; G-STATUS-2 | more redirects: MAY assume unavailable (Google: as a 404) | [`FetchProfile::too_many_redirects`] |
//! | §2.3.1.3 R2.3.1.3-1, -2; G-STATUS-4 | 4xx: unavailable, MAY access anything | [`Policy::AllowAll`] |
//! | G-STATUS-5 | 429 is a server error for Google | [`FetchProfile::status_429_unreachable`] |
//! | §2.3.1.4 R2.3.1.4-1; G-STATUS-6, G-STATUS-7 | 5xx and network errors: complete disallow | [`Policy::DisallowAll`] |
//! | §2.3.1.4 R2.3.1.4-2; G-STATUS-6 | a long outage: MAY treat as unavailable or keep a cached copy (Google: 12 h, 30 days) | [`FetchProfile::outage_grace`], [`FetchProfile::long_outage`] |
//! | §2.4 R2.4-1..3; G-CACHE-1..6 | cache for up to 24 h, longer when unreachable; `Cache-Control: max-age` | [`FetchProfile::cache_lifetime`], [`FetchProfile::max_age`] |
//! | §2.5 R2.5-2; G-FMT-7 | content past 500 KiB is ignored | [`FetchProfile::body_limit`] |
//!
//! `Content-Type` is not consulted: a `text/html` body is parsed for
//! rules like any other (R2.3.1.5-1, G-FMT-5), and so is a meta-refresh
//! page, which is never followed (G-STATUS-3).
//!
//! ```
//! use robots_oracle::fetch::{access, Answer, FetchProfile, Policy, Scenario};
//! use robots_oracle::{Profile, Verdict};
//!
//! let s = Scenario::single(Answer::status(503));
//! let a = access(&s, &FetchProfile::rfc9309());
//! assert_eq!(a.policy, Policy::DisallowAll);
//! assert_eq!(a.clause, "R2.3.1.4-1");
//! let d = a.decide("FooBot", "/x", &Profile::rfc9309())?;
//! assert_eq!(d.verdict, Verdict::Disallowed);
//! # Ok::<(), robots_oracle::Error>(())
//! ```

mod location;
mod punycode;

use std::fmt;
use std::sync::Arc;

pub use location::{governs, origin};

use crate::explain::{Decision, Verdict};
use crate::parse::RobotsTxt;
use crate::profile::{FIVE_HUNDRED_KIB, Profile};
use crate::target::Error;

/// One minute, in seconds.
pub const MINUTE: u64 = 60;
/// One hour, in seconds.
pub const HOUR: u64 = 60 * MINUTE;
/// One day, in seconds.
pub const DAY: u64 = 24 * HOUR;

/// Where a scenario's fetch starts unless it says otherwise.
pub const DEFAULT_START: &str = "http://example.com/robots.txt";

/// A way a request can fail without an HTTP response (G-STATUS-7: "DNS
/// or networking issues, such as timeouts, invalid responses, reset or
/// interrupted connections, and HTTP chunking errors").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NetworkError {
    /// The host name does not resolve.
    Dns,
    /// Nothing listens on the port.
    Refused,
    /// No response within the crawler's timeout.
    Timeout,
    /// The connection is closed (or reset) before any response.
    Dropped,
    /// The body is cut short (fewer bytes than `Content-Length`).
    Truncated,
    /// A malformed `Transfer-Encoding: chunked` body.
    BadChunking,
    /// Bytes that are not an HTTP response.
    InvalidResponse,
}

impl NetworkError {
    /// Every kind, for listings.
    pub const ALL: [NetworkError; 7] = [
        NetworkError::Dns,
        NetworkError::Refused,
        NetworkError::Timeout,
        NetworkError::Dropped,
        NetworkError::Truncated,
        NetworkError::BadChunking,
        NetworkError::InvalidResponse,
    ];

    /// The kebab-case name used in cases.
    pub fn as_str(self) -> &'static str {
        match self {
            NetworkError::Dns => "dns",
            NetworkError::Refused => "refused",
            NetworkError::Timeout => "timeout",
            NetworkError::Dropped => "dropped",
            NetworkError::Truncated => "truncated",
            NetworkError::BadChunking => "bad-chunking",
            NetworkError::InvalidResponse => "invalid-response",
        }
    }

    /// The kind with this name.
    pub fn from_name(name: &str) -> Option<NetworkError> {
        NetworkError::ALL.into_iter().find(|e| e.as_str() == name)
    }
}

/// An HTTP response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// Header fields in order, names as written.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Arc<[u8]>,
    /// How long the server waits before answering, in milliseconds. A
    /// live server honours it; the model ignores it (a response slower
    /// than the crawler's timeout is a [`NetworkError::Timeout`]).
    pub delay_ms: u64,
}

impl Response {
    /// The first value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// How one GET request is answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// An HTTP response.
    Response(Response),
    /// No response.
    Network(NetworkError),
}

impl Answer {
    /// A response with this status, no headers, empty body.
    pub fn status(status: u16) -> Answer {
        Answer::Response(Response {
            status,
            headers: Vec::new(),
            body: Arc::from(&b""[..]),
            delay_ms: 0,
        })
    }

    /// `200 OK` with this body.
    pub fn ok(body: &[u8]) -> Answer {
        Answer::Response(Response {
            status: 200,
            headers: vec![("Content-Type".into(), "text/plain".into())],
            body: Arc::from(body),
            delay_ms: 0,
        })
    }

    /// A redirect with this status to `location`.
    pub fn redirect(status: u16, location: &str) -> Answer {
        Answer::Response(Response {
            status,
            headers: vec![("Location".into(), location.into())],
            body: Arc::from(&b""[..]),
            delay_ms: 0,
        })
    }

    /// One line: `503`, `301 → /r1`, `network error: timeout`.
    pub fn describe(&self) -> String {
        match self {
            Answer::Network(e) => format!("network error: {}", e.as_str()),
            Answer::Response(r) => {
                let mut s = r.status.to_string();
                if let Some(l) = r.header("location") {
                    s.push_str(&format!(" → {l}"));
                }
                if !r.body.is_empty() {
                    s.push_str(&format!(", {} body bytes", r.body.len()));
                }
                if let Some(c) = r.header("cache-control") {
                    s.push_str(&format!(", Cache-Control: {c}"));
                }
                s
            }
        }
    }
}

/// A URL and how the site answers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// An absolute URL (`http://example.com/robots.txt`).
    pub url: String,
    /// The answer.
    pub answer: Answer,
}

/// The crawler's copy of the file from an earlier fetch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cached {
    /// Its body.
    pub body: Arc<[u8]>,
    /// Seconds since it was fetched.
    pub age: u64,
    /// The `Cache-Control` header it came with, if any.
    pub cache_control: Option<String>,
}

/// A site and the crawler's state: everything [`access`] needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// The robots.txt URL the crawler fetches first.
    pub start: String,
    /// How the site answers; a URL not listed answers `404`.
    pub routes: Vec<Route>,
    /// The crawler's cached copy, if it has one.
    pub cached: Option<Cached>,
    /// Seconds the file has been unreachable before this fetch (0: this
    /// is the first failure).
    pub unreachable_for: u64,
    /// The rest of the site is up (G-STATUS-6: after 30 days of outage
    /// Google allows all if the site is "generally available").
    pub site_available: bool,
}

impl Scenario {
    /// The file at [`DEFAULT_START`] answered by `answer`, no cache.
    pub fn single(answer: Answer) -> Scenario {
        Scenario {
            start: DEFAULT_START.into(),
            routes: vec![Route { url: DEFAULT_START.into(), answer }],
            cached: None,
            unreachable_for: 0,
            site_available: true,
        }
    }

    /// How the site answers `url` (a URL no route names: `404`).
    pub fn answer(&self, url: &str) -> Answer {
        self.routes
            .iter()
            .find(|r| same_url(&r.url, url))
            .map_or_else(|| Answer::status(404), |r| r.answer.clone())
    }

    /// What a crawler that follows at most `max_redirects` redirects
    /// sees: every request and its answer, in order. The fetch outcome
    /// ends at the first answer that is not a redirect, or at the
    /// redirect past the limit ([`Fetched::too_many_redirects`]).
    pub fn fetch(&self, max_redirects: usize) -> Fetched {
        let mut hops = Vec::new();
        let mut url = self.start.clone();
        loop {
            let answer = self.answer(&url);
            let next = match &answer {
                Answer::Response(r) if (300..=399).contains(&r.status) => {
                    r.header("location").map(|l| location::resolve(&url, l))
                }
                _ => None,
            };
            hops.push((url, answer));
            match next {
                Some(_) if hops.len() > max_redirects => {
                    return Fetched { hops, too_many_redirects: true };
                }
                Some(n) => url = n,
                None => return Fetched { hops, too_many_redirects: false },
            }
        }
    }

    /// The hosts the scenario names, the start's first (each is a
    /// distinct authority).
    pub fn hosts(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let urls = std::iter::once(self.start.clone())
            .chain(self.routes.iter().map(|r| r.url.clone()))
            .chain(self.routes.iter().filter_map(|r| {
                match &r.answer {
                    Answer::Response(resp) => resp
                        .header("location")
                        .map(|l| location::resolve(&r.url, l)),
                    Answer::Network(_) => None,
                }
            }));
        for url in urls {
            if let Some(o) = origin(&url)
                && !out.contains(&o)
            {
                out.push(o);
            }
        }
        out
    }
}

/// The outcome of a fetch: the requests made and their answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetched {
    /// Each URL requested and how it was answered, in order; the last is
    /// the final answer.
    pub hops: Vec<(String, Answer)>,
    /// The last answer is a redirect that was not followed, because it
    /// would have been one more than the limit.
    pub too_many_redirects: bool,
}

impl Fetched {
    /// The final answer (`None` only for an empty outcome).
    pub fn last(&self) -> Option<&Answer> {
        self.hops.last().map(|(_, a)| a)
    }

    /// Redirects followed.
    pub fn redirects(&self) -> usize {
        self.hops.len().saturating_sub(1)
    }
}

/// Two URLs name the same resource: same origin, same path and query.
fn same_url(a: &str, b: &str) -> bool {
    let path = |u: &str| location::split(u).map(|(_, _, p)| p.to_string());
    origin(a).is_some() && origin(a) == origin(b) && path(a) == path(b)
}

/// What the crawler does for the URLs the file governs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Policy {
    /// Follow the rules of the body just fetched.
    ParseBody,
    /// No restrictions.
    AllowAll,
    /// Complete disallow.
    DisallowAll,
    /// Follow the rules of the cached copy.
    UseCache,
}

impl Policy {
    /// Every policy.
    pub const ALL: [Policy; 4] = [
        Policy::ParseBody,
        Policy::AllowAll,
        Policy::DisallowAll,
        Policy::UseCache,
    ];

    /// `parse-body`, `allow-all`, `disallow-all`, `use-cache`.
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::ParseBody => "parse-body",
            Policy::AllowAll => "allow-all",
            Policy::DisallowAll => "disallow-all",
            Policy::UseCache => "use-cache",
        }
    }

    /// The policy with this name.
    pub fn from_name(name: &str) -> Option<Policy> {
        Policy::ALL.into_iter().find(|p| p.as_str() == name)
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How `Cache-Control: max-age` changes the cache lifetime.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum MaxAge {
    /// Not consulted.
    Ignore,
    /// May shorten the lifetime, never lengthen it past
    /// [`FetchProfile::cache_lifetime`] (R2.4-2 with R2.4-3).
    Shorten,
    /// Replaces the lifetime, shorter or longer ("Google may increase or
    /// decrease the cache lifetime", G-CACHE-4, G-CACHE-5).
    Replace,
}

/// The fetch-level switches where readings differ. Built-in bundles:
/// [`FetchProfile::rfc9309`] and [`FetchProfile::google`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct FetchProfile {
    /// The profile's name (`rfc9309`, `google`).
    pub name: &'static str,

    /// Redirects followed; one more makes the file "not reached".
    /// Source: R2.3.1.2-2 ("at least five"), G-STATUS-2 ("at least five
    /// … and then stops"). Default: 5 in both.
    pub max_redirects: usize,

    /// What the crawler does when the file is not reached within
    /// `max_redirects`. R2.3.1.2-4: MAY assume unavailable (the oracle
    /// does: allow all); G-STATUS-2: "treats it as a 404". Default:
    /// AllowAll in both.
    pub too_many_redirects: Policy,

    /// `429` is a server error, not "unavailable". Source: G-STATUS-5
    /// (Google); the RFC's 400-499 range says unavailable (R2.3.1.3-1).
    /// Default: rfc9309 = false; google = true.
    pub status_429_unreachable: bool,

    /// Seconds a cached copy is used without refetching. Source: R2.4-3
    /// (SHOULD NOT more than 24 hours), G-CACHE-1/2 ("up to 24 hours").
    /// Default: 24 h in both.
    pub cache_lifetime: u64,

    /// How `Cache-Control: max-age` of the cached copy changes
    /// `cache_lifetime`. Source: R2.4-2 (MAY use standard cache control),
    /// G-CACHE-4/5. `no-store` and `no-cache` make the lifetime 0.
    /// Default: rfc9309 = Shorten; google = Replace.
    pub max_age: MaxAge,

    /// While unreachable for at most this long, disallow all even with a
    /// cached copy (G-STATUS-6: "first 12 hours … stops crawling"). None:
    /// a cached copy is used at once (R2.4-3 "unless the robots.txt file
    /// is unreachable"). Default: rfc9309 = None; google = 12 h.
    pub outage_grace: Option<u64>,

    /// Unreachable for longer than this: treat as unavailable (allow all)
    /// when the site is otherwise up, else disallow all, whatever the
    /// cache (G-STATUS-6 phases e, f). None: no such phase (R2.3.1.4-2
    /// says MAY; the oracle keeps the MUST of R2.3.1.4-1).
    /// Default: rfc9309 = None; google = 30 days.
    pub long_outage: Option<u64>,

    /// Unreachable past `outage_grace` with no cached copy: allow all
    /// (G-STATUS-6: "If there's no cached version available, Google
    /// assumes there's no crawl restrictions"); else disallow all
    /// (R2.3.1.4-1). Default: rfc9309 = false; google = true.
    pub no_cache_allows: bool,

    /// Body bytes kept; the rest is ignored. Source: R2.5-2 (the parse
    /// limit MUST be at least 500 KiB), G-FMT-7 ("Content which is after
    /// the maximum file size is ignored"). Default: 512,000 in both.
    pub body_limit: usize,
}

impl FetchProfile {
    /// The RFC-literal reading.
    pub fn rfc9309() -> FetchProfile {
        FetchProfile {
            name: "rfc9309",
            max_redirects: 5,
            too_many_redirects: Policy::AllowAll,
            status_429_unreachable: false,
            cache_lifetime: DAY,
            max_age: MaxAge::Shorten,
            outage_grace: None,
            long_outage: None,
            no_cache_allows: false,
            body_limit: FIVE_HUNDRED_KIB,
        }
    }

    /// Google's documented behaviour.
    pub fn google() -> FetchProfile {
        FetchProfile {
            name: "google",
            status_429_unreachable: true,
            max_age: MaxAge::Replace,
            outage_grace: Some(12 * HOUR),
            long_outage: Some(30 * DAY),
            no_cache_allows: true,
            ..FetchProfile::rfc9309()
        }
    }

    /// The built-in profile of that name (`rfc9309` or `google`).
    pub fn by_name(name: &str) -> Option<FetchProfile> {
        match name {
            "rfc9309" | "rfc" => Some(FetchProfile::rfc9309()),
            "google" => Some(FetchProfile::google()),
            _ => None,
        }
    }

    /// How long `cached` may be used without refetching, in seconds.
    pub fn lifetime(&self, cached: &Cached) -> u64 {
        let cc = cached.cache_control.as_deref().map(parse_cache_control);
        match (self.max_age, cc) {
            (MaxAge::Ignore, _) | (_, None) => self.cache_lifetime,
            (_, Some(CacheControl { no_store: true, .. })) => 0,
            (_, Some(CacheControl { max_age: None, .. })) => {
                self.cache_lifetime
            }
            (MaxAge::Shorten, Some(CacheControl { max_age: Some(m), .. })) => {
                m.min(self.cache_lifetime)
            }
            (MaxAge::Replace, Some(CacheControl { max_age: Some(m), .. })) => {
                m
            }
        }
    }
}

impl Default for FetchProfile {
    fn default() -> FetchProfile {
        FetchProfile::rfc9309()
    }
}

struct CacheControl {
    max_age: Option<u64>,
    no_store: bool,
}

/// `max-age=N`, `no-store` and `no-cache` of a `Cache-Control` value
/// (RFC 9111 §5.2.2).
fn parse_cache_control(value: &str) -> CacheControl {
    let mut out = CacheControl { max_age: None, no_store: false };
    for directive in value.split(',') {
        let (name, arg) = match directive.split_once('=') {
            Some((n, a)) => (n.trim(), Some(a.trim().trim_matches('"'))),
            None => (directive.trim(), None),
        };
        if name.eq_ignore_ascii_case("no-store")
            || name.eq_ignore_ascii_case("no-cache")
        {
            out.no_store = true;
        } else if name.eq_ignore_ascii_case("max-age") {
            // RFC 9111 §1.2.2: an overflowing delta-seconds is "infinity".
            out.max_age = arg.and_then(|a| {
                a.bytes()
                    .all(|b| b.is_ascii_digit())
                    .then(|| a.parse::<u64>().unwrap_or(u64::MAX))
            });
        }
    }
    out
}

/// One request the crawler made and what came back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The URL requested.
    pub url: String,
    /// What came back, in one line.
    pub answer: String,
}

/// What the crawler does, why, and the evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// The policy.
    pub policy: Policy,
    /// The clause that decided it (`R2.3.1.4-1`, `G-STATUS-6`, ...).
    pub clause: &'static str,
    /// Why, in one line.
    pub reason: String,
    /// The requests made, in order (empty when a fresh cached copy was
    /// used).
    pub steps: Vec<Step>,
    /// The body whose rules apply (fetched and cut at the body limit, or
    /// cached), for [`Policy::ParseBody`] and [`Policy::UseCache`].
    pub body: Option<Arc<[u8]>>,
    /// The fetched body's full length when it was cut.
    pub cut_from: Option<usize>,
}

/// The verdict for one URL under an [`Access`], with the rule-level
/// decision when rules were consulted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchDecision {
    /// Allowed or disallowed.
    pub verdict: Verdict,
    /// The decision of the rules, for [`Policy::ParseBody`] and
    /// [`Policy::UseCache`].
    pub rules: Option<Decision>,
}

impl Access {
    /// The verdict for `agent` and `url` (a path or a URL on the initial
    /// authority, R2.3.1.2-3), parsing the body under `profile`.
    ///
    /// # Errors
    ///
    /// When rules are consulted and `url` is not a path or absolute URL.
    pub fn decide(
        &self,
        agent: &str,
        url: &str,
        profile: &Profile,
    ) -> Result<FetchDecision, Error> {
        match (self.policy, &self.body) {
            (Policy::AllowAll, _) => {
                Ok(FetchDecision { verdict: Verdict::Allowed, rules: None })
            }
            (Policy::DisallowAll, _) => {
                Ok(FetchDecision { verdict: Verdict::Disallowed, rules: None })
            }
            (Policy::ParseBody | Policy::UseCache, body) => {
                let body = body.as_deref().unwrap_or_default();
                self.decide_with(&RobotsTxt::parse(body, profile), agent, url)
            }
        }
    }

    /// As [`Access::decide`], with the body already parsed (`robots`
    /// must be the parse of [`Access::body`]).
    ///
    /// # Errors
    ///
    /// When `url` is not a path or absolute URL.
    pub fn decide_with(
        &self,
        robots: &RobotsTxt,
        agent: &str,
        url: &str,
    ) -> Result<FetchDecision, Error> {
        match self.policy {
            Policy::AllowAll => {
                Ok(FetchDecision { verdict: Verdict::Allowed, rules: None })
            }
            Policy::DisallowAll => {
                Ok(FetchDecision { verdict: Verdict::Disallowed, rules: None })
            }
            Policy::ParseBody | Policy::UseCache => {
                let d = robots.decide(agent, url)?;
                Ok(FetchDecision { verdict: d.verdict, rules: Some(d) })
            }
        }
    }
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  policy: {} ({})", self.policy, self.clause)?;
        writeln!(f, "  because: {}", self.reason)?;
        if self.steps.is_empty() {
            writeln!(f, "  fetched: nothing")?;
        }
        for (i, s) in self.steps.iter().enumerate() {
            writeln!(f, "  GET #{} {} → {}", i + 1, s.url, s.answer)?;
        }
        if let Some(n) = self.cut_from {
            writeln!(
                f,
                "  body cut from {n} to {} bytes",
                self.body.as_ref().map_or(0, |b| b.len())
            )?;
        }
        Ok(())
    }
}

fn fmt_secs(s: u64) -> String {
    match s {
        u64::MAX => "forever".into(),
        s if s % DAY == 0 && s > 0 => format!("{} d", s / DAY),
        s if s % HOUR == 0 && s > 0 => format!("{} h", s / HOUR),
        s => format!("{s} s"),
    }
}

/// Why the fetch failed to give rules, before the outage policy applies.
struct Unreachable {
    clause_rfc: &'static str,
    clause_google: &'static str,
    what: String,
}

/// The access decision for `scenario` under `p`.
pub fn access(scenario: &Scenario, p: &FetchProfile) -> Access {
    let google = p.name == "google";
    let pick =
        |rfc: &'static str, g: &'static str| if google { g } else { rfc };
    let mut out = Access {
        policy: Policy::AllowAll,
        clause: "",
        reason: String::new(),
        steps: Vec::new(),
        body: None,
        cut_from: None,
    };
    // 1. A fresh cached copy is used without a fetch (R2.4-1, G-CACHE-1).
    if let Some(c) = &scenario.cached {
        let lifetime = p.lifetime(c);
        if c.age <= lifetime {
            out.policy = Policy::UseCache;
            out.body = Some(c.body.clone());
            out.clause = if lifetime > p.cache_lifetime {
                pick("R2.4-2", "G-CACHE-5")
            } else {
                pick("R2.4-1", "G-CACHE-1")
            };
            out.reason = format!(
                "the cached copy is {} old, within its lifetime of {}",
                fmt_secs(c.age),
                fmt_secs(lifetime)
            );
            return out;
        }
    }
    // 2. Fetch, following redirects.
    let fetched = scenario.fetch(p.max_redirects);
    out.steps = fetched
        .hops
        .iter()
        .map(|(url, a)| Step { url: url.clone(), answer: a.describe() })
        .collect();
    if fetched.too_many_redirects {
        out.policy = p.too_many_redirects;
        out.clause = pick("R2.3.1.2-4", "G-STATUS-2");
        out.reason = format!(
            "not reached within {} consecutive redirects",
            p.max_redirects
        );
        return out;
    }
    let redirects = fetched.redirects();
    let failure = match fetched.last() {
        None => Unreachable {
            clause_rfc: "R2.3.1.4-1",
            clause_google: "G-STATUS-7",
            what: "no answer".into(),
        },
        Some(Answer::Network(e)) => Unreachable {
            clause_rfc: "R2.3.1.4-1",
            clause_google: "G-STATUS-7",
            what: format!("a network error ({})", e.as_str()),
        },
        Some(Answer::Response(r)) => match r.status {
            200..=299 => {
                let body = &r.body;
                let keep = body.len().min(p.body_limit);
                if keep < body.len() {
                    out.cut_from = Some(body.len());
                }
                out.body = Some(Arc::from(body.get(..keep).unwrap_or(body)));
                out.policy = Policy::ParseBody;
                out.clause = match redirects {
                    0 => pick("R2.3.1.1-1", "G-STATUS-1"),
                    _ => pick("R2.3.1.2-3", "G-STATUS-2"),
                };
                out.reason = match redirects {
                    0 => format!("downloaded ({})", r.status),
                    n => format!(
                        "downloaded ({}) after {n} redirect(s); the rules \
                         apply to the initial authority",
                        r.status
                    ),
                };
                return out;
            }
            300..=399 => Unreachable {
                clause_rfc: "R2.3.1.4-1",
                clause_google: "G-STATUS-7",
                what: format!("a {} without Location", r.status),
            },
            429 if p.status_429_unreachable => Unreachable {
                clause_rfc: "R2.3.1.4-1",
                clause_google: "G-STATUS-5",
                what: "429, a server error for this profile".into(),
            },
            400..=499 => {
                out.policy = Policy::AllowAll;
                out.clause = pick("R2.3.1.3-2", "G-STATUS-4");
                out.reason = format!("{}: the file is unavailable", r.status);
                return out;
            }
            500..=599 => Unreachable {
                clause_rfc: "R2.3.1.4-1",
                clause_google: "G-STATUS-6",
                what: format!("a server error ({})", r.status),
            },
            other => Unreachable {
                clause_rfc: "R2.3.1.4-1",
                clause_google: "G-STATUS-7",
                what: format!("an invalid status ({other})"),
            },
        },
    };
    unreachable(scenario, p, failure, out)
}

/// The outage policy (R2.3.1.4-1, R2.3.1.4-2, R2.4-3; G-STATUS-6,
/// G-CACHE-3).
fn unreachable(
    s: &Scenario,
    p: &FetchProfile,
    why: Unreachable,
    mut out: Access,
) -> Access {
    let google = p.name == "google";
    let t = s.unreachable_for;
    let base = if google { why.clause_google } else { why.clause_rfc };
    let what =
        format!("unreachable: {}, {} into the outage", why.what, fmt_secs(t));
    let mut set = |policy, clause, reason: String| {
        out.policy = policy;
        out.clause = clause;
        out.reason = format!("{what}; {reason}");
    };
    if let Some(long) = p.long_outage
        && t > long
    {
        if s.site_available {
            set(
                Policy::AllowAll,
                "G-STATUS-6",
                format!(
                    "past {} and the site is up: as if no file",
                    fmt_secs(long)
                ),
            );
        } else {
            set(
                Policy::DisallowAll,
                "G-STATUS-6",
                format!("past {} and the site is down", fmt_secs(long)),
            );
        }
        return out;
    }
    if let Some(grace) = p.outage_grace
        && t <= grace
    {
        set(
            Policy::DisallowAll,
            base,
            format!("within the first {}: complete disallow", fmt_secs(grace)),
        );
        return out;
    }
    match &s.cached {
        Some(c) => {
            let clause = if google { "G-CACHE-3" } else { "R2.4-3" };
            set(
                Policy::UseCache,
                clause,
                format!("the cached copy ({} old) is used", fmt_secs(c.age)),
            );
            out.body = Some(c.body.clone());
        }
        None if p.no_cache_allows => set(
            Policy::AllowAll,
            "G-STATUS-6",
            "no cached copy: no crawl restrictions".into(),
        ),
        None => set(
            Policy::DisallowAll,
            base,
            "no cached copy: complete disallow".into(),
        ),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(s: &Scenario, google: bool) -> Access {
        let p = if google {
            FetchProfile::google()
        } else {
            FetchProfile::rfc9309()
        };
        access(s, &p)
    }

    fn policy(s: &Scenario, google: bool) -> Policy {
        run(s, google).policy
    }

    #[test]
    fn statuses() {
        for (status, rfc, g) in [
            (200, Policy::ParseBody, Policy::ParseBody),
            (204, Policy::ParseBody, Policy::ParseBody),
            (404, Policy::AllowAll, Policy::AllowAll),
            (403, Policy::AllowAll, Policy::AllowAll),
            (429, Policy::AllowAll, Policy::DisallowAll),
            (503, Policy::DisallowAll, Policy::DisallowAll),
            (199, Policy::DisallowAll, Policy::DisallowAll),
            (301, Policy::DisallowAll, Policy::DisallowAll),
        ] {
            let s = Scenario::single(Answer::status(status));
            assert_eq!(policy(&s, false), rfc, "{status} rfc");
            assert_eq!(policy(&s, true), g, "{status} google");
        }
    }

    fn chain(hops: usize) -> Scenario {
        let mut s = Scenario::single(Answer::redirect(301, "/r1"));
        for i in 1..hops {
            s.routes.push(Route {
                url: format!("http://example.com/r{i}"),
                answer: Answer::redirect(302, &format!("/r{}", i + 1)),
            });
        }
        s.routes.push(Route {
            url: format!("http://example.com/r{hops}"),
            answer: Answer::ok(b"User-agent: *\nDisallow: /\n"),
        });
        s
    }

    #[test]
    fn redirects() {
        let a = run(&chain(5), false);
        assert_eq!(a.policy, Policy::ParseBody);
        assert_eq!(a.clause, "R2.3.1.2-3");
        assert_eq!(a.steps.len(), 6);
        let d = a.decide("x", "/p", &Profile::rfc9309()).unwrap();
        assert_eq!(d.verdict, Verdict::Disallowed);
        let a = run(&chain(6), true);
        assert_eq!((a.policy, a.clause), (Policy::AllowAll, "G-STATUS-2"));
        // A loop ends at the limit.
        let mut s = Scenario::single(Answer::redirect(301, "/b"));
        s.routes.push(Route {
            url: "http://example.com/b".into(),
            answer: Answer::redirect(301, "/robots.txt"),
        });
        assert_eq!(run(&s, false).steps.len(), 6);
    }

    #[test]
    fn outages() {
        let mut s = Scenario::single(Answer::status(500));
        s.unreachable_for = 13 * HOUR;
        assert_eq!(policy(&s, true), Policy::AllowAll);
        assert_eq!(policy(&s, false), Policy::DisallowAll);
        s.cached = Some(Cached {
            body: Arc::from(&b"User-agent: *\nDisallow: /a\n"[..]),
            age: 2 * DAY,
            cache_control: None,
        });
        assert_eq!(policy(&s, true), Policy::UseCache);
        assert_eq!(policy(&s, false), Policy::UseCache);
        s.unreachable_for = 31 * DAY;
        assert_eq!(policy(&s, true), Policy::AllowAll);
        s.site_available = false;
        assert_eq!(policy(&s, true), Policy::DisallowAll);
        s.unreachable_for = HOUR;
        assert_eq!(policy(&s, true), Policy::DisallowAll);
    }

    #[test]
    fn caching_and_max_age() {
        let mut s = Scenario::single(Answer::ok(b""));
        let cached = |age, cc: Option<&str>| Cached {
            body: Arc::from(&b""[..]),
            age,
            cache_control: cc.map(str::to_string),
        };
        s.cached = Some(cached(23 * HOUR, None));
        assert_eq!(policy(&s, false), Policy::UseCache);
        s.cached = Some(cached(DAY + 1, None));
        assert_eq!(policy(&s, false), Policy::ParseBody);
        s.cached = Some(cached(2 * HOUR, Some("max-age=3600")));
        assert_eq!(policy(&s, true), Policy::ParseBody);
        s.cached = Some(cached(30 * HOUR, Some("public, max-age=172800")));
        assert_eq!(policy(&s, true), Policy::UseCache);
        assert_eq!(policy(&s, false), Policy::ParseBody);
        s.cached = Some(cached(1, Some("no-store")));
        assert_eq!(policy(&s, true), Policy::ParseBody);
        s.cached = Some(cached(1, Some("max-age=99999999999999999999999")));
        assert_eq!(policy(&s, true), Policy::UseCache);
    }

    #[test]
    fn body_limit_cuts() {
        let mut body = b"User-agent: *\n".to_vec();
        body.resize(FIVE_HUNDRED_KIB + 10, b'#');
        body.extend_from_slice(b"\nDisallow: /late\n");
        let a = run(&Scenario::single(Answer::ok(&body)), true);
        assert_eq!(a.body.as_ref().map(|b| b.len()), Some(FIVE_HUNDRED_KIB));
        assert_eq!(a.cut_from, Some(body.len()));
        let d = a.decide("x", "/late", &Profile::google()).unwrap();
        assert_eq!(d.verdict, Verdict::Allowed);
    }

    #[test]
    fn hosts_and_unknown_routes() {
        let mut s = Scenario::single(Answer::redirect(
            301,
            "http://other.example:8080/robots.txt",
        ));
        s.routes.push(Route {
            url: "http://other.example:8080/robots.txt".into(),
            answer: Answer::ok(b"User-agent: *\nDisallow: /\n"),
        });
        assert_eq!(
            s.hosts(),
            ["http://example.com", "http://other.example:8080"]
        );
        assert_eq!(s.answer("http://example.com/nope"), Answer::status(404));
        assert_eq!(policy(&s, false), Policy::ParseBody);
    }
}
