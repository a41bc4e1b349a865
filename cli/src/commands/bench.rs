//! `bench`: the criterion workloads (see `robots_bench`), a
//! few seconds each, as one table of figures and ratios to the oracle,
//! each peer's agreement with the oracle under its claimed profile
//! (`robots_bench::agreement`; below 99 % it is marked `wrong`), and
//! ratio lines against the fastest correct peer.

use std::cell::Cell;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use robots_bench::agreement::{self, Judge, Row, Tally};
use robots_bench::{
    self, CORPUS_PATH, Hostile, LARGE_RULES, Query, Subject, time_per_call,
};
use robots_diff::corpus;

/// Time the oracle against the in-process Rust parsers.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A corpus of real robots.txt files (.tar.gz) [default: the embedded
    /// sample of synthetic files]
    #[arg(long, value_name = "FILE")]
    corpus: Option<PathBuf>,
    /// Seconds spent on each figure (each parser, each workload); the run
    /// takes about this times the number of figures it announces
    #[arg(long, value_name = "N", default_value_t = 1.0)]
    seconds: f64,
}

/// Progress on stderr: one line per section, with the figures done of
/// all announced and the time so far (stdout keeps only the report).
struct Progress {
    total: usize,
    done: Cell<usize>,
    started: Instant,
}

impl Progress {
    fn section(&self, title: &str, figures: usize) {
        eprintln!(
            "bench: [{}/{} figures, {:.0} s] {title}",
            self.done.get(),
            self.total,
            self.started.elapsed().as_secs_f64()
        );
        self.done.set(self.done.get() + figures);
    }
}

/// One figure: a parser's time per unit of work, its agreement with the
/// oracle, and a note.
struct Figure {
    row: Row,
    note: String,
}

impl Figure {
    fn new(s: &Subject, time: Duration, tally: Option<Tally>) -> Figure {
        let row = Row {
            name: s.name,
            is_oracle: s.adapter.is_none(),
            time,
            comparable: true,
            tally,
        };
        Figure { row, note: String::new() }
    }
}

/// One ratio line: what it is about, and the fastest correct peer's time
/// over the oracle's with that peer's name.
type Ratio = (String, Option<(f64, &'static str)>);

fn ratio_of(about: String, rows: &[Figure]) -> Ratio {
    let rows: Vec<Row> = rows.iter().map(|f| f.row.clone()).collect();
    let best = agreement::ratio(&rows, "oracle").map(|(x, r)| (x, r.name));
    (about, best)
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
    println!(
        "  {:<16} {:>24} {:>12} {:>8}",
        "parser", unit, "time/oracle", "agrees"
    );
    let oracle =
        rows.iter().find(|r| r.row.name == "oracle").map(|r| r.row.time);
    for f in rows {
        let r = &f.row;
        let ratio = match oracle {
            Some(o) if r.comparable && !o.is_zero() => {
                format!("{:.2}", r.time.as_secs_f64() / o.as_secs_f64())
            }
            _ => "-".into(),
        };
        let agrees = r.tally.map_or_else(|| "-".into(), |t| t.percent());
        let wrong = if r.is_wrong() { "  wrong" } else { "" };
        let line = format!(
            "  {:<16} {:>24} {ratio:>12} {agrees:>8}{wrong}",
            r.name,
            show(r.time)
        );
        match f.note.as_str() {
            "" => println!("{line}"),
            note => println!("{line}  {note}"),
        }
    }
}

fn corpus_sections(
    files: &[&[u8]],
    kind: &str,
    subjects: &[Subject],
    budget: Duration,
    progress: &Progress,
) -> Ratio {
    let bytes: usize = files.iter().map(|f| f.len()).sum();
    let per_pass = |t: Duration| {
        let s = t.as_secs_f64();
        format!(
            "{:>8.1} MB/s {:>8.0} files/s",
            bytes as f64 / s / 1e6,
            files.len() as f64 / s
        )
    };
    let parse_title = format!("parse only, {kind}");
    progress.section(
        &parse_title,
        subjects.iter().filter(|s| s.parse.is_some()).count(),
    );
    let parse: Vec<Figure> = subjects
        .iter()
        .filter_map(|s| {
            let parse = s.parse?;
            let time =
                time_per_call(budget, || files.iter().for_each(|f| parse(f)));
            Some(Figure::new(s, time, None))
        })
        .collect();
    section(&parse_title, "throughput", &parse, per_pass);
    let check_title = format!("parse + one check ({CORPUS_PATH}), {kind}");
    progress.section(&check_title, subjects.len());
    let q = Query::new(CORPUS_PATH);
    let mut judge =
        Judge::new(files.iter().map(|&f| (f, vec![CORPUS_PATH])).collect());
    let check: Vec<Figure> = subjects
        .iter()
        .map(|s| {
            let answers: Vec<bool> =
                files.iter().map(|f| (s.parse_check)(f, &q)).collect();
            let tally = judge.tally(s, &answers);
            let time = time_per_call(budget, || {
                for f in files {
                    std::hint::black_box((s.parse_check)(f, &q));
                }
            });
            Figure::new(s, time, tally)
        })
        .collect();
    section(&check_title, "throughput", &check, per_pass);
    ratio_of(format!("parse+check, {kind}"), &check)
}

fn many_checks(
    subjects: &[Subject],
    budget: Duration,
    progress: &Progress,
) -> Ratio {
    let body = robots_bench::large_file();
    let queries = robots_bench::large_queries();
    let title = format!(
        "many checks, one parsed file ({LARGE_RULES} rules, {} bytes; \
         {} paths)",
        body.len(),
        queries.len()
    );
    progress.section(&title, subjects.len());
    let paths: Vec<&str> = queries.iter().map(|q| q.path.as_str()).collect();
    let mut judge = Judge::new(vec![(body.as_bytes(), paths)]);
    let rows: Vec<Figure> = subjects
        .iter()
        .map(|s| {
            let mut time = Duration::ZERO;
            let mut answers = Vec::new();
            (s.prepared)(&body, &mut |check| {
                answers = queries.iter().map(&mut *check).collect();
                time = time_per_call(budget, || {
                    for q in &queries {
                        std::hint::black_box(check(q));
                    }
                }) / queries.len() as u32;
            });
            let tally = judge.tally(s, &answers);
            Figure { note: s.note.into(), ..Figure::new(s, time, tally) }
        })
        .collect();
    section(&title, "checks/s", &rows, |t| {
        format!("{:.0}", 1.0 / t.as_secs_f64())
    });
    ratio_of("many checks, large file".into(), &rows)
}

fn paths(queries: &[Query]) -> Vec<&str> {
    queries.iter().map(|q| q.path.as_str()).collect()
}

fn hostile(
    h: &Hostile,
    subjects: &[Subject],
    budget: Duration,
    progress: &Progress,
) -> Ratio {
    let title = format!("hostile {}: {}", h.name, h.about);
    progress.section(&title, subjects.len());
    let (judged_full, judged_cut) = (h.judged(false), h.judged(true));
    let mut full =
        Judge::new(vec![(h.robots.as_bytes(), paths(&judged_full))]);
    let mut cut =
        Judge::new(vec![(h.bounded.0.as_bytes(), paths(&judged_cut))]);
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
            let mut answer = Vec::new();
            let judged =
                if bounded.is_some() { &judged_cut } else { &judged_full };
            (s.prepared)(robots, &mut |check| {
                answer = judged.iter().map(&mut *check).collect();
                time = time_per_call(budget, || {
                    std::hint::black_box(check(query));
                });
            });
            let judge = if bounded.is_some() { &mut cut } else { &mut full };
            let tally = judge.tally(s, &answer);
            let mut f = Figure::new(s, time, tally);
            f.row.comparable = bounded.is_none();
            f.note = bounded.unwrap_or_default();
            f
        })
        .collect();
    // Microseconds with two decimals: a hostile check takes well under
    // a millisecond, and four decimals of one left one or two digits.
    section(&title, "µs/check", &rows, |t| {
        format!("{:.2}", t.as_secs_f64() * 1e6)
    });
    ratio_of(format!("hostile {}", h.name), &rows)
}

/// `X.XX (peer)`, or why there is no figure.
fn show_ratio(r: &Option<(f64, &str)>) -> String {
    match r {
        Some((x, peer)) => format!("{x:.2} ({peer})"),
        None => "n/a (no correct peer)".into(),
    }
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
    // A corpus given that cannot be read is an error before anything is
    // timed; without one, the embedded sample.
    let (files, about) = corpus::load(a.corpus.as_deref())?;
    let kind =
        if a.corpus.is_some() { "real corpus" } else { "sample corpus" };
    let hostile_inputs = robots_bench::hostile();
    let parse_figures = subjects.iter().filter(|s| s.parse.is_some()).count();
    // The audit section times two panels.
    let total =
        parse_figures + subjects.len() * (2 + hostile_inputs.len()) + 2;
    let progress =
        Progress { total, done: Cell::new(0), started: Instant::now() };
    eprintln!(
        "bench: {total} figures of about {} s each (--seconds), plus \
         collecting each parser's answers: at least {:.0} s; progress \
         below, the report on stdout",
        a.seconds,
        total as f64 * a.seconds
    );
    let (usable, dropped) = robots_bench::usable(&files, &subjects);
    let bytes: usize = usable.iter().map(|f| f.len()).sum();
    println!("{kind}: {} files, {bytes} bytes ({about})", usable.len());
    if !dropped.is_empty() {
        println!("  left out (a parser panics): {}", dropped.join(", "));
    }
    let corpus_ratio =
        corpus_sections(&usable, kind, &subjects, budget, &progress);
    let mut ratios = vec![many_checks(&subjects, budget, &progress)];
    for h in &hostile_inputs {
        ratios.push(hostile(h, &subjects, budget, &progress));
    }
    progress.section("audit throughput per core", 2);
    let named: Vec<(String, Vec<u8>)> =
        files.into_iter().map(|e| (e.name, e.body)).collect();
    robots_bench::audit_throughput::section(&named, kind, budget);
    eprintln!(
        "bench: done in {:.0} s",
        progress.started.elapsed().as_secs_f64()
    );
    println!(
        "\ntime/oracle: the parser's time over the oracle's; above 1 means \
         the oracle is faster. agrees: its answers equal to the oracle's \
         under the profile its adapter claims; below {:.0}% it is `wrong`, \
         and the ratio lines below compare the oracle with the fastest \
         peer that is not.",
        agreement::WRONG_BELOW * 100.0
    );
    for (about, r) in &ratios {
        println!(
            "oracle vs fastest correct peer ({about}): {}",
            show_ratio(r)
        );
    }
    let (about, r) = &corpus_ratio;
    println!("oracle vs fastest correct peer ({about}): {}", show_ratio(r));
    let figure = match r {
        Some((x, _)) => format!("{x:.2}"),
        None => "n/a (no correct peer)".into(),
    };
    println!("oracle vs fastest peer (parse+check, {kind}): {figure}");
    Ok(0)
}
