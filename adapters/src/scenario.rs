//! The fetch-scenario vocabulary of the protocol: how a site answers GET
//! requests for robots.txt (a route table of [`Answer`]s) and the
//! crawler's state (a [`Cached`] copy, an outage clock).
//!
//! These are the types a case describes, the fixture server serves and a
//! `fetch` request carries. They have the same names and fields as the
//! oracle's (`robots_oracle::fetch`), but they are the *question*, not the
//! model: this module never decides anything, never computes an access
//! policy and never calls the oracle's fetch model. Only the reference
//! adapter (`reference.rs`) converts a scenario into the oracle's, so the
//! runner, the fixture and every other adapter reach the oracle only
//! through the [`Adapter`](crate::Adapter) trait.
//!
//! Two helpers read URLs the way every tool must agree on: [`origin`] (the
//! oracle's definition of an origin, §2.3, so that a case, the fixture
//! and the reference agree on which authority is which) and [`resolve`]
//! (a redirect's `Location` against the URL that sent it, RFC 3986 §5,
//! the oracle's resolution, so the fixture follows redirects where the
//! oracle's walk does).

use std::fmt;
use std::sync::Arc;

/// One minute, in seconds.
pub const MINUTE: u64 = 60;
/// One hour, in seconds.
pub const HOUR: u64 = 60 * MINUTE;
/// One day, in seconds.
pub const DAY: u64 = 24 * HOUR;

/// Where a scenario's fetch starts unless it says otherwise.
pub const DEFAULT_START: &str = "http://example.com/robots.txt";

/// The comparable origin of an absolute URL, `scheme://host[:port]`
/// (lower-cased, IDN labels in Punycode, userinfo and a default port
/// dropped), or `None` when `url` is not absolute or has no host.
///
/// This is the oracle's own definition (`robots_oracle::fetch::origin`,
/// §2.3 and G-LOC-1..8), re-exported rather than rewritten: which
/// authority a route belongs to must mean the same thing to the case
/// model, the fixture server and the reference.
pub fn origin(url: &str) -> Option<String> {
    robots_oracle::fetch::origin(url)
}

/// `location` (a redirect target) resolved against `base`, the URL that
/// answered with it (RFC 3986 §5): the oracle's own resolution, so that
/// the fixture's hosts follow a redirect exactly where the oracle's fetch
/// walk does. A `location` that is already absolute is returned as
/// written (trimmed); one that cannot be resolved too.
pub fn resolve(base: &str, location: &str) -> String {
    robots_oracle::fetch::resolve(base, location)
}

/// The path and query of an absolute URL, as written (fragment dropped).
fn path_and_query(url: &str) -> Option<&str> {
    let url = url.split('#').next().unwrap_or_default();
    let rest = &url[url.find("://")? + 3..];
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    Some(&rest[end..])
}

/// Two URLs name the same resource: same origin, same path and query.
fn same_url(a: &str, b: &str) -> bool {
    origin(a).is_some()
        && origin(a) == origin(b)
        && path_and_query(a) == path_and_query(b)
}

/// A way a request can fail without an HTTP response (G-STATUS-7: "DNS
/// or networking issues, such as timeouts, invalid responses, reset or
/// interrupted connections, and HTTP chunking errors").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    /// live server honours it; a model ignores it.
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

    /// The redirect target, when this is a 3xx with a `Location`.
    pub fn location(&self) -> Option<&str> {
        match self {
            Answer::Response(r) if (300..=399).contains(&r.status) => {
                r.header("location")
            }
            _ => None,
        }
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

/// A site and the crawler's state.
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
    /// The rest of the site is up (G-STATUS-6).
    pub site_available: bool,
}

impl Scenario {
    /// Whether a live server answers some route after a delay
    /// ([`Response::delay_ms`]): a client's answer to such a scenario can
    /// depend on how busy the machine is (its own timeout racing the
    /// delay). Every other scenario is served the same bytes at once, or
    /// never (a [`NetworkError::Timeout`] route never answers).
    pub fn delays_answers(&self) -> bool {
        self.routes.iter().any(|r| {
            matches!(&r.answer, Answer::Response(resp) if resp.delay_ms > 0)
        })
    }

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

    /// The hosts (origins) the scenario names, the start's first: the
    /// start, every route, every redirect target.
    pub fn hosts(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let urls = std::iter::once(self.start.clone())
            .chain(self.routes.iter().map(|r| r.url.clone()))
            .chain(self.routes.iter().filter_map(|r| match &r.answer {
                Answer::Response(resp) => {
                    resp.header("location").map(|l| resolve(&r.url, l))
                }
                Answer::Network(_) => None,
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

/// The access policy a model reports for a scenario (`fetch-policy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolving_locations() {
        let base = "http://a.example/dir/robots.txt?x";
        assert_eq!(resolve(base, "/r"), "http://a.example/r");
        assert_eq!(resolve(base, "r2"), "http://a.example/dir/r2");
        assert_eq!(resolve(base, "//b.example/r"), "http://b.example/r");
        assert_eq!(resolve(base, " https://c/r "), "https://c/r");
    }

    #[test]
    fn unlisted_urls_answer_404_and_hosts_follow_redirects() {
        let mut s = Scenario::single(Answer::redirect(
            301,
            "http://127.0.0.1:9/robots.txt",
        ));
        s.routes.push(Route {
            url: "HTTP://Example.COM:80/other".into(),
            answer: Answer::status(500),
        });
        assert_eq!(s.answer("http://example.com/other"), Answer::status(500));
        assert_eq!(s.answer("http://example.com/nope"), Answer::status(404));
        assert_eq!(s.hosts(), ["http://example.com", "http://127.0.0.1:9"]);
    }

    #[test]
    fn names_round_trip() {
        for e in NetworkError::ALL {
            assert_eq!(NetworkError::from_name(e.as_str()), Some(e));
        }
        for p in Policy::ALL {
            assert_eq!(Policy::from_name(&p.to_string()), Some(p));
        }
    }
}
