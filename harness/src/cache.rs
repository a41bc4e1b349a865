//! The matrix's answer cache: what each adapter answered to each check,
//! kept under `.cache/matrix/` at the project root (git-ignored; another
//! folder with `$ROBOTS_CONFORMANCE_CACHE`), so that a re-run after
//! editing a few cases asks the adapters only those checks.
//!
//! **Keys.** One file per adapter, `<name>.json`, holding the adapter's
//! key and its answers by check key. The adapter key is its name and
//! version plus a fingerprint of the code that answers:
//! - the reference adapters: the oracle's version and a build-time hash
//!   of its sources (`src/`, the root manifest) and of the adapters crate
//!   (`build.rs`);
//! - in-process Rust crates: the crate's version and the build-time hash
//!   of the adapters crate, its manifest and `Cargo.lock`;
//! - out-of-process adapters: the manifest's version, a hash of every
//!   file in the adapter's folder (its script, manifest and pinned
//!   requirements; not installed dependencies) and of `ext/lib/`, of
//!   every file its run command names (the interpreter, a script
//!   elsewhere, a built binary), and the adapters crate's hash (the wire
//!   code).
//!
//! A file whose adapter key differs is ignored and replaced. The check key
//! hashes the whole request: op, body bytes, agent(s), URL(s), the fetch
//! scenario (every route, body, cache and clock). The profile a matrix
//! counts under is not in it: answers never depend on it (they are judged
//! again on every run, so an edited expectation is never stale), and the
//! oracle's profile is in its adapter's name (`reference-google`).
//!
//! **What is kept.** Definite answers: verdicts, values, errors the
//! parser reported and not-applicable answers; and timeouts that were
//! *confirmed* (the adapter waited a multiple of the deadline and still
//! had no answer, `Adapter::confirmed_timeouts`), stored with that wait and
//! replayed as a timeout only to a run whose deadline is no longer. Never
//! an unconfirmed timeout, a crash, a protocol error, an unavailable
//! adapter or a fixture server that could not start (those are asked
//! again next run). For an adapter that fetches robots.txt over HTTP
//! itself, the matrix files a `fetch` answer only when the scenario has no
//! delayed response (whose answer depends on the machine's speed) and the
//! answer is not an error, unless asked again and given word for word
//! (see [`crate::column`]).
//!
//! **Bounds.** An answer whose stored form exceeds [`MAX_ANSWER_BYTES`] is
//! not cached; a file holds at most [`MAX_FILE_BYTES`] of answers (the
//! answers of the current run first, older ones while room is left);
//! a file larger than that is not read.
//!
//! **Failure.** A file that cannot be read or parsed is ignored with a
//! warning (and replaced at the end of the run), never a crash; writes go
//! through [`crate::output::atomic_write`] (temp file + rename). Two runs
//! at once each write a whole file; the last one wins.
//!
//! It stores and looks up answers; it never asks an adapter and never
//! judges one.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use robots_adapters::registry::{Entry, Kind};
use robots_adapters::{Explanation, Reply, Request, Verdict};
use serde::{Deserialize, Serialize};

/// Largest stored form of one answer that is cached.
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// Largest cache file written or read, per adapter.
pub const MAX_FILE_BYTES: usize = 64 * 1024 * 1024;

/// Files of an adapter's folder hashed into its key, at most.
const MAX_ADAPTER_FILES: usize = 2_000;

/// Folders an adapter's key never looks into (installed dependencies and
/// build output live there, not the adapter's own code).
const SKIPPED_DIRS: [&str; 6] =
    ["node_modules", "target", "__pycache__", ".git", "venv", ".venv"];

/// FNV-1a over 128 bits: stable across builds and toolchains.
#[derive(Clone, Copy)]
struct Fnv(u128);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0x6c62272e07bb014262b821756295c58d)
    }

    fn write(&mut self, bytes: &[u8]) -> &mut Fnv {
        const PRIME: u128 = 0x0000000001000000000000000000013B;
        // Length first, so that concatenations cannot collide.
        for &b in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
            self.0 ^= u128::from(b);
            self.0 = self.0.wrapping_mul(PRIME);
        }
        self
    }

    fn hex(&self) -> String {
        format!("{:032x}", self.0)
    }
}

/// The key a check's answer is filed under, from the request alone
/// (before any fixture server moves a fetch onto its port).
pub fn check_key(request: &Request) -> String {
    let mut h = Fnv::new();
    h.write(request.op().as_bytes());
    // The body as bytes; the rest as its debug form with the body left
    // out (every field but the body is small, and the debug form names
    // each field, so no two requests share one).
    let empty: std::sync::Arc<[u8]> = std::sync::Arc::from(&b""[..]);
    let mut rest = request.clone();
    match &mut rest {
        Request::Decide { robots, .. }
        | Request::DecideTokens { robots, .. }
        | Request::Sitemaps { robots }
        | Request::CrawlDelay { robots, .. }
        | Request::Usage { robots, .. }
        | Request::ContentSignal { robots, .. } => {
            h.write(robots);
            *robots = empty;
        }
        Request::Fetch { live, .. } => *live = None,
        Request::ValidToken { .. }
        | Request::RobotsUrl { .. }
        | Request::FetchPolicy { .. }
        | Request::Governs { .. } => {}
    }
    h.write(format!("{rest:?}").as_bytes());
    h.hex()
}

/// Hashes the files under `path` (sorted, relative names included).
fn hash_tree(h: &mut Fnv, base: &Path, path: &Path, budget: &mut usize) {
    if *budget == 0 {
        return;
    }
    if path.is_file() {
        *budget -= 1;
        let rel = path.strip_prefix(base).unwrap_or(path);
        h.write(rel.to_string_lossy().as_bytes());
        h.write(&std::fs::read(path).unwrap_or_default());
        return;
    }
    let Ok(dir) = std::fs::read_dir(path) else { return };
    let mut entries: Vec<PathBuf> =
        dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for e in entries {
        let skip = e.is_dir()
            && e.file_name().is_some_and(|n| {
                SKIPPED_DIRS.iter().any(|s| n == std::ffi::OsStr::new(s))
            });
        if !skip {
            hash_tree(h, base, &e, budget);
        }
    }
}

/// Programs up to this size are hashed whole; larger ones by size and
/// modification time.
const MAX_HASHED_PROGRAM: u64 = 16 * 1024 * 1024;

/// Hashes `path` when it is a file.
fn hash_program(h: &mut Fnv, path: &Path) {
    let Ok(meta) = std::fs::metadata(path) else { return };
    if !meta.is_file() {
        return;
    }
    h.write(path.to_string_lossy().as_bytes());
    if meta.len() <= MAX_HASHED_PROGRAM {
        h.write(&std::fs::read(path).unwrap_or_default());
    } else {
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        h.write(&meta.len().to_le_bytes()).write(&mtime.to_le_bytes());
    }
}

/// The key of an adapter's answers: who it is and a fingerprint of the
/// code that answers (see the module docs).
pub fn adapter_key(entry: &Entry) -> String {
    let info = &entry.info;
    let adapters = env!("ROBOTS_ADAPTERS_FINGERPRINT");
    match &entry.kind {
        Kind::Reference(profile) => format!(
            "{} {} profile={profile} oracle={} adapters={adapters}",
            info.name,
            info.version,
            env!("ROBOTS_ORACLE_FINGERPRINT")
        ),
        Kind::InProcess => {
            format!("{} {} adapters={adapters}", info.name, info.version)
        }
        Kind::External(m) => {
            let mut h = Fnv::new();
            let mut budget = MAX_ADAPTER_FILES;
            hash_tree(&mut h, &m.dir, &m.dir, &mut budget);
            if let Some(ext) = m.dir.parent() {
                let lib = ext.join("lib");
                hash_tree(&mut h, ext, &lib, &mut budget);
            }
            // What the run command names: a script outside the folder, an
            // installed program (a rebuilt one changes the key).
            for arg in &m.run {
                hash_program(&mut h, Path::new(arg));
            }
            format!(
                "{} {} files={} adapters={adapters}",
                info.name,
                info.version,
                h.hex()
            )
        }
        Kind::Command(argv) => {
            // The template's words, and the program they run (found on
            // PATH as the command runner finds it: a rebuilt program
            // changes the key).
            let mut h = Fnv::new();
            for arg in argv {
                h.write(arg.as_bytes()).write(&[0]);
            }
            if let Some(program) = argv.first().and_then(|p| find_program(p)) {
                hash_program(&mut h, &program);
            }
            format!(
                "{} {} command={} adapters={adapters}",
                info.name,
                info.version,
                h.hex()
            )
        }
    }
}

/// `program` as a path: itself when it contains a `/`, else the first
/// match on `PATH`.
fn find_program(program: &str) -> Option<std::path::PathBuf> {
    if program.contains('/') {
        return Some(Path::new(program).to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(program)).find(|p| p.is_file())
}

/// An explanation as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct StoredExplanation {
    reason: String,
    rule_line: Option<u32>,
    text: String,
    json: serde_json::Value,
}

/// A definite answer as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
enum Stored {
    Verdict {
        allowed: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        explanation: Option<StoredExplanation>,
    },
    Value {
        value: serde_json::Value,
    },
    NotApplicable {
        why: String,
    },
    Error {
        message: String,
    },
    /// A timeout confirmed by waiting this long for the answer
    /// ([`robots_adapters::Adapter::confirmed_timeouts`]): replayed as a
    /// timeout to a run that would wait no longer.
    TimedOut {
        confirmed_ms: u64,
    },
}

impl Stored {
    /// The stored form of `reply`, when it is definite.
    fn of(reply: &Reply) -> Option<Stored> {
        Some(match reply {
            Reply::Verdict { verdict, explanation } => Stored::Verdict {
                allowed: *verdict == Verdict::Allowed,
                explanation: explanation.as_ref().map(|e| StoredExplanation {
                    reason: e.reason.clone(),
                    rule_line: e.rule_line,
                    text: e.text.clone(),
                    json: e.json.clone(),
                }),
            },
            Reply::Value { value } => Stored::Value { value: value.clone() },
            // The runner's own refusal when a fixture server failed is
            // not the parser's answer, and may not happen next time.
            Reply::NotApplicable { why }
                if why.starts_with("fixture server:") =>
            {
                return None;
            }
            Reply::NotApplicable { why } => {
                Stored::NotApplicable { why: why.clone() }
            }
            Reply::Error { message } => {
                Stored::Error { message: message.clone() }
            }
            Reply::Crashed { .. }
            | Reply::TimedOut
            | Reply::ProtocolError { .. } => return None,
        })
    }

    fn reply(&self) -> Reply {
        match self.clone() {
            Stored::Verdict { allowed, explanation } => Reply::Verdict {
                verdict: if allowed {
                    Verdict::Allowed
                } else {
                    Verdict::Disallowed
                },
                explanation: explanation.map(|e| {
                    Box::new(Explanation {
                        reason: e.reason,
                        rule_line: e.rule_line,
                        text: e.text,
                        json: e.json,
                    })
                }),
            },
            Stored::Value { value } => Reply::Value { value },
            Stored::NotApplicable { why } => Reply::NotApplicable { why },
            Stored::Error { message } => Reply::Error { message },
            Stored::TimedOut { .. } => Reply::TimedOut,
        }
    }
}

/// One adapter's cache file.
#[derive(Debug, Default, Serialize, Deserialize)]
struct File {
    adapter: String,
    /// The version the adapter reported when last started (its `hello`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    answers: BTreeMap<String, Stored>,
    /// Seconds one asked check kept an instance busy in the last run that
    /// asked any (the matrix schedules the costliest adapters first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    busy_per_check: Option<f64>,
}

/// The cache folder of a run, and the warnings it met.
#[derive(Debug)]
pub struct Cache {
    dir: PathBuf,
    warnings: Mutex<Vec<String>>,
}

impl Cache {
    /// The folder answers go to: `$ROBOTS_CONFORMANCE_CACHE`, else
    /// `.cache/matrix/` at the project root.
    pub fn default_dir() -> PathBuf {
        std::env::var_os("ROBOTS_CONFORMANCE_CACHE")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("..")
                    .join(".cache")
                    .join("matrix")
            })
    }

    /// A cache in `dir` (created when first written).
    pub fn at(dir: impl Into<PathBuf>) -> Cache {
        Cache { dir: dir.into(), warnings: Mutex::new(Vec::new()) }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// What went wrong reading or writing (nothing fatal).
    pub fn warnings(&self) -> Vec<String> {
        self.warnings.lock().map(|w| w.clone()).unwrap_or_default()
    }

    fn warn(&self, w: String) {
        if let Ok(mut ws) = self.warnings.lock() {
            ws.push(w);
        }
    }

    fn path_for(&self, adapter: &str) -> PathBuf {
        let name: String = adapter
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        self.dir.join(format!("{name}.json"))
    }

    /// The stored answers of `entry`'s adapter (empty when there are none,
    /// the file is for another build of it, or it is unreadable).
    pub fn load(&self, entry: &Entry) -> Answers {
        let key = adapter_key(entry);
        let path = self.path_for(&entry.info.name);
        let mut answers = Answers {
            path,
            key,
            stored: BTreeMap::new(),
            fresh: BTreeMap::new(),
            used: HashSet::new(),
            version: None,
            version_changed: false,
            busy_per_check: None,
        };
        let size = match std::fs::metadata(&answers.path) {
            Ok(m) => m.len(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return answers;
            }
            Err(e) => {
                self.warn(format!(
                    "answer cache {}: {e}; ignored",
                    answers.path.display()
                ));
                return answers;
            }
        };
        if size > MAX_FILE_BYTES as u64 {
            self.warn(format!(
                "answer cache {}: {size} bytes, more than {MAX_FILE_BYTES}; \
                 ignored",
                answers.path.display()
            ));
            return answers;
        }
        let parsed = std::fs::read(&answers.path)
            .map_err(|e| e.to_string())
            .and_then(|b| {
                serde_json::from_slice::<File>(&b).map_err(|e| e.to_string())
            });
        match parsed {
            Ok(f) if f.adapter == answers.key => {
                answers.stored = f.answers;
                answers.version = f.version;
                answers.busy_per_check = f.busy_per_check;
            }
            // Another build of the adapter: its answers may be stale; how
            // long it kept an instance busy still orders the schedule.
            Ok(f) => answers.busy_per_check = f.busy_per_check,
            Err(e) => self.warn(format!(
                "answer cache {}: not a cache file ({e}); ignored and \
                 replaced",
                answers.path.display()
            )),
        }
        answers
    }

    /// Writes `answers` back when it learnt something (atomically; a
    /// failure is a warning).
    pub fn store(&self, answers: Answers) {
        if answers.fresh.is_empty()
            && answers.used.len() == answers.stored.len()
            && !answers.version_changed
        {
            return;
        }
        let path = answers.path.clone();
        let file = answers.into_file();
        let result = std::fs::create_dir_all(&self.dir)
            .map_err(|e| format!("{}: {e}", self.dir.display()))
            .and_then(|()| {
                serde_json::to_vec(&file).map_err(|e| e.to_string())
            })
            .and_then(|bytes| {
                crate::output::atomic_write(&path, &bytes)
                    .map_err(|e| e.to_string())
            });
        if let Err(e) = result {
            self.warn(format!("answer cache not written: {e}"));
        }
    }
}

/// One adapter's answers during a run.
#[derive(Debug)]
pub struct Answers {
    path: PathBuf,
    key: String,
    stored: BTreeMap<String, Stored>,
    fresh: BTreeMap<String, Stored>,
    used: HashSet<String>,
    /// The version the adapter reports of itself, when known.
    version: Option<String>,
    version_changed: bool,
    busy_per_check: Option<f64>,
}

impl Answers {
    /// The stored answer for `check_key`, if any, to a run that waits up
    /// to `deadline` for an answer: a confirmed timeout only when it was
    /// confirmed with at least that deadline (waiting longer, the parser
    /// may answer).
    pub fn get(
        &mut self,
        check_key: &str,
        deadline: Duration,
    ) -> Option<Reply> {
        let s = self.stored.get(check_key)?;
        if let Stored::TimedOut { confirmed_ms } = s
            && u128::from(*confirmed_ms) < deadline.as_millis()
        {
            return None;
        }
        self.used.insert(check_key.to_string());
        Some(s.reply())
    }

    /// Remembers that `check_key` timed out after the adapter waited
    /// `deadline` for it (a confirmed timeout); never call it for a
    /// timeout that was not confirmed.
    pub fn put_confirmed_timeout(
        &mut self,
        check_key: String,
        deadline: Duration,
    ) {
        let confirmed_ms =
            u64::try_from(deadline.as_millis()).unwrap_or(u64::MAX);
        self.fresh.insert(check_key, Stored::TimedOut { confirmed_ms });
    }

    /// Seconds one asked check kept an instance busy when last asked.
    pub fn busy_per_check(&self) -> Option<f64> {
        self.busy_per_check
    }

    /// Remembers this run's busy seconds per asked check.
    pub fn set_busy_per_check(&mut self, seconds: f64) {
        if seconds.is_finite() && seconds >= 0.0 {
            self.busy_per_check = Some(seconds);
            self.version_changed = true;
        }
    }

    /// Remembers `reply` when it is definite and small enough.
    pub fn put(&mut self, check_key: String, reply: &Reply) {
        let Some(s) = Stored::of(reply) else { return };
        let size = serde_json::to_vec(&s).map_or(usize::MAX, |v| v.len());
        if size <= MAX_ANSWER_BYTES {
            self.fresh.insert(check_key, s);
        }
    }

    /// Answers found in the file.
    pub fn stored(&self) -> usize {
        self.stored.len()
    }

    /// The version the adapter reported when it last ran, if known.
    pub fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    /// Remembers the version the adapter reported of itself.
    pub fn set_version(&mut self, v: &str) {
        if self.version.as_deref() != Some(v) {
            self.version = Some(v.to_string());
            self.version_changed = true;
        }
    }

    /// The file to write: this run's answers (found or fresh) first, then
    /// older ones, within [`MAX_FILE_BYTES`].
    fn into_file(self) -> File {
        let Answers {
            key, stored, fresh, used, version, busy_per_check, ..
        } = self;
        let mut answers = BTreeMap::new();
        let mut budget = MAX_FILE_BYTES - 4096;
        let mut add = |k: String, s: Stored, answers: &mut BTreeMap<_, _>| {
            // Key, quotes, colon and comma.
            let size = serde_json::to_vec(&s).map_or(usize::MAX, |v| v.len())
                + k.len()
                + 4;
            if size <= budget {
                budget -= size;
                answers.insert(k, s);
            }
        };
        let (now, older): (Vec<_>, Vec<_>) =
            stored.into_iter().partition(|(k, _)| used.contains(k));
        for (k, s) in fresh.into_iter().chain(now).chain(older) {
            if !answers.contains_key(&k) {
                add(k, s, &mut answers);
            }
        }
        File { adapter: key, version, answers, busy_per_check }
    }
}
