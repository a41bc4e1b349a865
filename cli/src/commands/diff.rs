//! `diff`: differential fuzzing against the oracle, and `promote`.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use robots_adapters::process::Limits;
use robots_adapters::registry::{self, Host};
use robots_diff::corpus;
use robots_diff::{self, Report, Settings, finding};
use robots_runner::output::{OutDir, atomic_write};

use super::matrix::select_entries;

/// Find, minimise and classify where parsers disagree with the oracle.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Adapters: `ready`, or names (or paths of adapter.toml files)
    /// separated by commas
    #[arg(long, default_value = "ready")]
    adapters: String,
    /// Stop after this long (e.g. 60s, 2m)
    #[arg(long, value_parser = parse_duration)]
    time: Option<Duration>,
    /// Stop after this many generated inputs
    #[arg(long)]
    cases: Option<u64>,
    /// Seed of the generated stream
    #[arg(long, default_value_t = 9309)]
    seed: u64,
    /// Use the files of this corpus (.tar.gz) instead of generated ones:
    /// agents from each file's groups, URLs from its rules; `--corpus`
    /// alone takes the embedded sample of synthetic files
    #[arg(long, value_name = "FILE", num_args = 0..=1)]
    corpus: Option<Option<PathBuf>>,
    /// Write findings/*.toml, summary.json and state.json here; a rerun
    /// with the same seed resumes after the last check done
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Predicate calls allowed to minimise one finding
    #[arg(long, default_value_t = 400)]
    minimise_budget: usize,
    /// Judge and classify each adapter against its fitted reading instead
    /// of its claimed profile: read from these `fingerprint --json` files,
    /// else fitted once at start on the spec cases
    #[arg(long, value_name = "FILE", num_args = 0..)]
    fit: Option<Vec<PathBuf>>,
    /// The spec-cases folder the fits are computed on [default:
    /// ./spec-cases, else the built-in one]
    #[arg(long, value_name = "DIR")]
    fit_cases: Option<PathBuf>,
}

/// The fitted reading of every adapter: from the `--fit` files that name
/// it, else fitted on the spec cases (the adapter is asked each check
/// once).
fn fits(
    files: &[PathBuf],
    adapters: &mut [Box<dyn robots_adapters::Adapter>],
    cases: Option<&std::path::Path>,
) -> anyhow::Result<robots_diff::classifier::Fits> {
    use robots_fingerprint::{Answers, Reading, fingerprint};
    let mut fits = robots_diff::classifier::Fits::new();
    for f in files {
        let text = std::fs::read_to_string(f)
            .with_context(|| format!("reading {}", f.display()))?;
        let v: serde_json::Value =
            serde_json::from_str(&text).with_context(|| {
                format!("{} is not fingerprint JSON", f.display())
            })?;
        let field = |k: &str| {
            v.get(k).with_context(|| format!("{}: no `{k}`", f.display()))
        };
        let adapter =
            field("adapter")?.as_str().unwrap_or_default().to_string();
        let base = field("base")?.as_str().unwrap_or_default().to_string();
        let changes: Vec<String> =
            serde_json::from_value(field("changes")?.clone())
                .with_context(|| format!("{}: `changes`", f.display()))?;
        let r = Reading::from_names(&base, &changes)
            .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
        let label = std::iter::once(base)
            .chain(changes)
            .collect::<Vec<_>>()
            .join(" + ");
        fits.insert(
            adapter,
            robots_diff::classifier::Fitted::new(r.profile, r.fetch, label),
        );
    }
    let missing = adapters.iter().any(|a| !fits.contains_key(&a.info().name));
    if !missing {
        return Ok(fits);
    }
    let root = cases
        .map_or_else(robots_runner::suite::default_root, |p| p.to_path_buf());
    let suite = super::valid_suite(&root)?;
    let sel = robots_runner::matrix::selection(&suite, &Default::default());
    for a in adapters.iter_mut() {
        let name = a.info().name;
        if fits.contains_key(&name) {
            continue;
        }
        let answers = Answers::collect(a.as_mut(), &sel);
        let fit = fingerprint(&answers, &sel);
        eprintln!("{}", fit.line());
        if let Some(r) = fit.reading.clone() {
            let label = std::iter::once(fit.base.clone())
                .chain(fit.changes.iter().map(|c| c.to_string()))
                .collect::<Vec<_>>()
                .join(" + ");
            fits.insert(
                name,
                robots_diff::classifier::Fitted::new(
                    r.profile, r.fetch, label,
                ),
            );
        }
    }
    Ok(fits)
}

fn parse_duration(s: &str) -> Result<Duration, String> {
    let (n, unit) = s.split_at(
        s.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(s.len()),
    );
    let n: f64 = n.parse().map_err(|_| format!("bad duration `{s}`"))?;
    let secs = match unit {
        "" | "s" => n,
        "m" => n * 60.0,
        "h" => n * 3600.0,
        "ms" => n / 1000.0,
        _ => return Err(format!("bad duration unit in `{s}` (s, m, h, ms)")),
    };
    Duration::try_from_secs_f64(secs).ok().filter(|d| !d.is_zero()).ok_or_else(
        || format!("`{s}` is not a usable duration (above 0, finite)"),
    )
}

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct State {
    seed: u64,
    next: u64,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let entries: Vec<_> = select_entries(&a.adapters)?
        .into_iter()
        .filter(|e| !matches!(e.kind, registry::Kind::Reference(_)))
        .collect();
    anyhow::ensure!(
        !entries.is_empty(),
        "no adapters to compare with the oracle"
    );
    let limits = Limits::default();
    let mut adapters: Vec<_> = entries
        .iter()
        .map(|e| registry::open(e, limits, &Host::Thread))
        .collect();
    let mut start = 0;
    // Claimed (created, probed, locked) before any input is generated.
    let out = a.out.as_deref().map(OutDir::claim).transpose()?;
    if let Some(dir) = &a.out {
        let findings = dir.join("findings");
        std::fs::create_dir_all(&findings)
            .with_context(|| format!("creating {}", findings.display()))?;
        let state = dir.join("state.json");
        if a.corpus.is_none() && state.exists() {
            // A state file that does not parse is an error, not a silent
            // restart from check 0.
            let text = std::fs::read_to_string(&state)
                .with_context(|| format!("reading {}", state.display()))?;
            let s: State = serde_json::from_str(&text).with_context(|| {
                format!(
                    "{} is not a diff state file (remove it to start over)",
                    state.display()
                )
            })?;
            if s.seed == a.seed {
                start = s.next;
                eprintln!("resuming seed {} at check {start}", a.seed);
            }
        }
    }
    let fits = match &a.fit {
        Some(files) => fits(files, &mut adapters, a.fit_cases.as_deref())?,
        None => Default::default(),
    };
    let time = a.time.or(if a.cases.is_none() {
        Some(Duration::from_secs(60))
    } else {
        None
    });
    let settings = Settings {
        seed: a.seed,
        start,
        max_inputs: a.cases,
        time,
        minimise_budget: a.minimise_budget,
        per_key: 3,
        batch: 64,
        fits,
    };
    let mut inputs: Box<dyn Iterator<Item = (String, robots_diff::Input)>> =
        match &a.corpus {
            Some(path) => {
                let (files, about) = corpus::load(path.as_deref())
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                eprintln!("{} files from {about}", files.len());
                let seed = a.seed;
                Box::new(files.into_iter().enumerate().flat_map(
                    move |(i, f)| {
                        robots_gen::from_file(&f.body, seed ^ i as u64, 4, 6)
                            .into_iter()
                            .map(move |c| {
                                (format!("corpus file {}", f.name), c)
                            })
                    },
                ))
            }
            None => {
                let seed = a.seed;
                Box::new((start..).map(move |i| {
                    (
                        format!("seed {seed} check {i}"),
                        robots_gen::from_seed(seed, i),
                    )
                }))
            }
        };
    let bar = ProgressBar::new_spinner().with_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}")
            .expect("valid template"),
    );
    let mut progress = |done: usize, found: usize| {
        bar.set_message(format!("{done} inputs, {found} distinct findings"));
        bar.tick();
    };
    let report =
        robots_diff::run(&mut adapters, &mut inputs, &settings, &mut progress);
    bar.finish_and_clear();
    print_table(&report);
    if let Some(dir) = &out {
        let dir = dir.path();
        write_out(dir, &report, a.corpus.is_none())?;
        println!("findings: {}", dir.join("findings").display());
    }
    Ok(0)
}

fn print_table(r: &Report) {
    // Pairs of switches are counted under their first axis.
    let first = |a: &str| a.split('+').next().unwrap_or_default().to_string();
    let mut axes: Vec<String> = r
        .adapters
        .values()
        .flat_map(|t| t.axes.keys().map(|a| first(a)))
        .collect();
    axes.sort();
    axes.dedup();
    print!(
        "{:<32} {:>8} {:>9} {:>9} {:>9}",
        "adapter", "checks", "checks/s", "rfc9309%", "google%"
    );
    for a in &axes {
        print!(" {:>12}", a.chars().take(12).collect::<String>());
    }
    println!();
    for (name, t) in &r.adapters {
        let pct = |p: &str| {
            let d = t.disagreements_by_profile.get(p).copied().unwrap_or(0);
            if t.checks == 0 {
                0.0
            } else {
                100.0 * d as f64 / t.checks as f64
            }
        };
        print!(
            "{:<32} {:>8} {:>9.0} {:>8.1}% {:>8.1}%",
            name,
            t.checks,
            t.rate(),
            pct("rfc9309"),
            pct("google")
        );
        for a in &axes {
            let n: usize = t
                .axes
                .iter()
                .filter(|(k, _)| first(k) == *a)
                .map(|(_, n)| n)
                .sum();
            print!(" {n:>12}");
        }
        println!();
    }
    println!(
        "{} inputs, {} checks in {:.1} s; oracle {:.0} checks/s; {} distinct findings",
        r.inputs,
        r.checks,
        r.seconds,
        r.oracle_rate,
        r.findings.len()
    );
    print_timing(r);
    let unexplained: Vec<_> =
        r.findings.iter().filter(|f| f.axis == "unexplained").collect();
    for f in unexplained.iter().take(10) {
        let shared = if f.shared_with.is_empty() {
            "no other adapter answers so".to_string()
        } else {
            format!("shared with {}", f.shared_with.join(", "))
        };
        println!(
            "unexplained: {} ({shared}) {:?} agent={} url={}",
            f.adapter,
            String::from_utf8_lossy(&f.robots),
            f.agent,
            f.url
        );
    }
}

/// Where the time went: the parsers' share and the loop's own, so that a
/// slow run shows whether the parsers or the loop are the cost.
fn print_timing(r: &Report) {
    let t = &r.timing;
    println!(
        "time: {:.1} s = parsers {:.1} s (batches {:.1}, minimising {:.1}, \
         sharing {:.1}) + loop {:.1} s (oracle {:.1}, classify {:.1}, \
         minimise {:.1}, generate {:.1}, other {:.1})",
        r.seconds,
        t.parsers_total(),
        t.parsers,
        t.minimise_parsers,
        t.share_parsers,
        t.loop_total(),
        t.oracle,
        t.classify,
        t.minimise,
        t.generate,
        t.other
    );
    let slowest = r
        .adapters
        .iter()
        .filter(|(_, a)| a.seconds > 0.0)
        .min_by(|a, b| a.1.rate().total_cmp(&b.1.rate()));
    let slowest = slowest.map_or(String::new(), |(name, a)| {
        format!(
            "; slowest parser {name}: {:.0} checks/s of its own time \
             ({:.1} s)",
            a.rate(),
            a.seconds
        )
    });
    println!(
        "rate: {:.0} checks/s; the loop alone (parsers' time excluded) \
         {:.0} checks/s{slowest}",
        r.rate(),
        r.loop_rate()
    );
}

fn write_out(
    dir: &std::path::Path,
    r: &Report,
    resumable: bool,
) -> anyhow::Result<()> {
    let compared: Vec<&str> = r.adapters.keys().map(String::as_str).collect();
    for f in &r.findings {
        let path =
            dir.join("findings").join(format!("{}.toml", finding::id(f)));
        atomic_write(&path, finding::to_toml_among(f, &compared).as_bytes())?;
    }
    atomic_write(
        &dir.join("summary.json"),
        serde_json::to_string_pretty(r)?.as_bytes(),
    )?;
    if resumable {
        atomic_write(
            &dir.join("state.json"),
            serde_json::to_string(&State { seed: r.seed, next: r.next })?
                .as_bytes(),
        )?;
    }
    Ok(())
}

/// Move findings into spec-cases/findings/ after they validate.
#[derive(clap::Args, Debug)]
pub struct PromoteArgs {
    #[command(flatten)]
    cases: super::CasesDir,
    /// Finding files written by `diff --out DIR` (DIR/findings/*.toml)
    #[arg(required = true)]
    findings: Vec<PathBuf>,
    /// Why the expectations hold (what was checked, which clause):
    /// needed when a finding's note still says it was not reviewed, or
    /// when every compared adapter answered against the oracle; recorded
    /// in the promoted case's note
    #[arg(long, value_name = "WHY")]
    reviewed: Option<String>,
}

pub fn promote(a: PromoteArgs) -> anyhow::Result<i32> {
    let root = a.cases.root();
    let mut failed = 0;
    for f in &a.findings {
        match finding::promote(&root, f, a.reviewed.as_deref()) {
            Ok(target) => {
                println!("promoted {} -> {}", f.display(), target.display())
            }
            Err(e) => {
                eprintln!("not promoted: {e}");
                failed += 1;
            }
        }
    }
    Ok(if failed == 0 { 0 } else { 1 })
}
