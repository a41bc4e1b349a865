//! `fingerprint`, end to end: the last line's shape, the JSON it writes,
//! and a real parser's fit being at least as good as its claim.

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_robots-conformance"))
}

fn last_line(out: &std::process::Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().last().unwrap_or_default().to_string()
}

/// The two percentages of a fingerprint line: fitted, claimed.
fn percentages(line: &str) -> (f64, f64) {
    let num = |s: &str| -> f64 {
        let end = s.find('%').expect("a percentage");
        s[..end].parse().expect("a number")
    };
    let fitted = line.split("agrees ").nth(1).expect("agrees X%");
    let claimed = line.split("claimed profile ").nth(1).expect("claimed Y%");
    (num(fitted), num(claimed))
}

#[test]
fn the_oracle_under_its_own_profile_is_its_own_fingerprint() {
    let dir =
        std::env::temp_dir().join(format!("rc-fp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("fit.json");
    let out = bin()
        .args(["fingerprint", "--adapter", "reference-google", "precedence::"])
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        last_line(&out),
        "reference-google ≈ google: agrees 100% of scored checks \
         (claimed profile 100%)"
    );
    let fit: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(fit["agree"], fit["scored"]);
    assert!(fit["scored"].as_u64().unwrap() > 0);
    assert_eq!(fit["residual"].as_array().unwrap().len(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_real_parser_fits_at_least_as_well_as_its_claim() {
    let out = bin()
        .args(["fingerprint", "--adapter", "rust-robotstxt", "precedence::"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let line = last_line(&out);
    assert!(line.starts_with("rust-robotstxt ≈ "), "{line}");
    let (fitted, claimed) = percentages(&line);
    assert!(fitted >= claimed, "{line}");
}

#[test]
fn an_unknown_adapter_is_a_usage_error_naming_the_known_ones() {
    let out = bin()
        .args(["fingerprint", "--adapter", "no-such-parser"])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no adapter `no-such-parser`"), "{err}");
    assert!(err.contains("reference-google"), "{err}");
}

#[test]
fn certify_carries_the_fingerprint_section_and_json() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = std::env::temp_dir()
        .join(format!("rc-fp-cert-{}", std::process::id()));
    let cases = dir.join("cases");
    std::fs::create_dir_all(cases.join("precedence")).unwrap();
    std::fs::copy(
        root.join("spec-cases/clauses.toml"),
        cases.join("clauses.toml"),
    )
    .unwrap();
    std::fs::copy(
        root.join("spec-cases/precedence/longest-match.toml"),
        cases.join("precedence/longest-match.toml"),
    )
    .unwrap();
    let out = dir.join("cert");
    let run = bin()
        .args(["certify", "--adapter", "rust-robotxt", "--cases"])
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let md = std::fs::read_to_string(out.join("certificate.md")).unwrap();
    assert!(md.contains("## Fingerprint"), "{md}");
    assert!(md.contains("    rust-robotxt ≈ "), "{md}");
    let json: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out.join("certificate.json")).unwrap(),
    )
    .unwrap();
    let fit = &json["fingerprint"];
    assert_eq!(fit["adapter"], "rust-robotxt");
    assert!(fit["scored"].as_u64().unwrap() > 0, "{fit}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A fetch bug whose site `check` can serve (the file alone, a status,
/// content codings) is proposed for the register with them, and its
/// report says how to replay it: robotparser 0.11.0's own fetch does not
/// undo a gzip coding (rust-robotparser-3).
#[test]
fn bugs_proposes_a_fetch_bug_with_the_status_and_codings_it_is_served_with() {
    let dir = std::env::temp_dir()
        .join(format!("rc-bugs-fetch-{}", std::process::id()));
    let out = bin()
        .args(["bugs", "--adapter", "rust-robotparser"])
        .args(["fetch::content::gzip-content-encoding-is-decoded"])
        .args(["fetch::content::identity-content-encoding-is-no-coding"])
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let proposed = std::fs::read_to_string(dir.join("proposed.toml")).unwrap();
    let file: robots_fingerprint::register::File = toml::from_str(&proposed)
        .unwrap_or_else(|e| panic!("{e}\n{proposed}"));
    let [e] = file.bug.as_slice() else { panic!("one entry: {proposed}") };
    assert_eq!(e.status, Some(200), "{proposed}");
    assert_eq!(e.content_encoding.as_deref(), Some("gzip"), "{proposed}");
    assert_eq!(
        (e.url.as_str(), e.actual.as_str()),
        ("/private/page", "allowed")
    );
    assert_eq!(e.expected["google"].answer, "disallowed", "{proposed}");
    assert_eq!(
        e.cases,
        ["fetch::content::gzip-content-encoding-is-decoded::1"]
    );
    let report = std::fs::read_to_string(dir.join("bug-001.md")).unwrap();
    assert!(
        report.contains(
            "--status 200 --content-encoding 'gzip' --adapter rust-robotparser"
        ),
        "{report}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bugs_writes_an_index_and_one_report_per_class_for_a_real_parser() {
    let dir = std::env::temp_dir()
        .join(format!("rc-bugs-cli-{}", std::process::id()));
    let out = bin()
        .args(["bugs", "--adapter", "rust-robots_txt", "precedence::"])
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("rust-robots_txt ≈ "), "{text}");
    let index = std::fs::read_to_string(dir.join("index.md")).unwrap();
    assert!(index.starts_with("# Bugs of rust-robots_txt"), "{index}");
    let bugs: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("bugs.json")).unwrap())
            .unwrap();
    let n = bugs.as_array().unwrap().len();
    for i in 1..=n {
        let f = dir.join(format!("bug-{i:03}.md"));
        let md = std::fs::read_to_string(&f).unwrap();
        assert!(md.contains("## Expected vs actual"), "{}", f.display());
        assert!(index.contains(&format!("bug-{i:03}.md")));
    }
    assert!(!dir.join(format!("bug-{:03}.md", n + 1)).exists());
    // Proposed register entries: one per decide bug, in the register's
    // format, refused by the register until a person reviews them.
    let proposed = std::fs::read_to_string(dir.join("proposed.toml")).unwrap();
    let file: robots_fingerprint::register::File = toml::from_str(&proposed)
        .unwrap_or_else(|e| panic!("{e}\n{proposed}"));
    assert_eq!(file.adapter, "rust-robots_txt");
    assert!(!file.bug.is_empty(), "{proposed}");
    for e in &file.bug {
        assert!(e.title.starts_with("TO REVIEW: "), "{}", e.title);
        assert_eq!(e.seen_in, ["0.7.0"]);
        assert_ne!(e.expected["rfc9309"].answer, e.actual, "{}", e.id);
        assert!(e.reviewed.is_empty());
    }
    let register = dir.join("register");
    std::fs::create_dir_all(&register).unwrap();
    std::fs::write(register.join("rust-robots_txt.toml"), &proposed).unwrap();
    let refused = robots_fingerprint::register::load(&register).unwrap_err();
    assert!(refused.to_string().contains("rust-robots_txt-1"), "{refused}");
    // The fit it used is written beside the reports, and can be reused.
    let fit = dir.join("fit.json");
    assert!(fit.is_file());
    let again = bin()
        .args(["bugs", "--adapter", "rust-robots_txt", "precedence::"])
        .arg("--out")
        .arg(&dir)
        .arg("--fit")
        .arg(&fit)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(0), "{again:?}");
    assert_eq!(
        String::from_utf8_lossy(&again.stdout).lines().next(),
        text.lines().next()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn matrix_fingerprint_shows_each_parsers_fit_in_the_reports() {
    let dir = std::env::temp_dir()
        .join(format!("rc-matrix-fp-{}", std::process::id()));
    let out = bin()
        .args([
            "matrix",
            "--adapters",
            "reference,rust-robots_txt",
            "--fingerprint",
            "--threads",
            "precedence::",
        ])
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.code() == Some(0), "{out:?}");
    let md = std::fs::read_to_string(dir.join("matrix.md")).unwrap();
    assert!(md.contains("## Fingerprints"), "{md}");
    assert!(
        md.contains("| reference | rfc9309 | `≈ rfc9309 (100%)` |"),
        "{md}"
    );
    let report: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.join("report.json")).unwrap(),
    )
    .unwrap();
    let fp = report["adapters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "rust-robots_txt")
        .unwrap()["fingerprint"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(fp.starts_with("≈ "), "{fp}");
    // The same fit as `fingerprint` on the same checks.
    let single = bin()
        .args(["fingerprint", "--adapter", "rust-robots_txt", "precedence::"])
        .output()
        .unwrap();
    let line = last_line(&single);
    let reading = line.split(" ≈ ").nth(1).unwrap().split(':').next().unwrap();
    assert!(fp.starts_with(&format!("≈ {reading} (")), "{fp} vs {line}");
    let html = std::fs::read_to_string(dir.join("matrix.html")).unwrap();
    assert!(html.contains("Fingerprint"));
    std::fs::remove_dir_all(&dir).unwrap();
}
