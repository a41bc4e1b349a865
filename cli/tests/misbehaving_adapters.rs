//! A crashing, a hanging (SIGTERM-ignoring) and a garbage-printing
//! adapter: each costs only its own checks, the run completes and reports
//! them; and a baseline fails a run exactly when an outcome changed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn scratch(name: &str) -> PathBuf {
    let d =
        std::env::temp_dir().join(format!("rc-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A cases folder with one case whose URLs trigger each misbehaviour.
/// Each test gets its own folder (`tag`): tests run in parallel.
fn cases(tag: &str) -> PathBuf {
    let root = scratch(&format!("cases-{tag}"));
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        here.join("../spec-cases/clauses.toml"),
        root.join("clauses.toml"),
    )
    .unwrap();
    std::fs::create_dir_all(root.join("t")).unwrap();
    let urls = ["/ok", "/crash", "/ok2", "/hang", "/ok3", "/junk", "/ok4"];
    let checks: Vec<String> = urls
        .iter()
        .map(|u| {
            format!(
                "{{ agent = \"FooBot\", url = \"{u}\", expect = \"allowed\" }}"
            )
        })
        .collect();
    let case = format!(
        "[[case]]\nid = \"misbehave\"\nclauses = [\"R2.2.2-9\"]\nsource = \"regression\"\n\
         robots = \"User-agent: *\\nDisallow: /nothing\\n\"\ncheck = [{}]\n",
        checks.join(", ")
    );
    std::fs::write(root.join("t/misbehave.toml"), case).unwrap();
    root
}

fn matrix(cases: &Path, extra: &[&str]) -> Output {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/misbehaving");
    Command::new(env!("CARGO_BIN_EXE_robots-conformance"))
        .env("ROBOTS_CONFORMANCE_ADAPTERS", fixtures)
        .args([
            "matrix",
            "--adapters",
            "fake-crash,fake-hang,fake-garbage",
            "--timeout",
            "2",
            "--cases",
        ])
        .arg(cases)
        .args(extra)
        .output()
        .unwrap()
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
    let report: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out.join("report.json")).unwrap(),
    )
    .unwrap();
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
