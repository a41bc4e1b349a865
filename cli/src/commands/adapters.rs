//! `adapters list` and `adapters setup`.

use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use robots_adapters::registry::{self, Kind, Status};
use robots_adapters::{release, runtime};

/// List or install adapters.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand, Debug)]
enum Sub {
    /// Every adapter with its version and whether it is ready.
    List,
    /// Install out-of-process adapters into .adapters/: the pinned
    /// version, or `NAME@VERSION` any release (into .adapters/NAME@VERSION/)
    Setup {
        /// Adapter names, NAME@VERSION, or paths of adapter.toml files
        names: Vec<String>,
        /// Every out-of-process adapter
        #[arg(long)]
        all: bool,
    },
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    match a.command {
        Sub::List => list(),
        Sub::Setup { names, all } => setup(&names, all),
    }
}

fn list() -> anyhow::Result<i32> {
    println!(
        "{:<32} {:<10} {:<34} {:<8} status",
        "adapter", "language", "version", "profile"
    );
    for e in registry::all() {
        let status = match registry::status(&e) {
            Status::Ready => "ready".to_string(),
            Status::Unavailable { why, fix } => {
                format!("unavailable: {why} (fix: {fix})")
            }
        };
        println!(
            "{:<32} {:<10} {:<34} {:<8} {status}",
            e.info.name, e.info.language, e.info.version, e.info.profile
        );
    }
    Ok(0)
}

/// Says which runtimes the adapters to set up need and lack, each with
/// the adapters that need it and the exact command, then one line for
/// all the apt packages.
fn report_missing_runtimes(entries: &[registry::Entry]) {
    let mut all: Vec<(runtime::Missing, Vec<String>)> = Vec::new();
    for e in entries {
        let Kind::External(m) = &e.kind else { continue };
        for r in runtime::missing(m) {
            match all.iter_mut().find(|(known, _)| *known == r) {
                Some((_, names)) => names.push(m.name.clone()),
                None => all.push((r, vec![m.name.clone()])),
            }
        }
    }
    if all.is_empty() {
        return;
    }
    println!("missing runtimes (the adapters needing them are skipped):");
    for (r, names) in &all {
        println!(
            "  {:<14} {}  (for {})",
            r.what,
            r.fix.command(),
            names.join(", ")
        );
    }
    let missing: Vec<runtime::Missing> =
        all.into_iter().map(|(r, _)| r).collect();
    if let Some(line) = runtime::apt_line(&missing) {
        println!("all at once: {line}");
    }
}

/// Ends the spinner and prints the outcome on its own line (also when
/// stderr is not a terminal and the spinner is hidden).
fn finish(bar: &ProgressBar, message: String) {
    let prefix = bar.prefix();
    bar.finish_and_clear();
    println!("[{prefix}] {message}");
}

fn setup(specs: &[String], all: bool) -> anyhow::Result<i32> {
    // A manifest's path plugs the adapter in; `NAME@VERSION` names a
    // release of its parser with its own state folder.
    let mut entries: Vec<registry::Entry> = if all {
        registry::all()
            .into_iter()
            .filter(|e| matches!(e.kind, Kind::External(_)))
            .collect()
    } else {
        Vec::new()
    };
    for spec in specs {
        let e = registry::lookup(spec)?;
        anyhow::ensure!(
            matches!(e.kind, Kind::External(_)),
            "`{spec}` is not an out-of-process adapter: nothing to set up"
        );
        if !entries.iter().any(|o| o.info.name == e.info.name) {
            entries.push(e);
        }
    }
    anyhow::ensure!(!entries.is_empty(), "name adapters to set up, or --all");
    report_missing_runtimes(&entries);
    let mut failed = 0;
    for (i, e) in entries.iter().enumerate() {
        let prefix = format!("{}/{} {}", i + 1, entries.len(), e.info.name);
        failed += usize::from(set_up(e, &prefix)?.is_err());
    }
    Ok(if failed == 0 { 0 } else { 1 })
}

/// Runs the set-up of the out-of-process adapter `e` (its release's, for
/// `NAME@VERSION`), with a spinner labelled `prefix` and its outcome on
/// its own line; `Err(why)` when it is not ready afterwards.
///
/// # Errors
///
/// When its state folder or set-up log cannot be written.
pub fn set_up(
    e: &registry::Entry,
    prefix: &str,
) -> anyhow::Result<Result<(), String>> {
    let Kind::External(m) = &e.kind else {
        return Ok(Err(format!(
            "{} is not an out-of-process adapter",
            e.info.name
        )));
    };
    let bar = ProgressBar::new_spinner().with_style(
        ProgressStyle::with_template("{spinner} [{prefix}] {msg} {elapsed}")
            .expect("valid template"),
    );
    bar.set_prefix(prefix.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let missing = runtime::missing(m);
    if !missing.is_empty() {
        let what: Vec<&str> =
            missing.iter().map(|r| r.what.as_str()).collect();
        let why = format!(
            "{} missing (fix: {})",
            what.join(", "),
            runtime::fix_line(&missing)
        );
        finish(&bar, format!("skipped: {why}"));
        return Ok(Err(why));
    }
    if let Err(why) = release_listed(m) {
        finish(&bar, format!("skipped: {why}"));
        return Ok(Err(why));
    }
    std::fs::create_dir_all(&m.state)
        .with_context(|| format!("creating {}", m.state.display()))?;
    let log_path = m.state.join("setup.log");
    let started = Instant::now();
    let mut outcome = Ok(());
    for (k, argv) in m.setup.iter().enumerate() {
        bar.set_message(format!(
            "step {}/{}: {}",
            k + 1,
            m.setup.len(),
            argv.join(" ")
        ));
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log_path)?;
        let status = Command::new(&argv[0])
            .args(&argv[1..])
            .current_dir(&m.dir)
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .status();
        if !status.is_ok_and(|s| s.success()) {
            let what = match &m.release {
                Some(v) => format!("{v} is not installable here: FAILED"),
                None => "FAILED".into(),
            };
            let why = format!(
                "{what} at step {} (log: {})",
                k + 1,
                log_path.display()
            );
            finish(&bar, why.clone());
            outcome = Err(why);
            break;
        }
    }
    if outcome.is_ok() {
        let ready = registry::status(e) == Status::Ready;
        finish(
            &bar,
            format!(
                "{} in {:.1} s",
                if ready {
                    "ready"
                } else {
                    "installed, but its ready check fails"
                },
                started.elapsed().as_secs_f64()
            ),
        );
        if !ready {
            outcome = Err("installed, but its ready check fails".into());
        }
    }
    Ok(outcome)
}

/// For a release other than the pin: that the registry lists it (an
/// unlisted version is refused naming it; a registry that cannot be
/// asked here is said, and the set-up itself then tells).
fn release_listed(
    m: &robots_adapters::manifest::Manifest,
) -> Result<(), String> {
    let (Some(version), Some(releases)) = (&m.release, &m.releases) else {
        return Ok(());
    };
    match release::list(releases, &m.dir) {
        Ok(known) => release::ensure_listed(releases, version, &known)
            .map_err(|e| e.to_string()),
        Err(e) => {
            eprintln!("{}: {e}; trying the set-up anyway", m.name);
            Ok(())
        }
    }
}
