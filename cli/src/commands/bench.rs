//! `bench`: the criterion workloads (see `robots_bench`), a
//! few seconds each, as one table of figures and ratios to the oracle.

use std::path::PathBuf;
use std::time::Duration;

use robots_bench::{
    self, CORPUS_PATH, Hostile, LARGE_RULES, Query, Subject, time_per_call,
};
use robots_diff::corpus;

/// Time the oracle against the in-process Rust parsers.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The real-world corpus (.tar.gz) [default:
    /// ../shared/corpus/real-robots.tar.gz from the project root]
    #[arg(long, value_name = "FILE")]
    corpus: Option<PathBuf>,
    /// Seconds spent on each figure (each parser, each workload)
    #[arg(long, value_name = "N", default_value_t = 1.0)]
    seconds: f64,
}

/// One figure: a parser's time per unit of work, and a note.
struct Figure {
    name: &'static str,
    time: Duration,
    /// Timed on the same input as the oracle (not a cut-down variant).
    comparable: bool,
    note: String,
}

impl Figure {
    fn new(s: &Subject, time: Duration) -> Figure {
        Figure { name: s.name, time, comparable: true, note: String::new() }
    }
}

/// Prints one section: a heading, then each parser's figure (formatted by
/// `show` from the time per unit), its time ratio to the oracle's, and
/// its note.
fn section(
    title: &str,
    unit: &str,
    rows: &[Figure],
    show: impl Fn(Duration) -> String,
) {
    println!("\n{title}");
    println!("  {:<16} {:>24} {:>12}", "parser", unit, "time/oracle");
    let oracle = rows.iter().find(|r| r.name == "oracle").map(|r| r.time);
    for r in rows {
        let ratio = match oracle {
            Some(o) if r.comparable && !o.is_zero() => {
                format!("{:.2}", r.time.as_secs_f64() / o.as_secs_f64())
            }
            _ => "-".into(),
        };
        let line =
            format!("  {:<16} {:>24} {ratio:>12}", r.name, show(r.time));
        match r.note.as_str() {
            "" => println!("{line}"),
            note => println!("{line}  {note}"),
        }
    }
}

fn corpus_sections(
    files: &[&[u8]],
    subjects: &[Subject],
    budget: Duration,
) -> Option<f64> {
    let bytes: usize = files.iter().map(|f| f.len()).sum();
    let per_pass = |t: Duration| {
        let s = t.as_secs_f64();
        format!(
            "{:>8.1} MB/s {:>8.0} files/s",
            bytes as f64 / s / 1e6,
            files.len() as f64 / s
        )
    };
    let parse: Vec<Figure> = subjects
        .iter()
        .filter_map(|s| {
            let parse = s.parse?;
            let time =
                time_per_call(budget, || files.iter().for_each(|f| parse(f)));
            Some(Figure::new(s, time))
        })
        .collect();
    section("parse only, real corpus", "throughput", &parse, per_pass);
    let q = Query::new(CORPUS_PATH);
    let check: Vec<Figure> = subjects
        .iter()
        .map(|s| {
            let time = time_per_call(budget, || {
                for f in files {
                    std::hint::black_box((s.parse_check)(f, &q));
                }
            });
            Figure::new(s, time)
        })
        .collect();
    section(
        &format!("parse + one check ({CORPUS_PATH}), real corpus"),
        "throughput",
        &check,
        per_pass,
    );
    let oracle = check.iter().find(|r| r.name == "oracle")?.time;
    let fastest = check
        .iter()
        .filter(|r| !r.name.starts_with("oracle"))
        .map(|r| r.time)
        .min()?;
    Some(fastest.as_secs_f64() / oracle.as_secs_f64())
}

fn many_checks(subjects: &[Subject], budget: Duration) {
    let body = robots_bench::large_file();
    let queries = robots_bench::large_queries();
    let rows: Vec<Figure> = subjects
        .iter()
        .map(|s| {
            let mut time = Duration::ZERO;
            (s.prepared)(&body, &mut |check| {
                time = time_per_call(budget, || {
                    for q in &queries {
                        std::hint::black_box(check(q));
                    }
                }) / queries.len() as u32;
            });
            Figure { note: s.note.into(), ..Figure::new(s, time) }
        })
        .collect();
    let title = format!(
        "many checks, one parsed file ({LARGE_RULES} rules, {} bytes; \
         {} paths)",
        body.len(),
        queries.len()
    );
    section(&title, "checks/s", &rows, |t| {
        format!("{:.0}", 1.0 / t.as_secs_f64())
    });
}

fn hostile(h: &Hostile, subjects: &[Subject], budget: Duration) {
    let rows: Vec<Figure> = subjects
        .iter()
        .map(|s| {
            let (robots, query, bounded) = match s.bounded {
                Some(why) => (
                    &h.bounded.0,
                    &h.bounded.1,
                    Some(format!("bounded: {}; {why}", h.bounded.2)),
                ),
                None => (&h.robots, &h.query, None),
            };
            let mut time = Duration::ZERO;
            (s.prepared)(robots, &mut |check| {
                time = time_per_call(budget, || {
                    std::hint::black_box(check(query));
                });
            });
            Figure {
                comparable: bounded.is_none(),
                note: bounded.unwrap_or_default(),
                ..Figure::new(s, time)
            }
        })
        .collect();
    let title = format!("hostile {}: {}", h.name, h.about);
    section(&title, "ms/check", &rows, |t| {
        format!("{:.4}", t.as_secs_f64() * 1e3)
    });
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    anyhow::ensure!(
        a.seconds.is_finite() && a.seconds >= 0.0,
        "--seconds must be a non-negative number, not {}",
        a.seconds
    );
    let budget = Duration::from_secs_f64(a.seconds);
    if cfg!(debug_assertions) {
        println!("note: a debug build; time a release build (--release)");
    }
    let subjects = robots_bench::subjects();
    let path = a.corpus.unwrap_or_else(corpus::default_path);
    let speedup = match corpus::read(&path) {
        Ok(files) => {
            let (usable, dropped) = robots_bench::usable(&files, &subjects);
            let bytes: usize = usable.iter().map(|f| f.len()).sum();
            println!(
                "real corpus: {} files, {bytes} bytes ({})",
                usable.len(),
                path.display()
            );
            if !dropped.is_empty() {
                println!(
                    "  left out (a parser panics): {}",
                    dropped.join(", ")
                );
            }
            corpus_sections(&usable, &subjects, budget)
        }
        Err(e) if e.is_not_found() => {
            println!("real corpus: skipped: {e}");
            None
        }
        Err(e) => return Err(e.into()),
    };
    many_checks(&subjects, budget);
    for h in robots_bench::hostile() {
        hostile(&h, &subjects, budget);
    }
    robots_bench::audit_throughput::section(&path, budget);
    println!(
        "\ntime/oracle: the parser's time over the oracle's; above 1 means \
         the oracle is faster."
    );
    let figure = speedup
        .map_or_else(|| "n/a (no corpus)".into(), |x| format!("{x:.2}"));
    println!("oracle vs fastest peer (parse+check, real corpus): {figure}");
    Ok(0)
}
