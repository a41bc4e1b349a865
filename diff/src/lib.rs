//! Differential runs: generate checks (or take them from real files), ask
//! the oracle and every selected adapter, and for each disagreement
//! minimise it, classify it by the oracle switch that explains it, keep
//! one example per (adapter, explanation, shape), and write each as a
//! ready-to-promote case.
//!
//! Deterministic for a seed: check `i` of seed `s` is always the same,
//! so a run can resume at the next index.
//!
//! The oracle's verdicts come from the reference adapters, through the
//! `Adapter` trait like every other parser's; only [`classifier`] calls
//! the oracle itself, to re-decide under toggled switches. This crate
//! never judges which reading is right: a finding is a candidate case
//! whose expectations a human reviews before `promote`.

mod classes;
pub mod classifier;
pub mod corpus;
pub mod finding;
pub mod minimise;
mod oracles;
mod report;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use robots_adapters::{Adapter, Info, Reply, Request, Verdict};
use robots_gen::Check;

use self::classes::{Class, Classes};
use self::minimise::{Subject, minimise_batched};
pub use self::oracles::Oracles;
use self::oracles::{Verdicts, decide};
pub use self::report::{Finding, Report, Timing, Totals};

/// One generated or harvested check.
pub type Input = Check;

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
    let req = decide(s);
    if adapter.info().capabilities.admits(&req).is_err() {
        return Reply::not_applicable("not admitted");
    }
    adapter.answer(&req)
}

/// A verdict's word, or `error` when the oracle reported one.
fn word(v: Option<Verdict>) -> String {
    v.map_or_else(|| "error".into(), |v| v.as_str().into())
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
    /// Fitted readings: adapters named here are judged by them.
    pub fits: classifier::Fits,
}

/// The state of a run between batches.
struct Run<'a> {
    settings: &'a Settings,
    started: Instant,
    infos: Vec<Info>,
    oracles: Oracles,
    report: Report,
    /// Raw disagreements seen per (adapter, explanation).
    raw_per_key: BTreeMap<(String, String), usize>,
    /// The finding for each (adapter, explanation, shape).
    by_key: BTreeMap<(String, String, String), usize>,
    /// Classifications, memoised and prepared per batch.
    classes: Classes,
}

/// One check of a batch: its input, its URL, its request.
struct Item<'b> {
    origin: &'b str,
    input: &'b Input,
    url: &'b str,
}

impl Item<'_> {
    /// The check as a subject to classify or minimise.
    fn subject(&self) -> Subject {
        Subject {
            robots: self.input.robots.clone(),
            agent: self.input.agent.clone(),
            url: self.url.to_string(),
        }
    }
}

/// Runs the differential loop over `inputs` (an iterator of (origin,
/// input)) against `adapters`. `progress` gets (inputs done, findings).
pub fn run(
    adapters: &mut [Box<dyn Adapter>],
    inputs: &mut dyn Iterator<Item = (String, Input)>,
    settings: &Settings,
    progress: &mut dyn FnMut(usize, usize),
) -> Report {
    let mut run = Run {
        settings,
        started: Instant::now(),
        infos: adapters.iter().map(|a| a.info()).collect(),
        oracles: Oracles::with_fits(&settings.fits),
        report: Report {
            seed: settings.seed,
            next: settings.start,
            ..Report::default()
        },
        raw_per_key: BTreeMap::new(),
        by_key: BTreeMap::new(),
        classes: Classes::default(),
    };
    loop {
        let t = Instant::now();
        let batch = run.next_batch(inputs);
        run.report.timing.generate += t.elapsed().as_secs_f64();
        if batch.is_empty() {
            break;
        }
        run.batch(adapters, &batch);
        progress(run.report.inputs, run.report.findings.len());
    }
    let t = Instant::now();
    run.share_findings(adapters);
    run.report.timing.share_parsers = t.elapsed().as_secs_f64();
    run.report.seconds = run.started.elapsed().as_secs_f64();
    run.report.oracle_rate = run.oracles.rate();
    let timing = &mut run.report.timing;
    timing.oracle = run.oracles.seconds();
    let accounted = timing.parsers_total() + timing.loop_total();
    timing.other = (run.report.seconds - accounted).max(0.0);
    run.report
}

impl Run<'_> {
    /// Up to `batch` inputs, fewer when the input or time budget ends.
    fn next_batch(
        &self,
        inputs: &mut dyn Iterator<Item = (String, Input)>,
    ) -> Vec<(String, Input)> {
        let s = self.settings;
        let mut batch = Vec::with_capacity(s.batch);
        while batch.len() < s.batch {
            let done = self.report.inputs as u64 + batch.len() as u64;
            if s.max_inputs.is_some_and(|m| done >= m)
                || s.time.is_some_and(|t| self.started.elapsed() >= t)
            {
                break;
            }
            match inputs.next() {
                Some(i) => batch.push(i),
                None => break,
            }
        }
        batch
    }

    /// One batch: ask everyone, then compare check by check.
    fn batch(
        &mut self,
        adapters: &mut [Box<dyn Adapter>],
        batch: &[(String, Input)],
    ) {
        let items: Vec<Item> = batch
            .iter()
            .flat_map(|(origin, input)| {
                input.urls.iter().map(move |url| Item { origin, input, url })
            })
            .collect();
        let requests = requests(batch);
        let oracle = self.oracles.verdicts(&requests);
        let t = Instant::now();
        let answers =
            ask_all(adapters, &self.infos, &requests, &mut self.report);
        self.report.timing.parsers += t.elapsed().as_secs_f64();
        // Every disagreement of the batch is classified (the tallies
        // need it): all at once, in parallel, before the ordered pass.
        let mut wanted = Vec::new();
        for (k, item) in items.iter().enumerate() {
            for (ai, replies) in answers.iter().enumerate() {
                let reply = &replies[k];
                let pi = self.oracles.index_for(&self.infos[ai].profile);
                if !matches!(reply, Reply::NotApplicable { .. })
                    && !self.oracles.is_fitted(&self.infos[ai].name)
                    && differs(reply, oracle[k][pi])
                {
                    wanted.push((
                        item.subject(),
                        self.oracles.references[pi].0.clone(),
                        reply.clone(),
                    ));
                }
            }
        }
        let t = Instant::now();
        self.classes.prepare(&wanted);
        self.report.timing.classify += t.elapsed().as_secs_f64();
        for (k, item) in items.iter().enumerate() {
            self.report.checks += 1;
            for (ai, replies) in answers.iter().enumerate() {
                self.compare(adapters, ai, item, &oracle[k], &replies[k]);
            }
        }
        self.report.inputs += batch.len();
        self.report.next += batch.len() as u64;
    }

    /// Tallies adapter `ai`'s answer to one check against the oracle's
    /// verdicts, and records it when it disagrees under the claimed
    /// profile.
    fn compare(
        &mut self,
        adapters: &mut [Box<dyn Adapter>],
        ai: usize,
        item: &Item,
        oracle: &Verdicts,
        reply: &Reply,
    ) {
        if matches!(reply, Reply::NotApplicable { .. }) {
            return;
        }
        let info = &self.infos[ai];
        let pi = self.oracles.index_for(&info.profile);
        let totals =
            self.report.adapters.entry(info.name.clone()).or_default();
        totals.checks += 1;
        for ((profile, _), o) in self.oracles.references.iter().zip(oracle) {
            if differs(reply, *o) {
                *totals
                    .disagreements_by_profile
                    .entry(profile.clone())
                    .or_default() += 1;
            }
        }
        // Most answers agree: the subject (a copy of the body) is made
        // only for a fitted adapter's judgement or a disagreement.
        let mut subject = None;
        let judged = if self.oracles.is_fitted(&info.name) {
            let s = subject.insert(item.subject());
            self.oracles.judged(&info.name, pi, s, Some(oracle[pi]))
        } else {
            oracle[pi]
        };
        if !differs(reply, judged) {
            return;
        }
        let subject = subject.unwrap_or_else(|| item.subject());
        totals.disagreements += 1;
        let profile = self.oracles.references[pi].0.clone();
        let t = Instant::now();
        let e = class_of(
            &self.oracles,
            &mut self.classes,
            &info.name,
            &subject,
            &profile,
            reply,
        );
        self.report.timing.classify += t.elapsed().as_secs_f64();
        let totals =
            self.report.adapters.entry(info.name.clone()).or_default();
        *totals.axes.entry(e.axis).or_default() += 1;
        let seen =
            self.raw_per_key.entry((info.name.clone(), e.name)).or_default();
        *seen += 1;
        if *seen > self.settings.per_key {
            return;
        }
        let finding = self.minimise_and_classify(
            adapters[ai].as_mut(),
            ai,
            subject,
            reply,
            item.origin,
        );
        self.keep(finding);
    }

    /// Adds a finding, or counts it against the one of the same key
    /// (keeping the smaller body).
    fn keep(&mut self, finding: Finding) {
        let key = (
            finding.adapter.clone(),
            finding.explanation.clone(),
            finding.shape.clone(),
        );
        match self.by_key.get(&key) {
            Some(&i) => {
                let f = &mut self.report.findings[i];
                f.count += 1;
                if finding.robots.len() < f.robots.len() {
                    let count = f.count;
                    *f = Finding { count, ..finding };
                }
            }
            None => {
                self.by_key.insert(key, self.report.findings.len());
                self.report.findings.push(finding);
            }
        }
    }

    /// Shrinks a disagreement while the oracle's verdict and the
    /// adapter's answer stay the same, then classifies the result.
    fn minimise_and_classify(
        &mut self,
        adapter: &mut dyn Adapter,
        ai: usize,
        subject: Subject,
        reply: &Reply,
        origin: &str,
    ) -> Finding {
        let info = self.infos[ai].clone();
        let pi = self.oracles.index_for(&info.profile);
        let oracles = &mut self.oracles;
        let started = Instant::now();
        let mut asking = Duration::ZERO;
        let oracle_then = oracles.judged(&info.name, pi, &subject, None);
        // Timeouts are too slow to minimise.
        let small = if matches!(reply, Reply::TimedOut) {
            subject
        } else {
            // The candidates the oracle still answers so are asked of
            // the adapter together: one round trip per batch.
            let budget = self.settings.minimise_budget;
            minimise_batched(subject, budget, &mut |cands: &[Subject]| {
                let same: Vec<usize> = (0..cands.len())
                    .filter(|&i| {
                        oracles.judged(&info.name, pi, &cands[i], None)
                            == oracle_then
                    })
                    .collect();
                let requests: Vec<Request> =
                    same.iter().map(|&i| decide(&cands[i])).collect();
                let (answers, took) = ask_admitted(adapter, &requests);
                asking += took;
                let mut keeps = vec![false; cands.len()];
                for (&i, answer) in same.iter().zip(&answers) {
                    keeps[i] = same_answer(answer, reply);
                }
                keeps
            })
        };
        let timing = &mut self.report.timing;
        timing.minimise_parsers += asking.as_secs_f64();
        timing.minimise += (started.elapsed() - asking).as_secs_f64();
        if let Some(t) = self.report.adapters.get_mut(&info.name) {
            t.minimise_seconds += asking.as_secs_f64();
        }
        let profile = oracles.references[pi].0.clone();
        let t = Instant::now();
        let e = class_of(
            oracles,
            &mut self.classes,
            &info.name,
            &small,
            &profile,
            reply,
        );
        self.report.timing.classify += t.elapsed().as_secs_f64();
        let oracle = (0..oracles.references.len())
            .map(|i| {
                let word = word(oracles.verdict_of(i, &small));
                (oracles.references[i].0.clone(), word)
            })
            .collect();
        Finding {
            adapter: info.name,
            profile: info.profile,
            explanation: e.name,
            axis: e.axis,
            clauses: e.clauses,
            shape: shape(&small),
            answer: describe(reply),
            oracle,
            robots: small.robots,
            agent: small.agent,
            url: small.url,
            shared_with: vec![],
            origin: origin.to_string(),
            count: 1,
        }
    }

    /// For each finding, the other adapters that give the same answer on
    /// its minimised input.
    fn share_findings(&mut self, adapters: &mut [Box<dyn Adapter>]) {
        for f in &mut self.report.findings {
            let s = Subject {
                robots: f.robots.clone(),
                agent: f.agent.clone(),
                url: f.url.clone(),
            };
            let mut shared = Vec::new();
            for (a, info) in adapters.iter_mut().zip(&self.infos) {
                if info.name == f.adapter {
                    continue;
                }
                let t = Instant::now();
                let answer = describe(&ask(a.as_mut(), &s));
                if let Some(totals) = self.report.adapters.get_mut(&info.name)
                {
                    totals.minimise_seconds += t.elapsed().as_secs_f64();
                }
                if answer == f.answer {
                    shared.push(info.name.clone());
                }
            }
            f.shared_with = shared;
        }
    }
}

/// One decide request per check (input × URL), in order.
fn requests(batch: &[(String, Input)]) -> Vec<Request> {
    batch
        .iter()
        .flat_map(|(_, c)| {
            let body: Arc<[u8]> = Arc::from(c.robots.as_slice());
            c.urls.iter().map(move |u| Request::Decide {
                robots: body.clone(),
                agent: c.agent.clone(),
                url: u.clone(),
            })
        })
        .collect()
}

/// Every adapter's answers to `requests`, adapters in parallel; what an
/// adapter cannot be asked is not applicable. Adds each adapter's time
/// to its totals.
fn ask_all(
    adapters: &mut [Box<dyn Adapter>],
    infos: &[Info],
    requests: &[Request],
    report: &mut Report,
) -> Vec<Vec<Reply>> {
    std::thread::scope(|s| {
        let handles: Vec<_> = adapters
            .iter_mut()
            .map(|a| s.spawn(move || ask_admitted(a.as_mut(), requests)))
            .collect();
        handles
            .into_iter()
            .zip(infos)
            .map(|(h, info)| {
                let (out, took) = h.join().expect("adapter thread panicked");
                report
                    .adapters
                    .entry(info.name.clone())
                    .or_default()
                    .seconds += took.as_secs_f64();
                out
            })
            .collect()
    })
}

/// One adapter's answers to the requests it admits, in one batch, and
/// how long it took.
fn ask_admitted(
    adapter: &mut dyn Adapter,
    requests: &[Request],
) -> (Vec<Reply>, Duration) {
    let caps = adapter.info().capabilities;
    let t = Instant::now();
    let admitted: Vec<usize> = (0..requests.len())
        .filter(|&i| caps.admits(&requests[i]).is_ok())
        .collect();
    let asked: Vec<Request> =
        admitted.iter().map(|&i| requests[i].clone()).collect();
    let mut out = vec![Reply::not_applicable("not admitted"); requests.len()];
    for (&i, r) in admitted.iter().zip(adapter.answer_batch(&asked)) {
        out[i] = r;
    }
    (out, t.elapsed())
}

/// The answer is not the oracle's verdict (a non-verdict always differs).
/// Why adapter `name` answered `reply` to `s`: against its fitted reading
/// when it has one (not memoised: a fit is one adapter's), else the
/// memoised classification under its claimed `profile`.
fn class_of(
    oracles: &Oracles,
    classes: &mut Classes,
    name: &str,
    s: &Subject,
    profile: &str,
    reply: &Reply,
) -> Class {
    if oracles.is_fitted(name) {
        let e = oracles.why_for(name, s, profile, reply);
        Class { name: e.name(), axis: e.axis(), clauses: e.clauses() }
    } else {
        classes.get(s, profile, reply)
    }
}

fn differs(reply: &Reply, oracle: Option<Verdict>) -> bool {
    match reply {
        Reply::Verdict { verdict, .. } => Some(*verdict) != oracle,
        _ => true,
    }
}

fn describe(r: &Reply) -> String {
    r.word().to_string()
}
