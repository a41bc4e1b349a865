//! Scaffolding shared by the audit's integration tests: the command line
//! parsed as the binary parses it, a run, its aggregates, and the host
//! rows of a `rows.jsonl`.

#![allow(dead_code)]

use std::path::Path;

use clap::Parser;
use robots_audit::aggregate::Audit;
use robots_audit::row::{HostRow, Row};
use robots_audit::{Args, Outcome};

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: Args,
}

/// `audit ARGV…` as parsed by the command line.
pub fn args(argv: &[&str]) -> Args {
    let mut full = vec!["audit"];
    full.extend_from_slice(argv);
    Cli::parse_from(full).args
}

/// Runs `audit ARGV…`, which must succeed.
pub fn run(argv: &[&str]) -> Outcome {
    robots_audit::run(args(argv)).unwrap()
}

/// The aggregates of an audit's outcome.
pub fn audited(o: Outcome) -> Audit {
    match o {
        Outcome::Audited(s) => s.audit.expect("an audit"),
        other => panic!("not an audit: {other:?}"),
    }
}

/// Every row of a `rows.jsonl`.
pub fn rows(path: &Path) -> Vec<Row> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The host rows of a `rows.jsonl`.
pub fn hosts(path: &Path) -> Vec<HostRow> {
    rows(path)
        .into_iter()
        .filter_map(|r| match r {
            Row::Host(h) => Some(*h),
            _ => None,
        })
        .collect()
}
