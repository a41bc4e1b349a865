//! The matrix: every selected check against every selected adapter, in
//! parallel across adapters, judged under each profile, plus the oracle's
//! explanation of every check. Reports are renderings of a [`Matrix`].
//!
//! It reaches every parser, the oracle too, only through the `Adapter`
//! trait; a misbehaving adapter costs only its own cells, never the run.
//!
//! Scheduling: every adapter runs at once, each with one instance per
//! core ([`instances_per_adapter`]); an adapter's instances take the next
//! case from one shared queue, so the cores stay busy across adapters
//! until the slowest adapter's last case, and a case that costs an
//! instance a deadline holds up only that instance. With an answer cache
//! ([`run_cached`], [`crate::cache`]) the checks it answers are judged
//! without asking, and an adapter with nothing left to ask is never
//! started.

use std::collections::BTreeMap;
use std::time::Instant;

use robots_adapters::breaker::Breaker;
use robots_adapters::process::Limits;
use robots_adapters::registry::{self, Entry, Host, Status};
use robots_adapters::{Info, Reply};
use serde::Serialize;

use crate::cache::Cache;
use crate::case::{Case, Check, Expected, PROFILES};
use crate::render::{describe_question, describe_reply};
use crate::run::{Outcome, judge, run_cases};
use crate::suite::{Filter, Suite};

/// One adapter's answer to one check, judged under every profile.
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    /// The answer in one line (`allowed`, `crashed: ...`, a value).
    pub answer: String,
    /// The outcome under each profile.
    pub outcome: BTreeMap<String, Outcome>,
    /// What was wrong, under the matrix's profile.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

/// What the rows of one case share.
#[derive(Clone, Debug, Serialize)]
pub struct CaseInfo {
    /// File and line of the case.
    pub file: String,
    /// Its clause ids.
    pub clauses: Vec<String>,
    /// The highest requirement level among them.
    pub level: String,
    /// Its categories.
    pub categories: Vec<String>,
    /// Where it comes from.
    pub source: String,
    /// The body (lossy UTF-8, cut at 4 KiB).
    pub robots: String,
    /// The case's note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One check's row.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Full check name.
    pub name: String,
    /// The case's name (a key of [`Matrix::cases`]).
    pub case: String,
    /// The question in one line (cut at 1 KiB).
    pub question: String,
    /// The highest requirement level of the case's clauses.
    pub level: String,
    /// The case's categories.
    pub categories: Vec<String>,
    /// The case's clause ids.
    pub clauses: Vec<String>,
    /// The expectation per profile.
    pub expect: BTreeMap<String, String>,
    /// Why implementation-defined, when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// The oracle's explanation under each profile.
    pub oracle: BTreeMap<String, String>,
    /// Each adapter's cell, by adapter name.
    pub results: BTreeMap<String, Cell>,
}

/// One adapter's column.
#[derive(Clone, Debug, Serialize)]
pub struct Column {
    /// Who it is.
    #[serde(flatten)]
    pub info: Info,
    /// `ready` or `unavailable`.
    pub status: String,
    /// Why unavailable, and the fix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// The command that makes it available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
    /// Wall time of its run.
    pub seconds: f64,
    /// Outcome counts under the matrix's profile.
    pub counts: BTreeMap<String, usize>,
    /// Per requirement level: [passed, scored].
    pub levels: BTreeMap<String, [usize; 2]>,
    /// Per category: [passed, scored].
    pub categories: BTreeMap<String, [usize; 2]>,
}

/// A finished run.
#[derive(Clone, Debug, Serialize)]
pub struct Matrix {
    /// Tool name and version.
    pub tool: String,
    /// The profile outcomes are counted under (`claimed`: each adapter's
    /// own).
    pub profile: String,
    /// The cases folder.
    pub cases_dir: String,
    /// Wall time of the whole run.
    pub seconds: f64,
    /// The columns, in selection order.
    pub adapters: Vec<Column>,
    /// The clauses the rows cite: id → (level, section, text).
    pub clauses: BTreeMap<String, [String; 3]>,
    /// The cases the rows belong to, by name.
    pub cases: BTreeMap<String, CaseInfo>,
    /// The rows.
    pub checks: Vec<Row>,
}

/// The checks a run covers: non-ignored cases, filtered by name.
pub fn selection<'a>(
    suite: &'a Suite,
    filter: &Filter,
) -> Vec<(&'a Case, Vec<&'a Check>)> {
    suite
        .cases
        .iter()
        .filter(|c| c.ignore.is_none())
        .map(|c| {
            (
                c,
                c.checks
                    .iter()
                    .filter(|k| filter.selects(&k.name))
                    .collect::<Vec<_>>(),
            )
        })
        .filter(|(_, ks)| !ks.is_empty())
        .collect()
}

/// The profile a column is counted under.
pub fn counting_profile<'a>(profile: &'a str, info: &'a Info) -> &'a str {
    if profile == "claimed" { &info.profile } else { profile }
}

/// `text` cut to at most `max` bytes (at a character boundary), with a
/// note of the full length.
fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes in all)", &text[..end], text.len())
}

fn expect_word(e: &Expected) -> String {
    e.describe()
}

/// Runs `entries` over the selection, one thread per adapter. `progress`
/// is called with (adapter, checks done) as each case finishes.
pub fn run(
    suite: &Suite,
    filter: &Filter,
    entries: &[Entry],
    profile: &str,
    limits: Limits,
    host: &Host,
    progress: &(dyn Fn(&str, usize) + Sync),
) -> Matrix {
    run_cached(suite, filter, entries, profile, limits, host, progress, None)
}

/// [`run`], answering from `cache` what it holds and filing there what
/// the adapters answer (see [`crate::cache`]).
#[allow(clippy::too_many_arguments)]
pub fn run_cached(
    suite: &Suite,
    filter: &Filter,
    entries: &[Entry],
    profile: &str,
    limits: Limits,
    host: &Host,
    progress: &(dyn Fn(&str, usize) + Sync),
    cache: Option<&Cache>,
) -> Matrix {
    let started = Instant::now();
    let selected = selection(suite, filter);
    let mut rows: Vec<Row> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut clauses = BTreeMap::new();
    let mut cases = BTreeMap::new();
    for (case, checks) in &selected {
        for id in &case.clauses {
            if let Some(c) = suite.clause(id) {
                clauses.insert(
                    id.clone(),
                    [c.level.clone(), c.section.clone(), c.text.clone()],
                );
            }
        }
        let level = suite.level_of(case).to_string();
        cases.insert(
            case.name.clone(),
            CaseInfo {
                file: format!("{}:{}", case.file.display(), case.line),
                clauses: case.clauses.clone(),
                level: level.clone(),
                categories: case.categories.clone(),
                source: case.source.clone(),
                robots: cut(&String::from_utf8_lossy(&case.robots), 4096),
                note: case.note.clone(),
            },
        );
        for check in checks {
            index.insert(check.name.clone(), rows.len());
            rows.push(Row {
                name: check.name.clone(),
                case: case.name.clone(),
                question: cut(&describe_question(&check.request), 1024),
                level: level.clone(),
                categories: case.categories.clone(),
                clauses: case.clauses.clone(),
                expect: PROFILES
                    .iter()
                    .map(|p| (p.to_string(), expect_word(check.expected(p))))
                    .collect(),
                why: check.why.clone(),
                oracle: BTreeMap::new(),
                results: BTreeMap::new(),
            });
        }
    }
    // The oracle's explanations, for every row.
    for p in PROFILES {
        if let Some(entry) =
            registry::find(&robots_adapters::reference::Reference::name_for(p))
        {
            let mut oracle = registry::open(&entry, limits, &Host::Thread);
            for r in run_cases(
                oracle.as_mut(),
                p,
                selected.iter().map(|(c, k)| (*c, k.clone())),
            ) {
                let text = match &r.reply {
                    Reply::Verdict { verdict, explanation: Some(ex) } => {
                        format!("{}\n{}", verdict.as_str(), ex.text)
                    }
                    other => describe_reply(other),
                };
                rows[index[&r.check]]
                    .oracle
                    .insert(p.to_string(), cut(&text, 2048));
            }
        }
    }
    // Every adapter in its own thread.
    let columns: Vec<(Column, Vec<(String, Cell)>)> =
        std::thread::scope(|s| {
            let handles: Vec<_> = entries
                .iter()
                .map(|entry| {
                    let selected = &selected;
                    s.spawn(move || {
                        run_column(
                            entry, selected, profile, limits, host, progress,
                            cache,
                        )
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("adapter thread panicked"))
                .collect()
        });
    let mut adapters = Vec::new();
    for (mut column, cells) in columns {
        let counting = counting_profile(profile, &column.info).to_string();
        for (name, cell) in cells {
            let row = &rows[index[&name]];
            let outcome = cell
                .outcome
                .get(&counting)
                .copied()
                .unwrap_or(Outcome::Unscored);
            *column.counts.entry(outcome.word().to_string()).or_default() += 1;
            let scored =
                !matches!(outcome, Outcome::Unscored | Outcome::NotApplicable);
            if scored {
                let pass = usize::from(outcome == Outcome::Pass);
                let l = column.levels.entry(row.level.clone()).or_default();
                l[0] += pass;
                l[1] += 1;
                for cat in &row.categories {
                    let c = column.categories.entry(cat.clone()).or_default();
                    c[0] += pass;
                    c[1] += 1;
                }
            }
            rows[index[&name]].results.insert(column.info.name.clone(), cell);
        }
        adapters.push(column);
    }
    Matrix {
        tool: format!("robots-conformance {}", env!("CARGO_PKG_VERSION")),
        profile: profile.to_string(),
        cases_dir: suite.root.display().to_string(),
        seconds: started.elapsed().as_secs_f64(),
        adapters,
        clauses,
        cases,
        checks: rows,
    }
}

/// Instances of each adapter a matrix runs side by side: one per core
/// (`std::thread::available_parallelism`), never more than there are
/// cases left to ask.
pub fn instances_per_adapter(work: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.min(work).max(1)
}

/// One case's checks an adapter still has to be asked, with their cache
/// keys.
struct Work<'a> {
    case: &'a Case,
    checks: Vec<&'a Check>,
    keys: Vec<String>,
}

/// What one instance of an adapter asked: who it said it is, the cells,
/// and the answers to file in the cache (by check key).
struct Asked {
    info: Info,
    cells: Vec<(String, Cell)>,
    learnt: Vec<(String, Reply)>,
}

/// The cells of `checks`, judged from `replies`.
fn cells_of(
    checks: &[&Check],
    replies: impl IntoIterator<Item = (String, Reply, String)>,
) -> Vec<(String, Cell)> {
    replies
        .into_iter()
        .zip(checks)
        .map(|((name, reply, detail), check)| {
            let outcome = PROFILES
                .iter()
                .map(|p| (p.to_string(), judge(check, p, &reply).0))
                .collect();
            (name, Cell { answer: describe_reply(&reply), outcome, detail })
        })
        .collect()
}

fn run_column(
    entry: &Entry,
    selected: &[(&Case, Vec<&Check>)],
    profile: &str,
    limits: Limits,
    host: &Host,
    progress: &(dyn Fn(&str, usize) + Sync),
    cache: Option<&Cache>,
) -> (Column, Vec<(String, Cell)>) {
    let started = Instant::now();
    let mut column = Column {
        info: entry.info.clone(),
        status: "ready".into(),
        why: None,
        fix: None,
        seconds: 0.0,
        counts: BTreeMap::new(),
        levels: BTreeMap::new(),
        categories: BTreeMap::new(),
    };
    if let Status::Unavailable { why, fix } = registry::status(entry) {
        column.status = "unavailable".into();
        column.why = Some(why);
        column.fix = Some(fix);
        return (column, vec![]);
    }
    let counting = counting_profile(profile, &entry.info).to_string();
    // What the cache answers is judged now; the rest is the work.
    let mut answers = cache.map(|c| c.load(entry));
    let mut cells = Vec::new();
    let mut work = Vec::new();
    let mut done_now = 0;
    for (case, checks) in selected {
        let mut missing = Vec::new();
        let mut keys = Vec::new();
        for check in checks {
            let key = crate::cache::check_key(&check.request);
            match answers.as_mut().and_then(|a| a.get(&key)) {
                Some(reply) => {
                    let (_, detail) = judge(check, &counting, &reply);
                    cells.extend(cells_of(
                        &[check],
                        [(check.name.clone(), reply, detail)],
                    ));
                    done_now += 1;
                }
                None => {
                    missing.push(*check);
                    keys.push(key);
                }
            }
        }
        if !missing.is_empty() {
            work.push(Work { case, checks: missing, keys });
        }
    }
    let done = std::sync::atomic::AtomicUsize::new(done_now);
    if done_now > 0 {
        progress(&entry.info.name, done_now);
    }
    // Instances take the next case from one queue as they finish one, so
    // a parser that hangs on a few hostile cases holds up one instance
    // while the others go on. They count failed starts together: an
    // adapter that cannot start is given up on once, not per instance.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let breaker = Breaker::default();
    let instances = instances_per_adapter(work.len());
    let caps = &entry.info.capabilities;
    let live_fetcher = caps.fetch && !caps.access_result;
    let parts: Vec<Asked> = if work.is_empty() {
        vec![]
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..instances)
                .map(|_| {
                    let (counting, done, breaker, next, work) =
                        (&counting, &done, &breaker, &next, &work);
                    s.spawn(move || {
                        let mut adapter = registry::open_sharing(
                            entry, limits, host, breaker,
                        );
                        let mut cells = Vec::new();
                        let mut learnt = Vec::new();
                        loop {
                            let i = next.fetch_add(
                                1,
                                std::sync::atomic::Ordering::Relaxed,
                            );
                            let Some(w) = work.get(i) else { break };
                            let results = run_cases(
                                adapter.as_mut(),
                                counting,
                                [(w.case, w.checks.clone())],
                            );
                            for ((r, key), check) in
                                results.iter().zip(&w.keys).zip(&w.checks)
                            {
                                // A live fetch's answer depends on timing
                                // (the adapter's HTTP timeout on a busy
                                // machine): asked every run, never cached.
                                let live = live_fetcher
                                    && matches!(
                                        check.request,
                                        robots_adapters::Request::Fetch { .. }
                                    );
                                if !live {
                                    learnt
                                        .push((key.clone(), r.reply.clone()));
                                }
                            }
                            cells.extend(cells_of(
                                &w.checks,
                                results
                                    .into_iter()
                                    .map(|r| (r.check, r.reply, r.detail)),
                            ));
                            let n = done.fetch_add(
                                w.checks.len(),
                                std::sync::atomic::Ordering::Relaxed,
                            );
                            progress(&entry.info.name, n + w.checks.len());
                        }
                        Asked { info: adapter.info(), cells, learnt }
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("adapter worker panicked"))
                .collect()
        })
    };
    let mut info = entry.info.clone();
    // Nothing asked: the version it reported when last asked.
    if let Some(v) = answers.as_ref().and_then(|a| a.version()) {
        info.version = v.to_string();
    }
    for part in parts {
        info = part.info;
        cells.extend(part.cells);
        if let Some(a) = answers.as_mut() {
            for (key, reply) in part.learnt {
                a.put(key, &reply);
            }
        }
    }
    if let (Some(cache), Some(mut a)) = (cache, answers) {
        if !work.is_empty() {
            a.set_version(&info.version);
        }
        cache.store(a);
    }
    column.version_from(info);
    column.seconds = started.elapsed().as_secs_f64();
    (column, cells)
}

impl Column {
    fn version_from(&mut self, info: Info) {
        self.info.version = info.version;
    }

    /// Passed over scored checks at `level`, if any were scored.
    pub fn score(&self, level: &str) -> Option<(usize, usize)> {
        self.levels.get(level).map(|[p, t]| (*p, *t))
    }
}
