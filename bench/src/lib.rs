//! Benchmark workloads, shared by the criterion benches
//! (`bench/benches/parsers.rs`) and `robots-conformance bench`: the
//! parsers ([`subjects`]) and the inputs they are timed on.
//!
//! - **Corpus**: every file of a `.tar.gz` of real robots.txt files, or
//!   of the embedded sample (`robots_diff::corpus::load`), parsed, and
//!   parsed plus one check ([`CORPUS_PATH`] for [`AGENT`]).
//! - **Large file**: [`large_file`], 20,000 rules (~550 KiB) of prefixes,
//!   `*` and `$`, parsed once, then [`large_queries`] decided against it.
//! - **Hostile**: [`hostile`], runs of `*` and a 500 KiB file of wildcard
//!   rules against 8 KiB paths; time per check.
//!
//! - **Audit throughput**: [`audit_throughput`], hosts and verdicts per
//!   second of one `audit` worker on that corpus.
//!
//! Everything is generated deterministically in code (a fixed-seed
//! SplitMix64), so runs on different machines time the same inputs.
//!
//! Timings are reported, never asserted: nothing here fails on a slow
//! machine.

pub mod agreement;
pub mod audit_throughput;
pub mod subjects;

use std::fmt::Write as _;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

pub use subjects::{Subject, all as subjects};

/// The crawler's product token in every workload.
pub const AGENT: &str = "FooBot";

/// The one URL checked per corpus file: a path many real files disallow.
pub const CORPUS_PATH: &str = "/search?q=robots.txt&page=2";

/// The origin every URL is on, for the crates that want absolute URLs.
pub const BASE: &str = robots_adapters::rust::BASE;

/// One URL, in each shape the parsers take, built outside timed loops.
#[derive(Clone, Debug)]
pub struct Query {
    /// Path and query, `/` first.
    pub path: String,
    /// On [`BASE`].
    pub absolute: String,
    /// Parsed, for `robotparser`.
    pub url: url::Url,
}

impl Query {
    /// The query for `path` (which starts with `/`).
    ///
    /// # Panics
    ///
    /// When `path` does not make a valid URL on [`BASE`]; the generated
    /// paths always do.
    pub fn new(path: &str) -> Query {
        let absolute = format!("{BASE}{path}");
        // OK: callers pass generated paths, which are valid URL paths.
        let url = url::Url::parse(&absolute).expect("a valid URL path");
        Query { path: path.to_string(), absolute, url }
    }
}

/// The origin of [`BASE`], for `robotparser`.
pub fn origin() -> url::Origin {
    static ORIGIN: LazyLock<url::Origin> = LazyLock::new(|| {
        // OK: BASE is a valid absolute URL.
        url::Url::parse(BASE).expect("valid base").origin()
    });
    ORIGIN.clone()
}

/// SplitMix64: a small, fixed, well-known generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (n > 0); the bias is irrelevant here.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[self.below(words.len() as u64) as usize]
    }
}

const WORDS: [&str; 16] = [
    "shop", "cart", "feed", "search", "img", "api", "user", "docs", "blog",
    "tag", "news", "media", "en", "de", "item", "list",
];

/// A word and a number, e.g. `cart1370`.
fn segment(rng: &mut Rng) -> String {
    format!("{}{}", rng.pick(&WORDS), rng.below(20_000))
}

/// The rules of the large file's `*` group.
pub const LARGE_RULES: usize = 20_000;

/// The large file's rules: allow or not, the two segments the pattern
/// is built from, and the pattern.
fn large_rules() -> Vec<(bool, String, String, String)> {
    let mut rng = Rng(9309);
    (0..LARGE_RULES)
        .map(|_| {
            let allow = rng.below(3) == 0;
            let (a, b) = (segment(&mut rng), segment(&mut rng));
            let pattern = match rng.below(20) {
                0 | 1 => format!("/{a}/{b}$"),
                2 | 3 => format!("/*{a}*.pdf$"),
                4 | 5 => format!("/{a}*?sort="),
                6 | 7 => format!("/{a}/*/{}", rng.pick(&WORDS)),
                8 => format!("/*{a}"),
                _ => format!("/{a}/{b}/"),
            };
            (allow, a, b, pattern)
        })
        .collect()
}

/// The large file: an `OtherBot` group, then 20,000 rules in the `*`
/// group (about 560,000 bytes): 55% directory prefixes, 10% exact paths
/// ending in `$`, 10% `/*word*.pdf$`, 10% `/prefix*?sort=`, 10%
/// `/prefix/*/word`, 5% `/*word`; a third are allows.
pub fn large_file() -> String {
    let mut s = String::from(
        "# generated: robots-conformance bench, large file\n\
         User-agent: OtherBot\nDisallow: /\n\nUser-agent: *\n",
    );
    for (allow, _, _, pattern) in large_rules() {
        let key = if allow { "Allow" } else { "Disallow" };
        // OK: writing to a String cannot fail.
        writeln!(s, "{key}: {pattern}").expect("infallible");
    }
    s
}

/// 1,000 paths for the large file, built from the segments of its rules
/// (so that many match one or more): `/a/b/c`, `/x/a/b.pdf`,
/// `/a/b?sort=x`, `/a/b/`.
pub fn large_queries() -> Vec<Query> {
    let rules = large_rules();
    let mut rng = Rng(2024);
    (0..1_000)
        .map(|_| {
            let (_, a, b, _) = &rules[rng.below(rules.len() as u64) as usize];
            let c = rng.pick(&WORDS);
            let path = match rng.below(4) {
                0 => format!("/{a}/{b}/{c}"),
                1 => format!("/{c}/{a}/{b}.pdf"),
                2 => format!("/{a}/{b}?sort=price&page={}", rng.below(9)),
                _ => format!("/{a}/{b}/"),
            };
            Query::new(&path)
        })
        .collect()
}

/// One hostile input: a file and a path, and a cut-down variant for
/// parsers that would not finish the full one.
pub struct Hostile {
    /// The benchmark id.
    pub name: &'static str,
    /// What it is, for tables.
    pub about: &'static str,
    /// The file.
    pub robots: String,
    /// The path checked.
    pub query: Query,
    /// The cut-down variant: file, path and what was cut.
    pub bounded: (String, Query, &'static str),
    /// More paths asked (not timed) to judge the answers: the timed path
    /// alone is one answer, which a parser blind to `*` gets right by
    /// accident; these include paths the rules do match.
    pub probes: Vec<Query>,
}

impl Hostile {
    /// The paths a parser's answers are judged on, for the full input
    /// or for the cut-down one: the timed path, then the probes (cut to
    /// the cut-down path's length, `/` kept, for the cut-down input).
    pub fn judged(&self, bounded: bool) -> Vec<Query> {
        let (timed, max) = match bounded {
            true => (&self.bounded.1, self.bounded.1.path.len()),
            false => (&self.query, usize::MAX),
        };
        let mut paths = vec![timed.clone()];
        for p in &self.probes {
            let path = &p.path;
            if path.len() <= max {
                paths.push(p.clone());
            } else if let Some(cut) = path.get(path.len() - max + 1..) {
                paths.push(Query::new(&format!("/{cut}")));
            }
        }
        paths
    }
}

/// `Disallow: /*a*a…*a*b` with `stars` wildcards.
fn star_a_b(stars: usize) -> String {
    format!("User-agent: *\nDisallow: /{}*b\n", "*a".repeat(stars - 1))
}

/// `Disallow: /***…*b` with a run of `stars` wildcards.
fn star_run(stars: usize) -> String {
    format!("User-agent: *\nDisallow: /{}b\n", "*".repeat(stars))
}

/// `/` and `n - 1` octets `a`: no rule above matches it.
fn a_path(n: usize) -> Query {
    Query::new(&format!("/{}", "a".repeat(n - 1)))
}

/// About 500 KiB of wildcard rules over `a`, `b`, `c`, `/`: the first
/// pieces of every rule occur all along the path, but the last piece
/// occurs only at its end, or nowhere (some made only of octets that are
/// everywhere in the path, which defeats a search by rare octets).
fn wildcard_file(bytes: usize) -> String {
    let mut rng = Rng(7);
    let mut s = String::from("User-agent: *\n");
    while s.len() < bytes {
        let mut rule = String::from("Disallow: /");
        for _ in 0..1 + rng.below(6) {
            rule.push('*');
            rule.push_str(rng.pick(&["a", "b", "ab", "ba", "a/", "/a"]));
        }
        rule.push('*');
        let last = ["c", "ac", "abc", "cb", "a/c", "ca", "b//a", "aa//b"];
        rule.push_str(rng.pick(&last));
        if rng.below(4) == 0 {
            rule.push('$');
        }
        rule.push('\n');
        s.push_str(&rule);
    }
    s
}

/// A path of `n` octets: random pairs `ab`, `ba`, `a/`, `/b`, then `acb`.
fn wildcard_path(n: usize) -> Query {
    let mut rng = Rng(11);
    let mut p = String::from("/");
    while p.len() < n - 3 {
        p.push_str(rng.pick(&["ab", "ba", "a/", "/b"]));
    }
    p.truncate(n - 3);
    p.push_str("acb");
    Query::new(&p)
}

/// The hostile workloads.
pub fn hostile() -> Vec<Hostile> {
    vec![
        Hostile {
            name: "stars-long-path",
            about: "/*a*a…*b, 26 `*`, vs 8 KiB of `a`",
            robots: star_a_b(26),
            query: a_path(8192),
            bounded: (star_a_b(26), a_path(1000), "1,000-octet path"),
            probes: vec![
                Query::new(&format!("{}b", a_path(8191).path)),
                Query::new(&format!("/{}b", "a".repeat(30))),
                Query::new(&format!("/{}b", "a".repeat(20))),
                Query::new("/b"),
            ],
        },
        Hostile {
            name: "star-run",
            about: "/ + 2,000 `*` + b, vs 8 KiB of `a`",
            robots: star_run(2000),
            query: a_path(8192),
            bounded: (star_run(12), a_path(200), "12 `*`, 200-octet path"),
            probes: vec![
                Query::new(&format!("{}b", a_path(8191).path)),
                Query::new("/aab"),
                Query::new("/b"),
                Query::new("/"),
            ],
        },
        Hostile {
            name: "wildcard-file",
            about: "500 KiB of wildcard rules vs an 8 KiB path",
            robots: wildcard_file(500 * 1024),
            query: wildcard_path(8192),
            bounded: (
                wildcard_file(10 * 1024),
                wildcard_path(512),
                "10 KiB of rules, 512-octet path",
            ),
            probes: vec![
                Query::new(&format!("/{}", "ab".repeat(4000))),
                Query::new(&wildcard_path(8192).path.replace('c', "")),
                Query::new("/ab/acb"),
                Query::new("/ba/a/c"),
                Query::new("/abba//ab"),
            ],
        },
    ]
}

/// Time per call of `f`, spending about `budget` in all: the calls are
/// split into rounds and the fastest round's mean is the figure (the
/// machine is shared, so slower rounds are mostly someone else's work).
/// A round's time is the thread's CPU time where the system tells it
/// (`audit_throughput::thread_cpu`), so that time the thread spent
/// waiting for a core is not counted; else wall time. The first call
/// warms up and is not counted, unless it alone took the whole budget
/// (then it is the figure).
pub fn time_per_call(budget: Duration, mut f: impl FnMut()) -> Duration {
    const ROUNDS: u32 = 10;
    let first = Instant::now();
    f();
    let first = first.elapsed();
    if first >= budget {
        return first;
    }
    let per_round = budget / ROUNDS;
    let mut best = Duration::MAX;
    for _ in 0..ROUNDS {
        let cpu = audit_throughput::thread_cpu();
        let start = Instant::now();
        let mut calls = 0u32;
        loop {
            f();
            calls += 1;
            let spent = start.elapsed();
            if spent >= per_round {
                let used = match (cpu, audit_throughput::thread_cpu()) {
                    (Some(a), Some(b)) => b.saturating_sub(a),
                    _ => spent,
                };
                best = best.min(used / calls);
                break;
            }
        }
    }
    best
}

/// The corpus files every subject gets through without panicking, and
/// the names of those some subject panicked on (left out for all, so that
/// every parser is timed on the same bytes).
pub fn usable<'c>(
    files: &'c [robots_diff::corpus::Entry],
    subjects: &[Subject],
) -> (Vec<&'c [u8]>, Vec<String>) {
    let query = Query::new(CORPUS_PATH);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut kept = Vec::new();
    let mut dropped = Vec::new();
    for f in files {
        let panics = subjects.iter().find(|s| {
            let body = &f.body[..];
            std::panic::catch_unwind(|| (s.parse_check)(body, &query)).is_err()
        });
        match panics {
            Some(s) => dropped.push(format!("{} ({} panics)", f.name, s.name)),
            None => kept.push(&f.body[..]),
        }
    }
    std::panic::set_hook(hook);
    (kept, dropped)
}
