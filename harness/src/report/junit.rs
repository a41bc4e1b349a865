//! `junit.xml`: one test suite per adapter, one test case per check.
//!
//! A rendering only: it never changes an outcome.

use std::io::Write;

use quick_junit::{
    NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite,
};

use crate::matrix::{Matrix, counting_profile};
use crate::run::Outcome;

/// Writes the JUnit XML report.
///
/// # Errors
///
/// On any I/O error.
pub fn write(m: &Matrix, out: &mut impl Write) -> std::io::Result<()> {
    let mut report = Report::new("robots-conformance");
    for col in m.adapters.iter().filter(|c| c.status == "ready") {
        let profile = counting_profile(&m.profile, &col.info);
        let mut suite = TestSuite::new(col.info.name.clone());
        for row in &m.checks {
            let Some(cell) = row.results.get(&col.info.name) else { continue };
            let outcome = cell
                .outcome
                .get(profile)
                .copied()
                .unwrap_or(Outcome::Unscored);
            let status = match outcome {
                Outcome::Pass => TestCaseStatus::success(),
                Outcome::Unscored | Outcome::NotApplicable => {
                    let mut s = TestCaseStatus::skipped();
                    s.set_message(outcome.word());
                    s
                }
                Outcome::Fail => {
                    let mut s =
                        TestCaseStatus::non_success(NonSuccessKind::Failure);
                    s.set_message(format!(
                        "want {}, got {}",
                        row.expect[profile], cell.answer
                    ));
                    s
                }
                _ => {
                    let mut s =
                        TestCaseStatus::non_success(NonSuccessKind::Error);
                    s.set_message(format!(
                        "{}: {}",
                        outcome.word(),
                        cell.answer
                    ));
                    s
                }
            };
            let mut tc = TestCase::new(row.name.clone(), status);
            tc.set_classname(row.case.clone());
            suite.add_test_case(tc);
        }
        report.add_test_suite(suite);
    }
    report.serialize(out).map_err(std::io::Error::other)
}
