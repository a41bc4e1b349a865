//! The fetch-level switches as single changes: every value a field of
//! [`FetchProfile`] takes in some reading, so that a tool can toggle one
//! at a time (the fingerprint search does) the way
//! [`switches`](crate::switches) does for the rule-level [`Profile`](crate::Profile).
//!
//! Data only: it never fetches or decides. [`FetchProfile::cites`] has no
//! switch, because it changes citations, never a decision.

use super::access::Policy;
use super::profile::{FetchProfile, MaxAge};
use super::{DAY, HOUR};
use crate::profile::FIVE_HUNDRED_KIB;

/// One way of changing one fetch-level behaviour.
#[derive(Clone, Copy, Debug)]
pub struct FetchSwitch {
    /// `field=value`, e.g. `status_429_unreachable=true`.
    pub name: &'static str,
    /// The clause ids the behaviour concerns.
    pub clauses: &'static [&'static str],
    /// Applies the change.
    pub apply: fn(&mut FetchProfile),
}

impl FetchSwitch {
    /// The profile with this switch applied.
    pub fn applied_to(&self, p: &FetchProfile) -> FetchProfile {
        let mut q = p.clone();
        (self.apply)(&mut q);
        q
    }

    /// Whether applying it to `p` changes anything.
    pub fn changes(&self, p: &FetchProfile) -> bool {
        self.applied_to(p) != *p
    }
}

/// Switches are the same when their names are.
impl PartialEq for FetchSwitch {
    fn eq(&self, other: &FetchSwitch) -> bool {
        self.name == other.name
    }
}

impl Eq for FetchSwitch {}

/// Every single-behaviour change of a [`FetchProfile`], each as the value
/// a field takes in another reading (or in a common implementation).
pub fn fetch_switches() -> &'static [FetchSwitch] {
    macro_rules! fsw {
        ($name:literal, [$($c:literal),*], |$p:ident| $body:expr) => {
            FetchSwitch { name: $name, clauses: &[$($c),*], apply: |$p: &mut FetchProfile| { $body; } }
        };
    }
    const ALL: &[FetchSwitch] = &[
        fsw!(
            "status_429_unreachable=true",
            ["R2.3.1.3-1", "G-STATUS-5"],
            |p| p.status_429_unreachable = true
        ),
        fsw!(
            "status_429_unreachable=false",
            ["R2.3.1.3-1", "G-STATUS-5"],
            |p| p.status_429_unreachable = false
        ),
        fsw!("auth_errors_disallow_all=true", ["R2.3.1.3-2"], |p| p
            .auth_errors_disallow_all =
            true),
        fsw!("auth_errors_disallow_all=false", ["R2.3.1.3-2"], |p| p
            .auth_errors_disallow_all =
            false),
        fsw!("max_redirects=0", ["R2.3.1.2-2"], |p| p.max_redirects = 0),
        fsw!("max_redirects=5", ["R2.3.1.2-2"], |p| p.max_redirects = 5),
        fsw!("max_redirects=10", ["R2.3.1.2-2"], |p| p.max_redirects = 10),
        fsw!(
            "too_many_redirects=allow-all",
            ["R2.3.1.2-4", "G-STATUS-2"],
            |p| p.too_many_redirects = Policy::AllowAll
        ),
        fsw!("too_many_redirects=disallow-all", ["R2.3.1.2-4"], |p| p
            .too_many_redirects =
            Policy::DisallowAll),
        fsw!("max_age=ignore", ["R2.4-2"], |p| p.max_age = MaxAge::Ignore),
        fsw!("max_age=shorten", ["R2.4-2", "R2.4-3"], |p| p.max_age =
            MaxAge::Shorten),
        fsw!("max_age=replace", ["G-CACHE-4", "G-CACHE-5"], |p| p.max_age =
            MaxAge::Replace),
        fsw!("outage_grace=none", ["R2.4-3"], |p| p.outage_grace = None),
        fsw!("outage_grace=12h", ["G-STATUS-6"], |p| p.outage_grace =
            Some(12 * HOUR)),
        fsw!("long_outage=none", ["R2.3.1.4-2"], |p| p.long_outage = None),
        fsw!("long_outage=30d", ["R2.3.1.4-2", "G-STATUS-6"], |p| p
            .long_outage =
            Some(30 * DAY)),
        fsw!("no_cache_allows=true", ["G-STATUS-6"], |p| p.no_cache_allows =
            true),
        fsw!("no_cache_allows=false", ["R2.3.1.4-1"], |p| p.no_cache_allows =
            false),
        fsw!("body_limit=500KiB", ["R2.5-2", "G-FMT-7"], |p| p.body_limit =
            FIVE_HUNDRED_KIB),
        fsw!("body_limit=unlimited", ["R2.5-2"], |p| p.body_limit =
            usize::MAX),
    ];
    ALL
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_each_switch_changes_some_built_in_profile() {
        let all = fetch_switches();
        for (i, s) in all.iter().enumerate() {
            assert!(
                all[i + 1..].iter().all(|t| t.name != s.name),
                "{} twice",
                s.name
            );
            let moved = [FetchProfile::rfc9309(), FetchProfile::google()]
                .iter()
                .any(|p| s.changes(p));
            // A value both built-ins hold still changes a profile that
            // was moved away from it.
            let mut away = FetchProfile::rfc9309();
            for t in all.iter().filter(|t| t.name != s.name) {
                if t.name.split('=').next() == s.name.split('=').next()
                    && t.changes(&away)
                {
                    away = t.applied_to(&away);
                    break;
                }
            }
            assert!(moved || s.changes(&away), "{} changes nothing", s.name);
        }
    }

    #[test]
    fn applying_a_switch_twice_is_applying_it_once() {
        for s in fetch_switches() {
            let once = s.applied_to(&FetchProfile::google());
            assert_eq!(s.applied_to(&once), once, "{}", s.name);
            assert!(!s.changes(&once), "{}", s.name);
        }
    }
}
