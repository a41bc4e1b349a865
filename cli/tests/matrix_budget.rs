//! The matrix's budget of busy adapter instances (`--jobs N`), counted by
//! the adapters themselves: three script adapters (`fixtures/busy`, the
//! counting script of `fixtures/counting`) each keep a file in one shared
//! folder while they work on a request and log how many such files they
//! saw, so the most adapters asked at once is a count, never a time. The
//! run's cost table is checked against what they logged too.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::{clause_index_into, have_python};

/// A fresh folder for `name`.
fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("budget-{name}"))
}

/// Twelve cases of three checks each.
fn cases(root: &Path) {
    clause_index_into(root);
    let mut text = String::new();
    for i in 0..12 {
        text += &format!(
            "[[case]]\nid = \"c{i}\"\nclauses = [\"R2.2.2-9\"]\n\
             source = \"regression\"\nrobots = \"User-agent: *\\nDisallow: /{i}\"\n\
             check = [{{ agent = \"FooBot\", url = \"/a\", expect = \"allowed\" }}, \
             {{ agent = \"FooBot\", url = \"/b\", expect = \"allowed\" }}, \
             {{ agent = \"FooBot\", url = \"/c\", expect = \"allowed\" }}]\n"
        );
    }
    std::fs::write(root.join("t/busy.toml"), text).unwrap();
}

/// Runs the three adapters with `--jobs jobs`; the most busy at once that
/// they logged, and report.json.
fn run(tag: &str, jobs: &str) -> (usize, serde_json::Value) {
    let dir = scratch(tag);
    let (case_dir, busy, log, out) = (
        dir.join("cases"),
        dir.join("busy"),
        dir.join("asked.log"),
        dir.join("out"),
    );
    std::fs::create_dir_all(&case_dir).unwrap();
    std::fs::create_dir_all(&busy).unwrap();
    cases(&case_dir);
    let fixtures =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/busy");
    let result = Command::new(env!("CARGO_BIN_EXE_robots-conformance"))
        .env("ROBOTS_CONFORMANCE_ADAPTERS", fixtures)
        .env("COUNT_LOG", &log)
        .env("BUSY_DIR", &busy)
        .args(["matrix", "--no-cache", "--jobs", jobs, "--adapters"])
        .arg("fake-busy-a,fake-busy-b,fake-busy-c")
        .arg("--cases")
        .arg(&case_dir)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        result.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let seen: Vec<usize> = text
        .lines()
        .filter_map(|l| l.strip_prefix("busy "))
        .map(|n| n.parse().unwrap())
        .collect();
    // One request line per case and adapter (its three URLs share it).
    assert_eq!(seen.len(), 3 * 12, "{text}");
    let report: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out.join("report.json")).unwrap(),
    )
    .unwrap();
    let md = std::fs::read_to_string(out.join("matrix.md")).unwrap();
    assert!(md.contains("## Cost per adapter"), "{md}");
    // Every column is explained under the table, `confirmed` included.
    assert!(md.contains("- **confirmed**: live-fetch checks"), "{md}");
    // The page has the same table, one row per ready adapter.
    let html = std::fs::read_to_string(out.join("matrix.html")).unwrap();
    assert!(html.contains("<h2>Cost per adapter</h2>"));
    assert!(html.contains("<dt>confirmed</dt><dd>live-fetch checks"));
    for col in report["adapters"].as_array().unwrap() {
        if col["status"] == "ready" {
            let name = col["name"].as_str().unwrap();
            let row = format!("<tr><td>{name}</td>");
            assert!(html.contains(&row), "no cost row for {name}");
            assert!(md.contains(&format!("| {name} | ")), "{md}");
        }
    }
    (seen.into_iter().max().unwrap(), report)
}

#[test]
fn never_more_adapters_asked_at_once_than_the_budget() {
    if !have_python() {
        return;
    }
    for jobs in [1usize, 2] {
        let (most, report) = run(&format!("jobs{jobs}"), &jobs.to_string());
        assert!(most <= jobs, "{most} adapters busy at once, budget {jobs}");
        assert_eq!(report["busy_limit"].as_u64(), Some(jobs as u64));
        let peak = report["busy_peak"].as_u64().unwrap() as usize;
        assert!(peak >= 1 && peak <= jobs, "peak {peak}");
        for col in report["adapters"].as_array().unwrap() {
            let cost = &col["cost"];
            assert_eq!(cost["asked"], 36, "{cost}");
            assert_eq!(cost["cached"], 0, "{cost}");
            assert_eq!(cost["timeouts"], 0, "{cost}");
            // Each instance started one process, none was restarted.
            assert_eq!(cost["processes"], cost["instances"], "{cost}");
            assert_eq!(col["counts"]["pass"], 36, "{col}");
        }
    }
}

#[test]
fn without_a_limit_every_instance_may_ask() {
    if !have_python() {
        return;
    }
    let (most, report) = run("nolimit", "0");
    assert_eq!(report["busy_limit"].as_u64(), Some(0));
    // Three adapters with up to one instance per core each.
    let instances: u64 = report["adapters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cost"]["instances"].as_u64().unwrap())
        .sum();
    assert!(most as u64 <= instances, "{most} > {instances}");
    assert!(report["busy_peak"].as_u64().unwrap() <= instances);
}
