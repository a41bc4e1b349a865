//! One [`Case`] from one `[[case]]` table, in named steps: its identity
//! (id, clauses, source), its body and fetch scenario, then each kind of
//! check, each holding the [`Request`] it asks.
//!
//! Structural rules only (what a well-formed case is); it never reads a
//! file and never knows what the right answer to a check is.

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

use robots_adapters::Request;

use super::body::body_of;
use super::error::{At, CaseErrorKind};
use super::expect::{Vocabulary, expectation, is_open, same_for_all};
use super::fetch::{Scenario, scenario_of};
use super::model::{
    Case, Check, Expected, PROFILES, Phrase, REASONS, SOURCES,
};
use super::schema::{CaseToml, CheckToml, ExpectToml, PhrasesToml};
use super::url::{absolute, is_case_url};

/// What a case file must agree with: the known clause ids.
pub struct Known<'a> {
    /// Clause ids from `clauses.toml`; `None` when the index could not be
    /// loaded, so that its one error is not repeated for every case.
    pub clauses: Option<&'a HashSet<String>>,
}

/// Where a case goes: its name prefix and default category.
pub(super) struct Place<'a> {
    /// `<folder>::<stem>`.
    pub prefix: &'a str,
    /// The category of a case that names none (its folder).
    pub category: &'a str,
}

/// Builds one case (its `file` and `line` are the caller's to set).
pub(super) fn build_case(
    c: &CaseToml,
    place: &Place<'_>,
    known: &Known<'_>,
) -> Result<Case, CaseErrorKind> {
    check_id(&c.id)?;
    check_clauses(&c.clauses, known)?;
    let source = source_of(c)?;
    let robots: Arc<[u8]> = body_of(c)?.into();
    let fetch = match &c.fetch {
        Some(f) => Some(Arc::new(scenario_of(f, &robots)?)),
        None => None,
    };
    if c.policy.is_some() && fetch.is_none() {
        return Err(CaseErrorKind::PolicyWithoutFetch);
    }
    let name = format!("{}::{}", place.prefix, c.id);
    let mut checks = Vec::new();
    for (i, ch) in c.check.iter().enumerate() {
        checks.push(verdict_check(c, ch, i + 1, &name, &robots, &fetch)?);
    }
    checks.extend(value_checks(c, &name, &robots)?);
    if let (Some(scenario), Some(policy)) = (&fetch, &c.policy) {
        checks.push(policy_check(c, policy, &name, scenario)?);
    }
    checks.extend(governs_checks(c, &name)?);
    checks.extend(usage_checks(c, &name, &robots)?);
    checks.extend(signal_checks(c, &name, &robots)?);
    if checks.is_empty() {
        return Err(CaseErrorKind::NoChecks);
    }
    Ok(Case {
        file: PathBuf::new(),
        line: 0,
        name,
        id: c.id.clone(),
        clauses: c.clauses.clone(),
        source,
        categories: c
            .categories
            .clone()
            .unwrap_or_else(|| vec![place.category.to_string()]),
        note: c.note.clone(),
        robots,
        fetch,
        checks,
        ignore: c.ignore.clone(),
    })
}

fn check_id(id: &str) -> Result<(), CaseErrorKind> {
    let kebab = !id.is_empty()
        && id.bytes().all(|b| {
            b.is_ascii_lowercase()
                || b.is_ascii_digit()
                || b == b'-'
                || b == b'.'
        })
        && !id.starts_with('-')
        && !id.ends_with('-');
    if kebab { Ok(()) } else { Err(CaseErrorKind::BadId) }
}

fn check_clauses(
    clauses: &[String],
    known: &Known<'_>,
) -> Result<(), CaseErrorKind> {
    if clauses.is_empty() {
        return Err(CaseErrorKind::NoClause);
    }
    let Some(index) = known.clauses else { return Ok(()) };
    let unknown: Vec<String> =
        clauses.iter().filter(|id| !index.contains(*id)).cloned().collect();
    if unknown.is_empty() {
        Ok(())
    } else {
        Err(CaseErrorKind::UnknownClauses(unknown))
    }
}

fn source_of(c: &CaseToml) -> Result<String, CaseErrorKind> {
    let source = c.source.clone().ok_or(CaseErrorKind::NoSource)?;
    if SOURCES.contains(&source.as_str()) {
        Ok(source)
    } else {
        Err(CaseErrorKind::BadSource(source))
    }
}

/// The check of one `check` entry: a decide question, or in a fetch case
/// a fetch question.
fn verdict_check(
    c: &CaseToml,
    ch: &CheckToml,
    n: usize,
    name: &str,
    robots: &Arc<[u8]>,
    fetch: &Option<Arc<Scenario>>,
) -> Result<Check, CaseErrorKind> {
    let at = At::Check(n);
    // A library-shaped URL (empty, `?q`, `#f`) is asked only of parsers
    // that say they take it (`Capabilities::library_urls`); the others
    // are recorded not applicable.
    let library = robots_adapters::wire::is_library_url(&ch.url);
    if !is_case_url(&ch.url) && (!library || fetch.is_some()) {
        return Err(CaseErrorKind::BadUrl { at, url: ch.url.clone() });
    }
    let expect = expectation(&ch.expect, Vocabulary::Verdict)
        .map_err(|error| CaseErrorKind::Expect { at: at.clone(), error })?;
    let why = ch.why.clone().or_else(|| c.why.clone());
    if is_open(&expect) && why.is_none() {
        return Err(CaseErrorKind::NeedsWhy(at));
    }
    if let Some(r) = &ch.reason
        && !REASONS.contains(&r.as_str())
    {
        return Err(CaseErrorKind::BadReason { at, reason: r.clone() });
    }
    let (agent, url) = (ch.agent.clone(), ch.url.clone());
    if fetch.is_some() && !ch.also.is_empty() {
        return Err(CaseErrorKind::TokensInFetch(at));
    }
    let request = match fetch {
        None if !ch.also.is_empty() => Request::DecideTokens {
            robots: robots.clone(),
            agents: std::iter::once(agent).chain(ch.also.clone()).collect(),
            url,
        },
        Some(scenario) => Request::Fetch {
            scenario: scenario.clone(),
            agent,
            url,
            live: None,
        },
        None => Request::Decide { robots: robots.clone(), agent, url },
    };
    Ok(Check {
        name: format!("{name}::{n}"),
        request,
        expect,
        why,
        rule_line: ch.rule_line,
        reason: ch.reason.clone(),
        explains: phrases(&ch.explains, &ch.explains_not, &at)?,
        readings: readings(ch, &at)?,
    })
}

/// The phrases of a check's `explains` and `explains_not`, each under the
/// profile it is written for (every profile for a plain list).
fn phrases(
    explains: &Option<PhrasesToml>,
    explains_not: &Option<PhrasesToml>,
    at: &At,
) -> Result<Vec<Phrase>, CaseErrorKind> {
    let mut out = Vec::new();
    for (toml, present) in [(explains, true), (explains_not, false)] {
        let lists: Vec<(Option<&String>, &Vec<String>)> = match toml {
            None => continue,
            Some(PhrasesToml::Same(list)) => vec![(None, list)],
            Some(PhrasesToml::PerProfile(map)) => {
                map.iter().map(|(k, v)| (Some(k), v)).collect()
            }
        };
        for (profile, list) in lists {
            if let Some(p) = profile
                && !PROFILES.contains(&p.as_str())
            {
                return Err(CaseErrorKind::BadPhrase {
                    at: at.clone(),
                    what: format!(
                        "profile `{p}` is not one of {}",
                        PROFILES.join(", ")
                    ),
                });
            }
            for text in list {
                if text.trim().is_empty() {
                    return Err(CaseErrorKind::BadPhrase {
                        at: at.clone(),
                        what: "an empty phrase matches every explanation"
                            .into(),
                    });
                }
                out.push(Phrase {
                    profile: profile.cloned(),
                    text: text.clone(),
                    present,
                });
            }
        }
    }
    Ok(out)
}

/// A decide or fetch check's `readings`: a verdict word (allowed or
/// disallowed) per named reading, `switch` or `profile+switch`. Whether
/// the switch exists is the oracle's to say (the `spec` target), not the
/// loader's: the runner does not know the oracle.
fn readings(
    ch: &CheckToml,
    at: &At,
) -> Result<BTreeMap<String, Expected>, CaseErrorKind> {
    if ch.readings.is_some() && !ch.also.is_empty() {
        return Err(CaseErrorKind::BadReading {
            at: at.clone(),
            what:
                "readings are asked of one-token decide and fetch checks only"
                    .into(),
        });
    }
    answers_under(ch.readings.as_ref(), Vocabulary::Verdict, at)
}

/// Named readings and the answer each states, in `vocabulary`'s words:
/// a verdict for a decide or fetch check, preferences for a usage check,
/// signal values for a content-signal one. A reading states one answer,
/// so `implementation-defined` is refused.
fn answers_under(
    map: Option<&BTreeMap<String, String>>,
    vocabulary: Vocabulary,
    at: &At,
) -> Result<BTreeMap<String, Expected>, CaseErrorKind> {
    let Some(map) = map else { return Ok(BTreeMap::new()) };
    let bad =
        |what: String| CaseErrorKind::BadReading { at: at.clone(), what };
    let mut out = BTreeMap::new();
    for (name, word) in map {
        let (profile, switch) =
            name.split_once('+').unwrap_or(("rfc9309", name));
        if !PROFILES.contains(&profile) || switch.is_empty() {
            return Err(bad(format!(
                "`{name}` is not `switch` or `profile+switch` (profiles: {})",
                PROFILES.join(", ")
            )));
        }
        let want = match vocabulary.read(word) {
            Some(Expected::ImplementationDefined) | None => None,
            Some(v @ (Expected::Allowed | Expected::Disallowed)) => Some(v),
            Some(v) => (vocabulary != Vocabulary::Verdict).then_some(v),
        };
        let Some(want) = want else {
            return Err(bad(format!(
                "`{name} = {word:?}`: a reading states one answer, never \
                 implementation-defined (words: {})",
                vocabulary.words()
            )));
        };
        out.insert(name.clone(), want);
    }
    Ok(out)
}

/// A check whose answer is a value, the same under every profile.
fn value_check(
    name: &str,
    suffix: &str,
    request: Request,
    value: serde_json::Value,
) -> Check {
    Check::new(
        format!("{name}::{suffix}"),
        request,
        same_for_all(Expected::Value(value)),
        None,
    )
}

/// The sitemaps, crawl-delay, token and robots-url checks, in that order.
fn value_checks(
    c: &CaseToml,
    name: &str,
    robots: &Arc<[u8]>,
) -> Result<Vec<Check>, CaseErrorKind> {
    let mut checks = Vec::new();
    if let Some(s) = &c.sitemaps {
        let request = Request::Sitemaps { robots: robots.clone() };
        checks.push(value_check(name, "sitemaps", request, s.clone().into()));
    }
    for (i, d) in c.crawl_delay.iter().enumerate() {
        let value = if d.value.is_empty() {
            serde_json::Value::Null
        } else {
            d.value.clone().into()
        };
        let request = Request::CrawlDelay {
            robots: robots.clone(),
            agent: d.agent.clone(),
        };
        checks.push(value_check(
            name,
            &format!("crawl-delay-{}", i + 1),
            request,
            value,
        ));
    }
    for (i, t) in c.tokens.iter().enumerate() {
        let request = Request::ValidToken { token: t.token.clone() };
        let suffix = format!("token-{}", i + 1);
        checks.push(value_check(name, &suffix, request, t.valid.into()));
    }
    for (i, r) in c.robots_url.iter().enumerate() {
        absolute(At::RobotsUrl(i + 1), &r.url)?;
        let request = Request::RobotsUrl { url: r.url.clone() };
        let suffix = format!("robots-url-{}", i + 1);
        checks.push(value_check(
            name,
            &suffix,
            request,
            r.expect.clone().into(),
        ));
    }
    Ok(checks)
}

/// The governs checks.
fn governs_checks(
    c: &CaseToml,
    name: &str,
) -> Result<Vec<Check>, CaseErrorKind> {
    let mut checks = Vec::new();
    for (i, g) in c.governs.iter().enumerate() {
        absolute(At::Governs(i + 1), &g.robots)?;
        absolute(At::Governs(i + 1), &g.url)?;
        let request = Request::Governs {
            robots_url: g.robots.clone(),
            url: g.url.clone(),
        };
        let suffix = format!("governs-{}", i + 1);
        checks.push(value_check(name, &suffix, request, g.expect.into()));
    }
    Ok(checks)
}

/// The `usage` checks (AI usage preferences).
fn usage_checks(
    c: &CaseToml,
    name: &str,
    robots: &Arc<[u8]>,
) -> Result<Vec<Check>, CaseErrorKind> {
    let mut checks = Vec::new();
    for (i, u) in c.usage.iter().enumerate() {
        let expect =
            expectation(&u.expect, Vocabulary::Usage).map_err(|error| {
                CaseErrorKind::Expect { at: At::Usage(i + 1), error }
            })?;
        let why = u.why.clone().or_else(|| c.why.clone());
        if is_open(&expect) && why.is_none() {
            return Err(CaseErrorKind::NeedsWhy(At::Usage(i + 1)));
        }
        let mut check = Check::new(
            format!("{name}::usage-{}", i + 1),
            Request::Usage {
                robots: robots.clone(),
                agent: u.agent.clone(),
                url: u.url.clone(),
            },
            expect,
            why,
        );
        let at = At::Usage(i + 1);
        check.readings =
            answers_under(u.readings.as_ref(), Vocabulary::Usage, &at)?;
        check.explains = phrases(&u.explains, &u.explains_not, &at)?;
        checks.push(check);
    }
    Ok(checks)
}

/// The `content_signal` checks (Content-Signal values per agent).
fn signal_checks(
    c: &CaseToml,
    name: &str,
    robots: &Arc<[u8]>,
) -> Result<Vec<Check>, CaseErrorKind> {
    let mut checks = Vec::new();
    for (i, s) in c.content_signal.iter().enumerate() {
        let expect =
            expectation(&s.expect, Vocabulary::Signal).map_err(|error| {
                CaseErrorKind::Expect { at: At::Signal(i + 1), error }
            })?;
        let why = s.why.clone().or_else(|| c.why.clone());
        if is_open(&expect) && why.is_none() {
            return Err(CaseErrorKind::NeedsWhy(At::Signal(i + 1)));
        }
        let mut check = Check::new(
            format!("{name}::content-signal-{}", i + 1),
            Request::ContentSignal {
                robots: robots.clone(),
                agent: s.agent.clone(),
            },
            expect,
            why,
        );
        check.readings = answers_under(
            s.readings.as_ref(),
            Vocabulary::Signal,
            &At::Signal(i + 1),
        )?;
        checks.push(check);
    }
    Ok(checks)
}

/// The check of a fetch case's `policy`.
fn policy_check(
    c: &CaseToml,
    policy: &ExpectToml,
    name: &str,
    scenario: &Arc<Scenario>,
) -> Result<Check, CaseErrorKind> {
    let expect: BTreeMap<String, Expected> =
        expectation(policy, Vocabulary::Policy).map_err(|error| {
            CaseErrorKind::Expect { at: At::Policy, error }
        })?;
    if is_open(&expect) && c.why.is_none() {
        return Err(CaseErrorKind::NeedsWhy(At::Policy));
    }
    Ok(Check::new(
        format!("{name}::policy"),
        Request::FetchPolicy { scenario: scenario.clone() },
        expect,
        c.why.clone(),
    ))
}
