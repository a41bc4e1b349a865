//! Scaffolding shared by the command-line tests: the binary, scratch
//! folders, small case folders, and reading report.json.
//!
//! Each test gets its own folders (tests run in parallel), named by the
//! test's tag and this process's id.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `robots-conformance` binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_robots-conformance"))
}

/// A fresh, empty folder for `name`.
pub fn scratch(name: &str) -> PathBuf {
    let d =
        std::env::temp_dir().join(format!("rc-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Lossy text of a process's output.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// One check of a case: the URL and the expected verdict.
pub struct Check<'a> {
    /// The URL asked.
    pub url: &'a str,
    /// `allowed` or `disallowed`.
    pub expect: &'a str,
}

/// A cases folder (the project's clause index, one file `t/c.toml`)
/// with one case: `robots` (TOML basic-string escapes) and `checks`, for
/// agent FooBot. Its checks are named `t::c::c::1`, `t::c::c::2`, …
pub fn cases(tag: &str, robots: &str, checks: &[Check]) -> PathBuf {
    let checks: Vec<String> = checks
        .iter()
        .map(|c| {
            format!(
                "{{ agent = \"FooBot\", url = \"{}\", expect = \"{}\" }}",
                c.url, c.expect
            )
        })
        .collect();
    let text = format!(
        "[[case]]\nid = \"c\"\nclauses = [\"R2.2.2-9\"]\nsource = \"regression\"\n\
         robots = \"{robots}\"\ncheck = [{}]\n",
        checks.join(", ")
    );
    case_files(tag, &[("c", text.as_bytes())])
}

/// A cases folder with the project's clause index and, for each
/// `(stem, bytes)`, the file `t/<stem>.toml` holding those bytes as given.
pub fn case_files(tag: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let root = scratch(&format!("cases-{tag}"));
    clause_index_into(&root);
    for (stem, bytes) in files {
        std::fs::write(root.join(format!("t/{stem}.toml")), bytes).unwrap();
    }
    root
}

/// Makes `root` a cases folder: the project's clause index and an empty
/// `t/` for the test's case files.
pub fn clause_index_into(root: &Path) {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        here.join("../spec-cases/clauses.toml"),
        root.join("clauses.toml"),
    )
    .unwrap();
    std::fs::create_dir_all(root.join("t")).unwrap();
}

/// Whether python3 runs here; in CI it must (the test fails instead of
/// skipping).
pub fn have_python() -> bool {
    if Command::new("python3").arg("--version").output().is_ok() {
        return true;
    }
    assert!(std::env::var_os("CI").is_none(), "python3 is required in CI");
    eprintln!("skipped: python3 not installed");
    false
}

/// `out/report.json`.
pub fn report(out: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap())
        .unwrap()
}

/// The rfc9309 outcome of `adapter` on `check` in a report.
pub fn outcome(
    report: &serde_json::Value,
    adapter: &str,
    check: &str,
) -> String {
    let row = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == check)
        .unwrap_or_else(|| panic!("no check {check}"));
    row["results"][adapter]["outcome"]["rfc9309"]
        .as_str()
        .unwrap_or_else(|| panic!("no outcome of {adapter} on {check}: {row}"))
        .to_string()
}

/// Runs `command` to its end while reading its peak resident set
/// (`VmHWM` in `/proc/PID/status`, KiB) every few milliseconds: its
/// output, the last peak read (the peak only grows, so this is the peak
/// up to a few milliseconds before the end) and its process id.
pub fn run_watching_peak(
    mut command: Command,
) -> (std::process::Output, u64, u32) {
    use std::process::Stdio;
    let child =
        command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let pid = child.id();
    let (output, peak) = watch_peak(child);
    (output, peak, pid)
}

/// Waits for `child` (stdout and stderr piped) to end, draining its
/// output and reading its peak resident set from `/proc` meanwhile (as
/// [`run_watching_peak`]).
pub fn watch_peak(
    mut child: std::process::Child,
) -> (std::process::Output, u64) {
    use std::io::Read;
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file)
            && let Some(kib) = text
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse::<u64>().ok())
        {
            peak = peak.max(kib);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let output = std::process::Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    };
    (output, peak)
}
