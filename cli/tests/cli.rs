//! The command line, end to end.

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_robots-conformance"))
}

#[test]
fn check_prints_one_line_per_url_and_explains() {
    let dir =
        std::env::temp_dir().join(format!("rc-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("robots.txt");
    std::fs::write(&file, "User-agent: *\nAllow: /p\nDisallow: /\n").unwrap();
    let out = bin()
        .args(["check", "--robots"])
        .arg(&file)
        .args([
            "--agent",
            "FooBot",
            "--explain",
            "/page",
            "https://example.com/x",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let verdicts: Vec<&str> =
        text.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(
        verdicts,
        ["allowed /page", "disallowed https://example.com/x"]
    );
    assert!(text.contains("winner: line 2"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_reads_stdin_and_exits_2_on_usage_errors() {
    use std::io::Write;
    let mut child = bin()
        .args(["check", "--robots", "-", "--agent", "a", "/x"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"User-agent: a\rDisallow: /x\r")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "disallowed /x\n");
    let out = bin().args(["check", "--agent", "a", "/x"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin()
        .args([
            "check",
            "--robots",
            "/nonexistent/robots.txt",
            "--agent",
            "a",
            "/x",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn check_json_carries_the_explanation() {
    let mut child = bin()
        .args(["check", "--robots", "-", "--agent", "a", "--json", "/x"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"User-agent: a\nDisallow: /x\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["reply"]["verdict"], "disallowed");
    assert_eq!(v[0]["reply"]["explanation"]["rule_line"], 2);
}

#[test]
fn check_asks_the_named_adapter_not_the_oracle() {
    let dir = std::env::temp_dir()
        .join(format!("rc-cli-adapter-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("robots.txt");
    // Longest match allows /a/b; a first-match parser disallows it.
    std::fs::write(&file, "User-agent: *\nDisallow: /a\nAllow: /a/b\n")
        .unwrap();
    let ask = |extra: &[&str]| {
        let out = bin()
            .args(["check", "--robots"])
            .arg(&file)
            .args(["--agent", "x"])
            .args(extra)
            .arg("/a/b")
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(ask(&[]), "allowed /a/b\n");
    assert_eq!(ask(&["--adapter", "rust-robots_txt"]), "disallowed /a/b\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `serve` and the process adapter are the two ends of the wire: the
/// oracle served over stdin/stdout answers every operation as the
/// in-process reference does.
#[test]
fn serve_answers_the_process_adapter_like_the_reference() {
    use std::sync::Arc;

    use robots_adapters::process::{Limits, Process};
    use robots_adapters::reference::Reference;
    use robots_adapters::{Adapter, Reply, Request};

    let mut reference = Reference::for_profile("google").unwrap();
    let argv = vec![
        env!("CARGO_BIN_EXE_robots-conformance").to_string(),
        "serve".to_string(),
        "--profile".to_string(),
        "google".to_string(),
    ];
    let limits = Limits {
        base: std::time::Duration::from_secs(20),
        ..Limits::default()
    };
    let mut served = Process::new(reference.info(), argv, limits);
    let body: Arc<[u8]> =
        Arc::from(&b"User-agent: *\r\nDisallow: /p\nAllow: /p/q\n\xff\nSitemap: https://e.example/s.xml\nCrawl-delay: 5\n"[..]);
    let decide = |url: &str| Request::Decide {
        robots: body.clone(),
        agent: "FooBot".into(),
        url: url.into(),
    };
    let requests = vec![
        decide("/p"),
        decide("/p/q"),
        decide("https://e.example/x"),
        Request::Sitemaps { robots: body.clone() },
        Request::CrawlDelay { robots: body.clone(), agent: "FooBot".into() },
        Request::ValidToken { token: "Foo_Bar".into() },
        Request::ValidToken { token: "Foo Bar".into() },
        Request::RobotsUrl { url: "https://e.example/a/b?c".into() },
        Request::Governs {
            robots_url: "https://e.example/robots.txt".into(),
            url: "http://e.example/".into(),
        },
    ];
    let got = served.answer_batch(&requests);
    let want = reference.answer_batch(&requests);
    assert_eq!(got.len(), want.len());
    for ((r, g), w) in requests.iter().zip(&got).zip(&want) {
        match (g, w) {
            (
                Reply::Verdict { verdict: a, .. },
                Reply::Verdict { verdict: b, .. },
            ) => assert_eq!(a, b, "{r:?}"),
            _ => assert_eq!(g, w, "{r:?}"),
        }
    }
    assert!(matches!(got[0], Reply::Verdict { .. }), "{got:?}");
    assert_eq!(served.starts, 1, "one process answered everything");
}

/// `serve`'s answer lines to `input`, parsed.
fn serve(input: &[u8]) -> Vec<serde_json::Value> {
    serve_with(&[], input)
}

/// `serve ARGS`'s answer lines to `input`, parsed.
fn serve_with(args: &[&str], input: &[u8]) -> Vec<serde_json::Value> {
    use std::io::Write;
    let mut child = bin()
        .arg("serve")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "serve ends at end of input");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn serve_answers_an_error_for_a_non_utf8_line_and_goes_on() {
    let mut input = b"{\"id\":1,\"op\":\"decide\",\"robots\":\"\",\"agent\":\"a\xff\",\"urls\":[\"/x\"]}\n".to_vec();
    input.extend_from_slice(b"\xfe\xfe\n");
    input.extend_from_slice(
        b"{\"id\":3,\"op\":\"decide\",\"robots\":\"\",\"agent\":\"a\",\"urls\":[\"/x\"]}\n",
    );
    let answers = serve(&input);
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert_eq!(answers[0]["id"], 1);
    assert!(answers[0]["error"].as_str().unwrap().contains("not UTF-8"));
    assert!(answers[1]["error"].as_str().unwrap().contains("not UTF-8"));
    assert_eq!(answers[2]["id"], 3);
    assert_eq!(answers[2]["results"][0]["verdict"], "allowed");
}

#[test]
fn serve_refuses_urls_that_are_not_a_list_of_strings() {
    let line = |id: u32, urls: &str| {
        format!(
            "{{\"id\":{id},\"op\":\"decide\",\"robots\":\"\",\"agent\":\"a\",\"urls\":{urls}}}\n"
        )
    };
    let input = [
        line(1, "\"/x\""),
        line(2, "[null]"),
        line(3, "[5]"),
        line(4, "{\"a\":1}"),
    ]
    .concat();
    let answers = serve(input.as_bytes());
    assert_eq!(answers.len(), 4);
    for (i, a) in answers.iter().enumerate() {
        assert_eq!(a["id"], i + 1);
        assert!(a.get("results").is_none(), "{a}");
        let e = a["error"].as_str().unwrap();
        assert!(e.contains("urls must be a list of strings"), "{e}");
    }
}

#[test]
fn serve_answers_an_error_for_each_url_that_is_not_a_path_or_absolute() {
    let input = "{\"id\":7,\"op\":\"decide\",\"robots\":\"VXNlci1hZ2VudDogKgpEaXNhbGxvdzogLwo=\",\
                 \"agent\":\"a\",\"urls\":[\"\",\"/p\",\"#/x\",\"?q\",\"x\",\"https://e.com/a\"]}\n";
    let answers = serve(input.as_bytes());
    let results = answers[0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 6);
    // The body disallows everything: a URL that was asked is disallowed.
    for i in [1, 5] {
        assert_eq!(results[i]["verdict"], "disallowed", "{i}");
    }
    for i in [0, 2, 3, 4] {
        let e = results[i]["error"].as_str().unwrap();
        assert!(e.contains("path starting with exactly one '/'"), "{i}: {e}");
    }
}

#[test]
fn serve_under_google_answers_the_library_urls() {
    let input = "{\"id\":7,\"op\":\"decide\",\"robots\":\"VXNlci1hZ2VudDogKgpEaXNhbGxvdzogLwo=\",\
                 \"agent\":\"a\",\"urls\":[\"\",\"#/x\",\"?q\",\"x\"]}\n";
    let answers = serve_with(&["--profile", "google"], input.as_bytes());
    let results = answers[0]["results"].as_array().unwrap();
    // `Disallow: /` disallows `/`, which the empty and fragment-only URLs
    // are read as, and `/?q`.
    for i in [0, 1, 2] {
        assert_eq!(results[i]["verdict"], "disallowed", "{i}: {}", results[i]);
    }
    let e = results[3]["error"].as_str().unwrap();
    assert!(e.contains("path starting with exactly one '/'"), "{e}");
}

#[test]
fn check_under_google_answers_the_library_urls() {
    let dir = std::env::temp_dir()
        .join(format!("rc-check-library-urls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("robots.txt");
    std::fs::write(
        &file,
        "User-agent: *\nDisallow: /?private\nDisallow: /$\n",
    )
    .unwrap();
    let run = bin()
        .args(["check", "--profile", "google", "--agent", "a", "--robots"])
        .arg(&file)
        .args(["", "?private=1", "?public", "#top"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let out = String::from_utf8(run.stdout).unwrap();
    let verdicts: Vec<&str> = out
        .lines()
        .map(|l| l.split_whitespace().next().unwrap_or_default())
        .collect();
    assert_eq!(
        verdicts,
        ["disallowed", "disallowed", "allowed", "disallowed"]
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_refuses_urls_that_are_not_a_path_or_absolute() {
    let dir = std::env::temp_dir()
        .join(format!("rc-check-urls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("robots.txt");
    std::fs::write(&file, "User-agent: *\nDisallow: /\n").unwrap();
    for bad in ["", "#/x", "?q", "//h/x", "x"] {
        let run = bin()
            .args(["check", "--agent", "a", "--robots"])
            .arg(&file)
            .args(["/ok", bad])
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(
            err.contains("path starting with exactly one '/'"),
            "{bad:?}: {err}"
        );
        assert!(run.stdout.is_empty(), "{bad:?}: nothing is decided");
    }
}

/// What `check` did: exit code, stdout, stderr.
type Ran = (Option<i32>, String, String);

/// A scratch folder holding `User-agent: *` / `Disallow: /private` as
/// robots.txt, and `check` of `/private` and `/public` against it with
/// further arguments.
fn private_file_check(
    tag: &str,
) -> (std::path::PathBuf, impl Fn(&[&str]) -> Ran) {
    let dir = std::env::temp_dir()
        .join(format!("rc-cli-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("robots.txt");
    std::fs::write(&file, "User-agent: *\nDisallow: /private\n").unwrap();
    let ask = move |extra: &[&str]| {
        let out = bin()
            .args(["check", "--robots"])
            .arg(&file)
            .args(["--agent", "FooBot"])
            .args(extra)
            .args(["/private", "/public"])
            .output()
            .unwrap();
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (out.status.code(), text(out.stdout), text(out.stderr))
    };
    (dir, ask)
}

/// `check --status`: the file served with an HTTP status, asked as a
/// crawler that fetches it. The oracle answers by the profile's fetch
/// rules; a built-in adapter that fetches by itself gets the file from a
/// loopback server; one that cannot fetch is not asked, and says why; a
/// redirect, which needs a target, is refused with a clear error.
#[test]
fn check_with_a_status_asks_as_a_crawler_that_fetches_the_file() {
    let (dir, ask) = private_file_check("status");
    // 200: the body is the file (R2.3.1.1-1).
    let (code, out, _) = ask(&["--status", "200"]);
    assert_eq!(code, Some(0));
    assert_eq!(out, "disallowed /private\nallowed /public\n");
    // 404: unavailable, allow all (R2.3.1.3); 503: unreachable, complete
    // disallow (R2.3.1.4-1), whatever the body says.
    assert_eq!(
        ask(&["--status", "404"]).1,
        "allowed /private\nallowed /public\n"
    );
    let (_, out, _) = ask(&["--status", "503", "--explain"]);
    assert!(out.starts_with("disallowed /private\n"), "{out}");
    assert!(out.contains("policy: disallow-all (R2.3.1.4-1)"), "{out}");
    assert!(out.contains("disallowed /public\n"), "{out}");
    // 429: a 4xx to RFC 9309, a server error to Google (G-STATUS-5).
    assert_eq!(
        ask(&["--status", "429"]).1,
        "allowed /private\nallowed /public\n"
    );
    assert_eq!(
        ask(&["--status", "429", "--profile", "google"]).1,
        "disallowed /private\ndisallowed /public\n"
    );
    // A live fetch from the loopback server by a built-in adapter: the
    // body is parsed on 200.
    let (code, out, err) =
        ask(&["--status", "200", "--adapter", "rust-robotparser"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "disallowed /private\nallowed /public\n");
    // An adapter that cannot fetch is not asked.
    let (code, out, _) =
        ask(&["--status", "503", "--adapter", "rust-robots_txt"]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("not-applicable /private ("), "{out}");
    // A redirect needs a target; anything outside 200-599 is no status.
    for bad in ["301", "600", "99"] {
        let (code, _, err) = ask(&["--status", bad]);
        assert_eq!(code, Some(2), "--status {bad}: {err}");
        assert!(err.contains(bad), "--status {bad}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `check --content-encoding`: the file served coded (gzip, deflate, or
/// a list in the order applied). The oracle undoes the codings before
/// parsing (RFC 9110 §8.4: the file is the decoded representation);
/// robotparser 0.11.0's own fetch (reqwest without its gzip feature)
/// parses the coded bytes and finds no rules (rust-robotparser-3); an
/// unknown coding is refused, naming it.
#[test]
fn check_with_a_content_encoding_serves_the_file_coded() {
    let (dir, ask) = private_file_check("coding");
    for coding in ["gzip", "deflate", "gzip, deflate, gzip"] {
        let (code, out, err) = ask(&["--content-encoding", coding]);
        assert_eq!(code, Some(0), "{coding}: {err}");
        assert_eq!(out, "disallowed /private\nallowed /public\n", "{coding}");
    }
    let (_, out, _) = ask(&["--content-encoding", "gzip", "--explain"]);
    assert!(out.contains("Content-Encoding gzip decoded"), "{out}");
    // The status is --status when given: a 503 is unreachable, coded or
    // not.
    let (_, out, _) = ask(&["--content-encoding", "gzip", "--status", "503"]);
    assert_eq!(out, "disallowed /private\ndisallowed /public\n");
    // A parser that fetches by itself gets the coded body.
    let (code, out, err) =
        ask(&["--content-encoding", "gzip", "--adapter", "rust-robotparser"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "allowed /private\nallowed /public\n");
    let (code, out, err) = ask(&["--content-encoding", "gzip, br"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(
        err.contains("--content-encoding") && err.contains("`br`"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Output piped into a reader that stops (`check … | head`): the run ends
/// with 141, as a shell reports SIGPIPE, and no panic message.
#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    use std::io::Read;
    let dir = std::env::temp_dir()
        .join(format!("rc-cli-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("robots.txt");
    std::fs::write(&file, "User-agent: *\nDisallow: /private\n").unwrap();
    let urls: Vec<String> =
        (0..20_000).map(|i| format!("/private/{i}")).collect();
    let mut child = bin()
        .args(["check", "--explain", "--agent", "FooBot", "--robots"])
        .arg(&file)
        .args(&urls)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The pipe's read end is dropped here: the next writes fail.
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
