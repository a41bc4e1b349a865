//! `audit.json`: the aggregates of a set of rows. Every number is a sum
//! over rows, every share is `count / hosts_audited` (0 when there are no
//! audited hosts), so the aggregate of concatenated shards equals the
//! aggregate of one run, and `audit/spark/audit_job.py` computes the
//! same document with the same arithmetic. Must stay in step with that
//! script.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::panel::PROFILES;
use crate::row::{HostRow, Row};

/// The document's format tag.
pub const FORMAT: &str = "robots-audit/2";

/// The kinds of AI preference line counted, as keys of
/// [`AiAggregate::hosts_with`] and [`AiAggregate::lines`].
pub const AI_KINDS: [&str; 3] =
    ["content-usage", "content-signal", "content-signals"];

/// The Content-Usage categories (draft-ietf-aipref-vocab-07), in the
/// order of the usage letters.
pub const USAGE_CATEGORIES: [&str; 2] = ["train-ai", "search"];

/// The usage values: `y`, `n`, `unknown`.
pub const USAGE_VALUES: [&str; 3] = ["y", "n", "unknown"];

/// The Content-Signal categories.
pub const SIGNAL_CATEGORIES: [&str; 3] = ["search", "ai-input", "ai-train"];

/// What was run: needed to read rows back, and checked on merge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The agents, in the order given.
    pub agents: Vec<String>,
    /// The columns: `rfc9309`, `google`, then the adapters.
    pub parsers: Vec<String>,
    /// Each adapter's base profile.
    pub bases: BTreeMap<String, String>,
}

/// Counts that add up: `records = hosts + routes + skipped +
/// bad_records`, `hosts = hosts_audited + hosts_unresolved`, `errors =
/// bad_records + inputs_stopped`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    /// Inputs read (files, folders).
    pub inputs: usize,
    /// Inputs cut short or unreadable.
    pub inputs_stopped: usize,
    /// Inputs by format.
    pub formats: BTreeMap<String, usize>,
    /// Records read.
    pub records: usize,
    /// Hosts (fetches of `/robots.txt`).
    pub hosts: usize,
    /// Hosts whose fetch outcome is known.
    pub hosts_audited: usize,
    /// Hosts redirected to a URL the input does not hold.
    pub hosts_unresolved: usize,
    /// Captures used only as redirect targets.
    pub routes: usize,
    /// Records skipped.
    pub skipped: usize,
    /// Skipped records by kind.
    pub skipped_by_kind: BTreeMap<String, usize>,
    /// Bad records.
    pub bad_records: usize,
    /// Bad records plus stopped inputs.
    pub errors: usize,
    /// Errors by kind.
    pub errors_by_kind: BTreeMap<String, usize>,
    /// Audited hosts by fetch policy, per profile.
    pub policy: BTreeMap<String, BTreeMap<String, usize>>,
    /// Audited hosts whose body was cut at the parse limit.
    pub cut: usize,
    /// Audited hosts reached through at least one redirect.
    pub redirected: usize,
    /// Response records marked `WARC-Truncated` (bodies used as
    /// captured).
    pub truncated: usize,
    /// Those records by the header's reason.
    pub truncated_by_reason: BTreeMap<String, usize>,
}

/// A count and its share of the audited hosts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Share {
    /// Hosts.
    pub hosts: usize,
    /// `hosts / hosts_audited`.
    pub share: f64,
}

/// How one parser sees one agent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Blocked {
    /// Every probe disallowed.
    pub fully: Share,
    /// Some probe disallowed, not all.
    pub partly: Share,
}

/// One agent across parsers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AgentAggregate {
    /// Per parser.
    pub blocked: BTreeMap<String, Blocked>,
    /// Per oracle profile: hosts with a group naming the agent.
    pub named: BTreeMap<String, Share>,
    /// The spread of the fully-blocked share across parsers.
    pub spread: Spread,
}

/// The lowest and highest fully-blocked share among the parsers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// The parser with the lowest share (first in column order on a tie).
    pub lowest: String,
    /// The parser with the highest share (first on a tie).
    pub highest: String,
    /// `highest share - lowest share`.
    pub points: f64,
}

/// One adapter against the oracle.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ParserAggregate {
    /// The profile it is compared with.
    pub base: String,
    /// Audited hosts with at least one departing verdict.
    pub hosts_departing: Share,
    /// Verdicts compared.
    pub verdicts: usize,
    /// Verdicts departing.
    pub verdicts_departing: usize,
    /// `verdicts_departing / verdicts` (0 when none compared).
    pub verdicts_departing_share: f64,
    /// Requests not answered.
    pub unanswered: usize,
    /// Departing verdicts by axis.
    pub axes: BTreeMap<String, usize>,
}

/// AI usage preferences across the audited hosts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AiAggregate {
    /// Per kind of [`AI_KINDS`], and `any`: hosts whose file has at least
    /// one such line.
    pub hosts_with: BTreeMap<String, Share>,
    /// Per kind of [`AI_KINDS`]: lines, summed over hosts.
    pub lines: BTreeMap<String, usize>,
    /// Hosts where some Allow/Disallow verdict (any agent, any probe)
    /// differs between a 2022 reader (`rfc9309`) and an `aipref` reader:
    /// the grouping change (a Content-Usage line ends a group's
    /// user-agent list).
    pub verdicts_change: Share,
    /// Per agent.
    pub agents: BTreeMap<String, AiAgent>,
}

/// One agent's AI usage preferences across the audited hosts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AiAgent {
    /// Hosts where the agent may crawl `/` under `aipref` (the `usage`
    /// op said so): the denominator of [`AiAgent::usage`].
    pub crawlable_root: usize,
    /// Per Content-Usage category, per value (`y`, `n`, `unknown`): hosts
    /// whose preference at `/` is that value; `share` is of
    /// `crawlable_root` hosts.
    pub usage: BTreeMap<String, BTreeMap<String, Share>>,
    /// Per Content-Signal category, per value (`yes`, `no`): hosts whose
    /// Content-Signal values that apply to the agent say so.
    pub signals: BTreeMap<String, BTreeMap<String, Share>>,
    /// Hosts whose file states training allowed (a Content-Usage
    /// `train-ai=y` or a Content-Signal `ai-train=yes`, anywhere in the
    /// file: attach-05 gives no preference for a URL the agent may not
    /// crawl) while the agent is fully blocked under `aipref`.
    pub train_yes_but_blocked: Share,
    /// Hosts where the agent may crawl `/` under `aipref` while training
    /// is refused to it: its Content-Usage preference at `/` is
    /// `train-ai=n`, or the Content-Signal values that apply to it say
    /// `ai-train=no`.
    pub train_no_but_crawlable: Share,
    /// Hosts where some verdict for this agent differs between `rfc9309`
    /// and `aipref`.
    pub verdicts_change: Share,
}

/// The whole document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Audit {
    /// [`FORMAT`].
    pub format: String,
    /// What was run.
    pub setup: Setup,
    /// Counts.
    pub counts: Counts,
    /// Per agent.
    pub agents: BTreeMap<String, AgentAggregate>,
    /// Per adapter.
    pub parsers: BTreeMap<String, ParserAggregate>,
    /// The agent and parsers with the largest spread.
    pub largest_spread: Option<LargestSpread>,
    /// AI usage preferences.
    pub ai: AiAggregate,
}

/// The agent where parser choice moves the fully-blocked share most.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LargestSpread {
    /// The agent (first in agent order on a tie).
    pub agent: String,
    /// Its spread.
    pub spread: Spread,
}

fn share(n: usize, d: usize) -> f64 {
    if d == 0 { 0.0 } else { n as f64 / d as f64 }
}

/// Sums rows one at a time (rows in any order), so a run never holds its
/// host rows in memory.
pub struct Aggregator {
    setup: Setup,
    c: Counts,
    fully: BTreeMap<(String, String), usize>,
    partly: BTreeMap<(String, String), usize>,
    named: BTreeMap<(String, String), usize>,
    parsers: BTreeMap<String, ParserAggregate>,
    /// AI counts: (agent or `""` for the host-level ones, key).
    ai: AiCounts,
}

/// The aggregates of `rows` (in any order).
pub fn aggregate(setup: &Setup, rows: &[Row]) -> Audit {
    let mut a = Aggregator::new(setup);
    for r in rows {
        a.add(r);
    }
    a.finish()
}

impl Aggregator {
    /// Nothing added yet.
    pub fn new(setup: &Setup) -> Aggregator {
        let mut c = Counts::default();
        for p in PROFILES {
            c.policy.insert(p.into(), BTreeMap::new());
        }
        let parsers = setup
            .bases
            .iter()
            .map(|(n, b)| {
                (
                    n.clone(),
                    ParserAggregate { base: b.clone(), ..Default::default() },
                )
            })
            .collect();
        Aggregator {
            setup: setup.clone(),
            c,
            fully: BTreeMap::new(),
            partly: BTreeMap::new(),
            named: BTreeMap::new(),
            parsers,
            ai: BTreeMap::new(),
        }
    }

    /// Adds one row.
    pub fn add(&mut self, row: &Row) {
        let c = &mut self.c;
        match row {
            Row::Input(i) => {
                c.inputs += 1;
                *c.formats.entry(i.format.clone()).or_default() += 1;
                c.records += i.records;
                c.hosts += i.hosts;
                c.routes += i.routes;
                for (k, n) in &i.skipped {
                    c.skipped += n;
                    *c.skipped_by_kind.entry(k.clone()).or_default() += n;
                }
                c.bad_records += i.bad;
                for (k, n) in &i.truncated {
                    c.truncated += n;
                    *c.truncated_by_reason.entry(k.clone()).or_default() += n;
                }
                if i.stopped.is_some() {
                    c.inputs_stopped += 1;
                }
            }
            Row::Error(e) => {
                c.errors += 1;
                *c.errors_by_kind.entry(e.error.clone()).or_default() += 1;
            }
            Row::Host(h) => self.host(h),
        }
    }

    /// The document.
    pub fn finish(self) -> Audit {
        let Aggregator { setup, c, fully, partly, named, mut parsers, ai } =
            self;
        let d = c.hosts_audited;
        let mut agents = BTreeMap::new();
        let mut largest: Option<LargestSpread> = None;
        let get = |m: &BTreeMap<(String, String), usize>, p: &str, a: &str| {
            m.get(&(p.to_string(), a.to_string())).copied().unwrap_or(0)
        };
        for agent in &setup.agents {
            let mut a = AgentAggregate::default();
            let mut spread: Option<(String, f64, String, f64)> = None;
            for p in &setup.parsers {
                let f = get(&fully, p, agent);
                let q = get(&partly, p, agent);
                let sf = share(f, d);
                a.blocked.insert(
                    p.clone(),
                    Blocked {
                        fully: Share { hosts: f, share: sf },
                        partly: Share { hosts: q, share: share(q, d) },
                    },
                );
                spread = Some(match spread {
                    None => (p.clone(), sf, p.clone(), sf),
                    Some((lo, los, hi, his)) => {
                        let (lo, los) =
                            if sf < los { (p.clone(), sf) } else { (lo, los) };
                        let (hi, his) =
                            if sf > his { (p.clone(), sf) } else { (hi, his) };
                        (lo, los, hi, his)
                    }
                });
            }
            for p in PROFILES {
                let n = get(&named, p, agent);
                a.named
                    .insert(p.into(), Share { hosts: n, share: share(n, d) });
            }
            if let Some((lo, los, hi, his)) = spread {
                a.spread =
                    Spread { lowest: lo, highest: hi, points: his - los };
            }
            if largest
                .as_ref()
                .is_none_or(|l| a.spread.points > l.spread.points)
            {
                largest = Some(LargestSpread {
                    agent: agent.clone(),
                    spread: a.spread.clone(),
                });
            }
            agents.insert(agent.clone(), a);
        }
        for p in parsers.values_mut() {
            p.hosts_departing.share = share(p.hosts_departing.hosts, d);
            p.verdicts_departing_share =
                share(p.verdicts_departing, p.verdicts);
        }
        let ai = ai_aggregate(&setup, &ai, d);
        Audit {
            format: FORMAT.into(),
            setup,
            counts: c,
            agents,
            parsers,
            largest_spread: largest,
            ai,
        }
    }

    fn host(&mut self, h: &HostRow) {
        let c = &mut self.c;
        if h.unresolved.is_some() {
            c.hosts_unresolved += 1;
            return;
        }
        c.hosts_audited += 1;
        if h.cut {
            c.cut += 1;
        }
        if h.redirects > 0 {
            c.redirected += 1;
        }
        for (p, f) in &h.fetch {
            *c.policy
                .entry(p.clone())
                .or_default()
                .entry(f.policy.clone())
                .or_default() += 1;
        }
        for (p, agents) in &h.named {
            for a in agents {
                *self.named.entry((p.clone(), a.clone())).or_default() += 1;
            }
        }
        for (p, per_agent) in &h.verdicts {
            for (a, letters) in per_agent {
                let d = letters.chars().filter(|c| *c == 'd').count();
                if d > 0 && d == letters.len() {
                    *self.fully.entry((p.clone(), a.clone())).or_default() +=
                        1;
                } else if d > 0 {
                    *self.partly.entry((p.clone(), a.clone())).or_default() +=
                        1;
                }
            }
        }
        ai_host(&mut self.ai, &self.setup.agents, h);
        for (p, dep) in &h.departures {
            let agg = self.parsers.entry(p.clone()).or_default();
            if dep.departing > 0 {
                agg.hosts_departing.hosts += 1;
            }
            agg.verdicts += dep.compared;
            agg.verdicts_departing += dep.departing;
            agg.unanswered += dep.unanswered;
            for (axis, n) in &dep.axes {
                *agg.axes.entry(axis.clone()).or_default() += n;
            }
        }
    }
}

/// `key=value` of a signals string (`search=yes, ai-train=no`).
fn signal<'a>(signals: &'a str, key: &str) -> Option<&'a str> {
    signals
        .split(", ")
        .filter_map(|p| p.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
}

/// AI counts: (agent, or `""` for a host-level count; key).
type AiCounts = BTreeMap<(String, String), usize>;

fn add_to(ai: &mut AiCounts, agent: &str, key: String, n: usize) {
    *ai.entry((agent.to_string(), key)).or_default() += n;
}

/// Adds the AI counts of one audited host (see [`AiAgent`]).
fn ai_host(ai_counts: &mut AiCounts, agents: &[String], h: &HostRow) {
    let mut add =
        |agent: &str, key: String, n: usize| add_to(ai_counts, agent, key, n);
    let kinds =
        [h.ai.content_usage, h.ai.content_signal, h.ai.content_signals];
    for (kind, n) in AI_KINDS.iter().zip(kinds) {
        if n > 0 {
            add("", format!("hosts:{kind}"), 1);
            add("", format!("lines:{kind}"), n);
        }
    }
    if kinds.iter().any(|n| *n > 0) {
        add("", "hosts:any".into(), 1);
    }
    let empty = BTreeMap::new();
    let rfc = h.verdicts.get("rfc9309").unwrap_or(&empty);
    let ai = h.verdicts.get("aipref").unwrap_or(&empty);
    let mut changed = false;
    for agent in agents {
        let (Some(a), Some(r)) = (ai.get(agent), rfc.get(agent)) else {
            continue;
        };
        if a.chars()
            .zip(r.chars())
            .any(|(x, y)| x != y && x != '?' && y != '?')
        {
            changed = true;
            add(agent, "verdicts_change".into(), 1);
        }
        let fully = !a.is_empty() && a.chars().all(|c| c == 'd');
        if fully && h.ai.train_y {
            add(agent, "train_yes_but_blocked".into(), 1);
        }
        let usage = h.usage.get(agent).map_or("", String::as_str);
        let root: Vec<char> = usage.chars().take(2).collect();
        let crawlable = root.len() == 2
            && root.iter().all(|c| matches!(c, 'y' | 'n' | 'u'));
        if crawlable {
            add(agent, "crawlable_root".into(), 1);
            for (cat, letter) in USAGE_CATEGORIES.iter().zip(&root) {
                let value = match letter {
                    'y' => "y",
                    'n' => "n",
                    _ => "unknown",
                };
                add(agent, format!("usage:{cat}:{value}"), 1);
            }
        }
        let signals = h.signals.get(agent).map_or("", String::as_str);
        for cat in SIGNAL_CATEGORIES {
            if let Some(v @ ("yes" | "no")) = signal(signals, cat) {
                add(agent, format!("signal:{cat}:{v}"), 1);
            }
        }
        let refused = root.first() == Some(&'n')
            || signal(signals, "ai-train") == Some("no");
        if a.starts_with('a') && refused {
            add(agent, "train_no_but_crawlable".into(), 1);
        }
    }
    if changed {
        add("", "verdicts_change".into(), 1);
    }
}

/// The AI section from the counts `ai` over `d` audited hosts.
fn ai_aggregate(
    setup: &Setup,
    ai: &BTreeMap<(String, String), usize>,
    d: usize,
) -> AiAggregate {
    let get = |agent: &str, key: &str| {
        ai.get(&(agent.to_string(), key.to_string())).copied().unwrap_or(0)
    };
    let of = |n: usize, d: usize| Share { hosts: n, share: share(n, d) };
    let mut out = AiAggregate::default();
    for kind in AI_KINDS.iter().chain(&["any"]) {
        out.hosts_with.insert(
            kind.to_string(),
            of(get("", &format!("hosts:{kind}")), d),
        );
    }
    for kind in AI_KINDS {
        out.lines.insert(kind.to_string(), get("", &format!("lines:{kind}")));
    }
    out.verdicts_change = of(get("", "verdicts_change"), d);
    for agent in &setup.agents {
        let root = get(agent, "crawlable_root");
        let mut a = AiAgent { crawlable_root: root, ..Default::default() };
        for cat in USAGE_CATEGORIES {
            let by = USAGE_VALUES
                .iter()
                .map(|v| {
                    let n = get(agent, &format!("usage:{cat}:{v}"));
                    (v.to_string(), of(n, root))
                })
                .collect();
            a.usage.insert(cat.to_string(), by);
        }
        for cat in SIGNAL_CATEGORIES {
            let by = ["yes", "no"]
                .iter()
                .map(|v| {
                    let n = get(agent, &format!("signal:{cat}:{v}"));
                    (v.to_string(), of(n, d))
                })
                .collect();
            a.signals.insert(cat.to_string(), by);
        }
        a.train_yes_but_blocked = of(get(agent, "train_yes_but_blocked"), d);
        a.train_no_but_crawlable = of(get(agent, "train_no_but_crawlable"), d);
        a.verdicts_change = of(get(agent, "verdicts_change"), d);
        out.agents.insert(agent.clone(), a);
    }
    out
}
