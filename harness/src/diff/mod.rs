//! Differential runs: generate checks (or take them from real files), ask
//! the oracle and every selected adapter, and for each disagreement
//! minimise it, classify it by the oracle switch that explains it, keep
//! one example per (adapter, explanation, shape), and write each as a
//! ready-to-promote case.
//!
//! Deterministic for a seed: check `i` of seed `s` is always the same,
//! so a run can resume at the next index.

pub mod finding;
pub mod minimise;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use robots_adapters::{Adapter, Info, Reply, Request, Verdict};
use robots_gen::{Check, Explanation, classify};
use robots_oracle::{Profile, RobotsTxt, Verdict as OVerdict};
use serde::Serialize;

use self::minimise::{Subject, minimise};

/// One generated or harvested check.
pub type Input = Check;

/// A disagreement, minimised and classified.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// The adapter.
    pub adapter: String,
    /// The profile it claims (what the oracle is compared under).
    pub profile: String,
    /// The switch(es) that explain it, or `unexplained`, `crash`,
    /// `timeout`, `error`.
    pub explanation: String,
    /// The axis.
    pub axis: String,
    /// Clauses the explanation concerns.
    pub clauses: Vec<String>,
    /// A coarse shape of the minimised input, for deduplication.
    pub shape: String,
    /// The minimised body.
    #[serde(skip)]
    pub robots: Vec<u8>,
    /// The minimised agent.
    pub agent: String,
    /// The minimised URL.
    pub url: String,
    /// The adapter's answer.
    pub answer: String,
    /// The oracle's verdict per profile.
    pub oracle: BTreeMap<String, String>,
    /// Other adapters giving the same answer on the minimised input.
    pub shared_with: Vec<String>,
    /// Where it came from (`seed S check N` or a corpus file).
    pub origin: String,
    /// How many raw disagreements mapped to this finding.
    pub count: usize,
}

/// Per adapter totals.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Totals {
    /// Checks asked.
    pub checks: usize,
    /// Checks where the answer differed from the oracle under the
    /// adapter's claimed profile.
    pub disagreements: usize,
    /// The same under each profile.
    pub disagreements_by_profile: BTreeMap<String, usize>,
    /// Seconds spent waiting for the adapter.
    pub seconds: f64,
    /// Raw disagreements per axis.
    pub axes: BTreeMap<String, usize>,
}

impl Totals {
    /// Checks per second.
    pub fn rate(&self) -> f64 {
        if self.seconds > 0.0 {
            self.checks as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// A run's result.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// The seed.
    pub seed: u64,
    /// The next check index (for resuming).
    pub next: u64,
    /// Inputs processed.
    pub inputs: usize,
    /// Checks (input × URL) processed.
    pub checks: usize,
    /// Wall time.
    pub seconds: f64,
    /// Oracle checks per second (both profiles).
    pub oracle_rate: f64,
    /// Per adapter.
    pub adapters: BTreeMap<String, Totals>,
    /// Distinct findings.
    pub findings: Vec<Finding>,
}

/// The classification of one raw disagreement.
fn explain(s: &Subject, profile: &Profile, reply: &Reply) -> Explanation2 {
    match reply {
        Reply::Verdict { verdict, .. } => {
            let theirs = match verdict {
                Verdict::Allowed => OVerdict::Allowed,
                Verdict::Disallowed => OVerdict::Disallowed,
            };
            Explanation2::Oracle(classify(
                &s.robots, &s.agent, &s.url, profile, theirs,
            ))
        }
        other => Explanation2::Failure(other.word().to_string()),
    }
}

enum Explanation2 {
    Oracle(Explanation),
    Failure(String),
}

impl Explanation2 {
    fn name(&self) -> String {
        match self {
            Explanation2::Oracle(e) => e.name(),
            Explanation2::Failure(w) => w.clone(),
        }
    }
    fn axis(&self) -> String {
        match self {
            Explanation2::Oracle(e) => e.axis(),
            Explanation2::Failure(w) => w.clone(),
        }
    }
    fn clauses(&self) -> Vec<String> {
        match self {
            Explanation2::Oracle(e) => {
                e.clauses().into_iter().map(String::from).collect()
            }
            Explanation2::Failure(_) => vec![],
        }
    }
}

/// The oracle's verdict for a subject under a profile.
fn oracle_verdict(s: &Subject, p: &Profile) -> Option<OVerdict> {
    RobotsTxt::parse(&s.robots, p)
        .decide(&s.agent, &s.url)
        .ok()
        .map(|d| d.verdict)
}

fn word(v: Option<OVerdict>) -> String {
    match v {
        Some(OVerdict::Allowed) => "allowed".into(),
        Some(OVerdict::Disallowed) => "disallowed".into(),
        None => "error".into(),
    }
}

/// The same kind of answer: same verdict, or same failure word.
fn same_answer(a: &Reply, b: &Reply) -> bool {
    match (a, b) {
        (
            Reply::Verdict { verdict: x, .. },
            Reply::Verdict { verdict: y, .. },
        ) => x == y,
        _ => a.word() == b.word(),
    }
}

fn ask(adapter: &mut dyn Adapter, s: &Subject) -> Reply {
    let req = Request::Decide {
        robots: Arc::from(s.robots.as_slice()),
        agent: s.agent.clone(),
        url: s.url.clone(),
    };
    if adapter.info().capabilities.admits(&req).is_err() {
        return Reply::not_applicable("not admitted");
    }
    adapter.answer(&req)
}

/// A coarse shape of an input: each line's key and value with letters
/// and digits folded, plus the URL folded the same way.
pub fn shape(s: &Subject) -> String {
    let fold = |t: &str| -> String {
        let mut out = String::new();
        for c in t.chars() {
            let f = if c.is_ascii_alphabetic() {
                'a'
            } else if c.is_ascii_digit() {
                '0'
            } else if !c.is_ascii() {
                'u'
            } else {
                c
            };
            if !(out.ends_with(f) && (f == 'a' || f == '0')) {
                out.push(f);
            }
        }
        out
    };
    let body = String::from_utf8_lossy(&s.robots);
    let lines: Vec<String> = body
        .split(['\n', '\r'])
        .filter(|l| !l.trim().is_empty())
        .map(|l| match l.split_once(':') {
            Some((k, v)) => {
                format!("{}:{}", k.trim().to_ascii_lowercase(), fold(v.trim()))
            }
            None => fold(l),
        })
        .collect();
    format!("{} ? {}", lines.join("|"), fold(&s.url))
}

/// The settings of a run.
pub struct Settings {
    /// Seed.
    pub seed: u64,
    /// First check index.
    pub start: u64,
    /// Stop after this many inputs...
    pub max_inputs: Option<u64>,
    /// ...or after this long.
    pub time: Option<Duration>,
    /// Minimisation budget per finding (predicate calls).
    pub minimise_budget: usize,
    /// Raw examples minimised per (adapter, explanation) before the rest
    /// are only counted.
    pub per_key: usize,
    /// Inputs per batch sent to each adapter.
    pub batch: usize,
}

/// Runs the differential loop over `inputs` (an iterator of (origin,
/// input)) against `adapters`. `progress` gets (inputs done, findings).
pub fn run(
    adapters: &mut [Box<dyn Adapter>],
    inputs: &mut dyn Iterator<Item = (String, Input)>,
    settings: &Settings,
    progress: &mut dyn FnMut(usize, usize),
) -> Report {
    let started = Instant::now();
    let profiles = [Profile::rfc9309(), Profile::google()];
    let infos: Vec<Info> = adapters.iter().map(|a| a.info()).collect();
    let mut report = Report {
        seed: settings.seed,
        next: settings.start,
        ..Report::default()
    };
    let mut raw_per_key: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut by_key: BTreeMap<(String, String, String), usize> =
        BTreeMap::new();
    let mut oracle_time = Duration::ZERO;
    let mut oracle_checks = 0usize;
    'outer: loop {
        let mut batch: Vec<(String, Input)> =
            Vec::with_capacity(settings.batch);
        for _ in 0..settings.batch {
            if settings.max_inputs.is_some_and(|m| {
                report.inputs as u64 + batch.len() as u64 >= m
            }) || settings.time.is_some_and(|t| started.elapsed() >= t)
            {
                break;
            }
            match inputs.next() {
                Some(i) => batch.push(i),
                None => break,
            }
        }
        if batch.is_empty() {
            break 'outer;
        }
        // The oracle, under both profiles.
        let t = Instant::now();
        let oracle: Vec<Vec<[Option<OVerdict>; 2]>> = batch
            .iter()
            .map(|(_, c)| {
                let parsed: Vec<RobotsTxt> = profiles
                    .iter()
                    .map(|p| RobotsTxt::parse(&c.robots, p))
                    .collect();
                c.urls
                    .iter()
                    .map(|u| {
                        let v = |k: usize| {
                            parsed[k]
                                .decide(&c.agent, u)
                                .ok()
                                .map(|d| d.verdict)
                        };
                        [v(0), v(1)]
                    })
                    .collect()
            })
            .collect();
        oracle_time += t.elapsed();
        oracle_checks += oracle.iter().map(Vec::len).sum::<usize>() * 2;
        // Every adapter, on the whole batch.
        let requests: Vec<Request> = batch
            .iter()
            .flat_map(|(_, c)| {
                let body: Arc<[u8]> = Arc::from(c.robots.as_slice());
                c.urls.iter().map(move |u| Request::Decide {
                    robots: body.clone(),
                    agent: c.agent.clone(),
                    url: u.clone(),
                })
            })
            .collect();
        let answers: Vec<Vec<Reply>> = std::thread::scope(|s| {
            let handles: Vec<_> = adapters
                .iter_mut()
                .map(|a| {
                    let requests = &requests;
                    s.spawn(move || {
                        let caps = a.info().capabilities;
                        let t = Instant::now();
                        let (ok, skipped): (Vec<usize>, Vec<usize>) = (0
                            ..requests.len())
                            .partition(|&i| caps.admits(&requests[i]).is_ok());
                        let asked: Vec<Request> =
                            ok.iter().map(|&i| requests[i].clone()).collect();
                        let mut out =
                            vec![
                                Reply::not_applicable("not admitted");
                                requests.len()
                            ];
                        for (i, r) in ok.iter().zip(a.answer_batch(&asked)) {
                            out[*i] = r;
                        }
                        let _ = skipped;
                        (out, t.elapsed())
                    })
                })
                .collect();
            handles
                .into_iter()
                .zip(&infos)
                .map(|(h, info)| {
                    let (out, took) =
                        h.join().expect("adapter thread panicked");
                    report
                        .adapters
                        .entry(info.name.clone())
                        .or_default()
                        .seconds += took.as_secs_f64();
                    out
                })
                .collect()
        });
        // Compare, classify, minimise.
        let mut k = 0;
        for (bi, (origin, c)) in batch.iter().enumerate() {
            for (ui, url) in c.urls.iter().enumerate() {
                report.checks += 1;
                for (ai, info) in infos.iter().enumerate() {
                    let reply = &answers[ai][k];
                    if matches!(reply, Reply::NotApplicable { .. }) {
                        continue;
                    }
                    let totals =
                        report.adapters.entry(info.name.clone()).or_default();
                    totals.checks += 1;
                    let pi = usize::from(info.profile == "google");
                    let differs = |o: Option<OVerdict>| match reply {
                        Reply::Verdict { verdict, .. } => {
                            Some(matches!(verdict, Verdict::Allowed))
                                != o.map(|v| v == OVerdict::Allowed)
                        }
                        _ => true,
                    };
                    for (p, profile) in profiles.iter().enumerate() {
                        if differs(oracle[bi][ui][p]) {
                            *totals
                                .disagreements_by_profile
                                .entry(profile.name.to_string())
                                .or_default() += 1;
                        }
                    }
                    if !differs(oracle[bi][ui][pi]) {
                        continue;
                    }
                    totals.disagreements += 1;
                    let subject = Subject {
                        robots: c.robots.clone(),
                        agent: c.agent.clone(),
                        url: url.clone(),
                    };
                    let e = explain(&subject, &profiles[pi], reply);
                    *totals.axes.entry(e.axis()).or_default() += 1;
                    let raw_key = (info.name.clone(), e.name());
                    let seen = raw_per_key.entry(raw_key).or_default();
                    *seen += 1;
                    if *seen > settings.per_key {
                        continue;
                    }
                    let finding = minimise_and_classify(
                        adapters[ai].as_mut(),
                        info,
                        &profiles,
                        subject,
                        reply,
                        origin,
                        settings.minimise_budget,
                    );
                    let key = (
                        finding.adapter.clone(),
                        finding.explanation.clone(),
                        finding.shape.clone(),
                    );
                    match by_key.get(&key) {
                        Some(&i) => {
                            let f = &mut report.findings[i];
                            f.count += 1;
                            if finding.robots.len() < f.robots.len() {
                                let count = f.count;
                                *f = Finding { count, ..finding };
                            }
                        }
                        None => {
                            by_key.insert(key, report.findings.len());
                            report.findings.push(finding);
                        }
                    }
                }
                k += 1;
            }
        }
        report.inputs += batch.len();
        report.next += batch.len() as u64;
        progress(report.inputs, report.findings.len());
    }
    // Which other adapters share each finding's answer.
    for f in &mut report.findings {
        let s = Subject {
            robots: f.robots.clone(),
            agent: f.agent.clone(),
            url: f.url.clone(),
        };
        let mut shared = Vec::new();
        for (a, info) in adapters.iter_mut().zip(&infos) {
            if info.name == f.adapter {
                continue;
            }
            let r = ask(a.as_mut(), &s);
            if describe(&r) == f.answer {
                shared.push(info.name.clone());
            }
        }
        f.shared_with = shared;
    }
    report.seconds = started.elapsed().as_secs_f64();
    report.oracle_rate = if oracle_time.is_zero() {
        0.0
    } else {
        oracle_checks as f64 / oracle_time.as_secs_f64()
    };
    report
}

fn describe(r: &Reply) -> String {
    r.word().to_string()
}

fn minimise_and_classify(
    adapter: &mut dyn Adapter,
    info: &Info,
    profiles: &[Profile; 2],
    subject: Subject,
    reply: &Reply,
    origin: &str,
    budget: usize,
) -> Finding {
    let pi = usize::from(info.profile == "google");
    let base = &profiles[pi];
    let oracle_then = oracle_verdict(&subject, base);
    // Timeouts are too slow to minimise.
    let small = if matches!(reply, Reply::TimedOut) {
        subject
    } else {
        minimise(subject, budget, &mut |s: &Subject| {
            oracle_verdict(s, base) == oracle_then
                && same_answer(&ask(adapter, s), reply)
        })
    };
    let e = explain(&small, base, reply);
    Finding {
        adapter: info.name.clone(),
        profile: info.profile.clone(),
        explanation: e.name(),
        axis: e.axis(),
        clauses: e.clauses(),
        shape: shape(&small),
        answer: describe(reply),
        oracle: profiles
            .iter()
            .map(|p| (p.name.to_string(), word(oracle_verdict(&small, p))))
            .collect(),
        robots: small.robots,
        agent: small.agent,
        url: small.url,
        shared_with: vec![],
        origin: origin.to_string(),
        count: 1,
    }
}
