//! `audit`: the web-scale audit (crate `robots-audit`): reads WARC and
//! corpus inputs, writes per-host rows and aggregates. This file only
//! prints what the library did, and hands `make-warc` the embedded sample
//! corpus (`robots_diff::corpus::sample`) when no corpus is given.

use robots_audit::args::MakeWarcArgs;
use robots_audit::{Command, Outcome};
use robots_diff::corpus;

pub use robots_audit::Args;

/// `make-warc` without a corpus: the embedded sample; with one that does
/// not exist: an error naming the sample and where real data comes from.
fn make_warc(m: &MakeWarcArgs) -> anyhow::Result<Option<Outcome>> {
    match &m.corpus {
        Some(path) if !std::path::Path::new(path).exists() => {
            anyhow::bail!(
                "no corpus at {path} (no such file or folder). Without a \
                 CORPUS the embedded sample is used ({}); {}",
                corpus::SAMPLE_ABOUT,
                corpus::WHERE_REAL_DATA
            )
        }
        Some(_) => Ok(None),
        None => {
            let files: Vec<(String, Vec<u8>)> = corpus::sample()
                .into_iter()
                .map(|e| (e.name, e.body))
                .collect();
            let read = robots_audit::corpus_input::files(
                &files,
                robots_audit::input::Limits { max_body: usize::MAX / 4 },
            );
            eprintln!(
                "make-warc: the embedded sample, {} {}",
                files.len(),
                corpus::SAMPLE_ABOUT
            );
            let (files, records) = robots_audit::warc_out::make_from(
                &read, &m.out, m.split, m.ai_lines,
            )?;
            Ok(Some(Outcome::MadeWarc { files, records }))
        }
    }
}

/// Runs `audit`; 0 when it ran (bad records are counted, not fatal), 1
/// when the inputs named held no record at all, 2 on a usage error (an
/// input named on the command line that cannot be read among them).
pub fn run(args: Args) -> anyhow::Result<i32> {
    let shard = args.shard.is_some();
    let made = match &args.command {
        Some(Command::MakeWarc(m)) => make_warc(m)?,
        _ => None,
    };
    if let (None, Some(out), false) = (&args.command, &args.out, shard)
        && out != "-"
        && std::path::Path::new(out).join("audit.json").exists()
    {
        eprintln!(
            "{out}: replacing an earlier audit's rows.jsonl, audit.json, \
             audit.md and audit.html (another --out keeps them)"
        );
    }
    let outcome = match made {
        Some(o) => o,
        None => robots_audit::run(args)?,
    };
    match outcome {
        Outcome::Audited(s) if s.skipped => {
            let out =
                s.out.map(|o| o.display().to_string()).unwrap_or_default();
            eprintln!("{out}: this shard already finished; skipped");
        }
        Outcome::Audited(s) => {
            let secs = s.elapsed.as_secs_f64().max(1e-9);
            if let (Some(a), Some(out)) = (&s.audit, &s.out) {
                let c = &a.counts;
                eprintln!(
                    "{} inputs, {} records, {} hosts ({} audited), {} errors → {}",
                    c.inputs,
                    c.records,
                    c.hosts,
                    c.hosts_audited,
                    c.errors,
                    out.display()
                );
                // A shard may own no input; a whole run over inputs
                // that hold nothing has audited nothing.
                if !shard && c.inputs > 0 && c.records == 0 {
                    eprintln!(
                        "audit: no record in any of the {} input(s) \
                         (errors: {:?}); nothing was audited",
                        c.inputs, c.errors_by_kind
                    );
                    return Ok(1);
                }
            }
            eprintln!(
                "{} hosts in {:.2} s on {} worker(s): {:.0} hosts/s, {:.0} hosts/s per worker",
                s.hosts,
                secs,
                s.jobs,
                s.hosts as f64 / secs,
                s.hosts as f64 / secs / s.jobs as f64
            );
        }
        Outcome::Merged { out, audit } => {
            let c = &audit.counts;
            eprintln!(
                "merged {} inputs, {} hosts → {}",
                c.inputs,
                c.hosts,
                out.display()
            );
        }
        Outcome::Rendered(dir) => {
            eprintln!("wrote {0}/audit.md and {0}/audit.html", dir.display());
        }
        Outcome::MadeWarc { files, records } => {
            for f in &files {
                eprintln!("wrote {}", f.display());
            }
            eprintln!("{records} records");
        }
    }
    Ok(0)
}
