//! Outputs lose nothing: reports are written whole or not at all, a busy
//! or unwritable `--out` is refused before any adapter runs, baselines
//! merge instead of shrinking and say what they lack, a bad baseline is
//! reported before the run, and `--timeout` is validated.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{bin, case_files, scratch, text};

/// A cases folder with the project's clause index and two files, `t/a`
/// and `t/b`, of one case with two checks each.
fn cases(tag: &str) -> PathBuf {
    let case = |stem: &str| {
        format!(
            "[[case]]\nid = \"{stem}\"\nclauses = [\"R2.2.2-9\"]\nsource = \"regression\"\n\
             robots = \"User-agent: *\\nDisallow: /no\\n\"\n\
             check = [{{ agent = \"FooBot\", url = \"/yes\", expect = \"allowed\" }}, \
             {{ agent = \"FooBot\", url = \"/no\", expect = \"disallowed\" }}]\n"
        )
    };
    let (a, b) = (case("a"), case("b"));
    case_files(
        &format!("outputs-{tag}"),
        &[("a", a.as_bytes()), ("b", b.as_bytes())],
    )
}

const TWO: &str = "rust-robotxt,rust-robots_txt";

fn matrix(cases: &Path, adapters: &str, extra: &[&str]) -> Output {
    bin()
        .args(["matrix", "--threads", "--adapters", adapters, "--cases"])
        .arg(cases)
        .args(extra)
        .output()
        .unwrap()
}

fn baseline(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// (adapters, checks of each) in a baseline file.
fn shape(path: &Path) -> Vec<(String, usize)> {
    baseline(path)["adapters"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(a, checks)| (a.clone(), checks.as_object().unwrap().len()))
        .collect()
}

#[test]
fn concurrent_runs_into_one_out_never_leave_an_invalid_report() {
    let cases = cases("concurrent");
    let out = scratch("concurrent-out");
    for _ in 0..3 {
        let spawn = || {
            bin()
                .args(["matrix", "--threads", "--adapters", TWO, "--cases"])
                .arg(&cases)
                .arg("--out")
                .arg(&out)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (first, second) = (spawn(), spawn());
        let runs = [
            first.wait_with_output().unwrap(),
            second.wait_with_output().unwrap(),
        ];
        let mut finished = 0;
        for r in &runs {
            match r.status.code() {
                Some(0) => finished += 1,
                // Refused, naming the folder, before running anything.
                Some(2) => {
                    let err = text(&r.stderr);
                    assert!(err.contains("in use by another run"), "{err}");
                    assert!(err.contains(out.to_str().unwrap()), "{err}");
                    assert!(r.stdout.is_empty(), "{}", text(&r.stdout));
                }
                other => panic!("{other:?}: {}", text(&r.stderr)),
            }
        }
        assert!(finished >= 1);
        let report: serde_json::Value = serde_json::from_slice(
            &std::fs::read(out.join("report.json")).unwrap(),
        )
        .expect("report.json is whole");
        assert_eq!(report["checks"].as_array().unwrap().len(), 4);
        let md = std::fs::read_to_string(out.join("matrix.md")).unwrap();
        assert!(md.starts_with("# robots-conformance matrix"));
    }
    // Only the reports: no temporary file left over, and the lock file
    // removed when the run ended.
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["junit.xml", "matrix.html", "matrix.md", "report.json"]
    );
}

#[test]
fn an_unwritable_out_fails_before_any_adapter_runs() {
    let cases = cases("unwritable");
    let dir = scratch("unwritable");
    let file = dir.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let out = file.join("reports");
    let run = matrix(&cases, TWO, &["--out", out.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2), "{}", text(&run.stderr));
    assert!(text(&run.stderr).contains("a-file"), "{}", text(&run.stderr));
    // The summary table is printed after the run: there was none.
    assert!(run.stdout.is_empty(), "{}", text(&run.stdout));
    let cert = bin()
        .args(["certify", "--adapter", "rust-robotxt", "--cases"])
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(cert.status.code(), Some(2), "{}", text(&cert.stderr));
    assert!(text(&cert.stderr).contains("a-file"), "{}", text(&cert.stderr));
}

#[test]
fn update_baseline_merges_and_replace_baseline_replaces() {
    let cases = cases("merge");
    let dir = scratch("merge");
    let file = dir.join("baseline.json");
    let b = file.to_str().unwrap();
    let ok = |o: Output| {
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        text(&o.stdout)
    };
    ok(matrix(&cases, TWO, &["--baseline", b, "--update-baseline"]));
    let full = vec![
        ("rust-robots_txt".to_string(), 4),
        ("rust-robotxt".to_string(), 4),
    ];
    assert_eq!(shape(&file), full);
    // A filtered run of one adapter keeps everything else.
    let said = ok(matrix(
        &cases,
        "rust-robotxt",
        &["t::a", "--baseline", b, "--update-baseline"],
    ));
    assert!(said.contains("others kept"), "{said}");
    assert_eq!(shape(&file), full);
    // Replacing is explicit.
    ok(matrix(
        &cases,
        "rust-robotxt",
        &["t::a", "--baseline", b, "--replace-baseline"],
    ));
    assert_eq!(shape(&file), [("rust-robotxt".to_string(), 2)]);
    // And a later merge adds what was dropped back.
    ok(matrix(&cases, TWO, &["--baseline", b, "--update-baseline"]));
    assert_eq!(shape(&file), full);
}

#[test]
fn a_baseline_that_lacks_an_adapter_or_checks_says_so() {
    let cases = cases("lacks");
    let dir = scratch("lacks");
    let file = dir.join("baseline.json");
    let b = file.to_str().unwrap();
    let w = matrix(
        &cases,
        "rust-robotxt",
        &["t::a", "--baseline", b, "--replace-baseline"],
    );
    assert_eq!(w.status.code(), Some(0), "{}", text(&w.stderr));
    let run = matrix(&cases, TWO, &["--baseline", b]);
    let out = text(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{out}");
    assert!(
        out.contains("adapter rust-robots_txt: not in baseline (4 checks"),
        "{out}"
    );
    assert!(out.contains("2 check(s) not in baseline"), "{out}");
    assert!(!out.contains("baseline: 0 change(s)"), "{out}");
    // A filtered comparison does not call the checks it left out removed.
    let w = matrix(&cases, TWO, &["--baseline", b, "--replace-baseline"]);
    assert_eq!(w.status.code(), Some(0), "{}", text(&w.stderr));
    let run = matrix(&cases, TWO, &["t::a", "--baseline", b]);
    let out = text(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{out}");
    assert!(!out.contains("removed"), "{out}");
    assert!(
        out.contains("4 baseline check(s) outside this run's filter"),
        "{out}"
    );
    assert!(out.contains("baseline: 0 change(s), 0 failing"), "{out}");
}

#[test]
fn a_bad_or_missing_baseline_is_reported_before_the_run() {
    let cases = cases("bad");
    let dir = scratch("bad");
    let file = dir.join("baseline.json");
    let b = file.to_str().unwrap();
    // Missing, for a comparison.
    let run = matrix(&cases, TWO, &["--baseline", b]);
    assert_eq!(run.status.code(), Some(2));
    assert!(text(&run.stderr).contains(b), "{}", text(&run.stderr));
    assert!(run.stdout.is_empty(), "{}", text(&run.stdout));
    // Not a baseline: comparing and merging both refuse, before running,
    // and the file is left as it was.
    std::fs::write(&file, "{\"profile\": \"rfc9309\", \"adap").unwrap();
    for extra in [&[][..], &["--update-baseline"][..]] {
        let mut args = vec!["--baseline", b];
        args.extend_from_slice(extra);
        let run = matrix(&cases, TWO, &args);
        assert_eq!(run.status.code(), Some(2), "{extra:?}");
        assert!(text(&run.stderr).contains(b), "{}", text(&run.stderr));
        assert!(run.stdout.is_empty(), "{}", text(&run.stdout));
    }
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "{\"profile\": \"rfc9309\", \"adap"
    );
    // Another profile: refused before the run too.
    let w = matrix(&cases, TWO, &["--baseline", b, "--replace-baseline"]);
    assert_eq!(w.status.code(), Some(0), "{}", text(&w.stderr));
    let run = matrix(&cases, TWO, &["--profile", "google", "--baseline", b]);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains("profile rfc9309"),
        "{}",
        text(&run.stderr)
    );
    assert!(run.stdout.is_empty(), "{}", text(&run.stdout));
}

#[test]
fn a_bad_timeout_is_a_usage_error_not_a_panic() {
    let cases = cases("timeout");
    for t in ["-1", "0", "nan", "inf", "1e30", "soon"] {
        let run = matrix(&cases, TWO, &[&format!("--timeout={t}")]);
        assert_eq!(run.status.code(), Some(2), "--timeout={t}");
        let err = text(&run.stderr);
        assert!(err.contains("--timeout"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let run = matrix(&cases, TWO, &["--timeout=0.5"]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
}

#[test]
fn validate_reads_a_diff_out_folder_with_the_projects_clause_index() {
    let dir = scratch("validate-findings");
    std::fs::create_dir_all(dir.join("findings")).unwrap();
    std::fs::write(dir.join("summary.json"), "{}").unwrap();
    std::fs::write(
        dir.join("findings/fuzz-x.toml"),
        "# Finding\n[[case]]\nid = \"fuzz-x\"\nclauses = [\"R2.2.2-9\"]\n\
         source = \"fuzz-finding\"\nrobots = \"User-agent: *\\nDisallow: /\\n\"\n\
         check = [{ agent = \"A\", url = \"/x\", expect = \"disallowed\" }]\n",
    )
    .unwrap();
    let run = bin().arg("validate").arg(&dir).output().unwrap();
    let out = text(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{out}");
    assert!(out.contains("has no clauses.toml: using"), "{out}");
    assert!(out.contains("1 cases, 1 checks: ok"), "{out}");
    // An unknown clause is still caught against that index.
    std::fs::write(
        dir.join("findings/fuzz-y.toml"),
        "[[case]]\nid = \"fuzz-y\"\nclauses = [\"R99-nope\"]\nsource = \"fuzz-finding\"\n\
         robots = \"\"\ncheck = [{ agent = \"A\", url = \"/x\", expect = \"allowed\" }]\n",
    )
    .unwrap();
    let run = bin().arg("validate").arg(&dir).output().unwrap();
    let out = text(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{out}");
    assert!(out.contains("R99-nope"), "{out}");
}

#[test]
fn diff_refuses_a_corrupt_state_file_and_an_unusable_time() {
    let dir = scratch("diff-state");
    std::fs::write(dir.join("state.json"), "{\"seed\": 9309, \"ne").unwrap();
    let run = bin()
        .args(["diff", "--adapters", "rust-robotxt", "--cases", "5", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", text(&run.stderr));
    assert!(text(&run.stderr).contains("state.json"), "{}", text(&run.stderr));
    assert!(!dir.join("summary.json").exists());
    for t in ["99999999999999999999s", "0s", "-1s", "nan", "inf"] {
        let run = bin()
            .args(["diff", "--adapters", "rust-robotxt", "--time", t])
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "--time {t}");
        assert!(
            !text(&run.stderr).contains("panicked"),
            "{}",
            text(&run.stderr)
        );
    }
    // A good state file resumes.
    std::fs::write(dir.join("state.json"), "{\"seed\": 9309, \"next\": 3}")
        .unwrap();
    let run = bin()
        .args(["diff", "--adapters", "rust-robotxt", "--cases", "2", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert!(text(&run.stderr).contains("resuming seed 9309 at check 3"));
    assert!(dir.join("summary.json").exists());
}

#[test]
fn check_asks_a_command_template() {
    let dir = scratch("command");
    let file = dir.join("robots.txt");
    std::fs::write(&file, "User-agent: *\nDisallow: /private\n").unwrap();
    // A stand-in for Google's robots_main: exit 1 (disallowed) when the
    // body disallows a prefix of the URL, else 0.
    let template = "sh -c 'p=$(sed -n \"s/^Disallow: //p\" \"$0\"); \
                    case \"$2\" in \"$p\"*) exit 1;; esac; exit 0' \
                    {robots} {agent} {url}";
    let run = bin()
        .args(["check", "--robots"])
        .arg(&file)
        .args([
            "--agent",
            "FooBot",
            "--command",
            template,
            "/private/x",
            "/public",
        ])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert_eq!(text(&run.stdout), "disallowed /private/x\nallowed /public\n");
    let run = bin()
        .args(["check", "--robots"])
        .arg(&file)
        .args(["--agent", "FooBot", "--command", "true {agent}", "/x"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains("needs {url}"),
        "{}",
        text(&run.stderr)
    );
}

#[test]
fn concurrent_baseline_merges_keep_both_runs() {
    let cases = cases("merge-race");
    let dir = scratch("merge-race");
    let file = dir.join("baseline.json");
    for _ in 0..3 {
        let _ = std::fs::remove_file(&file);
        let spawn = |adapter: &str| {
            bin()
                .args([
                    "matrix",
                    "--threads",
                    "--adapters",
                    adapter,
                    "--cases",
                ])
                .arg(&cases)
                .arg("--baseline")
                .arg(&file)
                .arg("--update-baseline")
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (a, b) = (spawn("rust-robotxt"), spawn("rust-robots_txt"));
        for r in [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()]
        {
            assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
        }
        assert_eq!(
            shape(&file),
            [
                ("rust-robots_txt".to_string(), 4),
                ("rust-robotxt".to_string(), 4)
            ]
        );
    }
}
