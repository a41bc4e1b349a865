//! `site`: the results site built from a small matrix (three parsers on
//! two clauses, one of which python-urllib breaks by reading rules in file
//! order), a history and the bug register — the ranking's order, a clause
//! page naming who follows it, the badges' text and percent, every link
//! resolving to a file of the site, no file left half-written, and bad
//! inputs refused naming the file. Also `certify`'s badge.

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use common::{bin, case_files, have_python, scratch, text};

/// Two cases, each citing one MUST clause: R2.2.2-4 (matching starts at
/// the path's first octet) every parser follows; R2.2.2-5 (the most
/// specific match) python-urllib breaks, as `urllib.robotparser` applies
/// the first rule that matches in file order.
const CASES: [(&str, &[u8]); 2] = [
    (
        "prefix",
        b"[[case]]\nid = \"prefix\"\nclauses = [\"R2.2.2-4\"]\nsource = \"regression\"\n\
          robots = \"User-agent: *\\nDisallow: /x\\n\"\n\
          check = [{ agent = \"FooBot\", url = \"/x/y\", expect = \"disallowed\" }, \
          { agent = \"FooBot\", url = \"/y/x\", expect = \"allowed\" }]\n",
    ),
    (
        "longest",
        b"[[case]]\nid = \"longest\"\nclauses = [\"R2.2.2-5\"]\nsource = \"regression\"\n\
          robots = \"User-agent: *\\nDisallow: /\\nAllow: /page\\n\"\n\
          check = [{ agent = \"FooBot\", url = \"/page\", expect = \"allowed\" }]\n",
    ),
];

const PARSERS: &str = "reference,python-urllib,rust-robotstxt";

/// A history of python-urllib over two releases (a history.json as
/// `history` writes it).
const HISTORY: &str = r#"{"adapter":"python-urllib","profile":"rfc9309","cases_dir":"spec-cases",
 "releases":[
  {"version":"3.11","adapter":"python-urllib@3.11","reported":"3.11","status":"ready",
   "counts":{"pass":8,"fail":2},"levels":{"MUST":[8,10]},"categories":{},"fingerprint":null},
  {"version":"3.12","adapter":"python-urllib@3.12","reported":"3.12","status":"ready",
   "counts":{"pass":9,"fail":1},"levels":{"MUST":[9,10]},"categories":{},"fingerprint":null}],
 "changes":[{"from":"3.11","to":"3.12","movement":"fixed","check":"t::c::c::1","case":"c",
   "level":"MUST","clauses":["R2.2.2-5"],"expect":"allowed",
   "before":{"outcome":"fail","answer":"disallowed"},"after":{"outcome":"pass","answer":"allowed"}}]}"#;

/// The matrix of the three parsers on [`CASES`], with fits, made once:
/// (its folder, holding report.json; a folder holding history.json).
fn inputs() -> &'static (PathBuf, PathBuf) {
    static INPUTS: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    INPUTS.get_or_init(|| {
        let cases = case_files("site", &CASES);
        let root = scratch("site-inputs");
        let out = root.join("runs/small");
        let run = bin()
            .args([
                "matrix",
                "--adapters",
                PARSERS,
                "--fingerprint",
                "--cases",
            ])
            .arg(&cases)
            .arg("--out")
            .arg(&out)
            .env("ROBOTS_CONFORMANCE_CACHE", root.join("cache"))
            .output()
            .unwrap();
        assert!(out.join("report.json").is_file(), "{}", text(&run.stderr));
        let hist = root.join("histories/python-urllib");
        std::fs::create_dir_all(&hist).unwrap();
        std::fs::write(hist.join("history.json"), HISTORY).unwrap();
        (out, root.join("histories"))
    })
}

/// Builds a site into a fresh folder: (its folder, the run's output).
fn site(tag: &str, args: &[&Path]) -> (PathBuf, std::process::Output) {
    let out = scratch(&format!("site-{tag}")).join("site");
    let run =
        bin().arg("site").arg("--out").arg(&out).args(args).output().unwrap();
    (out, run)
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The values of `attr="…"` in `html`, in order.
fn attrs(html: &str, attr: &str) -> Vec<String> {
    let key = format!("{attr}=\"");
    html.match_indices(&key)
        .map(|(at, _)| {
            let rest = &html[at + key.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

/// The `data-parser` of each row of the table with id `table`.
fn rows_of(html: &str, table: &str) -> Vec<String> {
    let start = html.find(&format!("<table id=\"{table}\"")).unwrap();
    let end = start + html[start..].find("</table>").unwrap();
    attrs(&html[start..end], "data-parser")
}

/// Every file below `dir`, relative.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// The share of MUST-level checks `adapter` passes in `report` (the
/// matrix counted under rfc9309), re-derived here from the cells: passed
/// over scored (every outcome but unscored and not-applicable), rounded
/// down.
fn must_percent(report: &serde_json::Value, adapter: &str) -> usize {
    assert_eq!(report["profile"], "rfc9309");
    let (mut pass, mut scored) = (0, 0);
    for row in report["checks"].as_array().unwrap() {
        if row["level"] != "MUST" {
            continue;
        }
        let o =
            row["results"][adapter]["outcome"]["rfc9309"].as_str().unwrap();
        if o != "unscored" && o != "not-applicable" {
            scored += 1;
            pass += usize::from(o == "pass");
        }
    }
    pass * 100 / scored
}

#[test]
fn the_index_ranks_by_must_score_and_each_parser_has_a_page_and_badge() {
    if !have_python() {
        return;
    }
    let (report_dir, histories) = inputs();
    let (out, run) =
        site("rank", &[&report_dir.join("report.json"), histories]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let index = read(&out.join("index.html"));
    // reference and rust-robotstxt pass all three MUST checks (a tie,
    // broken by name); python-urllib passes 2 of 3.
    assert_eq!(
        rows_of(&index, "ranking"),
        ["reference", "rust-robotstxt", "python-urllib"]
    );
    assert!(index.contains("66.7 %"), "python-urllib's MUST score");
    let report: serde_json::Value =
        serde_json::from_str(&read(&report_dir.join("report.json"))).unwrap();
    for adapter in PARSERS.split(',') {
        let page = read(&out.join(format!("parsers/{adapter}.html")));
        // The certificate by clause lists both clauses.
        assert_eq!(
            attrs(&page, "data-clause"),
            ["R2.2.2-4", "R2.2.2-5"],
            "{adapter}"
        );
        // The fitted reading is the report's own.
        let col = report["adapters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == adapter);
        let fit = col.unwrap()["fingerprint"].as_str().unwrap();
        assert!(page.contains(&robots_escape(fit)), "{adapter}: {fit}");
        // The badge: the MUST-level checks passed over scored.
        let percent = must_percent(&report, adapter);
        let svg = read(&out.join(format!("badges/{adapter}.svg")));
        assert!(svg.contains(">RFC 9309 MUST</text>"), "{svg}");
        assert!(
            svg.contains(&format!(">{percent} %</text>")),
            "{adapter} {percent}: {svg}"
        );
        assert!(
            svg.contains("<title>") && svg.contains("role=\"img\""),
            "{svg}"
        );
        assert!(page.contains(&format!("src=\"../badges/{adapter}.svg\"")));
    }
    assert_eq!(must_percent(&report, "python-urllib"), 66);
    assert_eq!(must_percent(&report, "reference"), 100);
}

fn robots_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[test]
fn a_clause_page_names_the_parsers_that_follow_and_break_it() {
    if !have_python() {
        return;
    }
    let (report_dir, _) = inputs();
    let (out, run) = site("clause", &[report_dir]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let page = read(&out.join("clauses/R2.2.2-5.html"));
    assert!(page.contains("The most specific match found MUST be used."));
    let start = page.find("<table id=\"followers\"").unwrap();
    let table = &page[start..start + page[start..].find("</table>").unwrap()];
    let status: Vec<(String, String)> = attrs(table, "data-parser")
        .into_iter()
        .zip(attrs(table, "data-status"))
        .collect();
    let want = [
        ("reference", "pass"),
        ("rust-robotstxt", "pass"),
        ("python-urllib", "fail"),
    ];
    let want: Vec<(String, String)> =
        want.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    assert_eq!(status, want);
    // Its slice of the matrix: python-urllib's answer on the check.
    assert!(page.contains("fail<br><small>disallowed</small>"), "{page}");
    let other = read(&out.join("clauses/R2.2.2-4.html"));
    assert!(
        !other.contains("data-status=\"fail\""),
        "every parser follows R2.2.2-4"
    );
}

#[test]
fn every_link_resolves_to_a_file_of_the_site_and_nothing_is_fetched_from_elsewhere()
 {
    if !have_python() {
        return;
    }
    let (report_dir, histories) = inputs();
    let (out, run) = site("links", &[report_dir, histories]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let all = files(&out);
    let mut checked = 0;
    for rel in
        all.iter().filter(|p| p.extension().is_some_and(|x| x == "html"))
    {
        let html = read(&out.join(rel));
        assert!(html.contains("<main id=\"main\""), "{}", rel.display());
        assert!(html.ends_with("</html>\n"), "{} is whole", rel.display());
        for link in attrs(&html, "href").into_iter().chain(attrs(&html, "src"))
        {
            assert!(
                !link.contains("//"),
                "{}: {link} leaves the site",
                rel.display()
            );
            let path = link.split('#').next().unwrap();
            if path.is_empty() {
                continue;
            }
            let target = out.join(rel.parent().unwrap()).join(path);
            assert!(
                target.is_file(),
                "{}: {link} → {}",
                rel.display(),
                target.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked} links");
    // The history's chart on python-urllib's page, and its change.
    let page = read(&out.join("parsers/python-urllib.html"));
    assert!(page.contains("History of python-urllib"), "{page}");
    assert!(page.contains("<polyline"), "the chart");
    assert!(page.contains("3.11 → 3.12"), "the change");
}

#[test]
fn the_register_bugs_show_on_their_parsers_page_with_reproductions() {
    if !have_python() {
        return;
    }
    let (report_dir, _) = inputs();
    let (out, run) = site("bugs", &[report_dir]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let register = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bugs/python-urllib.toml");
    let entries: toml::Value = toml::from_str(&read(&register)).unwrap();
    let page = read(&out.join("parsers/python-urllib.html"));
    let bugs = entries["bug"].as_array().unwrap();
    assert!(!bugs.is_empty());
    for b in bugs {
        let id = b["id"].as_str().unwrap();
        assert!(
            page.contains(&format!("<section class=\"bug\" id=\"{id}\"")),
            "{id}"
        );
        let robots = robots_escape(b["robots"].as_str().unwrap());
        assert!(
            page.contains(&format!("<pre>{robots}</pre>")),
            "{id}'s reproduction"
        );
    }
    // A parser only the register knows gets a page too.
    let index = read(&out.join("index.html"));
    assert!(
        index.contains("href=\"parsers/rust-texting_robots.html\""),
        "{index}"
    );
    assert!(out.join("parsers/rust-texting_robots.html").is_file());
}

#[test]
fn pages_are_written_whole_with_no_temporary_file_left_and_a_rebuild_replaces_them()
 {
    if !have_python() {
        return;
    }
    let (report_dir, histories) = inputs();
    let (out, run) = site("atomic", &[report_dir]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let before = read(&out.join("index.html"));
    for rel in files(&out) {
        let name = rel.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            !name.starts_with('.') && !name.ends_with(".tmp"),
            "left behind: {}",
            rel.display()
        );
    }
    // Built again from the history alone: the index is replaced whole.
    let again = bin()
        .arg("site")
        .arg("--out")
        .arg(&out)
        .arg(histories)
        .output()
        .unwrap();
    assert!(again.status.success(), "{}", text(&again.stderr));
    let after = read(&out.join("index.html"));
    assert_ne!(before, after);
    assert!(
        after.contains("from 0 matrix report(s), 1 history file(s)"),
        "{after}"
    );
    // A page that cannot be written (its folder is a file) is named, and
    // the pages written before it are whole.
    std::fs::remove_dir_all(out.join("parsers")).unwrap();
    std::fs::write(out.join("parsers"), "in the way").unwrap();
    let fail = bin()
        .arg("site")
        .arg("--out")
        .arg(&out)
        .arg(report_dir)
        .output()
        .unwrap();
    assert_eq!(fail.status.code(), Some(2));
    assert!(text(&fail.stderr).contains("parsers"), "{}", text(&fail.stderr));
    assert!(read(&out.join("index.html")).ends_with("</html>\n"));
}

#[test]
fn bad_inputs_are_refused_naming_the_file() {
    let d = scratch("site-bad");
    let not_json = d.join("notes.json");
    std::fs::write(&not_json, "{\"x\": 1}").unwrap();
    let (_, run) = site("bad-json", &[&not_json]);
    assert_eq!(run.status.code(), Some(2));
    let err = text(&run.stderr);
    assert!(
        err.contains("notes.json") && err.contains("neither a report.json"),
        "{err}"
    );

    let missing = d.join("no-such-report.json");
    let (_, run) = site("bad-missing", &[&missing]);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains("no-such-report.json"),
        "{}",
        text(&run.stderr)
    );

    let empty = d.join("empty");
    std::fs::create_dir_all(empty.join("sub")).unwrap();
    let (_, run) = site("bad-empty", &[&empty]);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains("no report.json or history.json in"),
        "{}",
        text(&run.stderr)
    );

    // A truncated report.json inside a folder: named, with the parser's place.
    let cut = d.join("runs/cut");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::write(
        cut.join("report.json"),
        "{\"tool\": \"x\", \"adapters\": [",
    )
    .unwrap();
    let (_, run) = site("bad-cut", &[&d.join("runs")]);
    assert_eq!(run.status.code(), Some(2));
    let err = text(&run.stderr);
    assert!(
        err.contains("runs/cut/report.json") && err.contains("line 1"),
        "{err}"
    );

    // A register file that breaks the register's rules.
    let bugs = d.join("bugs");
    std::fs::create_dir_all(&bugs).unwrap();
    std::fs::write(bugs.join("x.toml"), "adapter = \"y\"\n").unwrap();
    let history = d.join("h/history.json");
    std::fs::create_dir_all(history.parent().unwrap()).unwrap();
    std::fs::write(&history, HISTORY).unwrap();
    let out = d.join("site");
    let run = bin()
        .args(["site", "--bugs"])
        .arg(&bugs)
        .arg("--out")
        .arg(&out)
        .arg(&history)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let err = text(&run.stderr);
    assert!(
        err.contains("x.toml") && err.contains("must be named y.toml"),
        "{err}"
    );
    assert!(
        !out.join("index.html").exists(),
        "nothing written on a bad register"
    );
}

#[test]
fn certify_writes_the_badge_the_site_shows() {
    let cases = case_files("site-certify", &CASES);
    let out = scratch("site-certify-out").join("cert");
    let run = bin()
        .args(["certify", "--adapter", "rust-robotstxt", "--cases"])
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", text(&run.stderr));
    let svg = read(&out.join("badge.svg"));
    // rust-robotstxt passes the three MUST-level checks.
    assert!(
        svg.contains(">RFC 9309 MUST</text>") && svg.contains(">100 %</text>"),
        "{svg}"
    );
    assert!(
        svg.contains("passes 3 of 3 scored checks at the MUST level"),
        "{svg}"
    );
    let stdout = text(&run.stdout);
    assert!(stdout.contains("(RFC 9309 MUST: 100 %)"), "{stdout}");
}
