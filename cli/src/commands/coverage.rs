//! `coverage`: every clause with the cases citing it.

use robots_runner::coverage::by_clause;
use robots_runner::suite::Suite;

use super::CasesDir;

/// Clause coverage.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    cases: CasesDir,
    /// List the cases citing each clause, not just their number
    #[arg(long, short)]
    verbose: bool,
    /// Only clauses of this layer
    #[arg(long, value_parser = ["parse", "fetch"])]
    layer: Option<String>,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let suite = Suite::load(&a.cases.root());
    for e in &suite.errors {
        eprintln!("error: {e}");
    }
    let rows: Vec<_> = by_clause(&suite)
        .into_iter()
        .filter(|(c, _)| a.layer.as_ref().is_none_or(|l| *l == c.layer))
        .collect();
    let mut uncovered = Vec::new();
    for (clause, cases) in &rows {
        let status = match (clause.testable, cases.len()) {
            (false, _) => "untestable".to_string(),
            (true, 0) => "UNCOVERED".to_string(),
            (true, n) => format!("{n} case(s)"),
        };
        println!(
            "{:<12} {:<10} {:<14} {status}",
            clause.id, clause.level, clause.category
        );
        if a.verbose {
            for name in cases {
                println!("    {name}");
            }
        }
        if clause.testable && cases.is_empty() {
            uncovered.push(clause.id.as_str());
        }
    }
    let testable = rows.iter().filter(|(c, _)| c.testable).count();
    let untestable = rows.len() - testable;
    println!();
    println!("untestable clauses: {untestable}");
    println!(
        "uncovered testable clauses: {}",
        if uncovered.is_empty() {
            "none".into()
        } else {
            uncovered.join(", ")
        }
    );
    println!("clauses covered: {} of {testable}", testable - uncovered.len());
    Ok(if suite.errors.is_empty() { 0 } else { 1 })
}
