//! A parser over its releases: one matrix whose columns are releases of
//! one adapter (`NAME@VERSION`), read back as a history — per release the
//! scores by level and category and the fitted reading, and between
//! consecutive releases every check whose outcome changed, with its case,
//! clauses and both answers.
//!
//! It reads a finished matrix and the fits made from it
//! ([`crate::from_matrix::fit_matrix`]); it never asks a parser, never
//! installs one, and never judges an answer itself (the outcomes are the
//! matrix's, under the profile each column was counted under).
//! Rendering is in [`crate::history_render`].

use std::collections::BTreeMap;

use robots_runner::matrix::{Matrix, counting_profile};
use robots_runner::run::Outcome;
use serde::{Deserialize, Serialize};

/// One release asked for.
#[derive(Clone, Debug)]
pub struct Asked {
    /// The release (`0.3.1`).
    pub version: String,
    /// Its adapter's name in the matrix (`python-protego@0.3.1`), or why
    /// it could not be run (not released, not installable here).
    pub column: Result<String, String>,
}

/// One release in a history.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Release {
    /// The release (`0.3.1`).
    pub version: String,
    /// The adapter that ran it (`python-protego@0.3.1`).
    pub adapter: String,
    /// The version the adapter reported of itself (`protego 0.3.1`).
    pub reported: String,
    /// `ready`, or why it has no results (`unavailable: …`).
    pub status: String,
    /// Outcome counts.
    pub counts: BTreeMap<String, usize>,
    /// Passed and scored per level (`MUST`, `SHOULD`, …).
    pub levels: BTreeMap<String, [usize; 2]>,
    /// Passed and scored per category.
    pub categories: BTreeMap<String, [usize; 2]>,
    /// The fitted reading (`≈ rfc9309 + switch=value (97.1%)`).
    pub fingerprint: Option<String>,
}

impl Release {
    /// Whether it ran.
    pub fn ran(&self) -> bool {
        self.status == "ready"
    }

    /// Passed over scored at `level`, as a percentage.
    pub fn percent(&self, level: &str) -> Option<f64> {
        let [p, t] = *self.levels.get(level)?;
        (t > 0).then(|| 100.0 * p as f64 / t as f64)
    }
}

/// How a check's outcome moved between two releases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Movement {
    /// To `pass` from a failure (fail, error, crash, timeout).
    Fixed,
    /// From `pass` to a failure.
    Regressed,
    /// Any other change (e.g. fail → error, not-applicable → pass).
    Other,
}

/// One check whose outcome changed between consecutive releases.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Change {
    /// The earlier release.
    pub from: String,
    /// The later release.
    pub to: String,
    /// Fixed, regressed or other.
    pub movement: Movement,
    /// The check's name.
    pub check: String,
    /// Its case.
    pub case: String,
    /// Its level.
    pub level: String,
    /// The clauses it tests.
    pub clauses: Vec<String>,
    /// What is expected, under the profile counted.
    pub expect: String,
    /// The outcome and answer in the earlier release.
    pub before: Side,
    /// The outcome and answer in the later release.
    pub after: Side,
}

/// One release's side of a change.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Side {
    /// Its outcome (`pass`, `fail`, …).
    pub outcome: String,
    /// Its answer (`allowed`, `timeout`, a value, …).
    pub answer: String,
}

/// A parser over its releases.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct History {
    /// The adapter (its bare name).
    pub adapter: String,
    /// The profile the outcomes were counted under.
    pub profile: String,
    /// The cases folder.
    pub cases_dir: String,
    /// The releases, oldest first (unavailable ones included).
    pub releases: Vec<Release>,
    /// Every outcome change between consecutive releases that ran.
    pub changes: Vec<Change>,
}

impl History {
    /// The history of `adapter` over `asked` (oldest first) from the
    /// matrix `m` that ran the available releases as its columns (after
    /// [`crate::from_matrix::fit_matrix`], whose labels it carries); no
    /// matrix when no release could run.
    pub fn from_matrix(
        adapter: &str,
        asked: &[Asked],
        m: Option<&Matrix>,
    ) -> History {
        let mut releases = Vec::new();
        let mut profile = m.map_or("claimed".into(), |m| m.profile.clone());
        for a in asked {
            let column = a.column.as_ref().ok().and_then(|name| {
                m?.adapters.iter().find(|c| &c.info.name == name)
            });
            let release = match (column, &a.column) {
                (Some(c), _) => {
                    profile = counting_profile(&profile, &c.info).to_string();
                    let status = if c.status == "ready" {
                        "ready".to_string()
                    } else {
                        let why = c.why.clone().unwrap_or_default();
                        format!("unavailable: {} {why}", c.status)
                            .trim_end()
                            .to_string()
                    };
                    Release {
                        version: a.version.clone(),
                        adapter: c.info.name.clone(),
                        reported: c.info.version.clone(),
                        status,
                        counts: c.counts.clone(),
                        levels: c.levels.clone(),
                        categories: c.categories.clone(),
                        fingerprint: c.fingerprint.clone(),
                    }
                }
                (None, Ok(name)) => unavailable(a, name, "not in the matrix"),
                (None, Err(why)) => unavailable(a, "", why),
            };
            releases.push(release);
        }
        let ran: Vec<&Release> = releases.iter().filter(|r| r.ran()).collect();
        let mut changes = Vec::new();
        if let Some(m) = m {
            for pair in ran.windows(2) {
                changes.extend(changes_between(m, pair[0], pair[1], &profile));
            }
        }
        History {
            adapter: adapter.to_string(),
            profile,
            cases_dir: m.map_or_else(String::new, |m| m.cases_dir.clone()),
            releases,
            changes,
        }
    }

    /// Fixed and regressed checks from `from` to `to`.
    pub fn tally(&self, from: &str, to: &str) -> (usize, usize, usize) {
        let mut t = (0, 0, 0);
        for c in self.changes.iter().filter(|c| c.from == from && c.to == to) {
            match c.movement {
                Movement::Fixed => t.0 += 1,
                Movement::Regressed => t.1 += 1,
                Movement::Other => t.2 += 1,
            }
        }
        t
    }

    /// The levels scored in any release, in the usual order.
    pub fn levels(&self) -> Vec<String> {
        let order = ["MUST", "SHOULD", "MAY", "DEF", "GOOGLE"];
        let mut seen: Vec<String> = Vec::new();
        for r in &self.releases {
            for l in r.levels.keys() {
                if !seen.contains(l) {
                    seen.push(l.clone());
                }
            }
        }
        let rank = |l: &String| {
            order.iter().position(|o| o == l).unwrap_or(order.len())
        };
        seen.sort_by(|a, b| rank(a).cmp(&rank(b)).then(a.cmp(b)));
        seen
    }
}

fn unavailable(a: &Asked, adapter: &str, why: &str) -> Release {
    Release {
        version: a.version.clone(),
        adapter: adapter.to_string(),
        reported: String::new(),
        status: format!("unavailable: {why}"),
        counts: BTreeMap::new(),
        levels: BTreeMap::new(),
        categories: BTreeMap::new(),
        fingerprint: None,
    }
}

/// How an outcome moving from `a` to `b` counts.
pub fn movement(a: Outcome, b: Outcome) -> Option<Movement> {
    let failed = |o: Outcome| {
        matches!(
            o,
            Outcome::Fail | Outcome::Error | Outcome::Crash | Outcome::Timeout
        )
    };
    if a == b {
        return None;
    }
    Some(match (a, b) {
        (a, Outcome::Pass) if failed(a) => Movement::Fixed,
        (Outcome::Pass, b) if failed(b) => Movement::Regressed,
        _ => Movement::Other,
    })
}

fn changes_between(
    m: &Matrix,
    from: &Release,
    to: &Release,
    profile: &str,
) -> Vec<Change> {
    let mut out = Vec::new();
    for row in &m.checks {
        let (Some(a), Some(b)) =
            (row.results.get(&from.adapter), row.results.get(&to.adapter))
        else {
            continue;
        };
        let (Some(&oa), Some(&ob)) =
            (a.outcome.get(profile), b.outcome.get(profile))
        else {
            continue;
        };
        let Some(movement) = movement(oa, ob) else { continue };
        out.push(Change {
            from: from.version.clone(),
            to: to.version.clone(),
            movement,
            check: row.name.clone(),
            case: row.case.clone(),
            level: row.level.clone(),
            clauses: row.clauses.clone(),
            expect: row.expect.get(profile).cloned().unwrap_or_default(),
            before: Side {
                outcome: oa.word().into(),
                answer: a.answer.clone(),
            },
            after: Side {
                outcome: ob.word().into(),
                answer: b.answer.clone(),
            },
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_moves_are_fixes_regressions_or_other() {
        use Outcome::*;
        assert_eq!(movement(Fail, Pass), Some(Movement::Fixed));
        assert_eq!(movement(Timeout, Pass), Some(Movement::Fixed));
        assert_eq!(movement(Pass, Crash), Some(Movement::Regressed));
        assert_eq!(movement(Pass, Fail), Some(Movement::Regressed));
        assert_eq!(movement(Fail, Error), Some(Movement::Other));
        assert_eq!(movement(NotApplicable, Pass), Some(Movement::Other));
        assert_eq!(movement(Pass, Unscored), Some(Movement::Other));
        assert_eq!(movement(Fail, Fail), None);
    }
}
