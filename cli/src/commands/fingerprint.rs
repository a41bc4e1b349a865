//! `fingerprint`: the reading of robots.txt that best explains a parser,
//! and the checks no reading explains (its bugs).

use std::path::PathBuf;

use anyhow::Context;
use robots_fingerprint::{Answers, fingerprint};
use robots_runner::matrix::selection;
use robots_runner::output::atomic_write;
use robots_runner::suite::Filter;

use super::CasesDir;

/// Fit the oracle's switches to one parser.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    cases: CasesDir,
    /// The adapter to fingerprint (a name, or the path of its
    /// adapter.toml)
    #[arg(long)]
    adapter: String,
    /// Only checks whose name contains one of these
    #[arg(value_name = "FILTER")]
    filters: Vec<String>,
    /// Leave out checks whose name contains this
    #[arg(long)]
    skip: Vec<String>,
    /// Residual checks to list (all are in --json)
    #[arg(long, default_value_t = 20)]
    show: usize,
    /// Write the fit (reading, counts, every residual check) here as JSON
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Seconds the adapter gets per request (plus 20 ms per URL in a
    /// batch) before it is killed and the check reported `timeout`
    #[arg(long, default_value_t = 1.0, value_parser = super::parse_timeout)]
    timeout: f64,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let suite = a.cases.valid_suite()?;
    let entry = super::open::ready_entry(&a.adapter)?;
    let filter = Filter {
        include: a.filters.clone(),
        skip: a.skip.clone(),
        exact: false,
    };
    let sel = selection(&suite, &filter);
    let answers = {
        let mut parser = super::open::open(&entry, a.timeout);
        Answers::collect(parser.as_mut(), &sel)
        // The parser (and its process) is dropped here, before the fit.
    };
    let fit = fingerprint(&answers, &sel);
    if let Some(path) = &a.json {
        atomic_write(path, serde_json::to_string_pretty(&fit)?.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    println!(
        "{}: {} checks, {} answered, {} not answered; {} unexplained after \
         the fit",
        fit.adapter,
        answers.replies.len(),
        fit.scored,
        fit.unanswered,
        fit.residual.len()
    );
    for r in fit.residual.iter().take(a.show) {
        println!(
            "  unexplained {}: parser {}, fitted {}",
            r.check, r.parser, r.fitted
        );
    }
    if fit.residual.len() > a.show {
        println!("  … and {} more", fit.residual.len() - a.show);
    }
    println!("{}", fit.line());
    Ok(0)
}
