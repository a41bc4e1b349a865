//! `matrix.html`, rendered by a real browser: a small matrix run is loaded
//! in headless Chromium with different URL hashes (the page mirrors its
//! filters there), and the rendered DOM (`--dump-dom`) is checked against
//! what report.json says the view must contain.
//!
//! Needs `chromium` on PATH (Debian: `apt-get install -y chromium`); without
//! it the test is skipped, unless `CI` is set, where it fails.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The adapters and checks of the run: three quick adapters, the encoding
/// cases, and the case whose body is an HTML page (for escaping).
const ADAPTERS: &str = "reference,reference-google,rust-robots_txt";
const FILTERS: [&str; 2] = ["encoding", "html-body-rules-extracted"];

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("chromium"))
        .find(|p| p.is_file())
}

/// What report.json says about one check.
struct Row {
    name: String,
    categories: Vec<String>,
    /// Every parser that answered (not-applicable aside) answered the same.
    agree: bool,
    /// adapter → profile → outcome.
    outcomes: BTreeMap<String, BTreeMap<String, String>>,
    question: String,
    robots: String,
}

/// What the browser rendered for one hash.
struct Page {
    hash: String,
    /// `document.body.dataset.rows`.
    rows: usize,
    /// The rendered rows: check name → [(adapter, outcome)].
    table: Vec<(String, Vec<(String, String)>)>,
    /// The whole dumped DOM.
    dom: String,
}

impl Page {
    fn names(&self) -> Vec<&str> {
        self.table.iter().map(|(n, _)| n.as_str()).collect()
    }

    fn outcome(&self, check: &str, adapter: &str) -> Option<&str> {
        let (_, cells) = self.table.iter().find(|(n, _)| n == check)?;
        cells.iter().find(|(a, _)| a == adapter).map(|(_, o)| o.as_str())
    }
}

#[test]
fn matrix_html_renders_and_filters_in_chromium() {
    let started = Instant::now();
    let Some(chromium) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is not on PATH: the matrix.html test needs it in CI \
             (Debian: apt-get install -y chromium)"
        );
        eprintln!("skipped: chromium not installed");
        return;
    };

    let dir =
        std::env::temp_dir().join(format!("rc-html-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out");
    let run = Command::new(env!("CARGO_BIN_EXE_robots-conformance"))
        .args(["matrix", "--adapters", ADAPTERS, "--out"])
        .arg(&out)
        .args(FILTERS)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "matrix run failed: {}\n{}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );

    let report: Value = serde_json::from_slice(
        &std::fs::read(out.join("report.json")).unwrap(),
    )
    .unwrap();
    let profile = report["profile"].as_str().unwrap().to_string();
    assert!(
        profile == "rfc9309",
        "the run uses the default profile, got {profile}"
    );
    let ready: Vec<String> = report["adapters"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["status"] == "ready")
        .map(|a| a["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ready.len(), 3, "all three adapters should be ready");
    let rows = rows_of(&report, &ready);
    assert!(
        rows.len() > 50,
        "a few hundred checks expected, got {}",
        rows.len()
    );

    // The expected views.
    let pruned: Vec<&str> =
        rows.iter().filter(|r| !r.agree).map(|r| r.name.as_str()).collect();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &rows {
        for c in &r.categories {
            *counts.entry(c.as_str()).or_default() += 1;
        }
    }
    // the smallest category that is not everything
    let (category, _) = counts
        .iter()
        .filter(|(_, n)| **n < rows.len())
        .min_by_key(|(_, n)| **n)
        .expect("the run should span more than one category");
    let in_category: Vec<&str> = rows
        .iter()
        .filter(|r| r.categories.iter().any(|c| c == category))
        .map(|r| r.name.as_str())
        .collect();
    let q = "figure-4::row";
    let searched: Vec<&str> = rows
        .iter()
        .filter(|r| !r.agree && r.name.contains(q))
        .map(|r| r.name.as_str())
        .collect();
    assert!(!searched.is_empty(), "some disagreeing figure-4 row expected");
    let html_row = rows
        .iter()
        .find(|r| r.robots.contains("<html>"))
        .expect("the html-body case is selected");

    let hashes = [
        String::new(),
        "pruned=0".to_string(),
        "pruned=0&profile=google".to_string(),
        format!("pruned=0&category={}", enc(category)),
        format!("q={}", enc(q)),
        format!("open={}&cell=rust-robots_txt", enc(&html_row.name)),
    ];
    let url = format!("file://{}", out.join("matrix.html").display());
    let pages: Vec<Page> = std::thread::scope(|s| {
        let handles: Vec<_> = hashes
            .iter()
            .enumerate()
            .map(|(i, hash)| {
                let (chromium, dir, url) = (&chromium, &dir, &url);
                s.spawn(move || {
                    load(
                        chromium,
                        &dir.join(format!("profile-{i}")),
                        url,
                        hash,
                    )
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let [default, all, google, by_category, by_name, details] = &pages[..]
    else {
        unreachable!()
    };
    for p in &pages {
        assert_eq!(
            p.rows,
            p.table.len(),
            "data-rows vs rendered rows at #{}",
            p.hash
        );
        for (name, cells) in &p.table {
            let got: Vec<&str> =
                cells.iter().map(|(a, _)| a.as_str()).collect();
            assert_eq!(got, ready, "columns of {name} at #{}", p.hash);
        }
    }

    // Default: the pruned view, only rows where the parsers disagree.
    assert!(default.rows > 0, "nothing rendered:\n{}", clip(&default.dom));
    assert_eq!(default.names(), pruned, "pruned rows");
    assert!(
        default.rows < all.rows,
        "pruning should hide rows ({} vs {})",
        default.rows,
        all.rows
    );
    // its summary counts equal report.json's
    for a in report["adapters"].as_array().unwrap() {
        let name = a["name"].as_str().unwrap();
        for (outcome, n) in a["counts"].as_object().unwrap() {
            assert_eq!(
                summary_count(&default.dom, name, outcome),
                Some(n.as_u64().unwrap() as usize),
                "summary: {name} {outcome}"
            );
        }
    }

    // pruned=0: every check, in order, coloured under the report's profile.
    let everything: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(all.names(), everything, "pruned=0 shows every check");
    // profile=google: the same rows, coloured under Google's expectations.
    assert_eq!(google.names(), everything);
    let mut changed = 0;
    for r in &rows {
        for a in &ready {
            let want = |p: &str| r.outcomes[a].get(p).map(String::as_str);
            assert_eq!(
                all.outcome(&r.name, a),
                want(&profile),
                "{} / {a}",
                r.name
            );
            assert_eq!(
                google.outcome(&r.name, a),
                want("google"),
                "{} / {a}",
                r.name
            );
            if want(&profile) != want("google") {
                changed += 1;
                assert_ne!(
                    all.outcome(&r.name, a),
                    google.outcome(&r.name, a)
                );
            }
        }
    }
    assert!(changed > 0, "some cell should differ between the profiles");

    // Filters narrow to exactly the matching checks.
    assert_eq!(by_category.names(), in_category, "category={category}");
    assert!(by_category.rows < all.rows);
    assert_eq!(by_name.names(), searched, "q={q} (pruned)");
    assert!(by_name.rows < default.rows);

    // Details: the case, escaped; the chosen parser's answer.
    let panel = slice(&details.dom, "<aside id=\"panel\"", "</aside>")
        .expect("the details panel is in the page");
    let open_tag = &panel[..panel.find('>').unwrap()];
    assert!(!open_tag.contains("hidden"), "panel stays hidden: {open_tag}");
    assert!(panel.contains(&text_escaped(&html_row.name)), "title");
    assert!(panel.contains(&text_escaped(&html_row.question)), "question");
    assert!(panel.contains("&lt;html&gt;"), "the body is shown as text");
    assert!(
        !panel.contains("<html") && !panel.contains("<body"),
        "body markup leaked"
    );
    assert!(
        panel.contains("data-answer-of=\"rust-robots_txt\""),
        "the clicked cell's parser"
    );

    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "matrix.html: {} page loads in {:.1?}",
        pages.len(),
        started.elapsed()
    );
}

fn rows_of(report: &Value, ready: &[String]) -> Vec<Row> {
    let cases = &report["cases"];
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let results = c["results"].as_object().unwrap();
            let mut outcomes = BTreeMap::new();
            let mut answers = Vec::new();
            for a in ready {
                let Some(cell) = results.get(a) else { continue };
                let by_profile: BTreeMap<String, String> = cell["outcome"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(p, o)| (p.clone(), o.as_str().unwrap().to_string()))
                    .collect();
                if !by_profile.values().all(|o| o == "not-applicable") {
                    answers.push(cell["answer"].as_str().unwrap());
                }
                outcomes.insert(a.clone(), by_profile);
            }
            answers.sort_unstable();
            answers.dedup();
            Row {
                name: c["name"].as_str().unwrap().to_string(),
                categories: c["categories"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|k| k.as_str().unwrap().to_string())
                    .collect(),
                agree: answers.len() <= 1,
                outcomes,
                question: c["question"].as_str().unwrap().to_string(),
                robots: cases[c["case"].as_str().unwrap()]["robots"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            }
        })
        .collect()
}

/// Loads `url#hash` in a fresh headless Chromium and parses what it rendered.
fn load(chromium: &Path, profile: &Path, url: &str, hash: &str) -> Page {
    std::fs::create_dir_all(profile).unwrap();
    let dump = profile.with_extension("html");
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=5000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("{url}#{hash}"))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&dump).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(90);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish loading #{hash}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let dom = std::fs::read_to_string(&dump).unwrap();
    assert!(
        dom.contains("<html"),
        "no DOM dumped for #{hash}: {}",
        clip(&dom)
    );

    let body = &dom[dom.find("<body").expect("a body element")..];
    let body_tag = &body[..body.find('>').unwrap()];
    let rows = attr(body_tag, "data-rows")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no data-rows at #{hash}: {body_tag}"));

    let tbody = slice(&dom, "<tbody id=\"mx-body\"", "</tbody>")
        .unwrap_or_else(|| panic!("no matrix at #{hash}"));
    let mut table = Vec::new();
    for tr in tbody.split("<tr").skip(1) {
        let tag = &tr[..tr.find('>').unwrap()];
        let Some(name) = attr(tag, "data-check") else { continue };
        let cells = tr
            .split("<td")
            .skip(1)
            .filter_map(|td| {
                let tag = &td[..td.find('>')?];
                Some((attr(tag, "data-adapter")?, attr(tag, "data-outcome")?))
            })
            .collect();
        table.push((name, cells));
    }
    Page { hash: hash.to_string(), rows, table, dom }
}

/// The count cell `kind` of `adapter`'s row in the summary table.
fn summary_count(dom: &str, adapter: &str, kind: &str) -> Option<usize> {
    let row = slice(
        dom,
        &format!("<tr data-summary=\"{}\"", attr_escaped(adapter)),
        "</tr>",
    )?;
    let at = row.find(&format!("data-k=\"{kind}\">"))? + kind.len() + 10;
    row[at..].split('<').next()?.trim().parse().ok()
}

/// From the first `start` to the next `end`.
fn slice<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = text.find(start)?;
    let len = text[from..].find(end)?;
    Some(&text[from..from + len])
}

/// An attribute's value in a serialised start tag.
fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let from = tag.find(&key)? + key.len();
    let len = tag[from..].find('"')?;
    Some(unescape(&tag[from..from + len]))
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u{a0}")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Text as Chromium serialises it inside an element.
fn text_escaped(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn attr_escaped(s: &str) -> String {
    text_escaped(s).replace('"', "&quot;")
}

/// Percent-encodes a hash parameter value.
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn clip(s: &str) -> &str {
    let mut end = s.len().min(2000);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}
