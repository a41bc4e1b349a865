//! `lint FILE`: for a site owner, which parsers read a robots.txt file
//! differently from the oracle, grouped by the switch that explains it,
//! each with a rewrite, and the mistakes every reading agrees on. The
//! work is `robots_audit::lint`; this file reads the file, picks the
//! parsers and prints. Exit status: 0 portable, 1 not portable, 2 usage
//! or I/O error.

use std::io::Read;
use std::path::PathBuf;

use anyhow::Context;
use robots_audit::lint::{self, Options};
use robots_audit::panel::Selection;

/// The largest file read (16 times the 500 KiB parsers must read).
const MAX_FILE_BYTES: u64 = 8 << 20;

/// Which parsers may read a robots.txt file differently, and how to make
/// it portable.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The robots.txt file (`-` for stdin)
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Parsers asked: `all` (every ready adapter), `rust` (the in-process
    /// crates), `none` (only the mistakes every reading agrees on), or
    /// names (or paths of adapter.toml files), comma-separated
    #[arg(long, default_value = "all", value_name = "LIST")]
    adapters: String,
    /// The oracle's profile the parsers are compared with
    #[arg(long, default_value = "rfc9309", value_parser = ["rfc9309", "google", "aipref"])]
    profile: String,
    /// Product tokens to ask about, comma-separated [default: the major
    /// search and AI crawlers and the ones the file names; at most 32]
    #[arg(long, value_delimiter = ',', value_name = "A,B")]
    agents: Vec<String>,
    /// Probe URLs at most (`/` and the paths of the file's rules; at most
    /// 64)
    #[arg(long, default_value_t = 24, value_name = "N")]
    probes: usize,
    /// Disagreements classified per parser at most
    #[arg(long, default_value_t = 64, value_name = "N")]
    classify_max: usize,
    /// Parsers asked at once [default: the cores available]
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Print the report as JSON (format `robots-conformance-lint/1`,
    /// README "lint")
    #[arg(long)]
    json: bool,
}

fn read(path: &PathBuf) -> anyhow::Result<Vec<u8>> {
    let mut body = Vec::new();
    let shown = path.display();
    if path.as_os_str() == "-" {
        std::io::stdin()
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut body)
            .context("reading robots.txt from stdin")?;
    } else {
        std::fs::File::open(path)
            .with_context(|| format!("reading {shown}"))?
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut body)
            .with_context(|| format!("reading {shown}"))?;
    }
    if body.len() as u64 > MAX_FILE_BYTES {
        anyhow::bail!(
            "{shown}: over {MAX_FILE_BYTES} bytes, far past the 500 KiB \
             parsers read; not a robots.txt file to lint"
        );
    }
    Ok(body)
}

/// Runs `lint`: 0 when the file is portable, 1 when it is not.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let body = read(&args.file)?;
    let selection = match args.adapters.as_str() {
        "all" => Selection::ready(),
        spec => Selection::parse(spec).context("--adapters")?,
    };
    let opts = Options {
        agents: args.agents,
        selection,
        profile: args.profile,
        probes: args.probes,
        classify_max: args.classify_max,
        jobs: args.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(2, |n| n.get())
        }),
    };
    let name = args.file.display().to_string();
    let report = lint::lint(&name, &body, &opts)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.render());
    }
    Ok(if report.portable { 0 } else { 1 })
}
