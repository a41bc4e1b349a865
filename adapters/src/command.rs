//! The zero-code way in: any command-line program, run once per check
//! from a template in the style of Google's robots-spec-test, e.g.
//! `robots_main {robots} {agent} {url}`: exit status 0 means allowed and
//! 1 disallowed, or, with a stdout pattern, "allowed" when the output
//! contains it. `{robots}` is a file holding the body's exact bytes, in a
//! scratch folder of its own for each run (so that workers running the
//! same template side by side never share one), removed after the run.
//!
//! Each run is the leader of its own process group ([`crate::group`]):
//! past its deadline the group gets SIGTERM, then SIGKILL, and whatever
//! it leaves running when it exits is killed too. Its output costs
//! bounded memory: stdout is read while it runs (only when a pattern is
//! looked for, in a window of the pattern's length; otherwise it goes to
//! `/dev/null`), and only a short tail of stderr is kept, for messages.
//! An exit status other than 0 and 1 is the program's error, not a crash;
//! a crash is a run ended by a signal it did not get from us.
//!
//! It only runs the program and reads its exit status or output; it never
//! interprets the body, and never runs the program through a shell.

use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};
use std::process::{Command as Proc, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::channel;
use std::time::Duration;

use crate::group::{self, spawn_in_group};
use crate::pipes::{Tail, cap};
use crate::{Adapter, Capabilities, Info, Reply, Request};

/// The name a command template's adapter has in reports.
pub const NAME: &str = "command";

/// Between SIGTERM and SIGKILL, and how long the output readers are
/// waited for after the program exits.
const GRACE: Duration = Duration::from_millis(250);

/// A command template adapter.
pub struct Template {
    argv: Vec<String>,
    allowed_pattern: Option<String>,
    deadline: Duration,
    info: Info,
}

/// Why a command template cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    /// A quote is opened and never closed.
    #[error("unbalanced quote in `{0}`")]
    UnbalancedQuote(String),
    /// No words at all.
    #[error("empty command")]
    Empty,
    /// No `{{url}}` placeholder.
    #[error("the command template needs {{url}}")]
    NoUrl,
}

/// Splits a template into words: whitespace separates, single or double
/// quotes group, backslash escapes the next character.
pub fn words(template: &str) -> Result<Vec<String>, TemplateError> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = template.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (_, '\\') => {
                word.extend(chars.next());
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (_, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(TemplateError::UnbalancedQuote(template.to_string()));
    }
    if in_word {
        out.push(word);
    }
    if out.is_empty() {
        return Err(TemplateError::Empty);
    }
    Ok(out)
}

/// The words of `template`, checked to hold `{url}`.
///
/// # Errors
///
/// When the template does not split into words or lacks `{url}`.
pub fn parse(template: &str) -> Result<Vec<String>, TemplateError> {
    let argv = words(template)?;
    if !argv.iter().any(|w| w.contains("{url}")) {
        return Err(TemplateError::NoUrl);
    }
    Ok(argv)
}

/// A scratch folder of one run, removed when dropped.
struct Scratch(PathBuf);

/// Numbers the scratch folders of this process.
static RUNS: AtomicU64 = AtomicU64::new(0);

impl Scratch {
    /// A new, empty folder under the temp dir (a name left over by an
    /// earlier process of the same id is skipped, never reused).
    fn new() -> std::io::Result<Scratch> {
        let pid = std::process::id();
        loop {
            let n = RUNS.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir()
                .join(format!("robots-conformance-cmd-{pid}-{n}"));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok(Scratch(dir)),
                Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(std::io::Error::new(
                        e.kind(),
                        format!("cannot create {}: {e}", dir.display()),
                    ));
                }
            }
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Reads `stdout` to its end, setting `found` once `pattern` occurred in
/// it; keeps only the pattern's length of it (a window across reads).
fn scan(mut stdout: impl Read, pattern: &[u8], found: &AtomicBool) {
    let keep = pattern.len().saturating_sub(1);
    let mut window: Vec<u8> = Vec::with_capacity(keep + (8 << 10));
    let mut chunk = [0u8; 8 << 10];
    loop {
        let n = match stdout.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        window.extend_from_slice(&chunk[..n]);
        if !found.load(Ordering::Relaxed)
            && (pattern.is_empty()
                || window.windows(pattern.len()).any(|w| w == pattern))
        {
            found.store(true, Ordering::Relaxed);
        }
        let over = window.len().saturating_sub(keep);
        window.drain(..over);
    }
}

/// `message`, with the end of stderr when there is one, capped.
fn with_tail(message: String, tail: &str) -> String {
    if tail.is_empty() {
        return cap(message);
    }
    cap(format!("{message}; stderr: {tail}"))
}

impl Template {
    /// An adapter running `template` per check, each run killed after
    /// `deadline`.
    ///
    /// # Errors
    ///
    /// When the template does not split into words or lacks `{url}`.
    pub fn new(
        template: &str,
        allowed_pattern: Option<String>,
        deadline: Duration,
    ) -> Result<Template, TemplateError> {
        let argv = parse(template)?;
        let info = Info {
            name: NAME.into(),
            language: "any".into(),
            version: argv[0].clone(),
            profile: "rfc9309".into(),
            capabilities: Capabilities::decide_only(),
        };
        Ok(Template::from_argv(argv, allowed_pattern, deadline, info))
    }

    /// An adapter running the words `argv` (from [`parse`]) per check,
    /// known as `info`.
    pub fn from_argv(
        argv: Vec<String>,
        allowed_pattern: Option<String>,
        deadline: Duration,
        info: Info,
    ) -> Template {
        Template { argv, allowed_pattern, deadline, info }
    }

    /// The words with the placeholders filled in.
    fn fill(&self, robots: &Path, agent: &str, url: &str) -> Vec<String> {
        self.argv
            .iter()
            .map(|w| {
                w.replace("{robots}", &robots.to_string_lossy())
                    .replace("{agent}", agent)
                    .replace("{url}", url)
            })
            .collect()
    }

    /// Runs the program once for one decide request.
    fn run(&self, robots: &[u8], agent: &str, url: &str) -> Reply {
        let scratch = match Scratch::new() {
            Ok(s) => s,
            Err(e) => return Reply::Error { message: e.to_string() },
        };
        let file = scratch.0.join("robots.txt");
        if let Err(e) = std::fs::write(&file, robots) {
            return Reply::Error {
                message: format!("cannot write {}: {e}", file.display()),
            };
        }
        let argv = self.fill(&file, agent, url);
        let stdout = if self.allowed_pattern.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        };
        let mut command = Proc::new(&argv[0]);
        command
            .args(&argv[1..])
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(Stdio::piped());
        let mut child = match spawn_in_group(&mut command) {
            Ok(c) => c,
            Err(e) => {
                return Reply::Crashed {
                    message: cap(format!("cannot run {}: {e}", argv[0])),
                };
            }
        };
        let tail = Tail::default();
        if let Some(stderr) = child.stderr.take() {
            let tail = tail.clone();
            std::thread::spawn(move || tail.drain(stderr));
        }
        let found = Arc::new(AtomicBool::new(
            self.allowed_pattern.as_deref() == Some(""),
        ));
        let (done_tx, done) = channel::<()>();
        match (child.stdout.take(), &self.allowed_pattern) {
            (Some(out), Some(p)) => {
                let pattern = p.clone().into_bytes();
                let found = found.clone();
                std::thread::spawn(move || {
                    scan(out, &pattern, &found);
                    let _ = done_tx.send(());
                });
            }
            _ => drop(done_tx),
        }
        if !group::wait_exit(&child, self.deadline) {
            group::stop(child, GRACE);
            return Reply::TimedOut;
        }
        let status = match group::reap(child) {
            Ok(s) => s,
            Err(e) => return Reply::Crashed { message: cap(e.to_string()) },
        };
        // What the group left is killed, so its pipes close now (unless a
        // process left the group on purpose: then what was read so far).
        let _ = done.recv_timeout(GRACE);
        let stderr = tail.last_words(GRACE);
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return Reply::Crashed {
                message: with_tail(
                    format!("killed by signal {signal}"),
                    &stderr,
                ),
            };
        }
        if self.allowed_pattern.is_some() {
            return Reply::verdict(found.load(Ordering::Relaxed));
        }
        match status.code() {
            Some(0) => Reply::verdict(true),
            Some(1) => Reply::verdict(false),
            Some(c) => Reply::Error {
                message: with_tail(
                    format!("exit status {c} (0 means allowed, 1 disallowed)"),
                    &stderr,
                ),
            },
            None => Reply::Crashed {
                message: with_tail("no exit status".into(), &stderr),
            },
        }
    }
}

impl Adapter for Template {
    fn info(&self) -> Info {
        self.info.clone()
    }

    fn answer(&mut self, request: &Request) -> Reply {
        let Request::Decide { robots, agent, url } = request else {
            return Reply::not_applicable(format!(
                "a command answers decide only, not {}",
                request.op()
            ));
        };
        self.run(robots, agent, url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_like_a_shell() {
        assert_eq!(words("a 'b c' \"d\"e\\ f").unwrap(), ["a", "b c", "de f"]);
        assert!(words("a 'b").is_err());
        assert!(matches!(parse("true {agent}"), Err(TemplateError::NoUrl)));
        assert!(matches!(parse("  "), Err(TemplateError::Empty)));
    }

    /// A template running the shell script `script` with `$1` the body's
    /// file, `$2` the agent, `$3` the URL.
    fn sh(script: &str, pattern: Option<&str>, deadline_ms: u64) -> Template {
        let argv = vec![
            "sh".into(),
            "-c".into(),
            script.into(),
            "sh".into(),
            "{robots}".into(),
            "{agent}".into(),
            "{url}".into(),
        ];
        let info = Info {
            name: NAME.into(),
            language: "any".into(),
            version: "sh".into(),
            profile: "rfc9309".into(),
            capabilities: Capabilities::decide_only(),
        };
        Template::from_argv(
            argv,
            pattern.map(str::to_string),
            Duration::from_millis(deadline_ms),
            info,
        )
    }

    fn ask(t: &mut Template, url: &str) -> Reply {
        t.answer(&Request::Decide {
            robots: Arc::from(&b"User-agent: *\nDisallow: /p\n"[..]),
            agent: "FooBot".into(),
            url: url.into(),
        })
    }

    #[test]
    fn exit_statuses_are_verdicts_errors_and_crashes() {
        let mut t = sh(
            "case \"$3\" in /p*) exit 1;; /bad) echo oops >&2; exit 3;; \
             /sig) kill -9 $$;; esac; exit 0",
            None,
            20_000,
        );
        assert_eq!(ask(&mut t, "/x"), Reply::verdict(true));
        assert_eq!(ask(&mut t, "/p"), Reply::verdict(false));
        let Reply::Error { message } = ask(&mut t, "/bad") else { panic!() };
        assert!(message.contains("exit status 3"), "{message}");
        assert!(message.contains("oops"), "{message}");
        let Reply::Crashed { message } = ask(&mut t, "/sig") else { panic!() };
        assert!(message.contains("signal 9"), "{message}");
    }

    #[test]
    fn each_run_has_its_own_scratch_file_removed_afterwards() {
        let log = std::env::temp_dir()
            .join(format!("rc-cmd-scratch-{}", std::process::id()));
        let _ = std::fs::remove_file(&log);
        let script = format!(
            "grep -q 'Disallow: /p' \"$1\" && echo \"$1\" >> {}",
            log.display()
        );
        let mut t = sh(&script, None, 20_000);
        for _ in 0..3 {
            assert_eq!(ask(&mut t, "/x"), Reply::verdict(true));
        }
        let text = std::fs::read_to_string(&log).unwrap();
        let files: Vec<&str> = text.lines().collect();
        assert_eq!(files.len(), 3);
        assert!(files[0] != files[1] && files[1] != files[2], "{files:?}");
        for f in files {
            assert!(!Path::new(f).exists(), "{f} left behind");
        }
        let _ = std::fs::remove_file(&log);
    }

    #[test]
    fn a_hang_is_a_timeout_and_its_group_is_killed() {
        let pids = std::env::temp_dir()
            .join(format!("rc-cmd-hang-{}", std::process::id()));
        let script = format!("sleep 30 & echo $! > {}; wait", pids.display());
        let mut t = sh(&script, None, 300);
        assert_eq!(ask(&mut t, "/x"), Reply::TimedOut);
        let pid = std::fs::read_to_string(&pids).unwrap();
        assert!(!alive(pid.trim()), "sleep {pid} left running");
        // Exits at once but leaves a child behind: killed as well.
        let script =
            format!("sleep 30 & echo $! > {}; exit 1", pids.display());
        let mut t = sh(&script, None, 20_000);
        assert_eq!(ask(&mut t, "/x"), Reply::verdict(false));
        let pid = std::fs::read_to_string(&pids).unwrap();
        assert!(!alive(pid.trim()), "sleep {pid} left running");
        let _ = std::fs::remove_file(&pids);
    }

    /// Whether process `pid` is running (not gone, not a zombie).
    fn alive(pid: &str) -> bool {
        for _ in 0..100 {
            match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
                Err(_) => return false,
                Ok(stat) => {
                    let state = stat.rsplit(')').next().unwrap_or_default();
                    if state.trim_start().starts_with('Z') {
                        return false;
                    }
                }
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        true
    }

    /// This process's peak resident set, KiB (`VmHWM` in /proc).
    fn peak_kib() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    #[test]
    fn a_flood_on_stdout_is_read_in_bounded_memory() {
        let before = peak_kib();
        // 256 MiB without a newline, then the word: found, exit 0.
        let flood = "head -c 268435456 /dev/zero; echo allowed";
        let mut t = sh(flood, Some("allowed"), 60_000);
        assert_eq!(ask(&mut t, "/x"), Reply::verdict(true));
        let mut t = sh("head -c 268435456 /dev/zero", Some("allowed"), 60_000);
        assert_eq!(ask(&mut t, "/x"), Reply::verdict(false));
        // Without a pattern stdout is not read at all, and stderr keeps
        // only its tail.
        let mut t =
            sh("head -c 268435456 /dev/zero >&2; exit 1", None, 60_000);
        assert_eq!(ask(&mut t, "/x"), Reply::verdict(false));
        let grown = peak_kib().saturating_sub(before);
        assert!(grown < 64 * 1024, "peak RSS grew by {grown} KiB");
    }

    #[test]
    fn a_pattern_split_across_reads_is_found() {
        let found = AtomicBool::new(false);
        let input: Vec<u8> =
            [vec![b'x'; (8 << 10) - 3], b"allowed".to_vec()].concat();
        scan(&input[..], b"allowed", &found);
        assert!(found.load(Ordering::Relaxed));
        let found = AtomicBool::new(false);
        scan(&b"allow ed"[..], b"allowed", &found);
        assert!(!found.load(Ordering::Relaxed));
    }

    #[test]
    fn a_missing_program_is_a_crash_naming_it() {
        let mut t = Template::new(
            "/nonexistent/robots_main {robots} {agent} {url}",
            None,
            Duration::from_secs(5),
        )
        .unwrap();
        let Reply::Crashed { message } = ask(&mut t, "/x") else { panic!() };
        assert!(message.contains("/nonexistent/robots_main"), "{message}");
    }
}
