//! [`FetchProfile`]: the fetch-level switches where readings of RFC 9309
//! §2.3–§2.5 differ, each a field named after what it changes, with its
//! clause, its evidence and its value in each built-in profile.
//!
//! Data only (and the cache-lifetime arithmetic those fields define): this
//! module never fetches and never decides an access policy. No behaviour
//! may be keyed on [`FetchProfile::name`]; a difference between readings
//! is a field.

use super::access::Policy;
use super::cache_control::{CacheControl, parse_cache_control};
use super::scenario::Cached;
use super::{DAY, HOUR};
use crate::profile::FIVE_HUNDRED_KIB;

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

/// Which document's clause ids an [`Access`](super::Access) cites as the
/// evidence for its policy, where both documents rule the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Citation {
    /// RFC 9309's clause ids (`R2.3.1.4-1`, `R2.4-3`, ...).
    Rfc9309,
    /// The ids of Google's documentation (`G-STATUS-6`, `G-CACHE-3`, ...).
    Google,
}

/// The fetch-level switches where readings differ. Built-in bundles:
/// [`FetchProfile::rfc9309`] and [`FetchProfile::google`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct FetchProfile {
    /// The profile's name (`rfc9309`, `google`), for reports only: no
    /// behaviour depends on it.
    pub name: &'static str,

    /// Which clause ids [`Access::clause`](super::Access::clause) cites:
    /// RFC 9309's (`R2.3.1.3-2` for a 404) or Google's documentation's
    /// (`G-STATUS-4`). It changes the citation only, never the policy:
    /// where the readings rule differently a switch below says so, and
    /// phases only Google has (`long_outage`, `no_cache_allows`) always
    /// cite G-STATUS-6. Evidence: each outcome is stated by both documents
    /// (spec-cases/PROFILES.md); a case written under a profile cites that
    /// profile's document. Default: rfc9309 = Rfc9309; google = Google.
    pub cites: Citation,

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

    /// A `401` or `403` (access to the file refused) means disallow all,
    /// not "unavailable". R2.3.1.3-2 says a crawler MAY access any
    /// resource when the file is unavailable (4xx), and a crawler that
    /// does not is within that permission, so this is a reading the text
    /// allows. Evidence: the 1994 convention that `urllib.robotparser`
    /// keeps (`RobotFileParser.read`: `if err.code in (401, 403):
    /// self.disallow_all = True`). Default: rfc9309 = false;
    /// google = false.
    pub auth_errors_disallow_all: bool,

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
            cites: Citation::Rfc9309,
            max_redirects: 5,
            too_many_redirects: Policy::AllowAll,
            status_429_unreachable: false,
            cache_lifetime: DAY,
            max_age: MaxAge::Shorten,
            outage_grace: None,
            long_outage: None,
            no_cache_allows: false,
            auth_errors_disallow_all: false,
            body_limit: FIVE_HUNDRED_KIB,
        }
    }

    /// Google's documented behaviour.
    pub fn google() -> FetchProfile {
        FetchProfile {
            name: "google",
            cites: Citation::Google,
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

impl Citation {
    /// `rfc` when citing RFC 9309, else `google`.
    pub fn pick(
        self,
        rfc: &'static str,
        google: &'static str,
    ) -> &'static str {
        match self {
            Citation::Rfc9309 => rfc,
            Citation::Google => google,
        }
    }
}

impl Default for FetchProfile {
    fn default() -> FetchProfile {
        FetchProfile::rfc9309()
    }
}
