//! `check --usage`: the AI usage preferences of each URL, as text and as
//! JSON, with the draft's own example (draft-ietf-aipref-attach-05 §3.4)
//! and a Cloudflare-style file.

mod common;

use common::{bin, scratch};

const EXAMPLE: &str = "User-Agent: *\nAllow: /\nDisallow: /never/\n\
Content-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\n\
User-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n";

fn run(body: &str, args: &[&str]) -> (Option<i32>, String) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = scratch(&format!("check-usage-{n}"));
    let file = dir.join("robots.txt");
    std::fs::write(&file, body).unwrap();
    let out = bin()
        .args(["check", "--robots"])
        .arg(&file)
        .args(args)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn the_draft_s_three_answers_as_text() {
    let (code, text) = run(
        EXAMPLE,
        &[
            "--agent",
            "FooBot",
            "--profile",
            "aipref",
            "--usage",
            "/test",
            "/never/test",
            "/ai-ok/test",
        ],
    );
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "allowed /test  usage: train-ai=n, search=unknown",
            "disallowed /never/test  usage: none (a URL that may not be crawled has no preferences)",
            "allowed /ai-ok/test  usage: train-ai=y, search=unknown",
        ]
    );
}

#[test]
fn json_has_verdict_and_usage_null_when_disallowed() {
    let (code, text) = run(
        EXAMPLE,
        &[
            "--agent",
            "FooBot",
            "--profile",
            "aipref",
            "--usage",
            "--json",
            "/test",
            "/never/x",
        ],
    );
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v[0]["verdict"], "allowed");
    assert_eq!(v[0]["usage"]["train-ai"], "n");
    assert_eq!(v[0]["usage"]["search"], "unknown");
    assert_eq!(v[1]["verdict"], "disallowed");
    assert!(v[1]["usage"].is_null());
    assert!(v[0].get("content_signal").is_none(), "no Content-Signal line");
}

#[test]
fn other_profiles_know_no_preference_and_read_groups_as_2022() {
    let body = "User-agent: GPTBot\nContent-Usage: train-ai=n\nUser-agent: CCBot\nDisallow: /\n";
    let (_, rfc) = run(body, &["--agent", "GPTBot", "--usage", "/page"]);
    assert_eq!(
        rfc.trim(),
        "disallowed /page  usage: none (a URL that may not be crawled has no preferences)"
    );
    let (_, aipref) = run(
        body,
        &["--agent", "GPTBot", "--profile", "aipref", "--usage", "/page"],
    );
    assert_eq!(
        aipref.trim(),
        "allowed /page  usage: train-ai=n, search=unknown"
    );
}

#[test]
fn explain_names_the_deciding_lines_and_signals_appear_beside() {
    let (_, text) = run(
        EXAMPLE,
        &[
            "--agent",
            "FooBot",
            "--profile",
            "aipref",
            "--usage",
            "--explain",
            "/ai-ok/x",
        ],
    );
    assert!(
        text.contains("decides line 5: content-usage: /ai-ok/ train-ai=y"),
        "{text}"
    );
    assert!(
        text.contains("matched line 4: content-usage: (no path) train-ai=n"),
        "{text}"
    );
    assert!(text.contains("AIPREF-ATTACH-3.1-2"), "{text}");
    let cf = "User-Agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n";
    let (_, text) = run(
        cf,
        &["--agent", "Googlebot", "--profile", "aipref", "--usage", "/p"],
    );
    assert!(
        text.contains("content-signal (line(s) 2): search=yes, ai-train=no"),
        "{text}"
    );
    let (_, json) =
        run(cf, &["--agent", "Googlebot", "--usage", "--json", "/p"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v[0]["content_signal"]["ai-train"], "no");
    assert_eq!(v[0]["content_signal"]["lines"], serde_json::json!([2]));
}

#[test]
fn a_refused_url_exits_2() {
    let (code, _) =
        run(EXAMPLE, &["--agent", "a", "--usage", "ftp-not-a-path"]);
    assert_eq!(code, Some(2));
}
