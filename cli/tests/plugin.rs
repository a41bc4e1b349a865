//! A parser's own repository plugs in without touching ours: an adapter
//! in a folder outside the repository (`--adapter-dir DIR`, or its
//! manifest's path wherever an adapter name is taken) is listed, set up
//! into the usual state root, and run by `matrix`, `certify`, `check`
//! and `serve`; and a command-line program plugs in with `--command`
//! (exit 0 allowed, 1 disallowed), with hangs, floods and odd exit
//! statuses reported as what they are, never as a crash.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{
    Check, bin, cases, have_python, outcome, report, run_watching_peak,
    scratch, text,
};

/// A parser's repository with its adapter in `ci/robots/python-mylib/`:
/// a prefix matcher of `Disallow:` lines, over the project's Python
/// helper (`{lib}`), with a set-up step and a ready check on its state.
fn parser_repo(tag: &str) -> PathBuf {
    let repo = scratch(&format!("plugin-repo-{tag}"));
    let dir = repo.join("ci/robots/python-mylib");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("adapter.toml"),
        r#"name = "python-mylib"
language = "python"
package = "mylib"
version = "1.0"
profile = "rfc9309"
note = "lives in the parser's own repository"
setup = [["sh", "-c", "echo installed > '{state}/installed'"]]
ready = ["test", "-f", "{state}/installed"]
run = ["python3", "{dir}/adapter.py", "{lib}"]
requires = ["python3"]
"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("adapter.py"),
        r#"import sys
sys.path.insert(0, sys.argv[1])
import rcproto

def allowed(robots, agent, url):
    for line in robots.decode("utf-8", "replace").splitlines():
        if line.startswith("Disallow: ") and url.startswith(line[10:].strip()):
            return False
    return True

rcproto.serve({"name": "python-mylib", "version": "mylib 1.0",
               "language": "python", "profile": "rfc9309"}, allowed=allowed)
"#,
    )
    .unwrap();
    repo
}

/// The binary with its adapters' state in `state`.
fn rc(state: &Path) -> Command {
    let mut c = bin();
    c.env("ROBOTS_CONFORMANCE_STATE", state);
    c
}

const TWO_CHECKS: [Check; 2] = [
    Check { url: "/yes", expect: "allowed" },
    Check { url: "/no/x", expect: "disallowed" },
];

#[test]
fn an_adapter_outside_the_repo_is_listed_set_up_and_run() {
    if !have_python() {
        return;
    }
    let repo = parser_repo("e2e");
    let adapters = repo.join("ci/robots");
    let manifest = adapters.join("python-mylib/adapter.toml");
    let state = scratch("plugin-state-e2e");
    let cases =
        cases("plugin-e2e", "User-agent: *\\nDisallow: /no\\n", &TWO_CHECKS);

    let list = rc(&state)
        .args(["adapters", "list", "--adapter-dir"])
        .arg(&adapters)
        .output()
        .unwrap();
    assert_eq!(list.status.code(), Some(0), "{}", text(&list.stderr));
    let line = text(&list.stdout)
        .lines()
        .find(|l| l.starts_with("python-mylib "))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("not listed: {}", text(&list.stdout)));
    assert!(line.contains("mylib 1.0"), "{line}");
    assert!(line.contains("adapters setup python-mylib"), "{line}");

    // Set up by its manifest's path; its state goes under the state root.
    let setup = rc(&state)
        .args(["adapters", "setup"])
        .arg(&manifest)
        .output()
        .unwrap();
    assert_eq!(setup.status.code(), Some(0), "{}", text(&setup.stdout));
    assert!(text(&setup.stdout).contains("ready"), "{}", text(&setup.stdout));
    assert!(state.join("python-mylib/installed").is_file());

    let out = scratch("plugin-out-e2e");
    let run = rc(&state)
        .args(["matrix", "--adapters", "python-mylib", "--timeout", "5"])
        .arg("--adapter-dir")
        .arg(&adapters)
        .arg("--cases")
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let report = report(&out);
    for n in 1..=2 {
        let check = format!("t::c::c::{n}");
        assert_eq!(
            outcome(&report, "python-mylib", &check),
            "pass",
            "{check}"
        );
    }

    let cert = scratch("plugin-cert-e2e");
    let run = rc(&state)
        .args(["certify", "--timeout", "5", "--adapter"])
        .arg(&manifest)
        .arg("--cases")
        .arg(&cases)
        .arg("--out")
        .arg(&cert)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let md = std::fs::read_to_string(cert.join("certificate.md")).unwrap();
    assert!(md.contains("python-mylib"), "{md}");

    let robots = cases.join("robots.txt");
    std::fs::write(&robots, "User-agent: *\nDisallow: /no\n").unwrap();
    let run = rc(&state)
        .args(["check", "--agent", "FooBot", "--robots"])
        .arg(&robots)
        .arg("--adapter")
        .arg(&manifest)
        .args(["/no", "/yes"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert_eq!(text(&run.stdout), "disallowed /no\nallowed /yes\n");
}

#[test]
fn serve_and_fingerprint_take_a_manifest_path() {
    if !have_python() {
        return;
    }
    use std::io::Write;
    let repo = parser_repo("serve");
    let manifest = repo.join("ci/robots/python-mylib/adapter.toml");
    let state = scratch("plugin-state-serve");
    let mut child = rc(&state)
        .arg("serve")
        .arg("--adapter")
        .arg(&manifest)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"{\"id\":1,\"op\":\"hello\",\"protocol\":1}\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).contains("python-mylib"),
        "{}",
        text(&out.stdout)
    );

    let run = rc(&state)
        .args(["fingerprint", "--adapter"])
        .arg(&manifest)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let err = text(&run.stderr);
    assert!(err.contains("python-mylib is unavailable"), "{err}");
    let setup = rc(&state)
        .args(["adapters", "setup"])
        .arg(&manifest)
        .output()
        .unwrap();
    assert_eq!(setup.status.code(), Some(0), "{}", text(&setup.stdout));
    let cases =
        cases("plugin-fp", "User-agent: *\\nDisallow: /no\\n", &TWO_CHECKS);
    let run = rc(&state)
        .args(["fingerprint", "--timeout", "5", "--adapter"])
        .arg(&manifest)
        .arg("--cases")
        .arg(&cases)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert!(
        text(&run.stdout).contains("python-mylib"),
        "{}",
        text(&run.stdout)
    );
}

#[test]
fn a_bad_adapter_dir_or_manifest_is_a_usage_error_naming_it() {
    let state = scratch("plugin-state-bad");
    let empty = scratch("plugin-empty");
    let run = rc(&state)
        .args(["adapters", "list", "--adapter-dir"])
        .arg(&empty)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains("no adapter.toml"),
        "{}",
        text(&run.stderr)
    );

    let broken = scratch("plugin-broken");
    std::fs::create_dir_all(broken.join("x")).unwrap();
    std::fs::write(broken.join("x/adapter.toml"), "name = 5\n").unwrap();
    let run = rc(&state)
        .args(["matrix", "--adapters", "x", "--adapter-dir"])
        .arg(&broken)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let err = text(&run.stderr);
    assert!(err.contains("x/adapter.toml") && err.contains("line 1"), "{err}");

    let run = rc(&state)
        .args(["matrix", "--adapters", "./nowhere/adapter.toml"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains("nowhere/adapter.toml"),
        "{}",
        text(&run.stderr)
    );

    let run = rc(&state)
        .args(["matrix", "--adapters", "no-such-adapter"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(text(&run.stderr).contains("known: "), "{}", text(&run.stderr));
}

/// A stand-in for Google's `robots_main` that misbehaves on some URLs:
/// disallowed under `/no`, a hang, a stdout flood, a stderr flood, an
/// odd exit status; otherwise allowed when the body's file is there.
fn misbehaving_command(dir: &Path) -> String {
    let script = dir.join("robots_main");
    std::fs::write(
        &script,
        "#!/bin/sh\n\
         case \"$3\" in\n\
           /no*) exit 1;;\n\
           /hang) sleep 30;;\n\
           /flood) head -c 100000000 /dev/zero; exit 0;;\n\
           /chatty) head -c 100000000 /dev/zero >&2; exit 0;;\n\
           /garbage) echo 'what is this' >&2; exit 7;;\n\
         esac\n\
         grep -q Disallow \"$1\" || exit 3\n\
         exit 0\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .unwrap();
    format!("{} {{robots}} {{agent}} {{url}}", script.display())
}

const COMMAND_CHECKS: [Check; 6] = [
    Check { url: "/yes", expect: "allowed" },
    Check { url: "/no/x", expect: "disallowed" },
    Check { url: "/hang", expect: "allowed" },
    Check { url: "/flood", expect: "allowed" },
    Check { url: "/chatty", expect: "allowed" },
    Check { url: "/garbage", expect: "allowed" },
];

#[test]
fn matrix_runs_a_command_template_in_bounded_memory_without_false_crashes() {
    let dir = scratch("plugin-command");
    let template = misbehaving_command(&dir);
    let cases = cases(
        "plugin-command",
        "User-agent: *\\nDisallow: /no\\n",
        &COMMAND_CHECKS,
    );
    let out = dir.join("out");
    let mut matrix = bin();
    matrix
        .args(["matrix", "--timeout", "2", "--command", &template, "--cases"])
        .arg(&cases)
        .arg("--out")
        .arg(&out);
    let (run, peak_kib, pid) = run_watching_peak(matrix);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let report = report(&out);
    // Without --command-profile the program claims rfc9309.
    let column = &report["adapters"][0];
    assert_eq!(column["name"], "command", "{column}");
    assert_eq!(column["profile"], "rfc9309", "{column}");
    let want = ["pass", "pass", "timeout", "pass", "pass", "error"];
    for (n, want) in want.iter().enumerate() {
        let check = format!("t::c::c::{}", n + 1);
        assert_eq!(outcome(&report, "command", &check), *want, "{check}");
    }
    let json = std::fs::read_to_string(out.join("report.json")).unwrap();
    assert!(json.contains("exit status 7"), "the error says why");
    // 200 MB of output went by; the harness kept next to none of it.
    eprintln!("peak RSS {peak_kib} KiB");
    assert!(peak_kib < 128 * 1024, "peak RSS {peak_kib} KiB");
    // Each run's scratch folder is gone.
    let prefix = format!("robots-conformance-cmd-{pid}-");
    let left: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn certify_takes_a_command_and_a_missing_program_is_a_usage_error() {
    let dir = scratch("plugin-certify-command");
    let template = misbehaving_command(&dir);
    let cases = cases(
        "plugin-certify-command",
        "User-agent: *\\nDisallow: /no\\n",
        &TWO_CHECKS,
    );
    let out = dir.join("cert");
    let run = bin()
        .args(["certify", "--timeout", "5", "--command", &template])
        .args(["--command-profile", "google", "--profile", "claimed"])
        .arg("--cases")
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let cert: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out.join("certificate.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(cert["adapter"], "command", "{cert}");
    // The program's claim is what `--profile claimed` certifies against.
    assert_eq!(cert["profile"], "google", "{cert}");
    assert_eq!(cert["fingerprint"]["claimed"], "google", "{cert}");
    assert!(out.join("certificate.md").is_file());

    for command in ["matrix", "certify"] {
        let run = bin()
            .args([
                command,
                "--command",
                "/nonexistent/robots_main {robots} {agent} {url}",
            ])
            .arg("--out")
            .arg(dir.join(format!("never-{command}")))
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{command}");
        let err = text(&run.stderr);
        assert!(err.contains("/nonexistent/robots_main"), "{command}: {err}");
        let run = bin()
            .args([command, "--command", "true {agent}"])
            .arg("--out")
            .arg(dir.join(format!("never-{command}")))
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{command}");
        assert!(
            text(&run.stderr).contains("needs {url}"),
            "{}",
            text(&run.stderr)
        );
    }
}

#[test]
fn setup_names_each_missing_runtime_and_the_exact_command() {
    let repo = scratch("plugin-runtimes");
    let dir = repo.join("node-needy");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("adapter.toml"),
        "name = \"node-needy\"\nlanguage = \"node\"\npackage = \"needy\"\n\
         version = \"1\"\nprofile = \"rfc9309\"\n\
         setup = [[\"npm\", \"ci\"]]\nrun = [\"node\", \"{dir}/a.js\"]\n\
         requires = [\"node\", \"npm\", \"go\", \"ruby\"]\n",
    )
    .unwrap();
    let state = scratch("plugin-state-runtimes");
    // An empty PATH: every runtime is missing.
    let empty = scratch("plugin-empty-path");
    let run = rc(&state)
        .env("PATH", &empty)
        .args(["adapters", "setup", "--adapter-dir"])
        .arg(&repo)
        .arg("node-needy")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", text(&run.stderr));
    let out = text(&run.stdout);
    for (what, fix) in [
        ("node", "apt-get install -y nodejs npm"),
        ("go", "apt-get install -y golang-go"),
        ("ruby", "apt-get install -y ruby"),
    ] {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{what} ")))
            .unwrap_or_else(|| panic!("{what} not named: {out}"));
        assert!(line.contains(fix) && line.contains("node-needy"), "{line}");
    }
    let npm =
        out.lines().find(|l| l.trim_start().starts_with("npm ")).unwrap();
    assert!(
        !npm.contains("nodejs"),
        "npm alone, never Debian's nodejs: {npm}"
    );
    assert!(
        out.contains("all at once: ") && out.contains("apt-get update && "),
        "{out}"
    );
    assert!(out.contains("skipped: node, npm, go, ruby missing"), "{out}");
    // Nothing was run: the set-up step needs npm.
    assert!(!state.join("node-needy/setup.log").exists());
}
