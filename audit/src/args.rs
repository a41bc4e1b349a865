//! The `audit` command line (clap): inputs, output, agents, adapters,
//! shard, limits; and its subcommands `merge` and `make-warc`.

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
    /// Audit only inputs of shard I of N (by a hash of the path), into
    /// DIR/shard-I-of-N/; a rerun skips a finished shard
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
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
}

/// `audit make-warc`.
#[derive(clap::Args, Debug, Clone)]
pub struct MakeWarcArgs {
    /// The corpus
    #[arg(value_name = "CORPUS")]
    pub corpus: String,
    /// The WARC.gz to write
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Split into this many files (`FILE` becomes `STEM-00000.warc.gz`, ...)
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub split: usize,
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
    /// Whether `input` belongs to this shard (FNV-1a of the path, so the
    /// split does not depend on the order inputs are given in).
    pub fn owns(&self, input: &str) -> bool {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in input.bytes() {
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
}
