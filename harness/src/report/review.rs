//! The review queue: every definite `rfc9309` expectation that all the
//! RFC-claiming parsers which answered (two or more, the oracle aside)
//! answer against. When every independent reading disagrees with the
//! oracle, the expectation is the first thing to re-check against its
//! clause — before any parser author "fixes" a correct parser.
//!
//! It reads outcomes the runner already judged; it never decides one and
//! never says the expectation is wrong, only that it is worth a look.

use robots_adapters::reference::Reference;

use crate::case::PROFILES;
use crate::matrix::{Matrix, Row};
use crate::run::Outcome;

/// The profile the queue is about.
pub const PROFILE: &str = "rfc9309";

/// Parsers that must have answered before a unanimous disagreement is
/// worth queueing (one parser alone is just that parser's failure).
pub const MIN_ANSWERS: usize = 2;

/// One queued check.
#[derive(Clone, Debug)]
pub struct Item<'a> {
    /// The check's row.
    pub row: &'a Row,
    /// The expected answer under [`PROFILE`].
    pub expected: &'a str,
    /// (parser, its answer), for every RFC-claiming parser that answered.
    pub answers: Vec<(&'a str, &'a str)>,
}

/// Whether a column is one of the oracle's own adapters.
fn is_oracle(name: &str) -> bool {
    PROFILES.iter().any(|p| Reference::name_for(p) == name)
}

/// The queue, in row order.
pub fn queue(m: &Matrix) -> Vec<Item<'_>> {
    let voters: Vec<&str> = m
        .adapters
        .iter()
        .filter(|c| c.status == "ready" && c.info.profile == PROFILE)
        .map(|c| c.info.name.as_str())
        .filter(|n| !is_oracle(n))
        .collect();
    let mut items = Vec::new();
    for row in &m.checks {
        let mut answers = Vec::new();
        let mut unanimous = true;
        for name in &voters {
            let Some(cell) = row.results.get(*name) else { continue };
            // Pass and fail are answers to a definite expectation;
            // unscored (implementation-defined), not-applicable and
            // failures to answer are not votes.
            match cell.outcome.get(PROFILE) {
                Some(Outcome::Fail) => {
                    answers.push((*name, cell.answer.as_str()))
                }
                Some(Outcome::Pass) => unanimous = false,
                _ => {}
            }
        }
        if unanimous && answers.len() >= MIN_ANSWERS {
            let expected = row.expect.get(PROFILE).map_or("?", String::as_str);
            items.push(Item { row, expected, answers });
        }
    }
    items
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::matrix::{CaseInfo, Cell, Column};

    fn column(name: &str, profile: &str) -> Column {
        crate::matrix::test_column(name, profile)
    }

    /// A row whose rfc9309 outcome per adapter is given.
    fn row(name: &str, cells: &[(&str, Outcome, &str)]) -> Row {
        Row {
            name: name.into(),
            case: "c".into(),
            question: "FooBot /x".into(),
            level: "MUST".into(),
            categories: vec![],
            clauses: vec!["R2.2.2-2".into()],
            expect: [("rfc9309".to_string(), "disallowed".to_string())].into(),
            why: None,
            oracle: BTreeMap::new(),
            results: cells
                .iter()
                .map(|(a, o, answer)| {
                    (
                        a.to_string(),
                        Cell {
                            answer: answer.to_string(),
                            outcome: [("rfc9309".to_string(), *o)].into(),
                            detail: String::new(),
                        },
                    )
                })
                .collect(),
        }
    }

    /// Two RFC parsers, the oracle, and a google parser.
    fn synthetic() -> Matrix {
        use Outcome::*;
        let al = "allowed";
        Matrix {
            tool: "t".into(),
            profile: "rfc9309".into(),
            cases_dir: "d".into(),
            seconds: 0.0,
            explain_seconds: 0.0,
            busy_limit: 1,
            busy_peak: 0,
            adapters: vec![
                column("reference", "rfc9309"),
                column("rust-a", "rfc9309"),
                column("rust-b", "rfc9309"),
                column("rust-g", "google"),
            ],
            clauses: BTreeMap::new(),
            cases: [(
                "c".to_string(),
                CaseInfo {
                    file: "t/c.toml:1".into(),
                    clauses: vec!["R2.2.2-2".into()],
                    level: "MUST".into(),
                    categories: vec![],
                    source: "rfc9309".into(),
                    robots: String::new(),
                    note: None,
                },
            )]
            .into(),
            checks: vec![
                // Both RFC parsers against the oracle (which passes):
                // queued, whatever the google parser says.
                row(
                    "both-against",
                    &[
                        ("reference", Pass, "disallowed"),
                        ("rust-a", Fail, al),
                        ("rust-b", Fail, "allowed <b>&"),
                        ("rust-g", Pass, "disallowed"),
                    ],
                ),
                row("split", &[("rust-a", Fail, al), ("rust-b", Pass, "d")]),
                row(
                    "implementation-defined",
                    &[("rust-a", Unscored, al), ("rust-b", Unscored, al)],
                ),
                row(
                    "one-answer",
                    &[("rust-a", Fail, al), ("rust-b", Crash, "crashed")],
                ),
                row(
                    "not-applicable",
                    &[("rust-a", Fail, al), ("rust-b", NotApplicable, "-")],
                ),
            ],
        }
    }

    #[test]
    fn only_unanimous_definite_disagreements_of_two_or_more_are_queued() {
        let m = synthetic();
        let q = queue(&m);
        let names: Vec<&str> = q.iter().map(|i| i.row.name.as_str()).collect();
        assert_eq!(names, ["both-against"]);
        assert_eq!(q[0].expected, "disallowed");
        assert_eq!(
            q[0].answers,
            [("rust-a", "allowed"), ("rust-b", "allowed <b>&")]
        );
    }

    #[test]
    fn the_queue_is_in_matrix_md_and_matrix_html() {
        let m = synthetic();
        let mut md = Vec::new();
        crate::report::markdown::write(&m, &mut md).unwrap();
        let md = String::from_utf8(md).unwrap();
        let section = md.split("## Review queue (rfc9309)").nth(1).unwrap();
        let section = section.split("\n## ").next().unwrap();
        assert!(
            section.contains(
                "| `both-against` | disallowed | rust-a: allowed; rust-b: allowed <b>& | \
                 R2.2.2-2 | `t/c.toml:1` |"
            ),
            "{section}"
        );
        assert!(!section.contains("split"), "{section}");
        let mut html = Vec::new();
        crate::report::html::write(&m, &mut html).unwrap();
        let html = String::from_utf8(html).unwrap();
        assert!(!html.contains("<!--REVIEW_QUEUE-->"));
        assert!(
            html.contains("id=\"review-queue\" data-items=\"1\""),
            "{html}"
        );
        assert!(html.contains("data-check=\"both-against\""));
        assert!(html.contains("rust-b: allowed &lt;b&gt;&amp;"));
        assert!(!html.contains("data-check=\"split\""));
    }

    #[test]
    fn report_json_names_the_queued_checks() {
        let dir = tempfile::tempdir().unwrap();
        crate::report::write_all(&synthetic(), dir.path()).unwrap();
        let json: serde_json::Value = serde_json::from_slice(
            &std::fs::read(dir.path().join("report.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(json["review_queue"], serde_json::json!(["both-against"]));
        assert_eq!(json["checks"].as_array().unwrap().len(), 5);
    }

    #[test]
    fn an_empty_queue_says_none() {
        let mut m = synthetic();
        m.checks.truncate(0);
        let mut md = Vec::new();
        crate::report::markdown::write(&m, &mut md).unwrap();
        let md = String::from_utf8(md).unwrap();
        assert!(
            md.contains(
                "answers against: re-check each against its clause.\n\nNone."
            ),
            "{md}"
        );
        let mut html = Vec::new();
        crate::report::html::write(&m, &mut html).unwrap();
        assert!(String::from_utf8(html).unwrap().contains("data-items=\"0\""));
    }
}
