//! Running an audit: inputs in path order, each read, sorted into hosts
//! and judged on worker threads (one panel of parsers per worker), its
//! rows written in order to `rows.jsonl` (or stdout; and the host rows
//! to `hosts.parquet` with `--parquet`) and summed into `audit.json`.
//! With `--shard I/N` every input is read but only the shard's own rows
//! are made ([`ShardKey`]: hosts and bad records by input and URL or
//! record number, so one big WARC spreads over the shards). Every file
//! is written through a temporary and a rename; a shard is marked
//! finished last, so a rerun skips exactly the shards that completed.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::aggregate::{Aggregator, Audit, Setup};
use crate::args::{Args, DEFAULT_AGENTS, RunOptions, Shard, ShardKey, owned};
use crate::capture::Input;
use crate::error::Error;
use crate::input::{self, Limits};
use crate::judge::{Plan, judge};
use crate::output::{ensure_dir, write_atomic};
use crate::panel::{PROFILES, Panel, Selection};
use crate::parquet_out::{HOSTS_PARQUET, HostSink};
use crate::row::{ErrorRow, InputRow, Row, to_jsonl};
use crate::site;

/// The marker a finished shard leaves: what it ran, so a rerun with other
/// inputs or options does not skip it, and `merge` can check the set.
pub const DONE: &str = "shard.json";

/// What a shard ran (written to [`DONE`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// `[index, count]`.
    pub shard: [usize; 2],
    /// The inputs it read, in order.
    pub inputs: Vec<String>,
    /// Agents and parsers.
    pub setup: Setup,
    /// `max_body`, `probes`, `classify_max`.
    pub options: [usize; 3],
}

/// What a run did.
#[derive(Debug)]
pub struct Summary {
    /// The aggregates (absent in stdout mode).
    pub audit: Option<Audit>,
    /// Where the files went (`None`: stdout).
    pub out: Option<PathBuf>,
    /// The shard was already finished; nothing was run.
    pub skipped: bool,
    /// Hosts judged.
    pub hosts: usize,
    /// Wall time.
    pub elapsed: Duration,
    /// Worker threads.
    pub jobs: usize,
}

/// The setup for these options.
pub fn setup(o: &RunOptions) -> Result<(Setup, Selection), Error> {
    let agents: Vec<String> = if o.agents.is_empty() {
        DEFAULT_AGENTS.iter().map(|a| a.to_string()).collect()
    } else {
        o.agents
            .iter()
            .map(|a| a.trim().to_string())
            .filter(|a| !a.is_empty())
            .collect()
    };
    if agents.is_empty() {
        return Err(Error::Usage("--agents names no agent".into()));
    }
    if o.probes == 0 {
        return Err(Error::Usage("--probes must be at least 1".into()));
    }
    let selection = Selection::parse(&o.adapters)?;
    let mut parsers: Vec<String> =
        PROFILES.iter().map(|p| p.to_string()).collect();
    let mut bases = BTreeMap::new();
    for (name, base) in &selection.0 {
        parsers.push(name.clone());
        bases.insert(name.clone(), base.to_string());
    }
    Ok((Setup { agents, parsers, bases }, selection))
}

/// Runs `audit` (no subcommand).
pub fn audit(
    args: &Args,
    stdin: impl std::io::BufRead,
) -> Result<Summary, Error> {
    let started = Instant::now();
    let out = args.out.clone().ok_or_else(|| {
        Error::Usage("--out DIR (or --out -) is required".into())
    })?;
    let mut inputs = input::expand(&args.inputs, stdin)?;
    if inputs.is_empty() && args.inputs.is_empty() {
        return Err(Error::Usage(
            "no INPUT given (`-` reads paths from stdin)".into(),
        ));
    }
    inputs.sort();
    inputs.dedup();
    let (setup, selection) = setup(&args.run)?;
    let o = &args.run;
    let jobs = o
        .jobs
        .unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        })
        .max(1);
    let plan = Plan {
        agents: setup.agents.clone(),
        probes: o.probes,
        classify_max: o.classify_max,
    };
    let limits = Limits { max_body: o.max_body };
    let stdout_mode = out == "-";
    if stdout_mode && (args.shard.is_some() || args.parquet) {
        return Err(Error::Usage(
            "--shard and --parquet write files: give --out DIR".into(),
        ));
    }
    let dir = match (stdout_mode, args.shard) {
        (true, _) => None,
        (false, None) => Some(PathBuf::from(&out)),
        (false, Some(s)) => Some(Path::new(&out).join(s.dir_name())),
    };
    let fingerprint = args.shard.map(|s: Shard| Fingerprint {
        shard: [s.index, s.count],
        inputs: inputs.clone(),
        setup: setup.clone(),
        options: [o.max_body, o.probes, o.classify_max],
    });
    if let (Some(d), Some(f)) = (&dir, &fingerprint)
        && let Ok(bytes) = std::fs::read(d.join(DONE))
        && serde_json::from_slice::<Fingerprint>(&bytes).ok().as_ref()
            == Some(f)
    {
        return Ok(Summary {
            audit: None,
            out: Some(d.clone()),
            skipped: true,
            hosts: 0,
            elapsed: started.elapsed(),
            jobs,
        });
    }
    if let Some(d) = &dir {
        ensure_dir(d)?;
        let _ = std::fs::remove_file(d.join(DONE));
    }
    let progress = if args.no_progress || stdout_mode {
        indicatif::ProgressBar::hidden()
    } else {
        let bar = indicatif::ProgressBar::new(inputs.len() as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} inputs, {msg}",
        ) {
            bar.set_style(style);
        }
        bar
    };
    let mut panels: Vec<Panel> = (0..jobs).map(|_| selection.open()).collect();
    let mut agg = Aggregator::new(&setup);
    let rows_tmp = dir.as_ref().map(|d| d.join("rows.jsonl.tmp"));
    let mut sink: Box<dyn Write> = match &rows_tmp {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| Error::write(p, e))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let sink_path = rows_tmp.clone().unwrap_or_else(|| PathBuf::from("-"));
    let mut parquet = match (&dir, args.parquet) {
        (Some(d), true) => Some(HostSink::create(&d.join(HOSTS_PARQUET))?),
        _ => None,
    };
    let mut hosts = 0;
    for path in &inputs {
        let read = input::read(path, limits);
        let rows = rows_of(path, &read, &mut panels, &plan, args.shard);
        for r in &rows {
            if let Row::Host(h) = r {
                hosts += 1;
                if let Some(p) = &mut parquet {
                    p.add(h)?;
                }
            }
            agg.add(r);
        }
        sink.write_all(&to_jsonl(&rows))
            .map_err(|e| Error::write(&sink_path, e))?;
        progress.inc(1);
        progress.set_message(format!("{hosts} hosts"));
    }
    sink.flush().map_err(|e| Error::write(&sink_path, e))?;
    drop(sink);
    if let Some(p) = parquet {
        p.finish()?;
    }
    progress.finish_and_clear();
    let Some(d) = dir else {
        return Ok(Summary {
            audit: None,
            out: None,
            skipped: false,
            hosts,
            elapsed: started.elapsed(),
            jobs,
        });
    };
    if let Some(tmp) = &rows_tmp {
        std::fs::rename(tmp, d.join("rows.jsonl"))
            .map_err(|e| Error::write(d.join("rows.jsonl"), e))?;
    }
    let audit = agg.finish();
    write_reports(&d, &audit)?;
    if let Some(f) = &fingerprint {
        // OK: the fingerprint holds only strings and numbers.
        write_atomic(
            &d.join(DONE),
            &serde_json::to_vec_pretty(f).expect("serialise"),
        )?;
    }
    Ok(Summary {
        audit: Some(audit),
        out: Some(d),
        skipped: false,
        hosts,
        elapsed: started.elapsed(),
        jobs,
    })
}

/// Writes `audit.json`, `audit.md` and `audit.html` into `dir`.
pub fn write_reports(dir: &Path, audit: &Audit) -> Result<(), Error> {
    // OK: the aggregate holds only strings, numbers and string-keyed maps.
    let mut json = serde_json::to_vec_pretty(audit).expect("serialise");
    json.push(b'\n');
    write_atomic(&dir.join("audit.json"), &json)?;
    write_atomic(
        &dir.join("audit.md"),
        crate::render::markdown(audit).as_bytes(),
    )?;
    write_atomic(
        &dir.join("audit.html"),
        crate::render::html(audit).as_bytes(),
    )
}

/// The rows of one input, in order: its counts, then a row per host or
/// bad record, then the error that stopped it; of those, only the ones
/// `shard` owns (all of them without a shard).
pub fn rows_of(
    path: &str,
    read: &Input,
    panels: &mut [Panel],
    plan: &Plan,
    shard: Option<Shard>,
) -> Vec<Row> {
    let mut sorted = site::sort(read);
    let own_input = owned(shard, ShardKey::Input(path));
    let mut rows = Vec::new();
    let input_row = Row::Input(InputRow {
        input: path.to_string(),
        format: read.format.to_string(),
        records: read.events.len(),
        hosts: sorted.sites.len(),
        routes: sorted.routes,
        skipped: sorted.skipped.clone(),
        bad: sorted.bad.len(),
        stopped: read.stopped.as_ref().map(|(k, _)| k.to_string()),
        truncated: read.truncated.clone(),
    });
    if own_input {
        rows.push(input_row);
    }
    sorted.sites.retain(|s| owned(shard, ShardKey::Host(path, &s.url)));
    sorted.bad.retain(|(n, _, _)| owned(shard, ShardKey::Record(path, *n)));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Row)>> =
        Mutex::new(Vec::with_capacity(sorted.sites.len()));
    std::thread::scope(|scope| {
        for panel in panels.iter_mut() {
            let (next, results, sites) = (&next, &results, &sorted.sites);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(site) = sites.get(i) else { break };
                    let row =
                        Row::Host(Box::new(judge(path, site, panel, plan)));
                    if let Ok(mut r) = results.lock() {
                        r.push((site.n, row));
                    }
                }
            });
        }
    });
    let mut body: Vec<(usize, Row)> = results.into_inner().unwrap_or_default();
    for (n, kind, detail) in &sorted.bad {
        body.push((
            *n,
            Row::Error(ErrorRow {
                input: path.into(),
                n: Some(*n),
                error: kind.to_string(),
                detail: detail.clone(),
            }),
        ));
    }
    body.sort_by_key(|(n, _)| *n);
    rows.extend(body.into_iter().map(|(_, r)| r));
    if let Some((kind, detail)) = read.stopped.as_ref().filter(|_| own_input) {
        rows.push(Row::Error(ErrorRow {
            input: path.into(),
            n: None,
            error: kind.to_string(),
            detail: detail.clone(),
        }));
    }
    rows
}
