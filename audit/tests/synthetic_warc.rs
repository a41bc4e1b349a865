//! Builds WARC files with synthetic records (200 with rules, 404, 500,
//! 503, a redirect chain, a redirect out of the archive, an oversized
//! body, a record that is not HTTP, a short body, a truncated record, a
//! truncated gzip stream), audits them and checks every count and the
//! verdicts that follow from the fetch model; then checks that shards
//! merged equal one run, and that a rerun skips a finished shard.

use std::path::Path;

mod common;

use common::{args, audited, run};
use robots_audit::Outcome;
use robots_audit::warc_out::{gzip, http_response, record};

fn ok(body: &str) -> Vec<u8> {
    http_response(200, &[("Content-Type", "text/plain")], body.as_bytes())
}

/// Writes the three inputs into `dir`; returns their paths.
fn inputs(dir: &Path) -> Vec<String> {
    let mut a = Vec::new();
    let mut n = 0;
    let mut add = |kind: &str, url: &str, payload: &[u8]| {
        a.extend(gzip(&record(kind, url, n, payload)));
        n += 1;
    };
    add("warcinfo", "", b"software: test\r\n");
    add(
        "request",
        "http://a.example/robots.txt",
        b"GET /robots.txt HTTP/1.1\r\n\r\n",
    );
    add(
        "response",
        "http://a.example/robots.txt",
        &ok(
            "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n",
        ),
    );
    add(
        "response",
        "http://b.example/robots.txt",
        &http_response(404, &[], b"not here"),
    );
    add(
        "response",
        "http://c.example/robots.txt",
        &http_response(500, &[], b""),
    );
    add(
        "response",
        "http://d.example/robots.txt",
        &http_response(503, &[], b""),
    );
    add(
        "response",
        "http://e.example/robots.txt",
        &http_response(
            301,
            &[("Location", "https://e.example/robots.txt")],
            b"",
        ),
    );
    add(
        "response",
        "https://e.example/robots.txt",
        &http_response(302, &[("Location", "/r")], b""),
    );
    add(
        "response",
        "https://e.example/r",
        &ok("User-agent: *\nDisallow: /\n"),
    );
    add("response", "http://f.example/robots.txt", &ok(&"#".repeat(200_000)));
    add(
        "response",
        "http://g.example/robots.txt",
        b"this is no HTTP response",
    );
    add(
        "response",
        "http://h.example/robots.txt",
        &http_response(
            200,
            &[("Content-Length", "999")],
            b"User-agent: *\nAllow: /\n",
        ),
    );
    add(
        "response",
        "http://j.example/robots.txt",
        &http_response(
            301,
            &[("Location", "http://elsewhere.example/robots.txt")],
            b"",
        ),
    );
    // A record that claims more bytes than the file holds.
    let mut cut = record(
        "response",
        "http://k.example/robots.txt",
        99,
        &ok("User-agent: *\nDisallow: /\n"),
    );
    cut.truncate(cut.len() - 30);
    a.extend(gzip(&cut));

    let mut b = gzip(&record(
        "response",
        "http://l.example/robots.txt",
        0,
        &http_response(404, &[], b""),
    ));
    let second = gzip(&record(
        "response",
        "http://m.example/robots.txt",
        1,
        &ok("User-agent: *\nDisallow: /\n"),
    ));
    b.extend_from_slice(&second[..second.len() - 25]);

    let c = record(
        "response",
        "http://n.example/robots.txt",
        0,
        &ok("User-agent: *\nAllow: /\n"),
    );

    let paths = [("a.warc.gz", a), ("b.warc.gz", b), ("c.warc", c)];
    paths
        .iter()
        .map(|(name, bytes)| {
            let p = dir.join(name);
            std::fs::write(&p, bytes).unwrap();
            p.to_string_lossy().into_owned()
        })
        .collect()
}

const AGENTS: &str = "GPTBot,Googlebot";

#[test]
fn every_count_adds_up_and_verdicts_follow_the_fetch_model() {
    let dir = tempfile::tempdir().unwrap();
    let paths = inputs(dir.path());
    let out = dir.path().join("out");
    let mut argv: Vec<&str> = paths.iter().map(String::as_str).collect();
    argv.extend([
        "--out",
        out.to_str().unwrap(),
        "--agents",
        AGENTS,
        "--adapters",
        "rust-robotxt",
        "--max-body",
        "100000",
        "--no-progress",
    ]);
    let a = audited(run(&argv));
    let c = &a.counts;
    assert_eq!(c.inputs, 3);
    assert_eq!(c.inputs_stopped, 2, "{c:?}");
    assert_eq!(c.formats.get("warc.gz"), Some(&2));
    assert_eq!(c.formats.get("warc"), Some(&1));
    // a: 13 records (k is cut off); b: 1 (m is lost); c: 1.
    assert_eq!(c.records, 15, "{c:?}");
    assert_eq!(c.hosts, 10);
    assert_eq!(c.routes, 1);
    assert_eq!(c.skipped, 2);
    assert_eq!(c.skipped_by_kind.get("warcinfo"), Some(&1));
    assert_eq!(c.skipped_by_kind.get("request"), Some(&1));
    assert_eq!(c.bad_records, 2);
    assert_eq!(c.records, c.hosts + c.routes + c.skipped + c.bad_records);
    assert_eq!(c.hosts_unresolved, 1);
    assert_eq!(c.hosts_audited, 9);
    assert_eq!(c.errors, 4);
    assert_eq!(c.errors, c.bad_records + c.inputs_stopped);
    let kinds: Vec<(&str, usize)> =
        c.errors_by_kind.iter().map(|(k, n)| (k.as_str(), *n)).collect();
    assert_eq!(
        kinds,
        [
            ("body-over-limit", 1),
            ("not-http", 1),
            ("truncated-gzip", 1),
            ("truncated-record", 1)
        ],
        "{c:?}"
    );
    // Under both profiles: a, e (http and https), n parse; b, l allow all;
    // c, d and h (a short body: a network error) disallow all.
    for p in ["rfc9309", "google"] {
        let by = &c.policy[p];
        assert_eq!(by.get("parse-body"), Some(&4), "{p} {by:?}");
        assert_eq!(by.get("allow-all"), Some(&2), "{p} {by:?}");
        assert_eq!(by.get("disallow-all"), Some(&3), "{p} {by:?}");
    }
    assert_eq!(c.redirected, 2);
    for p in ["rfc9309", "google", "rust-robotxt"] {
        let gpt = &a.agents["GPTBot"].blocked[p];
        assert_eq!(gpt.fully.hosts, 6, "{p}: a, c, d, e twice, h");
        assert_eq!(gpt.partly.hosts, 0, "{p}");
        let google = &a.agents["Googlebot"].blocked[p];
        assert_eq!(google.fully.hosts, 5, "{p}: c, d, e twice, h");
        assert_eq!(google.partly.hosts, 1, "{p}: a's /private");
        assert_eq!(gpt.fully.share, 6.0 / 9.0);
    }
    assert_eq!(a.agents["GPTBot"].named["rfc9309"].hosts, 1);
    assert_eq!(a.agents["Googlebot"].named["google"].hosts, 0);
    let robotxt = &a.parsers["rust-robotxt"];
    assert_eq!(robotxt.verdicts_departing, 0);
    // Probes: a has `/` and `/private`; the eight other hosts `/` only.
    assert_eq!(robotxt.verdicts + robotxt.unanswered, 2 * (2 + 8));
    for f in ["rows.jsonl", "audit.json", "audit.md", "audit.html"] {
        assert!(out.join(f).is_file(), "{f}");
    }
    let html = std::fs::read_to_string(out.join("audit.html")).unwrap();
    assert!(html.contains("<svg") && html.contains("GPTBot"));
    let rows = std::fs::read_to_string(out.join("rows.jsonl")).unwrap();
    assert_eq!(
        rows.lines().count(),
        3 + 10 + 4,
        "an input row each, a host row each, an error row each"
    );
}

#[test]
fn shards_merged_equal_one_run_and_a_finished_shard_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let paths = inputs(dir.path());
    let one = dir.path().join("one");
    let sharded = dir.path().join("sharded");
    let merged = dir.path().join("merged");
    let common = [
        "--agents",
        AGENTS,
        "--adapters",
        "none",
        "--max-body",
        "100000",
        "--no-progress",
    ];
    let mut argv: Vec<&str> = paths.iter().map(String::as_str).collect();
    argv.extend(["--out", one.to_str().unwrap()]);
    argv.extend(common);
    run(&argv);
    for i in 0..3 {
        let shard = format!("{i}/3");
        let mut argv: Vec<&str> = paths.iter().map(String::as_str).collect();
        argv.extend(["--out", sharded.to_str().unwrap(), "--shard", &shard]);
        argv.extend(common);
        let Outcome::Audited(s) = run(&argv) else { panic!("not an audit") };
        assert!(!s.skipped);
        let Outcome::Audited(again) = run(&argv) else {
            panic!("not an audit")
        };
        assert!(again.skipped, "a rerun skips the finished shard {shard}");
    }
    run(&[
        "merge",
        sharded.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    for f in ["rows.jsonl", "audit.json", "audit.md", "audit.html"] {
        let a = std::fs::read(one.join(f)).unwrap();
        let b = std::fs::read(merged.join(f)).unwrap();
        assert!(a == b, "{f} differs between one run and merged shards");
    }
    // A missing shard is refused.
    std::fs::remove_dir_all(sharded.join("shard-1-of-3")).unwrap();
    let err = robots_audit::run(args(&[
        "merge",
        sharded.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]));
    assert!(err.unwrap_err().to_string().contains("shards missing: 1 of 3"));
}
