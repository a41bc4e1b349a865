//! The access policy (§2.3.1, §2.4): from a [`Scenario`] and a
//! [`FetchProfile`] to what the crawler does ([`Policy`]), the clause that
//! decided it and the trace ([`Access`]); then the verdict for one URL
//! ([`Access::decide`]).
//!
//! It reads the profile's fields only, never its name. Pure: no I/O, no
//! clock; linear in the scenario (at most `max_redirects + 1` requests).

use std::fmt;
use std::sync::Arc;

use super::content_coding;
use super::profile::FetchProfile;
use super::scenario::{Answer, Scenario};
use super::{DAY, HOUR};
use crate::explain::{Decision, Verdict};
use crate::parse::RobotsTxt;
use crate::profile::Profile;
use crate::target::Error;

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
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
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
    /// The fetched body's full length when it was cut. A content-coded
    /// body is decoded only one byte past the limit (a small gzip body
    /// can expand without bound), so for it this is the limit + 1: "more
    /// than the limit".
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
    let pick = |rfc, google| p.cites.pick(rfc, google);
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
                // The limit counts the file, i.e. the decoded bytes
                // (content_coding); decoding reads one byte past it to
                // know that there was more.
                let decoded = match content_coding::decode(
                    r.header("content-encoding"),
                    &r.body,
                    p.body_limit,
                ) {
                    Ok(d) => d,
                    Err(e) => {
                        let failure = Unreachable {
                            clause_rfc: "R2.3.1.4-1",
                            clause_google: "G-STATUS-7",
                            what: format!("an invalid response ({e})"),
                        };
                        return unreachable(scenario, p, failure, out);
                    }
                };
                if decoded.capped {
                    out.cut_from = Some(match decoded.undone.is_empty() {
                        true => r.body.len(),
                        false => p.body_limit.saturating_add(1),
                    });
                }
                out.body = Some(Arc::from(decoded.bytes));
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
                if !decoded.undone.is_empty() {
                    out.reason.push_str(&format!(
                        "; Content-Encoding {} decoded",
                        decoded.undone.join(", ")
                    ));
                }
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
            401 | 403 if p.auth_errors_disallow_all => {
                out.policy = Policy::DisallowAll;
                out.clause = pick("R2.3.1.3-2", "G-STATUS-4");
                out.reason = format!(
                    "{}: access to the file is refused, read as disallow all",
                    r.status
                );
                return out;
            }
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
    let t = s.unreachable_for;
    let base = p.cites.pick(why.clause_rfc, why.clause_google);
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
            let clause = p.cites.pick("R2.4-3", "G-CACHE-3");
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
