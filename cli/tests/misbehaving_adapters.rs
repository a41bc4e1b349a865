//! A crashing, a hanging (SIGTERM-ignoring) and a garbage-printing
//! adapter: each costs only its own checks, the run completes and reports
//! them; and a baseline fails a run exactly when an outcome changed.
//!
//! Hostile output costs bounded memory and no false crash: megabytes of
//! stderr, non-UTF-8 stderr and a newline-less stdout flood; a grandchild
//! holding stdout is killed with its adapter's process group; an adapter
//! that never starts is given up on after a few starts.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::{have_python, report, scratch};

/// A cases folder with one case whose URLs trigger each misbehaviour.
/// Each test gets its own folder (`tag`): tests run in parallel.
fn cases(tag: &str) -> PathBuf {
    let urls = ["/ok", "/crash", "/ok2", "/hang", "/ok3", "/junk", "/ok4"];
    cases_with(tag, &urls, 1)
}

/// `n` cases (one batch each) whose checks ask `urls`.
fn cases_with(tag: &str, urls: &[&str], n: usize) -> PathBuf {
    let root = scratch(&format!("cases-{tag}"));
    common::clause_index_into(&root);
    let checks: Vec<String> = urls
        .iter()
        .map(|u| {
            format!(
                "{{ agent = \"FooBot\", url = \"{u}\", expect = \"allowed\" }}"
            )
        })
        .collect();
    let mut text = String::new();
    for i in 0..n {
        let id =
            if i == 0 { "misbehave".to_string() } else { format!("m{i}") };
        text += &format!(
            "[[case]]\nid = \"{id}\"\nclauses = [\"R2.2.2-9\"]\nsource = \"regression\"\n\
             robots = \"User-agent: *\\nDisallow: /nothing{i}\\n\"\ncheck = [{}]\n",
            checks.join(", ")
        );
    }
    std::fs::write(root.join("t/misbehave.toml"), text).unwrap();
    root
}

fn matrix(cases: &Path, extra: &[&str]) -> Output {
    matrix_of("fake-crash,fake-hang,fake-garbage", cases, extra)
}

/// The matrix command for `adapters` over `cases`.
fn matrix_command(adapters: &str, cases: &Path, extra: &[&str]) -> Command {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/misbehaving");
    let mut c = Command::new(env!("CARGO_BIN_EXE_robots-conformance"));
    c.env("ROBOTS_CONFORMANCE_ADAPTERS", fixtures)
        .args(["matrix", "--adapters", adapters, "--timeout", "2", "--cases"])
        .arg(cases)
        // What these adapters do when asked is the point: ask every time.
        .arg("--no-cache")
        .args(extra);
    c
}

fn matrix_of(adapters: &str, cases: &Path, extra: &[&str]) -> Output {
    matrix_command(adapters, cases, extra).output().unwrap()
}

fn outcome(report: &serde_json::Value, adapter: &str, check: &str) -> String {
    let row = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == check)
        .unwrap();
    row["results"][adapter]["outcome"]["rfc9309"].as_str().unwrap().to_string()
}

#[test]
fn crashes_hangs_and_garbage_cost_only_their_own_checks() {
    if Command::new("python3").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "python3 is required in CI");
        eprintln!("skipped: python3 not installed");
        return;
    }
    let cases = cases("misbehave");
    let out = scratch("out");
    let started = Instant::now();
    let run = matrix(&cases, &["--out", out.to_str().unwrap()]);
    let took = started.elapsed();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // Generous: a hang costs about two 2 s deadlines plus a kill grace.
    assert!(took < Duration::from_secs(60), "took {took:?}");
    let text = std::fs::read_to_string(out.join("report.json")).unwrap();
    // A crash quotes what the process said last on stderr.
    assert!(text.contains("last words: dying on /crash"));
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let name = |n: usize| format!("t::misbehave::misbehave::{n}");
    for (adapter, bad, word) in [
        ("fake-crash", 2, "crash"),
        ("fake-hang", 4, "timeout"),
        ("fake-garbage", 6, "protocol-error"),
    ] {
        for n in 1..=7 {
            let want = if n == bad { word } else { "pass" };
            assert_eq!(
                outcome(&report, adapter, &name(n)),
                want,
                "{adapter} check {n}"
            );
        }
    }
}

#[test]
fn a_baseline_fails_the_run_only_when_an_outcome_changes() {
    if Command::new("python3").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "python3 is required in CI");
        return;
    }
    let cases = cases("baseline");
    let dir = scratch("baseline");
    let file = dir.join("baseline.json");
    let b = file.to_str().unwrap();
    let write = matrix(&cases, &["--baseline", b, "--update-baseline"]);
    assert_eq!(
        write.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&write.stderr)
    );
    let same = matrix(&cases, &["--baseline", b]);
    assert_eq!(
        same.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&same.stdout)
    );
    // Pretend check 1 used to fail for fake-crash: now it passes.
    let text = std::fs::read_to_string(&file).unwrap();
    let changed = text.replacen(
        "\"t::misbehave::misbehave::1\": \"pass\"",
        "\"t::misbehave::misbehave::1\": \"fail\"",
        1,
    );
    assert_ne!(text, changed);
    std::fs::write(&file, changed).unwrap();
    let run = matrix(&cases, &["--baseline", b]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("unexpected pass"), "{stdout}");
    assert!(stdout.contains("1 failing"), "{stdout}");
}

fn assert_ran(run: &Output) {
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

#[test]
fn megabytes_of_stderr_keep_every_answer_and_the_reports_small() {
    if !have_python() {
        return;
    }
    let urls = ["/ok", "/crash", "/ok2", "/ok3"];
    let cases = cases_with("noisy", &urls, 1);
    let out = scratch("out-noisy");
    let run =
        matrix_of("fake-noisy", &cases, &["--out", out.to_str().unwrap()]);
    assert_ran(&run);
    let text = std::fs::read_to_string(out.join("report.json")).unwrap();
    // The crash quotes the end of stderr, not the megabytes before it.
    assert!(text.contains("last words: dying on /crash"));
    let report = report(&out);
    for (n, want) in [(1, "pass"), (2, "crash"), (3, "pass"), (4, "pass")] {
        let name = format!("t::misbehave::misbehave::{n}");
        assert_eq!(outcome(&report, "fake-noisy", &name), want, "check {n}");
    }
    // Each request wrote 1 MB to stderr and the crash quotes stderr: only
    // a capped tail may reach the reports.
    for file in ["report.json", "matrix.html", "junit.xml"] {
        let size = std::fs::metadata(out.join(file)).unwrap().len();
        assert!(size < 256 * 1024, "{file}: {size} bytes");
    }
}

#[test]
fn non_utf8_stderr_is_no_crash() {
    if !have_python() {
        return;
    }
    let urls = ["/a", "/b", "/c", "/d", "/e"];
    // Several batches: each writes more than a pipe holds after the bad
    // bytes, so a reader that stopped would make the adapter crash.
    let cases = cases_with("binary", &urls, 4);
    let out = scratch("out-binary");
    let run =
        matrix_of("fake-binary", &cases, &["--out", out.to_str().unwrap()]);
    assert_ran(&run);
    let report = report(&out);
    for case in ["misbehave", "m1", "m2", "m3"] {
        for n in 1..=urls.len() {
            let name = format!("t::misbehave::{case}::{n}");
            assert_eq!(
                outcome(&report, "fake-binary", &name),
                "pass",
                "{name}"
            );
        }
    }
}

#[test]
fn a_stdout_flood_is_a_protocol_error_in_bounded_memory() {
    if !have_python() {
        return;
    }
    let urls = ["/ok", "/flood", "/ok2"];
    let cases = cases_with("flood", &urls, 1);
    let out = scratch("out-flood");
    // The harness's peak resident set, read from /proc while it runs.
    let mut inner = matrix_command(
        "fake-flood",
        &cases,
        &["--out", out.to_str().unwrap()],
    );
    inner.stdin(std::process::Stdio::null());
    let (run, peak_kib, _) = common::run_watching_peak(inner);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // The line cap is 16 MiB; without it the flood grows by GBs.
    eprintln!("peak RSS {peak_kib} KiB");
    assert!(peak_kib < 256 * 1024, "peak RSS {peak_kib} KiB");
    let report = report(&out);
    for (n, want) in [(1, "pass"), (2, "protocol-error"), (3, "pass")] {
        let name = format!("t::misbehave::misbehave::{n}");
        assert_eq!(outcome(&report, "fake-flood", &name), want, "check {n}");
    }
}

/// Live (not zombie) processes whose process group is `pgid`.
fn live_in_group(pgid: u32) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat"))
        else {
            continue;
        };
        // pid (comm) state ppid pgrp ...
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 2
            && fields[2] == pgid.to_string()
            && fields[0] != "Z"
        {
            found.push(stat);
        }
    }
    found
}

#[test]
fn a_grandchild_holding_stdout_is_killed_with_its_group() {
    if !have_python() {
        return;
    }
    let urls = ["/ok", "/hang", "/ok2"];
    let cases = cases_with("orphan", &urls, 1);
    let state = scratch("state-orphan");
    let out = scratch("out-orphan");
    let run = matrix_command(
        "fake-orphan",
        &cases,
        &["--out", out.to_str().unwrap()],
    )
    .env("FAKE_STATE_DIR", &state)
    .output()
    .unwrap();
    assert_ran(&run);
    let report = report(&out);
    assert_eq!(
        outcome(&report, "fake-orphan", "t::misbehave::misbehave::2"),
        "timeout"
    );
    let pids = std::fs::read_to_string(state.join("orphan-pids")).unwrap();
    let groups: Vec<u32> = pids
        .lines()
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    // The batch, the hang alone, and a restart after it.
    assert!(groups.len() >= 2, "{pids}");
    for pgid in groups {
        let left = live_in_group(pgid);
        assert!(left.is_empty(), "group {pgid} still runs: {left:?}");
    }
}

#[test]
fn an_adapter_that_never_starts_is_given_up_after_three_starts() {
    if !have_python() {
        return;
    }
    let urls = ["/a", "/b"];
    let cases = cases_with("nohello", &urls, 20);
    let state = scratch("state-nohello");
    let out = scratch("out-nohello");
    let run = matrix_command(
        "fake-nohello",
        &cases,
        &["--out", out.to_str().unwrap()],
    )
    .env("FAKE_STATE_DIR", &state)
    .output()
    .unwrap();
    assert_ran(&run);
    let starts =
        std::fs::read_to_string(state.join("starts-nohello")).unwrap();
    // Twenty batches over two instances side by side, but three failed
    // starts in all (plus one the other instance may have begun before the
    // third failed): then the adapter is unavailable.
    let starts = starts.lines().count();
    assert!((3..=4).contains(&starts), "{starts} starts");
    let report = report(&out);
    for case in ["misbehave", "m1", "m5", "m19"] {
        for n in 1..=urls.len() {
            let name = format!("t::misbehave::{case}::{n}");
            assert_eq!(outcome(&report, "fake-nohello", &name), "crash");
        }
    }
    let text = std::fs::read_to_string(out.join("report.json")).unwrap();
    assert!(text.contains("unavailable for the rest of the run"));
}
