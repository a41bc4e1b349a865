//! Runs one workload of `robots_bench` for one subject in a loop, for a
//! profiler (`perf record`) or a quick comparison:
//! `spin [WORKLOAD] [SECONDS] [SUBJECT...]`, WORKLOAD one of the hostile
//! names, `large-file`, `corpus` (parse+check) or `corpus-probes` (the
//! oracle's `parse_for` and 8 paths per file); SUBJECT names from
//! `robots_bench::subjects` (default: the oracle). The corpus workloads
//! read `$ROBOTS_CORPUS` (a .tar.gz), else the embedded sample. Prints the time per
//! call of each; asserts nothing.

use std::hint::black_box;
use std::time::Duration;

use robots_bench::{self as bench, CORPUS_PATH, Query};

/// `time_per_call`, or exactly `$SPIN_CALLS` calls (for an instruction
/// counter such as `valgrind --tool=callgrind`), then zero.
fn time_per_call(budget: Duration, mut f: impl FnMut()) -> Duration {
    match std::env::var("SPIN_CALLS").ok().and_then(|n| n.parse().ok()) {
        Some(n) => {
            (0..n).for_each(|_: u64| f());
            Duration::ZERO
        }
        None => bench::time_per_call(budget, f),
    }
}

/// The corpus at `$ROBOTS_CORPUS`, else the embedded sample.
fn spin_corpus() -> Vec<robots_diff::corpus::Entry> {
    let path = std::env::var_os("ROBOTS_CORPUS").map(std::path::PathBuf::from);
    match robots_diff::corpus::load(path.as_deref()) {
        Ok((files, _)) => files,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "wildcard-file".into());
    let secs: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let mut wanted: Vec<String> = args.collect();
    if wanted.is_empty() {
        wanted.push("oracle".into());
    }
    let budget = Duration::from_secs_f64(secs);
    let subjects = bench::subjects();
    for w in &wanted {
        let Some(s) = subjects.iter().find(|s| s.name == w) else {
            eprintln!("no subject {w}");
            continue;
        };
        let per = match name.as_str() {
            "large-file" => {
                let body = bench::large_file();
                let queries = bench::large_queries();
                let mut t = Duration::ZERO;
                (s.prepared)(&body, &mut |check| {
                    t = time_per_call(budget, || {
                        for q in &queries {
                            black_box(check(q));
                        }
                    }) / queries.len() as u32;
                });
                t
            }
            "corpus-probes" => {
                // A crawler's use: each file parsed for the agent, then 8
                // paths (groups of 8 rules or more get their index on the
                // 4th): index builds and lookups.
                let files = spin_corpus();
                let probes = [
                    CORPUS_PATH,
                    "/",
                    "/a/b",
                    "/search",
                    "/admin/",
                    "/wp-admin/admin-ajax.php",
                    "/x.pdf",
                    "/cart?x=1",
                ];
                let p = bench::subjects::oracle_profile();
                time_per_call(budget, || {
                    for f in &files {
                        let r = robots_oracle::RobotsTxt::parse_for(
                            &f.body,
                            &p,
                            bench::AGENT,
                        );
                        for u in probes {
                            black_box(r.is_allowed(u));
                        }
                    }
                })
            }
            "corpus" => {
                let files = spin_corpus();
                let q = Query::new(CORPUS_PATH);
                time_per_call(budget, || {
                    for f in &files {
                        black_box((s.parse_check)(&f.body, &q));
                    }
                })
            }
            hostile => {
                let h = bench::hostile()
                    .into_iter()
                    .find(|h| h.name == hostile)
                    .expect("a workload name");
                let mut t = Duration::ZERO;
                (s.prepared)(&h.robots, &mut |check| {
                    t = time_per_call(budget, || {
                        black_box(check(black_box(&h.query)));
                    });
                });
                t
            }
        };
        println!("{name} {w}: {:.1} ns/call", per.as_secs_f64() * 1e9);
    }
}
