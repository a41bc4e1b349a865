//! Audit throughput per core: how many hosts (and verdicts) one
//! `robots-conformance audit` worker judges per second on a corpus (real
//! files given with `bench --corpus`, else the embedded sample), with the
//! oracle alone (its three profiles) and with the oracle and
//! the in-process Rust adapters, the default agents and probes. These
//! are the figures the README's "At scale" projection multiplies.
//!
//! One worker is one panel on the calling thread, so a figure is per
//! core. The corpus is read once (timed separately: reading is a small
//! part of an audit); hosts are then judged in a strided order (a step
//! coprime to their number) until the time budget is spent, so a short
//! budget still samples the whole corpus rather than its first files.
//! Time is the worker thread's CPU time where the system tells it
//! (Linux: `/proc/thread-self/schedstat`), so a figure does not drop when
//! other work shares the cores; elsewhere wall time, and the section
//! says which. Timings are reported, never asserted.

use std::path::Path;
use std::time::{Duration, Instant};

use robots_audit::args::DEFAULT_AGENTS;
use robots_audit::corpus_input;
use robots_audit::input::{self, Limits};
use robots_audit::judge::{Plan, judge};
use robots_audit::panel::{PROFILES, Selection};
use robots_audit::row::HostRow;
use robots_audit::site::{self, Site};

/// One panel's figure.
#[derive(Clone, Debug)]
pub struct Figure {
    /// `oracle` or `oracle + rust`.
    pub panel: String,
    /// Parsers asked per host (the oracle's profiles included).
    pub parsers: usize,
    /// Hosts judged.
    pub hosts: usize,
    /// Verdicts given (agents × probes × parsers, summed over hosts).
    pub verdicts: usize,
    /// Time spent judging them.
    pub elapsed: Duration,
    /// Whether `elapsed` is the thread's CPU time (else wall time).
    pub cpu: bool,
}

impl Figure {
    /// Hosts per second on one core.
    pub fn hosts_per_s(&self) -> f64 {
        self.hosts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Verdicts per second on one core.
    pub fn verdicts_per_s(&self) -> f64 {
        self.verdicts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The corpus, read and sorted into hosts.
pub struct Corpus {
    /// Its hosts.
    pub sites: Vec<Site>,
    /// Records read.
    pub records: usize,
    /// Time to read and sort it.
    pub read: Duration,
}

/// The audit's default body limit.
const LIMITS: Limits = Limits { max_body: 8 * 1024 * 1024 };

/// Reads `path` (any form `audit` reads) with the audit's default body
/// limit.
pub fn load(path: &Path) -> Result<Corpus, String> {
    let started = Clock::start();
    let read = input::read(&path.to_string_lossy(), LIMITS);
    if let Some((kind, detail)) = &read.stopped {
        return Err(format!("{}: {kind}: {detail}", path.display()));
    }
    Ok(sorted(&read, started))
}

/// Files already in memory (a host's name and its robots.txt each), as
/// `audit` reads a corpus of them.
pub fn load_files(files: &[(String, Vec<u8>)]) -> Corpus {
    let started = Clock::start();
    let read = corpus_input::files(files, LIMITS);
    sorted(&read, started)
}

fn sorted(read: &robots_audit::capture::Input, started: Clock) -> Corpus {
    let sorted = site::sort(read);
    Corpus {
        sites: sorted.sites,
        records: read.events.len(),
        read: started.elapsed(),
    }
}

/// The calling thread's CPU time, where the system tells it.
pub fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// A stopwatch on the thread's CPU time, or on wall time.
struct Clock {
    cpu0: Option<Duration>,
    wall0: Instant,
}

impl Clock {
    fn start() -> Clock {
        Clock { cpu0: thread_cpu(), wall0: Instant::now() }
    }

    fn elapsed(&self) -> Duration {
        match (self.cpu0, thread_cpu()) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => self.wall0.elapsed(),
        }
    }
}

fn verdicts(row: &HostRow) -> usize {
    row.verdicts.values().flat_map(|m| m.values()).map(|l| l.len()).sum()
}

/// A step through `n` items that is coprime to `n`, near `n / φ`.
fn stride(n: usize) -> usize {
    fn gcd(a: usize, b: usize) -> usize {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let mut s = ((n as f64 / 1.618) as usize).max(1);
    while n > 1 && gcd(s, n) != 1 {
        s += 1;
    }
    s
}

/// Judges hosts of `corpus` with the adapters `spec` names (`none`,
/// `rust`) on this thread until `budget` is spent (at least one host,
/// at most every host once).
pub fn measure(
    corpus: &Corpus,
    label: &str,
    spec: &str,
    budget: Duration,
) -> Result<Figure, String> {
    let selection = Selection::parse(spec).map_err(|e| e.to_string())?;
    let mut panel = selection.open();
    let plan = Plan {
        agents: DEFAULT_AGENTS.iter().map(|a| a.to_string()).collect(),
        probes: 8,
        classify_max: 64,
    };
    let n = corpus.sites.len();
    let step = stride(n);
    let mut figure = Figure {
        panel: label.into(),
        parsers: PROFILES.len() + selection.0.len(),
        hosts: 0,
        verdicts: 0,
        elapsed: Duration::ZERO,
        cpu: false,
    };
    let started = Clock::start();
    figure.cpu = started.cpu0.is_some();
    let mut i = 0;
    while figure.hosts < n && (figure.hosts == 0 || started.elapsed() < budget)
    {
        let row = judge("bench", &corpus.sites[i], &mut panel, &plan);
        figure.hosts += 1;
        figure.verdicts += verdicts(&row);
        i = (i + step) % n;
    }
    figure.elapsed = started.elapsed();
    Ok(figure)
}

/// Measures both panels and prints the section (`budget` per panel).
/// `files` are the corpus (a host's name and its robots.txt each),
/// `kind` says which (`real corpus`, `sample corpus`).
pub fn section(files: &[(String, Vec<u8>)], kind: &str, budget: Duration) {
    let clock = match thread_cpu() {
        Some(_) => "the worker thread's CPU time",
        None => "wall time",
    };
    println!(
        "\naudit throughput per core (one worker, {clock}; {} agents, up to 8 probes; {kind})",
        DEFAULT_AGENTS.len()
    );
    let corpus = load_files(files);
    if corpus.sites.is_empty() {
        return println!("  skipped: no hosts in the {kind}");
    }
    println!(
        "  read + sort: {} records in {:.2} s ({:.0} records/s)",
        corpus.records,
        corpus.read.as_secs_f64(),
        corpus.records as f64 / corpus.read.as_secs_f64().max(1e-9)
    );
    println!(
        "  {:<16} {:>8} {:>12} {:>14} {:>8}",
        "panel", "parsers", "hosts/s", "verdicts/s", "hosts"
    );
    for (label, spec) in [("oracle", "none"), ("oracle + rust", "rust")] {
        match measure(&corpus, label, spec, budget) {
            Ok(f) => println!(
                "  {:<16} {:>8} {:>12.1} {:>14.0} {:>8}",
                f.panel,
                f.parsers,
                f.hosts_per_s(),
                f.verdicts_per_s(),
                f.hosts
            ),
            Err(e) => println!("  {label:<16} skipped: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stride_visits_every_host_once() {
        for n in [1, 2, 10, 97, 4231] {
            let s = stride(n);
            let mut seen = vec![false; n];
            let mut i = 0;
            for _ in 0..n {
                assert!(!seen[i], "n={n} s={s}");
                seen[i] = true;
                i = (i + s) % n;
            }
        }
    }

    #[test]
    fn a_measure_counts_hosts_and_verdicts() {
        let dir = std::env::temp_dir()
            .join(format!("robots-bench-audit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.example"), "User-agent: *\nDisallow: /x\n")
            .unwrap();
        std::fs::write(
            dir.join("b.example"),
            "User-agent: GPTBot\nDisallow: /\n",
        )
        .unwrap();
        let corpus = load(&dir).unwrap();
        assert_eq!(corpus.sites.len(), 2);
        let f = measure(&corpus, "oracle", "none", Duration::ZERO).unwrap();
        assert_eq!((f.hosts, f.parsers), (1, 3));
        // Twelve agents, at least the probe `/`, three oracle profiles.
        assert!(
            f.verdicts >= 12 * 3 && f.verdicts.is_multiple_of(36),
            "{f:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
