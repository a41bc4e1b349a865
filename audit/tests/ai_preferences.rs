//! AI usage preferences in the audit, on constructed input whose every
//! number follows from the drafts and the oracle's documented readings:
//! a Cloudflare-style file, the grouping change of
//! draft-ietf-aipref-attach-05 (a Content-Usage line ends a group's
//! user-agent list), Content-Usage with a path, training offered while
//! crawling is refused (with the `Content-Signals` misspelling), an
//! allow-all, a file without AI lines and a disallow-all. Checks the
//! rows (probes, usage letters, signals, census), every AI aggregate,
//! then `make-warc --ai-lines` on a small corpus, and shards merged
//! (rows, aggregates, Parquet) equal to one run.

mod common;

use std::path::Path;

use common::{args, audited, hosts, run};
use robots_audit::Outcome;
use robots_audit::aggregate::Share;
use robots_audit::parquet_out::{HOSTS_PARQUET, read_hosts};
use robots_audit::row::AiLines;
use robots_audit::warc_out::{gzip, http_response, record};

const AGENTS: &str = "GPTBot,CCBot,Googlebot";

/// The seven hosts, as one WARC.gz.
fn input(dir: &Path) -> String {
    let files: [(&str, u16, &str); 7] = [
        (
            "cloudflare",
            200,
            "User-Agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n",
        ),
        (
            "grouping",
            200,
            "User-agent: GPTBot\nContent-Usage: train-ai=n\nUser-agent: CCBot\nDisallow: /\n",
        ),
        (
            "paths",
            200,
            "User-agent: *\nContent-Usage: train-ai=y, search=y\nContent-Usage: /private/ train-ai=n\nDisallow: /tmp/\n",
        ),
        (
            "offered",
            200,
            "User-agent: *\nContent-Signal: ai-train=yes\nContent-Signals: ai-train=no\nDisallow: /\n",
        ),
        ("missing", 404, ""),
        ("plain", 200, "User-agent: *\nDisallow: /x\n"),
        ("unavailable", 503, ""),
    ];
    let mut bytes = Vec::new();
    for (n, (host, status, body)) in files.iter().enumerate() {
        let http = http_response(*status, &[], body.as_bytes());
        let url = format!("http://{host}.example/robots.txt");
        bytes.extend(gzip(&record("response", &url, n, &http)));
    }
    let p = dir.join("ai.warc.gz");
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

fn share(hosts: usize, of: usize) -> Share {
    Share { hosts, share: hosts as f64 / of as f64 }
}

#[test]
fn rows_and_aggregates_of_ai_preferences() {
    let dir = tempfile::tempdir().unwrap();
    let path = input(dir.path());
    let out = dir.path().join("out");
    let a = audited(run(&[
        &path,
        "--out",
        out.to_str().unwrap(),
        "--agents",
        AGENTS,
        "--adapters",
        "none",
        "--no-progress",
    ]));
    assert_eq!(a.setup.parsers, ["rfc9309", "google", "aipref"]);
    assert_eq!(a.counts.hosts_audited, 7);
    assert_eq!(a.counts.policy["aipref"], a.counts.policy["rfc9309"]);

    let rows = hosts(&out.join("rows.jsonl"));
    let by = |host: &str| {
        rows.iter()
            .find(|h| h.url == format!("http://{host}.example/robots.txt"))
            .unwrap()
    };
    // The grouping change: one group for a 2022 reader, two for aipref.
    let g = by("grouping");
    assert_eq!(g.verdicts["rfc9309"]["GPTBot"], "d");
    assert_eq!(g.verdicts["aipref"]["GPTBot"], "a");
    assert_eq!(g.verdicts["aipref"]["CCBot"], "d");
    assert_eq!(g.named["aipref"], ["GPTBot", "CCBot"]);
    assert_eq!(g.usage["GPTBot"], "nu");
    assert_eq!(g.usage["CCBot"], "--");
    assert_eq!(g.usage["Googlebot"], "uu");
    assert!(g.signals.is_empty(), "no Content-Signal line");
    // Content-Usage paths are probes; the longest matching path decides.
    let p = by("paths");
    assert_eq!(p.probes, ["/", "/private/", "/tmp/"]);
    assert_eq!(p.usage["CCBot"], "yynu--");
    assert_eq!(
        p.ai,
        AiLines {
            content_usage: 2,
            content_signal: 0,
            content_signals: 0,
            train_y: true,
            train_n: true
        }
    );
    // Group scope: GPTBot is named, so the `*` group's signal is not its.
    let c = by("cloudflare");
    assert_eq!(c.signals["GPTBot"], "");
    assert_eq!(c.signals["CCBot"], "search=yes, ai-train=no");
    assert_eq!(c.usage["GPTBot"], "--");
    let o = by("offered");
    assert_eq!(o.signals["Googlebot"], "ai-train=yes");
    assert_eq!((o.ai.content_signal, o.ai.content_signals), (1, 1));
    assert!(o.ai.train_y && !o.ai.train_n, "the misspelling is not read");
    assert_eq!(by("missing").usage["GPTBot"], "uu");
    assert_eq!(by("plain").usage["GPTBot"], "uu--");
    assert_eq!(by("unavailable").usage["GPTBot"], "--");

    let ai = &a.ai;
    assert_eq!(ai.hosts_with["content-usage"], share(2, 7));
    assert_eq!(ai.hosts_with["content-signal"], share(2, 7));
    assert_eq!(ai.hosts_with["content-signals"], share(1, 7));
    assert_eq!(ai.hosts_with["any"], share(4, 7));
    let lines: Vec<(&str, usize)> =
        ai.lines.iter().map(|(k, n)| (k.as_str(), *n)).collect();
    assert_eq!(
        lines,
        [("content-signal", 2), ("content-signals", 1), ("content-usage", 3)]
    );
    assert_eq!(ai.verdicts_change, share(1, 7));

    let gpt = &ai.agents["GPTBot"];
    // May crawl `/`: grouping, paths, missing, plain.
    assert_eq!(gpt.crawlable_root, 4);
    assert_eq!(gpt.usage["train-ai"]["y"], share(1, 4));
    assert_eq!(gpt.usage["train-ai"]["n"], share(1, 4));
    assert_eq!(gpt.usage["train-ai"]["unknown"], share(2, 4));
    assert_eq!(gpt.usage["search"]["y"], share(1, 4));
    assert_eq!(gpt.usage["search"]["n"], share(0, 4));
    assert_eq!(gpt.usage["search"]["unknown"], share(3, 4));
    assert_eq!(gpt.signals["ai-train"]["yes"], share(1, 7));
    assert_eq!(gpt.signals["ai-train"]["no"], share(0, 7));
    assert_eq!(gpt.signals["search"]["yes"], share(0, 7));
    assert_eq!(gpt.train_yes_but_blocked, share(1, 7), "offered");
    assert_eq!(gpt.train_no_but_crawlable, share(1, 7), "grouping");
    assert_eq!(gpt.verdicts_change, share(1, 7));

    let cc = &ai.agents["CCBot"];
    // cloudflare, paths, missing, plain.
    assert_eq!(cc.crawlable_root, 4);
    assert_eq!(cc.usage["train-ai"]["y"], share(1, 4));
    assert_eq!(cc.usage["train-ai"]["unknown"], share(3, 4));
    assert_eq!(cc.signals["ai-train"]["yes"], share(1, 7));
    assert_eq!(cc.signals["ai-train"]["no"], share(1, 7));
    assert_eq!(cc.signals["search"]["yes"], share(1, 7));
    assert_eq!(cc.train_yes_but_blocked, share(1, 7), "offered");
    assert_eq!(cc.train_no_but_crawlable, share(1, 7), "cloudflare");
    assert_eq!(cc.verdicts_change, share(0, 7), "disallowed by both");

    let google = &ai.agents["Googlebot"];
    assert_eq!(google.crawlable_root, 5, "and grouping: no group names it");
    assert_eq!(google.usage["train-ai"]["unknown"], share(4, 5));
    assert_eq!(google.train_no_but_crawlable, share(1, 7));

    let md = std::fs::read_to_string(out.join("audit.md")).unwrap();
    assert!(md.contains("## AI usage preferences"));
    assert!(md.contains("| GPTBot | 4 | 25.0 % / 25.0 % / 50.0 % |"), "{md}");
    let html = std::fs::read_to_string(out.join("audit.html")).unwrap();
    assert!(html.contains("<h2>AI usage preferences</h2>"));
}

#[test]
fn make_warc_adds_ai_lines_to_every_nth_file() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    std::fs::create_dir(&corpus).unwrap();
    for host in
        ["a.example", "b.example", "c.example", "d.example", "e.example"]
    {
        std::fs::write(corpus.join(host), "User-agent: *\nDisallow: /x\n")
            .unwrap();
    }
    let warc = dir.path().join("w.warc.gz");
    let made = run(&[
        "make-warc",
        corpus.to_str().unwrap(),
        "--out",
        warc.to_str().unwrap(),
        "--ai-lines",
        "1",
    ]);
    assert!(matches!(made, Outcome::MadeWarc { records: 5, .. }));
    let out = dir.path().join("out");
    let a = audited(run(&[
        warc.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--agents",
        AGENTS,
        "--adapters",
        "none",
        "--no-progress",
    ]));
    // Templates in turn: a signal (a), the grouping change (b), usage with
    // a path (c), training offered to a blocked ClaudeBot with the
    // misspelling (d), a signal again (e).
    let ai = &a.ai;
    assert_eq!(ai.hosts_with["content-signal"].hosts, 3);
    assert_eq!(ai.hosts_with["content-usage"].hosts, 2);
    assert_eq!(ai.hosts_with["content-signals"].hosts, 1);
    assert_eq!(ai.hosts_with["any"].hosts, 5);
    assert_eq!(ai.verdicts_change.hosts, 1);
    assert_eq!(ai.agents["GPTBot"].verdicts_change.hosts, 1);
    assert_eq!(ai.agents["CCBot"].signals["ai-train"]["no"].hosts, 2);
    assert_eq!(ai.agents["GPTBot"].usage["train-ai"]["n"].hosts, 1);
    assert_eq!(ai.agents["GPTBot"].usage["train-ai"]["y"].hosts, 1);
    let rows = hosts(&out.join("rows.jsonl"));
    assert_eq!(rows[2].probes, ["/", "/x", "/private/"]);
    // Without the option the archive carries the corpus as it is.
    let plain = dir.path().join("p.warc.gz");
    run(&[
        "make-warc",
        corpus.to_str().unwrap(),
        "--out",
        plain.to_str().unwrap(),
    ]);
    let out = dir.path().join("plain");
    let a = audited(run(&[
        plain.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--agents",
        AGENTS,
        "--adapters",
        "none",
        "--no-progress",
    ]));
    assert_eq!(a.ai.hosts_with["any"].hosts, 0);
}

#[test]
fn shards_merged_equal_one_run_with_ai_fields() {
    let dir = tempfile::tempdir().unwrap();
    let path = input(dir.path());
    let one = dir.path().join("one");
    let sharded = dir.path().join("sharded");
    let merged = dir.path().join("merged");
    let common = [
        "--agents",
        AGENTS,
        "--adapters",
        "none",
        "--no-progress",
        "--parquet",
    ];
    let mut argv = vec![path.as_str(), "--out", one.to_str().unwrap()];
    argv.extend(common);
    let single = audited(run(&argv));
    for i in 0..3 {
        let shard = format!("{i}/3");
        let mut argv = vec![path.as_str(), "--out", sharded.to_str().unwrap()];
        argv.extend(["--shard", &shard]);
        argv.extend(common);
        run(&argv);
    }
    let Outcome::Merged { audit, .. } = run(&[
        "merge",
        sharded.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
        "--parquet",
    ]) else {
        panic!("not a merge")
    };
    assert_eq!(*audit, single);
    assert_eq!(audit.ai.hosts_with["any"].hosts, 4);
    for f in ["rows.jsonl", "audit.json", "audit.md", "audit.html"] {
        let a = std::fs::read(one.join(f)).unwrap();
        let b = std::fs::read(merged.join(f)).unwrap();
        assert!(a == b, "{f} differs between one run and merged shards");
    }
    let rows = hosts(&one.join("rows.jsonl"));
    assert_eq!(read_hosts(&one.join(HOSTS_PARQUET)).unwrap(), rows);
    assert_eq!(read_hosts(&merged.join(HOSTS_PARQUET)).unwrap(), rows);
    // A document of the previous format is refused by `render`, by name.
    let json = one.join("audit.json");
    let text = std::fs::read_to_string(&json).unwrap();
    std::fs::write(&json, text.replace("robots-audit/2", "robots-audit/1"))
        .unwrap();
    let err = robots_audit::run(args(&["render", one.to_str().unwrap()]))
        .unwrap_err();
    assert!(err.to_string().contains("robots-audit/1"), "{err}");
}
