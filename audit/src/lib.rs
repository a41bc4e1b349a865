//! Auditing robots.txt at web scale: what the web's robots.txt files say
//! to each crawler, measured with the oracle (its `rfc9309`, `google`
//! and `aipref` profiles) and with other parsers side by side, and what
//! AI usage preferences (Content-Usage, Content-Signal) the files state.
//!
//! Inputs are WARC / WARC.gz files of robots.txt fetches (Common Crawl
//! publishes its robots.txt captures so), or the `.tar.gz`, folder and
//! JSON-lines corpus forms ([`input`]). Per host ([`site`]): the fetch
//! outcome under the oracle's fetch model (status → parse-body /
//! allow-all / disallow-all, redirects, size), then for each agent and
//! probe URL ([`probe`]) the verdict of every parser ([`panel`],
//! [`judge`]), the AI usage preferences (the `aipref` oracle's `usage`
//! op) and a census of the file's AI preference lines ([`ai_lines`]).
//! Output ([`run`]): per-host rows as JSON lines ([`row`]),
//! `audit.json` aggregates ([`aggregate`]), `audit.md` and `audit.html`
//! ([`render`]). `--shard I/N` and [`merge`] split and recombine a run;
//! `--out -` streams rows to stdout for `audit/spark/audit_job.py`.
//! [`lint`] judges one local file the same way, for its owner: which
//! parsers read it differently, grouped by the switch that explains it,
//! with a rewrite, and the mistakes every reading agrees on.
//!
//! This crate never decides a verdict itself (the parsers do, through
//! the `Adapter` trait) and never stops on bad input: an unreadable
//! file, a truncated stream, a record that is not HTTP or a body over the
//! limit is a counted error row.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod aggregate;
pub mod ai_lines;
pub mod ai_synth;
pub mod args;
pub mod capture;
pub mod corpus_input;
pub mod error;
pub mod http;
pub mod input;
pub mod judge;
pub mod lint;
pub mod merge;
pub mod output;
pub mod panel;
pub mod parquet_out;
pub mod probe;
pub mod render;
pub mod row;
pub mod run;
pub mod site;
pub mod warc_input;
pub mod warc_out;

pub use args::{Args, Command};
pub use error::Error;

/// What `run` did.
#[derive(Debug)]
pub enum Outcome {
    /// An audit ran (or its shard was already finished).
    Audited(Box<run::Summary>),
    /// Shards were merged into this folder.
    Merged {
        /// The folder.
        out: std::path::PathBuf,
        /// The merged aggregates.
        audit: Box<aggregate::Audit>,
    },
    /// `render` rewrote the reports in this folder.
    Rendered(std::path::PathBuf),
    /// `make-warc` wrote these files with this many records.
    MadeWarc {
        /// The files.
        files: Vec<std::path::PathBuf>,
        /// Records written.
        records: usize,
    },
}

/// Runs the `audit` command line; `-` among the inputs reads paths from
/// the process's standard input.
pub fn run(args: Args) -> Result<Outcome, Error> {
    match &args.command {
        Some(Command::Merge(m)) => {
            let audit = merge::merge(&m.dirs, &m.out, m.parquet)?;
            Ok(Outcome::Merged { out: m.out.clone(), audit: Box::new(audit) })
        }
        Some(Command::Render(r)) => {
            let path = r.dir.join("audit.json");
            let bytes = std::fs::read(&path).map_err(|e| Error::Read {
                path: path.clone(),
                why: e.to_string(),
            })?;
            let read = |why: String| Error::Read { path: path.clone(), why };
            let doc: serde_json::Value = serde_json::from_slice(&bytes)
                .map_err(|e| read(e.to_string()))?;
            if doc["format"] != aggregate::FORMAT {
                return Err(read(format!(
                    "format {} is not {}: rerun the audit (or merge its shards) with this version",
                    doc["format"],
                    aggregate::FORMAT
                )));
            }
            let audit: aggregate::Audit = serde_json::from_value(doc)
                .map_err(|e| read(e.to_string()))?;
            run::write_reports(&r.dir, &audit)?;
            Ok(Outcome::Rendered(r.dir.clone()))
        }
        Some(Command::MakeWarc(m)) => {
            // The embedded sample is the binary's (robots-gen); this
            // crate is given a corpus.
            let corpus = m.corpus.as_deref().ok_or_else(|| {
                Error::Usage("make-warc: no CORPUS given".into())
            })?;
            let (files, records) =
                warc_out::make(corpus, &m.out, m.split, m.ai_lines)?;
            Ok(Outcome::MadeWarc { files, records })
        }
        None => {
            let stdin = std::io::stdin();
            run::audit(&args, stdin.lock())
                .map(|s| Outcome::Audited(Box::new(s)))
        }
    }
}
