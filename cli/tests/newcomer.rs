//! What a newcomer meets first (issue 26): the embedded sample corpus
//! where no corpus is given, clear errors for a corpus or input that does
//! not exist (naming the sample and where real data comes from), `audit`
//! exit codes, reports written readable (0644 less the umask) with the
//! lock file gone and the replaced reports named, and `certify`'s
//! terminal summary.

mod common;

use std::path::Path;

use common::{bin, case_files, scratch, text};

#[test]
fn make_warc_without_a_corpus_writes_the_embedded_sample_and_audit_reads_it() {
    let dir = scratch("newcomer-sample");
    let run = bin()
        .args(["audit", "make-warc", "--split", "2", "--out"])
        .arg(dir.join("in/corpus.warc.gz"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let err = text(&run.stderr);
    assert!(err.contains("the embedded sample"), "{err}");
    let records: usize = err
        .lines()
        .last()
        .and_then(|l| l.strip_suffix(" records"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no record count: {err}"));
    assert!(records > 200, "{err}");
    let audit = bin()
        .args(["audit", "--no-progress", "--out"])
        .arg(dir.join("out"))
        .arg(dir.join("in/corpus-00000.warc.gz"))
        .arg(dir.join("in/corpus-00001.warc.gz"))
        .output()
        .unwrap();
    assert_eq!(audit.status.code(), Some(0), "{}", text(&audit.stderr));
    let doc: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.join("out/audit.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(doc["counts"]["records"], records);
    assert_eq!(doc["counts"]["hosts_audited"], records);
    // A second run into the same folder says what it replaces.
    let again = bin()
        .args(["audit", "--no-progress", "--out"])
        .arg(dir.join("out"))
        .arg(dir.join("in"))
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert!(
        text(&again.stderr).contains("replacing an earlier audit's"),
        "{}",
        text(&again.stderr)
    );
}

#[test]
fn a_corpus_that_does_not_exist_names_the_sample_and_common_crawl() {
    let missing = "no-such-dir/real-robots.tar.gz";
    for args in [
        vec!["audit", "make-warc", missing, "--out", "never.warc.gz"],
        vec!["bench", "--seconds", "0", "--corpus", missing],
        vec![
            "diff",
            "--adapters",
            "rust-robotxt",
            "--cases",
            "1",
            "--corpus",
            missing,
        ],
    ] {
        let run = bin().args(&args).output().unwrap();
        let err = text(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(missing), "{args:?}: {err}");
        assert!(err.contains("embedded sample"), "{args:?}: {err}");
        assert!(err.contains("robotstxt.paths.gz"), "{args:?}: {err}");
        assert!(!err.contains("shared/corpus"), "{args:?}: {err}");
    }
    assert!(!Path::new("never.warc.gz").exists());
}

#[test]
fn audit_refuses_a_named_input_that_does_not_exist_before_it_runs() {
    let dir = scratch("newcomer-missing-input");
    let out = dir.join("out");
    let pattern = dir.join("in/*.warc.gz");
    let run = bin()
        .args(["audit", "--no-progress", "--out"])
        .arg(&out)
        .arg(&pattern)
        .output()
        .unwrap();
    let err = text(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains(pattern.to_str().unwrap()), "{err}");
    assert!(!out.exists(), "nothing ran, nothing was written");
}

#[test]
fn audit_of_inputs_without_a_record_exits_1_and_bad_records_stay_counted() {
    let dir = scratch("newcomer-no-record");
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, b"").unwrap();
    let run = bin()
        .args(["audit", "--no-progress", "--out"])
        .arg(dir.join("out-empty"))
        .arg(&empty)
        .output()
        .unwrap();
    let err = text(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("no record in any"), "{err}");
    // One good line and one bad one: the run stands, the bad one counted.
    let mixed = dir.join("mixed.jsonl");
    std::fs::write(
        &mixed,
        b"{\"host\": \"a.example\", \"body\": \"User-agent: *\\nDisallow: /\\n\"}\nnot json\n",
    )
    .unwrap();
    let run = bin()
        .args(["audit", "--no-progress", "--adapters", "none", "--out"])
        .arg(dir.join("out-mixed"))
        .arg(&mixed)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let doc: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.join("out-mixed/audit.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(doc["counts"]["hosts_audited"], 1);
    assert_eq!(doc["counts"]["bad_records"], 1);
}

/// A cases folder with one case of two checks.
fn cases(tag: &str) -> std::path::PathBuf {
    let case = "[[case]]\nid = \"a\"\nclauses = [\"R2.2.2-9\"]\nsource = \"regression\"\n\
                robots = \"User-agent: *\\nDisallow: /no\\n\"\n\
                check = [{ agent = \"FooBot\", url = \"/yes\", expect = \"allowed\" }, \
                { agent = \"FooBot\", url = \"/no\", expect = \"disallowed\" }]\n";
    case_files(&format!("newcomer-{tag}"), &[("a", case.as_bytes())])
}

#[cfg(unix)]
#[test]
fn certify_prints_tier_counts_and_writes_readable_files_without_a_lock() {
    use std::os::unix::fs::PermissionsExt;
    let cases = cases("certify");
    let out = scratch("newcomer-certify").join("cert");
    let certify = || {
        bin()
            .args(["certify", "--adapter", "rust-robotxt", "--cases"])
            .arg(&cases)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap()
    };
    let run = certify();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let stdout = text(&run.stdout);
    assert!(stdout.contains("clauses: "), "{stdout}");
    assert!(stdout.contains(" pass, "), "{stdout}");
    assert!(stdout.contains("certificate: "), "{stdout}");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["badge.svg", "certificate.json", "certificate.md"]);
    // As a file this process creates: 0644 less the umask, never the
    // temporary file's private 0600 where the umask allows more.
    let probe = out.join("probe");
    std::fs::File::create(&probe).unwrap();
    let want = std::fs::metadata(&probe).unwrap().permissions().mode() & 0o644;
    std::fs::remove_file(&probe).unwrap();
    for n in &names {
        let mode =
            std::fs::metadata(out.join(n)).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, want, "{n}: {:o}", mode & 0o777);
    }
    let again = certify();
    assert!(
        text(&again.stderr).contains(
            "replacing an earlier run's badge.svg, certificate.json, certificate.md"
        ),
        "{}",
        text(&again.stderr)
    );
}
