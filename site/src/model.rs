//! What the site shows, gathered from the inputs: one [`Parser`] per
//! adapter (a matrix column, a history, or a register file), ranked, with
//! its certificate and badge (`robots_runner::certify` and
//! `robots_runner::badge`, the very ones `certify` uses), its register
//! bugs and its histories; and the clauses the matrices cite.
//!
//! It computes no outcome and no score of its own: scores are the
//! columns' `levels`, certificates are the runner's, fits the matrix's.

use std::collections::BTreeMap;
use std::path::PathBuf;

use robots_fingerprint::register::{Entry, File as RegisterFile};
use robots_runner::badge::Badge;
use robots_runner::certify::{Certificate, certify};
use robots_runner::matrix::Column;

use crate::html::slug;
use crate::input::Inputs;

/// One parser on the site.
#[derive(Debug)]
pub struct Parser {
    /// The adapter's name (`python-protego`, `python-protego@0.3.1`).
    pub name: String,
    /// Its page and badge's file stem.
    pub slug: String,
    /// Its column, when a matrix ran it: (report index, column).
    pub column: Option<(usize, Column)>,
    /// Its certificate, when its column is ready.
    pub certificate: Option<Certificate>,
    /// Its badge, when its column is ready.
    pub badge: Option<Badge>,
    /// The register's bugs of its adapter (the bare name's).
    pub bugs: Vec<Entry>,
    /// Indexes into [`Inputs::histories`] of its adapter's histories.
    pub histories: Vec<usize>,
}

impl Parser {
    /// The adapter's bare name (without `@VERSION`).
    pub fn base(&self) -> &str {
        self.name.split('@').next().unwrap_or(&self.name)
    }

    /// Passed over scored at `level` in its column, as a percentage.
    pub fn percent(&self, level: &str) -> Option<f64> {
        let (_, c) = self.column.as_ref()?;
        let [p, t] = *c.levels.get(level)?;
        (t > 0).then(|| 100.0 * p as f64 / t as f64)
    }

    /// Whether its column ran.
    pub fn ready(&self) -> bool {
        self.column.as_ref().is_some_and(|(_, c)| c.status == "ready")
    }
}

/// The site's content.
#[derive(Debug)]
pub struct Site {
    /// The inputs.
    pub inputs: Inputs,
    /// The parsers, ranked: ready columns by MUST, then SHOULD, then
    /// GOOGLE score (highest first), then by name; then the others by name.
    pub parsers: Vec<Parser>,
    /// Every clause any matrix cites: id → (level, section, text).
    pub clauses: BTreeMap<String, [String; 3]>,
    /// What was left out, and why (a column in two reports).
    pub notes: Vec<String>,
}

/// The levels whose scores rank parsers, in order.
pub const RANK_LEVELS: [&str; 3] = ["MUST", "SHOULD", "GOOGLE"];

impl Site {
    /// Gathers the site from the inputs and the register's files.
    pub fn gather(
        inputs: Inputs,
        register: Vec<(PathBuf, RegisterFile)>,
    ) -> Site {
        let mut parsers: Vec<Parser> = Vec::new();
        let mut clauses = BTreeMap::new();
        let mut notes = Vec::new();
        let new = |name: &str| Parser {
            name: name.to_string(),
            slug: slug(name),
            column: None,
            certificate: None,
            badge: None,
            bugs: vec![],
            histories: vec![],
        };
        for (ri, r) in inputs.reports.iter().enumerate() {
            for (id, c) in &r.matrix.clauses {
                clauses.entry(id.clone()).or_insert_with(|| c.clone());
            }
            for col in &r.matrix.adapters {
                if let Some(p) =
                    parsers.iter().find(|p| p.name == col.info.name)
                {
                    let first = p.column.as_ref().map_or(0, |(i, _)| *i);
                    notes.push(format!(
                        "{}: {} is shown from {} (its first report)",
                        r.shown, col.info.name, inputs.reports[first].shown
                    ));
                    continue;
                }
                let mut p = new(&col.info.name);
                p.certificate = certify(&r.matrix, &col.info.name);
                if col.status == "ready" {
                    p.badge = Some(Badge::of(col, &r.matrix.profile));
                }
                p.column = Some((ri, col.clone()));
                parsers.push(p);
            }
        }
        for (hi, (_, h)) in inputs.histories.iter().enumerate() {
            if !parsers.iter().any(|p| p.name == h.adapter) {
                parsers.push(new(&h.adapter));
            }
            for p in parsers.iter_mut().filter(|p| p.base() == h.adapter) {
                p.histories.push(hi);
            }
        }
        for (_, f) in register {
            if !parsers.iter().any(|p| p.name == f.adapter) {
                parsers.push(new(&f.adapter));
            }
            for p in parsers.iter_mut().filter(|p| p.base() == f.adapter) {
                p.bugs.extend(f.bug.iter().cloned());
            }
        }
        parsers.sort_by(|a, b| {
            b.ready().cmp(&a.ready()).then_with(|| {
                for level in RANK_LEVELS {
                    let (x, y) = (a.percent(level), b.percent(level));
                    let o = y.unwrap_or(-1.0).total_cmp(&x.unwrap_or(-1.0));
                    if o.is_ne() {
                        return o;
                    }
                }
                a.name.cmp(&b.name)
            })
        });
        Site { inputs, parsers, clauses, notes }
    }
}
