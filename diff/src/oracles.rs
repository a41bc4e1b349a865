//! The oracle as the differential fuzzer asks it: the reference adapters,
//! one per built-in profile, through the `Adapter` trait like any other
//! parser.
//!
//! With fitted readings ([`crate::classifier::Fits`]), an adapter that
//! has one is judged by the reference adapter under that reading
//! instead of its claimed profile's.
//!
//! It only collects verdicts and times them; it never calls the oracle
//! crate, and never classifies (that is [`crate::classifier`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use robots_adapters::reference::Reference;
use robots_adapters::{Adapter, Reply, Request, Verdict};

use crate::classifier::{Fits, Why, why};
use crate::minimise::Subject;

/// The oracle, asked through its reference adapters: one per built-in
/// profile, in the order of [`Oracles::PROFILES`].
pub struct Oracles {
    /// (profile, its reference adapter), in [`Oracles::PROFILES`] order.
    pub(crate) references: Vec<(String, Box<dyn Adapter>)>,
    /// Time spent asking them.
    time: Duration,
    /// Checks they answered (each profile counts).
    checks: usize,
    /// Per adapter with a fitted reading: the reading and its reference.
    fitted: Vec<(String, crate::classifier::Fitted, Box<dyn Adapter>)>,
}

/// The oracle's verdict for one check under each profile (`None`: the
/// oracle reported an error for the input).
pub(crate) type Verdicts = Vec<Option<Verdict>>;

impl Oracles {
    /// The profiles every disagreement is counted under.
    pub const PROFILES: [&str; 2] = ["rfc9309", "google"];

    /// The reference adapters for [`Oracles::PROFILES`].
    pub fn new() -> Oracles {
        let references = Oracles::PROFILES
            .iter()
            .filter_map(|p| Reference::for_profile(p))
            .map(Reference::verdicts_only)
            .map(|r| {
                let profile = r.info().profile;
                (profile, Box::new(r) as Box<dyn Adapter>)
            })
            .collect();
        Oracles {
            references,
            time: Duration::ZERO,
            checks: 0,
            fitted: Vec::new(),
        }
    }

    /// [`Oracles::new`], judging each adapter of `fits` by its fitted
    /// reading.
    pub fn with_fits(fits: &Fits) -> Oracles {
        let mut o = Oracles::new();
        o.fitted = fits
            .iter()
            .map(|(name, f)| (name.clone(), f.clone(), f.reference()))
            .collect();
        o
    }

    /// The verdict adapter `name` is judged by on `s`: its fitted
    /// reading's, else reference `pi`'s (`built_in`, when already
    /// asked).
    pub(crate) fn judged(
        &mut self,
        name: &str,
        pi: usize,
        s: &Subject,
        built_in: Option<Option<Verdict>>,
    ) -> Option<Verdict> {
        match self.fitted.iter_mut().find(|(n, ..)| n == name) {
            Some((_, _, r)) => verdict(&r.answer(&decide(s))),
            None => built_in.unwrap_or_else(|| self.verdict_of(pi, s)),
        }
    }

    /// Whether adapter `name` is judged against a fitted reading.
    pub(crate) fn is_fitted(&self, name: &str) -> bool {
        self.fitted.iter().any(|(n, ..)| n == name)
    }

    /// Why adapter `name` answered `reply` to `s`: against its fitted
    /// reading, else against `profile` (its claimed one).
    pub(crate) fn why_for(
        &self,
        name: &str,
        s: &Subject,
        profile: &str,
        reply: &Reply,
    ) -> Why {
        match self.fitted.iter().find(|(n, ..)| n == name) {
            Some((_, f, _)) => f.why(s, reply),
            None => why(s, profile, reply),
        }
    }

    /// The reference an adapter claiming `profile` is compared with: the
    /// one of that profile, else the first (`rfc9309`).
    pub(crate) fn index_for(&self, profile: &str) -> usize {
        self.references.iter().position(|(p, _)| p == profile).unwrap_or(0)
    }

    /// Every profile's verdict on every request, request by request.
    pub(crate) fn verdicts(&mut self, requests: &[Request]) -> Vec<Verdicts> {
        let t = Instant::now();
        let per_profile: Vec<Vec<Option<Verdict>>> = self
            .references
            .iter_mut()
            .map(|(_, r)| {
                r.answer_batch(requests).iter().map(verdict).collect()
            })
            .collect();
        self.time += t.elapsed();
        self.checks += requests.len() * per_profile.len();
        (0..requests.len())
            .map(|i| per_profile.iter().map(|v| v[i]).collect())
            .collect()
    }

    /// The verdict of reference `i` on one subject.
    pub(crate) fn verdict_of(
        &mut self,
        i: usize,
        s: &Subject,
    ) -> Option<Verdict> {
        verdict(&self.references[i].1.answer(&decide(s)))
    }

    /// Seconds spent on the batches' verdicts.
    pub(crate) fn seconds(&self) -> f64 {
        self.time.as_secs_f64()
    }

    /// Checks per second.
    pub(crate) fn rate(&self) -> f64 {
        if self.time.is_zero() {
            0.0
        } else {
            self.checks as f64 / self.time.as_secs_f64()
        }
    }
}

impl Default for Oracles {
    fn default() -> Oracles {
        Oracles::new()
    }
}

fn verdict(r: &Reply) -> Option<Verdict> {
    match r {
        Reply::Verdict { verdict, .. } => Some(*verdict),
        _ => None,
    }
}

pub(crate) fn decide(s: &Subject) -> Request {
    Request::Decide {
        robots: Arc::from(s.robots.as_slice()),
        agent: s.agent.clone(),
        url: s.url.clone(),
    }
}
