//! `lint FILE`: a first-match trap names the parsers that read rules in
//! file order and the reordering that removes it; the reordered file and
//! a plain one are portable (exit 0); `--json` has the documented fields;
//! the mistakes every reading agrees on are flagged with no parser asked;
//! an adapter that fails costs only its own checks and is named; a bad
//! path is an error naming the file.
//!
//! The tests that must always run ask the in-process Rust crates
//! (`rust-robots_txt` reads rules in file order: bugs/rust-robots_txt.toml);
//! the one asking `python-urllib` skips with a message when that adapter
//! is not set up.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{bin, scratch, text};

/// The trap: first-match readers decide `/public` by `Disallow: /`.
const TRAP: &str = "User-agent: *\nDisallow: /\nAllow: /public\n";
/// The trap rewritten as lint advises: longest rule first.
const TRAP_REWRITTEN: &str = "User-agent: *\nAllow: /public\nDisallow: /\n";
const CLEAN: &str = "User-agent: *\nDisallow: /private/\nDisallow: /tmp/\n\n\
                     Sitemap: https://example.com/sitemap.xml\n";

fn file(tag: &str, body: &[u8]) -> PathBuf {
    let dir = scratch(&format!("lint-{tag}"));
    let f = dir.join("robots.txt");
    std::fs::write(&f, body).unwrap();
    f
}

fn lint(path: &Path, args: &[&str]) -> Output {
    bin().arg("lint").arg(path).args(args).output().unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {}\n{}", text(&out.stdout), text(&out.stderr))
    })
}

fn finding<'a>(
    doc: &'a serde_json::Value,
    switch: &str,
) -> &'a serde_json::Value {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["switch"] == switch)
        .unwrap_or_else(|| panic!("no finding {switch} in {doc:#}"))
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// The in-process crates that read the trap as the oracle does, and the
/// one that reads rules in file order.
const RUST: &str = "rust-robots_txt,rust-robotstxt,rust-texting_robots";

#[test]
fn a_first_match_trap_names_the_first_match_parsers_and_the_rewrite() {
    let f = file("trap", TRAP.as_bytes());
    let out = lint(&f, &["--adapters", RUST, "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let doc = json(&out);
    assert_eq!(doc["portable"], false);
    assert_eq!(doc["findings"].as_array().unwrap().len(), 1, "{doc:#}");
    let fd = finding(&doc, "precedence=first-match");
    assert_eq!(strings(&fd["parsers"]), ["rust-robots_txt"]);
    assert_eq!(fd["axis"], "precedence");
    assert!(strings(&fd["clauses"]).contains(&"R2.2.2-5".to_string()));
    // Every default agent falls to the `*` group and reads /public so.
    assert_eq!(fd["disagreements"], doc["agents"].as_array().unwrap().len());
    let e = &fd["example"];
    assert_eq!(e["parser"], "rust-robots_txt");
    assert_eq!(e["url"], "/public");
    assert_eq!(e["oracle"], "allowed");
    assert_eq!(e["theirs"], "disallowed");
    assert_eq!(e["line"], 3);
    let rw = &fd["rewrite"];
    assert_eq!(rw["lines"], serde_json::json!([2, 3]));
    assert_eq!(strings(&rw["before"]), ["Disallow: /", "Allow: /public"]);
    assert_eq!(strings(&rw["after"]), ["Allow: /public", "Disallow: /"]);

    // The terminal report says the same.
    let out = lint(&f, &["--adapters", RUST]);
    assert_eq!(out.status.code(), Some(1));
    let t = text(&out.stdout);
    assert!(t.contains("NOT PORTABLE"), "{t}");
    assert!(t.contains("precedence=first-match"), "{t}");
    assert!(t.contains("parsers: rust-robots_txt"), "{t}");
    assert!(t.contains("example: Googlebot /public: oracle allowed (line 3), rust-robots_txt disallowed"), "{t}");
    assert!(t.contains("     - Disallow: /\n     - Allow: /public\n     + Allow: /public\n     + Disallow: /\n"), "{t}");
}

#[test]
fn the_rewritten_trap_is_portable_and_exits_0() {
    let f = file("rewritten", TRAP_REWRITTEN.as_bytes());
    let out = lint(&f, &["--adapters", RUST, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let doc = json(&out);
    assert_eq!(doc["portable"], true);
    assert!(doc["findings"].as_array().unwrap().is_empty());
}

#[test]
fn python_urllib_reads_the_trap_in_file_order() {
    let list = bin().args(["adapters", "list"]).output().unwrap();
    let ready = text(&list.stdout).lines().any(|l| {
        l.split_whitespace().next() == Some("python-urllib")
            && l.trim_end().ends_with("ready")
    });
    if !ready {
        eprintln!(
            "skipped: python-urllib is not set up (robots-conformance adapters setup python-urllib)"
        );
        return;
    }
    let f = file("urllib", TRAP.as_bytes());
    let out =
        lint(&f, &["--adapters", "python-urllib,rust-robotstxt", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let doc = json(&out);
    let f = finding(&doc, "precedence=first-match");
    assert_eq!(strings(&f["parsers"]), ["python-urllib"]);
    assert_eq!(
        strings(&f["rewrite"]["after"]),
        ["Allow: /public", "Disallow: /"]
    );
    // The rewrite is portable for it too.
    let g = file("urllib-rewritten", TRAP_REWRITTEN.as_bytes());
    let out = lint(&g, &["--adapters", "python-urllib", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn a_clean_file_exits_0_with_every_check_compared() {
    let f = file("clean", CLEAN.as_bytes());
    let out = lint(&f, &["--adapters", "rust", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let doc = json(&out);
    assert_eq!(doc["portable"], true);
    assert!(doc["mistakes"].as_array().unwrap().is_empty());
    let probes = strings(&doc["probes"]);
    assert_eq!(probes, ["/", "/private/", "/tmp/"]);
    let agents = doc["agents"].as_array().unwrap().len();
    let parsers = doc["parsers"].as_array().unwrap();
    assert_eq!(parsers.len(), 6, "{doc:#}");
    for p in parsers {
        assert_eq!(p["compared"], agents * probes.len(), "{p}");
        assert_eq!(p["departing"], 0, "{p}");
        assert_eq!(p["unanswered"], 0, "{p}");
        assert!(p["failure"].is_null(), "{p}");
    }
    let out = lint(&f, &["--adapters", "rust"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).contains("portable: every parser that answered (6)")
    );
}

/// A second group after a rule: rust-robotstxt-rs adds the later group's
/// rules to the earlier group (bugs/rust-robotstxt-rs.toml), which no
/// switch of the oracle explains.
#[test]
fn a_parser_s_own_bug_is_unexplained_and_points_at_its_register() {
    let f = file("second-group", b"User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n");
    let out = lint(&f, &["--adapters", "rust", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc = json(&out);
    let fd = finding(&doc, "unexplained");
    assert_eq!(strings(&fd["parsers"]), ["rust-robotstxt-rs"]);
    assert_eq!(fd["example"]["url"], "/");
    assert_eq!(fd["example"]["oracle"], "allowed");
    assert!(
        fd["why"].as_str().unwrap().contains("bugs/rust-robotstxt-rs.toml")
    );
    assert_eq!(doc["findings"].as_array().unwrap().len(), 1, "{doc:#}");
}

#[test]
fn json_has_the_documented_fields() {
    let f = file("fields", TRAP.as_bytes());
    let doc = json(&lint(&f, &["--adapters", "rust-robots_txt", "--json"]));
    assert_eq!(doc["format"], "robots-conformance-lint/1");
    for key in [
        "file", "bytes", "profile", "portable", "agents", "probes", "parsers",
        "findings", "mistakes",
    ] {
        assert!(doc.get(key).is_some(), "no {key} in {doc:#}");
    }
    assert_eq!(doc["bytes"], TRAP.len());
    assert_eq!(doc["profile"], "rfc9309");
    // The default agents, then the ones the file names (none here).
    assert_eq!(doc["agents"][0], "Googlebot");
    let f0 = &doc["findings"][0];
    for key in [
        "switch",
        "axis",
        "clauses",
        "parsers",
        "disagreements",
        "example",
        "why",
        "rewrite",
    ] {
        assert!(f0.get(key).is_some(), "no {key} in {f0:#}");
    }
    for key in ["parser", "agent", "url", "oracle", "theirs", "line"] {
        assert!(f0["example"].get(key).is_some(), "no example.{key}");
    }
    for key in ["advice", "lines", "before", "after"] {
        assert!(f0["rewrite"].get(key).is_some(), "no rewrite.{key}");
    }
    let p0 = &doc["parsers"][0];
    for key in ["name", "compared", "departing", "unanswered", "failure"] {
        assert!(p0.get(key).is_some(), "no parsers[].{key}");
    }
}

#[test]
fn agents_the_file_names_are_asked_too() {
    let f = file("named", b"User-agent: ExampleBot\nDisallow: /x\n");
    let doc = json(&lint(&f, &["--adapters", "none", "--json"]));
    assert!(strings(&doc["agents"]).contains(&"ExampleBot".to_string()));
    let f = file("only", b"User-agent: *\nDisallow: /x\n");
    let doc =
        json(&lint(&f, &["--adapters", "none", "--agents", "A,B", "--json"]));
    assert_eq!(strings(&doc["agents"]), ["A", "B"]);
}

fn mistakes(doc: &serde_json::Value) -> Vec<(String, Option<u64>)> {
    doc["mistakes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["kind"].as_str().unwrap().to_string(), m["line"].as_u64()))
        .collect()
}

#[test]
fn mistakes_are_flagged_with_no_parser_asked() {
    let body = "Disallow: /early\nUser-agent: *\nDisallow: private\n\
                Dissallow: /typo\nCrawl-dealy: 5\nDisallow /nocolon\n";
    let f = file("mistakes", body.as_bytes());
    let out = lint(&f, &["--adapters", "none", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc = json(&out);
    assert!(doc["parsers"].as_array().unwrap().is_empty());
    let m = mistakes(&doc);
    for want in [
        ("rule-before-user-agent", 1),
        ("path-without-slash", 3),
        ("typo", 4),
        ("typo", 5),
        ("no-colon", 6),
    ] {
        assert!(
            m.contains(&(want.0.to_string(), Some(want.1))),
            "{want:?} not in {m:?}"
        );
    }
    let fix = doc["mistakes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["kind"] == "path-without-slash")
        .unwrap()["fix"]
        .clone();
    assert_eq!(fix, "write `Disallow: /private`");
    let t = text(&lint(&f, &["--adapters", "none"]).stdout);
    assert!(t.contains("Mistakes (every reading agrees):"), "{t}");
    assert!(t.contains("line 4: unknown directive `Dissallow`"), "{t}");
    assert!(t.contains("fix: spell it `Disallow`"), "{t}");
}

#[test]
fn an_html_page_is_flagged() {
    let f = file("html", b"<!DOCTYPE html>\n<html><head><title>Not found</title></head></html>\n");
    let out = lint(&f, &["--adapters", "none", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    // Only that: its markup lines are not flagged one by one (no colon, ...).
    assert_eq!(mistakes(&json(&out)), [("html".to_string(), None)]);
}

#[test]
fn a_file_over_500_kib_says_what_is_cut() {
    let mut body = b"User-agent: *\n".to_vec();
    let mut n = 0;
    while body.len() <= 500 * 1024 + 200 {
        body.extend_from_slice(format!("Disallow: /p/{n:08}\n").as_bytes());
        n += 1;
    }
    let f = file("big", &body);
    let out = lint(&f, &["--adapters", "none", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc = json(&out);
    let m = doc["mistakes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["kind"] == "over-500-kib")
        .unwrap()
        .clone();
    // Each rule line is 22 bytes: the line crossing byte 512,000.
    let line = (500 * 1024 - 14) / 22 + 2;
    assert_eq!(m["line"], line);
    let msg = m["message"].as_str().unwrap();
    assert!(msg.contains(&format!("{} bytes", body.len())), "{msg}");
    assert!(msg.contains(&format!("cutting line {line}")), "{msg}");
    let lost = n + 1 - line + 1;
    assert!(
        msg.contains(&format!("({lost} allow/disallow lines lost)")),
        "{msg}"
    );
}

#[test]
fn a_failing_adapter_costs_only_its_own_checks_and_is_named() {
    if !common::have_python() {
        return;
    }
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/misbehaving/fake-crash");
    let f = file("crash", b"User-agent: *\nDisallow: /crash\n");
    let out = bin()
        .arg("--adapter-dir")
        .arg(&fixtures)
        .arg("lint")
        .arg(&f)
        .args(["--adapters", "fake-crash,rust-robotstxt", "--json"])
        .output()
        .unwrap();
    let doc = json(&out);
    let parsers = doc["parsers"].as_array().unwrap();
    let fake = parsers.iter().find(|p| p["name"] == "fake-crash").unwrap();
    assert!(fake["unanswered"].as_u64().unwrap() > 0, "{fake}");
    assert!(fake["failure"].as_str().unwrap().contains("crash"), "{fake}");
    let rust = parsers.iter().find(|p| p["name"] == "rust-robotstxt").unwrap();
    let checks = doc["agents"].as_array().unwrap().len() * 2;
    assert_eq!(rust["compared"], checks, "{rust}");
    assert_eq!(rust["unanswered"], 0);
    let t = text(
        &bin()
            .arg("--adapter-dir")
            .arg(&fixtures)
            .arg("lint")
            .arg(&f)
            .args(["--adapters", "fake-crash,rust-robotstxt"])
            .output()
            .unwrap()
            .stdout,
    );
    assert!(t.contains("Parsers that did not answer every check"), "{t}");
    assert!(t.contains("  fake-crash: "), "{t}");
}

#[test]
fn a_bad_path_is_an_error_naming_the_file() {
    let missing = scratch("lint-missing").join("no-such-robots.txt");
    let out = lint(&missing, &["--adapters", "none"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("no-such-robots.txt"), "{err}");
    let dir = scratch("lint-dir");
    let out = lint(&dir, &["--adapters", "none"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains(&dir.display().to_string()));
    let f = file("bad-adapter", TRAP.as_bytes());
    let out = lint(&f, &["--adapters", "no-such-parser"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no-such-parser"));
}
