//! `history`: one parser over its releases. Resolves the releases
//! (`--versions 0.3.1,0.7.0` or `last:N` from the registry's list), sets
//! up the ones not yet installed, runs them as the columns of one matrix
//! (cached like any matrix), fits each from its own answers, and writes
//! the history (`robots_fingerprint::history`).
//!
//! Only wires: the listing is in `robots_adapters::release`, the history
//! in `robots_fingerprint::history`.

use std::path::PathBuf;

use anyhow::Context;
use robots_adapters::registry::{self, Kind, Status};
use robots_adapters::release;
use robots_fingerprint::from_matrix::fit_matrix;
use robots_fingerprint::history::{Asked, History};
use robots_fingerprint::history_render::write_history;
use robots_runner::cache::Cache;
use robots_runner::matrix::{Options, selection};
use robots_runner::suite::Filter;

use super::CasesDir;
use super::matrix::{confirming_limits, run_matrix};

/// One parser over its releases: scores, fitted readings, changes.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    cases: CasesDir,
    /// The adapter (its bare name, or its adapter.toml's path)
    #[arg(long)]
    adapter: String,
    /// The releases: a comma list (`0.3.1,0.7.0`), or `last:N` (the N
    /// newest final releases its registry lists)
    #[arg(long, value_name = "LIST|last:N")]
    versions: String,
    /// The folder to write history.json, history.md and history.html into
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Only checks whose name contains one of these
    #[arg(value_name = "FILTER")]
    filters: Vec<String>,
    /// Leave out checks whose name contains this
    #[arg(long)]
    skip: Vec<String>,
    /// Seconds each release gets per request before the check is
    /// reported `timeout` (confirmed as in `matrix`)
    #[arg(long, default_value_t = 1.0, value_parser = super::parse_timeout)]
    timeout: f64,
    /// Neither read nor write the answer cache
    #[arg(long)]
    no_cache: bool,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let suite = a.cases.valid_suite()?;
    anyhow::ensure!(
        release::split(&a.adapter)?.1.is_none(),
        "--adapter takes the bare name; the releases go in --versions"
    );
    let base = registry::lookup(&a.adapter)?;
    let versions = release::choose(&a.versions, || match &base.kind {
        Kind::External(m) => match &m.releases {
            Some(r) => release::list(r, &m.dir),
            None => Ok(vec![m.pinned.clone()]),
        },
        _ => Ok(vec![
            base.info.version.rsplit(' ').next().unwrap_or_default().into(),
        ]),
    })?;
    println!("{}: releases {}", base.info.name, versions.join(", "));
    let mut asked = Vec::new();
    let mut entries = Vec::new();
    for (i, v) in versions.iter().enumerate() {
        let column = match registry::at_release(&base, v) {
            Err(e) => Err(e.to_string()),
            Ok(e) if registry::status(&e) == Status::Ready => Ok(e),
            Ok(e) => {
                let prefix =
                    format!("{}/{} {}", i + 1, versions.len(), e.info.name);
                match super::adapters::set_up(&e, &prefix)? {
                    Ok(()) => Ok(e),
                    Err(why) => Err(why),
                }
            }
        };
        asked.push(Asked {
            version: v.clone(),
            column: column
                .as_ref()
                .map(|e| e.info.name.clone())
                .map_err(Clone::clone),
        });
        if let Ok(e) = column {
            entries.push(e);
        }
    }
    for u in asked.iter().filter(|a| a.column.is_err()) {
        let why = u.column.as_ref().err().map_or("", String::as_str);
        println!("{} {}: unavailable: {why}", base.info.name, u.version);
    }
    let filter = Filter {
        include: a.filters.clone(),
        skip: a.skip.clone(),
        exact: false,
    };
    let mut m = if entries.is_empty() {
        None
    } else {
        let cache = (!a.no_cache).then(|| Cache::at(Cache::default_dir()));
        Some(run_matrix(Options {
            filter: &filter,
            limits: confirming_limits(a.timeout),
            host: super::open::host(),
            cache: cache.as_ref(),
            ..Options::new(&suite, &entries, "claimed")
        }))
    };
    if let Some(m) = m.as_mut() {
        fit_matrix(m, &selection(&suite, &filter));
    }
    let history = History::from_matrix(&base.info.name, &asked, m.as_ref());
    let written = write_history(&a.out, &history)
        .with_context(|| format!("writing {}", a.out.display()))?;
    for r in &history.releases {
        let must = r
            .levels
            .get("MUST")
            .map_or("–".into(), |[p, t]| format!("{p}/{t}"));
        println!(
            "{:<10} {:<28} MUST {must:<12} {}",
            r.version,
            r.status,
            r.fingerprint.as_deref().unwrap_or("")
        );
    }
    let ran: Vec<&str> = history
        .releases
        .iter()
        .filter(|r| r.ran())
        .map(|r| r.version.as_str())
        .collect();
    for w in ran.windows(2) {
        let (fixed, regressed, other) = history.tally(w[0], w[1]);
        println!(
            "{} → {}: {fixed} fixed, {regressed} regressed, {other} other",
            w[0], w[1]
        );
    }
    for p in written {
        println!("wrote {}", p.display());
    }
    Ok(0)
}
