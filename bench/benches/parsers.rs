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
//! The corpus groups are skipped, with a message, when the archive is
//! missing. Hostile inputs are cut down for parsers marked `bounded` (the
//! benchmark id says so); see `Subject::bounded` for why.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group,
    criterion_main,
};
use robots_bench::{self as bench, CORPUS_PATH, Query, Subject};
use robots_diff::corpus;

fn corpus(c: &mut Criterion, subjects: &[Subject]) {
    let path = std::env::var_os("ROBOTS_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(corpus::default_path);
    let files = match corpus::read(&path) {
        Ok(files) => files,
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
criterion_main!(benches);
