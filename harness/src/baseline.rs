//! Baselines for CI: the outcome of every check for every adapter, stored
//! as JSON. A run compared with its baseline fails only when an outcome
//! changed (a regression, or an unexpected pass); new and removed checks
//! are listed but do not fail it.
//!
//! Updating a baseline merges the run into it: outcomes of adapters and
//! checks the run did not cover are kept (a filtered run never shrinks a
//! baseline); replacing it is the caller's explicit choice. A comparison
//! says which adapters and checks the baseline lacks, so a run that the
//! baseline cannot judge is never reported as "0 changes".
//!
//! It compares outcome words; it never re-judges a check or reads a case.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::matrix::{Matrix, counting_profile};
use crate::output::{OutputError, atomic_write};
use crate::run::Outcome;

/// A baseline file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    /// The file cannot be read.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a baseline.
    #[error("{}: {source}", .path.display())]
    NotABaseline {
        /// The file.
        path: PathBuf,
        /// Why.
        source: serde_json::Error,
    },
}

/// The stored expectation: adapter → check → outcome word.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Baseline {
    /// The profile outcomes were counted under.
    pub profile: String,
    /// Outcomes per adapter.
    pub adapters: BTreeMap<String, BTreeMap<String, String>>,
}

/// One difference between a run and its baseline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The adapter.
    pub adapter: String,
    /// The check.
    pub check: String,
    /// The outcome in the baseline (`None`: a new check).
    pub was: Option<String>,
    /// The outcome now (`None`: the check is gone).
    pub now: Option<String>,
}

impl Change {
    /// Whether this change fails the run: an outcome that changed, not a
    /// check that appeared or disappeared.
    pub fn fails(&self) -> bool {
        self.was.is_some() && self.now.is_some()
    }

    /// `regression`, `unexpected pass`, `changed`, `new` or `removed`.
    pub fn kind(&self) -> &'static str {
        match (self.was.as_deref(), self.now.as_deref()) {
            (None, _) => "new",
            (_, None) => "removed",
            (Some("pass"), Some(_)) => "regression",
            (Some(_), Some("pass")) => "unexpected pass",
            _ => "changed",
        }
    }
}

impl Baseline {
    /// The outcomes of a run (ready adapters only).
    pub fn of(m: &Matrix) -> Baseline {
        let mut adapters = BTreeMap::new();
        for col in m.adapters.iter().filter(|c| c.status == "ready") {
            let p = counting_profile(&m.profile, &col.info);
            let outcomes = m
                .checks
                .iter()
                .filter_map(|row| {
                    let cell = row.results.get(&col.info.name)?;
                    let o = cell
                        .outcome
                        .get(p)
                        .copied()
                        .unwrap_or(Outcome::Unscored);
                    Some((row.name.clone(), o.word().to_string()))
                })
                .collect();
            adapters.insert(col.info.name.clone(), outcomes);
        }
        Baseline { profile: m.profile.clone(), adapters }
    }

    /// Reads a baseline file.
    ///
    /// # Errors
    ///
    /// When it cannot be read or is not a baseline.
    pub fn read(path: &Path) -> Result<Baseline, BaselineError> {
        let text = std::fs::read_to_string(path).map_err(|source| {
            BaselineError::Io { path: path.to_path_buf(), source }
        })?;
        serde_json::from_str(&text).map_err(|source| {
            BaselineError::NotABaseline { path: path.to_path_buf(), source }
        })
    }

    /// Writes it, pretty-printed, one check per line, atomically: a
    /// failed write leaves the old file as it was.
    ///
    /// # Errors
    ///
    /// On any I/O error, naming the path.
    pub fn write(&self, path: &Path) -> Result<(), OutputError> {
        let text = serde_json::to_string_pretty(self).map_err(|e| {
            OutputError::Io {
                path: path.to_path_buf(),
                source: std::io::Error::other(e),
            }
        })?;
        atomic_write(path, (text + "\n").as_bytes())
    }

    /// Merges the outcomes of `now` into `self`: each of its outcomes
    /// replaces the stored one; adapters and checks `now` does not cover
    /// keep theirs. Returns how many outcomes were added or changed.
    pub fn merge(&mut self, now: &Baseline) -> usize {
        let mut touched = 0;
        for (adapter, outcomes) in &now.adapters {
            let stored = self.adapters.entry(adapter.clone()).or_default();
            for (check, o) in outcomes {
                if stored.get(check) != Some(o) {
                    stored.insert(check.clone(), o.clone());
                    touched += 1;
                }
            }
        }
        touched
    }

    /// The adapters of `now` the baseline knows nothing about.
    pub fn missing_adapters<'a>(&self, now: &'a Baseline) -> Vec<&'a str> {
        now.adapters
            .keys()
            .filter(|a| !self.adapters.contains_key(*a))
            .map(String::as_str)
            .collect()
    }

    /// What changed from `self` (the stored baseline) to `now`, for the
    /// adapters present in both ([`Baseline::missing_adapters`] names the
    /// others).
    pub fn diff(&self, now: &Baseline) -> Vec<Change> {
        let mut changes = Vec::new();
        for (adapter, after) in &now.adapters {
            let Some(before) = self.adapters.get(adapter) else { continue };
            for (check, o) in after {
                match before.get(check) {
                    Some(b) if b == o => {}
                    was => changes.push(Change {
                        adapter: adapter.clone(),
                        check: check.clone(),
                        was: was.cloned(),
                        now: Some(o.clone()),
                    }),
                }
            }
            for (check, b) in before {
                if !after.contains_key(check) {
                    changes.push(Change {
                        adapter: adapter.clone(),
                        check: check.clone(),
                        was: Some(b.clone()),
                        now: None,
                    });
                }
            }
        }
        changes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two(a: &[(&str, &str)], x: &[(&str, &str)]) -> Baseline {
        let outcomes = |pairs: &[(&str, &str)]| {
            pairs.iter().map(|(c, o)| (c.to_string(), o.to_string())).collect()
        };
        Baseline {
            profile: "rfc9309".into(),
            adapters: [
                ("a".to_string(), outcomes(a)),
                ("x".to_string(), outcomes(x)),
            ]
            .into(),
        }
    }

    #[test]
    fn a_merge_keeps_what_the_run_did_not_cover() {
        let mut stored =
            two(&[("p", "pass"), ("q", "fail")], &[("p", "pass")]);
        // A filtered run of adapter `a` only, over check `q`, plus a new one.
        let now = b(&[("q", "pass"), ("r", "fail")]);
        assert_eq!(stored.merge(&now), 2);
        assert_eq!(
            stored,
            two(
                &[("p", "pass"), ("q", "pass"), ("r", "fail")],
                &[("p", "pass")]
            )
        );
        assert_eq!(stored.merge(&now), 0);
    }

    #[test]
    fn adapters_the_baseline_lacks_are_named() {
        let stored = b(&[("p", "pass")]);
        let now = two(&[("p", "pass")], &[("p", "fail")]);
        assert_eq!(stored.missing_adapters(&now), ["x"]);
        assert!(stored.diff(&now).is_empty());
    }

    fn b(pairs: &[(&str, &str)]) -> Baseline {
        let outcomes = pairs
            .iter()
            .map(|(c, o)| (c.to_string(), o.to_string()))
            .collect();
        Baseline {
            profile: "rfc9309".into(),
            adapters: [("a".to_string(), outcomes)].into(),
        }
    }

    #[test]
    fn only_changed_outcomes_fail() {
        let before = b(&[("x", "pass"), ("y", "fail"), ("z", "pass")]);
        let now = b(&[("x", "fail"), ("y", "pass"), ("w", "pass")]);
        let changes = before.diff(&now);
        let kinds: Vec<(&str, &str, bool)> = changes
            .iter()
            .map(|c| (c.check.as_str(), c.kind(), c.fails()))
            .collect();
        assert_eq!(
            kinds,
            [
                ("w", "new", false),
                ("x", "regression", true),
                ("y", "unexpected pass", true),
                ("z", "removed", false)
            ]
        );
    }
}
