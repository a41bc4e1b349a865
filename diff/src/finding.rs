//! Findings as ready-to-promote cases in the spec-cases format, and
//! their promotion into `spec-cases/findings/`.
//!
//! A finding is the oracle's verdict, not yet a reviewed expectation:
//! promotion refuses one whose note still says it was not reviewed, and
//! one that every compared adapter answered against the oracle (then the
//! oracle is the likelier culprit), unless the caller says why it holds;
//! that reason is recorded in the promoted case's note. It never promotes
//! a file that does not validate, and never leaves a half-written target.

use std::path::{Path, PathBuf};

use crate::Finding;
use robots_runner::case::CaseError;
use robots_runner::case::schema::{DecideCase, DecideCheck, write_cases};
use robots_runner::output::{OutputError, atomic_write};
use robots_runner::suite::{Suite, load_clauses};

/// The spec-cases category a finding's axis belongs to.
pub fn category(axis: &str) -> &'static str {
    match axis.split('+').next().unwrap_or_default() {
        "precedence" => "precedence",
        "encoding" => "encoding",
        "grouping" => "grouping",
        "ua-matching" => "ua-matching",
        "wildcards" => "wildcards",
        "line-syntax" => "syntax",
        "limits" => "limits",
        "special-cases" => "special-cases",
        _ => "findings",
    }
}

/// A short stable hash (FNV-1a) of the minimised input.
fn hash(f: &Finding) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in f.robots.iter().chain(f.agent.as_bytes()).chain(f.url.as_bytes())
    {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{:08x}", h as u32)
}

fn slug(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while out.contains("--") {
        out = out.replace("--", "-");
    }
    out.trim_matches('-').to_string()
}

/// The case id of a finding: stable for the same minimised input.
pub fn id(f: &Finding) -> String {
    format!("fuzz-{}-{}-{}", slug(&f.adapter), slug(&f.explanation), hash(f))
}

/// The sentence a finding's note carries until someone reviews it.
pub const UNREVIEWED: &str = "Review the expectations before promoting: they are the \
     oracle's verdicts, and a reading the RFC leaves open should become implementation-defined.";

/// Header line: the adapters that answered against the oracle.
const AGAINST: &str = "# Answered against the oracle by: ";
/// Header line: every adapter the run compared with the oracle.
const COMPARED: &str = "# Compared with the oracle: ";

/// The finding as a TOML case file (with a header comment).
pub fn to_toml(f: &Finding) -> String {
    to_toml_among(f, &[])
}

/// The finding as a TOML case file whose header also names every adapter
/// the run compared (`compared`), so that `promote` can tell a finding
/// all of them answered against the oracle.
pub fn to_toml_among(f: &Finding, compared: &[&str]) -> String {
    let mut clauses = f.clauses.clone();
    if clauses.is_empty() {
        clauses.push("R2.2.2-2".into());
    }
    let mut shared = f.shared_with.clone();
    shared.insert(0, f.adapter.clone());
    let note = format!(
        "Found by `robots-conformance diff` ({}). {} answered {} where the oracle ({}) says {}; \
         explained by {} (axis {}). {UNREVIEWED}",
        f.origin,
        shared.join(", "),
        f.answer,
        f.profile,
        f.oracle.get(&f.profile).map_or("?", String::as_str),
        f.explanation,
        f.axis
    );
    let case = DecideCase {
        id: id(f),
        clauses,
        source: "fuzz-finding",
        categories: vec![category(&f.axis).to_string()],
        note,
        robots: &f.robots,
        checks: vec![DecideCheck {
            agent: &f.agent,
            url: &f.url,
            expect: &f.oracle,
        }],
    };
    let body = write_cases(&[case]).unwrap_or_else(|e| format!("# {e}\n"));
    let mut header = format!(
        "# Finding: {} disagrees with the oracle; {} ({}).\n# Shape: {}\n",
        f.adapter, f.explanation, f.axis, f.shape
    );
    if !compared.is_empty() {
        header.push_str(&format!("{AGAINST}{}\n", shared.join(", ")));
        header.push_str(&format!("{COMPARED}{}\n", compared.join(", ")));
    }
    format!("{header}\n{body}")
}

/// The adapters a header line lists (leading comment lines only).
fn header_list(text: &str, prefix: &str) -> Vec<String> {
    text.lines()
        .take_while(|l| l.starts_with('#') || l.trim().is_empty())
        .find_map(|l| l.strip_prefix(prefix))
        .map(|rest| {
            rest.split(',')
                .map(|a| a.trim().to_string())
                .filter(|a| !a.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// The compared adapters, when every one of them (two or more) answered
/// against the oracle.
fn all_against(text: &str) -> Option<Vec<String>> {
    let compared = header_list(text, COMPARED);
    let against = header_list(text, AGAINST);
    (compared.len() >= 2 && compared.iter().all(|a| against.contains(a)))
        .then_some(compared)
}

/// `text` with `Reviewed: why` in its case note (in place of the
/// [`UNREVIEWED`] sentence, else at the end); `None` when the note is not
/// a one-line string.
fn record_review(text: &str, why: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len() + why.len() + 16);
    let mut done = false;
    for line in text.split_inclusive('\n') {
        if !done && line.starts_with("note = ") {
            let table: toml::Table = toml::from_str(line).ok()?;
            let note = table.get("note")?.as_str()?;
            let reviewed = format!("Reviewed: {why}");
            let note = if note.contains(UNREVIEWED) {
                note.replace(UNREVIEWED, &reviewed)
            } else {
                format!("{} {reviewed}", note.trim_end())
            };
            let mut t = toml::Table::new();
            t.insert("note".into(), toml::Value::String(note));
            out.push_str(&toml::to_string(&t).ok()?);
            done = true;
        } else {
            out.push_str(line);
        }
    }
    done.then_some(out)
}

/// Why a finding was not promoted.
#[derive(Debug, thiserror::Error)]
pub enum PromoteError {
    /// A file or folder could not be read or written.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The finding is not a valid case file.
    #[error("{} does not validate: {}", .finding.display(), .error.message())]
    DoesNotValidate {
        /// The finding file.
        finding: PathBuf,
        /// The first mistake in it.
        error: Box<CaseError>,
    },
    /// The project's clause index does not load.
    #[error(transparent)]
    ClauseIndex(Box<CaseError>),
    /// The finding holds no case.
    #[error("no case in the finding")]
    NoCase,
    /// The note still says the finding was not reviewed.
    #[error(
        "{}: not reviewed (its note still says \"Review the expectations before promoting\"): \
         replace that sentence by what was reviewed and why the expectation holds, or pass \
         --reviewed \"why\"",
        .finding.display()
    )]
    Unreviewed {
        /// The finding file.
        finding: PathBuf,
    },
    /// Every compared adapter answered against the oracle.
    #[error(
        "{}: every adapter compared ({}) answered against the oracle; the oracle may be the \
         one that is wrong. Check the clause, then pass --reviewed \"why the oracle is right\"",
        .finding.display(),
        .adapters.join(", ")
    )]
    EveryAdapterDisagrees {
        /// The finding file.
        finding: PathBuf,
        /// The adapters.
        adapters: Vec<String>,
    },
    /// The `--reviewed` reason is empty.
    #[error(
        "--reviewed needs a reason (what was checked, and why the expectation holds)"
    )]
    EmptyReview,
    /// The review could not be written into the note.
    #[error("{}: the case note is not a one-line string; write the review into it by hand", .finding.display())]
    CannotRecordReview {
        /// The finding file.
        finding: PathBuf,
    },
    /// The target could not be written (the error names it).
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The target already has a case with this id.
    #[error("{} already has case {id}", .target.display())]
    AlreadyThere {
        /// The target file.
        target: PathBuf,
        /// The case id.
        id: String,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PromoteError + '_ {
    move |source| PromoteError::Io { path: path.to_path_buf(), source }
}

/// Promotes a finding file into `root/findings/<category>.toml`, after
/// it validates against `root`'s clause index; removes the finding file.
/// `reviewed` is why the expectation holds: required when the note says
/// it was not reviewed or every compared adapter answered against the
/// oracle, and recorded in the note when given. Returns the target file.
///
/// # Errors
///
/// When the finding is unreviewed or contradicted by every adapter
/// without a reason, does not validate, its id already exists in the
/// target, or on I/O errors (each naming its path).
pub fn promote(
    root: &Path,
    finding: &Path,
    reviewed: Option<&str>,
) -> Result<PathBuf, PromoteError> {
    let mut text = std::fs::read_to_string(finding).map_err(io(finding))?;
    let reviewed = match reviewed.map(str::trim) {
        Some("") => return Err(PromoteError::EmptyReview),
        other => other,
    };
    if let Some(why) = reviewed {
        text = record_review(&text, why).ok_or_else(|| {
            PromoteError::CannotRecordReview { finding: finding.to_path_buf() }
        })?;
    } else if let Some(adapters) = all_against(&text) {
        return Err(PromoteError::EveryAdapterDisagrees {
            finding: finding.to_path_buf(),
            adapters,
        });
    } else if text.contains(UNREVIEWED) {
        return Err(PromoteError::Unreviewed {
            finding: finding.to_path_buf(),
        });
    }
    load_clauses(root).map_err(|e| PromoteError::ClauseIndex(Box::new(e)))?;
    // Validate it as a case file in a scratch folder, against the real
    // clause index.
    let scratch = tempfile::Builder::new()
        .prefix("robots-promote-")
        .tempdir()
        .map_err(io(&std::env::temp_dir()))?;
    let dir = scratch.path().join("findings");
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let candidate = dir.join("candidate.toml");
    std::fs::write(&candidate, &text).map_err(io(&candidate))?;
    let suite = Suite::load_with_index(scratch.path(), root, |_| true);
    if let Some(e) = suite.errors.first() {
        return Err(PromoteError::DoesNotValidate {
            finding: finding.to_path_buf(),
            error: Box::new(e.clone()),
        });
    }
    let case = suite.cases.first().ok_or(PromoteError::NoCase)?;
    let category =
        case.categories.first().cloned().unwrap_or_else(|| "findings".into());
    let folder = root.join("findings");
    let target = folder.join(format!("{category}.toml"));
    let existing = match std::fs::read_to_string(&target) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io(&target)(e)),
    };
    if existing.contains(&format!("id = \"{}\"", case.id)) {
        return Err(PromoteError::AlreadyThere {
            target,
            id: case.id.clone(),
        });
    }
    let mut out = if existing.is_empty() {
        format!(
            "# Findings of differential fuzzing on the `{category}` axis, promoted with\n\
             # `robots-conformance promote`. Each case is a minimised input on which real parsers\n\
             # disagreed; the note says which and why.\n"
        )
    } else {
        existing
    };
    out.push('\n');
    out.push_str(&text);
    std::fs::create_dir_all(&folder).map_err(io(&folder))?;
    atomic_write(&target, out.as_bytes())?;
    std::fs::remove_file(finding).map_err(io(finding))?;
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(robots: &[u8]) -> Finding {
        Finding {
            adapter: "rust-x".into(),
            profile: "rfc9309".into(),
            explanation: "longest-match".into(),
            axis: "precedence".into(),
            clauses: vec!["R2.2.2-2".into()],
            shape: "s".into(),
            robots: robots.to_vec(),
            agent: "FooBot".into(),
            url: "/a".into(),
            answer: "allowed".into(),
            oracle: [
                ("google".to_string(), "disallowed".to_string()),
                ("rfc9309".to_string(), "disallowed".to_string()),
            ]
            .into(),
            shared_with: vec!["py-y".into()],
            origin: "seed 1 check 2".into(),
            count: 1,
        }
    }

    /// A cases root with the project's clause index, and a finding file.
    fn setup(tag: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
        let root = tempfile::Builder::new()
            .prefix(&format!("rc-promote-{tag}-"))
            .tempdir()
            .unwrap();
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        std::fs::copy(
            here.join("../spec-cases/clauses.toml"),
            root.path().join("clauses.toml"),
        )
        .unwrap();
        let out = root.path().join("out/findings");
        std::fs::create_dir_all(&out).unwrap();
        let file = out.join("f.toml");
        std::fs::write(&file, text).unwrap();
        (root, file)
    }

    fn promoted_note(root: &Path) -> String {
        let suite = Suite::load(root);
        assert!(suite.errors.is_empty(), "{:?}", suite.errors);
        suite.cases[0].note.clone().unwrap()
    }

    const BODY: &[u8] = b"User-agent: *\nDisallow: /a\n";

    #[test]
    fn an_unreviewed_finding_is_refused_until_told_why() {
        let (root, file) = setup("unreviewed", &to_toml(&finding(BODY)));
        let err = promote(root.path(), &file, None).unwrap_err();
        assert!(matches!(err, PromoteError::Unreviewed { .. }), "{err}");
        assert!(file.exists());
        let err = promote(root.path(), &file, Some("  ")).unwrap_err();
        assert!(matches!(err, PromoteError::EmptyReview), "{err}");
        let why = "R2.2.2-2: the longest match `Disallow: /a` wins";
        let target = promote(root.path(), &file, Some(why)).unwrap();
        assert!(!file.exists());
        assert!(target.ends_with("findings/precedence.toml"));
        let note = promoted_note(root.path());
        assert!(note.contains(&format!("Reviewed: {why}")), "{note}");
        assert!(!note.contains(UNREVIEWED), "{note}");
    }

    #[test]
    fn a_hand_reviewed_note_promotes_without_a_reason() {
        let text = to_toml_among(&finding(BODY), &["rust-x", "py-y", "go-z"])
            .replace(UNREVIEWED, "Checked against R2.2.2-2 by hand.");
        let (root, file) = setup("hand", &text);
        promote(root.path(), &file, None).unwrap();
        let note = promoted_note(root.path());
        assert!(note.ends_with("Checked against R2.2.2-2 by hand."), "{note}");
    }

    #[test]
    fn a_finding_every_adapter_answered_against_the_oracle_needs_a_reason() {
        // rust-x and py-y answered alike, and they were all compared.
        let text = to_toml_among(&finding(BODY), &["py-y", "rust-x"])
            .replace(UNREVIEWED, "Looked at it.");
        assert!(text.contains("# Compared with the oracle: py-y, rust-x\n"));
        let (root, file) = setup("all-against", &text);
        let err = promote(root.path(), &file, None).unwrap_err();
        assert!(
            matches!(&err, PromoteError::EveryAdapterDisagrees { adapters, .. }
                if adapters == &["py-y", "rust-x"]),
            "{err}"
        );
        assert!(err.to_string().contains("py-y, rust-x"), "{err}");
        assert!(file.exists());
        let why = "every parser is wrong here: R2.2.2-2 is explicit";
        promote(root.path(), &file, Some(why)).unwrap();
        let note = promoted_note(root.path());
        assert!(
            note.ends_with(&format!("Looked at it. Reviewed: {why}")),
            "{note}"
        );
    }

    #[test]
    fn a_finding_is_written_as_a_case_file() {
        let got = to_toml(&finding(b"User-agent: *\nDisallow: /a\n"));
        let want = r#"# Finding: rust-x disagrees with the oracle; longest-match (precedence).
# Shape: s

[[case]]
id = "fuzz-rust-x-longest-match-WANT_HASH"
clauses = ["R2.2.2-2"]
source = "fuzz-finding"
categories = ["precedence"]
note = "Found by `robots-conformance diff` (seed 1 check 2). rust-x, py-y answered allowed where the oracle (rfc9309) says disallowed; explained by longest-match (axis precedence). Review the expectations before promoting: they are the oracle's verdicts, and a reading the RFC leaves open should become implementation-defined."
robots = """
User-agent: *
Disallow: /a
"""

[[case.check]]
agent = "FooBot"
url = "/a"

[case.check.expect]
google = "disallowed"
rfc9309 = "disallowed"
"#;
        let want = want.replace(
            "WANT_HASH",
            &hash(&finding(b"User-agent: *\nDisallow: /a\n")),
        );
        assert_eq!(got, want);
        let binary = to_toml(&finding(b"\xff\x00"));
        assert!(binary.contains("robots_base64 = \"/wA=\""), "{binary}");
    }
}
