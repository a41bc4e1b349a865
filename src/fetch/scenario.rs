//! The world a fetch happens in: how a site answers GET requests (a route
//! table of [`Answer`]s, each a [`Response`] or a [`NetworkError`]) and the
//! crawler's state (a [`Cached`] copy, how long the file has been
//! unreachable, whether the rest of the site is up), plus the redirect walk
//! over it ([`Scenario::fetch`]).
//!
//! Data and a pure walk only: this module never decides what the crawler
//! may do (that is `access`), never reads a clock and never does I/O.
//! [`Scenario::fetch`] stops at the redirect limit, so it ends on any
//! route table, loops included.

use std::sync::Arc;

use super::location::{self, origin};

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

/// A site and the crawler's state: everything [`access`](fn@super::access) needs.
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
