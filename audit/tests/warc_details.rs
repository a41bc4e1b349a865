//! WARC details with synthetic records: `WARC-Truncated` records (counted
//! by reason, bodies used as captured), `Content-Encoding` gzip and
//! deflate (decoded once, by the oracle's fetch model, for every parser),
//! unknown and cut codings (invalid responses), `Transfer-Encoding:
//! chunked` (whole, cut, cut in a truncated record, combined with a
//! content coding) and other transfer codings. Then: one big WARC spread
//! over shards by host, the streaming merge equal to one run (rows,
//! aggregates and Parquet), a row in two shards refused, and
//! `hosts.parquet` read back equal to the host rows of `rows.jsonl`.

use std::io::Write;
use std::path::Path;

mod common;

use common::{args, audited, hosts, run};
use robots_audit::parquet_out::{HOSTS_PARQUET, read_hosts};
use robots_audit::warc_out::{gzip, http_response, record, record_with};

fn raw(head: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 200 OK\r\n{head}\r\n").into_bytes();
    out.extend_from_slice(body);
    out
}

fn chunked(parts: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in parts {
        out.extend_from_slice(format!("{:x}\r\n", p.len()).as_bytes());
        out.extend_from_slice(p);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

fn zlib(b: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    );
    z.write_all(b).unwrap();
    z.finish().unwrap()
}

const AGENTS: &str = "GPTBot,Googlebot";

/// A host name, its HTTP response bytes and extra WARC headers.
type Synthetic<'a> = (&'a str, Vec<u8>, Vec<(&'a str, &'a str)>);

/// One WARC.gz with a record for each detail.
fn details(dir: &Path) -> String {
    let gpt_off = b"User-agent: GPTBot\nDisallow: /\n";
    let all_on = b"User-agent: *\nAllow: /\n";
    let mut cut_gzip = gzip(gpt_off);
    cut_gzip.truncate(cut_gzip.len() / 2);
    let mut cut_chunks = chunked(&[b"User-agent: GPTBot\n", b"Disallow: /"]);
    // Cut after the last chunk's data: no CRLF, no last chunk.
    cut_chunks.truncate(cut_chunks.len() - 7);
    let records: Vec<Synthetic> = vec![
        // a: cut by the archiver in the middle of a rule line.
        (
            "a",
            raw("Content-Length: 500\r\n", b"User-agent: *\nDisallow: /priv"),
            vec![("WARC-Truncated", "length")],
        ),
        (
            "b",
            http_response(
                200,
                &[("Content-Encoding", "gzip")],
                &gzip(gpt_off),
            ),
            vec![],
        ),
        (
            "c",
            http_response(
                200,
                &[("Content-Encoding", "deflate")],
                &zlib(gpt_off),
            ),
            vec![],
        ),
        (
            "d",
            raw(
                "Transfer-Encoding: chunked\r\n",
                &chunked(&[b"User-agent: *\nDis", b"allow: /\n"]),
            ),
            vec![],
        ),
        // e: chunked, then gzip: decoded twice it would be corrupt.
        (
            "e",
            raw(
                "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n",
                &chunked(&[&gzip(all_on)]),
            ),
            vec![],
        ),
        (
            "f",
            http_response(200, &[("Content-Encoding", "br")], b"\x0b\x01"),
            vec![],
        ),
        (
            "g",
            raw(
                "Content-Encoding: gzip\r\nContent-Length: 999\r\n",
                &cut_gzip,
            ),
            vec![("WARC-Truncated", "length")],
        ),
        ("h", raw("Transfer-Encoding: chunked\r\n", &cut_chunks), vec![]),
        (
            "i",
            raw("Transfer-Encoding: chunked\r\n", &cut_chunks),
            vec![("WARC-Truncated", "time")],
        ),
        (
            "j",
            raw(
                "Transfer-Encoding: gzip, chunked\r\n",
                &chunked(&[&gzip(all_on)]),
            ),
            vec![],
        ),
    ];
    let mut bytes = Vec::new();
    for (n, (host, payload, extra)) in records.iter().enumerate() {
        let url = format!("http://{host}.example/robots.txt");
        bytes.extend(gzip(&record_with("response", &url, n, payload, extra)));
    }
    let p = dir.join("details.warc.gz");
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn truncated_records_content_and_transfer_codings() {
    let dir = tempfile::tempdir().unwrap();
    let input = details(dir.path());
    let out = dir.path().join("out");
    let a = audited(run(&[
        &input,
        "--out",
        out.to_str().unwrap(),
        "--agents",
        AGENTS,
        "--adapters",
        "rust-robotxt",
        "--parquet",
        "--no-progress",
    ]));
    let c = &a.counts;
    assert_eq!((c.records, c.hosts, c.hosts_audited), (10, 10, 10), "{c:?}");
    assert_eq!((c.bad_records, c.errors, c.inputs_stopped), (0, 0, 0));
    assert_eq!(c.truncated, 3);
    let reasons: Vec<(&str, usize)> =
        c.truncated_by_reason.iter().map(|(k, n)| (k.as_str(), *n)).collect();
    assert_eq!(reasons, [("length", 2), ("time", 1)]);
    for p in ["rfc9309", "google"] {
        let by = &c.policy[p];
        assert_eq!(by.get("parse-body"), Some(&6), "{p}: a b c d e i {by:?}");
        assert_eq!(by.get("disallow-all"), Some(&4), "{p}: f g h j {by:?}");
    }
    let hosts = hosts(&out.join("rows.jsonl"));
    let by_host = |h: &str| {
        hosts
            .iter()
            .find(|r| r.url == format!("http://{h}.example/robots.txt"))
            .unwrap()
    };
    // a: the cut line is read as what it says.
    assert_eq!(by_host("a").probes, ["/", "/priv"]);
    assert_eq!(by_host("a").verdicts["rfc9309"]["Googlebot"], "ad");
    assert_eq!(by_host("a").answer, "200, 29 body bytes");
    // e: decoded once (twice would be a corrupt stream: disallow-all).
    assert_eq!(by_host("e").fetch["rfc9309"].policy, "parse-body");
    assert_eq!(by_host("e").verdicts["rust-robotxt"]["GPTBot"], "a");
    for h in ["f", "g", "h", "j"] {
        assert_eq!(by_host(h).fetch["google"].policy, "disallow-all", "{h}");
    }
    for p in ["rfc9309", "google", "rust-robotxt"] {
        let gpt = &a.agents["GPTBot"].blocked[p];
        assert_eq!(gpt.fully.hosts, 8, "{p}: b c d f g h i j");
        assert_eq!(gpt.partly.hosts, 1, "{p}: a");
        let google = &a.agents["Googlebot"].blocked[p];
        assert_eq!(google.fully.hosts, 5, "{p}: d f g h j");
        assert_eq!(google.partly.hosts, 1, "{p}: a");
    }
    assert_eq!(a.agents["GPTBot"].named["rfc9309"].hosts, 3, "b c i");
    assert_eq!(a.parsers["rust-robotxt"].verdicts_departing, 0);
    // The Parquet rows are the JSON host rows.
    assert_eq!(read_hosts(&out.join(HOSTS_PARQUET)).unwrap(), hosts);
}

/// A WARC.gz of `n` hosts with varied answers, and a second small input.
fn big(dir: &Path, n: usize) -> Vec<String> {
    let mut bytes = Vec::new();
    for i in 0..n {
        let url = format!("http://h{i}.example/robots.txt");
        let payload = match i % 4 {
            0 => http_response(
                200,
                &[],
                format!("User-agent: GPTBot\nDisallow: /p{i}\n").as_bytes(),
            ),
            1 => http_response(404, &[], b""),
            2 => http_response(503, &[], b""),
            _ => b"not http".to_vec(),
        };
        bytes.extend(gzip(&record("response", &url, i, &payload)));
    }
    let a = dir.join("big.warc.gz");
    std::fs::write(&a, bytes).unwrap();
    let b = dir.join("small.warc");
    std::fs::write(
        &b,
        record(
            "response",
            "http://z.example/robots.txt",
            0,
            &http_response(200, &[], b"User-agent: *\nDisallow: /\n"),
        ),
    )
    .unwrap();
    vec![a.to_string_lossy().into_owned(), b.to_string_lossy().into_owned()]
}

#[test]
fn one_big_warc_spreads_over_shards_and_the_streaming_merge_equals_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = big(dir.path(), 80);
    let (one, sharded, merged) = (
        dir.path().join("one"),
        dir.path().join("sharded"),
        dir.path().join("merged"),
    );
    let common = [
        "--agents",
        AGENTS,
        "--adapters",
        "none",
        "--parquet",
        "--no-progress",
    ];
    let mut argv: Vec<&str> = inputs.iter().map(String::as_str).collect();
    argv.extend(["--out", one.to_str().unwrap()]);
    argv.extend(common);
    let whole = audited(run(&argv));
    // 60 hosts and 20 records that are no HTTP in big, one host in small.
    assert_eq!((whole.counts.hosts, whole.counts.bad_records), (61, 20));
    for i in 0..3 {
        let shard = format!("{i}/3");
        let mut argv: Vec<&str> = inputs.iter().map(String::as_str).collect();
        argv.extend(["--out", sharded.to_str().unwrap(), "--shard", &shard]);
        argv.extend(common);
        run(&argv);
        let dir = sharded.join(format!("shard-{i}-of-3"));
        let big_hosts = hosts(&dir.join("rows.jsonl"))
            .iter()
            .filter(|h| h.input.ends_with("big.warc.gz"))
            .count();
        assert!(
            big_hosts >= 10,
            "shard {i} judged {big_hosts} of big's hosts"
        );
    }
    run(&[
        "merge",
        sharded.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
        "--parquet",
    ]);
    for f in ["rows.jsonl", "audit.json", "audit.md", "audit.html"] {
        let a = std::fs::read(one.join(f)).unwrap();
        let b = std::fs::read(merged.join(f)).unwrap();
        assert!(a == b, "{f} differs between one run and merged shards");
    }
    assert_eq!(
        read_hosts(&merged.join(HOSTS_PARQUET)).unwrap(),
        read_hosts(&one.join(HOSTS_PARQUET)).unwrap()
    );
    assert_eq!(
        read_hosts(&one.join(HOSTS_PARQUET)).unwrap(),
        hosts(&one.join("rows.jsonl"))
    );
    // A row in two shards is refused, naming the shard file and line.
    let s0 = std::fs::read(sharded.join("shard-0-of-3/rows.jsonl")).unwrap();
    let s1 = sharded.join("shard-1-of-3/rows.jsonl");
    let mut both = std::fs::read(&s1).unwrap();
    both.extend_from_slice(&s0);
    std::fs::write(&s1, both).unwrap();
    let err = robots_audit::run(args(&[
        "merge",
        sharded.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]))
    .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("out of order or in two shards")
            && text.contains("line"),
        "{text}"
    );
}
