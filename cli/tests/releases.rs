//! Any release of a parser: `adapters setup NAME@VERSION` installs a
//! release into its own state folder, `NAME@VERSION` runs beside the pin
//! in `matrix` (each with its own answer-cache file), unlisted and
//! uninstallable releases are clear errors naming the version, and the
//! Rust crates linked into the harness answer only for their pin.
//!
//! The parser is a fake one with a `[release]` table whose `versions`
//! command lists 1.0 to 4.0 (no registry is asked): release 1.0 has a
//! bug (a `Disallow:` path matches only itself), 2.0 and later match
//! prefixes, 4.0 is listed but cannot be installed ("yanked").

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{Check, bin, cases, have_python, outcome, report, scratch, text};

/// The fake parser's adapter folder (pin 3.0) under a fresh folder.
pub fn fake_adapter(tag: &str) -> PathBuf {
    let root = scratch(&format!("releases-adapter-{tag}"));
    let dir = root.join("python-mylib");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("adapter.toml"),
        r#"name = "python-mylib"
language = "python"
package = "mylib"
version = "3.0"
profile = "rfc9309"
setup = [["sh", "-c", "mkdir -p \"$1\" && echo 3.0 > \"$1/version\"", "sh", "{state}"]]
ready = ["test", "-f", "{state}/version"]
run = ["python3", "{dir}/adapter.py", "{lib}", "{state}"]
requires = ["python3"]

[release]
package = "mylib"
versions = ["sh", "-c", "printf '1.0\n2.0\n3.0\n4.0\n4.1rc1\n'"]
setup = [["sh", "-c", "test \"$2\" != 4.0 || { echo yanked >&2; exit 1; }; mkdir -p \"$1\" && echo \"$2\" > \"$1/version\"", "sh", "{state}", "{version}"]]
"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("adapter.py"),
        r#"import sys
sys.path.insert(0, sys.argv[1])
import rcproto

release = open(sys.argv[2] + "/version").read().strip()

def allowed(robots, agent, url):
    for line in robots.decode("utf-8", "replace").splitlines():
        if not line.startswith("Disallow: "):
            continue
        path = line[10:].strip()
        if release == "1.0":
            if url == path:
                return False
        elif url.startswith(path):
            return False
    return True

rcproto.serve({"name": "python-mylib", "version": "mylib " + release,
               "language": "python", "profile": "rfc9309"}, allowed=allowed)
"#,
    )
    .unwrap();
    root
}

/// The binary with the fake adapter plugged in, its state in `state`
/// and its answer cache in `cache`.
pub fn rc(adapters: &Path, state: &Path, cache: &Path) -> Command {
    let mut c = bin();
    c.env("ROBOTS_CONFORMANCE_STATE", state)
        .env("ROBOTS_CONFORMANCE_CACHE", cache)
        .arg("--adapter-dir")
        .arg(adapters);
    c
}

/// Two checks: `/no` (every release passes) and `/no/x` (1.0 fails).
pub const CHECKS: [Check; 2] = [
    Check { url: "/no", expect: "disallowed" },
    Check { url: "/no/x", expect: "disallowed" },
];

#[test]
fn a_release_is_set_up_apart_and_runs_beside_the_pin() {
    if !have_python() {
        return;
    }
    let adapters = fake_adapter("e2e");
    let state = scratch("releases-state-e2e");
    let cache = scratch("releases-cache-e2e");
    let rcx = || rc(&adapters, &state, &cache);

    let setup = rcx()
        .args(["adapters", "setup", "python-mylib", "python-mylib@1.0"])
        .output()
        .unwrap();
    let said = text(&setup.stdout);
    assert_eq!(setup.status.code(), Some(0), "{said}{}", text(&setup.stderr));
    assert_eq!(
        std::fs::read_to_string(state.join("python-mylib@1.0/version"))
            .unwrap()
            .trim(),
        "1.0"
    );
    assert_eq!(
        std::fs::read_to_string(state.join("python-mylib/version"))
            .unwrap()
            .trim(),
        "3.0"
    );

    // A release not set up is unavailable with its own fix.
    let out = scratch("releases-out-unready");
    let cases =
        cases("releases-e2e", "User-agent: *\\nDisallow: /no\\n", &CHECKS);
    let unready = rcx()
        .args(["certify", "--adapter", "python-mylib@2.0", "--cases"])
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let err = text(&unready.stderr);
    assert_ne!(unready.status.code(), Some(0), "{err}");
    assert!(err.contains("adapters setup python-mylib@2.0"), "{err}");

    let out = scratch("releases-out-e2e");
    let run = rcx()
        .args(["matrix", "--timeout", "5", "--adapters"])
        .arg("python-mylib@1.0,python-mylib")
        .arg("--cases")
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let report = report(&out);
    assert_eq!(outcome(&report, "python-mylib@1.0", "t::c::c::1"), "pass");
    assert_eq!(outcome(&report, "python-mylib@1.0", "t::c::c::2"), "fail");
    assert_eq!(outcome(&report, "python-mylib", "t::c::c::1"), "pass");
    assert_eq!(outcome(&report, "python-mylib", "t::c::c::2"), "pass");
    let versions: Vec<String> = report["adapters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| format!("{} {}", a["name"], a["version"]))
        .collect();
    assert!(
        versions.contains(&"\"python-mylib@1.0\" \"mylib 1.0\"".to_string()),
        "{versions:?}"
    );

    // Each release has its own cache file, keyed by its version.
    let one: serde_json::Value = serde_json::from_slice(
        &std::fs::read(cache.join("python-mylib_1.0.json")).unwrap(),
    )
    .unwrap();
    let pin: serde_json::Value = serde_json::from_slice(
        &std::fs::read(cache.join("python-mylib.json")).unwrap(),
    )
    .unwrap();
    let key =
        |v: &serde_json::Value| v["adapter"].as_str().unwrap().to_string();
    assert!(
        key(&one).starts_with("python-mylib@1.0 mylib 1.0 "),
        "{}",
        key(&one)
    );
    assert!(key(&pin).starts_with("python-mylib mylib 3.0 "), "{}", key(&pin));
    // `@PIN` is the pinned adapter itself.
    let again = rcx()
        .args(["adapters", "setup", "python-mylib@3.0"])
        .output()
        .unwrap();
    assert!(
        text(&again.stdout).contains("[1/1 python-mylib] ready"),
        "{}",
        text(&again.stdout)
    );
}

#[test]
fn unlisted_uninstallable_and_pinned_only_releases_are_clear_errors() {
    if !have_python() {
        return;
    }
    let adapters = fake_adapter("errors");
    let state = scratch("releases-state-errors");
    let cache = scratch("releases-cache-errors");
    let rcx = || rc(&adapters, &state, &cache);

    let unlisted = rcx()
        .args(["adapters", "setup", "python-mylib@2.5"])
        .output()
        .unwrap();
    let said = text(&unlisted.stdout);
    assert_eq!(unlisted.status.code(), Some(1), "{said}");
    assert!(said.contains("mylib 2.5 is not a released version"), "{said}");
    assert!(said.contains("1.0, 2.0, 3.0, 4.0"), "{said}");
    assert!(!state.join("python-mylib@2.5").exists());

    let yanked = rcx()
        .args(["adapters", "setup", "python-mylib@4.0"])
        .output()
        .unwrap();
    let said = text(&yanked.stdout);
    assert_eq!(yanked.status.code(), Some(1), "{said}");
    assert!(said.contains("4.0 is not installable here"), "{said}");
    let log =
        std::fs::read_to_string(state.join("python-mylib@4.0/setup.log"))
            .unwrap();
    assert!(log.contains("yanked"), "{log}");

    let bad = rcx()
        .args(["adapters", "setup", "python-mylib@1.0;rm"])
        .output()
        .unwrap();
    let err = text(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert!(err.contains("the version `1.0;rm`"), "{err}");

    // A Rust crate linked into the harness: its pin only, said so.
    for args in [
        &["adapters", "setup", "rust-robotxt@0.1.0"][..],
        &["fingerprint", "--adapter", "rust-robotxt@0.1.0"][..],
    ] {
        let out = rcx().args(args).output().unwrap();
        let err = text(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{err}");
        assert!(
            err.contains("rust-robotxt runs only its pinned release, 0.7.0")
                && err.contains("`rust-robotxt@0.1.0` is not available"),
            "{err}"
        );
    }
    let check = rcx()
        .args(["check", "--robots", "-", "--agent", "FooBot"])
        .args(["--adapter", "rust-robotxt@0.7.0", "/x"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    assert!(
        text(&check.stdout).contains("allowed"),
        "{}",
        text(&check.stdout)
    );
}

#[test]
fn history_runs_each_release_and_lists_what_changed_between_them() {
    if !have_python() {
        return;
    }
    let adapters = fake_adapter("history");
    let state = scratch("releases-state-history");
    let cache = scratch("releases-cache-history");
    let cases =
        cases("releases-history", "User-agent: *\\nDisallow: /no\\n", &CHECKS);
    let out = scratch("releases-out-history");
    // 1.0 and 2.0 are set up by `history` itself; 2.5 is not released
    // and 4.0 does not install: both reported, neither fatal.
    let run = rc(&adapters, &state, &cache)
        .args(["history", "--adapter", "python-mylib", "--timeout", "5"])
        .args(["--versions", "2.0,1.0,2.5,4.0,3.0", "--cases"])
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let said = text(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{said}{}", text(&run.stderr));
    assert!(
        said.contains("1.0 → 2.0: 1 fixed, 0 regressed, 0 other"),
        "{said}"
    );
    assert!(
        said.contains("2.0 → 3.0: 0 fixed, 0 regressed, 0 other"),
        "{said}"
    );

    let h: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out.join("history.json")).unwrap(),
    )
    .unwrap();
    let releases = h["releases"].as_array().unwrap();
    let versions: Vec<&str> =
        releases.iter().map(|r| r["version"].as_str().unwrap()).collect();
    assert_eq!(versions, ["1.0", "2.0", "2.5", "3.0", "4.0"]);
    let status =
        |i: usize| releases[i]["status"].as_str().unwrap().to_string();
    assert_eq!(status(0), "ready");
    assert!(
        status(2).contains("mylib 2.5 is not a released version"),
        "{}",
        status(2)
    );
    assert!(
        status(4).contains("4.0 is not installable here"),
        "{}",
        status(4)
    );
    assert_eq!(releases[0]["reported"], "mylib 1.0");
    assert_eq!(releases[0]["levels"]["DEF"], serde_json::json!([1, 2]));
    assert_eq!(releases[3]["levels"]["DEF"], serde_json::json!([2, 2]));
    assert!(
        releases[3]["fingerprint"].as_str().unwrap().starts_with("≈ rfc9309"),
        "{}",
        releases[3]["fingerprint"]
    );

    let changes = h["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{changes:?}");
    let c = &changes[0];
    assert_eq!(c["from"], "1.0");
    assert_eq!(c["to"], "2.0");
    assert_eq!(c["movement"], "fixed");
    assert_eq!(c["check"], "t::c::c::2");
    assert_eq!(c["case"], "t::c::c");
    assert_eq!(c["clauses"], serde_json::json!(["R2.2.2-9"]));
    assert_eq!(c["before"]["answer"], "allowed");
    assert_eq!(c["after"]["answer"], "disallowed");

    let md = std::fs::read_to_string(out.join("history.md")).unwrap();
    assert!(md.contains("| fixed | `t::c::c::2` | DEF | R2.2.2-9 |"), "{md}");
    let html = std::fs::read_to_string(out.join("history.html")).unwrap();
    assert!(html.contains("<svg") && html.contains("<polyline"), "{html}");
    assert!(html.contains("4.0 (n/a)"), "{html}");
    // Written whole: no temporary file is left beside them.
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");

    // last:N takes the newest final releases the listing gives (4.1rc1
    // is not final).
    let out = scratch("releases-out-history-last");
    let run = rc(&adapters, &state, &cache)
        .args(["history", "--adapter", "python-mylib", "--timeout", "5"])
        .args(["--versions", "last:2", "--cases"])
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let said = text(&run.stdout);
    assert!(said.contains("python-mylib: releases 3.0, 4.0"), "{said}");
}
