//! `matrix`: every case against every selected adapter, side by side.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::Context;
use indicatif::{
    MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle,
};
use robots_adapters::process::Limits;
use robots_adapters::registry::{self, Entry, Host};
use robots_runner::baseline::Baseline;
use robots_runner::matrix::{self, Matrix};
use robots_runner::report;
use robots_runner::suite::{Filter, Suite};

use super::CasesDir;

/// Run the corpus against many parsers.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    cases: CasesDir,
    /// Adapters: `all`, `ready`, or names separated by commas
    #[arg(long, default_value = "ready")]
    adapters: String,
    /// The expectations outcomes are counted under (`claimed`: each
    /// adapter's own claimed profile)
    #[arg(long, default_value = "rfc9309", value_parser = ["rfc9309", "google", "claimed"])]
    profile: String,
    /// Only checks whose name contains one of these
    #[arg(value_name = "FILTER")]
    filters: Vec<String>,
    /// Leave out checks whose name contains this
    #[arg(long)]
    skip: Vec<String>,
    /// Write report.json, junit.xml, matrix.md and matrix.html here
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Compare outcomes with this baseline; exit 1 only when one changed
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Write the run's outcomes to the --baseline file instead
    #[arg(long, requires = "baseline")]
    update_baseline: bool,
    /// Seconds an adapter gets per request (plus 20 ms per URL in a
    /// batch) before it is killed and the check reported `timeout`
    #[arg(long, default_value_t = 1.0)]
    timeout: f64,
    /// Run the Rust crates on threads of this process instead of in
    /// child processes (faster; a hung parser cannot be killed)
    #[arg(long)]
    threads: bool,
}

/// The entries `spec` names (`all`, `ready`, or a comma list).
pub fn select_entries(spec: &str) -> anyhow::Result<Vec<Entry>> {
    let all = registry::all();
    match spec {
        "all" => Ok(all),
        "ready" => Ok(all
            .into_iter()
            .filter(|e| registry::status(e) == registry::Status::Ready)
            .collect()),
        list => list
            .split(',')
            .map(|n| {
                let n = n.trim();
                all.iter().find(|e| e.info.name == n).cloned().with_context(
                    || {
                        let names: Vec<&str> =
                            all.iter().map(|e| e.info.name.as_str()).collect();
                        format!(
                            "no adapter `{n}`; known: {}",
                            names.join(", ")
                        )
                    },
                )
            })
            .collect(),
    }
}

/// Runs the matrix with progress bars on stderr.
pub fn run_matrix(
    suite: &Suite,
    filter: &Filter,
    entries: &[Entry],
    profile: &str,
    timeout: f64,
    threads: bool,
) -> Matrix {
    let total = matrix::selection(suite, filter)
        .iter()
        .map(|(_, k)| k.len())
        .sum::<usize>() as u64;
    let multi =
        MultiProgress::with_draw_target(ProgressDrawTarget::stderr_with_hz(4));
    let style = ProgressStyle::with_template(
        "{prefix:>30} {bar:30} {pos}/{len} {elapsed}",
    )
    .expect("valid template");
    let bars: Mutex<Vec<(String, ProgressBar)>> = Mutex::new(
        entries
            .iter()
            .map(|e| {
                let bar = multi
                    .add(ProgressBar::new(total).with_style(style.clone()));
                bar.set_prefix(e.info.name.clone());
                (e.info.name.clone(), bar)
            })
            .collect(),
    );
    let progress = |name: &str, done: usize| {
        if let Ok(bars) = bars.lock()
            && let Some((_, b)) = bars.iter().find(|(n, _)| n == name)
        {
            b.set_position(done as u64);
        }
    };
    let limits =
        Limits { base: Duration::from_secs_f64(timeout), ..Limits::default() };
    let host = match std::env::current_exe() {
        Ok(exe) if !threads => Host::Process(exe),
        _ => Host::Thread,
    };
    let m =
        matrix::run(suite, filter, entries, profile, limits, &host, &progress);
    let _ = multi.clear();
    m
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let suite = Suite::load(&a.cases.root());
    for e in &suite.errors {
        eprintln!("bug in test case: {e}");
    }
    anyhow::ensure!(
        suite.errors.is_empty(),
        "fix the case files first (robots-conformance validate)"
    );
    let entries = select_entries(&a.adapters)?;
    let filter = Filter {
        include: a.filters.clone(),
        skip: a.skip.clone(),
        exact: false,
    };
    let m = run_matrix(
        &suite, &filter, &entries, &a.profile, a.timeout, a.threads,
    );
    report::text::write(&m, &mut std::io::stdout())?;
    if let Some(dir) = &a.out {
        report::write_all(&m, dir).with_context(|| {
            format!("writing reports to {}", dir.display())
        })?;
        println!("reports: {}", dir.join("matrix.html").display());
    }
    let Some(path) = &a.baseline else { return Ok(0) };
    let now = Baseline::of(&m);
    if a.update_baseline {
        now.write(path)
            .with_context(|| format!("writing {}", path.display()))?;
        println!("baseline written: {}", path.display());
        return Ok(0);
    }
    let before = Baseline::read(path).map_err(anyhow::Error::msg)?;
    anyhow::ensure!(
        before.profile == now.profile,
        "the baseline was written under profile {}, this run is {}",
        before.profile,
        now.profile
    );
    let changes = before.diff(&now);
    for c in &changes {
        println!(
            "{:<16} {} {}: {} -> {}",
            c.kind(),
            c.adapter,
            c.check,
            c.was.as_deref().unwrap_or("(none)"),
            c.now.as_deref().unwrap_or("(none)")
        );
    }
    let failing = changes.iter().filter(|c| c.fails()).count();
    println!("baseline: {} change(s), {failing} failing", changes.len());
    Ok(if failing == 0 { 0 } else { 1 })
}
