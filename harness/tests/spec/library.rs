//! The oracle as a library hands it out, asked on every case's decide
//! check: what a crawler or a binding reads besides the verdict must say
//! what the plain reading (`decide_linear` on a full parse) says.
//!
//! - A profile that refuses library-shaped URLs (`library_url_shapes`
//!   off: the rfc9309 reading of an empty, query-only or fragment-only
//!   URL) refuses them in the plain reading too, not only at the
//!   adapter's door (`Capabilities::library_urls`), which would otherwise
//!   keep the refusal itself from ever being asked; and the refusal's
//!   message names the URL it refuses.
//! - The file parsed for one crawler (`parse_for`, as the bindings and
//!   crawlers use it) is that crawler's, under the profile it was parsed
//!   with (`profile`): its `agent`, its `crawl_delay`
//!   and its `groups` equal the full parse's (the groups the plain
//!   decision names, item for item).
//! - Each rule the plain decision lists as matching is the pattern the
//!   decision shows, as written (its value, compared as octets, by `==`
//!   and through `as_ref`) and, through `Rule::normalized`, normalised
//!   (Google's derived `/dir/$` aside, which no rule holds as written);
//!   and the line the decision cites for it, as `line_ranges` numbers a
//!   body's lines for the tools that show them (lint, the playground),
//!   holds that value.
//!
//! - For a usage check, each Content-Usage rule the usage decision lists
//!   as a candidate is the parsed rule at its line: its path and
//!   statement as written, and its specificity the length of
//!   `UsageRule::normalized`; the preferences shown (`Display`) are
//!   `label=value` per category, as the case language writes them, and
//!   `is_unknown` says whether every category is unknown.
//!
//! - For a content-signal check, the signals' `pairs` list exactly the
//!   signals set (each with its value as written), `is_empty` says
//!   whether none is, and the signals shown (`Display`, what `check
//!   --usage` prints) are those pairs as `key=value`, comma-separated.
//!
//! - For a fetch check, each network error the scenario answers with is,
//!   by the oracle's own fetch vocabulary (`fetch::NetworkError`, what
//!   the bindings and `serve` read and write), the word the case wrote:
//!   `from_name` reads it and `as_str` gives it back.
//!
//! Each is a question the case already asks, put through another door;
//! none adds an expectation of its own.

use robots_adapters::Request;
use robots_adapters::scenario::Answer;
use robots_adapters::wire::is_library_url;
use robots_oracle::fetch::NetworkError;
use robots_oracle::{
    Category, Decision, Error, Preference, Profile, Reason, RobotsTxt,
    line_ranges,
};

/// The first network error of a fetch check's scenario that the oracle's
/// fetch vocabulary does not name as the case does, if any.
pub fn network_names_differ(fetch: &Request) -> Option<String> {
    let Request::Fetch { scenario, .. } = fetch else { return None };
    scenario.routes.iter().find_map(|r| {
        let Answer::Network(e) = &r.answer else { return None };
        let word = e.as_str();
        let read = NetworkError::from_name(word).map(NetworkError::as_str);
        (read != Some(word)).then(|| {
            format!(
                "the oracle's fetch::NetworkError reads {word:?} as {read:?}"
            )
        })
    })
}

/// The first way the content signals' `pairs`, `is_empty` and `Display`
/// depart from the signals set, if any.
pub fn signals_differ(
    body: &[u8],
    profile: &Profile,
    agent: &str,
) -> Option<String> {
    let (s, _) = RobotsTxt::parse(body, profile).content_signals(agent);
    let yn = |b: bool| if b { "yes" } else { "no" };
    let mut set: Vec<(&str, &str)> = [
        ("search", s.search),
        ("ai-input", s.ai_input),
        ("ai-train", s.ai_train),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.map(|b| (k, yn(b))))
    .collect();
    set.extend(s.use_.map(|u| ("use", u.as_str())));
    // What `check --usage` prints: the pairs set, `key=value`, in order.
    let said: Vec<String> =
        set.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let said = said.join(", ");
    let shown = s.to_string();
    (s.pairs() != set || s.is_empty() != set.is_empty() || shown != said).then(
        || {
            format!(
                "content signals ({}) for {agent:?}: pairs {:?}, is_empty {}, \
                 shown {shown:?}; the signals set: {set:?}",
                profile.name,
                s.pairs(),
                s.is_empty()
            )
        },
    )
}

/// The first way the library's views of `body` depart from the plain
/// reading, if any. `full` is `body` parsed under the profile asked,
/// `plain` its plain decision, or the refusal of the URL.
pub fn library_differs(
    body: &[u8],
    full: &RobotsTxt,
    agent: &str,
    url: &str,
    plain: Result<&Decision, &Error>,
) -> Option<String> {
    let profile = full.profile();
    let name = profile.name;
    if !profile.library_url_shapes && is_library_url(url) {
        return match plain {
            Ok(d) => Some(format!(
                "{name} refuses library-shaped URLs (`library_url_shapes` \
                 off), but the plain reading answered {url:?}:\n{d:#?}"
            )),
            // The refusal names the URL it refuses (what `check` prints).
            Err(e) => {
                let said = e.to_string();
                (!said.contains(&format!("'{url}'"))).then(|| {
                    format!(
                        "{name} refuses {url:?} saying {said:?}, not naming it"
                    )
                })
            }
        };
    }
    let plain = plain.ok()?;
    let mine = RobotsTxt::parse_for(body, profile, agent);
    if mine.agent() != agent {
        return Some(format!(
            "parse_for ({name}) for {agent:?} says its agent is {:?}",
            mine.agent()
        ));
    }
    if mine.profile() != profile {
        return Some(format!(
            "parse_for ({name}) says it was parsed under {:?}",
            mine.profile().name
        ));
    }
    if mine.crawl_delay() != full.crawl_delay(agent) {
        return Some(format!(
            "parse_for ({name}) crawl-delay {:?}, the full parse's {:?}",
            mine.crawl_delay(),
            full.crawl_delay(agent)
        ));
    }
    if plain.reason != Reason::RobotsTxtPath {
        let lines: Vec<u32> = mine.groups().iter().map(|g| g.line()).collect();
        if lines != plain.groups {
            return Some(format!(
                "parse_for ({name}) keeps the groups at lines {lines:?}; \
                 the plain decision obeys those at {:?}",
                plain.groups
            ));
        }
        for g in mine.groups() {
            let same = full.groups().iter().find(|f| f.line() == g.line());
            if same != Some(g) {
                return Some(format!(
                    "parse_for ({name}) group at line {} differs from the \
                     full parse's:\n{g:#?}\nfull:\n{same:#?}",
                    g.line()
                ));
            }
        }
    }
    let rules = full.groups().iter().flat_map(|g| &g.rules);
    // A body has at most one line more than it has octets: a wrong
    // splitter is seen, not waited for.
    let lines: Vec<_> = line_ranges(body).take(body.len() + 1).collect();
    for c in &plain.candidates {
        let Some(rule) = rules.clone().find(|r| r.line == c.line) else {
            return Some(format!(
                "the plain decision ({name}) lists a rule at line {} that \
                 the full parse does not hold",
                c.line
            ));
        };
        // The value as written, compared as octets both ways a library
        // user reads them (`Octets == [u8]`, `Octets::as_ref`).
        let written = c.pattern.as_bytes();
        let as_ref: &[u8] = rule.value.as_ref();
        if std::str::from_utf8(&rule.value).is_ok()
            && (rule.value != *written || as_ref != written)
        {
            return Some(format!(
                "the plain decision ({name}) shows line {}'s pattern as {:?}; \
                 the parsed rule's value is {:?}",
                c.line, c.pattern, rule.value
            ));
        }
        // The line the decision cites, as the tools that show a body
        // number its lines (`line_ranges`), holds the rule as written.
        let line = lines
            .get((c.line as usize).saturating_sub(1))
            .map(|r| &body[r.clone()]);
        let held = line.is_some_and(|l| {
            as_ref.is_empty() || l.windows(as_ref.len()).any(|w| w == as_ref)
        });
        if !held {
            return Some(format!(
                "line_ranges gives line {} of the body as {:?}; the plain \
                 decision ({name}) cites the rule {:?} there",
                c.line,
                line.map(String::from_utf8_lossy),
                c.pattern
            ));
        }
        let normalized = String::from_utf8_lossy(rule.normalized());
        if normalized != c.normalized && !c.normalized.ends_with("/$") {
            return Some(format!(
                "Rule::normalized ({name}) of line {} is {normalized:?}; \
                 the decision matched {:?}",
                c.line, c.normalized
            ));
        }
    }
    None
}

/// The first way a usage decision's candidates depart from the parsed
/// Content-Usage rules they name, if any.
pub fn usage_differs(
    body: &[u8],
    profile: &Profile,
    agent: &str,
    url: &str,
) -> Option<String> {
    let name = profile.name;
    let full = RobotsTxt::parse(body, profile);
    let decision = full.usage(agent, url).ok()?;
    // The preferences shown (`Display`, what `check --usage` prints) are
    // the case language's own words: `train-ai=y, search=unknown`.
    if let Some(p) = decision.preferences {
        let said: Vec<String> = Category::ALL
            .iter()
            .map(|&c| format!("{}={}", c.label(), p.get(c).as_str()))
            .collect();
        let said = said.join(", ");
        let unknown =
            Category::ALL.iter().all(|&c| p.get(c) == Preference::Unknown);
        if p.is_unknown() != unknown {
            return Some(format!(
                "usage preferences ({name}) {said:?}: is_unknown says {}",
                p.is_unknown()
            ));
        }
        if p.to_string() != said {
            return Some(format!(
                "usage preferences ({name}) shown as {:?}; they are {said:?}",
                p.to_string()
            ));
        }
    }
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    for c in &decision.candidates {
        let Some(rule) = full
            .groups()
            .iter()
            .flat_map(|g| &g.usage)
            .find(|r| r.line == c.line)
        else {
            return Some(format!(
                "the usage decision ({name}) lists a rule at line {} that \
                 the full parse does not hold",
                c.line
            ));
        };
        let path = rule.path.as_deref().map(text).unwrap_or_default();
        let statement = text(&rule.statement);
        let priority = rule.normalized().len();
        if (path.as_str(), statement.as_str(), priority)
            != (c.path.as_str(), c.statement.as_str(), c.priority)
        {
            return Some(format!(
                "usage candidate ({name}) at line {}: path {:?}, statement \
                 {:?}, priority {}; the parsed rule: {path:?}, {statement:?}, \
                 normalised length {priority}",
                c.line, c.path, c.statement, c.priority
            ));
        }
    }
    None
}
