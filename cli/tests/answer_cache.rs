//! The matrix's answer cache and its hostile-body deadline, counted with
//! a script adapter that logs every request it gets (`fixtures/counting`):
//! a second run asks nothing, an edited case is asked again, `--no-cache`
//! asks everything, a corrupt cache file is survived; a body that hangs
//! the parser is asked twice (its batch, then its shortest URL alone), not
//! once per URL, and its confirmed timeouts are cached and replayed as
//! timeouts; a timeout that does not repeat is not cached.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

use common::{clause_index_into, have_python};

/// A fresh folder for `name`.
fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("cache-{name}"))
}

/// A cases folder: one case per body, each asking `urls`.
fn cases(root: &Path, bodies: &[&str], urls: &[&str]) {
    clause_index_into(root);
    let checks: Vec<String> = urls
        .iter()
        .map(|u| {
            format!(
                "{{ agent = \"FooBot\", url = \"{u}\", expect = \"allowed\" }}"
            )
        })
        .collect();
    let mut text = String::new();
    for (i, body) in bodies.iter().enumerate() {
        text += &format!(
            "[[case]]\nid = \"c{i}\"\nclauses = [\"R2.2.2-9\"]\n\
             source = \"regression\"\nrobots = \"{body}\"\ncheck = [{}]\n",
            checks.join(", ")
        );
    }
    std::fs::write(root.join("t/cache.toml"), text).unwrap();
}

struct Setup {
    cases: PathBuf,
    cache: PathBuf,
    log: PathBuf,
}

impl Setup {
    fn new(tag: &str, bodies: &[&str], urls: &[&str]) -> Setup {
        let dir = scratch(tag);
        let s = Setup {
            cases: dir.join("cases"),
            cache: dir.join("cache"),
            log: dir.join("asked.log"),
        };
        std::fs::create_dir_all(&s.cases).unwrap();
        cases(&s.cases, bodies, urls);
        s
    }

    /// Runs the matrix; returns its output and the requests it made the
    /// adapter answer (lines of the log), clearing the log.
    fn run(&self, extra: &[&str]) -> (Output, Vec<String>) {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/counting");
        let out = Command::new(env!("CARGO_BIN_EXE_robots-conformance"))
            .env("ROBOTS_CONFORMANCE_ADAPTERS", fixtures)
            .env("ROBOTS_CONFORMANCE_CACHE", &self.cache)
            .env("COUNT_LOG", &self.log)
            .args(["matrix", "--adapters", "fake-counter"])
            .args(if extra.contains(&"--timeout") {
                &[][..]
            } else {
                &["--timeout", "1"][..]
            })
            .arg("--cases")
            .arg(&self.cases)
            .args(extra)
            .output()
            .unwrap();
        let asked = std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(String::from)
            .collect();
        let _ = std::fs::remove_file(&self.log);
        (out, asked)
    }
}

fn ran(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// URLs asked, over all logged requests.
fn urls_asked(asked: &[String]) -> usize {
    asked
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<usize>().unwrap())
        .sum()
}

#[test]
fn a_second_run_asks_nothing_an_edited_case_is_asked_again() {
    if !have_python() {
        return;
    }
    let bodies =
        ["User-agent: *\\nDisallow: /a", "User-agent: *\\nDisallow: /b"];
    let s = Setup::new("rerun", &bodies, &["/x", "/y", "/z"]);
    let (out, asked) = s.run(&[]);
    let first = ran(&out);
    assert_eq!(urls_asked(&asked), 6, "{asked:?}");
    let (out, asked) = s.run(&[]);
    let second = ran(&out);
    assert!(asked.is_empty(), "a warm run asked {asked:?}");
    // The same table: the cached answers are judged like fresh ones.
    let table = |t: &str| {
        t.lines()
            .filter(|l| l.contains("fake-counter"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(table(&first), table(&second));
    assert!(second.contains("fake-counter"), "{second}");
    // Edit one body: only its case is asked again.
    let edited =
        ["User-agent: *\\nDisallow: /a", "User-agent: *\\nDisallow: /c"];
    cases(&s.cases, &edited, &["/x", "/y", "/z"]);
    let (out, asked) = s.run(&[]);
    ran(&out);
    assert_eq!(urls_asked(&asked), 3, "{asked:?}");
    assert!(asked.iter().all(|l| l.ends_with("User-agent: *")), "{asked:?}");
    // --no-cache asks everything, and leaves the cache alone.
    let (out, asked) = s.run(&["--no-cache"]);
    ran(&out);
    assert_eq!(urls_asked(&asked), 6, "{asked:?}");
    let (out, asked) = s.run(&[]);
    ran(&out);
    assert!(asked.is_empty(), "{asked:?}");
}

#[test]
fn a_corrupt_cache_file_is_a_warning_and_is_replaced() {
    if !have_python() {
        return;
    }
    let s = Setup::new(
        "corrupt",
        &["User-agent: *\\nDisallow: /a"],
        &["/x", "/y"],
    );
    let (out, _) = s.run(&[]);
    ran(&out);
    let files: Vec<PathBuf> = std::fs::read_dir(&s.cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    for garbage in [&b"{\"adapter\": \"fake-counter"[..], b"\xff\xfe\x00", b""]
    {
        std::fs::write(&files[0], garbage).unwrap();
        let (out, asked) = s.run(&[]);
        ran(&out);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("warning: answer cache"), "{stderr}");
        assert_eq!(urls_asked(&asked), 2, "{asked:?}");
        // Replaced by a good file: the next run asks nothing.
        let (out, asked) = s.run(&[]);
        ran(&out);
        assert!(asked.is_empty(), "{asked:?}");
    }
}

#[test]
fn a_body_that_hangs_the_parser_is_asked_twice_not_once_per_url() {
    if !have_python() {
        return;
    }
    let urls = ["/a", "/bb", "/ccc", "/dddd", "/eeeee", "/ffffff"];
    let s = Setup::new(
        "hostile",
        &["HANG-ME\\nDisallow: /", "User-agent: *\\nDisallow: /n"],
        &urls,
    );
    let dir = s.cases.parent().unwrap().join("out");
    let (out, asked) = s.run(&["--out", dir.to_str().unwrap()]);
    ran(&out);
    let hung: Vec<&String> =
        asked.iter().filter(|l| l.ends_with("HANG-ME")).collect();
    // The batch of six URLs, then the shortest alone.
    assert_eq!(hung.len(), 2, "{asked:?}");
    assert_eq!(urls_asked(&[hung[0].clone()]), 6, "{hung:?}");
    assert_eq!(urls_asked(&[hung[1].clone()]), 1, "{hung:?}");
    let report: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.join("report.json")).unwrap(),
    )
    .unwrap();
    for row in report["checks"].as_array().unwrap() {
        let got = row["results"]["fake-counter"]["outcome"]["rfc9309"]
            .as_str()
            .unwrap();
        let want = if row["case"].as_str().unwrap().ends_with("c0") {
            "timeout"
        } else {
            "pass"
        };
        assert_eq!(got, want, "{}", row["name"]);
    }
    let outcomes = |dir: &Path| -> Vec<(String, String)> {
        let report: serde_json::Value = serde_json::from_slice(
            &std::fs::read(dir.join("report.json")).unwrap(),
        )
        .unwrap();
        report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                (
                    row["name"].as_str().unwrap().to_string(),
                    row["results"]["fake-counter"]["answer"]
                        .as_str()
                        .unwrap()
                        .to_string(),
                )
            })
            .collect()
    };
    let cold = outcomes(&dir);
    assert_eq!(cold.iter().filter(|(_, a)| a == "timeout").count(), 6);
    // The timeouts were confirmed (two asks, the second alone in a fresh
    // process, each waited twice the deadline): cached, and replayed as
    // timeouts without asking.
    let warm_dir = s.cases.parent().unwrap().join("warm");
    let (out, asked) = s.run(&["--out", warm_dir.to_str().unwrap()]);
    ran(&out);
    assert!(asked.is_empty(), "a warm run asked {asked:?}");
    assert_eq!(outcomes(&warm_dir), cold, "warm cells differ from cold");
    // A run that would wait longer than they were confirmed with asks the
    // hanging body again (and only it).
    let (out, asked) = s.run(&["--timeout", "1.5"]);
    ran(&out);
    assert!(asked.iter().all(|l| l.ends_with("HANG-ME")), "{asked:?}");
    assert_eq!(asked.len(), 2, "{asked:?}");
}

#[test]
fn a_timeout_that_does_not_repeat_is_not_cached() {
    if !have_python() {
        return;
    }
    let urls = ["/a", "/bb", "/ccc"];
    let s = Setup::new(
        "flaky",
        &["HANG-ONCE\\nDisallow: /", "User-agent: *\\nDisallow: /n"],
        &urls,
    );
    let dir = s.cases.parent().unwrap().join("out");
    let (out, asked) = s.run(&["--out", dir.to_str().unwrap()]);
    ran(&out);
    let flaky: Vec<&String> =
        asked.iter().filter(|l| l.ends_with("HANG-ONCE")).collect();
    // The batch (it hangs), its shortest URL alone (answered), then the
    // other two alone.
    assert_eq!(flaky.len(), 4, "{asked:?}");
    let report: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.join("report.json")).unwrap(),
    )
    .unwrap();
    for row in report["checks"].as_array().unwrap() {
        let cell = &row["results"]["fake-counter"];
        assert_eq!(cell["answer"], "allowed", "{}", row["name"]);
    }
    let cost = &report["adapters"][0]["cost"];
    assert_eq!(cost["timeouts"], 0, "{cost}");
    assert_eq!(
        cost["processes"].as_u64(),
        cost["instances"].as_u64().map(|n| n + 1),
        "one restart: {cost}"
    );
    // No timeout was filed: the answers it gave were, so nothing is asked.
    let cache = std::fs::read_dir(&s.cache).unwrap().next().unwrap();
    let text = std::fs::read_to_string(cache.unwrap().path()).unwrap();
    assert!(!text.contains("timed-out"), "{text}");
    let (out, asked) = s.run(&[]);
    ran(&out);
    assert!(asked.is_empty(), "{asked:?}");
}
