//! Criterion benchmarks: the oracle against the in-process Rust parsers,
//! on the workloads of `robots_bench`.
//!
//! ```sh
//! cargo bench --bench parsers                         # everything
//! cargo bench --bench parsers -- corpus/parse+check   # one group
//! cargo bench --bench parsers -- --warm-up-time 1 --measurement-time 2
//! ROBOTS_CORPUS=path/to/real-robots.tar.gz cargo bench --bench parsers
//! ```
//!
//! Without `ROBOTS_CORPUS` the corpus groups time the embedded sample
//! (`robots_diff::corpus::sample`); they are skipped, with a message,
//! when the archive given cannot be read. Hostile inputs are cut down for parsers marked `bounded` (the
//! benchmark id says so); see `Subject::bounded` for why.
//!
//! The groups are the rows of `robots-conformance bench` (parse only,
//! parse+check, many checks, the three hostile inputs), and at the end
//! each group's mean times are printed as `time/oracle` ratios, the
//! figures `bench` prints, read back from criterion's own results
//! (`target/criterion`, or `$CRITERION_HOME`). Which peers answer
//! correctly is `bench`'s business (`agrees`); this prints every peer.
//! Times are reported, never asserted.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group,
};
use robots_bench::{self as bench, CORPUS_PATH, Query, Subject};
use robots_diff::corpus;

fn corpus(c: &mut Criterion, subjects: &[Subject]) {
    let path = std::env::var_os("ROBOTS_CORPUS").map(PathBuf::from);
    let files = match corpus::load(path.as_deref()) {
        Ok((files, _)) => files,
        Err(e) => {
            eprintln!("corpus benchmarks skipped: {e}");
            return;
        }
    };
    let (files, dropped) = bench::usable(&files, subjects);
    if !dropped.is_empty() {
        eprintln!("left out (a parser panics): {}", dropped.join(", "));
    }
    let bytes = files.iter().map(|f| f.len() as u64).sum();
    let throughput =
        Throughput::ElementsAndBytes { elements: files.len() as u64, bytes };
    let mut g = c.benchmark_group("corpus/parse");
    g.throughput(throughput.clone())
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10);
    for s in subjects {
        let Some(parse) = s.parse else { continue };
        g.bench_function(s.name, |b| {
            b.iter(|| files.iter().for_each(|f| parse(black_box(f))))
        });
    }
    g.finish();
    let q = Query::new(CORPUS_PATH);
    let mut g = c.benchmark_group("corpus/parse+check");
    g.throughput(throughput).sampling_mode(SamplingMode::Flat).sample_size(10);
    for s in subjects {
        g.bench_function(s.name, |b| {
            b.iter(|| {
                for f in &files {
                    black_box((s.parse_check)(black_box(f), &q));
                }
            })
        });
    }
    g.finish();
}

/// One check per iteration, cycling through the queries, so that one-shot
/// parsers (a full parse per check) still fit the measurement time.
fn many_checks(c: &mut Criterion, subjects: &[Subject]) {
    let body = bench::large_file();
    let queries = bench::large_queries();
    let mut g = c.benchmark_group("large-file/checks");
    g.throughput(Throughput::Elements(1)).sample_size(10);
    for s in subjects {
        (s.prepared)(&body, &mut |check| {
            g.bench_function(s.name, |b| {
                let mut next = queries.iter().cycle();
                b.iter(|| next.next().map(|q| black_box(check(q))))
            });
        });
    }
    g.finish();
}

fn hostile(c: &mut Criterion, subjects: &[Subject]) {
    for h in bench::hostile() {
        let mut g = c.benchmark_group(format!("hostile/{}", h.name));
        g.sampling_mode(SamplingMode::Flat).sample_size(10);
        for s in subjects {
            let (robots, query, id) = match s.bounded {
                Some(why) => {
                    eprintln!(
                        "hostile/{}: {} runs a bounded variant ({}): {why}",
                        h.name, s.name, h.bounded.2
                    );
                    let id = BenchmarkId::new(s.name, "bounded");
                    (&h.bounded.0, &h.bounded.1, id)
                }
                None => {
                    (&h.robots, &h.query, BenchmarkId::from_parameter(s.name))
                }
            };
            (s.prepared)(robots, &mut |check| {
                g.bench_function(id.clone(), |b| {
                    b.iter(|| black_box(check(query)))
                });
            });
        }
        g.finish();
    }
}

fn all(c: &mut Criterion) {
    let subjects = bench::subjects();
    corpus(c, &subjects);
    many_checks(c, &subjects);
    hostile(c, &subjects);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = all
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    ratios::print();
}

/// `time/oracle` per group, from criterion's saved estimates.
mod ratios {
    use std::collections::BTreeMap;
    use std::path::{Path, PathBuf};

    /// Where criterion saves its results.
    fn home() -> PathBuf {
        if let Some(home) = std::env::var_os("CRITERION_HOME") {
            return home.into();
        }
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../target")
            });
        target.join("criterion")
    }

    /// Every `new/benchmark.json` below `dir`, with its mean in ns:
    /// (group, subject, parameter) → mean.
    fn collect(dir: &Path, out: &mut BTreeMap<(String, String, String), f64>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let path = e.path();
            if !path.is_dir() {
                continue;
            }
            if path.file_name().is_some_and(|n| n == "new") {
                let read = |f: &str| -> Option<serde_json::Value> {
                    let text = std::fs::read_to_string(path.join(f)).ok()?;
                    serde_json::from_str(&text).ok()
                };
                let (Some(id), Some(est)) =
                    (read("benchmark.json"), read("estimates.json"))
                else {
                    continue;
                };
                let text = |v: &serde_json::Value| {
                    v.as_str().unwrap_or_default().to_string()
                };
                // `from_parameter(name)` ids have the name as value.
                let (f, v) =
                    (text(&id["function_id"]), text(&id["value_str"]));
                let (subject, param) =
                    if f.is_empty() { (v, String::new()) } else { (f, v) };
                let key = (text(&id["group_id"]), subject, param);
                if let Some(mean) = est["mean"]["point_estimate"].as_f64() {
                    out.insert(key, mean);
                }
            } else {
                collect(&path, out);
            }
        }
    }

    pub fn print() {
        let mut means = BTreeMap::new();
        collect(&home(), &mut means);
        let mut groups: BTreeMap<&str, Vec<(&str, &str, f64)>> =
            BTreeMap::new();
        for ((g, f, v), &mean) in &means {
            groups.entry(g).or_default().push((f, v, mean));
        }
        println!(
            "\ntime/oracle (criterion means; `bounded`: a cut-down input, not compared)"
        );
        for (group, rows) in groups {
            let oracle = rows.iter().find(|r| r.0 == "oracle").map(|r| r.2);
            println!("{group}");
            for (subject, param, mean) in rows {
                let ratio = match (oracle, param) {
                    (Some(o), "") if o > 0.0 => format!("{:.2}", mean / o),
                    _ => "-".into(),
                };
                let name = match param {
                    "" => subject.to_string(),
                    p => format!("{subject}/{p}"),
                };
                println!("  {name:<24} {:>14.1} ns {ratio:>10}", mean);
            }
        }
    }
}
