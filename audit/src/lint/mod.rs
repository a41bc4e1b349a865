//! `lint`: how the crawlers of the world may read one robots.txt file
//! differently, and how to make it portable. For a set of agents (the
//! audit's default crawlers and the ones the file names) and probe URLs
//! drawn from the file's own rules (`crate::probe::matching`), every
//! selected parser is asked `decide` and compared with the oracle (the
//! reference adapter under one profile) by the audit's own judging
//! (`crate::judge::Compared`); each disagreement is classified by the
//! oracle's switches, and the disagreements are grouped by the switch
//! that explains them, each group with its parsers, an example and a
//! rewrite (`rewrite`). What every reading agrees is a mistake is found
//! without any parser (`mistakes`).
//!
//! Never decides a verdict itself (the reference adapter and the parsers
//! do, through the `Adapter` trait); an adapter that fails costs only
//! its own checks, and the report names it. Bounded: at most
//! [`MAX_AGENTS`] agents and [`MAX_PROBES`] probes, so at most
//! `MAX_AGENTS × MAX_PROBES` requests per parser.

pub mod mistakes;
pub mod report;
pub mod rewrite;
pub mod text;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use robots_adapters::reference::Reference;
use robots_adapters::{Adapter, Reply};
use robots_oracle::{AgentToken, Profile, RobotsTxt, line_ranges};

use crate::args::DEFAULT_AGENTS;
use crate::error::Error;
use crate::judge::{Compared, decide_requests, letters_per_agent};
use crate::panel::{PROFILES, Selection, open_member};
use crate::row::Departure;
use report::{Example, Finding, ParserRun, Report};
use text::Text;

/// Agents asked about at most.
pub const MAX_AGENTS: usize = 32;
/// Probe URLs per file at most.
pub const MAX_PROBES: usize = 64;

/// How a file is linted.
#[derive(Clone, Debug)]
pub struct Options {
    /// Product tokens; empty: the audit's default crawlers and the ones
    /// the file names (up to [`MAX_AGENTS`]).
    pub agents: Vec<String>,
    /// The parsers asked.
    pub selection: Selection,
    /// The oracle's profile (`rfc9309`, `google`, `aipref`).
    pub profile: String,
    /// Probe URLs at most (`/` and the paths of the file's rules).
    pub probes: usize,
    /// Disagreements classified per parser at most (the rest are
    /// `not-classified`).
    pub classify_max: usize,
    /// Parsers asked at once.
    pub jobs: usize,
}

/// The agents of `opts` for `body`.
fn agents(body: &[u8], profile: &Profile, opts: &Options) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |a: &str| {
        if out.len() < MAX_AGENTS
            && !out.iter().any(|o| o.eq_ignore_ascii_case(a))
        {
            out.push(a.to_string());
        }
    };
    if !opts.agents.is_empty() {
        opts.agents.iter().for_each(|a| add(a));
        return out;
    }
    DEFAULT_AGENTS.iter().for_each(|a| add(a));
    let robots = RobotsTxt::parse(body, profile);
    for a in robots.groups().iter().flat_map(|g| &g.agents) {
        if let AgentToken::Named(n) = &a.token
            && !n.is_empty()
        {
            add(n);
        }
    }
    out
}

/// The lines of `body` longer than `limit` bytes.
pub fn long_lines(body: &[u8], limit: usize) -> Vec<u32> {
    line_ranges(body)
        .enumerate()
        .filter(|(_, r)| r.len() > limit)
        .map(|(i, _)| i as u32 + 1)
        .collect()
}

/// What one parser answered.
struct Asked {
    name: String,
    letters: Vec<String>,
    unanswered: usize,
    failure: Option<String>,
}

/// Why a reply is not a verdict, in one line.
fn failure(reply: &Reply) -> Option<String> {
    match reply {
        Reply::Verdict { .. } => None,
        Reply::Value { .. } => Some("answered a value, not a verdict".into()),
        Reply::NotApplicable { why } => Some(format!("not applicable: {why}")),
        Reply::Error { message } => Some(format!("error: {message}")),
        Reply::Crashed { message } => Some(format!("crashed: {message}")),
        Reply::TimedOut => Some("timed out".into()),
        Reply::ProtocolError { message } => {
            Some(format!("protocol error: {message}"))
        }
    }
}

/// Asks every selected parser, `jobs` at a time, each in its own thread
/// with its own adapter (stopped when its answers are in).
fn ask(
    selection: &Selection,
    body: &Arc<[u8]>,
    agents: &[String],
    probes: &[String],
    jobs: usize,
) -> Vec<Asked> {
    let next = AtomicUsize::new(0);
    let mut slots: Vec<Option<Asked>> = Vec::new();
    slots.resize_with(selection.0.len(), || None);
    let slots = std::sync::Mutex::new(slots);
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, selection.0.len().max(1)) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((name, base)) = selection.0.get(i) else {
                        break;
                    };
                    let asked = match open_member(name, base) {
                        None => Asked {
                            name: name.clone(),
                            letters: Vec::new(),
                            unanswered: agents.len() * probes.len(),
                            failure: Some("not in the registry".into()),
                        },
                        Some(mut m) => {
                            let requests =
                                decide_requests(body, agents, probes);
                            let replies = m.adapter.answer_batch(&requests);
                            let failures: Vec<String> =
                                replies.iter().filter_map(failure).collect();
                            Asked {
                                name: name.clone(),
                                letters: letters_per_agent(
                                    &replies,
                                    probes.len(),
                                ),
                                unanswered: failures.len(),
                                failure: failures.into_iter().next(),
                            }
                        }
                    };
                    if let Ok(mut slots) = slots.lock() {
                        slots[i] = Some(asked);
                    }
                }
            });
        }
    });
    slots.into_inner().unwrap_or_default().into_iter().flatten().collect()
}

fn verdict_word(letter: char) -> String {
    match letter {
        'a' => "allowed",
        'd' => "disallowed",
        _ => "unanswered",
    }
    .into()
}

/// A finding being gathered.
struct Gathered {
    axis: String,
    clauses: Vec<String>,
    parsers: Vec<String>,
    disagreements: usize,
    example: Example,
}

/// Lints `body` (the file named `file`).
///
/// # Errors
///
/// An unknown profile.
pub fn lint(file: &str, body: &[u8], opts: &Options) -> Result<Report, Error> {
    let profile_name =
        PROFILES.iter().find(|p| **p == opts.profile).ok_or_else(|| {
            Error::Usage(format!(
                "unknown profile {:?} (known: {})",
                opts.profile,
                PROFILES.join(", ")
            ))
        })?;
    let profile =
        Profile::by_name(profile_name).unwrap_or_else(Profile::rfc9309);
    let text = Text::new(body);
    let mistakes = mistakes::find(body, &text);
    let agents = agents(body, &profile, opts);
    let probes =
        crate::probe::matching(body, opts.probes.clamp(1, MAX_PROBES));
    let shared: Arc<[u8]> = Arc::from(body);

    let mut oracle =
        Reference::for_profile(profile_name).ok_or_else(|| {
            Error::Usage(format!("no reference adapter for {profile_name}"))
        })?;
    let oracle_replies =
        oracle.answer_batch(&decide_requests(&shared, &agents, &probes));
    let oracle_letters = letters_per_agent(&oracle_replies, probes.len());
    let rule_line = |agent: usize, probe: usize| match oracle_replies
        .get(agent * probes.len() + probe)
    {
        Some(Reply::Verdict { explanation: Some(e), .. }) => e.rule_line,
        _ => None,
    };

    let asked = ask(&opts.selection, &shared, &agents, &probes, opts.jobs);
    let compared =
        Compared { body, agents: &agents, probes: &probes, profile: &profile };
    let mut parsers = Vec::new();
    let mut groups: BTreeMap<String, Gathered> = BTreeMap::new();
    for a in asked {
        let mut dep = Departure::default();
        let departing = compared.departing(
            &a.letters,
            &oracle_letters,
            opts.classify_max,
            &mut dep,
        );
        for d in departing {
            let (switch, axis, clauses) = match &d.classification {
                Some(c) => (
                    c.name(),
                    c.axis(),
                    c.clauses().iter().map(|c| c.to_string()).collect(),
                ),
                None => {
                    ("not-classified".into(), "not-classified".into(), vec![])
                }
            };
            let g = groups.entry(switch).or_insert_with(|| Gathered {
                axis,
                clauses,
                parsers: Vec::new(),
                disagreements: 0,
                example: Example {
                    parser: a.name.clone(),
                    agent: agents[d.agent].clone(),
                    url: probes[d.probe].clone(),
                    oracle: verdict_word(d.oracle),
                    theirs: verdict_word(d.theirs),
                    line: rule_line(d.agent, d.probe),
                },
            });
            g.disagreements += 1;
            if !g.parsers.contains(&a.name) {
                g.parsers.push(a.name.clone());
            }
        }
        // Requests never answered (an adapter that failed to start has no
        // letters at all) count as unanswered too.
        let unanswered = dep.unanswered.max(a.unanswered);
        parsers.push(ParserRun {
            name: a.name,
            compared: dep.compared,
            departing: dep.departing,
            unanswered,
            failure: a.failure,
        });
    }

    let mut findings: Vec<Finding> = groups
        .into_iter()
        .map(|(switch, g)| {
            let cx = rewrite::Context {
                body,
                text: &text,
                profile: &profile,
                url: &g.example.url,
                line: g.example.line,
            };
            let (mut why, rewrite) = rewrite::advise(&switch, &cx);
            let registers: Vec<String> =
                g.parsers.iter().map(|p| format!("bugs/{p}.toml")).collect();
            why = why.replace("BUGS", &registers.join(", "));
            Finding {
                switch,
                axis: g.axis,
                clauses: g.clauses,
                parsers: g.parsers,
                disagreements: g.disagreements,
                example: g.example,
                why,
                rewrite,
            }
        })
        .collect();
    findings.sort_by(|a, b| {
        b.parsers
            .len()
            .cmp(&a.parsers.len())
            .then(b.disagreements.cmp(&a.disagreements))
            .then(a.switch.cmp(&b.switch))
    });
    Ok(Report {
        format: report::FORMAT.into(),
        file: file.into(),
        bytes: body.len(),
        profile: profile_name.to_string(),
        portable: findings.is_empty() && mistakes.is_empty(),
        agents,
        probes,
        parsers,
        findings,
        mistakes,
    })
}
