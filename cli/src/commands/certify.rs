//! `certify`: a per-parser compliance report to publish.

use std::path::PathBuf;

use anyhow::Context;
use robots_runner::certify::{certify, write_markdown};
use robots_runner::output::{OutDir, atomic_write};
use robots_runner::suite::{Filter, Suite};

use super::CasesDir;
use super::matrix::{run_matrix, select_entries};

/// Per-clause compliance report for one adapter.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    cases: CasesDir,
    /// The adapter to certify
    #[arg(long)]
    adapter: String,
    /// Expectations to certify against (`claimed`: the adapter's own)
    #[arg(long, default_value = "rfc9309", value_parser = ["rfc9309", "google", "claimed"])]
    profile: String,
    /// Write certificate.md and certificate.json here
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let suite = Suite::load(&a.cases.root());
    anyhow::ensure!(
        suite.errors.is_empty(),
        "fix the case files first (robots-conformance validate)"
    );
    let entries = select_entries(&a.adapter)?;
    // A busy or unwritable folder is refused before anything runs.
    let out = OutDir::claim(&a.out)?;
    let m = run_matrix(
        &suite,
        &Filter::default(),
        &entries,
        &a.profile,
        1.0,
        false,
    );
    let col = &m.adapters[0];
    anyhow::ensure!(
        col.status == "ready",
        "{} is unavailable: {}",
        a.adapter,
        col.fix.clone().unwrap_or_default()
    );
    let cert =
        certify(&m, &a.adapter).context("no results for the adapter")?;
    let mut md = Vec::new();
    write_markdown(&cert, &mut md)?;
    atomic_write(&out.path().join("certificate.md"), &md)?;
    atomic_write(
        &out.path().join("certificate.json"),
        serde_json::to_string_pretty(&cert)?.as_bytes(),
    )?;
    for (tier, ok) in &cert.tiers {
        println!("[{}] {tier}", if *ok { "x" } else { " " });
    }
    println!("certificate: {}", a.out.join("certificate.md").display());
    Ok(0)
}
