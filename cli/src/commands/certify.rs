//! `certify`: a per-parser compliance report to publish, with the
//! parser's fingerprint (the reading that best explains it) and its
//! badge (`robots_runner::badge`, the one the results site shows).

use std::path::PathBuf;

use anyhow::Context;
use robots_adapters::registry::{self, Entry};
use robots_fingerprint::{Answers, Fit, fingerprint};
use robots_runner::badge::Badge;
use robots_runner::certify::{TIER_LEVELS, certify, write_markdown};
use robots_runner::matrix::{Options, selection};
use robots_runner::output::{OutDir, atomic_write};
use robots_runner::suite::{Filter, Suite};

use super::CasesDir;
use super::matrix::{command_entry, run_matrix};

/// Per-clause compliance report for one adapter.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    cases: CasesDir,
    /// The adapter to certify (a name, or the path of its adapter.toml)
    #[arg(long, required_unless_present = "command")]
    adapter: Option<String>,
    /// Certify a command-line program instead, run once per check from
    /// this template (`{robots}`: a file with the body, `{agent}`,
    /// `{url}`; exit status 0 means allowed, 1 disallowed)
    #[arg(long, value_name = "TEMPLATE", conflicts_with = "adapter")]
    command: Option<String>,
    /// The profile the `--command` program claims to follow (what
    /// `--profile claimed` certifies it against)
    #[arg(long, default_value = "rfc9309", value_parser = ["rfc9309", "google", "aipref"], requires = "command")]
    command_profile: String,
    /// Expectations to certify against (`claimed`: the adapter's own)
    #[arg(long, default_value = "rfc9309", value_parser = ["rfc9309", "google", "aipref", "claimed"])]
    profile: String,
    /// Write certificate.md, certificate.json and badge.svg here
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Seconds the adapter gets per request (plus 20 ms per URL in a
    /// batch) before it is killed and the check reported `timeout`
    #[arg(long, default_value_t = 1.0, value_parser = super::parse_timeout)]
    timeout: f64,
}

/// The fingerprint of `entry` over the whole suite (the parser is asked
/// once more, by the fit's own collection of answers).
fn fit_of(suite: &Suite, entry: &Entry, timeout: f64) -> Fit {
    let sel = selection(suite, &Filter::default());
    let answers = {
        let mut parser = super::open::open(entry, timeout);
        Answers::collect(parser.as_mut(), &sel)
    };
    fingerprint(&answers, &sel)
}

/// Residual checks listed in the certificate (all are in the JSON).
const RESIDUAL_SHOWN: usize = 50;

/// The certificate's fingerprint section.
fn write_fingerprint(fit: &Fit, w: &mut Vec<u8>) -> std::io::Result<()> {
    use std::io::Write;
    writeln!(w, "\n## Fingerprint\n")?;
    writeln!(
        w,
        "The reading of the oracle's switches that best explains the \
         parser (`robots-conformance fingerprint --adapter {}`):\n",
        fit.adapter
    )?;
    writeln!(w, "    {}\n", fit.line())?;
    writeln!(
        w,
        "{} checks answered, {} not answered; {} answers no reading \
         explains:\n",
        fit.scored,
        fit.unanswered,
        fit.residual.len()
    )?;
    for r in fit.residual.iter().take(RESIDUAL_SHOWN) {
        writeln!(
            w,
            "- `{}`: parser {}, fitted reading {}",
            r.check, r.parser, r.fitted
        )?;
    }
    if fit.residual.len() > RESIDUAL_SHOWN {
        writeln!(
            w,
            "- … and {} more (certificate.json)",
            fit.residual.len() - RESIDUAL_SHOWN
        )?;
    }
    Ok(())
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let suite = a.cases.valid_suite()?;
    let entries = match (&a.command, &a.adapter) {
        (Some(template), _) => {
            vec![command_entry(template, &a.command_profile)?]
        }
        (None, Some(spec)) => vec![registry::lookup(spec)?],
        (None, None) => anyhow::bail!("--adapter or --command is required"),
    };
    let name = entries[0].info.name.clone();
    // A busy or unwritable folder is refused before anything runs.
    let out = OutDir::claim(&a.out)?;
    super::note_replacing(
        &out,
        &["certificate.md", "certificate.json", "badge.svg"],
    );
    let m = run_matrix(Options {
        limits: super::open::limits(a.timeout),
        host: super::open::host(),
        ..Options::new(&suite, &entries, &a.profile)
    });
    let col = &m.adapters[0];
    anyhow::ensure!(
        col.status == "ready",
        "{name} is unavailable: {}",
        col.fix.clone().unwrap_or_default()
    );
    let cert = certify(&m, &name).context("no results for the adapter")?;
    let fit = fit_of(&suite, &entries[0], a.timeout);
    let mut md = Vec::new();
    write_markdown(&cert, &mut md)?;
    write_fingerprint(&fit, &mut md)?;
    atomic_write(&out.path().join("certificate.md"), &md)?;
    let mut json = serde_json::to_value(&cert)?;
    if let Some(o) = json.as_object_mut() {
        o.insert("fingerprint".into(), serde_json::to_value(&fit)?);
    }
    atomic_write(
        &out.path().join("certificate.json"),
        serde_json::to_string_pretty(&json)?.as_bytes(),
    )?;
    // The same badge the results site shows (`robots-conformance site`).
    let badge = Badge::of(col, &m.profile);
    atomic_write(&out.path().join("badge.svg"), badge.svg().as_bytes())?;
    print_summary(&cert, &a.out);
    println!(
        "badge: {} ({}: {})",
        a.out.join("badge.svg").display(),
        badge.label,
        badge.message
    );
    Ok(0)
}

/// Failing clauses listed on the terminal (all are in certificate.md).
const WORST_SHOWN: usize = 5;

/// Characters of a clause's text shown on the terminal.
const TEXT_SHOWN: usize = 72;

/// The terminal summary: each tier with the clauses of its levels that
/// pass, fail and are not tested, the clauses that failed most, and
/// where the certificate is.
fn print_summary(
    cert: &robots_runner::certify::Certificate,
    out: &std::path::Path,
) {
    println!(
        "{} {} under {} expectations:",
        cert.adapter, cert.version, cert.profile
    );
    for ((tier, ok), levels) in cert.tiers.iter().zip(TIER_LEVELS) {
        let t = cert.tally(levels);
        println!(
            "[{}] {tier}\n      {} clauses: {} pass, {} fail, {} not tested",
            if *ok { "x" } else { " " },
            levels.join("/"),
            t.pass,
            t.fail,
            t.not_tested
        );
    }
    let worst = cert.worst(WORST_SHOWN);
    if !worst.is_empty() {
        println!("clauses failed most (clause, level, failing checks, text):");
        for c in worst {
            let text: String = c.text.chars().take(TEXT_SHOWN).collect();
            let more =
                if c.text.chars().count() > TEXT_SHOWN { "…" } else { "" };
            println!(
                "  {:<12} {:<9} {:>4}  {text}{more}",
                c.id,
                c.level,
                c.failing.len()
            );
        }
    }
    println!(
        "certificate: {} (every clause; certificate.json beside it)",
        out.join("certificate.md").display()
    );
}
