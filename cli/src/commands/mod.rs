//! The commands. Each returns the process exit code: 0 ran and passed,
//! 1 ran and found failures (where that applies), 2 usage or I/O error.
//!
//! Commands parse arguments, call the library crates and print; they
//! hold no suite logic of their own and never reach a parser except
//! through `robots-adapters`.

mod adapters;
mod audit;
mod bench;
mod bugs;
mod certify;
mod check;
mod check_usage;
mod coverage;
mod diff;
mod fingerprint;
mod history;
mod lint;
mod matrix;
mod open;
mod playground;
mod run;
mod serve;
mod site;
mod validate;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Conformance suite and reference oracle for robots.txt parsers
/// (RFC 9309 and Google's interpretation).
#[derive(Parser, Debug)]
#[command(name = "robots-conformance", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// A folder of adapter folders (each with an adapter.toml), or one
    /// adapter folder, outside this repository: its adapters are known
    /// by name to every command (repeatable)
    #[arg(long, global = true, value_name = "DIR")]
    adapter_dir: Vec<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Decide URLs against one robots.txt file (the oracle by default).
    Check(check::Args),
    /// Run the case corpus against the reference oracle, with a summary.
    Run(run::Args),
    /// Clause coverage: every clause with the cases citing it.
    Coverage(coverage::Args),
    /// Check the case files without running them.
    Validate(validate::Args),
    /// Run the cases against many parsers side by side; reports, baselines.
    Matrix(matrix::Args),
    /// A per-clause compliance report for one parser.
    Certify(certify::Args),
    /// List adapters, or install the out-of-process ones.
    Adapters(adapters::Args),
    /// Speak the adapter protocol on stdin/stdout with the oracle.
    Serve(serve::Args),
    /// Time the oracle against the in-process Rust parsers.
    Bench(bench::Args),
    /// The reading (switches of the oracle) that best explains a parser.
    Fingerprint(fingerprint::Args),
    /// One upstream-ready report per bug of a parser (after the fit).
    Bugs(bugs::Args),
    /// One parser over its releases: scores, fitted readings, changes.
    History(history::Args),
    /// Differential fuzzing: find, minimise and classify disagreements.
    Diff(diff::Args),
    /// Move fuzz findings into spec-cases/ after they validate.
    Promote(diff::PromoteArgs),
    /// Audit robots.txt captures (WARC, corpora) with the oracle and other parsers.
    Audit(audit::Args),
    /// Write the browser playground (one index.html, usable from file://).
    Playground(playground::Args),
    /// Build the static results site (ranking, parsers, clauses, badges).
    Site(site::Args),
    /// Which parsers may read a robots.txt file differently, and how to
    /// make it portable (exit 1 when it is not).
    Lint(lint::Args),
}

/// Where the cases are: `--cases DIR`, else the default (see
/// `suite::default_root`).
#[derive(clap::Args, Debug, Clone)]
pub struct CasesDir {
    /// The spec-cases folder [default: ./spec-cases, else the built-in one]
    #[arg(long, value_name = "DIR")]
    cases: Option<PathBuf>,
}

impl CasesDir {
    fn root(&self) -> PathBuf {
        self.cases.clone().unwrap_or_else(robots_runner::suite::default_root)
    }

    /// The suite, for a command that runs it: refused while any case
    /// file has an error (`validate` lists them).
    fn valid_suite(&self) -> anyhow::Result<robots_runner::suite::Suite> {
        valid_suite(&self.root())
    }
}

/// The suite under `root`, refused while any case file has an error.
fn valid_suite(
    root: &std::path::Path,
) -> anyhow::Result<robots_runner::suite::Suite> {
    let suite = robots_runner::suite::Suite::load(root);
    anyhow::ensure!(
        suite.errors.is_empty(),
        "fix the case files first (robots-conformance validate)"
    );
    Ok(suite)
}

/// The longest `--timeout` accepted: a day.
const MAX_TIMEOUT_SECONDS: f64 = 86_400.0;

/// Parses `--timeout SECONDS`: a finite number above 0 and at most a day
/// (a negative, NaN or infinite duration is a usage error, not a panic).
fn parse_timeout(s: &str) -> Result<f64, String> {
    let t: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !t.is_finite() || t <= 0.0 || t > MAX_TIMEOUT_SECONDS {
        return Err(format!(
            "`{s}`: a timeout is a number of seconds above 0 and at most \
             {MAX_TIMEOUT_SECONDS}"
        ));
    }
    Ok(t)
}

/// Says on stderr which of `writes` an earlier run left in `out`: this
/// run replaces them (another `--out` keeps them).
fn note_replacing(out: &robots_runner::output::OutDir, writes: &[&str]) {
    let replaced: Vec<&str> = out
        .earlier()
        .iter()
        .map(String::as_str)
        .filter(|n| writes.contains(n))
        .collect();
    if !replaced.is_empty() {
        eprintln!(
            "{}: replacing an earlier run's {} (another --out keeps them)",
            out.path().display(),
            replaced.join(", ")
        );
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<i32> {
    for dir in &cli.adapter_dir {
        robots_adapters::registry::add_dir(dir)
            .map_err(|e| anyhow::anyhow!("--adapter-dir: {e}"))?;
    }
    match cli.command {
        Command::Check(a) => check::run(a),
        Command::Run(a) => run::run(a),
        Command::Coverage(a) => coverage::run(a),
        Command::Validate(a) => validate::run(a),
        Command::Matrix(a) => matrix::run(a),
        Command::Certify(a) => certify::run(a),
        Command::History(a) => history::run(a),
        Command::Adapters(a) => adapters::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Fingerprint(a) => fingerprint::run(a),
        Command::Bugs(a) => bugs::run(a),
        Command::Diff(a) => diff::run(a),
        Command::Promote(a) => diff::promote(a),
        Command::Audit(a) => audit::run(a),
        Command::Playground(a) => playground::run(a),
        Command::Site(a) => site::run(a),
        Command::Lint(a) => lint::run(a),
    }
}
