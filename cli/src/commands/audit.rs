//! `audit`: the web-scale audit (crate `robots-audit`): reads WARC and
//! corpus inputs, writes per-host rows and aggregates. This file only
//! prints what the library did.

use robots_audit::Outcome;

pub use robots_audit::Args;

/// Runs `audit`; 0 when it ran (bad input is counted, not fatal).
pub fn run(args: Args) -> anyhow::Result<i32> {
    match robots_audit::run(args)? {
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
