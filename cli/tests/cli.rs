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
