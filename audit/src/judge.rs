//! One host's row: the fetch outcome under each profile's fetch model,
//! the probes, then every parser's verdict for every agent and probe,
//! and where each adapter departs from the oracle, classified by the
//! oracle's profile switches (`robots_oracle::classify`); then the AI
//! usage preferences (the `aipref` oracle's `usage` op) and the census
//! of the file's AI preference lines (`crate::ai_lines`). Knows the
//! fetch model and the panel; never decides a verdict or a preference
//! itself.

use std::collections::BTreeMap;
use std::sync::Arc;

use robots_adapters::{Adapter, Reply, Request, Verdict};
use robots_oracle::Profile;
use robots_oracle::fetch::{Access, Answer, FetchProfile, Policy, access};

use crate::panel::{PROFILES, Panel, USAGE_PROFILE, fetch_model};
use crate::row::{AiLines, Departure, FetchRow, HostRow};
use crate::site::Site;

/// What the judging of a host needs besides the host.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The agents' product tokens.
    pub agents: Vec<String>,
    /// Probes per host at most.
    pub probes: usize,
    /// Departures classified per host and adapter at most.
    pub classify_max: usize,
}

/// A verdict's letter: `a` allowed, `d` disallowed, `?` anything else
/// (an error, not applicable, a timeout, a crash).
pub fn letter(reply: &Reply) -> char {
    match reply {
        Reply::Verdict { verdict: Verdict::Allowed, .. } => 'a',
        Reply::Verdict { verdict: Verdict::Disallowed, .. } => 'd',
        _ => '?',
    }
}

/// One verdict of a parser that differs from the oracle's.
#[derive(Clone, Debug)]
pub struct Departing {
    /// The index of the agent (in the agents compared).
    pub agent: usize,
    /// The index of the probe.
    pub probe: usize,
    /// The parser's letter (`a` or `d`).
    pub theirs: char,
    /// The oracle's letter.
    pub oracle: char,
    /// The switches of the oracle's profile that explain it (`None`:
    /// past the classification cap, not classified).
    pub classification: Option<robots_oracle::Classification>,
}

/// A parser's letters and the oracle's for one body, compared.
pub struct Compared<'a> {
    /// The body both read (the one the fetch model kept).
    pub body: &'a [u8],
    /// The agents, in the order of the letter strings.
    pub agents: &'a [String],
    /// The probes, in the order of the letters in each string.
    pub probes: &'a [String],
    /// The oracle's profile the letters are compared with.
    pub profile: &'a Profile,
}

impl Compared<'_> {
    /// Every departing verdict of `mine` (one string of letters per
    /// agent) from `want` (the oracle's), the first `classify_max`
    /// classified by the oracle's switches; counts compared, departing
    /// and unanswered verdicts into `dep` (its `axes` are the caller's).
    pub fn departing(
        &self,
        mine: &[String],
        want: &[String],
        classify_max: usize,
        dep: &mut Departure,
    ) -> Vec<Departing> {
        let mut out = Vec::new();
        for (j, agent) in self.agents.iter().enumerate() {
            let (Some(m), Some(w)) = (mine.get(j), want.get(j)) else {
                continue;
            };
            for (q, (mine, want)) in m.chars().zip(w.chars()).enumerate() {
                if mine == '?' || want == '?' {
                    dep.unanswered += 1;
                    continue;
                }
                dep.compared += 1;
                if mine == want {
                    continue;
                }
                dep.departing += 1;
                let classification =
                    (dep.departing <= classify_max).then(|| {
                        let theirs = if mine == 'a' {
                            robots_oracle::Verdict::Allowed
                        } else {
                            robots_oracle::Verdict::Disallowed
                        };
                        robots_oracle::classify(
                            self.body,
                            agent,
                            &self.probes[q],
                            self.profile,
                            theirs,
                        )
                    });
                out.push(Departing {
                    agent: j,
                    probe: q,
                    theirs: mine,
                    oracle: want,
                    classification,
                });
            }
        }
        out
    }
}

/// The `decide` requests for `body`: every probe of the first agent,
/// then of the next (the order of the letter strings).
pub fn decide_requests(
    body: &Arc<[u8]>,
    agents: &[String],
    probes: &[String],
) -> Vec<Request> {
    agents
        .iter()
        .flat_map(|agent| {
            probes.iter().map(|url| Request::Decide {
                robots: body.clone(),
                agent: agent.clone(),
                url: url.clone(),
            })
        })
        .collect()
}

/// One string of letters per agent from the replies to
/// [`decide_requests`] (`k` probes each).
pub fn letters_per_agent(replies: &[Reply], k: usize) -> Vec<String> {
    if k == 0 {
        return Vec::new();
    }
    replies.chunks(k).map(|c| c.iter().map(letter).collect()).collect()
}

/// The two usage letters of a `usage` answer: `train-ai`, then
/// `search` (`y`, `n`, `u`); `--` for a URL that may not be crawled,
/// `??` for anything else.
fn usage_letters(reply: &Reply) -> [char; 2] {
    let Reply::Value { value } = reply else { return ['?', '?'] };
    match (&value["crawlable"], &value["usage"]) {
        (serde_json::Value::Bool(false), serde_json::Value::Null) => {
            ['-', '-']
        }
        (serde_json::Value::Bool(true), usage) => {
            ["train-ai", "search"].map(|c| match usage[c].as_str() {
                Some("y") => 'y',
                Some("n") => 'n',
                Some("unknown") => 'u',
                _ => '?',
            })
        }
        _ => ['?', '?'],
    }
}

/// Whether the oracle's explanation shows a group naming the agent.
fn names_agent(reply: &Reply) -> bool {
    let Reply::Verdict { explanation: Some(e), .. } = reply else {
        return false;
    };
    let rules = &e.json["rules"];
    rules["global"] == serde_json::Value::Bool(false)
        && rules["groups"].as_array().is_some_and(|g| !g.is_empty())
}

/// One string of letters per agent for `probes` under the access `a`:
/// on a parsed body, `adapter` answers `request(body, agent, url)` for
/// every agent and probe, and `read` turns each answer into its `W`
/// letters; without a body every probe gets `allow_all` or
/// `disallow_all` (`?`s for a cached copy, which an archive never has).
#[allow(clippy::too_many_arguments)]
fn ask_letters<const W: usize>(
    a: &Access,
    probes: &[String],
    agents: &[String],
    adapter: &mut dyn Adapter,
    request: fn(Arc<[u8]>, String, String) -> Request,
    read: fn(&Reply) -> [char; W],
    (allow_all, disallow_all): (&str, &str),
) -> Vec<String> {
    let k = probes.len();
    match a.policy {
        Policy::ParseBody => {
            let body: Arc<[u8]> =
                a.body.clone().unwrap_or_else(|| Arc::from(&b""[..]));
            let requests: Vec<Request> = agents
                .iter()
                .flat_map(|agent| {
                    probes.iter().map(|url| {
                        request(body.clone(), agent.clone(), url.clone())
                    })
                })
                .collect();
            let replies = adapter.answer_batch(&requests);
            let mut letters = replies.iter().flat_map(read);
            (0..agents.len())
                .map(|_| letters.by_ref().take(W * k).collect())
                .collect()
        }
        Policy::AllowAll => vec![allow_all.repeat(k); agents.len()],
        Policy::DisallowAll => vec![disallow_all.repeat(k); agents.len()],
        Policy::UseCache => vec!["?".repeat(W * k); agents.len()],
    }
}

/// Per agent, the usage letters of every probe (see `HostRow::usage`):
/// asked of the `aipref` oracle on the body its fetch model kept; no
/// file (allow-all) states nothing (`uu`), a disallow-all outcome leaves
/// nothing crawlable (`--`).
fn usage(
    probes: &[String],
    accesses: &[Access],
    panel: &mut Panel,
    plan: &Plan,
) -> BTreeMap<String, String> {
    let Some(i) = PROFILES.iter().position(|p| *p == USAGE_PROFILE) else {
        return BTreeMap::new();
    };
    let per_agent = ask_letters(
        &accesses[i],
        probes,
        &plan.agents,
        panel.oracle[i].as_mut(),
        |robots, agent, url| Request::Usage { robots, agent, url },
        usage_letters,
        ("uu", "--"),
    );
    plan.agents.iter().cloned().zip(per_agent).collect()
}

/// The row for `site` (whose record is `input`'s number `site.n`).
pub fn judge(
    input: &str,
    site: &Site,
    panel: &mut Panel,
    plan: &Plan,
) -> HostRow {
    let first = site
        .scenario
        .routes
        .first()
        .map(|r| r.answer.describe())
        .unwrap_or_default();
    let mut row = HostRow {
        input: input.to_string(),
        n: site.n,
        url: site.url.clone(),
        answer: first,
        status: None,
        redirects: 0,
        size: 0,
        cut: false,
        unresolved: site.unresolved.clone(),
        fetch: BTreeMap::new(),
        probes: Vec::new(),
        named: BTreeMap::new(),
        verdicts: BTreeMap::new(),
        departures: BTreeMap::new(),
        ai: AiLines::default(),
        usage: BTreeMap::new(),
        signals: BTreeMap::new(),
    };
    let fetched = site.scenario.fetch(FetchProfile::rfc9309().max_redirects);
    row.redirects = fetched.redirects();
    if let Some(Answer::Response(r)) = fetched.last() {
        row.status = Some(r.status);
        row.size = r.body.len();
    }
    if site.unresolved.is_some() {
        return row;
    }
    let accesses: Vec<Access> = PROFILES
        .iter()
        .map(|p| {
            access(
                &site.scenario,
                &FetchProfile::by_name(fetch_model(p)).unwrap_or_default(),
            )
        })
        .collect();
    for (p, a) in PROFILES.iter().zip(&accesses) {
        row.fetch.insert(
            p.to_string(),
            FetchRow {
                policy: a.policy.as_str().into(),
                clause: a.clause.into(),
            },
        );
    }
    row.cut = accesses.iter().any(|a| a.cut_from.is_some());
    let body_for_probes = accesses
        .iter()
        .find(|a| a.policy == Policy::ParseBody)
        .and_then(|a| a.body.as_deref());
    row.probes = crate::probe::probes(body_for_probes, plan.probes);
    let ai_body = PROFILES
        .iter()
        .position(|p| *p == USAGE_PROFILE)
        .map(|i| &accesses[i])
        .filter(|a| a.policy == Policy::ParseBody)
        .and_then(|a| a.body.as_deref());
    let (ai, signals) = crate::ai_lines::read(ai_body, &plan.agents);
    row.ai = ai;
    row.signals = signals;

    let protocol_scenario = Arc::new(
        robots_adapters::reference::scenario_from_model(&site.scenario),
    );
    let mut oracle_letters: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (i, p) in PROFILES.iter().enumerate() {
        let requests: Vec<Request> = plan
            .agents
            .iter()
            .flat_map(|agent| {
                row.probes.iter().map(|url| Request::Fetch {
                    scenario: protocol_scenario.clone(),
                    agent: agent.clone(),
                    url: url.clone(),
                    live: None,
                })
            })
            .collect();
        let replies = panel.oracle[i].answer_batch(&requests);
        let k = row.probes.len();
        let mut named = Vec::new();
        let mut letters = Vec::new();
        let mut per_agent = BTreeMap::new();
        for (j, agent) in plan.agents.iter().enumerate() {
            let chunk = &replies[j * k..(j + 1) * k];
            if chunk.first().is_some_and(names_agent) {
                named.push(agent.clone());
            }
            let s: String = chunk.iter().map(letter).collect();
            letters.push(s.clone());
            per_agent.insert(agent.clone(), s);
        }
        row.named.insert(p.to_string(), named);
        row.verdicts.insert(p.to_string(), per_agent);
        oracle_letters.insert(p, letters);
    }
    row.usage = usage(&row.probes, &accesses, panel, plan);

    for m in &mut panel.members {
        let a =
            &accesses[PROFILES.iter().position(|p| *p == m.base).unwrap_or(0)];
        let letters = ask_letters(
            a,
            &row.probes,
            &plan.agents,
            m.adapter.as_mut(),
            |robots, agent, url| Request::Decide { robots, agent, url },
            |r| [letter(r)],
            ("a", "d"),
        );
        let theirs_oracle = &oracle_letters[m.base];
        let profile =
            Profile::by_name(m.base).unwrap_or_else(Profile::rfc9309);
        let mut dep = Departure::default();
        let body = a.body.as_deref().unwrap_or_default();
        let compared = Compared {
            body,
            agents: &plan.agents,
            probes: &row.probes,
            profile: &profile,
        };
        for d in compared.departing(
            &letters,
            theirs_oracle,
            plan.classify_max,
            &mut dep,
        ) {
            let axis = d
                .classification
                .map_or_else(|| "not-classified".to_string(), |c| c.axis());
            *dep.axes.entry(axis).or_default() += 1;
        }
        row.verdicts.insert(
            m.name.clone(),
            plan.agents.iter().cloned().zip(letters).collect(),
        );
        row.departures.insert(m.name.clone(), dep);
    }
    row
}
