//! A check's `readings`, asked of the oracle: under each named reading (a
//! switch of `switches()` applied to a built-in profile), the plain
//! reading (`decide_linear`), the indexed path (`decide_indexed`) and the
//! public adaptive path (`decide`, asked five times, so that it answers
//! from the index it builds), the verdict-only path (`is_allowed`, five
//! times too: its early exit for long URLs probes built indexes only) and
//! the one-pass check (`check_once`) must all give the verdict the case
//! states.
//!
//! The readings are what `fingerprint`, `bugs`, `lint` and the
//! differential fuzzer name parsers by; the two built-in profiles leave
//! most switches off, so without a stated answer under the switch, code
//! that only a switched reading runs would be held by nothing (a wrong
//! `tie_goes_to_allow=false` would still be wrong for every fit that
//! names it). A reading names a switch that exists and that changes its
//! base profile, or the check fails.
//!
//! A fetch check's readings name a fetch-level switch (`fetch_switches()`:
//! `auth_errors_disallow_all=true`, `status_429_unreachable=true`, …)
//! applied to the base profile's fetch rules, or a rule-level one applied
//! to its parse; the oracle answers the fetch under that reading. A fetch
//! switch must change its base and leave the switched profile as it is
//! when applied again (what the fingerprint's search relies on when it
//! asks `changes`).
//!
//! A usage or content-signal check's readings name a switch of
//! `usage_switches()` (`content_signal_scope=file`,
//! `aipref+usage_vocabulary=vocab-06`, …): the oracle under that reading
//! is judged by the runner, as any parser is, against the answer stated.
//!
//! The switch a reading names must also equal itself alone among its
//! kind's switches: equality by name is the library's promise to users
//! who keep sets of readings (no answer goes through it, so only a judge
//! of what the library hands out can hold it).

use std::collections::BTreeMap;

use robots_adapters::reference::Reference;
use robots_adapters::{Adapter, Reply, Request};
use robots_oracle::fetch::{FetchProfile, fetch_switches};
use robots_oracle::{Profile, RobotsTxt, Verdict, switches, usage_switches};
use robots_runner::case::{Case, Check, Expected};
use robots_runner::run::{Outcome, run_cases};

/// The verdict a reading states, or why it states none.
fn wanted(name: &str, want: &Expected) -> Result<Verdict, String> {
    match want {
        Expected::Allowed => Ok(Verdict::Allowed),
        Expected::Disallowed => Ok(Verdict::Disallowed),
        other => Err(format!("reading {name}: {}", other.describe())),
    }
}

/// Why the switch the reading `name` names is not, by `==`, the one
/// switch of `all` it is, if it is not.
fn unequal<T: PartialEq>(name: &str, all: &[T], s: &T) -> Option<String> {
    (all.iter().filter(|o| *o == s).count() != 1).then(|| {
        format!("reading {name}: the switch does not equal itself alone by ==")
    })
}

/// What departs from a fetch check's stated readings, one line each.
pub fn fetch_readings_differ(check: &Check, fetch: &Request) -> Vec<String> {
    let mut out = Vec::new();
    for (name, want) in &check.readings {
        let (base, switch) = name.split_once('+').unwrap_or(("rfc9309", name));
        let Some(profile) = Profile::by_name(base) else {
            out.push(format!("reading {name}: no profile {base:?}"));
            continue;
        };
        // The fetch rules the oracle has under that profile, found by its
        // name (`aipref` has none of its own: it fetches as `rfc9309`).
        let rules = match FetchProfile::by_name(base) {
            Some(r) if r.name == base => r,
            None if base == "aipref" => FetchProfile::default(),
            _ => {
                out.push(format!(
                    "reading {name}: FetchProfile::by_name({base:?}) is not \
                     {base}'s fetch profile"
                ));
                continue;
            }
        };
        let mut oracle = if let Some(s) =
            fetch_switches().iter().find(|s| s.name == switch)
        {
            if let Some(e) = unequal(name, fetch_switches(), s) {
                out.push(e);
                continue;
            }
            let switched = s.applied_to(&rules);
            if !s.changes(&rules) || switched == rules {
                out.push(format!(
                    "reading {name}: the switch leaves {base}'s fetch rules as they are"
                ));
                continue;
            }
            if s.changes(&switched) {
                out.push(format!(
                    "reading {name}: the switch says it changes the profile it \
                     already made"
                ));
                continue;
            }
            Reference::with_fetch_profile(profile, switched)
        } else if let Some(s) = switches().iter().find(|s| s.name == switch) {
            if let Some(e) = unequal(name, switches(), s) {
                out.push(e);
                continue;
            }
            let switched = s.applied_to(&profile);
            if switched == profile {
                out.push(format!(
                    "reading {name}: the switch leaves {base} as it is"
                ));
                continue;
            }
            Reference::with_fetch_profile(switched, rules)
        } else {
            out.push(format!("reading {name}: no switch {switch:?}"));
            continue;
        };
        let Ok(want) = wanted(name, want).map_err(|e| out.push(e)) else {
            continue;
        };
        match oracle.answer(fetch) {
            Reply::Verdict { verdict, .. } if verdict == want => {}
            other => out.push(format!(
                "reading {name}: want {}, the oracle answers {}",
                want.as_str(),
                other.word()
            )),
        }
    }
    out
}

/// What departs from the check's stated readings, one line each.
pub fn readings_differ(
    check: &Check,
    body: &[u8],
    agent: &str,
    url: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    for (name, want) in &check.readings {
        let (base, switch) = name.split_once('+').unwrap_or(("rfc9309", name));
        let Some(base) = Profile::by_name(base) else {
            out.push(format!("reading {name}: no profile {base:?}"));
            continue;
        };
        let Some(s) = switches().iter().find(|s| s.name == switch) else {
            out.push(format!("reading {name}: no switch {switch:?}"));
            continue;
        };
        if let Some(e) = unequal(name, switches(), s) {
            out.push(e);
            continue;
        }
        let p = s.applied_to(&base);
        if p == base {
            out.push(format!(
                "reading {name}: the switch leaves {} as it is",
                base.name
            ));
            continue;
        }
        let Ok(want) = wanted(name, want).map_err(|e| out.push(e)) else {
            continue;
        };
        let robots = RobotsTxt::parse(body, &p);
        let plain = robots.decide_linear(agent, url).map(|d| d.verdict);
        let indexed = robots.decide_indexed(agent, url).map(|d| d.verdict);
        // Asked again, the adaptive path builds a group's index on its
        // fourth consultation and answers from it.
        let fast: Vec<_> = (0..5)
            .map(|_| robots.decide(agent, url).map(|d| d.verdict))
            .collect();
        // `is_allowed` takes the verdict-only path (the early exit for
        // long URLs, once the index is built); `check_once` matches rules
        // as the file is read.
        let quick: Vec<bool> =
            (0..5).map(|_| robots.is_allowed(agent, url)).collect();
        let once = RobotsTxt::check_once(body, &p, agent, url);
        let allowed = want == Verdict::Allowed;
        let right = |v: &Result<Verdict, _>| v.as_ref().ok() == Some(&want);
        if !right(&plain)
            || !right(&indexed)
            || !fast.iter().all(right)
            || quick.iter().any(|&q| q != allowed)
            || once != allowed
        {
            out.push(format!(
                "reading {name}: want {}, the plain reading gives {plain:?}, \
                 the indexed path {indexed:?}, the adaptive path {fast:?}, \
                 is_allowed {quick:?}, check_once {once}",
                want.as_str()
            ));
        }
    }
    out
}

/// What departs from a usage or content-signal check's stated readings,
/// one line each: the oracle under each named usage reading, judged by
/// the runner against the answer the reading states.
pub fn usage_readings_differ(case: &Case, check: &Check) -> Vec<String> {
    let mut out = Vec::new();
    for (name, want) in &check.readings {
        let (base, switch) = name.split_once('+').unwrap_or(("rfc9309", name));
        let Some(profile) = Profile::by_name(base) else {
            out.push(format!("reading {name}: no profile {base:?}"));
            continue;
        };
        let Some(s) = usage_switches().iter().find(|s| s.name == switch)
        else {
            out.push(format!("reading {name}: no usage switch {switch:?}"));
            continue;
        };
        if let Some(e) = unequal(name, usage_switches(), s) {
            out.push(e);
            continue;
        }
        let switched = s.applied_to(&profile);
        if !s.changes(&profile) || switched == profile {
            out.push(format!(
                "reading {name}: the switch leaves {base} as it is"
            ));
            continue;
        }
        let rules = FetchProfile::by_name(base).unwrap_or_default();
        let mut oracle = Reference::with_fetch_profile(switched, rules);
        let mut stated = check.clone();
        stated.expect = BTreeMap::from([(base.to_string(), want.clone())]);
        stated.readings.clear();
        for r in run_cases(&mut oracle, base, [(case, vec![&stated])]) {
            if r.outcome != Outcome::Pass {
                out.push(format!(
                    "reading {name}: {:?} (the oracle answers {}): {}",
                    r.outcome,
                    r.reply.word(),
                    r.detail,
                ));
            }
        }
    }
    out
}
