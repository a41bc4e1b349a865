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
