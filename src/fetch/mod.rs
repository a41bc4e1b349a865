//! Access results (§2.3.1), caching (§2.4) and the location of the file
//! (§2.3): from what a fetch of robots.txt returned to what the crawler
//! may do. Pure: no I/O, no clock; never panics.
//!
//! The input is a [`Scenario`]: how a site answers GET requests (a route
//! table of [`Answer`]s: a response with status, headers and body, or a
//! [`NetworkError`]), plus the crawler's state (a [`Cached`] copy and its
//! age, how long the file has been unreachable, whether the site is
//! otherwise up). [`access`](fn@access) follows the redirects and returns an
//! [`Access`]: the [`Policy`] (use the fetched rules, allow all, disallow
//! all, use the cached copy), the clause that decided it, and the trace.
//! [`Access::decide`] then answers for one URL. The readings that differ
//! are the switches of a [`FetchProfile`]: [`FetchProfile::rfc9309`] and
//! [`FetchProfile::google`].
//!
//! | module | holds |
//! |---|---|
//! | `scenario` | the world model: [`Scenario`], [`Route`], [`Answer`], [`Response`], [`NetworkError`], [`Cached`], the redirect walk ([`Fetched`]) |
//! | `profile` | [`FetchProfile`] and its switches ([`MaxAge`], [`Citation`]) |
//! | `cache_control` | the `Cache-Control` directives caching consults |
//! | `content_coding` | `Content-Encoding` (gzip, deflate): the file a 2xx body represents, decoded with a cap |
//! | `switches` | [`fetch_switches`]: each field's values as single changes, for a search over readings |
//! | `access` | the access policy: [`access`](fn@access), [`Access`], [`Policy`], [`Access::decide`] |
//! | `location` | §2.3: where the file lives and which URLs it governs |
//! | `punycode` | IDNA host names, for `location` |
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
//! | §2.3.1.3 R2.3.1.3-2 | the MAY not taken for 401 and 403: disallow all (the 1994 convention, `urllib.robotparser`) | [`FetchProfile::auth_errors_disallow_all`] |
//! | G-STATUS-5 | 429 is a server error for Google | [`FetchProfile::status_429_unreachable`] |
//! | §2.3.1.4 R2.3.1.4-1; G-STATUS-6, G-STATUS-7 | 5xx and network errors: complete disallow | [`Policy::DisallowAll`] |
//! | §2.3.1.4 R2.3.1.4-2; G-STATUS-6 | a long outage: MAY treat as unavailable or keep a cached copy (Google: 12 h, 30 days) | [`FetchProfile::outage_grace`], [`FetchProfile::long_outage`] |
//! | §2.4 R2.4-1..3; G-CACHE-1..6 | cache for up to 24 h, longer when unreachable; `Cache-Control: max-age` | [`FetchProfile::cache_lifetime`], [`FetchProfile::max_age`] |
//! | §2.5 R2.5-2; G-FMT-7 | content past 500 KiB is ignored, counted after the content coding is undone | [`FetchProfile::body_limit`] |
//! | S-CONTENT-CODING | a `Content-Encoding` the model cannot undo (unknown, corrupt): an invalid response, as a network error | `content_coding` |
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

mod access;
mod cache_control;
mod content_coding;
mod location;
mod profile;
mod punycode;
mod scenario;
mod switches;

pub use access::{Access, FetchDecision, Policy, Step, access};
pub use location::{governs, origin, resolve};
pub use profile::{Citation, FetchProfile, MaxAge};
pub use scenario::{
    Answer, Cached, DEFAULT_START, Fetched, NetworkError, Response, Route,
    Scenario,
};
pub use switches::{FetchSwitch, fetch_switches};

/// One minute, in seconds.
pub const MINUTE: u64 = 60;
/// One hour, in seconds.
pub const HOUR: u64 = 60 * MINUTE;
/// One day, in seconds.
pub const DAY: u64 = 24 * HOUR;

#[cfg(test)]
mod tests;
