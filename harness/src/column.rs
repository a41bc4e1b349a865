//! One adapter's column of a matrix: the checks the answer cache answers
//! are judged without asking; the rest is asked by one instance per core
//! taking the next case from one shared queue, each instance holding a
//! permit of the run's [`Budget`] while it asks (its priority: the
//! adapter's estimated remaining cost, so long poles go first).
//!
//! **Confirmation.** A timeout is kept in the cache only when the
//! adapter confirmed it ([`robots_adapters::Adapter::confirmed_timeouts`]:
//! the process adapter waits [`CONFIRM_FACTOR`] deadlines before it times
//! a request out); it is replayed as a timeout to a run that would wait no
//! longer. A live fetch that answered an error is asked again by the same
//! instance once its queue is done: an error that repeats word for word
//! (but for the fixture's port in a quoted URL) is kept; anything else that comes back is the cell (the first answer was
//! the machine's load, not the parser's), and filed as any answer.
//!
//! **What is filed.** What the cache takes (definite answers) — except a
//! live fetch's answer to a scenario with a delayed response
//! ([`robots_adapters::scenario::Scenario::delays_answers`]), which races
//! the client's timeout against the machine's speed: asked every run.
//!
//! It knows the case model and asks only through the `Adapter` trait; a
//! misbehaving adapter costs only its own cells.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use robots_adapters::breaker::Breaker;
use robots_adapters::cost::thread_cpu;
use robots_adapters::process::Limits;
use robots_adapters::registry::{self, Entry, Host, Status};
use robots_adapters::{Adapter, Info, Reply, Request};

use crate::budget::Budget;
use crate::cache::Answers;
use crate::case::{Case, Check, PROFILES};
use crate::cost::ColumnCost;
use crate::matrix::{Cell, Column, Options, counting_profile};
use crate::render::describe_reply;
use crate::run::{judge, run_cases};

/// The matrix waits this many deadlines for a late answer before it
/// times a request out ([`Limits::confirm`]).
pub const CONFIRM_FACTOR: u32 = 2;

/// How long a run with `limits` waits before a timeout: a cached timeout
/// confirmed with at least this wait is replayed.
pub fn confirm_wait(limits: Limits) -> Duration {
    limits.base * limits.confirm.max(1)
}

/// Instances of each adapter a matrix runs side by side: one per core
/// (`std::thread::available_parallelism`), never more than there are
/// cases left to ask.
pub fn instances_per_adapter(work: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.min(work).max(1)
}

/// Seconds one asked check is assumed to keep an instance busy when the
/// cache has no figure from an earlier run.
const DEFAULT_BUSY_PER_CHECK: f64 = 0.001;

/// One case's checks an adapter still has to be asked, with their cache
/// keys.
struct Work<'a> {
    case: &'a Case,
    checks: Vec<&'a Check>,
    keys: Vec<String>,
}

/// A check whose first answer is to be confirmed.
struct Suspect<'a> {
    case: &'a Case,
    check: &'a Check,
    key: String,
    first: Reply,
}

/// What one instance asked.
struct Asked {
    info: Info,
    cells: Vec<(String, Cell)>,
    learnt: Vec<(String, Reply)>,
    /// Timed-out checks the adapter confirmed, with the wait.
    timeouts: Vec<(String, Duration)>,
    busy: Duration,
}

/// Everything a column's instances share.
struct Shared<'a> {
    entry: &'a Entry,
    counting: &'a str,
    limits: Limits,
    host: &'a Host,
    budget: &'a Budget,
    progress: &'a (dyn Fn(&str, usize) + Sync),
    breaker: Breaker,
    /// Checks done (cached, asked, confirmed).
    done: AtomicUsize,
    /// Checks still to ask, and the seconds each is assumed to cost.
    left: AtomicUsize,
    busy_per_check: f64,
    cost: Mutex<ColumnCost>,
}

impl Shared<'_> {
    /// The adapter's estimated remaining cost, in microseconds.
    fn priority(&self) -> u64 {
        let left = self.left.load(Ordering::Relaxed) as f64;
        (left * self.busy_per_check * 1e6) as u64
    }

    /// `run_cases` under a permit; the answers and the time held.
    fn ask(
        &self,
        adapter: &mut dyn Adapter,
        case: &Case,
        checks: &[&Check],
    ) -> (Vec<crate::run::CheckResult>, Duration) {
        let permit = self.budget.acquire(self.priority());
        let held = Instant::now();
        let results =
            run_cases(adapter, self.counting, [(case, checks.to_vec())]);
        let busy = held.elapsed();
        if let Ok(mut c) = self.cost.lock() {
            c.waited_seconds += permit.waited.as_secs_f64();
        }
        drop(permit);
        (results, busy)
    }

    /// Files `r` (the answer to `check`, cache key `key`) into `asked`:
    /// its cell, and what the cache may keep of it.
    fn settle(
        &self,
        asked: &mut Asked,
        adapter: &dyn Adapter,
        case: &Case,
        check: &Check,
        key: &str,
        r: crate::run::CheckResult,
    ) {
        let fileable = !is_live(self.entry, check) || live_fileable(case);
        if fileable {
            match (&r.reply, adapter.confirmed_timeouts()) {
                (Reply::TimedOut, Some(wait)) => {
                    asked.timeouts.push((key.to_string(), wait));
                }
                (Reply::TimedOut, None) => {}
                (reply, _) => {
                    asked.learnt.push((key.to_string(), reply.clone()))
                }
            }
        }
        if let Ok(mut c) = self.cost.lock() {
            c.count(&r.reply);
        }
        asked.cells.push(cell_of(check, r.reply, r.detail));
    }

    fn advance(&self, n: usize) {
        let d = self.done.fetch_add(n, Ordering::Relaxed) + n;
        (self.progress)(&self.entry.info.name, d);
    }
}

/// The cell of `check` for `reply`, judged under every profile.
fn cell_of(check: &Check, reply: Reply, detail: String) -> (String, Cell) {
    let outcome = PROFILES
        .iter()
        .map(|p| (p.to_string(), judge(check, p, &reply).0))
        .collect();
    (
        check.name.clone(),
        Cell { answer: describe_reply(&reply), outcome, detail },
    )
}

/// Whether `check` is a fetch the adapter makes itself over HTTP.
fn is_live(entry: &Entry, check: &Check) -> bool {
    let caps = &entry.info.capabilities;
    caps.fetch
        && !caps.access_result
        && matches!(check.request, Request::Fetch { .. })
}

/// Whether the answer of a live fetch may be filed at all: the scenario
/// serves every route at once (or never).
fn live_fileable(case: &Case) -> bool {
    case.fetch.as_ref().is_none_or(|s| !s.delays_answers())
}

/// One instance: the queue, then its live-fetch errors asked again.
fn instance<'a>(
    sh: &Shared<'a>,
    work: &'a [Work<'a>],
    next: &AtomicUsize,
) -> Asked {
    let started_cpu = thread_cpu();
    let mut adapter =
        registry::open_sharing(sh.entry, sh.limits, sh.host, &sh.breaker);
    let mut asked = Asked {
        info: sh.entry.info.clone(),
        cells: Vec::new(),
        learnt: Vec::new(),
        timeouts: Vec::new(),
        busy: Duration::ZERO,
    };
    let mut suspects = Vec::new();
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(w) = work.get(i) else { break };
        let (results, busy) = sh.ask(adapter.as_mut(), w.case, &w.checks);
        asked.busy += busy;
        sh.left.fetch_sub(w.checks.len(), Ordering::Relaxed);
        let mut settled = 0;
        for ((r, key), check) in
            results.into_iter().zip(&w.keys).zip(&w.checks)
        {
            let live = is_live(sh.entry, check);
            if live && matches!(r.reply, Reply::Error { .. }) {
                suspects.push(Suspect {
                    case: w.case,
                    check,
                    key: key.clone(),
                    first: r.reply,
                });
                continue;
            }
            settled += 1;
            sh.settle(&mut asked, adapter.as_ref(), w.case, check, key, r);
        }
        sh.advance(settled);
    }
    confirm(sh, adapter.as_mut(), suspects, &mut asked);
    asked.info = adapter.info();
    if let Ok(mut c) = sh.cost.lock() {
        c.add_instance(adapter.cost(), thread_cpu() - started_cpu);
    }
    asked
}

/// `message` with the port of every loopback address in it left out
/// (`127.0.0.1:N`, `localhost:N`, `port=N`): each ask serves its scenario
/// on a fresh fixture port, and a client that quotes where it failed says
/// the same thing on another port.
fn without_ports(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = ["127.0.0.1:", "localhost:", "port="]
        .iter()
        .filter_map(|h| rest.find(h).map(|i| i + h.len()))
        .min()
    {
        out.push_str(&rest[..i]);
        rest = rest[i..].trim_start_matches(|c: char| c.is_ascii_digit());
        out.push_str("PORT");
    }
    out.push_str(rest);
    out
}

/// Asks the live-fetch errors again, case by case, with the same
/// instance; files what is settled into `asked`.
fn confirm<'a>(
    sh: &Shared<'a>,
    adapter: &mut dyn Adapter,
    suspects: Vec<Suspect<'a>>,
    asked: &mut Asked,
) {
    let mut groups: Vec<Vec<Suspect<'a>>> = Vec::new();
    for s in suspects {
        match groups.last_mut() {
            Some(g) if std::ptr::eq(g[0].case, s.case) => g.push(s),
            _ => groups.push(vec![s]),
        }
    }
    for group in groups {
        let checks: Vec<&Check> = group.iter().map(|s| s.check).collect();
        let (results, busy) = sh.ask(adapter, group[0].case, &checks);
        asked.busy += busy;
        if let Ok(mut c) = sh.cost.lock() {
            c.confirmations += checks.len();
        }
        for (r, s) in results.into_iter().zip(group) {
            let repeated = matches!(
                (&s.first, &r.reply),
                (Reply::Error { message: a }, Reply::Error { message: b })
                    if without_ports(a) == without_ports(b)
            );
            if repeated || !matches!(r.reply, Reply::Error { .. }) {
                sh.settle(asked, adapter, s.case, s.check, &s.key, r);
            } else {
                // Two different errors: neither is believed enough to keep.
                if let Ok(mut c) = sh.cost.lock() {
                    c.count(&r.reply);
                }
                asked.cells.push(cell_of(s.check, r.reply, r.detail));
            }
            sh.advance(1);
        }
    }
}

/// Runs `entry`'s column over `selected`, whose checks have the cache
/// keys `keys` (computed once for every column: a key hashes the whole
/// request, fetch scenarios and large bodies included), asking as
/// `options` says (its profile, limits, host, budget, progress and
/// cache; its suite, filter and entries are the matrix's).
pub fn run_column(
    entry: &Entry,
    selected: &[(&Case, Vec<&Check>)],
    keys: &[Vec<String>],
    options: &Options,
) -> (Column, Vec<(String, Cell)>) {
    let Options { profile, limits, host, budget, progress, cache, .. } =
        options;
    let (limits, cache) = (*limits, *cache);
    let started = Instant::now();
    let mut column = Column::new(entry.info.clone());
    if let Status::Unavailable { why, fix } = registry::status(entry) {
        column.status = "unavailable".into();
        column.why = Some(why);
        column.fix = Some(fix);
        return (column, vec![]);
    }
    let counting = counting_profile(profile, &entry.info).to_string();
    // What the cache answers is judged now; the rest is the work.
    let mut answers: Option<Answers> = cache.map(|c| c.load(entry));
    let mut cells = Vec::new();
    let mut work = Vec::new();
    let mut cost = ColumnCost::default();
    for ((case, checks), case_keys) in selected.iter().zip(keys) {
        let mut missing = Vec::new();
        let mut keys = Vec::new();
        for (check, key) in checks.iter().zip(case_keys) {
            let key = key.clone();
            match answers
                .as_mut()
                .and_then(|a| a.get(&key, confirm_wait(limits)))
            {
                Some(reply) => {
                    let (_, detail) = judge(check, &counting, &reply);
                    cost.count(&reply);
                    cost.cached += 1;
                    cells.push(cell_of(check, reply, detail));
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
    cost.asked = work.iter().map(|w| w.checks.len()).sum();
    let busy_per_check = answers
        .as_ref()
        .and_then(Answers::busy_per_check)
        .unwrap_or(DEFAULT_BUSY_PER_CHECK);
    let sh = Shared {
        entry,
        counting: &counting,
        limits,
        host,
        budget,
        progress,
        // Instances count failed starts together: an adapter that cannot
        // start is given up on once, not per instance.
        breaker: Breaker::default(),
        done: AtomicUsize::new(cost.cached),
        left: AtomicUsize::new(cost.asked),
        busy_per_check,
        cost: Mutex::new(cost),
    };
    if sh.done.load(Ordering::Relaxed) > 0 {
        sh.advance(0);
    }
    let next = AtomicUsize::new(0);
    let parts: Vec<Asked> = if work.is_empty() {
        vec![]
    } else {
        let instances = instances_per_adapter(work.len());
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..instances)
                .map(|_| {
                    let (sh, work, next) = (&sh, &work, &next);
                    s.spawn(move || instance(sh, work, next))
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
    let mut busy = Duration::ZERO;
    for part in parts {
        info = part.info;
        busy += part.busy;
        cells.extend(part.cells);
        if let Some(a) = answers.as_mut() {
            for (key, reply) in part.learnt {
                a.put(key, &reply);
            }
            for (key, wait) in part.timeouts {
                a.put_confirmed_timeout(key, wait);
            }
        }
    }
    let mut cost = sh.cost.into_inner().unwrap_or_else(|e| e.into_inner());
    if let (Some(cache), Some(mut a)) = (cache, answers) {
        if !work.is_empty() {
            a.set_version(&info.version);
            a.set_busy_per_check(
                busy.as_secs_f64() / cost.asked.max(1) as f64,
            );
        }
        cache.store(a);
    }
    column.info.version = info.version;
    column.seconds = started.elapsed().as_secs_f64();
    cost.wall_seconds = column.seconds;
    column.cost = cost;
    (column, cells)
}

#[cfg(test)]
mod tests {
    use super::without_ports;

    #[test]
    fn loopback_ports_are_left_out_of_errors() {
        assert_eq!(
            without_ports("Got 503 for http://127.0.0.1:35441/robots.txt (x)"),
            "Got 503 for http://127.0.0.1:PORT/robots.txt (x)"
        );
        assert_eq!(
            without_ports("a localhost:1/ b 127.0.0.1:22"),
            "a localhost:PORT/ b 127.0.0.1:PORT"
        );
        assert_eq!(
            without_ports("port 8080 elsewhere"),
            "port 8080 elsewhere"
        );
    }
}
