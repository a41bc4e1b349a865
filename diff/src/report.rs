//! What a differential run produces: per-adapter totals and the distinct
//! findings, serialised as `summary.json`.
//!
//! Data only; it never runs anything, and its field names are the
//! `summary.json` format (renaming one changes that file).

use std::collections::BTreeMap;

use serde::Serialize;

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
    /// Seconds spent waiting for the adapter's answers to the batches.
    pub seconds: f64,
    /// Seconds spent waiting for its answers while minimising its
    /// findings and comparing every finding (`shared_with`).
    pub minimise_seconds: f64,
    /// Raw disagreements per axis.
    pub axes: BTreeMap<String, usize>,
}

impl Totals {
    /// Checks per second of the adapter's own time on the batches.
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
    /// Where the wall time went.
    pub timing: Timing,
    /// Per adapter.
    pub adapters: BTreeMap<String, Totals>,
    /// Distinct findings.
    pub findings: Vec<Finding>,
}

/// Where a run's wall time went, in seconds on the loop's thread: the
/// parsers' share (waiting for adapters) and the loop's own (the rest).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Timing {
    /// Waiting for the adapters' answers to the batches (all adapters
    /// at once, one thread each: the wall time of the slowest).
    pub parsers: f64,
    /// Waiting for an adapter while minimising (one answer at a time).
    pub minimise_parsers: f64,
    /// Asking every adapter about every finding (`shared_with`).
    pub share_parsers: f64,
    /// Drawing the inputs (generation, or the corpus's files).
    pub generate: f64,
    /// The oracle's verdicts on the batches (both profiles).
    pub oracle: f64,
    /// Classifying disagreements (re-deciding under switches).
    pub classify: f64,
    /// Minimising findings, without the adapter's answers (the oracle's
    /// verdicts on the shrunk checks, the shrinking itself).
    pub minimise: f64,
    /// The rest: tallies, deduplication, bookkeeping.
    pub other: f64,
}

impl Timing {
    /// Seconds waiting for parsers.
    pub fn parsers_total(&self) -> f64 {
        self.parsers + self.minimise_parsers + self.share_parsers
    }

    /// Seconds of the loop's own work.
    pub fn loop_total(&self) -> f64 {
        self.generate
            + self.oracle
            + self.classify
            + self.minimise
            + self.other
    }
}

impl Report {
    /// Checks per second of wall time.
    pub fn rate(&self) -> f64 {
        per_second(self.checks, self.seconds)
    }

    /// Checks per second of the loop's own time (the parsers' excluded):
    /// the rate the loop would reach with parsers that take no time.
    pub fn loop_rate(&self) -> f64 {
        per_second(self.checks, self.timing.loop_total())
    }
}

fn per_second(n: usize, seconds: f64) -> f64 {
    if seconds > 0.0 { n as f64 / seconds } else { 0.0 }
}
