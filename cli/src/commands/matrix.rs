//! `matrix`: every case against every selected adapter, side by side.

use std::path::PathBuf;
use std::sync::Mutex;

use indicatif::{
    MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle,
};
use robots_adapters::process::Limits;
use robots_adapters::registry::{self, Entry, Host};
use robots_runner::baseline::Baseline;
use robots_runner::budget::Budget;
use robots_runner::cache::Cache;
use robots_runner::column::CONFIRM_FACTOR;
use robots_runner::matrix::{self, Matrix, Options};
use robots_runner::output::{self, FolderLock, OutDir};
use robots_runner::report;
use robots_runner::suite::{Filter, Suite};

use super::CasesDir;

/// The entry for `--command TEMPLATE` claiming `profile`, checked to be
/// runnable (a missing program is a usage error, not a column of crashes).
pub fn command_entry(template: &str, profile: &str) -> anyhow::Result<Entry> {
    let entry = registry::command_entry(template, profile)
        .map_err(|e| anyhow::anyhow!("--command: {e}"))?;
    if let registry::Status::Unavailable { why, fix } =
        registry::status(&entry)
    {
        anyhow::bail!("--command: {why} (fix: {fix})");
    }
    Ok(entry)
}

/// Run the corpus against many parsers.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    cases: CasesDir,
    /// Adapters: `all`, `ready`, `none`, or names (or paths of
    /// adapter.toml files) separated by commas [default: ready, or none
    /// with --command]
    #[arg(long)]
    adapters: Option<String>,
    /// Also run a command-line program, once per check, from this
    /// template (`{robots}`: a file with the body, `{agent}`, `{url}`;
    /// exit status 0 means allowed, 1 disallowed): the column `command`
    #[arg(long, value_name = "TEMPLATE")]
    command: Option<String>,
    /// The profile the `--command` program claims to follow: the
    /// expectations `--profile claimed` judges it under, and its claim in
    /// the reports and fingerprint
    #[arg(long, default_value = "rfc9309", value_parser = ["rfc9309", "google", "aipref"], requires = "command")]
    command_profile: String,
    /// The expectations outcomes are counted under (`claimed`: each
    /// adapter's own claimed profile)
    #[arg(long, default_value = "rfc9309", value_parser = ["rfc9309", "google", "aipref", "claimed"])]
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
    /// Merge the run's outcomes into the --baseline file instead
    /// (outcomes of adapters and checks not in this run are kept)
    #[arg(long, requires = "baseline")]
    update_baseline: bool,
    /// Write the run's outcomes to the --baseline file, replacing it
    /// (adapters and checks not in this run are dropped)
    #[arg(long, requires = "baseline")]
    replace_baseline: bool,
    /// Seconds an adapter gets per request (plus 20 ms per URL in a
    /// batch); one that misses it is waited for as long again before it
    /// is killed and the check reported `timeout` (a confirmed timeout,
    /// which the answer cache keeps)
    #[arg(long, default_value_t = 1.0, value_parser = super::parse_timeout)]
    timeout: f64,
    /// Run the Rust crates on threads of this process instead of in
    /// child processes (faster; a hung parser cannot be killed)
    #[arg(long)]
    threads: bool,
    /// Fit each ready adapter's reading from the run's own answers and
    /// show it (`≈ BASE + switches (X%)`) in the reports; with --out, also
    /// fits.json (the fitted readings, for `playground --fits`)
    #[arg(long)]
    fingerprint: bool,
    /// Adapter instances asking at once across the run (0: no limit)
    /// [default: 4 per core]
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Ask every adapter every check: neither read nor write the answer
    /// cache (`.cache/matrix/`, or `$ROBOTS_CONFORMANCE_CACHE`)
    #[arg(long)]
    no_cache: bool,
}

/// The entries `spec` names (`all`, `ready`, `none`, or a comma list of
/// names and manifest paths).
pub fn select_entries(spec: &str) -> anyhow::Result<Vec<Entry>> {
    let all = registry::all();
    match spec {
        "none" => Ok(Vec::new()),
        "all" => Ok(all),
        "ready" => Ok(all
            .into_iter()
            .filter(|e| registry::status(e) == registry::Status::Ready)
            .collect()),
        list => {
            list.split(',').map(|n| Ok(registry::lookup(n.trim())?)).collect()
        }
    }
}

/// The limits of `--timeout SECONDS` for a run with the answer cache: a
/// request that misses its deadline is waited for [`CONFIRM_FACTOR`]
/// deadlines before it is timed out, so that the cache may keep its
/// timeouts.
pub fn confirming_limits(timeout: f64) -> Limits {
    Limits { confirm: CONFIRM_FACTOR, ..super::open::limits(timeout) }
}

/// Runs the matrix `options` describe with a progress bar per adapter on
/// stderr (in place of `options.progress`), then prints the answer
/// cache's warnings.
pub fn run_matrix(options: Options) -> Matrix {
    let bars = Bars::new(&options);
    let progress = |name: &str, done: usize| bars.set(name, done);
    let cache = options.cache;
    let m = matrix::run(&Options { progress: &progress, ..options });
    bars.clear();
    if let Some(cache) = cache {
        for w in cache.warnings() {
            eprintln!("warning: {w}");
        }
    }
    m
}

/// A progress bar per adapter on stderr, redrawn at most 4 times a
/// second: checks done of the checks selected.
struct Bars {
    multi: MultiProgress,
    /// Each adapter's bar, by name.
    bars: Mutex<Vec<(String, ProgressBar)>>,
}

impl Bars {
    /// A bar at 0 for each of `options.entries`.
    fn new(options: &Options) -> Bars {
        let total = matrix::selection(options.suite, options.filter)
            .iter()
            .map(|(_, k)| k.len())
            .sum::<usize>() as u64;
        let multi = MultiProgress::with_draw_target(
            ProgressDrawTarget::stderr_with_hz(4),
        );
        let style = ProgressStyle::with_template(
            "{prefix:>30} {bar:30} {pos}/{len} {elapsed}",
        )
        .expect("valid template");
        let bars = options
            .entries
            .iter()
            .map(|e| {
                let bar = multi
                    .add(ProgressBar::new(total).with_style(style.clone()));
                bar.set_prefix(e.info.name.clone());
                (e.info.name.clone(), bar)
            })
            .collect();
        Bars { multi, bars: Mutex::new(bars) }
    }

    /// `adapter`'s bar at `done` checks.
    fn set(&self, adapter: &str, done: usize) {
        if let Ok(bars) = self.bars.lock()
            && let Some((_, b)) = bars.iter().find(|(n, _)| n == adapter)
        {
            b.set_position(done as u64);
        }
    }

    /// Every bar off the terminal.
    fn clear(&self) {
        let _ = self.multi.clear();
    }
}

/// What the run does with its `--baseline` file, settled before the run.
enum BaselinePlan {
    /// No baseline.
    None,
    /// Compare with the stored one.
    Compare(Baseline),
    /// Merge into the stored one (empty when the file does not exist),
    /// holding its folder's lock from the read to the write.
    Merge(PathBuf, Baseline, FolderLock),
    /// Replace the file.
    Replace(PathBuf),
}

/// Reads and checks the baseline before anything runs: a bad file, a
/// missing one to compare with, another profile, or a folder it cannot
/// be written to is reported now, not after the matrix.
fn plan_baseline(a: &Args) -> anyhow::Result<BaselinePlan> {
    let Some(path) = a.baseline.clone() else {
        return Ok(BaselinePlan::None);
    };
    let writes = a.update_baseline || a.replace_baseline;
    if writes {
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => std::path::Path::new("."),
        };
        output::probe_writable(parent)?;
    }
    if a.replace_baseline {
        return Ok(BaselinePlan::Replace(path));
    }
    // Another run merging into this file waits here, then reads what
    // that run wrote.
    let lock = if a.update_baseline {
        Some(FolderLock::of_file(&path)?)
    } else {
        None
    };
    let stored = if a.update_baseline && !path.exists() {
        Baseline { profile: a.profile.clone(), ..Baseline::default() }
    } else {
        Baseline::read(&path)?
    };
    anyhow::ensure!(
        stored.profile == a.profile,
        "{}: the baseline was written under profile {}, this run is {} \
         (--replace-baseline to start a new one)",
        path.display(),
        stored.profile,
        a.profile
    );
    Ok(match lock {
        Some(lock) => BaselinePlan::Merge(path, stored, lock),
        None => BaselinePlan::Compare(stored),
    })
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
    let spec = a.adapters.as_deref().unwrap_or(match a.command {
        Some(_) => "none",
        None => "ready",
    });
    let mut entries = select_entries(spec)?;
    if let Some(template) = &a.command {
        entries.push(command_entry(template, &a.command_profile)?);
    }
    anyhow::ensure!(!entries.is_empty(), "no adapters selected");
    // Everything that can fail without running is checked first.
    let plan = plan_baseline(&a)?;
    let out = a.out.as_deref().map(OutDir::claim).transpose()?;
    if let Some(o) = &out {
        super::note_replacing(o, &report::FILES);
    }
    let filter = Filter {
        include: a.filters.clone(),
        skip: a.skip.clone(),
        exact: false,
    };
    let cache = (!a.no_cache).then(|| Cache::at(Cache::default_dir()));
    let mut m = run_matrix(Options {
        filter: &filter,
        limits: confirming_limits(a.timeout),
        host: if a.threads { Host::Thread } else { super::open::host() },
        cache: cache.as_ref(),
        budget: a.jobs.map_or_else(Budget::for_cores, Budget::new),
        ..Options::new(&suite, &entries, &a.profile)
    });
    let mut fits = Vec::new();
    if a.fingerprint {
        let sel = matrix::selection(&suite, &filter);
        fits = robots_fingerprint::from_matrix::fit_matrix(&mut m, &sel);
        for fit in &fits {
            println!("{}", fit.line());
        }
    }
    report::text::write(&m, &mut std::io::stdout())?;
    if let Some(dir) = &out {
        report::write_all(&m, dir.path())?;
        if a.fingerprint {
            // The fitted readings, for tools (`playground --fits`).
            let json = serde_json::to_vec_pretty(&fits)?;
            output::atomic_write(&dir.path().join("fits.json"), &json)?;
        }
        println!("reports: {}", dir.path().join("matrix.html").display());
    }
    let now = Baseline::of(&m);
    let filtered = !a.filters.is_empty() || !a.skip.is_empty();
    match plan {
        BaselinePlan::None => Ok(0),
        BaselinePlan::Replace(path) => {
            now.write(&path)?;
            println!("baseline replaced: {}", path.display());
            Ok(0)
        }
        BaselinePlan::Merge(path, mut stored, lock) => {
            let touched = stored.merge(&now);
            stored.write(&path)?;
            drop(lock);
            println!(
                "baseline updated: {} ({touched} outcome(s) added or changed, \
                 others kept)",
                path.display()
            );
            Ok(0)
        }
        BaselinePlan::Compare(stored) => Ok(compare(&stored, &now, filtered)),
    }
}

/// Prints how `now` differs from `stored`; the exit code.
fn compare(stored: &Baseline, now: &Baseline, filtered: bool) -> i32 {
    for adapter in stored.missing_adapters(now) {
        println!(
            "adapter {adapter}: not in baseline ({} checks not compared)",
            now.adapters[adapter].len()
        );
    }
    let changes = stored.diff(now);
    let mut new = 0;
    let mut not_run = 0;
    for c in &changes {
        match c.kind() {
            "new" => new += 1,
            // A filtered run leaves checks out on purpose.
            "removed" if filtered => {
                not_run += 1;
                continue;
            }
            _ => {}
        }
        println!(
            "{:<16} {} {}: {} -> {}",
            c.kind(),
            c.adapter,
            c.check,
            c.was.as_deref().unwrap_or("(none)"),
            c.now.as_deref().unwrap_or("(none)")
        );
    }
    if new > 0 {
        println!("{new} check(s) not in baseline");
    }
    if not_run > 0 {
        println!("{not_run} baseline check(s) outside this run's filter");
    }
    let failing = changes.iter().filter(|c| c.fails()).count();
    println!(
        "baseline: {} change(s), {failing} failing",
        changes.len() - not_run
    );
    i32::from(failing != 0)
}
