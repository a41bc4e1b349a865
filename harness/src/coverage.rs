//! Clause coverage: which cases cite each clause of the index.
//!
//! It counts citations; it never runs a check or judges a clause's wording.

use std::collections::BTreeMap;

use crate::suite::{Clause, Suite};

/// Each clause with the names of the (non-ignored) cases citing it.
pub fn by_clause(suite: &Suite) -> Vec<(&Clause, Vec<&str>)> {
    let mut cited: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for case in suite.cases.iter().filter(|c| c.ignore.is_none()) {
        for id in &case.clauses {
            cited.entry(id.as_str()).or_default().push(case.name.as_str());
        }
    }
    suite
        .clauses
        .iter()
        .map(|c| (c, cited.remove(c.id.as_str()).unwrap_or_default()))
        .collect()
}

/// Testable clauses no case cites.
pub fn uncovered(suite: &Suite) -> Vec<&Clause> {
    by_clause(suite)
        .into_iter()
        .filter(|(c, cases)| c.testable && cases.is_empty())
        .map(|(c, _)| c)
        .collect()
}
