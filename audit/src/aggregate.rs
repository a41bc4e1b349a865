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
pub const FORMAT: &str = "robots-audit/1";

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
        let Aggregator { setup, c, fully, partly, named, mut parsers } = self;
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
        Audit {
            format: FORMAT.into(),
            setup,
            counts: c,
            agents,
            parsers,
            largest_spread: largest,
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
