//! The `audit` command line (clap): inputs, output, agents, adapters,
//! shard, limits; and its subcommands `merge`, `make-warc` and `render`.

use std::path::PathBuf;
use std::str::FromStr;

/// The agents audited unless `--agents` says otherwise: the major search
/// and AI crawlers' product tokens.
pub const DEFAULT_AGENTS: [&str; 12] = [
    "Googlebot",
    "Bingbot",
    "GPTBot",
    "ChatGPT-User",
    "CCBot",
    "ClaudeBot",
    "anthropic-ai",
    "Google-Extended",
    "PerplexityBot",
    "Applebot-Extended",
    "Bytespider",
    "meta-externalagent",
];

/// Audit robots.txt captures: WARC / WARC.gz files (response records),
/// `.tar.gz` corpora, folders or JSON lines; `-` reads paths from stdin.
#[derive(clap::Args, Debug, Clone)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    /// `merge` or `make-warc`
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Inputs: WARC, WARC.gz, .tar.gz, folder, JSON lines; `-` for a list
    /// of paths on stdin
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,
    /// Output folder (rows.jsonl, audit.json, audit.md, audit.html), or
    /// `-` for the rows as JSON lines on stdout
    #[arg(long, value_name = "DIR")]
    pub out: Option<String>,
    /// How hosts are judged.
    #[command(flatten)]
    pub run: RunOptions,
    /// Audit only shard I of N (hosts and records split by a hash of
    /// input path and URL or record number, so one big WARC spreads over
    /// the shards), into DIR/shard-I-of-N/; a rerun skips a finished shard
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Also write the host rows as Parquet (`hosts.parquet`, the columns
    /// of the Spark job's `hosts.parquet`)
    #[arg(long)]
    pub parquet: bool,
    /// No progress bar
    #[arg(long)]
    pub no_progress: bool,
}

/// How hosts are judged.
#[derive(clap::Args, Debug, Clone)]
pub struct RunOptions {
    /// Product tokens to audit, comma-separated [default: the major
    /// search and AI crawlers]
    #[arg(long, value_delimiter = ',', value_name = "A,B")]
    pub agents: Vec<String>,
    /// Adapters besides the oracle: `rust` (the in-process crates),
    /// `none`, or names (or paths of adapter.toml files), comma-separated
    #[arg(long, default_value = "rust", value_name = "LIST")]
    pub adapters: String,
    /// A body (or record) larger than this many bytes is a bad record
    #[arg(long, default_value_t = 8 * 1024 * 1024, value_name = "BYTES")]
    pub max_body: usize,
    /// Probe URLs per host at most (`/` and paths from the file's rules)
    #[arg(long, default_value_t = 8, value_name = "N")]
    pub probes: usize,
    /// Departing verdicts classified by axis per host and parser at most
    #[arg(long, default_value_t = 64, value_name = "N")]
    pub classify_max: usize,
    /// Worker threads [default: the cores available]
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
}

/// `audit`'s subcommands.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum Command {
    /// Combine shard folders into what one run would have written
    Merge(MergeArgs),
    /// Write a WARC.gz of 200 responses from a corpus (.tar.gz, folder,
    /// JSON lines), one robots.txt record per host
    MakeWarc(MakeWarcArgs),
    /// Rewrite audit.md and audit.html from DIR/audit.json (after a
    /// change of the report's layout; no host is judged again)
    Render(RenderArgs),
}

/// `audit render`.
#[derive(clap::Args, Debug, Clone)]
pub struct RenderArgs {
    /// An audit's output folder (with its audit.json)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// `audit merge`.
#[derive(clap::Args, Debug, Clone)]
pub struct MergeArgs {
    /// Shard folders (`DIR/shard-I-of-N`), or folders holding them
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Output folder
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Also write the host rows as Parquet (`hosts.parquet`)
    #[arg(long)]
    pub parquet: bool,
}

/// `audit make-warc`.
#[derive(clap::Args, Debug, Clone)]
pub struct MakeWarcArgs {
    /// The corpus (.tar.gz, folder, JSON lines) [default: the embedded
    /// sample of synthetic files]
    #[arg(value_name = "CORPUS")]
    pub corpus: Option<String>,
    /// The WARC.gz to write
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Split into this many files (`FILE` becomes `STEM-00000.warc.gz`, ...)
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub split: usize,
    /// Append synthetic AI preference lines (Content-Usage,
    /// Content-Signal) to every N-th 200 response, for testing; 0: none
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub ai_lines: usize,
}

/// `--shard I/N`: shard I (0-based) of N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard.
    pub index: usize,
    /// Of how many.
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let (i, n) =
            s.split_once('/').ok_or("expected I/N, for example 0/4")?;
        let index: usize =
            i.trim().parse().map_err(|_| format!("bad shard index {i:?}"))?;
        let count: usize =
            n.trim().parse().map_err(|_| format!("bad shard count {n:?}"))?;
        if count == 0 || index >= count {
            return Err(format!("shard {index}/{count}: need 0 <= I < N"));
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Whether the thing named `key` belongs to this shard (FNV-1a of the
    /// key, so the split does not depend on the order inputs are given
    /// in). See [`ShardKey`] for the keys an audit uses.
    pub fn owns(&self, key: &str) -> bool {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in key.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        (h % self.count as u64) as usize == self.index
    }

    /// The shard's folder name: `shard-I-of-N`.
    pub fn dir_name(&self) -> String {
        format!("shard-{}-of-{}", self.index, self.count)
    }
}

/// What a shard owns, named by a key: an input's own rows (its counts and
/// the error that stopped it) go with the input path, a host with its
/// input and robots.txt URL, a bad record with its input and number. So
/// every shard reads every input (redirect chains are resolved within an
/// input, across all its records) but judges only its own hosts.
#[derive(Clone, Copy, Debug)]
pub enum ShardKey<'a> {
    /// The input row and the input's stopping error.
    Input(&'a str),
    /// A host: input path and robots.txt URL.
    Host(&'a str, &'a str),
    /// A bad record: input path and record number.
    Record(&'a str, usize),
}

impl ShardKey<'_> {
    /// The key hashed.
    pub fn text(&self) -> String {
        match self {
            ShardKey::Input(p) => (*p).to_string(),
            ShardKey::Host(p, url) => format!("{p}\nhost\n{url}"),
            ShardKey::Record(p, n) => format!("{p}\nrecord\n{n}"),
        }
    }
}

/// Whether `shard` (none: the whole run) owns `key`.
pub fn owned(shard: Option<Shard>, key: ShardKey<'_>) -> bool {
    shard.is_none_or(|s| s.owns(&key.text()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_partition() {
        assert!("3/3".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        let shards: Vec<Shard> =
            (0..3).map(|i| format!("{i}/3").parse().unwrap()).collect();
        for name in ["a.warc", "b.warc.gz", "c", "d/e.warc"] {
            assert_eq!(
                shards.iter().filter(|s| s.owns(name)).count(),
                1,
                "{name}"
            );
        }
    }

    #[test]
    fn hosts_of_one_input_spread_over_the_shards() {
        let shards: Vec<Shard> =
            (0..4).map(|i| format!("{i}/4").parse().unwrap()).collect();
        let mut per = [0usize; 4];
        for h in 0..400 {
            let url = format!("http://h{h}.example/robots.txt");
            let key = ShardKey::Host("big.warc.gz", &url);
            let owners: Vec<usize> =
                (0..4).filter(|&i| owned(Some(shards[i]), key)).collect();
            assert_eq!(owners.len(), 1, "{url}");
            per[owners[0]] += 1;
        }
        assert!(per.iter().all(|&n| n > 50), "{per:?}");
        assert!(owned(None, ShardKey::Record("x", 3)));
    }
}
